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

LIBBALL_PATH=$lib PYTHONDONTWRITEBYTECODE=1 timeout 240 "$python" tests/server/test_server.py "$tmp" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
if [ "$rc" -ne 0 ]; then
    fail "tests/server/test_server.py: exit $rc"
    tail -40 "$tmp/err"
    for log in "$tmp"/*.log; do
        [ -s "$log" ] && { echo "--- $log"; tail -20 "$log"; }
    done
fi
grep -q '^fault: ok' "$tmp/out" || fail "the fault part did not run to its end"
finish
