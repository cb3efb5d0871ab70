/* The generate/apply/undo path never allocates (issue 5): a counting
 * allocator given at creation sees no call while a game is played, taken
 * back and searched with perft. */
#include <stdlib.h>

#include "testutil.h"

START_TEST(test_play_undo_perft_do_not_allocate)
{
    long calls = 0;
    ball_allocator alloc;
    tu_counting_allocator(&alloc, &calls);
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &alloc, NULL, 0), BALL_OK);
    ck_assert_int_eq(ball_history_reserve(g, 2000), BALL_OK);
    long after_setup = calls;
    ck_assert_int_gt(after_setup, 0); /* the hook is really used */

    uint64_t seed = 42, count = 0;
    ball_action acts[BALL_MAX_ACTIONS];
    char text[BALL_ACTION_TEXT_MAX], bpn[BALL_BPN_MAX];
    int decisions = 0;
    for (int d = 0; d < 1500; d++) {
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        if (n == 0)
            break;
        ball_action a = acts[tu_random(&seed) % (uint64_t)n];
        tu_require(ball_action_to_text(a, text, sizeof text) > 0);
        tu_require(ball_position_to_text(g, bpn, sizeof bpn) > 0);
        tu_require(ball_apply(g, a) == BALL_OK);
        tu_require(ball_undo(g) == BALL_OK);
        tu_require(ball_apply_unchecked(g, a) == BALL_OK);
        decisions++;
    }
    ck_assert_int_gt(decisions, 100);
    while (ball_undo(g) == BALL_OK)
        ;
    ck_assert_int_eq(ball_perft(g, 4, &count), BALL_OK);
    ck_assert_uint_eq(count, 761170);
    ck_assert_int_eq(calls, after_setup);
    ball_game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("no allocation");
    TCase *tc = tcase_create("hot path");
    tcase_add_test(tc, test_play_undo_perft_do_not_allocate);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
