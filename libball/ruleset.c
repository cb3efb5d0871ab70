/* SPDX-License-Identifier: MIT */
/* Public rulesets: ball_rules with its published sizes and its checks,
 * read into the game's own copy. The one-line text form is in
 * ruleset_text.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "sized.h"
#include "err_text.h"
#include "text_reader.h"

/* The sizeof of every published ball_rules layout (docs/abi.md): each
 * release's, named by its last field, then this version's own. A release
 * that appends a field adds the previous last field's layout here. */
static const size_t RULES_SIZES[] = {
    SIZED_LAYOUT(ball_rules, cards), /* 1.0 */
    sizeof(ball_rules),
};
#define N_RULES_SIZES (sizeof RULES_SIZES / sizeof RULES_SIZES[0])

int rules_size_published(size_t size) { return sized_published(size, RULES_SIZES, N_RULES_SIZES); }

void rules_defaults(ball_rules *r)
{
    memset(r, 0, sizeof *r);
    r->size = sizeof *r;
    r->end_zone_depth = 1;
}

void ball_rules_init(ball_rules *rules, size_t size)
{
    if (!rules)
        return;
    ball_rules r;
    rules_defaults(&r);
    r.size = size < sizeof r ? size : sizeof r;
    sized_write(rules, size, &r, sizeof r);
}

/* The messages carry their own prefix (err_text.h). */
#define fail(err, errlen, code, ...) err_text(err, errlen, code, __VA_ARGS__)

static int values_check(const ball_rules *r, char *err, size_t errlen)
{
    if (r->end_zone_depth < 1 || r->end_zone_depth > 3)
        return fail(err, errlen, BALL_E_RANGE, "end-zone depth %d out of range 1-3", r->end_zone_depth);
    if (r->turn_limit > RULES_MAX_TURN_LIMIT)
        return fail(err, errlen, BALL_E_RANGE, "turn limit %u out of range 0-%d (0: no limit)",
                    r->turn_limit, RULES_MAX_TURN_LIMIT);
    if (r->flags != 0)
        return fail(err, errlen, BALL_E_RANGE, "reserved flags 0x%x must be 0", r->flags);
    return BALL_OK;
}

int ruleset_read(ruleset *out, const ball_rules *src, char *err, size_t errlen)
{
    rules_defaults(&out->rules);
    memset(&out->cards, 0, sizeof out->cards);
    if (err && errlen)
        err[0] = '\0';
    if (!src)
        return BALL_OK;
    if (!sized_published(src->size, RULES_SIZES, N_RULES_SIZES))
        return fail(err, errlen, BALL_E_ARG,
                    "ball_rules size %zu is not a published size (this library's is %zu; "
                    "initialise with ball_rules_init(&rules, sizeof rules))", src->size, sizeof *src);
    memcpy(&out->rules, src, src->size);
    out->rules.size = sizeof out->rules;
    int rc = values_check(&out->rules, err, errlen);
    if (rc != BALL_OK)
        return rc;
    if (out->rules.cards)
        out->cards = *out->rules.cards;
    ruleset_rebind(out);
    return BALL_OK;
}

void ruleset_rebind(ruleset *r) { r->rules.cards = r->cards.rules.on ? &r->cards : NULL; }

int ruleset_write(const ruleset *r, ball_rules *out)
{
    size_t size = out->size;
    if (!sized_published(size, RULES_SIZES, N_RULES_SIZES))
        return BALL_E_ARG;
    sized_write(out, size, &r->rules, sizeof r->rules);
    out->size = size; /* the caller's layout, not ours */
    return BALL_OK;
}

int ball_rules_check(const ball_rules *rules, char *err, size_t errlen)
{
    if (!rules)
        return fail(err, errlen, BALL_E_ARG, "NULL rules");
    ruleset r;
    return ruleset_read(&r, rules, err, errlen);
}
