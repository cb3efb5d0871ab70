# make bench: the benchmark program (bench/bench.c), built with the same
# optimisation as the library and linked statically. Not a test.
.PHONY: bench bench-callgrind

$(B)/bench/bench: bench/bench.c $(B)/libball.a
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) -Ilibball $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

bench: $(B)/bench/bench
	$(B)/bench/bench

# Instructions per decision, a figure that does not depend on machine load.
bench-callgrind: $(B)/bench/bench
	@command -v valgrind >/dev/null || sh scripts/ensure-deps.sh valgrind
	@sh scripts/bench-callgrind.sh $(B)/bench/bench
