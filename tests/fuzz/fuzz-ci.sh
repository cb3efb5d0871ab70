#!/bin/sh
# Bounded fuzzing for CI (`make fuzz-ci`): each libFuzzer target of
# BUILD/fuzz/ runs SECONDS seconds from its committed corpus
# (tests/fuzz/corpus/TARGET), JOBS targets at a time. Any crash, sanitizer
# report, leak, timeout or out-of-memory fails; its input is minimised
# (at most 60 s) next to the log.
#
#   sh tests/fuzz/fuzz-ci.sh BUILD SECONDS JOBS TARGET...
#
# Per target, in BUILD/fuzz-ci/TARGET/:
#   log             libFuzzer's output
#   new/            the inputs it found (libFuzzer's first corpus folder)
#   merged/         the committed corpus plus those of new/ that add
#                   coverage (libFuzzer -merge=1, which keeps the smaller
#                   of two inputs with the same features)
#   to-commit/      merged/ minus the committed corpus: what is worth
#                   adding to tests/fuzz/corpus/TARGET/ (nothing is
#                   committed automatically; see tests/fuzz/README.md)
#   artifacts/      crash-*, leak-*, timeout-*, oom-* inputs;
#                   minimized-* their minimised forms
# FUZZ_CI_ARGS adds libFuzzer flags to every run; FUZZ_CI_ARGS_TARGET to
# one target's.
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 BUILD SECONDS JOBS TARGET..." >&2
    exit 2
fi
build=$1
seconds=$2
jobs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/corpus

# One target; prints one summary line, exits non-zero on a finding.
run_one() {
    t=$1
    bin=$build/fuzz/fuzz_$t
    dir=$build/fuzz-ci/$t
    rm -rf "$dir"
    mkdir -p "$dir/new" "$dir/merged" "$dir/to-commit" "$dir/artifacts"
    eval "extra=\${FUZZ_CI_ARGS_$t:-}"
    # shellcheck disable=SC2086 # flags are words
    "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -print_final_stats=1 \
        -dict="$here/ball.dict" -artifact_prefix="$dir/artifacts/" \
        ${FUZZ_CI_ARGS:-} $extra "$dir/new" "$corpus/$t" >"$dir/log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")
    found=$(ls "$dir/new" | wc -l)
    if [ $rc -ne 0 ] || ls "$dir/artifacts" | grep -q .; then
        echo "fuzz-ci: $t: FAILED (libFuzzer exit $rc); log $dir/log"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|\*\*\* fuzz check failed|    (position|note|action):)' "$dir/log" | head -n 12
        for a in "$dir"/artifacts/*; do
            [ -f "$a" ] || continue
            m=$dir/artifacts/minimized-$(basename "$a")
            "$bin" -minimize_crash=1 -max_total_time=60 -runs=100000 -exact_artifact_path="$m" "$a" \
                >"$a.minimize.log" 2>&1
            [ -f "$m" ] || cp "$a" "$m"
            echo "fuzz-ci: $t: input $a (minimised: $m, $(wc -c <"$m") bytes);" \
                 "replay with $build/fuzz-replay/fuzz_$t $m"
        done
        return 1
    fi
    # Keep what adds coverage to the committed corpus.
    cp "$corpus/$t"/* "$dir/merged/" 2>/dev/null
    "$bin" -merge=1 -timeout=30 -rss_limit_mb=2560 $extra "$dir/merged" "$dir/new" >"$dir/merge.log" 2>&1 ||
        { echo "fuzz-ci: $t: merge failed, see $dir/merge.log"; return 1; }
    for f in "$dir"/merged/*; do
        [ -e "$corpus/$t/$(basename "$f")" ] || cp "$f" "$dir/to-commit/"
    done
    echo "fuzz-ci: $t: ok, $execs inputs in ${seconds} s ($rate/s), $found new, $(ls "$dir/to-commit" | wc -l) add coverage ($dir/to-commit)"
}

status=0
pids=""
running=0
for t in "$@"; do
    if [ ! -x "$build/fuzz/fuzz_$t" ]; then
        echo "fuzz-ci: no $build/fuzz/fuzz_$t (make fuzz)" >&2
        exit 2
    fi
done
# JOBS at a time; each job's output is printed when it ends.
mkdir -p "$build/fuzz-ci"
for t in "$@"; do
    ( run_one "$t" >"$build/fuzz-ci/$t.summary" 2>&1 ) &
    pids="$pids $!:$t"
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        first=${pids# }
        first=${first%% *}
        pids=${pids# }
        pids=${pids#"$first"}
        wait "${first%%:*}" || status=1
        cat "$build/fuzz-ci/${first#*:}.summary"
        running=$((running - 1))
    fi
done
for p in $pids; do
    wait "${p%%:*}" || status=1
    cat "$build/fuzz-ci/${p#*:}.summary"
done
if [ $status -ne 0 ]; then
    echo "fuzz-ci: FAILED: a target found a bug (see above)"
else
    echo "fuzz-ci: all $# targets ran ${seconds} s without a finding"
fi
exit $status
