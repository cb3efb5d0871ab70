#!/bin/sh
# Tests of the command-line tool build/bin/ball (run from the repository
# root by `make check`). Prints each failure; exits non-zero if any.

BALL=${BALL:-build/bin/ball}
# The example that prints the same board as `ball show` (examples/play).
PLAY=${PLAY:-$(dirname "$BALL")/../examples/play}
START='7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1'
# Derived by hand from docs/spec.md: DEF's X on E11 steps to F10 (1 PA left);
# `end` then passes the turn (no release task) to ATK, whose carrier X on G5
# steps to F6 taking the ball with it (R5.5).
AFTER_E11F10='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1'
AFTER_END='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2'
AFTER_G5F6='7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/2X*3/7/6/3S3/6/7 ATK a 1 - 0/0 2'
# A stack [X* o] on G9 with ATK O and S next to it (R9.3): cells with marks.
KEEP='7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2'

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

# expect_message WHAT TEXT CMD...: like expect_error, and the message on
# stderr contains TEXT (a fixed string).
expect_message() {
    what=$1
    text=$2
    shift 2
    expect_error "$what" "$@"
    grep -qF -- "$text" "$tmp/err.err" || fail "$what: message lacks '$text': $(head -c 300 "$tmp/err.err")"
}

# square_order FILE: prints the lines of FILE (one action text each) in
# the tool's documented order, computed here independently: token by
# token, squares first by (row, column), then digit runs by value, then
# other bytes. Each line gets a key of fixed-width tokens sorted bytewise.
square_order() {
    awk '
    function key(t,    k, sq, col, row) {
        k = ""
        while (length(t) > 0) {
            if (match(t, /^[A-M][0-9][0-9]?/)) {
                sq = substr(t, 1, RLENGTH)
                col = index("ABCDEFGHIJKLM", substr(sq, 1, 1))
                row = substr(sq, 2) + 0
                if (substr(sq, 2, 1) != "0" && row <= 17 && (col + row) % 2 == 0) {
                    k = k sprintf("0%02d%02d", row, col)
                    t = substr(t, RLENGTH + 1)
                    continue
                }
            }
            if (match(t, /^[0-9]+/)) {
                k = k sprintf("1%020d", substr(t, 1, RLENGTH) + 0)
                t = substr(t, RLENGTH + 1)
                continue
            }
            k = k "2" substr(t, 1, 1)
            t = substr(t, 2)
        }
        return k
    }
    { print key($0) "\t" $0 }' "$1" | LC_ALL=C sort | cut -f2-
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
square_order "$tmp/legal" >"$tmp/legal.sorted"
cmp -s "$tmp/legal" "$tmp/legal.sorted" || fail "ball legal output is not in square order"
# Square order, not byte order: G9 before G13, I11 (row 11) before G13.
line_of() { grep -nx -- "$1" "$tmp/legal" | cut -d: -f1; }
[ "$(line_of E11-C9)" -lt "$(line_of E11-C13)" ] 2>/dev/null || fail "ball legal: E11-C13 before E11-C9"
[ "$(line_of I11-G9)" -lt "$(line_of G13-F12)" ] 2>/dev/null || fail "ball legal: G13-F12 before I11-G9"
expect_eq "ball legal: end is last" "$(tail -n 1 "$tmp/legal")" "end"
# R9.2 stand-ups of ATK's knocked-down X on F4 (ball loose on A1): row 3
# before row 5, where byte order would put F4-E5 before F4-G3.
"$BALL" legal '7/6/7/6/7/6/7/6/7/6/7/6/7/2X_3/7/6/@6 ATK r 0 - 0/0 2' >"$tmp/legal.release" ||
    fail "ball legal (release phase) exited $?"
expect_eq "ball legal (release phase) in square order" "$(tr '\n' ' ' <"$tmp/legal.release")" \
    "F4-E3 F4-G3 F4-E5 F4-G5 "
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
# Threads on other positions, and more threads than root decisions (the
# release phase below has 4): each count equals the single-thread one.
for bpn in "$AFTER_END" "$AFTER_G5F6" "$KEEP" '7/6/7/6/7/6/7/6/7/6/7/6/7/2X_3/7/6/@6 ATK r 0 - 0/0 2'; do
    one=$("$BALL" perft 3 "$bpn") || fail "perft 3 '$bpn' exited $?"
    expect_eq "perft --threads 2 3 '$bpn'" "$("$BALL" perft --threads 2 3 "$bpn")" "$one"
    expect_eq "perft --threads 7 3 '$bpn'" "$("$BALL" perft --threads 7 3 "$bpn")" "$one"
done
expect_eq "perft --threads=4 4" "$("$BALL" perft --threads=4 4)" "$p4"
expect_eq "perft --threads 256 3 = divide 3 total" "$("$BALL" perft --threads 256 3)" \
    "$("$BALL" divide 3 | sed -n 's/^total //p')"
# From depth 4 the root is handed out largest subtree first (a first pass
# ranks it): the lines of divide stay those of one thread, in list order.
expect_eq "divide --threads 2 4 = divide 4" "$("$BALL" divide --threads 2 4)" "$("$BALL" divide 4)"
expect_eq "perft --threads 3 5 '$AFTER_G5F6'" "$("$BALL" perft --threads 3 5 "$AFTER_G5F6")" \
    "$("$BALL" perft 5 "$AFTER_G5F6")"
expect_error "perft --threads 0" "$BALL" perft --threads 0 3
expect_message "perft --threads 257" "1 to 256" "$BALL" perft --threads 257 3
expect_message "perft --threads twice" "given twice" "$BALL" perft --threads 2 --threads 3 3
expect_message "--threads before the command" "unknown option" "$BALL" --threads 2 perft 3
expect_eq "last divide line is the total" "$(tail -n 1 "$tmp/divide" | cut -d' ' -f1)" "total"
sed '$d' "$tmp/divide" >"$tmp/divide.body"
cut -d' ' -f1 "$tmp/divide.body" >"$tmp/divide.actions"
cmp -s "$tmp/divide.actions" "$tmp/legal" || fail "divide actions differ from ball legal"
square_order "$tmp/divide.actions" >"$tmp/divide.sorted"
cmp -s "$tmp/divide.actions" "$tmp/divide.sorted" || fail "divide lines are not in square order"
sum=$(awk '{ s += $2 } END { printf "%d", s }' "$tmp/divide.body")
expect_eq "sum of divide counts" "$sum" "$p2"
grep -qv '^[^ ]* [0-9][0-9]*$' "$tmp/divide.body" && fail "divide line not 'ACTION COUNT'"
expect_eq "divide 1 total" "$("$BALL" divide 1 | tail -n 1)" "total $p1"

# ---- apply
expect_eq "apply E11-F10" "$("$BALL" apply "$START" E11-F10)" "$AFTER_E11F10"
expect_eq "apply E11-F10 end" "$("$BALL" apply "$START" E11-F10 end)" "$AFTER_END"
expect_eq "apply E11-F10 end G5-F6" "$("$BALL" apply "$START" E11-F10 end G5-F6)" "$AFTER_G5F6"
expect_eq "apply nothing" "$("$BALL" apply "$START")" "$START"

# ---- the turn bound (N1 clarification (turn); docs/rules-choices.md, "Turn
# bound"): at turn 999999999 `legal` lists only what `apply` plays. ATK's X*
# on G5 alone with 1 PA: its 1- and 2-square diagonal moves (R5.1), no
# hand-off (no ally, R8.2) and no `end`: without a release task it would
# hand the turn over. After G5-F6 (0 PA) only `end` would be left: nothing.
BOUND='7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 1 - 0/0 999999999'
BOUND_F6='7/6/7/6/3x3/6/7/6/7/6/7/2X*3/7/6/7/6/7 ATK a 0 - 0/0 999999999'
legal_bound=$("$BALL" legal "$BOUND" | tr '\n' ' ')
expect_eq "legal at the turn bound" "$legal_bound" "G5-E3 G5-I3 G5-F4 G5-H4 G5-F6 G5-H6 G5-E7 G5-I7 "
for a in $legal_bound; do
    "$BALL" apply "$BOUND" "$a" >/dev/null 2>"$tmp/bound.err" ||
        fail "apply $a at the turn bound: listed but refused: $(cat "$tmp/bound.err")"
done
expect_message "apply end at the turn bound" "999999999" "$BALL" apply "$BOUND" end
expect_eq "apply G5-F6 at the turn bound" "$("$BALL" apply "$BOUND" G5-F6)" "$BOUND_F6"
expect_eq "legal when stopped at the turn bound" "$("$BALL" legal "$BOUND_F6")" ""

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
grep -qF "line 2 'A1-A1'" "$tmp/trace.err" || fail "trace illegal action: message does not name line 2: $(cat "$tmp/trace.err")"

# A NUL byte in a line is reported as such, with the line's number; the
# lines before it are traced.
printf 'E11-F10\nen\000d\n' | "$BALL" trace >"$tmp/trace.nul" 2>"$tmp/trace.nul.err"
st=$?
expect_eq "trace NUL byte: exit status" "$st" "2"
expect_eq "trace NUL byte: lines printed" "$(wc -l <"$tmp/trace.nul" | tr -d ' ')" "2"
grep -q 'NUL byte in line 2' "$tmp/trace.nul.err" || fail "trace NUL byte: message '$(cat "$tmp/trace.nul.err")'"
grep -q 'too long' "$tmp/trace.nul.err" && fail "trace NUL byte: reported as a line too long"
# A line too long is reported as that, with its number.
{ echo E11-F10; awk 'BEGIN { for (i = 0; i < 300; i++) printf "x"; print "" }'; } |
    "$BALL" trace >/dev/null 2>"$tmp/trace.long.err"
st=$?
expect_eq "trace long line: exit status" "$st" "2"
grep -q 'line 2 too long' "$tmp/trace.long.err" || fail "trace long line: message '$(cat "$tmp/trace.long.err")'"

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
# The maximum depth is BALL_MAX_PERFT_DEPTH, and the message names it.
maxdepth=$(sed -n 's/^#define BALL_MAX_PERFT_DEPTH \([0-9]*\).*/\1/p' include/ball.h)
expect_message "perft 65" "maximum is $maxdepth" "$BALL" perft 65
expect_message "divide 65" "maximum is $maxdepth" "$BALL" divide 65
expect_message "perft with a huge depth" "maximum is $maxdepth" "$BALL" perft 99999999999999999999999999
expect_message "perft --threads 2 65" "maximum is $maxdepth" "$BALL" perft --threads 2 65
# The maximum itself is accepted: after ATK's touchdown (R11.1) it counts 0.
expect_eq "perft $maxdepth after a touchdown" \
    "$("$BALL" perft "$maxdepth" '2X*4/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 0 - 0/0 2')" "0"
expect_error "divide depth 0" "$BALL" divide 0
expect_error "perft missing depth" "$BALL" perft
expect_error "unknown command" "$BALL" frobnicate
expect_error "unknown option" "$BALL" --frobnicate show
expect_error "bad end zone depth" "$BALL" --depth-zone 9 show
expect_error "missing turn limit value" "$BALL" --turn-limit
expect_error "no arguments" "$BALL"
# A bare `ball` gives a short usage on stderr: the synopsis, the command
# names, and where the full help and the manual are.
"$BALL" >/dev/null 2>"$tmp/bare.err"
n=$(wc -l <"$tmp/bare.err")
[ "$n" -le 12 ] || fail "bare ball: usage is $n lines, expected at most 12"
grep -qF 'usage: ball [OPTIONS] COMMAND [ARGS]' "$tmp/bare.err" || fail "bare ball: no synopsis"
for c in perft divide legal apply trace show record replay svg; do
    grep -qw -- "$c" "$tmp/bare.err" || fail "bare ball: command $c not named"
done
grep -qF 'ball --help' "$tmp/bare.err" || fail "bare ball: no pointer to ball --help"
grep -qF 'man ball' "$tmp/bare.err" || fail "bare ball: no pointer to man ball"
# A mistyped command: a suggestion within edit distance 2 or by prefix.
expect_message "perf suggests perft" "ball: unknown command 'perf'; did you mean 'perft'?" "$BALL" perf 3
expect_message "lgeal suggests legal" "did you mean 'legal'?" "$BALL" lgeal
expect_message "replays suggests replay" "did you mean 'replay'?" "$BALL" replays
expect_message "rec suggests record" "did you mean 'record'?" "$BALL" rec
expect_message "no suggestion for frobnicate" "ball: unknown command 'frobnicate' (see ball --help)" "$BALL" frobnicate
"$BALL" frobnicate 2>&1 | grep -q 'did you mean' && fail "frobnicate: suggestion given for a word far from every command"

# ---- help, version, options
"$BALL" --help >"$tmp/help" 2>/dev/null || fail "ball --help exited $?"
grep -q 'usage' "$tmp/help" || fail "ball --help prints no usage"
version=$(sed -n 's/^#define BALL_VERSION_STRING "\(.*\)"/\1/p' include/ball.h)
"$BALL" --version | grep -q "$version" || fail "ball --version does not print $version"
"$BALL" --depth-zone 2 --turn-limit 10 perft 1 >/dev/null || fail "ruleset options rejected"
grep -q -- '--threads N' "$tmp/help" || fail "ball --help lacks --threads"
for opt in --rules --depth-zone --turn-limit --version; do
    grep -q -- "^  $opt" "$tmp/help" || fail "ball --help lacks $opt"
done
grep -q 'square order' "$tmp/help" || fail "ball --help does not document the order of actions"

# ---- one ruleset: --depth-zone / --turn-limit are set over --rules,
# whatever the order (R1.4 end zones, R11.2 turn limit as `show` prints them)
# zone_rows ARGS...: the rows `ball ARGS show` names as end zones
# ("   end zone: ATK scores in rows 16-17").
zone_rows() {
    "$BALL" "$@" show | awk '/^   end zone: / { printf "%s ", $NF }'
}
expect_eq "default end zones" "$(zone_rows)" "17 1 "
expect_eq "--depth-zone 2 --rules turns=5: zones" "$(zone_rows --depth-zone 2 --rules turns=5)" "16-17 1-2 "
"$BALL" --depth-zone 2 --rules turns=5 show | grep -q 'turn 1 of 5;' ||
    fail "--depth-zone 2 --rules turns=5: turn limit 5 lost"
expect_eq "--rules 'zone=3 turns=5' --depth-zone 2: zones" \
    "$(zone_rows --rules 'zone=3 turns=5' --depth-zone 2)" "16-17 1-2 "
"$BALL" --rules 'zone=3 turns=5' --depth-zone 2 show | grep -q 'turn 1 of 5;' ||
    fail "--rules 'zone=3 turns=5' --depth-zone 2: turn limit 5 lost"
expect_eq "--turn-limit 7 --rules zone=3: zones" "$(zone_rows --turn-limit 7 --rules zone=3)" "15-17 1-3 "
"$BALL" --turn-limit 7 --rules 'zone=3 turns=5' show | grep -q 'turn 1 of 7;' ||
    fail "--turn-limit 7 --rules 'zone=3 turns=5': turn limit not 7"
expect_eq "--depth-zone=2 (one word)" "$(zone_rows --depth-zone=2)" "16-17 1-2 "
expect_message "--rules twice" "given twice" "$BALL" --rules zone=2 --rules zone=3 show
expect_message "--depth-zone twice" "given twice" "$BALL" --depth-zone 2 --depth-zone 2 show
expect_message "bad --rules text" "--rules" "$BALL" --rules 'zone=9' show
expect_message "bad end zone depth names the range" "1-3" "$BALL" --depth-zone 9 show
expect_message "bad --turn-limit names the option" "--turn-limit" "$BALL" --turn-limit x show
expect_message "unknown option after a command" "unknown option" "$BALL" legal --threads 2
# Options are read with getopt_long, given in full: a typo or an
# abbreviation gets a suggestion, an option in the wrong place says where
# it belongs.
expect_message "--rule suggests --rules" "ball: unknown option '--rule'; did you mean '--rules'?" \
    "$BALL" --rule zone=2 show
expect_message "--thread suggests --threads" "ball: perft: unknown option '--thread'; did you mean '--threads'?" \
    "$BALL" perft --thread 2 3
expect_message "--threads before perft" "unknown option '--threads' (an option of perft, divide: give it after the command)" \
    "$BALL" --threads 2 perft 3
expect_message "--depth-zone after show" "ball: show: unknown option '--depth-zone' (an option of ball: give it before the command)" \
    "$BALL" show --depth-zone 2
expect_message "--turn-limit without its value" "option --turn-limit needs a value" "$BALL" --turn-limit
expect_eq "--rules=zone=2 (one word)" "$(zone_rows --rules=zone=2)" "16-17 1-2 "
expect_message "illegal action names it" "action 2 'E11-F10'" "$BALL" apply "$START" E11-F10 E11-F10
# Each message says a thing once: the tool names the action and its
# number, the library's reason follows without naming it again.
expect_message "malformed action, said once" "ball: action 1 'E11-Z10': expected a square at character 5" \
    "$BALL" apply "$START" E11-Z10
grep -qF "action 'E11-Z10'" "$tmp/err.err" && fail "malformed action: the stutter is back: $(cat "$tmp/err.err")"
expect_message "illegal action, said once" "ball: action 1 'G5-F6': no piece of DEF on G5" \
    "$BALL" apply "$START" G5-F6
expect_message "bad BPN, said once" "ball: bad BPN: " "$BALL" show 'garbage'
grep -qF "BPN: BPN" "$tmp/err.err" && fail "bad BPN: the stutter is back: $(cat "$tmp/err.err")"
printf 'E11-F10\nG5-F6\n' | expect_message "record: the line named" "ball: line 2 'G5-F6': no piece of DEF on G5" \
    "$BALL" record
# File errors carry the reason; a device without end is bounded.
expect_message "replay: no such file" "ball: replay: cannot read '/nonexistent': No such file or directory" \
    "$BALL" replay /nonexistent
expect_message "replay: a directory" "cannot read '$tmp': Is a directory" "$BALL" replay "$tmp"
expect_message "replay /dev/zero" "cannot read '/dev/zero': larger than" timeout 60 "$BALL" replay /dev/zero
# Card mode: `show` lists the hands (ball_cardset).
"$BALL" --rules 'earn.dodge=1 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1' show >"$tmp/cards" ||
    fail "show in card mode exited $?"
grep -q '^ATK: 0 PE; cards: card1 Sprint (2 PE, +1 PA) card2 Rally (3 PE, a restricted piece acts again)$' \
    "$tmp/cards" || fail "show in card mode: ATK's hand: $(grep '^ATK' "$tmp/cards")"
grep -q '^DEF: 0 PE; cards: card1 Sprint (2 PE, +1 PA)$' "$tmp/cards" ||
    fail "show in card mode: DEF's hand: $(grep '^DEF' "$tmp/cards")"

# ---- no crash on odd input: every one is refused with status 2
for args in "perft" "perft x" "perft --threads" "perft --threads 2" "divide" "legal a b" \
    "apply" "show a b" "--rules" "--rules cards=1 show" "--depth-zone -1 show" \
    "--turn-limit 99999999999999999999 show" "--help=1" "--version=1" "--" "-- frob"; do
    # shellcheck disable=SC2086
    "$BALL" $args </dev/null >/dev/null 2>"$tmp/odd.err"
    st=$?
    [ "$st" -eq 2 ] || fail "ball $args: exit status $st, expected 2"
    [ -s "$tmp/odd.err" ] || fail "ball $args: no message"
done

# ---- show
"$BALL" show >"$tmp/show" || fail "ball show exited $?"
grep -q 'DEF' "$tmp/show" || fail "ball show does not name DEF"
grep -q '^17 ' "$tmp/show" || fail "ball show lacks row label 17"
grep -q '^ 1 ' "$tmp/show" || fail "ball show lacks row label 1"
grep -q 'A  *B  *C  *D  *E  *F  *G  *H  *I  *J  *K  *L  *M' "$tmp/show" ||
    fail "ball show lacks column labels"
grep -q 'X\*' "$tmp/show" || fail "ball show does not mark the ball carrier"
"$BALL" show "$AFTER_END" | grep -q 'ATK' || fail "ball show does not name ATK"

# ---- one board printer: `ball show` and examples/play print the same
# board (the library's ball_position_to_board_text(), printed by
# tools/cmd_show.c and examples/common/board.c), stack, marks and end
# zones included.
# board FILE: the diagram, from the line of ATK's end zone to DEF's.
board() {
    awk '/^   end zone: ATK/ { on = 1 } on { print } /^   end zone: DEF/ { exit }' "$1"
}
if [ -x "$PLAY" ]; then
    for zone in 1 2 3; do
        "$BALL" --depth-zone "$zone" show "$KEEP" >"$tmp/show.keep" || fail "ball show KEEP exited $?"
        "$PLAY" --atk human --def human --depth-zone "$zone" --bpn "$KEEP" </dev/null >"$tmp/play.keep" 2>&1 ||
            fail "play --bpn KEEP exited $?"
        board "$tmp/show.keep" >"$tmp/show.board"
        board "$tmp/play.keep" >"$tmp/play.board"
        expect_eq "zone $zone: board lines of ball show" "$(wc -l <"$tmp/show.board" | tr -d ' ')" "21"
        cmp -s "$tmp/show.board" "$tmp/play.board" ||
            fail "zone $zone: ball show and examples/play print different boards: $(diff "$tmp/show.board" "$tmp/play.board" | head -5)"
    done
    grep -q '^ 9 .*X\*o ' "$tmp/show.board" || fail "ball show: stack [X* o] on G9 not shown as X*o"
else
    fail "$PLAY not built (needed to compare the board printers)"
fi

if [ "$failures" -ne 0 ]; then
    echo "tool_test: $failures failure(s)"
    exit 1
fi
echo "tool_test: all passed"
