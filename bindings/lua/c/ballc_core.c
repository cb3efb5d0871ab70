/* SPDX-License-Identifier: MIT */
/* The Lua binding's C module, its core (ballc_core.h): errors, argument checks,
 * squares, actions, LuaJIT's 64-bit cdata, the constants, and the
 * module's own functions and tables (ballc_core_open()). */
#include "ballc_core.h"

const char *const TEAM[] = {"ATK", "DEF"};
const char *const PHASE[] = {"action", "release"};
const char *const RESULT[] = {"ongoing", "atk_won", "def_won", "draw"};
const char *const KIND[] = {NULL, "move", "dodge", "tactical_dodge", "block", "protect",
                            "handoff", "short_pass", "long_pass", "end", "stand_up",
                            "unblock", "unprotect", "convert_pa", "play_card"};
const char *const KEEPER[] = {"none", "upper", "lower"};
const char *const TASK[] = {NULL, "stand_up", "release"};
const char *const EFFECT[] = {NULL, "gain_pa", "unrestrict"};
const char *const VERB[] = {NULL, "-", "=", "^", "^^", "card"};
/* N_EARN_WORDS of them (ballc_core.h): one more is refused by the compiler */
const char *const EARN_WORDS[N_EARN_WORDS] = {"move",    "pickup",  "dodge",   "fumble",   "tactical",
                                              "block",   "protect", "handoff", "short",    "long",
                                              "standup", "unblock", "unprotect"};

char K_ERROR_MT, K_ACTION_MT, K_ACTION_CACHE, K_SQUARES;
char K_LJ_U64_DIGITS, K_LJ_U64_NEW;

char SQUARE_NAMES[BALL_NUM_SQUARES][BALL_SQUARE_TEXT_MAX];
uint64_t rng_state;

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

void push_registry(lua_State *L, char *key)
{
    lua_pushlightuserdata(L, key);
    lua_rawget(L, LUA_REGISTRYINDEX);
}

void set_string(lua_State *L, const char *key, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, key);
}

void set_bool(lua_State *L, const char *key, int v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, key);
}

void set_int(lua_State *L, const char *key, lua_Integer v)
{
    PUSHINT(L, v);
    lua_setfield(L, -2, key);
}

void push_error(lua_State *L, int code, const char *name, const char *message)
{
    lua_createtable(L, 0, 3);
    set_int(L, "code", code);
    set_string(L, "name", name);
    set_string(L, "message", message);
    push_registry(L, &K_ERROR_MT);
    lua_setmetatable(L, -2);
}

int raise_error(lua_State *L, int code, const char *message)
{
    if (!message || !*message)
        message = ball_strerror(code);
    push_error(L, code, error_name(code), message);
    return lua_error(L);
}

int raisef(lua_State *L, int code, const char *fmt, const char *a)
{
    char buf[ERR_MAX];
    snprintf(buf, sizeof buf, fmt, a);
    return raise_error(L, code, buf);
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
        push_registry(L, &K_ERROR_MT);
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
int ok(lua_State *L, int rc)
{
    if (rc < 0)
        raise_error(L, rc, NULL);
    return rc;
}

/* ------------------------------------------------------------------ */
/* arguments */

long long int_arg(lua_State *L, int idx, const char *what, long long lo, long long hi)
{
    char buf[ERR_MAX];
    if (lua_type(L, idx) != LUA_TNUMBER) {
        snprintf(buf, sizeof buf, "%s is an integer, not a %s", what, luaL_typename(L, idx));
        raise_error(L, BALL_E_ARG, buf);
    }
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        lua_Integer v = lua_tointeger(L, idx);
        if (v < lo || v > hi) {
            snprintf(buf, sizeof buf, "%s %lld out of range (%lld to %lld)", what, (long long)v,
                     lo, hi);
            raise_error(L, BALL_E_RANGE, buf);
        }
        return (long long)v;
    }
#endif
    lua_Number d = lua_tonumber(L, idx);
    if (d != d || (d != floor(d) && !isinf(d))) {
        snprintf(buf, sizeof buf, "%s is an integer, not %.14g", what, (double)d);
        raise_error(L, BALL_E_ARG, buf);
    }
    if (d < (lua_Number)lo || d > (lua_Number)hi) {
        snprintf(buf, sizeof buf, "%s %.14g out of range (%lld to %lld)", what, (double)d, lo, hi);
        raise_error(L, BALL_E_RANGE, buf);
    }
    return (long long)d;
}

/* A string argument without NUL (an error named by code otherwise). */
const char *text_arg(lua_State *L, int idx, const char *what, int code)
{
    size_t len;
    char buf[ERR_MAX];
    if (lua_type(L, idx) != LUA_TSTRING) {
        snprintf(buf, sizeof buf, "%s is a string", what);
        raise_error(L, BALL_E_ARG, buf);
    }
    const char *s = lua_tolstring(L, idx, &len);
    const char *nul = memchr(s, 0, len);
    if (nul) {
        snprintf(buf, sizeof buf, "%s contains a NUL character at byte %d", what,
                 (int)(nul - s) + 1);
        raise_error(L, code, buf);
    }
    return s;
}

int team_arg(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *t = lua_tostring(L, idx);
        if (!strcmp(t, "ATK") || !strcmp(t, "atk")) return BALL_ATK;
        if (!strcmp(t, "DEF") || !strcmp(t, "def")) return BALL_DEF;
        return raisef(L, BALL_E_ARG, "a team is ATK or DEF, not %s", t);
    }
    int t = INT_ARG(L, idx, "team");
    if (t != 0 && t != 1)
        raise_error(L, BALL_E_ARG, "a team is 0 (ATK) or 1 (DEF)");
    return t;
}

int square_arg(lua_State *L, int idx)
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
            raise_error(L, BALL_E_RANGE, buf);
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
        raise_error(L, sq, NULL);
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
        raise_error(L, sq, buf);
    }
    lua_pushstring(L, SQUARE_NAMES[sq]);
    return 1;
}

/* ------------------------------------------------------------------ */
/* actions: interned tables {code, text} with computed fields */

void push_action(lua_State *L, ball_action code)
{
    push_registry(L, &K_ACTION_CACHE);
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
        raise_error(L, BALL_E_ARG, buf);
    }
    lua_createtable(L, 0, 2);
    set_int(L, "code", code);
    set_string(L, "text", text);
    push_registry(L, &K_ACTION_MT);
    lua_setmetatable(L, -2);
    lua_pushnumber(L, (lua_Number)code);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4); /* cache[code] = action */
    lua_remove(L, -2);
}

int is_action(lua_State *L, int idx)
{
    int yes = 0;
    if (lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx)) {
        push_registry(L, &K_ACTION_MT);
        yes = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    return yes;
}

ball_action action_code(lua_State *L, int idx)
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

void push_tostring(lua_State *L, int idx)
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

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}


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
    push_registry(L, &K_LJ_U64_DIGITS);
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
int cdata_u64(lua_State *L, int idx, uint64_t *out)
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
    push_registry(L, &K_LJ_U64_NEW);
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
void push_hash(lua_State *L, uint64_t v)
{
    if (push_u64_cdata(L, v))
        return;
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
    lua_pushstring(L, buf);
}

/* Pushes a seed: a number when exact (below 2^53, or any Lua 5.3+
 * integer), else under LuaJIT a uint64_t cdata, else the nearest number. */
void push_seed(lua_State *L, uint64_t v)
{
#if LUA_VERSION_NUM < 503
    if (v >= 9007199254740992u && push_u64_cdata(L, v))
        return;
#endif
    PUSHINT(L, v);
}

void push_fields(lua_State *L, const void *base, const ballc_field *f, int n)
{
    for (int i = 0; i < n; i++) {
        const char *at = (const char *)base + f[i].offset;
        switch (f[i].kind) {
        case FIELD_INT:
            PUSHINT(L, *(const int *)at);
            break;
        case FIELD_U32:
            PUSHINT(L, *(const uint32_t *)at);
            break;
        case FIELD_U64:
            PUSHINT(L, *(const uint64_t *)at);
            break;
        case FIELD_NUMBER:
            lua_pushnumber(L, (lua_Number) * (const double *)at);
            break;
        case FIELD_BOOL:
            lua_pushboolean(L, *(const int *)at != 0);
            break;
        case FIELD_SEED:
            push_seed(L, *(const uint64_t *)at);
            break;
        case FIELD_ACTION:
            push_action(L, *(const ball_action *)at);
            break;
        }
        lua_setfield(L, -2, f[i].name);
    }
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
uint64_t opt_random(lua_State *L, int i)
{
    uint64_t r = 0;
    if (lua_isnoneornil(L, i))
        return splitmix64();
    if (!random_arg(L, i, &r))
        raise_error(L, BALL_E_ARG, R_FORMS); /* does not return */
    return r;
}

/* The module's own functions; each unit adds its own (ballc_*_open()). */
static const luaL_Reg module_functions[] = {
    {"action", l_action},
    {"is_action", l_is_action},
    {"is_error", l_is_error},
    {"square_index", l_square_index},
    {"square_name", l_square_name},
    {"square_col", l_square_col},
    {"square_row", l_square_row},
    {"distance", l_distance},
    {"square_at", l_square_at},
    {NULL, NULL},
};

void ballc_class(lua_State *L, const ballc_class_def *c)
{
    const struct { const char *event; lua_CFunction fn; } meta[] = {
        {"__gc", c->gc}, {"__close", c->close}, {"__tostring", c->tostring}, {"__eq", c->eq},
    };
    luaL_newmetatable(L, c->mt);
    lua_newtable(L);
    set_funcs(L, c->methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -4, c->name);
    lua_setfield(L, -2, "__index");
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
        if (meta[i].fn != NULL) {
            lua_pushcfunction(L, meta[i].fn);
            lua_setfield(L, -2, meta[i].event);
        }
    lua_pop(L, 1);
}

/* The library's constants (ball_constants.h) and versions, and the path
 * of the library loaded, into the module at -1. */
static void set_constants(lua_State *L)
{
    Dl_info info;
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
    set_int(L, "version_number", ball_version_number());
    set_string(L, "version", ball_version_string());
    set_string(L, "backend", "c");
    if (dladdr((void *)(uintptr_t)&ball_version_number, &info) && info.dli_fname)
        lua_pushstring(L, info.dli_fname);
    else
        lua_pushstring(L, "libball.so.1");
    lua_setfield(L, -2, "library_path");
}

/* module[field] = {names[0], ..., names[n - 1]} (the module at -1). */
void set_names(lua_State *L, const char *field, const char *const *names, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, field);
}

/* ball.error_names and the metatable of ball.Error (the module at -1). */
static void open_errors(lua_State *L)
{
    static const int codes[] = {BALL_E_ARG,   BALL_E_NOMEM,    BALL_E_BPN,        BALL_E_NOTATION,
                                BALL_E_ILLEGAL, BALL_E_BUFFER, BALL_E_RANGE,      BALL_E_NO_HISTORY,
                                BALL_E_RULES, BALL_E_LIMIT,
                                BALL_E_RECORD,
                                CLOSED};
    lua_newtable(L);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        lua_pushstring(L, error_name(codes[i]));
        lua_rawseti(L, -2, codes[i]);
    }
    lua_setfield(L, -2, "error_names");

    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, error_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushlightuserdata(L, &K_ERROR_MT);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_setfield(L, -2, "Error");
}

/* The metatable of actions and their weak cache, in the registry. */
static void open_actions(lua_State *L)
{
    static const luaL_Reg action_meta[] = {
        {"__index", action_index},
        {"__newindex", action_newindex},
        {"__tostring", action_tostring},
        {"__concat", action_concat},
        {NULL, NULL},
    };
    lua_newtable(L);
    set_funcs(L, action_meta);
    lua_pushlightuserdata(L, &K_ACTION_MT);
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_pushlightuserdata(L, &K_ACTION_CACHE);
    lua_newtable(L);
    lua_newtable(L);
    set_string(L, "__mode", "v");
    lua_setmetatable(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    (void)K_SQUARES;
}

void ballc_core_open(lua_State *L)
{
    const char *squares[BALL_NUM_SQUARES]; /* 1-based in ball.squares */
    for (int i = 0; i < BALL_NUM_SQUARES; i++) {
        ball_square_to_text(i, SQUARE_NAMES[i], BALL_SQUARE_TEXT_MAX);
        squares[i] = SQUARE_NAMES[i];
    }
    if (!rng_state)
        rng_state = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&rng_state;
    luajit_init(L);
    set_funcs(L, module_functions);
    set_constants(L);
    set_names(L, "squares", squares, BALL_NUM_SQUARES);
    set_names(L, "earn_words", EARN_WORDS, N_EARN_WORDS);
    open_errors(L);
    open_actions(L);
}
