/* SPDX-License-Identifier: MIT */
/* The release phase (R9, release.c): the coach's tasks and their
 * solutions. Works on `pos` only. */
#ifndef BALL_RELEASE_H
#define BALL_RELEASE_H

#include <stdint.h>
#include "ball.h"
#include "position.h"

/* R9.2, R9.3: the squares of the coach's tasks: knocked-down single
 * pieces to stand up, and stacks whose upper piece is the coach's and
 * that were not made this turn, to release. Both are the own top pieces
 * that are neither active nor on a fresh stack (has_tasks()), split by
 * whether they are stacked: an own upper piece is never active, and a
 * single piece that is not active is knocked down. */
static inline void task_squares(const pos *p, bb_t *stand_ups, bb_t *releases)
{
    int side = p->st.side;
    bb_t stacks = p->lower[ATK] | p->lower[DEF];
    bb_t tasks = p->piece[side] & ~(p->active[side] | (stacks & p->st.fresh));
    *stand_ups = tasks & ~stacks;
    *releases = tasks & stacks;
}

/* The coach to act has a task, solvable or not: task_squares() in fewer
 * steps (after every `end`), since an active piece is never stacked: an
 * own top piece that is not active, unless on a stack made this turn. */
static inline int has_tasks(const pos *p)
{
    int side = p->st.side;
    bb_t stacks = p->lower[ATK] | p->lower[DEF];
    return (p->piece[side] & ~(p->active[side] | (stacks & p->st.fresh))) != 0;
}

/* Release phase (R9). A task (ball_task) is encoded
 * sq | kind << TASK_KIND_SHIFT | solvable << TASK_SOLVABLE_SHIFT. */
enum { TASK_STAND_UP = BALL_TASK_STAND_UP, TASK_RELEASE = BALL_TASK_RELEASE };
#define MAX_TASKS BALL_MAX_TASKS
#define TASK_KIND_SHIFT 8
#define TASK_SOLVABLE_SHIFT 12
#define TASK_BITS 13
static inline int32_t task_make(int sq, int kind, int solvable)
{
    return sq | kind << TASK_KIND_SHIFT | solvable << TASK_SOLVABLE_SHIFT;
}
static inline int task_square(int32_t t) { return t & 0xff; }
static inline int task_kind(int32_t t) { return (t >> TASK_KIND_SHIFT) & 0xf; }
static inline int task_solvable(int32_t t) { return (t >> TASK_SOLVABLE_SHIFT) & 1; }
int release_tasks(const pos *p, int32_t *out);
/* 1 when at least one task of the coach to act has a solution. */
int release_has_solution(const pos *p);
/* Appends the solutions of the task on sq (if any) to out; returns count. */
int gen_task_solutions(const pos *p, int sq, uint32_t *out);
/* The solutions of every task, tasks by square; returns the count. */
int gen_release_solutions(const pos *p, uint32_t *out);
/* Their number, without writing them. */
int count_release_solutions(const pos *p);
/* Solution number `index` (from 0) of that list into *action, without
 * writing the others; 0 when there are not that many. */
int release_solution_at(const pos *p, int index, uint32_t *action);
/* Solution number draw_index(random, count) of that list; 0 when there
 * is none. */
int release_random_solution(const pos *p, uint64_t random, uint32_t *action);

#endif
