#!/bin/sh
# The lobby of the game server in a browser (issue 48; docs/server.md
# "The lobby"), run from the repository root by `make check`: `make
# check-server-lobby` installs what is missing as `make check-web-online`
# does, builds the page (build/web) and libball, then runs
# tests/server/lobby.test.mjs: the server with --web build/web on a free
# 127.0.0.1 port; chromium contexts create a game from the lobby's form,
# join its open seat, create a game against the computer, watch from the
# lobby, resign and play the rematch (colours swapped) offered on the
# board page's bar; screenshots in build/screenshots/lobby-*.png. Exits
# non-zero on any failure.
#
# Skipped where tests/tools/online_test.sh is (the sanitizer and coverage runs).
# run-tests: serial slow
. tests/lib/instrumented.sh
skip_if_instrumented any "the page runs the WebAssembly build, the server Debian's python3"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM
start=$(date +%s)
timeout 900 "${MAKE:-make}" --no-print-directory check-server-lobby >"$out" 2>&1
st=$?
cat "$out"
if [ "$st" -ne 0 ]; then
    echo "server_lobby_test: FAILED (make check-server-lobby)"
    exit 1
fi
grep -q '^lobby: ok' "$out" || { echo "server_lobby_test: FAILED (the lobby test did not run to its end)"; exit 1; }
echo "server_lobby_test: passed in $(($(date +%s) - start)) s"
