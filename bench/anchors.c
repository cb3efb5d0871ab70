#define _POSIX_C_SOURCE 200809L
/* The libball side of the chess anchor (make bench-anchors,
 * bench/anchors.py) and of the perft 6 instruction count (make
 * bench-callgrind). Uses the public API only.
 *
 *   anchors perft DEPTH [BPN]    bulk: ball_perft(), the last ply counted
 *   anchors leaves DEPTH [BPN]   make every leaf: every decision down to
 *                                DEPTH listed, applied and undone, leaves too
 *
 * Prints "<leaves> leaves <wall> s wall <cpu> s cpu", timed inside the
 * process around the measured function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "bench_util.h"

/* Kept whole and under their names for callgrind's --toggle-collect. */
#if defined(__GNUC__) && !defined(__clang__)
#define MEASURED __attribute__((noinline, noclone))
#elif defined(__GNUC__)
#define MEASURED __attribute__((noinline))
#else
#define MEASURED
#endif

/* perft by making every leaf: the decisions of the last ply are played
 * and taken back like the others, none is only counted. */
MEASURED static uint64_t make_every_leaf(ball_game *g, int depth)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    uint64_t count = 0;
    for (int i = 0; i < n; i++) {
        ball_apply_unchecked(g, acts[i]);
        count += depth > 1 ? make_every_leaf(g, depth - 1) : 1;
        ball_undo(g);
    }
    return count;
}

MEASURED static uint64_t bulk_perft(ball_game *g, int depth)
{
    uint64_t count = 0;
    return ball_perft(g, depth, &count) == BALL_OK ? count : 0;
}

int main(int argc, char **argv)
{
    int depth = argc > 2 ? atoi(argv[2]) : 0;
    int leaves = argc > 1 && strcmp(argv[1], "leaves") == 0;
    if (argc < 3 || argc > 4 || (!leaves && strcmp(argv[1], "perft") != 0) || depth < 1 || depth > 12) {
        fprintf(stderr, "usage: anchors perft|leaves DEPTH(1-12) [BPN]\n");
        return 2;
    }
    ball_game *g;
    char err[256];
    if (ball_game_new(&g, NULL, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "anchors: %s\n", err);
        return 1;
    }
    if ((argc == 4 && ball_position_from_text(g, argv[3]) != BALL_OK) || ball_history_reserve(g, 64) != BALL_OK) {
        fprintf(stderr, "anchors: %s\n", ball_errmsg(g));
        return 1;
    }
    double wall = now(), cpu = cpu_now();
    uint64_t n = leaves ? make_every_leaf(g, depth) : bulk_perft(g, depth);
    wall = now() - wall;
    cpu = cpu_now() - cpu;
    printf("%llu leaves %.6f s wall %.6f s cpu\n", (unsigned long long)n, wall, cpu);
    ball_game_free(g);
    return n ? 0 : 1;
}
