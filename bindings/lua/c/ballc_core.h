/* SPDX-License-Identifier: MIT */
/*
 * ballc_core.h: the core of the Lua binding's C module (ball.so of
 * `require "ball"`; ballc.c says what the module is), what every unit
 * uses; each other unit has a header of its own. The units:
 *  - ballc.c: luaopen_ball(), which opens the others;
 *  - ballc_core.c: errors, argument checks, squares, actions, LuaJIT's
 *    64-bit cdata, the constants;
 *  - ballc_game.c: ball.Game: games, their methods, records, cards;
 *  - ballc_search.c: the players, ball.MCTS and ball.TurnSearch, and the
 *    learned evaluation a turn search takes, ball.Net;
 *  - ballc_learn.c: learning: the game pointers of
 *    bindings/lua/ball_learn.lua.
 * No circle: ballc_core.c calls no other unit, ballc_game.c the core,
 * ballc_search.c and ballc_learn.c the game and the core, and ballc.c
 * opens them all.
 * Every name of the units' headers is hidden (#pragma GCC visibility):
 * the module exports luaopen_ball() alone, whatever flags it is compiled
 * with.
 */
#ifndef BALLC_CORE_H
#define BALLC_CORE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BALL_EXPERIMENTAL /* ball_apply_index(), ball_random_apply(), ball_random_playout(), ball_net_* */
#include <ball.h>
#include <lauxlib.h>
#include <lua.h>


#pragma GCC visibility push(hidden)

/* ------------------------------------------------------------------ */
/* Lua 5.1 - 5.4 */

#if LUA_VERSION_NUM < 502
#define lua_rawlen lua_objlen
static inline void set_funcs(lua_State *L, const luaL_Reg *l)
{
    for (; l->name; l++) {
        lua_pushcfunction(L, l->func);
        lua_setfield(L, -2, l->name);
    }
}
#define lua_pushinteger_compat(L, v) lua_pushnumber(L, (lua_Number)(v))
#else
#define set_funcs(L, l) luaL_setfuncs(L, l, 0)
#define lua_pushinteger_compat(L, v) lua_pushinteger(L, (lua_Integer)(v))
#endif
#define PUSHINT(L, v) lua_pushinteger_compat(L, v)

#define GAME_MT "libball.Game"
#define MCTS_MT "libball.MCTS"
#define SEARCH_MT "libball.TurnSearch"
#define NET_MT "libball.Net"
#define ERR_MAX 256
#define CLOSED (-100) /* not a library code: a closed game */

/* The names of the library's numbers (ballc.c). */
extern const char *const TEAM[], *const PHASE[], *const RESULT[], *const KIND[], *const KEEPER[],
    *const TASK[], *const EFFECT[], *const VERB[];
#define N_EARN_WORDS 13
extern const char *const EARN_WORDS[N_EARN_WORDS];


/* Registry keys (addresses of these, ballc.c). */
extern char K_ERROR_MT, K_ACTION_MT, K_ACTION_CACHE, K_SQUARES;
/* Under LuaJIT only (luajit_init()): the FFI helpers of 64-bit cdata. */
extern char K_LJ_U64_DIGITS, K_LJ_U64_NEW;

extern char SQUARE_NAMES[BALL_NUM_SQUARES][BALL_SQUARE_TEXT_MAX];
extern uint64_t rng_state;

/* ---- ballc_core.c */
/* Each unit's part of the module (the module at -1): its functions
 * and classes (ballc_core_open(), ballc_game_open(), ...). */
/* The core's part of the module (at -1): its functions, constants, name
 * lists, ball.Error and the actions' metatable. */
void ballc_core_open(lua_State *L);
/* module[field] = {names[0], ..., names[n - 1]} (the module at -1). */
void set_names(lua_State *L, const char *field, const char *const *names, int n);
/* Pushes registry[key], @p key the address of one of the K_ keys. */
void push_registry(lua_State *L, char *key);
/* Pushes an error table {code, name, message} (ball.Error). */
void push_error(lua_State *L, int code, const char *name, const char *message);
/* Raises an error table of @p code (ball.Error); @p message NULL or "":
 * the code's ball_strerror(). */
int raise_error(lua_State *L, int code, const char *message);
int raisef(lua_State *L, int code, const char *fmt, const char *a);
int ok(lua_State *L, int rc);
long long int_arg(lua_State *L, int idx, const char *what, long long lo, long long hi);
#define INT_ARG(L, i, what) ((int)int_arg(L, i, what, INT32_MIN, INT32_MAX))
const char *text_arg(lua_State *L, int idx, const char *what, int code);
int team_arg(lua_State *L, int idx);
int square_arg(lua_State *L, int idx);
void push_action(lua_State *L, ball_action code);
int is_action(lua_State *L, int idx);
ball_action action_code(lua_State *L, int idx);
void push_tostring(lua_State *L, int idx);
/* ------------------------------------------------------------------ */
/* LuaJIT's 64-bit integers (cdata): what the 1.0 FFI module took and gave
 * under LuaJIT, kept by this module there. A C module cannot read a cdata
 * through the Lua C API (lua_type() says 10, LuaJIT's LUA_TCDATA, and
 * nothing more), so luaopen_ball() compiles two Lua helpers over the FFI
 * when it runs under LuaJIT: one gives the decimal digits of a uint64_t
 * cdata (or of an int64_t's 64 bits, and whether it was one), the other
 * makes a uint64_t cdata of two 32-bit halves. Under PUC Lua neither
 * exists and no value is a cdata. */
#define LJ_TCDATA 10
int cdata_u64(lua_State *L, int idx, uint64_t *out);
void push_hash(lua_State *L, uint64_t v);
void push_seed(lua_State *L, uint64_t v);
uint64_t opt_random(lua_State *L, int i);

/* t[@p key] = @p v, t the table at -1 (the lua_push* and lua_setfield
 * pair that building a result table repeats). */
void set_string(lua_State *L, const char *key, const char *v);
void set_bool(lua_State *L, const char *key, int v);
void set_int(lua_State *L, const char *key, lua_Integer v);

/* A field of a library struct, as push_fields() sets it in a Lua table:
 * its name (the table's key, the struct's field), its C type, its
 * offset. */
typedef enum ballc_field_kind {
    FIELD_INT,    /* int: an integer */
    FIELD_U32,    /* uint32_t: an integer */
    FIELD_U64,    /* uint64_t: an integer */
    FIELD_NUMBER, /* double: a number */
    FIELD_BOOL,   /* int: a boolean, true when not 0 */
    FIELD_SEED,   /* uint64_t: a seed (push_seed()) */
    FIELD_ACTION  /* ball_action: an action (push_action()) */
} ballc_field_kind;
typedef struct ballc_field {
    const char *name;
    ballc_field_kind kind;
    size_t offset;
} ballc_field;
/* The field @p f of struct type @p T, of kind FIELD_@p kind. */
#define FIELD(T, kind, f) {#f, FIELD_##kind, offsetof(T, f)}
#define N_FIELDS(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* t[name] = the value of each of the @p n fields @p f of the struct at
 * @p base, in order, t the table at -1. */
void push_fields(lua_State *L, const void *base, const ballc_field *f, int n);

/* A class of the module: the metatable @p mt, whose __index is a table
 * of the methods, also set as the module's field @p name; NULL events are
 * left out. */
typedef struct ballc_class_def {
    const char *mt, *name;
    const luaL_Reg *methods;
    lua_CFunction gc, close, tostring, eq;
} ballc_class_def;
/* Makes class @p c, the module at -1. */
void ballc_class(lua_State *L, const ballc_class_def *c);

#pragma GCC visibility pop

#endif
