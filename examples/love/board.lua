-- SPDX-License-Identifier: MIT
-- The board on screen: where each square is (the layout, recomputed when
-- the window changes size) and the drawing of a position read square by
-- square from the library (game:square(): pieces, their team, type,
-- knocked down, restricted, stacked, the ball, fresh squares; the end
-- zones from the ruleset's depth, R1.4). Row 17 is at the top, as
-- docs/spec.md draws it; the 13 x 17 grid is a chequerboard whose dark
-- squares (column + row odd) are not part of the game (R1.2).
local ball -- the module, given by Board.init

local Board = {}

local COLUMNS, ROWS = 13, 17
local TEAM_COLOUR = { ATK = { 0.80, 0.22, 0.18 }, DEF = { 0.18, 0.38, 0.80 } }
local ZONE_TINT = { ATK = { 0.95, 0.82, 0.80 }, DEF = { 0.80, 0.86, 0.97 } }
local LIGHT, DARK = { 0.93, 0.91, 0.84 }, { 0.47, 0.53, 0.45 }
local BALL_COLOUR = { 1.00, 0.76, 0.10 }

function Board.init(module)
    ball = module
end

-- The layout for a window of w x h pixels with a panel of panel_w on the
-- right: the cell size and the board's top-left corner.
function Board.layout(w, h, panel_w)
    local margin = 34
    local cell = math.floor(math.min((w - panel_w - 2 * margin) / COLUMNS, (h - 2 * margin - 16) / ROWS))
    return { cell = cell, x = margin, y = math.floor((h - cell * ROWS) / 2),
             width = cell * COLUMNS, height = cell * ROWS }
end

-- The centre of a square (by name) in pixels.
function Board.centre(layout, name)
    local col, row = ball.square_col(name), ball.square_row(name)
    return layout.x + (col - 0.5) * layout.cell, layout.y + (ROWS - row + 0.5) * layout.cell
end

-- The playable square under pixel (x, y), by name, or nil.
function Board.square_at(layout, x, y)
    local col = math.floor((x - layout.x) / layout.cell) + 1
    local row = ROWS - math.floor((y - layout.y) / layout.cell)
    if col < 1 or col > COLUMNS or row < 1 or row > ROWS or (col + row) % 2 ~= 0 then
        return nil
    end
    return ball.square_at(col, row)
end

local function set(c, alpha)
    love.graphics.setColor(c[1], c[2], c[3], alpha or 1)
end

local function draw_piece(piece, x, y, r, font)
    local g = love.graphics
    local colour = TEAM_COLOUR[piece.team]
    local letter = piece.team == "ATK" and piece.type or piece.type:lower()
    g.push()
    g.translate(x, y)
    if piece.down then
        g.scale(1, 0.55) -- knocked down: lying flat (R3.2)
    end
    set(colour, piece.down and 0.75 or 1)
    if piece.type == "S" then
        g.rectangle("fill", -r * 0.85, -r * 0.85, r * 1.7, r * 1.7, r * 0.2)
    else
        g.circle("fill", 0, 0, r)
    end
    g.setColor(1, 1, 1)
    g.setLineWidth(2)
    if piece.type == "S" then
        g.rectangle("line", -r * 0.85, -r * 0.85, r * 1.7, r * 1.7, r * 0.2)
    else
        g.circle("line", 0, 0, r)
    end
    g.setFont(font)
    g.printf(letter, -r, -font:getHeight() / 2, 2 * r, "center")
    g.pop()
    if piece.restricted then -- R4.4: the restricted piece
        local bx, by, br = x - r * 0.75, y - r * 0.75, math.max(6, r * 0.4)
        g.setColor(1, 0.9, 0.2)
        g.circle("fill", bx, by, br)
        g.setColor(0, 0, 0)
        g.setLineWidth(1)
        g.circle("line", bx, by, br)
        g.rectangle("fill", bx - 1, by - br * 0.6, 2, br * 0.75)
        g.rectangle("fill", bx - 1, by + br * 0.3, 2, 2)
    end
end

local function draw_ball(x, y, r)
    set(BALL_COLOUR)
    love.graphics.circle("fill", x, y, r)
    love.graphics.setColor(0.25, 0.15, 0)
    love.graphics.setLineWidth(1.5)
    love.graphics.circle("line", x, y, r)
end

-- Draws the game's position and the marks: marks[name] is a set of
-- "last", "selectable", "selected", "dest", "option", "keeper", "task",
-- "hover".
function Board.draw(layout, game, marks, fonts)
    local g = love.graphics
    local cell = layout.cell
    local depth = game:rules().end_zone_depth
    for row = ROWS, 1, -1 do
        for col = 1, COLUMNS do
            local x, y = layout.x + (col - 1) * cell, layout.y + (ROWS - row) * cell
            if (col + row) % 2 == 0 then
                -- R1.4: ATK's own end zone rows 1..d, DEF's 18-d..17
                local tint = row <= depth and ZONE_TINT.ATK or row >= ROWS + 1 - depth and ZONE_TINT.DEF or LIGHT
                set(tint)
            else
                set(DARK)
            end
            g.rectangle("fill", x, y, cell, cell)
        end
    end
    g.setColor(0.2, 0.2, 0.2)
    g.setLineWidth(2)
    g.rectangle("line", layout.x, layout.y, layout.width, layout.height)
    -- R1.4: which end zone is whose
    g.setFont(fonts.small)
    g.setColor(0.75, 0.82, 0.97)
    g.printf(depth == 1 and "row 17: DEF's end zone, where ATK scores" or
        ("rows " .. (ROWS + 1 - depth) .. "-17: DEF's end zone, where ATK scores"),
        layout.x, layout.y - 20, layout.width, "center")
    g.setFont(fonts.small)
    g.setColor(0.85, 0.85, 0.85)
    for col = 1, COLUMNS do
        g.printf(string.char(64 + col), layout.x + (col - 1) * cell, layout.y + layout.height + 4, cell, "center")
    end
    for row = 1, ROWS do
        g.printf(tostring(row), layout.x - 30, layout.y + (ROWS - row + 0.5) * cell - 7, 24, "right")
    end
    g.setColor(0.97, 0.8, 0.78)
    g.printf(depth == 1 and "row 1: ATK's end zone, where DEF scores" or
        ("rows 1-" .. depth .. ": ATK's end zone, where DEF scores"),
        layout.x, layout.y + layout.height + 20, layout.width, "center")
    -- the squares, read from the library
    for i = 0, ball.NUM_SQUARES - 1 do
        local name = ball.square_name(i)
        local x, y = Board.centre(layout, name)
        local m = marks[name] or {}
        local x0, y0 = x - cell / 2, y - cell / 2
        if m.last then
            g.setColor(1, 0.93, 0.45, 0.75)
            g.rectangle("fill", x0, y0, cell, cell)
        end
        if m.hover then
            g.setColor(1, 1, 1, 0.8)
            g.setLineWidth(1)
            g.rectangle("line", x0 + 0.5, y0 + 0.5, cell - 1, cell - 1)
        end
        local s = game:square(name)
        if s.fresh then -- a square left this turn that stays shut (N1 "+")
            g.setColor(0.35, 0.35, 0.35)
            g.setFont(fonts.small)
            g.print("+", x0 + 2, y0)
        end
        local r = cell * 0.40
        if s.lower then -- a stack (R7): the upper piece over the lower one
            draw_piece(s.lower, x + cell * 0.17, y + cell * 0.17, cell * 0.27, fonts.small)
            draw_piece(s.upper, x - cell * 0.12, y - cell * 0.12, cell * 0.3, fonts.small)
        elseif s.upper then
            draw_piece(s.upper, x, y, r, fonts.piece)
        end
        if s.loose_ball then
            draw_ball(x, y, cell * 0.17)
        elseif s.upper and s.upper.ball then
            if s.lower then
                draw_ball(x + cell * 0.22, y - cell * 0.3, cell * 0.14)
            else
                draw_ball(x + r * 0.72, y - r * 0.72, cell * 0.15)
            end
        end
        g.setLineWidth(3)
        if m.task then
            g.setColor(0.55, 0.2, 0.75)
            g.rectangle("line", x0 + 3, y0 + 3, cell - 6, cell - 6)
        end
        if m.selectable then
            g.setColor(0.1, 0.65, 0.25)
            g.rectangle("line", x0 + 1.5, y0 + 1.5, cell - 3, cell - 3)
        end
        if m.selected then
            g.setColor(1, 1, 1)
            g.rectangle("line", x0 + 1.5, y0 + 1.5, cell - 3, cell - 3)
            g.setColor(0, 0, 0)
            g.setLineWidth(1)
            g.rectangle("line", x0 + 4.5, y0 + 4.5, cell - 9, cell - 9)
        end
        if m.dest then
            g.setColor(0.1, 0.6, 0.2, 0.85)
            g.circle("fill", x, y, cell * 0.13)
        end
        if m.option or m.keeper then
            g.setLineWidth(3)
            if m.option then g.setColor(0.1, 0.35, 0.9) else g.setColor(0.6, 0.15, 0.7) end
            g.circle("line", x, y, cell * 0.42)
        end
    end
end

return Board
