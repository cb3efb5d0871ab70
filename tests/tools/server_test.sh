#!/bin/sh
# Tests of the game server (examples/server, docs/server.md), run from the
# repository root by `make check`: tests/server/test_server.py starts the
# server on free 127.0.0.1 ports (port 0) with its databases in a scratch
# directory and plays against it with aiohttp clients: a whole game between
# two seats with a spectator (a plain and a card-mode ruleset, the record
# read back by libball), resume, resignation, draw offers, the clock, the
# searcher's seat and the lobby; attacks (forged and swapped tokens, the
# other side's decisions, replays, malformed, oversized and binary
# messages, rate, origin, clients that never say hello or never read); a
# seeded fuzz of the message parser (20000 messages); kill -9 in the middle
# of 24 games, restart, every game resumes at its last acknowledged event.
# Then tests/server/test_lobby.py (the lobby's API, rematches, the
# structured log, connections closed by the hundred without a task left
# pending) and tests/server/test_bots.py (no null turn from the bot at any
# strength the lobby offers; issue 48's attack replayed: bot games past
# the caps refused with 4xx, memory under the budget, a person's bot
# answering in time).
# Needs Debian's python3 with python3-aiohttp (scripts/deps.sh tests
# installs it) and the build's libball.so ($LIBBALL_PATH).
# run-tests: slow

# Skipped in the sanitizer runs of the suite (make check-asan): Debian's
# python3, the one with python3-aiohttp, cannot load an instrumented
# library without the sanitizer's runtime preloaded, and the test checks
# the server, not the library's memory (the rest of the suite does that).
. tests/lib/instrumented.sh
skip_if_instrumented sanitizer "the server runs in Debian's python3, which cannot load it"

. tests/lib/shell-test.sh
B=${BALL_BUILD:-build}
lib=${LIBBALL_PATH:-$B/libball.so.1}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
python=/usr/bin/python3

[ -f "$lib" ] || { echo "FAIL: $lib not built (make lib)"; exit 1; }
if ! [ -x "$python" ] || ! "$python" -c 'import aiohttp' 2>/dev/null; then
    skip "Debian's python3-aiohttp is not installed (sh scripts/deps.sh server, as root)"
    finish
fi

# run FILE LAST: tests/server/FILE in a scratch directory of its own; LAST
# is the line its last part prints when it ran to its end
run() {
    dir=$tmp/${1%.py}
    mkdir -p "$dir"
    LIBBALL_PATH=$lib PYTHONDONTWRITEBYTECODE=1 timeout 240 "$python" "tests/server/$1" "$dir" \
        >"$dir/out" 2>"$dir/err"
    rc=$?
    cat "$dir/out"
    if [ "$rc" -ne 0 ]; then
        fail "tests/server/$1: exit $rc"
        tail -40 "$dir/err"
        for log in "$dir"/*.log; do
            [ -s "$log" ] && { echo "--- $log"; tail -20 "$log"; }
        done
    fi
    grep -q "^$2: ok" "$dir/out" || fail "tests/server/$1 did not run to its end ($2)"
}

run test_server.py fault
# the lobby API, rematches, the structured log, connections closed; the
# bots: no null turn at any strength, the attack of issue 48 replayed
run test_lobby.py leak
run test_bots.py attack
finish
