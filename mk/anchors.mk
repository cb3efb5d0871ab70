# make bench-anchors: libball against Stockfish on this machine, in one
# run whose rounds interleave the workloads (bench/anchors.py says what is
# measured and how). Installs Debian's stockfish when run as root.
#   make bench-anchors [ANCHOR_ROUNDS=7]
.PHONY: bench-anchors
ANCHOR_ROUNDS ?= 7

$(B)/bench/anchors: bench/anchors.c bench/bench_util.h $(B)/libball.a
	@mkdir -p $(dir $@)
	$(QUIET_CCLD)$(CC) $(BASEFLAGS) $(CFLAGS) $< $(B)/libball.a $(LDFLAGS) -o $@

# Debian installs stockfish in /usr/games, which root's PATH leaves out.
bench-anchors: $(B)/bin/ball $(B)/bench/anchors
	@PATH="$$PATH:/usr/games" sh scripts/deps.sh stockfish:stockfish python3:python3
	@PATH="$$PATH:/usr/games" python3 bench/anchors.py $(B)/bin/ball $(B)/bench/anchors stockfish $(ANCHOR_ROUNDS)
