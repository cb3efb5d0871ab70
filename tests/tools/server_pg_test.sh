#!/bin/sh
# The game server as several processes on one PostgreSQL database
# (examples/server/storage_pg.py, docs/server.md "PostgreSQL and several
# processes"), run from the repository root by `make check`. Starts a
# PostgreSQL cluster of its own in the scratch directory (initdb, pg_ctl;
# a unix socket there, no TCP port; as the postgres user when run as root,
# since PostgreSQL refuses to run as root), then tests/server/test_server_pg.py
# starts two servers on it on free 127.0.0.1 ports: a game created on one
# is played with decisions sent to both in turn and watched on both (every
# decision seen on each, in order, none lost or duplicated); replays, the
# other side's decisions and a race for one seq refused across processes;
# kill -9 of one process mid-game, the game goes on through the other and
# after the restart; the records match what the clients saw. The cluster
# and the servers are stopped on every way out.
# Needs Debian's postgresql (15), python3-aiohttp and python3-psycopg2
# (scripts/deps.sh tests installs them) and the build's libball.so.
# run-tests: slow

# Skipped in the sanitizer runs, as tests/tools/server_test.sh is (Debian's
# python3 cannot load the instrumented library).
. tests/lib/instrumented.sh
skip_if_instrumented sanitizer "the server runs in Debian's python3, which cannot load it"

. tests/lib/shell-test.sh
B=${BALL_BUILD:-build}
lib=${LIBBALL_PATH:-$B/libball.so.1}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
python=/usr/bin/python3
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}

[ -f "$lib" ] || { echo "FAIL: $lib not built (make lib)"; exit 1; }
if ! [ -x "$python" ] || ! "$python" -c 'import aiohttp, psycopg2' 2>/dev/null; then
    skip "Debian's python3-aiohttp or python3-psycopg2 is not installed (sh scripts/deps.sh server, as root)"
    finish
fi
if ! [ -x "$pgbin/initdb" ] || ! [ -x "$pgbin/pg_ctl" ]; then
    skip "PostgreSQL 15 is not installed in $pgbin (sh scripts/deps.sh server, as root)"
    finish
fi

# PostgreSQL runs as the postgres user when we are root, as us otherwise
if [ "$(id -u)" = 0 ]; then
    as_pg() { runuser -u postgres -- "$@"; }
    chmod 711 "$tmp"
else
    as_pg() { "$@"; }
fi
data=$tmp/pg
mkdir "$data" "$tmp/sock" "$tmp/work"
[ "$(id -u)" = 0 ] && chown postgres "$data" "$tmp/sock"

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    if [ -s "$tmp/work/pids" ]; then
        while read -r pid; do
            kill -9 "$pid" 2>/dev/null
        done <"$tmp/work/pids"
    fi
    if [ -f "$data/postmaster.pid" ]; then
        as_pg "$pgbin/pg_ctl" -D "$data" -m immediate -w -t 20 stop >/dev/null 2>&1
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

if ! as_pg "$pgbin/initdb" -D "$data" -U ball -A trust -E UTF8 --no-locale >"$tmp/initdb.log" 2>&1; then
    fail "initdb"
    tail -20 "$tmp/initdb.log"
    finish
fi
# no TCP at all: a unix socket in the scratch directory
if ! as_pg "$pgbin/pg_ctl" -D "$data" -w -t 30 -l "$data/log" \
        -o "-c listen_addresses= -c unix_socket_directories=$tmp/sock -c port=5432 -c fsync=on" \
        start >"$tmp/pg_ctl.log" 2>&1; then
    fail "PostgreSQL did not start"
    cat "$tmp/pg_ctl.log"
    tail -20 "$data/log" 2>/dev/null
    finish
fi
dsn="postgresql://ball@/postgres?host=$tmp/sock&port=5432"

LIBBALL_PATH=$lib PYTHONDONTWRITEBYTECODE=1 timeout 120 "$python" tests/server/test_server_pg.py \
    "$tmp/work" "$dsn" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
if [ "$rc" -ne 0 ]; then
    fail "tests/server/test_server_pg.py: exit $rc"
    tail -40 "$tmp/err"
    for log in "$tmp"/work/*.log; do
        [ -s "$log" ] && { echo "--- $log"; tail -20 "$log"; }
    done
fi
grep -q '^game: ok' "$tmp/out" || fail "the two-process game did not run to its end"
grep -q '^fault: ok' "$tmp/out" || fail "the kill -9 part did not run to its end"
grep -q '^bots: ok' "$tmp/out" || fail "the bot game on two processes did not run to its end"
finish
