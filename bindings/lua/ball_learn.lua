-- SPDX-License-Identifier: MIT
--[[
ball_learn.lua — the learning interface of libball (ball.h section
"Learning interface", docs/learning.md) for LuaJIT, over its FFI and the
games of the `ball` module (the C module ball.so, bindings/lua/c/*.c):
the fixed action space of 7,990 indices, legal masks, observations, the
left-right mirror, returns, and batches of games stepped by one C call.

  local ball = require("ball")
  local learn = require("ball_learn")
  local game = ball.new()
  local i = learn.to_index(game, "E11-F10")        -- 41
  print(learn.from_index(game, i))                 -- E11-F10
  local mask, n = learn.legal_mask(game)           -- uint8_t[7990], 55
  local obs = learn.observation(game)              -- float[3171]
  local batch = learn.batch(1024, { outputs = { "obs_bits", "mask_bits", "done" } })
  batch:reset(1)
  local ended = batch:step()                       -- random decisions, one C call

Arrays are FFI cdata, 0-based like in C (mask[0] ... mask[7989]); a batch
output holds game i's part at i * size (batch.size.mask etc.). Indices
are 0-based numbers. Errors are ball.Error objects (fields code, name,
message) with the library's message: "range" for an index outside
0-7,989, "illegal" for one not legal here, "buffer" for a buffer too
small or a wrong count of indices, "arg" for a bad argument, "closed" for
a closed game or batch.

It reaches a game's ball_game * through ball._game_pointer(game) (a light
userdata, documented-internal: valid while the game object lives and is
open; each function here keeps the game referenced until its C calls
return) and calls the library through its own cdef, M._CDEF: only the
declarations it uses, each as include/ball.h has it (scripts/api-check.py
compares them with the header). The library is the one the `ball` module
is linked with (ball.library_path).
--]]

local ffi = require("ffi")
local ball = require("ball")

local M = {}

-- The declarations of include/ball.h this module uses, as the header has
-- them (scripts/api-check.py checks each prototype and ball_rules against
-- the header; tests/bindings/api_bindings_test.sh shows it failing on a change).
M._CDEF = [[
typedef uint32_t ball_action;
typedef struct ball_cardset ball_cardset;
typedef struct ball_game ball_game;
typedef struct ball_batch ball_batch;

typedef struct ball_rules {
    size_t size;
    int end_zone_depth;
    unsigned turn_limit;
    unsigned flags;
    const ball_cardset *cards;
} ball_rules;

const char *ball_strerror(int code);
void ball_rules_init(ball_rules *rules, size_t size);
int ball_game_rules(const ball_game *game, ball_rules *out);
const char *ball_errmsg(const ball_game *game);

int ball_action_to_index(ball_game *game, ball_action a);
int ball_action_from_index(ball_game *game, int index, ball_action *out);
int ball_legal_mask(ball_game *game, uint8_t *mask, size_t len, int flags);
int ball_legal_indices(ball_game *game, int32_t *out, size_t cap);
int ball_index_mirror(int index);

int ball_observation_size(int flags);
int ball_observation(const ball_game *game, int flags, float *out, size_t len);
int ball_observation_bits(const ball_game *game, int flags, uint8_t *out, size_t len);
int ball_observation_mirror(int flags, const float *in, float *out, size_t len);
int ball_observation_bits_mirror(int flags, const uint8_t *in, uint8_t *out,
                                 size_t len);
int ball_returns(const ball_game *game, float *returns);

int ball_batch_new(ball_batch **out, int n_games, const ball_rules *rules, int obs_flags,
                   char *err, size_t errlen);
void ball_batch_free(ball_batch *batch);
int ball_batch_set_output(ball_batch *batch, int output, void *buf, size_t bytes);
int ball_batch_set_start(ball_batch *batch, const char *bpn);
int ball_batch_reset(ball_batch *batch, uint64_t seed);
int ball_batch_step(ball_batch *batch, const int32_t *indices, size_t n);
int ball_batch_position_to_text(const ball_batch *batch, int i, char *buf, size_t len);
int ball_batch_game_clone(const ball_batch *batch, int i, ball_game **out);
const char *ball_batch_errmsg(const ball_batch *batch);
]]
ffi.cdef(M._CDEF) -- once per LuaJIT state: require() keeps the module

-- The library the `ball` module is linked with, already loaded: ffi.load
-- of its path gives that same copy (the C module is loaded without
-- RTLD_GLOBAL, so its symbols are not in ffi.C).
local C
do
    local good, lib = pcall(ffi.load, ball.library_path)
    if not good then
        error("ball_learn: cannot load the library of the ball module, " .. tostring(ball.library_path)
              .. ": " .. tostring(lib), 0)
    end
    C = lib
end

M.ACTION_SPACE = ball.ACTION_SPACE
M.ACTION_MASK_BYTES = ball.ACTION_MASK_BYTES
M.INDEX_END = ball.INDEX_END
M.INDEX_CARD = ball.INDEX_CARD
M.OBS_PLANES = ball.OBS_PLANES
M.OBS_SCALARS = ball.OBS_SCALARS
M.BATCH_MAX = ball.BATCH_MAX
--- The turn limit (R11.2) of automated games when none is given, as in
--- Python's learn.AUTO_TURN_LIMIT and examples/selfplay
--- (docs/rules-choices.md, "Turn limits of the programs and bindings");
--- ball.new{}, for play, keeps the library's default, no limit.
M.AUTO_TURN_LIMIT = 100
M.GRID = ball.OBS_GRID
M.SCALAR_PLANES = ball.OBS_SCALAR_PLANES

local ACTION_SPACE, MASK_BYTES = M.ACTION_SPACE, M.ACTION_MASK_BYTES
local TERMINAL = { [0] = "not_terminal", "touchdown", "turn_limit", "truncated" }
M.terminal_names = TERMINAL
local OUTPUTS = { obs = ball.OUT_OBS, obs_bits = ball.OUT_OBS_BITS, mask = ball.OUT_MASK,
                  mask_bits = ball.OUT_MASK_BITS, rewards = ball.OUT_REWARDS,
                  done = ball.OUT_DONE, actions = ball.OUT_ACTIONS, side = ball.OUT_SIDE }
M.outputs = OUTPUTS

-- ------------------------------------------------------------ errors

local function raise(code, message, level)
    if message == nil or message == "" then message = ffi.string(C.ball_strerror(code)) end
    error(setmetatable({ code = code, name = ball.error_names[code] or "error",
                         message = message }, ball.Error), (level or 1) + 1)
end

local function int_arg(v, what, level, lo, hi)
    level = (level or 1) + 1
    if type(v) ~= "number" or v ~= v or v ~= math.floor(v) then
        raise(ball.E_ARG, what .. " is an integer, not " .. tostring(v), level)
    end
    lo, hi = lo or -2 ^ 31, hi or 2 ^ 31 - 1
    if v < lo or v > hi then
        raise(ball.E_RANGE, ("%s %s out of range (%d to %d)"):format(what, tostring(v), lo, hi),
              level)
    end
    return v
end

local function flags_arg(flags, level)
    flags = int_arg(flags or 0, "observation flags", (level or 1) + 1)
    if bit.band(flags, bit.bnot(3)) ~= 0 then
        raise(ball.E_ARG, "unknown observation flags " .. flags .. " (GRID = 1, SCALAR_PLANES = 2)",
              (level or 1) + 1)
    end
    return flags
end

-- The game's ball_game * (ball._game_pointer raises its ball.Error, "arg"
-- or "closed", for anything but an open game of the `ball` module). The
-- caller keeps `game` referenced until its C calls return.
local game_pointer = ball._game_pointer
local GAME_P = ffi.typeof("ball_game *")
local function gptr(game)
    return ffi.cast(GAME_P, game_pointer(game))
end

local function check(game, rc, level)
    if rc < 0 then raise(rc, ffi.string(C.ball_errmsg(gptr(game))), (level or 1) + 1) end
    return rc
end

-- An output cdata: `out` when given (checked for size), else a new array.
local function out_arg(out, ctype, count, what, level)
    if out == nil then return ffi.new(ctype .. "[?]", count), count end
    if type(out) ~= "cdata" then
        raise(ball.E_ARG, what .. " is a " .. ctype .. " cdata array", (level or 1) + 1)
    end
    local size = ffi.sizeof(out)
    if size == nil or size < count * ffi.sizeof(ctype) then
        raise(ball.E_BUFFER, ("%s needs %d %s, buffer has %s bytes")
              :format(what, count, ctype, tostring(size)), (level or 1) + 1)
    end
    return out, size / ffi.sizeof(ctype)
end

-- ------------------------------------------------------------ actions

--- The index (0-7,989) of the legal decision a (an action, its text or
--- code) in game's position; an "illegal" error when it is not legal.
function M.to_index(game, a)
    local p = gptr(game)
    local code
    if ball.is_action(a) then code = a.code
    elseif type(a) == "string" then code = game:parse_action(a).code
    else code = int_arg(a, "action code", 2, 1, 2 ^ 32 - 1) end
    return check(game, C.ball_action_to_index(p, code), 2)
end

local from_out = ffi.new("ball_action[1]")

--- The legal decision of index i; "range" error outside 0-7,989, "illegal"
--- when no legal decision has it.
function M.from_index(game, i)
    local p = gptr(game)
    i = int_arg(i, "action index", 2)
    check(game, C.ball_action_from_index(p, i, from_out), 2)
    return ball.action(from_out[0])
end

--- The legal mask: uint8_t[7990] (or, with bits, uint8_t[999], index i
--- being bit i % 8 of byte i / 8), into out or a new array; returns the
--- array and the number of legal decisions.
function M.legal_mask(game, bits, out)
    local p = gptr(game)
    local count = bits and MASK_BYTES or ACTION_SPACE
    local n
    out, n = out_arg(out, "uint8_t", count, "the legal mask", 2)
    local legal = check(game, C.ball_legal_mask(p, out, n, bits and ball.MASK_BITS or 0), 2)
    return out, legal
end

local idx_buf = ffi.new("int32_t[?]", ball.MAX_ACTIONS)

--- The legal indices in increasing order, as a Lua array.
function M.legal_indices(game)
    local n = check(game, C.ball_legal_indices(gptr(game), idx_buf, ball.MAX_ACTIONS), 2)
    local t = {}
    for k = 0, n - 1 do t[k + 1] = idx_buf[k] end
    return t
end

--- The index of the left-right mirror image of decision i.
function M.index_mirror(i)
    i = int_arg(i, "action index", 2)
    local rc = C.ball_index_mirror(i)
    if rc < 0 then
        raise(rc, ("action index %d out of range 0-%d"):format(i, ACTION_SPACE - 1), 2)
    end
    return rc
end

-- ------------------------------------------------------------ observations

--- Values of an observation written with flags (0-3).
function M.observation_size(flags)
    return C.ball_observation_size(flags_arg(flags, 2))
end

--- The observation (float[size]) from the side to act's point of view,
--- into out or a new array; returns it and its size.
function M.observation(game, flags, out)
    local p = gptr(game)
    flags = flags_arg(flags, 2)
    local size = C.ball_observation_size(flags)
    local n
    out, n = out_arg(out, "float", size, "the observation", 2)
    check(game, C.ball_observation(p, flags, out, n), 2)
    return out, size
end

--- observation() packed in bits: uint8_t[(size + 7) / 8], bit i % 8 of
--- byte i / 8; returns the array and its length in bytes.
function M.observation_bits(game, flags, out)
    local p = gptr(game)
    flags = flags_arg(flags, 2)
    local bytes = math.floor((C.ball_observation_size(flags) + 7) / 8)
    local n
    out, n = out_arg(out, "uint8_t", bytes, "the observation bits", 2)
    check(game, C.ball_observation_bits(p, flags, out, n), 2)
    return out, bytes
end

--- The left-right mirror of an observation (float cdata of flags' size)
--- into out (may be obs) or a new array.
function M.observation_mirror(obs, flags, out)
    flags = flags_arg(flags, 2)
    local size = C.ball_observation_size(flags)
    out_arg(obs, "float", size, "the observation", 2)
    out = out_arg(out, "float", size, "the mirrored observation", 2)
    local rc = C.ball_observation_mirror(flags, obs, out, size)
    if rc < 0 then raise(rc, nil, 2) end
    return out
end

--- The same for packed observations.
function M.observation_bits_mirror(bits, flags, out)
    flags = flags_arg(flags, 2)
    local bytes = math.floor((C.ball_observation_size(flags) + 7) / 8)
    out_arg(bits, "uint8_t", bytes, "the observation bits", 2)
    out = out_arg(out, "uint8_t", bytes, "the mirrored observation bits", 2)
    local rc = C.ball_observation_bits_mirror(flags, bits, out, bytes)
    if rc < 0 then raise(rc, nil, 2) end
    return out
end

local ret_buf = ffi.new("float[2]")

--- How the game ended ("not_terminal", "touchdown", "turn_limit") and the
--- returns of ATK and DEF (+1 winner, -1 loser, 0 otherwise).
function M.returns(game)
    local t = check(game, C.ball_returns(gptr(game), ret_buf), 2)
    return TERMINAL[t], ret_buf[0], ret_buf[1]
end

-- ------------------------------------------------------------ batches

local Batch = {}
Batch.__index = Batch
M.Batch = Batch

local function bcheck(b, rc, level)
    if rc < 0 then raise(rc, ffi.string(C.ball_batch_errmsg(b.ptr)), (level or 1) + 1) end
    return rc
end

local function bptr(b, level)
    if b.ptr == nil then raise(-100, "the batch is closed", (level or 1) + 1) end
    return b.ptr
end

local function seed_arg(seed, level)
    if type(seed) == "cdata" then return ffi.cast("uint64_t", seed) end
    return int_arg(seed or 0, "seed", (level or 1) + 1, 0, 2 ^ 53)
end

--- A batch of n games (1 to 1,048,576). opts: outputs (names among obs,
--- obs_bits, mask, mask_bits, rewards, done, actions, side; default obs,
--- mask, rewards, done, actions, side), obs_flags, seed (default 0; false:
--- no reset), start (a BPN), and the ruleset options of ball.new
--- (end_zone_depth, turn_limit, rules_text, earn, cards), except that the
--- turn limit is M.AUTO_TURN_LIMIT (100) unless turn_limit (0 for none) or
--- the turns= of rules_text gives one. Each bound output is a cdata array
--- batch[name], game i's part at i * batch.size[name].
function M.batch(n, opts)
    opts = opts or {}
    n = int_arg(n, "batch size", 2)
    local flags = flags_arg(opts.obs_flags, 2)
    -- the ruleset, read from a game made with the same options
    local g = ball.new({ end_zone_depth = opts.end_zone_depth, turn_limit = opts.turn_limit,
                         rules_text = opts.rules_text, earn = opts.earn, cards = opts.cards })
    local rules = ffi.new("ball_rules")
    C.ball_rules_init(rules, ffi.sizeof("ball_rules"))
    check(g, C.ball_game_rules(gptr(g), rules), 2)
    if opts.turn_limit == nil and rules.turn_limit == 0 then rules.turn_limit = M.AUTO_TURN_LIMIT end
    local out = ffi.new("ball_batch*[1]")
    local err = ffi.new("char[256]")
    local rc = C.ball_batch_new(out, n, rules, flags, err, 256)
    g:close()
    if rc < 0 then raise(rc, ffi.string(err), 2) end
    local obs_size = C.ball_observation_size(flags)
    local b = setmetatable({
        ptr = ffi.gc(out[0], C.ball_batch_free), n = n, obs_flags = flags, obs_size = obs_size,
        indices = ffi.new("int32_t[?]", n),
        size = { obs = obs_size, obs_bits = math.floor((obs_size + 7) / 8), mask = ACTION_SPACE,
                 mask_bits = MASK_BYTES, rewards = 2, done = 1, actions = 1, side = 1 },
    }, Batch)
    if opts.start then b:set_start(opts.start) end
    for _, name in ipairs(opts.outputs or { "obs", "mask", "rewards", "done", "actions", "side" }) do
        b:bind(name)
    end
    if opts.seed ~= false then b:reset(opts.seed or 0) end
    return b
end

local CTYPE = { obs = "float", obs_bits = "uint8_t", mask = "uint8_t", mask_bits = "uint8_t",
                rewards = "float", done = "uint8_t", actions = "int32_t", side = "uint8_t" }

--- Binds output `name` to buf (a cdata array for all games) or a new array.
function Batch:bind(name, buf)
    local o = OUTPUTS[name]
    if o == nil then raise(ball.E_ARG, "no batch output " .. tostring(name), 2) end
    local count = self.n * self.size[name]
    if buf == nil then buf = ffi.new(CTYPE[name] .. "[?]", count) end
    if type(buf) ~= "cdata" then raise(ball.E_ARG, "a batch output is a cdata array", 2) end
    bcheck(self, C.ball_batch_set_output(bptr(self, 2), o, buf, ffi.sizeof(buf) or 0), 2)
    self[name] = buf
    return buf
end

--- Stops writing output `name`.
function Batch:unbind(name)
    local o = OUTPUTS[name]
    if o == nil then raise(ball.E_ARG, "no batch output " .. tostring(name), 2) end
    bcheck(self, C.ball_batch_set_output(bptr(self, 2), o, nil, 0), 2)
    self[name] = nil
end

function Batch:set_start(bpn)
    if bpn ~= nil and type(bpn) ~= "string" then raise(ball.E_ARG, "a BPN is a string", 2) end
    bcheck(self, C.ball_batch_set_start(bptr(self, 2), bpn), 2)
end

function Batch:reset(seed)
    bcheck(self, C.ball_batch_reset(bptr(self, 2), seed_arg(seed, 2)), 2)
end

--- One decision in every game: random (indices nil), or the indices of a
--- Lua array (1-based, one per game) or of an int32_t cdata of n (such as
--- batch.indices). Returns the number of games that ended.
function Batch:step(indices)
    local p = bptr(self, 2)
    if indices == nil then return bcheck(self, C.ball_batch_step(p, nil, 0), 2) end
    local buf = indices
    if type(indices) == "table" then
        if #indices ~= self.n then
            raise(ball.E_BUFFER, ("step takes %d indices, one per game, got %d")
                  :format(self.n, #indices), 2)
        end
        buf = self.indices
        for k = 1, self.n do buf[k - 1] = int_arg(indices[k], "action index", 2) end
    elseif type(indices) ~= "cdata" then
        raise(ball.E_ARG, "indices are a table or an int32_t cdata array", 2)
    elseif (ffi.sizeof(indices) or 0) < 4 * self.n then
        raise(ball.E_BUFFER, ("step takes %d indices, one per game"):format(self.n), 2)
    end
    return bcheck(self, C.ball_batch_step(p, buf, self.n), 2)
end

local bpn_buf = ffi.new("char[?]", ball.BPN_MAX)

--- The BPN of game i (0-based).
function Batch:position(i)
    i = int_arg(i, "game index", 2)
    bcheck(self, C.ball_batch_position_to_text(bptr(self, 2), i, bpn_buf, ball.BPN_MAX), 2)
    return ffi.string(bpn_buf)
end

--- An independent ball game at game i's position (a game of the `ball`
--- module, which owns it: closed by game:close() or the collector).
function Batch:game(i)
    i = int_arg(i, "game index", 2)
    local game, slot = ball._game_slot() -- a closed game until the clone fills its slot
    bcheck(self, C.ball_batch_game_clone(bptr(self, 2), i, ffi.cast("ball_game **", slot)), 2)
    return game
end

function Batch:close()
    local p = self.ptr
    if p ~= nil then
        self.ptr = nil
        ffi.gc(p, nil)
        C.ball_batch_free(p)
    end
end

return M
