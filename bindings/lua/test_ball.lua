-- Tests of the LuaJIT binding. Run from anywhere: luajit bindings/lua/test_ball.lua
-- (BALL_TOOL overrides the path of the `ball` tool used for cross-checks).
-- Prints one line per failure and closes with "N passed, N failed".

local here = debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = (os.getenv("PWD") or ".") .. "/" .. here end
package.path = here .. "/?.lua;" .. package.path
local repo = here .. "/../.."
local BALL_TOOL = os.getenv("BALL_TOOL") or (repo .. "/build/bin/ball")

local ball = require("ball")

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
        shown[#shown + 1] = (line:gsub("   end zone.*", ""))
    end
    for line in (ball.new():diagram() .. "\n"):gmatch("([^\n]*)\n") do
        i = i + 1
        eq(line, shown[i], "line " .. i)
    end
    eq(i, 18, "header and 17 rows")
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
    local want = run(q(BALL_TOOL) .. " legal"):gsub("\n$", ""):gsub("\n", " ")
    eq(texts(ball.new():legal_actions()), want)
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
    ok(codes[g:random_action(0xffffffffffffffffULL).code], "2^64-1 draws a legal action")
    raises("arg", g.random_action, g, -1)
    raises("arg", g.random_action, g, "1")
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
    local before = rss_kb()
    for _ = 1, 20000 do ball.new():apply("E11-F10") end
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
end)

test("LIBBALL_PATH: a file, a directory, a missing file", function()
    local lib = repo .. "/build/libball.so.0"
    local function load_with(value)
        return run("cd / && LIBBALL_PATH=" .. q(value) .. " LUA_PATH=" .. q(here .. "/?.lua;;")
                   .. " luajit -e 'print(select(2, pcall(function() return require(\"ball\").library_path end)))' 2>&1")
    end
    eq(load_with(lib), lib .. "\n")
    eq(load_with(repo .. "/build"), repo .. "/build/libball.so.0\n")
    ok(load_with("/nonexistent/libball.so.0"):find("LIBBALL_PATH", 1, true), "missing library reported")
end)

test("version", function()
    eq(math.floor(ball.version_number / 10000), 0)
    ok(ball.version:match("^0%.%d+%.%d+$"), "version string")
end)

-- ------------------------------------------------------------ random game vs ball trace

local function xorshift32(state)
    local x = state
    x = bit.bxor(x, bit.lshift(x, 13))
    x = bit.bxor(x, bit.rshift(x, 17))
    x = bit.bxor(x, bit.lshift(x, 5))
    return x
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
        eq(got, lines[i], "trace line " .. i)
    end
    eq(i, #lines, "number of trace lines")
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
