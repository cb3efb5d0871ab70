/* SPDX-License-Identifier: MIT */
/*
 * selfplay — plays N games between two built-in players and reports
 * statistics: results (touchdowns per team, draws) with 95% confidence
 * intervals, game length in turns, decisions per game and per turn, the
 * branching factor (legal decisions at each decision), the time each
 * player took per decision, and the decisions played by kind.
 *
 *   selfplay [--games N] [--atk PLAYER] [--def PLAYER] [--swap] [--opening K]
 *            [--seed S] [--turn-limit T] [--depth-zone D] [--csv] [--record FILE]
 *
 * PLAYER is random, greedy or mcts with its settings (players.h), e.g.
 * `mcts:ms=100` (100 ms a decision) or `mcts:playouts=2000`, or a
 * sparring player, `alphabeta` or `turn` (sparring.h). The default is
 * 20 games of greedy ATK against random DEF, turn limit 100, seed 1. Game i
 * (from 1) seeds both players from S + i, so a run repeats exactly (an
 * MCTS player with a time budget excepted: how far it searches depends on
 * the machine). --csv prints one line per game instead of the table, with
 * a header line; the columns are listed in csv_header below. --record
 * writes the game record of every game (docs/records.md) to FILE, one
 * after the other, for `ball replay FILE` or any record reader.
 *
 * A match (docs/yardsticks.md): --swap plays the games in pairs with the
 * colours exchanged (games 2k-1 and 2k share seed S + k; the --atk player
 * plays DEF in the even games), and --opening K plays the first K turns
 * of each game with random decisions drawn from that seed, the same for
 * both games of a pair, so that deterministic players meet in different
 * positions. The table then ends with the match of the --atk player
 * against the --def player: wins, draws, losses, the score (wins + draws
 * / 2) with its 95% Wilson interval, the Elo difference 400 log10(s / (1 -
 * s)) with the interval's ends mapped the same way, and each player's CPU
 * time per decision with a choice.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "args.h"
#include "auto_games.h"
#include "ball.h"
#include "players.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Kinds of decisions outside card mode: BALL_MOVE ... BALL_UNPROTECT. */
#define NUM_KINDS 12

static const char *const kind_names[NUM_KINDS] = {
    "move", "dodge", "tactical_dodge", "block", "protect", "handoff",
    "short_pass", "long_pass", "end", "stand_up", "unblock", "unprotect",
};

/* Time a player spent choosing: wall clock and CPU, over all its decisions
 * and over those with a choice (2 or more legal decisions: a search
 * player plays a lone decision at once, so "100 ms a decision" is a figure
 * about these). */
struct think {
    unsigned long decisions, choices;
    double wall_ms, cpu_ms, choice_wall_ms, choice_cpu_ms;
};

/* What one game produced. */
struct game_stats {
    int result;              /* a ball_result */
    unsigned turns;          /* turns in which a decision was made */
    unsigned long decisions; /* decisions played */
    unsigned long legal_sum; /* sum over decisions of the legal count */
    int legal_max;           /* largest legal count met */
    unsigned long kinds[NUM_KINDS];
    struct think think[2];   /* time spent choosing, by team */
};

static double clock_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Adds one decision that took @p wall and @p cpu ms, among @p n legal. */
static void think_add(struct think *t, double wall, double cpu, int n)
{
    t->decisions++;
    t->wall_ms += wall;
    t->cpu_ms += cpu;
    if (n >= 2) {
        t->choices++;
        t->choice_wall_ms += wall;
        t->choice_cpu_ms += cpu;
    }
}

static void think_sum(struct think *into, const struct think *t)
{
    into->decisions += t->decisions;
    into->choices += t->choices;
    into->wall_ms += t->wall_ms;
    into->cpu_ms += t->cpu_ms;
    into->choice_wall_ms += t->choice_wall_ms;
    into->choice_cpu_ms += t->choice_cpu_ms;
}

static double mean(double sum, unsigned long n) { return n ? sum / (double)n : 0.0; }

/* Square root by Newton's method (the examples link without libm). */
static double root(double x)
{
    double r = x > 1 ? x : 1;
    if (x <= 0)
        return 0;
    for (int i = 0; i < 100; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* The Wilson score interval at 95% of a share k / n, in percent (k may
 * count draws as halves). */
static void wilson(double k, long n, double *lo, double *hi)
{
    const double z = 1.959964;
    double p = k / (double)n, z2n = z * z / (double)n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z * root(p * (1 - p) / (double)n + z2n / (4 * (double)n)) / (1 + z2n);
    *lo = 100 * (centre - half < 0 ? 0 : centre - half);
    *hi = 100 * (centre + half > 1 ? 1 : centre + half);
}

/* Natural logarithm of x > 0 (no libm): x = m 2^e with m in [1, 2), then
 * ln m = 2 atanh((m - 1) / (m + 1)) by its series. */
static double ln(double x)
{
    double m = x, t, t2, sum = 0, term;
    int e = 0;
    while (m >= 2) {
        m /= 2;
        e++;
    }
    while (m < 1) {
        m *= 2;
        e--;
    }
    t = (m - 1) / (m + 1);
    t2 = t * t;
    term = t;
    for (int k = 1; k < 200; k += 2) {
        sum += term / k;
        term *= t2;
    }
    return 2 * sum + e * 0.69314718055994530942;
}

/* The Elo difference of a score share s (0-1) as text: 400 log10(s / (1 -
 * s)), "+inf" / "-inf" at 1 and 0. */
static const char *elo_text(double s, char *buf, size_t len)
{
    if (s >= 1)
        snprintf(buf, len, "+inf");
    else if (s <= 0)
        snprintf(buf, len, "-inf");
    else
        snprintf(buf, len, "%+.0f", 400 * ln(s / (1 - s)) / 2.30258509299404568402);
    return buf;
}

struct options {
    long games;
    const char *names[2]; /* player names by team */
    unsigned long seed;
    unsigned turn_limit;
    int depth_zone;
    int csv;
    const char *record; /* file for the game records, or NULL */
    int swap;           /* games in pairs with the colours exchanged */
    unsigned opening;   /* turns of random decisions at the start */
};

static void usage(FILE *out)
{
    fputs("usage: selfplay [--games N] [--atk PLAYER] [--def PLAYER] [--swap]\n"
          "                [--opening K] [--seed S] [--turn-limit T] [--depth-zone D]\n"
          "                [--csv] [--record FILE]\n"
          "  PLAYER: " PLAYER_NAMES_HELP "\n"
          "  (mcts settings: playouts per decision, ms per decision, playout length in\n"
          "  turns, exploration; e.g. mcts:ms=100 or mcts:playouts=2000)\n"
          "  --swap: games in pairs with the colours exchanged; --opening K: the first\n"
          "  K turns of each game are random decisions from the game's seed\n", out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
    o->games = 20;
    o->names[BALL_ATK] = "greedy";
    o->names[BALL_DEF] = "random";
    o->seed = 1;
    o->turn_limit = AUTO_TURN_LIMIT;
    o->depth_zone = 1;
    o->csv = 0;
    o->record = NULL;
    o->swap = 0;
    o->opening = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long v = 0;
        if (strcmp(opt, "--csv") == 0 || strcmp(opt, "--swap") == 0) {
            *(opt[2] == 'c' ? &o->csv : &o->swap) = 1;
            continue;
        }
        if (strcmp(opt, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (val == NULL) {
            fprintf(stderr, "selfplay: %s needs a value\n", opt);
            return -1;
        }
        i++;
        if (strcmp(opt, "--record") == 0) {
            o->record = val;
            continue;
        }
        if (strcmp(opt, "--atk") == 0 || strcmp(opt, "--def") == 0) {
            o->names[opt[2] == 'a' ? BALL_ATK : BALL_DEF] = val;
            continue;
        }
        if (strcmp(opt, "--games") == 0)
            v = o->games = parse_number(val, 1, 1000000);
        else if (strcmp(opt, "--seed") == 0)
            v = (long)(o->seed = (unsigned long)parse_number(val, 0, 4294967295L));
        else if (strcmp(opt, "--turn-limit") == 0)
            o->turn_limit = (unsigned)(v = parse_number(val, 1, 1000000));
        else if (strcmp(opt, "--opening") == 0)
            o->opening = (unsigned)(v = parse_number(val, 0, 1000000));
        else if (strcmp(opt, "--depth-zone") == 0)
            o->depth_zone = (int)(v = parse_number(val, 1, 3));
        else {
            fprintf(stderr, "selfplay: unknown option '%s'\n", opt);
            return -1;
        }
        if (v < 0) {
            fprintf(stderr, "selfplay: bad value '%s' for %s\n", val, opt);
            return -1;
        }
    }
    return 0;
}

/* Plays one game to its end, the first @p opening turns with random
 * decisions from @p rng; returns BALL_OK or a negative ball_error. */
static int play_game(ball_game *g, player *players[2], unsigned opening, uint32_t rng,
                     struct game_stats *st)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int last_turn = 0;
    memset(st, 0, sizeof *st);
    while (ball_result(g) == BALL_ONGOING) {
        ball_action a;
        int side = ball_side(g), kind, rc;
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        if (n <= 0)
            return n < 0 ? n : BALL_E_ILLEGAL; /* an ongoing game always has one */
        if (ball_turn(g) != last_turn) {
            last_turn = ball_turn(g);
            st->turns++;
        }
        if ((unsigned)ball_turn(g) <= opening) {
            uint64_t r = (uint64_t)player_xorshift32(&rng) << 32 | player_xorshift32(&rng);
            rc = ball_random_action(g, r, &a);
        } else {
            double wall0 = clock_ms(CLOCK_MONOTONIC), cpu0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
            rc = player_choose(players[side], g, acts, n, &a);
            think_add(&st->think[side], clock_ms(CLOCK_MONOTONIC) - wall0,
                      clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0, n);
        }
        if (rc == BALL_OK)
            rc = ball_apply(g, a);
        if (rc != BALL_OK)
            return rc;
        st->decisions++;
        st->legal_sum += (unsigned long)n;
        if (n > st->legal_max)
            st->legal_max = n;
        kind = ball_action_kind(a);
        if (kind >= 1 && kind <= NUM_KINDS)
            st->kinds[kind - 1]++;
    }
    st->result = ball_result(g);
    return BALL_OK;
}

static const char *result_name(int result)
{
    return result == BALL_ATK_WON ? "ATK" : result == BALL_DEF_WON ? "DEF" : "draw";
}

static void csv_header(void)
{
    fputs("game,seed,atk,def,result,turns,decisions,decisions_per_turn,"
          "mean_branching,max_branching", stdout);
    for (int k = 0; k < NUM_KINDS; k++)
        printf(",%s", kind_names[k]);
    putchar('\n');
}

static void csv_row(long game, unsigned long seed, const char *const names[2],
                    const struct game_stats *st)
{
    printf("%ld,%lu,%s,%s,%s,%u,%lu,%.3f,%.3f,%d", game, seed, names[BALL_ATK],
           names[BALL_DEF], result_name(st->result), st->turns, st->decisions,
           (double)st->decisions / st->turns, (double)st->legal_sum / st->decisions,
           st->legal_max);
    for (int k = 0; k < NUM_KINDS; k++)
        printf(",%lu", st->kinds[k]);
    putchar('\n');
}

/* Running minimum, maximum and sum of one per-game measure. */
struct measure {
    double min, max, sum;
};

static void measure_add(struct measure *m, double v, int first)
{
    if (first || v < m->min)
        m->min = v;
    if (first || v > m->max)
        m->max = v;
    m->sum += v;
}

static void print_measure(const char *name, const struct measure *m, long games)
{
    printf("  %-22s %9.2f %9.2f %9.2f\n", name, m->sum / (double)games, m->min, m->max);
}

/* Appends the record of game i (its players and seed as tags) to out. */
static int write_record(FILE *out, ball_game *g, const char *const names[2], long i,
                        unsigned long seed)
{
    char event[BALL_TAG_TEXT_MAX];
    snprintf(event, sizeof event, "selfplay game %ld, seed %lu", i, seed);
    if (ball_game_set_tag(g, BALL_TAG_EVENT, event) != BALL_OK
        || ball_game_set_tag(g, BALL_TAG_ATK, names[BALL_ATK]) != BALL_OK
        || ball_game_set_tag(g, BALL_TAG_DEF, names[BALL_DEF]) != BALL_OK)
        return -1;
    int n = ball_record_write(g, NULL, 0);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    int ok = text && ball_record_write(g, text, (size_t)n + 1) == n
             && fprintf(out, "%s%s", i > 1 ? "\n" : "", text) >= 0;
    free(text);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct options o;
    player players[2];
    ball_rules rules;
    long wins[4] = {0}; /* by ball_result */
    unsigned long kinds[NUM_KINDS] = {0}, decisions = 0, legal_sum = 0;
    struct measure turns = {0, 0, 0}, per_game = {0, 0, 0}, per_turn = {0, 0, 0},
                   branching = {0, 0, 0};
    int legal_max = 0;
    struct think think[2]; /* by player: [0] the --atk one, [1] the --def one */
    long match[3] = {0, 0, 0}; /* the --atk player's wins, draws, losses */

    memset(think, 0, sizeof think);
    if (parse_options(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    for (int team = 0; team < 2; team++) {
        if (player_parse(o.names[team], 0, 1, &players[team]) != 0) {
            fprintf(stderr, "selfplay: unknown player '%s' (%s)\n", o.names[team],
                    PLAYER_NAMES_HELP);
            return 2;
        }
    }
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = o.turn_limit;
    rules.end_zone_depth = o.depth_zone;

    FILE *record = NULL;
    if (o.record && !(record = fopen(o.record, "w"))) {
        perror(o.record);
        return 1;
    }
    if (o.csv)
        csv_header();
    for (long i = 1; i <= o.games; i++) {
        struct game_stats st;
        ball_game *g = NULL;
        /* with --swap, games 2k-1 and 2k share a seed; the second one
         * exchanges the colours */
        long pair = o.swap ? (i + 1) / 2 : i;
        int swapped = o.swap && i % 2 == 0;
        unsigned long seed = (o.seed + (unsigned long)pair) & 0xffffffffUL;
        player *by_team[2] = {&players[swapped], &players[!swapped]};
        const char *names[2] = {o.names[swapped], o.names[!swapped]};
        uint32_t opening_rng = (uint32_t)(seed ^ 0x5bd1e995UL) ? (uint32_t)(seed ^ 0x5bd1e995UL) : 1u;
        char err[256];
        int rc = ball_game_new(&g, &rules, err, sizeof err);
        if (rc != BALL_OK) {
            fprintf(stderr, "selfplay: cannot create a game: %s\n", *err ? err : ball_strerror(rc));
            return 1;
        }
        /* Two different non-zero streams from one seed. */
        player_seed(&players[BALL_ATK], (uint32_t)seed);
        player_seed(&players[BALL_DEF], (uint32_t)(seed ^ 0x9e3779b9UL));
        rc = play_game(g, by_team, o.opening, opening_rng, &st);
        if (rc != BALL_OK) {
            fprintf(stderr, "selfplay: game %ld: %s\n", i,
                    *ball_errmsg(g) ? ball_errmsg(g) : ball_strerror(rc));
            ball_game_free(g);
            return 1;
        }
        if (record && write_record(record, g, names, i, seed) != 0) {
            fprintf(stderr, "selfplay: game %ld: cannot write its record to %s: %s\n", i, o.record,
                    *ball_errmsg(g) ? ball_errmsg(g) : "write error");
            ball_game_free(g);
            return 1;
        }
        ball_game_free(g);
        for (int team = 0; team < 2; team++)
            think_sum(&think[team == BALL_ATK ? swapped : !swapped], &st.think[team]);
        if (st.result == BALL_DRAW)
            match[1]++;
        else
            match[(st.result == BALL_ATK_WON) == !swapped ? 0 : 2]++;

        if (o.csv)
            csv_row(i, seed, names, &st);
        wins[st.result]++;
        decisions += st.decisions;
        legal_sum += st.legal_sum;
        if (st.legal_max > legal_max)
            legal_max = st.legal_max;
        for (int k = 0; k < NUM_KINDS; k++)
            kinds[k] += st.kinds[k];
        measure_add(&turns, st.turns, i == 1);
        measure_add(&per_game, (double)st.decisions, i == 1);
        measure_add(&per_turn, (double)st.decisions / st.turns, i == 1);
        measure_add(&branching, (double)st.legal_sum / st.decisions, i == 1);
    }
    player_free(&players[BALL_ATK]);
    player_free(&players[BALL_DEF]);
    if (record && fclose(record) != 0) {
        perror(o.record);
        return 1;
    }
    if (o.csv)
        return fflush(stdout) == 0 ? 0 : 1;

    if (o.swap)
        printf("selfplay: %ld games, %s vs %s, sides alternated, turn limit %u, end zone depth %d,"
               " seed %lu", o.games, o.names[BALL_ATK], o.names[BALL_DEF], o.turn_limit,
               o.depth_zone, o.seed);
    else
        printf("selfplay: %ld games, ATK %s vs DEF %s, turn limit %u, end zone depth %d, seed %lu",
               o.games, o.names[BALL_ATK], o.names[BALL_DEF], o.turn_limit, o.depth_zone, o.seed);
    if (o.opening)
        printf(", opening %u random turns", o.opening);
    printf("\n\n");
    printf("results                    games    share   95%% interval (Wilson)\n");
    {
        static const char *const labels[3] = {"ATK touchdowns", "DEF touchdowns", "draws"};
        static const int results[3] = {BALL_ATK_WON, BALL_DEF_WON, BALL_DRAW};
        for (int r = 0; r < 3; r++) {
            double lo, hi;
            wilson(wins[results[r]], o.games, &lo, &hi);
            printf("  %-20s %9ld %7.1f%%   %5.1f%% - %5.1f%%\n", labels[r], wins[results[r]],
                   100.0 * (double)wins[results[r]] / (double)o.games, lo, hi);
        }
    }
    {
        /* the match of the --atk player against the --def player */
        double score = (match[0] + match[1] / 2.0) / (double)o.games, lo, hi;
        char e[16], elo[16], ehi[16];
        wilson(match[0] + match[1] / 2.0, o.games, &lo, &hi);
        printf("\nmatch: %s against %s%s\n", o.names[0], o.names[1],
               o.swap ? ", sides alternated" : "");
        printf("  games                %9ld\n", o.games);
        printf("  wins draws losses    %9ld %ld %ld\n", match[0], match[1], match[2]);
        printf("  score                %8.1f%%   95%% interval %.1f%% - %.1f%% (Wilson)\n",
               100 * score, lo, hi);
        printf("  Elo difference       %9s   95%% interval %s - %s\n", elo_text(score, e, sizeof e),
               elo_text(lo / 100, elo, sizeof elo), elo_text(hi / 100, ehi, sizeof ehi));
        printf("  cpu ms a decision    %9.3f %.3f (with a choice: %s, %s)\n",
               mean(think[0].choice_cpu_ms, think[0].choices),
               mean(think[1].choice_cpu_ms, think[1].choices), o.names[0], o.names[1]);
    }
    printf("\nthinking time per decision (ms)   decisions      mean  mean cpu"
           "   with a choice      mean  mean cpu\n");
    for (int team = 0; team < 2; team++) {
        const struct think *t = &think[team];
        printf("  %s %-26s %9lu %9.3f %9.3f %15lu %9.3f %9.3f\n",
               o.swap ? (team == 0 ? "1st" : "2nd") : team == BALL_ATK ? "ATK" : "DEF",
               o.names[team], t->decisions,
               mean(t->wall_ms, t->decisions), mean(t->cpu_ms, t->decisions), t->choices,
               mean(t->choice_wall_ms, t->choices), mean(t->choice_cpu_ms, t->choices));
    }
    putchar('\n');
    printf("per game                      mean       min       max\n");
    print_measure("turns", &turns, o.games);
    print_measure("decisions", &per_game, o.games);
    print_measure("decisions per turn", &per_turn, o.games);
    print_measure("branching factor", &branching, o.games);
    printf("  (largest number of legal decisions met: %d; over all decisions: %.2f)\n\n",
           legal_max, (double)legal_sum / (double)decisions);
    printf("decisions by kind            count    share  per game\n");
    for (int k = 0; k < NUM_KINDS; k++)
        printf("  %-22s %9lu %7.1f%% %9.2f\n", kind_names[k], kinds[k],
               100.0 * (double)kinds[k] / (double)decisions, (double)kinds[k] / (double)o.games);
    printf("  %-22s %9lu\n", "total", decisions);
    return fflush(stdout) == 0 ? 0 : 1;
}
