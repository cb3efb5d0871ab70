-- SPDX-License-Identifier: MIT
-- BALL in LÖVE 11 (examples/love/README.md): a person plays one team
-- against the library's turn search, through the Lua module (ball.so,
-- bindings/lua; LÖVE runs LuaJIT, so the build for the Lua 5.1 ABI).
-- Everything about the game comes from the library: the position drawn
-- square by square (board.lua), the clicks turned into decisions by its
-- step-by-step selection (selection.lua, ball_select()), the decisions
-- checked and played by it; the computer's turns are searched on a
-- love.thread worker (search_thread.lua) so that the window never waits.
--
--   love examples/love [--human DEF|ATK|both|none] [--nodes N] [--time-ms N]
--        [--seed N] [--eval network|hand] [--delay-ms N] [--bpn TEXT] [--rules TEXT]
--        [--cpath 'DIR/?.so'] [--state FILE] [--layout FILE] [--screenshots DIR]
--
-- --state FILE: the game's state (BPN, side, history, ...) rewritten after
-- every change; --layout FILE: the pixel centre of every square and
-- button, rewritten when the window changes size (both for
-- tests/bindings/love_test.sh, which clicks with xdotool); --screenshots
-- DIR: where F12 saves (else LÖVE's save directory).
local Selection = require("selection")
local Board = require("board")

local ball
local opts = { human = "DEF", nodes = 200000, time_ms = 0, seed = 1, eval = "network", delay_ms = 350 }
local game, selection
local layout, buttons = nil, {}
local fonts
-- frames, max_frame: the frames drawn while the search ran and the longest
-- of them (s): the window does not wait for the search (the state file
-- reports them, love_test.sh checks them)
local search = { thread = nil, id = 0, pending = nil, progress = nil, last = nil, broken = nil,
                 frames = 0, max_frame = 0 }
local queue = {} -- the computer's decisions still to play, in order
local next_play_at = 0
local message, message_is_error = "", false
local load_error
local hover
local shots = { count = 0, last = nil }
local quit_note -- how the search thread ended (the state file's "quit")

local PANEL_W = 400
local OPTIONS = { human = "string", nodes = "number", ["time-ms"] = "number", seed = "number", eval = "string",
                  ["delay-ms"] = "number", bpn = "string", rules = "string", cpath = "string",
                  state = "string", layout = "string", screenshots = "string" }

local function parse_args(args)
    local i = 1
    while i <= #args do
        local key = args[i]:match("^%-%-(.+)$")
        local kind = key and OPTIONS[key]
        if not kind then
            return nil, "unknown argument '" .. args[i] .. "'"
        end
        local value = args[i + 1]
        if value == nil then
            return nil, "--" .. key .. " needs a value"
        end
        if kind == "number" then
            value = tonumber(value)
            if not value or value < 0 or value % 1 ~= 0 then
                return nil, "--" .. key .. " takes a whole number, not '" .. args[i + 1] .. "'"
            end
        end
        opts[key:gsub("%-", "_")] = value
        i = i + 2
    end
    if not ({ ATK = true, DEF = true, both = true, none = true })[opts.human] then
        return nil, "--human is ATK, DEF, both or none, not '" .. opts.human .. "'"
    end
    if opts.eval ~= "network" and opts.eval ~= "hand" then
        return nil, "--eval is network (the learned network, the default) or hand (the hand-written " ..
            "evaluation), not '" .. opts.eval .. "'"
    end
    return true
end

local function say(text, is_error)
    message, message_is_error = text or "", is_error or false
end

local function is_human(side)
    return opts.human == "both" or opts.human == side
end

local function human_to_act()
    return game and not game:is_over() and is_human(game:side())
end

local function error_text(err)
    return type(err) == "table" and err.message or tostring(err)
end

-- ------------------------------------------------------------ files for tests

local function write_file(path, text)
    local tmp = path .. ".tmp"
    local f = io.open(tmp, "w")
    if not f then
        return
    end
    f:write(text)
    f:close()
    os.rename(tmp, path)
end

local function write_state()
    if opts.state and load_error then -- its first line
        write_file(opts.state, "error " .. (load_error:gsub("\n.*", "")) .. "\n")
    end
    if not opts.state or not game or load_error then
        return
    end
    local history = {}
    for i, a in ipairs(game:history()) do
        history[i] = tostring(a)
    end
    local to_act = game:is_over() and "over" or is_human(game:side()) and "human" or "computer"
    write_file(opts.state, table.concat({
        "bpn " .. game:bpn(),
        "side " .. game:side(),
        "turn " .. game:turn(),
        "result " .. game:result(),
        "to_act " .. to_act,
        "thinking " .. (search.pending and "yes" or "no"),
        "searches " .. search.id,
        "search_frames " .. search.frames,
        string.format("max_frame_ms %d", search.max_frame * 1000),
        "history " .. table.concat(history, " "),
        "screenshot " .. (shots.last or "-"),
        "error " .. (message_is_error and message or "-"),
        "search_eval " .. (search.last and search.last.eval or "-"),
        "quit " .. (quit_note or "-"),
        "",
    }, "\n"))
end

local function write_layout()
    if not opts.layout then
        return
    end
    local lines = {}
    for i = 0, ball.NUM_SQUARES - 1 do
        local name = ball.square_name(i)
        local x, y = Board.centre(layout, name)
        lines[#lines + 1] = string.format("square %s %d %d", name, x, y)
    end
    for _, b in ipairs(buttons) do
        if b.key then
            lines[#lines + 1] = string.format("button %s %d %d", b.key, b.x + b.w / 2, b.y + b.h / 2)
        end
    end
    write_file(opts.layout, table.concat(lines, "\n") .. "\n")
end

-- ------------------------------------------------------------ the search

local function cancel_search()
    if search.pending then
        love.thread.getChannel("ball_search_stop"):push(search.pending)
        search.pending = nil
    end
    search.progress = nil
    queue = {}
end

local function start_search()
    search.id = search.id + 1
    search.pending = search.id
    search.progress = nil
    love.thread.getChannel("ball_search_in"):push({ id = search.id, bpn = game:bpn(), rules_text = game:rules_text() })
    write_state()
end

local function poll_search()
    local out = love.thread.getChannel("ball_search_out")
    while true do
        local m = out:pop()
        if not m then
            break
        end
        if m.kind == "error" and (m.id == 0 or m.id == search.pending) then
            search.broken, search.pending = m.message, nil
            say("The computer cannot play: " .. m.message, true)
            write_state()
        elseif m.id == search.pending then -- older runs' messages are dropped
            if m.kind == "progress" then
                search.progress = m
            elseif m.kind == "result" then
                search.pending, search.progress, search.last = nil, nil, m
                m.side = game:side()
                queue = {}
                for text in (m.turn or ""):gmatch("%S+") do
                    queue[#queue + 1] = text
                end
                if #queue == 0 and m.best then
                    queue[1] = m.best
                end
                next_play_at = love.timer.getTime() + opts.delay_ms / 1000
                write_state()
            end
        end
    end
end

-- ------------------------------------------------------------ playing

local function new_game()
    cancel_search()
    local ok, g = pcall(ball.new, { bpn = opts.bpn, rules_text = opts.rules })
    if not ok then
        load_error = "cannot start the game: " .. error_text(g)
        return
    end
    if g:card_mode() then -- conversions and card plays have no piece to click
        load_error = "card mode (R10) is not offered by this game: play it with ball-play or the web page"
        return
    end
    if game then
        game:close()
    end
    game, selection = g, Selection.new()
    say("")
    write_state()
end

-- Plays `action` (an action or its N2 text) on the game; the library checks it.
local function play(action)
    local ok, err = pcall(game.apply, game, action)
    selection:cancel()
    if not ok then
        say(error_text(err), true)
    else
        say("")
    end
    write_state()
    return ok
end

local function play_queued()
    local text = table.remove(queue, 1)
    if not game:is_legal(text) then -- not expected: search again from here
        queue = {}
        return
    end
    play(text)
    if game:is_over() or is_human(game:side()) then
        queue = {}
    end
    next_play_at = love.timer.getTime() + opts.delay_ms / 1000
end

local function undo()
    if game:history_length() == 0 then
        return
    end
    cancel_search()
    selection:cancel()
    game:undo() -- and the computer's decisions after the person's last one
    while game:history_length() > 0 and not is_human(game:side()) and opts.human ~= "none" do
        game:undo()
    end
    say("")
    write_state()
end

local function end_phase()
    if human_to_act() and game:is_legal("end") then
        play("end")
    end
end

local function screenshot()
    love.graphics.captureScreenshot(function(image)
        shots.count = shots.count + 1
        local name = string.format("love-%d.png", shots.count)
        local data = image:encode("png")
        local path
        if opts.screenshots then
            path = opts.screenshots .. "/" .. name
            local f = io.open(path, "wb")
            if not f then
                say("cannot write " .. path, true)
                return
            end
            f:write(data:getString())
            f:close()
        else
            love.filesystem.write(name, data)
            path = love.filesystem.getSaveDirectory() .. "/" .. name
        end
        shots.last = path
        say("screenshot: " .. path)
        write_state()
    end)
end

-- ------------------------------------------------------------ layout

local function relayout()
    local w, h = love.graphics.getDimensions()
    layout = Board.layout(w, h, PANEL_W)
    local px = layout.x + layout.width + 40
    local bw = math.floor((w - px - 20 - 2 * 10) / 3)
    local by = h - 92
    buttons = {
        { key = "end", label = "End phase (E)", x = px, y = by, w = bw, h = 34, run = end_phase },
        { key = "undo", label = "Undo (U)", x = px + bw + 10, y = by, w = bw, h = 34, run = undo },
        { key = "new", label = "New game (N)", x = px + 2 * (bw + 10), y = by, w = bw, h = 34, run = new_game },
    }
    layout.panel_x, layout.panel_w = px, w - px - 20
    fonts.piece = love.graphics.newFont(math.max(10, math.floor(layout.cell * 0.42)))
    write_layout()
end

-- The verb buttons of a carrier (move, hand-off, short or long pass).
local VERB_NAMES = { ["-"] = "move", ["="] = "hand-off", ["^"] = "short pass", ["^^"] = "long pass" }
local function verb_buttons()
    local list = {}
    if not human_to_act() or #selection.chosen < 2 then
        return list
    end
    local verbs = selection:verbs(game)
    if #verbs < 2 then
        return list
    end
    local bw = math.floor((layout.panel_w - 10 * (#verbs - 1)) / #verbs)
    for i, v in ipairs(verbs) do
        list[i] = { label = i .. " " .. (VERB_NAMES[v] or v), x = layout.panel_x + (i - 1) * (bw + 10),
                    y = 300, w = bw, h = 30, pressed = selection.chosen[2] == v,
                    run = function()
                        local action = selection:set_verb(game, v)
                        if action then play(action) end
                    end }
    end
    return list
end

-- ------------------------------------------------------------ LÖVE callbacks

local function load(args)
    fonts = { small = love.graphics.newFont(13), text = love.graphics.newFont(15),
              title = love.graphics.newFont(26), piece = love.graphics.newFont(14) }
    local ok, err = parse_args(args or {})
    if not ok then
        load_error = err
        return
    end
    if opts.cpath then
        package.cpath = opts.cpath .. ";" .. package.cpath
    end
    local loaded, module = pcall(require, "ball")
    if not loaded then
        load_error = "cannot load the ball module (ball.so for LuaJIT): " .. tostring(module) ..
            "\n\nRun `make love`, or give --cpath 'DIR/?.so' with the directory of build/lua/5.1/ball.so."
        return
    end
    ball = module
    Board.init(ball)
    new_game()
    if load_error then
        return
    end
    search.thread = love.thread.newThread("search_thread.lua")
    search.thread:start(opts.cpath or "", { nodes = opts.nodes, time_ms = opts.time_ms, seed = opts.seed,
                                            eval = opts.eval })
    relayout()
end

function love.load(args)
    love.graphics.setBackgroundColor(0.16, 0.18, 0.2)
    load(args)
    if load_error then
        write_state()
    end
end

function love.resize()
    if ball then
        relayout()
    end
end

function love.update(dt)
    if load_error or not game then
        return
    end
    if search.pending then
        search.frames = search.frames + 1
        search.max_frame = math.max(search.max_frame, dt)
    end
    poll_search()
    if game:is_over() or is_human(game:side()) or search.broken then
        return
    end
    if #queue > 0 then
        if love.timer.getTime() >= next_play_at then
            play_queued()
        end
    elseif not search.pending then
        start_search()
    end
end

function love.threaderror(_, err)
    search.broken, search.pending = err, nil
    say("The search thread failed: " .. tostring(err), true)
end

local function button_at(list, x, y)
    for _, b in ipairs(list) do
        if x >= b.x and x < b.x + b.w and y >= b.y and y < b.y + b.h then
            return b
        end
    end
end

function love.mousepressed(x, y, button)
    if load_error or not game then
        return
    end
    if button == 2 then
        selection:cancel()
        return
    end
    if button ~= 1 then
        return
    end
    local b = button_at(buttons, x, y) or button_at(verb_buttons(), x, y)
    if b then
        b.run()
        return
    end
    local square = Board.square_at(layout, x, y)
    if not square or not human_to_act() then
        return
    end
    local action, why = selection:click(game, square)
    if action then
        play(action)
    else
        say(why, why ~= nil)
        write_state()
    end
end

function love.mousemoved(x, y)
    if layout then
        hover = Board.square_at(layout, x, y)
    end
end

function love.keypressed(key)
    if key == "f12" then
        screenshot()
    end
    if load_error or not game then
        return
    end
    if key == "escape" then
        selection:cancel()
    elseif key == "e" then
        end_phase()
    elseif key == "u" then
        undo()
    elseif key == "n" then
        new_game()
    elseif key:match("^[1-4]$") and human_to_act() and #selection.chosen >= 2 then
        local verb = selection:verbs(game)[tonumber(key)]
        local action = verb and selection:set_verb(game, verb)
        if action then
            play(action)
        end
    end
end

function love.quit()
    if search.thread then
        local running = search.pending
        cancel_search()
        love.thread.getChannel("ball_search_in"):push({ quit = true })
        search.thread:wait()
        -- a run under way was stopped, not left to spend its budget
        local stopped = false
        local out = love.thread.getChannel("ball_search_out")
        for m in function() return out:pop() end do
            stopped = stopped or (m.kind == "result" and m.id == running and m.stopped)
        end
        quit_note = not running and "no_search" or stopped and "search_stopped" or "search_not_stopped"
        write_state()
    end
    return false
end

-- ------------------------------------------------------------ drawing

local function marks()
    local m = {}
    local function mark(sq, kind)
        if sq then
            m[sq] = m[sq] or {}
            m[sq][kind] = true
        end
    end
    -- the last turn's decisions (after the trailing "end", back to the one before)
    local history = game:history()
    local i = #history
    while i > 0 and history[i].kind == "end" do
        i = i - 1
    end
    while i > 0 and history[i].kind ~= "end" do
        mark(history[i].from, "last")
        mark(history[i].to, "last")
        mark(history[i].option, "last")
        i = i - 1
    end
    if game:phase() == "release" and not game:is_over() then
        for _, t in ipairs(game:release_tasks()) do
            mark(t.square, "task")
        end
    end
    if human_to_act() then
        local chosen = selection.chosen
        local choices = selection:choices(game)
        if #chosen == 0 then
            for _, sq in ipairs(choices) do
                mark(sq, "selectable")
            end
        else
            mark(chosen[1], "selected")
            mark(chosen[3], "selected")
            mark(chosen[4], "selected")
            local kind = #chosen == 2 and "dest" or #chosen == 3 and "option" or "keeper"
            for _, sq in ipairs(choices) do
                mark(sq, kind)
            end
        end
    end
    mark(hover, "hover")
    return m
end

local function draw_button(b)
    local g = love.graphics
    if b.pressed then g.setColor(0.35, 0.55, 0.35) else g.setColor(0.28, 0.31, 0.35) end
    g.rectangle("fill", b.x, b.y, b.w, b.h, 5)
    g.setColor(0.7, 0.72, 0.75)
    g.setLineWidth(1)
    g.rectangle("line", b.x, b.y, b.w, b.h, 5)
    g.setColor(1, 1, 1)
    g.setFont(fonts.text)
    g.printf(b.label, b.x, b.y + (b.h - fonts.text:getHeight()) / 2, b.w, "center")
end

local function status_text()
    local result = game:result()
    if result == "atk_won" or result == "def_won" then
        return "Touchdown! " .. game:winner() .. " wins (turn " .. game:turn() .. ")"
    elseif result == "draw" then
        return "Draw: the turn limit is reached (turn " .. game:turn() .. ")"
    end
    local s = game:side() .. " to act  ·  turn " .. game:turn() .. "  ·  " .. game:phase() .. " phase"
    if game:phase() == "action" then
        s = s .. "  ·  " .. game:pa() .. " PA left"
    end
    return s
end

local function draw_panel()
    local g = love.graphics
    local x, w = layout.panel_x, layout.panel_w
    local y = layout.y
    g.setColor(1, 1, 1)
    g.setFont(fonts.title)
    g.print("BALL", x, y)
    g.setFont(fonts.text)
    local who = opts.human == "both" and "Two people at one screen" or opts.human == "none" and
        "The turn search plays both teams" or
        ("You play " .. opts.human .. " (" .. (opts.human == "ATK" and "red" or "blue") .. ") against the turn search")
    g.printf(who, x, y + 40, w)
    g.setColor(1, 0.92, 0.6)
    g.printf(status_text(), x, y + 80, w)
    g.setColor(0.9, 0.9, 0.9)
    local prompt
    if game:is_over() then
        prompt = "The game is over: New game (N) or Undo (U)."
    elseif human_to_act() then
        prompt = selection:prompt(game)
    elseif search.broken then
        prompt = "The computer cannot play."
    else
        local p = search.progress
        prompt = game:side() .. " (turn search) is thinking…"
        if p then
            prompt = prompt .. string.format("\ndepth %d, %d nodes, %.1f s", p.depth, p.nodes, p.elapsed_ms / 1000)
        elseif #queue > 0 then
            prompt = game:side() .. " (turn search) is playing…"
        end
    end
    g.printf(prompt, x, y + 120, w)
    if search.last then
        local l = search.last
        g.setColor(0.75, 0.8, 0.85)
        g.printf(string.format("The search's last turn (%s%s): %s\nvalue %+.2f for %s, depth %d, %d nodes, %.1f s",
            l.side, l.eval == "hand" and ", hand-written evaluation" or "", l.turn ~= "" and l.turn or l.best, l.value, l.side, l.depth, l.nodes, l.elapsed_ms / 1000),
            x, y + 200, w)
    end
    for _, b in ipairs(verb_buttons()) do
        draw_button(b)
    end
    -- the decisions played, newest last
    local history = game:history()
    local texts = {}
    for i = math.max(1, #history - 11), #history do
        texts[#texts + 1] = tostring(history[i])
    end
    g.setColor(0.85, 0.85, 0.85)
    g.printf("Decisions (" .. #history .. "): " .. table.concat(texts, "  "), x, 350, w)
    if message ~= "" then
        if message_is_error then g.setColor(1, 0.5, 0.45) else g.setColor(0.7, 0.9, 0.7) end
        g.printf(message, x, 430, w)
    end
    for _, b in ipairs(buttons) do
        draw_button(b)
    end
    g.setFont(fonts.small)
    g.setColor(0.65, 0.67, 0.7)
    g.printf("Click a piece, then a green dot. Right click or Esc: cancel. 1-4: verb. F12: screenshot.",
        x, love.graphics.getHeight() - 46, w)
end

function love.draw()
    local g = love.graphics
    if load_error then
        g.setColor(1, 0.6, 0.55)
        g.setFont(fonts.text)
        g.printf("BALL: " .. load_error, 40, 40, g.getWidth() - 80)
        return
    end
    Board.draw(layout, game, marks(), fonts)
    draw_panel()
end
