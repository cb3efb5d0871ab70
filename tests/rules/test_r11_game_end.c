/* R11 — game end: touchdowns by every kind of decision that can put the
 * ball in a holder's hands inside the target end zone, the opponent's
 * touchdown caused by the coach's own release, end-zone depth 2 and 3, the
 * turn-limit draw. ATK scores in row 17 (rows 16-17 / 15-17 with depth 2 /
 * 3), DEF in row 1 (rows 1-2 / 1-3), R1.4. Every expectation is derived by
 * hand from docs/spec.md. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* The game is over with `result`: no legal action (R11.1, N3), `end` is
 * neither legal nor accepted, no release task. */
static void ck_over(ball_game *g, int result, ball_action end_action)
{
    ball_action acts[BALL_MAX_ACTIONS];
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_result(g), result);
    ck_assert_int_eq(ball_legal_actions(g, acts, BALL_MAX_ACTIONS), 0);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ck_assert_int_eq(ball_legal_action_at(g, 0, &a), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "game is over"));
    ck_assert_int_eq(ball_random_action(g, 12345, &a), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "game is over"));
    ck_assert_int_eq(ball_release_tasks(g, NULL, 0), 0);
    ck_assert_int_eq(ball_is_legal(g, end_action), 0);
    ck_assert_int_eq(ball_apply(g, end_action), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_action_from_text(g, "end", &a), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_result(g), result);
}

/* R11.1: O* F16-G17, an ordinary 1-square move into row 17. */
START_TEST(test_R11_1_touchdown_by_move)
{
    ball_game *g = tu_game("7/2O*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F16-G17");
    ck_assert_int_eq(ball_square_of_ball(g), tu_sq("G17"));
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R11.1 + R8.1: X F16-G17 picks up the loose ball in row 17: it holds the
 * ball there (restricted or not): touchdown. */
START_TEST(test_R11_1_touchdown_by_pickup_in_end_zone)
{
    ball_game *g = tu_game("3@3/2X3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F16-G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R6.1 + R11.1: X D14 dodges the DEF carrier o* on F16 (over open E15),
 * takes the ball (forced fumble) and exits. Exits: neighbours of F16 that
 * are open: E15 G15 E17 G17. Exit G17 is in row 17: touchdown. */
START_TEST(test_R11_1_touchdown_by_dodge_exit)
{
    ball_game *g = tu_game("7/2o*3/7/1X4/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    ck_legal_prefix(g, "D14-F16/", "D14-F16/E15 D14-F16/E17 D14-F16/G15 D14-F16/G17");
    tu_apply(g, "D14-F16/G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R6.2 + R11.1: X* E15 over DEF o on F16 lands on G17 (tactical dodge);
 * push squares: neighbours of F16 that are vacant and not G17: E15 (left
 * by the mover) E17 G15. The carrier lands in row 17: touchdown. */
START_TEST(test_R11_1_touchdown_by_tactical_dodge_landing)
{
    ball_game *g = tu_game("7/2o3/2X*4/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    ck_legal_prefix(g, "E15-G17/", "E15-G17/E15 E15-G17/E17 E15-G17/G15");
    tu_apply(g, "E15-G17/G15");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R7.3 + R11.1: X F16 blocks the DEF carrier o* standing on G17 (DEF's own
 * end zone, no score for DEF): the upper X takes the ball at once and
 * holds it in row 17 as the upper piece of a stack: touchdown. */
START_TEST(test_R11_1_touchdown_by_block_taking_the_ball)
{
    ball_game *g = tu_game("3o*3/2X3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F16-G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R7.1 + R11.1: the carrier X* F16 blocks DEF o on G17: the upper holds the
 * ball in row 17. */
START_TEST(test_R11_1_touchdown_by_carrier_block)
{
    ball_game *g = tu_game("3o3/2X*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F16-G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R7.1 + R11.1: the carrier X* F16 protects its O on G17: the upper holds
 * the ball in row 17. */
START_TEST(test_R11_1_touchdown_by_carrier_protection)
{
    ball_game *g = tu_game("3O3/2X*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F16-G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R8.2 + R11.1: with 0 PA, X* F16 hands off to O on G17 (row 17) — legal
 * at 0 PA — and O now holds the ball in the zone: touchdown. */
START_TEST(test_R11_1_touchdown_by_handoff)
{
    ball_game *g = tu_game("3O3/2X*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 0 - 0/0 2");
    ball_action e = tu_action(g, "end");
    ck_legal(g, "F16=G17 end");
    tu_apply(g, "F16=G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R8.3 + R11.1: a short pass onto G17 (receiver O F16 at distance 2) leaves
 * the ball loose: no holder, no touchdown. O F16-G17 then picks it up in
 * the zone: touchdown. */
START_TEST(test_R11_1_loose_ball_in_zone_is_no_touchdown)
{
    ball_game *g = tu_game("7/2O3/7/2X*3/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F14^G17");
    ck_bpn(g, "3@3/2O3/7/2X3/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    tu_apply(g, "F16-G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R9.3 + R11.1: stack [X* o] on F16 (ATK upper holds the ball, row 16).
 * In ATK's release the upper goes to G17 and keeps the ball: touchdown in
 * the release phase. */
START_TEST(test_R11_1_touchdown_by_release_upper_keeps)
{
    ball_game *g = tu_game("7/2[X*o]3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply_all(g, "end F16-G17/E15=G17");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* R9.3 + R11.1: same stack; the keeper is the DEF lower o placed on G17.
 * Row 17 is DEF's own end zone, not its target: no touchdown, and the turn
 * passes (DEF o holds the ball). */
START_TEST(test_R11_1_keeper_in_own_zone_is_no_touchdown)
{
    ball_game *g = tu_game("7/2[X*o]3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    tu_apply_all(g, "end F16-E15/G17=G17");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "3o*3/6/2X4/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R9.3 + R11.1 "whichever coach made the decision": stack [X* o] on F2.
 * ATK's own release puts the DEF lower o on E1 (row 1, DEF's target) and
 * names it keeper: DEF scores. */
START_TEST(test_R11_1_own_release_gives_opponent_touchdown)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/1x5/6/7/6/7/6/7/2[X*o]3/7 ATK a 2 - 0/0 2");
    ball_action e = tu_action(g, "end");
    tu_apply_all(g, "end F2-E3/E1=E1");
    ck_over(g, BALL_DEF_WON, e);
    ball_game_free(g);
}
END_TEST

/* R11.1: the same stack, upper X to E1 keeping the ball: row 1 is ATK's
 * own end zone, nothing happens; hand-over to DEF. */
START_TEST(test_R11_1_upper_in_own_zone_is_no_touchdown)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/1x5/6/7/6/7/6/7/2[X*o]3/7 ATK a 2 - 0/0 2");
    tu_apply_all(g, "end F2-E1/E3=E1");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/6/7/6/7/6/7/6/1x5/6/7/6/7/6/2o4/6/2X*4 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R1.4: X* E15-F16 reaches row 16: a touchdown with end zones 2 rows deep
 * (rows 16-17), not with the default depth 1. */
START_TEST(test_R1_4_end_zone_depth_2)
{
    const char *bpn = "7/6/2X*4/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2";
    ball_game *g = tu_game_rules(bpn, 2, 0);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "E15-F16");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);

    g = tu_game_rules(bpn, 1, 0);
    tu_apply(g, "E15-F16");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/2X*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    ball_game_free(g);
}
END_TEST

/* R1.4: DEF x* G5-E3 (over open F4) reaches row 3: DEF scores with depth 3
 * (rows 1-3), not with depth 2. */
START_TEST(test_R1_4_end_zone_depth_3_def)
{
    const char *bpn = "7/6/7/6/7/6/7/6/1X5/6/7/6/3x*3/6/7/6/7 DEF a 2 - 0/0 3";
    ball_game *g = tu_game_rules(bpn, 3, 0);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "G5-E3");
    ck_over(g, BALL_DEF_WON, e);
    ball_game_free(g);

    g = tu_game_rules(bpn, 2, 0);
    tu_apply(g, "G5-E3");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/6/7/6/7/6/7/6/1X5/6/7/6/7/6/2x*4/6/7 DEF a 1 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R1.4: with depth 3, ATK's zone is rows 15-17: X* G13-F14 (row 14) goes
 * on, G13-E15 (row 15, over open F14) scores. */
START_TEST(test_R1_4_end_zone_depth_3_atk)
{
    const char *bpn = "7/6/7/6/3X*3/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2";
    ball_game *g = tu_game_rules(bpn, 3, 0);
    tu_apply(g, "G13-F14");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ball_game_free(g);

    g = tu_game_rules(bpn, 3, 0);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "G13-E15");
    ck_over(g, BALL_ATK_WON, e);
    ball_game_free(g);
}
END_TEST

/* N1 + R11.1: a position in which the game is already over is valid; it
 * has no legal decision (N3). */
START_TEST(test_R11_1_finished_position_is_valid)
{
    ball_game *g = tu_game("3X*3/6/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ball_game_free(g);

    g = tu_game("7/6/7/6/7/6/7/6/1X5/6/7/6/7/6/7/6/3o*3 DEF a 1 - 0/0 3");
    ck_assert_int_eq(ball_result(g), BALL_DEF_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ball_game_free(g);
}
END_TEST

/* R11.1 and undo (API): a touchdown is taken back, the game goes on from
 * the same BPN. */
START_TEST(test_R11_1_undo_touchdown)
{
    const char *bpn = "7/2O*3/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2";
    ball_game *g = tu_game(bpn);
    tu_apply(g, "F16-G17");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, bpn);
    ball_game_free(g);
}
END_TEST

/* R11.2: turn limit 3. ATK's turn 2 ends (no task): DEF's turn 3 is
 * played; when it ends (DEF has no task), the game is drawn. */
START_TEST(test_R11_2_turn_limit_draw)
{
    ball_game *g = tu_game_rules("7/6/7/6/1x5/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2", 1, 3);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/1x5/6/7/6/3X*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    tu_apply(g, "end");
    ck_over(g, BALL_DRAW, e);
    ball_game_free(g);
}
END_TEST

/* R11.2 + R9.1: the last turn ends with its release phase: DEF's `end`
 * in turn 3 (limit 3) opens the release phase (x_ on C13 stands up on
 * B12 B14 D12 or D14); the draw comes after the stand-up. */
START_TEST(test_R11_2_draw_after_last_release_phase)
{
    ball_game *g = tu_game_rules("7/6/7/6/1x_5/6/7/6/3X*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 3", 1, 3);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "end");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/6/7/6/1x_5/6/7/6/3X*3/6/7/6/7/6/7/6/7 DEF r 0 - 0/0 3");
    ck_legal(g, "C13-B12 C13-B14 C13-D12 C13-D14");
    tu_apply(g, "C13-D14");
    ck_over(g, BALL_DRAW, e);
    ball_game_free(g);
}
END_TEST

/* R11.1 before R11.2: a touchdown in the last allowed turn wins. */
START_TEST(test_R11_2_touchdown_in_last_turn_wins)
{
    ball_game *g = tu_game_rules("7/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/2o*3/7 DEF a 2 - 0/0 3", 1, 3);
    ball_action e = tu_action(g, "end");
    tu_apply(g, "F2-E1");
    ck_over(g, BALL_DEF_WON, e);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("R11 game end");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R11_1_touchdown_by_move);
    tcase_add_test(tc, test_R11_1_touchdown_by_pickup_in_end_zone);
    tcase_add_test(tc, test_R11_1_touchdown_by_dodge_exit);
    tcase_add_test(tc, test_R11_1_touchdown_by_tactical_dodge_landing);
    tcase_add_test(tc, test_R11_1_touchdown_by_block_taking_the_ball);
    tcase_add_test(tc, test_R11_1_touchdown_by_carrier_block);
    tcase_add_test(tc, test_R11_1_touchdown_by_carrier_protection);
    tcase_add_test(tc, test_R11_1_touchdown_by_handoff);
    tcase_add_test(tc, test_R11_1_loose_ball_in_zone_is_no_touchdown);
    tcase_add_test(tc, test_R11_1_touchdown_by_release_upper_keeps);
    tcase_add_test(tc, test_R11_1_keeper_in_own_zone_is_no_touchdown);
    tcase_add_test(tc, test_R11_1_own_release_gives_opponent_touchdown);
    tcase_add_test(tc, test_R11_1_upper_in_own_zone_is_no_touchdown);
    tcase_add_test(tc, test_R1_4_end_zone_depth_2);
    tcase_add_test(tc, test_R1_4_end_zone_depth_3_def);
    tcase_add_test(tc, test_R1_4_end_zone_depth_3_atk);
    tcase_add_test(tc, test_R11_1_finished_position_is_valid);
    tcase_add_test(tc, test_R11_1_undo_touchdown);
    tcase_add_test(tc, test_R11_2_turn_limit_draw);
    tcase_add_test(tc, test_R11_2_draw_after_last_release_phase);
    tcase_add_test(tc, test_R11_2_touchdown_in_last_turn_wins);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
