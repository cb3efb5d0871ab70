/* N3 perft: the regression net. The counts below were cross-checked with
 * the independent Python implementation of docs/spec.md in tests/reference/
 * (compare.py --perft), not copied from this engine alone. Divide-compare
 * checks that perft by apply/undo, by clone and the library's own perft
 * agree, action by action. */
#include <stdlib.h>

#include "testutil.h"

typedef struct perft_case {
    const char *bpn;
    uint64_t counts[5]; /* depths 1..5, 0 = not checked */
} perft_case;

static const perft_case CASES[] = {
    /* the standard start */
    {BALL_START_BPN, {55, 3238, 16283, 761170, 17545500}},
    /* loose ball, DEF stack, knocked-down DEF x, action phase */
    {"4s2/3@2/7/2x3/7/4x1/4o2/2x_3/o2O3/4s1/1OX[XS]3/6/7/6/6X/6/2S4 DEF a 2 - 0/0 11",
     {49, 2296, 2493, 15460, 0}},
    /* fresh DEF stack, knocked-down s, 1 PA left */
    {"7/@5/4x2/1x4/s_6/[xS]+5/7/o2X2/7/4O1/7/3o2/2S4/OX4/s6/3X2/7 DEF a 1 - 0/0 69",
     {39, 39, 86, 4124, 0}},
    /* loose ball near ATK's own end zone, knocked-down X */
    {"7/6/1sx4/6/2[xs]4/6/1o5/5o/7/2x3/1OX_4/4XO/2XS3/@5/3S3/6/7 ATK a 2 - 0/0 10",
     {47, 2239, 2450, 17194, 0}},
    /* release phase: stand-up and a fresh stack */
    {"1x5/6/7/6/2x1sX1/Xo4/3x3/6/4o_2/3[sO]+2/O6/@5/4S2/6/2X4/6/4S2 DEF r 0 - 0/0 21",
     {3, 141, 6586, 20457, 0}},
    /* release phase: two stacks, one fresh, a knocked-down DEF o */
    {"3[xo]3/6/1[ss]+1x3/6/6S/3@x1/4X_2/6/7/2o_2O/2X4/6/O4S1/5X/7/6/7 DEF r 0 - 0/0 61",
     {5, 12, 564, 25380, 0}},
    /* ATK carrier with hand-offs and passes, knocked-down S, stack */
    {"7/6/3s3/3x2/5o1/6/o1xS_3/6/4s1x/6/1OX4/4[OX]1/3X*3/6/4S2/6/7 ATK a 2 - 0/0 8",
     {120, 1744, 3952, 42425, 0}},
    /* DEF carrier, ATK stack on a DEF lower piece, knocked-down x */
    {"7/6/7/s*5/2x_4/oxS3/7/4O1/O1x4/3so[SX]/3X3/6/2X4/6/7/6/7 DEF a 2 - 0/0 33",
     {139, 3432, 4956, 35274, 0}},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

START_TEST(test_N3_perft_counts)
{
    const perft_case *c = &CASES[_i];
    ball_game *g = tu_game(c->bpn);
    for (int d = 0; d < 5; d++) {
        if (!c->counts[d])
            continue;
        uint64_t n = 0;
        ck_assert_int_eq(ball_perft(g, d + 1, &n), BALL_OK);
        ck_assert_msg(n == c->counts[d], "%s depth %d: %llu, expected %llu", c->bpn, d + 1,
                      (unsigned long long)n, (unsigned long long)c->counts[d]);
    }
    ck_bpn(g, c->bpn); /* perft leaves the game as it was */
    ball_game_free(g);
}
END_TEST

START_TEST(test_N3_perft_depth_zero_and_finished_game)
{
    uint64_t n = 99;
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_perft(g, 0, &n), BALL_OK);
    ck_assert_uint_eq(n, 1);
    ball_game_free(g);
    /* ATK's carrier on row 17: the game is over, no legal decision */
    g = tu_game("3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 DEF a 2 - 0/0 5");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_perft(g, 3, &n), BALL_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(ball_perft(g, 0, &n), BALL_OK);
    ck_assert_uint_eq(n, 1);
    ball_game_free(g);
}
END_TEST

/* perft through clones: every child is a fresh copy. */
static uint64_t perft_clone(const ball_game *g, int depth)
{
    if (depth == 0)
        return 1;
    ball_action acts[BALL_MAX_ACTIONS];
    ball_game *c = NULL;
    tu_require(ball_game_clone(&c, g) == BALL_OK);
    int n = ball_legal_actions(c, acts, BALL_MAX_ACTIONS);
    ball_game_free(c);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        tu_require(ball_game_clone(&c, g) == BALL_OK);
        tu_require(ball_apply(c, acts[i]) == BALL_OK);
        total += perft_clone(c, depth - 1);
        ball_game_free(c);
    }
    return total;
}

START_TEST(test_N3_divide_apply_undo_vs_clone)
{
    const perft_case *c = &CASES[_i];
    const int depth = 3;
    ball_game *g = tu_game(c->bpn);
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(acts[i], text, sizeof text);
        ck_assert_int_eq(ball_apply(g, acts[i]), BALL_OK);
        uint64_t lib = 0;
        ck_assert_int_eq(ball_perft(g, depth - 1, &lib), BALL_OK);
        uint64_t by_undo = tu_perft_by_apply(g, depth - 1); /* apply, recurse, undo */
        uint64_t by_clone = perft_clone(g, depth - 1);
        ck_assert_int_eq(ball_undo(g), BALL_OK);
        ck_assert_msg(lib == by_undo && lib == by_clone, "%s after %s: perft %llu, apply/undo %llu, clone %llu",
                      c->bpn, text, (unsigned long long)lib, (unsigned long long)by_undo,
                      (unsigned long long)by_clone);
        sum += lib;
    }
    ck_assert_uint_eq(sum, c->counts[depth - 1]);
    ck_bpn(g, c->bpn);
    ball_game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("N3 perft");
    TCase *tc = tcase_create("perft");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_N3_perft_counts, 0, (int)NCASES);
    tcase_add_test(tc, test_N3_perft_depth_zero_and_finished_game);
    tcase_add_loop_test(tc, test_N3_divide_apply_undo_vs_clone, 0, (int)NCASES);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
