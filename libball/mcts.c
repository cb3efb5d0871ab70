/* Monte-Carlo tree search player (ball.h, "Search"; docs/players.md).
 *
 * UCT over whole decisions: every node is a position reached by one
 * decision from its parent and stores the visits and the summed reward of
 * that decision for the coach who made it (the coach to act at the parent;
 * a turn is several decisions of one coach, so sides do not simply
 * alternate). Each iteration walks down by UCB1 from the root, expands one
 * untried decision of the first node that has some (the untried ones are
 * taken in a per-node pseudo-random order), plays a random playout with
 * ball_random_action() from there, and backs the reward up the path.
 *
 * A playout goes to the end of the game, or, with playout_turns N > 0,
 * stops after N hand-overs and is scored by a small evaluation (ball held
 * and brought forward, pieces down, pieces advanced) squashed into (0, 1).
 *
 * Memory: the node pool and the decision buffer are allocated by
 * ball_mcts_new(); a search allocates nothing (the game's undo history is
 * reserved once per search, which allocates only when it must grow). The
 * searcher works on the caller's game with apply/undo and leaves it as it
 * was. No global state: the random generator is the searcher's own.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ball.h"

/* Longest playout in decisions (a game without turn limit could go on
 * forever); a playout cut here is scored by the evaluation. */
#define PLAYOUT_MAX 2000
/* Deepest tree path followed; deeper nodes are not expanded. */
#define TREE_DEPTH_MAX 512
/* Nodes allocated for a time budget without a node limit: per ms. */
#define NODES_PER_MS 400
#define NODES_MIN 1024
#define NODES_MAX 50000000

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

void ball_mcts_config_init(ball_mcts_config *cfg, size_t size)
{
    ball_mcts_config d;
    if (cfg == NULL)
        return;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.seed = 1;
    d.playouts = 1000;
    d.time_ms = 0;
    d.max_nodes = 0;
    d.exploration = 0.7;
    d.playout_turns = 2;
    memcpy(cfg, &d, size < sizeof d ? size : sizeof d);
    if (size >= sizeof cfg->size)
        cfg->size = size < sizeof d ? size : sizeof d;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err != NULL && errlen > 0) {
        size_t n = strlen(msg);
        if (n >= errlen)
            n = errlen - 1;
        memcpy(err, msg, n);
        err[n] = '\0';
    }
}

int ball_mcts_new(ball_mcts **out, const ball_mcts_config *cfg, char *err, size_t errlen)
{
    ball_mcts_config c;
    ball_mcts *m;
    size_t cap;

    set_err(err, errlen, "");
    if (out == NULL) {
        set_err(err, errlen, "mcts: NULL output pointer");
        return BALL_E_ARG;
    }
    *out = NULL;
    ball_mcts_config_init(&c, sizeof c);
    if (cfg != NULL) {
        if (cfg->size != sizeof c) {
            set_err(err, errlen, "mcts: config size is not a published one "
                                 "(call ball_mcts_config_init first)");
            return BALL_E_ARG;
        }
        c = *cfg;
    }
    if (c.playouts < 0 || c.time_ms < 0 || c.max_nodes < 0 || c.playout_turns < 0 ||
        c.playout_turns > 1000 || c.playouts > 1000000000 || c.time_ms > 86400000) {
        set_err(err, errlen, "mcts: playouts 0-1000000000, time_ms 0-86400000, "
                             "max_nodes >= 0, playout_turns 0-1000");
        return BALL_E_RANGE;
    }
    if (c.playouts == 0 && c.time_ms == 0) {
        set_err(err, errlen, "mcts: no budget: set playouts, time_ms or both");
        return BALL_E_RANGE;
    }
    if (!(c.exploration >= 0.0 && c.exploration <= 100.0)) {
        set_err(err, errlen, "mcts: exploration must lie in 0-100");
        return BALL_E_RANGE;
    }
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
        set_err(err, errlen, "mcts: out of memory for the node pool");
        return BALL_E_NOMEM;
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

/* The library links without libm: small stand-ins, precise enough for
 * UCB1 (a few digits). */
static double sqrt_pos(double x)
{
    double r = x > 1.0 ? x : 1.0;
    if (x <= 0.0)
        return 0.0;
    for (int i = 0; i < 60; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
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
    int row = ball_square_row(sq);
    return team == BALL_ATK ? row : BALL_NUM_ROWS + 1 - row;
}

/* The reward of a position for ATK in [0, 1]. */
static double reward_atk(ball_game *g)
{
    int result = ball_result(g);
    int ball_sq, carrier;
    double score = 0;

    if (result == BALL_ATK_WON)
        return 1.0;
    if (result == BALL_DEF_WON)
        return 0.0;
    if (result == BALL_DRAW)
        return 0.5;
    ball_sq = ball_square_of_ball(g);
    carrier = ball_piece(g, ball_sq, BALL_UPPER);
    if (carrier > 0 && !(carrier & BALL_PIECE_DEF))
        score += 10 + forward_row(ball_sq, BALL_ATK);            /* ATK holds it */
    else if (carrier > 0)
        score -= 10 + forward_row(ball_sq, BALL_DEF);            /* DEF does */
    else
        score += 0.5 * (forward_row(ball_sq, BALL_ATK) - 9);     /* loose */
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int p = ball_piece(g, sq, BALL_UPPER);
        int def;
        if (p <= 0)
            continue;
        def = (p & BALL_PIECE_DEF) != 0;
        if (p & BALL_PIECE_DOWN)
            score += def ? 0.3 : -0.3;
        score += (def ? -0.02 : 0.02) * forward_row(sq, def ? BALL_DEF : BALL_ATK);
    }
    score /= 8.0; /* squash into (0, 1) */
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

/* Random decisions until the game ends or playout_turns hand-overs have
 * happened; returns the reward for ATK and takes the decisions back. */
static double playout(ball_mcts *m, ball_game *g, int *rc)
{
    int played = 0, turns = 0, side = ball_side(g);
    ball_action a;
    double r;
    while (played < PLAYOUT_MAX &&
           ball_random_action(g, splitmix64(&m->rng), &a) == BALL_OK) {
        int e = ball_apply_unchecked(g, a);
        if (e != BALL_OK) {
            if (e != BALL_E_LIMIT)
                *rc = e;
            break;
        }
        played++;
        if (ball_side(g) != side) {
            side = ball_side(g);
            if (m->cfg.playout_turns > 0 && ++turns >= m->cfg.playout_turns)
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

int ball_mcts_choose(ball_mcts *m, ball_game *game, ball_action *out, ball_mcts_stats *stats)
{
    double start, elapsed = 0;
    uint64_t iters = 0;
    int rc = BALL_OK, max_depth = 0, n_root;
    int32_t best = -1;
    ball_action a;

    if (m == NULL || game == NULL || out == NULL)
        return BALL_E_ARG;
    if (stats != NULL && stats->size != sizeof *stats)
        return BALL_E_ARG;
    n_root = ball_legal_actions(game, NULL, 0);
    if (n_root < 0)
        return n_root;
    if (n_root == 0)
        return BALL_E_RANGE; /* the game is over */
    rc = ball_history_reserve(game, TREE_DEPTH_MAX + PLAYOUT_MAX + 2);
    if (rc != BALL_OK)
        return rc;
    start = now_ms();

    m->used = 0;
    new_node(m, -1, BALL_ACTION_NONE, !ball_side(game), 0);
    if (n_root == 1) {
        ball_legal_actions(game, m->acts, BALL_MAX_ACTIONS);
        a = m->acts[0];
    } else {
        a = winning_now(m, game);
    }
    if (a != BALL_ACTION_NONE) {
        *out = a;
        if (stats != NULL) {
            stats->playouts = 0;
            stats->nodes = 1;
            stats->max_depth = 0;
            stats->visits = 0;
            stats->value = n_root == 1 ? reward_atk(game) : 1.0;
            if (n_root == 1 && ball_side(game) == BALL_DEF)
                stats->value = 1.0 - stats->value;
            stats->elapsed_ms = now_ms() - start;
        }
        return BALL_OK;
    }

    for (;;) {
        int32_t cur = 0;
        int depth = 0;
        double r;

        if (m->cfg.playouts > 0 && iters >= (uint64_t)m->cfg.playouts)
            break;
        if (m->cfg.time_ms > 0 && iters > 0 &&
            (elapsed = now_ms() - start) >= (double)m->cfg.time_ms)
            break;

        /* selection and expansion */
        for (;;) {
            struct node *n = &m->nodes[cur];
            int32_t child;
            if (n->terminal)
                break;
            if (n->n_legal < 0)
                n->n_legal = (int16_t)ball_legal_actions(game, NULL, 0);
            if (n->n_expanded < n->n_legal) {
                int mover = ball_side(game), e;
                ball_action d;
                if (m->used >= m->cap || depth >= TREE_DEPTH_MAX)
                    break; /* pool full: play out from here */
                d = untried(m, game, n, n->n_expanded);
                e = ball_apply_unchecked(game, d);
                if (e != BALL_OK) {
                    rc = e;
                    break;
                }
                depth++;
                child = new_node(m, cur, d, mover, ball_result(game) != BALL_ONGOING);
                n = &m->nodes[cur]; /* (the pool does not move, but be plain) */
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
        if (rc != BALL_OK && rc != BALL_E_LIMIT) {
            while (depth-- > 0)
                ball_undo(game);
            return rc;
        }
        rc = BALL_OK;
        if (depth > max_depth)
            max_depth = depth;

        /* simulation */
        r = m->nodes[cur].terminal ? reward_atk(game) : playout(m, game, &rc);
        if (rc != BALL_OK) {
            while (depth-- > 0)
                ball_undo(game);
            return rc;
        }
        /* back-propagation */
        for (int32_t i = cur; i >= 0; i = m->nodes[i].parent) {
            struct node *n = &m->nodes[i];
            n->visits++;
            n->reward += n->mover == BALL_ATK ? r : 1.0 - r;
        }
        while (depth-- > 0)
            ball_undo(game);
        iters++;
    }

    /* the most visited decision; ties to the better mean */
    for (int32_t c = m->nodes[0].first_child; c >= 0; c = m->nodes[c].next_sibling) {
        const struct node *ch = &m->nodes[c];
        if (best < 0 || ch->visits > m->nodes[best].visits ||
            (ch->visits == m->nodes[best].visits &&
             ch->reward * m->nodes[best].visits > m->nodes[best].reward * ch->visits))
            best = c;
    }
    if (best < 0) { /* no iteration at all: any legal decision */
        ball_legal_actions(game, m->acts, BALL_MAX_ACTIONS);
        *out = m->acts[0];
    } else {
        *out = m->nodes[best].action;
    }
    if (stats != NULL) {
        stats->playouts = iters;
        stats->nodes = m->used;
        stats->max_depth = max_depth;
        stats->visits = best < 0 ? 0 : m->nodes[best].visits;
        stats->value = best < 0 || m->nodes[best].visits == 0
                           ? 0.5
                           : m->nodes[best].reward / m->nodes[best].visits;
        stats->elapsed_ms = now_ms() - start;
    }
    return BALL_OK;
}
