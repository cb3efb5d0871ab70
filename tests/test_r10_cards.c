/* R10 card mode: PE, conversions, the earning table, cards (gain PA,
 * unrestrict), the card-mode BPN field, the ruleset text form and checks,
 * undo, selection, random games and perft.
 *
 * Every expected list, count and BPN below is derived by hand from
 * RULES.md (R1-R11, N1-N3) and the card-mode semantics documented in
 * ball.h and docs/cards.md; the comment of each test says how. Squares
 * are (column, row) with A = 1: X moves (+-1, +-1) and (+-2, +-2) (R5.1).
 *
 * The deck most tests use (hand numbers from 1, hand indices from 0):
 *   ATK card1 Sprint  1 PE  gain 1 PA
 *       card2 Rally   0 PE  unrestrict ("again")
 *       card3 Surge   5 PE  gain 2 PA
 *   DEF card1 Dash    2 PE  gain 2 PA
 *       card2 Again   1 PE  unrestrict
 * so a full-hand BPN ends in `123/12`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DECK "atk=Sprint:1:pa+1,Rally:0:again,Surge:5:pa+2 def=Dash:2:pa+2,Again:1:again"

/* ------------------------------------------------------------------ */
/* helpers */

/* A card-mode game under the ruleset text `rules_text`, at `bpn` (NULL:
 * the standard start). */
static ball_game *cm_game(const char *rules_text, const char *bpn)
{
    ball_rules rules;
    ball_cards cards;
    char err[256];
    int rc = ball_rules_parse(&rules, &cards, rules_text, err, sizeof err);
    if (rc != BALL_OK)
        ck_abort_msg("rules '%s': %s", rules_text, err);
    ball_game *g = NULL;
    tu_require(ball_game_new(&g, &rules) == BALL_OK);
    if (bpn && ball_set_bpn(g, bpn) != BALL_OK)
        ck_abort_msg("bad test BPN '%s': %s", bpn, ball_errmsg(g));
    return g;
}

static void set_card(ball_card *c, const char *name, int cost, int effect, int amount)
{
    memset(c, 0, sizeof *c);
    strncpy(c->name, name, BALL_CARD_NAME_MAX - 1);
    c->cost = cost;
    c->effect = effect;
    c->amount = amount;
}

/* The deck of the file comment, built in C, with an all-zero table. */
static void make_deck(ball_cards *c)
{
    ball_cards_init(c, sizeof *c);
    c->hand_size[BALL_ATK] = 3;
    c->hand_size[BALL_DEF] = 2;
    set_card(&c->hand[BALL_ATK][0], "Sprint", 1, BALL_EFFECT_GAIN_PA, 1);
    set_card(&c->hand[BALL_ATK][1], "Rally", 0, BALL_EFFECT_UNRESTRICT, 0);
    set_card(&c->hand[BALL_ATK][2], "Surge", 5, BALL_EFFECT_GAIN_PA, 2);
    set_card(&c->hand[BALL_DEF][0], "Dash", 2, BALL_EFFECT_GAIN_PA, 2);
    set_card(&c->hand[BALL_DEF][1], "Again", 1, BALL_EFFECT_UNRESTRICT, 0);
}

/* A game with the deck and the earning table `earn`, at `bpn`. */
static ball_game *earn_game(const int earn[BALL_EARN_COUNT], const char *bpn)
{
    ball_cards cards;
    ball_rules rules;
    make_deck(&cards);
    memcpy(cards.earn, earn, sizeof cards.earn);
    ball_rules_init(&rules, sizeof rules);
    rules.cards = &cards;
    ball_game *g = NULL;
    tu_require(ball_game_new(&g, &rules) == BALL_OK);
    if (ball_set_bpn(g, bpn) != BALL_OK)
        ck_abort_msg("bad test BPN '%s': %s", bpn, ball_errmsg(g));
    return g;
}

static int parse_rc(ball_game *g, const char *text)
{
    ball_action a = BALL_ACTION_NONE;
    return ball_action_parse(g, text, &a);
}

static ball_action parse_ok(ball_game *g, const char *text)
{
    ball_action a = BALL_ACTION_NONE;
    int rc = ball_action_parse(g, text, &a);
    ck_assert_msg(rc == BALL_OK, "parse '%s': %s", text, ball_errmsg(g));
    return a;
}

/* Applies `text`, undoes it, checks the BPN and hash came back exactly,
 * and applies it again. */
static void apply_undo_apply(ball_game *g, const char *text)
{
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX], again[BALL_BPN_MAX];
    tu_bpn(g, before);
    uint64_t h = ball_hash(g);
    tu_apply(g, text);
    tu_bpn(g, after);
    ck_assert_str_ne(after, before);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    tu_bpn(g, again);
    ck_assert_str_eq(again, before);
    ck_assert_uint_eq(ball_hash(g), h);
    tu_apply(g, text);
    tu_bpn(g, again);
    ck_assert_str_eq(again, after);
}

/* ------------------------------------------------------------------ */
/* R10.2 conversion */

/* ATK X* G5 alone (DEF x G13), card mode with empty hands (`cards`).
 * R10.2: pe+k for 1 <= k <= PA left: with 2 PA pe+1 and pe+2, with 1 PA
 * only pe+1, with 0 PA none. pe+k costs k PA and adds k PE. */
#define CONV_POS "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 1 -/-"

START_TEST(test_R10_2_conversion_limits)
{
    ball_game *g = cm_game("cards", CONV_POS);
    ck_legal_prefix(g, "pe+", "pe+1 pe+2");
    ck_assert_int_eq(parse_rc(g, "pe+3"), BALL_E_ILLEGAL);
    {   /* `end` stays last in the generator's order (ball.h) */
        ball_action acts[BALL_MAX_ACTIONS];
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        ck_assert_int_gt(n, 0);
        ck_assert_int_eq(ball_action_kind(acts[n - 1]), BALL_END);
    }
    ball_action a = parse_ok(g, "pe+2");
    ck_assert_int_eq(ball_action_kind(a), BALL_CONVERT_PA);
    ck_assert_int_eq(ball_action_value(a), 2);
    ck_assert_int_eq(ball_action_cost(a), 2);
    ck_assert_int_eq(ball_action_from(a), -1);
    ck_assert_int_eq(ball_action_to(a), -1);
    ck_assert_int_eq(ball_action_value(parse_ok(g, "G5-F6")), -1);

    /* partial conversion: 1 PA left, PE 1 */
    tu_apply(g, "pe+1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 1 - 1/0 1 -/-");
    ck_assert_int_eq(ball_pa(g), 1);
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 1);
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 0);
    ck_legal_prefix(g, "pe+", "pe+1");
    ck_assert_int_eq(parse_rc(g, "pe+2"), BALL_E_ILLEGAL);
    /* repeated conversion: 0 PA, PE 2; nothing is left but `end` (no
     * movement without PA, no ally for a hand-off, R4.3) */
    tu_apply(g, "pe+1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 0 - 2/0 1 -/-");
    ck_legal(g, "end");
    ck_assert_int_eq(parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R10.2 with a move in between, and PE persisting across turns (R10.1):
 * pe+1 (PA 1, PE 1), G5-F6 (PA 0), end -> no ATK task (R9.1): DEF's turn 2
 * with 2 PA, PE still 1/0. DEF converts both: 1/2. DEF end -> ATK turn 3,
 * PE 1/2 unchanged. */
START_TEST(test_R10_2_conversion_persists_across_turns)
{
    ball_game *g = cm_game("cards", CONV_POS);
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
    ball_game *g = cm_game(DECK, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    tu_apply(g, "card1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 3 - 0/0 1 23/12");
    ck_assert_int_eq(ball_pa(g), 3);
    ck_legal_prefix(g, "pe+", "pe+1 pe+2 pe+3");
    ck_assert_int_eq(ball_action_cost(parse_ok(g, "pe+3")), 3);
    tu_apply(g, "pe+3");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 0 - 3/0 1 23/12");
    ball_game_free(g);
}
END_TEST

/* Malformed conversion and card texts are notation errors (N2: pe+k with
 * k >= 1; the project's card text is cardN or cardN@SQ, N = 1-9). */
START_TEST(test_R10_2_malformed_texts)
{
    ball_game *g = cm_game(DECK, NULL);
    static const char *const bad[] = {"pe+", "pe+0", "pe+x", "pe+1x", "card", "card0",
                                      "card10", "card1@", "card1@Z9", "card1@G5x",
                                      "card1x", "cardA"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(parse_rc(g, bad[i]) == BALL_E_NOTATION, "%s", bad[i]);
    ball_game_free(g);
}
END_TEST

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
 * a dodge takes the ball from the dodged piece (R10.3, ball.h ball_cards).
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
static long earned_after(const earn_case *c, const int earn[BALL_EARN_COUNT])
{
    ball_game *g = earn_game(earn, c->bpn);
    long base[2] = {10, 20};
    tu_require(ball_pe(g, BALL_ATK) == 10 && ball_pe(g, BALL_DEF) == 20);
    ball_action a = BALL_ACTION_NONE;
    if (ball_action_parse(g, c->action, &a) != BALL_OK || ball_apply(g, a) != BALL_OK)
        ck_abort_msg("%s: %s: %s", c->what, c->action, ball_errmsg(g));
    long other = ball_pe(g, !c->team);
    if (other != base[!c->team])
        ck_abort_msg("%s: the other coach's PE moved to %ld", c->what, other);
    long pe = ball_pe(g, c->team) - base[c->team];
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
        long got = earned_after(c, earn);
        long want = (c->entries >> e & 1) ? 7 : 0;
        ck_assert_msg(got == want, "%s (%s) with only entry %d = 7: earned %ld, expected %ld", c->what,
                      c->action, e, got, want);
    }
    int earn[BALL_EARN_COUNT];
    long want = 0;
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        earn[e] = e + 1;
        if (c->entries >> e & 1)
            want += e + 1;
    }
    long got = earned_after(c, earn);
    ck_assert_msg(got == want, "%s (%s) with all entries: earned %ld, expected %ld", c->what, c->action, got,
                  want);
}
END_TEST

/* Every one of the 13 entries is earned by at least one case above. */
START_TEST(test_R10_3_every_entry_covered)
{
    unsigned all = 0;
    for (size_t i = 0; i < NEARN; i++)
        all |= EARN_CASES[i].entries;
    ck_assert_uint_eq(all, (1u << BALL_EARN_COUNT) - 1);
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
    ball_game *g = cm_game("earn.move=1 " DECK,
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

/* PE saturate at 999999999 (ball.h): earn.move=5 from 999999998 gives
 * 999999999; pe+1 there keeps 999999999; undo gives back the old values. */
START_TEST(test_R10_3_pe_saturate)
{
    ball_game *g = cm_game("earn.move=5 cards",
                           "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 999999998/0 1 -/-");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x*6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/7 ATK a 1 - 999999999/0 1 -/-");
    tu_apply(g, "pe+1");
    ck_bpn(g, "x*6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/7 ATK a 0 - 999999999/0 1 -/-");
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 999999998/0 1 -/-");
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* R10.4/R10.5 cards */

/* Gain PA (R10.5). ATK X G9, DEF x* A17, PE 1/0. Two moves spend both PA
 * (G9-H10, H10-I11); then Sprint (1 PE <= 1) is listed, Rally is not (no
 * restricted piece), Surge is not (5 PE). Card plays cost no PA (legal at
 * 0 PA). After card1: PA 1, PE 0, hand 23, and I11 can move again:
 * H10 J10 H12 J12, G9 K9 G13 K13 over open squares (R5.1). */
START_TEST(test_R10_5_gain_pa)
{
    ball_game *g = cm_game(DECK, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    ck_legal_prefix(g, "card", "card1");
    tu_apply_all(g, "G9-H10 H10-I11");
    ck_legal(g, "card1 end");
    ball_action a = parse_ok(g, "card1");
    ck_assert_int_eq(ball_action_kind(a), BALL_PLAY_CARD);
    ck_assert_int_eq(ball_action_value(a), 0); /* hand index from 0 */
    ck_assert_int_eq(ball_action_from(a), -1);
    ck_assert_int_eq(ball_action_cost(a), 0);
    tu_apply(g, "card1");
    ck_bpn(g, "x*6/6/7/6/7/6/4X2/6/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 23/12");
    ck_assert_int_eq(ball_pa(g), 1);
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 6); /* indices 1 and 2 */
    ck_legal(g, "I11-G13 I11-G9 I11-H10 I11-H12 I11-J10 I11-J12 I11-K13 I11-K9 end pe+1");
    tu_apply(g, "I11-J12");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* Gain PA stops at 99 PA (ball.h, BALL_EFFECT_GAIN_PA: a gain beyond 99 is
 * lost), the most the BPN PA field accepts: 95 + 9 gives 99, and 99 + 9
 * stays 99; the card is spent all the same. Conversions then go up to
 * pe+99. */
START_TEST(test_R10_5_gain_pa_capped_at_99)
{
    ball_game *g = cm_game("atk=Big:0:pa+9,Big2:0:pa+9",
                           "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 95 - 0/0 1 12/-");
    tu_apply(g, "card1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 99 - 0/0 1 2/-");
    tu_apply(g, "card2");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 99 - 0/0 1 -/-");
    ck_assert_int_eq(parse_rc(g, "pe+99"), BALL_OK);
    ck_assert_int_eq(parse_rc(g, "pe+100"), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 95 - 0/0 1 12/-");
    ball_game_free(g);
}
END_TEST

/* Unrestrict (R4.4, R10.5). ATK X G9 and X G11, loose ball H10, DEF x
 * A17, PE 0/0. G9-H10 picks the ball up: H10 is restricted (`!`, R4.4)
 * and starts nothing; Rally (0 PE) targets it: `card2@H10`.
 * The restriction is NOT lifted otherwise: pe+1 (PA 0, PE 1) and Sprint
 * (+1 PA, PE 0) leave the `!`; with 1 PA G11 moves (E9 F10 F12 H12 I9
 * I13 E13, H10 = protection of an ally, I9 over the active ally H10) but
 * H10 still has nothing.
 * After card2@H10 the `!` is gone and H10 acts: moves G9 I9 I11, G11
 * protection, F8 J8 J12, F12 over the ally G11; hand-off H10=G11 (R8.2);
 * short passes to squares adjacent to the receiver G11: F10 F12 H12
 * (R8.3; 1 PA, no long pass). */
#define UNRESTRICT_POS "x6/6/7/6/7/6/3X3/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 123/12"

START_TEST(test_R10_5_unrestrict_after_pickup)
{
    ball_game *g = cm_game(DECK, UNRESTRICT_POS);
    ck_legal_prefix(g, "card", ""); /* nothing restricted yet, no PE */
    ck_assert_int_eq(parse_rc(g, "card2@H10"), BALL_E_ILLEGAL);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 123/12");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_name("H10"));
    ck_legal_prefix(g, "H10", "");
    ck_legal_prefix(g, "card", "card2@H10");
    /* wrong shapes of the card play */
    ck_assert_int_eq(parse_rc(g, "card2"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "card2@G11"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "card1@H10"), BALL_E_ILLEGAL);

    /* not lifted by a conversion or a gain-PA card */
    tu_apply(g, "pe+1");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 0 - 1/0 1 123/12");
    ck_legal(g, "card1 card2@H10 end");
    tu_apply(g, "card1");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 23/12");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_name("H10"));
    ck_legal(g, "G11-E13 G11-E9 G11-F10 G11-F12 G11-H10 G11-H12 G11-I13 G11-I9 card2@H10 end pe+1");

    /* lifted by the card */
    ball_action a = parse_ok(g, "card2@H10");
    ck_assert_int_eq(ball_action_kind(a), BALL_PLAY_CARD);
    ck_assert_int_eq(ball_action_value(a), 1);
    ck_assert_int_eq(ball_action_from(a), ball_square_from_name("H10"));
    ck_assert_int_eq(ball_action_cost(a), 0);
    tu_apply(g, "card2@H10");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 3/12");
    ck_assert_int_eq(ball_restricted_square(g), -1);
    ck_legal(g, "G11-E13 G11-E9 G11-F10 G11-F12 G11-H10 G11-H12 G11-I13 G11-I9 "
                "H10-F12 H10-F8 H10-G11 H10-G9 H10-I11 H10-I9 H10-J12 H10-J8 H10=G11 "
                "H10^F10 H10^F12 H10^H12 end pe+1");
    tu_apply(g, "H10-I11");
    ck_bpn(g, "x6/6/7/6/7/6/3XX*2/6/7/6/7/6/7/6/7/6/7 ATK a 0 - 0/0 1 3/12");
    ball_game_free(g);
}
END_TEST

/* Unrestrict after a forced fumble (R6.1: the dodger takes the ball and is
 * restricted). ATK X G9, DEF x* I11, DEF x A17. G9-I11/J12: x_ on I11,
 * X*! on J12, PA 1. Rally lifts it; then J12 moves again, e.g. J12-K13. */
START_TEST(test_R10_5_unrestrict_after_forced_fumble)
{
    ball_game *g = cm_game(DECK, "x6/6/7/6/7/6/4x*2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 123/12");
    tu_apply(g, "G9-I11/J12");
    ck_bpn(g, "x6/6/7/6/7/4X*!1/4x_2/6/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 123/12");
    ck_legal_prefix(g, "J12", "");
    ck_legal_prefix(g, "card", "card2@J12");
    tu_apply(g, "card2@J12");
    ck_bpn(g, "x6/6/7/6/7/4X*1/4x_2/6/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 13/12");
    /* J12 (10,12): 1 square to I13 K13 K11, and J12-I11, a block of the
     * knocked-down opponent (R5.4, R7.1); 2 squares to H14 L14 L10 over
     * open squares; not H10, over the knocked-down I11 (R5.3). */
    ck_legal_prefix(g, "J12-", "J12-H14 J12-I11 J12-I13 J12-K11 J12-K13 J12-L10 J12-L14");
    tu_apply(g, "J12-K13");
    ck_bpn(g, "x6/6/7/6/5X*1/6/4x_2/6/7/6/7/6/7/6/7/6/7 ATK a 0 - 0/0 1 13/12");
    ball_game_free(g);
}
END_TEST

/* DEF's own cards: hand numbers refer to the hand of the coach to act.
 * DEF x G11, loose ball F10, ATK X A1, PE 0/1. DEF's card1 (Dash, 2 PE) is
 * not affordable, card3 does not exist in DEF's 2-card hand. G11-F10
 * picks up; DEF's card2 (Again, 1 PE) lifts it: PE 0/0, hand 123/1. */
START_TEST(test_R10_4_def_hand)
{
    ball_game *g = cm_game(DECK, "7/6/7/6/7/6/3x3/2@3/7/6/7/6/7/6/7/6/X6 DEF a 2 - 0/1 1 123/12");
    ck_legal_prefix(g, "card", "");
    ck_assert_int_eq(parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "card3"), BALL_E_ILLEGAL);
    tu_apply(g, "G11-F10");
    ck_bpn(g, "7/6/7/6/7/6/7/2x*!3/7/6/7/6/7/6/7/6/X6 DEF a 1 - 0/1 1 123/12");
    ck_legal_prefix(g, "card", "card2@F10");
    tu_apply(g, "card2@F10");
    ck_bpn(g, "7/6/7/6/7/6/7/2x*3/7/6/7/6/7/6/7/6/X6 DEF a 1 - 0/0 1 123/1");
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 1);
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 7);
    ball_game_free(g);
}
END_TEST

/* R10.4: a card costing more PE than the coach has is not listed and its
 * text is refused (BALL_E_ILLEGAL, with a message); the state is
 * unchanged. ATK PE 4, Surge costs 5. */
START_TEST(test_R10_4_unaffordable_card)
{
    const char *bpn = "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 4/0 1 123/12";
    ball_game *g = cm_game(DECK, bpn);
    ck_legal_prefix(g, "card", "card1");
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_parse(g, "card3", &a), BALL_E_ILLEGAL);
    ck_assert_str_ne(ball_errmsg(g), "");
    ck_bpn(g, bpn);
    /* exactly affordable: after pe+1, PE 5 */
    tu_apply(g, "pe+1");
    ck_legal_prefix(g, "card", "card1 card3");
    ball_game_free(g);
}
END_TEST

/* R10.4: cards and conversions belong to the action phase. Release phase
 * with ATK X_ G9 to stand up and PE 10/10: only the four stand-ups (R9.2);
 * card1, card3 and pe+1 are refused. A finished game has no card either
 * (ATK X* on G17, its target end zone, R11.1). */
START_TEST(test_R10_4_card_outside_action_phase)
{
    ball_game *g = cm_game(DECK, "x*6/6/7/6/7/6/7/6/3X_3/6/7/6/7/6/7/6/7 ATK r 0 - 10/10 1 123/12");
    ck_legal(g, "G9-F10 G9-F8 G9-H10 G9-H8");
    ck_assert_int_eq(parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "card3"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ball_game_free(g);

    g = cm_game(DECK, "3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 10/10 1 123/12");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ck_assert_int_eq(parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R10.4: a played card leaves the hand for good. ATK PE 10: card1 at turn
 * 1 (PA 3, PE 9, hand 23); end, DEF end (no tasks, R9.1): ATK's turn 3 with
 * 2 PA, PE 9; card1 is neither listed nor accepted, card3 still is. */
START_TEST(test_R10_4_played_card_gone_for_good)
{
    ball_game *g = cm_game(DECK, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/0 1 123/12");
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 7);
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 3);
    tu_apply(g, "card1");
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 3 - 9/0 1 23/12");
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 6);
    ck_legal_prefix(g, "card", "card3");
    tu_apply_all(g, "end end");
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 9/0 3 23/12");
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 6);
    ck_legal_prefix(g, "card", "card3");
    ck_assert_int_eq(parse_rc(g, "card1"), BALL_E_ILLEGAL);
    /* play the rest: hand empty, written `-` */
    tu_apply(g, "card3");
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 4 - 4/0 3 2/12");
    ball_game_free(g);
    g = cm_game("atk=A:0:pa+1 def=B:0:pa+1", "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1/1");
    tu_apply(g, "card1");
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 3 - 0/0 1 -/1");
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 0);
    ball_game_free(g);
}
END_TEST

/* R8.2 + R10.4: a card play or conversion is an action that is not a
 * hand-off, so it clears the `h` mark and a new hand-off may follow.
 * ATK X* G9, X H10, DEF x A17, PE 1/0: G9=H10 (h), then H10=G9 is not
 * legal; after card1 (PA 3) it is; same after a conversion. */
START_TEST(test_R10_4_card_clears_handoff_mark)
{
    ball_game *g = cm_game(DECK, "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    tu_apply(g, "G9=H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3X*2/3X3/6/7/6/7/6/7/6/7 ATK a 2 h 1/0 1 123/12");
    ck_legal_prefix(g, "H10=", "");
    tu_apply(g, "card1");
    ck_bpn(g, "x6/6/7/6/7/6/7/3X*2/3X3/6/7/6/7/6/7/6/7 ATK a 3 - 0/0 1 23/12");
    ck_legal_prefix(g, "H10=", "H10=G9");
    tu_apply(g, "H10=G9");
    ck_legal_prefix(g, "G9=", "");
    tu_apply(g, "pe+1");
    ck_bpn(g, "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 23/12");
    ck_legal_prefix(g, "G9=", "G9=H10");
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* undo */

/* ball_undo() takes back every card-mode decision exactly (same BPN, same
 * hash). ATK X G9, X G11, X_ C3, loose ball H10, DEF x A17; earn.move=1
 * earn.pickup=2 earn.standup=4; PE 1/0. Hand-derived chain:
 *  pe+1      PA 1, PE 2
 *  G9-H10    pickup: PA 0, PE 2 + 1 + 2 = 5, H10 restricted
 *  card1     Sprint: PA 1, PE 4, hand 23
 *  card2@H10 Rally: PE 4, hand 3, `!` gone
 *  H10-I11   PA 0, PE 5
 *  end       release phase: the stand-up of C3 (R9.2)
 *  C3-D4     stand-up: PE 9; no task left: DEF's turn 2 (R9.5). */
START_TEST(test_R10_undo_every_card_action)
{
    static const struct { const char *action, *bpn; } chain[] = {
        {NULL, "x6/6/7/6/7/6/3X3/3@2/3X3/6/7/6/7/6/1X_5/6/7 ATK a 2 - 1/0 1 123/12"},
        {"pe+1", "x6/6/7/6/7/6/3X3/3@2/3X3/6/7/6/7/6/1X_5/6/7 ATK a 1 - 2/0 1 123/12"},
        {"G9-H10", "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/1X_5/6/7 ATK a 0 - 5/0 1 123/12"},
        {"card1", "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/1X_5/6/7 ATK a 1 - 4/0 1 23/12"},
        {"card2@H10", "x6/6/7/6/7/6/3X3/3X*2/7/6/7/6/7/6/1X_5/6/7 ATK a 1 - 4/0 1 3/12"},
        {"H10-I11", "x6/6/7/6/7/6/3XX*2/6/7/6/7/6/7/6/1X_5/6/7 ATK a 0 - 5/0 1 3/12"},
        {"end", "x6/6/7/6/7/6/3XX*2/6/7/6/7/6/7/6/1X_5/6/7 ATK r 0 - 5/0 1 3/12"},
        {"C3-D4", "x6/6/7/6/7/6/3XX*2/6/7/6/7/6/7/1X4/7/6/7 DEF a 2 - 9/0 2 3/12"},
    };
    const size_t n = sizeof chain / sizeof chain[0];
    ball_game *g = cm_game("earn.move=1 earn.pickup=2 earn.standup=4 " DECK, chain[0].bpn);
    uint64_t hashes[16];
    hashes[0] = ball_hash(g);
    for (size_t i = 1; i < n; i++) {
        apply_undo_apply(g, chain[i].action);
        ck_bpn(g, chain[i].bpn);
        hashes[i] = ball_hash(g);
    }
    for (size_t i = n - 1; i > 0; i--) {
        ck_assert_int_eq(ball_undo(g), BALL_OK);
        ck_bpn(g, chain[i - 1].bpn);
        ck_assert_uint_eq(ball_hash(g), hashes[i - 1]);
    }
    ck_assert_int_eq(ball_undo(g), BALL_E_NO_HISTORY);
    ball_game_free(g);
}
END_TEST

/* The hash covers PE and the hands in card mode: positions that differ
 * only there hash differently, and the incremental hash equals the one of
 * the same BPN set from scratch. */
START_TEST(test_R10_hash_covers_pe_and_hands)
{
    const char *base = "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12";
    ball_game *g = cm_game(DECK, base), *h = cm_game(DECK, base);
    uint64_t h0 = ball_hash(g);
    ck_assert_uint_eq(ball_hash(h), h0);
    ck_assert_int_eq(ball_set_bpn(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 2/0 1 123/12"), BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_set_bpn(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/1 1 123/12"), BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_set_bpn(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 13/12"), BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_set_bpn(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/2"), BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    tu_apply(g, "card1");
    char bpn[BALL_BPN_MAX];
    tu_bpn(g, bpn);
    ck_assert_int_eq(ball_set_bpn(h, bpn), BALL_OK);
    ck_assert_uint_eq(ball_hash(h), ball_hash(g));
    ball_game_free(g);
    ball_game_free(h);
}
END_TEST

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
    ball_game *g = cm_game(DECK, NULL);
    ck_bpn(g, ok[0]); /* the start: full hands, PE 0/0 */
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = ball_set_bpn(g, ok[i]);
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
    ball_game *g = cm_game(DECK, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(ball_set_bpn(g, bad[i]) == BALL_E_BPN, "accepted: %s", bad[i]);
        ck_assert_str_ne(ball_errmsg(g), "");
        ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 123/12");
    }
    /* with empty hands the only cards field is -/- */
    ball_game_free(g);
    g = cm_game("cards", NULL);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 -/-");
    ck_assert_int_eq(ball_set_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1/-"), BALL_E_BPN);
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
        ck_assert_msg(ball_set_bpn(g, bad[i]) == BALL_E_BPN, "accepted: %s", bad[i]);
        ck_bpn(g, BALL_START_BPN);
    }
    ck_assert_int_eq(ball_set_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1"), BALL_OK);
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
    ball_game *g = cm_game("atk=Big:0:pa+9", NULL), *scratch = cm_game("atk=Big:0:pa+9", NULL);
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++) {
        if (ball_set_bpn(g, start[i]) != BALL_OK)
            continue;
        tu_apply(g, "card1");
        ck_assert_int_ge(ball_pa(g), 83);
        char out[BALL_BPN_MAX];
        tu_bpn(g, out);
        int rc = ball_set_bpn(scratch, out);
        ck_assert_msg(rc == BALL_OK, "after card1 from '%s': '%s' does not read back: %s", start[i], out,
                      ball_errmsg(scratch));
        ck_bpn(scratch, out);
        /* every conversion is listed and the buffer bound holds */
        char want[8];
        snprintf(want, sizeof want, "pe+%d", ball_pa(g));
        ck_assert_int_eq(parse_rc(g, want), BALL_OK);
        ck_assert_int_le(ball_legal_actions(g, NULL, 0), BALL_MAX_ACTIONS);
    }
    ball_game_free(g);
    ball_game_free(scratch);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the ruleset: text form and checks */

/* ball_rules_parse: valid texts fill the structs. */
START_TEST(test_R10_rules_parse_valid)
{
    ball_rules r;
    ball_cards c;
    char err[256] = "x";
    /* empty: defaults, card mode off */
    ck_assert_int_eq(ball_rules_parse(&r, &c, "", err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(r.end_zone_depth, 1);
    ck_assert_uint_eq(r.turn_limit, 0);
    ck_assert_uint_eq(r.size, sizeof r);
    /* rules without card words stay out of card mode */
    ck_assert_int_eq(ball_rules_parse(&r, &c, "zone=2 turns=100", err, sizeof err), BALL_OK);
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(r.end_zone_depth, 2);
    ck_assert_uint_eq(r.turn_limit, 100);
    /* `cards`: card mode, zero table, empty hands */
    ck_assert_int_eq(ball_rules_parse(&r, &c, "cards", err, sizeof err), BALL_OK);
    ck_assert_ptr_eq(r.cards, &c);
    ck_assert_uint_eq(c.size, sizeof c);
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        ck_assert_int_eq(c.earn[e], 0);
    ck_assert_int_eq(c.hand_size[0], 0);
    ck_assert_int_eq(c.hand_size[1], 0);
    /* every earning entry by name, in enum ball_earn order */
    ck_assert_int_eq(ball_rules_parse(&r, &c,
                                      "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=4 earn.tactical=5 "
                                      "earn.block=6 earn.protect=7 earn.handoff=8 earn.short=9 earn.long=10 "
                                      "earn.standup=11 earn.unblock=12 earn.unprotect=999",
                                      err, sizeof err),
                     BALL_OK);
    ck_assert_ptr_eq(r.cards, &c);
    for (int e = 0; e < BALL_EARN_COUNT - 1; e++)
        ck_assert_int_eq(c.earn[e], e + 1);
    ck_assert_int_eq(c.earn[BALL_EARN_UNPROTECT], 999);
    /* the deck: same as the C-built one */
    ball_cards want;
    make_deck(&want);
    ck_assert_int_eq(ball_rules_parse(&r, &c, "zone=3 " DECK, err, sizeof err), BALL_OK);
    ck_assert_int_eq(r.end_zone_depth, 3);
    for (int t = 0; t < 2; t++) {
        ck_assert_int_eq(c.hand_size[t], want.hand_size[t]);
        for (int i = 0; i < want.hand_size[t]; i++) {
            ck_assert_str_eq(c.hand[t][i].name, want.hand[t][i].name);
            ck_assert_int_eq(c.hand[t][i].cost, want.hand[t][i].cost);
            ck_assert_int_eq(c.hand[t][i].effect, want.hand[t][i].effect);
            ck_assert_int_eq(c.hand[t][i].amount, want.hand[t][i].amount);
        }
    }
    ck_assert_int_eq(ball_rules_check(&r, err, sizeof err), BALL_OK);
    /* limits: costs 0 and 999, pa+1 and pa+9, 9 cards, a 23-letter name
     * with '_' and '-' */
    ck_assert_int_eq(ball_rules_parse(&r, &c,
                                      "def=a:0:pa+1,b:999:pa+9,c:5:again,d:1:pa+1,e:1:pa+1,f:1:pa+1,"
                                      "g:1:pa+1,h:1:pa+1,Abcdefghij_klmnop-12345:7:again",
                                      err, sizeof err),
                     BALL_OK);
    ck_assert_int_eq(c.hand_size[BALL_ATK], 0);
    ck_assert_int_eq(c.hand_size[BALL_DEF], 9);
    ck_assert_int_eq(c.hand[1][0].cost, 0);
    ck_assert_int_eq(c.hand[1][0].amount, 1);
    ck_assert_int_eq(c.hand[1][1].cost, 999);
    ck_assert_int_eq(c.hand[1][1].effect, BALL_EFFECT_GAIN_PA);
    ck_assert_int_eq(c.hand[1][1].amount, 9);
    ck_assert_int_eq(c.hand[1][2].effect, BALL_EFFECT_UNRESTRICT);
    ck_assert_int_eq(c.hand[1][2].amount, 0);
    ck_assert_str_eq(c.hand[1][8].name, "Abcdefghij_klmnop-12345");
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_OK);
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 511);
    ball_game_free(g);
    /* NULL arguments */
    ck_assert_int_eq(ball_rules_parse(NULL, &c, "", err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_parse(&r, NULL, "", err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_parse(&r, &c, NULL, NULL, 0), BALL_E_ARG);
}
END_TEST

/* ball_rules_parse: a bad word gives BALL_E_RANGE and a message that
 * quotes the word. */
START_TEST(test_R10_rules_parse_bad_words)
{
    static const char *const bad[] = {
        "earn.foo=1", "earn.move=1000", "earn.move=-1", "earn.move=", "earn.move", "earn.=1",
        "zone=4", "zone=0", "turns=x", "card", "cards=1", "xyz", "ATK=A:1:pa+1",
        "atk=", "atk=Sprint", "atk=Sprint:1", "atk=Sprint:1:pa+0", "atk=Sprint:1:pa+10",
        "atk=Sprint:1000:pa+1", "atk=Sprint:-1:pa+1", "atk=Sprint:01:pa+1", "atk=Sprint:x:pa+1",
        "atk=:1:pa+1", "atk=Spr!nt:1:pa+1", "atk=Sprint:1:again2", "atk=Sprint:1:pa+", "atk=Sprint:1:",
        "atk=Sprint:1:pa+1,", "atk=A:0:pa+1,,B:0:pa+1", "def=Abcdefghij_klmnop-123456:1:again",
        "def=a:1:pa+1,b:1:pa+1,c:1:pa+1,d:1:pa+1,e:1:pa+1,f:1:pa+1,g:1:pa+1,h:1:pa+1,i:1:pa+1,j:1:pa+1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ball_rules r;
        ball_cards c;
        char err[512] = "";
        char text[600];
        snprintf(text, sizeof text, "earn.move=1 %s zone=2", bad[i]);
        ck_assert_msg(ball_rules_parse(&r, &c, text, err, sizeof err) == BALL_E_RANGE, "accepted: %s", text);
        ck_assert_msg(strstr(err, bad[i]) != NULL, "message '%s' does not name '%s'", err, bad[i]);
    }
}
END_TEST

/* ball_rules_check and ball_game_new refuse a bad card ruleset with a
 * message (BALL_E_RANGE; a bad struct size is BALL_E_ARG). */
START_TEST(test_R10_rules_check_bad_cards)
{
    enum { N = 12 };
    for (int k = 0; k < N; k++) {
        ball_cards c;
        ball_rules r;
        make_deck(&c);
        int want = BALL_E_RANGE;
        switch (k) {
        case 0: c.hand_size[BALL_ATK] = 10; break;
        case 1: c.hand[BALL_ATK][0].cost = -1; break;
        case 2: c.hand[BALL_DEF][1].effect = 7; break;
        case 3: c.hand[BALL_ATK][1].amount = 1; break; /* unrestrict takes no amount */
        case 4: c.hand[BALL_ATK][0].amount = 0; break; /* gain 0 PA */
        case 5: c.hand[BALL_ATK][0].amount = 10; break;
        case 6: c.hand[BALL_DEF][0].cost = 1000; break;
        case 7: c.earn[BALL_EARN_DODGE] = 1000; break;
        case 8: c.earn[BALL_EARN_MOVE] = -1; break;
        case 9: c.hand[BALL_ATK][2].name[0] = '\0'; break;
        case 10: c.hand_size[BALL_DEF] = -1; break;
        case 11: c.size = sizeof c - 1; want = BALL_E_ARG; break;
        }
        ball_rules_init(&r, sizeof r);
        r.cards = &c;
        char err[256] = "";
        ck_assert_msg(ball_rules_check(&r, err, sizeof err) == want, "case %d", k);
        ck_assert_msg(err[0] != '\0', "case %d: no message", k);
        ball_game *g = (ball_game *)&c; /* must be set to NULL on failure */
        ck_assert_msg(ball_game_new(&g, &r) == want, "case %d: game created", k);
        ck_assert_ptr_null(g);
    }
    /* the message says what: the hand size, the card */
    ball_cards c;
    ball_rules r;
    char err[256];
    make_deck(&c);
    c.hand_size[BALL_ATK] = 10;
    ball_rules_init(&r, sizeof r);
    r.cards = &c;
    ball_rules_check(&r, err, sizeof err);
    ck_assert_ptr_nonnull(strstr(err, "hand"));
    make_deck(&c);
    c.hand[BALL_DEF][1].effect = 7;
    ball_rules_check(&r, err, sizeof err);
    ck_assert_ptr_nonnull(strstr(err, "DEF"));
    ck_assert_ptr_nonnull(strstr(err, "2"));
    /* the good deck passes, with an empty message */
    make_deck(&c);
    ck_assert_int_eq(ball_rules_check(&r, err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
}
END_TEST

/* The game keeps its own copy of the card ruleset: changing or freeing the
 * caller's struct, or freeing the original of a clone, changes nothing. */
START_TEST(test_R10_ruleset_copied)
{
    ball_cards c;
    ball_rules r, got;
    make_deck(&c);
    c.earn[BALL_EARN_MOVE] = 3;
    ball_rules_init(&r, sizeof r);
    r.cards = &c;
    ball_game *g = NULL, *k = NULL;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_OK);
    c.hand[BALL_ATK][0].cost = 500;
    c.earn[BALL_EARN_MOVE] = 0;
    ball_rules_init(&got, sizeof got);
    ck_assert_int_eq(ball_game_rules(g, &got), BALL_OK);
    ck_assert_ptr_nonnull(got.cards);
    ck_assert_ptr_ne(got.cards, &c);
    ck_assert_int_eq(got.cards->hand[BALL_ATK][0].cost, 1);
    ck_assert_int_eq(got.cards->earn[BALL_EARN_MOVE], 3);
    tu_apply(g, "E11-F10"); /* DEF move: +3 PE */
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 3);
    ck_assert_int_eq(ball_game_clone(&k, g), BALL_OK);
    ball_game_free(g);
    ball_rules_init(&got, sizeof got);
    ck_assert_int_eq(ball_game_rules(k, &got), BALL_OK);
    ck_assert_str_eq(got.cards->hand[BALL_ATK][0].name, "Sprint");
    ck_assert_int_eq(ball_pe(k, BALL_DEF), 3);
    ck_bpn(k, "7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/3 1 123/12");
    tu_apply(k, "I11-J10");
    ck_assert_int_eq(ball_pe(k, BALL_DEF), 6);
    ball_game_free(k);
}
END_TEST

/* ------------------------------------------------------------------ */
/* card mode off */

/* R10: off by default. No PE, no hands, no pe+ or card actions, 7-field
 * BPN, and the perft of the standard start is the core one (55, 3238,
 * 16283; test_perft.c). */
START_TEST(test_R10_off_by_default)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL), BALL_OK);
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_game_rules(g, &r), BALL_OK);
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 0);
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 0);
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 0);
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 0);
    ck_legal_prefix(g, "pe+", "");
    ck_legal_prefix(g, "card", "");
    ck_assert_int_eq(parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_bpn(g, BALL_START_BPN);
    static const uint64_t want[3] = {55, 3238, 16283};
    for (int d = 1; d <= 3; d++) {
        uint64_t n = 0;
        ck_assert_int_eq(ball_perft(g, d, &n), BALL_OK);
        ck_assert_uint_eq(n, want[d - 1]);
    }
    /* bad arguments */
    ck_assert_int_eq(ball_pe(NULL, BALL_ATK), -1);
    ck_assert_int_eq(ball_pe(g, 2), -1);
    ck_assert_int_eq(ball_hand(NULL, BALL_DEF), -1);
    ck_assert_int_eq(ball_hand(g, -1), -1);
    ball_game_free(g);
    /* a text without card words is the same */
    g = cm_game("zone=1 turns=0", NULL);
    uint64_t n = 0;
    ck_assert_int_eq(ball_perft(g, 2, &n), BALL_OK);
    ck_assert_uint_eq(n, 3238);
    ball_game_free(g);
}
END_TEST

/* Card mode from the standard start: the 55 core actions plus pe+1 and
 * pe+2 (DEF has 2 PA and no PE). With a 0-PE gain-PA card in DEF's hand,
 * card1 as well: 58. */
START_TEST(test_R10_start_in_card_mode)
{
    ball_game *g = cm_game("cards", NULL);
    uint64_t n = 0;
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, 57);
    ck_legal_prefix(g, "pe", "pe+1 pe+2");
    ball_game_free(g);
    g = cm_game("def=Free:0:pa+1", NULL);
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, 58);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 -/1");
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* R12 selection */

/* ball_select with BALL_VERB_CARD: in the unrestrict position after the
 * pickup, the restricted carrier H10 has one verb, the card, whose next
 * step is the hand index (0-based, like ball_action_value): 1 for Rally.
 * The three choices form card2@H10. An untargeted card (Sprint, once
 * affordable) is not selected through a piece. */
START_TEST(test_R12_select_card)
{
    ball_game *g = cm_game(DECK, UNRESTRICT_POS);
    tu_apply(g, "G9-H10");
    int h10 = ball_square_from_name("H10"), g11 = ball_square_from_name("G11");
    int choices[BALL_NUM_SQUARES];
    ball_action a = 12345;
    int chosen[5] = {0};
    /* step 0: pieces with a legal action, in increasing square order */
    int n = ball_select(g, chosen, 0, choices, BALL_NUM_SQUARES, &a);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(choices[0], h10);
    ck_assert_int_eq(choices[1], g11);
    ck_assert_uint_eq(a, BALL_ACTION_NONE);
    chosen[0] = h10;
    n = ball_select(g, chosen, 1, choices, BALL_NUM_SQUARES, &a);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(choices[0], BALL_VERB_CARD);
    chosen[1] = BALL_VERB_CARD;
    n = ball_select(g, chosen, 2, choices, BALL_NUM_SQUARES, &a);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(choices[0], 1);
    chosen[2] = 1;
    n = ball_select(g, chosen, 3, choices, BALL_NUM_SQUARES, &a);
    ck_assert_int_eq(n, 0);
    ck_assert_uint_eq(a, parse_ok(g, "card2@H10"));
    chosen[2] = 0;
    ck_assert_int_eq(ball_select(g, chosen, 3, choices, BALL_NUM_SQUARES, &a), BALL_E_ILLEGAL);
    chosen[0] = g11;
    chosen[1] = BALL_VERB_CARD;
    ck_assert_int_eq(ball_select(g, chosen, 2, choices, BALL_NUM_SQUARES, &a), BALL_E_ILLEGAL);
    /* PE 1 after pe+1: Sprint is affordable, but has no piece */
    tu_apply(g, "pe+1");
    ck_legal_prefix(g, "card", "card1 card2@H10");
    chosen[0] = h10;
    n = ball_select(g, chosen, 2, choices, BALL_NUM_SQUARES, &a);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(choices[0], 1);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* random games */

#define RANDOM_RULES                                                                                  \
    "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=5 earn.tactical=7 earn.block=11 "            \
    "earn.protect=13 earn.handoff=17 earn.short=19 earn.long=23 earn.standup=29 earn.unblock=31 "  \
    "earn.unprotect=37 "                                                                           \
    "atk=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again,I:0:pa+3 "  \
    "def=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again"
#define RGAMES 60
#define RDECISIONS 300

/* The PE a decision earns by the documented rule (ball.h ball_cards). */
static long expected_earn(const ball_cards *c, ball_action a)
{
    int entry;
    switch (ball_action_kind(a)) {
    case BALL_MOVE: entry = BALL_EARN_MOVE; break;
    case BALL_DODGE: entry = BALL_EARN_DODGE; break;
    case BALL_TACTICAL_DODGE: entry = BALL_EARN_TACTICAL_DODGE; break;
    case BALL_BLOCK: entry = BALL_EARN_BLOCK; break;
    case BALL_PROTECT: entry = BALL_EARN_PROTECT; break;
    case BALL_HANDOFF: entry = BALL_EARN_HANDOFF; break;
    case BALL_SHORT_PASS: entry = BALL_EARN_SHORT_PASS; break;
    case BALL_LONG_PASS: entry = BALL_EARN_LONG_PASS; break;
    case BALL_STAND_UP: entry = BALL_EARN_STAND_UP; break;
    case BALL_UNBLOCK: entry = BALL_EARN_UNBLOCK; break;
    case BALL_UNPROTECT: entry = BALL_EARN_UNPROTECT; break;
    default: return 0; /* end, conversions, cards */
    }
    long gain = c->earn[entry];
    if (ball_action_flags(a) & BALL_FLAG_PICKUP)
        gain += c->earn[BALL_EARN_PICKUP];
    if (ball_action_flags(a) & BALL_FLAG_FORCED_FUMBLE)
        gain += c->earn[BALL_EARN_FORCED_FUMBLE];
    return gain;
}

/* The card-mode part of the legal list matches R10.2/R10.4: pe+1..pe+PA,
 * and card i exactly when still in hand and affordable (an unrestrict
 * card only with a restricted piece, which it targets); none of them
 * outside the action phase. */
static void check_card_actions(ball_game *g, const ball_cards *c, const ball_action *acts, int n)
{
    int side = ball_side(g), action_phase = ball_phase(g) == BALL_PHASE_ACTION;
    int conv = 0, cards = 0;
    for (int i = 0; i < n; i++) {
        int kind = ball_action_kind(acts[i]);
        if (kind == BALL_CONVERT_PA) {
            tu_require(action_phase);
            tu_require(ball_action_value(acts[i]) == ++conv);
        } else if (kind == BALL_PLAY_CARD) {
            int k = ball_action_value(acts[i]);
            tu_require(action_phase);
            tu_require(k >= 0 && k < c->hand_size[side]);
            tu_require(ball_hand(g, side) >> k & 1);
            tu_require(c->hand[side][k].cost <= ball_pe(g, side));
            tu_require(ball_action_from(acts[i]) ==
                       (c->hand[side][k].effect == BALL_EFFECT_UNRESTRICT ? ball_restricted_square(g) : -1));
            cards |= 1 << k;
        }
    }
    if (!action_phase || n == 0) {
        tu_require(conv == 0 && cards == 0);
        return;
    }
    tu_require(conv == ball_pa(g));
    for (int k = 0; k < c->hand_size[side]; k++) {
        const ball_card *card = &c->hand[side][k];
        int playable = (ball_hand(g, side) >> k & 1) && card->cost <= ball_pe(g, side)
                       && (card->effect == BALL_EFFECT_GAIN_PA || ball_restricted_square(g) >= 0);
        tu_require(playable == (cards >> k & 1));
    }
}

typedef struct card_stats {
    long decisions, conversions, gain_cards, unrestrict_cards, earning;
} card_stats;

static void play_card_game(uint64_t seed, card_stats *st)
{
    ball_game *g = cm_game(RANDOM_RULES, NULL), *scratch = cm_game(RANDOM_RULES, NULL);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    tu_require(ball_game_rules(g, &rules) == BALL_OK && rules.cards);
    const ball_cards *c = rules.cards;
    ball_action acts[BALL_MAX_ACTIONS];
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX], again[BALL_BPN_MAX];
    for (int d = 0; d < RDECISIONS; d++) {
        tu_bpn(g, before);
        uint64_t hash_before = ball_hash(g);
        /* BPN round trip and hash from scratch */
        tu_require(ball_set_bpn(scratch, before) == BALL_OK);
        tu_bpn(scratch, again);
        tu_require(strcmp(again, before) == 0);
        tu_require(ball_hash(scratch) == hash_before);
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        tu_require(n >= 0);
        if (n == 0) {
            tu_require(ball_result(g) != BALL_ONGOING);
            break;
        }
        check_card_actions(g, c, acts, n);
        /* every action's text round-trips */
        for (int i = 0; i < n; i++) {
            char text[BALL_ACTION_TEXT_MAX];
            ball_action back = BALL_ACTION_NONE;
            tu_require(ball_action_text(acts[i], text, sizeof text) > 0);
            if (ball_action_parse(g, text, &back) != BALL_OK)
                ck_abort_msg("%s in %s: %s", text, before, ball_errmsg(g));
            tu_require(back == acts[i]);
        }
        tu_check_generator_modes(g, acts, n);
        /* choose: a card-mode action one time in three when there is one */
        int special[BALL_MAX_ACTIONS], ns = 0;
        for (int i = 0; i < n; i++)
            if (ball_action_kind(acts[i]) == BALL_PLAY_CARD
                || (ball_action_kind(acts[i]) == BALL_CONVERT_PA && ball_action_value(acts[i]) == 1))
                special[ns++] = i;
        uint64_t r = tu_random(&seed);
        ball_action a = ns && r % 3 == 0 ? acts[special[(r / 3) % (uint64_t)ns]] : acts[(r / 3) % (uint64_t)n];

        int side = ball_side(g), pa = ball_pa(g), restricted = ball_restricted_square(g);
        long pe[2] = {ball_pe(g, 0), ball_pe(g, 1)};
        int hand[2] = {ball_hand(g, 0), ball_hand(g, 1)};
        tu_require(ball_apply(g, a) == BALL_OK);
        tu_bpn(g, after);
        tu_require(ball_undo(g) == BALL_OK);
        tu_bpn(g, again);
        tu_require(strcmp(again, before) == 0);
        tu_require(ball_hash(g) == hash_before);
        tu_require(ball_apply(g, a) == BALL_OK);
        tu_bpn(g, again);
        tu_require(strcmp(again, after) == 0);

        /* the effects of R10 */
        tu_require(ball_pe(g, !side) == pe[!side]);
        tu_require(ball_hand(g, !side) == hand[!side]);
        int kind = ball_action_kind(a), v = ball_action_value(a);
        if (kind == BALL_CONVERT_PA) {
            tu_require(ball_pe(g, side) == pe[side] + v);
            tu_require(ball_pa(g) == pa - v);
            tu_require(ball_hand(g, side) == hand[side]);
            st->conversions++;
        } else if (kind == BALL_PLAY_CARD) {
            const ball_card *card = &c->hand[side][v];
            tu_require(ball_pe(g, side) == pe[side] - card->cost);
            tu_require(ball_hand(g, side) == (hand[side] & ~(1 << v)));
            tu_require(ball_side(g) == side && ball_phase(g) == BALL_PHASE_ACTION);
            if (card->effect == BALL_EFFECT_GAIN_PA) {
                tu_require(ball_pa(g) == pa + card->amount);
                tu_require(ball_restricted_square(g) == restricted);
                st->gain_cards++;
            } else {
                tu_require(restricted >= 0 && ball_action_from(a) == restricted);
                tu_require(ball_restricted_square(g) == -1);
                tu_require(ball_pa(g) == pa);
                st->unrestrict_cards++;
            }
            tu_require(ball_handoff_last(g) == 0);
        } else {
            long gain = expected_earn(c, a);
            if (ball_pe(g, side) != pe[side] + gain) {
                char text[BALL_ACTION_TEXT_MAX];
                ball_action_text(a, text, sizeof text);
                ck_abort_msg("%s in %s: PE %ld -> %ld, expected +%ld", text, before, pe[side],
                             ball_pe(g, side), gain);
            }
            tu_require(ball_hand(g, side) == hand[side]);
            if (gain)
                st->earning++;
        }
        st->decisions++;
    }
    while (ball_history_length(g) > 0)
        tu_require(ball_undo(g) == BALL_OK);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 123456789/12345678");
    ball_game_free(scratch);
    ball_game_free(g);
}

START_TEST(test_R10_random_card_games)
{
    card_stats st = {0, 0, 0, 0, 0};
    for (int i = 0; i < RGAMES; i++)
        play_card_game(0xD1B54A32D192ED03ull * (uint64_t)(i + 1), &st);
    ck_assert_int_ge(st.decisions, 5000);
    ck_assert_int_ge(st.conversions, 100);
    ck_assert_int_ge(st.gain_cards, 100);
    ck_assert_int_ge(st.unrestrict_cards, 20);
    ck_assert_int_ge(st.earning, 1000);
}
END_TEST

/* ------------------------------------------------------------------ */
/* N3 perft in card mode */

/* ATK X A1, loose ball C3, DEF x M17; PE 3/2, full hands (123/12);
 * earn.move=2 earn.pickup=1. By hand (X moves R5.1, costs R4.3):
 * depth 1, ATK with 2 PA, 3 PE: A1-B2, A1-C3 (onto the ball, over the open
 *   B2), pe+1, pe+2, card1 (Sprint 1 <= 3; Rally: nothing restricted;
 *   Surge 5 > 3), end: 6.
 * depth 2, after
 *   A1-B2   PA 1, PE 5: B2-A1 C1 A3 C3 (pickup), D4 (over the loose ball,
 *           open, R5.3): 5; pe+1; card1, card3 (5 <= 5); end: 9
 *   A1-C3   pickup: PA 1, PE 6, C3 restricted (no move): pe+1, card1,
 *           card2@C3, card3, end: 5
 *   pe+1    PA 1, PE 4: A1-B2 A1-C3 pe+1 card1 end: 5
 *   pe+2    PA 0, PE 5: card1 card3 end: 3
 *   card1   PA 3, PE 2, hand 23: A1-B2 A1-C3 pe+1 pe+2 pe+3 end: 6
 *   end     no ATK task: DEF's turn 2, 2 PA, PE 2: x M17-L16, M17-K15,
 *           pe+1, pe+2, card1 (Dash 2 <= 2), end (Again: nothing
 *           restricted): 6
 *   total 9 + 5 + 5 + 3 + 6 + 6 = 34.
 * Depths 3 and 4 are compared, child by child, with a count by apply/undo
 * through the public API. */
#define PERFT_RULES "earn.move=2 earn.pickup=1 " DECK
#define PERFT_POS "6x/6/7/6/7/6/7/6/7/6/7/6/7/6/1@5/6/X6 ATK a 2 - 3/2 1 123/12"

static uint64_t count_by_apply(ball_game *g, int depth)
{
    if (depth == 0)
        return 1;
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    tu_require(n >= 0);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        tu_require(ball_apply(g, acts[i]) == BALL_OK);
        total += count_by_apply(g, depth - 1);
        tu_require(ball_undo(g) == BALL_OK);
    }
    return total;
}

START_TEST(test_N3_card_perft)
{
    ball_game *g = cm_game(PERFT_RULES, PERFT_POS);
    ck_legal(g, "A1-B2 A1-C3 card1 end pe+1 pe+2");
    uint64_t n = 0;
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, 6);
    ck_assert_int_eq(ball_perft(g, 2, &n), BALL_OK);
    ck_assert_uint_eq(n, 34);

    static const struct { const char *action; uint64_t count; const char *legal; } divide[] = {
        {"A1-B2", 9, "B2-A1 B2-A3 B2-C1 B2-C3 B2-D4 card1 card3 end pe+1"},
        {"A1-C3", 5, "card1 card2@C3 card3 end pe+1"},
        {"pe+1", 5, "A1-B2 A1-C3 card1 end pe+1"},
        {"pe+2", 3, "card1 card3 end"},
        {"card1", 6, "A1-B2 A1-C3 end pe+1 pe+2 pe+3"},
        {"end", 6, "M17-K15 M17-L16 card1 end pe+1 pe+2"},
    };
    for (size_t i = 0; i < sizeof divide / sizeof divide[0]; i++) {
        tu_apply(g, divide[i].action);
        ck_legal(g, divide[i].legal);
        ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
        ck_assert_msg(n == divide[i].count, "after %s: %llu", divide[i].action, (unsigned long long)n);
        ck_assert_int_eq(ball_undo(g), BALL_OK);
    }
    ck_bpn(g, PERFT_POS);

    /* depths 3 and 4: ball_perft against apply/undo, child by child */
    for (int depth = 3; depth <= 4; depth++) {
        ball_action acts[BALL_MAX_ACTIONS];
        int na = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        uint64_t sum = 0;
        for (int i = 0; i < na; i++) {
            uint64_t lib = 0;
            ck_assert_int_eq(ball_apply(g, acts[i]), BALL_OK);
            ck_assert_int_eq(ball_perft(g, depth - 1, &lib), BALL_OK);
            uint64_t manual = count_by_apply(g, depth - 1);
            ck_assert_uint_eq(lib, manual);
            sum += lib;
            ck_assert_int_eq(ball_undo(g), BALL_OK);
        }
        ck_assert_int_eq(ball_perft(g, depth, &n), BALL_OK);
        ck_assert_uint_eq(n, sum);
        ck_assert_uint_eq(n, count_by_apply(g, depth));
    }
    ck_bpn(g, PERFT_POS);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_cards");
    TCase *tc = tcase_create("cards");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_R10_2_conversion_limits);
    tcase_add_test(tc, test_R10_2_conversion_persists_across_turns);
    tcase_add_test(tc, test_R10_2_conversion_above_two_pa);
    tcase_add_test(tc, test_R10_2_malformed_texts);
    tcase_add_loop_test(tc, test_R10_3_earning_entries, 0, (int)NEARN);
    tcase_add_test(tc, test_R10_3_every_entry_covered);
    tcase_add_test(tc, test_R10_3_end_conversion_card_earn_nothing);
    tcase_add_test(tc, test_R10_3_earned_pe_spent_same_turn);
    tcase_add_test(tc, test_R10_3_pe_saturate);
    tcase_add_test(tc, test_R10_5_gain_pa);
    tcase_add_test(tc, test_R10_5_gain_pa_capped_at_99);
    tcase_add_test(tc, test_R10_5_unrestrict_after_pickup);
    tcase_add_test(tc, test_R10_5_unrestrict_after_forced_fumble);
    tcase_add_test(tc, test_R10_4_def_hand);
    tcase_add_test(tc, test_R10_4_unaffordable_card);
    tcase_add_test(tc, test_R10_4_card_outside_action_phase);
    tcase_add_test(tc, test_R10_4_played_card_gone_for_good);
    tcase_add_test(tc, test_R10_4_card_clears_handoff_mark);
    tcase_add_test(tc, test_R10_undo_every_card_action);
    tcase_add_test(tc, test_R10_hash_covers_pe_and_hands);
    tcase_add_test(tc, test_N1_card_bpn_round_trip);
    tcase_add_test(tc, test_N1_card_bpn_rejections);
    tcase_add_test(tc, test_N1_bpn_outside_card_mode);
    tcase_add_test(tc, test_N1_pa_limit_round_trip);
    tcase_add_test(tc, test_R10_rules_parse_valid);
    tcase_add_test(tc, test_R10_rules_parse_bad_words);
    tcase_add_test(tc, test_R10_rules_check_bad_cards);
    tcase_add_test(tc, test_R10_ruleset_copied);
    tcase_add_test(tc, test_R10_off_by_default);
    tcase_add_test(tc, test_R10_start_in_card_mode);
    tcase_add_test(tc, test_R12_select_card);
    tcase_add_test(tc, test_R10_random_card_games);
    tcase_add_test(tc, test_N3_card_perft);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
