/* R10.3 card mode: the PE earning table. Each decision earns the entry
 * of its kind, plus pickup and forced fumble where they apply; `end`,
 * conversions and card plays earn nothing; PE earned can be spent in the
 * same turn; PE saturate at BALL_MAX_PE.
 *
 * Every expected value below is derived by hand from docs/spec.md (R5-R11)
 * and the card-mode semantics documented in ball.h and docs/cards.md; the
 * comment of each test says how. TU_DECK, the deck of the card tests, is
 * described in testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* A game with the deck (tu_deck()) and the earning table `earn`, at
 * `bpn`. */
static ball_game *earn_game(const int earn[BALL_EARN_COUNT], const char *bpn)
{
    ball_cardset *cards = tu_deck();
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        ck_assert_int_eq(ball_cardset_set_earn(cards, e, earn[e]), BALL_OK);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.cards = cards;
    ball_game *g = tu_game_with(&rules, bpn);
    ball_cardset_free(cards); /* the game has its own copy */
    return g;
}

/* ------------------------------------------------------------------ */
/* R10.3 the earning table */

#define E(x) (1u << BALL_EARN_##x)

typedef struct earn_case {
    const char *what;
    const char *bpn;    /* PE 10/20 everywhere */
    const char *action;
    int team;           /* the coach who decides */
    unsigned entries;   /* the entries the decision earns */
} earn_case;

/* Each decision earns its kind's entry, plus pickup when it takes the
 * loose ball (move, dodge exit, tactical landing), plus forced fumble when
 * a dodge takes the ball from the dodged piece (R10.3, ball.h
 * ball_cardset_set_earn()).
 * Positions (pieces; all have the deck's full hands, PE 10/20):
 *  - ATK X G9 and DEF x A17 (holding the ball unless the ball is
 *    elsewhere); G9-H10 is a plain 1-square move (R5.4).
 *  - loose ball H10: G9-H10 ends on it (pickup, R8.1); G9-I11 passes over
 *    it (no pickup, R8.1 last sentence).
 *  - DEF x I11: G9-I11 is a 2-square move onto an active opponent over
 *    the open H10, a dodge (R6.1) with exit J12; with x* it is a forced
 *    fumble; with the loose ball on J12 the exit picks it up.
 *  - DEF x H10: G9-I11 crosses it, a tactical dodge (R6.2) landing on
 *    I11, push to I9 (adjacent to H10, vacant); with the loose ball on I11
 *    the landing picks it up; with x* the pushed carrier's ball goes loose
 *    to G11 (a fumble, not a forced fumble: nobody takes it).
 *  - G9-H10 onto DEF x: block (R7.1), onto x*: block taking the ball
 *    (R7.3, not a pickup: the ball was held); onto ATK X: protection.
 *  - ATK X* G9, X H10: G9=H10 hand-off (R8.2), G9^I11 short pass to the
 *    receiver H10 (R8.3), G9^^G15 long pass (distance 6 from G9, 5 from
 *    H10, R8.4).
 *  - release phase (R9): X_ G9 stands up to H10; stack [Xx] or [X*x] or
 *    [XX] on G9 released to F8/H8 (keeper F8 when the upper held it).
 *  - `end` earns nothing (ATK has no task: the turn passes, R9.1).
 *  - ATK X* H16 to G17 scores (R11.1): the move still earns.
 *  - DEF decisions earn for DEF: x G11 to the loose ball on F10; DEF x_
 *    G9 stands up (then the turn passes to ATK: PE still go to DEF). */
static const earn_case EARN_CASES[] = {
    {"move", "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(MOVE)},
    {"move onto the loose ball", "x6/6/7/6/7/6/7/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(MOVE) | E(PICKUP)},
    {"move over the loose ball", "x6/6/7/6/7/6/7/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11", BALL_ATK, E(MOVE)},
    {"dodge", "x*6/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/J12", BALL_ATK, E(DODGE)},
    {"dodge with forced fumble", "7/6/7/6/7/6/4x*2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/J12", BALL_ATK, E(DODGE) | E(FORCED_FUMBLE)},
    {"dodge, exit onto the loose ball", "7/6/7/6/7/4@1/4x2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/J12", BALL_ATK, E(DODGE) | E(PICKUP)},
    {"tactical dodge", "x*6/6/7/6/7/6/7/3x2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/I9", BALL_ATK, E(TACTICAL_DODGE)},
    {"tactical dodge, landing on the loose ball",
     "7/6/7/6/7/6/4@2/3x2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/I9", BALL_ATK, E(TACTICAL_DODGE) | E(PICKUP)},
    {"tactical dodge, pushed carrier fumbles", "7/6/7/6/7/6/7/3x*2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-I11/I9", BALL_ATK, E(TACTICAL_DODGE)},
    {"block", "x*6/6/7/6/7/6/7/3x2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(BLOCK)},
    {"block of the carrier", "7/6/7/6/7/6/7/3x*2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(BLOCK)},
    {"protection", "x*6/6/7/6/7/6/7/3X2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(PROTECT)},
    {"hand-off", "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9=H10", BALL_ATK, E(HANDOFF)},
    {"short pass", "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9^I11", BALL_ATK, E(SHORT_PASS)},
    {"long pass", "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "G9^^G15", BALL_ATK, E(LONG_PASS)},
    {"stand-up", "x*6/6/7/6/7/6/7/6/3X_3/6/7/6/7/6/7/6/7 ATK r 0 - 10/20 1 123/12",
     "G9-H10", BALL_ATK, E(STAND_UP)},
    {"unblock", "x*6/6/7/6/7/6/7/6/3[Xx]3/6/7/6/7/6/7/6/7 ATK r 0 - 10/20 1 123/12",
     "G9-F8/H8", BALL_ATK, E(UNBLOCK)},
    {"unblock, upper keeps the ball", "x6/6/7/6/7/6/7/6/3[X*x]3/6/7/6/7/6/7/6/7 ATK r 0 - 10/20 1 123/12",
     "G9-F8/H8=F8", BALL_ATK, E(UNBLOCK)},
    {"unprotect", "x*6/6/7/6/7/6/7/6/3[XX]3/6/7/6/7/6/7/6/7 ATK r 0 - 10/20 1 123/12",
     "G9-F8/H8", BALL_ATK, E(UNPROTECT)},
    {"end", "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12",
     "end", BALL_ATK, 0},
    {"move scoring a touchdown", "7/3X*2/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 10/20 1 123/12",
     "H16-G17", BALL_ATK, E(MOVE)},
    {"DEF pickup", "7/6/7/6/7/6/3x3/2@3/7/6/7/6/7/6/7/6/X6 DEF a 2 - 10/20 1 123/12",
     "G11-F10", BALL_DEF, E(MOVE) | E(PICKUP)},
    {"DEF stand-up, then the turn passes", "7/6/7/6/7/6/7/6/3x_3/6/7/6/7/6/7/6/X*6 DEF r 0 - 10/20 1 123/12",
     "G9-H10", BALL_DEF, E(STAND_UP)},
};
#define NEARN (sizeof EARN_CASES / sizeof EARN_CASES[0])

/* PE of `team` after playing the case under table `earn`; checks that the
 * other coach's PE did not move. */
static int earned_after(const earn_case *c, const int earn[BALL_EARN_COUNT])
{
    ball_game *g = earn_game(earn, c->bpn);
    const int base[2] = {10, 20};
    tu_require(ball_pe(g, BALL_ATK) == 10 && ball_pe(g, BALL_DEF) == 20);
    ball_action a = BALL_ACTION_NONE;
    if (ball_action_from_text(g, c->action, &a) != BALL_OK || ball_apply(g, a) != BALL_OK)
        ck_abort_msg("%s: %s: %s", c->what, c->action, ball_errmsg(g));
    int other = ball_pe(g, !c->team);
    if (other != base[!c->team])
        ck_abort_msg("%s: the other coach's PE moved to %d", c->what, other);
    int pe = ball_pe(g, c->team) - base[c->team];
    ball_game_free(g);
    return pe;
}

/* One entry at a time (value 7, all others 0): the decision gains 7 PE
 * exactly when the entry is one of its own, else nothing. Then every entry
 * at once (entry e worth e + 1): the decision gains the sum of its own. */
START_TEST(test_R10_3_earning_entries)
{
    const earn_case *c = &EARN_CASES[_i];
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        int earn[BALL_EARN_COUNT] = {0};
        earn[e] = 7;
        int got = earned_after(c, earn);
        int want = (c->entries >> e & 1) ? 7 : 0;
        ck_assert_msg(got == want, "%s (%s) with only entry %d = 7: earned %d, expected %d", c->what,
                      c->action, e, got, want);
    }
    int earn[BALL_EARN_COUNT];
    int want = 0;
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        earn[e] = e + 1;
        if (c->entries >> e & 1)
            want += e + 1;
    }
    int got = earned_after(c, earn);
    ck_assert_msg(got == want, "%s (%s) with all entries: earned %d, expected %d", c->what, c->action, got,
                  want);
}
END_TEST

/* Every one of the BALL_EARN_COUNT entries (0 to BALL_EARN_COUNT - 1) is
 * earned by some decision played through the library: for each entry e
 * alone in the table (worth 7 PE, all others 0), every case above is
 * played and the PE observed with ball_pe(); at least one case must gain
 * exactly the 7 PE of entry e. This reads the library's behaviour, not
 * the `entries` column of the table. */
START_TEST(test_R10_3_every_entry_covered)
{
    unsigned covered = 0;
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        int earn[BALL_EARN_COUNT] = {0};
        earn[e] = 7;
        for (size_t i = 0; i < NEARN; i++) {
            int got = earned_after(&EARN_CASES[i], earn);
            ck_assert_msg(got == 0 || got == 7, "%s with only entry %d = 7: earned %d", EARN_CASES[i].what, e,
                          got);
            if (got == 7)
                covered |= 1u << e;
        }
        ck_assert_msg(covered >> e & 1, "no decision earns entry %d", e);
    }
    ck_assert_uint_eq(covered, (1u << BALL_EARN_COUNT) - 1);
}
END_TEST

/* R10.3 with every entry at 999: `end`, conversions and card plays earn
 * nothing. pe+1 adds exactly 1 (the converted PA), card1 (Sprint, 1 PE)
 * takes exactly 1. ATK X G9, DEF x* A17, PE 10/20. */
START_TEST(test_R10_3_end_conversion_card_earn_nothing)
{
    int earn[BALL_EARN_COUNT];
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        earn[e] = 999;
    ball_game *g = earn_game(earn, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/20 1 123/12");
    tu_apply(g, "pe+1");
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 11);
    tu_apply(g, "card1");
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 10);
    tu_apply(g, "end"); /* no ATK task: DEF's turn 2 */
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 DEF a 2 - 10/20 2 23/12");
    ball_game_free(g);
}
END_TEST

/* R10.3: PE earned are available in the same turn. earn.move=1, ATK PE 4:
 * Surge (5 PE) is not playable; after G9-H10 (1 PA, +1 PE) it is. Playing
 * it: PE 0, PA 1 + 2 = 3; then only conversions (pe+1..3) and no card
 * (Sprint costs 1 > 0). */
START_TEST(test_R10_3_earned_pe_spent_same_turn)
{
    ball_game *g = tu_game_text("earn.move=1 " TU_DECK,
                                "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 4/0 1 123/12");
    ck_legal_prefix(g, "card", "card1");
    tu_apply(g, "G9-H10");
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 5);
    ck_legal_prefix(g, "card", "card1 card3");
    tu_apply(g, "card3");
    ck_bpn(g, "x*6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/7 ATK a 3 - 0/0 1 12/12");
    ck_legal_prefix(g, "card", "");
    ck_legal_prefix(g, "pe+", "pe+1 pe+2 pe+3");
    ball_game_free(g);
}
END_TEST

/* PE saturate at BALL_MAX_PE, 999999999 (ball.h): earn.move=5 from
 * 999999998 gives 999999999; pe+1 there keeps 999999999; undo gives back
 * the old values. */
START_TEST(test_R10_3_pe_saturate)
{
    ball_game *g = tu_game_text("earn.move=5 cards",
                                "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 999999998/0 1 -/-");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x*6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/7 ATK a 1 - 999999999/0 1 -/-");
    ck_assert_int_eq(ball_pe(g, BALL_ATK), BALL_MAX_PE);
    tu_apply(g, "pe+1");
    ck_bpn(g, "x*6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/7 ATK a 0 - 999999999/0 1 -/-");
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 999999998/0 1 -/-");
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_earning");
    TCase *tc = tcase_create("earning");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_R10_3_earning_entries, 0, (int)NEARN);
    tcase_add_test(tc, test_R10_3_every_entry_covered);
    tcase_add_test(tc, test_R10_3_end_conversion_card_earn_nothing);
    tcase_add_test(tc, test_R10_3_earned_pe_spent_same_turn);
    tcase_add_test(tc, test_R10_3_pe_saturate);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
