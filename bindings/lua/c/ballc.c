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
 * Build: cc -O2 -shared -fPIC $(pkg-config --cflags lua5.4 libball) ballc.c \
 *        -o ball.so $(pkg-config --libs libball)
 * (the rockspec bindings/lua/libball-1.1.0-1.rockspec does the same).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BALL_EXPERIMENTAL /* ball_apply_index(), ball_random_apply(), ball_random_playout(), ball_net_* */
#include <ball.h>
#include <lauxlib.h>
#include <lua.h>

/* ------------------------------------------------------------------ */
/* Lua 5.1 - 5.4 */

#if LUA_VERSION_NUM < 502
#define lua_rawlen lua_objlen
static void set_funcs(lua_State *L, const luaL_Reg *l)
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

static const char *const TEAM[] = {"ATK", "DEF"};
static const char *const PHASE[] = {"action", "release"};
static const char *const RESULT[] = {"ongoing", "atk_won", "def_won", "draw"};
static const char *const KIND[] = {NULL, "move", "dodge", "tactical_dodge", "block", "protect",
                                   "handoff", "short_pass", "long_pass", "end", "stand_up",
                                   "unblock", "unprotect", "convert_pa", "play_card"};
static const char *const KEEPER[] = {"none", "upper", "lower"};
static const char *const TASK[] = {NULL, "stand_up", "release"};
static const char *const EFFECT[] = {NULL, "gain_pa", "unrestrict"};
static const char *const VERB[] = {NULL, "-", "=", "^", "^^", "card"};
static const char *const EARN_WORDS[] = {"move",    "pickup",  "dodge",   "fumble",   "tactical",
                                         "block",   "protect", "handoff", "short",    "long",
                                         "standup", "unblock", "unprotect"};
#define N_EARN_WORDS ((int)(sizeof EARN_WORDS / sizeof EARN_WORDS[0]))

typedef struct lgame {
    ball_game *g;
    ball_action acts[BALL_MAX_ACTIONS];
} lgame;

/* Registry keys (addresses of these statics). */
static char K_ERROR_MT, K_ACTION_MT, K_ACTION_CACHE, K_SQUARES;
/* Under LuaJIT only (luajit_init()): the FFI helpers of 64-bit cdata. */
static char K_LJ_U64_DIGITS, K_LJ_U64_NEW;

static char SQUARE_NAMES[BALL_NUM_SQUARES][BALL_SQUARE_TEXT_MAX];
static uint64_t rng_state;

/* ------------------------------------------------------------------ */
/* errors */

static const char *error_name(int code)
{
    switch (code) {
    case BALL_E_ARG: return "arg";
    case BALL_E_NOMEM: return "nomem";
    case BALL_E_BPN: return "bpn";
    case BALL_E_NOTATION: return "notation";
    case BALL_E_ILLEGAL: return "illegal";
    case BALL_E_BUFFER: return "buffer";
    case BALL_E_RANGE: return "range";
    case BALL_E_NO_HISTORY: return "no_history";
    case BALL_E_RULES: return "rules";
    case BALL_E_LIMIT: return "limit";
    case BALL_E_RECORD: return "record";
    case CLOSED: return "closed";
    default: return "error";
    }
}

static int raise(lua_State *L, int code, const char *message)
{
    if (!message || !*message)
        message = ball_strerror(code);
    lua_createtable(L, 0, 3);
    PUSHINT(L, code);
    lua_setfield(L, -2, "code");
    lua_pushstring(L, error_name(code));
    lua_setfield(L, -2, "name");
    lua_pushstring(L, message);
    lua_setfield(L, -2, "message");
    lua_pushlightuserdata(L, &K_ERROR_MT);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setmetatable(L, -2);
    return lua_error(L);
}

static int raisef(lua_State *L, int code, const char *fmt, const char *a)
{
    char buf[ERR_MAX];
    snprintf(buf, sizeof buf, fmt, a);
    return raise(L, code, buf);
}

static int error_tostring(lua_State *L)
{
    lua_getfield(L, 1, "message");
    lua_getfield(L, 1, "name");
    lua_pushfstring(L, "libball: %s (%s)", lua_tostring(L, -2), lua_tostring(L, -1));
    return 1;
}

static int l_is_error(lua_State *L)
{
    int yes = 0;
    if (lua_getmetatable(L, 1)) {
        lua_pushlightuserdata(L, &K_ERROR_MT);
        lua_rawget(L, LUA_REGISTRYINDEX);
        yes = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (yes && !lua_isnoneornil(L, 2)) {
            lua_getfield(L, 1, "name");
            yes = lua_rawequal(L, -1, 2) || (lua_type(L, 2) == LUA_TSTRING &&
                                             strcmp(lua_tostring(L, -1), lua_tostring(L, 2)) == 0);
            lua_pop(L, 1);
        }
    }
    lua_pushboolean(L, yes);
    return 1;
}

/* rc of a call without a game, or its error. */
static int ok(lua_State *L, int rc)
{
    if (rc < 0)
        raise(L, rc, NULL);
    return rc;
}

/* ------------------------------------------------------------------ */
/* arguments */

static long long int_arg(lua_State *L, int idx, const char *what, long long lo, long long hi)
{
    char buf[ERR_MAX];
    if (lua_type(L, idx) != LUA_TNUMBER) {
        snprintf(buf, sizeof buf, "%s is an integer, not a %s", what, luaL_typename(L, idx));
        raise(L, BALL_E_ARG, buf);
    }
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        lua_Integer v = lua_tointeger(L, idx);
        if (v < lo || v > hi) {
            snprintf(buf, sizeof buf, "%s %lld out of range (%lld to %lld)", what, (long long)v,
                     lo, hi);
            raise(L, BALL_E_RANGE, buf);
        }
        return (long long)v;
    }
#endif
    lua_Number d = lua_tonumber(L, idx);
    if (d != d || (d != floor(d) && !isinf(d))) {
        snprintf(buf, sizeof buf, "%s is an integer, not %.14g", what, (double)d);
        raise(L, BALL_E_ARG, buf);
    }
    if (d < (lua_Number)lo || d > (lua_Number)hi) {
        snprintf(buf, sizeof buf, "%s %.14g out of range (%lld to %lld)", what, (double)d, lo, hi);
        raise(L, BALL_E_RANGE, buf);
    }
    return (long long)d;
}
#define INT_ARG(L, i, what) ((int)int_arg(L, i, what, INT32_MIN, INT32_MAX))

/* A string argument without NUL (an error named by code otherwise). */
static const char *text_arg(lua_State *L, int idx, const char *what, int code)
{
    size_t len;
    char buf[ERR_MAX];
    if (lua_type(L, idx) != LUA_TSTRING) {
        snprintf(buf, sizeof buf, "%s is a string", what);
        raise(L, BALL_E_ARG, buf);
    }
    const char *s = lua_tolstring(L, idx, &len);
    const char *nul = memchr(s, 0, len);
    if (nul) {
        snprintf(buf, sizeof buf, "%s contains a NUL character at byte %d", what,
                 (int)(nul - s) + 1);
        raise(L, code, buf);
    }
    return s;
}

static int team_arg(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *t = lua_tostring(L, idx);
        if (!strcmp(t, "ATK") || !strcmp(t, "atk")) return BALL_ATK;
        if (!strcmp(t, "DEF") || !strcmp(t, "def")) return BALL_DEF;
        return raisef(L, BALL_E_ARG, "a team is ATK or DEF, not %s", t);
    }
    int t = INT_ARG(L, idx, "team");
    if (t != 0 && t != 1)
        raise(L, BALL_E_ARG, "a team is 0 (ATK) or 1 (DEF)");
    return t;
}

static int square_arg(lua_State *L, int idx)
{
    char buf[ERR_MAX];
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *s = lua_tostring(L, idx);
        int sq = ball_square_from_text(s);
        if (sq < 0 || strlen(s) != lua_rawlen(L, idx))
            raisef(L, BALL_E_NOTATION, "not a playable square: %s", s);
        return sq;
    }
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Number d = lua_tonumber(L, idx);
        if (d != floor(d) || d < 0 || d >= BALL_NUM_SQUARES) {
            snprintf(buf, sizeof buf, "no square %.14g (0-110)", (double)d);
            raise(L, BALL_E_RANGE, buf);
        }
        return (int)d;
    }
    return raisef(L, BALL_E_ARG, "a square is a name or an index, not a %s",
                  luaL_typename(L, idx));
}

/* Pushes the name of square sq, nil for BALL_NO_SQUARE; raises for an error. */
static void push_square_or_nil(lua_State *L, int sq)
{
    if (sq == BALL_NO_SQUARE)
        lua_pushnil(L);
    else if (sq < 0)
        raise(L, sq, NULL);
    else
        lua_pushstring(L, SQUARE_NAMES[sq]);
}

/* ------------------------------------------------------------------ */
/* squares */

static int l_square_index(lua_State *L)
{
    PUSHINT(L, square_arg(L, 1));
    return 1;
}

static int l_square_name(lua_State *L)
{
    lua_pushstring(L, SQUARE_NAMES[square_arg(L, 1)]);
    return 1;
}

static int l_square_col(lua_State *L)
{
    PUSHINT(L, ball_square_col(square_arg(L, 1)));
    return 1;
}

static int l_square_row(lua_State *L)
{
    PUSHINT(L, ball_square_row(square_arg(L, 1)));
    return 1;
}

static int l_distance(lua_State *L)
{
    PUSHINT(L, ball_square_distance(square_arg(L, 1), square_arg(L, 2)));
    return 1;
}

static int l_square_at(lua_State *L)
{
    int col = INT_ARG(L, 1, "column"), row = INT_ARG(L, 2, "row");
    int sq = ball_square_at(col, row);
    if (sq < 0) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf, "no playable square at column %d, row %d", col, row);
        raise(L, sq, buf);
    }
    lua_pushstring(L, SQUARE_NAMES[sq]);
    return 1;
}

/* ------------------------------------------------------------------ */
/* actions: interned tables {code, text} with computed fields */

static void push_action(lua_State *L, ball_action code)
{
    lua_pushlightuserdata(L, &K_ACTION_CACHE);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushnumber(L, (lua_Number)code);
    lua_rawget(L, -2);
    if (!lua_isnil(L, -1)) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    char text[BALL_ACTION_TEXT_MAX];
    if (ball_action_to_text(code, text, sizeof text) < 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "not an action code: %lu", (unsigned long)code);
        raise(L, BALL_E_ARG, buf);
    }
    lua_createtable(L, 0, 2);
    PUSHINT(L, code);
    lua_setfield(L, -2, "code");
    lua_pushstring(L, text);
    lua_setfield(L, -2, "text");
    lua_pushlightuserdata(L, &K_ACTION_MT);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setmetatable(L, -2);
    lua_pushnumber(L, (lua_Number)code);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4); /* cache[code] = action */
    lua_remove(L, -2);
}

static int is_action(lua_State *L, int idx)
{
    int yes = 0;
    if (lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx)) {
        lua_pushlightuserdata(L, &K_ACTION_MT);
        lua_rawget(L, LUA_REGISTRYINDEX);
        yes = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    return yes;
}

static ball_action action_code(lua_State *L, int idx)
{
    lua_getfield(L, idx, "code");
    ball_action code = (ball_action)lua_tonumber(L, -1);
    lua_pop(L, 1);
    return code;
}

static int l_action(lua_State *L)
{
    lua_Number d = lua_tonumber(L, 1);
    if (lua_type(L, 1) != LUA_TNUMBER || d != floor(d) || d <= 0 || d >= 4294967296.0)
        return raisef(L, BALL_E_ARG, "not an action code: %s",
                      lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : luaL_typename(L, 1));
    push_action(L, (ball_action)d);
    return 1;
}

static int l_is_action(lua_State *L)
{
    lua_pushboolean(L, is_action(L, 1));
    return 1;
}

static int action_index(lua_State *L)
{
    ball_action a = action_code(L, 1);
    const char *key = lua_tostring(L, 2);
    if (!key || lua_type(L, 2) != LUA_TSTRING)
        return 0;
    if (!strcmp(key, "kind")) {
        lua_pushstring(L, KIND[ok(L, ball_action_kind(a))]);
    } else if (!strcmp(key, "from")) {
        push_square_or_nil(L, ball_action_from(a));
    } else if (!strcmp(key, "to")) {
        push_square_or_nil(L, ball_action_to(a));
    } else if (!strcmp(key, "option")) {
        push_square_or_nil(L, ball_action_option(a));
    } else if (!strcmp(key, "keeper")) {
        lua_pushstring(L, KEEPER[ok(L, ball_action_keeper(a))]);
    } else if (!strcmp(key, "flags")) {
        PUSHINT(L, ok(L, ball_action_flags(a)));
    } else if (!strcmp(key, "cost")) {
        PUSHINT(L, ok(L, ball_action_cost(a)));
    } else if (!strcmp(key, "pickup")) {
        lua_pushboolean(L, (ok(L, ball_action_flags(a)) & BALL_FLAG_PICKUP) != 0);
    } else if (!strcmp(key, "is_conversion")) {
        lua_pushboolean(L, ball_action_kind(a) == BALL_CONVERT_PA);
    } else if (!strcmp(key, "is_card_play")) {
        lua_pushboolean(L, ball_action_kind(a) == BALL_PLAY_CARD);
    } else if (!strcmp(key, "value")) {
        int v = ball_action_value(a);
        if (v == BALL_E_ARG)
            lua_pushnil(L);
        else
            PUSHINT(L, ok(L, v));
    } else {
        return 0;
    }
    return 1;
}

static int action_newindex(lua_State *L)
{
    return luaL_error(L, "ball: actions are immutable");
}

static int action_tostring(lua_State *L)
{
    lua_getfield(L, 1, "text");
    return 1;
}

static void push_tostring(lua_State *L, int idx)
{
    lua_getglobal(L, "tostring");
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);
}

static int action_concat(lua_State *L)
{
    push_tostring(L, 1);
    push_tostring(L, 2);
    lua_concat(L, 2);
    return 1;
}

/* ------------------------------------------------------------------ */
/* games */

/* Whether the value at idx is a userdata of metatable tname (Lua 5.1 has
 * no luaL_testudata). */
static int luaL_testudata_compat(lua_State *L, int idx, const char *tname)
{
    if (!lua_touserdata(L, idx) || !lua_getmetatable(L, idx))
        return 0;
    luaL_getmetatable(L, tname);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same;
}

static lgame *check_game(lua_State *L, int idx)
{
    return (lgame *)luaL_checkudata(L, idx, GAME_MT);
}

/* The handle, or a "closed" error. */
static ball_game *P(lua_State *L, int idx)
{
    lgame *lg = check_game(L, idx);
    if (!lg->g)
        raise(L, CLOSED, "the game is closed");
    return lg->g;
}

/* rc, or the game's error message. */
static int check(lua_State *L, ball_game *g, int rc)
{
    if (rc < 0)
        raise(L, rc, ball_errmsg(g));
    return rc;
}

static lgame *new_lgame(lua_State *L)
{
    lgame *lg = (lgame *)lua_newuserdata(L, sizeof(lgame));
    lg->g = NULL;
    luaL_getmetatable(L, GAME_MT);
    lua_setmetatable(L, -2);
    return lg;
}

/* A new card set from the options table at idx (fields earn, cards); the
 * caller frees it. On error the set is freed and a Lua error raised. */
static ball_cardset *make_cardset(lua_State *L, int idx)
{
    ball_cardset *cs;
    char buf[ERR_MAX];
    ok(L, ball_cardset_new(&cs));
    /* keep it freed on error: a userdata with __gc would be cleaner; errors
     * here are rare, so the set is freed before each raise instead */
#define FAIL(code, msg) do { ball_cardset_free(cs); raise(L, code, msg); } while (0)
    lua_getfield(L, idx, "earn");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1))
            FAIL(BALL_E_ARG, "earn is a table {word = PE}");
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            int entry = -1;
            const char *w = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            for (int i = 0; i < N_EARN_WORDS; i++)
                if (!strcmp(w, EARN_WORDS[i]))
                    entry = i;
            if (entry < 0) {
                snprintf(buf, sizeof buf,
                         "not an earning entry: %s (one of move pickup dodge fumble tactical "
                         "block protect handoff short long standup unblock unprotect)", w);
                FAIL(BALL_E_ARG, buf);
            }
            lua_Number d = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || d != floor(d)) {
                snprintf(buf, sizeof buf, "earn.%s is an integer", w);
                FAIL(BALL_E_ARG, buf);
            }
            if (d < INT32_MIN || d > INT32_MAX || ball_cardset_set_earn(cs, entry, (int)d) < 0) {
                snprintf(buf, sizeof buf, "earn.%s=%.14g: a PE is 0 to %d", w, (double)d,
                         BALL_MAX_CARD_PE);
                FAIL(BALL_E_RANGE, buf);
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, idx, "cards");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1))
            FAIL(BALL_E_ARG, "cards is a table {ATK = {card, ...}, DEF = {...}}");
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            int t = -1;
            if (lua_type(L, -2) == LUA_TSTRING) {
                const char *ts = lua_tostring(L, -2);
                t = !strcmp(ts, "ATK") || !strcmp(ts, "atk") ? 0
                    : !strcmp(ts, "DEF") || !strcmp(ts, "def") ? 1 : -1;
            } else if (lua_type(L, -2) == LUA_TNUMBER) {
                lua_Number d = lua_tonumber(L, -2);
                t = d == 0 ? 0 : d == 1 ? 1 : -1;
            }
            if (t < 0)
                FAIL(BALL_E_ARG, "a team is ATK or DEF");
            if (!lua_istable(L, -1))
                FAIL(BALL_E_ARG, "a hand is a table of cards");
            int n = (int)lua_rawlen(L, -1);
            for (int i = 1; i <= n; i++) {
                lua_rawgeti(L, -1, i);
                if (!lua_istable(L, -1))
                    FAIL(BALL_E_ARG, "a card is a table");
                int top = lua_gettop(L);
                lua_rawgeti(L, top, 1);
                lua_rawgeti(L, top, 2);
                lua_rawgeti(L, top, 3);
                lua_rawgeti(L, top, 4);
                const char *name = lua_type(L, top + 1) == LUA_TSTRING ? lua_tostring(L, top + 1)
                                                                      : NULL;
                if (!name || strlen(name) != lua_rawlen(L, top + 1))
                    FAIL(BALL_E_ARG, "a card name is a string without NUL");
                lua_Number cost = lua_tonumber(L, top + 2);
                if (lua_type(L, top + 2) != LUA_TNUMBER || cost != floor(cost) ||
                    cost < INT32_MIN || cost > INT32_MAX)
                    FAIL(BALL_E_ARG, "a card cost is an integer");
                int effect = 0, amount = 0, have_amount = !lua_isnil(L, top + 4);
                if (have_amount) {
                    lua_Number a = lua_tonumber(L, top + 4);
                    if (lua_type(L, top + 4) != LUA_TNUMBER || a != floor(a) ||
                        a < INT32_MIN || a > INT32_MAX)
                        FAIL(BALL_E_ARG, "a card amount is an integer");
                    amount = (int)a;
                }
                if (lua_type(L, top + 3) == LUA_TSTRING) {
                    const char *e = lua_tostring(L, top + 3);
                    int k;
                    char extra;
                    if (!have_amount && sscanf(e, "pa+%d%c", &k, &extra) == 1 && k >= 0 &&
                        e[3] >= '0' && e[3] <= '9')
                        effect = BALL_EFFECT_GAIN_PA, amount = k;
                    else if (!have_amount && !strcmp(e, "again"))
                        effect = BALL_EFFECT_UNRESTRICT;
                    else if (!strcmp(e, "gain_pa"))
                        effect = BALL_EFFECT_GAIN_PA;
                    else if (!strcmp(e, "unrestrict"))
                        effect = BALL_EFFECT_UNRESTRICT;
                    else {
                        snprintf(buf, sizeof buf, "not a card effect: %s", e);
                        FAIL(BALL_E_ARG, buf);
                    }
                } else if (lua_type(L, top + 3) == LUA_TNUMBER) {
                    effect = (int)lua_tonumber(L, top + 3);
                } else {
                    FAIL(BALL_E_ARG, "a card effect is a string or a number");
                }
                if (ball_cardset_add_card(cs, t, name, (int)cost, effect, amount) < 0) {
                    snprintf(buf, sizeof buf,
                             "card %s of %s: a hand holds at most %d cards named with 1-%d "
                             "letters, digits, _ or -, costing 0-%d PE, with a valid effect "
                             "and amount", name, TEAM[t], BALL_MAX_HAND, BALL_CARD_NAME_MAX - 1,
                             BALL_MAX_CARD_PE);
                    FAIL(BALL_E_RANGE, buf);
                }
                lua_settop(L, top - 1);
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
#undef FAIL
    return cs;
}

/* ball.new(opts) */
static int l_new(lua_State *L)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    char err[ERR_MAX] = "";
    int has_opts = !lua_isnoneornil(L, 1);
    if (has_opts && !lua_istable(L, 1))
        raise(L, BALL_E_ARG, "ball.new takes a table of options");
    ball_rules_init(&rules, sizeof rules);
    int depth = 0, has_depth = 0;
    long long limit = -1;
    if (has_opts) {
        lua_getfield(L, 1, "end_zone_depth");
        if (!lua_isnil(L, -1))
            depth = INT_ARG(L, -1, "end_zone_depth"), has_depth = 1;
        lua_getfield(L, 1, "turn_limit");
        if (!lua_isnil(L, -1))
            limit = int_arg(L, -1, "turn_limit", 0, UINT32_MAX);
        lua_getfield(L, 1, "rules_text");
        if (!lua_isnil(L, -1)) {
            const char *text = text_arg(L, -1, "rules_text", BALL_E_RULES);
            int rc = ball_rules_from_text(&rules, &cards, text, err, sizeof err);
            if (rc < 0)
                raise(L, rc, err);
        }
        lua_getfield(L, 1, "earn");
        lua_getfield(L, 1, "cards");
        int kw = !lua_isnil(L, -1) || !lua_isnil(L, -2);
        lua_pop(L, 5);
        if (kw) {
            if (cards) {
                ball_cardset_free(cards);
                raise(L, BALL_E_ARG,
                      "the card ruleset is given twice: by rules_text and by earn / cards");
            }
            cards = make_cardset(L, 1);
            rules.cards = cards;
        }
    }
    if (has_depth)
        rules.end_zone_depth = depth;
    if (limit >= 0)
        rules.turn_limit = (unsigned)limit;
    lgame *lg = new_lgame(L);
    int rc = ball_game_new(&lg->g, &rules, err, sizeof err);
    ball_cardset_free(cards); /* the game has its own copy */
    if (rc < 0)
        raise(L, rc, err);
    if (has_opts) {
        lua_getfield(L, 1, "bpn");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TSTRING)
                raise(L, BALL_E_ARG, "a BPN is a string");
            const char *text = text_arg(L, -1, "the BPN", BALL_E_BPN);
            check(L, lg->g, ball_position_from_text(lg->g, text));
        }
        lua_pop(L, 1);
    }
    return 1;
}

/* ball.from_bpn(text, opts) */
static int l_from_bpn(lua_State *L)
{
    lua_settop(L, 2);
    lua_newtable(L); /* 3: the options */
    if (lua_istable(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, 3);
        }
    }
    lua_pushvalue(L, 1);
    lua_setfield(L, 3, "bpn");
    lua_pushcfunction(L, l_new);
    lua_pushvalue(L, 3);
    lua_call(L, 1, 1);
    return 1;
}

static int g_close(lua_State *L)
{
    lgame *lg = check_game(L, 1);
    if (lg->g) {
        ball_game_free(lg->g);
        lg->g = NULL;
    }
    return 0;
}

static int g_is_closed(lua_State *L)
{
    lua_pushboolean(L, check_game(L, 1)->g == NULL);
    return 1;
}

static int g_clone(lua_State *L)
{
    ball_game *g = P(L, 1);
    lgame *copy = new_lgame(L);
    ok(L, ball_game_clone(&copy->g, g));
    return 1;
}

static void read_rules(lua_State *L, ball_game *g, ball_rules *r)
{
    ball_rules_init(r, sizeof *r);
    check(L, g, ball_game_rules(g, r));
}

static int g_rules(lua_State *L)
{
    ball_rules r;
    read_rules(L, P(L, 1), &r);
    lua_createtable(L, 0, 2);
    PUSHINT(L, r.end_zone_depth);
    lua_setfield(L, -2, "end_zone_depth");
    PUSHINT(L, r.turn_limit);
    lua_setfield(L, -2, "turn_limit");
    return 1;
}

static void push_rules_text(lua_State *L, ball_game *g)
{
    ball_rules r;
    char buf[BALL_RULES_TEXT_MAX];
    read_rules(L, g, &r);
    ok(L, ball_rules_to_text(&r, buf, sizeof buf));
    lua_pushstring(L, buf);
}

static int g_rules_text(lua_State *L)
{
    push_rules_text(L, P(L, 1));
    return 1;
}

static void push_bpn(lua_State *L, ball_game *g)
{
    char buf[BALL_BPN_MAX];
    check(L, g, ball_position_to_text(g, buf, sizeof buf));
    lua_pushstring(L, buf);
}

static int g_bpn(lua_State *L)
{
    push_bpn(L, P(L, 1));
    return 1;
}

static int g_set_bpn(lua_State *L)
{
    ball_game *g = P(L, 1);
    if (lua_type(L, 2) != LUA_TSTRING)
        raise(L, BALL_E_ARG, "a BPN is a string");
    check(L, g, ball_position_from_text(g, text_arg(L, 2, "the BPN", BALL_E_BPN)));
    return 0;
}

#define GETTER(fname, call, push)                                                                 \
    static int fname(lua_State *L)                                                                \
    {                                                                                             \
        ball_game *g = P(L, 1);                                                                   \
        int v = check(L, g, call(g));                                                             \
        push;                                                                                     \
        return 1;                                                                                 \
    }
GETTER(g_side, ball_side, lua_pushstring(L, TEAM[v]))
GETTER(g_phase, ball_phase, lua_pushstring(L, PHASE[v]))
GETTER(g_pa, ball_pa, PUSHINT(L, v))
GETTER(g_handoff_last, ball_handoff_last, lua_pushboolean(L, v == 1))
GETTER(g_turn, ball_turn, PUSHINT(L, v))
GETTER(g_result, ball_result, lua_pushstring(L, RESULT[v]))
GETTER(g_is_over, ball_result, lua_pushboolean(L, v != BALL_ONGOING))
GETTER(g_winner, ball_result,
       if (v == BALL_ATK_WON) lua_pushstring(L, "ATK");
       else if (v == BALL_DEF_WON) lua_pushstring(L, "DEF"); else lua_pushnil(L))
GETTER(g_history_length, ball_history_length, PUSHINT(L, v))

static int g_pe(lua_State *L)
{
    ball_game *g = P(L, 1);
    PUSHINT(L, check(L, g, ball_pe(g, team_arg(L, 2))));
    return 1;
}

static int g_hand(lua_State *L)
{
    ball_game *g = P(L, 1);
    PUSHINT(L, check(L, g, ball_hand(g, team_arg(L, 2))));
    return 1;
}

/* Pushes the hand of team t as dealt; with only_held, the cards still
 * held, each with its 0-based index. */
static void push_cards(lua_State *L, ball_game *g, int t, int only_held)
{
    ball_rules r;
    read_rules(L, g, &r);
    lua_newtable(L);
    if (!r.cards)
        return;
    int mask = only_held ? check(L, g, ball_hand(g, t)) : -1;
    int n = ok(L, ball_cardset_hand_size(r.cards, t)), k = 0;
    for (int i = 0; i < n; i++) {
        if (!(mask >> i & 1))
            continue;
        lua_createtable(L, 0, 5);
        lua_pushstring(L, ball_cardset_card_name(r.cards, t, i));
        lua_setfield(L, -2, "name");
        PUSHINT(L, ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_COST)));
        lua_setfield(L, -2, "cost");
        lua_pushstring(L, EFFECT[ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_EFFECT))]);
        lua_setfield(L, -2, "effect");
        PUSHINT(L, ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_AMOUNT)));
        lua_setfield(L, -2, "amount");
        if (only_held) {
            PUSHINT(L, i);
            lua_setfield(L, -2, "index");
        }
        lua_rawseti(L, -2, ++k);
    }
}

static int g_cards(lua_State *L)
{
    ball_game *g = P(L, 1);
    push_cards(L, g, team_arg(L, 2), 0);
    return 1;
}

static int g_hand_cards(lua_State *L)
{
    ball_game *g = P(L, 1);
    push_cards(L, g, team_arg(L, 2), 1);
    return 1;
}

static int g_card_mode(lua_State *L)
{
    ball_rules r;
    read_rules(L, P(L, 1), &r);
    lua_pushboolean(L, r.cards != NULL);
    return 1;
}

static int g_earnings(lua_State *L)
{
    ball_rules r;
    read_rules(L, P(L, 1), &r);
    lua_newtable(L);
    if (r.cards)
        for (int i = 0; i < N_EARN_WORDS; i++) {
            PUSHINT(L, ok(L, ball_cardset_earn(r.cards, i)));
            lua_setfield(L, -2, EARN_WORDS[i]);
        }
    return 1;
}

/* Pushes a piece table for a ball_piece() code, nil for 0. */
static void push_piece(lua_State *L, int code)
{
    static const char letters[] = " XOS";
    if (code <= 0) {
        lua_pushnil(L);
        return;
    }
    char letter = letters[code & BALL_PIECE_TYPE_MASK];
    int def = (code & BALL_PIECE_DEF) != 0, down = (code & BALL_PIECE_DOWN) != 0;
    int restricted = (code & BALL_PIECE_RESTRICTED) != 0, has = (code & BALL_PIECE_BALL) != 0;
    int stacked = (code & BALL_PIECE_STACKED) != 0;
    char type[2] = {letter, 0}, text[8];
    snprintf(text, sizeof text, "%c%s%s%s", def ? letter - 'A' + 'a' : letter, has ? "*" : "",
             down ? "_" : "", restricted ? "!" : "");
    lua_createtable(L, 0, 8);
    lua_pushstring(L, TEAM[def]);
    lua_setfield(L, -2, "team");
    lua_pushstring(L, type);
    lua_setfield(L, -2, "type");
    lua_pushboolean(L, down);
    lua_setfield(L, -2, "down");
    lua_pushboolean(L, restricted);
    lua_setfield(L, -2, "restricted");
    lua_pushboolean(L, has);
    lua_setfield(L, -2, "ball");
    lua_pushboolean(L, stacked);
    lua_setfield(L, -2, "stacked");
    lua_pushboolean(L, !down && !stacked);
    lua_setfield(L, -2, "active");
    lua_pushstring(L, text);
    lua_setfield(L, -2, "text");
}

static int g_piece_at(lua_State *L)
{
    ball_game *g = P(L, 1);
    int sq = square_arg(L, 2), level;
    if (lua_isnoneornil(L, 3) || (lua_type(L, 3) == LUA_TSTRING && !strcmp(lua_tostring(L, 3), "upper")))
        level = BALL_UPPER;
    else if (lua_type(L, 3) == LUA_TSTRING && !strcmp(lua_tostring(L, 3), "lower"))
        level = BALL_LOWER;
    else
        return raise(L, BALL_E_ARG, "level is 'upper' or 'lower'");
    push_piece(L, check(L, g, ball_piece(g, sq, level)));
    return 1;
}

/* The text of a square as in `ball show` into buf (at least 16 bytes). */
static void square_text(lua_State *L, ball_game *g, int sq, char *buf, size_t len)
{
    int st = check(L, g, ball_square_state(g, sq));
    if (!(st & BALL_SQ_PIECE)) {
        snprintf(buf, len, "%s", st & BALL_SQ_LOOSE_BALL ? "@" : ".");
        return;
    }
    buf[0] = 0;
    for (int level = 0; level < ((st & BALL_SQ_STACK) ? 2 : 1); level++) {
        push_piece(L, check(L, g, ball_piece(g, sq, level)));
        lua_getfield(L, -1, "text");
        strncat(buf, lua_tostring(L, -1), len - strlen(buf) - 1);
        lua_pop(L, 2);
    }
    if (st & BALL_SQ_FRESH)
        strncat(buf, "+", len - strlen(buf) - 1);
}

static int g_square(lua_State *L)
{
    ball_game *g = P(L, 1);
    int sq = square_arg(L, 2);
    int st = check(L, g, ball_square_state(g, sq));
    char text[24];
    lua_createtable(L, 0, 9);
    lua_pushstring(L, SQUARE_NAMES[sq]);
    lua_setfield(L, -2, "name");
    lua_pushboolean(L, (st & BALL_SQ_LOOSE_BALL) != 0);
    lua_setfield(L, -2, "loose_ball");
    lua_pushboolean(L, (st & BALL_SQ_FRESH) != 0);
    lua_setfield(L, -2, "fresh");
    lua_pushboolean(L, (st & BALL_SQ_STACK) != 0);
    lua_setfield(L, -2, "stack");
    if (st & BALL_SQ_PIECE) {
        push_piece(L, check(L, g, ball_piece(g, sq, BALL_UPPER)));
        lua_setfield(L, -2, "upper");
        if (st & BALL_SQ_STACK) {
            push_piece(L, check(L, g, ball_piece(g, sq, BALL_LOWER)));
            lua_setfield(L, -2, "lower");
        }
    }
    lua_pushboolean(L, !(st & BALL_SQ_PIECE));
    lua_setfield(L, -2, "open");
    lua_pushboolean(L, !(st & BALL_SQ_PIECE) && !(st & BALL_SQ_LOOSE_BALL));
    lua_setfield(L, -2, "vacant");
    square_text(L, g, sq, text, sizeof text);
    lua_pushstring(L, text);
    lua_setfield(L, -2, "text");
    return 1;
}

static int g_ball_square(lua_State *L)
{
    ball_game *g = P(L, 1);
    lua_pushstring(L, SQUARE_NAMES[check(L, g, ball_square_of_ball(g))]);
    return 1;
}

static int g_restricted_square(lua_State *L)
{
    ball_game *g = P(L, 1);
    int sq = ball_restricted_square(g);
    if (sq == BALL_NO_SQUARE)
        lua_pushnil(L);
    else
        lua_pushstring(L, SQUARE_NAMES[check(L, g, sq)]);
    return 1;
}

static ball_action code_of(lua_State *L, ball_game *g, int idx);

/* Squares (a list of names or indices, or one square) at idx as a C int
 * array (a userdata left on the stack) and its length, for the drawing
 * calls; nil is none. */
static int *squares_list(lua_State *L, int idx, size_t *n)
{
    *n = 0;
    if (lua_isnoneornil(L, idx)) {
        lua_pushnil(L);
        return NULL;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        int *one = (int *)lua_newuserdata(L, sizeof(int));
        *one = square_arg(L, idx);
        *n = 1;
        return one;
    }
    size_t len = lua_rawlen(L, idx);
    int *arr = (int *)lua_newuserdata(L, (len ? len : 1) * sizeof(int));
    for (size_t i = 0; i < len; i++) {
        lua_rawgeti(L, idx, (int)i + 1);
        arr[i] = square_arg(L, -1);
        lua_pop(L, 1);
    }
    *n = len;
    return arr;
}

/* Pushes the text that a call of ball_position_to_board_text(),
 * ball_position_to_svg() or ball_record_write() writes: sized by a first
 * call without a buffer, then written into a userdata buffer (freed by the
 * GC even when an error is raised). */
enum draw_kind { DRAW_BOARD, DRAW_SVG, DRAW_RECORD };
static void push_drawing(lua_State *L, ball_game *g, enum draw_kind kind, const int *sq, size_t n,
                         ball_action arrow, int flags)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            len = (size_t)rc + 1;
            buf = (char *)lua_newuserdata(L, len);
        }
        switch (kind) {
        case DRAW_BOARD: rc = ball_position_to_board_text(g, sq, n, flags, buf, len); break;
        case DRAW_SVG: rc = ball_position_to_svg(g, sq, n, arrow, flags, buf, len); break;
        default: rc = ball_record_write(g, buf, len); break;
        }
        check(L, g, rc);
    }
    lua_pushlstring(L, buf, (size_t)rc);
    lua_remove(L, -2);
}

/* game:diagram(opts): the library's text diagram; opts.highlight, opts.legend. */
static int g_diagram(lua_State *L)
{
    ball_game *g = P(L, 1);
    int flags = 0;
    lua_settop(L, 2);
    if (!lua_isnil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_getfield(L, 2, "legend");
        flags = lua_toboolean(L, -1) ? BALL_DRAW_LEGEND : 0;
        lua_getfield(L, 2, "highlight"); /* 4 */
    } else {
        lua_pushnil(L);
        lua_pushnil(L);
    }
    size_t n;
    const int *sq = squares_list(L, 4, &n);
    push_drawing(L, g, DRAW_BOARD, sq, n, BALL_ACTION_NONE, flags);
    return 1;
}

/* game:svg(opts): the SVG picture; opts.highlight, opts.action, opts.coords. */
static int g_svg(lua_State *L)
{
    ball_game *g = P(L, 1);
    int flags = 0;
    ball_action arrow = BALL_ACTION_NONE;
    lua_settop(L, 2);
    if (!lua_isnil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_getfield(L, 2, "coords"); /* 3 */
        if (lua_type(L, 3) == LUA_TBOOLEAN && !lua_toboolean(L, 3))
            flags = BALL_DRAW_NO_COORDS;
        lua_getfield(L, 2, "highlight"); /* 4 */
        lua_getfield(L, 2, "action");    /* 5 */
        if (!lua_isnil(L, 5))
            arrow = code_of(L, g, 5);
    } else {
        lua_pushnil(L);
        lua_pushnil(L);
    }
    size_t n;
    const int *sq = squares_list(L, 4, &n);
    push_drawing(L, g, DRAW_SVG, sq, n, arrow, flags);
    return 1;
}

static int g_tostring(lua_State *L)
{
    lgame *lg = check_game(L, 1);
    if (!lg->g) {
        lua_pushstring(L, "ball.Game(closed)");
        return 1;
    }
    push_drawing(L, lg->g, DRAW_BOARD, NULL, 0, BALL_ACTION_NONE, 0);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    lua_pushlstring(L, text, len ? len - 1 : 0); /* without the last newline */
    return 1;
}

/* Same position under the same ruleset. */
static int g_eq(lua_State *L)
{
    lgame *a = check_game(L, 1), *b = check_game(L, 2);
    if (!a->g || !b->g) {
        lua_pushboolean(L, a == b);
        return 1;
    }
    push_bpn(L, a->g);
    push_bpn(L, b->g);
    push_rules_text(L, a->g);
    push_rules_text(L, b->g);
    lua_pushboolean(L, !strcmp(lua_tostring(L, -4), lua_tostring(L, -3)) &&
                           !strcmp(lua_tostring(L, -2), lua_tostring(L, -1)));
    return 1;
}

static void push_action_list(lua_State *L, const ball_action *acts, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_action(L, acts[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

static int g_legal_actions(lua_State *L)
{
    lgame *lg = check_game(L, 1);
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_legal_actions(g, lg->acts, BALL_MAX_ACTIONS));
    push_action_list(L, lg->acts, n);
    return 1;
}

static int g_count_legal_actions(lua_State *L)
{
    ball_game *g = P(L, 1);
    PUSHINT(L, check(L, g, ball_legal_actions(g, NULL, 0)));
    return 1;
}

static int g_legal_action(lua_State *L)
{
    ball_game *g = P(L, 1);
    long long i = int_arg(L, 2, "an action index", INT64_MIN / 2, INT64_MAX / 2);
    if (i < 1 || i > INT32_MAX) {
        char buf[64];
        snprintf(buf, sizeof buf, "action index %lld out of range", i);
        raise(L, BALL_E_RANGE, buf);
    }
    ball_action a;
    check(L, g, ball_legal_action_at(g, (int)(i - 1), &a));
    push_action(L, a);
    return 1;
}

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

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

static const char LJ_HELPERS[] =
    "local ffi = require('ffi')\n"
    "local u64, i64 = ffi.typeof('uint64_t'), ffi.typeof('int64_t')\n"
    "return function(v)\n"
    "    if ffi.istype(u64, v) then return (tostring(ffi.cast(u64, v)):gsub('ULL$', '')), false end\n"
    "    if ffi.istype(i64, v) then return (tostring(ffi.cast(u64, v)):gsub('ULL$', '')), true end\n"
    "    return nil\n"
    "end, function(hi, lo) return ffi.new(u64, hi) * 4294967296 + lo end\n";

static int luajit_init_body(lua_State *L)
{
    if (luaL_loadbuffer(L, LJ_HELPERS, sizeof LJ_HELPERS - 1, "=ball.so (LuaJIT helpers)") != 0)
        return lua_error(L);
    lua_call(L, 0, 2);
    lua_pushlightuserdata(L, &K_LJ_U64_NEW);
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_pushlightuserdata(L, &K_LJ_U64_DIGITS);
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Installs the helpers when this is LuaJIT with its FFI (a global `jit`
 * and require("ffi") working); anything else leaves them out. */
static void luajit_init(lua_State *L)
{
    lua_getglobal(L, "jit");
    int jit = lua_istable(L, -1);
    lua_pop(L, 1);
    if (!jit)
        return;
    lua_pushcfunction(L, luajit_init_body);
    if (lua_pcall(L, 0, 0, 0) != 0)
        lua_pop(L, 1); /* no FFI: no cdata either */
}

/* The decimal digits of the 64-bit integer cdata at idx pushed, and 1
 * (uint64_t) or 2 (int64_t, its 64 bits), or nothing pushed and 0 for any
 * other value. */
static int cdata_u64_digits(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LJ_TCDATA)
        return 0;
    if (idx < 0)
        idx = lua_gettop(L) + idx + 1;
    lua_pushlightuserdata(L, &K_LJ_U64_DIGITS);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, idx);
    lua_call(L, 1, 2);
    if (lua_type(L, -2) != LUA_TSTRING) {
        lua_pop(L, 2);
        return 0;
    }
    int is_signed = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return is_signed ? 2 : 1;
}

/* The unsigned decimal number of @p len digits at @p t; 0 for none, for a
 * non-digit, or for 2^64 or more. */
static int parse_u64(const char *t, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    if (len == 0)
        return 0;
    for (size_t k = 0; k < len; k++) {
        unsigned d = (unsigned char)t[k] - '0';
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return 0; /* not a digit, or 2^64 or more */
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* The 64-bit integer cdata at idx: 1 (uint64_t) or 2 (int64_t, read as its
 * 64 bits) and *out, or 0 for any other value. */
static int cdata_u64(lua_State *L, int idx, uint64_t *out)
{
    int kind = cdata_u64_digits(L, idx);
    if (!kind)
        return 0;
    size_t len;
    const char *t = lua_tolstring(L, -1, &len);
    int good = parse_u64(t, len, out);
    lua_pop(L, 1);
    return good ? kind : 0;
}

/* Under LuaJIT, pushes v as a uint64_t cdata and returns 1; elsewhere
 * pushes nothing and returns 0. */
static int push_u64_cdata(lua_State *L, uint64_t v)
{
    lua_pushlightuserdata(L, &K_LJ_U64_NEW);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushnumber(L, (lua_Number)(uint32_t)(v >> 32));
    lua_pushnumber(L, (lua_Number)(uint32_t)v);
    lua_call(L, 2, 1);
    return 1;
}

/* Pushes v: under LuaJIT a uint64_t cdata (as the 1.0 FFI module gave),
 * else a 16-digit hexadecimal string. */
static void push_hash(lua_State *L, uint64_t v)
{
    if (push_u64_cdata(L, v))
        return;
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
    lua_pushstring(L, buf);
}

/* Pushes a seed: a number when exact (below 2^53, or any Lua 5.3+
 * integer), else under LuaJIT a uint64_t cdata, else the nearest number. */
static void push_seed(lua_State *L, uint64_t v)
{
#if LUA_VERSION_NUM < 503
    if (v >= 9007199254740992u && push_u64_cdata(L, v))
        return;
#endif
    PUSHINT(L, v);
}

/* r for ball_random_action() (docs/bindings.md, "random_action(r)"): the
 * forms that can carry every one of the 2^64 values, and nothing else,
 * since a uniform r from a smaller range draws from part of the legal list
 * only. 1 and *r, or 0 for anything else. */
#define R_FORMS "r is an integer (Lua 5.3+: its 64 bits, -1 being 2^64 - 1), a string of decimal " \
    "digits up to 18446744073709551615, a number in [0, 1) (math.random()), scaled by 2^64, or " \
    "under LuaJIT a uint64_t or int64_t cdata (its 64 bits)"
static int random_arg(lua_State *L, int i, uint64_t *r)
{
    if (lua_type(L, i) == LUA_TSTRING) {
        size_t len;
        const char *t = lua_tolstring(L, i, &len);
        return parse_u64(t, len, r);
    }
    if (lua_type(L, i) == LJ_TCDATA)
        return cdata_u64(L, i, r) != 0;
    if (lua_type(L, i) != LUA_TNUMBER)
        return 0;
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, i)) {
        *r = (uint64_t)lua_tointeger(L, i); /* two's complement: all 64 bits */
        return 1;
    }
#endif
    lua_Number d = lua_tonumber(L, i);
    if (!(d >= 0 && d < 1))
        return 0; /* NaN too */
    *r = (uint64_t)(d * 18446744073709551616.0); /* exact: d has 53 bits */
    return 1;
}

/* The random number (or seed) argument @p i: random_arg()'s forms, or a
 * draw of the module's generator when it is nil or absent. */
static uint64_t opt_random(lua_State *L, int i)
{
    uint64_t r = 0;
    if (lua_isnoneornil(L, i))
        return splitmix64();
    if (!random_arg(L, i, &r))
        raise(L, BALL_E_ARG, R_FORMS); /* does not return */
    return r;
}

static int g_random_action(lua_State *L)
{
    ball_game *g = P(L, 1);
    uint64_t r = opt_random(L, 2);
    ball_action a;
    check(L, g, ball_random_action(g, r, &a));
    push_action(L, a);
    return 1;
}

/* game:apply_index(i): legal_actions()[i] played without the check
 * (ball_apply_index(), experimental); returns nothing. */
static int g_apply_index(lua_State *L)
{
    ball_game *g = P(L, 1);
    long long i = int_arg(L, 2, "an action index", INT64_MIN / 2, INT64_MAX / 2);
    if (i < 1 || i > INT32_MAX) {
        char buf[64];
        snprintf(buf, sizeof buf, "action index %lld out of range", i);
        raise(L, BALL_E_RANGE, buf);
    }
    check(L, g, ball_apply_index(g, (int)(i - 1)));
    return 0;
}

/* game:random_apply([r]): random_action(r) played without the check
 * (ball_random_apply(), experimental); returns the action. */
static int g_random_apply(lua_State *L)
{
    ball_game *g = P(L, 1);
    uint64_t r = opt_random(L, 2);
    ball_action a;
    check(L, g, ball_random_apply(g, r, &a));
    push_action(L, a);
    return 1;
}

/* game:random_playout([seed [, max]]): ball_random_playout()
 * (experimental); returns the number of decisions played. */
static int g_random_playout(lua_State *L)
{
    ball_game *g = P(L, 1);
    uint64_t seed = opt_random(L, 2);
    int max = lua_isnoneornil(L, 3) ? INT32_MAX : (int)int_arg(L, 3, "max", INT32_MIN, INT32_MAX);
    PUSHINT(L, check(L, g, ball_random_playout(g, seed, max)));
    return 1;
}

static ball_action parse(lua_State *L, ball_game *g, int idx)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        raise(L, BALL_E_ARG, "an action text is a string");
    ball_action a;
    check(L, g, ball_action_from_text(g, text_arg(L, idx, "the action text", BALL_E_NOTATION), &a));
    return a;
}

static int g_parse_action(lua_State *L)
{
    ball_game *g = P(L, 1);
    push_action(L, parse(L, g, 2));
    return 1;
}

/* The code of an action object, text or number at idx. */
static ball_action code_of(lua_State *L, ball_game *g, int idx)
{
    if (is_action(L, idx))
        return action_code(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING)
        return parse(L, g, idx);
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Number d = lua_tonumber(L, idx);
        if (d > 0 && d < 4294967296.0 && d == floor(d))
            return (ball_action)d;
    }
    push_tostring(L, idx);
    raisef(L, BALL_E_ARG, "not an action: %s", lua_tostring(L, -1));
    return 0;
}

/* game:hash(): a uint64_t cdata under LuaJIT, else 16 hexadecimal digits. */
static int g_hash(lua_State *L)
{
    push_hash(L, ball_hash(P(L, 1)));
    return 1;
}

static int is_legal_body(lua_State *L)
{
    ball_game *g = (ball_game *)lua_touserdata(L, 1);
    lua_pushnumber(L, (lua_Number)code_of(L, g, 2));
    return 1;
}

static int g_is_legal(lua_State *L)
{
    ball_game *g = P(L, 1);
    lua_pushcfunction(L, is_legal_body);
    lua_pushlightuserdata(L, g);
    lua_pushvalue(L, 2);
    if (lua_pcall(L, 2, 1, 0) != 0) {
        lua_pushboolean(L, 0);
        return 1;
    }
    ball_action code = (ball_action)lua_tonumber(L, -1);
    lua_pushboolean(L, check(L, g, ball_is_legal(g, code)) == 1);
    return 1;
}

static int g_apply(lua_State *L)
{
    ball_game *g = P(L, 1);
    ball_action code = code_of(L, g, 2);
    check(L, g, ball_apply(g, code));
    push_action(L, code);
    return 1;
}

static int g_undo(lua_State *L)
{
    ball_game *g = P(L, 1);
    check(L, g, ball_undo(g));
    return 0;
}

/* game:history_action(i), 1 = the oldest decision. */
static int g_history_action(lua_State *L)
{
    ball_game *g = P(L, 1);
    int i = INT_ARG(L, 2, "a history index");
    ball_action a;
    if (i == INT32_MIN)
        raise(L, BALL_E_RANGE, "no such decision in the history");
    check(L, g, ball_history_action(g, i - 1, &a));
    push_action(L, a);
    return 1;
}

/* game:peek(): the last decision played, or nil. */
static int g_peek(lua_State *L)
{
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_history_length(g));
    ball_action a;
    if (n == 0)
        return 0;
    check(L, g, ball_history_action(g, n - 1, &a));
    push_action(L, a);
    return 1;
}

/* game:pop(): takes back the last decision and returns it. */
static int g_pop(lua_State *L)
{
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_history_length(g));
    ball_action a = 0;
    if (n > 0)
        check(L, g, ball_history_action(g, n - 1, &a));
    check(L, g, ball_undo(g));
    push_action(L, a);
    return 1;
}

/* game:history() (also game:move_stack()): the decisions, oldest first. */
static int g_history(lua_State *L)
{
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_history_length(g));
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        ball_action a;
        check(L, g, ball_history_action(g, i, &a));
        push_action(L, a);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* game:history_position(i): the BPN decision i (1 = the oldest) was
 * played from; history_length() + 1 is the current position. */
static int g_history_position(lua_State *L)
{
    ball_game *g = P(L, 1);
    int i = INT_ARG(L, 2, "a history index");
    char buf[BALL_BPN_MAX];
    if (i == INT32_MIN)
        raise(L, BALL_E_RANGE, "no such position in the history");
    check(L, g, ball_history_position(g, i - 1, buf, sizeof buf));
    lua_pushstring(L, buf);
    return 1;
}

/* The tags of a game record, in the order of enum ball_tag. */
static const char *const TAGS[] = {"Event", "Site", "Date", "ATK", "DEF"};

static int tag_arg(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        for (int t = 0; t < BALL_TAG_COUNT; t++) {
            const char *a = TAGS[t], *b = name;
            while (*a && (*a | 0x20) == (*b | 0x20))
                a++, b++;
            if (!*a && !*b)
                return t;
        }
    }
    push_tostring(L, idx);
    return raisef(L, BALL_E_ARG, "a record tag is one of Event, Site, Date, ATK, DEF, not %s",
                  lua_tostring(L, -1));
}

static int g_tags(lua_State *L)
{
    ball_game *g = P(L, 1);
    char buf[BALL_TAG_TEXT_MAX];
    lua_createtable(L, 0, BALL_TAG_COUNT);
    for (int t = 0; t < BALL_TAG_COUNT; t++) {
        check(L, g, ball_game_tag(g, t, buf, sizeof buf));
        lua_pushstring(L, buf);
        lua_setfield(L, -2, TAGS[t]);
    }
    return 1;
}

static int g_set_tag(lua_State *L)
{
    ball_game *g = P(L, 1);
    int t = tag_arg(L, 2);
    const char *value = lua_isnoneornil(L, 3) ? NULL : text_arg(L, 3, "a tag value", BALL_E_RANGE);
    check(L, g, ball_game_set_tag(g, t, value));
    return 0;
}

/* The body of game:record(tags) once the tags are set, under pcall so
 * that the game's own tags are put back whatever happens. */
static int record_body(lua_State *L)
{
    ball_game *g = (ball_game *)lua_touserdata(L, 1);
    if (lua_istable(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            int t = tag_arg(L, -2);
            const char *value = lua_toboolean(L, -1)
                                    ? text_arg(L, -1, "a tag value", BALL_E_RANGE)
                                    : NULL;
            check(L, g, ball_game_set_tag(g, t, value));
            lua_pop(L, 1);
        }
    }
    push_drawing(L, g, DRAW_RECORD, NULL, 0, BALL_ACTION_NONE, 0);
    return 1;
}

static int g_record(lua_State *L)
{
    ball_game *g = P(L, 1);
    lua_settop(L, 2);
    if (!lua_isnil(L, 2) && !lua_istable(L, 2))
        raise(L, BALL_E_ARG, "tags is a table");
    char saved[BALL_TAG_COUNT][BALL_TAG_TEXT_MAX];
    for (int t = 0; t < BALL_TAG_COUNT; t++)
        check(L, g, ball_game_tag(g, t, saved[t], sizeof saved[t]));
    lua_pushcfunction(L, record_body);
    lua_pushlightuserdata(L, g);
    lua_pushvalue(L, 2);
    int rc = lua_pcall(L, 2, 1, 0);
    for (int t = 0; t < BALL_TAG_COUNT; t++)
        ball_game_set_tag(g, t, saved[t]);
    if (rc != 0)
        return lua_error(L);
    return 1;
}

/* A "record" error for a failed ball_record_read(): code is the library's
 * code, line and column where the message says. */
static int record_error(lua_State *L, int code, const char *message)
{
    if (code != BALL_E_RECORD && code != BALL_E_RULES && code != BALL_E_BPN &&
        code != BALL_E_NOTATION && code != BALL_E_ILLEGAL && code != BALL_E_LIMIT)
        return raise(L, code, message);
    int line, column;
    lua_createtable(L, 0, 5);
    PUSHINT(L, code);
    lua_setfield(L, -2, "code");
    lua_pushstring(L, "record");
    lua_setfield(L, -2, "name");
    lua_pushstring(L, message);
    lua_setfield(L, -2, "message");
    const char *at = strstr(message, "line ");
    if (at && sscanf(at, "line %d, column %d", &line, &column) == 2) {
        PUSHINT(L, line);
        lua_setfield(L, -2, "line");
        PUSHINT(L, column);
        lua_setfield(L, -2, "column");
    }
    lua_pushlightuserdata(L, &K_ERROR_MT);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setmetatable(L, -2);
    return lua_error(L);
}

/* The iterator of ball.read_records(): upvalue 1 the text, 2 the offset. */
static int next_record(lua_State *L)
{
    size_t len;
    const char *text = lua_tolstring(L, lua_upvalueindex(1), &len);
    size_t offset = (size_t)lua_tonumber(L, lua_upvalueindex(2));
    char err[ERR_MAX] = "";
    lgame *lg = new_lgame(L);
    int rc = ball_record_read(&lg->g, text, len, &offset, err, sizeof err);
    if (rc < 0)
        return record_error(L, rc, err);
    lua_pushnumber(L, (lua_Number)offset);
    lua_replace(L, lua_upvalueindex(2));
    if (rc == 0)
        return 0;
    return 1;
}

/* ball.read_records(text): an iterator over the games of the text. */
static int l_read_records(lua_State *L)
{
    text_arg(L, 1, "the record text", BALL_E_RECORD);
    lua_settop(L, 1);
    lua_pushnumber(L, 0);
    lua_pushcclosure(L, next_record, 2);
    return 1;
}

/* ball.from_record(text): the game of a text holding one record. */
static int l_from_record(lua_State *L)
{
    l_read_records(L);
    int it = lua_gettop(L);
    lua_pushvalue(L, it);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1))
        return record_error(L, BALL_E_RECORD, "line 1, column 1: no game record in the text");
    lgame *first = check_game(L, -1);
    lua_pushvalue(L, it);
    if (lua_pcall(L, 0, 1, 0) != 0) {
        ball_game_free(first->g);
        first->g = NULL;
        return lua_error(L);
    }
    if (!lua_isnil(L, -1)) {
        lgame *extra = check_game(L, -1);
        ball_game_free(extra->g);
        extra->g = NULL;
        ball_game_free(first->g);
        first->g = NULL;
        return record_error(L, BALL_E_RECORD, "the text holds more than one game record "
                                              "(ball.read_records() reads them all)");
    }
    lua_pop(L, 1);
    return 1;
}

static int filter_kind(lua_State *L, int kind)
{
    lgame *lg = check_game(L, 1);
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_legal_actions(g, lg->acts, BALL_MAX_ACTIONS)), k = 0;
    lua_newtable(L);
    for (int i = 0; i < n; i++)
        if (ball_action_kind(lg->acts[i]) == kind) {
            push_action(L, lg->acts[i]);
            lua_rawseti(L, -2, ++k);
        }
    return 1;
}

static int g_conversions(lua_State *L) { return filter_kind(L, BALL_CONVERT_PA); }
static int g_card_plays(lua_State *L) { return filter_kind(L, BALL_PLAY_CARD); }

static int apply_text(lua_State *L, ball_game *g, const char *text)
{
    ball_action a;
    check(L, g, ball_action_from_text(g, text, &a));
    check(L, g, ball_apply(g, a));
    push_action(L, a);
    return 1;
}

static int g_convert(lua_State *L)
{
    ball_game *g = P(L, 1);
    int k = (int)int_arg(L, 2, "PA to convert", 1, BALL_MAX_PA);
    char text[16];
    snprintf(text, sizeof text, "pe+%d", k);
    return apply_text(L, g, text);
}

static int g_play_card(lua_State *L)
{
    ball_game *g = P(L, 1);
    int index = -1;
    if (lua_type(L, 2) == LUA_TSTRING) {
        const char *name = lua_tostring(L, 2);
        int side = check(L, g, ball_side(g));
        int mask = check(L, g, ball_hand(g, side));
        ball_rules r;
        read_rules(L, g, &r);
        int n = r.cards ? ball_cardset_hand_size(r.cards, side) : 0;
        for (int i = 0; i < n && index < 0; i++)
            if ((mask >> i & 1) && !strcmp(ball_cardset_card_name(r.cards, side, i), name))
                index = i;
        if (index < 0) {
            char buf[ERR_MAX];
            snprintf(buf, sizeof buf, "%s holds no card named %s", TEAM[side], name);
            raise(L, BALL_E_ILLEGAL, buf);
        }
    } else {
        index = (int)int_arg(L, 2, "hand index", 0, BALL_MAX_HAND - 1);
    }
    char text[32];
    int len = snprintf(text, sizeof text, "card%d", index + 1);
    if (!lua_isnoneornil(L, 3))
        snprintf(text + len, sizeof text - (size_t)len, "@%s", SQUARE_NAMES[square_arg(L, 3)]);
    return apply_text(L, g, text);
}

static int g_perft(lua_State *L)
{
    ball_game *g = P(L, 1);
    int depth = INT_ARG(L, 2, "perft depth");
    uint64_t count;
    check(L, g, ball_perft(g, depth, &count));
    lua_pushnumber(L, (lua_Number)count);
    return 1;
}

static int g_release_tasks(lua_State *L)
{
    ball_game *g = P(L, 1);
    ball_task tasks[BALL_MAX_TASKS];
    int n = check(L, g, ball_release_tasks(g, tasks, BALL_MAX_TASKS));
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, SQUARE_NAMES[ok(L, ball_task_square(tasks[i]))]);
        lua_setfield(L, -2, "square");
        lua_pushstring(L, TASK[ok(L, ball_task_kind(tasks[i]))]);
        lua_setfield(L, -2, "kind");
        lua_pushboolean(L, ok(L, ball_task_solvable(tasks[i])) == 1);
        lua_setfield(L, -2, "solvable");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int g_task_solutions(lua_State *L)
{
    lgame *lg = check_game(L, 1);
    ball_game *g = P(L, 1);
    int n = check(L, g, ball_task_solutions(g, square_arg(L, 2), lg->acts, BALL_MAX_ACTIONS));
    push_action_list(L, lg->acts, n);
    return 1;
}

static int verb_of(lua_State *L, int idx)
{
    static const char *const names[] = {NULL, "move", "handoff", "short_pass", "long_pass", "card"};
    if (lua_type(L, idx) == LUA_TNUMBER)
        return INT_ARG(L, idx, "a verb");
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *v = lua_tostring(L, idx);
        for (int i = 1; i <= 5; i++)
            if (!strcmp(v, VERB[i]) || !strcmp(v, names[i]))
                return i;
    }
    push_tostring(L, idx);
    return raisef(L, BALL_E_NOTATION, "not a verb: %s", lua_tostring(L, -1));
}

static int g_select(lua_State *L)
{
    ball_game *g = P(L, 1);
    int chosen[BALL_SELECT_STEPS], choices[BALL_NUM_SQUARES];
    int n_chosen = 0;
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        n_chosen = (int)lua_rawlen(L, 2);
        if (n_chosen > BALL_SELECT_STEPS) {
            char buf[64];
            snprintf(buf, sizeof buf, "at most %d choices", BALL_SELECT_STEPS);
            raise(L, BALL_E_ARG, buf);
        }
        for (int i = 0; i < n_chosen; i++) {
            lua_rawgeti(L, 2, i + 1);
            chosen[i] = i == 1 ? verb_of(L, -1) : square_arg(L, -1);
            lua_pop(L, 1);
        }
    }
    ball_action action;
    int n = check(L, g, ball_select(g, chosen, (size_t)n_chosen, choices, BALL_NUM_SQUARES,
                                    &action));
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        if (n_chosen == 1)
            lua_pushstring(L, VERB[choices[i]]);
        else
            lua_pushstring(L, SQUARE_NAMES[choices[i]]);
        lua_rawseti(L, -2, i + 1);
    }
    if (action)
        push_action(L, action);
    else
        lua_pushnil(L);
    return 2;
}

/* ------------------------------------------------------------------ */
/* the MCTS player: ball.mcts{...}, a full userdata with __gc */

typedef struct lmcts {
    ball_mcts *m;
    ball_mcts_config cfg; /* the settings it was created with */
} lmcts;

static const char *const MCTS_OPTIONS[] = {"playouts",      "time_ms",     "seed",
                                           "playout_turns", "exploration", "max_nodes"};
#define N_MCTS_OPTIONS ((int)(sizeof MCTS_OPTIONS / sizeof MCTS_OPTIONS[0]))

/* A seed: a non-negative integer (Lua 5.3+ integers up to 2^63 - 1, floats
 * up to 2^53 - 1), or under LuaJIT a uint64_t cdata. */
static uint64_t seed_arg(lua_State *L, int idx)
{
    char buf[ERR_MAX];
    uint64_t u;
    if (cdata_u64(L, idx, &u) == 1)
        return u; /* LuaJIT: a uint64_t cdata, any of its values (as in 1.0) */
    if (lua_type(L, idx) != LUA_TNUMBER) {
        snprintf(buf, sizeof buf, "seed is an integer%s, not a %s",
                 lua_type(L, idx) == LJ_TCDATA ? " or a uint64_t" : "", luaL_typename(L, idx));
        raise(L, BALL_E_ARG, buf);
    }
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        lua_Integer v = lua_tointeger(L, idx);
        if (v < 0) {
            snprintf(buf, sizeof buf, "seed %lld out of range (0 to 2^63 - 1)", (long long)v);
            raise(L, BALL_E_RANGE, buf);
        }
        return (uint64_t)v;
    }
#endif
    lua_Number d = lua_tonumber(L, idx);
    if (d != d || (d != floor(d) && !isinf(d))) {
        snprintf(buf, sizeof buf, "seed is an integer, not %.14g", (double)d);
        raise(L, BALL_E_ARG, buf);
    }
    if (d < 0 || d >= 9007199254740992.0) {
        snprintf(buf, sizeof buf, "seed %.14g out of range (0 to 2^53 - 1)", (double)d);
        raise(L, BALL_E_RANGE, buf);
    }
    return (uint64_t)d;
}

/* ball.mcts(opts) */
static int l_mcts(lua_State *L)
{
    ball_mcts_config cfg;
    char err[ERR_MAX] = "";
    int has_opts = !lua_isnoneornil(L, 1);
    if (has_opts && !lua_istable(L, 1))
        raise(L, BALL_E_ARG, "ball.mcts takes a table of options");
    ball_mcts_config_init(&cfg, sizeof cfg);
    if (has_opts) {
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            int known = 0;
            if (lua_type(L, -2) == LUA_TSTRING)
                for (int i = 0; i < N_MCTS_OPTIONS; i++)
                    known |= !strcmp(lua_tostring(L, -2), MCTS_OPTIONS[i]);
            if (!known) {
                char buf[ERR_MAX];
                snprintf(buf, sizeof buf,
                         "ball.mcts: unknown option %s (playouts, time_ms, seed, playout_turns, "
                         "exploration, max_nodes)",
                         lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                        : luaL_typename(L, -2));
                raise(L, BALL_E_ARG, buf);
            }
            lua_pop(L, 1);
        }
        lua_getfield(L, 1, "time_ms");
        if (!lua_isnil(L, -1))
            cfg.time_ms = INT_ARG(L, -1, "time_ms");
        lua_getfield(L, 1, "playouts");
        if (!lua_isnil(L, -1))
            cfg.playouts = INT_ARG(L, -1, "playouts");
        else if (cfg.time_ms > 0)
            cfg.playouts = 0; /* a time budget alone: no playout limit */
        lua_getfield(L, 1, "seed");
        if (!lua_isnil(L, -1))
            cfg.seed = seed_arg(L, -1);
        lua_getfield(L, 1, "playout_turns");
        if (!lua_isnil(L, -1))
            cfg.playout_turns = INT_ARG(L, -1, "playout_turns");
        lua_getfield(L, 1, "max_nodes");
        if (!lua_isnil(L, -1))
            cfg.max_nodes = INT_ARG(L, -1, "max_nodes");
        lua_getfield(L, 1, "exploration");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER) {
                char buf[ERR_MAX];
                snprintf(buf, sizeof buf, "exploration is a number, not a %s",
                         luaL_typename(L, -1));
                raise(L, BALL_E_ARG, buf);
            }
            cfg.exploration = (double)lua_tonumber(L, -1);
        }
        lua_pop(L, 6);
    }
    lmcts *lm = (lmcts *)lua_newuserdata(L, sizeof(lmcts));
    lm->m = NULL;
    lm->cfg = cfg;
    luaL_getmetatable(L, MCTS_MT);
    lua_setmetatable(L, -2);
    int rc = ball_mcts_new(&lm->m, &cfg, err, sizeof err);
    if (rc < 0)
        raise(L, rc, err);
    return 1;
}

static lmcts *check_mcts(lua_State *L, int idx)
{
    return (lmcts *)luaL_checkudata(L, idx, MCTS_MT);
}

/* The searcher, or a "closed" error. */
static ball_mcts *M_live(lua_State *L, int idx)
{
    lmcts *lm = check_mcts(L, idx);
    if (!lm->m)
        raise(L, CLOSED, "the searcher is closed");
    return lm->m;
}

static int is_game(lua_State *L, int idx)
{
    int yes = 0;
    if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
        luaL_getmetatable(L, GAME_MT);
        yes = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    return yes;
}

/* mcts:choose(game) -> action, stats */
static int m_choose(lua_State *L)
{
    check_mcts(L, 1);
    if (!is_game(L, 2)) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf, "mcts:choose takes a game, not a %s", luaL_typename(L, 2));
        raise(L, BALL_E_ARG, buf);
    }
    ball_mcts *m = M_live(L, 1);
    ball_game *g = P(L, 2);
    ball_mcts_stats st;
    ball_action a;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    int rc = ball_mcts_choose(m, g, &a, &st);
    if (rc < 0) {
        char buf[ERR_MAX];
        int res = ball_result(g);
        if (rc == BALL_E_RANGE && res > BALL_ONGOING && res <= BALL_DRAW) {
            static const char *const over[] = {NULL, "ATK won", "DEF won", "a draw"};
            snprintf(buf, sizeof buf, "the game is over (%s): there is no decision to choose",
                     over[res]);
        } else {
            snprintf(buf, sizeof buf, "ball_mcts_choose: %s", ball_strerror(rc));
        }
        raise(L, rc, buf);
    }
    push_action(L, a);
    lua_createtable(L, 0, 6);
    PUSHINT(L, st.playouts);
    lua_setfield(L, -2, "playouts");
    PUSHINT(L, st.nodes);
    lua_setfield(L, -2, "nodes");
    PUSHINT(L, st.max_depth);
    lua_setfield(L, -2, "max_depth");
    PUSHINT(L, st.visits);
    lua_setfield(L, -2, "visits");
    lua_pushnumber(L, (lua_Number)st.value);
    lua_setfield(L, -2, "value");
    lua_pushnumber(L, (lua_Number)st.elapsed_ms);
    lua_setfield(L, -2, "elapsed_ms");
    return 2;
}

static int m_seed(lua_State *L)
{
    check_mcts(L, 1);
    uint64_t seed = seed_arg(L, 2);
    ok(L, ball_mcts_seed(M_live(L, 1), seed));
    return 0;
}

static int m_config(lua_State *L)
{
    const ball_mcts_config *c = &check_mcts(L, 1)->cfg;
    lua_createtable(L, 0, 6);
    PUSHINT(L, c->playouts);
    lua_setfield(L, -2, "playouts");
    PUSHINT(L, c->time_ms);
    lua_setfield(L, -2, "time_ms");
    push_seed(L, c->seed);
    lua_setfield(L, -2, "seed");
    PUSHINT(L, c->playout_turns);
    lua_setfield(L, -2, "playout_turns");
    lua_pushnumber(L, (lua_Number)c->exploration);
    lua_setfield(L, -2, "exploration");
    PUSHINT(L, c->max_nodes);
    lua_setfield(L, -2, "max_nodes");
    return 1;
}

static int m_close(lua_State *L)
{
    lmcts *lm = check_mcts(L, 1);
    if (lm->m) {
        ball_mcts_free(lm->m);
        lm->m = NULL;
    }
    return 0;
}

static int m_is_closed(lua_State *L)
{
    lua_pushboolean(L, check_mcts(L, 1)->m == NULL);
    return 1;
}

static int m_tostring(lua_State *L)
{
    lmcts *lm = check_mcts(L, 1);
    const ball_mcts_config *c = &lm->cfg;
    char buf[ERR_MAX];
    snprintf(buf, sizeof buf,
             "%sball.mcts{ playouts = %d, time_ms = %d, seed = %llu, playout_turns = %d, "
             "exploration = %.14g, max_nodes = %d }",
             lm->m ? "" : "closed ", c->playouts, c->time_ms, (unsigned long long)c->seed,
             c->playout_turns, c->exploration, c->max_nodes);
    lua_pushstring(L, buf);
    return 1;
}

static const luaL_Reg mcts_methods[] = {
    {"choose", m_choose},
    {"seed", m_seed},
    {"config", m_config},
    {"close", m_close},
    {"is_closed", m_is_closed},
    {NULL, NULL},
};

/* ------------------------------------------------------------------ */
/* ------------------------------------------------------------------ */
/* a learned evaluation: ball.net(data) / ball.net_file(path), a full
 * userdata with __gc (docs/training.md); a turn search takes it as
 * eval = net. Its uservalue is a table whose weak keys are the searchers
 * that use it, so that net:close() can refuse while one is open (a closed
 * net under a searcher would be freed memory), while the collector frees
 * a net only when no searcher refers to it (each keeps it in its own
 * uservalue). */

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

static int search_is_open(lua_State *L, int idx);

static lnet *check_net(lua_State *L, int idx)
{
    return (lnet *)luaL_checkudata(L, idx, NET_MT);
}

static int push_net(lua_State *L, const char *data, size_t len)
{
    char err[ERR_MAX] = "";
    lnet *ln = (lnet *)lua_newuserdata(L, sizeof(lnet));
    ln->n = NULL;
    luaL_getmetatable(L, NET_MT);
    lua_setmetatable(L, -2);
    lua_createtable(L, 0, 0); /* the searchers using it, weak keys */
    lua_createtable(L, 0, 1);
    lua_pushstring(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    set_uservalue(L, -2);
    int rc = ball_net_load(&ln->n, data, len, err, sizeof err);
    if (rc < 0)
        return raise(L, rc, err);
    return 1;
}

/* ball.net(data): the network of a network file's bytes (a string) */
static int l_net(lua_State *L)
{
    size_t len;
    if (lua_type(L, 1) != LUA_TSTRING)
        return raise(L, BALL_E_ARG, "ball.net takes the bytes of a network file (a string)");
    const char *data = lua_tolstring(L, 1, &len);
    return push_net(L, data, len);
}

/* ball.net_file(path): the network of the file at path. The bytes go into
 * a userdata sized by stat() before the file is opened, so that no Lua
 * call (which may raise, out of memory) runs while it is open. */
static int l_net_file(lua_State *L)
{
    char buf[ERR_MAX];
    struct stat st;
    if (lua_type(L, 1) != LUA_TSTRING)
        return raise(L, BALL_E_ARG, "ball.net_file takes a path (a string)");
    const char *path = lua_tostring(L, 1);
    int found = stat(path, &st) == 0;
    if (!found || !S_ISREG(st.st_mode)) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot open %s: %s", path,
                 found ? "not a regular file" : strerror(errno));
        return raise(L, BALL_E_ARG, buf);
    }
    size_t len = (size_t)st.st_size;
    char *data = (char *)lua_newuserdata(L, len ? len : 1);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot open %s: %s", path, strerror(errno));
        return raise(L, BALL_E_ARG, buf);
    }
    size_t got = fread(data, 1, len, f);
    int more = fgetc(f) != EOF, bad = ferror(f);
    fclose(f);
    if (got != len || more || bad) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot read %s (it changed while read?)", path);
        return raise(L, BALL_E_ARG, buf);
    }
    return push_net(L, data, len);
}

static ball_net *open_net(lua_State *L, int idx)
{
    lnet *ln = check_net(L, idx);
    if (ln->n == NULL)
        raise(L, CLOSED, "the network is closed");
    return ln->n;
}

/* net:evaluate(game): the value for the coach to act, in [-1, 1] */
static int n_evaluate(lua_State *L)
{
    ball_net *n = open_net(L, 1);
    double v = 0.0;
    if (!is_game(L, 2)) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf, "net:evaluate takes a game, not a %s", luaL_typename(L, 2));
        return raise(L, BALL_E_ARG, buf);
    }
    int rc = ball_net_evaluate(n, P(L, 2), &v);
    if (rc < 0)
        return raise(L, rc, "net:evaluate: the library refused the game");
    lua_pushnumber(L, (lua_Number)v);
    return 1;
}

/* Whether a searcher that uses the net at idx is still open. */
static int net_in_use(lua_State *L, int idx)
{
    int used = 0;
    get_uservalue(L, idx);
    if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            if (search_is_open(L, -1)) {
                used = 1;
                lua_pop(L, 1);
                break;
            }
        }
    }
    lua_pop(L, 1);
    return used;
}

/* __gc: no searcher refers to the net any more (each keeps it in its
 * uservalue), or both are garbage and neither runs again */
static int n_gc(lua_State *L)
{
    lnet *ln = check_net(L, 1);
    ball_net_free(ln->n);
    ln->n = NULL;
    return 0;
}

/* net:close() (and __close): frees the network; refused while an open
 * turn searcher uses it (close the searcher first). */
static int n_close(lua_State *L)
{
    if (check_net(L, 1)->n && net_in_use(L, 1))
        return raise(L, BALL_E_ARG, "net:close: a turn searcher that is not closed uses this "
                                    "network (close the searcher first)");
    return n_gc(L);
}

static int n_is_closed(lua_State *L)
{
    lua_pushboolean(L, check_net(L, 1)->n == NULL);
    return 1;
}

static int n_tostring(lua_State *L)
{
    lnet *ln = check_net(L, 1);
    lua_pushfstring(L, ln->n ? "ball.net: %p" : "ball.net: closed (%p)", (void *)ln);
    return 1;
}

static const luaL_Reg net_methods[] = {
    {"evaluate", n_evaluate},
    {"close", n_close},
    {"is_closed", n_is_closed},
    {NULL, NULL},
};

/* the turn search: ball.turn_search{...}, a full userdata with __gc; its
 * uservalue (5.1: environment) is a table {info function} */

typedef struct lsearch {
    ball_search *s;
    ball_search_config cfg; /* the settings it was created with */
    int has_info;
    int running;            /* a run in progress (its info callback is running Lua) */
    lua_State *L;           /* during a run: the state that called it */
    int fn_idx;             /* during a run: the stack index of the info function (then
                             * of info_protected) */
    lgame *game;            /* during a run: the game searched */
    int failed;             /* during a run: the info function raised; its error on the stack */
    ball_search_line *lines; /* BALL_MAX_ACTIONS, allocated at the first analyse */
    ball_action turn[BALL_SEARCH_PV_MAX];
} lsearch;

static const char *const SEARCH_OPTIONS[] = {"nodes",   "time_ms", "depth", "threads",
                                             "seed",    "multipv", "hash_mb", "info",
                                             "info_every_ms", "eval"};
#define N_SEARCH_OPTIONS ((int)(sizeof SEARCH_OPTIONS / sizeof SEARCH_OPTIONS[0]))
#define NODES_MAX 9007199254740991LL /* 2^53 - 1; the library's own limit is 10^12 */


static void push_action_text(lua_State *L, const ball_action *acts, int n)
{
    luaL_Buffer b;
    char text[BALL_ACTION_TEXT_MAX];
    luaL_buffinit(L, &b);
    for (int i = 0; i < n; i++) {
        if (ball_action_to_text(acts[i], text, sizeof text) < 0)
            snprintf(text, sizeof text, "?");
        if (i > 0)
            luaL_addchar(&b, ' ');
        luaL_addstring(&b, text);
    }
    luaL_pushresult(&b);
}

struct info_call {
    lsearch *ls;
    const ball_search_info *info;
    int stop;
};

/* In protected mode: the info table, the call of the info function. */
static int info_protected(lua_State *L)
{
    struct info_call *c = (struct info_call *)lua_touserdata(L, 2);
    const ball_search_info *info = c->info;
    int n = info->pv_len < 0 ? 0 : info->pv_len > BALL_SEARCH_PV_MAX ? BALL_SEARCH_PV_MAX
                                                                       : info->pv_len;
    lua_settop(L, 1); /* the info function */
    lua_createtable(L, 0, 7);
    PUSHINT(L, info->nodes);
    lua_setfield(L, -2, "nodes");
    PUSHINT(L, info->depth);
    lua_setfield(L, -2, "depth");
    lua_pushnumber(L, (lua_Number)info->value);
    lua_setfield(L, -2, "value");
    PUSHINT(L, info->proven);
    lua_setfield(L, -2, "proven");
    lua_pushnumber(L, (lua_Number)info->elapsed_ms);
    lua_setfield(L, -2, "elapsed_ms");
    push_action_list(L, info->pv, n);
    lua_setfield(L, -2, "pv");
    push_action_text(L, info->pv, n);
    lua_setfield(L, -2, "pv_text");
    lua_call(L, 1, 1);
    c->stop = lua_toboolean(L, -1);
    return 0;
}

/* The library's info callback: the Lua function in protected mode (no Lua
 * error may unwind through the library's frames), the game reading as
 * closed meanwhile; an error (left on the stack for the run to raise) or a
 * true return stops the run. */
static int info_callback(void *ud, const ball_search_info *info)
{
    lsearch *ls = (lsearch *)ud;
    lua_State *L = ls->L;
    struct info_call c;
    ball_game *g;
    int top, rc;
    if (L == NULL || ls->failed)
        return 1;
    c.ls = ls;
    c.info = info;
    c.stop = 0;
    top = lua_gettop(L);
    g = ls->game->g;
    ls->game->g = NULL;
    /* no allocation outside the protected call: info_protected's closure
     * was pushed by the run, and the stack has room (luaL_checkstack) */
    lua_pushvalue(L, ls->fn_idx + 1);
    lua_pushvalue(L, ls->fn_idx);
    lua_pushlightuserdata(L, &c);
    rc = lua_pcall(L, 2, 0, 0);
    ls->game->g = g;
    if (rc != 0) {
        /* the error value stays on the stack (above top) */
        lua_settop(L, top + 1);
        ls->failed = 1;
        return 1;
    }
    lua_settop(L, top);
    return c.stop;
}

/* ball.turn_search(opts) */
static int l_turn_search(lua_State *L)
{
    ball_search_config cfg;
    char err[ERR_MAX] = "";
    int has_opts = !lua_isnoneornil(L, 1), has_info = 0, net_idx = 0;
    if (has_opts && !lua_istable(L, 1))
        raise(L, BALL_E_ARG, "ball.turn_search takes a table of options");
    ball_search_config_init(&cfg, sizeof cfg);
    if (has_opts) {
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            int known = 0;
            if (lua_type(L, -2) == LUA_TSTRING)
                for (int i = 0; i < N_SEARCH_OPTIONS; i++)
                    known |= !strcmp(lua_tostring(L, -2), SEARCH_OPTIONS[i]);
            if (!known) {
                char buf[ERR_MAX];
                snprintf(buf, sizeof buf,
                         "ball.turn_search: unknown option %s (nodes, time_ms, depth, threads, "
                         "seed, multipv, hash_mb, info, info_every_ms, eval)",
                         lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                        : luaL_typename(L, -2));
                raise(L, BALL_E_ARG, buf);
            }
            lua_pop(L, 1);
        }
        lua_getfield(L, 1, "nodes");
        if (!lua_isnil(L, -1))
            cfg.nodes = (uint64_t)int_arg(L, -1, "nodes", 0, NODES_MAX);
        lua_getfield(L, 1, "time_ms");
        if (!lua_isnil(L, -1))
            cfg.time_ms = INT_ARG(L, -1, "time_ms");
        lua_getfield(L, 1, "depth");
        if (!lua_isnil(L, -1))
            cfg.depth = INT_ARG(L, -1, "depth");
        lua_getfield(L, 1, "threads");
        if (!lua_isnil(L, -1))
            cfg.threads = INT_ARG(L, -1, "threads");
        lua_getfield(L, 1, "seed");
        if (!lua_isnil(L, -1))
            cfg.seed = seed_arg(L, -1);
        lua_getfield(L, 1, "multipv");
        if (!lua_isnil(L, -1))
            cfg.multipv = INT_ARG(L, -1, "multipv");
        lua_getfield(L, 1, "hash_mb");
        if (!lua_isnil(L, -1))
            cfg.hash_mb = INT_ARG(L, -1, "hash_mb");
        lua_getfield(L, 1, "info_every_ms");
        if (!lua_isnil(L, -1))
            cfg.info_every_ms = INT_ARG(L, -1, "info_every_ms");
        lua_getfield(L, 1, "eval");
        if (!lua_isnil(L, -1)) {
            if (!luaL_testudata_compat(L, -1, NET_MT)) {
                push_tostring(L, lua_gettop(L));
                raisef(L, BALL_E_ARG, "eval is a network (ball.net), not %s", lua_tostring(L, -1));
            }
            open_net(L, -1);
            net_idx = lua_gettop(L);
        }
        lua_getfield(L, 1, "info");
        if (!lua_isnil(L, -1)) {
            int callable = lua_isfunction(L, -1);
            if (!callable && luaL_getmetafield(L, -1, "__call")) {
                callable = 1;
                lua_pop(L, 1);
            }
            if (!callable) {
                char buf[ERR_MAX];
                snprintf(buf, sizeof buf, "info is a function, not a %s", luaL_typename(L, -1));
                raise(L, BALL_E_ARG, buf);
            }
            has_info = 1;
        }
        /* the info function (or nil) stays on the stack top */
    } else {
        lua_pushnil(L);
    }
    int fn = lua_gettop(L);
    lsearch *ls = (lsearch *)lua_newuserdata(L, sizeof(lsearch));
    memset(ls, 0, sizeof *ls);
    ls->s = NULL;
    ls->lines = NULL;
    ls->has_info = has_info;
    if (has_info) {
        cfg.info = info_callback;
        cfg.info_ud = ls;
    }
    ls->cfg = cfg;
    luaL_getmetatable(L, SEARCH_MT);
    lua_setmetatable(L, -2);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, fn);
    lua_rawseti(L, -2, 1);
    if (net_idx) {
        /* the searcher keeps its net alive, and the net knows its users */
        lua_pushvalue(L, net_idx);
        lua_rawseti(L, -2, 2);
    }
    set_uservalue(L, -2);
    int rc = ball_search_new(&ls->s, &cfg, err, sizeof err);
    if (rc < 0)
        raise(L, rc, err);
    if (net_idx) {
        get_uservalue(L, net_idx);
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
        lua_pop(L, 1);
        rc = ball_search_set_eval(ls->s, ball_net_search_eval, check_net(L, net_idx)->n);
        if (rc < 0)
            raise(L, rc, "ball.turn_search: the library refused the network as the evaluation");
    }
    return 1;
}

static int search_is_open(lua_State *L, int idx)
{
    lsearch *ls = (lsearch *)lua_touserdata(L, idx);
    return ls != NULL && luaL_testudata_compat(L, idx, SEARCH_MT) && ls->s != NULL;
}

static lsearch *check_search(lua_State *L, int idx)
{
    return (lsearch *)luaL_checkudata(L, idx, SEARCH_MT);
}

/* The searcher, or a "closed" error, or an "arg" error during its run. */
static ball_search *S_live(lua_State *L, int idx, const char *what)
{
    lsearch *ls = check_search(L, idx);
    if (!ls->s)
        raise(L, CLOSED, "the searcher is closed");
    if (ls->running) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf,
                 "search:%s: the searcher is running a search (called from its info callback?)",
                 what);
        raise(L, BALL_E_ARG, buf);
    }
    return ls->s;
}

/* One run on the game at index 2; raises as search:choose documents. */
static ball_search_result search_run(lua_State *L, const char *what)
{
    lsearch *ls = check_search(L, 1);
    ball_search_result r;
    if (!is_game(L, 2)) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf, "search:%s takes a game, not a %s", what, luaL_typename(L, 2));
        raise(L, BALL_E_ARG, buf);
    }
    ball_search *s = S_live(L, 1, what);
    ball_game *g = P(L, 2);
    lua_settop(L, 2);
    luaL_checkstack(L, 8, "the turn search's info callback");
    get_uservalue(L, 1);
    lua_rawgeti(L, -1, 1); /* index 4: the info function */
    lua_pushcfunction(L, info_protected); /* index 5 */
    ls->L = L;
    ls->fn_idx = 4;
    ls->game = (lgame *)lua_touserdata(L, 2);
    ls->failed = 0;
    ls->running = 1;
    ball_search_result_init(&r, sizeof r);
    int rc = ball_search_run(s, g, &r);
    ls->running = 0;
    ls->L = NULL;
    ls->game = NULL;
    if (ls->failed) {
        ls->failed = 0;
        lua_error(L); /* the info function's error, on the stack top */
    }
    lua_settop(L, 2);
    if (rc < 0) {
        char buf[ERR_MAX];
        int res = ball_result(g);
        if (rc == BALL_E_RANGE && res > BALL_ONGOING && res <= BALL_DRAW) {
            static const char *const over[] = {NULL, "ATK won", "DEF won", "a draw"};
            snprintf(buf, sizeof buf, "the game is over (%s): there is no decision to search",
                     over[res]);
            raise(L, rc, buf);
        }
        raise(L, rc, ball_errmsg(g));
    }
    return r;
}

/* search:choose(game) -> action */
static int s_choose(lua_State *L)
{
    ball_search_result r = search_run(L, "choose");
    push_action(L, r.best);
    return 1;
}

/* search:analyse(game) -> table */
static int s_analyse(lua_State *L)
{
    lsearch *ls = check_search(L, 1);
    ball_search_result r = search_run(L, "analyse");
    if (ls->lines == NULL) {
        ls->lines = (ball_search_line *)malloc(BALL_MAX_ACTIONS * sizeof *ls->lines);
        if (ls->lines == NULL)
            raise(L, BALL_E_NOMEM, "out of memory for the search lines");
        for (int i = 0; i < BALL_MAX_ACTIONS; i++)
            ball_search_line_init(&ls->lines[i], sizeof ls->lines[i]);
    }
    int n = ok(L, ball_search_lines(ls->s, ls->lines, BALL_MAX_ACTIONS));
    if (n > BALL_MAX_ACTIONS)
        n = BALL_MAX_ACTIONS;
    int m = ok(L, ball_search_best_turn(ls->s, ls->turn, BALL_SEARCH_PV_MAX));
    lua_createtable(L, 0, 12);
    push_action(L, r.best);
    lua_setfield(L, -2, "best");
    lua_pushnumber(L, (lua_Number)r.value);
    lua_setfield(L, -2, "value");
    PUSHINT(L, r.proven);
    lua_setfield(L, -2, "proven");
    PUSHINT(L, r.decisions_to_end);
    lua_setfield(L, -2, "decisions_to_end");
    PUSHINT(L, r.depth);
    lua_setfield(L, -2, "depth");
    PUSHINT(L, r.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushnumber(L, (lua_Number)r.elapsed_ms);
    lua_setfield(L, -2, "elapsed_ms");
    lua_pushboolean(L, r.stopped != 0);
    lua_setfield(L, -2, "stopped");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const ball_search_line *ln = &ls->lines[i];
        int k = ln->pv_len < 0 ? 0 : ln->pv_len > BALL_SEARCH_PV_MAX ? BALL_SEARCH_PV_MAX
                                                                     : ln->pv_len;
        lua_createtable(L, 0, 8);
        push_action(L, ln->action);
        lua_setfield(L, -2, "action");
        lua_pushnumber(L, (lua_Number)ln->value);
        lua_setfield(L, -2, "value");
        lua_pushboolean(L, ln->bound != 0);
        lua_setfield(L, -2, "bound");
        PUSHINT(L, ln->proven);
        lua_setfield(L, -2, "proven");
        PUSHINT(L, ln->depth);
        lua_setfield(L, -2, "depth");
        PUSHINT(L, ln->nodes);
        lua_setfield(L, -2, "nodes");
        push_action_list(L, ln->pv, k);
        lua_setfield(L, -2, "pv");
        push_action_text(L, ln->pv, k);
        lua_setfield(L, -2, "pv_text");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "lines");
    push_action_list(L, ls->turn, m);
    lua_setfield(L, -2, "best_turn");
    push_action_text(L, ls->turn, m);
    lua_setfield(L, -2, "best_turn_text");
    return 1;
}

static int s_clear(lua_State *L)
{
    ok(L, ball_search_clear(S_live(L, 1, "clear")));
    return 0;
}

static int s_stop(lua_State *L)
{
    lsearch *ls = check_search(L, 1);
    if (ls->s)
        ball_search_stop(ls->s);
    return 0;
}

static int s_config(lua_State *L)
{
    const ball_search_config *c = &check_search(L, 1)->cfg;
    lua_createtable(L, 0, 8);
    PUSHINT(L, c->nodes);
    lua_setfield(L, -2, "nodes");
    PUSHINT(L, c->time_ms);
    lua_setfield(L, -2, "time_ms");
    PUSHINT(L, c->depth);
    lua_setfield(L, -2, "depth");
    PUSHINT(L, c->threads);
    lua_setfield(L, -2, "threads");
    push_seed(L, c->seed);
    lua_setfield(L, -2, "seed");
    PUSHINT(L, c->multipv);
    lua_setfield(L, -2, "multipv");
    PUSHINT(L, c->hash_mb);
    lua_setfield(L, -2, "hash_mb");
    PUSHINT(L, c->info_every_ms);
    lua_setfield(L, -2, "info_every_ms");
    return 1;
}

static int s_close(lua_State *L)
{
    lsearch *ls = check_search(L, 1);
    if (ls->s) {
        if (ls->running)
            raise(L, BALL_E_ARG,
                  "search:close: the searcher is running a search (called from its info "
                  "callback?)");
        ball_search_free(ls->s);
        ls->s = NULL;
    }
    free(ls->lines);
    ls->lines = NULL;
    return 0;
}

static int s_is_closed(lua_State *L)
{
    lua_pushboolean(L, check_search(L, 1)->s == NULL);
    return 1;
}

static int s_tostring(lua_State *L)
{
    lsearch *ls = check_search(L, 1);
    const ball_search_config *c = &ls->cfg;
    char buf[ERR_MAX];
    snprintf(buf, sizeof buf,
             "%sball.turn_search{ nodes = %llu, time_ms = %d, depth = %d, threads = %d, "
             "seed = %llu, multipv = %d, hash_mb = %d, info_every_ms = %d }",
             ls->s ? "" : "closed ", (unsigned long long)c->nodes, c->time_ms, c->depth,
             c->threads, (unsigned long long)c->seed, c->multipv, c->hash_mb, c->info_every_ms);
    lua_pushstring(L, buf);
    return 1;
}

static const luaL_Reg search_methods[] = {
    {"choose", s_choose},
    {"analyse", s_analyse},
    {"clear", s_clear},
    {"stop", s_stop},
    {"config", s_config},
    {"close", s_close},
    {"is_closed", s_is_closed},
    {NULL, NULL},
};

static const luaL_Reg game_methods[] = {
    {"close", g_close},
    {"is_closed", g_is_closed},
    {"clone", g_clone},
    {"rules", g_rules},
    {"rules_text", g_rules_text},
    {"bpn", g_bpn},
    {"set_bpn", g_set_bpn},
    {"side", g_side},
    {"phase", g_phase},
    {"pa", g_pa},
    {"handoff_last", g_handoff_last},
    {"turn", g_turn},
    {"result", g_result},
    {"is_over", g_is_over},
    {"winner", g_winner},
    {"history_length", g_history_length},
    {"pe", g_pe},
    {"hand", g_hand},
    {"cards", g_cards},
    {"hand_cards", g_hand_cards},
    {"card_mode", g_card_mode},
    {"earnings", g_earnings},
    {"piece_at", g_piece_at},
    {"square", g_square},
    {"ball_square", g_ball_square},
    {"restricted_square", g_restricted_square},
    {"diagram", g_diagram},
    {"legal_actions", g_legal_actions},
    {"count_legal_actions", g_count_legal_actions},
    {"legal_action", g_legal_action},
    {"random_action", g_random_action},
    {"apply_index", g_apply_index},
    {"random_apply", g_random_apply},
    {"random_playout", g_random_playout},
    {"parse_action", g_parse_action},
    {"hash", g_hash},
    {"is_legal", g_is_legal},
    {"apply", g_apply},
    {"undo", g_undo},
    {"push", g_apply},
    {"pop", g_pop},
    {"peek", g_peek},
    {"history", g_history},
    {"move_stack", g_history},
    {"history_action", g_history_action},
    {"history_position", g_history_position},
    {"tags", g_tags},
    {"set_tag", g_set_tag},
    {"record", g_record},
    {"svg", g_svg},
    {"conversions", g_conversions},
    {"card_plays", g_card_plays},
    {"convert", g_convert},
    {"play_card", g_play_card},
    {"perft", g_perft},
    {"release_tasks", g_release_tasks},
    {"task_solutions", g_task_solutions},
    {"select", g_select},
    {NULL, NULL},
};

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

static const luaL_Reg module_functions[] = {
    {"new", l_new},
    {"from_bpn", l_from_bpn},
    {"read_records", l_read_records},
    {"from_record", l_from_record},
    {"mcts", l_mcts},
    {"turn_search", l_turn_search},
    {"net", l_net},
    {"net_file", l_net_file},
    {"action", l_action},
    {"is_action", l_is_action},
    {"is_error", l_is_error},
    {"square_index", l_square_index},
    {"square_name", l_square_name},
    {"square_col", l_square_col},
    {"square_row", l_square_row},
    {"distance", l_distance},
    {"square_at", l_square_at},
    {"_game_pointer", l_game_pointer},
    {"_game_slot", l_game_slot},
    {NULL, NULL},
};

int luaopen_ball(lua_State *L);

int luaopen_ball(lua_State *L)
{
    unsigned version = ball_version_number();
    if (version / 10000 != BALL_VERSION_MAJOR)
        return luaL_error(L, "ball: the loaded libball is %s; this module needs major version %d",
                          ball_version_string(), BALL_VERSION_MAJOR);
    for (int i = 0; i < BALL_NUM_SQUARES; i++)
        ball_square_to_text(i, SQUARE_NAMES[i], BALL_SQUARE_TEXT_MAX);
    if (!rng_state)
        rng_state = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&rng_state;

    luajit_init(L);
    lua_newtable(L); /* the module */
    set_funcs(L, module_functions);

    /* constants */
#define BALL_CONST(name)                                                                          \
    PUSHINT(L, (long long)(BALL_##name));                                                        \
    lua_setfield(L, -2, #name);
#include "ball_constants.h"
#undef BALL_CONST
    lua_pushstring(L, "1.0.0");
    lua_setfield(L, -2, "_VERSION");
    PUSHINT(L, BALL_VERSION_MAJOR);
    lua_setfield(L, -2, "ABI_MAJOR");
    lua_pushstring(L, BALL_START_BPN);
    lua_setfield(L, -2, "START_BPN");
    PUSHINT(L, version);
    lua_setfield(L, -2, "version_number");
    lua_pushstring(L, ball_version_string());
    lua_setfield(L, -2, "version");
    lua_pushstring(L, "c");
    lua_setfield(L, -2, "backend");
    Dl_info info;
    if (dladdr((void *)(uintptr_t)&ball_version_number, &info) && info.dli_fname)
        lua_pushstring(L, info.dli_fname);
    else
        lua_pushstring(L, "libball.so.1");
    lua_setfield(L, -2, "library_path");

    /* squares: 1-based names */
    lua_createtable(L, BALL_NUM_SQUARES, 0);
    for (int i = 0; i < BALL_NUM_SQUARES; i++) {
        lua_pushstring(L, SQUARE_NAMES[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "squares");
    lua_createtable(L, N_EARN_WORDS, 0);
    for (int i = 0; i < N_EARN_WORDS; i++) {
        lua_pushstring(L, EARN_WORDS[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "earn_words");
    lua_createtable(L, BALL_TAG_COUNT, 0);
    for (int i = 0; i < BALL_TAG_COUNT; i++) {
        lua_pushstring(L, TAGS[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "TAGS");

    /* error names */
    lua_newtable(L);
    static const int codes[] = {BALL_E_ARG,   BALL_E_NOMEM,    BALL_E_BPN,        BALL_E_NOTATION,
                                BALL_E_ILLEGAL, BALL_E_BUFFER, BALL_E_RANGE,      BALL_E_NO_HISTORY,
                                BALL_E_RULES, BALL_E_LIMIT,
                                BALL_E_RECORD,
                                CLOSED};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        lua_pushstring(L, error_name(codes[i]));
        lua_rawseti(L, -2, codes[i]);
    }
    lua_setfield(L, -2, "error_names");

    /* Error metatable */
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, error_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushlightuserdata(L, &K_ERROR_MT);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_setfield(L, -2, "Error");

    /* Action metatable and the weak cache */
    lua_newtable(L);
    lua_pushcfunction(L, action_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, action_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, action_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, action_concat);
    lua_setfield(L, -2, "__concat");
    lua_pushlightuserdata(L, &K_ACTION_MT);
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_pushlightuserdata(L, &K_ACTION_CACHE);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    (void)K_SQUARES;

    /* Game metatable: methods in __index, also as ball.Game */
    luaL_newmetatable(L, GAME_MT);
    lua_newtable(L);
    set_funcs(L, game_methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, "Game");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, g_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, g_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, g_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, g_eq);
    lua_setfield(L, -2, "__eq");
    lua_pop(L, 1);

    /* MCTS metatable: methods in __index, also as ball.MCTS */
    luaL_newmetatable(L, MCTS_MT);
    lua_newtable(L);
    set_funcs(L, mcts_methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, "MCTS");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, m_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, m_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, m_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    /* TurnSearch metatable: methods in __index, also as ball.TurnSearch */
    luaL_newmetatable(L, SEARCH_MT);
    lua_newtable(L);
    set_funcs(L, search_methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, "TurnSearch");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, s_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, s_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, s_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    /* Net metatable: methods in __index, also as ball.Net */
    luaL_newmetatable(L, NET_MT);
    lua_newtable(L);
    set_funcs(L, net_methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, "Net");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, n_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, n_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, n_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    return 1;
}
