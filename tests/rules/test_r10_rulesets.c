/* R10 card rulesets: the ball_cardset calls and their errors, the text
 * form of a whole ruleset (ball_rules_from_text / ball_rules_to_text) and
 * its errors, the game's own copy of the cards, and card mode off by
 * default and on from the standard start.
 *
 * Expected values are derived by hand from docs/spec.md (R10.1: hands of
 * 0-9 cards, names of 1-23 letters, digits, '_' or '-', costs 0-999) and
 * the contracts in ball.h; the comment of each test says how. TU_DECK and
 * tu_deck(), the deck of the card tests, are described in testutil.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The standard start in card mode with the full hands of TU_DECK. */
#define DECK_START "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 123/12"

/* ------------------------------------------------------------------ */
/* the text form */

/* ball_rules_from_text: valid texts fill the rules and, in card mode, a
 * new card set named in rules.cards (the caller frees it). */
START_TEST(test_R10_1_rules_from_text_valid)
{
    ball_rules r;
    ball_cardset *c = NULL;
    char err[256] = "x";
    ball_rules_init(&r, sizeof r);
    /* empty: defaults, card mode off, no card set */
    c = (ball_cardset *)&r; /* must be overwritten */
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "", err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
    ck_assert_ptr_null(c);
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(r.end_zone_depth, 1);
    ck_assert_uint_eq(r.turn_limit, 0);
    ck_assert_uint_eq(r.flags, 0);
    ck_assert_uint_eq(r.size, sizeof r);
    /* rules without card words stay out of card mode; every field is
     * overwritten (a turn limit set before is gone) */
    r.turn_limit = 77;
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "zone=2", err, sizeof err), BALL_OK);
    ck_assert_ptr_null(c);
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(r.end_zone_depth, 2);
    ck_assert_uint_eq(r.turn_limit, 0);
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "zone=2 turns=100", err, sizeof err), BALL_OK);
    ck_assert_ptr_null(c);
    ck_assert_ptr_null(r.cards);
    ck_assert_int_eq(r.end_zone_depth, 2);
    ck_assert_uint_eq(r.turn_limit, 100);
    /* `cards`: card mode, zero table, empty hands */
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "cards", err, sizeof err), BALL_OK);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_eq(r.cards, c);
    ck_assert_int_eq(r.end_zone_depth, 1);
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        ck_assert_int_eq(ball_cardset_earn(c, e), 0);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_ATK), 0);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_DEF), 0);
    ball_cardset_free(c);
    /* every earning entry by name, in enum ball_earn order */
    ck_assert_int_eq(ball_rules_from_text(&r, &c,
                                          "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=4 "
                                          "earn.tactical=5 earn.block=6 earn.protect=7 earn.handoff=8 "
                                          "earn.short=9 earn.long=10 earn.standup=11 earn.unblock=12 "
                                          "earn.unprotect=999",
                                          err, sizeof err),
                     BALL_OK);
    ck_assert_ptr_eq(r.cards, c);
    for (int e = 0; e < BALL_EARN_COUNT - 1; e++)
        ck_assert_int_eq(ball_cardset_earn(c, e), e + 1);
    ck_assert_int_eq(ball_cardset_earn(c, BALL_EARN_UNPROTECT), BALL_MAX_CARD_PE);
    ball_cardset_free(c);
    /* the deck: the same as the one built with the ball_cardset calls */
    ball_cardset *want = tu_deck();
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "zone=3 " TU_DECK, err, sizeof err), BALL_OK);
    ck_assert_int_eq(r.end_zone_depth, 3);
    ck_assert(tu_cardset_equal(c, want));
    ck_assert_str_eq(ball_cardset_card_name(c, BALL_ATK, 2), "Surge");
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 1, BALL_CARD_EFFECT), BALL_EFFECT_UNRESTRICT);
    ck_assert_int_eq(ball_rules_check(&r, err, sizeof err), BALL_OK);
    ball_cardset_free(want);
    ball_cardset_free(c);
    /* limits: costs 0 and 999, pa+1 and pa+9, 9 cards, a 23-letter name
     * with '_' and '-' */
    ck_assert_int_eq(ball_rules_from_text(&r, &c,
                                          "def=a:0:pa+1,b:999:pa+9,c:5:again,d:1:pa+1,e:1:pa+1,f:1:pa+1,"
                                          "g:1:pa+1,h:1:pa+1,Abcdefghij_klmnop-12345:7:again",
                                          err, sizeof err),
                     BALL_OK);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_ATK), 0);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_DEF), BALL_MAX_HAND);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 0, BALL_CARD_COST), 0);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 0, BALL_CARD_AMOUNT), 1);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 1, BALL_CARD_COST), BALL_MAX_CARD_PE);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 1, BALL_CARD_EFFECT), BALL_EFFECT_GAIN_PA);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 1, BALL_CARD_AMOUNT), 9);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 2, BALL_CARD_EFFECT), BALL_EFFECT_UNRESTRICT);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_DEF, 2, BALL_CARD_AMOUNT), 0);
    ck_assert_str_eq(ball_cardset_card_name(c, BALL_DEF, 8), "Abcdefghij_klmnop-12345");
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_OK);
    ball_cardset_free(c); /* the game keeps its own copy */
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 511);
    ck_assert_int_eq(ball_hand(g, BALL_ATK), 0);
    ball_game_free(g);
    /* NULL arguments; rules not set up with ball_rules_init() */
    ck_assert_int_eq(ball_rules_from_text(NULL, &c, "", err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_from_text(&r, NULL, "", err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_from_text(&r, &c, NULL, NULL, 0), BALL_E_ARG);
    r.size = 0;
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "zone=2", err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "ball_rules_init"));
}
END_TEST

/* ball_rules_from_text: a bad word gives BALL_E_RULES (not BALL_E_RANGE)
 * and a message that quotes the word; no card set is made. The bad words
 * include the hand that would hold 10 cards and card fields out of their
 * ranges (R10.1). */
START_TEST(test_R10_1_rules_from_text_bad_words)
{
    static const char *const bad[] = {
        "earn.foo=1", "earn.move=1000", "earn.move=-1", "earn.move=", "earn.move", "earn.=1",
        "zone=4", "zone=0", "turns=x", "turns=-1", "turns=1000000000", "card", "cards=1", "xyz",
        "ATK=A:1:pa+1", "atk=", "atk=Sprint", "atk=Sprint:1", "atk=Sprint:1:pa+0", "atk=Sprint:1:pa+10",
        "atk=Sprint:1000:pa+1", "atk=Sprint:-1:pa+1", "atk=Sprint:01:pa+1", "atk=Sprint:x:pa+1",
        "atk=:1:pa+1", "atk=Spr!nt:1:pa+1", "atk=Sprint:1:again2", "atk=Sprint:1:pa+", "atk=Sprint:1:",
        "atk=Sprint:1:pa+1,", "atk=A:0:pa+1,,B:0:pa+1", "def=Abcdefghij_klmnop-123456:1:again",
        "def=a:1:pa+1,b:1:pa+1,c:1:pa+1,d:1:pa+1,e:1:pa+1,f:1:pa+1,g:1:pa+1,h:1:pa+1,i:1:pa+1,j:1:pa+1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ball_rules r;
        ball_cardset *c = NULL;
        char err[512] = "";
        char text[600];
        ball_rules_init(&r, sizeof r);
        snprintf(text, sizeof text, "earn.move=1 %s zone=2", bad[i]);
        int rc = ball_rules_from_text(&r, &c, text, err, sizeof err);
        ck_assert_msg(rc == BALL_E_RULES, "'%s' gave %d, expected BALL_E_RULES", text, rc);
        ck_assert_msg(strstr(err, bad[i]) != NULL, "message '%s' does not name '%s'", err, bad[i]);
        ck_assert_ptr_null(c);
    }
    /* a second hand for the same coach is refused too */
    ball_rules r;
    ball_cardset *c = NULL;
    char err[512] = "";
    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_rules_from_text(&r, &c, "atk=A:0:pa+1 atk=B:0:pa+1", err, sizeof err), BALL_E_RULES);
    ck_assert_ptr_nonnull(strstr(err, "atk=B:0:pa+1"));
    ck_assert_str_eq(ball_strerror(BALL_E_RULES), "invalid ruleset text");
}
END_TEST

/* Issue 23: a card of the rules text that cardset_card_check() refuses
 * gets its precise reason in the message (R10.1, R10.5), after the word
 * and its place; a word that is no card at all still gets the list of
 * words. */
START_TEST(test_R10_1_rules_from_text_card_reasons)
{
    static const struct {
        const char *word, *reason;
    } cases[] = {
        {"atk=Spr!nt:1:pa+1", "a card needs a name of 1-23 letters, digits, '_' or '-'"},
        {"atk=:1:pa+1", "a card needs a name of 1-23 letters"},
        {"def=Abcdefghij_klmnop-123456:1:again", "a card needs a name of 1-23 letters"},
        {"atk=Sprint:1000:pa+1", "a card needs a cost 0-999"},
        {"atk=Sprint:-1:pa+1", "a card needs a cost 0-999"},
        {"atk=Sprint:x:pa+1", "a card needs a cost 0-999"},
        {"atk=Sprint:1:pa+0", "a card needs an amount 1-9 for the effect pa+N"},
        {"atk=Sprint:1:pa+10", "a card needs an amount 1-9 for the effect pa+N"},
        {"atk=Sprint:1:pa+", "a card needs an amount 1-9 for the effect pa+N"},
        {"atk=Sprint:1:again2", "a card needs a known effect: pa+N"},
        {"atk=Sprint:1:", "a card needs a known effect: pa+N"},
        {"atk=A:1:again,B:2:pa+1,Ok:3:pa+1,B!:1:again", "a card needs a name of 1-23 letters"},
        {"def=a:1:pa+1,b:1:pa+1,c:1:pa+1,d:1:pa+1,e:1:pa+1,f:1:pa+1,g:1:pa+1,h:1:pa+1,i:1:pa+1,j:1:pa+1",
         "a hand holds at most 9 cards"},
        {"atk=Sprint", "(words: "},
        {"earn.foo=1", "(words: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ball_rules r;
        ball_cardset *c = NULL;
        char err[512] = "", text[600], want[600];
        ball_rules_init(&r, sizeof r);
        snprintf(text, sizeof text, "zone=2 %s", cases[i].word);
        ck_assert_int_eq(ball_rules_from_text(&r, &c, text, err, sizeof err), BALL_E_RULES);
        ck_assert_ptr_null(c);
        snprintf(want, sizeof want, "rules: bad word '%s' at character 8", cases[i].word);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "'%s': message '%s'", text, err);
        ck_assert_msg(strstr(err, cases[i].reason) != NULL, "'%s': message '%s' lacks '%s'", text, err,
                      cases[i].reason);
        if (cases[i].reason[0] != '(')
            ck_assert_msg(strstr(err, "(words: ") == NULL, "'%s': message '%s'", text, err);
    }
}
END_TEST

/* Canonical texts read back identically: text -> rules -> text, also
 * through a game (ball_game_rules() gives the game's own card set), and
 * text -> rules -> text -> rules gives the same rules. Only non-default
 * values are written, in a fixed order: zone, turns, the earning entries
 * in enum order, the ATK hand, the DEF hand; `cards` alone for card mode
 * without any of them. */
START_TEST(test_R10_1_rules_text_round_trip)
{
    char turns_max[64];
    snprintf(turns_max, sizeof turns_max, "zone=3 turns=%d", BALL_MAX_TURN - 1);
    const char *const canonical[] = {
        "",
        "zone=2",
        "turns=100",
        turns_max,
        "cards",
        "zone=2 turns=9 cards",
        "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=4 earn.tactical=5 earn.block=6 earn.protect=7 "
        "earn.handoff=8 earn.short=9 earn.long=10 earn.standup=11 earn.unblock=12 earn.unprotect=999",
        TU_DECK,
        "zone=3 turns=40 earn.dodge=1 earn.fumble=2 " TU_DECK,
        "def=Free:0:pa+1",
        "earn.standup=5 atk=Run:0:pa+3",
        "def=a:0:pa+1,b:999:pa+9,c:5:again,d:1:pa+1,e:1:pa+1,f:1:pa+1,g:1:pa+1,h:1:pa+1,"
        "Abcdefghij_klmnop-12345:7:again",
    };
    for (size_t i = 0; i < sizeof canonical / sizeof canonical[0]; i++) {
        const char *text = canonical[i];
        ball_rules r, again;
        ball_cardset *c = NULL, *c2 = NULL;
        char err[256], out[BALL_RULES_TEXT_MAX], out2[BALL_RULES_TEXT_MAX];
        ball_rules_init(&r, sizeof r);
        ck_assert_msg(ball_rules_from_text(&r, &c, text, err, sizeof err) == BALL_OK, "%s: %s", text, err);
        ck_assert_int_eq(ball_rules_to_text(&r, out, sizeof out), (int)strlen(text));
        ck_assert_str_eq(out, text);
        /* and back: the same rules */
        ball_rules_init(&again, sizeof again);
        ck_assert_int_eq(ball_rules_from_text(&again, &c2, out, err, sizeof err), BALL_OK);
        ck_assert_int_eq(again.end_zone_depth, r.end_zone_depth);
        ck_assert_uint_eq(again.turn_limit, r.turn_limit);
        ck_assert_uint_eq(again.flags, r.flags);
        ck_assert_int_eq(c2 != NULL, c != NULL);
        if (c)
            ck_assert(tu_cardset_equal(c, c2));
        /* through a game: its copy of the rules writes the same text */
        ball_game *g = NULL;
        ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_OK);
        ball_cardset_free(c);
        ball_cardset_free(c2);
        ball_rules got;
        ball_rules_init(&got, sizeof got);
        ck_assert_int_eq(ball_game_rules(g, &got), BALL_OK);
        ck_assert_int_eq(ball_rules_to_text(&got, out2, sizeof out2), (int)strlen(text));
        ck_assert_str_eq(out2, text);
        ball_game_free(g);
    }
    /* other spellings of a ruleset are written in the canonical form */
    static const struct { const char *in, *out; } forms[] = {
        {"  turns=5   zone=2 ", "zone=2 turns=5"},
        {"zone=1 turns=0", ""},
        {"earn.move=0", "cards"},
        {"cards earn.long=3 earn.move=2 cards", "earn.move=2 earn.long=3"},
        {"def=A:1:again atk=B:2:pa+3", "atk=B:2:pa+3 def=A:1:again"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        ball_rules r;
        ball_cardset *c = NULL;
        char out[BALL_RULES_TEXT_MAX];
        ball_rules_init(&r, sizeof r);
        ck_assert_int_eq(ball_rules_from_text(&r, &c, forms[i].in, NULL, 0), BALL_OK);
        ck_assert_int_eq(ball_rules_to_text(&r, out, sizeof out), (int)strlen(forms[i].out));
        ck_assert_str_eq(out, forms[i].out);
        ball_cardset_free(c);
    }
    /* a ruleset built in C writes a text that reads back to the same set */
    ball_cardset *deck = tu_deck(), *back = NULL;
    ck_assert_int_eq(ball_cardset_set_earn(deck, BALL_EARN_TACTICAL_DODGE, 4), BALL_OK);
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    r.end_zone_depth = 2;
    r.cards = deck;
    char out[BALL_RULES_TEXT_MAX];
    ck_assert_int_gt(ball_rules_to_text(&r, out, sizeof out), 0);
    ck_assert_str_eq(out, "zone=2 earn.tactical=4 " TU_DECK);
    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_rules_from_text(&r, &back, out, NULL, 0), BALL_OK);
    ck_assert(tu_cardset_equal(deck, back));
    ball_cardset_free(back);
    ball_cardset_free(deck);
}
END_TEST

/* ball_rules_to_text: BALL_RULES_TEXT_MAX always suffices (the longest
 * ruleset: every field at its maximum, two hands of 9 cards with 23-letter
 * names); a buffer one byte too small is BALL_E_BUFFER; NULL and an
 * invalid ruleset (what ball_rules_check() refuses) are BALL_E_ARG. */
START_TEST(test_R10_1_rules_to_text_errors)
{
    ball_cardset *c = NULL;
    ck_assert_int_eq(ball_cardset_new(&c), BALL_OK);
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        ck_assert_int_eq(ball_cardset_set_earn(c, e, BALL_MAX_CARD_PE), BALL_OK);
    for (int t = BALL_ATK; t <= BALL_DEF; t++)
        for (int i = 0; i < BALL_MAX_HAND; i++) {
            char name[BALL_CARD_NAME_MAX];
            snprintf(name, sizeof name, "Abcdefghij_klmnop-1234%d", i);
            ck_assert_int_eq(ball_cardset_add_card(c, t, name, BALL_MAX_CARD_PE, BALL_EFFECT_GAIN_PA, 9), i);
        }
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    r.end_zone_depth = 3;
    r.turn_limit = BALL_MAX_TURN - 1;
    r.cards = c;
    char buf[BALL_RULES_TEXT_MAX];
    int n = ball_rules_to_text(&r, buf, sizeof buf);
    ck_assert_int_gt(n, 0);
    ck_assert_int_lt(n, BALL_RULES_TEXT_MAX);
    ck_assert_int_eq((int)strlen(buf), n);
    ball_rules back;
    ball_cardset *c2 = NULL;
    ball_rules_init(&back, sizeof back);
    ck_assert_int_eq(ball_rules_from_text(&back, &c2, buf, NULL, 0), BALL_OK);
    ck_assert(tu_cardset_equal(c, c2));
    ck_assert_uint_eq(back.turn_limit, BALL_MAX_TURN - 1);
    ball_cardset_free(c2);
    /* the buffer bound */
    char *small = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_rules_to_text(&r, small, (size_t)n), BALL_E_BUFFER);
    ck_assert_int_eq(ball_rules_to_text(&r, small, 0), BALL_E_BUFFER);
    ck_assert_int_eq(ball_rules_to_text(&r, small, (size_t)n + 1), n);
    ck_assert_str_eq(small, buf);
    free(small);
    char tiny[1];
    ball_rules def;
    ball_rules_init(&def, sizeof def);
    ck_assert_int_eq(ball_rules_to_text(&def, tiny, sizeof tiny), 0); /* the empty text */
    ck_assert_str_eq(tiny, "");
    ck_assert_int_eq(ball_rules_to_text(&def, tiny, 0), BALL_E_BUFFER);
    /* NULL, invalid rulesets */
    ck_assert_int_eq(ball_rules_to_text(NULL, buf, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_to_text(&r, NULL, sizeof buf), BALL_E_ARG);
    r.end_zone_depth = 7;
    ck_assert_int_eq(ball_rules_to_text(&r, buf, sizeof buf), BALL_E_ARG);
    r.end_zone_depth = 1;
    r.flags = 1;
    ck_assert_int_eq(ball_rules_to_text(&r, buf, sizeof buf), BALL_E_ARG);
    r.flags = 0;
    r.size = 0;
    ck_assert_int_eq(ball_rules_to_text(&r, buf, sizeof buf), BALL_E_ARG);
    ball_cardset_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the ball_cardset calls */

/* A bad card ruleset cannot be built: each bad value is refused by the
 * ball_cardset call that would set it (BALL_E_RANGE; BALL_E_ARG for a
 * team that does not exist) and the set stays exactly as it was: it still
 * passes ball_rules_check() with an empty message and starts a game with
 * full hands. (When the cards were a public struct, these cases were
 * found by ball_rules_check(); the message of a bad card text is checked
 * in test_R10_1_rules_from_text_bad_words, the struct sizes in
 * test_struct_sizes.c.) */
START_TEST(test_R10_1_cardset_refuses_bad_cards)
{
    enum { N = 13 };
    for (int k = 0; k < N; k++) {
        ball_cardset *c = tu_deck(), *snap = tu_deck();
        int rc = 0, want = BALL_E_RANGE;
        switch (k) {
        case 0: /* a 10th card: the hand is full at BALL_MAX_HAND */
            for (int i = 3; i < BALL_MAX_HAND; i++) {
                ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "More", 1, BALL_EFFECT_GAIN_PA, 1), i);
                ck_assert_int_eq(ball_cardset_add_card(snap, BALL_ATK, "More", 1, BALL_EFFECT_GAIN_PA, 1), i);
            }
            rc = ball_cardset_add_card(c, BALL_ATK, "Tenth", 1, BALL_EFFECT_GAIN_PA, 1);
            break;
        case 1: rc = ball_cardset_add_card(c, BALL_ATK, "Neg", -1, BALL_EFFECT_GAIN_PA, 1); break;
        case 2: rc = ball_cardset_add_card(c, BALL_DEF, "Odd", 1, 7, 0); break;
        case 3: rc = ball_cardset_add_card(c, BALL_ATK, "Again", 0, BALL_EFFECT_UNRESTRICT, 1); break;
        case 4: rc = ball_cardset_add_card(c, BALL_ATK, "Zero", 0, BALL_EFFECT_GAIN_PA, 0); break;
        case 5: rc = ball_cardset_add_card(c, BALL_ATK, "Ten", 0, BALL_EFFECT_GAIN_PA, 10); break;
        case 6:
            rc = ball_cardset_add_card(c, BALL_DEF, "Dear", BALL_MAX_CARD_PE + 1, BALL_EFFECT_GAIN_PA, 1);
            break;
        case 7: rc = ball_cardset_set_earn(c, BALL_EARN_DODGE, BALL_MAX_CARD_PE + 1); break;
        case 8: rc = ball_cardset_set_earn(c, BALL_EARN_MOVE, -1); break;
        case 9: rc = ball_cardset_add_card(c, BALL_ATK, "", 1, BALL_EFFECT_GAIN_PA, 1); break;
        case 10:
            rc = ball_cardset_add_card(c, -1, "Nobody", 1, BALL_EFFECT_GAIN_PA, 1);
            want = BALL_E_ARG;
            break;
        case 11: /* 24 characters */
            rc = ball_cardset_add_card(c, BALL_DEF, "Abcdefghij_klmnop-123456", 1, BALL_EFFECT_GAIN_PA, 1);
            break;
        case 12: rc = ball_cardset_add_card(c, BALL_DEF, "Spr!nt", 1, BALL_EFFECT_GAIN_PA, 1); break;
        }
        ck_assert_msg(rc == want, "case %d: %d", k, rc);
        ck_assert_msg(tu_cardset_equal(c, snap), "case %d: the set changed", k);
        ball_rules r;
        ball_rules_init(&r, sizeof r);
        r.cards = c;
        char err[256] = "x";
        ck_assert_msg(ball_rules_check(&r, err, sizeof err) == BALL_OK, "case %d: %s", k, err);
        ck_assert_str_eq(err, "");
        ball_game *g = NULL;
        ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_OK);
        ck_assert_int_eq(ball_hand(g, BALL_ATK), (1 << ball_cardset_hand_size(c, BALL_ATK)) - 1);
        ck_assert_int_eq(ball_hand(g, BALL_DEF), 3);
        ball_game_free(g);
        ball_cardset_free(c);
        ball_cardset_free(snap);
    }
}
END_TEST

/* Issue item (1.0 contracts), the cardset calls: NULL sets and a bad team
 * are BALL_E_ARG; a full hand, a bad name, cost, effect or amount, or a
 * PE amount out of 0-999 are BALL_E_RANGE; an unknown earning entry is
 * BALL_E_ARG; the set is unchanged after every refusal. The readers give
 * BALL_E_ARG (NULL for a name) for a bad team, index or field. The
 * boundary values are accepted. */
START_TEST(test_R10_1_cardset_api_errors)
{
    ck_assert_int_eq(ball_cardset_new(NULL), BALL_E_ARG);
    ball_cardset_free(NULL); /* accepted, does nothing */
    ball_cardset *c = tu_deck(), *snap = tu_deck();
    /* NULL set */
    ck_assert_int_eq(ball_cardset_set_earn(NULL, BALL_EARN_MOVE, 1), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_earn(NULL, BALL_EARN_MOVE), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_add_card(NULL, BALL_ATK, "A", 0, BALL_EFFECT_GAIN_PA, 1), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_hand_size(NULL, BALL_ATK), BALL_E_ARG);
    ck_assert_ptr_null(ball_cardset_card_name(NULL, BALL_ATK, 0));
    ck_assert_int_eq(ball_cardset_card_value(NULL, BALL_ATK, 0, BALL_CARD_COST), BALL_E_ARG);
    /* a bad team */
    static const int teams[] = {-1, 2, 100, INT_MIN};
    for (size_t i = 0; i < sizeof teams / sizeof teams[0]; i++) {
        ck_assert_int_eq(ball_cardset_add_card(c, teams[i], "A", 0, BALL_EFFECT_GAIN_PA, 1), BALL_E_ARG);
        ck_assert_int_eq(ball_cardset_hand_size(c, teams[i]), BALL_E_ARG);
        ck_assert_ptr_null(ball_cardset_card_name(c, teams[i], 0));
        ck_assert_int_eq(ball_cardset_card_value(c, teams[i], 0, BALL_CARD_COST), BALL_E_ARG);
    }
    /* a NULL name */
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, NULL, 0, BALL_EFFECT_GAIN_PA, 1), BALL_E_ARG);
    /* bad names (R10.1: 1-23 letters, digits, '_' or '-') */
    static const char *const names[] = {"", "a b", "Spr!nt", "a:b", "a,b", "a=b", "caf\xc3\xa9",
                                        "Abcdefghij_klmnop-123456"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_msg(ball_cardset_add_card(c, BALL_DEF, names[i], 1, BALL_EFFECT_GAIN_PA, 1) == BALL_E_RANGE,
                      "name '%s'", names[i]);
    /* bad costs, effects and amounts */
    static const int costs[] = {-1, BALL_MAX_CARD_PE + 1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++)
        ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "A", costs[i], BALL_EFFECT_GAIN_PA, 1),
                         BALL_E_RANGE);
    static const int effects[] = {0, 3, -1, 255, INT_MAX};
    for (size_t i = 0; i < sizeof effects / sizeof effects[0]; i++)
        ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "A", 1, effects[i], 0), BALL_E_RANGE);
    static const int gain_amounts[] = {0, 10, -1, INT_MAX};
    for (size_t i = 0; i < sizeof gain_amounts / sizeof gain_amounts[0]; i++)
        ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "A", 1, BALL_EFFECT_GAIN_PA, gain_amounts[i]),
                         BALL_E_RANGE);
    static const int again_amounts[] = {1, -1, 9};
    for (size_t i = 0; i < sizeof again_amounts / sizeof again_amounts[0]; i++)
        ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "A", 1, BALL_EFFECT_UNRESTRICT, again_amounts[i]),
                         BALL_E_RANGE);
    /* earning entries and amounts */
    static const int entries[] = {-1, BALL_EARN_COUNT, 1000, INT_MIN};
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        ck_assert_int_eq(ball_cardset_set_earn(c, entries[i], 1), BALL_E_ARG);
        ck_assert_int_eq(ball_cardset_earn(c, entries[i]), BALL_E_ARG);
    }
    static const int pes[] = {-1, BALL_MAX_CARD_PE + 1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof pes / sizeof pes[0]; i++)
        ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_MOVE, pes[i]), BALL_E_RANGE);
    ck_assert(tu_cardset_equal(c, snap)); /* nothing changed */
    /* readers out of range */
    ck_assert_ptr_null(ball_cardset_card_name(c, BALL_ATK, 3));
    ck_assert_ptr_null(ball_cardset_card_name(c, BALL_ATK, -1));
    ck_assert_ptr_null(ball_cardset_card_name(c, BALL_DEF, 2));
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_ATK, 3, BALL_CARD_COST), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_ATK, -1, BALL_CARD_COST), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_ATK, 0, -1), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_ATK, 0, BALL_CARD_AMOUNT + 1), BALL_E_ARG);
    ck_assert_int_eq(ball_cardset_card_value(c, BALL_ATK, 0, BALL_CARD_AMOUNT), 1);
    /* a full hand: the 10th card is refused, the other hand still grows */
    for (int i = 3; i < BALL_MAX_HAND; i++)
        ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "More", 0, BALL_EFFECT_UNRESTRICT, 0), i);
    ball_cardset_free(snap);
    snap = tu_deck();
    for (int i = 3; i < BALL_MAX_HAND; i++)
        ck_assert_int_eq(ball_cardset_add_card(snap, BALL_ATK, "More", 0, BALL_EFFECT_UNRESTRICT, 0), i);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "Tenth", 0, BALL_EFFECT_UNRESTRICT, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_ATK), BALL_MAX_HAND);
    ck_assert(tu_cardset_equal(c, snap));
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "Third", 0, BALL_EFFECT_UNRESTRICT, 0), 2);
    ck_assert_int_eq(ball_cardset_hand_size(c, BALL_DEF), 3);
    ball_cardset_free(c);
    ball_cardset_free(snap);
    /* the boundary values are accepted */
    ck_assert_int_eq(ball_cardset_new(&c), BALL_OK);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "a", 0, BALL_EFFECT_GAIN_PA, 1), 0);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "Abcdefghij_klmnop-12345", BALL_MAX_CARD_PE,
                                           BALL_EFFECT_GAIN_PA, 9),
                     1);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_DEF, "_-9", 0, BALL_EFFECT_UNRESTRICT, 0), 2);
    ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_MOVE, BALL_MAX_CARD_PE), BALL_OK);
    ck_assert_int_eq(ball_cardset_earn(c, BALL_EARN_MOVE), BALL_MAX_CARD_PE);
    ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_MOVE, 0), BALL_OK);
    ck_assert_int_eq(ball_cardset_earn(c, BALL_EARN_MOVE), 0);
    ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_COUNT - 1, 1), BALL_OK);
    ball_cardset_free(c);
}
END_TEST

/* The game keeps its own copy of the card ruleset: changing or freeing the
 * caller's set, or freeing the original of a clone, changes nothing; the
 * set ball_game_rules() names is the game's own (valid while the game
 * lives, a different one for a clone) and can start another game. */
START_TEST(test_R10_1_ruleset_copied)
{
    ball_cardset *c = tu_deck();
    ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_MOVE, 3), BALL_OK);
    ball_rules r, got;
    ball_rules_init(&r, sizeof r);
    r.cards = c;
    ball_game *g = NULL, *k = NULL;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_OK);
    /* change the caller's set: another earning value, a 4th ATK card */
    ck_assert_int_eq(ball_cardset_set_earn(c, BALL_EARN_MOVE, 0), BALL_OK);
    ck_assert_int_eq(ball_cardset_add_card(c, BALL_ATK, "Late", 500, BALL_EFFECT_GAIN_PA, 1), 3);
    ball_rules_init(&got, sizeof got);
    ck_assert_int_eq(ball_game_rules(g, &got), BALL_OK);
    ck_assert_ptr_nonnull(got.cards);
    ck_assert_ptr_ne(got.cards, c);
    ck_assert_int_eq(ball_cardset_hand_size(got.cards, BALL_ATK), 3);
    ck_assert_int_eq(ball_cardset_card_value(got.cards, BALL_ATK, 0, BALL_CARD_COST), 1);
    ck_assert_int_eq(ball_cardset_earn(got.cards, BALL_EARN_MOVE), 3);
    ck_bpn(g, DECK_START);
    ball_cardset_free(c); /* the caller's set is gone */
    tu_apply(g, "E11-F10"); /* DEF move: +3 PE */
    ck_assert_int_eq(ball_pe(g, BALL_DEF), 3);
    ck_assert_int_eq(ball_game_clone(&k, g), BALL_OK);
    const ball_cardset *of_g = got.cards;
    ball_rules_init(&got, sizeof got);
    ck_assert_int_eq(ball_game_rules(k, &got), BALL_OK);
    ck_assert_ptr_ne(got.cards, of_g); /* the clone has its own copy */
    ball_game_free(g);
    ck_assert_str_eq(ball_cardset_card_name(got.cards, BALL_ATK, 0), "Sprint");
    ck_assert_int_eq(ball_pe(k, BALL_DEF), 3);
    ck_bpn(k, "7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/3 1 123/12");
    tu_apply(k, "I11-J10");
    ck_assert_int_eq(ball_pe(k, BALL_DEF), 6);
    /* the game's rules, cards included, start a new game */
    ball_game *h = NULL;
    ck_assert_int_eq(ball_game_new(&h, &got, NULL, 0), BALL_OK);
    ck_bpn(h, DECK_START);
    tu_apply(h, "E11-F10");
    ck_assert_int_eq(ball_pe(h, BALL_DEF), 3);
    ball_game_free(h);
    ball_game_free(k);
}
END_TEST

/* ------------------------------------------------------------------ */
/* card mode off and on */

/* R10: off by default. No PE, no hands, no pe+ or card actions, 7-field
 * BPN, and the perft of the standard start is the core one (55, 3238,
 * 16283; test_perft.c). */
START_TEST(test_R10_1_card_mode_off_by_default)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
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
    ck_assert_int_eq(tu_parse_rc(g, "pe+1"), BALL_E_ILLEGAL);
    ck_assert_int_eq(tu_parse_rc(g, "card1"), BALL_E_ILLEGAL);
    ck_bpn(g, BALL_START_BPN);
    static const uint64_t want[3] = {55, 3238, 16283};
    for (int d = 1; d <= 3; d++) {
        uint64_t n = 0;
        ck_assert_int_eq(ball_perft(g, d, &n), BALL_OK);
        ck_assert_uint_eq(n, want[d - 1]);
    }
    /* bad arguments */
    ck_assert_int_eq(ball_pe(NULL, BALL_ATK), BALL_E_ARG);
    ck_assert_int_eq(ball_pe(g, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_hand(NULL, BALL_DEF), BALL_E_ARG);
    ck_assert_int_eq(ball_hand(g, -1), BALL_E_ARG);
    ball_game_free(g);
    /* a text without card words is the same */
    g = tu_game_text("zone=1 turns=0", NULL);
    uint64_t n = 0;
    ck_assert_int_eq(ball_perft(g, 2, &n), BALL_OK);
    ck_assert_uint_eq(n, 3238);
    ball_game_free(g);
}
END_TEST

/* Card mode from the standard start: the 55 core actions plus pe+1 and
 * pe+2 (R10.2: DEF has 2 PA and no PE). With a 0-PE gain-PA card in DEF's
 * hand, card1 as well (R10.4): 58. */
START_TEST(test_R10_2_start_in_card_mode)
{
    ball_game *g = tu_game_text("cards", NULL);
    uint64_t n = 0;
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, 57);
    ck_legal_prefix(g, "pe", "pe+1 pe+2");
    ball_game_free(g);
    g = tu_game_text("def=Free:0:pa+1", NULL);
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, 58);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1 -/1");
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

Suite *make_suite(void)
{
    Suite *s = suite_create("r10_rulesets");
    TCase *tc = tcase_create("rulesets");
    tcase_add_test(tc, test_R10_1_rules_from_text_valid);
    tcase_add_test(tc, test_R10_1_rules_from_text_bad_words);
    tcase_add_test(tc, test_R10_1_rules_from_text_card_reasons);
    tcase_add_test(tc, test_R10_1_rules_text_round_trip);
    tcase_add_test(tc, test_R10_1_rules_to_text_errors);
    tcase_add_test(tc, test_R10_1_cardset_refuses_bad_cards);
    tcase_add_test(tc, test_R10_1_cardset_api_errors);
    tcase_add_test(tc, test_R10_1_ruleset_copied);
    tcase_add_test(tc, test_R10_1_card_mode_off_by_default);
    tcase_add_test(tc, test_R10_2_start_in_card_mode);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
