/* R10.2 card mode: converting PA into PE (`pe+k`), with PE kept across
 * turns (R10.1), above 2 PA after a gain-PA card (R10.5), and malformed
 * conversion and card texts (N2).
 *
 * Every expected list, count and BPN below is derived by hand from
 * docs/spec.md (R1-R11, N1-N3) and the card-mode semantics documented in
 * ball.h and docs/cards.md; the comment of each test says how. Squares
 * are (column, row) with A = 1: X moves (+-1, +-1) and (+-2, +-2) (R5.1).
 * TU_DECK, the deck most card tests use, is described in testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------ */
/* R10.2 conversion */

/* ATK X* G5 alone (DEF x G13), card mode with empty hands (`cards`).
 * R10.2: pe+k for 1 <= k <= PA left: with 2 PA pe+1 and pe+2, with 1 PA
 * only pe+1, with 0 PA none. pe+k costs k PA and adds k PE. */
#define CONV_POS "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 1 -/-"

START_TEST(test_R10_2_conversion_limits)
{
    ball_game *g = tu_game_text("cards", CONV_POS);
    ck_legal_prefix(g, "pe+", "pe+1 pe+2");
    ck_assert_int_eq(tu_parse_rc(g, "pe+3"), BALL_E_ILLEGAL);
    {   /* `end` stays last in the generator's order (ball.h) */
        ball_action acts[BALL_MAX_ACTIONS];
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        ck_assert_int_gt(n, 0);
        ck_assert_int_eq(ball_action_kind(acts[n - 1]), BALL_END);
    }
    ball_action a = tu_action(g, "pe+2");
    ck_assert_int_eq(ball_action_kind(a), BALL_CONVERT_PA);
    ck_assert_int_eq(ball_action_value(a), 2);
    ck_assert_int_eq(ball_action_cost(a), 2);
    ck_assert_int_eq(ball_action_from(a), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_to(a), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(tu_action(g, "G5-F6")), BALL_E_ARG); /* no number */

    /* partial conversion: 1 PA left, PE 1 */
    tu_apply(g, "pe+1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 1 - 1/0 1 -/-");
    ck_assert_int_eq(ball_pa(g), 1);
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 1);
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 0);
    ck_legal_prefix(g, "pe+", "pe+1");
    ck_assert_int_eq(tu_parse_rc(g, "pe+2"), BALL_E_ILLEGAL);
    /* repeated conversion: 0 PA, PE 2; nothing is left but `end` (no
     * movement without PA, no ally for a hand-off, R4.3) */
    tu_apply(g, "pe+1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 0 - 2/0 1 -/-");
    ck_legal(g, "end");
    ck_assert_int_eq(tu_parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R10.2 with a move in between, and PE persisting across turns (R10.1):
 * pe+1 (PA 1, PE 1), G5-F6 (PA 0), end -> no ATK task (R9.1): DEF's turn 2
 * with 2 PA, PE still 1/0. DEF converts both: 1/2. DEF end -> ATK turn 3,
 * PE 1/2 unchanged. */
START_TEST(test_R10_2_conversion_persists_across_turns)
{
    ball_game *g = tu_game_text("cards", CONV_POS);
    tu_apply_all(g, "pe+1 G5-F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/7/6/7/6/7 ATK a 0 - 1/0 1 -/-");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/7/6/7/6/7 DEF a 2 - 1/0 2 -/-");
    ck_legal_prefix(g, "pe+", "pe+1 pe+2");
    tu_apply(g, "pe+2");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/7/6/7/6/7 DEF a 0 - 1/2 2 -/-");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/7/6/7/6/7 ATK a 2 - 1/2 3 -/-");
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 1);
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 2);
    ball_game_free(g);
}
END_TEST

/* R10.2/R10.4: a gain-PA card can raise PA above 2; conversions then go up
 * to the PA left. ATK PE 1, plays Sprint (+1 PA): PA 3, PE 0, so
 * pe+1 pe+2 pe+3. */
START_TEST(test_R10_2_conversion_above_two_pa)
{
    ball_game *g = tu_game_text(TU_DECK, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    tu_apply(g, "card1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 3 - 0/0 1 23/12");
    ck_assert_int_eq(ball_pa(g), 3);
    ck_legal_prefix(g, "pe+", "pe+1 pe+2 pe+3");
    ck_assert_int_eq(ball_action_cost(tu_action(g, "pe+3")), 3);
    tu_apply(g, "pe+3");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 0 - 3/0 1 23/12");
    ball_game_free(g);
}
END_TEST

/* Malformed conversion and card texts are notation errors (N2: pe+k with
 * k >= 1; the project's card text is cardN or cardN@SQ, N = 1-9). */
START_TEST(test_R10_2_malformed_texts)
{
    ball_game *g = tu_game_text(TU_DECK, NULL);
    static const char *const bad[] = {"pe+", "pe+0", "pe+x", "pe+1x", "card", "card0",
                                      "card10", "card1@", "card1@Z9", "card1@G5x",
                                      "card1x", "cardA"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tu_parse_rc(g, bad[i]) == BALL_E_NOTATION, "%s", bad[i]);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_conversion");
    TCase *tc = tcase_create("conversion");
    tcase_add_test(tc, test_R10_2_conversion_limits);
    tcase_add_test(tc, test_R10_2_conversion_persists_across_turns);
    tcase_add_test(tc, test_R10_2_conversion_above_two_pa);
    tcase_add_test(tc, test_R10_2_malformed_texts);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
