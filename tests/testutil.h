/* Shared helpers for the Check test programs. Each tests/test_*.c file is
 * its own program: it defines `Suite *make_suite(void)` and includes
 * TEST_MAIN at the end (see below). */
#ifndef BALL_TESTUTIL_H
#define BALL_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include "ball.h"

/* A game at the given BPN under default rules (aborts the test on error). */
ball_game *tu_game(const char *bpn);
/* Same with explicit end-zone depth and turn limit. */
ball_game *tu_game_rules(const char *bpn, int end_zone_depth, unsigned turn_limit);
/* The BPN of a game, in a static-per-call buffer owned by the caller. */
void tu_bpn(ball_game *g, char out[BALL_BPN_MAX]);
/* The legal actions as texts sorted in byte order, joined by single spaces,
 * into a malloc'd string the caller frees. */
char *tu_legal(ball_game *g);
/* Legal actions whose text starts with `prefix`, sorted, space-joined. */
char *tu_legal_prefix(ball_game *g, const char *prefix);
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
/* Plays a, checks that undo restores the BPN and the hash exactly, and
 * plays it again (the game ends after a). */
void tu_apply_undo_round_trip(ball_game *g, ball_action a);

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
