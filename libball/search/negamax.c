/* SPDX-License-Identifier: MIT */
/* The alpha-beta of the turn search (search.h): negamax over decisions
 * whose depth counts turns, with late-move reductions. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include <string.h>

#include "tt.h"
#include "movepick.h"
#include "evaluate.h"

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

/* The value for the coach who plays @p a of the position after it. */
int child_value(struct worker *s, ball_action a, int depth, int alpha, int beta, int ply)
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

int search(struct worker *s, int depth, int alpha, int beta, int ply)
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

int ball_search_evaluate(ball_search *bs, ball_game *g, double *value)
{
    struct worker *s;
    int v, rc;
    if (bs == NULL || g == NULL || value == NULL)
        return BALL_E_ARG;
    if (g->p.st.result != ONGOING) {
        *value = g->p.st.result == DRAWN ? 0.0 : (g->p.st.result == ATK_WON) == (g->p.st.side == ATK) ? 1.0 : -1.0;
        return BALL_OK;
    }
    rc = ball_history_reserve(g, 8); /* the take probe plays two decisions */
    if (rc != BALL_OK)
        return rc;
    s = &bs->w[0];
    s->g = g;
    s->eval_fn = bs->eval_fn;
    s->eval_ud = bs->eval_ud;
    s->nodes = 0;
    v = s->eval_fn != NULL ? hook_eval(s, 0) : builtin_eval(s, 0);
    s->g = NULL;
    v = v > EVAL_MAX ? EVAL_MAX : v < -EVAL_MAX ? -EVAL_MAX : v;
    *value = v / ((v < 0 ? -v : v) + SQUASH);
    return BALL_OK;
}
