/* R7 block and protection.
 *
 * Derived by hand from docs/spec.md: R7.1 (1-square move onto a square with
 * exactly one piece makes a stack, mover upper), R7.2 (stack pieces
 * inactive, lower keeps its state), R7.3 (upper takes the lower's ball;
 * restriction lost by a lower piece), R7.4 (fresh `+` for the rest of the
 * turn), R3.5 (stack squares closed), R9.5 (fresh cleared at hand-over),
 * N1 stack notation `[upper lower]` then `+`.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ATK X G9, DEF x H10 (standing), ball M1.
 * G9 list: F8 H8 F10, H10 = block (R7.1), E7 I7 E11, and I11 over the
 * active opponent = tactical dodge with push squares G9 (= S), I9, G11
 * (not L = I11) (R6.2). */
#define BLOCK_POS "7/6/7/6/7/6/7/3x2/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1"

START_TEST(test_R7_1_block_standing_opponent)
{
    ball_game *g = tu_game(BLOCK_POS);
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 "
                "G9-I11/G11 G9-I11/G9 G9-I11/I9 G9-I7 end");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H10")), BALL_BLOCK);
    tu_apply(g, "G9-H10");
    /* Blocking knocks nobody down (R7.2): lower x stays standing. */
    ck_bpn(g, "7/6/7/6/7/6/7/3[Xx]+2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    int h10 = ball_square_from_text("H10");
    ck_assert_int_eq(ball_square_state(g, h10), BALL_SQ_PIECE | BALL_SQ_STACK | BALL_SQ_FRESH);
    ck_assert_int_eq(ball_piece(g, h10, BALL_UPPER), BALL_X | BALL_PIECE_STACKED);
    ck_assert_int_eq(ball_piece(g, h10, BALL_LOWER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_STACKED);
    /* The stack is inactive: ATK has nothing but `end` (R7.2). */
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.4 + R9.1/R9.5: the fresh stack gives ATK no release task, so `end`
 * hands over at once; the fresh mark is cleared. DEF's only piece is the
 * (inactive) lower x: DEF can only `end`. */
START_TEST(test_R7_4_fresh_stack_not_released_and_cleared)
{
    ball_game *g = tu_game(BLOCK_POS);
    tu_apply(g, "G9-H10");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/7/6/7/3[Xx]2/7/6/7/6/7/6/7/6/6@ DEF a 2 - 0/0 2");
    ck_assert_int_eq(ball_square_state(g, ball_square_from_text("H10")),
                     BALL_SQ_PIECE | BALL_SQ_STACK);
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.1/R7.2: block onto a knocked-down opponent; the lower keeps `_`. */
START_TEST(test_R7_1_block_knocked_down_opponent)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3x_2/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H10")), BALL_BLOCK);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "7/6/7/6/7/6/7/3[Xx_]+2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_piece(g, ball_square_from_text("H10"), BALL_LOWER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_DOWN | BALL_PIECE_STACKED);
    ball_game_free(g);
}
END_TEST

/* R7.1 protection onto a standing ally. ATK X G9, ATK O H10, DEF x A17.
 * G9: F8 H8 F10, H10 protection, E7 I7 E11, I11 over the ally.
 * H10 (O): G9 protection, I9 G11 I11, orthogonal F10 J10 H8 H12. */
START_TEST(test_R7_1_protect_standing_ally)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/3O2/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 "
                "H10-F10 H10-G11 H10-G9 H10-H12 H10-H8 H10-I11 H10-I9 H10-J10 end");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H10")), BALL_PROTECT);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3[XO]+2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.1/R7.2 protection onto a knocked-down ally; lower keeps `_`. */
START_TEST(test_R7_1_protect_knocked_down_ally)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/3O_2/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H10")), BALL_PROTECT);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3[XO_]+2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R7.3: blocking the carrier: the upper takes the ball at once, with no
 * restriction mark (it is stacked). */
START_TEST(test_R7_3_block_carrier_upper_takes_ball)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3x*2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H10")), BALL_BLOCK);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "7/6/7/6/7/6/7/3[X*x]+2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    int h10 = ball_square_from_text("H10");
    ck_assert_int_eq(ball_square_of_ball(g), h10);
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_piece(g, h10, BALL_UPPER),
                     BALL_X | BALL_PIECE_BALL | BALL_PIECE_STACKED);
    ck_assert_int_eq(ball_piece(g, h10, BALL_LOWER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_STACKED);
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.1 + R5.5: a carrier that blocks keeps the ball as the upper piece. */
START_TEST(test_R7_1_carrier_blocks)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3x2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "7/6/7/6/7/6/7/3[X*x]+2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R7.1 + R5.5: a carrier that protects keeps the ball as the upper piece;
 * the stack can neither hand off nor pass (R8.5): only `end`. */
START_TEST(test_R7_1_carrier_protects)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/3O2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3[X*O]+2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.3: protecting the own restricted carrier. ATK O G9, X E11, loose ball
 * F10, DEF x A17. E11-F10 picks up (`!`, R4.4). Then G9 O list: F8 H8 H10,
 * F10 protection of the restricted ally, orthogonal E9 I9 G7 G11; nothing
 * from F10. G9-F10: upper O takes the ball, the lower X loses `!`. */
START_TEST(test_R7_3_protect_restricted_carrier)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/2X4/2@3/3O3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "E11-F10");
    ck_bpn(g, "x6/6/7/6/7/6/7/2X*!3/3O3/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1");
    ck_legal(g, "G9-E9 G9-F10 G9-F8 G9-G11 G9-G7 G9-H10 G9-H8 G9-I9 end");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-F10")), BALL_PROTECT);
    tu_apply(g, "G9-F10");
    ck_bpn(g, "x6/6/7/6/7/6/7/2[O*X]+3/7/6/7/6/7/6/7/6/7 ATK a 0 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    int f10 = ball_square_from_text("F10");
    ck_assert_int_eq(ball_piece(g, f10, BALL_UPPER),
                     BALL_O | BALL_PIECE_BALL | BALL_PIECE_STACKED);
    ck_assert_int_eq(ball_piece(g, f10, BALL_LOWER), BALL_X | BALL_PIECE_STACKED);
    ck_legal(g, "end");
    /* Fresh: no release task, turn passes, `+` cleared (R7.4, R9.5). */
    tu_apply(g, "end");
    ck_bpn(g, "x6/6/7/6/7/6/7/2[O*X]3/7/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 2");
    ball_game_free(g);
}
END_TEST

/* R7.2, R3.5: a (non-fresh) stack whose upper is ATK's and holds the ball
 * is inactive: no move, hand-off or pass from H10, even with G9 an
 * adjacent ally. G9 cannot land on it (H10) or cross it (I11).
 * G9 list: F8 H8 F10, E7 I7 E11. */
START_TEST(test_R7_2_stack_inactive_not_crossed)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3[X*o]2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H8 G9-I7 end");
    ball_game_free(g);
}
END_TEST

/* R7.1 for DEF: DEF x G9 blocks the ATK carrier on H8 ([x*X]+). */
START_TEST(test_R7_1_def_blocks_carrier)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3x3/3X*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 1");
    ck_assert_int_eq(ball_action_kind(tu_action(g, "G9-H8")), BALL_BLOCK);
    tu_apply(g, "G9-H8");
    ck_bpn(g, "7/6/7/6/7/6/7/6/7/3[x*X]+2/7/6/7/6/7/6/7 DEF a 1 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.4 / N1: a fresh stack must have the side to act's upper piece. */
START_TEST(test_R7_4_fresh_stack_owner_in_bpn)
{
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_position_from_text(g, "7/6/7/6/7/6/7/3[xX]+2/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1"),
                     BALL_E_BPN);
    ck_bpn(g, BALL_START_BPN); /* unchanged on failure */
    ck_assert_int_eq(ball_position_from_text(g, "7/6/7/6/7/6/7/3[Xx]+2/3X3/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1"),
                     BALL_OK);
    ck_bpn(g, "7/6/7/6/7/6/7/3[Xx]+2/3X3/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r07_block");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R7_1_block_standing_opponent);
    tcase_add_test(tc, test_R7_4_fresh_stack_not_released_and_cleared);
    tcase_add_test(tc, test_R7_1_block_knocked_down_opponent);
    tcase_add_test(tc, test_R7_1_protect_standing_ally);
    tcase_add_test(tc, test_R7_1_protect_knocked_down_ally);
    tcase_add_test(tc, test_R7_3_block_carrier_upper_takes_ball);
    tcase_add_test(tc, test_R7_1_carrier_blocks);
    tcase_add_test(tc, test_R7_1_carrier_protects);
    tcase_add_test(tc, test_R7_3_protect_restricted_carrier);
    tcase_add_test(tc, test_R7_2_stack_inactive_not_crossed);
    tcase_add_test(tc, test_R7_1_def_blocks_carrier);
    tcase_add_test(tc, test_R7_4_fresh_stack_owner_in_bpn);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
