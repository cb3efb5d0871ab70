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
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    int rc = ball_position_from_text(g, bpn);
    ck_assert_msg(rc == BALL_OK, "'%s' rejected: %s", bpn, ball_errmsg(g));
    ck_assert_str_eq(ball_errmsg(g), "");
    char out[BALL_BPN_MAX];
    ck_assert_int_eq(ball_position_to_text(g, out, sizeof out), (int)strlen(bpn));
    ck_assert_str_eq(out, bpn);
    ball_game_free(g);
}

/* N1: the standard start, as created and as set. */
START_TEST(test_N1_round_trip_standard_start)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1");
    ball_game_free(g);
    round_trip(BALL_START_BPN);
}
END_TEST

/* N1: stacks — fresh `[X o]+` (upper ATK, ATK to act), `[S* x_]` (upper
 * carrier over a knocked-down lower), `[o O]` (DEF upper, not fresh);
 * knocked-down pieces O_ and x_, corners A1 and M17. */
START_TEST(test_N1_round_trip_stacks_and_knocked_down)
{
    round_trip("6s/6/2x_4/6/1[oO]5/6/7/6/3[S*x_]3/6/7/3[Xo]+2/7/6/5X1/6/O_6 ATK a 1 - 0/0 4");
}
END_TEST

/* N1: the loose ball `@` on A17, DEF to act. */
START_TEST(test_N1_round_trip_loose_ball)
{
    round_trip("@6/5o/7/6/7/6/7/2O3/3x_3/6/7/6/7/6/7/S5/6X_ DEF a 2 - 0/0 5");
}
END_TEST

/* N1: a release phase (DEF: x_ on G9 can stand up, [o X] on C5 can be
 * released); the stack [O x] is ATK's and no task of DEF. */
START_TEST(test_N1_round_trip_release_phase)
{
    round_trip("7/6/2O*4/6/5[Ox]1/6/7/6/3x_3/6/7/6/1[oX]5/6/4s2/6/7 DEF r 0 - 0/0 7");
}
END_TEST

/* N1: `h` after a hand-off, `!` on the active carrier of the side to act,
 * a finished game (ATK X* in row 17), exactly 7 pieces on a team. */
START_TEST(test_N1_round_trip_marks_and_flags)
{
    round_trip("7/6/7/6/7/6/7/2s*3/3o3/6/7/6/7/6/1X3O1/6/7 DEF a 1 h 0/0 3");
    round_trip("7/6/7/6/1o5/6/7/2S3/3X*!3/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 6");
    round_trip("3X*3/6/7/6/7/6/7/6/1x5/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    round_trip("7/6/7/6/3x3/6/2o4/6/7/6/1O5/6/3X*3/6/7/6/XXXXX2 ATK a 0 - 0/0 12");
    round_trip(PREV);
}
END_TEST

/* N1 + accessors: the fields of a set position read back. */
START_TEST(test_N1_fields_read_back)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/2s*3/3o3/6/7/6/7/6/1X3O1/6/7 DEF a 1 h 0/0 3");
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_ACTION);
    ck_assert_int_eq(ball_pa(g), 1);
    ck_assert_int_eq(ball_handoff_last(g), 1);
    ck_assert_int_eq(ball_turn(g), 3);
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    int f10 = ball_square_from_text("F10");
    ck_assert_int_eq(ball_square_of_ball(g), f10);
    ck_assert_int_eq(ball_piece(g, f10, BALL_UPPER),
                     BALL_SQUARE | BALL_PIECE_DEF | BALL_PIECE_BALL);
    ck_assert_int_eq(ball_square_state(g, f10), BALL_SQ_PIECE | BALL_SQ_BALL);
    ball_game_free(g);

    g = tu_game("6s/6/2x_4/6/1[oO]5/6/7/6/3[S*x_]3/6/7/3[Xo]+2/7/6/5X1/6/O_6 ATK a 1 - 0/0 4");
    int h6 = ball_square_from_text("H6"), g9 = ball_square_from_text("G9");
    ck_assert_int_eq(ball_square_state(g, h6), BALL_SQ_PIECE | BALL_SQ_STACK | BALL_SQ_FRESH);
    ck_assert_int_eq(ball_piece(g, g9, BALL_UPPER),
                     BALL_SQUARE | BALL_PIECE_BALL | BALL_PIECE_STACKED);
    ck_assert_int_eq(ball_piece(g, g9, BALL_LOWER),
                     BALL_X | BALL_PIECE_DEF | BALL_PIECE_DOWN | BALL_PIECE_STACKED);
    ball_game_free(g);
}
END_TEST

/* N1: a successful set clears the undo history. */
START_TEST(test_N1_set_clears_history)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "G13-F12");
    ck_assert_int_eq(ball_history_length(g), 1);
    ck_assert_int_eq(ball_position_from_text(g, BASE), BALL_OK);
    ck_assert_int_eq(ball_history_length(g), 0);
    ck_assert_int_eq(ball_undo(g), BALL_E_NO_HISTORY);
    ck_bpn(g, BASE);
    ball_game_free(g);
}
END_TEST

/* N1: the message counts the fields in good English (issue 49: "1
 * fields"). */
START_TEST(test_N1_field_count_message)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    ck_assert_int_eq(ball_position_from_text(g, "bad"), BALL_E_BPN);
    ck_assert_msg(strstr(ball_errmsg(g), "1 field, expected 7") != NULL, "%s", ball_errmsg(g));
    ck_assert_int_eq(ball_position_from_text(g, "a b"), BALL_E_BPN);
    ck_assert_msg(strstr(ball_errmsg(g), "2 fields, expected 7") != NULL, "%s", ball_errmsg(g));
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
    { "turn of 10 digits", P_BASE " ATK a 2 - 0/0 1000000000" },
    { "turn with a leading zero", P_BASE " ATK a 2 - 0/0 02" },
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
START_TEST(test_N1_rejects)
{
    const struct bad_bpn *b = &bad[_i];
    ball_game *g = tu_game(PREV);
    int rc = ball_position_from_text(g, b->bpn);
    ck_assert_msg(rc == BALL_E_BPN, "%s: '%s' gave %d, expected BALL_E_BPN",
                  b->what, b->bpn, rc);
    ck_assert_msg(ball_errmsg(g)[0] != '\0', "%s: empty errmsg", b->what);
    ck_bpn(g, PREV);
    ball_game_free(g);
}
END_TEST

/* N1: a rejected text keeps the undo history too (state unchanged). */
START_TEST(test_N1_reject_keeps_history)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "G13-F12");
    char before[BALL_BPN_MAX];
    tu_bpn(g, before);
    ck_assert_int_eq(ball_position_from_text(g, P_BASE " ATK a 2 - 0/0"), BALL_E_BPN);
    ck_assert_int_eq(ball_history_length(g), 1);
    ck_bpn(g, before);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* N1 clarification (turn): every turn number that play can reach gives a
 * BPN that reads back; libball bounds the turn at BALL_MAX_TURN (nine
 * digits) and refuses, with BALL_E_LIMIT and a message, the decision that
 * would hand the turn over past it (issue item: turn bound); the legal
 * list leaves it out, so every listed decision can be played (issue 23;
 * more in tests/rules/test_r04_turn.c). */

/* ATK's turn 999999999: X* G5 and the knocked-down O_ on C5, DEF o G13.
 * `end` opens the release phase (the stand-up of C5: B4 B6 D4 D6, R9.2);
 * the stand-up completes the turn and would hand over to turn 1000000000. */
#define TURN_MAX_POS "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK a 1 - 0/0 999999999"

/* A decision refused at the bound: not listed and not legal for
 * ball_is_legal() (every listed decision can be played), BALL_E_LIMIT
 * from ball_apply() (it is legal by the rules: BALL_E_ILLEGAL is for
 * illegal ones) and ball_apply_unchecked(), nothing changed (BPN, hash,
 * history), a message that names the bound. */
static void ck_refused_at_bound(ball_game *g, ball_action a)
{
    char before[BALL_BPN_MAX];
    tu_bpn(g, before);
    uint64_t hash = ball_hash(g);
    int hist = ball_history_length(g);
    ck_assert_int_eq(ball_is_legal(g, a), 0);
    ck_assert_int_eq(ball_apply(g, a), BALL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "999999999"));
    ck_bpn(g, before);
    ck_assert_uint_eq(ball_hash(g), hash);
    ck_assert_int_eq(ball_history_length(g), hist);
    ck_assert_int_eq(ball_turn(g), BALL_MAX_TURN);
    ck_assert_int_eq(ball_apply_unchecked(g, a), BALL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "999999999"));
    ck_bpn(g, before);
    ck_assert_uint_eq(ball_hash(g), hash);
    ck_assert_int_eq(ball_history_length(g), hist);
}

/* `end`, from a position where it is listed (an action has no position
 * in it). */
static ball_action end_action(void)
{
    ball_game *g = tu_game(NULL);
    ball_action a = tu_action(g, "end");
    ball_game_free(g);
    return a;
}

START_TEST(test_N1_turn_bound_release_completes_turn)
{
    ck_assert_int_eq(BALL_MAX_TURN, 999999999);
    ball_game *g = tu_game(TURN_MAX_POS);
    ck_assert_int_eq(ball_turn(g), BALL_MAX_TURN);
    tu_apply(g, "end"); /* the release phase belongs to the same turn */
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK r 0 - 0/0 999999999");
    ck_legal(g, ""); /* the four stand-ups would each hand over */
    ck_assert_int_eq(tu_parse_rc(g, "C5-B4"), BALL_E_LIMIT); /* legal by the rules, refused */
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "999999999"));
    ball_game *earlier = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK r 0 - 0/0 999999998");
    ck_legal(earlier, "C5-B4 C5-B6 C5-D4 C5-D6");
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(earlier, acts, BALL_MAX_ACTIONS);
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < n; i++)
        ck_refused_at_bound(g, acts[i]);
    ball_game_free(earlier);
    /* the game goes on: `end` can still be taken back */
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, TURN_MAX_POS);
    ball_game_free(g);
}
END_TEST

/* `end` without a release task hands over at once: refused at the bound,
 * for ATK and DEF, in card mode too (eighth field); one turn earlier it
 * is played and the position at turn 999999999 reads back. */
START_TEST(test_N1_turn_bound_end_hands_over)
{
    static const char *const at_bound[] = {
        "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 999999999",
        "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 DEF a 0 h 0/0 999999999",
    };
    for (size_t i = 0; i < sizeof at_bound / sizeof at_bound[0]; i++) {
        ball_game *g = tu_game(at_bound[i]);
        ck_refused_at_bound(g, end_action());
        ball_game_free(g);
    }
    ball_game *g = tu_game_text(TU_DECK, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 3/4 999999999 13/2");
    tu_apply(g, "card1"); /* an action that keeps the turn is played as usual */
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 3 - 2/4 999999999 3/2");
    ck_refused_at_bound(g, end_action());
    ball_game_free(g);

    g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 DEF a 2 - 0/0 999999998");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 999999999");
    ck_assert_int_eq(ball_turn(g), BALL_MAX_TURN);
    ball_game *scratch = tu_game(NULL);
    tu_check_bpn_round_trip(g, scratch);
    ck_refused_at_bound(g, end_action());
    ball_game_free(scratch);
    ball_game_free(g);
}
END_TEST

/* Walks every decision sequence of up to `depth` decisions: every listed
 * decision is played, and the position it reaches writes a BPN that
 * reads back (same text, result and hash). In an action phase where
 * `end` (always legal by R4.2) is not listed, it is refused with
 * BALL_E_LIMIT and nothing changes; a game that goes on with nothing
 * listed is stopped at the bound. Counts both. */
static void walk_bound(ball_game *g, ball_game *scratch, int depth, long *played, long *refused)
{
    if (depth == 0)
        return;
    ball_action acts[BALL_MAX_ACTIONS], end = end_action();
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    tu_require(n >= 0);
    if (ball_result(g) == BALL_ONGOING && ball_phase(g) == BALL_PHASE_ACTION && !ball_is_legal(g, end)) {
        char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
        uint64_t hash = ball_hash(g);
        tu_bpn(g, before);
        tu_require(ball_turn(g) == BALL_MAX_TURN);
        tu_require(ball_apply(g, end) == BALL_E_LIMIT);
        tu_require(strstr(ball_errmsg(g), "999999999") != NULL);
        tu_bpn(g, after);
        tu_require(strcmp(after, before) == 0 && ball_hash(g) == hash);
        (*refused)++;
    }
    if (ball_result(g) == BALL_ONGOING && n == 0) { /* stopped: every decision would hand over */
        ball_action a;
        tu_require(ball_turn(g) == BALL_MAX_TURN);
        tu_require(ball_random_action(g, 0, &a) == BALL_E_RANGE);
        tu_require(strstr(ball_errmsg(g), "999999999") != NULL);
        (*refused)++;
    }
    for (int i = 0; i < n; i++) {
        int rc = ball_apply(g, acts[i]);
        tu_require(rc == BALL_OK);
        tu_require(ball_turn(g) >= 1 && ball_turn(g) <= BALL_MAX_TURN);
        tu_check_bpn_round_trip(g, scratch);
        (*played)++;
        walk_bound(g, scratch, depth - 1, played, refused);
        tu_require(ball_undo(g) == BALL_OK);
    }
}

/* Every position reachable from turns 999999998 and 999999999 within four
 * decisions reads back; some decisions are refused, none is lost. */
START_TEST(test_N1_turn_bound_every_reachable_bpn_reads_back)
{
    static const char *const starts[] = {
        TURN_MAX_POS,
        "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 DEF a 2 - 0/0 999999998",
        "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 999999999",
    };
    ball_game *scratch = tu_game(NULL);
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        ball_game *g = tu_game(starts[i]);
        long played = 0, refused = 0;
        walk_bound(g, scratch, i == 2 ? 3 : 4, &played, &refused);
        ck_assert_int_gt(played, 0);
        ck_assert_int_gt(refused, 0);
        ck_bpn(g, starts[i]);
        ball_game_free(g);
    }
    ball_game_free(scratch);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("N1 BPN");
    TCase *tc = tcase_create("round trip");
    tcase_add_test(tc, test_N1_round_trip_standard_start);
    tcase_add_test(tc, test_N1_round_trip_stacks_and_knocked_down);
    tcase_add_test(tc, test_N1_round_trip_loose_ball);
    tcase_add_test(tc, test_N1_round_trip_release_phase);
    tcase_add_test(tc, test_N1_round_trip_marks_and_flags);
    tcase_add_test(tc, test_N1_fields_read_back);
    tcase_add_test(tc, test_N1_field_count_message);
    tcase_add_test(tc, test_N1_set_clears_history);
    suite_add_tcase(s, tc);
    tc = tcase_create("rejections");
    tcase_add_loop_test(tc, test_N1_rejects, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_N1_reject_keeps_history);
    suite_add_tcase(s, tc);
    tc = tcase_create("turn bound");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_N1_turn_bound_release_completes_turn);
    tcase_add_test(tc, test_N1_turn_bound_end_hands_over);
    tcase_add_test(tc, test_N1_turn_bound_every_reachable_bpn_reads_back);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
