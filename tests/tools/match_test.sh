#!/bin/sh
# Tests of `ball match` (docs/match.md): a match between two `ball engine`
# processes (no forfeit: this once found the engine refusing a position
# sent right after its bestdecision), its records (read back by ball
# replay), JSON and resumption from the records file; a forfeit with its
# reason for each mode of the misbehaving engine tests/engines/bad_engine.py
# (crash, exit, hang, garbage, illegal, silence, slow handshake, no
# readyok), each bounded by the margin; the SPRT stopping a match; openings; a clock;
# bad arguments. Every match runs under timeout(1): none may hang.
# run-tests: serial

BALL=${BALL:-build/bin/ball}
. tests/lib/shell-test.sh

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (make check installs it)"
    exit 77
fi
[ -x "$BALL" ] || { echo "FAIL: $BALL not built (make tool)"; exit 1; }
case $BALL in /*) ;; *) BALL=$(pwd)/$BALL ;; esac
# the interpreter itself, not a wrapper such as a pyenv shim (slow to start)
PY=$(python3 -c "import sys; print(sys.executable)")
BAD="$PY $(pwd)/tests/engines/bad_engine.py"
GOOD="$BALL engine --searcher mcts"

# json FILE EXPR: a value of the JSON result
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

# ---- two good engines
timeout 120 "$BALL" match --engine cmd="$GOOD" name=a option.Seed=3 --engine cmd="$GOOD" name=b \
    --games 4 --playouts 200 --concurrency 2 --records "$tmp/r.rec" --json "$tmp/r.json" \
    >"$tmp/out" 2>"$tmp/err" || fail "good match: exit $? $(tail -3 "$tmp/err")"
[ "$(json "$tmp/r.json" "d['games']")" = 4 ] || fail "good match: 4 games in the JSON"
[ "$(json "$tmp/r.json" "d['wins'] + d['draws'] + d['losses']")" = 4 ] || fail "good match: W+D+L = 4"
[ "$(json "$tmp/r.json" "d['ends']['forfeit']")" = 0 ] || fail "good match: no forfeit: $(cat "$tmp/err")"
grep -q '^Score of a vs b: ' "$tmp/out" || fail "good match: the text result: $(cat "$tmp/out")"
grep -q '^games 4/4  a vs b: ' "$tmp/err" || fail "good match: the status line: $(cat "$tmp/err")"
"$BALL" replay "$tmp/r.rec" >"$tmp/replay" 2>&1 || fail "records read back: $(cat "$tmp/replay")"
[ "$(wc -l <"$tmp/replay")" -eq 4 ] || fail "4 records: $(cat "$tmp/replay")"
for n in 1 2 3 4; do
    [ "$(grep -c "^\[Event \"ball match a vs b game $n\"\]$" "$tmp/r.rec")" -eq 1 ] || fail "game $n recorded once"
done
# sides swapped: game 1 a is ATK, game 2 b is ATK (each opening twice)
python3 - "$tmp/r.rec" <<'PY' || fail "sides swapped in each pair"
import re, sys
recs = open(sys.argv[1]).read().split("\n\n[")
atk = {}
for r in recs:
    n = re.search(r'game (\d+)"', r).group(1)
    atk[int(n)] = re.search(r'\[ATK "(\w+)"\]', r).group(1)
    assert re.search(r'\[Site "playouts 200; (touchdown|turn limit)"\]', r), r[:300]
assert atk == {1: "a", 2: "b", 3: "a", 4: "b"}, atk
PY

# ---- resumed with the same records: only the games not yet played
timeout 120 "$BALL" match --engine cmd="$GOOD" name=a option.Seed=3 --engine cmd="$GOOD" name=b \
    --games 6 --playouts 200 --records "$tmp/r.rec" --json "$tmp/r2.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "resumed match: exit $?"
grep -q "4 game(s) of this match already in" "$tmp/err" || fail "resume: counts the games: $(cat "$tmp/err")"
[ "$(grep -c '^\[Event ' "$tmp/r.rec")" -eq 6 ] || fail "resume: 6 records in all"
[ "$(json "$tmp/r2.json" "d['games']")" = 6 ] || fail "resume: 6 games counted"
[ "$(grep -c '^games ' "$tmp/err")" -eq 2 ] || fail "resume: 2 games played: $(cat "$tmp/err")"

# ---- each misbehaving engine loses each game, with its reason
for case in "crash|crashed (exit status 3: bad_engine: crashing on purpose)" \
            "exit|crashed (exit status 4: bad_engine: exit at once)" \
            "hang|hung (no bestdecision within 1000 ms)" \
            "garbage|malformed decision '###'" \
            "illegal|illegal decision 'A1-C3'" \
            "silence|hung (no bepok after bep)" \
            "slow|hung (no bepok after bep)" \
            "noready|hung (no readyok after isready)"; do
    mode=${case%%|*} reason=${case#*|}
    rm -f "$tmp/b.rec"
    start=$(date +%s)
    timeout 60 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD $mode" name=bad \
        --games 2 --playouts 100 --margin 1000 --records "$tmp/b.rec" --json "$tmp/b.json" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || fail "$mode: exit $rc $(tail -2 "$tmp/err")"
    [ $(( $(date +%s) - start )) -le 20 ] || fail "$mode: took more than 20 s"
    [ "$(json "$tmp/b.json" "(d['wins'], d['losses'], d['engines'][1]['forfeits'])")" = "(2, 0, 2)" ] ||
        fail "$mode: good wins both games by forfeit: $(cat "$tmp/b.json")"
    [ "$(grep -cF "; forfeit " "$tmp/b.rec")" -eq 2 ] || fail "$mode: 2 forfeits recorded"
    grep -qF "(bad): $reason" "$tmp/b.rec" || fail "$mode: reason '$reason' recorded: $(grep Site "$tmp/b.rec")"
    "$BALL" replay "$tmp/b.rec" >/dev/null 2>&1 || fail "$mode: records read back"
done
sleep 0.2
if pgrep -f "bad_engine.py" >/dev/null 2>&1; then fail "bad engines left running: $(pgrep -af bad_engine.py)"; fi

# ---- a match ended by SIGTERM kills its engines (their process groups)
"$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD hang" name=bad --games 2 \
    --margin 60000 >/dev/null 2>&1 &
pid=$!
sleep 2
pgrep -f "bad_engine.py hang" >/dev/null 2>&1 || fail "SIGTERM: the hanging engine did not start"
kill -TERM $pid
wait $pid 2>/dev/null # (the shell would report "Terminated")
sleep 0.3
if pgrep -f "bad_engine.py hang" >/dev/null 2>&1; then
    fail "SIGTERM: the engine outlived the match" # (it ends by itself after 120 s)
fi

# ---- the SPRT stops a match that is decided
timeout 60 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD illegal" name=bad \
    --games 200 --playouts 50 --sprt elo0=0 elo1=100 --json "$tmp/s.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "sprt: exit $?"
[ "$(json "$tmp/s.json" "d['sprt']['result']")" = H1 ] || fail "sprt: H1 accepted: $(cat "$tmp/s.json")"
[ "$(json "$tmp/s.json" "d['games'] < 200 and d['sprt']['llr'] >= d['sprt']['upper']")" = True ] ||
    fail "sprt: stopped early at the bound"
grep -q '^SPRT elo0 0 elo1 100 alpha 0.05 beta 0.05: LLR .* (-2.94, 2.94).*: H1$' "$tmp/out" ||
    fail "sprt: text result: $(cat "$tmp/out")"

# ---- openings: each twice, in order; a clock
a=$("$BALL" apply "$("$BALL" apply '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1' E11-F10)" )
printf '# two openings\n\n%s\n%s\n' "$a" "$("$BALL" apply "$a" end)" >"$tmp/open.txt"
timeout 120 "$BALL" match --engine cmd="$GOOD" name=a --engine cmd="$GOOD" name=b --games 4 \
    --playouts 100 --openings "$tmp/open.txt" --records "$tmp/o.rec" >"$tmp/out" 2>"$tmp/err" ||
    fail "openings: exit $?"
[ "$(grep -cF "[Start \"$a\"]" "$tmp/o.rec")" -eq 2 ] || fail "opening 1 played twice"
[ "$(grep -c "^\[Start " "$tmp/o.rec")" -eq 4 ] || fail "each game from its opening"
timeout 120 "$BALL" match --engine cmd="$GOOD" name=a --engine cmd="$GOOD" name=b --games 2 \
    --tc 400+5 --rules turns=12 --records "$tmp/t.rec" --json "$tmp/t.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "tc: exit $?"
[ "$(json "$tmp/t.json" "d['ends']['forfeit']")" = 0 ] || fail "tc: no forfeit: $(cat "$tmp/err")"
grep -q '^\[Site "tc 400+5; ' "$tmp/t.rec" || fail "the limit in the Site tag"
grep -q '^\[Rules "turns=12"\]' "$tmp/t.rec" || fail "the rules of --rules in the records"

# ---- each engine with its own limit (seen in the engines' --log files)
timeout 60 "$BALL" match --engine cmd="$GOOD --log $tmp/a.log" name=a playouts=50 \
    --engine cmd="$GOOD --log $tmp/b.log" name=b nodes=60 --games 2 --rules turns=10 \
    --records "$tmp/l.rec" >"$tmp/out" 2>"$tmp/err" || fail "own limits: exit $?"
grep -q '^> go playouts 50$' "$tmp/a.log" && ! grep -q '^> go nodes' "$tmp/a.log" ||
    fail "engine a searched with its playouts=50"
grep -q '^> go nodes 60$' "$tmp/b.log" && ! grep -q '^> go playouts' "$tmp/b.log" ||
    fail "engine b searched with its nodes=60"
grep -q '^\[Site "nodes 1000, a playouts 50, b nodes 60; ' "$tmp/l.rec" || fail "own limits in the Site tag"

# ---- the shipped openings: at least 100 distinct valid positions, the
# file that its generator writes (the generator checks each with a search)
n=$(grep -vc '^#' share/openings.txt)
[ "$n" -ge 100 ] || fail "share/openings.txt: $n positions, fewer than 100"
[ "$(grep -v '^#' share/openings.txt | sort -u | wc -l)" -eq "$n" ] || fail "share/openings.txt: duplicates"
timeout 120 "$BALL" match --engine cmd="$GOOD" name=a --engine cmd="$GOOD" name=b --games 2 \
    --playouts 50 --rules turns=12 --openings share/openings.txt >"$tmp/out" 2>"$tmp/err" ||
    fail "share/openings.txt read by ball match: $(cat "$tmp/err")"
if [ -n "$LIBBALL_PATH" ] || [ -f "${B:-build}/libball.so.1" ]; then
    (cd "$tmp" && LIBBALL_PATH=${LIBBALL_PATH:-$OLDPWD/${B:-build}/libball.so.1} \
        timeout 120 ${LIBBALL_RUN:-} "$PY" "$OLDPWD/share/gen-openings.py") >"$tmp/openings.txt" 2>"$tmp/err" ||
        fail "share/gen-openings.py: $(cat "$tmp/err")"
    cmp -s "$tmp/openings.txt" share/openings.txt || fail "share/openings.txt is not what share/gen-openings.py writes"
else
    skip "no shared library built: share/gen-openings.py not run"
fi

# ---- bad arguments: exit 2 and a message
while IFS='|' read -r args msg; do
    eval "set -- $args"
    "$BALL" match "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "match $args: exit $rc, expected 2"
    grep -qF -- "$msg" "$tmp/err" || fail "match $args: message '$msg', got: $(cat "$tmp/err")"
done <<EOF2
|give --engine exactly twice
--engine cmd=x|give --engine exactly twice
--engine name=x --engine cmd=y|--engine needs cmd=CMD
--engine cmd=x --engine cmd=y name=engine1|the engines need different names
--engine cmd=x --engine cmd=y --nodes 0|--nodes needs a number from 1 to
--engine cmd=x --engine cmd=y --nodes 5 --movetime 5|give one of --nodes
--engine cmd=x --engine cmd=y --tc 10+x|--tc needs MS or MS+INC
--engine cmd=x --engine cmd=y --sprt elo0=5 elo1=1|elo0 must be below elo1
--engine cmd=x --engine cmd=y --sprt elo1=1|--sprt needs elo0=A and elo1=B
--engine cmd=x --engine cmd=y --rules zone=9|--rules:
--engine cmd=x --engine cmd=y --openings /nonexistent|--openings /nonexistent:
--engine cmd=x --engine cmd=y --bogus 1|unknown option '--bogus'
--engine cmd=x colour=red --engine cmd=y|expected cmd=CMD, name=NAME, option.X=V, nodes=N
--engine cmd=x nodes=5 playouts=6 --engine cmd=y|give one of nodes=, playouts=, movetime=
--engine cmd=x movetime=0 --engine cmd=y|movetime=0 needs a number from 1
EOF2
printf '%s\n7/6 DEF\n' "$a" >"$tmp/badopen.txt"
"$BALL" match --engine cmd=x --engine cmd=y --openings "$tmp/badopen.txt" 2>"$tmp/err"
grep -q "badopen.txt: line 2: " "$tmp/err" || fail "bad opening: line number: $(cat "$tmp/err")"

echo "match_test: $failures failure(s)"
finish
