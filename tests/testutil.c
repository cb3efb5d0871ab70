#include "testutil.h"

#include <stdlib.h>
#include <string.h>

ball_game *tu_game_rules(const char *bpn, int end_zone_depth, unsigned turn_limit)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = end_zone_depth;
    rules.turn_limit = turn_limit;
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, &rules), BALL_OK);
    if (bpn) {
        int rc = ball_set_bpn(g, bpn);
        ck_assert_msg(rc == BALL_OK, "bad test BPN '%s': %s", bpn, ball_errmsg(g));
    }
    return g;
}

ball_game *tu_game(const char *bpn) { return tu_game_rules(bpn, 1, 0); }

void tu_bpn(ball_game *g, char out[BALL_BPN_MAX])
{
    tu_require(ball_get_bpn(g, out, BALL_BPN_MAX) > 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *tu_legal_prefix(ball_game *g, const char *prefix)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_ge(n, 0);
    char (*texts)[BALL_ACTION_TEXT_MAX] = malloc((size_t)(n + 1) * BALL_ACTION_TEXT_MAX);
    const char **ptrs = malloc((size_t)(n + 1) * sizeof *ptrs);
    int kept = 0;
    size_t plen = prefix ? strlen(prefix) : 0;
    for (int i = 0; i < n; i++) {
        ck_assert_int_gt(ball_action_text(acts[i], texts[kept], BALL_ACTION_TEXT_MAX), 0);
        if (plen == 0 || strncmp(texts[kept], prefix, plen) == 0) {
            ptrs[kept] = texts[kept];
            kept++;
        }
    }
    qsort(ptrs, (size_t)kept, sizeof *ptrs, cmp_str);
    size_t total = 1;
    for (int i = 0; i < kept; i++)
        total += strlen(ptrs[i]) + 1;
    char *out = malloc(total);
    out[0] = '\0';
    for (int i = 0; i < kept; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, ptrs[i]);
    }
    free(ptrs);
    free(texts);
    return out;
}

char *tu_legal(ball_game *g) { return tu_legal_prefix(g, NULL); }

void tu_apply(ball_game *g, const char *text)
{
    ball_action a = BALL_ACTION_NONE;
    int rc = ball_action_parse(g, text, &a);
    ck_assert_msg(rc == BALL_OK, "parse '%s': %s", text, ball_errmsg(g));
    rc = ball_apply(g, a);
    ck_assert_msg(rc == BALL_OK, "apply '%s': %s", text, ball_errmsg(g));
}

void tu_apply_all(ball_game *g, const char *texts)
{
    char buf[4096];
    strncpy(buf, texts, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        tu_apply(g, tok);
}

int tu_sq(const char *name)
{
    int sq = ball_square_from_name(name);
    ck_assert_msg(sq >= 0, "bad square name '%s'", name);
    return sq;
}

uint64_t tu_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void tu_check_text_round_trip(ball_game *g, const ball_action *acts, int n)
{
    for (int i = 0; i < n; i++) {
        char text[BALL_ACTION_TEXT_MAX];
        ball_action back = BALL_ACTION_NONE;
        tu_require(ball_action_text(acts[i], text, sizeof text) > 0);
        if (ball_action_parse(g, text, &back) != BALL_OK)
            ck_abort_msg("%s: %s", text, ball_errmsg(g));
        tu_require(back == acts[i]);
        for (int j = 0; j < i; j++)
            tu_require(acts[j] != acts[i]);
    }
}

void tu_apply_undo_round_trip(ball_game *g, ball_action a)
{
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX], again[BALL_BPN_MAX];
    uint64_t hash_before = ball_hash(g);
    tu_bpn(g, before);
    tu_require(ball_apply(g, a) == BALL_OK);
    tu_bpn(g, after);
    tu_require(ball_undo(g) == BALL_OK);
    tu_bpn(g, again);
    tu_require(strcmp(again, before) == 0);
    tu_require(ball_hash(g) == hash_before);
    tu_require(ball_apply(g, a) == BALL_OK);
    tu_bpn(g, again);
    tu_require(strcmp(again, after) == 0);
}

/* ball_random_action() draws each legal action for one n-th of the
 * 64-bit values: the n values ceil(i * 2^64 / n) draw every legal action
 * once, and the two ends of the range draw something legal. */
void tu_check_random_action(ball_game *g, const ball_action *acts, int n)
{
    static char drawn[BALL_MAX_ACTIONS];
    memset(drawn, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        unsigned __int128 r = ((unsigned __int128)i << 64) / (unsigned)n;
        if ((r * (unsigned)n) >> 64 < (unsigned)i) /* round up */
            r++;
        ball_action a = BALL_ACTION_NONE;
        tu_require(ball_random_action(g, (uint64_t)r, &a) == BALL_OK);
        int j = 0;
        while (j < n && acts[j] != a)
            j++;
        tu_require(j < n);       /* a legal action */
        tu_require(!drawn[j]);   /* drawn by one value only */
        drawn[j] = 1;
    }
    ball_action last = BALL_ACTION_NONE;
    tu_require(ball_random_action(g, UINT64_MAX, &last) == BALL_OK && ball_is_legal(g, last) == 1);
}

void tu_check_generator_modes(ball_game *g, const ball_action *acts, int n)
{
    ball_action one = BALL_ACTION_NONE;
    uint64_t counted = 0;
    tu_require(ball_perft(g, 1, &counted) == BALL_OK);
    tu_require(counted == (uint64_t)n);
    tu_require(ball_legal_actions(g, NULL, 0) == n);
    for (int i = 0; i < n; i++) {
        tu_require(ball_legal_action_at(g, i, &one) == BALL_OK);
        tu_require(one == acts[i]);
    }
    tu_require(ball_legal_action_at(g, n, &one) == BALL_E_RANGE);
    tu_require(ball_legal_action_at(g, -1, &one) == BALL_E_RANGE);
    tu_require(one == acts[n - 1]); /* untouched on error */
    tu_check_random_action(g, acts, n);
}
