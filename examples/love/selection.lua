-- SPDX-License-Identifier: MIT
-- The clicks of one decision, turned into an action by the library's
-- step-by-step selection (R12, ball_select() through the Lua module's
-- game:select()), as the web page (examples/web/app.mjs) and the terminal
-- game (examples/play.c) do: the piece's square, a verb (the move "-" is
-- taken at once when the piece has it; a carrier's other verbs are chosen
-- with the panel's buttons or the keys 1-4), then the squares the library
-- lists: destination, the exit or push square or the lower piece's square,
-- the keeper. Nothing here knows the rules: every choice offered is one
-- the library listed, and the action comes from the library once the
-- choices form one. No LÖVE here, so that plain LuaJIT can run it too.

local Selection = {}
Selection.__index = Selection

local function contains(list, value)
    for _, v in ipairs(list) do
        if v == value then
            return true
        end
    end
    return false
end
Selection.contains = contains

function Selection.new()
    return setmetatable({ chosen = {} }, Selection)
end

function Selection:cancel()
    self.chosen = {}
end

-- The library's choices for the next step and, when the choices so far
-- form a whole action, that action (then no choices).
function Selection:choices(game)
    return game:select(self.chosen)
end

-- The squares whose piece can start a decision now (step 1).
function Selection.roots(game)
    return (game:select({}))
end

-- The verbs of the selected piece (step 2): "-", "=", "^", "^^".
function Selection:verbs(game)
    if #self.chosen == 0 then
        return {}
    end
    return (game:select({ self.chosen[1] }))
end

-- Takes choice `value` as the next step. Returns the action when the
-- choices now form one (the selection starts again), else nil.
function Selection:take(game, value)
    local chosen = {}
    for i, v in ipairs(self.chosen) do
        chosen[i] = v
    end
    chosen[#chosen + 1] = value
    local _, action = game:select(chosen)
    if action then
        self.chosen = {}
        return action
    end
    self.chosen = chosen
    return nil
end

-- Selects the piece on `square` with its first verb ("-" when it has it).
function Selection:start(game, square)
    local verbs = game:select({ square })
    self.chosen = { square }
    return self:take(game, contains(verbs, "-") and "-" or verbs[1])
end

-- Another verb for the selected piece (a button or a number key).
function Selection:set_verb(game, verb)
    if #self.chosen == 0 or not contains(self:verbs(game), verb) then
        return nil
    end
    self.chosen = { self.chosen[1] }
    return self:take(game, verb)
end

-- A click on `square`. Returns the action when the click completes one,
-- else nil and, when the click was refused, a message saying why.
function Selection:click(game, square)
    local roots = Selection.roots(game)
    if #self.chosen == 0 then
        if contains(roots, square) then
            return self:start(game, square)
        end
        local s = game:square(square)
        if s.upper then
            if game:phase() == "release" then
                return nil, square .. " has no release task"
            end
            return nil, square .. " cannot act now"
        end
        return nil
    end
    if contains((self:choices(game)), square) then
        return self:take(game, square)
    end
    if square ~= self.chosen[1] and contains(roots, square) then
        return self:start(game, square)
    end
    self:cancel()
    return nil
end

-- What the player is asked to click now, in words.
function Selection:prompt(game)
    local chosen = self.chosen
    local release = game:phase() == "release"
    if #chosen == 0 then
        if release then
            return "Release phase: click a task (a knocked-down piece to stand up, or a stack to release)."
        end
        if #Selection.roots(game) == 0 then
            return "No piece can act: end the action phase (E)."
        end
        return "Click a piece to act, or end the action phase (E)."
    end
    if #chosen == 2 then
        if release then
            return "Click where the piece on " .. chosen[1] .. " goes."
        end
        return ({
            ["-"] = "Click the destination (green dots).",
            ["="] = "Click the piece that receives the ball (hand-off).",
            ["^"] = "Click where the ball lands (short pass).",
            ["^^"] = "Click where the ball lands (long pass).",
        })[chosen[2]] or "Choose."
    end
    if #chosen == 3 then
        for _, a in ipairs(game:legal_actions()) do
            if a.from == chosen[1] and a.to == chosen[3] then
                if a.kind == "dodge" then
                    return "Dodge: click the exit square."
                elseif a.kind == "tactical_dodge" then
                    return "Tactical dodge: click the square the opponent is pushed to."
                end
                break
            end
        end
        return "Click the square where the lower piece goes."
    end
    return "The upper piece held the ball: click the piece that keeps it."
end

return Selection
