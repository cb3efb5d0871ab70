-- SPDX-License-Identifier: MIT
-- LÖVE 11's settings of the BALL game (examples/love/README.md).
function love.conf(t)
    t.identity = "libball-love"
    t.version = "11.4"
    t.window.title = "BALL"
    t.window.width = 1000
    t.window.height = 720
    t.window.resizable = true
    t.window.minwidth = 760
    t.window.minheight = 560
    -- what the game does not use
    t.modules.audio = false
    t.modules.sound = false
    t.modules.joystick = false
    t.modules.physics = false
    t.modules.video = false
    t.modules.touch = false
end
