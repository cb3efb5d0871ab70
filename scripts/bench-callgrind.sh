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
# The same playouts through other calls (docs/performance.md, "Fewer crossings")
set -- $(count "$bench" playout --workload playout-checked)
echo "  random playouts, ball_random_action + checked ball_apply: $1 / $2 decisions = $(per "$1" "$2") per decision"
set -- $(count "$bench" playout --workload playout-apply)
echo "  random playouts, ball_random_apply: $1 / $2 decisions = $(per "$1" "$2") per decision"
set -- $(count "$bench" playout --workload playout-call)
echo "  random playouts, one ball_random_playout a game: $1 / $2 decisions = $(per "$1" "$2") per decision"
# The random playouts again, by kind of decision (bench.c, playout_kinds()):
# each draw, apply and undo counted through a small function of its kind.
echo "random playouts by kind of decision (instructions per decision, each call through a wrapper of one instruction, a tail jump):"
data=$(mktemp)
trap 'rm -f "$out" "$data"' EXIT
toggles=""
for kind in end quick slow release; do
    for fn in draw apply undo; do
        toggles="$toggles --toggle-collect=${fn}_of_$kind"
    done
done
# shellcheck disable=SC2086 # $toggles is a list of options
valgrind --tool=callgrind --callgrind-out-file="$data" $toggles "$bench" --workload playout-kinds >"$out.kinds" 2>/dev/null
callgrind_annotate --inclusive=yes "$data" >"$out.annotate"
total=$(awk '{n += $2} END {print n}' "$out.kinds")
for kind in end quick slow release; do
    n=$(awk -v k="$kind" '$1 == k {print $2}' "$out.kinds")
    case $kind in
    end) label="forced end" ;;
    quick) label="move, hand-off or pass" ;;
    slow) label="other action-phase decision" ;;
    release) label="release-phase decision" ;;
    esac
    line="  $label: $n decisions ($(per "100 * $n" "$total")%)"
    for fn in draw apply undo; do
        instr=$(awk -v f="bench.c:${fn}_of_$kind" 'index($0, f) && !/=>/ {gsub(",", "", $1); print $1; exit}' "$out.annotate")
        line="$line, $fn $(per "${instr:-0}" "$n")"
    done
    echo "$line"
done
rm -f "$out.kinds" "$out.annotate"
