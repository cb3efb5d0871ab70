#!/bin/sh
# Runs every test program given as argument plus the shell tests in
# tests/*.sh, and prints one closing line "N passed, N failed".
#
# B is the build directory under test (the Makefile passes its own). The
# shell tests, the reference comparison and the bindings find the tool,
# the examples and the shared library through the variables exported here,
# so that a sanitizer or coverage build is tested in place.
B=${B:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
export BALL="${BALL:-$B/bin/ball}"
export PLAY="${PLAY:-$B/examples/play}"
export SELFPLAY="${SELFPLAY:-$B/examples/selfplay}"
export SOLVE="${SOLVE:-$B/examples/solve}"
export LIBBALL_PATH="${LIBBALL_PATH:-$B/libball.so.1}"
export BALL_BUILD="$B"
passed=0
failed=0
for t in "$@"; do
    echo "== $t"
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
done
for t in tests/*.sh; do
    [ -f "$t" ] || continue
    echo "== $t"
    if sh "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
