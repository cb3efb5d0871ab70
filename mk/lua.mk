# The Lua binding (bindings/lua/c/*.c, the one Lua implementation:
# docs/bindings.md), built by `make` into $(B)/lua/V/ball.so for each Lua V
# of 5.1-5.4 whose headers are installed (for 5.1, LuaJIT's own headers
# when lua5.1's are not), so that a checkout runs Lua without a
# hand-written compile line:
#
#   LUA_CPATH='build/lua/5.1/?.so' luajit -e 'print(require("ball").version)'
#   LUA_CPATH='build/lua/5.4/?.so' lua5.4 -e 'print(require("ball").version)'
#
# Linked with $(B)/libball.so.1 through a run path to $(B), so no
# LD_LIBRARY_PATH is needed; an installed module comes from the rockspec
# or the packages instead. Without any Lua headers nothing is built.
LUA_INC_5.1 := $(firstword $(wildcard /usr/include/lua5.1/lua.h /usr/include/luajit-2.1/lua.h))
LUA_INC_5.2 := $(wildcard /usr/include/lua5.2/lua.h)
LUA_INC_5.3 := $(wildcard /usr/include/lua5.3/lua.h)
LUA_INC_5.4 := $(wildcard /usr/include/lua5.4/lua.h)
LUA_MODULES := $(foreach v,5.1 5.2 5.3 5.4,$(if $(LUA_INC_$(v)),$(B)/lua/$(v)/ball.so))

.PHONY: lua
lua: $(LUA_MODULES)
all: lua

# On $(B)/libball.so, whose rule makes the $(SONAME) link that -l: names (on
# the versioned file alone, a parallel build could link before the link
# existed: "cannot find -l:libball.so.1", seen once in `make coverage`).
LUA_C_SRC := $(sort $(wildcard bindings/lua/c/*.c))
$(B)/lua/%/ball.so: $(LUA_C_SRC) $(wildcard bindings/lua/c/ballc*.h) bindings/lua/c/ball_constants.h include/ball.h $(B)/libball.so
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) -std=c99 $(OPT) -g -Wall -Wextra $(if $(WERROR),-Werror) -shared -fPIC -Iinclude \
	    -I$(dir $(LUA_INC_$*)) $(LUA_C_SRC) -o $@ -L$(B) -l:$(SONAME) -Wl,-rpath,$(abspath $(B))
