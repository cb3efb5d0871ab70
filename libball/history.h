/* SPDX-License-Identifier: MIT */
/* The undo history behind the public history calls (history.c). */
#ifndef BALL_HISTORY_H
#define BALL_HISTORY_H

#include <stddef.h>
#include "game.h"

/* The position decision i of the history was played from
 * (i = nhist: the current one), by undoing the later records on a copy. */
void history_position(const ball_game *g, size_t i, pos *out);

#endif
