# Sourced by the shell tests (tests/*/*_test.sh, run from the repository root):
# a scratch directory $tmp removed on exit, fail() counting failures in
# $failures for the test's own summary line, and skip() for a part that
# cannot run here.
failures=0
skips=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# skip REASON: a part of the test did not run (a tool is missing). The
# test goes on with the rest; finish then exits 77, skipped, unless a
# check failed. scripts/run-tests.sh shows the "SKIP: REASON" lines.
skip() {
    echo "SKIP: $*"
    skips=$((skips + 1))
}

# finish: the test's exit status: 1 when a check failed, else 77 when a
# part was skipped, else 0.
finish() {
    [ "$failures" -eq 0 ] || exit 1
    [ "$skips" -eq 0 ] || exit 77
    exit 0
}
