#!/bin/sh
# The reliability gates of issue 6, for .ci/run after `make check` (which
# already replays the fuzz corpora through tests/fuzz_replay_test.sh) and
# `make docs`:
#
#   make abi-check       exported functions unchanged against abi/libball.abi
#   make check-valgrind  the Check programs under memcheck: no error, no leak
#   make check-asan      the whole suite under ASan + UBSan
#
# Each target installs what it needs. Prints how long each one took and
# stops at the first failure. Optional, off by default (.ci/run has a
# 20-minute budget on 2 cores):
#   CI_RELIABILITY_COVERAGE=1        also `make coverage`, failing below
#                                    95% of lines or 90% of branches (~1 min)
#   CI_RELIABILITY_FUZZ_SECONDS=N    also run each libFuzzer target N seconds
set -e
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}

step() {
    start=$(date +%s)
    echo "== ci-reliability: $*"
    if "$@"; then
        echo "== ci-reliability: '$*' passed in $(($(date +%s) - start)) s"
    else
        st=$?
        echo "== ci-reliability: '$*' FAILED (exit $st) after $(($(date +%s) - start)) s"
        exit "$st"
    fi
}

total_start=$(date +%s)
step $MAKE --no-print-directory abi-check
step $MAKE --no-print-directory check-valgrind
step $MAKE --no-print-directory check-asan
if [ "${CI_RELIABILITY_COVERAGE:-0}" = 1 ]; then
    step env COVERAGE_MIN_LINES=95 COVERAGE_MIN_BRANCHES=90 $MAKE --no-print-directory coverage
fi
if [ "${CI_RELIABILITY_FUZZ_SECONDS:-0}" -gt 0 ]; then
    for t in bpn action_text actions; do
        step $MAKE --no-print-directory fuzz-run FUZZ_TARGET=$t FUZZ_SECONDS="$CI_RELIABILITY_FUZZ_SECONDS"
    done
fi
echo "== ci-reliability: all gates passed in $(($(date +%s) - total_start)) s"
