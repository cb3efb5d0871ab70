# Sourced by the shell tests (tests/*.sh, run from the repository root):
# a scratch directory $tmp removed on exit, and fail() counting failures
# in $failures for the test's own summary line.
failures=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
