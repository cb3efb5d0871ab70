# The game server (examples/server, docs/server.md): Python with Debian's
# python3-aiohttp over the Python binding and the build's libball.so.
# Included by the top-level Makefile; uses its B.
#
#   make serve          runs the server on http://127.0.0.1:$(SERVER_PORT)/
#                       with its games in $(SERVER_DB) and the page
#                       ($(B)/web, built first) at /; SERVER_ARGS adds
#                       options (e.g. SERVER_ARGS='--allow-origin https://x.org')
#   make bench-server   the load benchmark: BENCH_GAMES games (200) of random
#                       legal play for BENCH_SECONDS (60) on 127.0.0.1
#                       (tests/server/bench.py; figures in docs/server.md)
#   make bench-server-callgrind  the server's instructions a decision (callgrind,
#                       20 games; tests/server/bench_callgrind.py)
#   make bench-server-pg  the same against PostgreSQL (a cluster of its own in
#                       $(B)/bench-server-pg) with BENCH_PROCESSES (2) servers
#   make check-server-lobby  the lobby page in chromium (tests/server/lobby.test.mjs:
#                       create, join, watch, a bot, a rematch; screenshots in
#                       $(B)/screenshots/lobby-*.png)
# tests/tools/server_test.sh and tests/tools/server_lobby_test.sh, which `make check`
# runs, test it. BENCH_ARGS adds options of tests/server/bench.py (e.g.
# BENCH_ARGS="--server-args '--loop asyncio'").

.PHONY: serve bench-server bench-server-callgrind bench-server-pg server-deps check-server-lobby

SERVER_PORT   ?= 8080
SERVER_DB     ?= $(B)/server/games.sqlite
SERVER_ARGS   ?=
BENCH_GAMES   ?= 200
BENCH_SECONDS ?= 60
BENCH_PROCESSES ?= 2
BENCH_ARGS    ?=
# Debian's Python: python3-aiohttp is installed for it (scripts/deps.sh).
SERVER_PYTHON ?= /usr/bin/python3

server-deps:
	@sh scripts/deps.sh server

serve: server-deps lib python-ext web
	@mkdir -p $(dir $(SERVER_DB))
	LIBBALL_PATH=$(B)/libball.so.$(VERSION_MAJOR) $(SERVER_PYTHON) examples/server/server.py \
	    --port $(SERVER_PORT) --db $(SERVER_DB) --web $(B)/web $(SERVER_ARGS)

bench-server: server-deps lib python-ext
	LIBBALL_PATH=$(B)/libball.so.$(VERSION_MAJOR) timeout $$(($(BENCH_SECONDS) + 180)) \
	    $(SERVER_PYTHON) tests/server/bench.py --games $(BENCH_GAMES) --seconds $(BENCH_SECONDS) \
	    --dir $(B)/bench-server $(BENCH_ARGS)

# The server's instructions a decision under callgrind (a measure the
# machine's load does not move; tests/server/bench_callgrind.py).
bench-server-callgrind: server-deps lib python-ext
	@sh scripts/deps.sh valgrind:valgrind
	LIBBALL_PATH=$(B)/libball.so.$(VERSION_MAJOR) timeout 600 \
	    $(SERVER_PYTHON) tests/server/bench_callgrind.py --dir $(B)/bench-server-callgrind $(BENCH_ARGS)

bench-server-pg: server-deps lib python-ext
	LIBBALL_PATH=$(B)/libball.so.$(VERSION_MAJOR) timeout $$(($(BENCH_SECONDS) + 240)) \
	    $(SERVER_PYTHON) tests/server/bench.py --games $(BENCH_GAMES) --seconds $(BENCH_SECONDS) \
	    --dir $(B)/bench-server-pg --postgres --processes $(BENCH_PROCESSES) $(BENCH_ARGS)

# The lobby in chromium, on the server with the page (--web $(B)/web).
check-server-lobby: web-browser-deps server-deps
	@$(MAKE) --no-print-directory web lib python-ext
	LIBBALL_PATH=$(abspath $(B))/libball.so.$(VERSION_MAJOR) PYTHONDONTWRITEBYTECODE=1 WEB_ROOT=$(B)/web \
	    SHOTS=$(B)/screenshots timeout 150 node tests/server/lobby.test.mjs
