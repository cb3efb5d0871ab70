#define BALL_EXPERIMENTAL /* ball_net_load() */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

ball_game *tu_game_with(const ball_rules *rules, const char *bpn)
{
    ball_game *g = NULL;
    char err[256] = "";
    int rc = ball_game_new(&g, rules, err, sizeof err);
    ck_assert_msg(rc == BALL_OK, "ball_game_new: %s", err);
    if (bpn) {
        rc = ball_position_from_text(g, bpn);
        ck_assert_msg(rc == BALL_OK, "bad test BPN '%s': %s", bpn, ball_errmsg(g));
    }
    return g;
}

ball_game *tu_game_rules(const char *bpn, int end_zone_depth, unsigned turn_limit)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = end_zone_depth;
    rules.turn_limit = turn_limit;
    return tu_game_with(&rules, bpn);
}

ball_game *tu_game(const char *bpn) { return tu_game_rules(bpn, 1, 0); }

ball_game *tu_game_text(const char *rules_text, const char *bpn)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    char err[512] = "";
    ball_rules_init(&rules, sizeof rules);
    if (ball_rules_from_text(&rules, &cards, rules_text ? rules_text : "", err, sizeof err) != BALL_OK)
        ck_abort_msg("rules '%s': %s", rules_text, err);
    ball_game *g = NULL;
    int rc = ball_game_new(&g, &rules, err, sizeof err);
    ball_cardset_free(cards); /* the game has its own copy */
    ck_assert_msg(rc == BALL_OK, "ball_game_new: %s", err);
    if (bpn && ball_position_from_text(g, bpn) != BALL_OK)
        ck_abort_msg("bad test BPN '%s': %s", bpn, ball_errmsg(g));
    return g;
}

void tu_bpn(ball_game *g, char out[BALL_BPN_MAX])
{
    tu_require(ball_position_to_text(g, out, BALL_BPN_MAX) > 0);
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
        ck_assert_int_gt(ball_action_to_text(acts[i], texts[kept], BALL_ACTION_TEXT_MAX), 0);
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

ball_action tu_action(ball_game *g, const char *text)
{
    ball_action a = BALL_ACTION_NONE;
    int rc = ball_action_from_text(g, text, &a);
    ck_assert_msg(rc == BALL_OK, "parse '%s': %s", text, ball_errmsg(g));
    ck_assert_msg(a != BALL_ACTION_NONE, "parse '%s' gave BALL_ACTION_NONE", text);
    return a;
}

int tu_parse_rc(ball_game *g, const char *text)
{
    ball_action a = BALL_ACTION_NONE;
    return ball_action_from_text(g, text, &a);
}

void tu_apply(ball_game *g, const char *text)
{
    ball_action a = tu_action(g, text);
    int rc = ball_apply(g, a);
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
    int sq = ball_square_from_text(name);
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
        tu_require(ball_action_to_text(acts[i], text, sizeof text) > 0);
        if (ball_action_from_text(g, text, &back) != BALL_OK)
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
    tu_require(strcmp(after, before) != 0);
    tu_require(ball_undo(g) == BALL_OK);
    tu_bpn(g, again);
    tu_require(strcmp(again, before) == 0);
    tu_require(ball_hash(g) == hash_before);
    tu_require(ball_apply(g, a) == BALL_OK);
    tu_bpn(g, again);
    tu_require(strcmp(again, after) == 0);
}

void tu_check_bpn_round_trip(ball_game *g, ball_game *scratch)
{
    char bpn[BALL_BPN_MAX], again[BALL_BPN_MAX];
    tu_bpn(g, bpn);
    if (ball_position_from_text(scratch, bpn) != BALL_OK)
        ck_abort_msg("'%s' does not read back: %s", bpn, ball_errmsg(scratch));
    tu_bpn(scratch, again);
    tu_require(strcmp(again, bpn) == 0);
    tu_require(ball_result(scratch) == ball_result(g));
    tu_require(ball_hash(scratch) == ball_hash(g));
}

uint64_t tu_perft_by_apply(ball_game *g, int depth)
{
    if (depth == 0)
        return 1;
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    tu_require(n >= 0);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        tu_require(ball_apply(g, acts[i]) == BALL_OK);
        total += tu_perft_by_apply(g, depth - 1);
        tu_require(ball_undo(g) == BALL_OK);
    }
    return total;
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

ball_cardset *tu_deck(void)
{
    ball_cardset *c = NULL;
    ck_assert_int_eq(ball_cardset_new(&c), BALL_OK);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "Sprint", 1, BALL_EFFECT_GAIN_PA, 1), 0);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "Rally", 0, BALL_EFFECT_UNRESTRICT, 0), 1);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "Surge", 5, BALL_EFFECT_GAIN_PA, 2), 2);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "Dash", 2, BALL_EFFECT_GAIN_PA, 2), 0);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "Again", 1, BALL_EFFECT_UNRESTRICT, 0), 1);
    return c;
}

int tu_cardset_equal(const ball_cardset *a, const ball_cardset *b)
{
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        if (ball_cardset_earn(a, e) != ball_cardset_earn(b, e))
            return 0;
    for (int t = BALL_ATK; t <= BALL_DEF; t++) {
        int n = ball_cardset_hand_size(a, t);
        if (n != ball_cardset_hand_size(b, t))
            return 0;
        for (int i = 0; i < n; i++) {
            const char *na = ball_cardset_card_name(a, t, i), *nb = ball_cardset_card_name(b, t, i);
            if (!na || !nb || strcmp(na, nb) != 0)
                return 0;
            for (int f = BALL_CARD_COST; f <= BALL_CARD_AMOUNT; f++)
                if (ball_cardset_card_value(a, t, i, f) != ball_cardset_card_value(b, t, i, f))
                    return 0;
        }
    }
    return 1;
}

static void *counting_malloc(void *user, size_t n)
{
    ++*(long *)user;
    return malloc(n);
}

static void *counting_realloc(void *user, void *ptr, size_t n)
{
    ++*(long *)user;
    return realloc(ptr, n);
}

static void counting_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

void tu_counting_allocator(ball_allocator *alloc, long *calls)
{
    ball_allocator_init(alloc, sizeof *alloc);
    alloc->malloc_fn = counting_malloc;
    alloc->realloc_fn = counting_realloc;
    alloc->free_fn = counting_free;
    alloc->user = calls;
}

ball_net *tu_net_load_ok(const unsigned char *f, size_t len)
{
    ball_net *net = NULL;
    char err[256] = "x";
    ck_assert_msg(ball_net_load(&net, f, len, err, sizeof err) == BALL_OK, "refused: %s", err);
    ck_assert_str_eq(err, "");
    ck_assert_ptr_nonnull(net);
    return net;
}

void tu_net_refused(const unsigned char *f, size_t len, const char *want)
{
    ball_net *net = (ball_net *)&net;
    char err[256] = "";
    ck_assert_int_eq(ball_net_load(&net, f, len, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_null(net);
    ck_assert_msg(strncmp(err, "net: ", 5) == 0 && strstr(err, want) != NULL,
                  "message '%s' lacks '%s'", err, want);
}
