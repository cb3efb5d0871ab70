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
# the turn search's evaluation: search:...,eval=network|hand
# (ball_search_config::eval); another word is an unknown player
for spec in search:nodes=2000,eval=Hand search:eval=hand2 search:nodes=2000,eval=; do
    "$SELFPLAY" --games 1 --atk "$spec" >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] && grep -q "unknown player '$spec'" "$tmp/err" || fail "$spec not refused: $(cat "$tmp/err")"
done
EV="--games 4 --def greedy --turn-limit 12 --seed 9 --csv"
# shellcheck disable=SC2086
"$SELFPLAY" $EV --atk search:nodes=2000 >"$tmp/net.csv" 2>"$tmp/err" || fail "search (network): $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $EV --atk search:nodes=2000,eval=network >"$tmp/net2.csv" 2>"$tmp/err" || fail "eval=network: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $EV --atk search:eval=hand,nodes=2000 >"$tmp/hand.csv" 2>"$tmp/err" || fail "eval=hand: $(cat "$tmp/err")"
# the same games but for the player's name in the CSV
sed 's/,eval=network,/,/' "$tmp/net2.csv" | cmp -s "$tmp/net.csv" - || fail "eval=network is not the default"
sed 's/:eval=hand,/:/' "$tmp/hand.csv" | cmp -s "$tmp/net.csv" - &&
    fail "eval=hand played the same 4 games as the network"
"$SELFPLAY" --games 1 --turn-limit 4 --atk search:eval=hand >/dev/null 2>"$tmp/err" ||
    fail "search:eval=hand alone (the default budget): $(cat "$tmp/err")"
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

# ---- a match (docs/yardsticks.md): --swap plays each seed twice with the
# colours exchanged, --opening K starts each game with K random turns (the
# same for both games of a pair); the match lines give W-D-L, the score
# with its Wilson interval and the Elo difference, recomputed here from
# W-D-L with awk's own log().
MATCH="--games 6 --swap --opening 2 --atk alphabeta:nodes=100 --def greedy --turn-limit 30 --seed 4"
# shellcheck disable=SC2086
"$SELFPLAY" $MATCH --csv >"$tmp/match.csv" 2>"$tmp/err" || fail "selfplay --swap --csv exited $?: $(cat "$tmp/err")"
awk -F, 'NR == 1 { next }
{
    pair = int(NR / 2)                    # games 2k-1 and 2k, on lines 2k and 2k+1
    if (NR % 2 == 0) { seed = $2; a = $3; d = $4 }
    else if ($2 != seed || $3 != d || $4 != a) { printf "game %d: not the colours of game %d exchanged with its seed\n", $1, $1 - 1; bad = 1 }
    if (NR % 2 == 0 && $3 != "alphabeta:nodes=100") { printf "game %d: the first player is not ATK\n", $1; bad = 1 }
}
END { exit bad }' "$tmp/match.csv" >"$tmp/match.err" || fail "--swap: $(cat "$tmp/match.err")"
# shellcheck disable=SC2086
"$SELFPLAY" $MATCH >"$tmp/match.table" 2>"$tmp/err" || fail "selfplay --swap exited $?: $(cat "$tmp/err")"
# the first player's W-D-L from the CSV
csv_wdl=$(awk -F, 'NR > 1 { first_atk = (NR % 2 == 0)
    if ($5 == "draw") d++; else if (($5 == "ATK") == first_atk) w++; else l++ }
    END { printf "%d %d %d", w, d, l }' "$tmp/match.csv")
wdl=$(awk '/^  wins draws losses/ { print $4, $5, $6 }' "$tmp/match.table")
[ "$wdl" = "$csv_wdl" ] || fail "match: W-D-L '$wdl', the CSV gives '$csv_wdl'"
grep -q '^match: alphabeta:nodes=100 against greedy, sides alternated$' "$tmp/match.table" ||
    fail "match: no title line"
grep -q 'opening 2 random turns' "$tmp/match.table" || fail "match: the opening is not in the title"
# score, Wilson interval and Elo from W-D-L, by a formula written here
expect=$(echo "$wdl" | awk '{ n = $1 + $2 + $3; s = ($1 + $2 / 2) / n; z = 1.959964
    c = (s + z * z / (2 * n)) / (1 + z * z / n)
    h = z * sqrt(s * (1 - s) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo = c - h < 0 ? 0 : c - h; hi = c + h > 1 ? 1 : c + h
    printf "%.1f %.1f %.1f", 100 * s, 100 * lo, 100 * hi }')
got=$(awk '/^  score / { gsub(/%/, ""); print $2, $5, $7 }' "$tmp/match.table")
[ "$got" = "$expect" ] || fail "match: score and interval '$got', expected '$expect'"
elo_ok=$(echo "$wdl" | awk -v line="$(grep '^  Elo difference' "$tmp/match.table")" '{
    n = $1 + $2 + $3; s = ($1 + $2 / 2) / n
    split(line, f, " "); e = f[3]
    if (s <= 0 || s >= 1) { print (e == (s >= 1 ? "+inf" : "-inf")) ? 1 : 0; exit }
    want = 400 * log(s / (1 - s)) / log(10); d = e - want
    print (d <= 0.6 && d >= -0.6) ? 1 : 0 }')
[ "$elo_ok" = 1 ] || fail "match: Elo line '$(grep '^  Elo difference' "$tmp/match.table")' for W-D-L $wdl"
grep -Eq '^  cpu ms a decision +[0-9.]+ [0-9.]+ \(with a choice: alphabeta:nodes=100, greedy\)$' "$tmp/match.table" ||
    fail "match: no CPU time per decision for each player"
grep -q '^  1st alphabeta:nodes=100 ' "$tmp/match.table" || fail "match: thinking time not by player"
# a player against itself, sides alternated: both games of a pair are the
# same game, so the score is exactly 50% and the Elo difference 0
"$SELFPLAY" --games 4 --swap --opening 1 --atk greedy --def greedy --seed 2 >"$tmp/self.table" 2>&1 ||
    fail "selfplay greedy against itself exited $?"
grep -Eq '^  score +50\.0%' "$tmp/self.table" || fail "greedy against itself: $(grep '^  score' "$tmp/self.table")"
grep -Eq '^  Elo difference +\+0 ' "$tmp/self.table" || fail "greedy against itself: $(grep '^  Elo' "$tmp/self.table")"
# the sparring players (sparring.h) repeat exactly
# shellcheck disable=SC2086
"$SELFPLAY" $MATCH --csv >"$tmp/match2.csv" 2>/dev/null
cmp -s "$tmp/match.csv" "$tmp/match2.csv" || fail "match: two runs with the same seed differ"
"$SELFPLAY" --games 2 --swap --atk turn:nodes=2000 --def alphabeta:depth=2 --turn-limit 6 >/dev/null 2>&1 ||
    fail "sparring players with settings refused"
# the threat-aware evaluation too: the same seed, the same games
THREAT="--games 4 --swap --opening 2 --atk alphabeta:threat=1,nodes=1500 --def turn:threat=1,nodes=3000 --turn-limit 20 --seed 6"
# shellcheck disable=SC2086
"$SELFPLAY" $THREAT --csv >"$tmp/threat1.csv" 2>"$tmp/err" || fail "threat=1 exited $?: $(cat "$tmp/err")"
# shellcheck disable=SC2086
"$SELFPLAY" $THREAT --csv >"$tmp/threat2.csv" 2>/dev/null
cmp -s "$tmp/threat1.csv" "$tmp/threat2.csv" || fail "threat=1: two runs with the same seed differ"
[ "$(wc -l <"$tmp/threat1.csv" | tr -d ' ')" -eq 5 ] || fail "threat=1: expected a header and 4 lines"
for bad in alphabeta:nodes=0 alphabeta:depth=x turn:depth=3 alphabetax turn:nodes= alphabeta:threat=2 turn:threat=x; do
    "$SELFPLAY" --games 1 --atk "$bad" >/dev/null 2>&1
    [ $? -eq 2 ] || fail "sparring: bad player '$bad' not refused with status 2"
done
"$SELFPLAY" --games 1 --opening x >/dev/null 2>&1
[ $? -eq 2 ] || fail "--opening x not refused with status 2"

if [ "$failures" -ne 0 ]; then
    echo "selfplay_test: $failures failure(s)"
    exit 1
fi
echo "selfplay_test: all passed"
