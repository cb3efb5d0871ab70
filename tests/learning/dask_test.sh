#!/bin/sh
# Checks self-play and perft at scale (python3 -m libball.selfplay,
# python3 -m libball.perft; docs/scale.md, issue 27) on a LocalCluster of 2
# worker processes bound to 127.0.0.1: the games of one process equal the
# C example's (`selfplay --record`, byte for byte) and `ball replay` reads
# them; 2 workers write the same record and shard files as one process; a
# worker killed mid-run, and a driver killed mid-run then run again, give
# the same files (no game twice); a second driver on the folder, other
# parameters than the folder's, and every bad parameter are refused before
# anything starts (exit 2); the shards have the documented dtypes and
# shapes and their rows equal the library's observation, legal mask and
# action index of the replayed positions; a larger --games continues a
# run; distributed perft split at depth 3 equals `ball perft`. The checks
# are in tests/selfplay_scale.py.
# The driver and the workers run a venv's Python, outside the repository,
# without PYTHONPATH: the venv finds the package of bindings/python by a
# .pth file (installing it with pip would compile the library again, 40 s;
# tests/packaging/install_test.sh does that), and the library is $LIBBALL_PATH. Dask
# comes from Debian (python3-distributed), installed by scripts/deps.sh
# when root; a missing dependency is a failure, not a skip. Bounded in
# time: the checks under `timeout 150` (about 60 s on a busy 2-core
# machine). Run from the repository root after `make`.
# Run alone (binds ports on 127.0.0.1, kills processes it started, has a
# time bound) and not in the quick subset (docs/testing.md):
# run-tests: serial slow

# Skipped in the sanitizer and coverage runs of the suite (make
# check-asan, make coverage): Python cannot load an instrumented library
# without its runtime preloaded, and the checks test the Python layer.
. tests/lib/instrumented.sh
skip_if_instrumented any "the checks load the library from Python"

BALL=${BALL:-build/bin/ball}
SELFPLAY=${SELFPLAY:-build/examples/selfplay}
LIBBALL_PATH=${LIBBALL_PATH:-build/libball.so.1}
. tests/lib/shell-test.sh

PY=/usr/bin/python3
root=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$root/$1" ;; esac; }
LIBBALL_PATH=$(abs "$LIBBALL_PATH")
BALL=$(abs "$BALL")
SELFPLAY=$(abs "$SELFPLAY")
export LIBBALL_PATH

if ! sh scripts/deps.sh py=distributed:python3-distributed py=numpy:python3-numpy \
    py=ensurepip:python3-venv >"$tmp/deps.out" 2>&1; then
    echo "FAIL: Dask (python3-distributed), numpy or python3-venv missing and not installable:"
    cat "$tmp/deps.out"
    exit 1
fi
for f in "$LIBBALL_PATH" "$BALL" "$SELFPLAY"; do
    [ -f "$f" ] || { echo "FAIL: $f not built (run make)"; exit 1; }
done

# The workers' Python: a venv with Debian's Dask and numpy (system site
# packages) and the package of this checkout (a .pth file).
"$PY" -m venv --without-pip --system-site-packages "$tmp/venv" >"$tmp/venv.out" 2>&1 ||
    { echo "FAIL: python3 -m venv: $(cat "$tmp/venv.out")"; exit 1; }
site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$root/bindings/python" >"$site/libball-checkout.pth"
where=$(cd "$tmp" && env -u PYTHONPATH "$tmp/venv/bin/python" -c 'import libball.selfplay, sys; print(sys.prefix)')
[ "$where" = "$tmp/venv" ] || fail "the venv's Python is not in the venv: $where"

mkdir "$tmp/run"
start=$(date +%s)
(cd "$tmp" && env -u PYTHONPATH timeout 150 "$tmp/venv/bin/python" -u \
    "$root/tests/selfplay_scale.py" "$tmp/run" "$BALL" "$SELFPLAY") >"$tmp/checks.out" 2>&1
st=$?
cat "$tmp/checks.out"
[ "$st" -eq 0 ] || fail "tests/selfplay_scale.py exited $st"
elapsed=$(($(date +%s) - start))

if [ "$failures" -ne 0 ]; then
    echo "dask_test: $failures failure(s)"
    exit 1
fi
echo "dask_test: all passed ($elapsed s)"
