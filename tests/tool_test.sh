#!/bin/sh
# Tests of the command-line tool build/bin/ball (run from the repository
# root by `make check`). Prints each failure; exits non-zero if any.

BALL=${BALL:-build/bin/ball}
START='7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1'
# Derived by hand from RULES.md: DEF's X on E11 steps to F10 (1 PA left);
# `end` then passes the turn (no release task) to ATK, whose carrier X on G5
# steps to F6 taking the ball with it (R5.5).
AFTER_E11F10='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1'
AFTER_END='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2'
AFTER_G5F6='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/2X*3/7/6/3S3/6/7 ATK a 1 - 0/0 2'

tab=$(printf '\t')
. tests/lib/shell-test.sh

# expect_eq WHAT GOT EXPECTED
expect_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# expect_error WHAT CMD...: exit status 2, empty stdout, message on stderr.
expect_error() {
    what=$1
    shift
    "$@" >"$tmp/err.out" 2>"$tmp/err.err"
    st=$?
    [ "$st" -eq 2 ] || fail "$what: exit status $st, expected 2"
    [ -s "$tmp/err.out" ] && fail "$what: stdout not empty: $(head -c 200 "$tmp/err.out")"
    [ -s "$tmp/err.err" ] || fail "$what: no message on stderr"
}

if [ ! -x "$BALL" ]; then
    echo "FAIL: $BALL not built"
    exit 1
fi

# ---- perft / legal / divide
"$BALL" legal >"$tmp/legal" || fail "ball legal exited $?"
p1=$("$BALL" perft 1) || fail "ball perft 1 exited $?"
expect_eq "perft 1 = number of legal actions" "$p1" "$(wc -l <"$tmp/legal" | tr -d ' ')"
[ "$p1" -gt 0 ] 2>/dev/null || fail "perft 1 is not a positive number: '$p1'"
LC_ALL=C sort "$tmp/legal" >"$tmp/legal.sorted"
cmp -s "$tmp/legal" "$tmp/legal.sorted" || fail "ball legal output is not in byte order"
[ -z "$(uniq -d "$tmp/legal")" ] || fail "ball legal lists an action twice"
grep -qx 'E11-F10' "$tmp/legal" || fail "ball legal lacks E11-F10"
grep -qx 'end' "$tmp/legal" || fail "ball legal lacks end"
expect_eq "perft 0" "$("$BALL" perft 0)" "1"
expect_eq "perft 1 with explicit BPN" "$("$BALL" perft 1 "$START")" "$p1"

"$BALL" divide 2 >"$tmp/divide" || fail "ball divide 2 exited $?"
p2=$("$BALL" perft 2) || fail "ball perft 2 exited $?"
expect_eq "divide 2 total = perft 2" "$(sed -n 's/^total //p' "$tmp/divide")" "$p2"
# perft --threads shares the root out among threads: same counts
p4=$("$BALL" perft 4) || fail "ball perft 4 exited $?"
expect_eq "perft 4 from the start (N3)" "$p4" "761170"
expect_eq "perft --threads 2 4" "$("$BALL" perft --threads 2 4)" "$p4"
expect_eq "perft --threads 3 4 (BPN)" "$("$BALL" perft --threads 3 4 "$START")" "$p4"
expect_eq "perft --threads 2 1" "$("$BALL" perft --threads 2 1)" "$p1"
expect_error "perft --threads 0" "$BALL" perft --threads 0 3
expect_eq "last divide line is the total" "$(tail -n 1 "$tmp/divide" | cut -d' ' -f1)" "total"
sed '$d' "$tmp/divide" >"$tmp/divide.body"
cut -d' ' -f1 "$tmp/divide.body" >"$tmp/divide.actions"
cmp -s "$tmp/divide.actions" "$tmp/legal" || fail "divide actions differ from ball legal"
LC_ALL=C sort "$tmp/divide.body" >"$tmp/divide.sorted"
cmp -s "$tmp/divide.body" "$tmp/divide.sorted" || fail "divide lines are not sorted"
sum=$(awk '{ s += $2 } END { printf "%d", s }' "$tmp/divide.body")
expect_eq "sum of divide counts" "$sum" "$p2"
grep -qv '^[^ ]* [0-9][0-9]*$' "$tmp/divide.body" && fail "divide line not 'ACTION COUNT'"
expect_eq "divide 1 total" "$("$BALL" divide 1 | tail -n 1)" "total $p1"

# ---- apply
expect_eq "apply E11-F10" "$("$BALL" apply "$START" E11-F10)" "$AFTER_E11F10"
expect_eq "apply E11-F10 end" "$("$BALL" apply "$START" E11-F10 end)" "$AFTER_END"
expect_eq "apply E11-F10 end G5-F6" "$("$BALL" apply "$START" E11-F10 end G5-F6)" "$AFTER_G5F6"
expect_eq "apply nothing" "$("$BALL" apply "$START")" "$START"

# ---- trace
printf 'E11-F10\n\nend\r\nG5-F6\n' | "$BALL" trace >"$tmp/trace" || fail "ball trace exited $?"
expect_eq "trace line count" "$(wc -l <"$tmp/trace" | tr -d ' ')" "4"
bad=$(grep -cv "^[^${tab}]*${tab}[^${tab}]*\$" "$tmp/trace")
expect_eq "trace lines with other than one tab" "$bad" "0"
expect_eq "trace line 1 BPN" "$(sed -n 1p "$tmp/trace" | cut -f1)" "$START"
expect_eq "trace line 2 BPN" "$(sed -n 2p "$tmp/trace" | cut -f1)" "$AFTER_E11F10"
expect_eq "trace line 3 BPN" "$(sed -n 3p "$tmp/trace" | cut -f1)" "$AFTER_END"
expect_eq "trace line 4 BPN" "$(sed -n 4p "$tmp/trace" | cut -f1)" "$AFTER_G5F6"
expect_eq "trace line 1 actions" "$(sed -n 1p "$tmp/trace" | cut -f2)" "$(tr '\n' ' ' <"$tmp/legal" | sed 's/ $//')"
expect_eq "trace line 3 actions" "$(sed -n 3p "$tmp/trace" | cut -f2)" \
    "$("$BALL" legal "$AFTER_END" | tr '\n' ' ' | sed 's/ $//')"
printf 'E11-F10\n' | "$BALL" trace "$START" >/dev/null || fail "ball trace BPN exited $?"

# trace stops at an illegal action: earlier lines printed, exit 2.
printf 'E11-F10\nA1-A1\nend\n' | "$BALL" trace >"$tmp/trace.bad" 2>"$tmp/trace.err"
st=$?
expect_eq "trace illegal action: exit status" "$st" "2"
expect_eq "trace illegal action: lines printed" "$(wc -l <"$tmp/trace.bad" | tr -d ' ')" "2"
[ -s "$tmp/trace.err" ] || fail "trace illegal action: no message on stderr"

# ---- errors: status 2, nothing on stdout
expect_error "bad BPN (perft)" "$BALL" perft 1 'not a position'
expect_error "bad BPN (legal)" "$BALL" legal '7/6/3s3/6 DEF a 2 - 0/0 1'
expect_error "bad BPN (apply)" "$BALL" apply 'garbage' end
expect_error "bad BPN (show)" "$BALL" show 'garbage'
expect_error "bad BPN (trace)" "$BALL" trace 'garbage' </dev/null
expect_error "illegal action" "$BALL" apply "$START" G5-F6
expect_error "illegal action after legal one" "$BALL" apply "$START" E11-F10 E11-F10
expect_error "malformed action" "$BALL" apply "$START" 'Z99~'
expect_error "bad depth -1" "$BALL" perft -1
expect_error "bad depth x" "$BALL" perft x
expect_error "bad depth 65" "$BALL" perft 65
expect_error "divide depth 0" "$BALL" divide 0
expect_error "perft missing depth" "$BALL" perft
expect_error "unknown command" "$BALL" frobnicate
expect_error "unknown option" "$BALL" --frobnicate show
expect_error "bad end zone depth" "$BALL" --depth-zone 9 show
expect_error "missing turn limit value" "$BALL" --turn-limit
expect_error "no arguments" "$BALL"

# ---- help, version, options
"$BALL" --help >"$tmp/help" 2>/dev/null || fail "ball --help exited $?"
grep -q 'usage' "$tmp/help" || fail "ball --help prints no usage"
version=$(sed -n 's/^#define BALL_VERSION_STRING "\(.*\)"/\1/p' include/ball.h)
"$BALL" --version | grep -q "$version" || fail "ball --version does not print $version"
"$BALL" --depth-zone 2 --turn-limit 10 perft 1 >/dev/null || fail "ruleset options rejected"

# ---- show
"$BALL" show >"$tmp/show" || fail "ball show exited $?"
grep -q 'DEF' "$tmp/show" || fail "ball show does not name DEF"
grep -q '^17 ' "$tmp/show" || fail "ball show lacks row label 17"
grep -q '^ 1 ' "$tmp/show" || fail "ball show lacks row label 1"
grep -q 'A  *B  *C  *D  *E  *F  *G  *H  *I  *J  *K  *L  *M' "$tmp/show" ||
    fail "ball show lacks column labels"
grep -q 'X\*' "$tmp/show" || fail "ball show does not mark the ball carrier"
"$BALL" show "$AFTER_END" | grep -q 'ATK' || fail "ball show does not name ATK"

if [ "$failures" -ne 0 ]; then
    echo "tool_test: $failures failure(s)"
    exit 1
fi
echo "tool_test: all passed"
