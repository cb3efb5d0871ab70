/* The release phase (R9): the coach's mandatory tasks and their
 * solutions. */
#include "action.h"
#include "rules.h"

/* R9.2, R9.3: the squares of the coach's tasks: knocked-down single
 * pieces to stand up, and stacks whose upper piece is the coach's and
 * that were not made this turn, to release. */
static void task_squares(const pos *p, bb_t *stand_ups, bb_t *releases)
{
    int side = p->st.side;
    bb_t stacks = p->lower[ATK] | p->lower[DEF], own = p->piece[side];
    *stand_ups = own & ~stacks & ~p->active[side];
    *releases = own & stacks & ~p->st.fresh;
}

/* The task on sq for the coach to act, or 0. */
static int task_kind(const pos *p, int sq)
{
    bb_t stand_ups, releases;
    task_squares(p, &stand_ups, &releases);
    return bb_has(releases, sq) ? TASK_RELEASE : bb_has(stand_ups, sq) ? TASK_STAND_UP : 0;
}

static int vacant_neighbours(const pos *p, int sq, int *out)
{
    int n = 0, nb;
    for (BB_EACH(nb, SQ_NEIGHBOURS[sq] & vacant_squares(p)))
        out[n++] = nb;
    return n;
}

/* The squares of b with at least one (n1) and at least two (n2) diagonal
 * neighbours in b: a stand-up needs one vacant neighbour, a release two
 * different ones (R9.2, R9.3). */
static void neighbour_counts(bb_t b, bb_t *n1, bb_t *n2)
{
    bb_t a = bb_shift(b, BIT_DOWN_LEFT), c = bb_shift(b, BIT_DOWN_RIGHT);
    bb_t d = bb_shift(b, BIT_UP_LEFT), e = bb_shift(b, BIT_UP_RIGHT);
    *n1 = (a | c | d | e) & BB_BOARD;
    *n2 = ((a & c) | (d & e) | ((a | c) & (d | e))) & BB_BOARD;
}

int release_tasks(const pos *p, int *out)
{
    int n = 0, sq;
    if (p->st.phase != PHASE_RELEASE || p->st.result != ONGOING)
        return 0;
    bb_t stand_ups, releases, one, two;
    task_squares(p, &stand_ups, &releases);
    neighbour_counts(vacant_squares(p), &one, &two);
    for (BB_EACH(sq, stand_ups | releases)) {
        int release = bb_has(releases, sq);
        int solvable = bb_has(release ? two : one, sq);
        out[n++] = sq | (release ? TASK_RELEASE : TASK_STAND_UP) << 8 | solvable << 12;
    }
    return n;
}

/* Called after every decision of the release phase (R9.1). */
int release_has_solution(const pos *p)
{
    bb_t stand_ups, releases, one, two;
    task_squares(p, &stand_ups, &releases);
    if (!(stand_ups | releases))
        return 0;
    neighbour_counts(vacant_squares(p), &one, &two);
    return ((stand_ups & one) | (releases & two)) != 0;
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

/* The solutions of a task of the given kind on sq. */
static int solutions(const pos *p, int sq, int kind, uint32_t *out)
{
    int n = 0;
    if (kind == TASK_RELEASE)
        return gen_releases(p, sq, out);
    if (kind == TASK_STAND_UP) {
        int squares[4], nv = vacant_neighbours(p, sq, squares);
        for (int i = 0; i < nv; i++)
            out[n++] = act_make(K_STAND_UP, sq, squares[i], NO_SQ, KEEP_NONE, 0);
    }
    return n;
}

int gen_task_solutions(const pos *p, int sq, uint32_t *out)
{
    return solutions(p, sq, task_kind(p, sq), out);
}

int gen_release_solutions(const pos *p, uint32_t *out)
{
    bb_t stand_ups, releases;
    int n = 0, sq;
    task_squares(p, &stand_ups, &releases);
    for (BB_EACH(sq, stand_ups | releases))
        n += solutions(p, sq, bb_has(releases, sq) ? TASK_RELEASE : TASK_STAND_UP, out + n);
    return n;
}
