/* SPDX-License-Identifier: MIT */
/*
 * engine_searcher over the library's Monte-Carlo tree search (ball_mcts_*).
 *
 * ball_mcts_choose() runs a whole search in one call, so a `go` is run in
 * slices of at most `Slice` playouts, each a fresh tree from the position
 * searched; the root statistics of the slices (ball_mcts_root_decisions():
 * visits and mean reward per decision) are added up, and the decision with
 * the most visits over all slices is the answer. Between slices the
 * engine gets its `info` and the stop flag and the time limit are checked.
 * A budget of at most `Slice` playouts is one ball_mcts_choose() call,
 * seeded with Seed xor ball_hash(position): the in-process decision.
 * docs/protocol.md ("ball engine") documents this.
 */
#define _POSIX_C_SOURCE 200809L
#define BALL_EXPERIMENTAL /* ball_mcts_root_decisions() */

#include "engine_options.h"
#include "engine_searcher.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPT_SEED, OPT_PLAYOUTS, OPT_SLICE, OPT_EXPLORATION, OPT_TURNS, OPT_MAXNODES, N_OPT };

static const engine_option OPTIONS[N_OPT] = {
    {"Seed", ENGINE_OPT_SPIN, "1", "0", "4294967295", NULL},
    {"Playouts", ENGINE_OPT_SPIN, "1000", "1", "100000000", NULL},
    {"Slice", ENGINE_OPT_SPIN, "1000", "1", "10000000", NULL},
    {"Exploration", ENGINE_OPT_REAL, "0.3", "0", "100", NULL},
    {"PlayoutTurns", ENGINE_OPT_SPIN, "1", "0", "1000", NULL},
    {"MaxNodes", ENGINE_OPT_SPIN, "0", "0", "100000000", NULL},
};

/* Root statistics added up over the slices. */
struct root_stat {
    ball_action action;
    uint64_t visits;
    double reward; /* sum of visits * mean */
};

struct engine_searcher {
    double value[N_OPT];
    atomic_int stop;
    ball_mcts *mcts;            /* cached between slices and searches */
    ball_mcts_config mcts_cfg;  /* its settings */
    /* the work space of a run, here rather than on the stack of the
     * engine's search thread (a new thread per search: fewer fresh pages) */
    struct root_stat st[BALL_MAX_ACTIONS];
    ball_action acts[BALL_MAX_ACTIONS];
    uint32_t visits[BALL_MAX_ACTIONS];
    double values[BALL_MAX_ACTIONS];
};

static const char *mcts_name(void)
{
    /* The tool links the static library: its version is the header's. */
    return "libball mcts " BALL_VERSION_STRING;
}

static size_t mcts_options(const engine_option **out)
{
    *out = OPTIONS;
    return N_OPT;
}

static int mcts_new(engine_searcher **out, char *err, size_t errlen)
{
    engine_searcher *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < N_OPT; i++)
        s->value[i] = strtod(OPTIONS[i].def, NULL);
    atomic_init(&s->stop, 0);
    *out = s;
    return 0;
}

static void mcts_free(engine_searcher *s)
{
    if (s == NULL)
        return;
    ball_mcts_free(s->mcts);
    free(s);
}

static int mcts_set_option(engine_searcher *s, const char *name, const char *value,
                           char *err, size_t errlen)
{
    int k = engine_option_find(OPTIONS, N_OPT, name, err, errlen);
    unsigned long long u;
    double v;
    if (k < 0)
        return -1;
    if (OPTIONS[k].type == ENGINE_OPT_SPIN) {
        if (engine_option_spin(&OPTIONS[k], value, &u, err, errlen) < 0)
            return -1;
        v = (double)u;
    } else if (engine_option_real(&OPTIONS[k], value, &v, err, errlen) < 0) {
        return -1;
    }
    s->value[k] = v;
    return 0;
}

static void mcts_new_game(engine_searcher *s)
{
    (void)s; /* every search starts from a fresh tree: nothing to forget */
}

static void mcts_stop(engine_searcher *s)
{
    atomic_store(&s->stop, 1);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The cached searcher, made again when its budget or settings change. */
static int slice_searcher(engine_searcher *s, int playouts, int time_ms, char *err, size_t errlen)
{
    ball_mcts_config cfg;
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = playouts;
    cfg.time_ms = time_ms;
    cfg.exploration = s->value[OPT_EXPLORATION];
    cfg.playout_turns = (int)s->value[OPT_TURNS];
    cfg.max_nodes = (int)s->value[OPT_MAXNODES];
    if (s->mcts != NULL && cfg.playouts == s->mcts_cfg.playouts &&
        cfg.time_ms == s->mcts_cfg.time_ms && cfg.exploration == s->mcts_cfg.exploration &&
        cfg.playout_turns == s->mcts_cfg.playout_turns && cfg.max_nodes == s->mcts_cfg.max_nodes)
        return 0;
    ball_mcts_free(s->mcts);
    s->mcts = NULL;
    if (ball_mcts_new(&s->mcts, &cfg, err, errlen) < 0)
        return -1;
    s->mcts_cfg = cfg;
    return 0;
}

static int better(const struct root_stat *a, const struct root_stat *b)
{
    if (a->visits != b->visits)
        return a->visits > b->visits;
    return a->reward * (double)b->visits > b->reward * (double)a->visits;
}

/* The best lim->multipv entries of @p st (sorted in place, partially). */
static void fill_info(engine_info *info, struct root_stat *st, int n, int multipv)
{
    int k = n < multipv ? n : multipv;
    for (int i = 0; i < k; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (better(&st[j], &st[best]))
                best = j;
        struct root_stat t = st[i];
        st[i] = st[best];
        st[best] = t;
        engine_line *l = &info->lines[i];
        l->value = st[i].visits ? st[i].reward / (double)st[i].visits : 0.5;
        l->visits = st[i].visits;
        l->n_pv = 1;
        l->pv[0] = st[i].action;
    }
    info->n_lines = k;
}

static int mcts_run(engine_searcher *s, ball_game *game, const engine_limits *lim,
                        engine_info_fn info_fn, void *ud, engine_result *out, char *err,
                        size_t errlen)
{
    static const uint64_t GOLDEN = 0x9e3779b97f4a7c15u;
    struct root_stat *st = s->st;
    ball_action *acts = s->acts;
    uint32_t *visits = s->visits;
    double *values = s->values;
    int n_st = 0, multipv = lim->multipv < 1 ? 1 : lim->multipv;
    double t0 = now_ms();
    int64_t budget = 0; /* playouts in all; 0: none */
    uint64_t seed = (uint64_t)s->value[OPT_SEED] ^ ball_hash(game);

    atomic_store(&s->stop, 0);
    memset(out, 0, sizeof *out);
    if (multipv > ENGINE_MAX_MULTIPV)
        multipv = ENGINE_MAX_MULTIPV;
    if (ball_result(game) != BALL_ONGOING) {
        snprintf(err, errlen, "the game is over");
        return -1;
    }
    if (lim->nodes > 0)
        budget = lim->nodes;
    if (lim->playouts > 0 && (budget == 0 || lim->playouts < budget))
        budget = lim->playouts;
    if (budget == 0 && !lim->infinite && lim->movetime_ms == 0 && lim->depth == 0)
        budget = (int64_t)s->value[OPT_PLAYOUTS];

    int64_t done = 0, slices = 0;
    int64_t slice_max = (int64_t)s->value[OPT_SLICE];
    for (;;) {
        int64_t size = slice_max;
        int time_ms = 0;
        if (budget > 0 && !lim->infinite && budget - done < size)
            size = budget - done;
        if (lim->movetime_ms > 0 && !lim->infinite) {
            double left = (double)lim->movetime_ms - (now_ms() - t0);
            time_ms = left < 1 ? 1 : (int)left;
        }
        if (slice_searcher(s, (int)size, time_ms, err, errlen) < 0)
            return -1;
        ball_mcts_seed(s->mcts, seed + (uint64_t)slices * GOLDEN);
        ball_mcts_stats stats;
        ball_action chosen;
        ball_mcts_stats_init(&stats, sizeof stats);
        if (ball_mcts_choose(s->mcts, game, &chosen, &stats) < 0) {
            snprintf(err, errlen, "%s", ball_errmsg(game));
            return -1;
        }
        slices++;
        done += (int64_t)stats.playouts;
        int n = ball_mcts_root_decisions(s->mcts, acts, visits, values, BALL_MAX_ACTIONS);
        if (n <= 0) {
            /* An immediate touchdown or the only legal decision: no search. */
            out->best = chosen;
            out->info.depth = slices;
            out->info.nodes = (uint64_t)done;
            out->info.elapsed_ms = now_ms() - t0;
            out->info.n_lines = 1;
            out->info.lines[0].value = stats.value;
            out->info.lines[0].n_pv = 1;
            out->info.lines[0].pv[0] = chosen;
            if (info_fn != NULL)
                info_fn(ud, &out->info);
            if (lim->infinite) /* wait for stop, as the protocol asks */
                while (!atomic_load(&s->stop) && (info_fn == NULL || !info_fn(ud, NULL))) {
                    struct timespec d = {0, 2000000};
                    nanosleep(&d, NULL);
                }
            return 0;
        }
        if (n > BALL_MAX_ACTIONS)
            n = BALL_MAX_ACTIONS;
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (j < n_st && st[j].action != acts[i])
                j++;
            if (j == n_st) {
                st[n_st].action = acts[i];
                st[n_st].visits = 0;
                st[n_st].reward = 0;
                n_st++;
            }
            st[j].visits += visits[i];
            st[j].reward += values[i] * visits[i];
        }
        fill_info(&out->info, st, n_st, multipv);
        out->info.depth = slices;
        out->info.nodes = (uint64_t)done;
        out->info.elapsed_ms = now_ms() - t0;
        out->best = out->info.lines[0].pv[0];
        int stop = 0;
        if (info_fn != NULL && info_fn(ud, &out->info))
            stop = 1;
        if (atomic_load(&s->stop))
            stop = 1;
        if (!lim->infinite) {
            if (budget > 0 && done >= budget)
                stop = 1;
            if (lim->depth > 0 && slices >= lim->depth)
                stop = 1;
            if (lim->movetime_ms > 0 && now_ms() - t0 >= (double)lim->movetime_ms)
                stop = 1;
        }
        if (stop)
            return 0;
    }
}

const engine_searcher_kind engine_searcher_mcts = {
    "mcts", mcts_name, mcts_options, mcts_new, mcts_free, mcts_set_option, mcts_new_game, mcts_run, mcts_stop,
};
