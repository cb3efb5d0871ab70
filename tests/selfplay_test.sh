#!/bin/sh
# Checks examples/selfplay: it runs, its CSV is well formed (a header and
# one line per game, all with the same number of fields), each game's
# numbers agree with each other, and the table agrees with the CSV of the
# same run (touchdowns + draws = games, decisions by kind add up). The run
# chosen (seed 5, turn limit 12) gave a mix of touchdowns and draws when
# written. The MCTS player is checked too (repeatable with a playout
# budget, intervals in the table). Run from
# the repository root after `make`. Prints each failure; exits non-zero if
# any.

SELFPLAY=${SELFPLAY:-build/examples/selfplay}
. tests/lib/shell-test.sh

if [ ! -x "$SELFPLAY" ]; then
    echo "FAIL: $SELFPLAY not built"
    exit 1
fi

ARGS="--games 12 --atk random --def greedy --turn-limit 12 --seed 5"
# shellcheck disable=SC2086
"$SELFPLAY" $ARGS --csv >"$tmp/games.csv" 2>"$tmp/err" || fail "selfplay --csv exited $?: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $ARGS >"$tmp/table" 2>"$tmp/err" || fail "selfplay exited $?: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $ARGS --csv >"$tmp/again.csv" 2>/dev/null
cmp -s "$tmp/games.csv" "$tmp/again.csv" || fail "two runs with the same seed differ"

# ---- the CSV on its own
header='game,seed,atk,def,result,turns,decisions,decisions_per_turn,mean_branching,max_branching,move,dodge,tactical_dodge,block,protect,handoff,short_pass,long_pass,end,stand_up,unblock,unprotect'
[ "$(head -n 1 "$tmp/games.csv")" = "$header" ] || fail "CSV header: $(head -n 1 "$tmp/games.csv")"
[ "$(wc -l <"$tmp/games.csv" | tr -d ' ')" -eq 13 ] || fail "CSV: expected a header and 12 lines"
awk -F, -v limit=12 '
NR == 1 { nf = NF; next }
{
    if (NF != nf) { printf "line %d: %d fields, header has %d\n", NR, NF, nf; bad = 1 }
    if ($1 != NR - 1) { printf "line %d: game number %s\n", NR, $1; bad = 1 }
    if ($3 != "random" || $4 != "greedy") { printf "line %d: players %s %s\n", NR, $3, $4; bad = 1 }
    if ($5 != "ATK" && $5 != "DEF" && $5 != "draw") { printf "line %d: result %s\n", NR, $5; bad = 1 }
    if ($6 < 1 || $6 > limit) { printf "line %d: %s turns, limit %d\n", NR, $6, limit; bad = 1 }
    if ($5 == "draw" && $6 != limit) { printf "line %d: a draw before the turn limit\n", NR; bad = 1 }
    sum = 0
    for (i = 11; i <= NF; i++) sum += $i
    if (sum != $7) { printf "line %d: kinds add up to %d, decisions %d\n", NR, sum, $7; bad = 1 }
    if ($19 < $6 - 1) { printf "line %d: fewer ends (%d) than finished turns\n", NR, $19; bad = 1 }
    d = $7 / $6 - $8
    if (d > 0.001 || d < -0.001) { printf "line %d: decisions per turn %s\n", NR, $8; bad = 1 }
    if ($9 < 1 || $9 > $10) { printf "line %d: branching mean %s max %s\n", NR, $9, $10; bad = 1 }
}
END { exit bad }' "$tmp/games.csv" >"$tmp/csv.err" || fail "CSV: $(cat "$tmp/csv.err")"

# ---- the table agrees with the CSV
count() { awk -F, -v r="$1" 'NR > 1 && $5 == r { n++ } END { print n + 0 }' "$tmp/games.csv"; }
row() { awk -v key="$1" 'index($0, key) == 3 { print $(NF - 1); exit }' "$tmp/table"; }
atk=$(awk '/ATK touchdowns/ { print $3 }' "$tmp/table")
def=$(awk '/DEF touchdowns/ { print $3 }' "$tmp/table")
draws=$(awk '/^  draws/ { print $2 }' "$tmp/table")
[ "$atk" = "$(count ATK)" ] || fail "table: ATK touchdowns $atk, CSV $(count ATK)"
[ "$def" = "$(count DEF)" ] || fail "table: DEF touchdowns $def, CSV $(count DEF)"
[ "$draws" = "$(count draw)" ] || fail "table: draws $draws, CSV $(count draw)"
[ $((atk + def + draws)) -eq 12 ] 2>/dev/null || fail "table: touchdowns + draws = $((atk + def + draws)), games 12"
total=$(awk '/^  total/ { print $2 }' "$tmp/table")
csv_total=$(awk -F, 'NR > 1 { n += $7 } END { print n }' "$tmp/games.csv")
[ "$total" = "$csv_total" ] || fail "table: $total decisions, CSV $csv_total"
moves=$(awk '/^  move / { print $2 }' "$tmp/table")
csv_moves=$(awk -F, 'NR > 1 { n += $11 } END { print n }' "$tmp/games.csv")
[ "$moves" = "$csv_moves" ] || fail "table: $moves moves, CSV $csv_moves"
grep -q '^selfplay: 12 games, ATK random vs DEF greedy, turn limit 12' "$tmp/table" ||
    fail "table: no title line"
grep -q 'branching factor' "$tmp/table" || fail "table: no branching factor"
grep -q 'decisions per turn' "$tmp/table" || fail "table: no decisions per turn"

# ---- defaults and bad input
"$SELFPLAY" --games 2 >/dev/null || fail "selfplay --games 2 exited $?"
"$SELFPLAY" --atk wizard >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown player not refused with status 2"
"$SELFPLAY" --games 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--games 0 not refused with status 2"
"$SELFPLAY" --frobnicate >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown option not refused with status 2"

# ---- the MCTS player (issue 13): a playout budget repeats exactly, the
# table gives a 95% interval per result and the thinking time, and bad
# settings are refused
MCTS_ARGS="--games 3 --atk mcts:playouts=150 --def random --turn-limit 10 --seed 9"
# shellcheck disable=SC2086
"$SELFPLAY" $MCTS_ARGS --csv >"$tmp/mcts1.csv" 2>"$tmp/err" || fail "selfplay mcts exited $?: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $MCTS_ARGS --csv >"$tmp/mcts2.csv" 2>/dev/null
cmp -s "$tmp/mcts1.csv" "$tmp/mcts2.csv" || fail "mcts: two runs with the same seed differ"
[ "$(wc -l <"$tmp/mcts1.csv" | tr -d ' ')" -eq 4 ] || fail "mcts: expected a header and 3 lines"
awk -F, 'NR > 1 && $3 != "mcts:playouts=150" { bad = 1 } END { exit bad }' "$tmp/mcts1.csv" ||
    fail "mcts: player column is not the player given"
# shellcheck disable=SC2086
"$SELFPLAY" $MCTS_ARGS >"$tmp/mcts.table" 2>&1 || fail "selfplay mcts table exited $?"
grep -q '95% interval' "$tmp/mcts.table" || fail "mcts table: no confidence interval column"
grep -Eq '^  ATK touchdowns +[0-9]+ +[0-9.]+% +[0-9.]+% - +[0-9.]+%$' "$tmp/mcts.table" ||
    fail "mcts table: no interval on the ATK line"
grep -q '^  ATK mcts:playouts=150 ' "$tmp/mcts.table" || fail "mcts table: no thinking time for ATK"
for bad in mcts:playouts=-1 mcts:wizard=3 mcts:playouts=0 mcts:c=x mctsx; do
    "$SELFPLAY" --games 1 --atk "$bad" >/dev/null 2>&1
    [ $? -eq 2 ] || fail "mcts: bad player '$bad' not refused with status 2"
done
"$SELFPLAY" --games 1 --turn-limit 4 --atk mcts:ms=5 --def mcts:ms=5,playouts=50 >/dev/null 2>&1 ||
    fail "mcts: time budgets refused"

# --record: one game record per game, which `ball replay` reads back with
# the results of the CSV of the same seeds (docs/records.md).
BALL=${BALL:-$(dirname "$SELFPLAY")/../bin/ball}
"$SELFPLAY" --games 4 --seed 7 --record "$tmp/games.rec" --csv >"$tmp/rec.csv" 2>"$tmp/err" ||
    fail "selfplay --record exited $?: $(cat "$tmp/err")"
[ "$(grep -c '^\[Event "selfplay game' "$tmp/games.rec")" -eq 4 ] || fail "--record: not 4 records"
if [ -x "$BALL" ]; then
    "$BALL" replay "$tmp/games.rec" >"$tmp/replay" 2>"$tmp/err" || fail "ball replay of the records: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/replay")" -eq 4 ] || fail "ball replay: not 4 games"
else
    fail "$BALL not built"
fi
"$SELFPLAY" --games 1 --record /nonexistent/dir/x.rec >/dev/null 2>&1 && fail "--record to a bad path succeeded"

if [ "$failures" -ne 0 ]; then
    echo "selfplay_test: $failures failure(s)"
    exit 1
fi
echo "selfplay_test: all passed"
