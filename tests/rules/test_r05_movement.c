/* R5 movement: exact legal-action lists for X, O and S on small positions.
 *
 * Lists are derived by hand from R5.1 (patterns), R5.2 (only 2-square
 * diagonals have an intermediate square), R5.3 (what the intermediate may
 * hold), R5.4 (what the destination may hold), R7.1 (1-square onto a piece
 * = block/protection), R8.1 (pickup). The ball is put loose out of reach or
 * on a far opponent so that no pass or hand-off appears; the list always
 * ends with `end` (R4.2). Sorted in byte order ("E11" < "E7").
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* R5.1 X on G9 in the open (loose ball M1, DEF x A17): 4 one-square
 * diagonals F8 H8 F10 H10 and 4 two-square diagonals E7 I7 E11 I11. */
START_TEST(test_R5_1_x_open_board)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 end");
    ball_game_free(g);
}
END_TEST

/* R5.1 O on G9: F8 H8 F10 H10, orthogonal 2-squares E9 I9 G7 G11. */
START_TEST(test_R5_1_o_open_board)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3O3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.1 S on G9: the union of both: 12 moves. */
START_TEST(test_R5_1_s_open_board)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3S3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 "
                "G9-I11 G9-I7 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.1 is the same for DEF: DEF s on G9, DEF to act, ATK X A1, ball M17. */
START_TEST(test_R5_1_def_s_open_board)
{
    ball_game *g = tu_game("6@/6/7/6/7/6/7/6/3s3/6/7/6/7/6/7/6/X6 DEF a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 "
                "G9-I11 G9-I7 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.1 edge of the board: the destination must be on the board.
 * S A1: B2, C3 (over B2), C1, A3. O A1: B2, C1, A3.
 * S B2: A1 C1 A3 C3, D4 (over C3), D2, B4 (A-1/row 0 off board).
 * X M17: L16, K15 (over L16). DEF carrier far away (G13 / A9). */
START_TEST(test_R5_1_edges)
{
    ball_game *g = tu_game("7/6/7/6/3x*3/6/7/6/7/6/7/6/7/6/7/6/S6 ATK a 2 - 0/0 1");
    ck_legal(g, "A1-A3 A1-B2 A1-C1 A1-C3 end");
    ball_game_free(g);

    g = tu_game("7/6/7/6/3x*3/6/7/6/7/6/7/6/7/6/7/6/O6 ATK a 2 - 0/0 1");
    ck_legal(g, "A1-A3 A1-B2 A1-C1 end");
    ball_game_free(g);

    g = tu_game("7/6/7/6/3x*3/6/7/6/7/6/7/6/7/6/7/S5/7 ATK a 2 - 0/0 1");
    ck_legal(g, "B2-A1 B2-A3 B2-B4 B2-C1 B2-C3 B2-D2 B2-D4 end");
    ball_game_free(g);

    g = tu_game("6X/6/7/6/7/6/7/6/x*6/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "M17-K15 M17-L16 end");
    ball_game_free(g);
}
END_TEST

/* R5.3: crossing one active ally is allowed. ATK X G9 and X H10.
 * G9: F8 H8 F10, H10 = protection (R7.1), E7 I7 E11, I11 over the ally.
 * H10: G11 I11 I9, G9 = protection, J8 F12 J12, F8 over the ally G9. */
START_TEST(test_R5_3_cross_active_ally)
{
    ball_game *g = tu_game("x*6/6/7/6/7/6/7/3X2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 "
                "H10-F12 H10-F8 H10-G11 H10-G9 H10-I11 H10-I9 H10-J12 H10-J8 end");
    ball_game_free(g);
}
END_TEST

/* R5.3: a knocked-down piece on the intermediate square blocks the move
 * (ally or opponent). G9-H10 is still legal (1-square onto a knocked-down
 * piece: protection / block, R5.4, R7.1); G9-I11 is not. The knocked-down
 * ATK piece does not act (R3.2). */
START_TEST(test_R5_3_cannot_cross_knocked_down)
{
    ball_game *g = tu_game("x*6/6/7/6/7/6/7/3X_2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I7 end");
    ball_game_free(g);

    g = tu_game("@6/6/7/6/7/6/7/3x_2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I7 end");
    ball_game_free(g);
}
END_TEST

/* R3.5, R5.3, R5.4: a stack on H10 ([xO]: DEF upper, ATK lower) can be
 * neither the destination (G9-H10) nor crossed (G9-I11); its ATK lower
 * piece does not act (R7.2). */
START_TEST(test_R5_3_cannot_cross_stack)
{
    ball_game *g = tu_game("x*6/6/7/6/7/6/7/3[xO]2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H8 G9-I7 end");
    ball_game_free(g);
}
END_TEST

/* R5.2: an orthogonal 2-square move has no intermediate square. O on G9
 * surrounded by knocked-down DEF pieces on F8 H8 F10 H10 still jumps to
 * E9 I9 G7 G11; the four 1-square moves are blocks onto knocked-down
 * opponents (R7.1). An S there has the same list: its 2-square diagonals
 * all cross a knocked-down piece (R5.3). */
START_TEST(test_R5_2_orthogonal_jump_no_intermediate)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/2x_x_2/3O3/2x_x_2/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 G9-I9 end");
    ball_game_free(g);

    g = tu_game("7/6/7/6/7/6/7/2x_x_2/3S3/2x_x_2/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.4: a stack as destination is illegal for a 1-square (F10 holds
 * [oX]) and a 2-square move (G11 holds [xO]). O G9 keeps F8 H8 H10 E9 I9
 * G7. The ATK lower pieces do not act. */
START_TEST(test_R5_4_destination_stack_illegal)
{
    ball_game *g = tu_game("7/6/7/6/7/6/3[xO]3/2[oX]3/3O3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E9 G9-F8 G9-G7 G9-H10 G9-H8 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.4: a 2-square move may not end on a knocked-down piece or an ally.
 * ATK X G9, ATK X I11, DEF x_ E7, loose ball A17.
 * G9: F8 H8 F10 H10, E11 and I7; not E7 (knocked down), not I11 (ally).
 * I11: H10 J10 H12 J12, K9 G13 K13; not G9 (ally). */
START_TEST(test_R5_4_two_square_onto_down_or_ally_illegal)
{
    ball_game *g = tu_game("@6/6/7/6/7/6/4X2/6/3X3/6/2x_4/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-F10 G9-F8 G9-H10 G9-H8 G9-I7 "
                "I11-G13 I11-H10 I11-H12 I11-J10 I11-J12 I11-K13 I11-K9 end");
    ball_game_free(g);
}
END_TEST

/* R5.4 for S: orthogonal 2-square onto an ally (G11) or a knocked-down
 * opponent (E9) is illegal; I9 and G7 stay legal. ATK S G9, X G11,
 * DEF x_ E9, ball M1.
 * G9: F8 H8 F10 H10, E7 I7 E11 I11, I9 G7 (12 minus E9, G11).
 * G11: F10 H10 F12 H12, I9 E13 I13; E9 knocked down after 2 squares: no. */
START_TEST(test_R5_4_s_orthogonal_onto_ally_or_down)
{
    ball_game *g = tu_game("7/6/7/6/7/6/3X3/6/2x_S3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G11-E13 G11-F10 G11-F12 G11-H10 G11-H12 G11-I13 G11-I9 "
                "G9-E11 G9-E7 G9-F10 G9-F8 G9-G7 G9-H10 G9-H8 G9-I11 G9-I7 G9-I9 end");
    ball_game_free(g);
}
END_TEST

/* R5.4, R8.1, R4.4: moving onto the loose ball (F10) is a pickup: the
 * piece takes it and is restricted (`!`), so only `end` is left. The
 * list before is the open-board X list (F10 is open, R3.4). */
START_TEST(test_R5_4_pickup_by_moving_onto_ball)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/2@3/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 end");
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-F10")) & BALL_FLAG_PICKUP, BALL_FLAG_PICKUP);
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-E11")) & BALL_FLAG_PICKUP, 0);
    tu_apply(g, "G9-F10");
    ck_bpn(g, "x6/6/7/6/7/6/7/2X*!3/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("F10"));
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R5.3, R8.1: passing over the loose ball (H10) leaves it there.
 * After G9-I11 the X on I11 may still pick it up: I11 list is H10 (pickup)
 * J10 H12 J12, G9 (over the loose ball), K9 G13 K13. */
START_TEST(test_R8_1_passing_over_loose_ball_leaves_it)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_action_flags(tu_action(g, "G9-I11")) & BALL_FLAG_PICKUP, 0);
    tu_apply(g, "G9-I11");
    ck_bpn(g, "x6/6/7/6/7/6/4X2/3@2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("H10"));
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal(g, "I11-G13 I11-G9 I11-H10 I11-H12 I11-J10 I11-J12 I11-K13 I11-K9 end");
    ball_game_free(g);
}
END_TEST

/* R5.5: a carrier that moves takes the ball; it is not restricted (it did
 * not take possession this turn, R4.4). */
START_TEST(test_R5_5_carrier_moves_with_ball)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G9-I11");
    ck_bpn(g, "x6/6/7/6/7/6/4X*2/6/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("I11"));
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    /* It can still move: the full R5.1 X list from I11 (all squares open). */
    ck_legal_prefix(g, "I11-", "I11-G13 I11-G9 I11-H10 I11-H12 I11-J10 I11-J12 I11-K13 I11-K9");
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r05_movement");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R5_1_x_open_board);
    tcase_add_test(tc, test_R5_1_o_open_board);
    tcase_add_test(tc, test_R5_1_s_open_board);
    tcase_add_test(tc, test_R5_1_def_s_open_board);
    tcase_add_test(tc, test_R5_1_edges);
    tcase_add_test(tc, test_R5_3_cross_active_ally);
    tcase_add_test(tc, test_R5_3_cannot_cross_knocked_down);
    tcase_add_test(tc, test_R5_3_cannot_cross_stack);
    tcase_add_test(tc, test_R5_2_orthogonal_jump_no_intermediate);
    tcase_add_test(tc, test_R5_4_destination_stack_illegal);
    tcase_add_test(tc, test_R5_4_two_square_onto_down_or_ally_illegal);
    tcase_add_test(tc, test_R5_4_s_orthogonal_onto_ally_or_down);
    tcase_add_test(tc, test_R5_4_pickup_by_moving_onto_ball);
    tcase_add_test(tc, test_R8_1_passing_over_loose_ball_leaves_it);
    tcase_add_test(tc, test_R5_5_carrier_moves_with_ball);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
