/* SPDX-License-Identifier: MIT */
/*
 * action_order — the legal actions in the tool's square order (`ball
 * legal`, `divide`, `trace`): token by token, squares first by index, then
 * numbers by value, then other bytes (ball --help says so).
 */
#ifndef TOOLS_ACTION_ORDER_H
#define TOOLS_ACTION_ORDER_H

#include "ball.h"

/* One legal action and its N2 text, for sorting. */
struct action_text {
    ball_action action;
    char text[BALL_ACTION_TEXT_MAX];
};

/* Writes the legal actions of @p g, in square order, into @p out (room
 * for BALL_MAX_ACTIONS). Returns their number or a negative ball_error. */
int sorted_legal(ball_game *g, struct action_text *out);

#endif
