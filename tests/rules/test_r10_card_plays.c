/* R10.4-R10.5 card mode: playing cards (gain PA, unrestrict), whose hand
 * they come from, their cost, when they can be played, that they leave the
 * hand for good and clear the hand-off mark; undo and the hash of every
 * card-mode decision; selecting a card play step by step (R12).
 *
 * Every expected list and BPN below is derived by hand from docs/spec.md
 * (R1-R12, N1-N2) and the card-mode semantics documented in ball.h and
 * docs/cards.md; the comment of each test says how. Squares are
 * (column, row) with A = 1: X moves (+-1, +-1) and (+-2, +-2) (R5.1).
 * TU_DECK, the deck most tests use, is described in testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------ */
/* R10.4/R10.5 cards */

/* Gain PA (R10.5). ATK X G9, DEF x* A17, PE 1/0. Two moves spend both PA
 * (G9-H10, H10-I11); then Sprint (1 PE <= 1) is listed, Rally is not (no
 * restricted piece), Surge is not (5 PE). Card plays cost no PA (legal at
 * 0 PA). After card1: PA 1, PE 0, hand 23, and I11 can move again:
 * H10 J10 H12 J12, G9 K9 G13 K13 over open squares (R5.1). */
START_TEST(test_R10_5_gain_pa)
{
    ball_game *g = tu_game_text(TU_DECK, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    ck_legal_prefix(g, "card", "card1");
    tu_apply_all(g, "G9-H10 H10-I11");
    ck_legal(g, "card1 end");
    ball_action a = tu_action(g, "card1");
    ck_assert_int_eq(ball_action_kind(a), BALL_PLAY_CARD);
    ck_assert_int_eq(ball_action_value(a), 0); /* hand index from 0 */
    ck_assert_int_eq(ball_action_from(a), BALL_NO_SQUARE); /* no target */
    ck_assert_int_eq(ball_action_to(a), BALL_NO_SQUARE);
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

/* Gain PA stops at BALL_MAX_PA, 99 PA (ball.h, BALL_EFFECT_GAIN_PA: a gain
 * beyond 99 is lost), the most the BPN PA field accepts: 95 + 9 gives 99, and 99 + 9
 * stays 99; the card is spent all the same. Conversions then go up to
 * pe+99. */
START_TEST(test_R10_5_gain_pa_capped_at_99)
{
    ball_game *g = tu_game_text("atk=Big:0:pa+9,Big2:0:pa+9",
                                "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 95 - 0/0 1 12/-");
    tu_apply(g, "card1");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 99 - 0/0 1 2/-");
    tu_apply(g, "card2");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 99 - 0/0 1 -/-");
    ck_assert_int_eq(ball_pa(g), BALL_MAX_PA);
    ck_assert_int_eq(tu_parse_rc(g, "pe+99"), BALL_OK);
    ck_assert_int_eq(tu_parse_rc(g, "pe+100"), BALL_E_ILLEGAL);
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
    ball_game *g = tu_game_text(TU_DECK, UNRESTRICT_POS);
    ck_legal_prefix(g, "card", ""); /* nothing restricted yet, no PE */
    ck_assert_int_eq(tu_parse_rc(g, "card2@H10"), BALL_E_ILLEGAL);
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 123/12");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("H10"));
    ck_legal_prefix(g, "H10", "");
    ck_legal_prefix(g, "card", "card2@H10");
    /* wrong shapes of the card play */
    ck_assert_int_eq(tu_parse_rc(g, "card2"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "card2@G11"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "card1@H10"), BALL_E_ILLEGAL);

    /* not lifted by a conversion or a gain-PA card */
    tu_apply(g, "pe+1");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 0 - 1/0 1 123/12");
    ck_legal(g, "card1 card2@H10 end");
    tu_apply(g, "card1");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*!2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 23/12");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("H10"));
    ck_legal(g, "G11-E13 G11-E9 G11-F10 G11-F12 G11-H10 G11-H12 G11-I13 G11-I9 card2@H10 end pe+1");

    /* lifted by the card */
    ball_action a = tu_action(g, "card2@H10");
    ck_assert_int_eq(ball_action_kind(a), BALL_PLAY_CARD);
    ck_assert_int_eq(ball_action_value(a), 1);
    ck_assert_int_eq(ball_action_from(a), ball_square_from_text("H10"));
    ck_assert_int_eq(ball_action_cost(a), 0);
    tu_apply(g, "card2@H10");
    ck_bpn(g, "x6/6/7/6/7/6/3X3/3X*2/7/6/7/6/7/6/7/6/7 ATK a 1 - 0/0 1 3/12");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
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
    ball_game *g = tu_game_text(TU_DECK, "x6/6/7/6/7/6/4x*2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 123/12");
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
    ball_game *g = tu_game_text(TU_DECK, "7/6/7/6/7/6/3x3/2@3/7/6/7/6/7/6/7/6/X6 DEF a 2 - 0/1 1 123/12");
    ck_legal_prefix(g, "card", "");
    ck_assert_int_eq(tu_parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "card3"), BALL_E_ILLEGAL);
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
    ball_game *g = tu_game_text(TU_DECK, bpn);
    ck_legal_prefix(g, "card", "card1");
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_from_text(g, "card3", &a), BALL_E_ILLEGAL);
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
    ball_game *g = tu_game_text(TU_DECK, "x*6/6/7/6/7/6/7/6/3X_3/6/7/6/7/6/7/6/7 ATK r 0 - 10/10 1 123/12");
    ck_legal(g, "G9-F10 G9-F8 G9-H10 G9-H8");
    ck_assert_int_eq(tu_parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "card3"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ball_game_free(g);

    g = tu_game_text(TU_DECK, "3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 10/10 1 123/12");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ck_assert_int_eq(tu_parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* R10.4: a played card leaves the hand for good. ATK PE 10: card1 at turn
 * 1 (PA 3, PE 9, hand 23); end, DEF end (no tasks, R9.1): ATK's turn 3 with
 * 2 PA, PE 9; card1 is neither listed nor accepted, card3 still is. */
START_TEST(test_R10_4_played_card_gone_for_good)
{
    ball_game *g = tu_game_text(TU_DECK, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 10/0 1 123/12");
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
    ck_assert_int_eq(tu_parse_rc(g, "card1"), BALL_E_ILLEGAL);
    /* play the rest: hand empty, written `-` */
    tu_apply(g, "card3");
    ck_bpn(g, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 4 - 4/0 3 2/12");
    ball_game_free(g);
    g = tu_game_text("atk=A:0:pa+1 def=B:0:pa+1", "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1 1/1");
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
    ball_game *g = tu_game_text(TU_DECK, "x6/6/7/6/7/6/7/3X2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12");
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
START_TEST(test_R10_4_undo_every_card_action)
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
    ball_game *g = tu_game_text("earn.move=1 earn.pickup=2 earn.standup=4 " TU_DECK, chain[0].bpn);
    uint64_t hashes[16];
    hashes[0] = ball_hash(g);
    for (size_t i = 1; i < n; i++) {
        tu_apply_undo_round_trip(g, tu_action(g, chain[i].action));
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
START_TEST(test_R10_1_hash_covers_pe_and_hands)
{
    const char *base = "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12";
    ball_game *g = tu_game_text(TU_DECK, base), *h = tu_game_text(TU_DECK, base);
    uint64_t h0 = ball_hash(g);
    ck_assert_uint_eq(ball_hash(h), h0);
    ck_assert_int_eq(ball_position_from_text(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 2/0 1 123/12"),
                     BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_position_from_text(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/1 1 123/12"),
                     BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_position_from_text(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 13/12"),
                     BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    ck_assert_int_eq(ball_position_from_text(h, "x*6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/2"),
                     BALL_OK);
    ck_assert_uint_ne(ball_hash(h), h0);
    tu_apply(g, "card1");
    char bpn[BALL_BPN_MAX];
    tu_bpn(g, bpn);
    ck_assert_int_eq(ball_position_from_text(h, bpn), BALL_OK);
    ck_assert_uint_eq(ball_hash(h), ball_hash(g));
    ball_game_free(g);
    ball_game_free(h);
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
    ball_game *g = tu_game_text(TU_DECK, UNRESTRICT_POS);
    tu_apply(g, "G9-H10");
    int h10 = ball_square_from_text("H10"), g11 = ball_square_from_text("G11");
    int choices[BALL_NUM_SQUARES];
    ball_action a = 12345;
    int chosen[BALL_SELECT_STEPS] = {0};
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
    ck_assert_uint_eq(a, tu_action(g, "card2@H10"));
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

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_card_plays");
    TCase *tc = tcase_create("card plays");
    tcase_add_test(tc, test_R10_5_gain_pa);
    tcase_add_test(tc, test_R10_5_gain_pa_capped_at_99);
    tcase_add_test(tc, test_R10_5_unrestrict_after_pickup);
    tcase_add_test(tc, test_R10_5_unrestrict_after_forced_fumble);
    tcase_add_test(tc, test_R10_4_def_hand);
    tcase_add_test(tc, test_R10_4_unaffordable_card);
    tcase_add_test(tc, test_R10_4_card_outside_action_phase);
    tcase_add_test(tc, test_R10_4_played_card_gone_for_good);
    tcase_add_test(tc, test_R10_4_card_clears_handoff_mark);
    tcase_add_test(tc, test_R10_4_undo_every_card_action);
    tcase_add_test(tc, test_R10_1_hash_covers_pe_and_hands);
    tcase_add_test(tc, test_R12_select_card);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
