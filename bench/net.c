/* The cost of the learned evaluation (ball_net_*, experimental):
 * nanoseconds per ball_net_evaluate() for hidden sizes 64 and 256 (and a
 * second hidden layer of 32), beside ball_observation_bits() alone, over
 * 1,000 positions of seeded random games; and the turn search's nodes per
 * second at a fixed node budget with the built-in evaluation and with the
 * net (one thread), the net evaluated incrementally from the last leaf
 * (the search's own path for ball_net_search_eval, libball/nnue/net.h) and in
 * full at every leaf (the same values through a caller's hook); the
 * incremental evaluation alone, over the positions in the order of their
 * games. Nets of random weights (the cost does not depend on
 * the values). Median of 5 rounds, wall and CPU time: the machine may be
 * shared. `make bench-net`. Not a test. */
#define _POSIX_C_SOURCE 200809L
#define BALL_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "bench_util.h"
#include "../libball/nnue/net.h" /* net_acc_evaluate(): the search's incremental path */
#include "../tests/crc32.h"      /* test_crc32(): the file's checksum */

#define N_POS 1000
#define ROUNDS 5

static void put32(unsigned char *p, uint32_t v)
{
    for (int b = 0; b < 4; b++)
        p[b] = (unsigned char)(v >> (8 * b));
}

/* A net file of random weights in [-1/16, 1/16] (docs/network-format.md). */
static ball_net *random_net(int h1, int h2, uint64_t seed)
{
    int input = ball_observation_size(0), last = h2 ? h2 : h1;
    size_t nw = (size_t)input * h1 + h1 + (h2 ? (size_t)h2 * h1 + h2 : 0) + last + 1;
    size_t len = 40 + 4 * nw + 4;
    unsigned char *f = malloc(len);
    uint32_t head[8] = {1, 1, 0, (uint32_t)input, (uint32_t)h1, (uint32_t)h2, 0, 0};
    ball_net *net = NULL;
    char err[256];
    if (f == NULL)
        return NULL;
    memcpy(f, "BALLNET\0", 8);
    for (int i = 0; i < 8; i++)
        put32(f + 8 + 4 * i, head[i]);
    for (size_t i = 0; i < nw; i++) {
        float w = (float)((double)(next_random(&seed) % 2049) / 16384.0 - 0.0625);
        uint32_t u;
        memcpy(&u, &w, 4);
        put32(f + 40 + 4 * i, u);
    }
    put32(f + len - 4, test_crc32(f, len - 4));
    if (ball_net_load(&net, f, len, err, sizeof err) != BALL_OK)
        fprintf(stderr, "bench-net: %s\n", err);
    free(f);
    return net;
}

static ball_game *pos[N_POS];

static void make_positions(void)
{
    uint64_t st = 12345;
    ball_game *g = NULL;
    ball_game_new(&g, NULL, NULL, 0);
    for (int i = 0; i < N_POS; i++) {
        for (int k = 0; k < 3; k++) {
            ball_action a;
            if (ball_result(g) != BALL_ONGOING) {
                ball_game_free(g);
                ball_game_new(&g, NULL, NULL, 0);
            }
            if (ball_random_action(g, next_random(&st), &a) == BALL_OK)
                ball_apply(g, a);
        }
        ball_game_clone(&pos[i], g);
    }
    ball_game_free(g);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static struct net_acc acc;

/* ns per call of evaluate (net), of the incremental evaluation (net and
 * incremental) or of the observation alone (net NULL). */
static void time_eval(const char *what, const ball_net *net, int incremental, int reps)
{
    double wall[ROUNDS], cpu[ROUNDS], sink = 0;
    uint8_t bits[(3171 + 7) / 8];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now(), c0 = cpu_now();
        net_acc_reset(&acc);
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N_POS; i++) {
                if (net && incremental) {
                    double v;
                    net_acc_evaluate(&acc, net, pos[i], &v);
                    sink += v;
                } else if (net) {
                    double v;
                    ball_net_evaluate(net, pos[i], &v);
                    sink += v;
                } else {
                    ball_observation_bits(pos[i], 0, bits, sizeof bits);
                    sink += bits[k % sizeof bits];
                }
            }
        double n = (double)reps * N_POS;
        wall[r] = (now() - t0) / n * 1e9;
        cpu[r] = (cpu_now() - c0) / n * 1e9;
    }
    printf("  %-34s %8.0f ns/call wall, %8.0f ns CPU (median of %d x %d calls)%s\n", what,
           median(wall, ROUNDS), median(cpu, ROUNDS), ROUNDS, reps * N_POS, sink == 12345.678 ? "!" : "");
}

/* The net through a caller's hook: the search evaluates it in full at
 * every leaf (it takes the incremental path for ball_net_search_eval
 * only). */
static double full_eval(void *net, const ball_game *game)
{
    double v = 0;
    ball_net_evaluate(net, game, &v);
    return v;
}

/* Nodes per second of the turn search from the start and 4 other
 * positions at a budget of `nodes`, the net as evaluation (in full at
 * every leaf when `full`) or not. */
static void time_search(const char *what, ball_net *net, int full, uint64_t nodes)
{
    double wall[ROUNDS], cpu[ROUNDS];
    uint64_t total = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now(), c0 = cpu_now();
        total = 0;
        for (int p = 0; p < 5; p++) {
            ball_search_config cfg;
            ball_search *s = NULL;
            ball_search_result res;
            ball_game *g = p == 0 ? NULL : pos[p * 97];
            ball_game *start = NULL;
            if (g == NULL) {
                ball_game_new(&start, NULL, NULL, 0);
                g = start;
            }
            ball_search_config_init(&cfg, sizeof cfg);
            cfg.nodes = nodes;
            cfg.hash_mb = 16;
            cfg.eval = BALL_EVAL_HAND; /* the baseline; a net replaces it */
            ball_search_new(&s, &cfg, NULL, 0);
            if (net)
                ball_search_set_eval(s, full ? full_eval : ball_net_search_eval, net);
            ball_search_result_init(&res, sizeof res);
            if (ball_result(g) == BALL_ONGOING && ball_search_run(s, g, &res) == BALL_OK)
                total += res.nodes;
            ball_search_free(s);
            ball_game_free(start);
        }
        double dt = now() - t0, dc = cpu_now() - c0;
        wall[r] = (double)total / dt;
        cpu[r] = (double)total / dc;
    }
    printf("  %-34s %10.0f nodes/s wall, %10.0f CPU (%llu nodes a round, median of %d)\n", what,
           median(wall, ROUNDS), median(cpu, ROUNDS), (unsigned long long)total, ROUNDS);
}

int main(int argc, char **argv)
{
    uint64_t nodes = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    ball_net *n64 = random_net(64, 0, 1), *n256 = random_net(256, 0, 2), *n256b = random_net(256, 32, 3);
    if (!n64 || !n256 || !n256b)
        return 1;
    make_positions();
    long set = 0;
    for (int i = 0; i < N_POS; i++) {
        uint8_t bits[(3171 + 7) / 8];
        ball_observation_bits(pos[i], 0, bits, sizeof bits);
        for (size_t k = 0; k < sizeof bits; k++)
            set += __builtin_popcount(bits[k]);
    }
    printf("bench-net: ball_net_evaluate() over %d positions (observation flags 0, %.1f of 3171 "
           "inputs set on average)\n", N_POS, (double)set / N_POS);
    time_eval("ball_observation_bits() alone", NULL, 0, 200);
    time_eval("net 3171-64-1", n64, 0, 100);
    time_eval("net 3171-64-1, incremental", n64, 1, 100);
    time_eval("net 3171-256-1", n256, 0, 40);
    time_eval("net 3171-256-1, incremental", n256, 1, 40);
    time_eval("net 3171-256-32-1", n256b, 0, 40);
    time_eval("net 3171-256-32-1, incremental", n256b, 1, 40);
    printf("bench-net: turn search, %llu nodes from 5 positions, 1 thread\n", (unsigned long long)nodes);
    time_search("built-in evaluation", NULL, 0, nodes);
    time_search("net 3171-64-1, incremental", n64, 0, nodes);
    time_search("net 3171-64-1, in full", n64, 1, nodes);
    time_search("net 3171-256-1, incremental", n256, 0, nodes);
    time_search("net 3171-256-1, in full", n256, 1, nodes);
    for (int i = 0; i < N_POS; i++)
        ball_game_free(pos[i]);
    ball_net_free(n64);
    ball_net_free(n256);
    ball_net_free(n256b);
    return 0;
}
