# The web: libball compiled to WebAssembly, its JavaScript binding
# (bindings/js), the playable page (examples/web) and their tests
# (tests/web). Included by the top-level Makefile; uses its B, OPT, WARN
# and LIB_SRC. See docs/web.md.
#
#   make wasm        $(B)/wasm/ball.mjs: the library (the whole public API)
#                    compiled by emscripten into one ES module with the
#                    WebAssembly inlined; also copied to bindings/js/wasm/,
#                    where the binding loads it from
#   make web         the playable page in $(B)/web/
#   make serve-web   serves $(B)/web/ on http://127.0.0.1:$(WEB_PORT)/
#   make check-web   the type check of the binding's declarations, its node
#                    tests, the test of serve.mjs, the fuzz target and the
#                    browser test (the screenshots go to $(B)/web-test/),
#                    against the native tool and selfplay;
#                    tests/bindings/web_test.sh, which `make check` runs, runs this
#   make check-web-online  the page on the game server (examples/server):
#                    two seats and a watcher play a game through its
#                    invitation links (tests/tools/online_test.sh runs this)
#   make fuzz-web    the binding's fuzz target alone (random calls with
#                    hostile arguments): the run of its defaults (40,000
#                    calls, seed 1), the same as `node --test bindings/js`
#                    makes; WEB_FUZZ_COUNT, WEB_FUZZ_SEED and
#                    WEB_FUZZ_SECONDS (a time bound) change it
#   make bench-web   wasm / native speed, measured side by side
#
# emscripten, chromium and node/npm come from Debian through
# scripts/deps.sh (installed as root, named otherwise); playwright-core and
# typescript from the npm registry through `npm ci` and
# tests/web/package-lock.json.

.PHONY: wasm web serve-web check-web check-web-online fuzz-web web-deps web-browser-deps bench-web clean-web

EMCC      ?= emcc
WEB_PORT  ?= 8000
WASM_DIR  := $(B)/wasm
WASM_OBJ  := $(LIB_SRC:libball/%.c=$(WASM_DIR)/obj/%.o)
# The binding's own C, in the wasm build only: the address of
# ball_net_search_eval() for TurnSearch({ eval: net })
# (bindings/js/emscripten/net.c says why a C file).
WASM_GLUE := $(WASM_DIR)/obj/js-net.o
# The library's own flags (LIBFLAGS without -fPIC and -g: there is no
# shared library, and DWARF would only slow the link down).
WASM_CFLAGS := -std=c11 $(OPT) $(WARN) -Iinclude -Ilibball -fvisibility=hidden -DBALL_BUILDING_LIBRARY
# The export list: every BALL_API function of the header, plus malloc and
# free for the binding's buffers, mallinfo for its memory figures and the
# glue's libball_js_net_search_eval; generated from the header with the
# binding's other mechanical files (scripts/api-generate.py, make
# api-generate).
WASM_EXPORTS := bindings/js/emscripten/exports.json

# One ES module (a factory, `createBallModule`) with the wasm inlined, so
# that node and a page load it the same way and no loader fetches a file
# path (Debian's emscripten 3.1.6 would, under node 18+). BigInt for the
# 64-bit values (ball_hash, ball_random_action). The module never takes
# over node's process (exit and rejection handlers) and has no file system.
WASM_LDFLAGS := $(OPT) -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createBallModule \
    -sSINGLE_FILE=1 -sWASM_BIGINT=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,worker,node \
    -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 -sFILESYSTEM=0 \
    -sEXPORTED_FUNCTIONS=@$(WASM_EXPORTS) \
    -sEXPORTED_RUNTIME_METHODS='["UTF8ToString","stringToUTF8","lengthBytesUTF8","HEAPU8","HEAP32","HEAPU32"]' \
    --extern-pre-js bindings/js/emscripten/extern-pre.js
# Debian's emscripten runs its JavaScript tools with the node in PATH,
# which finds their modules (acorn, ...) only through NODE_PATH when it is
# not Debian's own node.
EM_ENV := NODE_PATH=/usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))

wasm:
	@sh scripts/deps.sh emcc:emscripten node:nodejs
	@$(MAKE) --no-print-directory $(WASM_DIR)/ball.mjs bindings/js/wasm/ball.mjs

$(WASM_GLUE): bindings/js/emscripten/net.c include/ball.h
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(EM_ENV) $(EMCC) $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/%.o: libball/%.c $(wildcard libball/*.h libball/*/*.h) include/ball.h
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(EM_ENV) $(EMCC) $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/ball.mjs: $(WASM_OBJ) $(WASM_GLUE) $(WASM_EXPORTS) bindings/js/emscripten/extern-pre.js
	$(QUIET_LD)$(EM_ENV) $(EMCC) $(WASM_OBJ) $(WASM_GLUE) $(WASM_LDFLAGS) -o $@

bindings/js/wasm/ball.mjs: $(WASM_DIR)/ball.mjs
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp $< $@

# `make clean` removes $(B); the copy in the binding's directory goes too.
clean: clean-web
clean-web:
	rm -rf bindings/js/wasm

# ---------------------------------------------------------------- the page
WEB_DIR   := $(B)/web
WEB_FILES := $(filter-out examples/web/serve.mjs examples/web/rules-page.mjs,$(wildcard examples/web/*.html examples/web/*.css examples/web/*.mjs examples/web/*.svg))

web: wasm
	@$(MAKE) --no-print-directory $(WEB_DIR)/index.html

# The learned evaluation's network (the "Learned evaluation" box) goes next
# to the engine: wasm/value.net, which the search worker fetches.
# The rules (the footer's link): docs/rules.md as a page, rules.html, with
# its diagrams beside it (examples/web/rules-page.mjs).
$(WEB_DIR)/index.html: $(WEB_FILES) bindings/js/libball.mjs bindings/js/_api.mjs $(WASM_DIR)/ball.mjs docs/rules.md share/net/value.net \
        examples/web/rules-page.mjs $(wildcard docs/diagrams/*.svg)
	@mkdir -p $(WEB_DIR)/wasm $(WEB_DIR)/diagrams
	$(QUIET_GEN)cp $(WEB_FILES) bindings/js/libball.mjs bindings/js/_api.mjs $(WEB_DIR)/ && \
	    node examples/web/rules-page.mjs docs/rules.md >$(WEB_DIR)/rules.html.tmp && mv $(WEB_DIR)/rules.html.tmp $(WEB_DIR)/rules.html && \
	    cp docs/diagrams/*.svg $(WEB_DIR)/diagrams/ && \
	    cp $(WASM_DIR)/ball.mjs $(WEB_DIR)/wasm/ball.mjs && cp share/net/value.net $(WEB_DIR)/wasm/value.net
	@touch $@
	@echo "web: the page is in $(WEB_DIR)/ (make serve-web serves it)"

serve-web: web
	node examples/web/serve.mjs $(WEB_DIR) --port $(WEB_PORT)

# ---------------------------------------------------------------- tests
# The npm packages of the browser test, at the versions of the lockfile.
tests/web/node_modules/.package-lock.json: tests/web/package-lock.json tests/web/package.json
	cd tests/web && timeout 300 npm ci --no-audit --no-fund --loglevel=error

web-deps:
	@sh scripts/deps.sh emcc:emscripten node:nodejs npm:npm

web-browser-deps: web-deps
	@sh scripts/deps.sh chromium:chromium
	@$(MAKE) --no-print-directory tests/web/node_modules/.package-lock.json

WEB_NODE_TESTS := $(wildcard bindings/js/test/*.test.mjs) tests/web/serve.test.mjs
WEB_FUZZ_COUNT   ?=
WEB_FUZZ_SEED    ?=
WEB_FUZZ_SECONDS ?=

# Random calls of the whole API with hostile arguments, bounded by a count
# (bindings/js/test/fuzz.mjs says what fails it). Without the WEB_FUZZ_*
# variables it runs with the script's own defaults, as `node --test` runs
# it: one run, not one here and another there (issue 49). Not FUZZ_SECONDS:
# that is mk/reliability.mk's libFuzzer time (600 s).
fuzz-web: wasm
	timeout $$(($(or $(WEB_FUZZ_SECONDS),300) + 60)) node bindings/js/test/fuzz.mjs \
	    $(if $(WEB_FUZZ_COUNT),--count $(WEB_FUZZ_COUNT)) $(if $(WEB_FUZZ_SEED),--seed $(WEB_FUZZ_SEED)) \
	    $(if $(WEB_FUZZ_SECONDS),--seconds $(WEB_FUZZ_SECONDS))

# The native tool, selfplay, the library and the Python binding's
# extension are built too: the tests compare their positions with the
# tool's, the MCTS decisions with selfplay's, and the learning interface's
# arrays and the learned evaluation's values and decisions with the
# native library's, read through the Python binding.
check-web: web-browser-deps
	@$(MAKE) --no-print-directory web tool $(B)/examples/selfplay lib python-ext
	timeout 120 tests/web/node_modules/.bin/tsc -p tests/web
	BALL_TOOL=$(B)/bin/ball SELFPLAY=$(B)/examples/selfplay timeout 300 node --expose-gc --test $(WEB_NODE_TESTS)
	@$(MAKE) --no-print-directory fuzz-web
	BALL_TOOL=$(B)/bin/ball SELFPLAY=$(B)/examples/selfplay WEB_ROOT=$(WEB_DIR) SHOTS=$(B)/web-test \
	    timeout 240 node tests/web/browser.test.mjs
	WEB_ROOT=$(WEB_DIR) SHOTS=$(B)/screenshots timeout 120 node tests/web/first-minutes.test.mjs

# The page on the game server (tests/tools/online_test.sh, which `make check`
# runs, runs this): the server's page files (--web, tests/server/test_web.py)
# and a whole game of two seats and a watcher in chromium through the
# invitation links (tests/web/online.test.mjs; screenshots in
# $(B)/screenshots/). Needs python3-aiohttp too (scripts/deps.sh server).
check-web-online: web-browser-deps
	@sh scripts/deps.sh server
	@$(MAKE) --no-print-directory web lib python-ext
	d=$$(mktemp -d) && LIBBALL_PATH=$(abspath $(B))/libball.so.$(VERSION_MAJOR) PYTHONDONTWRITEBYTECODE=1 \
	    timeout 60 /usr/bin/python3 tests/server/test_web.py "$$d"; st=$$?; rm -rf "$$d"; exit $$st
	LIBBALL_PATH=$(abspath $(B))/libball.so.$(VERSION_MAJOR) PYTHONDONTWRITEBYTECODE=1 WEB_ROOT=$(WEB_DIR) \
	    SHOTS=$(B)/screenshots timeout 120 node tests/web/online.test.mjs

# ---------------------------------------------------------------- speed
# perft 5 and random games, the same C loop native and in wasm, runs
# alternated (bindings/js/bench/speed.c, compare.mjs).
BENCH_WEB_DIR := $(B)/bench-web
$(BENCH_WEB_DIR)/speed: bindings/js/bench/speed.c $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

# The same program for node: a plain script (CommonJS) that runs main().
$(BENCH_WEB_DIR)/speed.js: bindings/js/bench/speed.c $(WASM_OBJ)
	@mkdir -p $(dir $@)
	$(EM_ENV) $(EMCC) -std=c11 $(OPT) $(WARN) -Iinclude $< $(WASM_OBJ) -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 \
	    -sENVIRONMENT=node -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 -o $@

bench-web: wasm
	@$(MAKE) --no-print-directory $(BENCH_WEB_DIR)/speed $(BENCH_WEB_DIR)/speed.js tool
	node bindings/js/bench/compare.mjs $(BENCH_WEB_DIR)/speed $(BENCH_WEB_DIR)/speed.js
