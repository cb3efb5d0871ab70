/* SPDX-License-Identifier: MIT */
/* ballc_search.c: the players, ball.MCTS, ball.TurnSearch, and ball.Net. */
#ifndef BALLC_SEARCH_H
#define BALLC_SEARCH_H

#include "ballc_core.h"

#pragma GCC visibility push(hidden)

#if LUA_VERSION_NUM < 502
#define get_uservalue(L, idx) lua_getfenv(L, idx)
#define set_uservalue(L, idx) lua_setfenv(L, idx)
#else
#define get_uservalue(L, idx) lua_getuservalue(L, idx)
#define set_uservalue(L, idx) lua_setuservalue(L, idx)
#endif

typedef struct lnet {
    ball_net *n;
} lnet;
void ballc_search_open(lua_State *L);

#pragma GCC visibility pop

#endif
