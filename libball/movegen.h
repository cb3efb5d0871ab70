/* SPDX-License-Identifier: MIT */
/* Legal-action generation (movegen.c): the decisions of the action phase
 * (R4-R8, R10) and of the release phase (R9, through release.h), listed,
 * counted, picked by index or split for perft (the random draw:
 * movegen_draw.h). Works on `pos` only. */
#ifndef BALL_MOVEGEN_H
#define BALL_MOVEGEN_H

#include <stdint.h>
#include "action.h"
#include "ball.h"
#include "draw_index.h"
#include "position.h"

/* Enough for any position. */
#define MAX_ACTIONS BALL_MAX_ACTIONS

/* All legal decisions of the position into out[MAX_ACTIONS] (out NULL:
 * only count them); 0 when the game is over. At turn BALL_MAX_TURN the
 * entry points below leave out the decisions that would hand the turn
 * over (turn_bound.h), all but gen_split(), which perft does not call
 * there. Never allocates. */
int gen_actions(const pos *p, uint32_t *out);
/* gen_actions(p, NULL): the number of legal decisions. */
int count_actions(const pos *p);
/* The action numbered `index` (from 0) in the order of gen_actions(), into
 * *action, without listing the others; 0 when there are not that many. */
int gen_action_at(const pos *p, int index, uint32_t *action);
/* perft's last-but-one ply: the decisions that change a square of
 * `touch` (and every decision of the pieces on it, the carrier's and
 * `end`) into out[MAX_ACTIONS], returning their number; *unlisted gets
 * the number of the other legal decisions. Action phase only. */
int gen_split(const pos *p, bb_t touch, uint32_t *out, int *unlisted);
#endif
