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
case " ${CC:-} ${CFLAGS:-} " in
    *-fsanitize=*|*--coverage*)
        echo "web_test: skipped in a sanitizer or coverage build (the WebAssembly build does not use it)"
        exit 0
        ;;
esac
start=$(date +%s)
if ! timeout 900 "${MAKE:-make}" --no-print-directory check-web; then
    echo "web_test: FAILED (make check-web)"
    exit 1
fi
echo "web_test: passed in $(($(date +%s) - start)) s"
