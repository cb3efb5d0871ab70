#!/bin/sh
# Checks the Dask scale-out of examples/dask (issue 13, docs/scale.md): a
# LocalCluster of 2 worker processes bound to 127.0.0.1 runs distributed
# self-play (each game with its own seed; MCTS against random) and a
# distributed perft (divided at depth 1 and at depth 2), and the results
# must equal the same jobs on one process: the same summary and game
# records, the same perft count, which is also checked against `ball perft`.
# The workers import libball from a venv where it was installed with pip
# (they run outside the repository, with no PYTHONPATH), and games travel
# between processes as BPN + rules text. Dask comes from Debian
# (python3-distributed), installed by scripts/deps.sh when root; nothing is
# skipped: a missing dependency is a failure. Bounded in time: each of the
# two jobs under `timeout 40` (the jobs take about 15 s on an idle 2-core
# machine), and their total must stay under 90 s. Run from the repository
# root after `make`.
# Run alone (may install packages with apt; its jobs have time bounds) and
# not in the quick subset (docs/testing.md):
# run-tests: serial slow

# Skipped in the sanitizer and coverage runs of the suite (make
# check-asan, make coverage): pip builds the library anew with plain cc,
# so those runs would not test their own build, only run this again.
case " ${CC:-} ${CFLAGS:-} " in
    *-fsanitize=*|*--coverage*)
        echo "SKIP: sanitizer or coverage build (pip builds its own library)"
        exit 77
        ;;
esac

BALL=${BALL:-build/bin/ball}
LIBBALL_PATH=${LIBBALL_PATH:-build/libball.so.1}
. tests/lib/shell-test.sh

PY=/usr/bin/python3
root=$(pwd)
case $LIBBALL_PATH in /*) ;; *) LIBBALL_PATH=$root/$LIBBALL_PATH ;; esac
export LIBBALL_PATH

if ! sh scripts/deps.sh py=distributed:python3-distributed py=ensurepip:python3-venv >"$tmp/deps.out" 2>&1; then
    echo "FAIL: Dask (python3-distributed) or python3-venv missing and not installable:"
    cat "$tmp/deps.out"
    exit 1
fi
if [ ! -f "$LIBBALL_PATH" ] || [ ! -x "$BALL" ]; then
    echo "FAIL: $LIBBALL_PATH or $BALL not built"
    exit 1
fi

# The workers' Python: a venv with Debian's Dask (system site packages) and
# libball installed from bindings/python, offline (bindings/python/README.md).
"$PY" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.out" 2>&1 ||
    { echo "FAIL: python3 -m venv: $(cat "$tmp/venv.out")"; exit 1; }
"$tmp/venv/bin/pip" install --no-index --no-build-isolation -q "$root/bindings/python" \
    >"$tmp/pip.out" 2>&1 || { echo "FAIL: pip install ./bindings/python: $(cat "$tmp/pip.out")"; exit 1; }

# run NAME ARGS...: scale.py from outside the repository, at most 40 s.
run() {
    name=$1
    shift
    (cd "$tmp" && env -u PYTHONPATH timeout 40 "$tmp/venv/bin/python" \
        "$root/examples/dask/scale.py" --workers 2 "$@") >"$tmp/$name.json" 2>"$tmp/$name.err"
    st=$?
    [ "$st" -eq 0 ] || fail "$name: scale.py exited $st: $(tail -n 5 "$tmp/$name.err")"
}
# field NAME KEY: a top-level value of a job's JSON.
field() {
    "$PY" -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2]); print(json.dumps(v))' \
        "$tmp/$1.json" "$2" 2>/dev/null
}

start=$(date +%s)

# ---- self-play: 8 games, MCTS (200 playouts) as ATK against random DEF,
# turn limit 16, seeds 101-108, one game a task
run selfplay selfplay --games 8 --seed 100 --atk mcts:200 --def random --rules "turns=16" --check
[ "$(field selfplay identical)" = true ] || fail "selfplay: summary differs from one process"
[ "$(field selfplay replayed_ok)" = true ] || fail "selfplay: a returned record does not replay to its final BPN"
[ "$(field selfplay n_workers)" = 2 ] || fail "selfplay: not 2 workers: $(field selfplay n_workers)"
games=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["games"])' "$tmp/selfplay.json" 2>/dev/null)
[ "$games" = 8 ] || fail "selfplay: $games games gathered, expected 8"
case $(field selfplay worker_libball) in
    *"$tmp/venv/"*) ;;
    *) fail "selfplay: the workers did not import the installed package: $(field selfplay worker_libball)" ;;
esac
case $(field selfplay scheduler) in
    *'tcp://127.0.0.1:'*) ;;
    *) fail "selfplay: scheduler not on 127.0.0.1: $(field selfplay scheduler)" ;;
esac

# ---- perft 4 from the start, divided at depth 1 and at depth 2 (one
# cluster, one job after the other)
expected=$("$BALL" perft 4 | tail -n 1 | tr -dc 0-9)
run perft perft 4 --split 1,2 --check
[ "$(field perft identical)" = true ] || fail "perft: differs from one process"
[ "$(field perft count)" = "$expected" ] ||
    fail "perft: $(field perft count) (the splits: $(field perft splits)), ball perft 4 says $expected"
tasks=$("$PY" -c 'import json, sys; s = json.load(open(sys.argv[1]))["splits"]; print(s["1"]["subtrees"], s["2"]["subtrees"] > 55, s["1"]["tasks"], 1 < s["2"]["tasks"] <= 200)' "$tmp/perft.json" 2>/dev/null)
[ "$tasks" = "55 True 55 True" ] || fail "perft: expected 55 subtrees at depth 1 and more at depth 2, in 55 and at most 200 tasks, got '$tasks'"

elapsed=$(($(date +%s) - start))
[ "$elapsed" -lt 90 ] || fail "the Dask jobs took $elapsed s (bound: 90 s)"

if [ "$failures" -ne 0 ]; then
    echo "dask_test: $failures failure(s)"
    exit 1
fi
echo "dask_test: all passed ($elapsed s)"
