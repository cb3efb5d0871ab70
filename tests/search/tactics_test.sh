#!/bin/sh
# The tactics suite (docs/yardsticks.md): tests/tactics/suite.txt holds
# positions from real games whose right first decisions were proven by an
# exhaustive search of the turn (examples/tactics_gen.c): score this turn
# (R11.1), take the ball (R6.1, R7.3, R8.1), keep the carrier out of the
# opponent's reach for its whole next turn. This test
#  (a) checks the file: its format, at least 200 positions, every category,
#      and the counts its header gives;
#  (b) searches a sample of its positions again with tactics_gen --verify
#      (every VERIFY_EVERY-th, from scratch), so the file cannot rot when
#      the engine changes, and checks that --verify catches a wrong
#      answer;
#  (c) checks the runner (examples/tactics.c) on suites written here (every
#      legal decision an answer: 100%; none: 0%), its exit statuses, that a
#      run repeats, and that a random player solves about the share that
#      the answers predict;
#  (d) scores TACTICS_PLAYER and each of TACTICS_OTHERS and fails when one
#      solves less than its threshold (percent of the suite).
# The thresholds are a few points below what the players solved when the
# suite was made (mcts 61.7%, greedy 52.5%, alphabeta 93.6%, turn 96.1%).
# The player held to a target is the library's turn search (the default
# player) at 200,000 nodes, against issue 25's target of 95%: it solved
# 96.4% (20,000 nodes: 92.5%, 50,000: 95.0%); the first turn search, with its
# touchdown probe at every leaf, solved 91.4% at 200,000 and fails here.
# Run from the repository root after `make`. Prints each failure; exits
# non-zero if any.

# the player held to a target, and the target (percent solved)
TACTICS_PLAYER=${TACTICS_PLAYER:-search:nodes=200000}
TACTICS_THRESHOLD=${TACTICS_THRESHOLD:-95}
# other players scored, NAME:PERCENT each (a player's own budget after a colon
# in NAME is fine: the threshold is after the last colon)
TACTICS_OTHERS=${TACTICS_OTHERS:-"mcts:55 greedy:45 alphabeta:88 turn:90"}
VERIFY_EVERY=${VERIFY_EVERY:-12}
SUITE=${SUITE:-tests/tactics/suite.txt}

B=${BALL_BUILD:-build}
TACTICS=${TACTICS:-$B/examples/tactics}
TACTICS_GEN=${TACTICS_GEN:-$B/examples/tactics_gen}
BALL=${BALL:-$B/bin/ball}
. tests/lib/shell-test.sh

for prog in "$TACTICS" "$TACTICS_GEN" "$BALL"; do
    if [ ! -x "$prog" ]; then
        echo "FAIL: $prog not built"
        exit 1
    fi
done

# ---- (a) the file
grep -v '^#' "$SUITE" >"$tmp/lines"
awk -F'|' '
{
    if (NF != 5) { printf "line %d: %d fields\n", NR, NF; bad = 1; next }
    if ($1 != "score" && $1 != "take" && $1 != "safe") { printf "line %d: category %s\n", NR, $1; bad = 1 }
    if ($3 !~ / (ATK|DEF) [ar] [0-9]+ [-h] [0-9]+\/[0-9]+ [0-9]+$/) { printf "line %d: BPN %s\n", NR, $3; bad = 1 }
    k = split($5, a, " ")
    if (k < 1 || 2 * k > $4) { printf "line %d: %d answers of %d decisions\n", NR, k, $4; bad = 1 }
    if (seen[$2 "|" $3]++) { printf "line %d: a position twice\n", NR; bad = 1 }
    n[$1]++
}
END {
    if (NR < 200) { printf "%d positions, fewer than 200\n", NR; bad = 1 }
    if (!n["score"] || !n["take"] || !n["safe"]) { print "a category is missing"; bad = 1 }
    exit bad
}' "$tmp/lines" >"$tmp/format.err" || fail "suite format: $(head -n 5 "$tmp/format.err")"
counts=$(awk -F'|' '{ n[$1]++ } END { printf "score %d, take %d, safe %d.", n["score"], n["take"], n["safe"] }' "$tmp/lines")
grep -q "^# Counts: $counts\$" "$SUITE" || fail "suite header: counts are not '$counts'"
# the answers are legal decisions of their position (the tool's list)
head -n 5 "$tmp/lines" >"$tmp/few"
while IFS='|' read -r cat rules bpn n answers; do
    "$BALL" --rules "$rules" legal "$bpn" >"$tmp/legal" 2>"$tmp/err" || fail "ball legal: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/legal" | tr -d ' ')" = "$n" ] || fail "$cat position $bpn: $n decisions, ball legal lists $(wc -l <"$tmp/legal")"
    for a in $answers; do
        grep -qx -- "$a" "$tmp/legal" || fail "$cat position $bpn: answer $a is not legal"
    done
done <"$tmp/few"

# ---- (b) the answers, searched again
"$TACTICS_GEN" --verify "$SUITE" --every "$VERIFY_EVERY" >"$tmp/verify" 2>&1 ||
    fail "tactics_gen --verify: $(tail -n 5 "$tmp/verify")"
grep -q ' 0 wrong$' "$tmp/verify" || fail "tactics_gen --verify: $(tail -n 1 "$tmp/verify")"
# a suite with one answer taken away, one added, or a wrong category fails
line=$(sed -n 1p "$tmp/lines")
first=${line##*|}
first=${first%% *}
printf '%s\n' "$line" | awk -F'|' -v OFS='|' '{ $5 = substr($5, index($5, " ") + 1); if ($5 == "") $5 = "end"; print }' >"$tmp/wrong1"
printf '%s\n' "$line" | awk -F'|' -v OFS='|' '{ $1 = ($1 == "take" ? "safe" : "take"); print }' >"$tmp/wrong2"
printf '%s\n' "$line" | awk -F'|' -v OFS='|' '{ $4 = $4 + 1; print }' >"$tmp/wrong3"
for w in wrong1 wrong2 wrong3; do
    "$TACTICS_GEN" --verify "$tmp/$w" >"$tmp/verify.$w" 2>&1 &&
        fail "tactics_gen --verify accepted a wrong line ($w): $(cat "$tmp/$w")"
done
printf '%s\n' "$line" >"$tmp/right"
"$TACTICS_GEN" --verify "$tmp/right" >/dev/null 2>&1 || fail "tactics_gen --verify refused the suite's first line"

# ---- (c) the runner on suites written here
start='7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1'
"$BALL" legal "$start" >"$tmp/start.legal"
n_start=$(wc -l <"$tmp/start.legal" | tr -d ' ')
all=$(tr '\n' ' ' <"$tmp/start.legal" | sed 's/ $//')
{
    echo "# every legal decision is an answer"
    echo "take||$start|$n_start|$all"
    echo "safe|zone=2|$start|$n_start|$all"
} >"$tmp/all.txt"
echo "score||$start|$n_start|A1-B2" >"$tmp/none.txt"
for pl in greedy random mcts:playouts=50 alphabeta:nodes=200 turn:nodes=500; do
    "$TACTICS" --player "$pl" --suite "$tmp/all.txt" >"$tmp/out" 2>&1 || fail "tactics $pl exited $?"
    grep -q '^solved 2/2$' "$tmp/out" || fail "tactics $pl, every decision right: $(tail -n 1 "$tmp/out")"
    "$TACTICS" --player "$pl" --suite "$tmp/none.txt" >"$tmp/out" 2>&1 || fail "tactics $pl exited $?"
    grep -q '^solved 0/1$' "$tmp/out" || fail "tactics $pl, no decision right: $(tail -n 1 "$tmp/out")"
done
"$TACTICS" --player wizard --suite "$tmp/all.txt" >/dev/null 2>&1
[ $? -eq 2 ] || fail "tactics: unknown player not refused with status 2"
"$TACTICS" --suite "$tmp/all.txt" >/dev/null 2>&1
[ $? -eq 2 ] || fail "tactics: no --player not refused with status 2"
echo "take||$start|$n_start" >"$tmp/bad1.txt"
echo "take||7/6/7 DEF a 2 - 0/0 1|3|end" >"$tmp/bad2.txt"
echo "tack||$start|$n_start|end" >"$tmp/bad3.txt"
for b in bad1 bad2 bad3; do
    "$TACTICS" --player greedy --suite "$tmp/$b.txt" >/dev/null 2>"$tmp/err"
    [ $? -eq 1 ] || fail "tactics: malformed suite $b not refused with status 1"
    grep -q "$b.txt:1:" "$tmp/err" || fail "tactics: malformed suite $b: no file:line in '$(cat "$tmp/err")'"
done

# ---- (d) the players' scores
total=$(wc -l <"$tmp/lines" | tr -d ' ')
# score NAME THRESHOLD
score() {
    "$TACTICS" --player "$1" --suite "$SUITE" >"$tmp/score" 2>&1 || { fail "tactics --player $1 exited $?: $(tail -n 3 "$tmp/score")"; return; }
    sed 's/^/  /' "$tmp/score"
    got=$(sed -n 's/^solved \([0-9]*\)\/\([0-9]*\)$/\1 \2/p' "$tmp/score")
    set -- "$1" "$2" $got
    [ "$4" = "$total" ] || { fail "tactics --player $1: $4 positions scored, the suite has $total"; return; }
    awk -v s="$3" -v t="$4" -v min="$2" 'BEGIN { exit !(100 * s >= min * t) }' ||
        fail "tactics --player $1 solves $3 of $4, below its threshold of $2%"
}
score "$TACTICS_PLAYER" "$TACTICS_THRESHOLD"
for entry in $TACTICS_OTHERS; do
    score "${entry%:*}" "${entry##*:}"
done
# the random player solves about the share its column predicts (the mean
# over the positions of answers / decisions): the runner counts what it
# should, and seeds each position well
"$TACTICS" --player random --suite "$SUITE" >"$tmp/random" 2>&1 || fail "tactics --player random exited $?"
awk '/^  total/ { gsub(/%/, ""); d = $4 - $5; if (d < -6 || d > 6) exit 1; ok = 1 } END { exit !ok }' "$tmp/random" ||
    fail "tactics --player random: $(grep '^  total' "$tmp/random"), far from the random share"
# a run repeats
"$TACTICS" --player mcts:playouts=200 --suite "$SUITE" >"$tmp/r1" 2>&1
"$TACTICS" --player mcts:playouts=200 --suite "$SUITE" >"$tmp/r2" 2>&1
cmp -s "$tmp/r1" "$tmp/r2" || fail "tactics: two runs of mcts:playouts=200 differ"

if [ "$failures" -ne 0 ]; then
    echo "tactics_test: $failures failure(s)"
    exit 1
fi
echo "tactics_test: all passed"
