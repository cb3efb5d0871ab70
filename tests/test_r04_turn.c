/* R4 the turn: PA accounting, `end`, restriction, acting twice.
 *
 * All expected lists and BPNs are derived by hand from docs/spec.md; the
 * comment of each test says how. Moves follow R5.1 (X: 1 or 2 squares
 * diagonally), costs R4.3, hand-off network R8.2, passes R8.3/R8.4.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ATK X* G5, ATK X F6 (adjacent to G5), ATK O M1, DEF x G13. */
#define PA_POS "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/6/6O ATK a 2 - 0/0 1"

/* R4.3 costs: move 1, hand-off 0, short pass 1, long pass 2.
 * G5^E7: receiver F6 at distance 1, E7 vacant and adjacent to F6 (R8.3).
 * G5^^G11: G11 vacant, distance 6/5/10 from G5/F6/M1 (R8.4). */
START_TEST(test_R4_3_action_costs)
{
    ball_game *g = tu_game(PA_POS);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "M1-L2")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5-H6")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5=F6")), 0);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5^E7")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5^^G11")), 2);
    ball_game_free(g);
}
END_TEST

/* R4.2/R4.3/R4.5: two 1-PA moves (O M1-L2, L2-K3 by R5.1 1-square
 * diagonals) leave 0 PA. Then only the 0-PA hand-off G5=F6 (F6 is the only
 * network member, R8.2) and `end` remain. */
START_TEST(test_R4_3_two_moves_leave_handoff_and_end)
{
    ball_game *g = tu_game(PA_POS);
    tu_apply(g, "M1-L2");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/5O/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_pa(g), 1);
    tu_apply(g, "L2-K3");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/5O1/6/7 ATK a 0 - 0/0 1");
    ck_assert_int_eq(ball_pa(g), 0);
    ck_legal(g, "G5=F6 end");
    /* The hand-off is played at 0 PA; a second hand-off cannot follow
     * (R8.2), so only `end` is left (R4.5). */
    tu_apply(g, "G5=F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/3X3/6/5O1/6/7 ATK a 0 h 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R4.3: the long pass costs 2 PA: legal at 2 PA, not at 1 PA; the short
 * pass (1 PA) is still legal at 1 PA and not at 0. */
START_TEST(test_R4_3_long_pass_needs_two_pa)
{
    ball_game *g = tu_game(PA_POS);
    ck_assert_int_eq(tu_parse_rc(g, "G5^^G11"), BALL_OK);
    tu_apply(g, "M1-L2");
    ck_assert_int_eq(tu_parse_rc(g, "G5^^G11"), BALL_E_ILLEGAL);
    ck_legal_prefix(g, "G5^^", "");
    ck_assert_int_eq(tu_parse_rc(g, "G5^E7"), BALL_OK);
    tu_apply(g, "L2-K3");
    ck_assert_int_eq(tu_parse_rc(g, "G5^E7"), BALL_E_ILLEGAL);
    ck_legal_prefix(g, "G5^", "");
    ball_game_free(g);
}
END_TEST

/* R4.3 + R8.4: ATK X* G5 alone (DEF x G13). G5^^G11 spends both PA, the
 * ball lies loose on G11; with 0 PA and no carrier only `end` is left. */
START_TEST(test_R4_3_long_pass_spends_both_pa)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G5^^G11");
    ck_bpn(g, "7/6/7/6/3x3/6/3@3/6/7/6/7/6/3X3/6/7/6/7 ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R4.2: `end` is legal with 2 PA. DEF ends at once at the standard start:
 * no DEF release task (nothing knocked down, no stack, R9.1), so the turn
 * passes: ATK, 2 PA, turn 2, same placement (R9.5). */
START_TEST(test_R4_2_end_with_two_pa_passes_turn)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "end");
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2");
    ck_assert_int_eq(ball_side(g), BALL_ATK);
    ck_assert_int_eq(ball_turn(g), 2);
    ball_game_free(g);
}
END_TEST

/* R4.2, R4.5: a single piece acts twice (X G9-H10 then H10-I11) and `end`
 * is listed at 2, 1 and 0 PA.
 * G9 at 2 PA (R5.1 X): F8 H8 F10 H10, and 2-squares E7 I7 E11 I11 over
 * open squares. H10 at 1 PA: G9 I9 G11 I11, 2-squares F8 J8 F12 J12.
 * Loose ball on M1, DEF x on A17 far away. */
START_TEST(test_R4_5_piece_acts_twice_and_end_always_legal)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 end");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ck_legal(g, "H10-F12 H10-F8 H10-G11 H10-G9 H10-I11 H10-I9 H10-J12 H10-J8 end");
    tu_apply(g, "H10-I11");
    ck_bpn(g, "x6/6/7/6/7/6/4X2/6/7/6/7/6/7/6/7/6/6@ ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    tu_apply(g, "end");
    /* No ATK release task: the turn passes to DEF (R9.1, R9.5). */
    ck_bpn(g, "x6/6/7/6/7/6/4X2/6/7/6/7/6/7/6/7/6/6@ DEF a 2 - 0/0 2");
    ball_game_free(g);
}
END_TEST

/* ATK X G5, ATK X E5, loose ball F6, DEF x G13. */
#define RESTR_POS "7/6/7/6/3x3/6/7/6/7/6/7/2@3/2XX3/6/7/6/7 ATK a 2 - 0/0 1"

/* R4.4, R8.1: G5-F6 picks up the ball and the piece becomes restricted
 * (`!`). It starts no further action: no move, no hand-off, no pass from
 * F6. E5 still acts: D4 F4 D6, F6 = protection of the ally (R7.1),
 * 2-squares C3 G3 C7 and G7 over the active ally on F6 (R5.3). */
START_TEST(test_R4_4_restricted_after_pickup)
{
    ball_game *g = tu_game(RESTR_POS);
    tu_apply(g, "G5-F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*!3/2X4/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("F6"));
    ck_assert_int_eq(ball_piece(g, ball_square_from_text("F6"), BALL_UPPER),
                     BALL_X | BALL_PIECE_BALL | BALL_PIECE_RESTRICTED);
    ck_legal_prefix(g, "F6", "");
    ck_legal(g, "E5-C3 E5-C7 E5-D4 E5-D6 E5-F4 E5-F6 E5-G3 E5-G7 end");
    ball_game_free(g);
}
END_TEST

/* R4.4 + R9.5: `end` clears the restriction; no ATK task, turn passes. */
START_TEST(test_R4_4_restriction_cleared_by_end)
{
    ball_game *g = tu_game(RESTR_POS);
    tu_apply(g, "G5-F6");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/2X4/6/7/6/7 DEF a 2 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ball_game_free(g);
}
END_TEST

/* R4.4, R8.2: a hand-off receiver is not restricted. ATK X* G5, X F6,
 * DEF x G13. After G5=F6 (0 PA, `h`), F6 holds the ball without `!`.
 * F6 moves (R5.1): E5 E7 G7, G5 = protection, 2-squares D4 D8 H8 and H4
 * over the active ally G5. No hand-off right after a hand-off (R8.2). */
START_TEST(test_R4_4_handoff_receiver_not_restricted)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G5=F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/3X3/6/7/6/7 ATK a 2 h 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal_prefix(g, "F6-", "F6-D4 F6-D8 F6-E5 F6-E7 F6-G5 F6-G7 F6-H4 F6-H8");
    ck_legal_prefix(g, "F6=", "");
    /* The receiver moves with the ball (R5.5), then may pass: receiver G5
     * (distance 2), vacant squares adjacent to G5: F4 H4 F6 H6 (R8.3);
     * 1 PA left so no long pass. G5 is no longer adjacent: no hand-off. */
    tu_apply(g, "F6-G7");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/3X*3/6/3X3/6/7/6/7 ATK a 1 - 0/0 1");
    ck_legal_prefix(g, "G7^", "G7^F4 G7^F6 G7^H4 G7^H6");
    ck_legal_prefix(g, "G7=", "");
    ball_game_free(g);
}
END_TEST

/* R4.4: only active pieces of the coach to move act. ATK X_ (knocked
 * down) on G9 has no action, DEF x on H10 is not ATK's. ATK O on A1:
 * B2, and orthogonal 2-squares C1, A3 (R5.1 O; A-1, row -1 off board). */
START_TEST(test_R4_4_only_active_own_pieces_act)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3x2/3X_3/6/7/6/7/6/7/6/O5@ ATK a 2 - 0/0 1");
    ck_legal(g, "A1-A3 A1-B2 A1-C1 end");
    ball_game_free(g);
}
END_TEST

/* R4.2: `end` is legal in the middle of the turn with 1 PA left, and the
 * remaining PA is lost: the next coach gets 2 PA (R4.1). */
START_TEST(test_R4_2_end_with_one_pa)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    tu_apply(g, "G9-F10");
    ck_assert_int_eq(ball_pa(g), 1);
    tu_apply(g, "end");
    ck_bpn(g, "x6/6/7/6/7/6/7/2X3/7/6/7/6/7/6/7/6/6@ DEF a 2 - 0/0 2");
    ck_assert_int_eq(ball_pa(g), 2);
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ball_game_free(g);
}
END_TEST

/* R4.3: with 0 PA no 1-PA action is legal, even for a fresh piece: parse
 * of a move is refused. */
START_TEST(test_R4_3_no_move_at_zero_pa)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    ck_assert_int_eq(tu_parse_rc(g, "G9-H10"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r04_turn");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R4_3_action_costs);
    tcase_add_test(tc, test_R4_3_two_moves_leave_handoff_and_end);
    tcase_add_test(tc, test_R4_3_long_pass_needs_two_pa);
    tcase_add_test(tc, test_R4_3_long_pass_spends_both_pa);
    tcase_add_test(tc, test_R4_2_end_with_two_pa_passes_turn);
    tcase_add_test(tc, test_R4_5_piece_acts_twice_and_end_always_legal);
    tcase_add_test(tc, test_R4_4_restricted_after_pickup);
    tcase_add_test(tc, test_R4_4_restriction_cleared_by_end);
    tcase_add_test(tc, test_R4_4_handoff_receiver_not_restricted);
    tcase_add_test(tc, test_R4_4_only_active_own_pieces_act);
    tcase_add_test(tc, test_R4_2_end_with_one_pa);
    tcase_add_test(tc, test_R4_3_no_move_at_zero_pa);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
