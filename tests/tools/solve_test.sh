#!/bin/sh
# Checks examples/solve on positions built by hand from docs/spec.md: one where
# the side to move scores in its first turn, one where it cannot (but can
# in two turns whatever the opponent does), the node limit and bad input;
# then the contract for scripts (issue 13): the exit codes (out of memory,
# a finished game by winner), the whole winning line even under a tight
# node limit, a shortest line, the help text and the hint to quote a BPN;
# --threads: two (and three) threads print what one prints on positions
# with and without a forced win, and a bad thread count is refused.
# The printed line of play is replayed with the `ball` tool, which must
# report the touchdown. Run from the repository root after `make`. Prints
# each failure; exits non-zero if any.

SOLVE=${SOLVE:-build/examples/solve}
BALL=${BALL:-build/bin/ball}
. tests/lib/shell-test.sh

# ATK X* on G13, DEF x alone on A1, ATK to act with 2 PA. R5.1: an X moves
# 1 or 2 squares diagonally, so two 2-square moves over open squares reach
# row 17 (e.g. G13-E15 then E15-C17), ATK's target end zone (R1.4): a
# touchdown in ATK's first turn (R11.1).
IN_ONE='7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2'
# The same with the carrier on G11: 2 PA of X moves gain at most 4 rows
# (row 15); ATK has no other piece to pass to, and a pass only puts the
# ball loose (R8.3, R8.4). No touchdown in one turn. In two: DEF's x on A1
# gets at most 4 rows up in its turn and cannot come near, and ATK's next
# two moves finish the run.
NOT_IN_ONE='7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2'

if [ ! -x "$SOLVE" ] || [ ! -x "$BALL" ]; then
    echo "FAIL: $SOLVE or $BALL not built"
    exit 1
fi

# replay NAME BPN: plays the decisions of the printed line with `ball apply`
# and checks that the game ends with a touchdown by ATK.
replay() {
    moves=$(sed -n 's/^  turn [0-9]*, [A-Z]*[^:]*://p' "$tmp/$1.out" | tr '\n' ' ')
    [ -n "$moves" ] || { fail "$1: no line of play printed"; return; }
    # shellcheck disable=SC2086
    final=$("$BALL" apply "$2" $moves 2>"$tmp/$1.err") ||
        { fail "$1: the line '$moves' is not playable: $(cat "$tmp/$1.err")"; return; }
    "$BALL" show "$final" | grep -q 'result: ATK won' || fail "$1: the line '$moves' does not score"
}

# ---- a touchdown in one turn
"$SOLVE" --turns 1 "$IN_ONE" >"$tmp/one.out" 2>&1
st=$?
[ "$st" -eq 0 ] || fail "in one: exit status $st, expected 0"
grep -qx 'side to move: ATK' "$tmp/one.out" || fail "in one: side to move not ATK"
grep -q '^within 1 turn: yes' "$tmp/one.out" || fail "in one: not found within 1 turn"
grep -qx 'ATK forces a touchdown within 1 turn:' "$tmp/one.out" || fail "in one: no verdict line"
grep -qx '  touchdown by ATK at turn 2' "$tmp/one.out" || fail "in one: no touchdown at turn 2"
[ "$(grep -c '^  turn ' "$tmp/one.out")" -eq 1 ] || fail "in one: the line spans more than one turn"
replay one "$IN_ONE"

# ---- none in one turn
"$SOLVE" --turns 1 "$NOT_IN_ONE" >"$tmp/none.out" 2>&1
st=$?
[ "$st" -eq 1 ] || fail "not in one: exit status $st, expected 1"
grep -q '^within 1 turn: no' "$tmp/none.out" || fail "not in one: no 'within 1 turn: no'"
grep -qx 'no forced touchdown for ATK within 1 turn' "$tmp/none.out" || fail "not in one: no verdict line"

# ---- ... but in two, whatever DEF does in between
"$SOLVE" --turns 2 "$NOT_IN_ONE" >"$tmp/two.out" 2>&1
st=$?
[ "$st" -eq 0 ] || fail "in two: exit status $st, expected 0"
grep -q '^within 1 turn: no' "$tmp/two.out" || fail "in two: iterative deepening did not try 1 turn first"
grep -q '^within 2 turns: yes' "$tmp/two.out" || fail "in two: not found within 2 turns"
grep -q '^  turn 3, DEF (longest defence):' "$tmp/two.out" || fail "in two: no DEF turn in the line"
grep -qx '  touchdown by ATK at turn 4' "$tmp/two.out" || fail "in two: no touchdown at turn 4"
replay two "$NOT_IN_ONE"

# ---- node limit, bad input
"$SOLVE" --turns 2 --max-nodes 5 "$NOT_IN_ONE" >"$tmp/limit.out" 2>&1
st=$?
[ "$st" -eq 3 ] || fail "node limit: exit status $st, expected 3"
grep -q 'node limit' "$tmp/limit.out" || fail "node limit: not reported"
"$SOLVE" 'nonsense' >/dev/null 2>"$tmp/bad.err"
[ $? -eq 2 ] || fail "bad BPN: not refused with status 2"
[ -s "$tmp/bad.err" ] || fail "bad BPN: no message"
"$SOLVE" --turns 0 "$IN_ONE" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--turns 0 not refused with status 2"
"$SOLVE" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no BPN: not refused with status 2"

# ---- issue 13: the node limit does not cut the printed line. ATK X* on
# G11 with DEF's o on B2, ATK to act at turn 10: a touchdown within 2 of
# ATK's turns, found within 3200 nodes; the line used to stop after one
# decision with exit 0.
NODE_LINE='7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7/o5/7 ATK a 2 - 0/0 10'
"$SOLVE" --turns 3 --max-nodes 3200 "$NODE_LINE" >"$tmp/cut.out" 2>&1
st=$?
[ "$st" -eq 0 ] || fail "line under node limit: exit status $st, expected 0"
grep -q '^within 2 turns: yes' "$tmp/cut.out" || fail "line under node limit: no win within 2 turns"
grep -qx '  touchdown by ATK at turn 12' "$tmp/cut.out" || fail "line under node limit: the line stops before the touchdown"
grep -q 'line cut' "$tmp/cut.out" && fail "line under node limit: reported as cut"
replay cut "$NODE_LINE"

# ---- a shortest win: in one turn the line is the two scoring moves, no
# `end` (which used to tie with them), and in the two-turn line ATK's
# first turn is not padded after the touchdown turn
[ "$(sed -n 's/^  turn 2, ATK://p' "$tmp/one.out" | wc -w | tr -d ' ')" -eq 2 ] ||
    fail "shortest: the one-turn line is not two decisions: $(grep '^  turn' "$tmp/one.out")"
grep -q '^  turn 2, ATK:.* end' "$tmp/one.out" && fail "shortest: 'end' in a line that scores this turn"
last=$(grep '^  turn ' "$tmp/cut.out" | tail -n 1)
case $last in *" end"*) fail "shortest: the touchdown turn ends with 'end': $last" ;; esac

# ---- a finished game: the winner in the text and in the exit status
ATK_WON='X*6/6/7/6/7/6/7/6/7/6/7/6/7/6/7/o5/7 ATK a 0 - 0/0 12'
DEF_WON='7/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x*6 DEF a 0 - 0/0 12'
"$SOLVE" "$ATK_WON" >"$tmp/over.out" 2>&1
st=$?
[ "$st" -eq 5 ] || fail "ATK won: exit status $st, expected 5"
grep -q 'already over: ATK won' "$tmp/over.out" || fail "ATK won: winner not said"
"$SOLVE" "$DEF_WON" >"$tmp/over.out" 2>&1
st=$?
[ "$st" -eq 6 ] || fail "DEF won: exit status $st, expected 6"
grep -q 'already over: DEF won' "$tmp/over.out" || fail "DEF won: winner not said"

# ---- out of memory has its own status, 4 (not 1, "no forced touchdown"):
# a 2^28-entry table (4 GiB) under a 1 GB address-space limit. Sanitizer
# builds reserve more address space than that just to start; then the check
# cannot run, and says so.
if (ulimit -v 1000000 && "$SOLVE" --help) >/dev/null 2>&1; then
    (ulimit -v 1000000 && exec "$SOLVE" --tt-bits 28 "$IN_ONE") >"$tmp/oom.out" 2>&1
    st=$?
    [ "$st" -eq 4 ] || fail "out of memory: exit status $st, expected 4"
    grep -q 'out of memory' "$tmp/oom.out" || fail "out of memory: not reported"
else
    echo "note: out-of-memory check not run: $SOLVE cannot start under ulimit -v 1000000"
fi

# ---- the help text: own turns, the current one included, and the exit codes
"$SOLVE" --help >"$tmp/help.out" 2>&1 || fail "--help exited $?"
grep -q "own turns" "$tmp/help.out" || fail "help: does not say N counts the side's own turns"
grep -q "current one" "$tmp/help.out" || fail "help: does not say the current turn counts"
for code in 0 1 2 3 4 5 6 7; do
    grep -q "[ ;]$code [a-z.]" "$tmp/help.out" || fail "help: exit status $code not listed"
done

# ---- an unquoted BPN gets a hint
# shellcheck disable=SC2086
"$SOLVE" $IN_ONE >/dev/null 2>"$tmp/unquoted.err"
st=$?
[ "$st" -eq 2 ] || fail "unquoted BPN: exit status $st, expected 2"
grep -q 'quote it' "$tmp/unquoted.err" || fail "unquoted BPN: no hint to quote it"

# ---- --threads: two threads give what one gives, node counts apart: the
# verdicts, the line and the exit status. Positions with a forced win (in
# one turn, in two; ATK's carrier on G11 with X on C9 and K9 and DEF's x
# on C13 and K13: a search of about a million nodes) and without (the
# standard start, where DEF to act cannot score within two turns: two
# million nodes), a finished game and a node limit that stops both at once.
FLANKED='7/6/7/6/1x3x1/6/3X*3/6/1X3X1/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2'
START='7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1'
n=0
for args in "--turns 1|$IN_ONE" "--turns 1|$NOT_IN_ONE" "--turns 2|$NOT_IN_ONE" \
            "--turns 3|$NODE_LINE" "--turns 2|$FLANKED" "--turns 2|$START" \
            "--turns 2|$ATK_WON" "--turns 2 --max-nodes 5|$START"; do
    n=$((n + 1))
    opts=${args%%|*}
    bpn=${args#*|}
    for t in 1 2; do
        # shellcheck disable=SC2086
        "$SOLVE" --threads $t $opts "$bpn" >"$tmp/thr$t.out" 2>&1
        echo "exit $?" >>"$tmp/thr$t.out"
        sed 's/ ([0-9]* nodes)$//' "$tmp/thr$t.out" >"$tmp/thr$t.cmp"
    done
    cmp -s "$tmp/thr1.cmp" "$tmp/thr2.cmp" ||
        fail "threads $n ($opts): --threads 2 differs from --threads 1: $(diff "$tmp/thr1.cmp" "$tmp/thr2.cmp" | head -c 600)"
    cp "$tmp/thr2.out" "$tmp/thr-$n.out"
done
grep -qx 'exit 0' "$tmp/thr-5.out" || fail "threads: no forced win found in the flanked position"
grep -q '^within 2 turns: yes' "$tmp/thr-5.out" || fail "threads: flanked position not won within 2 turns"
replay thr-5 "$FLANKED"
grep -qx 'exit 1' "$tmp/thr-6.out" || fail "threads: the start position is not 'no forced touchdown'"
grep -qx 'exit 3' "$tmp/thr-8.out" || fail "threads: the node limit did not stop two threads"
# three threads; more threads than there are root decisions
"$SOLVE" --threads 3 --turns 2 "$NOT_IN_ONE" >"$tmp/thr3.out" 2>&1
st=$?
[ "$st" -eq 0 ] || fail "--threads 3: exit status $st, expected 0"
sed 's/ ([0-9]* nodes)$//' "$tmp/thr3.out" >"$tmp/thr3.cmp"
sed 's/ ([0-9]* nodes)$//' "$tmp/two.out" >"$tmp/two.cmp"
cmp -s "$tmp/thr3.cmp" "$tmp/two.cmp" || fail "--threads 3: differs from one thread"
"$SOLVE" --threads 64 --turns 1 "$IN_ONE" >/dev/null 2>&1 || fail "--threads 64: exit status $?, expected 0"

# ---- a bad --threads value: status 2, and the message names the option
# and its range
for bad in 0 65 -1 two 2x ''; do
    "$SOLVE" --threads "$bad" "$IN_ONE" >/dev/null 2>"$tmp/badthr.err"
    st=$?
    [ "$st" -eq 2 ] || fail "--threads '$bad': exit status $st, expected 2"
    grep -q -- '--threads needs a number from 1 to 64' "$tmp/badthr.err" ||
        fail "--threads '$bad': unclear message: $(cat "$tmp/badthr.err")"
done
"$SOLVE" "$IN_ONE" --threads >/dev/null 2>"$tmp/badthr.err"
[ $? -eq 2 ] || fail "--threads without a value: not refused with status 2"
grep -q -- '--threads needs a number' "$tmp/badthr.err" || fail "--threads without a value: no message"
grep -q -- '--threads T' "$tmp/help.out" || fail "help: --threads not documented"

if [ "$failures" -ne 0 ]; then
    echo "solve_test: $failures failure(s)"
    exit 1
fi
echo "solve_test: all passed"
