/* SPDX-License-Identifier: MIT */
/* The Lua binding's C module, learning: ball.Net, the learned evaluation,
 * and the game pointers of bindings/lua/ball_learn.lua (ballc.h). */
#include "ballc.h"

/* ------------------------------------------------------------------ */
/* a learned evaluation: ball.net(data) / ball.net_file(path), a full
 * userdata with __gc (docs/training.md); a turn search takes it as
 * eval = net. Its uservalue is a table whose weak keys are the searchers
 * that use it, so that net:close() can refuse while one is open (a closed
 * net under a searcher would be freed memory), while the collector frees
 * a net only when no searcher refers to it (each keeps it in its own
 * uservalue). */

lnet *check_net(lua_State *L, int idx)
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
        return raise_error(L, rc, err);
    return 1;
}

/* ball.net(data): the network of a network file's bytes (a string) */
static int l_net(lua_State *L)
{
    size_t len;
    if (lua_type(L, 1) != LUA_TSTRING)
        return raise_error(L, BALL_E_ARG, "ball.net takes the bytes of a network file (a string)");
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
        return raise_error(L, BALL_E_ARG, "ball.net_file takes a path (a string)");
    const char *path = lua_tostring(L, 1);
    int found = stat(path, &st) == 0;
    if (!found || !S_ISREG(st.st_mode)) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot open %s: %s", path,
                 found ? "not a regular file" : strerror(errno));
        return raise_error(L, BALL_E_ARG, buf);
    }
    size_t len = (size_t)st.st_size;
    char *data = (char *)lua_newuserdata(L, len ? len : 1);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot open %s: %s", path, strerror(errno));
        return raise_error(L, BALL_E_ARG, buf);
    }
    size_t got = fread(data, 1, len, f);
    int more = fgetc(f) != EOF, bad = ferror(f);
    fclose(f);
    if (got != len || more || bad) {
        snprintf(buf, sizeof buf, "ball.net_file: cannot read %s (it changed while read?)", path);
        return raise_error(L, BALL_E_ARG, buf);
    }
    return push_net(L, data, len);
}

ball_net *open_net(lua_State *L, int idx)
{
    lnet *ln = check_net(L, idx);
    if (ln->n == NULL)
        raise_error(L, CLOSED, "the network is closed");
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
        return raise_error(L, BALL_E_ARG, buf);
    }
    int rc = ball_net_evaluate(n, P(L, 2), &v);
    if (rc < 0)
        return raise_error(L, rc, "net:evaluate: the library refused the game");
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
        return raise_error(L, BALL_E_ARG, "net:close: a turn searcher that is not closed uses this "
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
    {"net", l_net},
    {"net_file", l_net_file},
    {"_game_pointer", l_game_pointer},
    {"_game_slot", l_game_slot},
    {NULL, NULL},
};

void ballc_learn_open(lua_State *L)
{
    static const ballc_class_def net = {NET_MT, "Net", net_methods, n_gc, n_close, n_tostring, NULL};
    set_funcs(L, learn_functions);
    ballc_class(L, &net);
}
