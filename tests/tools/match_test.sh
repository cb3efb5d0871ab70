#!/bin/sh
# Tests of `ball match` (docs/match.md): a match between two `ball engine`
# processes (no forfeit: this once found the engine refusing a position
# sent right after its bestdecision), its records (read back by ball
# replay), JSON and resumption from the records file; a forfeit with its
# reason for each mode of the misbehaving engine tests/engines/bad_engine.py
# (crash, exit, hang, garbage, illegal, silence, slow handshake, no
# readyok), each bounded by the margin; the SPRT stopping a match; openings; a clock;
# bad arguments; an engine's error line in the reason, cut at a word in
# the Site tag; a flood of stderr; what an engine leaves behind (setsid);
# the records file refused unless regular, and locked; a sparring player
# through examples/player_engine. Every match runs under timeout(1): none
# may hang.
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
BAD_PY=$(pwd)/tests/engines/bad_engine.py
BAD="$PY $BAD_PY"
GOOD="$BALL engine --searcher mcts"

# json FILE EXPR: a value of the JSON result
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

# ---- a sparring player served by examples/player_engine (docs/yardsticks.md):
# no forfeit, and the same games twice (its budget is in its name)
PE=$(pwd)/${PLAYER_ENGINE:-build/examples/player_engine}
if [ -x "$PE" ]; then
    for k in 1 2; do
        timeout 120 "$BALL" match --engine cmd="$PE alphabeta:threat=1,nodes=300" name=ab \
            --engine cmd="$GOOD" name=m --games 2 --playouts 100 --openings share/openings.txt \
            --rules turns=30 --records "$tmp/pe$k.rec" --json "$tmp/pe$k.json" \
            >"$tmp/pe.out" 2>"$tmp/pe.err" || fail "player_engine match: exit $? $(tail -3 "$tmp/pe.err")"
        [ "$(json "$tmp/pe$k.json" "d['ends']['forfeit']")" = 0 ] ||
            fail "player_engine match: a forfeit: $(cat "$tmp/pe.err")"
    done
    # (the Date tags aside: the two runs may fall on either side of midnight)
    grep -v '^\[Date ' "$tmp/pe1.rec" >"$tmp/pe1.txt"
    grep -v '^\[Date ' "$tmp/pe2.rec" >"$tmp/pe2.txt"
    [ -s "$tmp/pe1.txt" ] && cmp -s "$tmp/pe1.txt" "$tmp/pe2.txt" || fail "player_engine match: two runs differ"
else
    fail "$PE not built (make examples)"
fi

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
# (this tree's bad engines only: other checkouts may run this test at once)
if pgrep -f "$BAD_PY" >/dev/null 2>&1; then fail "bad engines left running: $(pgrep -af "$BAD_PY")"; fi

# ---- 200 MB of stderr in a move: read within the margin (the tail kept
# of it is a ring; a memmove per byte took 12 s of it, and a hang)
timeout 60 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD flood 200000000" name=bad \
    --games 2 --playouts 100 --margin 6000 >"$tmp/out" 2>"$tmp/err" ||
    fail "flood: exit $?"
grep -qF "forfeit DEF (bad): illegal decision 'A1-C3'" "$tmp/err" ||
    fail "flood: the decision read, not a hang: $(grep forfeit "$tmp/err")"

# ---- an engine's error line in the forfeit reason; a reason longer than
# a tag holds is cut at a word, with "...", the whole of it on stderr
timeout 60 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD refuse" name=bad \
    --games 2 --playouts 100 --records "$tmp/x.rec" >"$tmp/out" 2>"$tmp/err" || fail "refuse: exit $?"
full="forfeit DEF (bad): malformed answer 'bestdecision none' (it said: go: refusing on purpose, with an explanation long enough to pass the end of a tag in the records)"
grep -qF "game 1: $full" "$tmp/err" || fail "refuse: the whole reason on stderr: $(cat "$tmp/err")"
python3 - "$tmp/x.rec" "playouts 100; $full" <<'PY' || fail "refuse: the Site tag cut at a word"
import re, sys
full = sys.argv[2]
sites = re.findall(r'^\[Site "(.*)"\]$', open(sys.argv[1]).read(), re.M)
assert len(sites) == 2, sites
for site in sites:
    assert len(site.encode()) <= 127 and site.endswith("..."), site
    kept = site[:-3]
    if "forfeit ATK" in site:  # game 2: the bad engine plays ATK
        full = sys.argv[2].replace("forfeit DEF", "forfeit ATK")
    assert full.startswith(kept) and full[len(kept)] == " " and kept[-1] != " ", site
PY

# ---- what an engine leaves behind outside its process group (setsid) is
# ended with the match (the match is its subreaper)
tag="orphan-of-match-test-$$"
timeout 60 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD orphan $tag" name=bad \
    --games 2 --playouts 100 >"$tmp/out" 2>"$tmp/err" || fail "orphan: exit $? $(tail -2 "$tmp/err")"
sleep 0.3
if pgrep -f "$tag" >/dev/null 2>&1; then
    fail "orphan: a setsid grandchild of an engine outlived the match: $(pgrep -af "$tag")"
    pkill -f "$tag"
fi

# ---- the records file: a regular file (read back whole; /dev/zero, a
# FIFO hung the resume), and one match at a time (flock)
mkfifo "$tmp/fifo"
for r in /dev/zero /dev/full "$tmp/fifo"; do
    timeout 10 "$BALL" match --engine cmd=x --engine cmd=y --records "$r" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -qF -- "--records $r: not a regular file" "$tmp/err" ||
        fail "--records $r: exit $rc (2 expected, 124: it hung): $(cat "$tmp/err")"
done
"$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD hang" name=bad --games 2 \
    --margin 60000 --records "$tmp/lock.rec" >/dev/null 2>&1 &
holder=$!
sleep 1
timeout 20 "$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD hang" name=bad --games 2 \
    --margin 60000 --records "$tmp/lock.rec" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "in use by another ball match" "$tmp/err" ||
    fail "a second match on one records file: exit $rc (2 expected): $(cat "$tmp/err")"
kill -TERM $holder
wait $holder 2>/dev/null

# ---- a match ended by SIGTERM kills its engines (their process groups)
"$BALL" match --engine cmd="$GOOD" name=good --engine cmd="$BAD hang" name=bad --games 2 \
    --margin 60000 >/dev/null 2>&1 &
pid=$!
sleep 2
pgrep -f "$BAD_PY hang" >/dev/null 2>&1 || fail "SIGTERM: the hanging engine did not start"
kill -TERM $pid
wait $pid 2>/dev/null # (the shell would report "Terminated")
sleep 0.3
if pgrep -f "$BAD_PY hang" >/dev/null 2>&1; then
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
--engine cmd=x --engine cmd=y --nodes 5 --movetime 5|give only one of --nodes, --playouts, --movetime, --tc (got --nodes and --movetime)
--engine cmd=x --engine cmd=y --nodes 5 --playouts 5|(got --nodes and --playouts)
--engin cmd=x --engine cmd=y|unknown option '--engin'; did you mean '--engine'?
--engine cmd=x --engine cmd=y --game 4|unknown option '--game'; did you mean '--games'?
--engine cmd=x --engine cmd=y --tc 2000000000+200000000|--tc: the time and the increment are at most 86400000 ms (a day)
--engine cmd=x --engine cmd=y --tc 1000+86400001|at most 86400000 ms (a day)
--engine cmd=x --engine cmd=y --movetime 86400001|--movetime needs a number from 1 to 86400000
--engine cmd=x movetime=86400001 --engine cmd=y|movetime=86400001 needs a number from 1 to 86400000
--engine cmd=x --engine cmd=y --tc 10+x|--tc needs MS or MS+INC
--engine cmd=x --engine cmd=y --sprt elo0=5 elo1=1|elo0 must be below elo1
--engine cmd=x --engine cmd=y --sprt elo1=1|--sprt needs elo0=A and elo1=B
--engine cmd=x --engine cmd=y --rules zone=9|--rules:
--engine cmd=x --engine cmd=y --openings /nonexistent|--openings /nonexistent:
--engine cmd=x --engine cmd=y --bogus 1|unknown option '--bogus'
--engine cmd=x colour=red --engine cmd=y|expected cmd=CMD, name=NAME, option.X=V, nodes=N
--engine cmd=x nodes=5 playouts=6 --engine cmd=y|give only one of nodes=, playouts=, movetime= (got nodes= and playouts=)
--engine cmd=x movetime=0 --engine cmd=y|movetime=0 needs a number from 1
EOF2
timeout 20 "$BALL" match --engine cmd=x --engine cmd=y --openings /dev/zero >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "/dev/zero: line 1: longer than 4096 bytes, or a NUL byte in it" "$tmp/err" ||
    fail "--openings /dev/zero: exit $rc (2 expected; it read without end): $(cat "$tmp/err")"
printf '%s\n7/6 DEF\n' "$a" >"$tmp/badopen.txt"
"$BALL" match --engine cmd=x --engine cmd=y --openings "$tmp/badopen.txt" 2>"$tmp/err"
grep -q "badopen.txt: line 2: " "$tmp/err" || fail "bad opening: line number: $(cat "$tmp/err")"

echo "match_test: $failures failure(s)"
finish
