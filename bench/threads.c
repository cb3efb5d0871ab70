/* The turn search's threads (lazy SMP) measured the way that matters for
 * play: time to depth. For each position of an openings file (one BPN a
 * line, as share/openings.txt), a search to a fixed depth in turns on a
 * cleared table, with 1 and with 2 threads, in rounds whose order
 * alternates (1 then 2, 2 then 1) so that a change in the machine's load
 * falls on both. Prints, per thread count, the median over the rounds of
 * the summed wall time, CPU time and nodes (the helpers' included), then
 * the ratios: the speedup to depth (1-thread wall time / 2-thread wall
 * time) and the nodes per wall second. A warm-up search on each new
 * searcher first, so that the first touch of its table's pages is not
 * timed. `make bench-threads [THREADS_DEPTH=3 THREADS_POSITIONS=12
 * THREADS_ROUNDS=3]`. Needs 2 idle cores to mean anything. Not a test. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "bench_util.h"

#define MAX_POS 120
#define MAX_ROUNDS 15

struct totals {
    double wall, cpu;
    double nodes;
};

/* Reads up to @p max positions of @p path into @p out; returns how many,
 * or -1 with a message on stderr. */
static int read_positions(const char *path, ball_game **out, int max)
{
    char line[1024], err[256];
    FILE *f = fopen(path, "r");
    int n = 0, lineno = 0;
    if (f == NULL) {
        perror(path);
        return -1;
    }
    while (n < max && fgets(line, sizeof line, f) != NULL) {
        size_t len = strcspn(line, "\r\n");
        lineno++;
        line[len] = 0;
        if (len == 0 || line[0] == '#')
            continue;
        if (ball_game_new(&out[n], NULL, err, sizeof err) != BALL_OK) {
            fprintf(stderr, "bench-threads: %s\n", err);
            break;
        }
        if (ball_position_from_text(out[n], line) < 0) {
            fprintf(stderr, "bench-threads: %s:%d: %s\n", path, lineno, ball_errmsg(out[n]));
            ball_game_free(out[n]);
            break;
        }
        if (ball_legal_actions(out[n], NULL, 0) > 1)
            n++; /* a position with one decision is not searched */
        else
            ball_game_free(out[n]);
    }
    fclose(f);
    return n;
}

/* One round with @p threads threads: every position searched to @p depth
 * on a cleared table; returns 0, or -1 with a message on stderr. */
static int round_of(ball_game **pos, int n, int depth, int threads, struct totals *t)
{
    ball_search_config cfg;
    ball_search_result r;
    ball_search *s = NULL;
    char err[256];
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 0;
    cfg.depth = depth;
    cfg.threads = threads;
    if (ball_search_new(&s, &cfg, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "bench-threads: %s\n", err);
        return -1;
    }
    ball_search_result_init(&r, sizeof r);
    if (ball_search_run(s, pos[0], &r) != BALL_OK) { /* the warm-up */
        fprintf(stderr, "bench-threads: %s\n", ball_errmsg(pos[0]));
        ball_search_free(s);
        return -1;
    }
    memset(t, 0, sizeof *t);
    for (int i = 0; i < n; i++) {
        double w0, c0;
        ball_search_clear(s);
        w0 = now();
        c0 = cpu_now();
        if (ball_search_run(s, pos[i], &r) != BALL_OK) {
            fprintf(stderr, "bench-threads: position %d: %s\n", i + 1, ball_errmsg(pos[i]));
            ball_search_free(s);
            return -1;
        }
        t->wall += now() - w0;
        t->cpu += cpu_now() - c0;
        t->nodes += (double)r.nodes;
    }
    ball_search_free(s);
    return 0;
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    static ball_game *pos[MAX_POS];
    struct totals t[2][MAX_ROUNDS];
    double wall[2], cpu[2], nodes[2];
    int depth = argc > 2 ? atoi(argv[2]) : 3, npos = argc > 3 ? atoi(argv[3]) : 12;
    int rounds = argc > 4 ? atoi(argv[4]) : 3, n, rc = 0;
    if (argc < 2 || depth < 1 || depth > 8 || npos < 1 || npos > MAX_POS || rounds < 1 ||
        rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: threads OPENINGS [DEPTH 1-8] [POSITIONS 1-%d] [ROUNDS 1-%d]\n",
                MAX_POS, MAX_ROUNDS);
        return 2;
    }
    n = read_positions(argv[1], pos, npos);
    if (n <= 0)
        return 1;
    printf("bench-threads: turn search to depth %d, %d positions of %s, %d rounds\n", depth, n,
           argv[1], rounds);
    for (int k = 0; k < rounds && rc == 0; k++)
        for (int j = 0; j < 2 && rc == 0; j++) {
            int which = k % 2 ? 1 - j : j; /* 1, 2 then 2, 1 */
            rc = round_of(pos, n, depth, which + 1, &t[which][k]);
        }
    for (int j = 0; j < 2 && rc == 0; j++) {
        double x[MAX_ROUNDS];
        for (int k = 0; k < rounds; k++)
            x[k] = t[j][k].wall;
        wall[j] = median(x, rounds);
        for (int k = 0; k < rounds; k++)
            x[k] = t[j][k].cpu;
        cpu[j] = median(x, rounds);
        for (int k = 0; k < rounds; k++)
            x[k] = t[j][k].nodes;
        nodes[j] = median(x, rounds);
        printf("  %d thread%s  wall %8.3f s  cpu %8.3f s  nodes %12.0f  %6.2f M nodes/wall s\n",
               j + 1, j ? "s" : " ", wall[j], cpu[j], nodes[j], nodes[j] / wall[j] / 1e6);
    }
    if (rc == 0)
        printf("  speedup to depth %.2f, nodes per wall second x%.2f, cpu/wall with 2 threads %.2f\n",
               wall[0] / wall[1], (nodes[1] / wall[1]) / (nodes[0] / wall[0]), cpu[1] / wall[1]);
    for (int i = 0; i < n; i++)
        ball_game_free(pos[i]);
    return rc == 0 ? 0 : 1;
}
