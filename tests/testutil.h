/* Shared helpers for the Check test programs. Each tests/test_*.c file is
 * its own program: it defines `Suite *make_suite(void)` and includes
 * TEST_MAIN at the end (see below). */
#ifndef BALL_TESTUTIL_H
#define BALL_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include "ball.h"

/* A game at the given BPN (NULL: the standard start) under default rules
 * (aborts the test on error). */
ball_game *tu_game(const char *bpn);
/* Same with explicit end-zone depth and turn limit. */
ball_game *tu_game_rules(const char *bpn, int end_zone_depth, unsigned turn_limit);
/* Same under `rules` (set up with ball_rules_init()). */
ball_game *tu_game_with(const ball_rules *rules, const char *bpn);
/* Same under the ruleset text `rules_text` (ball_rules_from_text(), e.g.
 * TU_DECK); the card set it makes is freed once the game holds its copy. */
ball_game *tu_game_text(const char *rules_text, const char *bpn);
/* The BPN of a game, in a static-per-call buffer owned by the caller. */
void tu_bpn(ball_game *g, char out[BALL_BPN_MAX]);
/* The legal actions as texts sorted in byte order, joined by single spaces,
 * into a malloc'd string the caller frees. */
char *tu_legal(ball_game *g);
/* Legal actions whose text starts with `prefix`, sorted, space-joined. */
char *tu_legal_prefix(ball_game *g, const char *prefix);
/* The action of text `text` in the position of g; fails the test when the
 * text is not a legal action there. */
ball_action tu_action(ball_game *g, const char *text);
/* The result code of reading `text` as an action of g (BALL_OK,
 * BALL_E_NOTATION, BALL_E_ILLEGAL, ...). */
int tu_parse_rc(ball_game *g, const char *text);
/* Parses and applies an action text; fails the test on error. */
void tu_apply(ball_game *g, const char *text);
/* Applies each space-separated action text in turn. */
void tu_apply_all(ball_game *g, const char *texts);

/* Square index of a name such as "G5" (fails the test for a bad name). */
int tu_sq(const char *name);
/* Fixed-seed xorshift64 generator for the random-game tests. */
uint64_t tu_random(uint64_t *state);
/* Every legal action's text parses back to the same action, and no action
 * is listed twice. */
void tu_check_text_round_trip(ball_game *g, const ball_action *acts, int n);
/* ball_random_action() draws every one of the n legal actions `acts` for
 * exactly one of n evenly spaced 64-bit values. */
void tu_check_random_action(ball_game *g, const ball_action *acts, int n);
/* The generator's other modes agree with the list `acts` of n > 0 legal
 * actions: perft 1 and ball_legal_actions(g, NULL, 0) count n (COUNT),
 * ball_legal_action_at(g, i) is acts[i] (PICK) and out of range is an
 * error, ball_random_action() draws each action once (DRAW). */
void tu_check_generator_modes(ball_game *g, const ball_action *acts, int n);
/* Plays a (which must change the BPN: every decision does), checks that
 * undo restores the BPN and the hash exactly, and plays it again (the game
 * ends up after a). */
void tu_apply_undo_round_trip(ball_game *g, ball_action a);
/* The BPN of g read into `scratch` (a game under the same rules) writes
 * back the same text, with the same result and the same hash (the
 * incremental hash equals one computed from scratch). */
void tu_check_bpn_round_trip(ball_game *g, ball_game *scratch);
/* perft through the public API without bulk counting: every decision is
 * applied, recursed into and undone (N3). */
uint64_t tu_perft_by_apply(ball_game *g, int depth);

#ifdef BALL_EXPERIMENTAL
/* The network of the `len` bytes `f`, loaded with an empty message;
 * fails the test when refused. */
ball_net *tu_net_load_ok(const unsigned char *f, size_t len);
/* ball_net_load() refuses the `len` bytes `f` with BALL_E_ARG, *out NULL
 * and a message "net: ..." that contains `want`. */
void tu_net_refused(const unsigned char *f, size_t len, const char *want);
#endif

/* Sets up `alloc` (ball_allocator_init()) with the C library's functions
 * behind hooks that count the calls of malloc_fn and realloc_fn in
 * *calls (the user pointer). */
void tu_counting_allocator(ball_allocator *alloc, long *calls);

/* The deck of the card-mode tests (R10), hand numbers from 1, hand
 * indices from 0:
 *   ATK card1 Sprint  1 PE  gain 1 PA
 *       card2 Rally   0 PE  unrestrict ("again")
 *       card3 Surge   5 PE  gain 2 PA
 *   DEF card1 Dash    2 PE  gain 2 PA
 *       card2 Again   1 PE  unrestrict
 * so a full-hand BPN ends in `123/12`. */
#define TU_DECK "atk=Sprint:1:pa+1,Rally:0:again,Surge:5:pa+2 def=Dash:2:pa+2,Again:1:again"
/* The same deck built with the ball_cardset calls, every earning entry 0;
 * the caller frees it with ball_cardset_free(). */
ball_cardset *tu_deck(void);
/* 1 when the two card sets have the same earning table and the same hands
 * (names, costs, effects, amounts), read through the public calls. */
int tu_cardset_equal(const ball_cardset *a, const ball_cardset *b);

/* Assert the sorted legal actions equal `expected` (space-separated, byte
 * order). */
#define ck_legal(g, expected) do { char *got_ = tu_legal(g); \
    ck_assert_str_eq(got_, (expected)); free(got_); } while (0)
/* Assert the legal actions starting with `prefix` equal `expected`. */
#define ck_legal_prefix(g, prefix, expected) do { \
    char *got_ = tu_legal_prefix((g), (prefix)); \
    ck_assert_str_eq(got_, (expected)); free(got_); } while (0)
/* Assert the game's BPN. */
#define ck_bpn(g, expected) do { char b_[BALL_BPN_MAX]; tu_bpn((g), b_); \
    ck_assert_str_eq(b_, (expected)); } while (0)

/* An assertion that costs nothing when it holds (Check's ck_assert talks to
 * the parent process on every call, which dominates long loops). */
#define tu_require(cond) do { if (!(cond)) \
    ck_abort_msg("%s:%d: failed: %s", __FILE__, __LINE__, #cond); } while (0)

/* Standard main: runs make_suite() with Check and returns non-zero on any
 * failure. */
#define TEST_MAIN \
    int main(void) { \
        SRunner *sr = srunner_create(make_suite()); \
        srunner_run_all(sr, CK_NORMAL); \
        int failed = srunner_ntests_failed(sr); \
        srunner_free(sr); \
        return failed == 0 ? 0 : 1; \
    }

#endif
