/* SPDX-License-Identifier: MIT */
/* The sparring players of the examples (yardsticks); see sparring.h. */
#include "sparring.h"

#include "args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum sparring_kind { SPAR_ALPHABETA = 1, SPAR_TURN = 2 };

#define WIN 1000000L
#define WIN_NEAR (WIN - 1000) /* values beyond it are wins or losses */
#define MAX_PLY 64
#define AB_DEFAULT_NODES 8000L
#define TURN_DEFAULT_NODES 200000L
#define AB_TT_BITS 16

/* A transposition-table entry of the alpha-beta player. */
struct tt_entry {
    uint64_t key;
    uint32_t stamp; /* the search it belongs to; older ones are empty */
    int32_t value;
    ball_action best;
    int8_t depth;
    int8_t bound; /* BOUND_* */
};

enum { BOUND_EXACT = 1, BOUND_LOWER = 2, BOUND_UPPER = 3 };

/* A slot of the whole-turn player's hash set. */
struct seen_slot {
    uint64_t key;
    uint32_t stamp;
};

struct sparring {
    enum sparring_kind kind;
    int max_depth;
    long max_nodes;
    long nodes;
    int depth_done;
    int stopped;
    uint32_t stamp;
    ball_action (*acts)[BALL_MAX_ACTIONS]; /* one list per ply */
    long (*keys)[BALL_MAX_ACTIONS];        /* ordering scores per ply */
    /* alphabeta */
    struct tt_entry *tt;
    size_t tt_mask;
    /* turn */
    struct seen_slot *seen;
    size_t seen_mask;
    size_t seen_used, seen_cap;
    int root_side;
    long best_value;
    ball_action best_first;
    int have_best;
};

/* ------------------------------------------------------------------ */
/* The evaluation                                                      */

/* Distance (R1.3) from square numbers alone: squares go row by row, 13 to
 * a pair of rows (7 on the odd row, then 6 on the even one). */
static int sq_row(int sq) { return 2 * (sq / 13) + (sq % 13 >= 7 ? 2 : 1); }
static int sq_col(int sq) { return sq % 13 >= 7 ? 2 * (sq % 13 - 7) + 2 : 2 * (sq % 13) + 1; }
static int distance(int a, int b)
{
    int dc = sq_col(a) - sq_col(b), dr = sq_row(a) - sq_row(b);
    dc = dc < 0 ? -dc : dc;
    dr = dr < 0 ? -dr : dr;
    return dc > dr ? dc : dr;
}

/* Row of @p sq as seen by @p team: 17 is the row it scores in (R1.4). */
static int fwd_row(int sq, int team)
{
    int row = sq_row(sq);
    return team == BALL_ATK ? row : BALL_NUM_ROWS + 1 - row;
}

static int team_of(int piece) { return (piece & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK; }

static int is_active(int piece)
{
    return piece > 0 && !(piece & (BALL_PIECE_DOWN | BALL_PIECE_STACKED));
}

/* How much the carrier of @p holder on @p sq is worth to @p holder: the
 * ball, its advance, and its exposure to the other side's active pieces
 * (which can block it from an adjacent square, dodge it from two squares,
 * or walk into reach first with their 2 PA). */
static long holder_value(const int *pieces, const int *squares, int np, int holder, int sq,
                         int stacked, int to_act)
{
    int row = fwd_row(sq, holder);
    long v = 700 + 60L * row;
    long worst = 0, rest = 0;
    if (row >= 12)
        v += 90L * (row - 11);
    if (stacked)
        return v - 60; /* nothing reaches a stacked carrier (R3.5, R5.4), but it cannot move */
    for (int i = 0; i < np; i++) {
        int d;
        long t;
        if (!is_active(pieces[i]))
            continue;
        d = distance(squares[i], sq);
        if (team_of(pieces[i]) == holder) {
            if (d == 1)
                v += 15; /* a shield and a hand-off partner */
            continue;
        }
        t = d == 1 ? 500 : d == 2 ? 350 : d == 3 ? 130 : d == 4 ? 50 : 0;
        if (t > worst) {
            rest += worst;
            worst = t;
        } else {
            rest += t;
        }
    }
    /* the holder still to act can step away or cover */
    return v - (to_act == holder ? (worst + rest / 4) / 2 : worst + rest / 4);
}

long sparring_evaluate(ball_game *g, int team)
{
    int pieces[2 * 7 + 2 * 7], squares[2 * 7 + 2 * 7], np = 0;
    int result = ball_result(g), to_act = ball_side(g);
    int ball_sq = ball_square_of_ball(g);
    int carrier = -1, carrier_stacked = 0, min_d[2] = {99, 99};
    long score = 0;

    if (result == BALL_ATK_WON || result == BALL_DEF_WON)
        return (result == BALL_ATK_WON) == (team == BALL_ATK) ? WIN : -WIN;
    if (result == BALL_DRAW)
        return 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(g, sq);
        if (!(st & BALL_SQ_PIECE))
            continue;
        for (int level = 0; level < 2; level++) {
            int p = ball_piece(g, sq, level);
            if (p <= 0)
                continue;
            pieces[np] = p;
            squares[np++] = sq;
            if (p & BALL_PIECE_BALL) {
                carrier = team_of(p);
                carrier_stacked = (st & BALL_SQ_STACK) != 0;
            }
            {
                int sign = team_of(p) == team ? 1 : -1;
                if (p & BALL_PIECE_DOWN)
                    score -= 45L * sign;
                else if ((p & BALL_PIECE_STACKED) && level == BALL_LOWER)
                    score -= 20L * sign; /* pinned under a stack */
                score += 3L * sign * fwd_row(sq, team_of(p));
            }
        }
    }
    if (carrier >= 0) {
        long h = holder_value(pieces, squares, np, carrier, ball_sq, carrier_stacked, to_act);
        score += carrier == team ? h : -h;
    } else {
        /* the loose ball: who gets there first */
        for (int i = 0; i < np; i++) {
            int d;
            if (!is_active(pieces[i]))
                continue;
            d = distance(squares[i], ball_sq);
            if (d < min_d[team_of(pieces[i])])
                min_d[team_of(pieces[i])] = d;
        }
        {
            int mine = min_d[team], theirs = min_d[1 - team];
            long race = 110L * (theirs - mine);
            if (race > 400)
                race = 400;
            if (race < -400)
                race = -400;
            score += race + (to_act == team ? 150 : -150) + 20L * fwd_row(ball_sq, team);
        }
    }
    return score;
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */

static int parse_settings(const char *spec, sparring *s)
{
    char key[16];
    double v;
    int r;
    while ((r = settings_next(&spec, key, sizeof key, &v)) == 1) {
        if (strcmp(key, "nodes") == 0 && settings_whole(v, 1, 1e9))
            s->max_nodes = (long)v;
        else if (strcmp(key, "depth") == 0 && s->kind == SPAR_ALPHABETA &&
                 settings_whole(v, 1, MAX_PLY - 1))
            s->max_depth = (int)v;
        else
            return -1;
    }
    return r;
}

int sparring_new(sparring **out, const char *name)
{
    sparring *s;
    size_t len;
    enum sparring_kind kind;
    *out = NULL;
    if (strncmp(name, "alphabeta", 9) == 0 && (name[9] == '\0' || name[9] == ':')) {
        kind = SPAR_ALPHABETA;
        len = 9;
    } else if (strncmp(name, "turn", 4) == 0 && (name[4] == '\0' || name[4] == ':')) {
        kind = SPAR_TURN;
        len = 4;
    } else {
        return 1;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    s->kind = kind;
    s->max_depth = MAX_PLY - 1;
    s->max_nodes = kind == SPAR_ALPHABETA ? AB_DEFAULT_NODES : TURN_DEFAULT_NODES;
    if ((name[len] == ':' && parse_settings(name + len + 1, s) != 0)) {
        free(s);
        return -1;
    }
    s->acts = malloc(sizeof *s->acts * (MAX_PLY + 1));
    s->keys = malloc(sizeof *s->keys * (MAX_PLY + 1));
    if (kind == SPAR_ALPHABETA) {
        s->tt_mask = ((size_t)1 << AB_TT_BITS) - 1;
        s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
    } else {
        /* a power of two at least twice the node budget, so that the set
         * never fills up before the budget runs out */
        size_t cap = 1024;
        while (cap < (size_t)s->max_nodes * 2 && cap < ((size_t)1 << 26))
            cap <<= 1;
        s->seen_mask = cap - 1;
        s->seen_cap = cap / 2;
        s->seen = calloc(cap, sizeof *s->seen);
    }
    if (s->acts == NULL || s->keys == NULL || (s->tt == NULL && s->seen == NULL)) {
        sparring_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void sparring_free(sparring *s)
{
    if (s == NULL)
        return;
    free(s->acts);
    free(s->keys);
    free(s->tt);
    free(s->seen);
    free(s);
}

const char *sparring_kind_name(const sparring *s)
{
    return s->kind == SPAR_ALPHABETA ? "alphabeta" : "turn";
}

long sparring_last_nodes(const sparring *s, int *depth)
{
    if (depth)
        *depth = s->depth_done;
    return s->nodes;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* 1 if playing @p a from @p g wins at once for the coach to act. */
static int scores_at_once(ball_game *g, ball_action a, int *rc)
{
    int side = ball_side(g), won = side == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON, r;
    *rc = ball_apply_unchecked(g, a);
    if (*rc != BALL_OK)
        return 0;
    r = ball_result(g) == won;
    *rc = ball_undo(g);
    return r;
}

/* Sorts acts[0..n) by keys, highest first (insertion sort: stable, so
 * equal keys keep the library's order and the search stays the same on
 * every machine). */
static void sort_by_keys(ball_action *acts, long *keys, int n)
{
    for (int i = 1; i < n; i++) {
        ball_action a = acts[i];
        long k = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < k) {
            acts[j + 1] = acts[j];
            keys[j + 1] = keys[j];
            j--;
        }
        acts[j + 1] = a;
        keys[j + 1] = k;
    }
}

/* ------------------------------------------------------------------ */
/* alphabeta                                                           */

static long to_tt(long v, int ply) { return v > WIN_NEAR ? v + ply : v < -WIN_NEAR ? v - ply : v; }
static long from_tt(long v, int ply) { return v > WIN_NEAR ? v - ply : v < -WIN_NEAR ? v + ply : v; }

/* The value of the position for the coach to act in it, searched
 * @p depth decisions deep. */
static long negamax(sparring *s, ball_game *g, int depth, long alpha, long beta, int ply, int *rc)
{
    int side = ball_side(g), result = ball_result(g), n;
    uint64_t key;
    struct tt_entry *e;
    ball_action *acts, tt_move = BALL_ACTION_NONE, best_move = BALL_ACTION_NONE;
    long *keys, best = -WIN - 1, alpha0 = alpha;

    if (++s->nodes > s->max_nodes) {
        s->stopped = 1;
        return 0;
    }
    if (result != BALL_ONGOING) {
        long v = sparring_evaluate(g, side);
        return v >= WIN ? v - ply : v <= -WIN ? v + ply : v;
    }
    if (depth <= 0 || ply >= MAX_PLY)
        return sparring_evaluate(g, side);
    key = ball_hash(g);
    e = &s->tt[key & s->tt_mask];
    if (e->stamp == s->stamp && e->key == key) {
        tt_move = e->best;
        if (e->depth >= depth) {
            long v = from_tt(e->value, ply);
            if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta)
                || (e->bound == BOUND_UPPER && v <= alpha))
                return v;
        }
    }
    acts = s->acts[ply];
    keys = s->keys[ply];
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n <= 0) { /* stopped at the turn bound: nothing to play */
        return sparring_evaluate(g, side);
    }
    /* ordering: the table's move, then by a static look one decision ahead
     * (only where the subtree is deep enough to pay for it) */
    for (int i = 0; i < n; i++) {
        long k = 0;
        if (acts[i] == tt_move) {
            k = 4 * WIN;
        } else if (depth >= 3) {
            if ((*rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
                return 0;
            s->nodes++;
            k = sparring_evaluate(g, side);
            if ((*rc = ball_undo(g)) != BALL_OK)
                return 0;
        } else {
            int f = ball_action_flags(acts[i]);
            k = (f & (BALL_FLAG_FORCED_FUMBLE | BALL_FLAG_PICKUP)) ? 1 : 0;
        }
        keys[i] = k;
    }
    sort_by_keys(acts, keys, n);
    for (int i = 0; i < n; i++) {
        long v;
        if ((*rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
            return 0;
        if (ball_side(g) == side && ball_result(g) == BALL_ONGOING)
            v = negamax(s, g, depth - 1, alpha, beta, ply + 1, rc);
        else if (ball_result(g) != BALL_ONGOING)
            v = sparring_evaluate(g, side), v = v >= WIN ? v - ply - 1 : v <= -WIN ? v + ply + 1 : v;
        else
            v = -negamax(s, g, depth - 1, -beta, -alpha, ply + 1, rc);
        if (*rc != BALL_OK)
            return 0;
        if ((*rc = ball_undo(g)) != BALL_OK)
            return 0;
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_move = acts[i];
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    e->key = key;
    e->stamp = s->stamp;
    e->value = (int32_t)to_tt(best, ply);
    e->depth = (int8_t)depth;
    e->best = best_move;
    e->bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    return best;
}

static int alphabeta_choose(sparring *s, ball_game *g, const ball_action *acts_in, int n,
                            ball_action *out)
{
    int side = ball_side(g), rc = BALL_OK;
    ball_action *root = s->acts[MAX_PLY];
    long *keys = s->keys[MAX_PLY];
    memcpy(root, acts_in, (size_t)n * sizeof *root);
    s->stamp++;
    s->nodes = 0;
    s->stopped = 0;
    s->depth_done = 0;
    *out = root[0];
    for (int i = 0; i < n; i++) {
        if (scores_at_once(g, root[i], &rc)) {
            *out = root[i];
            return BALL_OK;
        }
        if (rc != BALL_OK)
            return rc;
    }
    if (n == 1)
        return BALL_OK;
    /* the root's order: by the static value of each child */
    for (int i = 0; i < n; i++) {
        if ((rc = ball_apply_unchecked(g, root[i])) != BALL_OK)
            return rc;
        keys[i] = sparring_evaluate(g, side);
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
    }
    sort_by_keys(root, keys, n);
    for (int depth = 1; depth <= s->max_depth; depth++) {
        long alpha = -WIN - 1, beta = WIN + 1, best = -WIN - 1;
        int best_i = -1;
        for (int i = 0; i < n; i++) {
            long v;
            if ((rc = ball_apply_unchecked(g, root[i])) != BALL_OK)
                return rc;
            if (ball_result(g) != BALL_ONGOING)
                v = sparring_evaluate(g, side);
            else if (ball_side(g) == side)
                v = negamax(s, g, depth - 1, alpha, beta, 1, &rc);
            else
                v = -negamax(s, g, depth - 1, -beta, -alpha, 1, &rc);
            if (rc != BALL_OK)
                return rc;
            if ((rc = ball_undo(g)) != BALL_OK)
                return rc;
            if (s->stopped)
                break;
            if (v > best) {
                best = v;
                best_i = i;
            }
            if (v > alpha)
                alpha = v;
        }
        if (best_i >= 0) {
            /* the best decision goes first in the next iteration; a
             * decision searched whole in a cut-off iteration beat the
             * previous best, which was searched first */
            ball_action a = root[best_i];
            memmove(root + 1, root, (size_t)best_i * sizeof *root);
            root[0] = a;
            *out = a;
        }
        if (s->stopped)
            break;
        s->depth_done = depth;
        if (best > WIN_NEAR || best < -WIN_NEAR)
            break; /* a forced result: deeper search finds nothing else */
    }
    return BALL_OK;
}

/* ------------------------------------------------------------------ */
/* turn                                                                */

/* Adds @p key to the set; 1 if it was new, 0 if there already, -1 full. */
static int seen_add(sparring *s, uint64_t key)
{
    size_t i = (size_t)(key ^ key >> 29) & s->seen_mask;
    for (;;) {
        struct seen_slot *slot = &s->seen[i];
        if (slot->stamp != s->stamp) {
            if (s->seen_used >= s->seen_cap)
                return -1;
            slot->stamp = s->stamp;
            slot->key = key;
            s->seen_used++;
            return 1;
        }
        if (slot->key == key)
            return 0;
        i = (i + 1) & s->seen_mask;
    }
}

/* Walks the rest of the turn from @p g; @p first is the root decision the
 * walk went through. */
static int turn_walk(sparring *s, ball_game *g, ball_action first, int ply)
{
    int n, rc, added;
    ball_action *acts;
    if (ball_result(g) != BALL_ONGOING || ball_side(g) != s->root_side || ply >= MAX_PLY) {
        long v;
        /* a turn end met before was scored then, under an earlier first
         * decision, which keeps it */
        if ((added = seen_add(s, ball_hash(g))) <= 0) {
            s->stopped = added < 0;
            return BALL_OK;
        }
        v = sparring_evaluate(g, s->root_side);
        if (!s->have_best || v > s->best_value) {
            s->best_value = v;
            s->best_first = first;
            s->have_best = 1;
        }
        return BALL_OK;
    }
    added = seen_add(s, ball_hash(g));
    if (added == 0)
        return BALL_OK;
    if (added < 0 || ++s->nodes > s->max_nodes) {
        s->stopped = 1;
        return BALL_OK;
    }
    acts = s->acts[ply];
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n <= 0) {
        long v = sparring_evaluate(g, s->root_side);
        if (!s->have_best || v > s->best_value) {
            s->best_value = v;
            s->best_first = first;
            s->have_best = 1;
        }
        return BALL_OK;
    }
    for (int i = 0; i < n && !s->stopped; i++) {
        if ((rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
            return rc;
        rc = turn_walk(s, g, ply == 0 ? acts[i] : first, ply + 1);
        if (rc != BALL_OK)
            return rc;
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
    }
    return BALL_OK;
}

static int turn_choose(sparring *s, ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    int rc = BALL_OK;
    *out = acts[0];
    s->nodes = 0;
    s->stopped = 0;
    s->depth_done = 0;
    s->stamp++;
    s->seen_used = 0;
    s->have_best = 0;
    s->root_side = ball_side(g);
    for (int i = 0; i < n; i++) {
        if (scores_at_once(g, acts[i], &rc)) {
            *out = acts[i];
            return BALL_OK;
        }
        if (rc != BALL_OK)
            return rc;
    }
    if (n == 1)
        return BALL_OK;
    rc = turn_walk(s, g, BALL_ACTION_NONE, 0);
    if (rc == BALL_OK && s->have_best && s->best_first != BALL_ACTION_NONE)
        *out = s->best_first;
    return rc;
}

int sparring_choose(sparring *s, ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    if (s == NULL || g == NULL || acts == NULL || n <= 0 || out == NULL)
        return BALL_E_ARG;
    return s->kind == SPAR_ALPHABETA ? alphabeta_choose(s, g, acts, n, out)
                                     : turn_choose(s, g, acts, n, out);
}
