/* The history read back (ball_history_action, ball_history_position): the
 * decisions and positions of the N2 worked example (docs/spec.md), random
 * games, clones, undo, a new position, and the contracts. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const SPEC_DECISIONS[] = {"E11-F10", "F10-E9", "end", "G7-E9/F10", "G5-H6",
                                             "H6=I7",   "end",    "end", "E9-F8"};
#define N_SPEC (sizeof SPEC_DECISIONS / sizeof SPEC_DECISIONS[0])

START_TEST(test_spec_example)
{
    ball_game *g = tu_game(NULL);
    char bpn[N_SPEC + 1][BALL_BPN_MAX], got[BALL_BPN_MAX], text[BALL_ACTION_TEXT_MAX];
    tu_bpn(g, bpn[0]);
    for (size_t i = 0; i < N_SPEC; i++) {
        tu_apply(g, SPEC_DECISIONS[i]);
        tu_bpn(g, bpn[i + 1]);
    }
    ck_assert_int_eq(ball_history_length(g), (int)N_SPEC);
    for (size_t i = 0; i <= N_SPEC; i++) {
        ck_assert_int_eq(ball_history_position(g, (int)i, got, sizeof got), (int)strlen(bpn[i]));
        ck_assert_str_eq(got, bpn[i]);
    }
    for (size_t i = 0; i < N_SPEC; i++) {
        ball_action a;
        ck_assert_int_eq(ball_history_action(g, (int)i, &a), BALL_OK);
        ck_assert_int_gt(ball_action_to_text(a, text, sizeof text), 0);
        ck_assert_str_eq(text, SPEC_DECISIONS[i]);
    }
    /* the game itself is untouched */
    tu_bpn(g, got);
    ck_assert_str_eq(got, bpn[N_SPEC]);
    ball_game_free(g);
}
END_TEST

START_TEST(test_contracts)
{
    ball_game *g = tu_game(NULL);
    ball_action a = 123;
    char buf[BALL_BPN_MAX];
    ck_assert_int_eq(ball_history_action(NULL, 0, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_history_action(g, 0, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_history_action(g, 0, &a), BALL_E_RANGE);
    ck_assert_uint_eq(a, 123);
    ck_assert_int_eq(ball_history_action(g, -1, &a), BALL_E_RANGE);
    ck_assert_int_eq(ball_history_position(NULL, 0, buf, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_history_position(g, 0, NULL, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_history_position(g, 1, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_history_position(g, -1, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_history_position(g, 0, buf, 10), BALL_E_BUFFER);
    ck_assert_str_ne(ball_errmsg(g), "");
    ck_assert_int_gt(ball_history_position(g, 0, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, BALL_START_BPN);
    /* a new position starts a new history */
    tu_apply(g, "E11-F10");
    ck_assert_int_eq(ball_position_from_text(g, BALL_START_BPN), BALL_OK);
    ck_assert_int_eq(ball_history_action(g, 0, &a), BALL_E_RANGE);
    /* undo shortens it; a clone has its own */
    tu_apply_all(g, "E11-F10 F10-E9");
    ball_game *c = NULL;
    ck_assert_int_eq(ball_game_clone(&c, g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_history_action(g, 1, &a), BALL_E_RANGE);
    tu_apply(g, "I11-J10");
    ck_assert_int_eq(ball_history_action(g, 1, &a), BALL_OK);
    ball_action_to_text(a, buf, sizeof buf);
    ck_assert_str_eq(buf, "I11-J10");
    ck_assert_int_eq(ball_history_action(c, 1, &a), BALL_OK);
    ball_action_to_text(a, buf, sizeof buf);
    ck_assert_str_eq(buf, "F10-E9");
    ball_game_free(c);
    ball_game_free(g);
}
END_TEST

/* Random games: each decision read back is the one played, and each
 * position the one it was played from. */
START_TEST(test_random_games)
{
    uint64_t seed = 0x5eed0011u;
    for (int game = 0; game < 30; game++) {
        ball_game *g = tu_game(NULL);
        ball_action played[300];
        char (*bpns)[BALL_BPN_MAX] = malloc(301 * sizeof *bpns);
        int n = 0;
        tu_bpn(g, bpns[0]);
        while (n < 300 && ball_result(g) == BALL_ONGOING) {
            ck_assert_int_eq(ball_random_action(g, tu_random(&seed), &played[n]), BALL_OK);
            ck_assert_int_eq(ball_apply(g, played[n]), BALL_OK);
            n++;
            tu_bpn(g, bpns[n]);
        }
        for (int i = 0; i < n; i++) {
            ball_action a;
            char got[BALL_BPN_MAX];
            ck_assert_int_eq(ball_history_action(g, i, &a), BALL_OK);
            ck_assert_int_gt(ball_history_position(g, i, got, sizeof got), 0);
            ck_assert_str_eq(got, bpns[i]);
            if (a != played[i]) { /* only a decision with the same effect */
                ball_game *x = tu_game(bpns[i]);
                ck_assert_int_eq(ball_apply(x, a), BALL_OK);
                tu_bpn(x, got);
                ck_assert_str_eq(got, bpns[i + 1]);
                ball_game_free(x);
            }
        }
        free(bpns);
        ball_game_free(g);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("history");
    TCase *tc = tcase_create("history");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_spec_example);
    tcase_add_test(tc, test_contracts);
    tcase_add_test(tc, test_random_games);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
