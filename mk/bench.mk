# make bench: the benchmark program (bench/bench.c), built with the same
# optimisation as the library and linked statically. Not a test.
.PHONY: bench bench-callgrind

$(B)/bench/bench: bench/bench.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) -Ilibball $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench: $(B)/bench/bench
	$(B)/bench/bench

# Random playouts through C, Python, LuaJIT, PUC Lua 5.4 and JavaScript
# (node, over the WebAssembly build when emcc is there), a decision a call
# against ball_random_apply() and ball_random_playout(), and Python's walk
# of the legal list against C's apply+undo: the table of docs/performance.md
# (issues 29 and 46; bench/crossings.sh). CROSSINGS_GAMES and
# CROSSINGS_ROUNDS: games per measurement (200) and interleaved rounds (5).
.PHONY: bench-crossings
bench-crossings: $(B)/bench/bench $(B)/libball.so python-ext $(if $(shell command -v $(or $(EMCC),emcc) 2>/dev/null),wasm)
	sh bench/crossings.sh $(B) $(or $(CROSSINGS_GAMES),200) $(or $(CROSSINGS_ROUNDS),5)

# Instructions per decision, a figure that does not depend on machine
# load; the three figures with a target first (docs/performance.md).
# bench/anchors.c (mk/anchors.mk) runs perft 6.
bench-callgrind: $(B)/bench/bench $(B)/bench/anchors
	@sh scripts/deps.sh valgrind:valgrind
	@sh scripts/bench-callgrind.sh $(B)/bench/bench $(B)/bench/anchors

# The shape of the work (docs/performance.md, "The shape of the work"):
# positions of perft 6 and of random games by PA left and phase.
.PHONY: bench-shape
$(B)/bench/shape: bench/shape.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench-shape: $(B)/bench/shape
	$(B)/bench/shape

# A/B comparison with another revision, both libraries in one process,
# runs interleaved (bench/ab.c says why):
#   make bench-ab [BASE=<git revision, default HEAD>] [WHAT=playouts|draw|perft5|perft6|generation] [PAIRS=21]
#   make bench-ab BASE_LIB=<a libball.so built elsewhere> [WHAT=...] [PAIRS=...]
# B is the working tree's build, A the base revision's, built from `git
# archive`, or BASE_LIB when given (a revision with another API, such as
# one before the 1.0 renames, cannot be loaded by this tree's ab: build a
# copy of its library sources with this tree's Makefile instead).
BASE ?= HEAD
BASE_LIB ?=
WHAT ?= playouts
PAIRS ?= 21
.PHONY: bench-ab

$(B)/bench/ab: bench/ab.c bench/bench_util.h
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< -ldl $(LDFLAGS) -o $@

bench-ab: $(B)/bench/ab $(B)/libball.so
ifeq ($(BASE_LIB),)
	@rm -rf $(B)/ab-base && mkdir -p $(B)/ab-base
	git archive $(BASE) | tar -x -C $(B)/ab-base
	$(MAKE) -s -C $(B)/ab-base lib >/dev/null
	$(B)/bench/ab $(B)/ab-base/build/libball.so $(B)/libball.so $(WHAT) $(PAIRS)
else
	$(B)/bench/ab $(BASE_LIB) $(B)/libball.so $(WHAT) $(PAIRS)
endif

# Reading game records: the cost per game at 10^4, 10^5 and 10^6 games
# in one text (bench/records.c), which must stay flat (reading is linear).
# GAMES=N changes the largest text.
GAMES ?= 1000000
.PHONY: bench-records
$(B)/bench/records: bench/records.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench-records: $(B)/bench/records
	$(B)/bench/records $(GAMES)

# The learned evaluation (bench/net.c): ns per ball_net_evaluate() for
# hidden sizes 64 and 256, and the turn search's nodes per second with and
# without a net at NET_NODES nodes a search.
NET_NODES ?= 100000
.PHONY: bench-net
$(B)/bench/net: bench/net.c bench/bench_util.h tests/crc32.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench-net: $(B)/bench/net
	$(B)/bench/net $(NET_NODES)

# The cost of a format-2 network (scripts/bench-nnue.sh): callgrind's
# instructions of a full evaluation and of a search node with either
# evaluation. NNUE_FILE: the network (default the shipped one);
# NNUE_NODES: nodes a search (50 searches; docs/training.md's figures).
.PHONY: bench-nnue
NNUE_FILE ?= share/net/nnue.net
NNUE_NODES ?= 5000
$(B)/bench/nnue: bench/nnue.c $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -lpthread -o $@

bench-nnue: $(B)/bench/nnue
	@sh scripts/deps.sh valgrind:valgrind
	@sh scripts/bench-nnue.sh $(B)/bench/nnue $(NNUE_FILE) $(NNUE_NODES)

# The turn search's threads (bench/threads.c): time to a fixed depth and
# nodes per wall second with 1 and 2 threads, interleaved rounds over the
# first THREADS_POSITIONS openings of share/openings.txt. 2 idle cores.
THREADS_DEPTH ?= 3
THREADS_POSITIONS ?= 12
THREADS_ROUNDS ?= 3
.PHONY: bench-threads
$(B)/bench/threads: bench/threads.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a -pthread $(LDFLAGS) -o $@

bench-threads: $(B)/bench/threads
	$(B)/bench/threads share/openings.txt $(THREADS_DEPTH) $(THREADS_POSITIONS) $(THREADS_ROUNDS)
