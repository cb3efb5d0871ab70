/* SPDX-License-Identifier: MIT */
/* Monte-Carlo tree search player (ball.h, "Search"; docs/players.md).
 *
 * UCT over whole decisions: every node is a position reached by one
 * decision from its parent and stores the visits and the summed reward of
 * that decision for the coach who made it (the coach to act at the parent;
 * a turn is several decisions of one coach, so sides do not simply
 * alternate). Each iteration walks down by UCB1 from the root, expands one
 * untried decision of the first node that has some (the untried ones are
 * taken in a per-node pseudo-random order), plays out from there, and
 * backs the reward up the path.
 *
 * A playout closes the turn in progress at once (`end`, then random
 * release tasks), then plays random decisions with ball_random_action()
 * to the end of the game (at most PLAYOUT_MAX decisions) or, with
 * playout_turns N > 0, until N hand-overs (the first one closes the turn
 * in progress); a position left unfinished is scored by a small
 * evaluation (ball held and brought forward, pieces down, pieces
 * advanced) squashed into (0, 1).
 * Closing the turn at once, and the default N = 1 (score the position the
 * turn leaves), are what made the player strong (docs/players.md): random
 * moves at the end of a turn mostly undo what the tree chose, and longer
 * random playouts mostly add noise.
 *
 * Memory: the node pool and the decision buffer are allocated by
 * ball_mcts_new(); a search allocates nothing (the game's undo history is
 * reserved once per search, which allocates only when it must grow). The
 * searcher works on the caller's game with apply/undo and leaves it as it
 * was. No global state: the random generator is the searcher's own.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_mcts_root_decisions() */

#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h> /* sqrt_pos() */
#endif

#include "ball.h"
#include "game.h"
#include "action.h"
#include "sized.h"
#include "config_check.h"
#include "err_text.h"

/* Longest playout in decisions (a game without turn limit could go on
 * forever); a playout cut here is scored by the evaluation. */
#define PLAYOUT_MAX 2000
/* Deepest tree path followed; deeper nodes are not expanded. */
#define TREE_DEPTH_MAX 512
/* Nodes allocated for a time budget without a node limit: per ms. */
#define NODES_PER_MS 400
#define NODES_MIN 1024
#define NODES_MAX 50000000
/* The decision `end` (R4.2). */
#define END_ACTION act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0)

struct node {
    ball_action action;   /* the decision that leads here (0 at the root) */
    int32_t parent;       /* -1 at the root */
    int32_t first_child;  /* -1: none yet */
    int32_t next_sibling; /* -1: last */
    int16_t n_legal;      /* legal decisions here; -1 not counted yet */
    int16_t n_expanded;   /* children made so far */
    uint8_t mover;        /* the coach who made `action` */
    uint8_t terminal;     /* 1: the game is over here */
    uint32_t order_seed;  /* order of expansion of the untried decisions */
    uint32_t visits;
    double reward;        /* summed reward for `mover`, each in [0, 1] */
};

struct ball_mcts {
    ball_mcts_config cfg;
    uint64_t rng;        /* splitmix64 state */
    struct node *nodes;
    size_t cap, used;
    ball_action *acts;   /* BALL_MAX_ACTIONS */
};

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The sizeof of every published ball_mcts_config and ball_mcts_stats
 * layout (docs/abi.md): each release's, named by its last field, then this
 * version's own. A release that appends a field adds the previous last
 * field's layout here. */
static const size_t CONFIG_SIZES[] = {
    SIZED_LAYOUT(ball_mcts_config, playout_turns), /* 1.0 */
    sizeof(ball_mcts_config),
};
static const size_t STATS_SIZES[] = {
    SIZED_LAYOUT(ball_mcts_stats, elapsed_ms), /* 1.0 */
    sizeof(ball_mcts_stats),
};
#define N_SIZES(a) (sizeof a / sizeof a[0])

void ball_mcts_config_init(ball_mcts_config *cfg, size_t size)
{
    /* no time limit; max_nodes 0: the pool sized from the budget */
    static const ball_mcts_config DEFAULTS = {
        .seed = 1, .playouts = 1000, .exploration = 0.3, .playout_turns = 1,
    };
    if (cfg != NULL)
        sized_defaults_init(cfg, size, &DEFAULTS, sizeof DEFAULTS);
}

void ball_mcts_stats_init(ball_mcts_stats *stats, size_t size)
{
    if (stats != NULL)
        sized_zero_init(stats, size, sizeof(ball_mcts_stats));
}

/* An MCTS player needs a budget. */
static int has_budget(const void *cfg)
{
    const ball_mcts_config *c = cfg;
    return c->playouts != 0 || c->time_ms != 0;
}

/* The ranges of ball_mcts_config (ball.h), in the order they are checked
 * (config_check.h); the first four share one message. */
#define MCTS_GROUP(field, lo, hi) CFG_GROUP(ball_mcts_config, CFG_INT, field, lo, hi, 1, BALL_E_RANGE)
static const struct cfg_rule CONFIG_RULES[] = {
    MCTS_GROUP(playouts, 0, 1000000000),
    MCTS_GROUP(time_ms, 0, DAY_MS),
    MCTS_GROUP(max_nodes, 0, CFG_NO_MAX),
    MCTS_GROUP(playout_turns, 0, 1000),
    CFG_TEST(has_budget, "no budget: set playouts, time_ms or both", BALL_E_RANGE),
    CFG_RANGE(ball_mcts_config, CFG_DOUBLE, exploration, 0, 100, BALL_E_RANGE),
};
static const struct cfg_spec CONFIG = {
    "mcts", "ball_mcts_config", CONFIG_SIZES, N_SIZES(CONFIG_SIZES), CONFIG_RULES, N_SIZES(CONFIG_RULES),
};

int ball_mcts_new(ball_mcts **out, const ball_mcts_config *cfg, char *err, size_t errlen)
{
    ball_mcts_config c;
    ball_mcts *m;
    size_t cap;
    int rc;

    if (out != NULL)
        *out = NULL;
    ball_mcts_config_init(&c, sizeof c);
    if ((rc = cfg_read(out != NULL, &c, sizeof c, cfg, &CONFIG, err, errlen)) != BALL_OK)
        return rc;
    if (c.max_nodes > 0)
        cap = (size_t)c.max_nodes;
    else if (c.playouts > 0)
        cap = (size_t)c.playouts + 1;
    else
        cap = (size_t)c.time_ms * NODES_PER_MS;
    if (cap < NODES_MIN)
        cap = NODES_MIN;
    if (cap > NODES_MAX)
        cap = NODES_MAX;

    m = calloc(1, sizeof *m);
    if (m != NULL) {
        m->nodes = malloc(cap * sizeof *m->nodes);
        m->acts = malloc(BALL_MAX_ACTIONS * sizeof *m->acts);
    }
    if (m == NULL || m->nodes == NULL || m->acts == NULL) {
        if (m != NULL) {
            free(m->nodes);
            free(m->acts);
            free(m);
        }
        return err_text(err, errlen, BALL_E_NOMEM, "mcts: out of memory for the node pool");
    }
    m->cfg = c;
    m->cap = cap;
    m->rng = c.seed;
    *out = m;
    return BALL_OK;
}

void ball_mcts_free(ball_mcts *m)
{
    if (m == NULL)
        return;
    free(m->nodes);
    free(m->acts);
    free(m);
}

int ball_mcts_seed(ball_mcts *m, uint64_t seed)
{
    if (m == NULL)
        return BALL_E_ARG;
    m->rng = seed;
    return BALL_OK;
}

/* ---------------------------------------------------------------- arithmetic */

/* The library links without libm. The square root of UCB1 is the IEEE
 * one (correctly rounded, so the same on every machine and the decisions
 * too): the SSE2 instruction on x86-64, the native one on AArch64 and
 * WebAssembly (where __builtin_sqrt needs no libm), and elsewhere an exact
 * integer square root of the significand (sqrt_exact()). A Newton
 * iteration here took half of the search's time (issue 25). */
/* The correctly rounded square root of a positive normal double, with
 * integers only: x = m 2^e with e even, sqrt(x) = isqrt(m 2^52) 2^(e/2 -
 * 26), the integer root rounded to nearest (no ties: N - s^2 > s exactly
 * when sqrt(N) > s + 1/2). */
#if defined(__GNUC__)
__attribute__((unused)) /* compiled everywhere, called where no instruction is used */
#endif
static inline double sqrt_exact(double x)
{
    uint64_t bits, m;
    int e;
    unsigned __int128 n, s, lo, hi;
    memcpy(&bits, &x, sizeof bits);
    e = (int)((bits >> 52) & 0x7ff);
    if (e == 0 || e == 0x7ff) /* subnormal, infinite or NaN: never met by UCB1 */
        return x;
    m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    e -= 1075;
    if (e & 1) {
        m <<= 1;
        e -= 1;
    }
    n = (unsigned __int128)m << 52;
    lo = (unsigned __int128)1 << 52; /* isqrt(n) lies in [2^52, 2^53) */
    hi = (unsigned __int128)1 << 53;
    while (hi - lo > 1) { /* bisection: s^2 <= n < (s + 1)^2 */
        unsigned __int128 mid = (lo + hi) / 2;
        if (mid * mid <= n)
            lo = mid;
        else
            hi = mid;
    }
    s = lo;
    if (n - s * s > s)
        s++;
    e = e / 2 - 26;
    if (s == (unsigned __int128)1 << 53) {
        s >>= 1;
        e++;
    }
    bits = ((uint64_t)(e + 52 + 1023) << 52) | ((uint64_t)s & ((1ULL << 52) - 1));
    memcpy(&x, &bits, sizeof x);
    return x;
}

static double sqrt_pos(double x)
{
    if (!(x > 0.0))
        return 0.0;
#if defined(__SSE2__)
    return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x)));
#elif defined(__aarch64__) && defined(__GNUC__)
    double r;
    __asm__("fsqrt %d0, %d1" : "=w"(r) : "w"(x));
    return r;
#elif defined(__wasm__)
    return __builtin_sqrt(x);
#else
    return sqrt_exact(x);
#endif
}

/* Natural logarithm of x >= 1. */
static double log_ge1(double x)
{
    double k = 0.0, y, y2, sum, term;
    while (x >= 2.0) {
        x *= 0.5;
        k += 1.0;
    }
    /* ln x = 2 atanh((x - 1) / (x + 1)), x in [1, 2): the series converges fast */
    y = (x - 1.0) / (x + 1.0);
    y2 = y * y;
    sum = 0.0;
    term = y;
    for (int n = 1; n < 30; n += 2) {
        sum += term / n;
        term *= y2;
    }
    return 2.0 * sum + k * 0.69314718055994530942;
}

/* ---------------------------------------------------------------- evaluation */

/* Row of @p sq counted towards the row @p team scores in (17). */
static int forward_row(int sq, int team)
{
    return team == ATK ? SQ_ROW[sq] : BALL_NUM_ROWS + 1 - SQ_ROW[sq];
}

/* The evaluation of a position for ATK, unbounded: the ball held and
 * brought forward (or, loose, how far forward it lies), pieces down and
 * pieces advanced (top pieces: the only or upper piece of a square). */
static double evaluate_atk(const pos *p)
{
    int ball = p->st.ball, holder = p->top[ball], s;
    double score = 0;

    if (holder == 0)
        score += 0.5 * (forward_row(ball, ATK) - 9);
    else if (pc_team(holder) == ATK)
        score += 10 + forward_row(ball, ATK);
    else
        score -= 10 + forward_row(ball, DEF);
    for (int t = 0; t < 2; t++) {
        double sign = t == ATK ? 1.0 : -1.0;
        for (BB_EACH(s, p->piece[t])) {
            if (pc_down(p->top[s]))
                score -= sign * 0.3;
            score += sign * 0.02 * forward_row(s, t);
        }
    }
    return score;
}

/* The reward of a position for ATK in [0, 1]. */
static double reward_atk(ball_game *g)
{
    const pos *p = &g->p;
    double score;

    if (p->st.result == ATK_WON)
        return 1.0;
    if (p->st.result == DEF_WON)
        return 0.0;
    if (p->st.result == DRAWN)
        return 0.5;
    score = evaluate_atk(p) / 8.0; /* squash into (0, 1) */
    return 0.5 + 0.5 * score / (1.0 + (score < 0 ? -score : score));
}

/* ---------------------------------------------------------------- search */

static int32_t new_node(ball_mcts *m, int32_t parent, ball_action a, int mover, int terminal)
{
    struct node *n;
    if (m->used >= m->cap)
        return -1;
    n = &m->nodes[m->used];
    n->action = a;
    n->parent = parent;
    n->first_child = -1;
    n->next_sibling = -1;
    n->n_legal = -1;
    n->n_expanded = 0;
    n->mover = (uint8_t)mover;
    n->terminal = (uint8_t)terminal;
    n->order_seed = (uint32_t)splitmix64(&m->rng);
    n->visits = 0;
    n->reward = 0;
    return (int32_t)m->used++;
}

/* The untried decision number k of node @p n (0 <= k < count): element k
 * of a shuffle of the legal list seeded by the node. */
static ball_action untried(ball_mcts *m, ball_game *g, const struct node *n, int k)
{
    int count = ball_legal_actions(g, m->acts, BALL_MAX_ACTIONS);
    uint64_t s = n->order_seed;
    for (int i = 0; i <= k && i < count; i++) { /* partial Fisher-Yates */
        int j = i + (int)(splitmix64(&s) % (uint64_t)(count - i));
        ball_action t = m->acts[i];
        m->acts[i] = m->acts[j];
        m->acts[j] = t;
    }
    return m->acts[k];
}

static int32_t select_child(const ball_mcts *m, const struct node *n)
{
    double log_n = log_ge1((double)n->visits + 1.0), best = -1.0;
    int32_t best_i = -1;
    for (int32_t c = n->first_child; c >= 0; c = m->nodes[c].next_sibling) {
        const struct node *ch = &m->nodes[c];
        double v = ch->visits ? ch->reward / ch->visits : 0.5;
        v += m->cfg.exploration * sqrt_pos(log_n / ((double)ch->visits + 1e-9));
        if (v > best) {
            best = v;
            best_i = c;
        }
    }
    return best_i;
}

/* The playout from a leaf: the turn in progress is closed at once (`end`,
 * then its release tasks at random: random moves would mostly spoil the
 * turn the tree chose), then random decisions follow until the game ends
 * or playout_turns hand-overs have happened. Returns the reward for ATK
 * and takes the decisions back. */
static double playout(ball_mcts *m, ball_game *g, int *rc)
{
    int played = 0, turns = 0, side = g->p.st.side;
    double r;
    while (played < PLAYOUT_MAX && g->p.st.result == ONGOING) {
        ball_action a = END_ACTION;
        int e;
        if ((turns > 0 || g->p.st.phase != PHASE_ACTION) &&
            ball_random_action(g, splitmix64(&m->rng), &a) != BALL_OK)
            break;
        e = ball_apply_unchecked(g, a);
        if (e != BALL_OK) {
            if (e != BALL_E_LIMIT)
                *rc = e;
            break;
        }
        played++;
        if (g->p.st.side != side) { /* a hand-over: counted whatever playout_turns is */
            side = g->p.st.side;
            turns++;
            if (m->cfg.playout_turns > 0 && turns >= m->cfg.playout_turns)
                break;
        }
    }
    r = reward_atk(g);
    while (played-- > 0)
        ball_undo(g);
    return r;
}

/* An immediate touchdown for the coach to act, or 0. */
static ball_action winning_now(ball_mcts *m, ball_game *g)
{
    int side = ball_side(g), n = ball_legal_actions(g, m->acts, BALL_MAX_ACTIONS);
    int won = side == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON;
    for (int i = 0; i < n; i++) {
        int res;
        if (ball_apply_unchecked(g, m->acts[i]) != BALL_OK)
            continue;
        res = ball_result(g);
        ball_undo(g);
        if (res == won)
            return m->acts[i];
    }
    return BALL_ACTION_NONE;
}

/* ---------------------------------------------------------------- one iteration */

/* One iteration from the root: selection down the tree by UCB1,
 * expansion of one untried decision, a playout, back-propagation; the game
 * is left as it was. Updates @p max_depth; returns BALL_OK or an error. */
static int iterate(ball_mcts *m, ball_game *game, int *max_depth)
{
    int32_t cur = 0;
    int depth = 0, rc = BALL_OK;
    double r;

    for (;;) {
        struct node *n = &m->nodes[cur];
        int32_t child;
        if (n->terminal)
            break;
        if (n->n_legal < 0)
            n->n_legal = (int16_t)ball_legal_actions(game, NULL, 0);
        if (n->n_expanded < n->n_legal) {
            int mover = game->p.st.side;
            ball_action d;
            if (m->used >= m->cap || depth >= TREE_DEPTH_MAX)
                break; /* pool full: play out from here */
            d = untried(m, game, n, n->n_expanded);
            if ((rc = ball_apply_unchecked(game, d)) != BALL_OK)
                break;
            depth++;
            child = new_node(m, cur, d, mover, game->p.st.result != ONGOING);
            m->nodes[child].next_sibling = n->first_child;
            n->first_child = child;
            n->n_expanded++;
            cur = child;
            break;
        }
        child = select_child(m, n);
        if (child < 0)
            break;
        if ((rc = ball_apply_unchecked(game, m->nodes[child].action)) != BALL_OK)
            break;
        depth++;
        cur = child;
    }
    if (rc == BALL_E_LIMIT) /* the turn counter's bound: score it where it stands */
        rc = BALL_OK;
    if (rc == BALL_OK) {
        r = m->nodes[cur].terminal ? reward_atk(game) : playout(m, game, &rc);
        for (int32_t i = cur; rc == BALL_OK && i >= 0; i = m->nodes[i].parent) {
            struct node *n = &m->nodes[i];
            n->visits++;
            n->reward += n->mover == ATK ? r : 1.0 - r;
        }
    }
    if (depth > *max_depth)
        *max_depth = depth;
    while (depth-- > 0)
        ball_undo(game);
    return rc;
}

/* The root's most visited child (ties to the better mean), or -1. */
static int32_t most_visited(const ball_mcts *m)
{
    int32_t best = -1;
    for (int32_t c = m->nodes[0].first_child; c >= 0; c = m->nodes[c].next_sibling) {
        const struct node *ch = &m->nodes[c], *b = best >= 0 ? &m->nodes[best] : NULL;
        if (b == NULL || ch->visits > b->visits ||
            (ch->visits == b->visits && ch->reward * b->visits > b->reward * ch->visits))
            best = c;
    }
    return best;
}

/* 1 when root child @p a ranks before root child @p b in
 * ball_mcts_root_decisions(): more visits, then the better mean, then the
 * one most_visited() meets first (the later node: children are prepended). */
static int ranks_before(const ball_mcts *m, int32_t a, int32_t b)
{
    const struct node *x = &m->nodes[a], *y = &m->nodes[b];
    double lx = x->reward * y->visits, ly = y->reward * x->visits;
    if (x->visits != y->visits)
        return x->visits > y->visits;
    if (lx != ly)
        return lx > ly;
    return a > b;
}

int ball_mcts_root_decisions(const ball_mcts *m, ball_action *actions, uint32_t *visits,
                             double *values, size_t cap)
{
    int n = 0;
    int32_t prev = -1;
    if (m == NULL)
        return BALL_E_ARG;
    if (m->used == 0)
        return 0;
    for (int32_t c = m->nodes[0].first_child; c >= 0; c = m->nodes[c].next_sibling)
        n++;
    /* the k-th of the order by one scan each, since the caller's arrays
     * (any may be NULL) cannot serve as workspace: at most
     * BALL_MAX_ACTIONS^2 comparisons */
    for (size_t k = 0; k < cap && k < (size_t)n; k++) {
        int32_t best = -1;
        for (int32_t c = m->nodes[0].first_child; c >= 0; c = m->nodes[c].next_sibling)
            if ((prev < 0 || ranks_before(m, prev, c)) && (best < 0 || ranks_before(m, c, best)))
                best = c;
        const struct node *b = &m->nodes[best];
        if (actions != NULL)
            actions[k] = b->action;
        if (visits != NULL)
            visits[k] = b->visits;
        if (values != NULL)
            values[k] = b->visits ? b->reward / b->visits : 0.5;
        prev = best;
    }
    return n;
}

/* A decision that needs no search (the only legal one, or an immediate
 * touchdown), or BALL_ACTION_NONE; @p value receives its value for the
 * coach to act. */
static ball_action obvious(ball_mcts *m, ball_game *game, int n_root, double *value)
{
    if (n_root == 1) {
        double r = reward_atk(game);
        ball_legal_actions(game, m->acts, BALL_MAX_ACTIONS);
        *value = game->p.st.side == ATK ? r : 1.0 - r;
        return m->acts[0];
    }
    *value = 1.0;
    return winning_now(m, game);
}

/* Writes what the search did into the caller's stats, no further than its
 * size (a published one). */
static void fill_stats(ball_mcts_stats *stats, uint64_t playouts, size_t nodes, int max_depth,
                       const struct node *chosen, double value, double start)
{
    ball_mcts_stats s;
    if (stats == NULL)
        return;
    memset(&s, 0, sizeof s);
    s.size = stats->size;
    s.playouts = playouts;
    s.nodes = nodes;
    s.max_depth = max_depth;
    s.visits = chosen != NULL ? chosen->visits : 0;
    s.value = chosen == NULL ? value : chosen->visits ? chosen->reward / chosen->visits : 0.5;
    s.elapsed_ms = now_ms() - start;
    sized_write(stats, stats->size, &s, sizeof s);
}

int ball_mcts_choose(ball_mcts *m, ball_game *game, ball_action *out, ball_mcts_stats *stats)
{
    double start, value;
    uint64_t iters = 0;
    int rc, max_depth = 0, n_root;
    int32_t best;
    ball_action a;

    if (game == NULL)
        return BALL_E_ARG;
    if (m == NULL || out == NULL)
        return game_error(game, BALL_E_ARG, "mcts: NULL %s", m == NULL ? "searcher" : "output pointer");
    if (stats != NULL && !sized_published(stats->size, STATS_SIZES, N_SIZES(STATS_SIZES)))
        return game_error(game, BALL_E_ARG, "mcts: stats size %zu is not a published size "
                          "(initialise with ball_mcts_stats_init(&stats, sizeof stats))", stats->size);
    n_root = ball_legal_actions(game, NULL, 0);
    if (n_root < 0)
        return n_root;
    if (n_root == 0)
        return game_error(game, BALL_E_RANGE, "mcts: %s: there is no decision to choose",
                          game->p.st.result == ATK_WON ? "the game is over (ATK won)" : game->p.st.result == DEF_WON ? "the game is over (DEF won)" : game->p.st.result == DRAWN ? "the game is over (a draw)" : "the game is stopped at turn 999999999 (each decision would hand the turn over)");
    rc = ball_history_reserve(game, TREE_DEPTH_MAX + PLAYOUT_MAX + 2);
    if (rc != BALL_OK)
        return rc;
    start = now_ms();
    m->used = 0;
    new_node(m, -1, BALL_ACTION_NONE, !game->p.st.side, 0);

    a = obvious(m, game, n_root, &value);
    if (a != BALL_ACTION_NONE) {
        *out = a;
        fill_stats(stats, 0, m->used, 0, NULL, value, start);
        return game_ok(game);
    }
    while (!(m->cfg.playouts > 0 && iters >= (uint64_t)m->cfg.playouts) &&
           !(m->cfg.time_ms > 0 && iters > 0 && now_ms() - start >= (double)m->cfg.time_ms)) {
        if ((rc = iterate(m, game, &max_depth)) != BALL_OK)
            return rc;
        iters++;
    }
    best = most_visited(m);
    if (best < 0) { /* no iteration at all: any legal decision */
        ball_legal_actions(game, m->acts, BALL_MAX_ACTIONS);
        *out = m->acts[0];
    } else {
        *out = m->nodes[best].action;
    }
    fill_stats(stats, iters, m->used, max_depth, best < 0 ? NULL : &m->nodes[best], 0.5, start);
    return game_ok(game);
}
