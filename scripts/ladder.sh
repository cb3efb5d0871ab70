#!/bin/sh
# The ladder (docs/yardsticks.md): a fixed set of pairings with fixed node
# or playout budgets, each a match of `selfplay --swap` (every seed played
# twice with the colours exchanged, after a few random opening turns), and
# a Markdown table of the results for docs/players.md.
#
#   sh scripts/ladder.sh            (or: make ladder)
#
# Environment:
#   GAMES     games a pairing (even; default 100)
#   SEED      the first seed (default 1000); pairing k uses SEED + 1000 k
#   OPENING   random opening turns (default 2)
#   TURNS     turn limit (default 100)
#   J         pairings run at once (default 1; the CPU times are per
#             process, but a loaded machine still makes them larger)
#   PAIRS     the pairings, one "A B [N]" a line (player names as
#             selfplay takes them, N games instead of GAMES); default the
#             list below; new pairings go at its end, so that the
#             earlier ones keep their seeds (pairing k: SEED + 1000 k)
#   OUT       the table (default $B/ladder.md); the selfplay outputs go to
#             $B/ladder/
#   RESUME    non-empty: keep the matches of the last run that have the
#             same arguments and ended well (after an interruption)
#   B         the build directory (default build)
#   SELFPLAY  default $B/examples/selfplay
# Prints the table and writes it to $OUT. Exit status 0, or 1 when a
# selfplay run failed.
#
# The whole script is one brace group ending in exit: sh reads it all
# before it runs, so that editing this file during a run cannot change
# the run.
{
B=${B:-build}
SELFPLAY=${SELFPLAY:-$B/examples/selfplay}
GAMES=${GAMES:-100}
SEED=${SEED:-1000}
OPENING=${OPENING:-2}
TURNS=${TURNS:-100}
J=${J:-1}
OUT=${OUT:-$B/ladder.md}
DIR=$B/ladder
DEFAULT_PAIRS='search:nodes=50000 greedy
search:nodes=50000 alphabeta
search:nodes=50000 alphabeta:nodes=16000
search:nodes=50000 turn
search:nodes=50000 mcts:playouts=5000
search:nodes=50000 mcts:playouts=12500
search:nodes=200000 alphabeta:nodes=16000
search:nodes=100000 search:nodes=50000
search:nodes=200000 search:nodes=100000
alphabeta greedy
turn greedy
mcts:playouts=5000 greedy
alphabeta mcts:playouts=5000
alphabeta mcts:playouts=35000 40
turn mcts:playouts=5000
turn mcts:playouts=35000 40
alphabeta turn
alphabeta:nodes=16000 alphabeta
mcts:playouts=35000 greedy 40
search:nodes=50000 alphabeta:threat=1,nodes=8000
search:nodes=200000 alphabeta:threat=1,nodes=8000
alphabeta:threat=1,nodes=8000 alphabeta:nodes=16000
alphabeta:threat=1,nodes=8000 greedy'
PAIRS=${PAIRS:-$DEFAULT_PAIRS}

if [ ! -x "$SELFPLAY" ]; then
    echo "ladder: $SELFPLAY not built (make examples)" >&2
    exit 1
fi
case $J in '' | *[!0-9]* | 0) echo "ladder: J must be a positive number" >&2; exit 2 ;; esac
mkdir -p "$DIR" || exit 1

# run K A B [N]: one match into $DIR/K.out, its arguments into $DIR/K.args
run() {
    args="--games ${4:-$GAMES} --swap --opening $OPENING --turn-limit $TURNS --seed $((SEED + 1000 * $1)) --atk $2 --def $3"
    echo "$args" >"$DIR/$1.args"
    # shellcheck disable=SC2086
    "$SELFPLAY" $args >"$DIR/$1.out" 2>&1
    echo $? >"$DIR/$1.rc"
}

# J matches at a time: a new one starts as soon as one ends
k=0
started=""
[ -n "${RESUME:-}" ] || rm -f "$DIR"/*.out "$DIR"/*.args "$DIR"/*.rc
echo "$PAIRS" | {
    while read -r a b n; do
        [ -n "$a" ] || continue
        k=$((k + 1))
        if [ -n "${RESUME:-}" ] && [ "$(cat "$DIR/$k.rc" 2>/dev/null)" = 0 ] &&
            [ "$(cat "$DIR/$k.args")" = "--games ${n:-$GAMES} --swap --opening $OPENING --turn-limit $TURNS --seed $((SEED + 1000 * k)) --atk $a --def $b" ]; then
            continue # RESUME: this match was played already
        fi
        rm -f "$DIR/$k.rc"
        while :; do
            busy=0
            for s in $started; do
                [ -f "$DIR/$s.rc" ] || busy=$((busy + 1))
            done
            [ "$busy" -ge "$J" ] || break
            sleep 1
        done
        run "$k" "$a" "$b" $n &
        started="$started $k"
    done
    wait
    # a pairing list shorter than the last run's: drop the old matches
    k=$((k + 1))
    while [ -f "$DIR/$k.args" ]; do
        rm -f "$DIR/$k.args" "$DIR/$k.out" "$DIR/$k.rc"
        k=$((k + 1))
    done
}

status=0
{
    echo "| pairing (first against second) | games | W-D-L | score (95% interval) | Elo (95% interval) | CPU ms a decision (first / second) | selfplay arguments |"
    echo "|---|---|---|---|---|---|---|"
    k=1
    while [ -f "$DIR/$k.args" ]; do
        args=$(cat "$DIR/$k.args")
        rc=$(cat "$DIR/$k.rc" 2>/dev/null || echo 1)
        if [ "$rc" != 0 ]; then
            echo "ladder: selfplay $args failed: $(tail -n 3 "$DIR/$k.out")" >&2
            status=1
            k=$((k + 1))
            continue
        fi
        awk -v args="$args" '
            /^match: / { sub(/^match: /, ""); sub(/, sides alternated$/, ""); pairing = $0 }
            /^  games / { games = $2 }
            /^  wins draws losses/ { wdl = $4 "-" $5 "-" $6 }
            /^  score / { score = $2 " (" $5 " - " $7 ")" }
            /^  Elo difference/ { elo = $3 " (" $6 " to " $8 ")" }
            /^  cpu ms a decision/ { cpu = sprintf("%.2f / %.2f", $5, $6) }
            END {
                sub(/ against /, " vs ", pairing)
                printf "| %s | %s | %s | %s | %s | %s | `%s` |\n", pairing, games, wdl, score, elo, cpu, args
            }' "$DIR/$k.out"
        k=$((k + 1))
    done
    echo
    echo "W-D-L and the score are the first player's (score = wins + draws / 2, 95% Wilson"
    echo "interval); Elo = 400 log10(s / (1 - s)), its interval the score interval's ends mapped"
    echo "the same way; CPU ms: mean CPU time per decision with a choice. Generated by"
    echo "scripts/ladder.sh (GAMES=$GAMES OPENING=$OPENING TURNS=$TURNS SEED=$SEED) on $(date -u +%Y-%m-%d)."
} >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
cat "$OUT"
exit $status
}
