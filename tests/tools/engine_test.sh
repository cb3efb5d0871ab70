#!/bin/sh
# Tests of `ball engine`, BEP (docs/protocol.md): every command and error
# path, isready and stop during a search, the end of input, and a session
# replayed from its --log file giving the same answers
# (tests/engines/protocol_test.py drives the engine as a child process,
# each read with a timeout).
# run-tests: serial

BALL=${BALL:-build/bin/ball}
. tests/lib/shell-test.sh

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (make check installs it)"
    exit 77
fi
[ -x "$BALL" ] || { echo "FAIL: $BALL not built (make tool)"; exit 1; }
PYTHONDONTWRITEBYTECODE=1 timeout 300 python3 tests/engines/protocol_test.py "$BALL" ||
    fail "tests/engines/protocol_test.py"
# the usage line of the command table
"$BALL" --help | grep -q '^  engine \[--searcher search|mcts\] \[--net FILE\] \[--log FILE\]' || fail "ball --help lists engine"
echo "engine_test: $failures failure(s)"
finish
