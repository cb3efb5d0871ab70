#!/bin/sh
# The page on the game server (issue 31; docs/server.md "Playing from the
# page"), run from the repository root by `make check`: `make
# check-web-online` installs what is missing as `make check-web` does (and
# python3-aiohttp), builds the page (build/web) and libball, then runs
# tests/server/test_web.py (the server's --web files: types, index.html,
# no path out of the directory) and tests/web/online.test.mjs (the server
# with --web build/web on a free 127.0.0.1 port; two chromium contexts
# play a whole game through the invitation links, a third watches, one
# player reloads in the middle of a turn and goes on; screenshots in
# build/screenshots/online-*.png). Exits non-zero on any failure.
#
# Skipped where tests/bindings/web_test.sh is (the sanitizer and coverage runs:
# the page runs the WebAssembly build, and the server runs in Debian's
# python3, which cannot load an instrumented library).
# Run alone (chromium, a server and node under time bounds) and not in
# the quick subset (docs/testing.md):
# run-tests: serial slow
. tests/lib/instrumented.sh
skip_if_instrumented any "the page runs the WebAssembly build, the server Debian's python3"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM
start=$(date +%s)
timeout 900 "${MAKE:-make}" --no-print-directory check-web-online >"$out" 2>&1
st=$?
cat "$out"
if [ "$st" -ne 0 ]; then
    echo "online_test: FAILED (make check-web-online)"
    exit 1
fi
grep -q '^web: ok$' "$out" || { echo "online_test: FAILED (tests/server/test_web.py did not run to its end)"; exit 1; }
grep -q '^online: [0-9]* decisions' "$out" || { echo "online_test: FAILED (the online game did not run to its end)"; exit 1; }
skipped=$(sed -n 's/^# skipped \([0-9][0-9]*\)$/\1/p' "$out" | awk '{ n += $1 } END { print n + 0 }')
if [ "$skipped" -gt 0 ]; then
    echo "SKIP: $skipped node test(s) skipped"
    exit 77
fi
echo "online_test: passed in $(($(date +%s) - start)) s"
