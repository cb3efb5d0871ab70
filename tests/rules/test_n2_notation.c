/* N2 — action notation: square names, parse/format round trips for every
 * kind of action, the meaning of the parsed fields, malformed texts
 * (BALL_E_NOTATION) and well-formed illegal ones (BALL_E_ILLEGAL, state
 * unchanged). Expectations derived by hand from docs/spec.md. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* Parses `text`, checks that its text is `text` again and its fields; a
 * square the action does not have reads BALL_NO_SQUARE. */
static ball_action ck_action(ball_game *g, const char *text, int kind,
                             const char *from, const char *to,
                             const char *option, int cost)
{
    ball_action a = tu_action(g, text);
    char buf[BALL_ACTION_TEXT_MAX];
    ck_assert_int_eq(ball_action_to_text(a, buf, sizeof buf), (int)strlen(text));
    ck_assert_str_eq(buf, text);
    ck_assert_int_eq(ball_action_kind(a), kind);
    ck_assert_int_eq(ball_action_from(a), from ? tu_sq(from) : BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_to(a), to ? tu_sq(to) : BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_option(a), option ? tu_sq(option) : BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_cost(a), cost);
    ck_assert_int_eq(ball_is_legal(g, a), 1);
    return a;
}

/* Every legal action: text -> parse gives the same integer back. */
static int ck_all_round_trip(ball_game *g)
{
    ball_action acts[BALL_MAX_ACTIONS];
    char buf[BALL_ACTION_TEXT_MAX];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++) {
        int len = ball_action_to_text(acts[i], buf, sizeof buf);
        ck_assert_int_gt(len, 0);
        ck_assert_int_eq(len, (int)strlen(buf));
        ball_action b = BALL_ACTION_NONE;
        ck_assert_msg(ball_action_from_text(g, buf, &b) == BALL_OK, "parse '%s'", buf);
        ck_assert_msg(b == acts[i], "'%s' parsed to another action", buf);
    }
    return n;
}

/* ATK X* G5, O F4; DEF x F6, s H4, o I7. ATK to act, 2 PA. */
#define PN1 "7/6/7/6/7/6/7/6/7/6/4o2/2x3/3X*3/2Os2/7/6/7 ATK a 2 - 0/0 2"
/* Release phase: [X* o] on G9, [O S] on K13, O_ on C5 (all ATK tasks). */
#define PN5 "7/6/7/6/5[OS]1/6/7/6/3[X*o]3/6/7/6/1O_5/6/7/6/7 ATK r 0 - 0/0 2"

/* R1.1/R1.2 + the header's numbering: names and indices of all squares. */
START_TEST(test_N2_square_names)
{
    ck_assert_int_eq(ball_square_from_text("A1"), 0);
    ck_assert_int_eq(ball_square_from_text("M1"), 6);
    ck_assert_int_eq(ball_square_from_text("B2"), 7);
    ck_assert_int_eq(ball_square_from_text("G5"), 29);
    ck_assert_int_eq(ball_square_from_text("G9"), 55);
    ck_assert_int_eq(ball_square_from_text("M17"), 110);
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        char buf[BALL_SQUARE_TEXT_MAX];
        int len = ball_square_to_text(sq, buf, sizeof buf);
        ck_assert_int_ge(len, 2);
        ck_assert_int_le(len, 3);
        ck_assert_int_eq(ball_square_from_text(buf), sq);
        int c = ball_square_col(sq), r = ball_square_row(sq);
        ck_assert_int_eq((c + r) % 2, 0);
        ck_assert_int_eq(ball_square_at(c, r), sq);
        ck_assert_int_eq(buf[0], 'A' + c - 1);
        ck_assert_int_eq(atoi(buf + 1), r);
    }
    ck_assert_int_eq(ball_square_from_text("A2"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("G05"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("g5"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("N1"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("A19"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("G5 "), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text(""), BALL_E_NOTATION);
    /* R1.3 distance = max(|dc|, |dr|). */
    ck_assert_int_eq(ball_square_distance(tu_sq("G5"), tu_sq("H10")), 5);
    ck_assert_int_eq(ball_square_distance(tu_sq("A1"), tu_sq("M17")), 16);
    ck_assert_int_eq(ball_square_distance(tu_sq("C5"), tu_sq("G5")), 4);
}
END_TEST

/* N2, action phase kinds in PN1:
 *  G5-H6 move (H6 open); G5-I7/J8 dodge of o (over open H6, exit J8 next to
 *  I7); G5-E7/G5 tactical dodge over x on F6, landing E7, push to G5 (the
 *  vacated start, R6.2); G5-H4 block of s; G5-F4 protection of O; G5=F4
 *  hand-off (0 PA); G5^E3 short pass (E3 next to the receiver F4); G5^^G11
 *  long pass (distance 6 from G5, 7 from F4, 2 PA); end. */
START_TEST(test_N2_action_phase_kinds)
{
    ball_game *g = tu_game(PN1);
    ck_assert_int_eq(ball_action_flags(
        ck_action(g, "G5-H6", BALL_MOVE, "G5", "H6", NULL, 1)), 0);
    ck_action(g, "G5-I7/J8", BALL_DODGE, "G5", "I7", "J8", 1);
    ck_action(g, "G5-E7/G5", BALL_TACTICAL_DODGE, "G5", "E7", "G5", 1);
    ck_action(g, "G5-H4", BALL_BLOCK, "G5", "H4", NULL, 1);
    ck_action(g, "G5-F4", BALL_PROTECT, "G5", "F4", NULL, 1);
    ck_action(g, "G5=F4", BALL_HANDOFF, "G5", "F4", NULL, 0);
    ck_action(g, "G5^E3", BALL_SHORT_PASS, "G5", "E3", NULL, 1);
    ck_action(g, "G5^^G11", BALL_LONG_PASS, "G5", "G11", NULL, 2);
    ball_action e = ck_action(g, "end", BALL_END, NULL, NULL, NULL, 0);
    ck_assert_int_eq(ball_action_keeper(e), BALL_KEEPER_NONE);
    ball_game_free(g);
}
END_TEST

/* N2: all legal actions of PN1 round-trip through their texts. */
START_TEST(test_N2_round_trip_all_action_phase)
{
    ball_game *g = tu_game(PN1);
    ck_all_round_trip(g);
    ball_game_free(g);
}
END_TEST

/* N2, release kinds in PN5: stand-up C5-D6; unblock of [X* o] with keeper
 * upper (=F8, the U square) or lower (=H8, the W square, o comes back
 * standing); unprotect of [O S] (no ball, no keeper). */
START_TEST(test_N2_release_kinds)
{
    ball_game *g = tu_game(PN5);
    ball_action a;
    a = ck_action(g, "C5-D6", BALL_STAND_UP, "C5", "D6", NULL, 0);
    ck_assert_int_eq(ball_action_keeper(a), BALL_KEEPER_NONE);
    a = ck_action(g, "G9-F8/H8=F8", BALL_UNBLOCK, "G9", "F8", "H8", 0);
    ck_assert_int_eq(ball_action_keeper(a), BALL_KEEPER_UPPER);
    a = ck_action(g, "G9-F8/H8=H8", BALL_UNBLOCK, "G9", "F8", "H8", 0);
    ck_assert_int_eq(ball_action_keeper(a), BALL_KEEPER_LOWER);
    a = ck_action(g, "K13-J12/L14", BALL_UNPROTECT, "K13", "J12", "L14", 0);
    ck_assert_int_eq(ball_action_keeper(a), BALL_KEEPER_NONE);
    /* 4 stand-ups + G9: 4 vacant neighbours, 12 pairs x 2 keepers + K13: 12
     * pairs = 40 decisions, all round-tripping. */
    ck_assert_int_eq(ck_all_round_trip(g), 40);
    /* A release of a stack whose upper held the ball needs its keeper. */
    ball_action x = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_from_text(g, "G9-F8/H8", &x), BALL_E_ILLEGAL);
    /* The keeper must be U or W. */
    ck_assert_int_eq(ball_action_from_text(g, "G9-F8/H8=F10", &x), BALL_E_ILLEGAL);
    /* No keeper when the upper held no ball. */
    ck_assert_int_eq(ball_action_from_text(g, "K13-J12/L14=J12", &x), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R8.1 flag: G5-H6 onto the loose ball is a move with the pickup flag. */
START_TEST(test_N2_pickup_flag)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/3@2/3X3/6/1O5/6/7 ATK a 2 - 0/0 2");
    ball_action a = ck_action(g, "G5-H6", BALL_MOVE, "G5", "H6", NULL, 1);
    ck_assert_int_eq(ball_action_flags(a), BALL_FLAG_PICKUP);
    ball_game_free(g);
}
END_TEST

/* R6.1 flag: dodging the carrier o* on I7 is a forced fumble (no pickup:
 * no loose ball). */
START_TEST(test_N2_forced_fumble_flag)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/4o*2/6/3X3/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action a = ck_action(g, "G5-I7/J8", BALL_DODGE, "G5", "I7", "J8", 1);
    ck_assert_int_eq(ball_action_flags(a), BALL_FLAG_FORCED_FUMBLE);
    ball_game_free(g);
}
END_TEST

/* R6.2 flag and result: tactical dodge over the carrier x* on F6, landing
 * E7, push to G7: B = F6 + (F6 - G7) = E5, vacant: the ball lies loose on
 * E5; x knocked down on G7. */
START_TEST(test_N2_fumble_flag)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/2x*3/3X3/6/7/6/7 ATK a 2 - 0/0 2");
    ball_action a = ck_action(g, "G5-E7/G7", BALL_TACTICAL_DODGE, "G5", "E7", "G7", 1);
    ck_assert_int_eq(ball_action_flags(a), BALL_FLAG_FUMBLE);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/2Xx_3/6/2@4/6/7/6/7 ATK a 1 - 0/0 2");
    ball_game_free(g);
}
END_TEST

static const char *const malformed[] = {
    "", "G5", "G5-", "-H6", "Z5-F6", "G5-F6/", "G5--F6", "g5-h6", "G5-h6",
    "G05-H6", "A2-B3", "G5-H6 ", " G5-H6", "G5-H6\n", "G5 H6", "G5_H6",
    "G0-H1", "G18-F17", "N5-M6", "G5=", "G5^", "G5^^", "G5^^^G11",
    "G5-H6=", "G5-E7/G5=", "G5-I7/J8/K9", "G5-H6-G7", "G5=F4=E3",
    "End", "END", "end ", "ends", "e", "G5-I7/J8=J8=J8", "GG5-H6", "5G-H6",
};

/* N2: malformed texts give BALL_E_NOTATION; the state is unchanged. */
START_TEST(test_N2_malformed)
{
    const char *text = malformed[_i];
    ball_game *g = tu_game(PN1);
    ball_action a = BALL_ACTION_NONE;
    int rc = ball_action_from_text(g, text, &a);
    ck_assert_msg(rc == BALL_E_NOTATION, "'%s' gave %d, expected BALL_E_NOTATION", text, rc);
    ck_assert_msg(ball_errmsg(g)[0] != '\0', "'%s': empty errmsg", text);
    ck_bpn(g, PN1);
    ball_game_free(g);
}
END_TEST

static const char *const illegal[] = {
    "G5-G7",      /* X moves only diagonally (R5.1) */
    "A1-B2",      /* no piece on A1 */
    "I7-H8",      /* DEF's piece, ATK to act (R4.4) */
    "G5-H6/H8",   /* a plain move has no third square */
    "G5-I7",      /* a dodge needs its exit (R6.1) */
    "G5-I7/K9",   /* K9 is not next to I7 */
    "G5-E7",      /* a tactical dodge needs its push square (R6.2) */
    "G5-E7/E7",   /* the push square may not be the landing square */
    "G5=H4",      /* hand-off to an opponent (R8.2) */
    "F4=G5",      /* F4 holds no ball */
    "G5^M17",     /* M17 is next to no eligible receiver (R8.3) */
    "G5^^H6",     /* next to the passer (R8.4) */
    "G5-F8/H8=F8",/* a release in the action phase */
    "pe+1",       /* card mode is off (R10.2) */
};

/* N2: well-formed but illegal texts give BALL_E_ILLEGAL; state unchanged. */
START_TEST(test_N2_illegal)
{
    const char *text = illegal[_i];
    ball_game *g = tu_game(PN1);
    ball_action a = BALL_ACTION_NONE;
    int rc = ball_action_from_text(g, text, &a);
    ck_assert_msg(rc == BALL_E_ILLEGAL, "'%s' gave %d, expected BALL_E_ILLEGAL", text, rc);
    ck_assert_msg(ball_errmsg(g)[0] != '\0', "'%s': empty errmsg", text);
    ck_bpn(g, PN1);
    ck_assert_int_eq(ball_history_length(g), 0);
    ball_game_free(g);
}
END_TEST

/* N2 in the release phase: `end` and action-phase texts are illegal. */
START_TEST(test_N2_end_illegal_in_release_phase)
{
    ball_game *g = tu_game(PN5);
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_from_text(g, "end", &a), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_action_from_text(g, "C5-D6/E7", &a), BALL_E_ILLEGAL);
    ck_bpn(g, PN5);
    ball_game_free(g);
}
END_TEST

/* N2: the text length and buffer contract of ball_action_to_text. */
START_TEST(test_N2_action_text_buffer)
{
    ball_game *g = tu_game(PN1);
    ball_action a = tu_action(g, "G5-I7/J8");
    char buf[BALL_ACTION_TEXT_MAX];
    ck_assert_int_eq(ball_action_to_text(a, buf, 9), 8);
    ck_assert_str_eq(buf, "G5-I7/J8");
    ck_assert_int_eq(ball_action_to_text(a, buf, 8), BALL_E_BUFFER);
    ball_action e = tu_action(g, "end");
    ck_assert_int_eq(ball_action_to_text(e, buf, 4), 3);
    ck_assert_str_eq(buf, "end");
    ck_assert_int_eq(ball_action_to_text(e, buf, 3), BALL_E_BUFFER);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("N2 notation");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_N2_square_names);
    tcase_add_test(tc, test_N2_action_phase_kinds);
    tcase_add_test(tc, test_N2_round_trip_all_action_phase);
    tcase_add_test(tc, test_N2_release_kinds);
    tcase_add_test(tc, test_N2_pickup_flag);
    tcase_add_test(tc, test_N2_forced_fumble_flag);
    tcase_add_test(tc, test_N2_fumble_flag);
    tcase_add_loop_test(tc, test_N2_malformed, 0, (int)(sizeof malformed / sizeof malformed[0]));
    tcase_add_loop_test(tc, test_N2_illegal, 0, (int)(sizeof illegal / sizeof illegal[0]));
    tcase_add_test(tc, test_N2_end_illegal_in_release_phase);
    tcase_add_test(tc, test_N2_action_text_buffer);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
