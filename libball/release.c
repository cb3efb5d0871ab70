/* The release phase (R9): the coach's mandatory tasks and their
 * solutions. */
#include "action.h"
#include "movegen.h"
#include "release.h"

/* The task on sq for the coach to act, or 0. */
static int task_kind_at(const pos *p, int sq)
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

int release_tasks(const pos *p, int32_t *out)
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
        out[n++] = task_make(sq, release ? TASK_RELEASE : TASK_STAND_UP, solvable);
    }
    return n;
}

/* Called after every decision of the release phase and after `end` when
 * has_tasks() (R9.1). There are few tasks: each is looked at alone rather
 * than the whole board (release_tasks()). */
int release_has_solution(const pos *p)
{
    bb_t stand_ups, releases;
    int sq;
    task_squares(p, &stand_ups, &releases);
    if (!(stand_ups | releases))
        return 0;
    bb_t vacant = vacant_squares(p);
    for (BB_EACH(sq, stand_ups))
        if (SQ_NEIGHBOURS[sq] & vacant)
            return 1; /* R9.2: one vacant neighbour */
    for (BB_EACH(sq, releases)) {
        bb_t around = SQ_NEIGHBOURS[sq] & vacant;
        if (around & (around - 1))
            return 1; /* R9.3: two of them */
    }
    return 0;
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
    return solutions(p, sq, task_kind_at(p, sq), out);
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

/* The tasks in the order of gen_release_solutions(), each with its
 * vacant neighbours and its number of solutions() (without writing
 * them: a stand-up has one per vacant neighbour, a release one per
 * ordered pair of them, twice when the lower piece may keep the ball:
 * R9.2, R9.3). */
typedef struct task_list {
    int n;
    uint8_t square[MAX_TASKS], release[MAX_TASKS];
    int count[MAX_TASKS];
    bb_t around[MAX_TASKS];
} task_list;

/* The solutions per pair (U, W) of the release on sq (R9.3): one per
 * possible keeper when the stack holds the ball (the upper piece, and the
 * lower one unless it is knocked down), else one. */
static int keepers(const pos *p, int sq)
{
    return p->st.ball == sq && !pc_down(p->low[sq]) ? 2 : 1;
}

/* The tasks of the coach to act, as task_list has them. */
static void list_tasks(const pos *p, task_list *t)
{
    bb_t stand_ups, releases, vacant = vacant_squares(p);
    int sq;
    task_squares(p, &stand_ups, &releases);
    t->n = 0;
    for (BB_EACH(sq, stand_ups | releases)) {
        int i = t->n++, release = bb_has(releases, sq);
        bb_t around = SQ_NEIGHBOURS[sq] & vacant;
        int nv = bb_count_few(around);
        t->square[i] = (uint8_t)sq;
        t->release[i] = (uint8_t)release;
        t->around[i] = around;
        t->count[i] = release ? nv * (nv - 1) * keepers(p, sq) : nv;
    }
}

int count_release_solutions(const pos *p)
{
    task_list t;
    int total = 0;
    list_tasks(p, &t);
    for (int i = 0; i < t.n; i++)
        total += t.count[i];
    return total;
}

/* The j-th (from 0) square of a set of a few squares. */
static int nth_of_few(bb_t set, int j)
{
    while (j--)
        set &= set - 1;
    return BIT_SQUARE[bb_first(set)];
}

/* Solution number `index` of task i, in the order of solutions(), worked
 * out instead of listed: a release's solutions come keepers() to an
 * ordered pair (U, W) of vacant neighbours, the pairs U by U. */
static uint32_t task_solution(const pos *p, const task_list *t, int i, int index)
{
    int sq = t->square[i];
    bb_t around = t->around[i];
    if (!t->release[i])
        return act_make(K_STAND_UP, sq, nth_of_few(around, index), NO_SQ, KEEP_NONE, 0);
    int kind = pc_team(p->low[sq]) == p->st.side ? K_UNPROTECT : K_UNBLOCK;
    int has_ball = p->st.ball == sq, per_pair = keepers(p, sq), others = bb_count_few(around) - 1;
    int pair = index / per_pair, u = pair / others, w = pair % others;
    int keeper = !has_ball ? KEEP_NONE : index % per_pair ? KEEP_LOWER : KEEP_UPPER;
    int w_square = nth_of_few(around, w + (w >= u)); /* W skips U */
    return act_make(kind, sq, nth_of_few(around, u), w_square, keeper, 0);
}

/* The task that holds solution number `index` is found by its count. */
static int solution_at(const pos *p, const task_list *t, int index, uint32_t *action)
{
    for (int i = 0; i < t->n; i++) {
        if ((unsigned)index < (unsigned)t->count[i]) {
            *action = task_solution(p, t, i, index);
            return 1;
        }
        index -= t->count[i];
    }
    return 0;
}

int release_solution_at(const pos *p, int index, uint32_t *action)
{
    task_list t;
    list_tasks(p, &t);
    return solution_at(p, &t, index, action);
}

int release_random_solution(const pos *p, uint64_t random, uint32_t *action)
{
    task_list t;
    int total = 0;
    list_tasks(p, &t);
    for (int i = 0; i < t.n; i++)
        total += t.count[i];
    return total > 0 && solution_at(p, &t, draw_index(random, total), action);
}
