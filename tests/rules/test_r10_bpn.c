/* N1 in card mode (R10): the eighth BPN field (the cards still in each
 * hand), PA above 2 and PE in the pe field; what is refused; N1 unchanged
 * outside card mode; every position reached by legal decisions reads back
 * at the PA bound.
 *
 * Every expected BPN below is derived by hand from docs/spec.md (N1, R10)
 * and docs/cards.md. TU_DECK, the deck of the card tests (hands 3/2), is
 * described in testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------ */
/* N1 in card mode */

/* Card-mode BPNs round-trip (set, then get gives the same text). */
START_TEST(test_N1_card_bpn_round_trip)
{
    static const char *const ok[] = {
        "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 -/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 12/345 7 13/2",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 3 h 1/0 1 2/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 DEF a 83 - 0/999999999 1 3/1",
        "x*6/6/7/6/7/6/7/6/3X_3/6/7/6/7/6/7/6/7 ATK r 0 - 10/10 1 123/12",
    };
    ball_game *g = tu_game_text(TU_DECK, NULL);
    ck_bpn(g, ok[0]); /* the start: full hands, PE 0/0 */
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = ball_position_from_text(g, ok[i]);
        ck_assert_msg(rc == BALL_OK, "%s: %s", ok[i], ball_errmsg(g));
        ck_bpn(g, ok[i]);
    }
    ball_game_free(g);
}
END_TEST

/* Card-mode BPN rejections (hands 3/2): 7 fields; bad cards fields (not
 * increasing, 0, beyond the hand size, repeated, empty side, no slash,
 * stray characters); PA of 100 (3 digits) or with a leading zero; PE above
 * 999999999. The position is left unchanged and the message names the
 * field. */
START_TEST(test_N1_card_bpn_rejections)
{
    static const char *const bad[] = {
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 21/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 0/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 4/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 -/3",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 11/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1/",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 /1",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 -/-/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1-/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 --/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 a/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 123/12 x",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 100 - 0/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 03 - 0/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1000000000/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 01/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X_3/6/7/6/7/6/7/6/7 ATK r 1 - 0/0 1 123/12",
    };
    ball_game *g = tu_game_text(TU_DECK, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(ball_position_from_text(g, bad[i]) == BALL_E_BPN, "accepted: %s", bad[i]);
        ck_assert_str_ne(ball_errmsg(g), "");
        ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 123/12");
    }
    /* with empty hands the only cards field is -/- */
    ball_game_free(g);
    g = tu_game_text("cards", NULL);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 -/-");
    ck_assert_int_eq(ball_position_from_text(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1/-"),
                     BALL_E_BPN);
    ball_game_free(g);
}
END_TEST

/* Outside card mode N1 is unchanged: 7 fields, PE 0/0, PA 0-2. */
START_TEST(test_N1_bpn_outside_card_mode)
{
    static const char *const bad[] = {
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 -/-",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 123/12",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/1 1",
        "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 3 - 0/0 1",
    };
    ball_game *g = tu_game(NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(ball_position_from_text(g, bad[i]) == BALL_E_BPN, "accepted: %s", bad[i]);
        ck_bpn(g, BALL_START_BPN);
    }
    ck_assert_int_eq(ball_position_from_text(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1"),
                     BALL_OK);
    ball_game_free(g);
}
END_TEST

/* Every position reached by legal decisions from a valid BPN must be
 * writable as a BPN that reads back (N1, round trip). A BPN with a large PA
 * and a +9 PA card still in hand goes beyond it with card1 (83 + 9 = 92;
 * 83 is 2 + 9 cards x 9 PA). Either such a BPN is refused, or the position
 * after card1 reads back. */
START_TEST(test_N1_pa_limit_round_trip)
{
    static const char *const start[] = {
        "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 83 - 0/0 1 1/-",
        "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 99 - 0/0 1 1/-",
    };
    ball_game *g = tu_game_text("atk=Big:0:pa+9", NULL), *scratch = tu_game_text("atk=Big:0:pa+9", NULL);
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++) {
        if (ball_position_from_text(g, start[i]) != BALL_OK)
            continue;
        tu_apply(g, "card1");
        ck_assert_int_ge(ball_pa(g), 83);
        char out[BALL_BPN_MAX];
        tu_bpn(g, out);
        int rc = ball_position_from_text(scratch, out);
        ck_assert_msg(rc == BALL_OK, "after card1 from '%s': '%s' does not read back: %s", start[i], out,
                      ball_errmsg(scratch));
        ck_bpn(scratch, out);
        /* every conversion is listed and the buffer bound holds */
        char want[16];
        snprintf(want, sizeof want, "pe+%d", ball_pa(g));
        ck_assert_int_eq(tu_parse_rc(g, want), BALL_OK);
        ck_assert_int_le(ball_legal_actions(g, NULL, 0), BALL_MAX_ACTIONS);
    }
    ball_game_free(g);
    ball_game_free(scratch);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_bpn");
    TCase *tc = tcase_create("card-mode BPN");
    tcase_add_test(tc, test_N1_card_bpn_round_trip);
    tcase_add_test(tc, test_N1_card_bpn_rejections);
    tcase_add_test(tc, test_N1_bpn_outside_card_mode);
    tcase_add_test(tc, test_N1_pa_limit_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
