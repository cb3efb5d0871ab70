/* SPDX-License-Identifier: MIT */
/*
 * ballc.c: the Lua binding of libball, the C module ball.so of
 * `require "ball"` for PUC Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT (which loads
 * the build for the 5.1 ABI): the one Lua implementation (issue 29; the
 * LuaJIT FFI module ball.lua of 1.0 is gone). The API: docs/bindings.md;
 * tested by bindings/lua/test_ball.lua under each of the five.
 *  - games are full userdata with __gc, __close (Lua 5.4: `local g <close>
 *    = ball.new()`), __tostring and __eq; an action is a table;
 *  - game:hash() is a 16-digit hexadecimal string, under LuaJIT a uint64_t
 *    cdata (as the 1.0 FFI module gave); game:random_action(r) takes r as
 *    a Lua 5.3+ integer (its 64 bits, read as unsigned), a string of
 *    digits, a number in [0, 1) scaled by 2^64, or under LuaJIT a uint64_t
 *    or int64_t cdata (its 64 bits);
 *  - an MCTS searcher (ball.mcts{...}) is a full userdata with __gc,
 *    __close and __tostring; its seed is a non-negative integer (LuaJIT:
 *    also a uint64_t cdata); a turn searcher (ball.turn_search{...}) too,
 *    its info function called through a C callback in protected mode;
 *  - ball.backend is "c"; ball.library_path is the path of the
 *    libball.so.1 the module was linked with (found by dladdr);
 *  - ball._game_pointer(game) and ball._game_slot() are for the LuaJIT
 *    learning interface bindings/lua/ball_learn.lua (documented-internal).
 * LuaJIT's cdata are read and made through two small Lua functions over
 * its FFI, compiled at load when the module runs under LuaJIT (see
 * luajit_init()). Errors are raised as ball.Error tables {code, name,
 * message}, message being the library's (ball_errmsg()).
 *
 * The units (ballc_core.h, and a header each): this file, luaopen_ball(), opens the others:
 * ballc_core.c (errors, arguments, squares, actions, 64-bit numbers, the
 * constants), ballc_game.c (ball.Game), ballc_search.c (ball.MCTS,
 * ball.TurnSearch, ball.Net), ballc_learn.c (the game pointers of
 * ball_learn.lua).
 *
 * Build: cc -O2 -shared -fPIC $(pkg-config --cflags lua5.4 libball) *.c \
 *        -o ball.so $(pkg-config --libs libball)
 * (the rockspec bindings/lua/libball-1.1.0-1.rockspec does the same).
 */
#include "ballc_game.h"
#include "ballc_learn.h"
#include "ballc_search.h"

int luaopen_ball(lua_State *L);

int luaopen_ball(lua_State *L)
{
    unsigned version = ball_version_number();
    if (version / 10000 != BALL_VERSION_MAJOR)
        return luaL_error(L, "ball: the loaded libball is %s; this module needs major version %d",
                          ball_version_string(), BALL_VERSION_MAJOR);
    lua_newtable(L); /* the module */
    ballc_core_open(L);
    ballc_game_open(L);
    ballc_search_open(L);
    ballc_learn_open(L);
    return 1;
}
