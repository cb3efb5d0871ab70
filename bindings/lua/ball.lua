-- SPDX-License-Identifier: MIT
--[[
ball.lua — LuaJIT FFI binding of libball 1.x, the rules engine of the board
game BALL. Rule ids (R1 ... R12, N1 ... N3) refer to the project's
docs/spec.md.

  local ball = require("ball")
  local game = ball.new()                 -- the standard start, DEF to act
  for _, action in ipairs(game:legal_actions()) do print(action) end
  game:apply("E11-F10")                   -- an action or its N2 text
  print(game:bpn(), game:side(), game:pa())
  game:undo()
  game:close()                            -- or leave it to the GC

Squares are names ("G5") in results and names or 0-based indices in
arguments. Teams are "ATK" / "DEF", phases "action" / "release", results
"ongoing" / "atk_won" / "def_won" / "draw", action kinds "move", "dodge",
"tactical_dodge", "block", "protect", "handoff", "short_pass",
"long_pass", "end", "stand_up", "unblock", "unprotect", "convert_pa",
"play_card". Every numeric constant of ball.h is there too without its
BALL_ prefix (ball.ATK, ball.MOVE, ball.NO_SQUARE, ball.MAX_TASKS, ...),
read from the cdef below, which declares everything in ball.h (the
#defines as static consts); ball._CDEF is that text.

Errors are raised with error() as ball.Error objects: fields code (the
negative ball_error), name ("arg", "nomem", "bpn", "notation", "illegal",
"buffer", "range", "no_history", "rules", "limit", "record", or "closed" for a
closed game) and message (the text of ball_errmsg: what went wrong and
where); tostring() gives a readable line.

Arguments are checked before they reach C, never truncated: a number
where C takes an integer must be a Lua number with an integral value in
the C type's range ("arg" error for a non-number, NaN or a fraction,
"range" error when out of range); a text (BPN, action, rules) must be a
string without NUL characters ("bpn", "notation" or "rules" error), since
C would stop reading at the NUL.

Card mode (R10; added with libball 1.0): ball.new{rules_text = "..."}
takes a whole ruleset in the text form of ball_rules_from_text(), e.g.
"zone=2 earn.move=1 atk=Sprint:2:pa+1"; or by options: earn = {move = 1,
dodge = 3} (the words of the rules text: move pickup dodge fumble tactical
block protect handoff short long standup unblock unprotect) and cards =
{ATK = {{"Sprint", 2, "gain_pa", 1}, {"Rally", 3, "again"}}, DEF = {...}}
(a card is {name, cost, effect, amount} with effect "gain_pa" /
"unrestrict", or {name, cost, "pa+N" / "again"}); either one turns card
mode on. game:rules_text() gives the ruleset back; game:card_mode(),
game:earnings(), game:pe(team), game:hand(team), game:cards(team) and
game:hand_cards(team) read it and the PE and hands; game:conversions()
and game:card_plays() list the legal `pe+k` and card plays,
game:convert(k) and game:play_card(index or name, target) play them, and
undo() takes them back; action.value is the number a `pe+k` or card play
carries, action.is_conversion / action.is_card_play say which it is.

Whole games (docs/records.md, docs/bindings.md): game:history() (also
game:move_stack()) lists the decisions played, read from the library's
history, with game:history_action(i), game:history_position(i) (from 1),
game:peek(), game:push(a) and game:pop(); game:record(tags) writes the game
record ({event, site, date, ATK, DEF} for that record only; game:tags() and
game:set_tag(name, value) keep tags on the game), ball.from_record(text)
and the iterator ball.read_records(text) read records back, raising a
"record" error with fields line and column (its code is the library's
code of the failed check). tostring(game) and game:diagram{highlight,
legend} are the library's text diagram (that of `ball show`),
game:svg{highlight, action, coords} its SVG picture.

The MCTS player (docs/players.md): ball.mcts{playouts = 1000, time_ms = 0,
seed = 1, playout_turns = 1, exploration = 0.3, max_nodes = 0} (every
option optional; playouts left out with a time_ms given means no playout
limit) makes a searcher of the library (ball_mcts_new()); m:choose(game)
returns the decision chosen for the coach to act, leaving the game as it
was, and a table of what the search did (playouts, nodes, max_depth,
visits, value, elapsed_ms); m:seed(n) restarts its random generator,
m:config() gives its settings, m:close() frees it (or the GC does). With a
budget in playouts the same seed gives the same decisions as the C API.

The turn search (the library's strongest player, docs/players.md):
ball.turn_search{nodes = 200000, time_ms = 0, depth = 0, threads = 1,
seed = 1, multipv = 1, hash_mb = 16, info = nil, info_every_ms = 0}
(ball_search_new()); s:choose(game) returns the decision, s:analyse(game)
a table {best, value, proven, decisions_to_end, depth, nodes, elapsed_ms,
stopped, lines, best_turn, best_turn_text}, both leaving the game as it was;
s:clear() forgets the transposition table, s:stop() (also from the info
function) ends a run early, s:config(), s:close() (or the GC). The info
function receives {nodes, depth, value, proven, elapsed_ms, pv, pv_text}
during a run, on the calling thread; returning true stops the run, and an
error in it is raised again after the run (docs/bindings.md).

Threads: a LuaJIT state is single-threaded, so the calls of one state never
overlap and this module needs no lock. A game must not be shared between
states (or with C threads) while it is in use: the C library forbids
overlapping calls on one game.

The shared library is looked for in this order: LIBBALL_PATH (a file, or a
directory holding libball.so.1); the build tree next to this file
(../../build/libball.so.1); build/libball.so.1 under the current directory
when it is a libball repository; then the system ("ball", "libball.so.1").
Its major version must be the one this module was written for (ABI_MAJOR).
--]]

-- PUC Lua (no FFI): this file hands over to the C module ball.so of the
-- same API (bindings/lua/c/ballc.c), found on package.cpath, so that
-- `require "ball"` works the same whichever of the two is found first.
local has_ffi, ffi = pcall(require, "ffi")
if not has_ffi then
    local tried = {}
    for template in package.cpath:gmatch("[^;]+") do
        local path = template:gsub("%?", "ball")
        local f = io.open(path, "rb")
        if f then
            f:close()
            local open = package.loadlib(path, "luaopen_ball")
            if open then return open() end
        end
        tried[#tried + 1] = path
    end
    error("ball: this Lua has no FFI and the C module ball.so (bindings/lua/c) is not on "
          .. "package.cpath: " .. table.concat(tried, "; "), 0)
end

local M = {}
M._VERSION = "1.0.0"
--- Which implementation this is: "ffi" (this LuaJIT module) or "c" (the
--- PUC Lua C module bindings/lua/c/ballc.c, same API).
M.backend = "ffi"
M.ABI_MAJOR = 1
local SONAME = "libball.so." .. M.ABI_MAJOR

-- ------------------------------------------------------------ the C API

-- Everything of include/ball.h 1.1 but its experimental section, in its order: the #defines of integers
-- as static consts, the enums, types and functions as declared there
-- (test_ball.lua compares this text with the header); at the end, between
-- #ifdef BALL_EXPERIMENTAL and #endif (lines that ffi.cdef is given
-- without), the experimental calls the module wraps (scripts/api-check.py
-- compares each with the header's).
M._CDEF = [[
static const int BALL_VERSION_MAJOR = 1;
static const int BALL_VERSION_MINOR = 1;
static const int BALL_VERSION_PATCH = 0;
static const int BALL_VERSION_NUMBER = 10100;

unsigned ball_version_number(void);
const char *ball_version_string(void);

enum ball_error {
    BALL_OK = 0, BALL_E_ARG = -1, BALL_E_NOMEM = -2, BALL_E_BPN = -3,
    BALL_E_NOTATION = -4, BALL_E_ILLEGAL = -5, BALL_E_BUFFER = -6, BALL_E_RANGE = -7,
    BALL_E_NO_HISTORY = -8, BALL_E_RULES = -9, BALL_E_LIMIT = -10, BALL_E_RECORD = -11
};

const char *ball_strerror(int code);

static const int BALL_NUM_SQUARES = 111;
static const int BALL_NUM_COLS = 13;
static const int BALL_NUM_ROWS = 17;
static const int BALL_NO_SQUARE = 127;
static const int BALL_SQUARE_TEXT_MAX = 4;

int ball_square_at(int col, int row);
int ball_square_col(int sq);
int ball_square_row(int sq);
int ball_square_distance(int a, int b);
int ball_square_to_text(int sq, char *buf, size_t len);
int ball_square_from_text(const char *text);

enum ball_team {
    BALL_ATK = 0, BALL_DEF = 1
};

enum ball_phase {
    BALL_PHASE_ACTION = 0, BALL_PHASE_RELEASE = 1
};

enum ball_result {
    BALL_ONGOING = 0, BALL_ATK_WON = 1, BALL_DEF_WON = 2, BALL_DRAW = 3
};

enum ball_piece_type {
    BALL_X = 1, BALL_O = 2, BALL_SQUARE = 3
};

enum ball_piece_bits {
    BALL_PIECE_TYPE_MASK = 0x03, BALL_PIECE_DEF = 0x04, BALL_PIECE_DOWN = 0x08,
    BALL_PIECE_RESTRICTED = 0x10, BALL_PIECE_BALL = 0x20, BALL_PIECE_STACKED = 0x40
};

enum ball_level {
    BALL_UPPER = 0, BALL_LOWER = 1
};

enum ball_square_bits {
    BALL_SQ_PIECE = 0x01, BALL_SQ_STACK = 0x02, BALL_SQ_FRESH = 0x04,
    BALL_SQ_LOOSE_BALL = 0x08, BALL_SQ_BALL = 0x10
};

static const int BALL_MAX_TURN = 999999999;
static const int BALL_MAX_PA = 99;
static const int BALL_MAX_PE = 999999999;

typedef uint32_t ball_action;

static const uint32_t BALL_ACTION_NONE = 0;
static const int BALL_MAX_ACTIONS = 1024;
static const int BALL_ACTION_TEXT_MAX = 32;

enum ball_action_kind {
    BALL_MOVE = 1, BALL_DODGE = 2, BALL_TACTICAL_DODGE = 3, BALL_BLOCK = 4,
    BALL_PROTECT = 5, BALL_HANDOFF = 6, BALL_SHORT_PASS = 7, BALL_LONG_PASS = 8,
    BALL_END = 9, BALL_STAND_UP = 10, BALL_UNBLOCK = 11, BALL_UNPROTECT = 12,
    BALL_CONVERT_PA = 13, BALL_PLAY_CARD = 14
};

enum ball_action_flags {
    BALL_FLAG_PICKUP = 0x1, BALL_FLAG_FORCED_FUMBLE = 0x2, BALL_FLAG_FUMBLE = 0x4
};

enum ball_keeper {
    BALL_KEEPER_NONE = 0, BALL_KEEPER_UPPER = 1, BALL_KEEPER_LOWER = 2
};

int ball_action_kind(ball_action a);
int ball_action_from(ball_action a);
int ball_action_to(ball_action a);
int ball_action_option(ball_action a);
int ball_action_keeper(ball_action a);
int ball_action_flags(ball_action a);
int ball_action_cost(ball_action a);
int ball_action_value(ball_action a);
int ball_action_to_text(ball_action a, char *buf, size_t len);
typedef int32_t ball_task;

static const int BALL_MAX_TASKS = 14;

enum ball_task_kind {
    BALL_TASK_STAND_UP = 1, BALL_TASK_RELEASE = 2
};

int ball_task_square(ball_task task);
int ball_task_kind(ball_task task);
int ball_task_solvable(ball_task task);

enum ball_earn {
    BALL_EARN_MOVE = 0, BALL_EARN_PICKUP = 1, BALL_EARN_DODGE = 2,
    BALL_EARN_FORCED_FUMBLE = 3, BALL_EARN_TACTICAL_DODGE = 4, BALL_EARN_BLOCK = 5,
    BALL_EARN_PROTECT = 6, BALL_EARN_HANDOFF = 7, BALL_EARN_SHORT_PASS = 8,
    BALL_EARN_LONG_PASS = 9, BALL_EARN_STAND_UP = 10, BALL_EARN_UNBLOCK = 11,
    BALL_EARN_UNPROTECT = 12, BALL_EARN_COUNT = 13
};

enum ball_card_effect {
    BALL_EFFECT_GAIN_PA = 1, BALL_EFFECT_UNRESTRICT = 2
};

static const int BALL_MAX_HAND = 9;
static const int BALL_CARD_NAME_MAX = 24;
static const int BALL_MAX_CARD_PE = 999;

typedef struct ball_cardset ball_cardset;
int ball_cardset_new(ball_cardset **out);
void ball_cardset_free(ball_cardset *cards);
int ball_cardset_set_earn(ball_cardset *cards, int entry, int pe);
int ball_cardset_earn(const ball_cardset *cards, int entry);
int ball_cardset_add_card(ball_cardset *cards, int team, const char *name, int cost,
                          int effect, int amount);
int ball_cardset_hand_size(const ball_cardset *cards, int team);
const char *ball_cardset_card_name(const ball_cardset *cards, int team, int index);

enum ball_card_field {
    BALL_CARD_COST = 0, BALL_CARD_EFFECT = 1, BALL_CARD_AMOUNT = 2
};

int ball_cardset_card_value(const ball_cardset *cards, int team, int index, int field);

typedef struct ball_rules {
    size_t size;
    int end_zone_depth;
    unsigned turn_limit;
    unsigned flags;
    const ball_cardset *cards;
} ball_rules;

void ball_rules_init(ball_rules *rules, size_t size);
int ball_rules_check(const ball_rules *rules, char *err, size_t errlen);

static const int BALL_RULES_TEXT_MAX = 1024;

int ball_rules_from_text(ball_rules *rules, ball_cardset **cards, const char *text,
                         char *err, size_t errlen);
int ball_rules_to_text(const ball_rules *rules, char *buf, size_t len);
typedef struct ball_game ball_game;
int ball_game_new(ball_game **out, const ball_rules *rules, char *err, size_t errlen);
int ball_game_clone(ball_game **out, const ball_game *game);
void ball_game_free(ball_game *game);
int ball_game_rules(const ball_game *game, ball_rules *out);
const char *ball_errmsg(const ball_game *game);
int ball_side(const ball_game *game);
int ball_phase(const ball_game *game);
int ball_pa(const ball_game *game);
int ball_handoff_last(const ball_game *game);
int ball_turn(const ball_game *game);
int ball_result(const ball_game *game);
int ball_piece(const ball_game *game, int sq, int level);
int ball_square_state(const ball_game *game, int sq);
int ball_square_of_ball(const ball_game *game);
int ball_restricted_square(const ball_game *game);
int ball_pe(const ball_game *game, int team);
int ball_hand(const ball_game *game, int team);
int ball_legal_actions(ball_game *game, ball_action *out, size_t cap);
int ball_random_action(ball_game *game, uint64_t random, ball_action *out);
int ball_is_legal(ball_game *game, ball_action a);
int ball_apply(ball_game *game, ball_action a);
int ball_undo(ball_game *game);
int ball_history_length(const ball_game *game);
int ball_release_tasks(ball_game *game, ball_task *out, size_t cap);
int ball_task_solutions(ball_game *game, int sq, ball_action *out, size_t cap);

static const int BALL_SELECT_STEPS = 5;

enum ball_verb {
    BALL_VERB_MOVE = 1, BALL_VERB_HANDOFF = 2, BALL_VERB_SHORT_PASS = 3,
    BALL_VERB_LONG_PASS = 4, BALL_VERB_CARD = 5
};

int ball_select(ball_game *game, const int *chosen, size_t n_chosen, int *choices,
                size_t cap, ball_action *action);

static const int BALL_BPN_MAX = 1024;

int ball_position_to_text(ball_game *game, char *buf, size_t len);
int ball_position_from_text(ball_game *game, const char *bpn);
int ball_action_from_text(ball_game *game, const char *text, ball_action *out);

static const int BALL_MAX_PERFT_DEPTH = 64;

int ball_perft(ball_game *game, int depth, uint64_t *count);
uint64_t ball_hash(const ball_game *game);

int ball_history_action(ball_game *game, int i, ball_action *out);
int ball_history_position(ball_game *game, int i, char *buf, size_t len);

enum ball_tag {
    BALL_TAG_EVENT = 0, BALL_TAG_SITE = 1, BALL_TAG_DATE = 2, BALL_TAG_ATK = 3,
    BALL_TAG_DEF = 4, BALL_TAG_COUNT = 5
};

static const int BALL_TAG_TEXT_MAX = 128;

int ball_game_set_tag(ball_game *game, int tag, const char *value);
int ball_game_tag(const ball_game *game, int tag, char *buf, size_t len);
int ball_record_write(ball_game *game, char *buf, size_t len);
int ball_record_read(ball_game **out, const char *text, size_t len, size_t *offset,
                     char *err, size_t errlen);

enum ball_draw_flags {
    BALL_DRAW_LEGEND = 1, BALL_DRAW_NO_COORDS = 2
};

int ball_position_to_board_text(ball_game *game, const int *highlight, size_t n, int flags,
                                char *buf, size_t len);
int ball_position_to_svg(ball_game *game, const int *highlight, size_t n, ball_action arrow,
                         int flags, char *buf, size_t len);

typedef struct ball_mcts ball_mcts;
typedef struct ball_mcts_config {
    size_t size;
    uint64_t seed;
    int playouts;
    int time_ms;
    int max_nodes;
    double exploration;
    int playout_turns;
} ball_mcts_config;
typedef struct ball_mcts_stats {
    size_t size;
    uint64_t playouts;
    uint64_t nodes;
    int max_depth;
    uint32_t visits;
    double value;
    double elapsed_ms;
} ball_mcts_stats;
void ball_mcts_config_init(ball_mcts_config *cfg, size_t size);
void ball_mcts_stats_init(ball_mcts_stats *stats, size_t size);
int ball_mcts_new(ball_mcts **out, const ball_mcts_config *cfg, char *err, size_t errlen);
void ball_mcts_free(ball_mcts *mcts);
int ball_mcts_seed(ball_mcts *mcts, uint64_t seed);
int ball_mcts_choose(ball_mcts *mcts, ball_game *game, ball_action *out, ball_mcts_stats *stats);

typedef struct ball_search ball_search;
static const int BALL_SEARCH_PV_MAX = 64;
typedef struct ball_search_info {
    size_t size;
    uint64_t nodes;
    int depth;
    double value;
    int proven;
    double elapsed_ms;
    const ball_action *pv;
    int pv_len;
} ball_search_info;
typedef struct ball_search_config {
    size_t size;
    uint64_t nodes;
    int time_ms;
    int depth;
    int threads;
    uint64_t seed;
    int multipv;
    int hash_mb;
    int (*info)(void *ud, const ball_search_info *info);
    void *info_ud;
    int info_every_ms;
} ball_search_config;
typedef struct ball_search_result {
    size_t size;
    ball_action best;
    double value;
    int proven;
    int decisions_to_end;
    int depth;
    uint64_t nodes;
    double elapsed_ms;
    int stopped;
} ball_search_result;
typedef struct ball_search_line {
    size_t size;
    ball_action action;
    double value;
    int bound;
    int proven;
    int depth;
    uint64_t nodes;
    int pv_len;
    ball_action pv[BALL_SEARCH_PV_MAX];
} ball_search_line;
void ball_search_config_init(ball_search_config *cfg, size_t size);
void ball_search_result_init(ball_search_result *result, size_t size);
void ball_search_line_init(ball_search_line *line, size_t size);
int ball_search_new(ball_search **out, const ball_search_config *cfg, char *err,
                             size_t errlen);
void ball_search_free(ball_search *search);
int ball_search_clear(ball_search *search);
int ball_search_run(ball_search *search, ball_game *game, ball_search_result *result);
void ball_search_stop(ball_search *search);
int ball_search_lines(const ball_search *search, ball_search_line *lines, size_t max);
int ball_search_best_turn(const ball_search *search, ball_action *actions, size_t cap);

static const int BALL_ACTION_SPACE = 7990;
static const int BALL_ACTION_MASK_BYTES = 999;

enum ball_index_plane {
    BALL_PLANE_STEP = 0, BALL_PLANE_JUMP = 4, BALL_PLANE_DODGE = 12,
    BALL_PLANE_RELEASE = 44, BALL_PLANE_HANDOFF = 68, BALL_PLANE_SHORT_PASS = 69,
    BALL_PLANE_LONG_PASS = 70, BALL_INDEX_PLANES = 71
};

static const int BALL_INDEX_END = 7881;
static const int BALL_INDEX_CARD = 7981;

int ball_action_to_index(ball_game *game, ball_action a);
int ball_action_from_index(ball_game *game, int index, ball_action *out);

static const int BALL_MASK_BITS = 1;

int ball_legal_mask(ball_game *game, uint8_t *mask, size_t len, int flags);
int ball_legal_indices(ball_game *game, int32_t *out, size_t cap);
int ball_index_mirror(int index);

enum ball_obs_flags {
    BALL_OBS_GRID = 1, BALL_OBS_SCALAR_PLANES = 2
};

enum ball_obs_plane {
    BALL_OBS_PIECES = 0, BALL_OBS_BALL = 24, BALL_OBS_LOOSE_BALL = 25,
    BALL_OBS_RESTRICTED = 26, BALL_OBS_FRESH = 27, BALL_OBS_PLANES = 28
};

enum ball_obs_scalar {
    BALL_SCALAR_DEF = 0, BALL_SCALAR_RELEASE = 1, BALL_SCALAR_HANDOFF = 2,
    BALL_SCALAR_PA_AT_LEAST = 3, BALL_SCALAR_PA_BITS = 7, BALL_SCALAR_TURN_LIMIT = 14,
    BALL_SCALAR_TURNS_LEFT = 15, BALL_SCALAR_ZONE = 22, BALL_SCALAR_CARDS = 24,
    BALL_SCALAR_PE_OWN = 25, BALL_SCALAR_PE_OTHER = 35, BALL_SCALAR_HAND_OWN = 45,
    BALL_SCALAR_HAND_OTHER = 54, BALL_OBS_SCALARS = 63
};

static const int BALL_OBS_GRID_CELLS = 221;

int ball_observation_size(int flags);
int ball_observation(const ball_game *game, int flags, float *out, size_t len);
int ball_observation_bits(const ball_game *game, int flags, uint8_t *out, size_t len);
int ball_observation_mirror(int flags, const float *in, float *out, size_t len);
int ball_observation_bits_mirror(int flags, const uint8_t *in, uint8_t *out,
                                 size_t len);

enum ball_terminal {
    BALL_NOT_TERMINAL = 0, BALL_TERMINAL_TOUCHDOWN = 1, BALL_TERMINAL_TURN_LIMIT = 2,
    BALL_TERMINAL_TRUNCATED = 3
};

int ball_returns(const ball_game *game, float *returns);
typedef struct ball_batch ball_batch;

static const int BALL_BATCH_MAX = 1048576;

int ball_batch_new(ball_batch **out, int n_games, const ball_rules *rules, int obs_flags,
                   char *err, size_t errlen);
void ball_batch_free(ball_batch *batch);
int ball_batch_size(const ball_batch *batch);

enum ball_batch_output {
    BALL_OUT_OBS = 0, BALL_OUT_OBS_BITS = 1, BALL_OUT_MASK = 2, BALL_OUT_MASK_BITS = 3,
    BALL_OUT_REWARDS = 4, BALL_OUT_DONE = 5, BALL_OUT_ACTIONS = 6, BALL_OUT_SIDE = 7,
    BALL_OUT_COUNT = 8
};

int ball_batch_set_output(ball_batch *batch, int output, void *buf, size_t bytes);
int ball_batch_set_start(ball_batch *batch, const char *bpn);
int ball_batch_reset(ball_batch *batch, uint64_t seed);
int ball_batch_step(ball_batch *batch, const int32_t *indices, size_t n);
int ball_batch_position_to_text(const ball_batch *batch, int i, char *buf, size_t len);
int ball_batch_game_clone(const ball_batch *batch, int i, ball_game **out);
const char *ball_batch_errmsg(const ball_batch *batch);

int ball_apply_unchecked(ball_game *game, ball_action a);
int ball_legal_action_at(ball_game *game, int index, ball_action *out);
int ball_history_reserve(ball_game *game, size_t n);

typedef struct ball_allocator {
    size_t size;
    void *(*malloc_fn)(void *user, size_t n);
    void *(*realloc_fn)(void *user, void *ptr, size_t n);
    void (*free_fn)(void *user, void *ptr);
    void *user;
} ball_allocator;

void ball_allocator_init(ball_allocator *alloc, size_t size);
int ball_game_new_with_allocator(ball_game **out, const ball_rules *rules,
                                 const ball_allocator *alloc, char *err, size_t errlen);

#ifdef BALL_EXPERIMENTAL
int ball_apply_index(ball_game *game, int index);
int ball_random_apply(ball_game *game, uint64_t random, ball_action *out);
int ball_random_playout(ball_game *game, uint64_t seed, int max_decisions);
#endif
]]

-- Declared once per LuaJIT state, even if the module is loaded twice.
if not pcall(ffi.typeof, "struct ball_rules") then ffi.cdef((M._CDEF:gsub("\n#[^\n]*", "\n"))) end

M.START_BPN = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"

-- ------------------------------------------------------------ loading

local function file_exists(path)
    local f = io.open(path, "rb")
    if f then f:close() end
    return f ~= nil
end

local function is_dir(path)
    -- A directory opens but cannot be read on Linux.
    local f = io.open(path, "rb")
    if not f then return false end
    local ok, _, code = f:read(1)
    f:close()
    return ok == nil and code == 21 -- EISDIR
end

local function candidates()
    local list = {}
    local env = os.getenv("LIBBALL_PATH")
    if env and env ~= "" then
        list[1] = is_dir(env) and (env .. "/" .. SONAME) or env
        return list -- an explicit choice is not second-guessed
    end
    local source = debug.getinfo(1, "S").source
    local here = source:sub(1, 1) == "@" and source:sub(2):match("^(.*)/[^/]*$") or nil
    if here then list[#list + 1] = here .. "/../../build/" .. SONAME end
    if file_exists("include/ball.h") then list[#list + 1] = "./build/" .. SONAME end
    list[#list + 1] = "ball"
    list[#list + 1] = SONAME
    return list
end

local function load_library()
    local errors = {}
    for _, name in ipairs(candidates()) do
        if name:find("/", 1, true) and not file_exists(name) then
            errors[#errors + 1] = name .. ": no such file"
        else
            local ok, lib = pcall(ffi.load, name)
            if ok then return lib, name end
            errors[#errors + 1] = tostring(lib)
        end
    end
    error("ball: cannot load " .. SONAME .. " (set LIBBALL_PATH, or build it with make): "
          .. table.concat(errors, "; "), 0)
end

local C, library_path = load_library()
M.library_path = library_path
--- The FFI namespace of the loaded library (ball.C.ball_observation(...)):
--- for the calls this module does not wrap (the learning interface, the
--- allocator hooks) and for tests. Calls through it are unchecked C calls.
M.C = C
M.version_number = tonumber(C.ball_version_number())
M.version = ffi.string(C.ball_version_string())
if math.floor(M.version_number / 10000) ~= M.ABI_MAJOR then
    error(("ball: %s is libball %s; this module needs major version %d")
          :format(library_path, M.version, M.ABI_MAJOR), 0)
end

-- The numeric constants of ball.h without their BALL_ prefix: every
-- enumerator and static const of the cdef.
for name in M._CDEF:gmatch("BALL_([%w_]+)%s*=") do
    M[name] = tonumber(C["BALL_" .. name])
end

local NUM_SQUARES, MAX_ACTIONS, ACTION_TEXT_MAX, BPN_MAX, MAX_TASKS, SELECT_STEPS, NO_SQUARE =
    M.NUM_SQUARES, M.MAX_ACTIONS, M.ACTION_TEXT_MAX, M.BPN_MAX, M.MAX_TASKS, M.SELECT_STEPS,
    M.NO_SQUARE
local INT_MIN, INT_MAX, UINT_MAX = -2 ^ 31, 2 ^ 31 - 1, 2 ^ 32 - 1
local ERR_MAX = 256

local TEAM = { [0] = "ATK", "DEF" }
local TEAM_BY_NAME = { ATK = 0, DEF = 1 }
local PHASE = { [0] = "action", "release" }
local RESULT = { [0] = "ongoing", "atk_won", "def_won", "draw" }
local WINNER = { [1] = "ATK", [2] = "DEF" }
local KIND = { "move", "dodge", "tactical_dodge", "block", "protect", "handoff",
               "short_pass", "long_pass", "end", "stand_up", "unblock", "unprotect",
               "convert_pa", "play_card" } -- the last two: card mode (R10)
local KEEPER = { [0] = "none", "upper", "lower" }
local TASK = { "stand_up", "release" }
local EFFECT = { "gain_pa", "unrestrict" }
local VERB = { "-", "=", "^", "^^", "card" }
local VERB_BY_TEXT = { ["-"] = 1, ["="] = 2, ["^"] = 3, ["^^"] = 4, move = 1,
                       handoff = 2, short_pass = 3, long_pass = 4, card = 5 }
local PIECE_LETTER = { "X", "O", "S" }

-- ------------------------------------------------------------ errors

local Error = {}
Error.__index = Error
Error.__tostring = function(e)
    return ("libball: %s (%s)"):format(e.message, e.name)
end
M.Error = Error

local CLOSED = -100 -- not a library code: a closed game
local ERROR_NAME = { [M.E_ARG] = "arg", [M.E_NOMEM] = "nomem", [M.E_BPN] = "bpn",
                     [M.E_NOTATION] = "notation", [M.E_ILLEGAL] = "illegal",
                     [M.E_BUFFER] = "buffer", [M.E_RANGE] = "range",
                     [M.E_NO_HISTORY] = "no_history", [M.E_RULES] = "rules",
                     [M.E_LIMIT] = "limit", [M.E_RECORD] = "record", [CLOSED] = "closed" }
--- The error name of each library code (ball.error_names[ball.E_RULES] == "rules").
M.error_names = ERROR_NAME

local function raise(code, message, level)
    if message == nil or message == "" then
        message = ffi.string(C.ball_strerror(code))
    end
    error(setmetatable({ code = code, name = ERROR_NAME[code] or "error",
                         message = message }, Error), (level or 1) + 1)
end

--- True if v is an error raised by this module (optionally of one name).
function M.is_error(v, name)
    return getmetatable(v) == Error and (name == nil or v.name == name)
end

-- ------------------------------------------------------------ arguments

-- v as an integer of the C type [lo, hi] (default: int): an "arg" error
-- for a non-number, NaN or a fraction, a "range" error out of range.
local function int_arg(v, what, level, lo, hi)
    level = (level or 1) + 1
    if type(v) ~= "number" then
        raise(M.E_ARG, what .. " is an integer, not a " .. type(v), level)
    end
    if v ~= v or (v ~= math.floor(v) and v > -math.huge and v < math.huge) then
        raise(M.E_ARG, what .. " is an integer, not " .. tostring(v), level)
    end
    lo, hi = lo or INT_MIN, hi or INT_MAX
    if v < lo or v > hi then
        raise(M.E_RANGE, ("%s %s out of range (%d to %d)"):format(what, tostring(v), lo, hi), level)
    end
    return v
end

-- s as a C string: a string without NUL (an error named by `code`).
local function text_arg(s, what, code, level)
    level = (level or 1) + 1
    if type(s) ~= "string" then raise(M.E_ARG, what .. " is a string", level) end
    local nul = s:find("\0", 1, true)
    if nul then raise(code, what .. " contains a NUL character at byte " .. nul, level) end
    return s
end

local function team_arg(t, level)
    level = (level or 1) + 1
    if type(t) == "string" then
        local v = TEAM_BY_NAME[t:upper()]
        if not v then raise(M.E_ARG, "a team is ATK or DEF, not " .. t, level) end
        return v
    end
    t = int_arg(t, "team", level)
    if t ~= 0 and t ~= 1 then raise(M.E_ARG, "a team is 0 (ATK) or 1 (DEF)", level) end
    return t
end

-- ------------------------------------------------------------ squares

local SQUARES, INDEX = {}, {}
do
    local buf = ffi.new("char[?]", M.SQUARE_TEXT_MAX)
    for i = 0, NUM_SQUARES - 1 do
        C.ball_square_to_text(i, buf, M.SQUARE_TEXT_MAX)
        local name = ffi.string(buf)
        SQUARES[i] = name
        INDEX[name] = i
    end
end

--- Names of the 111 playable squares, 1-based array in index order.
M.squares = {}
for i = 0, NUM_SQUARES - 1 do M.squares[i + 1] = SQUARES[i] end

--- The 0-based index of a square given by name or index.
function M.square_index(sq, level)
    local i
    if type(sq) == "string" then
        i = INDEX[sq]
        if not i then raise(M.E_NOTATION, "not a playable square: " .. sq, (level or 1) + 1) end
    elseif type(sq) == "number" then
        if sq ~= math.floor(sq) or sq < 0 or sq >= NUM_SQUARES then
            raise(M.E_RANGE, "no square " .. sq .. " (0-110)", (level or 1) + 1)
        end
        i = sq
    else
        raise(M.E_ARG, "a square is a name or an index, not a " .. type(sq), (level or 1) + 1)
    end
    return i
end
local square_index = M.square_index

function M.square_name(sq) return SQUARES[square_index(sq, 2)] end
function M.square_col(sq) return C.ball_square_col(square_index(sq, 2)) end
function M.square_row(sq) return C.ball_square_row(square_index(sq, 2)) end
function M.distance(a, b)
    return C.ball_square_distance(square_index(a, 2), square_index(b, 2))
end
function M.square_at(col, row)
    local i = C.ball_square_at(int_arg(col, "column", 2), int_arg(row, "row", 2))
    if i < 0 then raise(i, ("no playable square at column %d, row %d"):format(col, row), 2) end
    return SQUARES[i]
end

-- The name of square i, nil for BALL_NO_SQUARE; raises for an error code.
local function name_or_nil(i, level)
    if i == NO_SQUARE then return nil end
    if i < 0 then raise(i, nil, (level or 1) + 1) end
    return SQUARES[i]
end

-- rc of a call without a game, or its error.
local function ok(rc, level)
    if rc < 0 then raise(rc, nil, (level or 1) + 1) end
    return rc
end

-- ------------------------------------------------------------ actions

-- Actions are interned: one table per code, so that == and table keys work.
local Action = {}
local action_cache = setmetatable({}, { __mode = "v" })
local text_buf = ffi.new("char[?]", ACTION_TEXT_MAX)

local action_fields = {
    kind = function(a) return KIND[ok(C.ball_action_kind(a.code), 3)] end,
    from = function(a) return name_or_nil(C.ball_action_from(a.code), 3) end,
    to = function(a) return name_or_nil(C.ball_action_to(a.code), 3) end,
    option = function(a) return name_or_nil(C.ball_action_option(a.code), 3) end,
    keeper = function(a) return KEEPER[ok(C.ball_action_keeper(a.code), 3)] end,
    flags = function(a) return ok(C.ball_action_flags(a.code), 3) end,
    cost = function(a) return ok(C.ball_action_cost(a.code), 3) end,
    pickup = function(a) return bit.band(ok(C.ball_action_flags(a.code), 3), M.FLAG_PICKUP) ~= 0 end,
    is_conversion = function(a) return C.ball_action_kind(a.code) == M.CONVERT_PA end,
    is_card_play = function(a) return C.ball_action_kind(a.code) == M.PLAY_CARD end,
    -- k of `pe+k`, the 0-based hand index of a card play, nil otherwise
    -- (added with libball 1.0).
    value = function(a)
        local v = C.ball_action_value(a.code)
        if v == M.E_ARG then return nil end
        return ok(v, 3)
    end,
}
Action.__index = function(a, key)
    local f = action_fields[key]
    if f then return f(a) end
    return nil
end
Action.__newindex = function() error("ball: actions are immutable", 2) end
Action.__tostring = function(a) return a.text end
Action.__concat = function(x, y) return tostring(x) .. tostring(y) end

--- The action with library code `code` (a number from legal_actions etc.).
function M.action(code, level)
    code = tonumber(code)
    local a = code and action_cache[code]
    if a then return a end
    if not code or code <= 0 or code >= 2 ^ 32 or code ~= math.floor(code)
        or C.ball_action_to_text(code, text_buf, ACTION_TEXT_MAX) < 0 then
        raise(M.E_ARG, "not an action code: " .. tostring(code), (level or 1) + 1)
    end
    a = setmetatable({}, Action)
    rawset(a, "code", code)
    rawset(a, "text", ffi.string(text_buf))
    action_cache[code] = a
    return a
end

--- True if v is an action object.
function M.is_action(v) return getmetatable(v) == Action end

-- ------------------------------------------------------------ games

local Game = {}
Game.__index = Game
M.Game = Game

-- Bits of piece codes and square states (enum ball_piece_bits, ball_square_bits).
local PIECE_TYPE_MASK, PIECE_DEF, PIECE_DOWN, PIECE_RESTRICTED, PIECE_BALL, PIECE_STACKED =
    M.PIECE_TYPE_MASK, M.PIECE_DEF, M.PIECE_DOWN, M.PIECE_RESTRICTED, M.PIECE_BALL,
    M.PIECE_STACKED
local SQ_PIECE, SQ_STACK, SQ_FRESH, SQ_LOOSE_BALL = M.SQ_PIECE, M.SQ_STACK, M.SQ_FRESH,
    M.SQ_LOOSE_BALL

-- A piece code (ball_piece) as a table, nil for 0.
local function piece(code)
    if code <= 0 then return nil end
    local letter = PIECE_LETTER[bit.band(code, PIECE_TYPE_MASK)]
    local p = {
        team = bit.band(code, PIECE_DEF) ~= 0 and "DEF" or "ATK",
        type = letter,
        down = bit.band(code, PIECE_DOWN) ~= 0,
        restricted = bit.band(code, PIECE_RESTRICTED) ~= 0,
        ball = bit.band(code, PIECE_BALL) ~= 0,
        stacked = bit.band(code, PIECE_STACKED) ~= 0,
    }
    p.active = not p.down and not p.stacked
    p.text = (p.team == "DEF" and letter:lower() or letter) .. (p.ball and "*" or "")
             .. (p.down and "_" or "") .. (p.restricted and "!" or "")
    return p
end

local code_of -- an action argument as a code (defined with Game:apply)

local function wrap(ptr)
    local g = setmetatable({}, Game)
    g.ptr = ffi.gc(ptr, C.ball_game_free)
    g.acts = ffi.new("ball_action[?]", MAX_ACTIONS)
    return g
end

-- The struct ball_rules declared above is the whole 1.0 layout (the
-- library accepts only published sizes): the rules text first
-- (opts.rules_text, read by ball_rules_from_text()), then the explicit
-- options. Returns the rules and the card set to free once the game
-- exists (or nil).
local EARN_WORDS = { "move", "pickup", "dodge", "fumble", "tactical", "block", "protect",
                     "handoff", "short", "long", "standup", "unblock", "unprotect" }
local EARN_BY_WORD = {}
for i, w in ipairs(EARN_WORDS) do EARN_BY_WORD[w] = i - 1 end
M.earn_words = EARN_WORDS
local EFFECT_BY_NAME = { gain_pa = 1, unrestrict = 2 }

-- A new card set from opts.earn and opts.cards (the caller frees it).
local function make_cardset(opts, level)
    level = level + 1
    local out = ffi.new("ball_cardset*[1]")
    local rc = C.ball_cardset_new(out)
    if rc < 0 then raise(rc, "cannot create a card set", level) end
    local cs = out[0]
    local good, err = pcall(function()
        if opts.earn ~= nil and type(opts.earn) ~= "table" then
            raise(M.E_ARG, "earn is a table {word = PE}", level + 2)
        end
        for word, pe in pairs(opts.earn or {}) do
            local entry = EARN_BY_WORD[word]
            if not entry then
                raise(M.E_ARG, "not an earning entry: " .. tostring(word) .. " (one of "
                      .. table.concat(EARN_WORDS, " ") .. ")", level + 2)
            end
            local r = C.ball_cardset_set_earn(cs, entry, int_arg(pe, "earn." .. word, level + 2))
            if r < 0 then raise(r, ("earn.%s=%s: a PE is 0 to %d"):format(word, tostring(pe),
                                                                          M.MAX_CARD_PE), level + 2) end
        end
        if opts.cards ~= nil and type(opts.cards) ~= "table" then
            raise(M.E_ARG, "cards is a table {ATK = {card, ...}, DEF = {...}}", level + 2)
        end
        for team, deck in pairs(opts.cards or {}) do
            local t = team_arg(team, level + 2)
            for _, card in ipairs(deck) do
                if type(card) ~= "table" then raise(M.E_ARG, "a card is a table", level + 2) end
                local name, cost, effect, amount = card[1] or card.name, card[2] or card.cost,
                    card[3] or card.effect, card[4] or card.amount
                if type(effect) == "string" then
                    local n = effect:match("^pa%+(%d+)$")
                    if n and amount == nil then effect, amount = 1, tonumber(n)
                    elseif effect == "again" and amount == nil then effect, amount = 2, 0
                    elseif EFFECT_BY_NAME[effect] then effect = EFFECT_BY_NAME[effect]
                    else raise(M.E_ARG, "not a card effect: " .. effect, level + 2) end
                end
                text_arg(name, "a card name", M.E_ARG, level + 2)
                local r = C.ball_cardset_add_card(cs, t, name, int_arg(cost, "card cost", level + 2),
                                                  int_arg(effect, "card effect", level + 2),
                                                  int_arg(amount or 0, "card amount", level + 2))
                if r < 0 then
                    raise(r, ("card %s of %s: a hand holds at most %d cards named with 1-%d "
                              .. "letters, digits, _ or -, costing 0-%d PE, with a valid effect "
                              .. "and amount"):format(tostring(name), TEAM[t], M.MAX_HAND,
                                                     M.CARD_NAME_MAX - 1, M.MAX_CARD_PE), level + 2)
                end
            end
        end
    end)
    if not good then C.ball_cardset_free(cs); error(err, 0) end
    return cs
end

local function make_rules(opts, level)
    level = (level or 1) + 1
    local rules = ffi.new("ball_rules")
    C.ball_rules_init(rules, ffi.sizeof("ball_rules"))
    local depth, limit, cards
    if opts then
        if opts.end_zone_depth ~= nil then
            depth = int_arg(opts.end_zone_depth, "end_zone_depth", level)
        end
        if opts.turn_limit ~= nil then
            limit = int_arg(opts.turn_limit, "turn_limit", level, 0, UINT_MAX)
        end
        if opts.rules_text ~= nil then
            local text = text_arg(opts.rules_text, "rules_text", M.E_RULES, level)
            local out = ffi.new("ball_cardset*[1]")
            local err = ffi.new("char[?]", ERR_MAX)
            local rc = C.ball_rules_from_text(rules, out, text, err, ERR_MAX)
            if rc < 0 then raise(rc, ffi.string(err), level) end
            if out[0] ~= nil then cards = out[0] end
        end
        if opts.earn ~= nil or opts.cards ~= nil then
            if cards then
                C.ball_cardset_free(cards)
                raise(M.E_ARG, "the card ruleset is given twice: by rules_text and by earn / cards",
                      level)
            end
            cards = make_cardset(opts, level)
            rules.cards = cards
        end
    end
    if depth then rules.end_zone_depth = depth end
    if limit then rules.turn_limit = limit end
    return rules, cards
end

--- A new game: the standard start, or opts.bpn; opts.end_zone_depth (1-3),
--- opts.turn_limit (0 = none) and opts.rules_text (a whole ruleset as text,
--- card mode included; the two other options override its values) set the
--- ruleset.
function M.new(opts)
    if opts ~= nil and type(opts) ~= "table" then
        raise(M.E_ARG, "ball.new takes a table of options", 2)
    end
    local rules, cards = make_rules(opts, 2)
    local out = ffi.new("ball_game*[1]")
    local err = ffi.new("char[?]", ERR_MAX)
    local rc = C.ball_game_new(out, rules, err, ERR_MAX)
    if cards then C.ball_cardset_free(cards) end -- the game has its own copy
    if rc < 0 then raise(rc, ffi.string(err), 2) end
    local g = wrap(out[0])
    if opts and opts.bpn then
        local good, e = pcall(g.set_bpn, g, opts.bpn)
        if not good then g:close(); error(e, 2) end
    end
    return g
end

--- A game starting from a BPN position (N1).
function M.from_bpn(text, opts)
    local o = { bpn = text }
    for k, v in pairs(opts or {}) do o[k] = v end
    return M.new(o)
end

-- The pointer, or an error once the game is closed.
local function P(g)
    local p = g.ptr
    if p == nil then raise(CLOSED, "the game is closed", 3) end
    return p
end

-- Raises the game's error message for a negative rc; returns rc otherwise.
local function check(g, rc)
    if rc < 0 then raise(rc, ffi.string(C.ball_errmsg(g.ptr)), 3) end
    return rc
end

--- Frees the C game now (closing twice is harmless).
function Game:close()
    local p = self.ptr
    if p ~= nil then
        self.ptr = nil
        ffi.gc(p, nil)
        C.ball_game_free(p)
    end
end

function Game:is_closed() return self.ptr == nil end

--- An independent copy: position, ruleset and undo history.
function Game:clone()
    local out = ffi.new("ball_game*[1]")
    local rc = C.ball_game_clone(out, P(self))
    if rc < 0 then raise(rc, nil, 2) end
    return wrap(out[0])
end

local function read_rules(g)
    local r = ffi.new("ball_rules")
    C.ball_rules_init(r, ffi.sizeof("ball_rules"))
    check(g, C.ball_game_rules(P(g), r))
    return r
end

function Game:rules()
    local r = read_rules(self)
    return { end_zone_depth = r.end_zone_depth, turn_limit = tonumber(r.turn_limit) }
end

local rules_buf = ffi.new("char[?]", M.RULES_TEXT_MAX)

--- The whole ruleset as text ("" for the defaults), as ball.new{rules_text
--- = ...} reads it (added with libball 1.0).
function Game:rules_text()
    ok(C.ball_rules_to_text(read_rules(self), rules_buf, M.RULES_TEXT_MAX), 2)
    return ffi.string(rules_buf)
end

local bpn_buf = ffi.new("char[?]", BPN_MAX)

--- The position as BPN text (N1).
function Game:bpn()
    check(self, C.ball_position_to_text(P(self), bpn_buf, BPN_MAX))
    return ffi.string(bpn_buf)
end

--- Replaces the position (and clears the undo history); raises a "bpn"
--- error saying what is wrong and where (also for a text with a NUL),
--- leaving the game unchanged.
function Game:set_bpn(text)
    if type(text) ~= "string" then raise(M.E_ARG, "a BPN is a string", 2) end
    text_arg(text, "the BPN", M.E_BPN, 2)
    check(self, C.ball_position_from_text(P(self), text))
end

function Game:side() return TEAM[check(self, C.ball_side(P(self)))] end
function Game:phase() return PHASE[check(self, C.ball_phase(P(self)))] end
function Game:pa() return check(self, C.ball_pa(P(self))) end
function Game:handoff_last() return check(self, C.ball_handoff_last(P(self))) == 1 end
function Game:turn() return check(self, C.ball_turn(P(self))) end
function Game:result() return RESULT[check(self, C.ball_result(P(self)))] end
function Game:is_over() return check(self, C.ball_result(P(self))) ~= M.ONGOING end
function Game:winner() return WINNER[check(self, C.ball_result(P(self)))] end
function Game:history_length() return check(self, C.ball_history_length(P(self))) end

--- Card mode: the PE of a team ("ATK", "DEF", 0 or 1); 0 outside card mode.
function Game:pe(team) return check(self, C.ball_pe(P(self), team_arg(team, 2))) end

--- Card mode: the cards still in a team's hand as a bit mask (bit i:
--- cards(team)[i + 1] can still be played); 0 outside card mode.
function Game:hand(team) return check(self, C.ball_hand(P(self), team_arg(team, 2))) end

--- Card mode: a team's whole hand as dealt, in hand order, as tables
--- {name, cost, effect ("gain_pa" / "unrestrict"), amount}; {} outside
--- card mode (added with libball 1.0).
function Game:cards(team)
    local t = team_arg(team, 2)
    local r = read_rules(self)
    local list = {}
    if r.cards == nil then return list end
    for i = 0, ok(C.ball_cardset_hand_size(r.cards, t), 2) - 1 do
        list[i + 1] = {
            name = ffi.string(C.ball_cardset_card_name(r.cards, t, i)),
            cost = ok(C.ball_cardset_card_value(r.cards, t, i, M.CARD_COST), 2),
            effect = EFFECT[ok(C.ball_cardset_card_value(r.cards, t, i, M.CARD_EFFECT), 2)],
            amount = ok(C.ball_cardset_card_value(r.cards, t, i, M.CARD_AMOUNT), 2),
        }
    end
    return list
end

--- Card mode: the cards a team still holds, in hand order, each with its
--- 0-based hand index as field index.
function Game:hand_cards(team)
    local mask = self:hand(team)
    local list = {}
    for i, c in ipairs(self:cards(team)) do
        if bit.band(mask, bit.lshift(1, i - 1)) ~= 0 then
            c.index = i - 1
            list[#list + 1] = c
        end
    end
    return list
end

--- True if the ruleset has card mode on (R10).
function Game:card_mode() return read_rules(self).cards ~= nil end

--- Card mode: the earning table {word = PE} for every entry (words as in
--- the rules text, ball.earn_words); {} outside card mode.
function Game:earnings()
    local r = read_rules(self)
    local t = {}
    if r.cards == nil then return t end
    for i, w in ipairs(EARN_WORDS) do t[w] = ok(C.ball_cardset_earn(r.cards, i - 1), 2) end
    return t
end

--- The piece on a square as a table {team, type, down, restricted, ball,
--- stacked, active, text}, or nil. level: "upper" (default) or "lower".
function Game:piece_at(sq, level)
    local lv = (level == nil or level == "upper") and M.UPPER or (level == "lower" and M.LOWER)
    if not lv then raise(M.E_ARG, "level is 'upper' or 'lower'", 2) end
    return piece(check(self, C.ball_piece(P(self), square_index(sq, 2), lv)))
end

--- The contents of a square: {name, upper, lower, loose_ball, fresh,
--- stack, open, vacant, text} (upper/lower are pieces or nil).
function Game:square(sq)
    local i = square_index(sq, 2)
    local p = P(self)
    local st = check(self, C.ball_square_state(p, i))
    local s = { name = SQUARES[i], loose_ball = bit.band(st, SQ_LOOSE_BALL) ~= 0,
                fresh = bit.band(st, SQ_FRESH) ~= 0, stack = bit.band(st, SQ_STACK) ~= 0 }
    if bit.band(st, SQ_PIECE) ~= 0 then
        s.upper = piece(check(self, C.ball_piece(p, i, M.UPPER)))
        if s.stack then s.lower = piece(check(self, C.ball_piece(p, i, M.LOWER))) end
    end
    s.open = s.upper == nil
    s.vacant = s.open and not s.loose_ball
    if s.upper then
        s.text = s.upper.text .. (s.lower and s.lower.text or "") .. (s.fresh and "+" or "")
    else
        s.text = s.loose_ball and "@" or "."
    end
    return s
end

--- The square of the ball, loose or held.
function Game:ball_square() return SQUARES[check(self, C.ball_square_of_ball(P(self)))] end

--- The square of the restricted piece of the side to act, or nil.
function Game:restricted_square()
    local rc = C.ball_restricted_square(P(self))
    if rc == NO_SQUARE then return nil end
    return SQUARES[check(self, rc)]
end

-- Squares (a list of names or indices, or one square) as a C int array
-- and its length, for the drawing calls.
local function squares_arg(list, level)
    level = (level or 1) + 1
    if list == nil then return nil, 0 end
    if type(list) ~= "table" then list = { list } end
    local arr = ffi.new("int[?]", math.max(#list, 1))
    for i, sq in ipairs(list) do arr[i - 1] = square_index(sq, level) end
    return arr, #list
end

-- The text written by a ball_position_to_board_text()-like call fn(game,
-- ..., buf, len): sized by a first call without a buffer.
local function draw(g, fn, ...)
    local p = P(g)
    local n = check(g, fn(p, ...))
    local args = { ... }
    local nargs = select("#", ...)
    local buf = ffi.new("char[?]", n + 1)
    args[nargs - 1], args[nargs] = buf, n + 1
    check(g, fn(p, unpack(args, 1, nargs)))
    return ffi.string(buf, n)
end

--- The board as text, row 17 at the top: the diagram of `ball show` and the
--- examples, drawn by the library (ball_position_to_board_text()), each
--- line ending with a newline. opts.highlight (a list of squares, or one)
--- puts a `>` before those squares; opts.legend adds two lines explaining
--- the letters.
function Game:diagram(opts)
    opts = opts or {}
    local sq, n = squares_arg(opts.highlight, 2)
    return draw(self, C.ball_position_to_board_text, sq, n, opts.legend and M.DRAW_LEGEND or 0,
                nil, 0)
end

--- The position as an SVG 1.1 picture (ball_position_to_svg(), the drawing
--- of `ball svg`): opts.highlight (a list of squares, or one) outlines
--- squares, opts.action (an action, its N2 text, which must be legal here,
--- or its code) draws an arrow, opts.coords = false leaves out the column
--- letters and row numbers. Each piece is a <g class="piece atk x ball"
--- data-square="G5">.
function Game:svg(opts)
    opts = opts or {}
    local sq, n = squares_arg(opts.highlight, 2)
    local code = opts.action ~= nil and code_of(self, opts.action) or M.ACTION_NONE
    return draw(self, C.ball_position_to_svg, sq, n, code,
                opts.coords == false and M.DRAW_NO_COORDS or 0, nil, 0)
end

--- g1 == g2: the same position (BPN) under the same ruleset.
Game.__eq = function(a, b)
    if a.ptr == nil or b.ptr == nil then return rawequal(a, b) end
    return a:bpn() == b:bpn() and a:rules_text() == b:rules_text()
end

--- tostring(g): the board diagram (g:diagram()) without its last newline.
Game.__tostring = function(g)
    if g.ptr == nil then return "ball.Game(closed)" end
    return (g:diagram():sub(1, -2))
end

local function action_list(g, n)
    local list = {}
    for i = 0, n - 1 do list[i + 1] = M.action(g.acts[i]) end
    return list
end

--- The legal decisions, in the library's fixed order ({} once the game is
--- over).
function Game:legal_actions()
    return action_list(self, check(self, C.ball_legal_actions(P(self), self.acts, MAX_ACTIONS)))
end

--- The number of legal decisions, counted without listing them.
function Game:count_legal_actions()
    return check(self, C.ball_legal_actions(P(self), nil, 0))
end

local one_out = ffi.new("ball_action[1]")

--- legal_actions()[i] (1 <= i <= count_legal_actions()), found without
--- listing the others: with math.random(n) it picks a uniform random
--- decision cheaply.
function Game:legal_action(i)
    int_arg(i, "an action index", 2, -math.huge, math.huge)
    if i < 1 or i > INT_MAX then raise(M.E_RANGE, "action index " .. tostring(i) .. " out of range", 2) end
    check(self, C.ball_legal_action_at(P(self), i - 1, one_out))
    return M.action(one_out[0])
end

-- r for ball_random_action() (docs/bindings.md, "random_action(r)"): the
-- forms that can carry every one of the 2^64 values, and nothing else, since
-- a uniform r from a smaller range draws from part of the legal list only.
local U64_MAX_TEXT = "18446744073709551615"
local R_FORMS = "r is a uint64_t or int64_t cdata, a string of decimal digits up to " .. U64_MAX_TEXT
    .. " or a number in [0, 1) (math.random()), scaled by 2^64"
local function random_arg(r)
    if type(r) == "cdata" then
        if ffi.istype("uint64_t", r) then return r end
        if ffi.istype("int64_t", r) then return ffi.cast("uint64_t", r) end -- its 64 bits
    elseif type(r) == "number" then
        if r >= 0 and r < 1 then return ffi.cast("uint64_t", r * 2 ^ 64) end -- exact: r has 53 bits
        raise(M.E_ARG, R_FORMS .. " (a number of 1 or more would reach a part of the range only)", 3)
    elseif type(r) == "string" then
        if r:match("^%d+$") and (#r < 20 or (#r == 20 and r <= U64_MAX_TEXT)) then
            local v = ffi.new("uint64_t", 0)
            for i = 1, #r do v = v * 10 + (r:byte(i) - 48) end
            return v
        end
        if r:match("^%d+$") then raise(M.E_ARG, R_FORMS .. " ('" .. r .. "' is 2^64 or more)", 3) end
    end
    raise(M.E_ARG, R_FORMS, 3)
end

--- A legal decision drawn with the 64-bit number `r`: the decision
--- numbered floor(r * n / 2^64) of the n legal ones (ball_random_action()),
--- so a uniform `r` over 0 .. 2^64 - 1 draws a uniform decision, the
--- cheapest way to play random playouts. `r` is a uint64_t cdata, an
--- int64_t cdata (its 64 bits, two's complement: -1 is 2^64 - 1), a string
--- of decimal digits (0 to 18446744073709551615), or a number x in [0, 1),
--- read as floor(x * 2^64) (math.random() is uniform there); default: 64
--- bits drawn with math.random. Other numbers raise "arg": a number cannot
--- hold 64 bits, and a uniform one from 0 .. 2^53 would only reach the
--- first 2^53 / 2^64 of the range.
function Game:random_action(r)
    if r == nil then
        -- (no ULL literals: this file must parse under PUC Lua too, see the top)
        r = ffi.cast("uint64_t", math.random(0, 0xffff)) * ffi.cast("uint64_t", 2 ^ 48)
            + ffi.cast("uint64_t", math.random(0, 0xffffff)) * ffi.cast("uint64_t", 2 ^ 24)
            + math.random(0, 0xffffff)
    else
        r = random_arg(r)
    end
    check(self, C.ball_random_action(P(self), r, one_out))
    return M.action(one_out[0])
end

--- Plays legal_actions()[i] (1 <= i <= count_legal_actions()) in one C
--- call, without the legality check of apply(): the library finds and
--- plays its own decision (ball_apply_index(), experimental). A "range"
--- error (game unchanged) for an index out of range, the game over
--- included. Returns nothing: peek() gives the decision played.
function Game:apply_index(i)
    int_arg(i, "an action index", 2, -math.huge, math.huge)
    if i < 1 or i > INT_MAX then raise(M.E_RANGE, "action index " .. tostring(i) .. " out of range", 2) end
    check(self, C.ball_apply_index(P(self), i - 1))
end

local function default_random()
    return ffi.cast("uint64_t", math.random(0, 0xffff)) * ffi.cast("uint64_t", 2 ^ 48)
        + ffi.cast("uint64_t", math.random(0, 0xffffff)) * ffi.cast("uint64_t", 2 ^ 24)
        + math.random(0, 0xffffff)
end

--- Plays the decision random_action(r) draws, in one C call and without
--- the legality check of apply() (ball_random_apply(), experimental), and
--- returns it. `r` as for random_action() (default: 64 random bits). A
--- "range" error (game unchanged) when there is no legal decision.
function Game:random_apply(r)
    r = r == nil and default_random() or random_arg(r)
    check(self, C.ball_random_apply(P(self), r, one_out))
    return M.action(one_out[0])
end

--- Plays random decisions until the game ends or `max` (default: no limit)
--- have been played, in one C call (ball_random_playout(), experimental),
--- and returns how many it played (0 when the game is already over).
--- Decision k is the one random_action() draws with output k of a
--- splitmix64 generator started at `seed` (the forms of random_action()'s
--- r; default: 64 random bits), so a seed repeats its playout. Each
--- decision is one history entry: undo() as many times as the count
--- returned takes it back. A "range" error for a negative `max`.
function Game:random_playout(seed, max)
    seed = seed == nil and default_random() or random_arg(seed)
    if max == nil then max = INT_MAX else int_arg(max, "max", 2) end
    return check(self, C.ball_random_playout(P(self), seed, max))
end

local parse_out = ffi.new("ball_action[1]")

--- The action written `text` (N2) in this position; a "notation" error
--- for a malformed text (one with a NUL included), "illegal" when no legal
--- action has it.
function Game:parse_action(text)
    if type(text) ~= "string" then raise(M.E_ARG, "an action text is a string", 2) end
    text_arg(text, "the action text", M.E_NOTATION, 2)
    check(self, C.ball_action_from_text(P(self), text, parse_out))
    return M.action(parse_out[0])
end

function code_of(g, a)
    if M.is_action(a) then return a.code end
    if type(a) == "string" then return g:parse_action(a).code end
    if type(a) == "number" and a > 0 and a < 2 ^ 32 and a == math.floor(a) then return a end
    raise(M.E_ARG, "not an action: " .. tostring(a), 3)
end

--- A 64-bit hash of the position as a uint64_t cdata (equal positions,
--- equal hashes; the turn number is not part of it); usable as a table key
--- after tostring().
function Game:hash()
    return C.ball_hash(P(self))
end

--- True if the action (object, text or code) is legal here.
function Game:is_legal(a)
    local good, code = pcall(code_of, self, a)
    if not good then return false end
    return check(self, C.ball_is_legal(P(self), code)) == 1
end

--- Plays a decision (an action object, its N2 text or its code) and
--- returns it as an action object; raises an "illegal" error (game
--- unchanged) when it is not legal, a "limit" error when the turn would
--- pass ball.MAX_TURN.
function Game:apply(a)
    local code = code_of(self, a)
    check(self, C.ball_apply(P(self), code))
    return M.action(code)
end

--- Takes back the last decision; raises a "no_history" error if none.
function Game:undo() check(self, C.ball_undo(P(self))) end

--- apply() under python-chess's name.
function Game:push(a) return self:apply(a) end

local hist_out = ffi.new("ball_action[1]")

--- Decision i (1 = the oldest) of the history, read from the library
--- (ball_history_action()); a "range" error when there is none.
function Game:history_action(i)
    int_arg(i, "a history index", 2)
    check(self, C.ball_history_action(P(self), i - 1, hist_out))
    return M.action(hist_out[0])
end

--- The last decision played (the one pop() takes back), or nil.
function Game:peek()
    local n = check(self, C.ball_history_length(P(self)))
    if n == 0 then return nil end
    check(self, C.ball_history_action(P(self), n - 1, hist_out))
    return M.action(hist_out[0])
end

--- Takes back the last decision and returns it; a "no_history" error if
--- there is none.
function Game:pop()
    local last = self:peek()
    check(self, C.ball_undo(P(self)))
    return last
end

--- The decisions undo() can take back, oldest first, as a list of actions
--- read from the library's history (cleared by set_bpn(), kept by clone()
--- and by the game record).
function Game:history()
    local p = P(self)
    local list = {}
    for i = 0, check(self, C.ball_history_length(p)) - 1 do
        check(self, C.ball_history_action(p, i, hist_out))
        list[i + 1] = M.action(hist_out[0])
    end
    return list
end
Game.move_stack = Game.history

--- The BPN of the position decision i (1 = the oldest) of the history was
--- played from; history_length() + 1 is the current position.
function Game:history_position(i)
    int_arg(i, "a history index", 2)
    check(self, C.ball_history_position(P(self), i - 1, bpn_buf, BPN_MAX))
    return ffi.string(bpn_buf)
end

-- The tags of a game record (docs/records.md), in the order of enum ball_tag.
local TAGS = { "Event", "Site", "Date", "ATK", "DEF" }
local TAG_INDEX = {}
for i, name in ipairs(TAGS) do TAG_INDEX[name:lower()] = i - 1 end
M.TAGS = TAGS

local function tag_arg(name, level)
    local t = type(name) == "string" and TAG_INDEX[name:lower()]
    if not t then
        raise(M.E_ARG, "a record tag is one of Event, Site, Date, ATK, DEF, not "
              .. tostring(name), level + 1)
    end
    return t
end

local tag_buf = ffi.new("char[?]", M.TAG_TEXT_MAX)

--- The record's tags as {Event = ..., Site = ..., Date = ..., ATK = ...,
--- DEF = ...} ("" when unset).
function Game:tags()
    local p = P(self)
    local t = {}
    for i, name in ipairs(TAGS) do
        check(self, C.ball_game_tag(p, i - 1, tag_buf, M.TAG_TEXT_MAX))
        t[name] = ffi.string(tag_buf)
    end
    return t
end

--- Sets the record tag `name` (Event, Site, Date, ATK, DEF, any case) to
--- `value` (at most 127 bytes without control characters; "" or nil clears
--- it): a "range" error otherwise.
function Game:set_tag(name, value)
    local t = tag_arg(name, 2)
    if value ~= nil then text_arg(value, "a tag value", M.E_RANGE, 2) end
    check(self, C.ball_game_set_tag(P(self), t, value))
end

--- The game record (docs/records.md; ball_record_write()): tags, ruleset,
--- start when not the standard one, the decisions one turn per line, the
--- result. `tags` ({event = ..., ATK = ..., ...}, any case; false or ""
--- leaves one out) are used for this record only: the game's own tags are
--- unchanged. ball.from_record() reads it back.
function Game:record(tags)
    if tags ~= nil and type(tags) ~= "table" then raise(M.E_ARG, "tags is a table", 2) end
    if not tags or next(tags) == nil then
        return draw(self, C.ball_record_write, nil, 0)
    end
    local saved = self:tags()
    local good, result = pcall(function()
        for name, value in pairs(tags) do self:set_tag(name, value or nil) end
        return draw(self, C.ball_record_write, nil, 0)
    end)
    for i, name in ipairs(TAGS) do C.ball_game_set_tag(self.ptr, i - 1, saved[name]) end
    if not good then error(result, 2) end
    return result
end

local record_err = ffi.new("char[?]", ERR_MAX)

-- A "record" error for a failed ball_record_read(): code is the library's
-- (E_RECORD, E_RULES, E_BPN, E_NOTATION, E_ILLEGAL, E_LIMIT), line and
-- column where it is (or nil).
local RECORD_CODES = { [M.E_RECORD] = true, [M.E_RULES] = true, [M.E_BPN] = true,
                       [M.E_NOTATION] = true, [M.E_ILLEGAL] = true, [M.E_LIMIT] = true }
local function record_error(rc, message, level)
    if not RECORD_CODES[rc] then raise(rc, message, level + 1) end
    local line, column = message:match("line (%d+), column (%d+)")
    error(setmetatable({ code = rc, name = "record", message = message,
                         line = tonumber(line), column = tonumber(column) }, Error), level + 1)
end

--- An iterator over the games of a text of game records (docs/records.md),
--- each with its ruleset, start, tags and history:
---   for g in ball.read_records(text) do ... end
--- A malformed record raises a "record" error (message "line 7, column
--- 12: ...", fields line and column; code is the library's code of the
--- check that failed) when the loop reaches it.
function M.read_records(text)
    text_arg(text, "the record text", M.E_RECORD, 2)
    local len = #text
    local offset = ffi.new("size_t[1]", 0)
    local out = ffi.new("ball_game*[1]")
    return function()
        local rc = C.ball_record_read(out, text, len, offset, record_err, ERR_MAX)
        if rc < 0 then record_error(rc, ffi.string(record_err), 2) end
        if rc == 0 then return nil end
        return wrap(out[0])
    end
end

--- The game of a text holding one game record; a "record" error for a
--- malformed record, for no record or more than one.
function M.from_record(text)
    local next_game = M.read_records(text)
    local g = next_game()
    if not g then record_error(M.E_RECORD, "line 1, column 1: no game record in the text", 2) end
    local good, extra = pcall(next_game)
    if not good then g:close(); error(extra, 2) end
    if extra then
        extra:close(); g:close()
        record_error(M.E_RECORD, "the text holds more than one game record "
                     .. "(ball.read_records() reads them all)", 2)
    end
    return g
end

local function filter_kind(g, kind)
    local list = {}
    for _, a in ipairs(g:legal_actions()) do
        if C.ball_action_kind(a.code) == kind then list[#list + 1] = a end
    end
    return list
end

--- Card mode: the legal conversions `pe+k` (R10.2), k ascending.
function Game:conversions() return filter_kind(self, M.CONVERT_PA) end

--- Card mode: the legal card plays (R10.4).
function Game:card_plays() return filter_kind(self, M.PLAY_CARD) end

--- Card mode: plays `pe+k`, turning k PA into k PE (R10.2).
function Game:convert(k)
    int_arg(k, "PA to convert", 2, 1, M.MAX_PA)
    return self:apply("pe+" .. k)
end

--- Card mode: plays the card of 0-based hand index `card`, or the first
--- card of that name still in the hand of the side to act, on square
--- `target` when the card needs one (R10.4, R10.5).
function Game:play_card(card, target)
    local index
    if type(card) == "string" then
        local side = self:side()
        for _, c in ipairs(self:hand_cards(side)) do
            if c.name == card then index = c.index; break end
        end
        if not index then raise(M.E_ILLEGAL, side .. " holds no card named " .. card, 2) end
    else
        index = int_arg(card, "hand index", 2, 0, M.MAX_HAND - 1)
    end
    local text = "card" .. (index + 1)
    if target ~= nil then text = text .. "@" .. SQUARES[square_index(target, 2)] end
    return self:apply(text)
end

local perft_out = ffi.new("uint64_t[1]")

--- The number of decision sequences of exactly `depth` decisions (N3,
--- 0 <= depth <= ball.MAX_PERFT_DEPTH), as a Lua number (exact below 2^53).
function Game:perft(depth)
    depth = int_arg(depth, "perft depth", 2)
    check(self, C.ball_perft(P(self), depth, perft_out))
    return tonumber(perft_out[0])
end

local task_buf = ffi.new("ball_task[?]", MAX_TASKS)

--- The release-phase tasks in square order (R9): {square, kind, solvable}.
function Game:release_tasks()
    local n = check(self, C.ball_release_tasks(P(self), task_buf, MAX_TASKS))
    local list = {}
    for i = 0, n - 1 do
        local t = task_buf[i]
        list[i + 1] = { square = SQUARES[ok(C.ball_task_square(t), 2)],
                        kind = TASK[ok(C.ball_task_kind(t), 2)],
                        solvable = ok(C.ball_task_solvable(t), 2) == 1 }
    end
    return list
end

--- The solutions of the task on a square (R9).
function Game:task_solutions(sq)
    local n = check(self, C.ball_task_solutions(P(self), square_index(sq, 2), self.acts, MAX_ACTIONS))
    return action_list(self, n)
end

local chosen_buf = ffi.new("int[?]", SELECT_STEPS)
local choices_buf = ffi.new("int[?]", NUM_SQUARES)
local select_out = ffi.new("ball_action[1]")

--- One step of step-by-step selection (R12). `chosen` lists the choices
--- made so far: a square, a verb ("-", "=", "^", "^^", "card" or its
--- number), a square, a square, the keeper's square. Returns the next
--- step's choices (square names, or verbs after the first square) and the
--- whole action when the choices already make one (else nil). Never
--- changes the game.
function Game:select(chosen)
    chosen = chosen or {}
    if #chosen > SELECT_STEPS then raise(M.E_ARG, "at most " .. SELECT_STEPS .. " choices", 2) end
    for i, c in ipairs(chosen) do
        if i == 2 then
            local v = type(c) == "number" and int_arg(c, "a verb", 2) or VERB_BY_TEXT[c]
            if not v then raise(M.E_NOTATION, "not a verb: " .. tostring(c), 2) end
            chosen_buf[1] = v
        else
            chosen_buf[i - 1] = square_index(c, 2)
        end
    end
    local n = check(self, C.ball_select(P(self), chosen_buf, #chosen, choices_buf,
                                        NUM_SQUARES, select_out))
    local choices = {}
    for i = 0, n - 1 do
        choices[i + 1] = #chosen == 1 and VERB[choices_buf[i]] or SQUARES[choices_buf[i]]
    end
    local code = select_out[0]
    return choices, code ~= 0 and M.action(code) or nil
end


-- ------------------------------------------------------------ the MCTS player

local MCTS = {}
MCTS.__index = MCTS
--- The methods of a searcher made by ball.mcts (its metatable).
M.MCTS = MCTS

local MCTS_OPTIONS = { "playouts", "time_ms", "seed", "playout_turns", "exploration",
                       "max_nodes" }
local IS_MCTS_OPTION = {}
for _, k in ipairs(MCTS_OPTIONS) do IS_MCTS_OPTION[k] = true end
local RESULT_TEXT = { [1] = "ATK won", [2] = "DEF won", [3] = "a draw" }

-- A seed: an integer 0 .. 2^53 - 1 (exact in a double) or a uint64_t cdata.
local function seed_arg(v, level)
    level = (level or 1) + 1
    if type(v) == "cdata" and ffi.istype("uint64_t", v) then return v end
    if type(v) ~= "number" then
        raise(M.E_ARG, "seed is an integer or a uint64_t, not a " .. type(v), level)
    end
    if v ~= v or (v ~= math.floor(v) and v > -math.huge and v < math.huge) then
        raise(M.E_ARG, "seed is an integer, not " .. tostring(v), level)
    end
    if v < 0 or v >= 2 ^ 53 then
        raise(M.E_RANGE, "seed " .. tostring(v) .. " out of range (0 to 2^53 - 1, or a uint64_t)",
              level)
    end
    return v
end

-- The digits of a seed (a number or a uint64_t cdata).
local function seed_text(v)
    if type(v) == "number" then return ("%.0f"):format(v) end
    return (tostring(v):gsub("ULL$", ""))
end

--- A Monte-Carlo tree searcher of the library (ball_mcts_new(); see
--- docs/players.md). Options, each optional: playouts (iterations a
--- decision, default 1000; 0 = no limit; left out with a time_ms given:
--- no limit), time_ms (wall clock a decision, default 0 = none), seed (of
--- its own random generator, default 1: an integer 0 .. 2^53 - 1 or a
--- uint64_t), playout_turns (hand-overs before a playout is scored,
--- default 1; 0 = to the end of the game), exploration (the UCB1 constant,
--- default 0.3) and max_nodes (the node pool, default 0 = from the
--- budget). The library checks the values: a "range" error with its
--- message for playouts outside 0-1000000000, no budget at all, etc.; an
--- unknown option is an "arg" error.
function M.mcts(opts)
    if opts ~= nil and type(opts) ~= "table" then
        raise(M.E_ARG, "ball.mcts takes a table of options", 2)
    end
    opts = opts or {}
    for k in pairs(opts) do
        if not IS_MCTS_OPTION[k] then
            raise(M.E_ARG, "ball.mcts: unknown option " .. tostring(k) .. " ("
                  .. table.concat(MCTS_OPTIONS, ", ") .. ")", 2)
        end
    end
    local cfg = ffi.new("ball_mcts_config")
    C.ball_mcts_config_init(cfg, ffi.sizeof("ball_mcts_config"))
    if opts.time_ms ~= nil then cfg.time_ms = int_arg(opts.time_ms, "time_ms", 2) end
    if opts.playouts ~= nil then
        cfg.playouts = int_arg(opts.playouts, "playouts", 2)
    elseif cfg.time_ms > 0 then
        cfg.playouts = 0
    end
    local seed = 1
    if opts.seed ~= nil then seed = seed_arg(opts.seed, 2) end
    cfg.seed = seed
    if opts.playout_turns ~= nil then
        cfg.playout_turns = int_arg(opts.playout_turns, "playout_turns", 2)
    end
    if opts.max_nodes ~= nil then cfg.max_nodes = int_arg(opts.max_nodes, "max_nodes", 2) end
    if opts.exploration ~= nil then
        if type(opts.exploration) ~= "number" then
            raise(M.E_ARG, "exploration is a number, not a " .. type(opts.exploration), 2)
        end
        cfg.exploration = opts.exploration
    end
    local out = ffi.new("ball_mcts*[1]")
    local err = ffi.new("char[?]", ERR_MAX)
    local rc = C.ball_mcts_new(out, cfg, err, ERR_MAX)
    if rc < 0 then raise(rc, ffi.string(err), 2) end
    return setmetatable({
        ptr = ffi.gc(out[0], C.ball_mcts_free),
        out = ffi.new("ball_action[1]"),
        stats = ffi.new("ball_mcts_stats"),
        settings = { playouts = cfg.playouts, time_ms = cfg.time_ms, seed = seed,
                     playout_turns = cfg.playout_turns, exploration = cfg.exploration,
                     max_nodes = cfg.max_nodes },
    }, MCTS)
end

local function mcts_ptr(m)
    local p = m.ptr
    if p == nil then raise(CLOSED, "the searcher is closed", 3) end
    return p
end

--- Searches the position of `game` within the budget and returns the
--- decision chosen for the coach to act (an action, legal there, not
--- played: the game is left as it was) and what the search did, a table
--- {playouts, nodes, max_depth, visits, value, elapsed_ms}. An immediate
--- touchdown, and the only legal decision, are returned without search
--- (playouts 0). A "range" error when the game is over, "closed" when the
--- searcher or the game is closed.
function MCTS:choose(game)
    if getmetatable(game) ~= Game then
        raise(M.E_ARG, "mcts:choose takes a game, not a " .. type(game), 2)
    end
    local p = mcts_ptr(self)
    local g = P(game)
    local st = self.stats
    st.size = ffi.sizeof("ball_mcts_stats")
    local rc = C.ball_mcts_choose(p, g, self.out, st)
    if rc < 0 then
        local res = C.ball_result(g)
        if rc == M.E_RANGE and RESULT_TEXT[res] then
            raise(rc, "the game is over (" .. RESULT_TEXT[res]
                  .. "): there is no decision to choose", 2)
        end
        raise(rc, "ball_mcts_choose: " .. ffi.string(C.ball_strerror(rc)), 2)
    end
    return M.action(self.out[0]), {
        playouts = tonumber(st.playouts), nodes = tonumber(st.nodes),
        max_depth = tonumber(st.max_depth), visits = tonumber(st.visits),
        value = tonumber(st.value), elapsed_ms = tonumber(st.elapsed_ms),
    }
end

--- Restarts the searcher's random generator from `seed` (an integer
--- 0 .. 2^53 - 1 or a uint64_t; ball_mcts_seed()): the decisions that
--- follow are those of a new searcher with that seed.
function MCTS:seed(seed)
    local v = seed_arg(seed, 2)
    ok(C.ball_mcts_seed(mcts_ptr(self), v), 2)
end

--- The settings the searcher was created with, as a new table (the keys
--- of ball.mcts; seed as given).
function MCTS:config()
    local t = {}
    for k, v in pairs(self.settings) do t[k] = v end
    return t
end

--- Frees the C searcher now (closing twice is harmless; the garbage
--- collector does it otherwise).
function MCTS:close()
    local p = self.ptr
    if p ~= nil then
        self.ptr = nil
        ffi.gc(p, nil)
        C.ball_mcts_free(p)
    end
end

function MCTS:is_closed() return self.ptr == nil end

MCTS.__tostring = function(m)
    local s = m.settings
    local text = ("ball.mcts{ playouts = %d, time_ms = %d, seed = %s, playout_turns = %d, "
                  .. "exploration = %.14g, max_nodes = %d }"):format(s.playouts, s.time_ms,
        seed_text(s.seed), s.playout_turns, s.exploration, s.max_nodes)
    return m.ptr == nil and ("closed " .. text) or text
end


-- ------------------------------------------------------------ the turn search

local Search = {}
Search.__index = Search
--- The methods of a searcher made by ball.turn_search (its metatable).
M.TurnSearch = Search

local SEARCH_OPTIONS = { "nodes", "time_ms", "depth", "threads", "seed", "multipv", "hash_mb",
                         "info", "info_every_ms" }
local IS_SEARCH_OPTION = {}
for _, k in ipairs(SEARCH_OPTIONS) do IS_SEARCH_OPTION[k] = true end
local SEARCH_PV_MAX = M.SEARCH_PV_MAX
local NODES_MAX = 2 ^ 53 - 1 -- exact in a double; the library's own limit is 10^12

-- The runs in progress that have an info callback, by searcher id (the
-- callback's ud): { fn = the Lua function, game = the game searched,
-- err = what the function raised }. One FFI callback serves them all
-- (LuaJIT has a limited number of callback slots), made at the first
-- searcher with an info option.
local search_runs = {}
local search_next_id = 0
local info_cb

-- A list of actions from a C array, and their texts joined by spaces.
local function action_list_of(arr, n)
    local list, text = {}, {}
    for i = 0, n - 1 do
        local a = M.action(arr[i])
        list[i + 1] = a
        text[i + 1] = tostring(a)
    end
    return list, table.concat(text, " ")
end

local function call_info(fn, info)
    local pv, pv_text = action_list_of(info.pv, math.min(info.pv_len, SEARCH_PV_MAX))
    return fn({ nodes = tonumber(info.nodes), depth = info.depth, value = info.value,
                proven = info.proven, elapsed_ms = info.elapsed_ms, pv = pv,
                pv_text = pv_text })
end

-- The info callback: calls the run's Lua function in protected mode (a Lua
-- error must not unwind through the library's frames), the game searched
-- reading as closed meanwhile; an error or a true return stops the run.
local function info_trampoline(ud, info)
    local run = search_runs[tonumber(ffi.cast("intptr_t", ud))]
    if run == nil or run.err ~= nil then return 1 end
    local game = run.game
    local gptr = game.ptr
    game.ptr = nil
    local good, stop = pcall(call_info, run.fn, info)
    game.ptr = gptr
    if not good then
        run.err = stop == nil and "error in the info callback" or stop
        return 1
    end
    return stop and 1 or 0
end

--- The library's turn search (ball_search_new(); docs/players.md): an
--- alpha-beta search by whole turns with a transposition table, the
--- library's strongest player. Options, each optional: nodes (decisions
--- played a run, default 200000; 0 = no limit), time_ms (wall clock a
--- run, default 0 = none), depth (deepest search in turns, default 0 = up
--- to 64), threads (1-64, default 1; more than one makes the results not
--- repeatable), seed (breaks ties between equal evaluations, default 1: an
--- integer 0 .. 2^53 - 1 or a uint64_t), multipv (root decisions with
--- exact values, 1-256, default 1), hash_mb (the transposition table,
--- 1-65536 MiB, default 16), info (a function called during each run with
--- the progress, see below) and info_every_ms (how often, 0 = only at the
--- end of each depth). The library checks the values: an "arg" error with
--- its message for threads = 0, no budget at all, etc.; an unknown option
--- is an "arg" error.
---
--- info(t) receives a table {nodes, depth, value, proven, elapsed_ms, pv,
--- pv_text} (pv: the principal variation so far as actions, pv_text their
--- texts); returning true stops the run (as stop() does). It runs on the
--- thread that called choose() or analyse(), also with threads > 1 (the
--- library's helper threads never call it). An error in it stops the run
--- and is raised again once the run has returned. Inside it the game being
--- searched reads as closed, and the searcher raises an "arg" error but
--- for stop(): the search is using both.
function M.turn_search(opts)
    if opts ~= nil and type(opts) ~= "table" then
        raise(M.E_ARG, "ball.turn_search takes a table of options", 2)
    end
    opts = opts or {}
    for k in pairs(opts) do
        if not IS_SEARCH_OPTION[k] then
            raise(M.E_ARG, "ball.turn_search: unknown option " .. tostring(k) .. " ("
                  .. table.concat(SEARCH_OPTIONS, ", ") .. ")", 2)
        end
    end
    local cfg = ffi.new("ball_search_config")
    C.ball_search_config_init(cfg, ffi.sizeof("ball_search_config"))
    if opts.nodes ~= nil then cfg.nodes = int_arg(opts.nodes, "nodes", 2, 0, NODES_MAX) end
    if opts.time_ms ~= nil then cfg.time_ms = int_arg(opts.time_ms, "time_ms", 2) end
    if opts.depth ~= nil then cfg.depth = int_arg(opts.depth, "depth", 2) end
    if opts.threads ~= nil then cfg.threads = int_arg(opts.threads, "threads", 2) end
    local seed = 1
    if opts.seed ~= nil then seed = seed_arg(opts.seed, 2) end
    cfg.seed = seed
    if opts.multipv ~= nil then cfg.multipv = int_arg(opts.multipv, "multipv", 2) end
    if opts.hash_mb ~= nil then cfg.hash_mb = int_arg(opts.hash_mb, "hash_mb", 2) end
    if opts.info_every_ms ~= nil then
        cfg.info_every_ms = int_arg(opts.info_every_ms, "info_every_ms", 2)
    end
    local fn = opts.info
    if fn ~= nil and type(fn) ~= "function" and not (getmetatable(fn) or {}).__call then
        raise(M.E_ARG, "info is a function, not a " .. type(fn), 2)
    end
    search_next_id = search_next_id + 1
    local id = search_next_id
    if fn ~= nil then
        if info_cb == nil then
            info_cb = ffi.cast("int (*)(void *, const ball_search_info *)", info_trampoline)
        end
        cfg.info = info_cb
        cfg.info_ud = ffi.cast("void *", id)
    end
    local out = ffi.new("ball_search*[1]")
    local err = ffi.new("char[?]", ERR_MAX)
    local rc = C.ball_search_new(out, cfg, err, ERR_MAX)
    if rc < 0 then raise(rc, ffi.string(err), 2) end
    return setmetatable({
        ptr = ffi.gc(out[0], C.ball_search_free),
        id = id,
        info = fn,
        result = ffi.new("ball_search_result"),
        settings = { nodes = tonumber(cfg.nodes), time_ms = cfg.time_ms, depth = cfg.depth,
                     threads = cfg.threads, seed = seed, multipv = cfg.multipv,
                     hash_mb = cfg.hash_mb, info_every_ms = cfg.info_every_ms },
    }, Search)
end

local function search_ptr(s, what)
    local p = s.ptr
    if p == nil then raise(CLOSED, "the searcher is closed", 3) end
    if s.running then
        raise(M.E_ARG, "search:" .. what .. ": the searcher is running a search (called from "
              .. "its info callback?)", 3)
    end
    return p
end

-- One run on `game`; raises as choose() documents.
local function search_run(s, game, what)
    if getmetatable(game) ~= Game then
        raise(M.E_ARG, "search:" .. what .. " takes a game, not a " .. type(game), 3)
    end
    local p = search_ptr(s, what)
    local g = P(game)
    local res = s.result
    C.ball_search_result_init(res, ffi.sizeof("ball_search_result"))
    local run
    if s.info ~= nil then
        run = { fn = s.info, game = game }
        search_runs[s.id] = run
    end
    s.running = true
    local rc = C.ball_search_run(p, g, res)
    s.running = false
    search_runs[s.id] = nil
    if run ~= nil and run.err ~= nil then error(run.err, 0) end
    if rc < 0 then
        local r = C.ball_result(g)
        if rc == M.E_RANGE and RESULT_TEXT[r] then
            raise(rc, "the game is over (" .. RESULT_TEXT[r]
                  .. "): there is no decision to search", 3)
        end
        raise(rc, ffi.string(C.ball_errmsg(g)), 3)
    end
    return p
end
-- No JIT trace may hold the FFI call that calls back into Lua (LuaJIT
-- would stop with "bad callback").
if jit then jit.off(search_run) end

--- Searches the position of `game` within the budgets and returns the
--- decision for the coach to act (an action, legal there, not played: the
--- game is left as it was). A "range" error when the game has no legal
--- decision (it is over), "closed" when the searcher or the game is closed.
function Search:choose(game)
    search_run(self, game, "choose")
    return M.action(self.result.best)
end

--- Searches as choose() does and returns all it found, a table: best (the
--- action), value (for the coach to act, -1 .. 1: +1 a proven win, -1 a
--- proven loss), proven (+1, -1 or 0), decisions_to_end (for a proven
--- value), depth (in turns), nodes, elapsed_ms, stopped (true when stop()
--- or the info function stopped the run), lines (the root decisions
--- searched, best first: {action, value, bound, proven, depth, nodes, pv,
--- pv_text}; the first multipv have exact values, the others may be upper
--- bounds, bound = true) and best_turn (the best decision and the rest of
--- its turn, as actions) with best_turn_text.
function Search:analyse(game)
    local p = search_run(self, game, "analyse")
    local res = self.result
    local lines = self.lines
    if lines == nil then
        lines = ffi.new("ball_search_line[?]", M.MAX_ACTIONS)
        for i = 0, M.MAX_ACTIONS - 1 do
            C.ball_search_line_init(lines[i], ffi.sizeof("ball_search_line"))
        end
        self.lines = lines
        self.turn = ffi.new("ball_action[?]", SEARCH_PV_MAX)
    end
    local n = C.ball_search_lines(p, lines, M.MAX_ACTIONS)
    if n < 0 then raise(n, "ball_search_lines: " .. ffi.string(C.ball_strerror(n)), 2) end
    local out = {}
    for i = 0, math.min(n, M.MAX_ACTIONS) - 1 do
        local ln = lines[i]
        local pv, pv_text = action_list_of(ln.pv, math.min(ln.pv_len, SEARCH_PV_MAX))
        out[i + 1] = { action = M.action(ln.action), value = ln.value, bound = ln.bound ~= 0,
                       proven = ln.proven, depth = ln.depth, nodes = tonumber(ln.nodes),
                       pv = pv, pv_text = pv_text }
    end
    local m = C.ball_search_best_turn(p, self.turn, SEARCH_PV_MAX)
    if m < 0 then raise(m, "ball_search_best_turn: " .. ffi.string(C.ball_strerror(m)), 2) end
    local turn, turn_text = action_list_of(self.turn, m)
    return { best = M.action(res.best), value = res.value, proven = res.proven,
             decisions_to_end = res.decisions_to_end, depth = res.depth,
             nodes = tonumber(res.nodes), elapsed_ms = res.elapsed_ms, stopped = res.stopped ~= 0,
             lines = out, best_turn = turn, best_turn_text = turn_text }
end

--- Forgets what earlier runs stored in the table (ball_search_clear()): the
--- next run searches as a new searcher would.
function Search:clear()
    ok(C.ball_search_clear(search_ptr(self, "clear")), 2)
end

--- Asks the run in progress to stop (ball_search_stop()): it returns
--- promptly with the best decision found so far. The one call allowed from
--- the info function; nothing happens when no run is in progress or the
--- searcher is closed.
function Search:stop()
    if self.ptr ~= nil then C.ball_search_stop(self.ptr) end
end

--- The settings the searcher was created with, as a new table (the keys of
--- ball.turn_search but info; seed as given).
function Search:config()
    local t = {}
    for k, v in pairs(self.settings) do t[k] = v end
    return t
end

--- Frees the C searcher now (closing twice is harmless; the garbage
--- collector does it otherwise). An "arg" error from the info function.
function Search:close()
    local p = self.ptr
    if p ~= nil then
        if self.running then
            raise(M.E_ARG, "search:close: the searcher is running a search (called from its "
                  .. "info callback?)", 2)
        end
        self.ptr = nil
        ffi.gc(p, nil)
        C.ball_search_free(p)
    end
end

function Search:is_closed() return self.ptr == nil end

Search.__tostring = function(s)
    local c = s.settings
    local text = ("ball.turn_search{ nodes = %.0f, time_ms = %d, depth = %d, threads = %d, "
                  .. "seed = %s, multipv = %d, hash_mb = %d, info_every_ms = %d }"):format(
        c.nodes, c.time_ms, c.depth, c.threads, seed_text(c.seed), c.multipv, c.hash_mb,
        c.info_every_ms)
    return s.ptr == nil and ("closed " .. text) or text
end

return M
