-- The Lua binding of libball, the C module c/*.c (ball.so for
-- require "ball") for Lua 5.1-5.4 and LuaJIT (the 5.1 ABI: --lua-version=5.1
-- with a LuaRocks set up for LuaJIT), with the LuaJIT learning interface
-- ball_learn.lua beside it; the module is built against the installed library found by pkg-config (libball.pc of
-- `make install`). From this directory, offline:
--   luarocks make --tree=TREE libball-1.1.0-1.rockspec       (default Lua)
--   luarocks --lua-version=5.4 make --local libball-1.1.0-1.rockspec
-- Set PKG_CONFIG_PATH when libball.pc is not in pkg-config's default path.
-- The module records the run path of the libball it was built against
-- (libball.pc's libdir), so it loads that copy from any prefix without
-- LD_LIBRARY_PATH.
rockspec_format = "3.0"
package = "libball"
version = "1.1.0-1"
source = {
   url = "git+https://example.invalid/libball.git", -- luarocks make builds the local copy
   tag = "v1.1.0",
}
description = {
   summary = "Lua binding (C module) of libball, the rules engine of the board game BALL",
   detailed = [[
One module for Lua 5.1 to 5.4 and LuaJIT: games as userdata with __gc,
__close, __tostring and __eq, errors as ball.Error values carrying the
library's message, card mode (R10), records, the MCTS and turn search
players; under LuaJIT also the learning interface ball_learn (FFI arrays
over the module's games).]],
   license = "MIT",
}
dependencies = { "lua >= 5.1, < 5.5" }
build = {
   type = "command",
   build_command = [[$(CC) $(CFLAGS) -std=c99 $(LIBFLAG) -I$(LUA_INCDIR) `pkg-config --cflags libball` -o ball.so c/*.c `pkg-config --libs libball` -Wl,-rpath,`pkg-config --variable=libdir libball`]],
   install = { lib = { ball = "ball.so" }, lua = { ball_learn = "ball_learn.lua" } },
}
