#!/bin/sh
# The gates' own honesty (issue 32): each defect below is injected into a
# scratch copy of the working tree (one defect per copy), the gate that
# must catch it is run there, and the script fails when that gate stays
# green, or turns red for another reason than the defect (each case names
# the message the gate must print). The working tree is not touched.
#
#   sh scripts/gate-injections.sh [CASE...]     (default: all cases)
#
#   mcts-nomem     ball_mcts_new() ignores a NULL from its third allocation
#                  -> make check-malloc-fail (the N-th allocation failing)
#   coverage       an untested 3-line branch in ball_game_clone() and the
#                  test test_svg emptied -> make coverage (the ratchet)
#   rules-overread ball_rules_from_text() reads one byte past the NUL of
#                  its text -> make fuzz-replay-asan FUZZ_NAMES=rules
#   new-alloc-fn   a new exported function that calls malloc(), not in the
#                  table of tests/malloc_fail.c -> make check-malloc-fail
#                  (scripts/check-malloc-fail-table.sh)
#
# The copies live in GATE_INJECT_DIR (build/gate-injections by default,
# emptied first; kept afterwards for a look at CASE/gate.log). Each copy
# builds what its gate needs from scratch: about a minute each for the
# small ones on 2 cores, and one whole coverage run (the suite at -O0)
# for the ratchet. Prints each case's time and a summary.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
MAKE=${MAKE:-make}
dir=${GATE_INJECT_DIR:-$root/build/gate-injections}
cases=${*:-mcts-nomem coverage rules-overread new-alloc-fn}
rm -rf "$dir"
mkdir -p "$dir"

# A copy of the working tree (tracked files and new ones not ignored, as
# they are now), without build/.
copy_tree() { # DEST
    mkdir -p "$1"
    git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' |
        xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
        tar -c --null -T - -f - | tar -x -f - -C "$1"
}

# Replaces the one occurrence of OLD by NEW in FILE (python3: multi-line
# text); fails when OLD is not there exactly once, so that an injection
# that no longer applies is a failure, not a silent pass.
inject() { # FILE OLD NEW
    python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path, encoding="utf-8").read()
n = text.count(old)
if n != 1:
    sys.exit("gate-injections: %s: the text to replace occurs %d times (expected once): %r" % (path, n, old[:80]))
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
}

failed=""
summary=""
run_case() { # NAME EXPECTED_MESSAGE(regex) GATE...
    name=$1 expect=$2
    shift 2
    start=$(date +%s)
    echo "== gate-injections: $name: $*"
    (cd "$dir/$name" && "$@") >"$dir/$name/gate.log" 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    if [ $rc -eq 0 ]; then
        echo "== gate-injections: $name: FAILED: the gate stayed green (${took} s); its log: $dir/$name/gate.log"
        tail -n 5 "$dir/$name/gate.log"
        failed="$failed $name"
    elif grep -Eq "$expect" "$dir/$name/gate.log"; then
        echo "== gate-injections: $name: caught (gate exit $rc, ${took} s):"
        grep -E "$expect" "$dir/$name/gate.log" | head -n 3 | sed 's/^/    /'
    else
        echo "== gate-injections: $name: FAILED: the gate failed (exit $rc, ${took} s) but without /$expect/: not for the injected defect?"
        tail -n 15 "$dir/$name/gate.log"
        failed="$failed $name"
    fi
    summary="$summary $name=${took}s"
}

prepare() { # NAME: the copy, or a failure when it cannot be made
    copy_tree "$dir/$1" || { echo "gate-injections: cannot copy the tree to $dir/$1"; exit 2; }
}

total_start=$(date +%s)
for c in $cases; do
    case $c in
        mcts-nomem)
            prepare "$c"
            inject "$dir/$c/libball/search/mcts.c" \
                'if (m == NULL || m->nodes == NULL || m->acts == NULL) {' \
                'if (m == NULL || m->nodes == NULL) { /* injected: m->acts unchecked */' || exit 2
            run_case "$c" 'ball_mcts_new' $MAKE --no-print-directory check-malloc-fail
            ;;
        coverage)
            prepare "$c"
            inject "$dir/$c/libball/game.c" \
                'int ball_game_clone(ball_game **out, const ball_game *game)
{
' \
                'int ball_game_clone(ball_game **out, const ball_game *game)
{
    if (out && game && game->cap == 77777) { /* injected: no test comes here */
        *out = NULL;
        return BALL_E_RANGE;
    }
' || exit 2
            python3 - "$dir/$c/tests/api/test_svg.c" <<'PY' || exit 2
import re, sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
t, n = re.subn(r"START_TEST\(test_svg\)\n\{\n.*?\n\}\nEND_TEST", "START_TEST(test_svg)\n{\n}\nEND_TEST", s, flags=re.S)
if n != 1:
    sys.exit("gate-injections: cannot empty test_svg in tests/api/test_svg.c")
open(p, "w", encoding="utf-8").write(t)
PY
            # the floors off: the ratchet alone must catch it
            # The floors off: the ratchet alone must catch the new branch.
            # Whether the emptied test also shows depends on whether other
            # tests reach the same lines: reported, not required.
            run_case "$c" 'new uncovered .*cap == 77777' \
                env COVERAGE_MIN_LINES=0 COVERAGE_MIN_BRANCHES=0 COVERAGE_ALL_MIN_LINES=0 \
                COVERAGE_ALL_MIN_BRANCHES=0 $MAKE --no-print-directory coverage
            n=$(grep -c 'new uncovered' "$dir/$c/gate.log")
            echo "    ($n new uncovered line(s)/branch(es) in all, $(grep 'new uncovered' "$dir/$c/gate.log" | grep -c 'libball/svg\.c') in libball/svg.c, which test_svg tested)"
            ;;
        rules-overread)
            prepare "$c"
            inject "$dir/$c/libball/ruleset_text.c" \
                'for (const char *s = text; *s;) {' \
                'for (const char *s = text; *s || s[1];) { /* injected: peeks past the NUL */' || exit 2
            run_case "$c" 'heap-buffer-overflow' $MAKE --no-print-directory fuzz-replay-asan FUZZ_NAMES=rules
            ;;
        new-alloc-fn)
            prepare "$c"
            cat >"$dir/$c/libball/injected_alloc.c" <<'C'
/* injected: a new exported function that allocates */
#include <stdlib.h>

#include "ball.h"

BALL_API void *ball_injected_buffer_new(size_t n);

void *ball_injected_buffer_new(size_t n) { return malloc(n ? n : 1); }
C
            run_case "$c" 'FAILED: ball_injected_buffer_new' $MAKE --no-print-directory check-malloc-fail
            ;;
        *)
            echo "gate-injections: unknown case '$c' (cases: mcts-nomem coverage rules-overread new-alloc-fn)"
            exit 2
            ;;
    esac
done
total=$(($(date +%s) - total_start))
if [ -n "$failed" ]; then
    echo "gate-injections: FAILED:$failed (a gate missed its injected defect) in $total s:$summary"
    exit 1
fi
echo "gate-injections: every gate caught its injected defect in $total s:$summary"
