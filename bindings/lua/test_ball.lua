-- SPDX-License-Identifier: MIT
-- Tests of the Lua binding: the C module bindings/lua/c/*.c (ball.so),
-- the one implementation of `require "ball"` for PUC Lua 5.1-5.4 and
-- LuaJIT (which loads the build for the Lua 5.1 ABI). Run from anywhere:
--   LUA_CPATH='DIR/?.so' lua5.4 bindings/lua/test_ball.lua  (ball.so in DIR;
--   also lua5.1 ... lua5.3, or luajit with the 5.1 build)
-- Under LuaJIT the tests of its 64-bit cdata run too (random_action(r) and
-- seeds taking uint64_t / int64_t cdata, hash() giving a uint64_t, as the
-- 1.0 FFI module did); elsewhere they do not apply (no cdata).
-- The library under test is the one ball.so is linked with (found by the
-- dynamic loader: LD_LIBRARY_PATH or the run path); $B is the Makefile's
-- build directory ("build" by default), whose bin/ball is the `ball` tool
-- used for cross-checks unless BALL_TOOL names another.
-- Prints one line per failure and closes with "N passed, N failed".

local here = debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = (os.getenv("PWD") or ".") .. "/" .. here end
local repo = here .. "/../.."
local B = os.getenv("B") or "build"
local BUILD = B:sub(1, 1) == "/" and B or (repo .. "/" .. B)
local BALL_TOOL = os.getenv("BALL_TOOL") or (BUILD .. "/bin/ball")

local ball = require("ball")
assert(ball.backend == "c", "loaded the " .. tostring(ball.backend) .. " module, not the C module")
-- LuaJIT's FFI, for the cdata the module takes and gives there (nil elsewhere)
local ffi = rawget(_G, "jit") and require("ffi") or nil
local FFI = ffi ~= nil
local SONAME = "libball.so." .. ball.ABI_MAJOR

local START = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"
-- R5.4: DEF's X on E11 steps diagonally to F10, spending 1 PA.
local AFTER_E11_F10 = "7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1"
-- R6.1: X on G9, x on I11, H10 open: G9-I11 is a dodge with exits H10 J10 H12 J12.
local DODGE = "7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1"
local AFTER_DODGE = "7/6/7/6/7/4X1/4x_2/6/7/6/7/6/7/6/7/6/@6 ATK a 1 - 0/0 1"
-- R9.3: stack [X* o] on G9 with only F8 and H8 vacant around it.
local KEEP = "7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2"
-- R9.2: S_ on A1 cannot stand up (B2 holds x); O_ on G5 can.
local NO_SOLUTION = "7/6/7/6/3o3/6/7/6/7/6/7/6/3O_3/6/5X*1/x5/S_6 ATK a 2 - 0/0 2"

local tests, names = {}, {}
local function test(name, fn) names[#names + 1] = name; tests[name] = fn end

local function fmt(v) return type(v) == "string" and ("%q"):format(v) or tostring(v) end
local function eq(got, want, what)
    if got ~= want then
        error(("%s: got %s, expected %s"):format(what or "value", fmt(got), fmt(want)), 2)
    end
end
local function ok(cond, what) if not cond then error(what or "assertion failed", 2) end end
local function raises(name, fn, ...)
    local good, err = pcall(fn, ...)
    if good then error("expected a '" .. name .. "' error, got none", 2) end
    if not ball.is_error(err, name) then
        error("expected a '" .. name .. "' error, got " .. tostring(err), 2)
    end
    return err
end
local function texts(actions)
    local t = {}
    for i, a in ipairs(actions) do t[i] = tostring(a) end
    table.sort(t)
    return table.concat(t, " ")
end
local function run(cmd, input)
    local path
    if input then
        path = os.tmpname()
        local f = assert(io.open(path, "w"))
        f:write(input)
        f:close()
        cmd = cmd .. " < " .. path
    end
    local p = assert(io.popen(cmd, "r"))
    local out = p:read("*a")
    p:close()
    if path then os.remove(path) end
    return out
end
local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- ------------------------------------------------------------ the start

test("R2.3 standard start", function()
    local g = ball.new()
    eq(g:bpn(), START, "bpn")
    eq(ball.START_BPN, START, "START_BPN")
    eq(g:side(), "DEF", "side")
    eq(g:phase(), "action", "phase")
    eq(g:pa(), 2, "pa")
    eq(g:turn(), 1, "turn")
    eq(g:result(), "ongoing", "result")
    eq(g:is_over(), false, "is_over")
    eq(g:winner(), nil, "winner")
    eq(g:handoff_last(), false, "handoff_last")
    eq(g:history_length(), 0, "history")
    eq(g:rules().end_zone_depth, 1, "depth")
    eq(g:rules().turn_limit, 0, "turn limit")
    g:close()
end)

test("R2.2 pieces and squares", function()
    local g = ball.new()
    eq(g:ball_square(), "G5", "ball square")
    local p = g:piece_at("G5")
    eq(p.team, "ATK"); eq(p.type, "X"); eq(p.ball, true); eq(p.active, true)
    eq(p.text, "X*")
    eq(g:piece_at("C11").text, "o")
    eq(g:piece_at("G9"), nil, "empty")
    eq(g:piece_at("G5", "lower"), nil, "no lower")
    eq(g:square("G5").text, "X*")
    eq(g:square("A1").vacant, true)
    eq(g:square(0).name, "A1")
    eq(g:restricted_square(), nil)
    raises("arg", g.piece_at, g, "G5", "middle")
end)

test("diagram matches ball show", function()
    local shown, i = {}, 0
    for line in run(q(BALL_TOOL) .. " show"):gmatch("([^\n]*)\n") do
        shown[#shown + 1] = line
    end
    for line in ball.new():diagram{ legend = true }:gmatch("([^\n]*)\n") do
        i = i + 1
        eq(line, shown[i], "line " .. i)
    end
    eq(i, 23, "ATK's end zone, letters, 17 rows, letters, DEF's end zone, two lines of legend")
    eq(shown[1], "   end zone: ATK scores in row 17") -- R1.4
end)

test("R1 squares", function()
    eq(#ball.squares, 111)
    eq(ball.squares[1], "A1"); eq(ball.squares[56], "G9"); eq(ball.squares[111], "M17")
    eq(ball.square_index("G9"), 55)
    eq(ball.square_name(7), "B2")
    eq(ball.square_at(7, 9), "G9")
    eq(ball.square_col("M1"), 13)
    eq(ball.square_row("M17"), 17)
    eq(ball.distance("A1", "M17"), 16)
    raises("notation", ball.square_index, "B1")
    raises("range", ball.square_index, 111)
    raises("range", ball.square_at, 2, 1)
end)

test("from_bpn, rules, stacks", function()
    local g = ball.from_bpn(KEEP, { end_zone_depth = 2, turn_limit = 50 })
    eq(g:bpn(), KEEP)
    eq(g:rules().end_zone_depth, 2)
    eq(g:rules().turn_limit, 50)
    local s = g:square("G9")
    eq(s.stack, true); eq(s.fresh, false); eq(s.text, "X*o")
    eq(s.lower.team, "DEF"); eq(s.upper.stacked, true)
    eq(g:piece_at("G9", "lower").type, "O")
    raises("range", ball.new, { end_zone_depth = 4 })
    raises("bpn", ball.from_bpn, "nonsense")
end)

test("N1 bad BPN: message, state kept", function()
    local g = ball.new()
    local e = raises("bpn", g.set_bpn, g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S*3/6/7 DEF a 2 - 0/0 1")
    eq(e.code, ball.E_BPN)
    ok(#e.message > 0, "a message")
    ok(tostring(e):find(e.message, 1, true), "tostring carries the message")
    eq(g:bpn(), START)
    raises("arg", g.set_bpn, g, nil)
end)

-- ------------------------------------------------------------ actions

test("legal actions match ball legal", function()
    -- the same set (the tool has an order of its own, see `ball --help`)
    local want = {}
    for a in run(q(BALL_TOOL) .. " legal"):gmatch("%S+") do want[#want + 1] = a end
    table.sort(want)
    eq(texts(ball.new():legal_actions()), table.concat(want, " "))
end)

test("legal_action(i) is legal_actions()[i], fetched alone", function()
    local g = ball.new()
    local list = g:legal_actions()
    eq(g:count_legal_actions(), #list)
    eq(#list, 55)
    for i = 1, #list do eq(g:legal_action(i).code, list[i].code) end
    raises("range", g.legal_action, g, 0)
    raises("range", g.legal_action, g, 56)
    raises("arg", g.legal_action, g, 1.5)
    eq(g:bpn(), START)
end)

test("random_action draws legal decisions", function()
    local g = ball.new()
    local codes = {}
    for _, a in ipairs(g:legal_actions()) do codes[a.code] = true end
    ok(codes[g:random_action().code], "default draw is legal")
    ok(codes[g:random_action(0).code], "0 draws a legal action")
    ok(codes[g:random_action(0.999999).code], "a fraction below 1 draws a legal action")
    -- the same r in each form draws the same decision (docs/bindings.md)
    local top = g:random_action("18446744073709551615").code
    eq(g:random_action("0").code, g:random_action(0).code, "'0' and 0")
    eq(g:random_action(0.5).code, g:random_action("9223372036854775808").code, "0.5 and 2^63")
    eq(g:random_action(0.75).code, g:random_action("13835058055282163712").code, "0.75 and 3 * 2^62")
    if FFI then -- LuaJIT: 64-bit integer cdata, as the 1.0 FFI module took them
        eq(g:random_action(ffi.new("uint64_t", 0) - 1).code, top, "uint64_t 2^64 - 1")
        eq(g:random_action(ffi.new("int64_t", -1)).code, top, "int64_t -1 is 2^64 - 1")
        eq(g:random_action(ffi.new("uint64_t", 2 ^ 63)).code, g:random_action(0.5).code, "uint64_t 2^63")
        eq(g:random_action(ffi.new("int64_t", 2 ^ 62) * -2).code, g:random_action(0.5).code,
           "int64_t -2^63 is 2^63")
        eq(g:random_action(ffi.new("uint64_t", 0)).code, g:random_action("0").code, "uint64_t 0")
        eq(g:random_action(ffi.new("uint64_t", 3) * 2 ^ 62).code, g:random_action(0.75).code,
           "uint64_t 3 * 2^62")
        -- every draw of a uint64_t and of its digits is the same decision
        local x = ffi.new("uint64_t", 12345678901) * 1000000007
        local A = ffi.new("uint64_t", 0x5851F42D) * 2 ^ 32 + 0x4C957F2D -- an LCG (no ULL literals:
        local C = ffi.new("uint64_t", 0x14057B7E) * 2 ^ 32 + 0xF767814F -- PUC Lua parses this file)
        for _ = 1, 50 do
            x = x * A + C
            local digits = tostring(x):gsub("ULL$", "")
            eq(g:random_action(x).code, g:random_action(digits).code, "uint64_t " .. digits)
        end
        -- other cdata are refused: a narrower integer, a pointer, an array
        for _, bad in ipairs{ ffi.new("uint32_t", 5), ffi.new("int8_t", 1), ffi.new("double", 0.5),
                              ffi.new("int[2]"), ffi.cast("void *", 0) } do
            raises("arg", g.random_action, g, bad)
        end
        eq(g:random_playout(ffi.new("uint64_t", 29), 5), 5, "random_playout takes a uint64_t seed")
        local twin = ball.new()
        eq(twin:random_playout("29", 5), 5)
        eq(twin:bpn(), g:bpn(), "a uint64_t seed and its digits: one playout")
        for _ = 1, 5 do g:undo() end
    end
    if math.type then -- Lua 5.3+ integers: their 64 bits
        eq(g:random_action(-1).code, top, "-1 is 2^64 - 1")
        eq(g:random_action(math.mininteger).code, g:random_action(0.5).code, "mininteger is 2^63")
        eq(g:random_action(math.maxinteger).code, g:random_action("9223372036854775807").code,
           "maxinteger is 2^63 - 1")
        raises("arg", g.random_action, g, 1.0) -- a float of 1 or more
    else
        raises("arg", g.random_action, g, -1)
        raises("arg", g.random_action, g, 1)
    end
    for _, bad in ipairs{ -0.5, 2 ^ 53, 2 ^ 64, math.huge, -math.huge, 0 / 0, "", "-1", "+1", "1.5",
                          " 1", "0x10", "18446744073709551616", "99999999999999999999999", true, {} } do
        raises("arg", g.random_action, g, bad)
    end
    eq(g:bpn(), START)
end)

-- Pearson's chi-square of `counts` (a table code -> count) over the n
-- legal decisions `acts`, with `draws` draws in all.
local function chi_square(acts, counts, draws)
    local n, x2 = #acts, 0
    local expect = draws / n
    for _, a in ipairs(acts) do
        local d = (counts[a.code] or 0) - expect
        x2 = x2 + d * d / expect
    end
    return x2
end

-- The chi-square value that a uniform draw passes with probability 0.999
-- (Wilson-Hilferty: z = 3.09 for 0.999), for n - 1 degrees of freedom.
local function chi_square_999(df)
    local k = 2 / (9 * df)
    return df * (1 - k + 3.09 * math.sqrt(k)) ^ 3
end

-- ball_random_action() maps floor(r * n / 2^64): a uniform r from the
-- documented range gives each of the n legal decisions 1/n of the draws.
-- Counted over 50 n draws with a fixed seed and judged by chi-square at
-- 0.999; a uniform r from [0, 2^63) (the old integer range) reaches only
-- the first half of the decisions, and the same test refuses it.
test("random_action is uniform over its documented range", function()
    local g = ball.new()
    local acts = g:legal_actions()
    local n = #acts
    ok(n >= 20, "enough decisions: " .. n)
    local draws, limit = 50 * n, chi_square_999(n - 1)
    local function judge(what, draw)
        math.randomseed(2023)
        local counts = {}
        for _ = 1, draws do
            local c = g:random_action(draw()).code
            counts[c] = (counts[c] or 0) + 1
        end
        return chi_square(acts, counts, draws), what
    end
    local sources = { { "math.random()", function() return math.random() end } }
    if FFI then -- LuaJIT
        sources[#sources + 1] = { "uint64_t of 64 random bits", function()
            return ffi.cast("uint64_t", math.random(0, 0xffff)) * 2 ^ 48
                + ffi.cast("uint64_t", math.random(0, 0xffffff)) * 2 ^ 24 + math.random(0, 0xffffff)
        end }
    end
    if math.type and pcall(math.random, 0) then -- Lua 5.4; 5.3 has math.type, not random(0)
        sources[#sources + 1] = { "math.random(0)", function() return math.random(0) end }
    end
    for _, s in ipairs(sources) do
        local x2, what = judge(s[1], s[2])
        ok(x2 < limit, what .. ": chi-square " .. x2 .. " >= " .. limit)
    end
    -- the power of the test: half the range (63 bits, as a digit string)
    local x2 = judge("[0, 2^63)", function()
        return ("%.0f"):format(math.floor(math.random() * 2 ^ 53) * 2 ^ 10)
    end)
    ok(x2 > 10 * limit, "a draw from [0, 2^63) is refused: chi-square " .. x2)
    eq(g:bpn(), START)
end)

test("action fields", function()
    local g = ball.new()
    local a = g:parse_action("E11-F10")
    eq(a.kind, "move"); eq(a.from, "E11"); eq(a.to, "F10"); eq(a.option, nil)
    eq(a.cost, 1); eq(a.keeper, "none"); eq(a.pickup, false); eq(a.text, "E11-F10")
    eq(tostring(a), "E11-F10")
    eq("played " .. a, "played E11-F10")
    local e = g:parse_action("end")
    eq(e.kind, "end"); eq(e.from, nil); eq(e.cost, 0)
    eq(a, ball.action(a.code), "interned")
    ok(a ~= e)
    local set = { [a] = true }
    ok(set[g:parse_action("E11-F10")], "usable as a table key")
    ok(not pcall(function() a.kind = "dodge" end), "immutable")
    raises("arg", ball.action, 0)
end)

test("R6.1 dodge", function()
    local g = ball.from_bpn(DODGE)
    local exits = {}
    for _, a in ipairs(g:legal_actions()) do
        if a.kind == "dodge" and a.to == "I11" then exits[#exits + 1] = a.option end
    end
    table.sort(exits)
    eq(table.concat(exits, " "), "H10 H12 J10 J12")
    local a = g:apply("G9-I11/J12")
    eq(a.from .. a.to .. a.option, "G9I11J12")
    eq(g:bpn(), AFTER_DODGE)
end)

test("R9.3 release with keeper", function()
    local g = ball.from_bpn(KEEP)
    g:apply("end")
    eq(g:phase(), "release")
    eq(texts(g:legal_actions()), "G9-F8/H8=F8 G9-F8/H8=H8 G9-H8/F8=F8 G9-H8/F8=H8")
    local lower = g:parse_action("G9-F8/H8=H8")
    eq(lower.kind, "unblock"); eq(lower.keeper, "lower"); eq(lower.option, "H8")
    eq(g:parse_action("G9-F8/H8=F8").keeper, "upper")
    g:apply(lower)
    eq(g:bpn(), "7/6/7/6/7/6/7/2OS2/7/2Xo*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3")
end)

test("apply forms, undo, R4.5 hand-over", function()
    local g = ball.new()
    local a = g:parse_action("E11-F10")
    for _, form in ipairs { "E11-F10", a, a.code } do
        eq(g:apply(form), a)
        eq(g:bpn(), AFTER_E11_F10)
        g:undo()
        eq(g:bpn(), START)
    end
    g:apply("E11-F10"); g:apply("end")
    eq(g:side(), "ATK"); eq(g:turn(), 2); eq(g:pa(), 2)
    g:undo(); g:undo()
    eq(g:bpn(), START)
    raises("no_history", g.undo, g)
end)

test("illegal actions raise, state kept", function()
    local g = ball.new()
    local e = raises("illegal", g.apply, g, "G5-F6")
    eq(e.code, ball.E_ILLEGAL)
    ok(#e.message > 0)
    raises("notation", g.apply, g, "hello")
    raises("arg", g.apply, g, {})
    eq(g:bpn(), START)
    ok(g:is_legal("end")); ok(not g:is_legal("G5-F6")); ok(not g:is_legal("zz"))
end)

test("R11.1 touchdown ends the game", function()
    local g = ball.from_bpn("7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2")
    g:apply("G15-F16"); g:apply("F16-E17")
    eq(g:result(), "atk_won"); eq(g:winner(), "ATK"); eq(g:is_over(), true)
    eq(#g:legal_actions(), 0)
end)

test("N3 perft matches ball perft", function()
    local g = ball.new()
    for d = 0, 3 do
        eq(g:perft(d), tonumber(run(q(BALL_TOOL) .. " perft " .. d)), "perft " .. d)
    end
    raises("range", g.perft, g, 65)
end)

-- ------------------------------------------------------------ selection, release

test("R12 selection steps and cancel", function()
    local g = ball.new()
    local c, a = g:select({})
    eq(table.concat(c, " "), "C11 E11 G11 I11 K11 G13 G15"); eq(a, nil)
    c = g:select({ "E11" })
    eq(table.concat(c, " "), "-")
    c = g:select({ "E11", "-" })
    ok(table.concat(c, " "):find("F10"), "F10 is a destination")
    c, a = g:select({ "E11", "-", "F10" })
    eq(#c, 0); eq(tostring(a), "E11-F10")
    -- cancelling is forgetting the list: the game did not change
    eq(g:bpn(), START); eq(g:history_length(), 0)
    raises("illegal", g.select, g, { "G5" })
    raises("notation", g.select, g, { "E11", "F10" })
end)

test("R9.3 release by steps", function()
    local g = ball.from_bpn(KEEP)
    g:apply("end")
    local c = g:select({ "G9", "-" })
    eq(table.concat(c, " "), "F8 H8")
    c = g:select({ "G9", "-", "F8", "H8" })
    eq(table.concat(c, " "), "F8 H8")
    local _, a = g:select({ "G9", "-", "F8", "H8", "H8" })
    eq(tostring(a), "G9-F8/H8=H8")
end)

test("R9.1 release tasks", function()
    local g = ball.from_bpn(NO_SOLUTION)
    eq(#g:release_tasks(), 0)
    g:apply("end")
    local t = g:release_tasks()
    eq(#t, 2)
    eq(t[1].square, "A1"); eq(t[1].kind, "stand_up"); eq(t[1].solvable, false)
    eq(t[2].square, "G5"); eq(t[2].solvable, true)
    eq(#g:task_solutions("A1"), 0)
    eq(texts(g:task_solutions("G5")), "G5-F4 G5-F6 G5-H4 G5-H6")
    raises("illegal", g.task_solutions, g, "G9")
end)

-- ------------------------------------------------------------ lifetime

test("close, clone, garbage collection", function()
    local g = ball.new()
    g:apply("E11-F10")
    local c = g:clone()
    eq(c:bpn(), AFTER_E11_F10); eq(c:history_length(), 1)
    c:apply("end")
    eq(g:bpn(), AFTER_E11_F10)
    c:close(); c:close()
    ok(c:is_closed())
    raises("closed", c.bpn, c)
    eq(tostring(c), "ball.Game(closed)")
    -- Games left to the collector are freed: 20000 leaked games would
    -- take about 100 MB of resident memory.
    local function rss_kb()
        local f = io.open("/proc/self/statm")
        if not f then return 0 end
        local _, resident = f:read("*n", "*n")
        f:close()
        return resident * 4
    end
    -- A full collection every 1000 games keeps the peak low whatever the
    -- collector's pace (Lua 5.3 let the heap reach 33 MB first, and the C
    -- allocator keeps what was freed in the process), while games that
    -- were never freed would still add up.
    local before = rss_kb()
    for i = 1, 20000 do
        ball.new():apply("E11-F10")
        if i % 1000 == 0 then collectgarbage() end
    end
    collectgarbage(); collectgarbage()
    ok(rss_kb() - before < 20000, "memory freed by the collector")
end)

test("position hash", function()
    local g = ball.new()
    local ok_hash, h0 = pcall(g.hash, g)
    if not ok_hash then return end -- an older library without ball_hash()
    g:apply("E11-F10")
    ok(g:hash() ~= h0, "a move changes the hash")
    g:undo()
    eq(g:hash(), h0, "undo restores the hash")
    eq(ball.from_bpn(START):hash(), h0, "same position, same hash")
    if FFI then
        -- LuaJIT: a uint64_t cdata (as the 1.0 FFI module gave), the value
        -- of ball_hash() called here through the FFI on the same game
        ok(ffi.istype("uint64_t", h0), "a uint64_t cdata: " .. tostring(h0))
        ffi.cdef[[
            typedef struct ball_game ball_game;
            uint64_t ball_hash(const ball_game *game);
        ]]
        local C = ffi.load(ball.library_path)
        g:apply("I11-H10")
        eq(g:hash(), C.ball_hash(ffi.cast("ball_game *", ball._game_pointer(g))), "ball_hash()")
        ok(tostring(g:hash()):match("^%d+ULL$"), "tostring: digits and ULL")
    else
        ok(type(h0) == "string" and h0:match("^" .. ("%x"):rep(16) .. "$"), "16 hex digits: " .. tostring(h0))
    end
end)

test("version", function()
    eq(ball.ABI_MAJOR, 1)
    eq(math.floor(ball.version_number / 10000), ball.ABI_MAJOR)
    ok(ball.version:match("^1%.%d+%.%d+$"), "version string")
    ok(ball.library_path:find(SONAME, 1, true) or os.getenv("LIBBALL_PATH"), "soname")
end)

-- ------------------------------------------------------------ ball.h: nothing drifts

local HEADER = repo .. "/include/ball.h"

local function read_file(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local s = f:read("*a")
    f:close()
    return s
end

-- The C code of a header or cdef text, comparable token for token: no
-- comments, no preprocessor lines (nor the C++ guard, nor the experimental
-- section, which the binding does not declare: it may change in any minor
-- release), no static consts, no BALL_API, single spaces and none around
-- punctuation.
local function c_code(text)
    text = text:gsub("/%*.-%*/", " "):gsub("//[^\n]*", " "):gsub("\\\n", " ")
    local lines, skip = {}, false
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        if line:match("^%s*#%s*ifdef%s+__cplusplus") or line:match("^%s*#%s*ifdef%s+BALL_EXPERIMENTAL") then
            skip = true
        elseif skip and line:match("^%s*#%s*endif") then skip = false
        elseif not skip and not line:match("^%s*#") then lines[#lines + 1] = line end
    end
    text = table.concat(lines, "\n")
    text = text:gsub("static%s+const%s+[^;]*;", " "):gsub("BALL_API%s+", "")
    text = text:gsub("%s+", " "):gsub(" ?([%(%)%*,;{}=%[%]]) ?", "%1")
    return (text:gsub("^ ", ""):gsub(" $", ""))
end

-- #define BALL_NAME <integer> and enumerators BALL_NAME = <integer>.
local function header_constants(text)
    local defines, enumerators = {}, {}
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        local name, value = line:match("^%s*#%s*define%s+BALL_([%w_]+)%s+(%-?%w+)%s*$")
        if not name then -- a parenthesised value: #define BALL_E_RECORD (-11)
            name, value = line:match("^%s*#%s*define%s+BALL_([%w_]+)%s+%((%-?%w+)%)%s*$")
        end
        if name then
            local v = tonumber((value:gsub("[uU]$", "")))
            if v then defines[name] = v end
        end
    end
    for name, value in c_code(text):gmatch("BALL_([%w_]+)=(%-?%w+)") do
        enumerators[name] = assert(tonumber(value), value)
    end
    return defines, enumerators
end

local function header_or_skip()
    local text = read_file(HEADER)
    if not text then print("skipped: " .. HEADER .. " is absent") end
    return text
end

test("ball.h: every constant and enumerator, same value", function()
    local text = header_or_skip()
    if not text then return end
    local defines, enumerators = header_constants(text)
    local nd, ne = 0, 0
    for name, value in pairs(defines) do
        nd = nd + 1
        eq(ball[name], value, "ball." .. name)
    end
    for name, value in pairs(enumerators) do
        ne = ne + 1
        eq(ball[name], value, "ball." .. name)
    end
    ok(nd >= 20 and ne >= 100, "parsed " .. nd .. " defines and " .. ne .. " enumerators")
    eq(enumerators.E_RULES, -9); eq(enumerators.E_LIMIT, -10); eq(defines.NO_SQUARE, 127)
    -- every constant of the module is one of the header's
    for name, value in pairs(ball) do
        if type(value) == "number" and name:match("^[A-Z][A-Z0-9_]*$") and name ~= "ABI_MAJOR"
            and name ~= "VERSION_NUMBER" then
            local want = defines[name] or enumerators[name]
            eq(value, want, "ball." .. name .. " in ball.h")
        end
    end
    eq(ball.VERSION_NUMBER, defines.VERSION_MAJOR * 10000 + defines.VERSION_MINOR * 100
                            + defines.VERSION_PATCH, "VERSION_NUMBER")
    eq(ball.ABI_MAJOR, defines.VERSION_MAJOR, "ABI_MAJOR")
    eq(ball.START_BPN, text:match('#define BALL_START_BPN%s*\\?%s*"([^"]*)"'), "START_BPN")
    -- the error names cover every error code
    for name, value in pairs(enumerators) do
        if name:match("^E_") then ok(ball.error_names[value], "no error name for BALL_" .. name) end
    end
    eq(ball.error_names[ball.E_RULES], "rules"); eq(ball.error_names[ball.E_LIMIT], "limit")
end)

test("ball.h: a changed value would be caught", function()
    local text = header_or_skip()
    if not text then return end
    local changed = text:gsub("BALL_E_LIMIT = %-10", "BALL_E_LIMIT = -11")
                        :gsub("#define BALL_MAX_TASKS 14", "#define BALL_MAX_TASKS 15")
    local defines, enumerators = header_constants(changed)
    eq(enumerators.E_LIMIT, -11); eq(defines.MAX_TASKS, 15)
end)

-- ------------------------------------------------------------ arguments are never truncated

-- R2.3, N1: the start at the last turn BPN can write (BALL_MAX_TURN).
local LAST_TURN = START:sub(1, -2) .. "999999999"
-- R10: a move earns 1 PE; ATK holds Sprint (2 PE: +1 PA) and Rally (3 PE),
-- DEF a free Sprint.
local CARDS = "earn.move=1 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:0:pa+1"

test("numbers: non-integral or out of range raise", function()
    local g = ball.new()
    raises("arg", g.perft, g, 2.9)        -- would be perft(2)
    raises("range", g.perft, g, 2 ^ 32 + 3) -- would be perft(3)
    raises("range", g.perft, g, -1)
    raises("range", g.perft, g, ball.MAX_PERFT_DEPTH + 1)
    raises("range", g.perft, g, math.huge)
    raises("arg", g.perft, g, 0 / 0)
    raises("arg", g.perft, g, "2")
    eq(g:perft(1), 55)
    raises("range", ball.new, { turn_limit = -1 })  -- would be 4294967295
    raises("range", ball.new, { turn_limit = 2 ^ 32 })
    raises("range", ball.new, { turn_limit = ball.MAX_TURN })
    raises("arg", ball.new, { turn_limit = 1.5 })
    raises("range", ball.new, { end_zone_depth = 2 ^ 32 + 2 }) -- would be 2
    raises("arg", ball.new, { end_zone_depth = 2.5 })
    raises("arg", ball.new, { end_zone_depth = "2" })
    eq(ball.new({ turn_limit = ball.MAX_TURN - 1 }):rules().turn_limit, ball.MAX_TURN - 1)
    raises("arg", ball.square_at, 7.5, 9)
    raises("range", ball.square_at, 2 ^ 32 + 7, 9) -- would be G9
    raises("range", ball.square_at, 7, -2 ^ 40)
    eq(ball.square_at(7, 9), "G9")
    raises("range", g.legal_action, g, 2 ^ 31 + 1)
    raises("arg", g.legal_action, g, 0 / 0)
    raises("arg", g.apply, g, 2.5)
    raises("arg", g.apply, g, 2 ^ 32 + 1)
    ok(not g:is_legal(1.5))
    raises("arg", g.pe, g, 2.5)
    raises("arg", g.pe, g, 2)
    raises("arg", g.pe, g, "XYZ")
    raises("range", g.hand, g, 2 ^ 32)
    raises("arg", g.select, g, { "E11", 1.5 })
    raises("range", g.select, g, { "E11", 2 ^ 32 + 1 })
    raises("arg", g.select, g, { "E11", "-", "F10", "F10", "F10", "F10" })
    eq(g:bpn(), START)
end)

test("texts: an embedded NUL is refused, not cut off", function()
    local g = ball.new()
    g:apply("E11-F10")
    for _, bad in ipairs { START .. "\0x", START .. "\0", "\0" .. START } do
        local e = raises("bpn", g.set_bpn, g, bad)
        ok(e.message:find("NUL", 1, true), "message names the NUL")
        raises("bpn", ball.from_bpn, bad)
    end
    eq(g:bpn(), AFTER_E11_F10); eq(g:history_length(), 1)
    g:undo()
    for _, bad in ipairs { "E11-F10\0x", "E11-F10\0", "end\0G5-F6" } do
        raises("notation", g.parse_action, g, bad)
        raises("notation", g.apply, g, bad)
        ok(not g:is_legal(bad), "not legal: " .. bad)
    end
    raises("notation", ball.square_index, "G5\0")
    raises("rules", ball.new, { rules_text = "zone=2\0 turns=5" })
    eq(g:bpn(), START)
end)

test("errors rules and limit", function()
    local e = raises("rules", ball.new, { rules_text = "zone=9" })
    eq(e.code, ball.E_RULES); eq(e.code, -9)
    ok(e.message:find("zone=9", 1, true), "message quotes the word")
    raises("arg", ball.new, { rules_text = 3 })
    local g = ball.from_bpn(LAST_TURN)
    eq(g:turn(), ball.MAX_TURN)
    e = raises("limit", g.apply, g, "end") -- the hand-over would pass BALL_MAX_TURN
    eq(e.code, ball.E_LIMIT); eq(e.code, -10)
    ok(#e.message > 0)
    eq(g:bpn(), LAST_TURN); eq(g:history_length(), 0)
    -- every listed decision is played (docs/rules-choices.md, "Turn bound")
    for _, a in ipairs(g:legal_actions()) do
        ok(tostring(a) ~= "end", "end is not listed at the turn bound")
        g:apply(a); g:undo()
    end
    -- stopped: DEF at 0 PA after a hand-off, only `end` left and it would
    -- hand over past the bound; the game goes on with nothing to play
    local stopped = ball.from_bpn("7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 DEF a 0 h 0/0 999999999")
    eq(stopped:count_legal_actions(), 0)
    ok(not stopped:is_over(), "a stopped game is not over")
    e = raises("range", stopped.random_action, stopped, 0)
    ok(e.message:find("999999999", 1, true), "the message names the bound")
    raises("limit", stopped.apply, stopped, "end")
end)

test("1.0 contracts: no square is nil, int getters", function()
    local g = ball.new()
    local e = g:parse_action("end")
    eq(e.from, nil); eq(e.to, nil); eq(e.option, nil); eq(e.value, nil)
    eq(g:parse_action("E11-F10").value, nil)
    eq(g:restricted_square(), nil)
    eq(type(g:turn()), "number"); eq(type(g:history_length()), "number")
    eq(g:pe("ATK"), 0); eq(g:hand(1), 0); eq(#g:cards("DEF"), 0); eq(g:rules_text(), "")
end)

test("R10 card mode through rules text", function()
    local g = ball.new({ rules_text = CARDS })
    eq(g:rules_text(), CARDS)
    local atk = g:cards("ATK")
    eq(#atk, 2)
    eq(atk[1].name, "Sprint"); eq(atk[1].cost, 2); eq(atk[1].effect, "gain_pa"); eq(atk[1].amount, 1)
    eq(atk[2].name, "Rally"); eq(atk[2].effect, "unrestrict"); eq(atk[2].amount, 0)
    eq(g:hand("ATK"), 3)
    g:apply("E11-F10") -- DEF earns 1 PE
    eq(g:pe("DEF"), 1); eq(g:pe(0), 0); eq(g:pa(), 1)
    local byname = {}
    for _, a in ipairs(g:legal_actions()) do byname[a.text] = a end
    local pe1, card = byname["pe+1"], byname["card1"]
    eq(pe1.kind, "convert_pa"); eq(pe1.value, 1); eq(pe1.cost, 1); eq(pe1.from, nil)
    eq(card.kind, "play_card"); eq(card.value, 0); eq(card.from, nil)
    g:apply(card)
    eq(g:pa(), 2); eq(g:hand("DEF"), 0)
    g:undo()
    eq(g:hand("DEF"), 1)
    eq(g:clone():rules_text(), CARDS)
    local z = ball.new({ rules_text = CARDS, end_zone_depth = 2, turn_limit = 9 })
    eq(z:rules().end_zone_depth, 2); eq(z:rules().turn_limit, 9)
    ok(z:rules_text():find("zone=2", 1, true) and z:rules_text():find("turns=9", 1, true))
end)

-- ------------------------------------------------------------ random game vs ball trace

-- The Park-Miller generator: exact in doubles and in Lua 5.3+ integers,
-- so every Lua plays the same games.
local function xorshift32(state)
    return state * 48271 % 2147483647
end

test("random game matches ball trace", function()
    local g = ball.new()
    local function line()
        return g:bpn() .. "\t" .. texts(g:legal_actions())
    end
    local lines, played, rng = { line() }, {}, 12345
    while #played < 500 and not g:is_over() do
        local acts = g:legal_actions()
        rng = xorshift32(rng)
        local a = acts[rng % #acts + 1] -- Lua's % is never negative here
        g:apply(a)
        played[#played + 1] = a.text
        lines[#lines + 1] = line()
    end
    ok(#played > 50, "a long game")
    local out = run(q(BALL_TOOL) .. " trace", table.concat(played, "\n") .. "\n")
    local i = 0
    for got in out:gmatch("([^\n]*)\n") do
        i = i + 1
        -- the tool lists the actions in an order of its own: compare sets
        local bpn, list = got:match("^([^\t]*)\t?(.*)$")
        local acts = {}
        for a in list:gmatch("%S+") do acts[#acts + 1] = a end
        table.sort(acts)
        eq(bpn .. "\t" .. table.concat(acts, " "), lines[i], "trace line " .. i)
    end
    eq(i, #lines, "number of trace lines")
end)

-- ------------------------------------------------------------ card mode (R10)

-- The ruleset of tests/rules/test_r10_games.c (RANDOM_RULES).
local RANDOM_RULES = "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=5 earn.tactical=7 "
    .. "earn.block=11 earn.protect=13 earn.handoff=17 earn.short=19 earn.long=23 "
    .. "earn.standup=29 earn.unblock=31 earn.unprotect=37 "
    .. "atk=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again,I:0:pa+3 "
    .. "def=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again"
local EARN = { move = 1, pickup = 2, dodge = 3, fumble = 5, tactical = 7, block = 11,
               protect = 13, handoff = 17, short = 19, long = 23, standup = 29,
               unblock = 31, unprotect = 37 }
local function deck(extra)
    local d = { { "A", 0, "pa+1" }, { "B", 0, "again" }, { "C", 1, "gain_pa", 2 },
                { "D", 2, "unrestrict", 0 }, { "E", 3, "pa+1" }, { "F", 0, "again" },
                { "G", 40, "pa+9" }, { "H", 9, "again" } }
    if extra then d[#d + 1] = extra end
    return d
end

test("R10 card ruleset from options equals the rules text", function()
    local a = ball.new({ rules_text = RANDOM_RULES })
    local b = ball.new({ earn = EARN, cards = { ATK = deck({ "I", 0, "pa+3" }), DEF = deck() } })
    eq(b:rules_text(), a:rules_text(), "rules text")
    eq(b:bpn(), a:bpn(), "bpn")
    ok(b:card_mode(), "card mode")
    eq(b:earnings().tactical, 7); eq(b:earnings().unprotect, 37)
    eq(#b:cards("ATK"), 9); eq(b:cards("DEF")[3].amount, 2)
    eq(ball.new({ earn = {} }):card_mode(), true)
    eq(ball.new():card_mode(), false)
    eq(next(ball.new():earnings()), nil)
    eq(ball.new({ cards = { DEF = { { "Go", 1, "pa+2" } } } }):rules_text(), "def=Go:1:pa+2")
    raises("arg", ball.new, { earn = { nosuch = 1 } })
    raises("range", ball.new, { earn = { move = 1000 } })
    raises("range", ball.new, { cards = { ATK = { { "bad name", 1, "pa+1" } } } })
    raises("arg", ball.new, { cards = { ATK = { { "X", 0, "fly" } } } })
    raises("arg", ball.new, { cards = { XYZ = {} } })
    raises("arg", ball.new, { rules_text = "atk=S:1:pa+1", earn = { move = 1 } })
end)

test("R10.2 R10.4 conversions and card plays, undone", function()
    local g = ball.new({ rules_text = CARDS })
    eq(texts(g:conversions()), "pe+1 pe+2")
    g:apply("E11-F10")
    eq(texts(g:conversions()), "pe+1"); eq(texts(g:card_plays()), "card1")
    local play = g:play_card("Sprint")
    ok(play.is_card_play and not play.is_conversion, "a card play")
    eq(g:pa(), 2); eq(g:hand("DEF"), 0); eq(#g:hand_cards("DEF"), 0)
    raises("illegal", g.play_card, g, "Sprint")
    local conv = g:convert(2)
    ok(conv.is_conversion, "a conversion"); eq(conv.value, 2)
    eq(g:pa(), 0); eq(g:pe("DEF"), 3)
    g:undo(); g:undo()
    eq(g:pa(), 1); eq(g:pe("DEF"), 1); eq(g:hand("DEF"), 1)
    eq(g:hand_cards("ATK")[2].name, "Rally"); eq(g:hand_cards("ATK")[2].index, 1)
    raises("illegal", g.convert, g, 3)
end)

test("R10 random card games match ball --rules trace", function()
    local kinds = {}
    for seed = 1, 3 do
        local g = seed == 3 and ball.new({ earn = EARN, cards = { ATK = deck({ "I", 0, "pa+3" }), DEF = deck() } })
            or ball.new({ rules_text = RANDOM_RULES })
        local function line() return g:bpn() .. "\t" .. texts(g:legal_actions()) end
        local lines, played, rng = { line() }, {}, 777 * seed
        while #played < 300 and not g:is_over() do
            local acts = g:legal_actions()
            rng = xorshift32(rng)
            local a = acts[rng % #acts + 1]
            local before = g:bpn() .. g:pe(0) .. g:pe(1) .. g:hand(0) .. g:hand(1)
            g:apply(a); g:undo()
            eq(g:bpn() .. g:pe(0) .. g:pe(1) .. g:hand(0) .. g:hand(1), before, "undo")
            g:apply(a)
            kinds[a.kind] = true
            played[#played + 1] = a.text
            lines[#lines + 1] = line()
        end
        local out = run(q(BALL_TOOL) .. " --rules " .. q(RANDOM_RULES) .. " trace",
                        table.concat(played, "\n") .. "\n")
        local i = 0
        for got in out:gmatch("([^\n]*)\n") do
            i = i + 1
            local bpn, list = got:match("^([^\t]*)\t?(.*)$")
            local acts = {}
            for a in list:gmatch("%S+") do acts[#acts + 1] = a end
            table.sort(acts)
            eq(bpn .. "\t" .. table.concat(acts, " "), lines[i], "seed " .. seed .. " trace line " .. i)
        end
        eq(i, #lines, "number of trace lines")
    end
    ok(kinds.convert_pa and kinds.play_card, "conversions and cards were played")
end)

-- ------------------------------------------------------------ metamethods

test("games: ==, tostring, close, errors carry the library's message", function()
    local a, b = ball.new(), ball.new()
    ok(a == b, "same start, same rules")
    ok(a ~= ball.new({ rules_text = CARDS }), "other rules")
    a:apply("E11-F10")
    ok(a ~= b, "other position")
    eq(tostring(b), b:diagram():sub(1, -2)) -- the board, drawn by the library
    local good, err = pcall(b.set_bpn, b, "7/6/3s3 DEF")
    ok(not good and ball.is_error(err, "bpn"), "a bpn error")
    ok(#err.message > 10 and tostring(err):find(err.message, 1, true), "the library's message")
    eq(err.code, ball.E_BPN)
    if _VERSION == "Lua 5.4" then -- to-be-closed variables
        local chunk = assert(load([[
            local ball = ...
            local keep
            do
                local g <close> = ball.new()
                keep = g
            end
            return keep:is_closed()
        ]]))
        eq(chunk(ball), true, "closed at the end of the block")
    end
end)

-- ------------------------------------------------------------ whole games

-- A game of up to n decisions drawn by a Park-Miller generator from seed
-- (the same on every Lua: the products stay below 2^53).
local function random_game(seed, n, opts)
    local g = ball.new(opts)
    local x = seed
    while g:history_length() < n and not g:is_over() do
        x = (x * 16807) % 2147483647
        g:apply(g:legal_action(x % g:count_legal_actions() + 1))
    end
    return g
end
local RANDOM_GAMES = {
    { 1, 40 }, { 2, 400 }, { 2024, 600 }, { 3, 300, { end_zone_depth = 2 } },
    { 7, 400, { end_zone_depth = 2, turn_limit = 30 } }, { 11, 200, { turn_limit = 5 } },
    { 5, 150, { rules_text = CARDS } }, { 9, 120, { bpn = DODGE } },
    { 13, 120, { bpn = KEEP, end_zone_depth = 3 } }, { 17, 0 },
}

test("history: move_stack, peek, pop and positions read from the library", function()
    for _, spec in ipairs(RANDOM_GAMES) do
        local g = random_game(spec[1], spec[2], spec[3])
        local played = g:history()
        eq(#played, g:history_length(), "history length")
        eq(#g:move_stack(), #played, "move_stack")
        local again = ball.new{ bpn = g:history_position(1), rules_text = g:rules_text() }
        for i, a in ipairs(played) do
            eq(g:history_action(i), a, "history_action " .. i)
            again:apply(a)
        end
        ok(again == g, "the history replays into the game")
        eq(g:history_position(#played + 1), g:bpn(), "last position")
        for i = #played, 1, -1 do
            eq(g:peek(), played[i], "peek")
            eq(g:history_position(i + 1), g:bpn(), "position " .. i)
            eq(g:pop(), played[i], "pop")
        end
        eq(g:peek(), nil, "nothing left")
        raises("no_history", g.pop, g)
    end
    local g = ball.new()
    eq(g:push("E11-F10").text, "E11-F10")
    eq(g:history_position(1), START); eq(g:history_position(2), AFTER_E11_F10)
    raises("range", g.history_position, g, 3)
    raises("range", g.history_action, g, 2)
    raises("range", g.history_action, g, 0)
    g:set_bpn(START)
    eq(#g:history(), 0, "a new position starts a new history")
end)

test("records: round trip over random games", function()
    for _, spec in ipairs(RANDOM_GAMES) do
        local g = random_game(spec[1], spec[2], spec[3])
        local text = g:record{ event = "Seed " .. spec[1], date = "2026-11-30", ATK = "random",
                               DEF = "random too" }
        eq(g:tags().Event, "", "record{} leaves the game's tags alone")
        local back = ball.from_record(text)
        ok(back == g, "same position and rules")
        eq(back:result(), g:result())
        eq(texts(back:history()), texts(g:history()), "same history")
        eq(back:history_position(1), g:history_position(1), "same start")
        local tags = back:tags()
        eq(tags.Event, "Seed " .. spec[1]); eq(tags.Site, ""); eq(tags.DEF, "random too")
        eq(back:record(), text, "the record writes back the same")
    end
    local draw = random_game(7, 100000, { end_zone_depth = 2, turn_limit = 30 })
    eq(draw:result(), "draw")
    eq(ball.from_record(draw:record()):result(), "draw", "a draw on the turn limit survives")
end)

test("records: several per text, tags", function()
    local parts, games = {}, {}
    for i, spec in ipairs(RANDOM_GAMES) do
        games[i] = random_game(spec[1], spec[2], spec[3])
        parts[i] = games[i]:record()
    end
    local text = table.concat(parts, "\n") .. "\n\n"
    local n = 0
    for g in ball.read_records(text) do
        n = n + 1
        ok(g == games[n], "game " .. n)
        eq(#g:history(), games[n]:history_length(), "history of game " .. n)
    end
    eq(n, #games, "every record read")
    local count = 0
    for _ in ball.read_records("\n  \n") do count = count + 1 end
    eq(count, 0, "blank text: no record")
    raises("record", ball.from_record, text)
    raises("record", ball.from_record, "")
    local g = ball.new()
    g:set_tag("event", "Club night"); g:set_tag("DEF", "Bo")
    eq(g:tags().Event, "Club night")
    eq(g:record{ site = "Lyon", DEF = false },
       '[Event "Club night"]\n[Site "Lyon"]\n[Rules ""]\n[Result "*"]\n\n*\n')
    eq(g:tags().DEF, "Bo", "record's tags are its own")
    g:set_tag("Event", 'say "hi" \\ bye')
    eq(ball.from_record(g:record()):tags().Event, 'say "hi" \\ bye')
    g:set_tag("Event", nil)
    eq(g:tags().Event, "")
    raises("range", g.set_tag, g, "Site", ("x"):rep(128))
    raises("range", g.set_tag, g, "Site", "line\nbreak")
    raises("arg", g.set_tag, g, "Round", "1")
    raises("arg", g.record, g, { round = "1" })
    eq(ball.TAGS[4], "ATK")
end)

test("records: malformed ones raise a 'record' error with the line", function()
    local good = '[Rules ""]\n[Result "*"]\n\n1. DEF: E11-F10 end\n2. ATK: G5-H6 end\n*\n'
    eq(ball.from_record(good):history_length(), 4)
    local cases = {
        { good:gsub("%[Rules", "[Rulez"), 1, ball.E_RECORD },
        { good:gsub("G5%-H6", "G5-G7"), 5, ball.E_ILLEGAL },
        { good:gsub("G5%-H6", "G5-"), 5, ball.E_NOTATION },
        { good:gsub("2%. ATK", "3. ATK"), 5, ball.E_RECORD },
        { good:gsub('"%]\n%[Result', 'zone=9"]\n[Result'), 1, ball.E_RULES },
        { good:sub(1, -3), 6, ball.E_RECORD },
        { good:gsub("\n%*\n$", "\n1-0\n"), 6, ball.E_RECORD },
    }
    for i, case in ipairs(cases) do
        local err = raises("record", ball.from_record, case[1])
        eq(err.code, case[3], "code of case " .. i .. ": " .. err.message)
        eq(err.line, case[2], "line of case " .. i .. ": " .. err.message)
        ok(err.column and err.column >= 1, "column of case " .. i)
        ok(err.message:find("line " .. case[2], 1, true), "message of case " .. i)
    end
    local next_game = ball.read_records(good .. "\n" .. (good:gsub("G5%-H6", "G5-G7")))
    ok(next_game() ~= nil, "the good record first")
    eq(raises("record", next_game).line, 12, "then the error")
    raises("record", ball.from_record, "1. DEF: end\0\n")
end)

-- The pieces drawn in an SVG text: { [square] = "classes" }.
local function svg_pieces(svg)
    local t, n = {}, 0
    for classes, square in svg:gmatch('<g class="piece ([^"]*)" data%-square="(%w+)"') do
        t[square] = classes
        n = n + 1
    end
    return t, n
end

test("drawings: SVG and the text diagram", function()
    local g = ball.new()
    local svg = g:svg()
    ok(svg:find("^<%?xml") and svg:find("</svg>\n$"), "an SVG document")
    local pieces, n = svg_pieces(svg)
    eq(n, 14, "the pieces of the start")
    eq(pieces.G5, "atk x ball"); eq(pieces.G3, "atk s"); eq(pieces.E11, "def x")
    local marked = g:svg{ highlight = { "E11", "F10" }, action = "E11-F10" }
    local _, highlights = marked:gsub('class="highlight"', "")
    eq(highlights, 2, "highlighted squares")
    local _, arrows = marked:gsub('class="arrow"', "")
    eq(arrows, 1, "one arrow")
    local _, one = g:svg{ highlight = "G5" }:gsub('class="highlight"', "")
    eq(one, 1, "one square alone")
    ok(#g:svg{ coords = false } < #svg, "no coordinates")
    raises("illegal", g.svg, g, { action = "E11-E9" })
    raises("notation", g.svg, g, { highlight = { "Z99" } })
    -- the text diagram: the library's, as `ball show` prints it
    local text = g:diagram{ legend = true }
    eq(run(BALL_TOOL .. " show"):sub(1, #text), text, "ball show")
    ok(g:diagram{ highlight = { "G5" } }:find(">X%*"), "a highlighted square")
    eq(tostring(g), g:diagram():sub(1, -2))
    local k = ball.new{ bpn = KEEP }
    ok(tostring(k):find("X*o", 1, true), "a stack: upper then lower")
end)

-- ------------------------------------------------------------ the MCTS player

local SELFPLAY = os.getenv("SELFPLAY") or (BUILD .. "/examples/selfplay")
-- R11.1 with R1.4: ATK's X* on F16 scores by F16-E17 or F16-G17 (112
-- legal decisions); the mirror for DEF, x* on F2 to E1 or G1.
local ATK_TOUCHDOWN = "7/2X*3/7/6/7/6/7/6/7/6/7/6/3x3/6/7/6/7 ATK a 2 - 0/0 1"
local DEF_TOUCHDOWN = "7/6/7/6/7/6/7/6/7/6/7/6/3X3/6/7/2x*3/7 DEF a 2 - 0/0 1"
-- The start with no PA left (R4.2): `end` is the only legal decision.
local ONLY_END = START:gsub(" a 2 ", " a 0 ")

-- a XOR b for 32-bit non-negative integers, in arithmetic (Lua 5.1 has no
-- bit operators, LuaJIT's are signed).
local function xor32(a, b)
    local r, p = 0, 1
    for _ = 1, 32 do
        local x, y = a % 2, b % 2
        if x ~= y then r = r + p end
        a, b, p = (a - x) / 2, (b - y) / 2, p * 2
    end
    return r
end

-- The record of one `selfplay --games 1 ARGS` game (the C library's MCTS).
local function selfplay_record(args)
    local f = io.open(SELFPLAY, "rb")
    ok(f, SELFPLAY .. " not built (make examples, or set SELFPLAY)")
    f:close()
    local path = os.tmpname()
    run(q(SELFPLAY) .. " --games 1 --record " .. q(path) .. " " .. args .. " >/dev/null")
    local text = read_file(path)
    os.remove(path)
    ok(text and text ~= "", "selfplay wrote no record")
    return text
end

-- Replays a selfplay record, asking players[side] (nil: none) for each
-- decision of its side: each must be the decision of the record.
local function replay_against(text, players)
    local played = ball.from_record(text)
    local moves = played:history()
    ok(#moves > 10, "a long enough game")
    local g = ball.new{ bpn = played:history_position(1), rules_text = played:rules_text() }
    local searched = 0
    for i, move in ipairs(moves) do
        local player = players[g:side()]
        if player then
            local before = g:bpn()
            local chosen = player:choose(g)
            eq(g:bpn(), before, "game unchanged")
            eq(chosen, move, ("decision %d (%s, turn %d)"):format(i, g:side(), g:turn()))
            searched = searched + 1
        end
        g:push(move)
    end
    eq(g:result(), played:result(), "result")
    return searched
end

test("MCTS: the decisions of the C library (selfplay)", function()
    -- selfplay game 1 of --seed S seeds ATK's searcher with S + 1, DEF's
    -- with (S + 1) XOR 0x9e3779b9 (examples/selfplay.c, players.c).
    local S = 41
    local text = selfplay_record("--seed 41 --turn-limit 8 --atk mcts:playouts=120 "
                                 .. "--def mcts:playouts=80,turns=1,c=1.5")
    local atk = ball.mcts{ playouts = 120, seed = S + 1 }
    local dfn = ball.mcts{ playouts = 80, playout_turns = 1, exploration = 1.5,
                           seed = xor32(S + 1, 0x9e3779b9) }
    ok(replay_against(text, { ATK = atk, DEF = dfn }) > 10, "decisions searched")
    S = 7
    text = selfplay_record("--seed 7 --turn-limit 6 --atk random --def mcts:playouts=60,turns=0,c=0.3")
    dfn = ball.mcts{ playouts = 60, playout_turns = 0, exploration = 0.3,
                     seed = xor32(S + 1, 0x9e3779b9) }
    ok(replay_against(text, { DEF = dfn }) > 3, "decisions searched")
    -- the replay notices a wrong setting: the seed
    text = selfplay_record("--seed 41 --turn-limit 8 --atk random --def mcts:playouts=120")
    local good = pcall(replay_against, text, { DEF = ball.mcts{ playouts = 120, seed = 42 } })
    ok(not good, "another seed gives other decisions")
end)

test("MCTS: the game is left as it was; stats", function()
    local g = ball.new{ turn_limit = 30 }
    for _, a in ipairs({ "E11-F10", "G11-I9", "end" }) do g:push(a) end
    local bpn, n, h = g:bpn(), g:history_length(), tostring(g:hash())
    local m = ball.mcts{ playouts = 150, seed = 3 }
    local a, st = m:choose(g)
    eq(g:bpn(), bpn); eq(g:history_length(), n); eq(tostring(g:hash()), h)
    ok(ball.is_action(a) and g:is_legal(a), "a legal action")
    eq(st.playouts, 150, "playouts")
    ok(st.nodes > 1 and st.nodes <= 151, "nodes")
    ok(st.visits > 0 and st.value >= 0 and st.value <= 1 and st.elapsed_ms >= 0, "stats")
    ok(type(st.max_depth) == "number", "max_depth")
    local k = ball.new{ bpn = KEEP } -- a release phase (R9.3)
    k:push("end")
    bpn = k:bpn()
    ok(k:is_legal(m:choose(k)), "a release decision")
    eq(k:bpn(), bpn)
    local only = ball.new{ bpn = ONLY_END }
    local e, est = m:choose(only)
    eq(tostring(e), "end"); eq(est.playouts, 0)
end)

test("MCTS: an immediate touchdown is played", function()
    for _, case in ipairs({ { ATK_TOUCHDOWN, "ATK" }, { DEF_TOUCHDOWN, "DEF" } }) do
        local g = ball.new{ bpn = case[1] }
        eq(g:count_legal_actions(), 112)
        local a, st = ball.mcts{ playouts = 30, seed = 9 }:choose(g)
        eq(g:bpn(), case[1])
        g:apply(a)
        eq(g:winner(), case[2], "winner after " .. tostring(a))
        eq(st.playouts, 0); eq(st.value, 1)
    end
end)

test("MCTS: a seed repeats its decisions; config", function()
    local g = ball.new()
    local m, twin = ball.mcts{ playouts = 60, seed = 5 }, ball.mcts{ playouts = 60, seed = 5 }
    local first = {}
    for i = 1, 4 do first[i] = m:choose(g) end
    for i = 1, 4 do eq(twin:choose(g), first[i], "twin " .. i) end
    m:seed(5)
    for i = 1, 4 do eq(m:choose(g), first[i], "reseeded " .. i) end
    local c = m:config()
    eq(c.playouts, 60); eq(c.seed, 5); eq(c.time_ms, 0); eq(c.playout_turns, 1)
    eq(c.exploration, 0.3); eq(c.max_nodes, 0)
    eq(tostring(m), "ball.mcts{ playouts = 60, time_ms = 0, seed = 5, playout_turns = 1, "
                    .. "exploration = 0.3, max_nodes = 0 }")
    local d = ball.mcts():config() -- the library's defaults
    eq(d.playouts, 1000); eq(d.seed, 1)
    local t = ball.mcts{ time_ms = 5 } -- a time budget alone: no playout limit
    eq(t:config().playouts, 0)
    local _, st = t:choose(g)
    ok(st.playouts > 0, "searched for 5 ms")
    eq(ball.mcts{ playouts = 100, time_ms = 5 }:config().playouts, 100)
    if FFI then -- LuaJIT: a seed beyond 2^53 as a uint64_t cdata (as in 1.0)
        local top = ffi.new("uint64_t", 0) - 1
        m:seed(top) -- 2^64 - 1
        local big = ball.mcts{ playouts = 60, seed = top }
        eq(big:config().seed, top, "config gives the uint64_t back")
        ok(ffi.istype("uint64_t", big:config().seed), "as a uint64_t")
        ok(tostring(big):find("seed = 18446744073709551615,", 1, true), tostring(big))
        -- a uint64_t seed below 2^53 is the number's seed
        local a, b = ball.mcts{ playouts = 60, seed = ffi.new("uint64_t", 5) }, ball.mcts{ playouts = 60, seed = 5 }
        for i = 1, 3 do eq(a:choose(g), b:choose(g), "uint64_t 5 and 5, decision " .. i) end
        eq(a:config().seed, 5, "below 2^53: a number")
        raises("arg", ball.mcts, { seed = ffi.new("int64_t", 5) }) -- 1.0: a uint64_t only
        raises("arg", ball.mcts, { seed = ffi.new("uint32_t", 5) })
        raises("arg", m.seed, m, ffi.new("int64_t", 5))
        local s = ball.turn_search{ nodes = 100, hash_mb = 1, seed = top }
        eq(s:config().seed, top, "turn search: a uint64_t seed")
    end
    ok(g:is_legal(m:choose(g)), "any seed")
end)

test("MCTS: bad settings raise with the library's message", function()
    local cases = {
        { { playouts = -1 }, "range", "playouts 0-1000000000" },
        { { playouts = 1000000001 }, "range", "playouts 0-1000000000" },
        { { playouts = 0 }, "range", "no budget" },
        { { time_ms = -5 }, "range", "time_ms 0-86400000" },
        { { playout_turns = 1001 }, "range", "playout_turns 0-1000" },
        { { max_nodes = -1 }, "range", "max_nodes >= 0" },
        { { exploration = 100.5 }, "range", "exploration must lie in 0-100" },
        { { exploration = 0 / 0 }, "range", "exploration" },
        -- checked by the binding before C: never truncated
        { { playouts = 2 ^ 31 }, "range", "playouts" },
        { { seed = -1 }, "range", "seed" },
        { { seed = 2 ^ 64 }, "range", "seed" },
        { { playouts = 10.5 }, "arg", "playouts" },
        { { playouts = "100" }, "arg", "playouts" },
        { { seed = 1.5 }, "arg", "seed" },
        { { exploration = "0.7" }, "arg", "exploration" },
        { { playout = 100 }, "arg", "unknown option playout" },
    }
    for _, case in ipairs(cases) do
        local err = raises(case[2], ball.mcts, case[1])
        ok(err.message:find(case[3], 1, true), ("%s: message %q"):format(case[3], err.message))
    end
    raises("arg", ball.mcts, 1000)
    local m = ball.mcts{ playouts = 10 }
    raises("range", m.seed, m, -1)
    raises("arg", m.seed, m, 0.5)
    raises("arg", m.choose, m, START)
    raises("arg", m.choose, m, nil)
end)

test("MCTS: closed searcher, closed or finished game", function()
    local g = ball.new{ bpn = ATK_TOUCHDOWN }
    local m = ball.mcts{ playouts = 20 }
    g:apply("F16-E17")
    local bpn = g:bpn()
    local err = raises("range", m.choose, m, g)
    ok(err.message:find("game is over (ATK won)", 1, true), err.message)
    eq(g:bpn(), bpn); eq(g:history_length(), 1)
    local d = ball.new{ bpn = ONLY_END, turn_limit = 1 }
    d:apply("end") -- turn 1 was the last (R11.2)
    ok(raises("range", m.choose, m, d).message:find("a draw", 1, true), "a draw")
    local closed_game = ball.new()
    closed_game:close()
    ok(raises("closed", m.choose, m, closed_game).message:find("game is closed", 1, true))
    m:close(); m:close()
    ok(m:is_closed(), "closed")
    ok(raises("closed", m.choose, m, ball.new()).message:find("searcher is closed", 1, true))
    raises("closed", m.seed, m, 1)
    ok(tostring(m):find("^closed ball%.mcts{"), tostring(m))
    -- searchers left to the collector are freed (their finaliser runs)
    local fresh = ball.new()
    for i = 1, 200 do ball.mcts{ playouts = 5, seed = i }:choose(fresh) end
    collectgarbage(); collectgarbage()
    eq(fresh:bpn(), START)
end)

-- ------------------------------------------------------------ the turn search

-- ATK X* on G13 with 2 PA, DEF x on A1: two 2-square diagonal moves (R5.1,
-- R4.3: 1 PA each) take the carrier from row 13 to row 17, ATK's target end
-- zone (R1.4), a touchdown this turn (R11.1). The same position as
-- tests/search/test_search.c's IN_ONE.
local IN_ONE = "7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2"
-- The position of issue 25 (tests/search/test_search.c's ISSUE25).
local ISSUE25 = "7/6/3s3/6/7/3x2/4x*S1/3xo1/1O5/4[sX_]1/1o5/1X3O/3X2S/6/7/6/7 ATK a 2 - 0/0 34"

local function state_of(g) return g:bpn() .. "|" .. g:history_length() .. "|" .. tostring(g:hash()) end

-- Replays `actions` on a copy of `g`, each legal when played; returns the copy.
local function replay(g, actions, what)
    local c = g:clone()
    for i, a in ipairs(actions) do
        ok(c:is_legal(a), ("%s: decision %d (%s) legal"):format(what, i, tostring(a)))
        c:apply(a)
    end
    return c
end

local function joined(actions)
    local t = {}
    for i, a in ipairs(actions) do t[i] = tostring(a) end
    return table.concat(t, " ")
end

test("turn search: a touchdown this turn is found and proven (R5.1, R1.4, R11.1)", function()
    local g = ball.new{ bpn = IN_ONE }
    local before = state_of(g)
    local s = ball.turn_search{ nodes = 100000, hash_mb = 4 }
    local r = s:analyse(g)
    eq(state_of(g), before, "the game is left as it was")
    eq(r.proven, 1, "proven"); eq(r.value, 1, "value"); eq(r.decisions_to_end, 2, "decisions")
    eq(r.stopped, false, "stopped")
    eq(#r.best_turn, 2, "the best turn: two moves")
    eq(r.best_turn[1], r.best); eq(r.lines[1].action, r.best)
    eq(r.best_turn_text, joined(r.best_turn))
    eq(r.best.from, "G13"); eq(r.best.kind, "move")
    local done = replay(g, r.best_turn, "best turn")
    eq(done:winner(), "ATK", "the best turn scores")
    eq(ball.square_row(r.best_turn[2].to), 17, "in row 17")
    eq(s:choose(g), r.best, "choose")
    eq(state_of(g), before)
    -- a decision of a release phase is searched too (R9.3)
    local k = ball.new{ bpn = KEEP }
    k:push("end")
    local kb = state_of(k)
    ok(k:is_legal(s:choose(k)), "a release decision")
    eq(state_of(k), kb)
end)

test("learned evaluation: ball.net_file, net:evaluate, a turn search with eval = net", function()
    local net = ball.net_file("share/net/value.net")
    eq(net:is_closed(), false)
    local g = ball.new{ bpn = ISSUE25 }
    local before = state_of(g)
    local v = net:evaluate(g)
    eq(state_of(g), before, "evaluate leaves the game as it was")
    ok(type(v) == "number" and v > -1 and v < 1, "a value in (-1, 1): " .. tostring(v))
    eq(net:evaluate(g), v, "the same value again")
    local f = assert(io.open("share/net/value.net", "rb"))
    local bytes = f:read("*a")
    f:close()
    eq(ball.net(bytes):evaluate(g), v, "ball.net(bytes) is the same network")
    if ffi then
        -- the library called directly, not through the module
        ffi.cdef[[
            typedef struct ball_net ball_net;
            int ball_net_load(ball_net **out, const void *data, size_t len, char *err, size_t errlen);
            int ball_net_evaluate(const ball_net *net, const void *game, double *value);
            void ball_net_free(ball_net *net);
            int ball_game_from_text(void **out, const char *bpn, const void *cards, char *err, size_t errlen);
        ]]
        local lib = ffi.load(ball.library_path)
        local out, val = ffi.new("ball_net *[1]"), ffi.new("double[1]")
        eq(lib.ball_net_load(out, bytes, #bytes, nil, 0), 0, "loaded through the FFI")
        local h = ffi.cast("void *", ball._game_pointer(g))
        eq(lib.ball_net_evaluate(out[0], h, val), 0)
        eq(v, tonumber(val[0]), "the module's value is the library's")
        lib.ball_net_free(out[0])
    end
    -- the search evaluates with the net: other values than with the
    -- hand-written evaluation
    local with = ball.turn_search{ nodes = 3000, hash_mb = 1, eval = net }
    local without = ball.turn_search{ nodes = 3000, hash_mb = 1, eval = "hand" }
    local rw, ro = with:analyse(g), without:analyse(g)
    eq(state_of(g), before, "the searches leave the game as it was")
    ok(g:is_legal(rw.best), "a legal decision with the net")
    ok(rw.value ~= ro.value, "the net changes the search's value: " .. rw.value .. " " .. ro.value)
    eq(with:analyse(g).value, rw.value, "the same budget gives the same value")
    -- close is refused while a searcher uses the net, and the searcher
    -- keeps its net alive after the caller drops it
    local e = raises("arg", function() net:close() end)
    ok(e.message:find("close the searcher first", 1, true), e.message)
    net = nil
    collectgarbage(); collectgarbage()
    eq(with:analyse(g).value, rw.value, "the searcher's net outlives the caller's reference")
    with:close()
    local n2 = ball.net(bytes)
    local s2 = ball.turn_search{ nodes = 100, eval = n2 }
    s2:close()
    n2:close()
    eq(n2:is_closed(), true)
    n2:close() -- twice is harmless
    raises("closed", function() n2:evaluate(g) end)
    raises("closed", function() ball.turn_search{ eval = n2 } end)
end)

test("learned evaluation: refusals", function()
    local function refused(fn, name, text)
        local e = raises(name, fn)
        ok(e.message:find(text, 1, true), e.message)
    end
    refused(function() ball.net("garbage") end, "arg", "truncated")
    local f = assert(io.open("share/net/value.net", "rb"))
    local bytes = f:read("*a")
    f:close()
    refused(function() ball.net(bytes:sub(1, #bytes - 1)) end, "arg", "net:")
    refused(function() ball.net("XXXX" .. bytes:sub(5)) end, "arg", "net:")
    refused(function() ball.net(42) end, "arg", "a string")
    refused(function() ball.net_file("/nonexistent/value.net") end, "arg", "cannot open /nonexistent/value.net")
    refused(function() ball.net_file() end, "arg", "a path")
    local choices = 'eval is "network" (the default), "hand" or a network (ball.net), not '
    refused(function() ball.turn_search{ eval = 3 } end, "arg", choices .. "3")
    refused(function() ball.turn_search{ eval = ball.new() } end, "arg", choices)
    refused(function() ball.turn_search{ eval = "Hand" } end, "arg", choices .. '"Hand"')
    refused(function() ball.turn_search{ eval = "" } end, "arg", choices .. '""')
    refused(function() ball.turn_search{ eval = "value.net" } end, "arg", choices .. '"value.net"')
    refused(function() ball.turn_search{ eval = true } end, "arg", choices .. "true")
    local net = ball.net(bytes)
    refused(function() net:evaluate("G5") end, "arg", "takes a game, not a string")
end)

test('turn search: eval = "network" (the default) or "hand"', function()
    local function summary(r)
        local t = { tostring(r.best), ("%.17g"):format(r.value), r.depth, r.nodes, r.best_turn_text }
        for _, ln in ipairs(r.lines) do t[#t + 1] = ("%s %.17g"):format(tostring(ln.action), ln.value) end
        return table.concat(t, "\n")
    end
    local function run(eval, bpn)
        local s = ball.turn_search{ nodes = 3000, hash_mb = 1, multipv = 3, eval = eval }
        local r = s:analyse(bpn and ball.new{ bpn = bpn } or ball.new())
        s:close()
        return r
    end
    local differ = 0
    for _, bpn in ipairs{ false, ISSUE25, DODGE, AFTER_E11_F10 } do
        local default, network = run(nil, bpn), run("network", bpn)
        local hand, again = run("hand", bpn), run("hand", bpn)
        eq(summary(network), summary(default), "eval = \"network\" is the default")
        eq(summary(again), summary(hand), "\"hand\" twice: the same values")
        if hand.value ~= default.value then differ = differ + 1 end
    end
    ok(differ >= 1, "the network and the hand-written evaluation value no position differently")
    -- the choice read back: config().eval and tostring
    local d, h = ball.turn_search{ nodes = 100 }, ball.turn_search{ nodes = 100, eval = "hand" }
    eq(d:config().eval, "network"); eq(h:config().eval, "hand")
    eq(ball.turn_search{ nodes = 100, eval = "network" }:config().eval, "network")
    ok(tostring(d):find('eval = "network" }$'), tostring(d))
    ok(tostring(h):find('eval = "hand" }$'), tostring(h))
    eq(ball.turn_search(h:config()):config().eval, "hand", "a config makes the same searcher")
    local net = ball.net_file("share/net/value.net")
    local n = ball.turn_search{ nodes = 100, eval = net }
    ok(rawequal(n:config().eval, net), "config().eval: the net itself")
    ok(tostring(n):find("eval = net }$"), tostring(n))
    n:close()
    ok(tostring(n):find("^closed ball%.turn_search{"), tostring(n))
end)

test("turn search: the same node budget gives the same results; clear()", function()
    local g = ball.new{ bpn = ISSUE25 }
    local function summary(r)
        local t = { tostring(r.best), ("%.17g"):format(r.value), r.proven, r.depth, r.nodes,
                    r.best_turn_text, #r.lines }
        for _, ln in ipairs(r.lines) do
            t[#t + 1] = ("%s %.17g %s %d %d %d %s"):format(tostring(ln.action), ln.value,
                tostring(ln.bound), ln.proven, ln.depth, ln.nodes, ln.pv_text)
        end
        return table.concat(t, "\n")
    end
    local a = ball.turn_search{ nodes = 20000, hash_mb = 4 }
    local b = ball.turn_search{ nodes = 20000, hash_mb = 4 }
    local ra, rb = summary(a:analyse(g)), summary(b:analyse(g))
    eq(ra, rb, "two fresh searchers")
    eq(select(2, ra:gsub("\n", "")) >= 2, true, "lines")
    a:analyse(ball.new()) -- another position in the table
    a:clear()
    eq(summary(a:analyse(g)), ra, "after clear()")
end)

test("turn search: the root lines, best first, replay legally", function()
    local g = ball.new{ bpn = ISSUE25 }
    local r = ball.turn_search{ nodes = 20000, multipv = 3, hash_mb = 4 }:analyse(g)
    eq(#r.lines, g:count_legal_actions(), "one line per legal decision")
    eq(texts((function() local t = {} for i, ln in ipairs(r.lines) do t[i] = ln.action end
                         return t end)()), texts(g:legal_actions()), "the legal decisions")
    for i = 1, 3 do
        eq(r.lines[i].bound, false, "line " .. i .. " exact")
        if i > 1 then ok(r.lines[i].value <= r.lines[i - 1].value, "sorted") end
    end
    for i, ln in ipairs(r.lines) do
        ok(ln.value <= r.lines[1].value and ln.value >= -1, "value of line " .. i)
        eq(ln.pv[1], ln.action, "pv starts with its decision")
        eq(ln.pv_text, joined(ln.pv))
        replay(g, ln.pv, "line " .. i)
    end
    ok(r.value >= -1 and r.value <= 1 and r.depth >= 1 and r.nodes > 0, "result")
    local side = g:side()
    local c = g:clone()
    for _, a in ipairs(r.best_turn) do eq(c:side(), side, "the best turn is one turn"); c:apply(a) end
    ok(c:side() ~= side or c:is_over(), "up to the hand-over")
end)

test("turn search: the best turn ends before the hand-over (one decision, depth 0)", function()
    -- the cases of ball_search_best_turn()'s documentation (issue 49): a
    -- single legal decision (`end`, then ATK's own release phase, R4.5,
    -- R9) answered without a search, and a budget spent before depth 1;
    -- the coach to act is still to act after the turn
    local only_end = "7/6/4x2/4s1/5o1/o5/7/1x1x2/7/3s2/2XS_1O@/6/O4X1/6/2X4/3S2/7 ATK a 0 - 0/0 12"
    for _, case in ipairs{ { only_end, 20000, true }, { nil, 50, false } } do
        local g = case[1] and ball.new{ bpn = case[1] } or ball.new()
        local r = ball.turn_search{ nodes = case[2] }:analyse(g)
        eq(r.depth, 0, "depth 0")
        eq(r.best_turn[1], r.best)
        if case[3] then eq(#r.best_turn, 1, "the decision alone"); eq(#g:legal_actions(), 1) end
        local side = g:side()
        for _, a in ipairs(r.best_turn) do g:apply(a) end
        eq(g:side(), side, "no hand-over")
        ok(not g:is_over() and #g:legal_actions() > 0, "the turn goes on")
    end
end)

test("turn search: the info callback", function()
    local g = ball.new{ bpn = ISSUE25 }
    local before = state_of(g)
    local calls, last = {}, nil
    local s
    s = ball.turn_search{ nodes = 200000, hash_mb = 4, info_every_ms = 1, info = function(i)
        calls[#calls + 1] = i
        if #calls == 1 then
            -- the game being searched reads as closed; the searcher refuses all but stop()
            raises("closed", g.bpn, g)
            raises("arg", s.choose, s, ball.new())
            raises("arg", s.clear, s)
            raises("arg", s.close, s)
        end
    end }
    local r = s:analyse(g)
    eq(state_of(g), before, "the game is left as it was")
    ok(#calls >= 1, "called")
    for k, i in ipairs(calls) do
        ok(type(i.nodes) == "number" and i.nodes >= 0 and i.nodes <= r.nodes, "nodes")
        if last then
            ok(i.nodes >= last.nodes, "nodes do not decrease")
            ok(i.depth >= last.depth, "depth does not decrease")
        end
        ok(i.value >= -1 and i.value <= 1 and i.elapsed_ms >= 0, "value, elapsed_ms")
        eq(i.pv_text, joined(i.pv))
        replay(g, i.pv, "info " .. k)
        last = i
    end
    eq(r.stopped, false)
    eq(last.depth <= r.depth, true)
    -- with info_every_ms = 0 it is called at the end of each depth: the
    -- first call is at depth 1, and a true return stops the run there
    local first
    local stopper = ball.turn_search{ nodes = 0, depth = 64, time_ms = 10000, hash_mb = 4,
                                      info = function(i)
        first = first or i
        return true
    end }
    local sr = stopper:analyse(g)
    eq(first.depth, 1, "first report"); eq(sr.stopped, true, "stopped"); eq(sr.depth, 1)
    ok(g:is_legal(sr.best), "a legal decision")
    -- stop() from the callback stops the run as well
    local st
    st = ball.turn_search{ nodes = 0, depth = 64, time_ms = 10000, hash_mb = 4,
                            info = function() st:stop() end }
    eq(st:analyse(g).stopped, true, "stop() from the callback")
    -- threads > 1: the callback runs on the calling thread only
    local n = 0
    local par = ball.turn_search{ nodes = 30000, threads = 2, hash_mb = 4, info_every_ms = 1,
                                  info = function() n = n + 1 end }
    ok(g:is_legal(par:choose(g)), "threads = 2"); ok(n >= 1, "called with threads = 2")
    eq(state_of(g), before)
end)

test("turn search: an error in the info callback is raised after the run", function()
    local g = ball.new{ bpn = ISSUE25 }
    local before = state_of(g)
    local s = ball.turn_search{ nodes = 20000, hash_mb = 4, info = function() error("boom") end }
    local good, err = pcall(s.analyse, s, g)
    ok(not good and tostring(err):find("boom", 1, true), tostring(err))
    eq(state_of(g), before, "the game is left as it was")
    eq(g:bpn(), ISSUE25, "and is open again")
    local obj = setmetatable({}, { __tostring = function() return "mine" end })
    local t = ball.turn_search{ nodes = 20000, hash_mb = 4, info = function() error(obj) end }
    local good2, err2 = pcall(t.choose, t, g)
    ok(not good2 and rawequal(err2, obj), "the very error object")
    -- the searcher is usable afterwards: the same error again, a game over
    -- still raises its own error, and a plain searcher runs
    local good3, err3 = pcall(t.choose, t, g)
    ok(not good3 and rawequal(err3, obj), "the callback raises again")
    local over = ball.new{ bpn = IN_ONE }
    over:apply("G13-E15"); over:apply("E15-C17")
    raises("range", t.choose, t, over)
    local calm = ball.turn_search{ nodes = 20000, hash_mb = 4, info = function() end }
    ok(g:is_legal(calm:choose(g)), "a plain run")
end)

test("turn search: bad settings raise with the library's message", function()
    local cases = {
        { { threads = 0 }, "arg", "threads must lie in 1-64" },
        { { threads = 65 }, "arg", "threads must lie in 1-64" },
        { { multipv = 0 }, "arg", "multipv must lie in 1-256" },
        { { hash_mb = 0 }, "arg", "hash_mb must lie in 1-65536" },
        { { depth = 65 }, "arg", "depth must lie in 0-64" },
        { { time_ms = -1 }, "arg", "time_ms must lie in 0-86400000" },
        { { nodes = 1000000000001 }, "arg", "nodes must lie in 0-1000000000000" },
        { { nodes = 0 }, "arg", "no budget" },
        { { info_every_ms = -1 }, "arg", "info_every_ms must lie in 0-86400000" },
        -- checked by the binding before C: never truncated
        { { nodes = -1 }, "range", "nodes" },
        { { nodes = 2 ^ 53 }, "range", "nodes" },
        { { threads = 2 ^ 31 }, "range", "threads" },
        { { nodes = 1.5 }, "arg", "nodes" },
        { { depth = "3" }, "arg", "depth" },
        { { seed = -1 }, "range", "seed" },
        { { info = "print" }, "arg", "info is a function" },
        { { node = 100 }, "arg", "unknown option node" },
    }
    for _, case in ipairs(cases) do
        local err = raises(case[2], ball.turn_search, case[1])
        ok(err.message:find(case[3], 1, true), ("%s: message %q"):format(case[3], err.message))
    end
    raises("arg", ball.turn_search, 1000)
    local s = ball.turn_search{ nodes = 100, hash_mb = 1 }
    raises("arg", s.choose, s, START)
    raises("arg", s.analyse, s, nil)
    local c = s:config()
    eq(c.nodes, 100); eq(c.hash_mb, 1); eq(c.threads, 1); eq(c.multipv, 1); eq(c.seed, 1)
    eq(c.depth, 0); eq(c.time_ms, 0); eq(c.info_every_ms, 0); eq(c.eval, "network")
    eq(tostring(s), "ball.turn_search{ nodes = 100, time_ms = 0, depth = 0, threads = 1, "
                    .. 'seed = 1, multipv = 1, hash_mb = 1, info_every_ms = 0, eval = "network" }')
    local d = ball.turn_search():config() -- the library's defaults
    eq(d.nodes, 200000); eq(d.hash_mb, 16)
end)

test("turn search: closed searcher, closed or finished game", function()
    local s = ball.turn_search{ nodes = 1000, hash_mb = 1 }
    local g = ball.new{ bpn = IN_ONE }
    g:apply("G13-E15"); g:apply("E15-C17") -- the touchdown (R11.1): no legal decision
    eq(g:winner(), "ATK")
    local bpn = g:bpn()
    for _, m in ipairs({ s.choose, s.analyse }) do
        local err = raises("range", m, s, g)
        ok(err.message:find("game is over (ATK won)", 1, true), err.message)
    end
    eq(g:bpn(), bpn); eq(g:history_length(), 2)
    local closed_game = ball.new()
    closed_game:close()
    ok(raises("closed", s.choose, s, closed_game).message:find("game is closed", 1, true))
    s:close(); s:close()
    ok(s:is_closed(), "closed")
    s:stop() -- nothing to stop: no error
    ok(raises("closed", s.choose, s, ball.new()).message:find("searcher is closed", 1, true))
    raises("closed", s.analyse, s, ball.new())
    raises("closed", s.clear, s)
    ok(tostring(s):find("^closed ball%.turn_search{"), tostring(s))
    -- searchers left to the collector are freed (their finaliser runs),
    -- also those with an info function that refers to them
    local fresh = ball.new()
    for i = 1, 100 do
        local t
        t = ball.turn_search{ nodes = 50, seed = i, hash_mb = 1, threads = 1 + i % 2,
                              info = function() return t == nil end }
        t:choose(fresh)
    end
    collectgarbage(); collectgarbage()
    eq(fresh:bpn(), START)
end)

-- ------------------------------------------------------------ one crossing (experimental calls)

-- The history of g as texts, one string.
local function history_texts(g)
    local t = {}
    for i = 1, g:history_length() do t[#t + 1] = g:history_action(i).text end
    return table.concat(t, " ")
end

local function same_game(a, b, what)
    eq(a:bpn(), b:bpn(), what .. ": BPN")
    eq(history_texts(a), history_texts(b), what .. ": history")
end

test("apply_index plays legal_actions()[i], without the check", function()
    math.randomseed(29)
    local g, twin = ball.new(), ball.new()
    for _ = 1, 300 do
        local acts = twin:legal_actions()
        if #acts == 0 then break end
        local i = math.random(#acts)
        twin:apply(acts[i])
        eq(g:apply_index(i), nil, "returns nothing")
        eq(g:peek().text, acts[i].text, "the decision played")
    end
    same_game(g, twin, "apply_index")
    local h = ball.new()
    h:apply("E11-F10")
    local bpn, n = h:bpn(), h:count_legal_actions()
    for _, bad in ipairs({ 0, -1, n + 1, 2 ^ 31, 2 ^ 40 }) do
        raises("range", h.apply_index, h, bad)
        eq(h:bpn(), bpn, "unchanged by " .. tostring(bad))
        eq(h:history_length(), 1)
    end
    raises("arg", h.apply_index, h, 1.5)
    raises("arg", h.apply_index, h, "1")
    h:apply_index(n) -- the last one is in range
    h:random_playout("5")
    ok(h:result() ~= "ongoing", "the playout ends the game")
    raises("range", h.apply_index, h, 1)
end)

test("random_apply plays what random_action draws", function()
    math.randomseed(7)
    local g, twin = ball.new(), ball.new()
    for _ = 1, 300 do
        if twin:count_legal_actions() == 0 then break end
        local r = math.random()
        local want = twin:random_action(r)
        twin:apply(want)
        eq(g:random_apply(r).text, want.text, "the drawn decision")
    end
    same_game(g, twin, "random_apply")
    for _, r in ipairs({ "0", "18446744073709551615", "12345678901234567890" }) do
        local a, b = ball.new(), ball.new()
        b:apply(b:random_action(r))
        eq(a:random_apply(r).text, b:peek().text, "r = " .. r)
    end
    raises("arg", g.random_apply, g, 1.5)
    raises("arg", g.random_apply, g, "18446744073709551616")
    local over = ball.new()
    over:random_playout("3")
    local bpn = over:bpn()
    raises("range", over.random_apply, over, 0.5)
    eq(over:bpn(), bpn)
end)

-- splitmix64 (docs/learning.md) where the Lua at hand has 64-bit
-- integers: LuaJIT's uint64_t cdata, or Lua 5.3+ integers (code loaded
-- from text, so that the file still parses under Lua 5.1). Returns a
-- function (state) -> new state, output in the form random_action takes,
-- or nil.
local function splitmix64_step()
    if FFI then
        local function u64(hi, lo) return ffi.cast("uint64_t", hi) * 4294967296 + lo end
        local G, M1, M2 = u64(0x9E3779B9, 0x7F4A7C15), u64(0xBF58476D, 0x1CE4E5B9), u64(0x94D049BB, 0x133111EB)
        local bit = require("bit")
        return function(state)
            state = state + G
            local z = state
            z = bit.bxor(z, bit.rshift(z, 30)) * M1
            z = bit.bxor(z, bit.rshift(z, 27)) * M2
            return state, bit.bxor(z, bit.rshift(z, 31))
        end, function(text) local v = ffi.new("uint64_t", 0)
            for i = 1, #text do v = v * 10 + (text:byte(i) - 48) end
            return v end
    end
    if math.type then
        return load([[
            return function(state)
                state = state + 0x9E3779B97F4A7C15
                local z = state
                z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
                z = (z ~ (z >> 27)) * 0x94D049BB133111EB
                return state, z ~ (z >> 31)
            end, function(text) return math.tointeger(tonumber(text)) or -1 end]])()
    end
    return nil
end

test("random_playout: the documented splitmix64 draws, cut at max, undone one by one", function()
    local step, from_text = splitmix64_step()
    for _, seed in ipairs({ "1", "29", "12345" }) do
        for _, max in ipairs({ false, 0, 1, 40 }) do
            local g = ball.new()
            local got = max and g:random_playout(seed, max) or g:random_playout(seed)
            if max then ok(got <= max, "at most max") else ok(g:result() ~= "ongoing", "to the end") end
            eq(g:history_length(), got, "one history entry a decision")
            local again = ball.new()
            eq(max and again:random_playout(seed, max) or again:random_playout(seed), got, "same seed")
            same_game(g, again, "same seed")
            if step then
                local twin, state, n = ball.new(), from_text(seed), 0
                while (not max or n < max) and twin:count_legal_actions() > 0 do
                    local r
                    state, r = step(state)
                    twin:apply(twin:random_action(r))
                    n = n + 1
                end
                eq(got, n, "the reference loop's count")
                same_game(g, twin, "the reference loop")
            end
            for _ = 1, got do g:undo() end
            eq(g:bpn(), START)
        end
    end
    if not step then print("  (no 64-bit integers here: the splitmix64 reference loop is not run)") end
    local g = ball.new()
    raises("range", g.random_playout, g, "1", -1)
    raises("arg", g.random_playout, g, 1.5)
    eq(g:bpn(), START)
    eq(g:random_playout("1", 0), 0)
    local t = ball.new{ rules_text = "turns=30" }
    ok(t:random_playout() > 0, "a default seed")
    eq(t:random_playout(), 0, "over: nothing to play")
end)

-- ------------------------------------------------------------ runner

local passed, failed = 0, 0
for _, name in ipairs(names) do
    local good, err = pcall(tests[name])
    if good then
        passed = passed + 1
    else
        failed = failed + 1
        print("FAIL: " .. name .. ": " .. tostring(err))
    end
end
print(("lua binding: %d passed, %d failed"):format(passed, failed))
-- close the Lua state so that every game is collected before exit
os.exit(failed == 0 and 0 or 1, true)
