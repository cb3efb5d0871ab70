# The LÖVE 11 game (examples/love, examples/love/README.md): BALL against
# the turn search, through the Lua module built for LuaJIT's ABI
# ($(B)/lua/5.1/ball.so, mk/lua.mk). Included by the top-level Makefile;
# uses its B.
#
#   make love        installs what is missing (scripts/deps.sh love, as
#                    root) and plays; LOVE_ARGS adds the game's options,
#                    e.g. LOVE_ARGS='--human ATK --nodes 50000'
#
# tests/bindings/love_test.sh, which `make check` runs, plays it under Xvfb.

.PHONY: love love-deps

LOVE_ARGS ?=

love-deps:
	@sh scripts/deps.sh love

# A make of its own for the module: Lua 5.1's headers may have been
# installed just now, after this make read mk/lua.mk.
love: love-deps
	@$(MAKE) --no-print-directory $(B)/lua/5.1/ball.so
	love examples/love --cpath '$(abspath $(B))/lua/5.1/?.so' $(LOVE_ARGS)
