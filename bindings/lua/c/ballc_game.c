/* SPDX-License-Identifier: MIT */
/* The Lua binding's C module, ball.Game: games, their methods, records and cards (ballc_game.h). */
#include "ballc_game.h"

/* ------------------------------------------------------------------ */
/* games */

/* Whether the value at idx is a userdata of metatable tname (Lua 5.1 has
 * no luaL_testudata). */
int luaL_testudata_compat(lua_State *L, int idx, const char *tname)
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
ball_game *P(lua_State *L, int idx)
{
    lgame *lg = check_game(L, idx);
    if (!lg->g)
        raise_error(L, CLOSED, "the game is closed");
    return lg->g;
}

/* rc, or the game's error message. */
static int check(lua_State *L, ball_game *g, int rc)
{
    if (rc < 0)
        raise_error(L, rc, ball_errmsg(g));
    return rc;
}

lgame *new_lgame(lua_State *L)
{
    lgame *lg = (lgame *)lua_newuserdata(L, sizeof(lgame));
    lg->g = NULL;
    luaL_getmetatable(L, GAME_MT);
    lua_setmetatable(L, -2);
    return lg;
}

/* The card set's readers raise through FAIL, which frees the set first:
 * a userdata with __gc would be cleaner; errors here are rare, so the set
 * is freed before each raise instead. */
#define FAIL(code, msg) do { ball_cardset_free(cs); raise_error(L, code, msg); } while (0)

/* The earn table at -1 into @p cs ({word = PE}). */
static void read_earn(lua_State *L, ball_cardset *cs)
{
    char buf[ERR_MAX];
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

/* The card at -1 ({name, cost, effect [, amount]}) into the hand of team
 * @p t of @p cs; pops it. */
static void read_card(lua_State *L, ball_cardset *cs, int t)
{
    char buf[ERR_MAX];
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

/* A new card set from the options table at idx (fields earn, cards); the
 * caller frees it. On error the set is freed and a Lua error raised. */
static ball_cardset *make_cardset(lua_State *L, int idx)
{
    ball_cardset *cs;
    ok(L, ball_cardset_new(&cs));
    lua_getfield(L, idx, "earn");
    if (!lua_isnil(L, -1))
        read_earn(L, cs);
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
                read_card(L, cs, t);
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
        raise_error(L, BALL_E_ARG, "ball.new takes a table of options");
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
                raise_error(L, rc, err);
        }
        lua_getfield(L, 1, "earn");
        lua_getfield(L, 1, "cards");
        int kw = !lua_isnil(L, -1) || !lua_isnil(L, -2);
        lua_pop(L, 5);
        if (kw) {
            if (cards) {
                ball_cardset_free(cards);
                raise_error(L, BALL_E_ARG,
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
        raise_error(L, rc, err);
    if (has_opts) {
        lua_getfield(L, 1, "bpn");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TSTRING)
                raise_error(L, BALL_E_ARG, "a BPN is a string");
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
    set_int(L, "end_zone_depth", r.end_zone_depth);
    set_int(L, "turn_limit", r.turn_limit);
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
        raise_error(L, BALL_E_ARG, "a BPN is a string");
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
        set_string(L, "name", ball_cardset_card_name(r.cards, t, i));
        set_int(L, "cost", ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_COST)));
        set_string(L, "effect", EFFECT[ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_EFFECT))]);
        set_int(L, "amount", ok(L, ball_cardset_card_value(r.cards, t, i, BALL_CARD_AMOUNT)));
        if (only_held) {
            set_int(L, "index", i);
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
    set_string(L, "team", TEAM[def]);
    set_string(L, "type", type);
    set_bool(L, "down", down);
    set_bool(L, "restricted", restricted);
    set_bool(L, "ball", has);
    set_bool(L, "stacked", stacked);
    set_bool(L, "active", !down && !stacked);
    set_string(L, "text", text);
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
        return raise_error(L, BALL_E_ARG, "level is 'upper' or 'lower'");
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
    set_string(L, "name", SQUARE_NAMES[sq]);
    set_bool(L, "loose_ball", (st & BALL_SQ_LOOSE_BALL) != 0);
    set_bool(L, "fresh", (st & BALL_SQ_FRESH) != 0);
    set_bool(L, "stack", (st & BALL_SQ_STACK) != 0);
    if (st & BALL_SQ_PIECE) {
        push_piece(L, check(L, g, ball_piece(g, sq, BALL_UPPER)));
        lua_setfield(L, -2, "upper");
        if (st & BALL_SQ_STACK) {
            push_piece(L, check(L, g, ball_piece(g, sq, BALL_LOWER)));
            lua_setfield(L, -2, "lower");
        }
    }
    set_bool(L, "open", !(st & BALL_SQ_PIECE));
    set_bool(L, "vacant", !(st & BALL_SQ_PIECE) && !(st & BALL_SQ_LOOSE_BALL));
    square_text(L, g, sq, text, sizeof text);
    set_string(L, "text", text);
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

/* game:diagram(opts) (DRAW_BOARD): the library's text diagram;
 * opts.highlight, opts.legend. game:svg(opts) (DRAW_SVG): the SVG
 * picture; opts.highlight, opts.action, opts.coords. */
static int picture(lua_State *L, enum draw_kind kind)
{
    ball_game *g = P(L, 1);
    int flags = 0;
    ball_action arrow = BALL_ACTION_NONE;
    lua_settop(L, 2);
    if (!lua_isnil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        if (kind == DRAW_BOARD) {
            lua_getfield(L, 2, "legend"); /* 3 */
            flags = lua_toboolean(L, 3) ? BALL_DRAW_LEGEND : 0;
        } else {
            lua_getfield(L, 2, "coords"); /* 3 */
            if (lua_type(L, 3) == LUA_TBOOLEAN && !lua_toboolean(L, 3))
                flags = BALL_DRAW_NO_COORDS;
        }
        lua_getfield(L, 2, "highlight"); /* 4 */
        if (kind == DRAW_SVG) {
            lua_getfield(L, 2, "action"); /* 5 */
            if (!lua_isnil(L, 5))
                arrow = code_of(L, g, 5);
        }
    } else {
        lua_pushnil(L);
        lua_pushnil(L);
    }
    size_t n;
    const int *sq = squares_list(L, 4, &n);
    push_drawing(L, g, kind, sq, n, arrow, flags);
    return 1;
}

static int g_diagram(lua_State *L) { return picture(L, DRAW_BOARD); }
static int g_svg(lua_State *L) { return picture(L, DRAW_SVG); }

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

void push_action_list(lua_State *L, const ball_action *acts, int n)
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

/* The 1-based action index at @p idx, as the library's 0-based one. */
static int action_index_arg(lua_State *L, int idx)
{
    long long i = int_arg(L, idx, "an action index", INT64_MIN / 2, INT64_MAX / 2);
    if (i < 1 || i > INT32_MAX) {
        char buf[64];
        snprintf(buf, sizeof buf, "action index %lld out of range", i);
        raise_error(L, BALL_E_RANGE, buf);
    }
    return (int)(i - 1);
}

static int g_legal_action(lua_State *L)
{
    ball_game *g = P(L, 1);
    int i = action_index_arg(L, 2);
    ball_action a;
    check(L, g, ball_legal_action_at(g, i, &a));
    push_action(L, a);
    return 1;
}

/* game:random_action([r]) and game:random_apply([r]) through @p draw:
 * pushes the action drawn. */
static int push_random(lua_State *L, int (*draw)(ball_game *, uint64_t, ball_action *))
{
    ball_game *g = P(L, 1);
    uint64_t r = opt_random(L, 2);
    ball_action a;
    check(L, g, draw(g, r, &a));
    push_action(L, a);
    return 1;
}

static int g_random_action(lua_State *L)
{
    return push_random(L, ball_random_action);
}

/* game:apply_index(i): legal_actions()[i] played without the check
 * (ball_apply_index(), experimental); returns nothing. */
static int g_apply_index(lua_State *L)
{
    ball_game *g = P(L, 1);
    int i = action_index_arg(L, 2);
    check(L, g, ball_apply_index(g, i));
    return 0;
}

/* game:random_apply([r]): random_action(r) played without the check
 * (ball_random_apply(), experimental); returns the action. */
static int g_random_apply(lua_State *L)
{
    return push_random(L, ball_random_apply);
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
        raise_error(L, BALL_E_ARG, "an action text is a string");
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
        raise_error(L, BALL_E_RANGE, "no such decision in the history");
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
        raise_error(L, BALL_E_RANGE, "no such position in the history");
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
        raise_error(L, BALL_E_ARG, "tags is a table");
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
        return raise_error(L, code, message);
    int line, column;
    push_error(L, code, "record", message);
    const char *at = strstr(message, "line ");
    if (at && sscanf(at, "line %d, column %d", &line, &column) == 2) {
        set_int(L, "line", line);
        set_int(L, "column", column);
    }
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
            raise_error(L, BALL_E_ILLEGAL, buf);
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
        set_string(L, "square", SQUARE_NAMES[ok(L, ball_task_square(tasks[i]))]);
        set_string(L, "kind", TASK[ok(L, ball_task_kind(tasks[i]))]);
        set_bool(L, "solvable", ok(L, ball_task_solvable(tasks[i])) == 1);
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
            raise_error(L, BALL_E_ARG, buf);
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

static const luaL_Reg game_functions[] = {
    {"new", l_new},
    {"from_bpn", l_from_bpn},
    {"read_records", l_read_records},
    {"from_record", l_from_record},
    {NULL, NULL},
};

void ballc_game_open(lua_State *L)
{
    static const ballc_class_def game = {GAME_MT, "Game", game_methods, g_close, g_close, g_tostring, g_eq};
    set_funcs(L, game_functions);
    set_names(L, "TAGS", TAGS, BALL_TAG_COUNT);
    ballc_class(L, &game);
}
