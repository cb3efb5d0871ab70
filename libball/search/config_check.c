/* SPDX-License-Identifier: MIT */
/* The table-driven check of a search player's configuration: see
 * config_check.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ball.h"
#include "config_check.h"
#include "err_text.h"
#include "sized.h"

/* The caller's size-tagged config over the defaults (cfg_read()). */
static int cfg_copy(void *dst, size_t dst_size, const void *src, const size_t *sizes, size_t n_sizes,
                    const char *who, const char *type, char *err, size_t errlen)
{
    size_t size;
    if (src == NULL)
        return BALL_OK;
    memcpy(&size, src, sizeof size);
    if (!sized_published(size, sizes, n_sizes))
        return err_text(err, errlen, BALL_E_ARG, "%s: %s size %zu is not a published size "
                        "(initialise with %s_init(&cfg, sizeof cfg))", who, type, size, type);
    memcpy(dst, src, size); /* fields beyond the caller's size keep their defaults */
    memcpy(dst, &dst_size, sizeof dst_size);
    return BALL_OK;
}

/* The field of @p r in @p cfg, as a double (an exact one for every
 * bound the tables use: integers below 2^53). */
static double field_value(const void *cfg, const struct cfg_rule *r)
{
    const char *p = (const char *)cfg + r->offset;
    int i;
    uint64_t u;
    double d;
    switch (r->kind) {
    case CFG_INT:
        memcpy(&i, p, sizeof i);
        return i;
    case CFG_U64:
        memcpy(&u, p, sizeof u);
        return (double)u;
    default:
        memcpy(&d, p, sizeof d);
        return d;
    }
}

static int broken(const void *cfg, const struct cfg_rule *r)
{
    double v;
    if (r->kind == CFG_TEST)
        return !r->test(cfg);
    v = field_value(cfg, r);
    return !(v >= r->lo && v <= r->hi);
}

/* "<name> <lo>-<hi>" or "<name> >= <lo>" at the end of @p buf. */
static void append_range(char *buf, size_t len, const struct cfg_rule *r)
{
    size_t n = strlen(buf);
    if (r->hi >= CFG_NO_MAX)
        snprintf(buf + n, len - n, "%s >= %.15g", r->name, r->lo);
    else
        snprintf(buf + n, len - n, "%s %.15g-%.15g", r->name, r->lo, r->hi);
}

/* The first broken rule of @p rules (cfg_read()). */
static int cfg_check(const void *cfg, const struct cfg_rule *rules, size_t n, const char *who, char *err,
                     size_t errlen)
{
    char msg[256] = "";
    for (size_t i = 0; i < n; i++) {
        const struct cfg_rule *r = &rules[i];
        if (!broken(cfg, r))
            continue;
        if (r->kind == CFG_TEST)
            return err_text(err, errlen, r->code, "%s: %s", who, r->msg);
        if (r->group == 0)
            return err_text(err, errlen, r->code, "%s: %s must lie in %.15g-%.15g", who, r->name, r->lo,
                            r->hi);
        for (size_t k = 0; k < n; k++)
            if (rules[k].group == r->group) {
                size_t m = strlen(msg);
                if (m > 0)
                    snprintf(msg + m, sizeof msg - m, ", ");
                append_range(msg, sizeof msg, &rules[k]);
            }
        return err_text(err, errlen, r->code, "%s: %s", who, msg);
    }
    return BALL_OK;
}

int cfg_read(int has_out, void *dst, size_t dst_size, const void *src, const struct cfg_spec *spec,
             char *err, size_t errlen)
{
    int rc;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (!has_out)
        return err_text(err, errlen, BALL_E_ARG, "%s: NULL output pointer", spec->who);
    rc = cfg_copy(dst, dst_size, src, spec->sizes, spec->n_sizes, spec->who, spec->type, err, errlen);
    return rc != BALL_OK ? rc : cfg_check(dst, spec->rules, spec->n_rules, spec->who, err, errlen);
}
