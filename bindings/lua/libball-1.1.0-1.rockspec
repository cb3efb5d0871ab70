-- The PUC Lua C module of libball (c/ballc.c, ball.so for require "ball"),
-- built against the installed library found by pkg-config (libball.pc of
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
The same API as the LuaJIT FFI module ball.lua, for Lua 5.1 to 5.4: games
as userdata with __gc, __close, __tostring and __eq, errors as ball.Error
values carrying the library's message, card mode (R10).]],
   license = "MIT",
}
dependencies = { "lua >= 5.1, < 5.5" }
build = {
   type = "command",
   build_command = [[$(CC) $(CFLAGS) -std=c99 $(LIBFLAG) -I$(LUA_INCDIR) `pkg-config --cflags libball` -o ball.so c/ballc.c `pkg-config --libs libball` -Wl,-rpath,`pkg-config --variable=libdir libball`]],
   install = { lib = { ball = "ball.so" } },
}
