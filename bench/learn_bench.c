/* Benchmark of the learning interface (docs/learning.md, "Speed"): batched
 * stepping of 1,024 games of uniform random play on one core, in
 * decisions per second (one decision = one game stepped once), with
 * different sets of outputs bound; the caller's-indices path; and, for
 * comparison, the per-game loop (ball_random_action() + ball_apply() on
 * single games, the way a binding without the batch would step).
 *
 * Build and run (from the repository root, after `make B=build-learn lib`):
 *   cc -std=c11 -O3 -Iinclude -Ibench bench/learn_bench.c build-learn/libball.a -o build-learn/learn_bench
 *   build-learn/learn_bench [games=1024] [rules text]
 * Each figure is the median of 5 runs of about 0.5 s of CPU time after a
 * warm-up; rates are per CPU second of this process (the machine's other
 * load stretches wall time, much less CPU time). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "bench_util.h"

#define RUNS 5
#define RUN_SECONDS 0.5

static int n_games = 1024;
static ball_rules rules;

static ball_batch *make_batch(int flags)
{
    ball_batch *b;
    char err[256];
    if (ball_batch_new(&b, n_games, &rules, flags, err, sizeof err) != BALL_OK) {
        fprintf(stderr, "ball_batch_new: %s\n", err);
        exit(1);
    }
    return b;
}

/* What one measured configuration binds. */
typedef struct config {
    const char *name;
    int flags;       /* observation flags */
    unsigned outputs; /* bit o: output o bound */
} config;

#define OUT(o) (1u << (o))
#define SMALL (OUT(BALL_OUT_REWARDS) | OUT(BALL_OUT_DONE) | OUT(BALL_OUT_ACTIONS) | OUT(BALL_OUT_SIDE))

static void *buffers[BALL_OUT_COUNT];

static void bind(ball_batch *b, const config *c)
{
    size_t n = (size_t)n_games, obs = (size_t)ball_observation_size(c->flags);
    size_t sizes[BALL_OUT_COUNT] = {
        [BALL_OUT_OBS] = n * obs * 4, [BALL_OUT_OBS_BITS] = n * ((obs + 7) / 8),
        [BALL_OUT_MASK] = n * BALL_ACTION_SPACE, [BALL_OUT_MASK_BITS] = n * BALL_ACTION_MASK_BYTES,
        [BALL_OUT_REWARDS] = n * 8, [BALL_OUT_DONE] = n, [BALL_OUT_ACTIONS] = n * 4, [BALL_OUT_SIDE] = n,
    };
    for (int o = 0; o < BALL_OUT_COUNT; o++) {
        free(buffers[o]);
        buffers[o] = NULL;
        if (c->outputs & OUT(o)) {
            buffers[o] = aligned_alloc(64, (sizes[o] + 63) / 64 * 64);
            memset(buffers[o], 0, sizes[o]);
            if (ball_batch_set_output(b, o, buffers[o], sizes[o]) != BALL_OK) {
                fprintf(stderr, "%s\n", ball_batch_errmsg(b));
                exit(1);
            }
        }
    }
}

/* Decisions per second of random batched stepping, median of RUNS. */
static double batch_random(const config *c, double *games_ended_per_s)
{
    ball_batch *b = make_batch(c->flags);
    bind(b, c);
    ball_batch_reset(b, 1);
    for (int i = 0; i < 50; i++) /* warm-up */
        ball_batch_step(b, NULL, 0);
    double rates[RUNS], ends[RUNS];
    for (int r = 0; r < RUNS; r++) {
        long steps = 0, ended = 0;
        double t0 = cpu_now(), t;
        do {
            for (int i = 0; i < 20; i++, steps++)
                ended += ball_batch_step(b, NULL, 0);
            t = cpu_now() - t0;
        } while (t < RUN_SECONDS);
        rates[r] = (double)steps * n_games / t;
        ends[r] = (double)ended / t;
    }
    qsort(rates, RUNS, sizeof rates[0], cmp_double);
    qsort(ends, RUNS, sizeof ends[0], cmp_double);
    *games_ended_per_s = ends[RUNS / 2];
    ball_batch_free(b);
    return rates[RUNS / 2];
}

/* The caller's-indices path: batch B replays the indices that batch A
 * (same seed) drew; only B's steps are timed. */
static double batch_indices(const config *c)
{
    ball_batch *a = make_batch(c->flags), *b = make_batch(c->flags);
    int32_t *idx = malloc((size_t)n_games * sizeof *idx);
    ball_batch_set_output(a, BALL_OUT_ACTIONS, idx, (size_t)n_games * sizeof *idx);
    bind(b, c);
    ball_batch_reset(a, 1);
    ball_batch_reset(b, 1);
    double rates[RUNS];
    for (int r = 0; r < RUNS; r++) {
        long steps = 0;
        double spent = 0;
        while (spent < RUN_SECONDS) {
            ball_batch_step(a, NULL, 0);
            double t0 = cpu_now();
            if (ball_batch_step(b, idx, (size_t)n_games) < 0) {
                fprintf(stderr, "%s\n", ball_batch_errmsg(b));
                exit(1);
            }
            spent += cpu_now() - t0;
            steps++;
        }
        rates[r] = (double)steps * n_games / spent;
    }
    qsort(rates, RUNS, sizeof rates[0], cmp_double);
    free(idx);
    ball_batch_free(a);
    ball_batch_free(b);
    return rates[RUNS / 2];
}

/* The per-game loop: n single games, each stepped by its own calls of
 * ball_random_action() and ball_apply(), restarted when over. */
static double per_game_loop(int with_obs_mask)
{
    ball_game **g = malloc((size_t)n_games * sizeof *g);
    for (int i = 0; i < n_games; i++) {
        ball_game_new(&g[i], &rules, NULL, 0);
        ball_history_reserve(g[i], 1 << 16);
    }
    uint8_t obs[397], mask[BALL_ACTION_MASK_BYTES];
    uint64_t s = 1;
    double rates[RUNS];
    for (int r = 0; r < RUNS; r++) {
        long decisions = 0;
        double t0 = cpu_now(), t;
        do {
            for (int i = 0; i < n_games; i++) {
                ball_action a;
                ball_random_action(g[i], next_random(&s), &a);
                ball_apply(g[i], a);
                if (ball_result(g[i]) != BALL_ONGOING || ball_history_length(g[i]) >= (1 << 16))
                    ball_position_from_text(g[i], BALL_START_BPN);
                if (with_obs_mask) {
                    ball_observation_bits(g[i], 0, obs, sizeof obs);
                    ball_legal_mask(g[i], mask, sizeof mask, BALL_MASK_BITS);
                }
            }
            decisions += n_games;
            t = cpu_now() - t0;
        } while (t < RUN_SECONDS);
        rates[r] = (double)decisions / t;
    }
    qsort(rates, RUNS, sizeof rates[0], cmp_double);
    for (int i = 0; i < n_games; i++)
        ball_game_free(g[i]);
    free(g);
    return rates[RUNS / 2];
}

int main(int argc, char **argv)
{
    ball_cardset *cards = NULL;
    ball_rules_init(&rules, sizeof rules);
    if (argc > 1)
        n_games = atoi(argv[1]);
    if (argc > 2) {
        char err[256];
        if (ball_rules_from_text(&rules, &cards, argv[2], err, sizeof err) != BALL_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
    }
    printf("learn_bench: %d games, rules \"%s\", one core, median of %d runs\n\n", n_games,
           argc > 2 ? argv[2] : "", RUNS);
    static const config configs[] = {
        {"random, no output", 0, 0},
        {"random + rewards/done/actions/side", 0, SMALL},
        {"random + mask bits", 0, SMALL | OUT(BALL_OUT_MASK_BITS)},
        {"random + obs bits + mask bits", 0, SMALL | OUT(BALL_OUT_OBS_BITS) | OUT(BALL_OUT_MASK_BITS)},
        {"random + obs float32 + mask bits", 0, SMALL | OUT(BALL_OUT_OBS) | OUT(BALL_OUT_MASK_BITS)},
        {"random + obs float32 + mask bytes", 0, SMALL | OUT(BALL_OUT_OBS) | OUT(BALL_OUT_MASK)},
        {"random + obs grid+scalar planes f32 + mask bytes", BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES,
         SMALL | OUT(BALL_OUT_OBS) | OUT(BALL_OUT_MASK)},
    };
    printf("| %-50s | %14s | %12s |\n", "batched stepping", "decisions/s", "games/s");
    printf("|%s|%s|%s|\n", "----------------------------------------------------", "----------------",
           "--------------");
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
        double ends, rate = batch_random(&configs[k], &ends);
        printf("| %-50s | %14.0f | %12.0f |\n", configs[k].name, rate, ends);
        fflush(stdout);
    }
    config idx_plain = {"caller's indices, no output", 0, 0};
    config idx_bits = {"caller's indices + obs bits + mask bits", 0,
                       SMALL | OUT(BALL_OUT_OBS_BITS) | OUT(BALL_OUT_MASK_BITS)};
    printf("| %-50s | %14.0f | %12s |\n", idx_plain.name, batch_indices(&idx_plain), "");
    printf("| %-50s | %14.0f | %12s |\n", idx_bits.name, batch_indices(&idx_bits), "");
    printf("| %-50s | %14.0f | %12s |\n", "per-game loop (random_action + apply)", per_game_loop(0), "");
    printf("| %-50s | %14.0f | %12s |\n", "per-game loop + obs bits + mask bits", per_game_loop(1), "");
    for (int o = 0; o < BALL_OUT_COUNT; o++)
        free(buffers[o]);
    ball_cardset_free(cards);
    return 0;
}
