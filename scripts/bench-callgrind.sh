#!/bin/sh
# Instructions per decision and per perft leaf, counted by callgrind inside
# the measured function only: a figure that does not depend on the load of
# the machine. The three figures with a target (docs/performance.md) come
# first. Usage: bench-callgrind.sh path/to/bench path/to/anchors
# shellcheck disable=SC2046 # set -- $(count ...) splits "instructions units" on purpose
set -e
bench=$1
anchors=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# program function args... -> "instructions units": callgrind collects
# inside `function` only; the program prints "<units> ..." or "<word> <units>".
count() {
    prog=$1 fn=$2
    shift 2
    units=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$fn" \
        "$prog" "$@" 2>"$out" | awk '{print ($1 ~ /^[0-9]+$/) ? $1 : $2}')
    instr=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out")
    echo "$instr $units"
}
per() { awk "BEGIN{printf \"%.1f\", $1/$2}"; }

echo "targets:"
set -- $(count "$anchors" ball_perft perft 6)
echo "  bulk perft 6 from the start: $1 instructions / $2 leaves = $(per "$1" "$2") per leaf (target <= 20)"
set -- $(count "$bench" perft_full --workload apply)
echo "  make every leaf, apply+undo through the API (perft 4 from the start): $1 / $2 decisions = $(per "$1" "$2") per decision (target <= 150)"
set -- $(count "$bench" playout --workload playout)
echo "  random playouts, ball_random_action + apply, undo at the end (200 games, turn limit 200): $1 / $2 decisions = $(per "$1" "$2") per decision (target <= 400)"
echo "others:"
set -- $(count "$bench" ball_perft --workload perft)
echo "  bulk perft 5 from the start: $1 instructions / $2 leaves = $(per "$1" "$2") per leaf"
set -- $(count "$anchors" make_every_leaf leaves 5)
echo "  make every leaf, perft 5 from the start (make bench-anchors): $1 / $2 decisions = $(per "$1" "$2") per decision"
set -- $(count "$bench" generate_all --workload generation)
echo "  legal-action generation, $2 sampled positions: $1 instructions = $(( $1 / $2 )) per position"
set -- $(count "$bench" playout --workload playout-list)
echo "  random playouts, list all (200 games, turn limit 200): $1 / $2 decisions = $(per "$1" "$2") per decision"
