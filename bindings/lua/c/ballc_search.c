/* SPDX-License-Identifier: MIT */
/* The Lua binding's C module, the players: ball.MCTS, ball.TurnSearch and
 * the learned evaluation a turn search takes, ball.Net (ballc_search.h). */
#include "ballc_game.h"
#include "ballc_search.h"

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
        raise_error(L, BALL_E_ARG, buf);
    }
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx)) {
        lua_Integer v = lua_tointeger(L, idx);
        if (v < 0) {
            snprintf(buf, sizeof buf, "seed %lld out of range (0 to 2^63 - 1)", (long long)v);
            raise_error(L, BALL_E_RANGE, buf);
        }
        return (uint64_t)v;
    }
#endif
    lua_Number d = lua_tonumber(L, idx);
    if (d != d || (d != floor(d) && !isinf(d))) {
        snprintf(buf, sizeof buf, "seed is an integer, not %.14g", (double)d);
        raise_error(L, BALL_E_ARG, buf);
    }
    if (d < 0 || d >= 9007199254740992.0) {
        snprintf(buf, sizeof buf, "seed %.14g out of range (0 to 2^53 - 1)", (double)d);
        raise_error(L, BALL_E_RANGE, buf);
    }
    return (uint64_t)d;
}

/* Raises an "arg" error for a key of the options table (at 1) that is not
 * one of the @p n @p names of @p who's options. */
static void check_options(lua_State *L, const char *who, const char *const *names, int n)
{
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int known = 0;
        if (lua_type(L, -2) == LUA_TSTRING)
            for (int i = 0; i < n; i++)
                known |= !strcmp(lua_tostring(L, -2), names[i]);
        if (!known) {
            char buf[ERR_MAX];
            int len = snprintf(buf, sizeof buf, "%s: unknown option %s (", who,
                               lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2));
            for (int i = 0; i < n && len > 0 && (size_t)len < sizeof buf; i++)
                len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", names[i], i + 1 < n ? ", " : ")");
            raise_error(L, BALL_E_ARG, buf);
        }
        lua_pop(L, 1);
    }
}

/* The integer option @p name of the options table (at 1) into *out: 1, or
 * 0 when it is absent (nil). */
static int int_option(lua_State *L, const char *name, int *out)
{
    int present;
    lua_getfield(L, 1, name);
    present = !lua_isnil(L, -1);
    if (present)
        *out = INT_ARG(L, -1, name);
    lua_pop(L, 1);
    return present;
}

/* The option seed of the options table (at 1) into *out, when present. */
static void seed_option(lua_State *L, uint64_t *out)
{
    lua_getfield(L, 1, "seed");
    if (!lua_isnil(L, -1))
        *out = seed_arg(L, -1);
    lua_pop(L, 1);
}

/* ball.mcts(opts) */
static int l_mcts(lua_State *L)
{
    ball_mcts_config cfg;
    char err[ERR_MAX] = "";
    int has_opts = !lua_isnoneornil(L, 1);
    if (has_opts && !lua_istable(L, 1))
        raise_error(L, BALL_E_ARG, "ball.mcts takes a table of options");
    ball_mcts_config_init(&cfg, sizeof cfg);
    if (has_opts) {
        check_options(L, "ball.mcts", MCTS_OPTIONS, N_MCTS_OPTIONS);
        int_option(L, "time_ms", &cfg.time_ms);
        if (!int_option(L, "playouts", &cfg.playouts) && cfg.time_ms > 0)
            cfg.playouts = 0; /* a time budget alone: no playout limit */
        seed_option(L, &cfg.seed);
        int_option(L, "playout_turns", &cfg.playout_turns);
        int_option(L, "max_nodes", &cfg.max_nodes);
        lua_getfield(L, 1, "exploration");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER) {
                char buf[ERR_MAX];
                snprintf(buf, sizeof buf, "exploration is a number, not a %s",
                         luaL_typename(L, -1));
                raise_error(L, BALL_E_ARG, buf);
            }
            cfg.exploration = (double)lua_tonumber(L, -1);
        }
        lua_pop(L, 1);
    }
    lmcts *lm = (lmcts *)lua_newuserdata(L, sizeof(lmcts));
    lm->m = NULL;
    lm->cfg = cfg;
    luaL_getmetatable(L, MCTS_MT);
    lua_setmetatable(L, -2);
    int rc = ball_mcts_new(&lm->m, &cfg, err, sizeof err);
    if (rc < 0)
        raise_error(L, rc, err);
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
        raise_error(L, CLOSED, "the searcher is closed");
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

/* The tables of mcts:choose()'s stats and of mcts:config(). */
static const ballc_field MCTS_STATS[] = {
    FIELD(ball_mcts_stats, U64, playouts),  FIELD(ball_mcts_stats, U64, nodes),
    FIELD(ball_mcts_stats, INT, max_depth), FIELD(ball_mcts_stats, U32, visits),
    FIELD(ball_mcts_stats, NUMBER, value),  FIELD(ball_mcts_stats, NUMBER, elapsed_ms),
};
static const ballc_field MCTS_CONFIG[] = {
    FIELD(ball_mcts_config, INT, playouts),      FIELD(ball_mcts_config, INT, time_ms),
    FIELD(ball_mcts_config, SEED, seed),         FIELD(ball_mcts_config, INT, playout_turns),
    FIELD(ball_mcts_config, NUMBER, exploration), FIELD(ball_mcts_config, INT, max_nodes),
};

/* mcts:choose(game) -> action, stats */
static int m_choose(lua_State *L)
{
    check_mcts(L, 1);
    if (!is_game(L, 2)) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf, "mcts:choose takes a game, not a %s", luaL_typename(L, 2));
        raise_error(L, BALL_E_ARG, buf);
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
        raise_error(L, rc, buf);
    }
    push_action(L, a);
    lua_createtable(L, 0, N_FIELDS(MCTS_STATS));
    push_fields(L, &st, MCTS_STATS, N_FIELDS(MCTS_STATS));
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
    lua_createtable(L, 0, N_FIELDS(MCTS_CONFIG));
    push_fields(L, c, MCTS_CONFIG, N_FIELDS(MCTS_CONFIG));
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


static int search_is_open(lua_State *L, int idx);

/* ------------------------------------------------------------------ */
/* a learned evaluation: ball.net(data) / ball.net_file(path), a full
 * userdata with __gc (docs/training.md); a turn search takes it as
 * eval = net. Its uservalue is a table whose weak keys are the searchers
 * that use it, so that net:close() can refuse while one is open (a closed
 * net under a searcher would be freed memory), while the collector frees
 * a net only when no searcher refers to it (each keeps it in its own
 * uservalue). */

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
    set_string(L, "__mode", "k");
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

static ball_net *open_net(lua_State *L, int idx)
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
/* the turn search: ball.turn_search{...}, a full userdata with __gc; its
 * uservalue (5.1: environment) is a table {info function, net of eval = net} */

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

/* t.pv and t.pv_text: the @p n actions @p acts as a list and as text, t
 * the table at -1. */
static void push_pv(lua_State *L, const ball_action *acts, int n)
{
    push_action_list(L, acts, n);
    lua_setfield(L, -2, "pv");
    push_action_text(L, acts, n);
    lua_setfield(L, -2, "pv_text");
}

/* The tables of the info function's argument, of search:analyse() and
 * its lines, and of search:config(). */
static const ballc_field SEARCH_INFO[] = {
    FIELD(ball_search_info, U64, nodes),   FIELD(ball_search_info, INT, depth),
    FIELD(ball_search_info, NUMBER, value), FIELD(ball_search_info, INT, proven),
    FIELD(ball_search_info, NUMBER, elapsed_ms),
};
static const ballc_field SEARCH_RESULT[] = {
    FIELD(ball_search_result, ACTION, best),  FIELD(ball_search_result, NUMBER, value),
    FIELD(ball_search_result, INT, proven),   FIELD(ball_search_result, INT, decisions_to_end),
    FIELD(ball_search_result, INT, depth),    FIELD(ball_search_result, U64, nodes),
    FIELD(ball_search_result, NUMBER, elapsed_ms), FIELD(ball_search_result, BOOL, stopped),
};
static const ballc_field SEARCH_LINE[] = {
    FIELD(ball_search_line, ACTION, action), FIELD(ball_search_line, NUMBER, value),
    FIELD(ball_search_line, BOOL, bound),    FIELD(ball_search_line, INT, proven),
    FIELD(ball_search_line, INT, depth),     FIELD(ball_search_line, U64, nodes),
};
static const ballc_field SEARCH_CONFIG[] = {
    FIELD(ball_search_config, U64, nodes),    FIELD(ball_search_config, INT, time_ms),
    FIELD(ball_search_config, INT, depth),    FIELD(ball_search_config, INT, threads),
    FIELD(ball_search_config, SEED, seed),    FIELD(ball_search_config, INT, multipv),
    FIELD(ball_search_config, INT, hash_mb),  FIELD(ball_search_config, INT, info_every_ms),
};

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
    lua_createtable(L, 0, N_FIELDS(SEARCH_INFO) + 2);
    push_fields(L, info, SEARCH_INFO, N_FIELDS(SEARCH_INFO));
    push_pv(L, info->pv, n);
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

/* The evaluations opts.eval names (ball_search_config::eval), as the
 * config's tables and texts name them back. */
static const char *const EVAL_NAMES[] = {[BALL_EVAL_NETWORK] = "network", [BALL_EVAL_HAND] = "hand"};
#define N_EVAL_NAMES ((int)(sizeof EVAL_NAMES / sizeof EVAL_NAMES[0]))

/* opts.eval, on the stack top (not nil): "network" or "hand" into
 * cfg->eval (the value popped), or a net, left on the stack with its index
 * in *net_idx; anything else an "arg" error that names the choices. */
static void eval_option(lua_State *L, ball_search_config *cfg, int *net_idx)
{
    if (lua_type(L, -1) == LUA_TSTRING) {
        for (int i = 0; i < N_EVAL_NAMES; i++)
            if (!strcmp(lua_tostring(L, -1), EVAL_NAMES[i])) {
                cfg->eval = i;
                lua_pop(L, 1);
                return;
            }
        lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1));
    } else if (luaL_testudata_compat(L, -1, NET_MT)) {
        open_net(L, -1);
        *net_idx = lua_gettop(L);
        return;
    } else {
        push_tostring(L, lua_gettop(L));
    }
    raisef(L, BALL_E_ARG, "eval is \"network\" (the default), \"hand\" or a network (ball.net), not %s",
           lua_tostring(L, -1));
}

/* Pushes what evaluates the leaves of the searcher at @p idx: its net (the
 * uservalue's second slot), else the name of its config's eval. */
static void push_eval(lua_State *L, int idx, const ball_search_config *cfg)
{
    get_uservalue(L, idx);
    lua_rawgeti(L, -1, 2);
    lua_remove(L, -2);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushstring(L, cfg->eval >= 0 && cfg->eval < N_EVAL_NAMES ? EVAL_NAMES[cfg->eval] : "?");
    }
}

/* The options of ball.turn_search(opts) (the table at 1, or none:
 * @p has_opts 0) into @p cfg; *net_idx the stack index of opts.eval (a
 * net), else left 0. Leaves the info function (or nil) on the stack top;
 * returns 1 when there is one. */
static int turn_search_options(lua_State *L, int has_opts, ball_search_config *cfg, int *net_idx)
{
    int has_info = 0;
    if (has_opts) {
        check_options(L, "ball.turn_search", SEARCH_OPTIONS, N_SEARCH_OPTIONS);
        lua_getfield(L, 1, "nodes");
        if (!lua_isnil(L, -1))
            cfg->nodes = (uint64_t)int_arg(L, -1, "nodes", 0, NODES_MAX);
        lua_pop(L, 1);
        int_option(L, "time_ms", &cfg->time_ms);
        int_option(L, "depth", &cfg->depth);
        int_option(L, "threads", &cfg->threads);
        seed_option(L, &cfg->seed);
        int_option(L, "multipv", &cfg->multipv);
        int_option(L, "hash_mb", &cfg->hash_mb);
        int_option(L, "info_every_ms", &cfg->info_every_ms);
        lua_getfield(L, 1, "eval");
        if (!lua_isnil(L, -1))
            eval_option(L, cfg, net_idx);
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
                raise_error(L, BALL_E_ARG, buf);
            }
            has_info = 1;
        }
        /* the info function (or nil) stays on the stack top */
    } else {
        lua_pushnil(L);
    }
    return has_info;
}

/* ball.turn_search(opts) */
static int l_turn_search(lua_State *L)
{
    ball_search_config cfg;
    char err[ERR_MAX] = "";
    int has_opts = !lua_isnoneornil(L, 1), has_info, net_idx = 0;
    if (has_opts && !lua_istable(L, 1))
        raise_error(L, BALL_E_ARG, "ball.turn_search takes a table of options");
    ball_search_config_init(&cfg, sizeof cfg);
    has_info = turn_search_options(L, has_opts, &cfg, &net_idx);
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
        raise_error(L, rc, err);
    if (net_idx) {
        get_uservalue(L, net_idx);
        lua_pushvalue(L, -2);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
        lua_pop(L, 1);
        rc = ball_search_set_eval(ls->s, ball_net_search_eval, check_net(L, net_idx)->n);
        if (rc < 0)
            raise_error(L, rc, "ball.turn_search: the library refused the network as the evaluation");
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
        raise_error(L, CLOSED, "the searcher is closed");
    if (ls->running) {
        char buf[ERR_MAX];
        snprintf(buf, sizeof buf,
                 "search:%s: the searcher is running a search (called from its info callback?)",
                 what);
        raise_error(L, BALL_E_ARG, buf);
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
        raise_error(L, BALL_E_ARG, buf);
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
            raise_error(L, rc, buf);
        }
        raise_error(L, rc, ball_errmsg(g));
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
            raise_error(L, BALL_E_NOMEM, "out of memory for the search lines");
        for (int i = 0; i < BALL_MAX_ACTIONS; i++)
            ball_search_line_init(&ls->lines[i], sizeof ls->lines[i]);
    }
    int n = ok(L, ball_search_lines(ls->s, ls->lines, BALL_MAX_ACTIONS));
    if (n > BALL_MAX_ACTIONS)
        n = BALL_MAX_ACTIONS;
    int m = ok(L, ball_search_best_turn(ls->s, ls->turn, BALL_SEARCH_PV_MAX));
    lua_createtable(L, 0, 12);
    push_fields(L, &r, SEARCH_RESULT, N_FIELDS(SEARCH_RESULT));
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const ball_search_line *ln = &ls->lines[i];
        int k = ln->pv_len < 0 ? 0 : ln->pv_len > BALL_SEARCH_PV_MAX ? BALL_SEARCH_PV_MAX
                                                                     : ln->pv_len;
        lua_createtable(L, 0, N_FIELDS(SEARCH_LINE) + 2);
        push_fields(L, ln, SEARCH_LINE, N_FIELDS(SEARCH_LINE));
        push_pv(L, ln->pv, k);
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
    lua_createtable(L, 0, N_FIELDS(SEARCH_CONFIG) + 1);
    push_fields(L, c, SEARCH_CONFIG, N_FIELDS(SEARCH_CONFIG));
    push_eval(L, 1, c);
    lua_setfield(L, -2, "eval");
    return 1;
}

static int s_close(lua_State *L)
{
    lsearch *ls = check_search(L, 1);
    if (ls->s) {
        if (ls->running)
            raise_error(L, BALL_E_ARG,
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
    char buf[ERR_MAX], eval[64];
    push_eval(L, 1, c);
    if (lua_type(L, -1) == LUA_TSTRING)
        snprintf(eval, sizeof eval, "\"%s\"", lua_tostring(L, -1));
    else
        snprintf(eval, sizeof eval, "net"); /* a ball.net */
    lua_pop(L, 1);
    snprintf(buf, sizeof buf,
             "%sball.turn_search{ nodes = %llu, time_ms = %d, depth = %d, threads = %d, "
             "seed = %llu, multipv = %d, hash_mb = %d, info_every_ms = %d, eval = %s }",
             ls->s ? "" : "closed ", (unsigned long long)c->nodes, c->time_ms, c->depth,
             c->threads, (unsigned long long)c->seed, c->multipv, c->hash_mb, c->info_every_ms,
             eval);
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

static const luaL_Reg search_functions[] = {
    {"mcts", l_mcts},
    {"turn_search", l_turn_search},
    {"net", l_net},
    {"net_file", l_net_file},
    {NULL, NULL},
};

void ballc_search_open(lua_State *L)
{
    static const ballc_class_def mcts = {MCTS_MT, "MCTS", mcts_methods, m_close, m_close, m_tostring, NULL};
    static const ballc_class_def search = {SEARCH_MT, "TurnSearch", search_methods, s_close, s_close, s_tostring,
                                           NULL};
    static const ballc_class_def net = {NET_MT, "Net", net_methods, n_gc, n_close, n_tostring, NULL};
    set_funcs(L, search_functions);
    ballc_class(L, &mcts);
    ballc_class(L, &search);
    ballc_class(L, &net);
}
