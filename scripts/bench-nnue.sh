#!/bin/sh
# The cost of a format-2 network (issue 45's targets, docs/training.md):
# callgrind's instructions inside one function each, so the figures do not
# depend on the machine's load; then nodes a CPU second of the two
# searches in one run, for the record. Usage: bench-nnue.sh BENCH NETFILE [NODES]
set -e
bench=$1 net=$2 nodes=${3:-5000}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
count() {
    fn=$1
    shift
    units=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$fn" \
        "$bench" "$net" "$@" 2>"$out" | awk '{print $1}')
    instr=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out")
    echo "$instr $units"
}
per() { awk "BEGIN{printf \"%.1f\", $1/$2}"; }
# shellcheck disable=SC2046 # "instructions units" split on purpose
set -- $(count eval_full full)
echo "full ball_net_evaluate(): $1 instructions / $2 = $(per "$1" "$2") an evaluation (target <= 1500)"
set -- $(count search_all hand "$nodes")
hand=$(per "$1" "$2")
echo "turn search, hand-written evaluation, $nodes nodes from 50 positions: $hand instructions a node"
set -- $(count search_all net "$nodes")
learned=$(per "$1" "$2")
echo "turn search, the network: $learned instructions a node"
echo "the network's overhead: $(awk "BEGIN{printf \"%.1f\", $learned - $hand}") instructions a node (target <= 600); nodes per instruction $(awk "BEGIN{printf \"%.3f\", $hand / $learned}")x the hand-written evaluation's (target >= 0.75)"
echo "CPU time, one run each (the machine may be shared):"
"$bench" "$net" hand "$nodes" | sed 's/^/  hand: /'
"$bench" "$net" net "$nodes" | sed 's/^/  net:  /'
