-- SPDX-License-Identifier: MIT
-- Tests of bindings/lua/ball_learn.lua (LuaJIT FFI over the games of the C
-- module ball.so): the index bijection and masks over seeded random games,
-- observations and the mirror, a batch equal to single games with the same
-- seeds, the errors of bad inputs, and the games it takes and gives (those
-- of the `ball` module, its errors, a closed game).
-- Run from anywhere, with the C module built for the Lua 5.1 ABI on
-- package.cpath:  LUA_CPATH='DIR/?.so' luajit bindings/lua/test_learn.lua
-- (tests/bindings/bindings_test.sh builds it). The library is the one ball.so is
-- linked with. Prints failures and closes with "N passed, N failed".

local here = debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then here = (os.getenv("PWD") or ".") .. "/" .. here end
package.path = here .. "/?.lua;" .. package.path
local ffi = require("ffi")
local ball = require("ball")
local learn = require("ball_learn")

local passed, failed = 0, 0
local function test(name, fn)
    local ok, err = pcall(fn)
    if ok then passed = passed + 1
    else failed = failed + 1; print("FAIL " .. name .. ": " .. tostring(err)) end
end
local function eq(a, b, what)
    if a ~= b then error(("%s: %s ~= %s"):format(what or "value", tostring(a), tostring(b)), 2) end
end
local function raises(name, fn, ...)
    local ok, e = pcall(fn, ...)
    if ok then error("no error, expected " .. name, 2) end
    if not ball.is_error(e, name) then error("expected " .. name .. ", got " .. tostring(e), 2) end
    return e
end

-- splitmix64 of docs/learning.md on uint64_t cdata
local U = function(x) return ffi.cast("uint64_t", x) end
local GOLDEN = U(0x9E3779B9) * U(2 ^ 32) + U(0x7F4A7C15)
local M1 = U(0xBF58476D) * U(2 ^ 32) + U(0x1CE4E5B9)
local M2 = U(0x94D049BB) * U(2 ^ 32) + U(0x133111EB)
local function splitmix(state)
    state = state + GOLDEN
    local z = state
    z = bit.bxor(z, bit.rshift(z, 30)) * M1
    z = bit.bxor(z, bit.rshift(z, 27)) * M2
    return state, bit.bxor(z, bit.rshift(z, 31))
end

local function bitof(arr, i) return bit.band(bit.rshift(arr[bit.rshift(i, 3)], bit.band(i, 7)), 1) end

test("worked example", function()
    local g = ball.new()
    eq(learn.to_index(g, "E11-F10"), 41)
    eq(learn.to_index(g, "I11-H10"), 154)
    eq(learn.to_index(g, "G11-E9"), 597)
    eq(learn.to_index(g, "end"), learn.INDEX_END)
    eq(tostring(learn.from_index(g, 597)), "G11-E9")
    eq(learn.index_mirror(41), 154)
    local mask, n = learn.legal_mask(g)
    eq(n, 55, "legal at the start")
    local obs, size = learn.observation(g)
    eq(size, 3171)
    local ones = 0
    for i = 0, size - 1 do ones = ones + obs[i] end
    eq(ones, 19, "ones of the start observation")
    eq(learn.returns(g), "not_terminal")
end)

test("bijection and masks over random games", function()
    local positions = 0
    for k, opts in ipairs({ {}, { end_zone_depth = 2 }, { turn_limit = 3 },
                            { rules_text = "earn.move=1 atk=Sprint:2:pa+1 def=Sprint:0:pa+1" } }) do
        local g = ball.new(opts)
        local state = U(k)
        for _ = 1, 100 do
            positions = positions + 1
            local seen, list = {}, {}
            for _, a in ipairs(g:legal_actions()) do
                local i = learn.to_index(g, a)
                assert(not seen[i], "duplicate index " .. i)
                seen[i] = true
                list[#list + 1] = i
                eq(learn.from_index(g, i), a, "decoded action")
            end
            table.sort(list)
            local li = learn.legal_indices(g)
            eq(#li, #list, "count of legal indices")
            for j = 1, #li do eq(li[j], list[j], "legal index") end
            local mask, n = learn.legal_mask(g)
            local bits = learn.legal_mask(g, true)
            eq(n, #list, "mask count")
            for i = 0, learn.ACTION_SPACE - 1 do
                eq(mask[i], seen[i] and 1 or 0, "mask byte " .. i)
                eq(bitof(bits, i), mask[i], "mask bit " .. i)
            end
            local obs = learn.observation(g, 1)
            local packed = learn.observation_bits(g, 1)
            for i = 0, learn.observation_size(1) - 1 do eq(bitof(packed, i), obs[i], "obs bit") end
            local m = learn.observation_mirror(learn.observation_mirror(obs, 1), 1)
            for i = 0, learn.observation_size(1) - 1 do eq(m[i], obs[i], "mirror twice") end
            if g:result() ~= "ongoing" then break end
            local r
            state, r = splitmix(state)
            g:apply(g:random_action(r))
        end
        g:close()
    end
    assert(positions > 300, positions)
    for i = 0, learn.ACTION_SPACE - 1 do
        eq(learn.index_mirror(learn.index_mirror(i)), i, "mirror of mirror")
    end
end)

test("batch equals single games with the same seeds", function()
    local n, seed, opts = 5, 777, { turn_limit = 2 }
    local b = learn.batch(n, { turn_limit = 2, seed = seed,
        outputs = { "obs_bits", "mask", "rewards", "done", "actions", "side" } })
    local games, states = {}, {}
    local seeder = U(seed)
    for i = 0, n - 1 do
        games[i] = ball.new(opts)
        seeder, states[i] = splitmix(seeder)
        eq(b.actions[i], -1, "actions after reset")
    end
    local ended_total = 0
    for _ = 1, 60 do
        local expect = {}
        for i = 0, n - 1 do
            local g = games[i]
            local r
            states[i], r = splitmix(states[i])
            local a = g:random_action(r)
            local played = learn.to_index(g, a)
            g:apply(a)
            local term, ra, rd = learn.returns(g)
            local done = term ~= "not_terminal"
            if done then
                g:close()
                g = ball.new(opts)
                games[i] = g
            end
            expect[i] = { played = played, done = done, ra = ra, rd = rd, bpn = g:bpn(),
                          side = g:side() == "DEF" and 1 or 0, mask = learn.legal_mask(g),
                          obs = learn.observation_bits(g) }
        end
        ended_total = ended_total + b:step()
        for i = 0, n - 1 do
            local e = expect[i]
            eq(b:position(i), e.bpn, "position of game " .. i)
            eq(b.actions[i], e.played, "index played")
            eq(b.done[i] ~= 0, e.done, "done")
            eq(b.rewards[2 * i], e.ra, "ATK reward")
            eq(b.rewards[2 * i + 1], e.rd, "DEF reward")
            eq(b.side[i], e.side, "side")
            assert(ffi.C ~= nil)
            for k = 0, learn.ACTION_SPACE - 1 do
                if b.mask[i * learn.ACTION_SPACE + k] ~= e.mask[k] then error("mask differs") end
            end
            local ob = b.size.obs_bits
            for k = 0, ob - 1 do
                if b.obs_bits[i * ob + k] ~= e.obs[k] then error("obs bits differ") end
            end
        end
    end
    assert(ended_total > 0, "no game ended")
    -- caller's indices: the lowest legal index of each game
    local t = {}
    for i = 0, n - 1 do
        local g = b:game(i)
        t[i + 1] = learn.legal_indices(g)[1]
        eq(g:bpn(), b:position(i), "clone")
        g:close()
    end
    b:step(t)
    for i = 0, n - 1 do eq(b.actions[i], t[i + 1], "caller's index") end
    for i = 0, n - 1 do games[i]:close() end
    b:close()
end)

test("bad inputs", function()
    local g = ball.new()
    local e = raises("range", learn.from_index, g, learn.ACTION_SPACE)
    assert(e.message:find("out of range"), e.message)
    raises("range", learn.from_index, g, -1)
    e = raises("illegal", learn.from_index, g, 0)
    assert(e.message:find("not legal"), e.message)
    raises("arg", learn.from_index, g, 1.5)
    raises("range", learn.index_mirror, 7990)
    raises("buffer", learn.legal_mask, g, false, ffi.new("uint8_t[10]"))
    raises("buffer", learn.observation, g, 0, ffi.new("float[3170]"))
    raises("arg", learn.observation, g, 4)
    e = raises("range", learn.batch, 0)
    assert(e.message:find("batch size 0"), e.message)
    local b = learn.batch(3, { outputs = { "actions" } })
    e = raises("buffer", b.bind, b, "mask", ffi.new("uint8_t[?]", 3 * 7990 - 1))
    assert(e.message:find("needs"), e.message)
    raises("buffer", b.step, b, { 41, 41 })
    local before = b:position(2)
    e = raises("range", b.step, b, { 41, 41, 9999 })
    e = raises("illegal", b.step, b, { 41, 41, 0 })
    assert(e.message:find("game 2"), e.message)
    eq(b:position(2), before, "nothing moved")
    eq(b:step({ 41, 41, 41 }), 0)
    b:close()
    raises("closed", b.step, b)
    g:close()
end)

test("games of the ball module: pointers, ownership, errors", function()
    eq(ball.backend, "c", "the ball module is the C module")
    local g = ball.new()
    -- the game ball_learn reads is the game itself: a move shows in its index
    eq(learn.to_index(g, "E11-F10"), 41)
    g:apply("E11-F10")
    local _, n = learn.legal_mask(g)
    eq(n, g:count_legal_actions(), "mask of the game after its move")
    -- a batch game is a ball game that owns its copy
    local b = learn.batch(2, { outputs = {}, seed = 5 })
    b:step()
    local c = b:game(0)
    eq(getmetatable(c), getmetatable(g), "a ball game")
    eq(c:bpn(), b:position(0))
    b:close() -- the copy outlives the batch
    c:apply(c:legal_actions()[1])
    eq(c:history_length(), 1)
    -- errors: the C module's shape, with the library's message
    local e = raises("illegal", learn.from_index, g, 0)
    eq(type(e.code), "number"); eq(e.name, "illegal"); eq(type(e.message), "string")
    eq(getmetatable(e), ball.Error, "a ball.Error")
    c:close()
    e = raises("closed", learn.observation, c)
    eq(e.name, "closed"); assert(e.message:find("closed"), e.message)
    raises("closed", learn.to_index, c, "end")
    raises("arg", learn.legal_mask, { ptr = 1 })
    raises("arg", learn.returns, nil)
    -- the pointer stays valid while ball_learn uses it: garbage made and
    -- collected between calls on a game only referenced here
    for _ = 1, 3 do
        local h = ball.new()
        for _ = 1, 200 do
            local obs = learn.observation(h)
            collectgarbage()
            assert(obs[0] == obs[0])
        end
    end
    g:close()
end)

test("the turn limit of automated games (R11.2)", function()
    -- learn.batch plays with AUTO_TURN_LIMIT = 100 unless a limit is given
    -- (docs/rules-choices.md); ball.new{} keeps the library's default, none
    eq(learn.AUTO_TURN_LIMIT, 100)
    local cases = {
        { {}, 100 }, { { turn_limit = 0 }, 0 }, { { turn_limit = 12 }, 12 },
        { { rules_text = "turns=7" }, 7 }, { { rules_text = "zone=2" }, 100 },
    }
    for _, c in ipairs(cases) do
        local opts = c[1]
        opts.outputs = {}
        local b = learn.batch(2, opts)
        local g = b:game(1)
        eq(g:rules().turn_limit, c[2], "turn limit of learn.batch")
        g:close()
        b:close()
    end
    -- random games of a batch are drawn by turn 100 at the latest
    local b = learn.batch(4, { outputs = { "done" }, seed = 3 })
    local ended = 0
    for _ = 1, 4000 do
        ended = ended + b:step()
        for i = 0, 3 do
            local g = b:game(i)
            assert(g:turn() <= 100, "a batch game past turn 100")
            g:close()
        end
        if ended >= 4 then break end
    end
    assert(ended >= 4, "games of a batch did not end: " .. ended)
    b:close()
    local g = ball.new()
    eq(g:rules().turn_limit, 0, "ball.new{}: no turn limit")
    g:close()
end)

print(("lua learn: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1, true)
