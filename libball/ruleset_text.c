/* SPDX-License-Identifier: MIT */
/* The rules' one-line text form (docs/spec.md; ball_rules_from_text(),
 * ball_rules_to_text()): words read into a ball_rules and a card set, and
 * written back. The struct, its sizes and checks are ruleset.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "sized.h"
#include "err_text.h"
#include "text_reader.h"

/* The messages carry their own prefix (err_text.h). */
#define fail(err, errlen, code, ...) err_text(err, errlen, code, __VA_ARGS__)

/* ---- the text form ---------------------------------------------------- */

/* A whole decimal number in [lo, hi] taking the len characters at s. */
static int read_int(const char *s, size_t len, int lo, int hi, int *out)
{
    uint32_t v;
    if (decimal_read(s, len, &v) < 0 || v < (uint32_t)lo || v > (uint32_t)hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* NAME:COST:EFFECT into the hand of team; a bad field (an unreadable one
 * passed on as out of range) gets cardset_card_check()'s reason in why. */
static int read_card(const char *s, size_t len, ball_cardset *cards, int team, char *why, size_t whylen)
{
    const char *c1 = memchr(s, ':', len);
    const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s)) : NULL;
    char name[BALL_CARD_NAME_MAX] = ""; /* too long: left empty, refused as a bad name */
    int cost = -1, effect = 0, amount = 0;
    if (!c2)
        return -1;
    if ((size_t)(c1 - s) < BALL_CARD_NAME_MAX) {
        memcpy(name, s, (size_t)(c1 - s));
        name[c1 - s] = '\0';
    }
    read_int(c1 + 1, (size_t)(c2 - c1 - 1), 0, BALL_MAX_CARD_PE, &cost);
    const char *eff = c2 + 1;
    size_t elen = len - (size_t)(eff - s);
    if (elen == 5 && memcmp(eff, "again", 5) == 0)
        effect = BALL_EFFECT_UNRESTRICT;
    else if (elen >= 3 && memcmp(eff, "pa+", 3) == 0) {
        effect = BALL_EFFECT_GAIN_PA;
        read_int(eff + 3, elen - 3, 1, 9, &amount);
    }
    if (cardset_card_check(name, cost, effect, amount, why, whylen) < 0)
        return -1;
    if (ball_cardset_add_card(cards, team, name, cost, effect, amount) < 0)
        return snprintf(why, whylen, "a hand holds at most %d cards", BALL_MAX_HAND), -1;
    return 0;
}

static int read_hand(const char *s, size_t len, ball_cardset *cards, int team, char *why, size_t whylen)
{
    if (cards->rules.hand_size[team] > 0 || len == 0)
        return -1; /* one hand per team, not empty */
    for (;;) {
        const char *comma = memchr(s, ',', len);
        size_t item = comma ? (size_t)(comma - s) : len;
        if (read_card(s, item, cards, team, why, whylen) < 0)
            return -1;
        if (!comma)
            return 0;
        s = comma + 1;
        len -= item + 1;
        if (len == 0)
            return -1; /* trailing comma */
    }
}

static int read_word(const char *w, size_t len, ball_rules *rules, ball_cardset *cards, int *card_mode,
                     char *why, size_t whylen)
{
    const char *eq = memchr(w, '=', len);
    if (!eq) {
        if (len != 5 || memcmp(w, "cards", 5) != 0)
            return -1;
        *card_mode = 1;
        return 0;
    }
    size_t klen = (size_t)(eq - w), vlen = len - klen - 1;
    const char *v = eq + 1;
    int n;
    if (klen == 4 && memcmp(w, "zone", 4) == 0)
        return read_int(v, vlen, 1, 3, &rules->end_zone_depth);
    if (klen == 5 && memcmp(w, "turns", 5) == 0) {
        if (read_int(v, vlen, 0, RULES_MAX_TURN_LIMIT, &n) < 0)
            return -1;
        rules->turn_limit = (unsigned)n;
        return 0;
    }
    *card_mode = 1;
    if (klen == 3 && (memcmp(w, "atk", 3) == 0 || memcmp(w, "def", 3) == 0))
        return read_hand(v, vlen, cards, w[0] == 'd' ? BALL_DEF : BALL_ATK, why, whylen);
    int e = klen > 5 && memcmp(w, "earn.", 5) == 0 ? cardset_earn_entry(w + 5, klen - 5) : -1;
    if (e < 0 || read_int(v, vlen, 0, BALL_MAX_CARD_PE, &n) < 0)
        return -1;
    cards->rules.earn[e] = (uint16_t)n;
    return 0;
}

static const char RULES_WORDS[] =
    "zone=1-3, turns=0-999999998, cards, earn.ENTRY=0-999, atk=/def=NAME:COST:pa+N|again,...";

int ball_rules_from_text(ball_rules *rules, ball_cardset **cards, const char *text, char *err,
                         size_t errlen)
{
    if (!rules || !cards || !text)
        return fail(err, errlen, BALL_E_ARG, "NULL argument");
    *cards = NULL; /* like every call that creates something: NULL on failure */
    if (!rules_size_published(rules->size))
        return fail(err, errlen, BALL_E_ARG, "ball_rules size %zu is not a published size "
                    "(initialise with ball_rules_init(&rules, sizeof rules))", rules->size);
    ball_rules r;
    ball_cardset c;
    rules_defaults(&r);
    cardset_clear(&c);
    int card_mode = 0;
    for (const char *s = text; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t len = strcspn(s, " ");
        char why[96] = "";
        if (read_word(s, len, &r, &c, &card_mode, why, sizeof why) < 0)
            return fail(err, errlen, BALL_E_RULES, why[0] ? "rules: bad word '%.*s' at character %zu: %s"
                                                          : "rules: bad word '%.*s' at character %zu (words: %s)",
                        (int)len, s, (size_t)(s - text) + 1, why[0] ? why : RULES_WORDS);
        s += len;
    }
    ball_cardset *set = NULL;
    if (card_mode) {
        if (ball_cardset_new(&set) != BALL_OK)
            return fail(err, errlen, BALL_E_NOMEM, "out of memory");
        *set = c;
    }
    size_t size = rules->size;
    r.cards = set;
    r.size = size < sizeof r ? size : sizeof r;
    sized_write(rules, size, &r, sizeof r);
    *cards = set;
    return fail(err, errlen, BALL_OK, "%s", "");
}

/* ---- writing the text form -------------------------------------------- */

typedef struct text_out {
    char *buf;
    size_t len, n;
} text_out;

static void put(text_out *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(text_out *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->n < t->len ? t->len - t->n : 0;
    int k = vsnprintf(room ? t->buf + t->n : NULL, room, fmt, ap);
    va_end(ap);
    t->n += (size_t)(k > 0 ? k : 0);
}

static void put_hand(text_out *t, const ball_cardset *c, int team)
{
    int n = c->rules.hand_size[team];
    for (int i = 0; i < n; i++) {
        const card_def *d = &c->rules.hand[team][i];
        put(t, "%s%s:%u:", i ? "," : (t->n ? (team ? " def=" : " atk=") : (team ? "def=" : "atk=")),
            c->names[team][i], (unsigned)d->cost);
        if (d->effect == EFFECT_GAIN_PA)
            put(t, "pa+%u", (unsigned)d->amount);
        else
            put(t, "again");
    }
}

int ball_rules_to_text(const ball_rules *rules, char *buf, size_t len)
{
    ruleset r;
    if (!buf || !rules || ruleset_read(&r, rules, NULL, 0) != BALL_OK)
        return BALL_E_ARG;
    text_out t = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    if (r.rules.end_zone_depth != 1)
        put(&t, "zone=%d", r.rules.end_zone_depth);
    if (r.rules.turn_limit)
        put(&t, "%sturns=%u", t.n ? " " : "", r.rules.turn_limit);
    if (r.rules.cards) {
        size_t before = t.n;
        for (int e = 0; e < EARN_COUNT; e++)
            if (r.cards.rules.earn[e])
                put(&t, "%searn.%s=%u", t.n ? " " : "", cardset_earn_name(e), (unsigned)r.cards.rules.earn[e]);
        put_hand(&t, &r.cards, BALL_ATK);
        put_hand(&t, &r.cards, BALL_DEF);
        if (t.n == before)
            put(&t, "%scards", t.n ? " " : "");
    }
    if (t.n >= len)
        return BALL_E_BUFFER;
    return (int)t.n;
}
