/* SPDX-License-Identifier: MIT */
/* The root of the turn search (search.h): iterative deepening over the
 * root decisions, the result, the principal variations and the lines of
 * a run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include <string.h>

#include "tt.h"
#include "movepick.h"
#include "sized.h"

/* The sizeof of every published layout (docs/abi.md): 1.1 is the first. */
static const size_t LINE_SIZES[] = {sizeof(ball_search_line)};
#define N_SIZES(a) (sizeof a / sizeof a[0])

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
void prepare(struct worker *s, ball_search *bs, ball_game *g, int n)
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
void deepen(struct worker *s, int first)
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

/* The end of a run of the main thread's worker @p s (the helpers
 * stopped): its result when no iteration gave one, the lines of the best
 * root decisions for ball_search_lines(), the nodes of all threads. */
void root_finish(struct worker *s)
{
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
