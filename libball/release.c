/* The release phase (R9): the coach's mandatory tasks and their
 * solutions. */
#include "action.h"
#include "rules.h"

/* The task on sq for the coach to act, or 0. */
static int task_kind(const pos *p, int sq)
{
    uint8_t top = p->top[sq];
    if (!top || pc_team(top) != p->st.side)
        return 0;
    if (p->low[sq]) /* R9.3: own upper piece, stack not fresh */
        return is_fresh(p, sq) ? 0 : TASK_RELEASE;
    return pc_down(top) ? TASK_STAND_UP : 0; /* R9.2 */
}

static int vacant_neighbours(const pos *p, int sq, int *out)
{
    int n = 0, nb;
    for (BB_EACH(nb, SQ_NEIGHBOURS[sq] & vacant_squares(p)))
        out[n++] = nb;
    return n;
}

static int task_solvable(const pos *p, int sq, int kind)
{
    int need = kind == TASK_RELEASE ? 2 : 1; /* R9.3: U and W differ */
    return bb_count(SQ_NEIGHBOURS[sq] & vacant_squares(p)) >= need;
}

int release_tasks(const pos *p, int *out)
{
    int n = 0, sq;
    if (p->st.phase != PHASE_RELEASE || p->st.result != ONGOING)
        return 0;
    for (BB_EACH(sq, p->piece[p->st.side])) {
        int kind = task_kind(p, sq);
        if (kind)
            out[n++] = sq | kind << 8 | task_solvable(p, sq, kind) << 12;
    }
    return n;
}

/* The squares of b with at least one (n1) and at least two (n2) diagonal
 * neighbours in b. */
static void neighbour_counts(bb_t b, bb_t *n1, bb_t *n2)
{
    bb_t a = bb_shift(b, BIT_DOWN_LEFT), c = bb_shift(b, BIT_DOWN_RIGHT);
    bb_t d = bb_shift(b, BIT_UP_LEFT), e = bb_shift(b, BIT_UP_RIGHT);
    *n1 = (a | c | d | e) & BB_BOARD;
    *n2 = ((a & c) | (d & e) | ((a | c) & (d | e))) & BB_BOARD;
}

/* Called after every decision of the release phase (R9.1), so in
 * bitboards: a knocked-down single piece needs one vacant neighbour, a
 * stack that is not fresh two (R9.2, R9.3). */
int release_has_solution(const pos *p)
{
    int side = p->st.side;
    bb_t stacks = p->lower[ATK] | p->lower[DEF], own = p->piece[side];
    bb_t down = own & ~stacks & ~p->active[side];
    bb_t stuck = own & stacks & ~p->st.fresh;
    if (!(down | stuck))
        return 0;
    bb_t one, two;
    neighbour_counts(vacant_squares(p), &one, &two);
    return ((down & one) | (stuck & two)) != 0;
}

/* R9.3: ordered pairs (U, W) of different vacant squares; when the upper
 * holds the ball, one action per possible keeper. */
static int gen_releases(const pos *p, int sq, uint32_t *out)
{
    int squares[4], nv = vacant_neighbours(p, sq, squares), n = 0;
    int kind = pc_team(p->low[sq]) == p->st.side ? K_UNPROTECT : K_UNBLOCK;
    int has_ball = p->st.ball == sq;
    int lower_may_keep = !pc_down(p->low[sq]);
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            if (i == j)
                continue;
            if (!has_ball) {
                out[n++] = act_make(kind, sq, squares[i], squares[j], KEEP_NONE, 0);
                continue;
            }
            out[n++] = act_make(kind, sq, squares[i], squares[j], KEEP_UPPER, 0);
            if (lower_may_keep)
                out[n++] = act_make(kind, sq, squares[i], squares[j], KEEP_LOWER, 0);
        }
    return n;
}

int gen_task_solutions(const pos *p, int sq, uint32_t *out)
{
    int kind = task_kind(p, sq), n = 0;
    if (kind == TASK_RELEASE)
        return gen_releases(p, sq, out);
    if (kind == TASK_STAND_UP) {
        int squares[4], nv = vacant_neighbours(p, sq, squares);
        for (int i = 0; i < nv; i++)
            out[n++] = act_make(K_STAND_UP, sq, squares[i], NO_SQ, KEEP_NONE, 0);
    }
    return n;
}
