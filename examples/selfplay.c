/*
 * selfplay — plays N games between two built-in players and reports
 * statistics: results (touchdowns per team, draws), game length in turns,
 * decisions per game and per turn, the branching factor (legal decisions
 * at each decision), and the decisions played by kind.
 *
 *   selfplay [--games N] [--atk random|greedy] [--def random|greedy]
 *            [--seed S] [--turn-limit T] [--depth-zone D] [--csv]
 *
 * The default is 20 games of greedy ATK against random DEF, turn limit
 * 100, seed 1. Game i (from 1) seeds both random generators from S + i, so
 * a run repeats exactly. --csv prints one line per game instead of the
 * table, with a header line; the columns are listed in csv_header below.
 */
#include "args.h"
#include "ball.h"
#include "players.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kinds of decisions outside card mode: BALL_MOVE ... BALL_UNPROTECT. */
#define NUM_KINDS 12

static const char *const kind_names[NUM_KINDS] = {
    "move", "dodge", "tactical_dodge", "block", "protect", "handoff",
    "short_pass", "long_pass", "end", "stand_up", "unblock", "unprotect",
};

/* What one game produced. */
struct game_stats {
    int result;              /* a ball_result */
    unsigned turns;          /* turns in which a decision was made */
    unsigned long decisions; /* decisions played */
    unsigned long legal_sum; /* sum over decisions of the legal count */
    int legal_max;           /* largest legal count met */
    unsigned long kinds[NUM_KINDS];
};

struct options {
    long games;
    const char *names[2]; /* player names by team */
    unsigned long seed;
    unsigned turn_limit;
    int depth_zone;
    int csv;
};

static void usage(FILE *out)
{
    fputs("usage: selfplay [--games N] [--atk random|greedy] [--def random|greedy]\n"
          "                [--seed S] [--turn-limit T] [--depth-zone D] [--csv]\n", out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
    o->games = 20;
    o->names[BALL_ATK] = "greedy";
    o->names[BALL_DEF] = "random";
    o->seed = 1;
    o->turn_limit = 100;
    o->depth_zone = 1;
    o->csv = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long v = 0;
        if (strcmp(opt, "--csv") == 0) {
            o->csv = 1;
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

/* Plays one game to its end; returns BALL_OK or a negative ball_error. */
static int play_game(ball_game *g, player players[2], struct game_stats *st)
{
    ball_action acts[BALL_MAX_ACTIONS];
    unsigned last_turn = 0;
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
        rc = player_choose(&players[side], g, acts, n, &a);
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

static void csv_row(long game, unsigned long seed, const struct options *o,
                    const struct game_stats *st)
{
    printf("%ld,%lu,%s,%s,%s,%u,%lu,%.3f,%.3f,%d", game, seed, o->names[BALL_ATK],
           o->names[BALL_DEF], result_name(st->result), st->turns, st->decisions,
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

    if (parse_options(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    for (int team = 0; team < 2; team++) {
        if (player_parse(o.names[team], 0, 1, &players[team]) != 0) {
            fprintf(stderr, "selfplay: unknown player '%s' (random or greedy)\n",
                    o.names[team]);
            return 2;
        }
    }
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = o.turn_limit;
    rules.end_zone_depth = o.depth_zone;

    if (o.csv)
        csv_header();
    for (long i = 1; i <= o.games; i++) {
        struct game_stats st;
        ball_game *g = NULL;
        unsigned long seed = (o.seed + (unsigned long)i) & 0xffffffffUL;
        int rc = ball_game_new(&g, &rules);
        if (rc != BALL_OK) {
            fprintf(stderr, "selfplay: cannot create a game: %s\n", ball_strerror(rc));
            return 1;
        }
        /* Two different non-zero streams from one seed. */
        players[BALL_ATK].rng = (uint32_t)seed ? (uint32_t)seed : 1u;
        players[BALL_DEF].rng = (uint32_t)(seed ^ 0x9e3779b9UL) ? (uint32_t)(seed ^ 0x9e3779b9UL) : 1u;
        rc = play_game(g, players, &st);
        if (rc != BALL_OK) {
            fprintf(stderr, "selfplay: game %ld: %s\n", i,
                    *ball_errmsg(g) ? ball_errmsg(g) : ball_strerror(rc));
            ball_game_free(g);
            return 1;
        }
        ball_game_free(g);

        if (o.csv)
            csv_row(i, seed, &o, &st);
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
    if (o.csv)
        return fflush(stdout) == 0 ? 0 : 1;

    printf("selfplay: %ld games, ATK %s vs DEF %s, turn limit %u, end zone depth %d, seed %lu\n\n",
           o.games, o.names[BALL_ATK], o.names[BALL_DEF], o.turn_limit, o.depth_zone, o.seed);
    printf("results                    games    share\n");
    printf("  ATK touchdowns       %9ld %7.1f%%\n", wins[BALL_ATK_WON],
           100.0 * (double)wins[BALL_ATK_WON] / (double)o.games);
    printf("  DEF touchdowns       %9ld %7.1f%%\n", wins[BALL_DEF_WON],
           100.0 * (double)wins[BALL_DEF_WON] / (double)o.games);
    printf("  draws                %9ld %7.1f%%\n\n", wins[BALL_DRAW],
           100.0 * (double)wins[BALL_DRAW] / (double)o.games);
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
