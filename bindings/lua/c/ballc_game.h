/* SPDX-License-Identifier: MIT */
/* ballc_game.c, ball.Game: what the players and learning use of it. */
#ifndef BALLC_GAME_H
#define BALLC_GAME_H

#include "ballc_core.h"

#pragma GCC visibility push(hidden)

/* A game object: the game (NULL when closed) and a buffer of decisions. */
typedef struct lgame {
    ball_game *g;
    ball_action acts[BALL_MAX_ACTIONS];
} lgame;

void ballc_game_open(lua_State *L);
int luaL_testudata_compat(lua_State *L, int idx, const char *tname);
ball_game *P(lua_State *L, int idx);
lgame *new_lgame(lua_State *L);
void push_action_list(lua_State *L, const ball_action *acts, int n);

#pragma GCC visibility pop

#endif
