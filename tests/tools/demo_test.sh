#!/bin/sh
# Checks the legend examples/demo (make demo) prints before the game: what
# it must explain (docs/rules.md "Reading the diagrams", docs/notation.md
# N2), that it is short and that it fits 80 columns. Run from the
# repository root after `make`. Prints each failure; exits non-zero if any.

DEMO=${DEMO:-build/examples/demo}

. tests/lib/shell-test.sh

"$DEMO" >"$tmp/demo.out" 2>"$tmp/demo.err" || fail "demo exited $?: $(head -c 300 "$tmp/demo.err")"
# The legend: the lines between the title (line 1) and the first board
# (its first line "   end zone: ATK scores in row 17", or its column
# header "   A     B ...").
awk 'NR > 1 && /^   (A     B|end zone: )/ { exit } NR > 1 && NF { print }' "$tmp/demo.out" >"$tmp/legend"
n=$(wc -l <"$tmp/legend")
[ "$n" -ge 3 ] || fail "legend: $n lines, expected a legend of several lines"
[ "$n" -le 8 ] || fail "legend: $n lines, expected at most 8"
wide=$(awk 'length($0) > 80' "$tmp/legend")
[ -z "$wide" ] && [ -s "$tmp/legend" ] || fail "legend wider than 80 columns: $wide"

# has TEXT WHAT: the legend (joined into one line) contains TEXT.
tr '\n' ' ' <"$tmp/legend" >"$tmp/legend1"
has() {
    grep -qF -- "$1" "$tmp/legend1" || fail "legend does not explain $2 ('$1'): $(cat "$tmp/legend")"
}
# The coaches, their pieces and where they score (docs/rules.md; the board's
# "end zone: ATK scores in row 17").
has "ATK" "the attacking coach"
has "DEF" "the defending coach"
has "X O S" "ATK's pieces"
has "x o s" "DEF's pieces"
has "row 17" "where ATK scores"
# The marks of docs/rules.md "Reading the diagrams", in its words.
has "* it holds the ball" "the ball holder"
has "_ it is knocked down" "knocked-down pieces"
has "@ is the loose ball" "the loose ball"
# PA (docs/rules.md: "2 PA (action points)") and an action text with a `/`
# as in the game the demo prints (docs/notation.md N2, tactical dodge:
# from-landing/push).
has "PA (action points" "PA"
has "D12-F14/D12" "an action text with a /"
has "pushes the piece it jumped over to D12" "the / part of a tactical dodge"
grep -q 'D12-F14/D12' "$tmp/demo.out" || fail "the legend's example D12-F14/D12 is not played in the demo"

# The library's legend of the letters (include/ball.h, BALL_DRAW_LEGEND and
# ball_position_to_board_text(): "upper case ATK, lower case DEF: X, O, S;
# marks * ball, _ knocked down, ! restricted; a stack is its upper then its
# lower piece, + when fresh", "two lines of legend follow") right after the
# first board (its last line "   end zone: DEF scores in row 1"), and only
# there: the two lines before the first turn.
awk '/^   end zone: DEF scores in row 1$/ { after = 1; next }
     after && /^Turn / { exit }
     after && NF { print }' "$tmp/demo.out" >"$tmp/boardlegend"
n=$(wc -l <"$tmp/boardlegend")
[ "$n" -eq 2 ] || fail "board legend: $n lines after the first board, expected 2: $(cat "$tmp/boardlegend")"
tr '\n' ' ' <"$tmp/boardlegend" >"$tmp/boardlegend1"
bhas() {
    grep -qF -- "$1" "$tmp/boardlegend1" || fail "board legend does not explain $2 ('$1'): $(cat "$tmp/boardlegend")"
}
bhas "X O S" "ATK's pieces"
bhas "ATK" "the attacking coach"
bhas "x o s" "DEF's pieces"
bhas "DEF" "the defending coach"
bhas "* ball" "the ball holder"
bhas "_ knocked down" "knocked-down pieces"
bhas "! restricted" "restricted pieces"
bhas "@ loose ball" "the loose ball"
bhas "stack" "stacks"
bhas "upper" "the order of a stack (upper piece first)"
bhas "+ fresh" "fresh stacks"
wide=$(awk 'length($0) > 80' "$tmp/boardlegend")
[ -z "$wide" ] || fail "board legend wider than 80 columns: $wide"
# Once: no later board is followed by it.
c=$(grep -cF "X O S = ATK" "$tmp/demo.out")
[ "$c" -eq 1 ] || fail "board legend printed $c times, expected once"

finish
