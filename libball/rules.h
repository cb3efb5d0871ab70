/* The rules engine proper: action generation (R4-R8), the release phase
 * (R9), playing and taking back decisions, game end (R11). Works on `pos`
 * only; the API layer (game.c) sits on top and never the other way round. */
#ifndef BALL_RULES_H
#define BALL_RULES_H

#include <stdint.h>
#include "position.h"

/* Enough for any position; equals BALL_MAX_ACTIONS (checked in game.c). */
#define MAX_ACTIONS 1024

/* All legal decisions of the position into out[MAX_ACTIONS] (out NULL:
 * only count them); 0 when the game is over. Never allocates. */
int gen_actions(const pos *p, uint32_t *out);
/* gen_actions(p, NULL): the number of legal decisions. */
int count_actions(const pos *p);
/* The action numbered `index` (from 0) in the order of gen_actions(), into
 * *action, without listing the others; 0 when there are not that many. */
int gen_action_at(const pos *p, int index, uint32_t *action);
/* A legal action drawn with `random`: number floor(random * n / 2^64) of
 * the n legal actions, in an order of the generator's own that is cheaper
 * to walk than the list; 0 when there is none. */
int gen_random_action(const pos *p, uint64_t random, uint32_t *action);

/* Release phase (R9). A task is encoded sq | kind << 8 | solvable << 12. */
enum { TASK_STAND_UP = 1, TASK_RELEASE = 2 };
#define MAX_TASKS 14
int release_tasks(const pos *p, int *out);
/* 1 when at least one task of the coach to act has a solution. */
int release_has_solution(const pos *p);
/* Appends the solutions of the task on sq (if any) to out; returns count. */
int gen_task_solutions(const pos *p, int sq, uint32_t *out);
/* The solutions of every task, tasks by square; returns the count. */
int gen_release_solutions(const pos *p, uint32_t *out);

/* What a decision changed, enough to take it back exactly. */
#define UNDO_SQUARES 6
typedef struct undo_rec {
    pos_state st;
    int8_t moved_from, moved_to; /* a plain move: undone by moving back; else -1 */
    uint8_t n;                   /* else: the squares changed, oldest first */
    uint8_t sq[UNDO_SQUARES];
    uint8_t top[UNDO_SQUARES];
    uint8_t low[UNDO_SQUARES];
} undo_rec;

/* Plays a legal decision (not checked), then the touchdown test and the
 * automatic hand-over. */
void pos_do(pos *p, uint32_t a, undo_rec *u);
void pos_undo(pos *p, const undo_rec *u);

/* perft (N3) by do/undo on a copy-free recursion. */
uint64_t pos_perft(pos *p, int depth);

#endif
