/* SPDX-License-Identifier: MIT */
/* Turn search (ball.h, "Turn search"; docs/players.md): what the files of
 * libball/search/ share.
 *
 * Negamax alpha-beta over decisions whose depth counts turns: a decision
 * that keeps the coach to act (an action, `end`, a release task, R4.1,
 * R9.1) is searched at the same depth and with the same window (both
 * positions are the same coach's to improve), a decision that hands the
 * turn over (R9.5) at one turn less and with the window negated. So one
 * depth enumerates every end of the turn in progress; the transposition
 * table, keyed by ball_hash(), merges the many orders of a turn's
 * decisions into one search per distinct position (from the start, ATK's
 * 8,824 decision sequences of one turn end in 3,515 positions).
 *
 * Iterative deepening in turns; at each node the table's decision first,
 * then captures of the ball, pickups and touchdowns, then a history of
 * decisions that were best or cut off (by side, from and to square), ties
 * broken by a hash of the decision and the seed. With two turns or more
 * left, decisions after the first LMR_FIRST of a node are first searched
 * one turn less deep (the table holds that search from the previous
 * iteration, so it is nearly free) and again at full depth only when they
 * beat alpha.
 *
 * Leaves are positions at the start of a turn. Their evaluation, for the
 * coach to act: the ball (held, its advance, loose: who is nearer), the
 * carrier's cover and the opponents around it, pieces down and stacked
 * under an opponent, and one exact probe of the turn to come: can the
 * coach to act take the ball this turn (a capture within its 2 PA; a
 * stacked carrier is safe, R3.5). Touchdowns are left to the search: a
 * bounded one-turn touchdown search at every leaf (the first version) spent most of a
 * budget's nodes and lost to the search without it (docs/players.md).
 *
 * Memory: the table and the per-ply decision buffers are allocated by
 * ball_search_new(); a run allocates nothing. The game is searched in
 * place with apply/undo and left as it was. No global state.
 *
 * The files, as Stockfish splits its search (docs/architecture.md):
 * searcher.c (lifecycle, configuration, ball_search_run()), tt.h/tt.c (the transposition
 * table), evaluate.h (the leaves: the hand-written evaluation and the
 * caller's hook, the learned network among them), movepick.h (move
 * ordering), negamax.c (the alpha-beta), root.c (iterative deepening at
 * the root, results, lines), thread.c (the helper threads): each calls
 * only the ones after it, searcher.c > thread.c > root.c > negamax.c
 * (config_check.c: the configurations of both players). mcts.c,
 * beside them, is the Monte-Carlo player.
 *
 * tt.h, evaluate.h and movepick.h hold functions (UNIT_LOCAL, compiler.h)
 * for negamax.c, which includes them: the compiler inlines the table, the
 * ordering and the evaluation into the alpha-beta as it did when they
 * were one file. As separate units each leaf paid a call: 1,578.5
 * instructions a node instead of 1,557.5 (callgrind, issue 47).
 */
#ifndef BALL_SEARCH_H
#define BALL_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* Helper threads (lazy SMP): POSIX threads, except in a WebAssembly build
 * without thread support, where `threads` is accepted and one thread
 * searches. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define SEARCH_THREADS 0
#else
#define SEARCH_THREADS 1
#include <pthread.h>
#endif

#include "ball.h"
#include "game.h"
#include "action.h"


/* Deepest decision path (a turn has at most about 20 decisions: 2 PA of
 * actions with hand-offs between, `end`, 14 release tasks). */
#define MAX_PLY 1024
#define MAX_DEPTH 64
/* Values: a win at ply p is WIN - p; evaluations stay within +-EVAL_MAX. */
#define WIN 30000
#define WIN_BOUND (WIN - 2 * MAX_PLY)
#define EVAL_MAX 20000
#define INF 32000
/* Decisions of a node searched at full depth before the reductions. */
#define LMR_FIRST 3
/* The squashing of evaluations into (-1, 1): v / (|v| + SQUASH). */
#define SQUASH 1500.0
/* The hook value whose inverse of squash() is EVAL_MAX. */
#define HOOK_MAX (EVAL_MAX / (EVAL_MAX + SQUASH))
/* A carrier the coach to act cannot take, r <= 4 rows from the zone:
 * RUNAWAY * (5 - r) against that coach. */
#define RUNAWAY 350
/* Root decisions whose principal variation a run keeps (the best ones). */
#define LINES_PV 16

/* One root decision. */
struct root_move {
    ball_action action;
    int value;       /* last value (exact or an upper bound) */
    int bound;       /* 1: value is an upper bound */
    int depth;       /* the depth that gave value */
    uint64_t nodes;
    int order;       /* ordering score for the next iteration */
};

/* What one thread searches with; the main thread's worker also keeps the
 * results of the last run. */
struct worker {
    ball_search_config cfg;
    struct tt_slot *tt;
    size_t tt_mask;    /* entries - 1 (a power of two) */
    uint32_t gen;
    ball_action *acts; /* MAX_PLY * BALL_MAX_ACTIONS */
    int *scores;       /* MAX_PLY * BALL_MAX_ACTIONS */
    int32_t (*history)[128][128]; /* [side][from][to] */
    struct root_move *root;       /* BALL_MAX_ACTIONS */
    int n_root;
    /* the run in progress */
    ball_game *g;
    uint64_t nodes;
    double start, last_info;
    int aborted, stopped, error;
    atomic_int *stop;  /* the searcher's: ball_search_stop() */
    atomic_int *halt;  /* the searcher's: the main thread tells the helpers to stop */
    int id;            /* 0: the main thread */
    int done_depth;
    ball_action pv[BALL_SEARCH_PV_MAX];
    int pv_len;
    ball_search_result last;
    int have_last;
    ball_search_eval_fn eval_fn;
    void *eval_ud;
    ball_search_prior_fn prior_fn;
    void *prior_ud;
    float *prior_buf; /* BALL_MAX_ACTIONS */
    struct net_acc *nacc; /* the network's sums at the last leaf (net.h) */
    int root_side;
    uint32_t root_turn; /* the turn of the root: searched without reductions to 0 */
    int turn_len;     /* decisions of pv up to the hand-over */
    ball_action (*line_pv)[BALL_SEARCH_PV_MAX]; /* LINES_PV of them, by root index */
    int *line_pv_len; /* BALL_MAX_ACTIONS */
    struct ball_search *owner;
    uint64_t helper_nodes; /* main thread: the helpers' nodes of this run */
};

struct ball_search {
    ball_search_config cfg;
    struct tt_slot *tt;
    size_t tt_mask;
    uint32_t gen;
    atomic_int stop;
    atomic_int halt;
    int n_workers;
    struct worker *w;       /* n_workers; w[0] searches the caller's game */
    ball_game **helper_game; /* n_workers - 1, positions copied in at each run */
#if SEARCH_THREADS
    pthread_t *thread;      /* n_workers - 1 */
    int n_threads;          /* started */
    pthread_mutex_t mu;
    pthread_cond_t cv_go, cv_done;
    int job;                /* a new run: helpers start when it changes */
    int running;            /* helpers still searching */
    int quit;
    int sync_ok;            /* mu and the conditions were initialised */
#endif
    ball_net *own_net;      /* BALL_EVAL_NETWORK: the built-in network, loaded for this searcher */
    ball_search_eval_fn eval_fn;
    void *eval_ud;
    ball_search_prior_fn prior_fn;
    void *prior_ud;
};

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The decision buffer of @p ply. */
static inline ball_action *ply_acts(struct worker *s, int ply)
{
    return s->acts + (size_t)ply * BALL_MAX_ACTIONS;
}

/* 1 when @p team holds the ball. */
static inline int holds(const pos *p, int team)
{
    uint8_t h = p->top[p->st.ball];
    return h != 0 && pc_team(h) == team;
}

/* An action of the coach to act that takes the ball at once: a pickup, a
 * dodge of the carrier (R6.1), a block of it (R7.3). */
static inline int takes_ball(const pos *p, ball_action a)
{
    int k = act_kind(a), f = act_flags(a);
    return (f & (F_PICKUP | F_FORCED_FUMBLE)) != 0 ||
           (k == K_BLOCK && act_to(a) == p->st.ball && p->top[p->st.ball] != 0);
}

/* An action that moves the ball: the carrier's move, a hand-off, a pass. */
static inline int moves_ball(const pos *p, ball_action a)
{
    int k = act_kind(a);
    return k == K_HANDOFF || k == K_SHORT_PASS || k == K_LONG_PASS ||
           (act_from(a) == p->st.ball && k >= K_MOVE && k <= K_PROTECT);
}

/* negamax.c: the alpha-beta below the root. */
int search(struct worker *s, int depth, int alpha, int beta, int ply);
int child_value(struct worker *s, ball_action a, int depth, int alpha, int beta, int ply);

/* root.c: a run of one worker, and the end of the main thread's. */
void prepare(struct worker *s, ball_search *bs, ball_game *g, int n);
void deepen(struct worker *s, int first);
void root_finish(struct worker *s);

/* thread.c: the helper threads of a searcher (nothing without threads). */
int threads_start(ball_search *s);
void threads_stop(ball_search *s);
void threads_go(ball_search *bs, const ball_game *g, int n);
void threads_wait(ball_search *bs, int n);

#endif
