/* The experimental one-crossing calls (ball.h, "Experimental API"):
 * ball_apply_index(), ball_random_apply() and ball_random_playout(). Each is
 * compared with the same decisions played through the stable calls
 * (ball_legal_actions() + ball_apply(), ball_random_action() + ball_apply())
 * on a twin game: same BPN, hash and undo history after every step. The
 * playout's generator is written out here from docs/learning.md's
 * splitmix64, not taken from the library. Failures (range, NULL, game over)
 * leave the game as it was: BPN, hash, history length and every history
 * action. */
#define BALL_EXPERIMENTAL
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* splitmix64 as docs/learning.md prints it. */
static uint64_t ref_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* What must not change on a failed call. */
typedef struct {
    char bpn[BALL_BPN_MAX];
    uint64_t hash;
    int hist;
    ball_action acts[32768];
} snap;

static void take(ball_game *g, snap *s)
{
    tu_bpn(g, s->bpn);
    s->hash = ball_hash(g);
    s->hist = ball_history_length(g);
    ck_assert_int_le(s->hist, 32768);
    for (int i = 0; i < s->hist; i++)
        ck_assert_int_eq(ball_history_action(g, i, &s->acts[i]), BALL_OK);
}

/* Same position, same hash, same history, decision by decision. */
static void ck_same(ball_game *g, const snap *s)
{
    snap now;
    take(g, &now);
    ck_assert_str_eq(now.bpn, s->bpn);
    ck_assert_uint_eq(now.hash, s->hash);
    ck_assert_int_eq(now.hist, s->hist);
    for (int i = 0; i < s->hist; i++)
        ck_assert_uint_eq(now.acts[i], s->acts[i]);
}

static void ck_twins(ball_game *a, ball_game *b)
{
    snap s;
    take(b, &s);
    ck_same(a, &s);
}

/* ball_apply_index(i) plays entry i of ball_legal_actions()'s list: random
 * games under default and card rules, the twin applying list[i] with the
 * checked ball_apply(). */
START_TEST(test_apply_index_matches_list)
{
    static const char *const rules[] = {NULL, TU_DECK};
    for (int r = 0; r < 2; r++) {
        uint64_t rng = 12345 + (uint64_t)r;
        for (int game = 0; game < 6; game++) {
            ball_game *g = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
            ball_game *twin = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
            for (int k = 0; k < 400; k++) {
                ball_action list[BALL_MAX_ACTIONS];
                int n = ball_legal_actions(twin, list, BALL_MAX_ACTIONS);
                if (n == 0)
                    break;
                int i = (int)(tu_random(&rng) % (uint64_t)n);
                ck_assert_int_eq(ball_apply(twin, list[i]), BALL_OK);
                ck_assert_msg(ball_apply_index(g, i) == BALL_OK, "%s", ball_errmsg(g));
                ck_assert_str_eq(ball_errmsg(g), "");
                ball_action played;
                ck_assert_int_eq(ball_history_action(g, ball_history_length(g) - 1, &played), BALL_OK);
                ck_assert_uint_eq(played, list[i]);
            }
            ck_twins(g, twin);
            /* undone like any apply */
            int len = ball_history_length(g);
            for (int k = 0; k < len; k++) {
                ck_assert_int_eq(ball_undo(g), BALL_OK);
                ck_assert_int_eq(ball_undo(twin), BALL_OK);
            }
            ck_twins(g, twin);
            ball_game_free(g);
            ball_game_free(twin);
        }
    }
}
END_TEST

/* Out of range, NULL, game over: an error with a message, nothing changed. */
START_TEST(test_apply_index_errors)
{
    ball_game *g = tu_game(NULL);
    tu_apply_all(g, "E11-F10 F10-E9");
    snap s;
    take(g, &s);
    int n = ball_legal_actions(g, NULL, 0);
    ck_assert_int_gt(n, 0);
    const int bad[] = {-1, n, n + 1, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ball_apply_index(g, bad[i]), BALL_E_RANGE);
        ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "out of range"));
        ck_same(g, &s);
    }
    ck_assert_int_eq(ball_apply_index(NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_apply_index(g, n - 1), BALL_OK); /* the last one is in range */
    ck_assert_str_eq(ball_errmsg(g), "");
    ball_game_free(g);

    /* R11.1: a touchdown ends the game; nothing to index then */
    g = tu_game(NULL);
    uint64_t seed = 7;
    while (ball_result(g) == BALL_ONGOING)
        ck_assert_int_ge(ball_random_playout(g, ref_splitmix64(&seed), 1000000), 0);
    take(g, &s);
    ck_assert_int_eq(ball_apply_index(g, 0), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "game is over"));
    ck_same(g, &s);
    ball_game_free(g);
}
END_TEST

/* ball_random_apply(r) plays what ball_random_action(r) draws. */
START_TEST(test_random_apply_matches_draw)
{
    static const char *const rules[] = {NULL, TU_DECK};
    for (int r = 0; r < 2; r++) {
        uint64_t rng = 99 + (uint64_t)r;
        for (int game = 0; game < 6; game++) {
            ball_game *g = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
            ball_game *twin = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
            for (int k = 0; k < 400; k++) {
                uint64_t x = tu_random(&rng) * 0x9E3779B97F4A7C15ull;
                ball_action want, got = 0xdeadbeef;
                if (ball_random_action(twin, x, &want) != BALL_OK) {
                    ck_assert_int_eq(ball_random_apply(g, x, &got), BALL_E_RANGE);
                    ck_assert_uint_eq(got, 0xdeadbeef);
                    break;
                }
                ck_assert_int_eq(ball_apply(twin, want), BALL_OK);
                ck_assert_msg(ball_random_apply(g, x, k % 2 ? &got : NULL) == BALL_OK, "%s", ball_errmsg(g));
                if (k % 2)
                    ck_assert_uint_eq(got, want);
            }
            ck_twins(g, twin);
            ball_game_free(g);
            ball_game_free(twin);
        }
    }
}
END_TEST

START_TEST(test_random_apply_errors)
{
    ball_action a = 7;
    ck_assert_int_eq(ball_random_apply(NULL, 0, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_random_apply(NULL, 0, NULL), BALL_E_ARG);
    ck_assert_uint_eq(a, 7);
    ball_game *g = tu_game(NULL);
    uint64_t seed = 3;
    while (ball_result(g) == BALL_ONGOING)
        ck_assert_int_ge(ball_random_playout(g, ref_splitmix64(&seed), 1000000), 0);
    snap s;
    take(g, &s);
    ck_assert_int_eq(ball_random_apply(g, 0, &a), BALL_E_RANGE);
    ck_assert_int_eq(ball_random_apply(g, UINT64_MAX, NULL), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "game is over"));
    ck_assert_uint_eq(a, 7);
    ck_same(g, &s);
    ball_game_free(g);
}
END_TEST

/* The reference playout: decision k drawn with splitmix64 output k of the
 * seed, through ball_random_action() and the checked ball_apply(). */
static int ref_playout(ball_game *g, uint64_t seed, int max)
{
    uint64_t state = seed;
    int played = 0;
    ball_action a;
    while (played < max && ball_random_action(g, ref_splitmix64(&state), &a) == BALL_OK) {
        ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        played++;
    }
    return played;
}

/* Whole playouts (to the end: default rules end by a touchdown or the
 * turn limit of the rules text) and cut ones, from the start and from the
 * middle of a game, equal the reference loop; undone one by one back to
 * where they started. */
START_TEST(test_playout_matches_loop)
{
    static const char *const rules[] = {NULL, "turns=40", TU_DECK};
    for (int r = 0; r < 3; r++)
        for (uint64_t seed = 1; seed <= 12; seed++) {
            const int maxes[] = {INT_MAX, 0, 1, 17, 150};
            for (size_t m = 0; m < sizeof maxes / sizeof maxes[0]; m++) {
                ball_game *g = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
                ball_game *twin = rules[r] ? tu_game_text(rules[r], NULL) : tu_game(NULL);
                if (seed % 3 == 0) { /* from the middle of a game */
                    ck_assert_int_eq(ref_playout(g, seed * 1000, 9), 9);
                    ck_assert_int_eq(ref_playout(twin, seed * 1000, 9), 9);
                }
                snap start;
                take(g, &start);
                int want = ref_playout(twin, seed, maxes[m]);
                int got = ball_random_playout(g, seed, maxes[m]);
                ck_assert_msg(got >= 0, "%s", ball_errmsg(g));
                ck_assert_int_eq(got, want);
                ck_assert_str_eq(ball_errmsg(g), "");
                ck_twins(g, twin);
                if (maxes[m] == INT_MAX)
                    ck_assert_int_ne(ball_result(g), BALL_ONGOING); /* ends (no turn bound this early) */
                else
                    ck_assert_int_le(got, maxes[m]);
                /* the same seed from the same position: the same playout */
                for (int k = 0; k < got; k++)
                    ck_assert_int_eq(ball_undo(g), BALL_OK);
                ck_same(g, &start);
                ck_assert_int_eq(ball_random_playout(g, seed, maxes[m]), got);
                ck_twins(g, twin);
                ball_game_free(g);
                ball_game_free(twin);
            }
        }
}
END_TEST

START_TEST(test_playout_errors)
{
    ck_assert_int_eq(ball_random_playout(NULL, 1, 10), BALL_E_ARG);
    ball_game *g = tu_game(NULL);
    tu_apply(g, "E11-F10");
    snap s;
    take(g, &s);
    ck_assert_int_eq(ball_random_playout(g, 1, -1), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "-1"));
    ck_same(g, &s);
    ck_assert_int_eq(ball_random_playout(g, 1, INT_MIN), BALL_E_RANGE);
    ck_same(g, &s);
    ck_assert_int_eq(ball_random_playout(g, 1, 0), 0);
    ck_same(g, &s);
    /* over: nothing to play, not an error */
    ck_assert_int_gt(ball_random_playout(g, 5, INT_MAX), 0);
    ck_assert_int_ne(ball_result(g), BALL_ONGOING);
    take(g, &s);
    ck_assert_int_eq(ball_random_playout(g, 5, INT_MAX), 0);
    ck_assert_str_eq(ball_errmsg(g), "");
    ck_same(g, &s);
    ball_game_free(g);
}
END_TEST

/* Fuzz-style: seeds and cut points drawn at random, all three calls mixed
 * on one game, the twin following through the stable calls. */
START_TEST(test_mixed_random)
{
    uint64_t rng = 2026;
    for (int game = 0; game < 20; game++) {
        ball_game *g = tu_game(NULL), *twin = tu_game(NULL);
        for (int step = 0; step < 60 && ball_result(g) == BALL_ONGOING; step++) {
            uint64_t x = tu_random(&rng);
            ball_action list[BALL_MAX_ACTIONS], a;
            int n = ball_legal_actions(twin, list, BALL_MAX_ACTIONS);
            switch (x % 4) {
            case 0: {
                int i = (int)((x >> 8) % (uint64_t)(n + 2)) - 1; /* -1 and n are out of range */
                int rc = ball_apply_index(g, i);
                if (i < 0 || i >= n) {
                    ck_assert_int_eq(rc, BALL_E_RANGE);
                } else {
                    ck_assert_int_eq(rc, BALL_OK);
                    ck_assert_int_eq(ball_apply(twin, list[i]), BALL_OK);
                }
                break;
            }
            case 1:
                ck_assert_int_eq(ball_random_action(twin, x, &a), BALL_OK);
                ck_assert_int_eq(ball_apply(twin, a), BALL_OK);
                ck_assert_int_eq(ball_random_apply(g, x, NULL), BALL_OK);
                break;
            case 2: {
                int max = (int)((x >> 8) % 12);
                ck_assert_int_eq(ball_random_playout(g, x, max), ref_playout(twin, x, max));
                break;
            }
            default:
                if (ball_history_length(g) > 0) {
                    ck_assert_int_eq(ball_undo(g), BALL_OK);
                    ck_assert_int_eq(ball_undo(twin), BALL_OK);
                }
            }
            ck_twins(g, twin);
        }
        ball_game_free(g);
        ball_game_free(twin);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("crossings");
    TCase *tc = tcase_create("crossings");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_apply_index_matches_list);
    tcase_add_test(tc, test_apply_index_errors);
    tcase_add_test(tc, test_random_apply_matches_draw);
    tcase_add_test(tc, test_random_apply_errors);
    tcase_add_test(tc, test_playout_matches_loop);
    tcase_add_test(tc, test_playout_errors);
    tcase_add_test(tc, test_mixed_random);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
