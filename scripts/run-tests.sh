#!/bin/sh
# Runs every test program given as argument plus the shell tests in
# tests/*.sh, and prints one closing line "N passed, N failed".
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
