/* The cost of a format-2 network (docs/network-format.md, issue 45's
 * targets), counted by callgrind inside one function each
 * (scripts/bench-nnue.sh, `make bench-nnue`): instructions of a full
 * ball_net_evaluate(), and of a turn-search node with the hand-written
 * evaluation and with the network. The positions are the turn starts of
 * seeded random games; the searches run from them at a fixed node budget,
 * so the counts repeat. Also prints nodes a CPU second of both searches,
 * for the record (the machine may be shared). Not a test.
 *
 *   nnue NETFILE full|hand|net [NODES]
 *
 * prints "<units> <what>": evaluations, or search nodes. */
#define _POSIX_C_SOURCE 200809L
#define BALL_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ball.h"

#define N_POS 200

static ball_game *positions[N_POS];

/* Turn starts of seeded random games (turn limit 100), N_POS of them. */
static int make_positions(void)
{
    uint64_t seed = 1;
    int n = 0;
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    r.turn_limit = 100;
    while (n < N_POS) {
        ball_game *g;
        int side = -1;
        if (ball_game_new(&g, &r, NULL, 0) != BALL_OK)
            return -1;
        while (ball_result(g) == BALL_ONGOING && n < N_POS) {
            if (ball_side(g) != side && ball_turn(g) % 3 == 0 && ball_turn(g) > 2) {
                ball_game *c;
                if (ball_game_clone(&c, g) != BALL_OK)
                    return -1;
                positions[n++] = c;
            }
            side = ball_side(g);
            ball_action a;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            if (ball_random_action(g, seed, &a) != BALL_OK || ball_apply(g, a) != BALL_OK)
                break;
        }
        ball_game_free(g);
    }
    return 0;
}

/* Every position evaluated in full, 10 times: the number of evaluations. */
long eval_full(const ball_net *net);
__attribute__((noinline)) long eval_full(const ball_net *net)
{
    double v, sum = 0;
    for (int k = 0; k < 10; k++)
        for (int i = 0; i < N_POS; i++)
            if (ball_net_evaluate(net, positions[i], &v) == BALL_OK)
                sum += v;
    return sum == 12345.0 ? 0 : 10L * N_POS;
}

/* A search of @p nodes from each position: the nodes searched. */
long search_all(ball_search *s);
__attribute__((noinline)) long search_all(ball_search *s)
{
    long nodes = 0;
    ball_search_result r;
    for (int i = 0; i < N_POS; i += 4) {
        ball_search_result_init(&r, sizeof r);
        if (ball_search_run(s, positions[i], &r) == BALL_OK)
            nodes += (long)r.nodes;
    }
    return nodes;
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static ball_net *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    static unsigned char buf[64 << 20];
    char err[256];
    size_t len;
    ball_net *net = NULL;
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (ball_net_load(&net, buf, len, err, sizeof err) != BALL_OK)
        fprintf(stderr, "%s: %s\n", path, err);
    return net;
}

int main(int argc, char **argv)
{
    ball_net *net;
    ball_search *s;
    ball_search_config cfg;
    char err[256];
    long units;
    double t;
    if (argc < 3) {
        fprintf(stderr, "usage: nnue NETFILE full|hand|net [NODES]\n");
        return 2;
    }
    if ((net = load(argv[1])) == NULL || make_positions() != 0)
        return 1;
    if (strcmp(argv[2], "full") == 0) {
        printf("%ld evaluations\n", eval_full(net));
        return 0;
    }
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = argc > 3 ? strtoull(argv[3], NULL, 10) : 20000;
    cfg.hash_mb = 16;
    cfg.eval = BALL_EVAL_HAND; /* "hand"; "net" replaces it by the file's network */
    if (ball_search_new(&s, &cfg, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (strcmp(argv[2], "net") == 0)
        ball_search_set_eval(s, ball_net_search_eval, net);
    t = cpu_s();
    units = search_all(s);
    t = cpu_s() - t;
    printf("%ld nodes (%.0f a CPU second)\n", units, units / t);
    ball_search_free(s);
    ball_net_free(net);
    return 0;
}
