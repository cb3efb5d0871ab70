#!/bin/sh
# Instructions per decision and per perft leaf, counted by callgrind inside
# the measured function only: a figure that does not depend on the load of
# the machine. Usage: bench-callgrind.sh path/to/bench
set -e
bench=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
count() { # workload function -> "instructions units"
    units=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$2" \
        "$bench" --workload "$1" 2>"$out" | awk '{print $2}')
    instr=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out")
    echo "$instr $units"
}
set -- $(count apply perft_full)
echo "apply+undo from the start (perft 4, no bulk): $1 instructions / $2 decisions = $(( $1 / $2 )) per decision"
set -- $(count perft ball_perft)
echo "bulk perft 5 from the start: $1 instructions / $2 leaves = $(awk "BEGIN{printf \"%.1f\", $1/$2}") per leaf"
set -- $(count generation generate_all)
echo "legal-action generation, $2 sampled positions: $1 instructions = $(( $1 / $2 )) per position"
set -- $(count playout playout)
echo "random playouts, draw one (200 games, turn limit 200): $1 instructions / $2 decisions = $(( $1 / $2 )) per decision"
set -- $(count playout-list playout)
echo "random playouts, list all (200 games, turn limit 200): $1 instructions / $2 decisions = $(( $1 / $2 )) per decision"
