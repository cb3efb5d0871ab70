-- SPDX-License-Identifier: MIT
-- The computer's player: a love.thread worker with its own Lua state, its
-- own copy of the ball module and one turn searcher (ball.turn_search,
-- docs/bindings.md "The turn search"), so that the window keeps drawing
-- and answering while it thinks. It searches one request at a time.
--
-- In, on channel "ball_search_in": { id, bpn, rules_text } (the position
-- to search, as text: a game cannot cross between Lua states), or
-- { quit = true }. On "ball_search_stop": a request's id, to end that
-- run early (its best turn so far is still sent, with stopped true); a
-- stop may come before the thread has taken its request, and a stop for
-- an earlier request is dropped. Out, on
-- "ball_search_out": { kind = "progress", id, depth, nodes, value,
-- elapsed_ms, pv } about every 100 ms, then { kind = "result", id, turn
-- (the best whole turn, decisions separated by spaces), value, depth,
-- nodes, elapsed_ms, stopped, eval (the searcher's evaluation, "network"
-- or "hand") }, or { kind = "error", id, message }. The settings: nodes,
-- time_ms, seed and eval ("network", the library's default, or "hand").
local cpath, settings = ...
if cpath and cpath ~= "" then
    package.cpath = cpath .. ";" .. package.cpath
end

local inbox = love.thread.getChannel("ball_search_in")
local outbox = love.thread.getChannel("ball_search_out")
local stop = love.thread.getChannel("ball_search_stop")

local loaded, ball = pcall(require, "ball")
if not loaded then
    outbox:push({ kind = "error", id = 0, message = "the search thread cannot load the ball module: " .. tostring(ball) })
    return
end

local current -- the request being searched

-- Whether a stop for the current request (or a later one) has come.
local function stop_asked()
    local asked = false
    local id = stop:pop()
    while id do
        asked = asked or id >= current
        id = stop:pop()
    end
    return asked
end
local made, search = pcall(ball.turn_search, {
    nodes = settings.nodes,
    time_ms = settings.time_ms,
    seed = settings.seed,
    eval = settings.eval,
    info_every_ms = 100,
    info = function(info)
        outbox:push({ kind = "progress", id = current, depth = info.depth, nodes = tonumber(info.nodes),
                      value = info.value, elapsed_ms = tonumber(info.elapsed_ms), pv = info.pv_text })
        return stop_asked() -- true ends the run (the best so far is the result)
    end,
})
if not made then
    outbox:push({ kind = "error", id = 0, message = "turn search: " .. tostring(search.message or search) })
    return
end

while true do
    local request = inbox:demand()
    if request.quit then
        break
    end
    current = request.id
    local ok, err = pcall(function()
        local game = ball.new({ bpn = request.bpn, rules_text = request.rules_text })
        local r = search:analyse(game)
        game:close()
        outbox:push({ kind = "result", id = request.id, turn = r.best_turn_text, best = tostring(r.best),
                      value = r.value, depth = r.depth, nodes = tonumber(r.nodes),
                      elapsed_ms = tonumber(r.elapsed_ms), stopped = r.stopped,
                      eval = search:config().eval })
    end)
    if not ok then
        outbox:push({ kind = "error", id = request.id, message = tostring(type(err) == "table" and err.message or err) })
    end
end
search:close()
