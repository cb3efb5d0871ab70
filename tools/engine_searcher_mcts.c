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

#include "engine_searcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct mcts_state {
    ball_mcts *mcts;            /* cached between slices and searches */
    ball_mcts_config mcts_cfg;  /* its settings */
    /* the work space of a run, here rather than on the stack of the
     * engine's search thread (a new thread per search: fewer fresh pages) */
    struct root_stat st[BALL_MAX_ACTIONS];
    ball_action acts[BALL_MAX_ACTIONS];
    uint32_t visits[BALL_MAX_ACTIONS];
    double values[BALL_MAX_ACTIONS];
    int n_st;          /* entries of st */
    /* the current run */
    double t0;         /* its start (ms) */
    int64_t budget;    /* playouts in all; 0: none */
    int64_t done, slices;
    uint64_t seed;
};

static void mcts_free(void *state)
{
    struct mcts_state *m = state;
    ball_mcts_free(m->mcts);
}

/* The cached searcher, made again when its budget or settings change. */
static int slice_searcher(const engine_searcher *s, struct mcts_state *m, int playouts,
                          int time_ms, char *err, size_t errlen)
{
    ball_mcts_config cfg;
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = playouts;
    cfg.time_ms = time_ms;
    cfg.exploration = engine_searcher_real(s, OPT_EXPLORATION);
    cfg.playout_turns = (int)engine_searcher_spin(s, OPT_TURNS);
    cfg.max_nodes = (int)engine_searcher_spin(s, OPT_MAXNODES);
    if (m->mcts != NULL && cfg.playouts == m->mcts_cfg.playouts &&
        cfg.time_ms == m->mcts_cfg.time_ms && cfg.exploration == m->mcts_cfg.exploration &&
        cfg.playout_turns == m->mcts_cfg.playout_turns && cfg.max_nodes == m->mcts_cfg.max_nodes)
        return 0;
    ball_mcts_free(m->mcts);
    m->mcts = NULL;
    if (ball_mcts_new(&m->mcts, &cfg, err, errlen) < 0)
        return -1;
    m->mcts_cfg = cfg;
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

/* The playouts of a whole `go` (0: none, a time, depth or infinite). */
static int64_t total_budget(const engine_searcher *s, const engine_limits *lim)
{
    int64_t budget = 0;
    if (lim->nodes > 0)
        budget = lim->nodes;
    if (lim->playouts > 0 && (budget == 0 || lim->playouts < budget))
        budget = lim->playouts;
    if (budget == 0 && !lim->infinite && lim->movetime_ms == 0 && lim->depth == 0)
        budget = (int64_t)engine_searcher_spin(s, OPT_PLAYOUTS);
    return budget;
}

/* One slice: a search of at most Slice playouts (fewer when the budget
 * or the time left is smaller), from a fresh tree. Returns the number of
 * its root decisions in m->acts (0: answered without a search, in
 * @p chosen), or -1 with a message. */
static int run_slice(const engine_searcher *s, struct mcts_state *m, ball_game *game,
                     const engine_limits *lim, ball_action *chosen, ball_mcts_stats *stats,
                     char *err, size_t errlen)
{
    static const uint64_t GOLDEN = 0x9e3779b97f4a7c15u;
    int64_t size = (int64_t)engine_searcher_spin(s, OPT_SLICE);
    int time_ms = 0;
    if (m->budget > 0 && !lim->infinite && m->budget - m->done < size)
        size = m->budget - m->done;
    if (lim->movetime_ms > 0 && !lim->infinite) {
        double left = (double)lim->movetime_ms - (engine_now_ms() - m->t0);
        time_ms = left < 1 ? 1 : (int)left;
    }
    if (slice_searcher(s, m, (int)size, time_ms, err, errlen) < 0)
        return -1;
    ball_mcts_seed(m->mcts, m->seed + (uint64_t)m->slices * GOLDEN);
    ball_mcts_stats_init(stats, sizeof *stats);
    if (ball_mcts_choose(m->mcts, game, chosen, stats) < 0) {
        snprintf(err, errlen, "%s", ball_errmsg(game));
        return -1;
    }
    m->slices++;
    m->done += (int64_t)stats->playouts;
    int n = ball_mcts_root_decisions(m->mcts, m->acts, m->visits, m->values, BALL_MAX_ACTIONS);
    return n > BALL_MAX_ACTIONS ? BALL_MAX_ACTIONS : n < 0 ? 0 : n;
}

/* Adds the @p n root decisions of a slice to the statistics of the run. */
static void add_slice(struct mcts_state *m, int n)
{
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < m->n_st && m->st[j].action != m->acts[i])
            j++;
        if (j == m->n_st)
            m->st[m->n_st++] = (struct root_stat){m->acts[i], 0, 0};
        m->st[j].visits += m->visits[i];
        m->st[j].reward += m->values[i] * m->visits[i];
    }
}

/* The counts of the run so far into @p info. */
static void run_info(const struct mcts_state *m, engine_info *info)
{
    info->depth = m->slices;
    info->nodes = (uint64_t)m->done;
    info->elapsed_ms = engine_now_ms() - m->t0;
}

/* 1 when a limit of @p lim is reached (never for infinite). */
static int limit_reached(const struct mcts_state *m, const engine_limits *lim)
{
    if (lim->infinite)
        return 0;
    return (m->budget > 0 && m->done >= m->budget) || (lim->depth > 0 && m->slices >= lim->depth) ||
           (lim->movetime_ms > 0 && engine_now_ms() - m->t0 >= (double)lim->movetime_ms);
}

static int mcts_run(engine_searcher *s, void *state, ball_game *game, const engine_limits *lim,
                    int multipv, engine_info_fn info_fn, void *ud, engine_result *out, char *err,
                    size_t errlen)
{
    struct mcts_state *m = state;
    m->n_st = 0;
    m->t0 = engine_now_ms();
    m->budget = total_budget(s, lim);
    m->done = m->slices = 0;
    m->seed = engine_searcher_spin(s, OPT_SEED) ^ ball_hash(game);
    for (;;) {
        ball_mcts_stats stats;
        ball_action chosen;
        int n = run_slice(s, m, game, lim, &chosen, &stats, err, errlen);
        if (n < 0)
            return -1;
        if (n == 0) { /* an immediate touchdown or the only legal decision: no search */
            out->best = chosen;
            run_info(m, &out->info);
            out->info.n_lines = 1;
            out->info.lines[0] = (engine_line){stats.value, 0, 1, {chosen}};
            if (info_fn != NULL)
                info_fn(ud, &out->info);
            return 0;
        }
        add_slice(m, n);
        fill_info(&out->info, m->st, m->n_st, multipv);
        run_info(m, &out->info);
        out->best = out->info.lines[0].pv[0];
        int stop = info_fn != NULL && info_fn(ud, &out->info);
        if (stop || engine_searcher_stopped(s) || limit_reached(m, lim))
            return 0;
    }
}

/* The tool links the static library: its version is the header's. No
 * string option; nothing to forget at a newgame (every search starts
 * from a fresh tree). */
const engine_backend engine_backend_mcts = {
    "mcts", "libball mcts " BALL_VERSION_STRING, OPTIONS, N_OPT, sizeof(struct mcts_state),
    NULL, NULL, mcts_free, mcts_run,
};
