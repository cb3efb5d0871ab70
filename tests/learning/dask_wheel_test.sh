#!/bin/sh
# Self-play on a running Dask scheduler whose worker has no libball
# (docs/scale.md, "Deployment"; issue 49): a scheduler and one worker
# started here on 127.0.0.1, the worker in a venv of Debian's Python with
# Debian's Dask (python3-distributed) and without libball. Without
# --wheel the driver stops with the documented message (the worker cannot
# import libball: install it there or give --wheel), not a traceback; with
# --wheel the plugin installs the wheel on the worker (it was defined in
# libball.selfplay, which such a worker could not import: it goes by value
# now, libball/dask_worker.py) and the games equal those of one process.
# Also: an unreachable --scheduler fails before the output folder is made,
# and the driver's own LocalCluster listens on 127.0.0.1 only, its HTTP
# servers too (they listened on 0.0.0.0: Dask's default dashboard address).
# The wheel is built by the package's own build backend (it compiles the
# library: about half a minute). Bounded: each step under timeout, the
# processes started here killed by their process group on exit. Run from
# the repository root after `make`.
# Run alone (binds ports on 127.0.0.1, starts and kills processes) and not
# in the quick subset (docs/testing.md):
# run-tests: serial slow

. tests/lib/instrumented.sh
skip_if_instrumented any "the checks load the library from Python"
. tests/lib/shell-test.sh

PY=/usr/bin/python3
root=$(pwd)
LIBBALL_PATH=${LIBBALL_PATH:-build/libball.so.1}
case $LIBBALL_PATH in /*) ;; *) LIBBALL_PATH=$root/$LIBBALL_PATH ;; esac
[ -f "$LIBBALL_PATH" ] || { echo "FAIL: $LIBBALL_PATH not built (run make)"; exit 1; }
if ! sh scripts/deps.sh py=distributed:python3-distributed py=ensurepip:python3-venv \
    /usr/include/python3*/Python.h:python3-dev ss:iproute2 >"$tmp/deps.out" 2>&1; then
    cat "$tmp/deps.out"
    echo "FAIL: Dask (python3-distributed), python3-venv, python3-dev or ss (iproute2) missing and not installable"
    exit 1
fi
pgroups=""
cleanup() {
    for g in $pgroups; do kill -s KILL -- "-$g" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
start=$(date +%s)
mkdir -p "$tmp/empty" "$tmp/dist"

# The driver: Debian's Python with this checkout's package.
driver() { # OUT ARGS...: runs the driver in $tmp/empty; stdout, stderr, status in $tmp/OUT.*
    name=$1
    shift
    (cd "$tmp/empty" && env PYTHONPATH="$root/bindings/python" LIBBALL_PATH="$LIBBALL_PATH" \
        DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s timeout 120 "$PY" -m libball.selfplay \
        --no-progress "$@") >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.status"
}
status() { cat "$tmp/$1.status"; }

# ---- an unreachable scheduler: refused before the folder is made
driver unreachable --out "$tmp/u" --games 2 --no-shards --scheduler tcp://127.0.0.1:9
[ "$(status unreachable)" = 1 ] || { cat "$tmp/unreachable.err"; fail "unreachable scheduler: exit $(status unreachable), expected 1"; }
grep -q 'cannot reach the scheduler tcp://127.0.0.1:9' "$tmp/unreachable.err" ||
    { cat "$tmp/unreachable.err"; fail "unreachable scheduler: no 'cannot reach the scheduler' message"; }
[ -e "$tmp/u" ] && fail "unreachable scheduler: the folder was made"

# ---- the driver's LocalCluster: every listening socket of its processes
# on 127.0.0.1 (ss -ltnp)
cat >"$tmp/ports.py" <<'PY'
import os, subprocess, sys
from libball import selfplay

def main():
    client, cluster = selfplay._connect(2, None, None, 0)
    pids = {os.getpid(), *client.run(os.getpid).values()}
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout
    mine = [ln for ln in out.splitlines() if any("pid=%d," % p in ln for p in pids)]
    client.close()
    cluster.close()
    bad = [ln for ln in mine if " 127.0.0.1:" not in ln]
    print("\n".join(bad) if bad else "%d listening sockets, all on 127.0.0.1" % len(mine))
    return 1 if bad or not mine else 0

if __name__ == "__main__":
    sys.exit(main())
PY
if command -v ss >/dev/null 2>&1; then
    (cd "$tmp/empty" && env PYTHONPATH="$root/bindings/python" LIBBALL_PATH="$LIBBALL_PATH" \
        timeout 60 "$PY" "$tmp/ports.py") >"$tmp/ports.out" 2>&1 ||
        { cat "$tmp/ports.out"; fail "the LocalCluster listens beyond 127.0.0.1"; }
else
    fail "no ss (iproute2) to list the LocalCluster's sockets"
fi

# ---- the wheel, and a worker's venv without libball
if ! (cd bindings/python && timeout 300 "$PY" -B -c '
import sys
sys.path.insert(0, "build_backend")
import libball_build
print(libball_build.build_wheel(sys.argv[1]))' "$tmp/dist") >"$tmp/wheel.log" 2>&1; then
    cat "$tmp/wheel.log"
    echo "FAIL: building the wheel"
    exit 1
fi
wheel=$(ls "$tmp"/dist/libball-*.whl)
"$PY" -m venv --system-site-packages "$tmp/wvenv" >"$tmp/venv.log" 2>&1 ||
    { cat "$tmp/venv.log"; echo "FAIL: python3 -m venv"; exit 1; }
if (cd "$tmp/empty" && env -u PYTHONPATH -u LIBBALL_PATH "$tmp/wvenv/bin/python" -c 'import libball') 2>/dev/null; then
    echo "FAIL: the worker's venv has libball before the test (python3-libball installed?)"
    exit 1
fi

# ---- a scheduler and a worker on 127.0.0.1, each in a process group
(cd "$tmp/empty" && exec setsid timeout 240 "$PY" -m distributed.cli.dask_scheduler --host 127.0.0.1 \
    --port 0 --no-dashboard --scheduler-file "$tmp/scheduler.json") >"$tmp/scheduler.log" 2>&1 &
pgroups="$pgroups $!"
i=0
while [ ! -s "$tmp/scheduler.json" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
address=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["address"])' "$tmp/scheduler.json") ||
    { cat "$tmp/scheduler.log"; echo "FAIL: the scheduler did not start"; exit 1; }
case $address in tcp://127.0.0.1:*) ;; *) echo "FAIL: the scheduler is at $address, not 127.0.0.1"; exit 1 ;; esac
(cd "$tmp/empty" && exec env -u PYTHONPATH -u LIBBALL_PATH setsid timeout 240 "$tmp/wvenv/bin/python" \
    -m distributed.cli.dask_worker "$address" --host 127.0.0.1 --nworkers 1 --nthreads 1 \
    --no-dashboard --local-directory "$tmp/wdir") >"$tmp/worker.log" 2>&1 &
pgroups="$pgroups $!"
i=0
until "$PY" -c 'import sys; from distributed import Client
with Client(sys.argv[1], timeout=5) as c: sys.exit(0 if c.nthreads() else 1)' "$address" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 60 ] || { cat "$tmp/worker.log"; echo "FAIL: the worker did not join"; exit 1; }
    sleep 0.5
done

# ---- without --wheel: the documented message, no traceback
driver nowheel --out "$tmp/a" --games 4 --chunk 2 --no-shards --turn-limit 20 --scheduler "$address"
[ "$(status nowheel)" = 1 ] || { cat "$tmp/nowheel.err"; fail "without --wheel: exit $(status nowheel), expected 1"; }
grep -q "workers that do not match this driver" "$tmp/nowheel.err" &&
    grep -q "cannot import libball (ModuleNotFoundError: No module named 'libball'.*give --wheel" "$tmp/nowheel.err" ||
    { cat "$tmp/nowheel.err"; fail "without --wheel: not the documented message"; }
grep -q Traceback "$tmp/nowheel.err" && { cat "$tmp/nowheel.err"; fail "without --wheel: a traceback"; }

# ---- with --wheel: installed on the worker, the games of one process
driver wheel --out "$tmp/b" --games 4 --chunk 2 --no-shards --turn-limit 20 --scheduler "$address" --wheel "$wheel"
[ "$(status wheel)" = 0 ] || { cat "$tmp/wheel.err" "$tmp/worker.log"; fail "with --wheel: exit $(status wheel)"; }
driver local --out "$tmp/c" --games 4 --chunk 2 --no-shards --turn-limit 20 --workers 0
digest() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["records_sha256"])' "$tmp/$1.out"; }
[ "$(digest wheel)" = "$(digest local)" ] && [ -n "$(digest local)" ] ||
    fail "with --wheel the records differ from one process's: $(digest wheel) against $(digest local)"
(cd "$tmp/empty" && env -u PYTHONPATH -u LIBBALL_PATH "$tmp/wvenv/bin/python" -c 'import libball') 2>/dev/null ||
    fail "the worker's venv has no libball after --wheel"
# the same wheel again: the plugin is there, the run as before
driver again --out "$tmp/b" --games 6 --chunk 2 --no-shards --turn-limit 20 --scheduler "$address" --wheel "$wheel"
[ "$(status again)" = 0 ] || { cat "$tmp/again.err"; fail "--wheel a second time: exit $(status again)"; }

if [ "$failures" -ne 0 ]; then
    echo "dask_wheel_test: $failures failure(s)"
    exit 1
fi
echo "dask_wheel_test: all passed ($(($(date +%s) - start)) s)"
