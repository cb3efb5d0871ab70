/* SPDX-License-Identifier: MIT */
/* The workloads of the wasm / native comparison (make bench-web, see
 * docs/web.md). The same source is built natively and with emscripten;
 * bench/compare.mjs runs the two builds alternately.
 *
 *   speed perft DEPTH REPS   perft from the standard start, REPS times
 *   speed games N SEED REPS  N random games (turn limit 200) to their end,
 *                            each decision drawn by ball_random_action()
 *                            and played with ball_apply(), REPS times
 *
 * Prints one line per repetition: "perft DEPTH COUNT SECONDS" or
 * "games N DECISIONS SECONDS". The first repetitions of the wasm build
 * are slower: the engine compiles the hot functions again, optimised,
 * while they run (tier-up). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ball.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int perft(int depth)
{
    ball_game *g;
    uint64_t n = 0;
    if (ball_game_new(&g, NULL, NULL, 0) != BALL_OK)
        return 1;
    double t = now();
    int rc = ball_perft(g, depth, &n);
    t = now() - t;
    ball_game_free(g);
    if (rc != BALL_OK)
        return 1;
    printf("perft %d %llu %.6f\n", depth, (unsigned long long)n, t);
    fflush(stdout);
    return 0;
}

static int games(long n, uint64_t seed)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = 200;
    long decisions = 0;
    double t = now();
    for (long i = 0; i < n; i++) {
        ball_game *g;
        ball_action a;
        if (ball_game_new(&g, &rules, NULL, 0) != BALL_OK)
            return 1;
        while (ball_random_action(g, xorshift64(&seed), &a) == BALL_OK) {
            if (ball_apply(g, a) != BALL_OK) {
                ball_game_free(g);
                return 1;
            }
            decisions++;
        }
        ball_game_free(g);
    }
    printf("games %ld %ld %.6f\n", n, decisions, now() - t);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc == 4 && strcmp(argv[1], "perft") == 0) {
        for (int r = atoi(argv[3]); r > 0 && rc == 0; r--)
            rc = perft(atoi(argv[2]));
        return rc;
    }
    if (argc == 5 && strcmp(argv[1], "games") == 0) {
        for (int r = atoi(argv[4]); r > 0 && rc == 0; r--)
            rc = games(atol(argv[2]), strtoull(argv[3], NULL, 10) | 1);
        return rc;
    }
    fprintf(stderr, "usage: speed perft DEPTH REPS | speed games N SEED REPS\n");
    return 2;
}
