#!/bin/sh
# The web tests (issue 10; docs/web.md), run from the repository root by
# `make check`. `make check-web` installs what is missing (emscripten,
# chromium and node through scripts/deps.sh, as root; playwright-core with
# `npm ci` from tests/web/package-lock.json), builds libball with
# emscripten (build/wasm), the page (build/web), the native tool and the
# native selfplay (the reference for the MCTS decisions), then runs the
# JavaScript binding's node tests (bindings/js/test) and the browser test
# (tests/web/browser.test.mjs, screenshots in build/web-test). Exits
# non-zero on any failure.
#
# Skipped in the sanitizer and coverage runs of the suite (make
# check-asan, make coverage): they instrument the native library, which
# the WebAssembly build does not use, so the web test would only run a
# second time.
# Run alone (installs packages with apt, runs chromium and node under time
# bounds) and not in the quick subset (docs/testing.md):
# run-tests: serial slow
. tests/lib/instrumented.sh
skip_if_instrumented any "the WebAssembly build does not use it"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM
start=$(date +%s)
timeout 900 "${MAKE:-make}" --no-print-directory check-web >"$out" 2>&1
st=$?
cat "$out"
if [ "$st" -ne 0 ]; then
    echo "web_test: FAILED (make check-web)"
    exit 1
fi
# node's test runner passes a test it skips (a tool, npm or --expose-gc
# missing) and counts it: "# skipped N" after each run.
skipped=$(sed -n 's/^# skipped \([0-9][0-9]*\)$/\1/p' "$out" | awk '{ n += $1 } END { print n + 0 }')
if [ "$skipped" -gt 0 ]; then
    echo "SKIP: $skipped node test(s) skipped (their reasons: the '# SKIP' lines above)"
    exit 77
fi
echo "web_test: passed in $(($(date +%s) - start)) s"
