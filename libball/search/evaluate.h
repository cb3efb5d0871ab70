/* SPDX-License-Identifier: MIT */
/* The leaves of the turn search (search.h): the hand-written evaluation
 * (the static part and the take probe) and the caller's hook, the learned
 * network (libball/nnue/) among them. Included by negamax.c only, which
 * inlines them (search.h says why this is a header). */
#ifndef BALL_SEARCH_EVALUATE_H
#define BALL_SEARCH_EVALUATE_H

#include "tt.h"
#include "compiler.h"
#include "nnue/net.h"

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
UNIT_LOCAL int nearest(bb_t b, int sq)
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
UNIT_LOCAL int static_eval(const pos *p, int me)
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

/* Can the coach to act (its action phase) take the ball within its PA?
 * Exact for 1-2 PA: a capture now, or any action then a capture. */
UNIT_LOCAL int probe_take(struct worker *s, int ply)
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
UNIT_LOCAL int builtin_eval(struct worker *s, int ply)
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
UNIT_LOCAL int hook_eval(struct worker *s, int ply)
{
    double x;
    if (s->eval_fn == ball_net_search_eval && s->eval_ud != NULL) {
        /* a format-2 network: its accumulators updated from the squares
         * that changed since this thread's last leaf, its raw output put
         * on this scale in integers (nnue.h) */
        const struct nnue *nn = net_nnue(s->eval_ud);
        if (nn != NULL) {
            int v = nnue_search_value(nnue_acc_evaluate(&s->nacc->nn, nn, s->g));
            /* a correction learned over the built-in evaluation (its
             * exact take probe included) */
            return nnue_residual(nn) ? v + builtin_eval(s, ply) : v;
        }
        /* a format-1 network, incrementally from this thread's last leaf:
         * the same value as ball_net_search_eval() (net.h) */
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
UNIT_LOCAL int leaf_value(struct worker *s, int ply)
{
    uint64_t key = pos_hash(&s->g->p);
    struct tt_entry e;
    int v;
    if (tt_probe(s, key, &e) && e.flag == TT_EXACT && e.depth == 0)
        return from_tt(e.value, ply);
    v = s->eval_fn != NULL ? hook_eval(s, ply) : builtin_eval(s, ply);
    v += (int)(mix64(key ^ s->cfg.seed) & 7) - 3; /* seeded tie-break */
    if (v > EVAL_MAX)
        v = EVAL_MAX;
    if (v < -EVAL_MAX)
        v = -EVAL_MAX;
    tt_store(s, key, 0, TT_EXACT, v, BALL_ACTION_NONE, ply);
    return v;
}

#endif
