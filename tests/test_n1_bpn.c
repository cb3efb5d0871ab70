/* N1 — the position notation: round trips of valid positions and one
 * rejection per rule of N1 (and R3, which N1 enforces). A rejected text
 * must give BALL_E_BPN, leave the position (and history) unchanged, and
 * set a non-empty ball_errmsg(). Each bad text below is a valid text with
 * exactly one thing broken, named in its entry. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* A small valid position: ATK X* G5, O C7; DEF x G13, o E11. */
#define P_BASE "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7"
#define BASE P_BASE " ATK a 2 - 0/0 2"

/* The valid position every rejection is tried on: restricted carrier,
 * knocked-down O, a non-fresh stack [S s]. */
#define PREV "7/6/7/6/3x3/6/2o4/6/7/6/1O_5/3[Ss]2/3X*!3/6/7/6/7 ATK a 1 - 0/0 2"

static void round_trip(const char *bpn)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL), BALL_OK);
    int rc = ball_set_bpn(g, bpn);
    ck_assert_msg(rc == BALL_OK, "'%s' rejected: %s", bpn, ball_errmsg(g));
    ck_assert_str_eq(ball_errmsg(g), "");
    char out[BALL_BPN_MAX];
    ck_assert_int_eq(ball_get_bpn(g, out, sizeof out), (int)strlen(bpn));
    ck_assert_str_eq(out, bpn);
    ball_game_free(g);
}

/* N1: the standard start, as created and as set. */
START_TEST(n1_round_trip_standard_start)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1");
    ball_game_free(g);
    round_trip(BALL_START_BPN);
}
END_TEST

/* N1: stacks — fresh `[X o]+` (upper ATK, ATK to act), `[S* x_]` (upper
 * carrier over a knocked-down lower), `[o O]` (DEF upper, not fresh);
 * knocked-down pieces O_ and x_, corners A1 and M17. */
START_TEST(n1_round_trip_stacks_and_knocked_down)
{
    round_trip("6s/6/2x_4/6/1[oO]5/6/7/6/3[S*x_]3/6/7/3[Xo]+2/7/6/5X1/6/O_6 ATK a 1 - 0/0 4");
}
END_TEST

/* N1: the loose ball `@` on A17, DEF to act. */
START_TEST(n1_round_trip_loose_ball)
{
    round_trip("@6/5o/7/6/7/6/7/2O3/3x_3/6/7/6/7/6/7/S5/6X_ DEF a 2 - 0/0 5");
}
END_TEST

/* N1: a release phase (DEF: x_ on G9 can stand up, [o X] on C5 can be
 * released); the stack [O x] is ATK's and no task of DEF. */
START_TEST(n1_round_trip_release_phase)
{
    round_trip("7/6/2O*4/6/5[Ox]1/6/7/6/3x_3/6/7/6/1[oX]5/6/4s2/6/7 DEF r 0 - 0/0 7");
}
END_TEST

/* N1: `h` after a hand-off, `!` on the active carrier of the side to act,
 * a finished game (ATK X* in row 17), exactly 7 pieces on a team. */
START_TEST(n1_round_trip_marks_and_flags)
{
    round_trip("7/6/7/6/7/6/7/2s*3/3o3/6/7/6/7/6/1X3O1/6/7 DEF a 1 h 0/0 3");
    round_trip("7/6/7/6/1o5/6/7/2S3/3X*!3/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 6");
    round_trip("3X*3/6/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    round_trip("7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/XXXXX2 ATK a 0 - 0/0 12");
    round_trip(PREV);
}
END_TEST

/* N1 + accessors: the fields of a set position read back. */
START_TEST(n1_fields_read_back)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/2s*3/3o3/6/7/6/7/6/1X3O1/6/7 DEF a 1 h 0/0 3");
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_ACTION);
    ck_assert_int_eq(ball_pa(g), 1);
    ck_assert_int_eq(ball_handoff_last(g), 1);
    ck_assert_uint_eq(ball_turn(g), 3);
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    int f10 = ball_square_from_name("F10");
    ck_assert_int_eq(ball_ball_square(g), f10);
    ck_assert_int_eq(ball_piece(g, f10, BALL_UPPER),
                     BALL_SQUARE | BALL_PIECE_DEF | BALL_PIECE_BALL);
    ck_assert_int_eq(ball_square_state(g, f10), BALL_SQ_PIECE | BALL_SQ_BALL);
    ball_game_free(g);

    g = tu_game("6s/6/2x_4/6/1[oO]5/6/7/6/3[S*x_]3/6/7/3[Xo]+2/7/6/5X1/6/O_6 ATK a 1 - 0/0 4");
    int h6 = ball_square_from_name("H6"), g9 = ball_square_from_name("G9");
    ck_assert_int_eq(ball_square_state(g, h6), BALL_SQ_PIECE | BALL_SQ_STACK | BALL_SQ_FRESH);
    ck_assert_int_eq(ball_piece(g, g9, BALL_UPPER),
                     BALL_SQUARE | BALL_PIECE_BALL | BALL_PIECE_STACKED);
    ck_assert_int_eq(ball_piece(g, g9, BALL_LOWER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_DOWN | BALL_PIECE_STACKED);
    ball_game_free(g);
}
END_TEST

/* N1: a successful set clears the undo history. */
START_TEST(n1_set_clears_history)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "G13-F12");
    ck_assert_uint_eq(ball_history_length(g), 1);
    ck_assert_int_eq(ball_set_bpn(g, BASE), BALL_OK);
    ck_assert_uint_eq(ball_history_length(g), 0);
    ck_assert_int_eq(ball_undo(g), BALL_E_NO_HISTORY);
    ck_bpn(g, BASE);
    ball_game_free(g);
}
END_TEST

static const struct bad_bpn {
    const char *what;
    const char *bpn;
} bad[] = {
    { "empty text", "" },
    { "6 fields", P_BASE " ATK a 2 - 0/0" },
    { "8 fields", BASE " 2" },
    { "double space", P_BASE " ATK  a 2 - 0/0 2" },
    { "leading space", " " BASE },
    { "trailing space", BASE " " },
    { "trailing newline", BASE "\n" },
    { "trailing garbage after turn", BASE "x" },
    { "side in lower case", P_BASE " atk a 2 - 0/0 2" },
    { "side unknown", P_BASE " ATT a 2 - 0/0 2" },
    { "phase upper case", P_BASE " ATK A 2 - 0/0 2" },
    { "phase unknown", P_BASE " ATK x 2 - 0/0 2" },
    { "pa 3", P_BASE " ATK a 3 - 0/0 2" },
    { "pa not a digit", P_BASE " ATK a x - 0/0 2" },
    { "pa negative", P_BASE " ATK a -1 - 0/0 2" },
    { "handoff H", P_BASE " ATK a 2 H 0/0 2" },
    { "handoff x", P_BASE " ATK a 2 x 0/0 2" },
    { "pe with dash", P_BASE " ATK a 2 - 0-0 2" },
    { "pe missing DEF part", P_BASE " ATK a 2 - 0/ 2" },
    { "pe missing ATK part", P_BASE " ATK a 2 - /0 2" },
    { "pe not a number", P_BASE " ATK a 2 - a/0 2" },
    { "pe single number", P_BASE " ATK a 2 - 0 2" },
    { "pe non-zero outside card mode", P_BASE " ATK a 2 - 1/0 2" },
    { "turn 0", P_BASE " ATK a 2 - 0/0 0" },
    { "turn negative", P_BASE " ATK a 2 - 0/0 -1" },
    { "turn not a number", P_BASE " ATK a 2 - 0/0 x" },
    { "group too short (row 17: 6 of 7)", "6/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "group too short (row 13: 6 of 7)", "7/6/7/6/3x2/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "group too long (row 13: 8 of 7)", "7/6/7/6/4x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "group too long (row 16: 7 of 6)", "7/7/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "digit 8", "8/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "empty group", "/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "touching digits 34", "34/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "digit 0 between pieces", "7/6/3s3/6/3x3/6/1ox0sxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1" },
    { "unknown piece letter", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3Y*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "18 groups", P_BASE "/7 ATK a 2 - 0/0 2" },
    { "16 groups", "6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "no ball", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "two balls (carrier + loose)", "7/6/7/6/3x3/6/2o4/6/@6/6/1O5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "two carriers", "7/6/7/6/3x3/6/2o4/6/7/6/1O*5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "knocked-down carrier X*_", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*_3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "marks out of order X_*", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X_*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "marks out of order X!*", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X!*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "mark repeated X**", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X**3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "mark on the loose ball", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3@*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "lower carrier", "7/6/7/6/3x3/6/7/6/7/6/1O5/6/3[oX*]3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "knocked-down upper", "7/6/7/6/3x3/6/7/6/7/6/1[O_x]5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "restricted upper", "7/6/7/6/3x3/6/7/6/7/6/1O5/6/3[X*!o]3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "! on a non-carrier", "7/6/7/6/3x3/6/2o4/6/7/6/1O!5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "! on the carrier of the side not to act", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*!3/6/7/6/7 DEF a 2 - 0/0 3" },
    { "! in the release phase", "7/6/7/6/3x3/6/2o4/6/7/6/1O_5/6/3X*!3/6/7/6/7 ATK r 0 - 0/0 2" },
    { "h in the release phase", "7/6/7/6/3x3/6/2o4/6/7/6/1O_5/6/3X*3/6/7/6/7 ATK r 0 h 0/0 2" },
    { "pa 1 in the release phase", "7/6/7/6/3x3/6/2o4/6/7/6/1O_5/6/3X*3/6/7/6/7 ATK r 1 - 0/0 2" },
    { "fresh stack with the other side's upper", "7/6/7/6/3x3/6/7/6/7/6/1[oO]+5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "release phase without a solvable task", P_BASE " ATK r 0 - 0/0 2" },
    { "8 pieces on a team", "7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/XXXXXX1 ATK a 2 - 0/0 2" },
    { "unclosed stack", "7/6/7/6/3x3/6/7/6/7/6/1[Ox5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "stack of one piece", "7/6/7/6/3x3/6/2o4/6/7/6/1[O]5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "stack of three pieces", "7/6/7/6/3x3/6/7/6/7/6/1[Oxo]5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
    { "+ on a single piece", "7/6/7/6/3x3/6/2o4/6/7/6/1O+5/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2" },
};

/* N1: each bad text is rejected; position, history and errmsg as required. */
START_TEST(n1_rejects)
{
    const struct bad_bpn *b = &bad[_i];
    ball_game *g = tu_game(PREV);
    int rc = ball_set_bpn(g, b->bpn);
    ck_assert_msg(rc == BALL_E_BPN, "%s: '%s' gave %d, expected BALL_E_BPN",
                  b->what, b->bpn, rc);
    ck_assert_msg(ball_errmsg(g)[0] != '\0', "%s: empty errmsg", b->what);
    ck_bpn(g, PREV);
    ball_game_free(g);
}
END_TEST

/* N1: a rejected text keeps the undo history too (state unchanged). */
START_TEST(n1_reject_keeps_history)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "G13-F12");
    char before[BALL_BPN_MAX];
    tu_bpn(g, before);
    ck_assert_int_eq(ball_set_bpn(g, P_BASE " ATK a 2 - 0/0"), BALL_E_BPN);
    ck_assert_uint_eq(ball_history_length(g), 1);
    ck_bpn(g, before);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("N1 BPN");
    TCase *tc = tcase_create("round trip");
    tcase_add_test(tc, n1_round_trip_standard_start);
    tcase_add_test(tc, n1_round_trip_stacks_and_knocked_down);
    tcase_add_test(tc, n1_round_trip_loose_ball);
    tcase_add_test(tc, n1_round_trip_release_phase);
    tcase_add_test(tc, n1_round_trip_marks_and_flags);
    tcase_add_test(tc, n1_fields_read_back);
    tcase_add_test(tc, n1_set_clears_history);
    suite_add_tcase(s, tc);
    tc = tcase_create("rejections");
    tcase_add_loop_test(tc, n1_rejects, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, n1_reject_keeps_history);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
