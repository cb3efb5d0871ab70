-- SPDX-License-Identifier: MIT
-- Random playouts through the Lua binding, three ways (issue 29, "Fewer
-- crossings"; docs/performance.md) of the C module ball.so (found through
-- LUA_CPATH), under LuaJIT (the build for the 5.1 ABI) or PUC Lua:
--   loop      game:random_action() + game:apply(), one decision at a time
--   apply     game:random_apply(): draw and apply in one call
--   playout   game:random_playout(): the whole game in one call
-- Games under turn_limit 200, as `make bench`'s playouts; a new game per
-- game. Prints "WAY decisions cpu-seconds" per measured repetition, the
-- ways interleaved:
--   LUA_CPATH='DIR/?.so' luajit bench/crossings.lua [GAMES [ROUNDS [WAY...]]]
local ball = require("ball")

local function new() return ball.new{ turn_limit = 200 } end

local ways = {}
function ways.loop(games)
    local n = 0
    for _ = 1, games do
        local g = new()
        pcall(function()
            while true do
                g:apply(g:random_action())
                n = n + 1
            end
        end)
    end
    return n
end
function ways.apply(games)
    local n = 0
    for _ = 1, games do
        local g = new()
        pcall(function()
            while true do
                g:random_apply()
                n = n + 1
            end
        end)
    end
    return n
end
function ways.playout(games)
    local n = 0
    for _ = 1, games do n = n + new():random_playout() end
    return n
end

local games = tonumber(arg[1]) or 100
local rounds = tonumber(arg[2]) or 5
local list = {}
for i = 3, #arg do list[#list + 1] = arg[i] end
if #list == 0 then list = { "loop", "apply", "playout" } end
if not os.getenv("BENCH_NO_WARMUP") then -- set for callgrind's counts
    for _, w in ipairs(list) do ways[w](math.max(1, math.floor(games / 10))) end
end
for _ = 1, rounds do
    for _, w in ipairs(list) do
        local t = os.clock()
        local n = ways[w](games)
        print(("%s %d %.6f"):format(w, n, os.clock() - t))
        io.stdout:flush()
    end
end
