# make bench: the benchmark program (bench/bench.c), built with the same
# optimisation as the library and linked statically. Not a test.
.PHONY: bench bench-callgrind

$(B)/bench/bench: bench/bench.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -Ilibball $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench: $(B)/bench/bench
	$(B)/bench/bench

# Instructions per decision, a figure that does not depend on machine load.
bench-callgrind: $(B)/bench/bench
	@command -v valgrind >/dev/null || sh scripts/ensure-deps.sh valgrind
	@sh scripts/bench-callgrind.sh $(B)/bench/bench

# A/B comparison with another revision, both libraries in one process,
# runs interleaved (bench/ab.c says why):
#   make bench-ab [BASE=<git revision, default HEAD>] [WHAT=playouts|draw|perft5|perft6|generation] [PAIRS=21]
# B is the working tree's build, A the base revision's, built from `git archive`.
BASE ?= HEAD
WHAT ?= playouts
PAIRS ?= 21
.PHONY: bench-ab

$(B)/bench/ab: bench/ab.c bench/bench_util.h
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $< -ldl $(LDFLAGS) -o $@

bench-ab: $(B)/bench/ab $(B)/libball.so
	@rm -rf $(B)/ab-base && mkdir -p $(B)/ab-base
	git archive $(BASE) | tar -x -C $(B)/ab-base
	$(MAKE) -s -C $(B)/ab-base lib >/dev/null
	$(B)/bench/ab $(B)/ab-base/build/libball.so $(B)/libball.so $(WHAT) $(PAIRS)
