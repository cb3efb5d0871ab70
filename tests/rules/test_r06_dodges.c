/* R6 dodges: dodge / forced fumble (R6.1), tactical dodge / fumble (R6.2).
 *
 * Lists and BPNs derived by hand from docs/spec.md: R5.1 patterns, R5.3/R5.4
 * what a move may cross or end on, R6.1 exits (open squares adjacent to
 * the target T), R6.2 push squares (adjacent to M, vacant after the mover
 * landed, not L) and ball square B = M + (M - P), R8.1 pickups, R4.4
 * restriction. Texts per N2: dodge from-T/E, tactical dodge from-L/P.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ATK X G9, DEF x I11, loose ball A1. G9 over open H10 onto the active
 * opponent I11: dodge (R5.4) with exits H10 H12 J10 J12 (all open, R6.1).
 * Other moves: F8 H8 F10 H10, E7 I7 E11 (R5.1). */
#define DODGE_POS "7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1"

START_TEST(test_R6_1_dodge_exit_choices)
{
    ball_game *g = tu_game(DODGE_POS);
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 "
                "G9-I11/H10 G9-I11/H12 G9-I11/J10 G9-I11/J12 G9-I7 end");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-I11/J12")), BALL_DODGE);
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-I11/J12")), 0);
    ball_game_free(g);
}
END_TEST

/* R6.1: Q knocked down on T (I11 x_), mover on the exit J12, 1 PA spent. */
START_TEST(test_R6_1_dodge_result)
{
    ball_game *g = tu_game(DODGE_POS);
    tu_apply(g, "G9-I11/J12");
    ck_bpn(g, "7/6/7/6/7/4X1/4x_2/6/7/6/7/6/7/6/7/6/@6 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ball_game_free(g);
}
END_TEST

/* R6.1 exits must be open: ATK X G9, DEF x I11, DEF x_ J12, ATK X_ H12
 * (both not open, R3.4), loose ball J10 (open). Exits: H10, J10.
 * The exit onto the loose ball is a pickup (R8.1) and restricts (R4.4). */
START_TEST(test_R6_1_dodge_exits_open_only_and_pickup)
{
    ball_game *g = tu_game("7/6/7/6/7/3X_x_1/4x2/4@1/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11/H10 G9-I11/J10 G9-I7 end");
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-I11/J10")) & BALL_FLAG_PICKUP, BALL_FLAG_PICKUP);
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-I11/H10")) & BALL_FLAG_PICKUP, 0);
    tu_apply(g, "G9-I11/J10");
    ck_bpn(g, "7/6/7/6/7/3X_x_1/4x_2/4X*!1/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("J10"));
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R6.1 forced fumble: DEF x* on I11. The mover takes the ball, becomes
 * restricted, exits to H10 (the square it passed over is open again).
 * The knocked-down x never keeps the ball (R3.3). Only `end` is left: the
 * restricted carrier is ATK's only piece (R4.4, R8.5). */
START_TEST(test_R6_1_dodge_forced_fumble)
{
    ball_game *g = tu_game("7/6/7/6/7/6/4x*2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 "
                "G9-I11/H10 G9-I11/H12 G9-I11/J10 G9-I11/J12 G9-I7 end");
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-I11/H10")) & BALL_FLAG_FORCED_FUMBLE,
                     BALL_FLAG_FORCED_FUMBLE);
    tu_apply(g, "G9-I11/H10");
    ck_bpn(g, "7/6/7/6/7/6/4x_2/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("H10"));
    ck_assert_int_eq(ball_piece(g, ball_square_from_text("I11"), BALL_UPPER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_DOWN);
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R6.1 forced fumble by DEF: DEF s G9 dodges ATK X* G7 with an orthogonal
 * 2-square move (no intermediate, R5.2). Exits F6 H6 F8 H8 all open.
 * s list (R5.1 S): F8 H8 F10 H10, E7 I7 E11 I11, E9 I9 G11, G7 dodge. */
START_TEST(test_R6_1_def_forced_fumble_orthogonal)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3s3/6/3X*3/6/7/6/7/6/7 DEF a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-E9 G9-F10 G9-F8 G9-G11 G9-G7/F6 G9-G7/F8 "
                "G9-G7/H6 G9-G7/H8 G9-H10 G9-H8 G9-I11 G9-I7 G9-I9 end");
    tu_apply(g, "G9-G7/F6");
    ck_bpn(g, "7/6/7/6/7/6/7/6/7/6/3X_3/2s*!3/7/6/7/6/7 DEF a 1 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R6.1 "without an exit the dodge cannot be started". ATK X G9, active
 * ATK X H10 (may be crossed, R5.3, but is not open), DEF x I11, DEF x_ on
 * H12 J10 J12: I11 has no open neighbour, so no G9-I11/... action.
 * G9: F8 H8 F10, H10 protection, E7 I7 E11.
 * H10: G9 protection, I9 G11, I11 block, F8 (over ally G9) J8 F12;
 * J12 over the active opponent I11 would be a tactical dodge but J12 is
 * not open (knocked-down x): illegal (R6.2, R5.4). */
START_TEST(test_R6_1_dodge_without_exit_not_listed)
{
    ball_game *g = tu_game("7/6/7/6/7/3x_x_1/4x2/3Xx_1/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I7 "
                "H10-F12 H10-F8 H10-G11 H10-G9 H10-I11 H10-I9 H10-J8 end");
    ck_assert_int_eq(tu_parse_rc(g, "G9-I11/J10"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R6.1 by an O with an orthogonal 2-square move G7-G9 (R5.2: nothing in
 * between). ATK O G7, DEF x G9, ATK X_ H8, DEF x_ F10, ball M1.
 * Exits of G9: F8, H10 (H8, F10 not open).
 * O list: F6 H6 F8, H8 protection (knocked-down ally), E7 I7 G5, dodges. */
START_TEST(test_R6_1_dodge_by_o_orthogonal)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/2x_3/3x3/3X_2/3O3/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G7-E7 G7-F6 G7-F8 G7-G5 G7-G9/F8 G7-G9/H10 G7-H6 G7-H8 G7-I7 end");
    tu_apply(g, "G7-G9/H10");
    ck_bpn(g, "7/6/7/6/7/6/7/2x_O2/3x_3/3X_2/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R6.1 + R5.5: a carrier that dodges keeps the ball and is not
 * restricted (no possession taken). ATK X* G9, DEF x I11. Afterwards J12
 * moves (R5.1): I11 block (knocked-down x), K11 I13 K13, L10 H14 L14;
 * H10 over the knocked-down I11 is illegal (R5.3). */
START_TEST(test_R6_1_carrier_dodges_keeps_ball)
{
    ball_game *g = tu_game("7/6/7/6/7/6/4x2/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G9-I11/J12");
    ck_bpn(g, "7/6/7/6/7/4X*1/4x_2/6/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal_prefix(g, "J12-", "J12-H14 J12-I11 J12-I13 J12-K11 J12-K13 J12-L10 J12-L14");
    ball_game_free(g);
}
END_TEST

/* Tactical dodge base position: ATK X E7 (S), DEF x* F8 (M), L = G9.
 * E7 list: D6 F6 D8, F8 block, C5 G5 C9, and G9 over the active opponent
 * = tactical dodge. Push squares (adjacent to F8, vacant after landing,
 * not L): E7 (= S, vacated), G7, E9. */
#define TD_POS "7/6/7/6/7/6/7/6/7/2x*3/2X4/6/7/6/7/6/7 ATK a 2 - 0/0 1"
#define TD_LIST "E7-C5 E7-C9 E7-D6 E7-D8 E7-F6 E7-F8 E7-G5 E7-G9/E7 E7-G9/E9 E7-G9/G7 end"

START_TEST(test_R6_2_tactical_dodge_push_choices)
{
    ball_game *g = tu_game(TD_POS);
    ck_legal(g, TD_LIST);
    ck_assert_int_eq(ball_action_kind(tu_action(g, "E7-G9/G7")), BALL_TACTICAL_DODGE);
    ck_assert_int_eq(ball_action_flags(tu_action(g, "E7-G9/G7")) & BALL_FLAG_FUMBLE, BALL_FLAG_FUMBLE);
    ball_game_free(g);
}
END_TEST

/* R6.2 P = G7: B = F8 + (F8 - G7) = F8 + (-1,+1) = E9, vacant: ball loose
 * on E9; x_ on G7; mover on G9, not restricted (it took nothing). It can
 * act again: G9 list F8 H8 F10 H10, E7 I7 E11 I11 (E9 is orthogonal,
 * not an X move). */
START_TEST(test_R6_2_tactical_dodge_ball_opposite_push)
{
    ball_game *g = tu_game(TD_POS);
    tu_apply(g, "E7-G9/G7");
    ck_bpn(g, "7/6/7/6/7/6/7/6/2@X3/6/3x_3/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("E9"));
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 end");
    ball_game_free(g);
}
END_TEST

/* R6.2 P = E9: B = F8 + (+1,-1) = G7, vacant: ball loose on G7. */
START_TEST(test_R6_2_tactical_dodge_push_e9)
{
    ball_game *g = tu_game(TD_POS);
    tu_apply(g, "E7-G9/E9");
    ck_bpn(g, "7/6/7/6/7/6/7/6/2x_X3/6/3@3/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R6.2 P = S = E7: B = F8 + (+1,+1) = G9 = L, held by the mover, not
 * vacant: the ball stays loose on M = F8. */
START_TEST(test_R6_2_tactical_dodge_push_to_start_square)
{
    ball_game *g = tu_game(TD_POS);
    tu_apply(g, "E7-G9/E7");
    ck_bpn(g, "7/6/7/6/7/6/7/6/3X3/2@3/2x_4/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("F8"));
    ball_game_free(g);
}
END_TEST

/* R6.2 B not vacant: ATK X_ on E9. E9 is no push square any more; for
 * P = G7, B = E9 is occupied, so the ball stays loose on F8. */
START_TEST(test_R6_2_tactical_dodge_b_occupied_ball_stays)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/2X_4/2x*3/2X4/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "E7-C5 E7-C9 E7-D6 E7-D8 E7-F6 E7-F8 E7-G5 E7-G9/E7 E7-G9/G7 end");
    tu_apply(g, "E7-G9/G7");
    ck_bpn(g, "7/6/7/6/7/6/7/6/2X_X3/2@3/3x_3/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R6.2 with every other neighbour of M taken (E9 X_, G7 x_, G9 = L): the
 * only push square is S = E7 (vacancy judged after landing). The
 * tactical dodge is thus never without a push square: S always is one. */
START_TEST(test_R6_2_tactical_dodge_only_push_is_start)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/2X_4/2x*3/2Xx_3/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "E7-C5 E7-C9 E7-D6 E7-D8 E7-F6 E7-F8 E7-G5 E7-G9/E7 end");
    tu_apply(g, "E7-G9/E7");
    ck_bpn(g, "7/6/7/6/7/6/7/6/2X_X3/2@3/2x_x_3/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R6.2 + R8.1: landing on the loose ball (G9) picks it up; the mover is
 * restricted (R4.4). Q (no ball) pushed to E9; no fumble. */
START_TEST(test_R6_2_tactical_dodge_landing_pickup)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3@3/2x3/2X4/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, TD_LIST);
    ck_assert_int_eq(ball_action_flags(tu_action(g, "E7-G9/E9")), BALL_FLAG_PICKUP);
    tu_apply(g, "E7-G9/E9");
    ck_bpn(g, "7/6/7/6/7/6/7/6/2x_X*!3/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("G9"));
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R5.4/R6.2: after crossing an opponent the landing must be open: G9
 * holds the active carrier x*, so E7-G9 is neither a tactical dodge nor
 * a dodge. */
START_TEST(test_R6_2_cross_opponent_onto_opponent_illegal)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3x*3/2x3/2X4/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "E7-C5 E7-C9 E7-D6 E7-D8 E7-F6 E7-F8 E7-G5 end");
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r06_dodges");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R6_1_dodge_exit_choices);
    tcase_add_test(tc, test_R6_1_dodge_result);
    tcase_add_test(tc, test_R6_1_dodge_exits_open_only_and_pickup);
    tcase_add_test(tc, test_R6_1_dodge_forced_fumble);
    tcase_add_test(tc, test_R6_1_def_forced_fumble_orthogonal);
    tcase_add_test(tc, test_R6_1_dodge_without_exit_not_listed);
    tcase_add_test(tc, test_R6_1_dodge_by_o_orthogonal);
    tcase_add_test(tc, test_R6_1_carrier_dodges_keeps_ball);
    tcase_add_test(tc, test_R6_2_tactical_dodge_push_choices);
    tcase_add_test(tc, test_R6_2_tactical_dodge_ball_opposite_push);
    tcase_add_test(tc, test_R6_2_tactical_dodge_push_e9);
    tcase_add_test(tc, test_R6_2_tactical_dodge_push_to_start_square);
    tcase_add_test(tc, test_R6_2_tactical_dodge_b_occupied_ball_stays);
    tcase_add_test(tc, test_R6_2_tactical_dodge_only_push_is_start);
    tcase_add_test(tc, test_R6_2_tactical_dodge_landing_pickup);
    tcase_add_test(tc, test_R6_2_cross_opponent_onto_opponent_illegal);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
