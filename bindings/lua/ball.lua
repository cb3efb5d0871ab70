--[[
ball.lua — LuaJIT FFI binding of libball, the rules engine of the board
game BALL. Rule ids (R1 ... R12, N1 ... N3) refer to the project's RULES.md.

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
"long_pass", "end", "stand_up", "unblock", "unprotect". The numeric
constants of ball.h are there too (ball.ATK, ball.MOVE, ...).

Errors are raised with error() as ball.Error objects: fields code (the
negative ball_error), name ("illegal", "bpn", ...) and message (the text of
ball_errmsg: what went wrong and where); tostring() gives a readable line.

The shared library is looked for in this order: LIBBALL_PATH (a file, or a
directory holding libball.so.0); the build tree next to this file
(../../build/libball.so.0); build/libball.so.0 under the current directory
when it is a libball repository; then the system ("ball", "libball.so.0").
Its major version must be the one this module was written for.
--]]

local ffi = require("ffi")

local M = {}
M._VERSION = "0.1.0"
M.ABI_MAJOR = 0
local SONAME = "libball.so." .. M.ABI_MAJOR

-- ------------------------------------------------------------ the C API

-- Declared once per LuaJIT state, even if the module is loaded twice.
if not pcall(ffi.typeof, "struct ball_rules") then
    ffi.cdef [[
enum ball_error {
    BALL_OK = 0, BALL_E_ARG = -1, BALL_E_NOMEM = -2, BALL_E_BPN = -3,
    BALL_E_NOTATION = -4, BALL_E_ILLEGAL = -5, BALL_E_BUFFER = -6,
    BALL_E_RANGE = -7, BALL_E_NO_HISTORY = -8
};
enum ball_team { BALL_ATK = 0, BALL_DEF = 1 };
enum ball_phase { BALL_PHASE_ACTION = 0, BALL_PHASE_RELEASE = 1 };
enum ball_result { BALL_ONGOING = 0, BALL_ATK_WON = 1, BALL_DEF_WON = 2, BALL_DRAW = 3 };
enum ball_piece_type { BALL_X = 1, BALL_O = 2, BALL_SQUARE = 3 };
enum ball_piece_bits {
    BALL_PIECE_TYPE_MASK = 0x03, BALL_PIECE_DEF = 0x04, BALL_PIECE_DOWN = 0x08,
    BALL_PIECE_RESTRICTED = 0x10, BALL_PIECE_BALL = 0x20, BALL_PIECE_STACKED = 0x40
};
enum ball_level { BALL_UPPER = 0, BALL_LOWER = 1 };
enum ball_square_bits {
    BALL_SQ_PIECE = 0x01, BALL_SQ_STACK = 0x02, BALL_SQ_FRESH = 0x04,
    BALL_SQ_LOOSE_BALL = 0x08, BALL_SQ_BALL = 0x10
};
enum ball_action_kind {
    BALL_MOVE = 1, BALL_DODGE = 2, BALL_TACTICAL_DODGE = 3, BALL_BLOCK = 4,
    BALL_PROTECT = 5, BALL_HANDOFF = 6, BALL_SHORT_PASS = 7, BALL_LONG_PASS = 8,
    BALL_END = 9, BALL_STAND_UP = 10, BALL_UNBLOCK = 11, BALL_UNPROTECT = 12
};
enum ball_action_flags {
    BALL_FLAG_PICKUP = 0x1, BALL_FLAG_FORCED_FUMBLE = 0x2, BALL_FLAG_FUMBLE = 0x4
};
enum ball_keeper { BALL_KEEPER_NONE = 0, BALL_KEEPER_UPPER = 1, BALL_KEEPER_LOWER = 2 };
enum ball_task_kind { BALL_TASK_STAND_UP = 1, BALL_TASK_RELEASE = 2 };
enum ball_verb {
    BALL_VERB_MOVE = 1, BALL_VERB_HANDOFF = 2, BALL_VERB_SHORT_PASS = 3,
    BALL_VERB_LONG_PASS = 4
};

typedef struct ball_rules {
    size_t size;
    int end_zone_depth;
    unsigned turn_limit;
    unsigned flags;
} ball_rules;
typedef struct ball_game ball_game;
typedef uint32_t ball_action;

unsigned ball_version_number(void);
const char *ball_version_string(void);
const char *ball_strerror(int code);

int ball_square_at(int col, int row);
int ball_square_col(int sq);
int ball_square_row(int sq);
int ball_square_from_name(const char *name);
int ball_square_name(int sq, char *buf, size_t len);
int ball_square_distance(int a, int b);

void ball_rules_init(ball_rules *rules, size_t size);
int ball_game_new(ball_game **out, const ball_rules *rules);
int ball_game_clone(ball_game **out, const ball_game *game);
void ball_game_free(ball_game *game);
int ball_game_rules(const ball_game *game, ball_rules *out);
const char *ball_errmsg(const ball_game *game);

int ball_side(const ball_game *game);
int ball_phase(const ball_game *game);
int ball_pa(const ball_game *game);
int ball_handoff_last(const ball_game *game);
unsigned ball_turn(const ball_game *game);
int ball_result(const ball_game *game);
int ball_piece(const ball_game *game, int sq, int level);
int ball_square_state(const ball_game *game, int sq);
int ball_ball_square(const ball_game *game);
int ball_restricted_square(const ball_game *game);

int ball_action_kind(ball_action a);
int ball_action_from(ball_action a);
int ball_action_to(ball_action a);
int ball_action_option(ball_action a);
int ball_action_keeper(ball_action a);
int ball_action_flags(ball_action a);
int ball_action_cost(ball_action a);
int ball_legal_actions(ball_game *game, ball_action *out, size_t cap);
int ball_legal_action_at(ball_game *game, int index, ball_action *out);
int ball_random_action(ball_game *game, uint64_t random, ball_action *out);
int ball_is_legal(ball_game *game, ball_action a);
int ball_apply(ball_game *game, ball_action a);
int ball_undo(ball_game *game);
size_t ball_history_length(const ball_game *game);
int ball_history_reserve(ball_game *game, size_t n);

int ball_release_tasks(ball_game *game, int *out, size_t cap);
int ball_task_square(int task);
int ball_task_kind(int task);
int ball_task_solvable(int task);
int ball_task_solutions(ball_game *game, int sq, ball_action *out, size_t cap);

int ball_select(ball_game *game, const int *chosen, size_t n_chosen,
                int *choices, size_t cap, ball_action *action);

int ball_get_bpn(ball_game *game, char *buf, size_t len);
int ball_set_bpn(ball_game *game, const char *bpn);
int ball_action_text(ball_action a, char *buf, size_t len);
int ball_action_parse(ball_game *game, const char *text, ball_action *out);

int ball_perft(ball_game *game, int depth, uint64_t *count);

/* Newer than 0.1.0: used only when the loaded library has them. */
uint64_t ball_hash(const ball_game *game);
]]
end

-- Sizes from ball.h.
local NUM_SQUARES, MAX_ACTIONS, ACTION_TEXT_MAX, BPN_MAX, MAX_TASKS = 111, 1024, 32, 1024, 14
M.NUM_SQUARES = NUM_SQUARES
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
M.version_number = tonumber(C.ball_version_number())
M.version = ffi.string(C.ball_version_string())
if math.floor(M.version_number / 10000) ~= M.ABI_MAJOR then
    error(("ball: %s is libball %s; this module needs major version %d")
          :format(library_path, M.version, M.ABI_MAJOR), 0)
end

-- The numeric constants of ball.h without their BALL_ prefix.
for _, name in ipairs {
    "OK", "E_ARG", "E_NOMEM", "E_BPN", "E_NOTATION", "E_ILLEGAL", "E_BUFFER",
    "E_RANGE", "E_NO_HISTORY", "ATK", "DEF", "PHASE_ACTION", "PHASE_RELEASE",
    "ONGOING", "ATK_WON", "DEF_WON", "DRAW", "X", "O", "SQUARE", "UPPER", "LOWER",
    "MOVE", "DODGE", "TACTICAL_DODGE", "BLOCK", "PROTECT", "HANDOFF", "SHORT_PASS",
    "LONG_PASS", "END", "STAND_UP", "UNBLOCK", "UNPROTECT", "FLAG_PICKUP",
    "FLAG_FORCED_FUMBLE", "FLAG_FUMBLE", "KEEPER_NONE", "KEEPER_UPPER",
    "KEEPER_LOWER", "TASK_STAND_UP", "TASK_RELEASE", "VERB_MOVE", "VERB_HANDOFF",
    "VERB_SHORT_PASS", "VERB_LONG_PASS",
} do
    M[name] = tonumber(C["BALL_" .. name])
end

local TEAM = { [0] = "ATK", "DEF" }
local PHASE = { [0] = "action", "release" }
local RESULT = { [0] = "ongoing", "atk_won", "def_won", "draw" }
local WINNER = { [1] = "ATK", [2] = "DEF" }
local KIND = { "move", "dodge", "tactical_dodge", "block", "protect", "handoff",
               "short_pass", "long_pass", "end", "stand_up", "unblock", "unprotect",
               "convert_pa", "play_card" } -- the last two: card mode (R10)
local KEEPER = { [0] = "none", "upper", "lower" }
local TASK = { "stand_up", "release" }
local VERB = { "-", "=", "^", "^^", "card" }
local VERB_BY_TEXT = { ["-"] = 1, ["="] = 2, ["^"] = 3, ["^^"] = 4, move = 1,
                       handoff = 2, short_pass = 3, long_pass = 4 }
local PIECE_LETTER = { "X", "O", "S" }

-- ------------------------------------------------------------ errors

local Error = {}
Error.__index = Error
Error.__tostring = function(e)
    return ("libball: %s (%s)"):format(e.message, e.name)
end
M.Error = Error

local ERROR_NAME = { [-1] = "arg", [-2] = "nomem", [-3] = "bpn", [-4] = "notation",
                     [-5] = "illegal", [-6] = "buffer", [-7] = "range",
                     [-8] = "no_history", [-100] = "closed" }

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

-- ------------------------------------------------------------ squares

local SQUARES, INDEX = {}, {}
do
    local buf = ffi.new("char[8]")
    for i = 0, NUM_SQUARES - 1 do
        C.ball_square_name(i, buf, 8)
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
    local i = C.ball_square_at(col, row)
    if i < 0 then raise(i, ("no playable square at column %d, row %d"):format(col, row), 2) end
    return SQUARES[i]
end

local function name_or_nil(i) return i >= 0 and SQUARES[i] or nil end

-- ------------------------------------------------------------ actions

-- Actions are interned: one table per code, so that == and table keys work.
local Action = {}
local action_cache = setmetatable({}, { __mode = "v" })
local text_buf = ffi.new("char[?]", ACTION_TEXT_MAX)

local action_fields = {
    kind = function(a) return KIND[C.ball_action_kind(a.code)] end,
    from = function(a) return name_or_nil(C.ball_action_from(a.code)) end,
    to = function(a) return name_or_nil(C.ball_action_to(a.code)) end,
    option = function(a) return name_or_nil(C.ball_action_option(a.code)) end,
    keeper = function(a) return KEEPER[C.ball_action_keeper(a.code)] end,
    flags = function(a) return C.ball_action_flags(a.code) end,
    cost = function(a) return C.ball_action_cost(a.code) end,
    pickup = function(a) return bit.band(C.ball_action_flags(a.code), M.FLAG_PICKUP) ~= 0 end,
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
        or C.ball_action_text(code, text_buf, ACTION_TEXT_MAX) < 0 then
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
    0x03, 0x04, 0x08, 0x10, 0x20, 0x40
local SQ_PIECE, SQ_STACK, SQ_FRESH, SQ_LOOSE_BALL = 0x01, 0x02, 0x04, 0x08

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

local function wrap(ptr)
    local g = setmetatable({}, Game)
    g.ptr = ffi.gc(ptr, C.ball_game_free)
    g.acts = ffi.new("ball_action[?]", MAX_ACTIONS)
    return g
end

-- The struct ball_rules declared above holds the fields this module knows;
-- its size field tells the library so: ball_rules_init() and
-- ball_game_rules() write no more than that, and the library gives any
-- newer field its default.
local function make_rules(opts)
    local rules = ffi.new("ball_rules")
    C.ball_rules_init(rules, ffi.sizeof("ball_rules"))
    if opts then
        if opts.end_zone_depth then rules.end_zone_depth = opts.end_zone_depth end
        if opts.turn_limit then rules.turn_limit = opts.turn_limit end
    end
    return rules
end

--- A new game: the standard start, or opts.bpn; opts.end_zone_depth (1-3)
--- and opts.turn_limit (0 = none) set the ruleset.
function M.new(opts)
    if opts ~= nil and type(opts) ~= "table" then
        raise(M.E_ARG, "ball.new takes a table of options", 2)
    end
    local out = ffi.new("ball_game*[1]")
    local rc = C.ball_game_new(out, make_rules(opts))
    if rc < 0 then raise(rc, "cannot create a game: " .. ffi.string(C.ball_strerror(rc)), 2) end
    local g = wrap(out[0])
    if opts and opts.bpn then
        local ok, err = pcall(g.set_bpn, g, opts.bpn)
        if not ok then g:close(); error(err, 2) end
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
    if p == nil then raise(-100, "the game is closed", 3) end
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

function Game:rules()
    local r = make_rules()
    check(self, C.ball_game_rules(P(self), r))
    return { end_zone_depth = r.end_zone_depth, turn_limit = tonumber(r.turn_limit) }
end

local bpn_buf = ffi.new("char[?]", BPN_MAX)

--- The position as BPN text (N1).
function Game:bpn()
    check(self, C.ball_get_bpn(P(self), bpn_buf, BPN_MAX))
    return ffi.string(bpn_buf)
end

--- Replaces the position (and clears the undo history); raises a "bpn"
--- error saying what is wrong and where, leaving the game unchanged.
function Game:set_bpn(text)
    if type(text) ~= "string" then raise(M.E_ARG, "a BPN is a string", 2) end
    check(self, C.ball_set_bpn(P(self), text))
end

function Game:side() return TEAM[check(self, C.ball_side(P(self)))] end
function Game:phase() return PHASE[check(self, C.ball_phase(P(self)))] end
function Game:pa() return check(self, C.ball_pa(P(self))) end
function Game:handoff_last() return check(self, C.ball_handoff_last(P(self))) == 1 end
function Game:turn() return tonumber(C.ball_turn(P(self))) end
function Game:result() return RESULT[check(self, C.ball_result(P(self)))] end
function Game:is_over() return C.ball_result(P(self)) ~= M.ONGOING end
function Game:winner() return WINNER[C.ball_result(P(self))] end
function Game:history_length() return tonumber(C.ball_history_length(P(self))) end

--- The piece on a square as a table {team, type, down, restricted, ball,
--- stacked, active, text}, or nil. level: "upper" (default) or "lower".
function Game:piece_at(sq, level)
    local lv = (level == nil or level == "upper") and 0 or (level == "lower" and 1)
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
        s.upper = piece(C.ball_piece(p, i, 0))
        if s.stack then s.lower = piece(C.ball_piece(p, i, 1)) end
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
function Game:ball_square() return SQUARES[check(self, C.ball_ball_square(P(self)))] end

--- The square of the restricted piece of the side to act, or nil.
function Game:restricted_square()
    -- -1 means "none" (the game pointer is never NULL here).
    return name_or_nil(C.ball_restricted_square(P(self)))
end

--- The board as text, row 17 at the top (the layout of `ball show`).
function Game:diagram()
    local lines = { "   A     B     C     D     E     F     G     H     I     J     K     L     M" }
    for row = 17, 1, -1 do
        local cells = {}
        for col = 1, 13 do
            local i = C.ball_square_at(col, row)
            cells[col] = i >= 0 and ("%-6s"):format(self:square(i).text) or "      "
        end
        lines[#lines + 1] = (("%2d "):format(row) .. table.concat(cells)):gsub("%s+$", "")
    end
    return table.concat(lines, "\n")
end

Game.__tostring = function(g)
    if g.ptr == nil then return "ball.Game(closed)" end
    return "ball.Game(" .. g:bpn() .. ")"
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
    if type(i) ~= "number" or i ~= math.floor(i) then raise(M.E_ARG, "an action index is an integer", 2) end
    if i < 1 or i > 2 ^ 31 then raise(M.E_RANGE, "action index " .. tostring(i) .. " out of range", 2) end
    check(self, C.ball_legal_action_at(P(self), i - 1, one_out))
    return M.action(one_out[0])
end

--- A legal decision drawn with the 64-bit number `r` (a uint64_t cdata or
--- a non-negative integer; default: drawn with math.random), uniformly
--- when `r` is uniform: the cheapest way to play random playouts.
function Game:random_action(r)
    if r == nil then
        r = ffi.cast("uint64_t", math.random(0, 0xffff)) * 0x1000000000000ULL
            + ffi.cast("uint64_t", math.random(0, 0xffffff)) * 0x1000000ULL + math.random(0, 0xffffff)
    elseif type(r) == "number" then
        if r < 0 or r ~= math.floor(r) or r >= 2 ^ 53 then raise(M.E_ARG, "r is an integer in 0 .. 2^53 or a uint64_t", 2) end
        r = ffi.cast("uint64_t", r)
    elseif not (type(r) == "cdata" and ffi.istype("uint64_t", r)) then
        raise(M.E_ARG, "r is an integer or a uint64_t", 2)
    end
    check(self, C.ball_random_action(P(self), r, one_out))
    return M.action(one_out[0])
end

local parse_out = ffi.new("ball_action[1]")

--- The action written `text` (N2) in this position.
function Game:parse_action(text)
    if type(text) ~= "string" then raise(M.E_ARG, "an action text is a string", 2) end
    check(self, C.ball_action_parse(P(self), text, parse_out))
    return M.action(parse_out[0])
end

local function code_of(g, a)
    if M.is_action(a) then return a.code end
    if type(a) == "string" then return g:parse_action(a).code end
    if type(a) == "number" and a > 0 and a < 2 ^ 32 then return a end
    raise(M.E_ARG, "not an action: " .. tostring(a), 3)
end

local has_hash = pcall(function() return C.ball_hash end)

--- A 64-bit hash of the position as a uint64_t cdata (equal positions,
--- equal hashes; the turn number is not part of it). Needs a library with
--- ball_hash(); usable as a table key after tostring().
function Game:hash()
    if not has_hash then raise(M.E_ARG, "the loaded libball has no ball_hash()", 2) end
    return C.ball_hash(P(self))
end

--- True if the action (object, text or code) is legal here.
function Game:is_legal(a)
    local ok, code = pcall(code_of, self, a)
    if not ok then return false end
    return check(self, C.ball_is_legal(P(self), code)) == 1
end

--- Plays a decision (an action object, its N2 text or its code) and
--- returns it as an action object; raises an "illegal" error (game
--- unchanged) when it is not legal.
function Game:apply(a)
    local code = code_of(self, a)
    check(self, C.ball_apply(P(self), code))
    return M.action(code)
end

--- Takes back the last decision; raises a "no_history" error if none.
function Game:undo() check(self, C.ball_undo(P(self))) end

local perft_out = ffi.new("uint64_t[1]")

--- The number of decision sequences of exactly `depth` decisions (N3),
--- as a Lua number (exact below 2^53).
function Game:perft(depth)
    check(self, C.ball_perft(P(self), depth, perft_out))
    return tonumber(perft_out[0])
end

local task_buf = ffi.new("int[?]", MAX_TASKS)

--- The release-phase tasks in square order (R9): {square, kind, solvable}.
function Game:release_tasks()
    local n = check(self, C.ball_release_tasks(P(self), task_buf, MAX_TASKS))
    local list = {}
    for i = 0, n - 1 do
        local t = task_buf[i]
        list[i + 1] = { square = SQUARES[C.ball_task_square(t)], kind = TASK[C.ball_task_kind(t)],
                        solvable = C.ball_task_solvable(t) == 1 }
    end
    return list
end

--- The solutions of the task on a square (R9).
function Game:task_solutions(sq)
    local n = check(self, C.ball_task_solutions(P(self), square_index(sq, 2), self.acts, MAX_ACTIONS))
    return action_list(self, n)
end

local chosen_buf = ffi.new("int[5]")
local choices_buf = ffi.new("int[?]", NUM_SQUARES)
local select_out = ffi.new("ball_action[1]")

--- One step of step-by-step selection (R12). `chosen` lists the choices
--- made so far: a square, a verb ("-", "=", "^", "^^"), a square, a square,
--- the keeper's square. Returns the next step's choices (square names, or
--- verbs after the first square) and the whole action when the choices
--- already make one (else nil). Never changes the game.
function Game:select(chosen)
    chosen = chosen or {}
    if #chosen > 5 then raise(M.E_ARG, "at most 5 choices", 2) end
    for i, c in ipairs(chosen) do
        if i == 2 then
            local v = type(c) == "number" and c or VERB_BY_TEXT[c]
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

return M
