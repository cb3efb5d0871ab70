/* SPDX-License-Identifier: MIT */
/* Turn search (ball.h, "Turn search"; docs/players.md).
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
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "sized.h"
#include "net.h"

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

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

/* A table entry as two words that the threads read and write without a
 * lock: `check` is the key XOR `data`, so a pair torn by two writers does
 * not match its key and is ignored (the "lockless" table of chess
 * programs). data: move (bits 0-31), value (32-47), depth (48-55), flag
 * (56-57), the run's generation modulo 64 (58-63). */
struct tt_slot {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
};

/* An entry read from the table. */
struct tt_entry {
    ball_action move;
    int value;
    int depth;
    int flag;  /* TT_* */
    unsigned gen;
};

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
    ball_search_eval_fn eval_fn;
    void *eval_ud;
    ball_search_prior_fn prior_fn;
    void *prior_ud;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- config */

/* The sizeof of every published layout (docs/abi.md): 1.1 is the first. */
static const size_t CONFIG_SIZES[] = {sizeof(ball_search_config)};
static const size_t RESULT_SIZES[] = {sizeof(ball_search_result)};
static const size_t LINE_SIZES[] = {sizeof(ball_search_line)};
#define N_SIZES(a) (sizeof a / sizeof a[0])

void ball_search_config_init(ball_search_config *cfg, size_t size)
{
    ball_search_config d;
    if (cfg == NULL)
        return;
    memset(&d, 0, sizeof d);
    d.size = size < sizeof d ? size : sizeof d;
    d.nodes = 200000;
    d.time_ms = 0;
    d.depth = 0;
    d.threads = 1;
    d.seed = 1;
    d.multipv = 1;
    d.hash_mb = 16;
    d.info = NULL;
    d.info_ud = NULL;
    d.info_every_ms = 0;
    sized_write(cfg, size, &d, sizeof d);
}

void ball_search_result_init(ball_search_result *r, size_t size)
{
    if (r != NULL)
        sized_zero_init(r, size, sizeof(ball_search_result));
}

void ball_search_line_init(ball_search_line *line, size_t size)
{
    if (line != NULL)
        sized_zero_init(line, size, sizeof(ball_search_line));
}

static int fail(char *err, size_t errlen, int code, const char *msg)
{
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "search: %s", msg);
    return code;
}

/* The buffers of one worker; 0 or BALL_E_NOMEM. */
static int worker_alloc(struct worker *w)
{
    w->acts = malloc((size_t)MAX_PLY * BALL_MAX_ACTIONS * sizeof *w->acts);
    w->scores = malloc((size_t)MAX_PLY * BALL_MAX_ACTIONS * sizeof *w->scores);
    w->history = calloc(2, sizeof *w->history);
    w->root = malloc(BALL_MAX_ACTIONS * sizeof *w->root);
    w->prior_buf = malloc(BALL_MAX_ACTIONS * sizeof *w->prior_buf);
    w->nacc = malloc(sizeof *w->nacc);
    if (w->nacc != NULL)
        net_acc_reset(w->nacc);
    w->line_pv = malloc(BALL_MAX_ACTIONS * sizeof *w->line_pv);
    w->line_pv_len = calloc(BALL_MAX_ACTIONS, sizeof *w->line_pv_len);
    if (w->acts == NULL || w->scores == NULL || w->history == NULL || w->root == NULL ||
        w->prior_buf == NULL || w->nacc == NULL || w->line_pv == NULL || w->line_pv_len == NULL)
        return BALL_E_NOMEM;
    return BALL_OK;
}

static void worker_free(struct worker *w)
{
    free(w->acts);
    free(w->scores);
    free(w->history);
    free(w->root);
    free(w->prior_buf);
    free(w->nacc);
    free(w->line_pv);
    free(w->line_pv_len);
}

#if SEARCH_THREADS
static void helper_run(struct worker *w);

/* A helper thread: waits for a run, searches it until halted, again. */
static void *helper_main(void *arg)
{
    struct worker *w = arg;
    ball_search *bs = w->owner;
    int seen = 0;
    pthread_mutex_lock(&bs->mu);
    for (;;) {
        while (!bs->quit && bs->job == seen)
            pthread_cond_wait(&bs->cv_go, &bs->mu);
        if (bs->quit)
            break;
        seen = bs->job;
        pthread_mutex_unlock(&bs->mu);
        helper_run(w);
        pthread_mutex_lock(&bs->mu);
        if (--bs->running == 0)
            pthread_cond_broadcast(&bs->cv_done);
    }
    pthread_mutex_unlock(&bs->mu);
    return NULL;
}
#endif

int ball_search_new(ball_search **out, const ball_search_config *cfg, char *err, size_t errlen)
{
    ball_search_config c;
    ball_search *s;
    size_t entries;

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (out == NULL)
        return fail(err, errlen, BALL_E_ARG, "NULL output pointer");
    *out = NULL;
    ball_search_config_init(&c, sizeof c);
    if (cfg != NULL) {
        if (!sized_published(cfg->size, CONFIG_SIZES, N_SIZES(CONFIG_SIZES))) {
            if (err != NULL && errlen > 0)
                snprintf(err, errlen, "search: ball_search_config size %zu is not a published size "
                         "(initialise with ball_search_config_init(&cfg, sizeof cfg))", cfg->size);
            return BALL_E_ARG;
        }
        memcpy(&c, cfg, cfg->size);
        c.size = sizeof c;
    }
    if (c.nodes > 1000000000000ULL)
        return fail(err, errlen, BALL_E_ARG, "nodes must lie in 0-1000000000000");
    if (c.time_ms < 0 || c.time_ms > 86400000)
        return fail(err, errlen, BALL_E_ARG, "time_ms must lie in 0-86400000");
    if (c.depth < 0 || c.depth > MAX_DEPTH)
        return fail(err, errlen, BALL_E_ARG, "depth must lie in 0-64");
    if (c.nodes == 0 && c.time_ms == 0 && c.depth == 0)
        return fail(err, errlen, BALL_E_ARG, "no budget: set nodes, time_ms or depth");
    if (c.threads < 1 || c.threads > 64)
        return fail(err, errlen, BALL_E_ARG, "threads must lie in 1-64");
    if (c.multipv < 1 || c.multipv > 256)
        return fail(err, errlen, BALL_E_ARG, "multipv must lie in 1-256");
    if (c.hash_mb < 1 || c.hash_mb > 65536)
        return fail(err, errlen, BALL_E_ARG, "hash_mb must lie in 1-65536");
    if (c.info_every_ms < 0 || c.info_every_ms > 86400000)
        return fail(err, errlen, BALL_E_ARG, "info_every_ms must lie in 0-86400000");

    entries = 2;
    while (entries * 2 * sizeof(struct tt_slot) <= (size_t)c.hash_mb << 20)
        entries *= 2;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return fail(err, errlen, BALL_E_NOMEM, "out of memory for the searcher");
    s->cfg = c;
    s->n_workers = SEARCH_THREADS ? c.threads : 1;
    s->tt_mask = entries - 1;
    atomic_init(&s->stop, 0);
    atomic_init(&s->halt, 0);
    s->tt = calloc(entries, sizeof *s->tt);
    s->w = calloc((size_t)s->n_workers, sizeof *s->w);
    s->helper_game = calloc((size_t)s->n_workers, sizeof *s->helper_game);
    if (s->tt == NULL || s->w == NULL || s->helper_game == NULL) {
        ball_search_free(s);
        return fail(err, errlen, BALL_E_NOMEM, "out of memory for the transposition table");
    }
    for (int i = 0; i < s->n_workers; i++) {
        struct worker *w = &s->w[i];
        w->id = i;
        w->owner = s;
        w->stop = &s->stop;
        w->halt = &s->halt;
        if (worker_alloc(w) != BALL_OK ||
            (i > 0 && (ball_game_new(&s->helper_game[i], NULL, NULL, 0) != BALL_OK ||
                       ball_history_reserve(s->helper_game[i], MAX_PLY + 8) != BALL_OK))) {
            ball_search_free(s);
            return fail(err, errlen, BALL_E_NOMEM, "out of memory for the search buffers");
        }
    }
#if SEARCH_THREADS
    if (s->n_workers > 1) {
        s->thread = calloc((size_t)s->n_workers, sizeof *s->thread);
        if (s->thread == NULL || pthread_mutex_init(&s->mu, NULL) != 0) {
            ball_search_free(s);
            return fail(err, errlen, BALL_E_NOMEM, "out of memory for the search threads");
        }
        if (pthread_cond_init(&s->cv_go, NULL) != 0) {
            pthread_mutex_destroy(&s->mu);
            ball_search_free(s);
            return fail(err, errlen, BALL_E_NOMEM, "out of memory for the search threads");
        }
        if (pthread_cond_init(&s->cv_done, NULL) != 0) {
            pthread_cond_destroy(&s->cv_go);
            pthread_mutex_destroy(&s->mu);
            ball_search_free(s);
            return fail(err, errlen, BALL_E_NOMEM, "out of memory for the search threads");
        }
        s->sync_ok = 1;
        for (int i = 1; i < s->n_workers; i++) {
            if (pthread_create(&s->thread[i - 1], NULL, helper_main, &s->w[i]) != 0) {
                ball_search_free(s);
                return fail(err, errlen, BALL_E_NOMEM, "could not start the search threads");
            }
            s->n_threads++;
        }
    }
#endif
    *out = s;
    return BALL_OK;
}

void ball_search_free(ball_search *s)
{
    if (s == NULL)
        return;
#if SEARCH_THREADS
    if (s->sync_ok) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->cv_go);
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < s->n_threads; i++)
            pthread_join(s->thread[i], NULL);
        pthread_cond_destroy(&s->cv_done);
        pthread_cond_destroy(&s->cv_go);
        pthread_mutex_destroy(&s->mu);
    }
    free(s->thread);
#endif
    if (s->w != NULL)
        for (int i = 0; i < s->n_workers; i++)
            worker_free(&s->w[i]);
    if (s->helper_game != NULL)
        for (int i = 0; i < s->n_workers; i++)
            ball_game_free(s->helper_game[i]);
    free(s->helper_game);
    free(s->w);
    free(s->tt);
    free(s);
}

int ball_search_clear(ball_search *s)
{
    if (s == NULL)
        return BALL_E_ARG;
    for (size_t i = 0; i <= s->tt_mask; i++) {
        atomic_store_explicit(&s->tt[i].check, 0, memory_order_relaxed);
        atomic_store_explicit(&s->tt[i].data, 0, memory_order_relaxed);
    }
    for (int i = 0; i < s->n_workers; i++) {
        memset(s->w[i].history, 0, 2 * sizeof *s->w[i].history);
        s->w[i].n_root = 0;
        s->w[i].have_last = 0;
    }
    s->gen = 0;
    return BALL_OK;
}

void ball_search_stop(ball_search *s)
{
    if (s != NULL)
        atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
}

int ball_search_set_eval(ball_search *s, ball_search_eval_fn eval, void *ud)
{
    if (s == NULL)
        return BALL_E_ARG;
    s->eval_fn = eval;
    s->eval_ud = ud;
    /* a net freed and another loaded at its address must not meet the old
     * sums (the helpers are parked: the next run's hand-over orders this) */
    for (int i = 0; i < s->n_workers; i++)
        net_acc_reset(s->w[i].nacc);
    return BALL_OK;
}

int ball_search_set_prior(ball_search *s, ball_search_prior_fn prior, void *ud)
{
    if (s == NULL)
        return BALL_E_ARG;
    s->prior_fn = prior;
    s->prior_ud = ud;
    return BALL_OK;
}

/* ---------------------------------------------------------------- table */

static inline uint64_t tt_pack(ball_action move, int value, int depth, int flag, unsigned gen)
{
    return (uint64_t)move | (uint64_t)(uint16_t)value << 32 | (uint64_t)(uint8_t)depth << 48 |
           (uint64_t)(flag & 3) << 56 | (uint64_t)(gen & 63) << 58;
}

static inline struct tt_entry tt_unpack(uint64_t d)
{
    struct tt_entry e;
    e.move = (ball_action)d;
    e.value = (int16_t)(d >> 32);
    e.depth = (int8_t)(d >> 48);
    e.flag = (int)(d >> 56) & 3;
    e.gen = (unsigned)(d >> 58);
    return e;
}

/* Reads the entry of @p key into @p out: 1, or 0 when there is none. Two
 * entries per bucket: the deeper one kept, the other always replaced. */
static int tt_probe(struct worker *s, uint64_t key, struct tt_entry *out)
{
    struct tt_slot *b = &s->tt[key & s->tt_mask & ~(size_t)1];
    for (int i = 0; i < 2; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key && ((d >> 56) & 3) != TT_NONE) {
            *out = tt_unpack(d);
            return 1;
        }
    }
    return 0;
}

/* Mate values are stored relative to the node (distance from it). */
static int to_tt(int v, int ply)
{
    return v > WIN_BOUND ? v + ply : v < -WIN_BOUND ? v - ply : v;
}
static int from_tt(int v, int ply)
{
    return v > WIN_BOUND ? v - ply : v < -WIN_BOUND ? v + ply : v;
}

static void tt_store(struct worker *s, uint64_t key, int depth, int flag, int value, ball_action move,
                     int ply)
{
    struct tt_slot *b = &s->tt[key & s->tt_mask & ~(size_t)1], *e;
    uint64_t d0 = atomic_load_explicit(&b[0].data, memory_order_relaxed);
    uint64_t d1 = atomic_load_explicit(&b[1].data, memory_order_relaxed);
    uint64_t k0 = atomic_load_explicit(&b[0].check, memory_order_relaxed) ^ d0;
    uint64_t k1 = atomic_load_explicit(&b[1].check, memory_order_relaxed) ^ d1;
    uint64_t old;
    struct tt_entry e0 = tt_unpack(d0);
    if (k0 == key)
        e = &b[0], old = d0;
    else if (k1 == key)
        e = &b[1], old = d1;
    else if (e0.gen != (s->gen & 63) || e0.depth <= depth)
        e = &b[0], old = 0;
    else
        e = &b[1], old = 0;
    if (old != 0 && move == BALL_ACTION_NONE)
        move = tt_unpack(old).move; /* keep the decision of an earlier search */
    {
        uint64_t d = tt_pack(move, to_tt(value, ply), depth, flag, s->gen);
        atomic_store_explicit(&e->data, d, memory_order_relaxed);
        atomic_store_explicit(&e->check, key ^ d, memory_order_relaxed);
    }
}

/* ---------------------------------------------------------------- evaluation */

/* Row of @p sq counted towards the row @p team scores in (17). */
static inline int frow(int sq, int team)
{
    return team == ATK ? SQ_ROW[sq] : BALL_NUM_ROWS + 1 - SQ_ROW[sq];
}

/* Rows the ball must still go from @p sq for @p team to score (R1.4). */
static inline int rows_to_zone(const pos *p, int sq, int team)
{
    int d = BALL_NUM_ROWS + 1 - p->zone_depth - frow(sq, team);
    return d > 0 ? d : 0;
}

/* Worth of holding the ball on @p sq for @p team: more the nearer the
 * end zone. */
static inline int hold_value(const pos *p, int sq, int team)
{
    int r = 16 - rows_to_zone(p, sq, team); /* 0 far ... 16 in the zone */
    if (r < 0)
        r = 0;
    return 800 + 30 * r + (r > 10 ? 40 * (r - 10) : 0);
}

/* The nearest distance from the pieces of @p b to @p sq (99: none). */
static int nearest(bb_t b, int sq)
{
    int best = 99, t;
    for (BB_EACH(t, b)) {
        int d = square_distance(t, sq);
        if (d < best)
            best = d;
    }
    return best;
}

/* The static part of the evaluation, for @p me. */
static int static_eval(const pos *p, int me)
{
    int ball = p->st.ball, holder = p->top[ball], v = 0, sq;
    int op = me ^ 1;
    if (holder != 0) {
        int t = pc_team(holder);
        int sign = t == me ? 1 : -1;
        bb_t near = SQ_NEIGHBOURS[ball];
        v += sign * hold_value(p, ball, t);
        /* cover: allies adjacent; threat: active opponents within 2 */
        v += sign * 12 * bb_count_few(near & p->active[t]);
        for (BB_EACH(sq, p->active[t ^ 1]))
            if (square_distance(sq, ball) <= 2)
                v -= sign * 30;
        /* a stacked carrier is safe for a turn (R3.5), but the release
         * that must follow (R9.3) puts a blocked opponent next to it; a
         * standing one can block it back at once, as both release squares
         * touch the square the release empties (R7.3). On the board's
         * edge (two adjacent squares, R1.3) two allies also freeze the
         * stack for good: the ball can then neither be lost nor carried
         * on, and games end at the turn limit (docs/players.md). A
         * knocked-down lower piece first stands up in its own release
         * phase (R9.2), and inland a stack is hard to freeze; at 300
         * there too the search leaves the ball loose rather than block
         * its carrier (the tactics suite). */
        if (p->low[ball] != 0) {
            uint8_t low = p->low[ball];
            int edge_over_standing = !pc_down(low) && bb_count_few(SQ_NEIGHBOURS[ball]) <= 2;
            v += sign * (pc_team(low) == t ? 30 : edge_over_standing ? -300 : -120);
        }
    } else {
        int dm = nearest(p->active[me], ball), dop = nearest(p->active[op], ball);
        int race = dop - dm; /* > 0: I am nearer */
        if (race > 3)
            race = 3;
        if (race < -3)
            race = -3;
        v += 120 * race + 10 * (frow(ball, me) - 9);
    }
    for (int t = 0; t < 2; t++) {
        int sign = t == me ? 1 : -1;
        for (BB_EACH(sq, p->piece[t])) {
            uint8_t c = p->top[sq];
            if (pc_down(c))
                v -= sign * 35;
            v += sign * 2 * frow(sq, t);
            if (p->low[sq] != 0 && pc_team(p->low[sq]) != t)
                v += sign * 15; /* blocking an opponent */
        }
    }
    return v + 20; /* the move is mine */
}

/* ---------------------------------------------------------------- probes */

static ball_action *ply_acts(struct worker *s, int ply)
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

/* Can the coach to act (its action phase) take the ball within its PA?
 * Exact for 1-2 PA: a capture now, or any action then a capture. */
static int probe_take(struct worker *s, int ply)
{
    ball_game *g = s->g;
    pos *p = &g->p;
    int me = p->st.side, n, ball = p->st.ball;
    ball_action *a;
    if (holds(p, me) || p->st.phase != PHASE_ACTION || p->st.pa == 0)
        return 0;
    if (p->top[ball] != 0 && p->low[ball] != 0)
        return 0; /* a stacked carrier: its square is closed (R3.5) */
    if ((SQ_WITHIN4[ball] & p->active[me]) == 0 && p->st.pa <= 2)
        return 0; /* two actions move a piece at most 4 squares */
    a = ply_acts(s, ply);
    n = ball_legal_actions(g, a, BALL_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (takes_ball(p, a[i]))
            return 1;
    if (p->st.pa < 2)
        return 0;
    for (int i = 0; i < n; i++) {
        ball_action *b;
        int m, found = 0, k = act_kind(a[i]);
        if (k == K_END || act_cost(a[i]) == 0 || act_cost(a[i]) >= p->st.pa)
            continue;
        if (ball_apply_unchecked(g, a[i]) != BALL_OK)
            continue;
        s->nodes++;
        if (holds(p, me)) {
            found = 1;
        } else if (p->st.result == ONGOING && p->st.side == me && p->st.phase == PHASE_ACTION) {
            b = ply_acts(s, ply + 1);
            m = ball_legal_actions(g, b, BALL_MAX_ACTIONS);
            for (int j = 0; j < m && !found; j++)
                found = takes_ball(p, b[j]);
        }
        ball_undo(g);
        if (found)
            return 1;
    }
    return 0;
}

/* The built-in evaluation of a leaf for the coach to act: the static
 * part and the take probe. */
static int builtin_eval(struct worker *s, int ply)
{
    pos *p = &s->g->p;
    int me = p->st.side, ball = p->st.ball, holder = p->top[ball];
    int v = static_eval(p, me);
    if (!holds(p, me) && probe_take(s, ply)) {
        /* I may take it: as if I held it, less a margin */
        int mine = hold_value(p, ball, me) - 250;
        int now = holder ? -hold_value(p, ball, me ^ 1) : 0;
        v += mine - now;
    } else if (holder != 0 && pc_team(holder) != me) {
        /* I cannot take it: a carrier near my end zone runs for it */
        int r = rows_to_zone(p, ball, me ^ 1);
        if (r <= 4)
            v -= RUNAWAY * (5 - r);
    }
    return v;
}

/* The evaluation of the caller's hook (ball_search_set_eval()), a value
 * in (-1, 1), mapped back to the scale of builtin_eval(). */
static int hook_eval(struct worker *s)
{
    double x;
    if (s->eval_fn == ball_net_search_eval && s->eval_ud != NULL) {
        /* the network, incrementally from this thread's last leaf: the
         * same value as ball_net_search_eval() (net.h) */
        if (net_acc_evaluate(s->nacc, s->eval_ud, s->g, &x) != BALL_OK)
            x = 0.0;
    } else {
        x = s->eval_fn(s->eval_ud, s->g);
    }
    /* the inverse of squash(), kept within +-EVAL_MAX, where leaf_value()
     * clamps anyway: unclamped, a value of 1 - 1e-13 (a saturated tanh)
     * would give 1.5e16, beyond an int (found by tests/fuzz/fuzz_net.c) */
    if (!(x > -HOOK_MAX))
        x = -HOOK_MAX;
    if (!(x < HOOK_MAX))
        x = HOOK_MAX;
    return (int)(x * SQUASH / (1.0 - (x < 0 ? -x : x)));
}

/* The value of a leaf (an action phase about to start) for the coach to
 * act. */
static int leaf_value(struct worker *s, int ply)
{
    uint64_t key = pos_hash(&s->g->p);
    struct tt_entry e;
    int v;
    if (tt_probe(s, key, &e) && e.flag == TT_EXACT && e.depth == 0)
        return from_tt(e.value, ply);
    v = s->eval_fn != NULL ? hook_eval(s) : builtin_eval(s, ply);
    v += (int)(mix64(key ^ s->cfg.seed) & 7) - 3; /* seeded tie-break */
    if (v > EVAL_MAX)
        v = EVAL_MAX;
    if (v < -EVAL_MAX)
        v = -EVAL_MAX;
    tt_store(s, key, 0, TT_EXACT, v, BALL_ACTION_NONE, ply);
    return v;
}

/* ---------------------------------------------------------------- search */

/* 1 when the run must stop now (budget, time, stop request, callback). */
static int out_of_budget(struct worker *s)
{
    if (s->aborted)
        return 1;
    if (s->cfg.nodes > 0 && s->nodes >= s->cfg.nodes)
        return s->aborted = 1;
    if ((s->nodes & 255) == 0) {
        if (atomic_load_explicit(s->halt, memory_order_relaxed))
            return s->aborted = 1;
        if (atomic_load_explicit(s->stop, memory_order_relaxed))
            return s->aborted = s->stopped = 1;
        if (s->cfg.time_ms > 0 || s->cfg.info_every_ms > 0) {
            double t = now_ms();
            if (s->cfg.time_ms > 0 && t - s->start >= s->cfg.time_ms)
                return s->aborted = 1;
            if (s->cfg.info != NULL && s->cfg.info_every_ms > 0 &&
                t - s->last_info >= s->cfg.info_every_ms) {
                ball_search_info info;
                s->last_info = t;
                memset(&info, 0, sizeof info);
                info.size = sizeof info;
                info.nodes = s->nodes;
                info.depth = s->done_depth;
                info.value = s->have_last ? s->last.value : 0.0;
                info.proven = s->have_last ? s->last.proven : 0;
                info.elapsed_ms = t - s->start;
                info.pv = s->pv;
                info.pv_len = s->pv_len;
                if (s->cfg.info(s->cfg.info_ud, &info) != 0)
                    return s->aborted = s->stopped = 1;
            }
        }
    }
    return 0;
}

/* Ordering scores of the @p n decisions @p a of the node at @p ply. */
static void order(struct worker *s, int ply, ball_action *a, int n, ball_action tt_move, int depth)
{
    pos *p = &s->g->p;
    int *sc = s->scores + (size_t)ply * BALL_MAX_ACTIONS, side = p->st.side;
    int use_prior = s->prior_fn != NULL && depth >= 1;
    if (use_prior)
        s->prior_fn(s->prior_ud, s->g, a, n, s->prior_buf);
    for (int i = 0; i < n; i++) {
        int k = act_kind(a[i]), v;
        if (a[i] == tt_move) {
            v = 1 << 30;
        } else if (use_prior) {
            float f = s->prior_buf[i];
            v = f > 1e6f ? 1000000000 : f < -1e6f ? -1000000000 : (int)(f * 1000.0f);
        } else {
            v = s->history[side][act_from(a[i]) & 127][act_to(a[i]) & 127];
            if (takes_ball(p, a[i]))
                v += 1 << 24;
            else if (act_flags(a[i]) & F_FUMBLE)
                v += 1 << 23;
            if (k == K_HANDOFF || (k == K_MOVE && act_from(a[i]) == p->st.ball))
                v += 1 << 16; /* the ball goes somewhere */
        }
        /* the seeded tie-break: a hash of the decision, in the low bits */
        sc[i] = (int)((unsigned)v & ~63u) | (int)(mix64(a[i] ^ s->cfg.seed) & 63);
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        int v = sc[i], j = i;
        ball_action x = a[i];
        while (j > 0 && sc[j - 1] < v) {
            sc[j] = sc[j - 1];
            a[j] = a[j - 1];
            j--;
        }
        sc[j] = v;
        a[j] = x;
    }
}

static int search(struct worker *s, int depth, int alpha, int beta, int ply);

/* The value for the coach who plays @p a of the position after it. */
static int child_value(struct worker *s, ball_action a, int depth, int alpha, int beta, int ply)
{
    ball_game *g = s->g;
    int mover = g->p.st.side, v, rc;
    rc = ball_apply_unchecked(g, a);
    if (rc != BALL_OK) {
        if (rc != BALL_E_LIMIT)
            s->error = rc, s->aborted = 1;
        return 0;
    }
    s->nodes++;
    if (g->p.st.result != ONGOING) {
        int res = g->p.st.result;
        v = res == DRAWN ? 0 : res == (mover == ATK ? ATK_WON : DEF_WON) ? WIN - ply - 1 : -(WIN - ply - 1);
    } else if (g->p.st.side != mover) {
        v = -search(s, depth - 1, -beta, -alpha, ply + 1);
    } else {
        v = search(s, depth, alpha, beta, ply + 1);
    }
    ball_undo(g);
    return v;
}

static int search(struct worker *s, int depth, int alpha, int beta, int ply)
{
    ball_game *g = s->g;
    pos *p = &g->p;
    uint64_t key;
    struct tt_entry e;
    ball_action tt_move = BALL_ACTION_NONE, best_move = BALL_ACTION_NONE, *a;
    int n, best = -INF, alpha0 = alpha, side = p->st.side;

    if (out_of_budget(s))
        return 0;
    if (depth <= 0 || ply >= MAX_PLY - 8)
        return leaf_value(s, ply);
    key = pos_hash(p);
    if (tt_probe(s, key, &e)) {
        int v = from_tt(e.value, ply);
        tt_move = e.move;
        if (e.depth >= depth) {
            if (e.flag == TT_EXACT || (e.flag == TT_LOWER && v >= beta) ||
                (e.flag == TT_UPPER && v <= alpha))
                return v;
        }
    }
    a = ply_acts(s, ply);
    n = ball_legal_actions(g, a, BALL_MAX_ACTIONS);
    if (n <= 0)
        return 0; /* stopped at the turn bound: nothing more happens */
    order(s, ply, a, n, tt_move, depth);
    for (int i = 0; i < n; i++) {
        int v, full = 1;
        if (i >= LMR_FIRST && (depth >= 2 || (depth == 1 && p->st.turn != s->root_turn)) &&
            !takes_ball(p, a[i]) && !moves_ball(p, a[i])) {
            v = child_value(s, a[i], depth - 1, alpha, alpha + 1, ply);
            full = v > alpha;
        }
        if (full) {
            if (i == 0)
                v = child_value(s, a[i], depth, alpha, beta, ply);
            else {
                v = child_value(s, a[i], depth, alpha, alpha + 1, ply);
                if (v > alpha && v < beta && !s->aborted)
                    v = child_value(s, a[i], depth, alpha, beta, ply);
            }
        }
        if (s->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = a[i];
            if (v > alpha) {
                alpha = v;
                if (v >= beta) {
                    s->history[side][act_from(a[i]) & 127][act_to(a[i]) & 127] += depth * depth;
                    break;
                }
            }
        }
    }
    if (best_move != BALL_ACTION_NONE && best > alpha0)
        s->history[side][act_from(best_move) & 127][act_to(best_move) & 127] += depth;
    tt_store(s, key, depth, best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER, best,
             best_move, ply);
    return best;
}

/* ---------------------------------------------------------------- root */

static double squash(int v)
{
    if (v > WIN_BOUND)
        return 1.0;
    if (v < -WIN_BOUND)
        return -1.0;
    return v / ((v < 0 ? -v : v) + SQUASH);
}

/* The principal variation after root decision @p first: the table's
 * decisions, each checked legal, through the rest of the turn and the
 * opponent's reply turn. Writes at most BALL_SEARCH_PV_MAX decisions. */
static int collect_pv(struct worker *s, ball_action first, ball_action *pv, int *turn_len)
{
    ball_game *g = s->g;
    int n = 0, handovers = 0, side, tl = -1;
    ball_action a = first;
    while (n < BALL_SEARCH_PV_MAX && a != BALL_ACTION_NONE && ball_is_legal(g, a) == 1) {
        struct tt_entry e;
        side = g->p.st.side;
        if (ball_apply_unchecked(g, a) != BALL_OK)
            break;
        pv[n++] = a;
        if (g->p.st.result != ONGOING)
            break;
        if (g->p.st.side != side) {
            if (tl < 0)
                tl = n;
            if (++handovers >= 2)
                break;
        }
        a = tt_probe(s, pos_hash(&g->p), &e) ? e.move : BALL_ACTION_NONE;
    }
    for (int i = 0; i < n; i++)
        ball_undo(g);
    if (turn_len != NULL)
        *turn_len = tl < 0 ? n : tl;
    return n;
}

/* One iteration at @p depth over the root decisions; returns 0 when the
 * run was stopped before the first decision was searched. */
static int root_iteration(struct worker *s, int depth)
{
    int k = s->cfg.multipv < s->n_root ? s->cfg.multipv : s->n_root;
    int searched = 0;
    /* the order: last iteration's values, best first (stable) */
    for (int i = 1; i < s->n_root; i++) {
        struct root_move x = s->root[i];
        int j = i;
        while (j > 0 && s->root[j - 1].order < x.order) {
            s->root[j] = s->root[j - 1];
            j--;
        }
        s->root[j] = x;
    }
    for (int i = 0; i < s->n_root; i++) {
        struct root_move *r = &s->root[i];
        uint64_t before = s->nodes;
        int alpha = -INF, v;
        /* alpha: the k-th best exact value of this iteration */
        if (searched >= k) {
            int cnt = 0;
            alpha = INF;
            for (int j = 0; j < i; j++)
                if (s->root[j].depth == depth && !s->root[j].bound)
                    cnt++;
            if (cnt >= k) {
                /* the k-th largest exact value among those searched */
                int vals[256], m = 0;
                for (int j = 0; j < i && m < 256; j++)
                    if (s->root[j].depth == depth && !s->root[j].bound)
                        vals[m++] = s->root[j].value;
                for (int x = 0; x < k; x++)
                    for (int y = x + 1; y < m; y++)
                        if (vals[y] > vals[x]) {
                            int t = vals[x];
                            vals[x] = vals[y];
                            vals[y] = t;
                        }
                alpha = vals[k - 1];
            } else {
                alpha = -INF;
            }
        }
        if (alpha == -INF) {
            v = child_value(s, r->action, depth, -INF, INF, 0);
        } else {
            v = child_value(s, r->action, depth, alpha, alpha + 1, 0);
            if (v > alpha && !s->aborted)
                v = child_value(s, r->action, depth, alpha, INF, 0);
        }
        if (s->aborted)
            break;
        r->value = v;
        r->bound = alpha != -INF && v <= alpha;
        r->depth = depth;
        r->nodes = s->nodes - before;
        searched++;
    }
    for (int i = 0; i < s->n_root; i++) {
        struct root_move *r = &s->root[i];
        r->order = r->depth == depth ? (r->bound ? r->value - 1 : r->value) : r->value - 2 * WIN;
        if (r->depth == depth && !r->bound)
            r->order += 0; /* exact values first among equals */
    }
    return searched;
}

/* 1 when root decision @p q ranks before @p p: deeper, then exact before
 * a bound, then the higher value. */
static int line_before(const struct root_move *q, const struct root_move *p)
{
    return q->depth > p->depth ||
           (q->depth == p->depth && ((!q->bound && p->bound) ||
                                     (q->bound == p->bound && q->value > p->value)));
}

/* The best root decision by the latest values (deepest first). */
static int best_root(const struct worker *s)
{
    int b = 0;
    for (int i = 1; i < s->n_root; i++) {
        const struct root_move *x = &s->root[i], *y = &s->root[b];
        if (x->depth > y->depth || (x->depth == y->depth && !x->bound && (y->bound || x->value > y->value)))
            b = i;
    }
    return b;
}

static void fill_result(struct worker *s, int best_i)
{
    ball_search_result r;
    const struct root_move *b = &s->root[best_i];
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.best = b->action;
    r.value = squash(b->value);
    r.proven = b->value > WIN_BOUND ? 1 : b->value < -WIN_BOUND ? -1 : 0;
    r.decisions_to_end = r.proven ? WIN - (b->value < 0 ? -b->value : b->value) : 0;
    r.depth = s->done_depth;
    r.nodes = s->nodes;
    r.elapsed_ms = now_ms() - s->start;
    r.stopped = s->stopped;
    s->last = r;
    s->have_last = 1;
}

static void report(struct worker *s)
{
    ball_search_info info;
    if (s->cfg.info == NULL)
        return;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    info.nodes = s->nodes;
    info.depth = s->done_depth;
    info.value = s->last.value;
    info.proven = s->last.proven;
    info.elapsed_ms = now_ms() - s->start;
    info.pv = s->pv;
    info.pv_len = s->pv_len;
    s->last_info = now_ms();
    if (s->cfg.info(s->cfg.info_ud, &info) != 0)
        s->aborted = s->stopped = 1;
}

/* Sets worker @p s up for a run on @p g (legal decisions checked by the
 * caller): the shared table's generation, the root decisions in order. */
static void prepare(struct worker *s, ball_search *bs, ball_game *g, int n)
{
    ball_action *a;
    s->cfg = bs->cfg;
    s->tt = bs->tt;
    s->tt_mask = bs->tt_mask;
    s->gen = bs->gen;
    s->eval_fn = bs->eval_fn;
    s->eval_ud = bs->eval_ud;
    s->prior_fn = bs->prior_fn;
    s->prior_ud = bs->prior_ud;
    s->g = g;
    s->nodes = 0;
    s->start = s->last_info = now_ms();
    s->aborted = s->stopped = s->error = 0;
    s->done_depth = 0;
    s->pv_len = 0;
    s->have_last = 0;
    s->root_side = g->p.st.side;
    s->root_turn = g->p.st.turn;
    if (s->id > 0) /* helpers: another order of equal decisions, no callback */
        s->cfg.seed = mix64(s->cfg.seed + (uint64_t)s->id), s->cfg.info = NULL;
    /* history ages: halve it */
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 128; i++)
            for (int j = 0; j < 128; j++)
                s->history[t][i][j] /= 2;
    a = ply_acts(s, 0);
    n = ball_legal_actions(g, a, BALL_MAX_ACTIONS);
    order(s, 0, a, n, BALL_ACTION_NONE, 1);
    s->n_root = n;
    for (int i = 0; i < n; i++) {
        s->root[i].action = a[i];
        s->root[i].value = -INF;
        s->root[i].bound = 1;
        s->root[i].depth = 0;
        s->root[i].nodes = 0;
        s->root[i].order = n - i; /* the heuristic order */
    }
    {
        struct tt_entry e;
        if (tt_probe(s, pos_hash(&g->p), &e) && e.move != BALL_ACTION_NONE)
            for (int i = 0; i < n; i++)
                if (s->root[i].action == e.move)
                    s->root[i].order = n + 1;
    }
}

/* Iterative deepening from depth @p first; the main thread keeps the
 * result and reports. */
static void deepen(struct worker *s, int first)
{
    int max_depth = s->cfg.depth > 0 ? s->cfg.depth : MAX_DEPTH, b;
    if (s->n_root <= 1)
        return;
    for (int d = first; d <= max_depth; d++) {
        int searched = root_iteration(s, d);
        if (s->error)
            return;
        if (searched == s->n_root)
            s->done_depth = d;
        if (searched > 0 && s->id == 0) {
            b = best_root(s);
            fill_result(s, b);
            s->pv_len = collect_pv(s, s->root[b].action, s->pv, &s->turn_len);
        }
        if (s->aborted)
            break;
        if (s->id == 0)
            report(s);
        if (s->aborted)
            break;
        /* a proven result needs no deeper search */
        b = best_root(s);
        if (s->root[b].value > WIN_BOUND || s->root[b].value < -WIN_BOUND) {
            int all_lost = 1;
            for (int i = 0; i < s->n_root; i++)
                if (s->root[i].value >= -WIN_BOUND)
                    all_lost = 0;
            if (s->root[b].value > WIN_BOUND || all_lost)
                break;
        }
    }
}

#if SEARCH_THREADS
/* A helper's run: the main thread's position in its own game, searched
 * until the main thread halts it; odd helpers start one turn deeper, so
 * that the threads do not all search the same depth at once. */
static void helper_run(struct worker *w)
{
    ball_search *bs = w->owner;
    prepare(w, bs, bs->helper_game[w->id], 0);
    w->cfg.nodes = 0; /* the main thread's budget stops everyone */
    w->cfg.time_ms = 0;
    deepen(w, 1 + (w->id & 1));
    w->g = NULL;
}
#endif

int ball_search_run(ball_search *bs, ball_game *g, ball_search_result *result)
{
    int n, rc;
    struct worker *s;

    if (g == NULL)
        return BALL_E_ARG;
    if (bs == NULL)
        return game_error(g, BALL_E_ARG, "search: NULL searcher");
    if (result != NULL && !sized_published(result->size, RESULT_SIZES, N_SIZES(RESULT_SIZES)))
        return game_error(g, BALL_E_ARG, "search: result size %zu is not a published size "
                          "(initialise with ball_search_result_init(&r, sizeof r))", result->size);
    s = &bs->w[0];
    n = ball_legal_actions(g, s->acts, BALL_MAX_ACTIONS);
    if (n < 0)
        return n;
    if (n == 0)
        return game_error(g, BALL_E_RANGE, "search: %s: there is no decision to choose",
                          g->p.st.result != ONGOING ? "the game is over"
                          : "the game is stopped at turn 999999999");
    rc = ball_history_reserve(g, MAX_PLY + 8);
    if (rc != BALL_OK)
        return rc;
    bs->gen++;
    atomic_store_explicit(&bs->stop, 0, memory_order_relaxed);
    atomic_store_explicit(&bs->halt, 0, memory_order_relaxed);
    prepare(s, bs, g, n);
#if SEARCH_THREADS
    if (bs->n_threads > 0 && n > 1) {
        /* the position into each helper's game, before the main thread
         * starts changing its own (a position is a plain value; the
         * helper keeps its own history buffers) */
        for (int i = 1; i < bs->n_workers; i++) {
            ball_game *h = bs->helper_game[i];
            h->p = g->p;
            h->rules = g->rules;
            ruleset_rebind(&h->rules);
            h->nhist = 0;
        }
        pthread_mutex_lock(&bs->mu);
        bs->running = bs->n_threads;
        bs->job++;
        pthread_cond_broadcast(&bs->cv_go);
        pthread_mutex_unlock(&bs->mu);
    }
#endif
    deepen(s, 1);
#if SEARCH_THREADS
    if (bs->n_threads > 0 && n > 1) {
        atomic_store_explicit(&bs->halt, 1, memory_order_relaxed);
        pthread_mutex_lock(&bs->mu);
        while (bs->running > 0)
            pthread_cond_wait(&bs->cv_done, &bs->mu);
        pthread_mutex_unlock(&bs->mu);
        for (int i = 1; i < bs->n_workers; i++)
            s->helper_nodes += bs->w[i].nodes;
    }
#endif
    if (s->error)
        return s->error;
    if (!s->have_last) { /* one decision, or stopped before any was searched */
        s->root[0].value = 0;
        s->root[0].bound = 0;
        fill_result(s, 0);
        s->pv_len = collect_pv(s, s->root[0].action, s->pv, &s->turn_len);
    }
    /* the lines of the best root decisions, for ball_search_lines() */
    for (int i = 0; i < s->n_root; i++) {
        int rank = 0;
        for (int j = 0; j < s->n_root; j++)
            if (line_before(&s->root[j], &s->root[i]))
                rank++;
        if (rank < LINES_PV)
            s->line_pv_len[i] = collect_pv(s, s->root[i].action, s->line_pv[i], NULL);
        else {
            s->line_pv_len[i] = 1;
            s->line_pv[i][0] = s->root[i].action;
        }
    }
    s->last.nodes = s->nodes + s->helper_nodes;
    s->last.depth = s->done_depth;
    s->last.elapsed_ms = now_ms() - s->start;
    s->last.stopped = s->stopped;
    s->helper_nodes = 0;
    if (result != NULL)
        sized_write(result, result->size, &s->last, sizeof s->last);
    s->g = NULL;
    return game_ok(g);
}

/* ---------------------------------------------------------------- analysis */

int ball_search_lines(const ball_search *bs, ball_search_line *lines, size_t max)
{
    const struct worker *s = bs != NULL ? &bs->w[0] : NULL;
    size_t stride;
    int order_idx[BALL_MAX_ACTIONS];
    if (s == NULL || (lines == NULL && max > 0))
        return BALL_E_ARG;
    if (max > 0 && !sized_published(lines[0].size, LINE_SIZES, N_SIZES(LINE_SIZES)))
        return BALL_E_ARG;
    if (!s->have_last)
        return 0;
    stride = max > 0 ? lines[0].size : 0;
    for (int i = 0; i < s->n_root; i++)
        order_idx[i] = i;
    for (int i = 1; i < s->n_root; i++) { /* by depth, exactness, value */
        int x = order_idx[i], j = i;
        while (j > 0) {
            if (!line_before(&s->root[x], &s->root[order_idx[j - 1]]))
                break;
            order_idx[j] = order_idx[j - 1];
            j--;
        }
        order_idx[j] = x;
    }
    for (size_t k = 0; k < max && k < (size_t)s->n_root; k++) {
        ball_search_line l;
        const struct root_move *r = &s->root[order_idx[k]];
        ball_search_line *dst = (ball_search_line *)((char *)lines + k * stride);
        if (dst->size != stride)
            return BALL_E_ARG;
        memset(&l, 0, sizeof l);
        l.size = stride;
        l.action = r->action;
        l.value = r->depth > 0 ? squash(r->value) : 0.0;
        l.bound = r->bound;
        l.proven = r->bound ? 0 : r->value > WIN_BOUND ? 1 : r->value < -WIN_BOUND ? -1 : 0;
        l.depth = r->depth;
        l.nodes = r->nodes;
        l.pv_len = s->line_pv_len[order_idx[k]];
        memcpy(l.pv, s->line_pv[order_idx[k]], (size_t)l.pv_len * sizeof l.pv[0]);
        sized_write(dst, stride, &l, sizeof l);
    }
    return s->n_root;
}

int ball_search_best_turn(const ball_search *bs, ball_action *actions, size_t cap)
{
    const struct worker *s = bs != NULL ? &bs->w[0] : NULL;
    int n;
    if (s == NULL || actions == NULL)
        return BALL_E_ARG;
    if (!s->have_last)
        return 0;
    n = s->turn_len;
    if ((size_t)n > cap)
        return BALL_E_BUFFER;
    memcpy(actions, s->pv, (size_t)n * sizeof *actions);
    return n;
}
