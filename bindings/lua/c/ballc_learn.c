/* SPDX-License-Identifier: MIT */
/* The Lua binding's C module, learning: the game pointers of
 * bindings/lua/ball_learn.lua (ballc_learn.h). */
#include "ballc_game.h"
#include "ballc_learn.h"

/* ------------------------------------------------------------------ */
/* for bindings/lua/ball_learn.lua (LuaJIT's FFI): documented-internal */

/* ball._game_pointer(game): the game's ball_game * as a light userdata
 * (ball_learn casts it with ffi.cast); a "closed" error for a closed game,
 * an "arg" error for anything else than a game. The pointer is valid while
 * the game object lives and is not closed: the caller keeps the game
 * referenced while it uses the pointer. */
static int l_game_pointer(lua_State *L)
{
    if (!luaL_testudata_compat(L, 1, GAME_MT)) {
        push_tostring(L, 1);
        raisef(L, BALL_E_ARG, "not a game: %s", lua_tostring(L, -1));
    }
    lua_pushlightuserdata(L, P(L, 1));
    return 1;
}

/* ball._game_slot(): a new game object holding no game yet (closed), and a
 * light userdata pointing at its ball_game * slot, for a C call that makes
 * a game into a ball_game ** (ball_batch_game_clone()): the object owns
 * what the call writes there and frees it when closed or collected. */
static int l_game_slot(lua_State *L)
{
    lgame *lg = new_lgame(L);
    lua_pushlightuserdata(L, &lg->g);
    return 2;
}

static const luaL_Reg learn_functions[] = {
    {"_game_pointer", l_game_pointer},
    {"_game_slot", l_game_slot},
    {NULL, NULL},
};

void ballc_learn_open(lua_State *L)
{
    set_funcs(L, learn_functions);
}
