/* SPDX-License-Identifier: MIT */
/* The release phase (R9): the coach's mandatory tasks and their
 * solutions. */
#include "action.h"
#include "compiler.h"
#include "draw_index.h"
#include "release.h"

/* The draw (release_random_solution()) keeps its one-task path free of
 * calls (HOT) and its list path out of its frame (OUT_OF_LINE). */

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
 * than the whole board (release_tasks()), a 64-bit half of the board at a
 * time. A square's neighbours are all squares, so `vacant` needs no
 * BB_BOARD here; and they lie within 17 bits of each other, so the two
 * 64-bit halves of its vacant neighbours, OR-ed, keep every one apart
 * and can be counted as one 64-bit word. */
int release_has_solution(const pos *p)
{
    bb_t stand_ups, releases;
    task_squares(p, &stand_ups, &releases);
    bb_t tasks = stand_ups | releases;
    if (!tasks)
        return 0;
    bb_t vacant = ~(occupied(p) | bb_bit(p->st.ball));
    for (int base = 0; base < 128; base += 64) {
        uint64_t half_releases = (uint64_t)(releases >> base);
        for (uint64_t rest = (uint64_t)(tasks >> base); rest; rest &= rest - 1) {
            int i = __builtin_ctzll(rest);
            bb_t around = SQ_NEIGHBOURS[BIT_SQUARE[base + i]] & vacant;
            uint64_t folded = (uint64_t)around | (uint64_t)(around >> 64);
            if (half_releases >> i & 1 ? folded & (folded - 1) : folded)
                return 1; /* R9.3: two vacant neighbours, R9.2: one */
        }
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

/* The vacant neighbours of a square as a set of 4 directions, in bit
 * order (bitboard.h): bit 0 down-left, 1 down-right, 2 up-left, 3
 * up-right. A set that small is counted and walked with a table and a
 * few shifts instead of the 128-bit loops of bb_count_few(), which this
 * file (built without POPCNT) would otherwise need. */
static const int8_t DIRECTION_STEP[4] = {SQ_DOWN_LEFT, SQ_DOWN_RIGHT, SQ_UP_LEFT, SQ_UP_RIGHT};
static const uint8_t DIRECTIONS_IN[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* The direction set of the vacant squares around bit b: its neighbours
 * are at b - 8, b - 7, b + 7 and b + 8, so bits 24, 25, 39 and 40 of the
 * 64 bits of `vacant` centred on b (a ghost or off the board: 0). */
static unsigned direction_set(bb_t vacant, int b)
{
    uint64_t w = b >= 32 ? (uint64_t)(vacant >> (b - 32)) : (uint64_t)vacant << (32 - b);
    return (unsigned)(w >> 24 & 3) | (unsigned)(w >> 37 & 12);
}

/* The square of direction number j (from 0) of the set `directions`
 * around sq. */
static int nth_direction(unsigned directions, int j, int sq)
{
    while (j--)
        directions &= directions - 1;
    return sq + DIRECTION_STEP[__builtin_ctz(directions)];
}

/* A task as the count and the draw see it: its square, its kind, its
 * vacant neighbours (direction_set()) and its number of solutions()
 * (without writing them: a stand-up has one per vacant neighbour, a
 * release one per ordered pair of them, twice when the lower piece may
 * keep the ball: R9.2, R9.3). */
typedef struct task {
    int square, release, around, count;
} task;

/* The tasks in the order of gen_release_solutions(), and their solutions
 * in all. */
typedef struct task_list {
    int n, total;
    task task[MAX_TASKS];
} task_list;

/* The solutions per pair (U, W) of the release on sq (R9.3): one per
 * possible keeper when the stack holds the ball (the upper piece, and the
 * lower one unless it is knocked down), else one. */
static int keepers(const pos *p, int sq)
{
    return p->st.ball == sq && !pc_down(p->low[sq]) ? 2 : 1;
}

/* The task on bit b: a release, or else a stand-up. */
static task task_on_bit(const pos *p, bb_t vacant, int b, int release)
{
    task t = {.square = BIT_SQUARE[b], .release = release, .around = (int)direction_set(vacant, b)};
    int nv = DIRECTIONS_IN[t.around];
    t.count = release ? nv * (nv - 1) * keepers(p, t.square) : nv;
    return t;
}

/* The tasks of the coach to act, as task_list has them. Each 64-bit half
 * of the board is walked on its own: cheaper than 128-bit steps, and
 * the bit of `releases` is a plain shift. */
static void list_tasks(const pos *p, bb_t stand_ups, bb_t releases, task_list *t)
{
    bb_t tasks = stand_ups | releases, vacant = vacant_squares(p);
    t->n = t->total = 0;
    for (int base = 0; base < 128; base += 64) {
        uint64_t half_releases = (uint64_t)(releases >> base);
        for (uint64_t rest = (uint64_t)(tasks >> base); rest; rest &= rest - 1) {
            int i = __builtin_ctzll(rest);
            task one = task_on_bit(p, vacant, base + i, (int)(half_releases >> i & 1));
            t->task[t->n++] = one;
            t->total += one.count;
        }
    }
}

/* list_tasks() from the position alone. */
static void list_all_tasks(const pos *p, task_list *t)
{
    bb_t stand_ups, releases;
    task_squares(p, &stand_ups, &releases);
    list_tasks(p, stand_ups, releases, t);
}

int count_release_solutions(const pos *p)
{
    task_list t;
    list_all_tasks(p, &t);
    return t.total;
}

/* Solution number `index` of task t, in the order of solutions(), worked
 * out instead of listed: a release's solutions come keepers() to an
 * ordered pair (U, W) of vacant neighbours, the pairs U by U. */
HOT uint32_t task_solution(const pos *p, const task *t, int index)
{
    int sq = t->square;
    unsigned around = (unsigned)t->around;
    if (!t->release)
        return act_make(K_STAND_UP, sq, nth_direction(around, index, sq), NO_SQ, KEEP_NONE, 0);
    int kind = pc_team(p->low[sq]) == p->st.side ? K_UNPROTECT : K_UNBLOCK;
    int has_ball = p->st.ball == sq, per_pair = keepers(p, sq), others = DIRECTIONS_IN[around] - 1;
    int pair = index / per_pair, u = pair / others, w = pair % others;
    int keeper = !has_ball ? KEEP_NONE : index % per_pair ? KEEP_LOWER : KEEP_UPPER;
    int w_square = nth_direction(around, w + (w >= u), sq); /* W skips U */
    return act_make(kind, sq, nth_direction(around, u, sq), w_square, keeper, 0);
}

/* The task that holds solution number `index` is found by its count. */
static int solution_at(const pos *p, const task_list *t, int index, uint32_t *action)
{
    for (int i = 0; i < t->n; i++) {
        if ((unsigned)index < (unsigned)t->task[i].count) {
            *action = task_solution(p, &t->task[i], index);
            return 1;
        }
        index -= t->task[i].count;
    }
    return 0;
}

int release_solution_at(const pos *p, int index, uint32_t *action)
{
    task_list t;
    list_all_tasks(p, &t);
    return solution_at(p, &t, index, action);
}

/* The draw among two tasks or more, from their list. */
static OUT_OF_LINE int draw_from_list(const pos *p, bb_t stand_ups, bb_t releases, uint64_t random, uint32_t *action)
{
    task_list t;
    list_tasks(p, stand_ups, releases, &t);
    return t.total > 0 && solution_at(p, &t, draw_index(random, t.total), action);
}

/* Nine draws in ten of random games have a single task (a stand-up,
 * mostly): it is drawn from without a list. */
int release_random_solution(const pos *p, uint64_t random, uint32_t *action)
{
    bb_t stand_ups, releases;
    task_squares(p, &stand_ups, &releases);
    bb_t tasks = stand_ups | releases;
    if (tasks & (tasks - 1))
        return draw_from_list(p, stand_ups, releases, random, action);
    if (!tasks)
        return 0;
    task one = task_on_bit(p, vacant_squares(p), bb_first(tasks), releases != 0);
    if (!one.count)
        return 0;
    *action = task_solution(p, &one, draw_index(random, one.count));
    return 1;
}
