/* Card mode (R10) in play: random games that check every decision
 * against R10.2-R10.5 (PE, PA, hands, restriction) with undo, BPN and
 * action-text round trips; and perft in card mode (N3), by hand at depths
 * 1-2 and against apply/undo at depths 3-4.
 *
 * Expected counts are derived by hand from docs/spec.md (R4-R10, N3) and
 * docs/cards.md; the comments say how. TU_DECK, the deck of the card
 * tests, is described in testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

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

/* The PE a decision earns by the documented rule (ball.h,
 * ball_cardset_set_earn()). */
static int expected_earn(const ball_cardset *c, ball_action a)
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
    int gain = ball_cardset_earn(c, entry);
    if (ball_action_flags(a) & BALL_FLAG_PICKUP)
        gain += ball_cardset_earn(c, BALL_EARN_PICKUP);
    if (ball_action_flags(a) & BALL_FLAG_FORCED_FUMBLE)
        gain += ball_cardset_earn(c, BALL_EARN_FORCED_FUMBLE);
    return gain;
}

/* The card-mode part of the legal list matches R10.2/R10.4: pe+1..pe+PA,
 * and card i exactly when still in hand and affordable (an unrestrict
 * card only with a restricted piece, which it targets); none of them
 * outside the action phase. */
static void check_card_actions(ball_game *g, const ball_cardset *c, const ball_action *acts, int n)
{
    int side = ball_side(g), action_phase = ball_phase(g) == BALL_PHASE_ACTION;
    int conv = 0, cards = 0, hand_size = ball_cardset_hand_size(c, side);
    int restricted = ball_restricted_square(g);
    for (int i = 0; i < n; i++) {
        int kind = ball_action_kind(acts[i]);
        if (kind == BALL_CONVERT_PA) {
            tu_require(action_phase);
            tu_require(ball_action_value(acts[i]) == ++conv);
        } else if (kind == BALL_PLAY_CARD) {
            int k = ball_action_value(acts[i]);
            tu_require(action_phase);
            tu_require(k >= 0 && k < hand_size);
            tu_require(ball_hand(g, side) >> k & 1);
            tu_require(ball_cardset_card_value(c, side, k, BALL_CARD_COST) <= ball_pe(g, side));
            int effect = ball_cardset_card_value(c, side, k, BALL_CARD_EFFECT);
            int target = effect == BALL_EFFECT_UNRESTRICT ? restricted : BALL_NO_SQUARE;
            tu_require(ball_action_from(acts[i]) == target);
            cards |= 1 << k;
        }
    }
    if (!action_phase || n == 0) {
        tu_require(conv == 0 && cards == 0);
        return;
    }
    tu_require(conv == ball_pa(g));
    for (int k = 0; k < hand_size; k++) {
        int cost = ball_cardset_card_value(c, side, k, BALL_CARD_COST);
        int effect = ball_cardset_card_value(c, side, k, BALL_CARD_EFFECT);
        int playable = (ball_hand(g, side) >> k & 1) && cost <= ball_pe(g, side)
                       && (effect == BALL_EFFECT_GAIN_PA || restricted != BALL_NO_SQUARE);
        tu_require(playable == (cards >> k & 1));
    }
}

typedef struct card_stats {
    long decisions, conversions, gain_cards, unrestrict_cards, earning;
} card_stats;

static void play_card_game(uint64_t seed, card_stats *st)
{
    ball_game *g = tu_game_text(RANDOM_RULES, NULL), *scratch = tu_game_text(RANDOM_RULES, NULL);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    tu_require(ball_game_rules(g, &rules) == BALL_OK && rules.cards);
    const ball_cardset *c = rules.cards; /* the game's own copy */
    ball_action acts[BALL_MAX_ACTIONS];
    char before[BALL_BPN_MAX];
    for (int d = 0; d < RDECISIONS; d++) {
        tu_bpn(g, before);
        tu_check_bpn_round_trip(g, scratch); /* and the hash from scratch */
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        tu_require(n >= 0);
        if (n == 0) {
            tu_require(ball_result(g) != BALL_ONGOING);
            break;
        }
        check_card_actions(g, c, acts, n);
        tu_check_text_round_trip(g, acts, n); /* every action's text */
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
        int pe[2] = {ball_pe(g, 0), ball_pe(g, 1)};
        int hand[2] = {ball_hand(g, 0), ball_hand(g, 1)};
        tu_apply_undo_round_trip(g, a); /* undo is exact; a stays played */

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
            int cost = ball_cardset_card_value(c, side, v, BALL_CARD_COST);
            int effect = ball_cardset_card_value(c, side, v, BALL_CARD_EFFECT);
            int amount = ball_cardset_card_value(c, side, v, BALL_CARD_AMOUNT);
            tu_require(ball_pe(g, side) == pe[side] - cost);
            tu_require(ball_hand(g, side) == (hand[side] & ~(1 << v)));
            tu_require(ball_side(g) == side && ball_phase(g) == BALL_PHASE_ACTION);
            if (effect == BALL_EFFECT_GAIN_PA) {
                int want_pa = pa + amount < BALL_MAX_PA ? pa + amount : BALL_MAX_PA;
                tu_require(ball_pa(g) == want_pa);
                tu_require(ball_restricted_square(g) == restricted);
                st->gain_cards++;
            } else {
                tu_require(restricted != BALL_NO_SQUARE && ball_action_from(a) == restricted);
                tu_require(ball_restricted_square(g) == BALL_NO_SQUARE);
                tu_require(ball_pa(g) == pa);
                st->unrestrict_cards++;
            }
            tu_require(ball_handoff_last(g) == 0);
        } else {
            int gain = expected_earn(c, a);
            if (ball_pe(g, side) != pe[side] + gain) {
                char text[BALL_ACTION_TEXT_MAX];
                ball_action_to_text(a, text, sizeof text);
                ck_abort_msg("%s in %s: PE %d -> %d, expected +%d", text, before, pe[side], ball_pe(g, side),
                             gain);
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

/* R10.2-R10.5 over random games (RANDOM_RULES: every entry non-zero,
 * full hands of both kinds of cards). */
START_TEST(test_R10_4_random_card_games)
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
 * through the public API (tu_perft_by_apply()). */
#define PERFT_RULES "earn.move=2 earn.pickup=1 " TU_DECK
#define PERFT_POS "6x/6/7/6/7/6/7/6/7/6/7/6/7/6/1@5/6/X6 ATK a 2 - 3/2 1 123/12"

START_TEST(test_N3_card_perft)
{
    ball_game *g = tu_game_text(PERFT_RULES, PERFT_POS);
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
            uint64_t manual = tu_perft_by_apply(g, depth - 1);
            ck_assert_uint_eq(lib, manual);
            sum += lib;
            ck_assert_int_eq(ball_undo(g), BALL_OK);
        }
        ck_assert_int_eq(ball_perft(g, depth, &n), BALL_OK);
        ck_assert_uint_eq(n, sum);
        ck_assert_uint_eq(n, tu_perft_by_apply(g, depth));
    }
    ck_bpn(g, PERFT_POS);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_games");
    TCase *tc = tcase_create("card games");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_R10_4_random_card_games);
    tcase_add_test(tc, test_N3_card_perft);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
