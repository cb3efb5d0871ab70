#!/bin/sh
# Completeness of the allocation-failure gate (make check-malloc-fail):
# every exported function of libball that can reach an allocation
# (scripts/alloc-entry-points.py, from the call graph of the static
# library) must be in the table entry_points[] of tests/malloc_fail.c
# (which fails itself when an entry has no scenario). Names each missing
# function with the call path that reaches an allocation, and each table
# entry the call graph no longer finds (a warning: the scenario still
# runs, but the entry may be stale).
#
#   sh scripts/check-malloc-fail-table.sh build/libball.a build/tests/malloc_fail
set -e
lib=${1:?usage: check-malloc-fail-table.sh LIBBALL.A MALLOC_FAIL}
prog=${2:?usage: check-malloc-fail-table.sh LIBBALL.A MALLOC_FAIL}
dir=$(dirname "$0")
tmp=${TMPDIR:-/tmp}/malloc-fail-table.$$
trap 'rm -f "$tmp".*' EXIT
python3 "$dir/alloc-entry-points.py" --why "$lib" >"$tmp.why"
cut -f1 "$tmp.why" | LC_ALL=C sort -u >"$tmp.graph"
"$prog" --list | LC_ALL=C sort -u >"$tmp.table"
if [ ! -s "$tmp.graph" ]; then
    echo "check-malloc-fail-table: the call graph of $lib found no allocating function: the analysis is broken" >&2
    exit 1
fi
status=0
for f in $(LC_ALL=C comm -23 "$tmp.graph" "$tmp.table"); do
    echo "check-malloc-fail-table: FAILED: $f can allocate but is not in entry_points[] of tests/malloc_fail.c:" >&2
    echo "    $(grep "^$f	" "$tmp.why" | cut -f2)" >&2
    echo "    add it to the table and give it a scenario (its N-th allocation failing, N = 1, 2, ...)" >&2
    status=1
done
for f in $(LC_ALL=C comm -13 "$tmp.graph" "$tmp.table"); do
    echo "check-malloc-fail-table: note: $f is in entry_points[] but the call graph finds no allocation in it"
done
if [ $status -eq 0 ]; then
    echo "check-malloc-fail-table: all $(wc -l <"$tmp.graph") allocating exported functions are in tests/malloc_fail.c"
fi
exit $status
