/* SPDX-License-Identifier: MIT */
/* The configurations of the search players checked from a table
 * (config_check.c): each constructor (ball_search_new(), ball_mcts_new())
 * states its fields' ranges once, in a table of rules beside its
 * constants, in the order they are checked; the first broken rule gives
 * the error code and the message. */
#ifndef BALL_SEARCH_CONFIG_CHECK_H
#define BALL_SEARCH_CONFIG_CHECK_H

#include <stddef.h>

/* A millisecond budget's largest value: a day. */
#define DAY_MS 86400000

enum cfg_kind {
    CFG_INT,    /* an int field within [lo, hi] */
    CFG_U64,    /* a uint64_t field within [lo, hi] */
    CFG_DOUBLE, /* a double field within [lo, hi] (NaN is outside) */
    CFG_TEST    /* a test over the whole configuration */
};

struct cfg_rule {
    enum cfg_kind kind;
    const char *name;   /* the field's name (a test: NULL) */
    size_t offset;      /* the field's offset in the configuration */
    double lo, hi;      /* the range, both included; hi = CFG_NO_MAX: none */
    int group;          /* > 0: one message names the ranges of every rule of the group */
    int (*test)(const void *cfg); /* CFG_TEST: 1 when the configuration passes */
    const char *msg;    /* CFG_TEST: the message */
    int code;           /* the error code of a broken rule */
};

#define CFG_NO_MAX 1e300

/* A field of struct type @p T within [lo, hi]. */
#define CFG_RANGE(T, kind, field, lo, hi, code) {kind, #field, offsetof(T, field), lo, hi, 0, NULL, NULL, code}
/* The same, its message shared by the rules of group @p g:
 * "<field> <lo>-<hi>, <field> >= <lo>, ...". */
#define CFG_GROUP(T, kind, field, lo, hi, g, code) {kind, #field, offsetof(T, field), lo, hi, g, NULL, NULL, code}
/* A test over the configuration with its message. */
#define CFG_TEST(fn, msg, code) {CFG_TEST, NULL, 0, 0, 0, 0, fn, msg, code}

/* A player's configuration: a size-tagged struct whose first field is
 * its size. */
struct cfg_spec {
    const char *who;              /* the player, at the head of messages ("mcts") */
    const char *type;             /* the struct ("ball_mcts_config") */
    const size_t *sizes;          /* its published sizes (docs/abi.md) */
    size_t n_sizes;
    const struct cfg_rule *rules; /* its rules, in the order they are checked */
    size_t n_rules;
};

/* The start of a player's constructor: err[errlen] emptied, a NULL
 * output pointer refused (@p has_out 0), then the caller's configuration
 * @p src (NULL: none) over the defaults in @p dst (@p dst_size bytes,
 * whose size it becomes), checked against the rules of @p spec. BALL_OK;
 * BALL_E_ARG for no output pointer or a size that is none of the
 * published ones; or the code of the first broken rule; the message
 * "<who>: ..." in err[errlen]. */
int cfg_read(int has_out, void *dst, size_t dst_size, const void *src, const struct cfg_spec *spec,
             char *err, size_t errlen);

#endif
