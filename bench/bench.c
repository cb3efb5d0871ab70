#define _POSIX_C_SOURCE 200809L
/* libball benchmarks (make bench). Each figure runs after a warm-up, is
 * repeated, and reported as the median with the spread (min-max) of the
 * repetitions, with the wall time and the CPU time of the median
 * repetition. `bench --quick` runs one small repetition of each, for
 * instruction counting under callgrind (see docs/performance.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BALL_EXPERIMENTAL /* ball_random_apply(), ball_random_playout() */
#include "ball.h"
#include "bench_util.h"
#include "play.h" /* internal: only for the size of the state */

#define REPS 5

/* The functions whose instructions scripts/bench-callgrind.sh counts
 * (callgrind's --toggle-collect=NAME): kept whole and under their name
 * (noipa: not folded into an identical one either). */
#if defined(__GNUC__) && !defined(__clang__)
#define MEASURED __attribute__((noinline, noclone, noipa))
#elif defined(__GNUC__)
#define MEASURED __attribute__((noinline))
#else
#define MEASURED
#endif

/* A uniform choice among n by multiply-shift (Lemire): no division, whose
 * 40-odd cycles would be a tenth of a playout decision. */
static int pick(uint64_t *s, int n)
{
    return (int)(((unsigned __int128)next_random(s) * (uint64_t)n) >> 64);
}

/* One repetition: how much work, in how many wall and CPU seconds. */
typedef struct rep_time {
    double units, wall, cpu;
} rep_time;

/* Starts timing a repetition. */
static rep_time rep_start(void)
{
    rep_time t = {0, now(), cpu_now()};
    return t;
}

/* Ends a repetition of `units` units of work. */
static void rep_stop(rep_time *t, double units)
{
    t->units = units;
    t->wall = now() - t->wall;
    t->cpu = cpu_now() - t->cpu;
}

static int cmp_rate(const void *a, const void *b)
{
    const rep_time *x = a, *y = b;
    double rx = x->units / x->wall, ry = y->units / y->wall;
    return (rx > ry) - (rx < ry);
}

/* Prints the median and spread of the per-second rates (by wall time) of
 * n repetitions, divided by `scale`, with the wall and CPU seconds of the
 * median repetition. */
static void report(const char *what, const char *unit, rep_time *reps, int n, double scale)
{
    qsort(reps, (size_t)n, sizeof *reps, cmp_rate);
    const rep_time *mid = &reps[n / 2];
    int prec = scale == 1 ? 0 : 2; /* games/s are whole numbers */
    double lo = reps[0].units / reps[0].wall / scale, hi = reps[n - 1].units / reps[n - 1].wall / scale;
    printf("%-34s %10.*f %s%s/s  (min %.*f, max %.*f)  wall %.4f s, cpu %.4f s\n", what, prec,
           mid->units / mid->wall / scale, scale == 1e6 ? "M " : "", unit, prec, lo, prec, hi, mid->wall,
           mid->cpu);
}

/* perft without bulk counting: every leaf decision is applied and undone. */
MEASURED static uint64_t perft_full(ball_game *g, int depth)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    uint64_t count = 0;
    for (int i = 0; i < n; i++) {
        ball_apply_unchecked(g, acts[i]);
        count += depth > 1 ? perft_full(g, depth - 1) : 1;
        ball_undo(g);
    }
    return count;
}

static void bench_apply_undo(int reps, int depth)
{
    rep_time times[REPS];
    ball_game *g;
    ball_game_new(&g, NULL, NULL, 0);
    ball_history_reserve(g, 64);
    perft_full(g, 3); /* warm-up */
    for (int r = 0; r < reps; r++) {
        times[r] = rep_start();
        uint64_t n = perft_full(g, depth);
        rep_stop(&times[r], (double)n);
    }
    report("apply+undo (perft, no bulk)", "decisions", times, reps, 1e6);
    ball_game_free(g);
}

static void bench_perft_bulk(int reps, int depth)
{
    rep_time times[REPS];
    ball_game *g;
    ball_game_new(&g, NULL, NULL, 0);
    uint64_t n;
    ball_perft(g, 4, &n); /* warm-up */
    for (int r = 0; r < reps; r++) {
        times[r] = rep_start();
        ball_perft(g, depth, &n);
        rep_stop(&times[r], (double)n);
    }
    report("perft with bulk counting", "leaves", times, reps, 1e6);
    ball_game_free(g);
}

/* Positions sampled from random games, every 7th decision. */
#define SAMPLES 4096
static int sample_positions(ball_game **games)
{
    uint64_t seed = 12345;
    int n = 0;
    while (n < SAMPLES) {
        ball_game *g;
        ball_game_new(&g, NULL, NULL, 0);
        for (int d = 0; d < 400 && n < SAMPLES; d++) {
            ball_action acts[BALL_MAX_ACTIONS];
            int k = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
            if (k == 0)
                break;
            if (d % 7 == 0)
                ball_game_clone(&games[n++], g);
            ball_apply(g, acts[next_random(&seed) % (uint64_t)k]);
        }
        ball_game_free(g);
    }
    return n;
}

/* Every sampled position generated once, for instruction counting;
 * returns the number of positions. */
MEASURED static long generate_all(ball_game **games, int n)
{
    ball_action acts[BALL_MAX_ACTIONS];
    long total = 0;
    for (int i = 0; i < n; i++)
        total += ball_legal_actions(games[i], acts, BALL_MAX_ACTIONS) >= 0;
    return total;
}

/* Each sampled position is generated REPEAT times in a row: the figure is
 * the generator's own speed, not the cost of fetching 4096 game handles
 * from memory. */
#define REPEAT 8
static void bench_generation(int reps, int rounds)
{
    static ball_game *games[SAMPLES];
    rep_time times[REPS];
    ball_action acts[BALL_MAX_ACTIONS];
    int n = sample_positions(games);
    long total = 0;
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        rep_time t = rep_start();
        for (int k = 0; k < rounds; k++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < REPEAT; j++)
                    total += ball_legal_actions(games[i], acts, BALL_MAX_ACTIONS);
        rep_stop(&t, (double)rounds * n * REPEAT);
        if (r >= 0)
            times[r] = t;
    }
    report("legal-action generation", "positions", times, reps, 1e6);
    printf("%-34s %10.1f actions per position\n", "", (double)total / ((double)(reps + 1) * rounds * n * REPEAT));
    for (int i = 0; i < n; i++)
        ball_game_free(games[i]);
}

/* How a playout chooses its uniform random decisions: DRAW_ONE, LIST_ALL
 * below; DRAW_CHECKED the draw with the checked ball_apply(); DRAW_APPLY
 * ball_random_apply() (draw and apply in one call); ONE_CALL the whole
 * game in one ball_random_playout() (issue 29, "Fewer crossings"). */
enum { DRAW_ONE, LIST_ALL, DRAW_CHECKED, DRAW_APPLY, ONE_CALL, PLAYOUT_HOWS };
static const char *const PLAYOUT_NAME[PLAYOUT_HOWS] = {
    "random playouts (draw one)", "random playouts (list all)", "  draw + checked ball_apply",
    "  ball_random_apply", "  ball_random_playout"};

/* One game of uniform random decisions, then undone back to the start
 * (no allocation); returns the number of decisions. DRAW_ONE lets
 * ball_random_action() draw each decision, the way a playout loop should;
 * LIST_ALL lists every legal action and picks one. */
MEASURED static long playout(ball_game *g, uint64_t *seed, int how)
{
    ball_action acts[BALL_MAX_ACTIONS], a;
    long decisions = 0;
    int n;
    if (how == DRAW_ONE)
        while (ball_random_action(g, next_random(seed), &a) == BALL_OK) {
            ball_apply_unchecked(g, a);
            decisions++;
        }
    else if (how == DRAW_CHECKED)
        while (ball_random_action(g, next_random(seed), &a) == BALL_OK) {
            ball_apply(g, a);
            decisions++;
        }
    else if (how == DRAW_APPLY)
        while (ball_random_apply(g, next_random(seed), NULL) == BALL_OK)
            decisions++;
    else if (how == ONE_CALL)
        decisions = ball_random_playout(g, next_random(seed), 1 << 30);
    else
        while ((n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS)) > 0) {
            ball_apply_unchecked(g, acts[pick(seed, n)]);
            decisions++;
        }
    while (ball_undo(g) == BALL_OK)
        ;
    return decisions;
}

/* The playout games once more, each decision drawn, applied and (at the
 * end) undone through a function of its kind, so that callgrind can count
 * each kind apart (scripts/bench-callgrind.sh, "per kind of decision"):
 * a forced `end`, a move, hand-off or pass (the quick path), another
 * action-phase decision, a release-phase decision. The kinds come from a
 * first pass over the same games. Each wrapper adds its call to the
 * count: one instruction, a tail jump to the library's function. */
enum { KIND_END, KIND_QUICK, KIND_SLOW, KIND_RELEASE, KINDS };
static const char *const KIND_NAME[KINDS] = {"end", "quick", "slow", "release"};

static int decision_kind(ball_game *g, ball_action a)
{
    if (ball_phase(g) == BALL_PHASE_RELEASE)
        return KIND_RELEASE;
    int kind = ball_action_kind(a);
    if (kind == BALL_END && ball_legal_actions(g, NULL, 0) == 1)
        return KIND_END;
    return kind == BALL_MOVE || kind == BALL_HANDOFF || kind == BALL_SHORT_PASS || kind == BALL_LONG_PASS
               ? KIND_QUICK
               : KIND_SLOW;
}

#define KIND_WRAPPERS(k) \
    MEASURED static int draw_of_##k(ball_game *g, uint64_t r, ball_action *a) { return ball_random_action(g, r, a); } \
    MEASURED static int apply_of_##k(ball_game *g, ball_action a) { return ball_apply_unchecked(g, a); } \
    MEASURED static int undo_of_##k(ball_game *g) { return ball_undo(g); }
KIND_WRAPPERS(end)
KIND_WRAPPERS(quick)
KIND_WRAPPERS(slow)
KIND_WRAPPERS(release)
#undef KIND_WRAPPERS

/* Each kind's functions, by kind. */
static int (*const DRAW_OF[KINDS])(ball_game *, uint64_t, ball_action *) = {draw_of_end, draw_of_quick,
                                                                            draw_of_slow, draw_of_release};
static int (*const APPLY_OF[KINDS])(ball_game *, ball_action) = {apply_of_end, apply_of_quick, apply_of_slow,
                                                                 apply_of_release};
static int (*const UNDO_OF[KINDS])(ball_game *) = {undo_of_end, undo_of_quick, undo_of_slow, undo_of_release};

/* The callgrind workload "playout-kinds": prints the number of decisions
 * of each kind. */
static void playout_kinds(ball_game *g, int games)
{
    static int8_t kinds[1 << 20];
    long n = 0, count[KINDS] = {0};
    uint64_t seed = 777;
    ball_action a;
    for (int k = 0; k < games; k++) { /* first pass: the kinds */
        while (ball_random_action(g, next_random(&seed), &a) == BALL_OK && n < (long)sizeof kinds) {
            kinds[n++] = (int8_t)decision_kind(g, a);
            ball_apply_unchecked(g, a);
        }
        while (ball_undo(g) == BALL_OK)
            ;
    }
    seed = 777;
    long i = 0;
    for (int k = 0; k < games; k++) {
        long first = i;
        for (;;) {
            uint64_t r = next_random(&seed);
            if (ball_result(g) != BALL_ONGOING || i == n) /* the first pass's failed draw, not counted */
                break;
            DRAW_OF[kinds[i]](g, r, &a);
            APPLY_OF[kinds[i++]](g, a);
        }
        for (long j = i - 1; j >= first; j--)
            UNDO_OF[kinds[j]](g);
    }
    for (long j = 0; j < n; j++)
        count[kinds[j]]++;
    for (int k = 0; k < KINDS; k++)
        printf("%s %ld\n", KIND_NAME[k], count[k]);
}

/* The playouts of the benchmark, and of the callgrind workload. */
static ball_game *playout_game(void)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = 200;
    ball_game *g;
    ball_game_new(&g, &rules, NULL, 0);
    ball_history_reserve(g, 4096);
    return g;
}

static void bench_playouts(int reps, int games_per_rep, int how)
{
    rep_time times[REPS];
    uint64_t seed = 777;
    long decisions = 0;
    ball_game *g = playout_game();
    for (int r = -1; r < reps; r++) {
        rep_time t = rep_start();
        for (int k = 0; k < games_per_rep; k++)
            decisions += playout(g, &seed, how);
        rep_stop(&t, games_per_rep);
        if (r >= 0)
            times[r] = t;
    }
    report(PLAYOUT_NAME[how], "games", times, reps, 1);
    double per_game = (double)decisions / ((reps + 1) * games_per_rep);
    qsort(times, (size_t)reps, sizeof *times, cmp_rate);
    printf("%-34s %10.1f decisions per game, %.2f M decisions/s (median; cpu: %.2f M/s)\n", "", per_game,
           per_game * times[reps / 2].units / times[reps / 2].wall / 1e6,
           per_game * times[reps / 2].units / times[reps / 2].cpu / 1e6);
    ball_game_free(g);
}

/* The playouts through each way of `hows`, interleaved: each repetition
 * runs every way once, in turn, on the same games (seed 777), so that a
 * drift of the machine's speed hits them alike. */
static void bench_playouts_interleaved(int reps, int games_per_rep, const int *hows, int n)
{
    rep_time times[PLAYOUT_HOWS][REPS];
    long decisions[PLAYOUT_HOWS] = {0};
    ball_game *g = playout_game();
    for (int r = -1; r < reps; r++)
        for (int i = 0; i < n; i++) {
            uint64_t seed = 777;
            rep_time t = rep_start();
            for (int k = 0; k < games_per_rep; k++)
                decisions[i] += playout(g, &seed, hows[i]);
            rep_stop(&t, games_per_rep);
            if (r >= 0)
                times[i][r] = t;
        }
    for (int i = 0; i < n; i++) {
        report(hows[i] == DRAW_ONE ? "  draw + ball_apply_unchecked" : PLAYOUT_NAME[hows[i]], "games", times[i],
               reps, 1);
        double per_game = (double)decisions[i] / ((reps + 1) * games_per_rep);
        qsort(times[i], (size_t)reps, sizeof times[i][0], cmp_rate);
        printf("%-34s %10.1f decisions per game, %.2f M decisions/s (median; cpu: %.2f M/s)\n", "", per_game,
               per_game * times[i][reps / 2].units / times[i][reps / 2].wall / 1e6,
               per_game * times[i][reps / 2].units / times[i][reps / 2].cpu / 1e6);
    }
    ball_game_free(g);
}

/* Workloads for instruction counting (scripts/bench-callgrind.sh runs
 * them under callgrind, collecting only inside the named function). */
static int callgrind_workload(const char *name)
{
    ball_game *g;
    ball_game_new(&g, NULL, NULL, 0);
    ball_history_reserve(g, 64);
    if (strcmp(name, "apply") == 0) {
        printf("decisions %llu\n", (unsigned long long)perft_full(g, 4));
    } else if (strcmp(name, "perft") == 0) {
        uint64_t n;
        ball_perft(g, 5, &n);
        printf("leaves %llu\n", (unsigned long long)n);
    } else if (strcmp(name, "generation") == 0) {
        static ball_game *games[SAMPLES];
        int n = sample_positions(games);
        printf("positions %ld\n", generate_all(games, n));
        for (int i = 0; i < n; i++)
            ball_game_free(games[i]);
    } else if (strcmp(name, "playout-kinds") == 0) {
        ball_game *pg = playout_game();
        playout_kinds(pg, 200);
        ball_game_free(pg);
    } else if (strncmp(name, "playout", 7) == 0) { /* playout-kinds is above */
        static const char *const hows[PLAYOUT_HOWS] = {"playout", "playout-list", "playout-checked",
                                                       "playout-apply", "playout-call"};
        int how = 0;
        while (how < PLAYOUT_HOWS && strcmp(name, hows[how]) != 0)
            how++;
        if (how == PLAYOUT_HOWS) {
            fprintf(stderr, "bench: unknown workload '%s'\n", name);
            ball_game_free(g);
            return 2;
        }
        ball_game *pg = playout_game();
        uint64_t seed = 777;
        long decisions = 0;
        for (int k = 0; k < 200; k++)
            decisions += playout(pg, &seed, how);
        printf("decisions %ld\n", decisions);
        ball_game_free(pg);
    } else {
        fprintf(stderr, "bench: unknown workload '%s'\n", name);
        ball_game_free(g);
        return 2;
    }
    ball_game_free(g);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench [--quick] [apply|perft|generation|playouts]...\n"
                    "       bench --workload apply|perft|generation|playout|playout-list|playout-checked|playout-apply|\n"
                    "                        playout-call|playout-kinds   (for callgrind)\n");
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--workload") == 0)
        return callgrind_workload(argv[2]);
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int first = 1 + quick, all = argc <= first;
    int want[4] = {all, all, all, all};
    static const char *const names[4] = {"apply", "perft", "generation", "playouts"};
    for (int i = first; i < argc; i++) {
        int k = 0;
        while (k < 4 && strcmp(argv[i], names[k]) != 0)
            k++;
        if (k == 4) {
            usage();
            return 2;
        }
        want[k] = 1;
    }
    printf("libball %s benchmarks%s\n", ball_version_string(), quick ? " (quick)" : "");
    printf("state: %zu bytes per position, %zu bytes per undo record\n", sizeof(pos), sizeof(undo_rec));
    if (want[0])
        bench_apply_undo(quick ? 1 : REPS, quick ? 3 : 5);
    if (want[1])
        bench_perft_bulk(quick ? 1 : REPS, quick ? 4 : 6);
    if (want[2])
        bench_generation(quick ? 1 : REPS, quick ? 1 : 3);
    if (want[3]) {
        bench_playouts(quick ? 1 : REPS, quick ? 20 : 2000, DRAW_ONE);
        bench_playouts(quick ? 1 : REPS, quick ? 20 : 2000, LIST_ALL);
        printf("the same games through other calls, interleaved (docs/performance.md, \"Fewer crossings\"):\n");
        static const int hows[] = {DRAW_ONE, DRAW_CHECKED, DRAW_APPLY, ONE_CALL};
        bench_playouts_interleaved(quick ? 1 : REPS, quick ? 20 : 1000, hows, 4);
    }
    return 0;
}
