/* SPDX-License-Identifier: MIT */
/* ballc_learn.c: learning, the game pointers of ball_learn.lua. */
#ifndef BALLC_LEARN_H
#define BALLC_LEARN_H

#include "ballc_core.h"

#pragma GCC visibility push(hidden)

void ballc_learn_open(lua_State *L);

#pragma GCC visibility pop

#endif
