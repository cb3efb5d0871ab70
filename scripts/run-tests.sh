#!/bin/sh
# The test runner of `make check` (docs/testing.md).
#
#   sh scripts/run-tests.sh [TEST...]
#
# Runs each TEST: a program, or a shell script (a name ending in .sh, run
# with sh from the current directory, the repository root). With no TEST:
# the Check programs $B/tests/test_* and tests/*/*_test.sh. Each test ends in one
# of three states:
#   passed   exit status 0;
#   skipped  exit status 77 (automake's convention), after a line
#            "SKIP: reason": it could not check what it is for (a tool is
#            missing, or the build is one it does not apply to);
#   failed   any other exit status.
# Each test's output goes to $TEST_LOGS/NAME.log and is printed whole, test
# after test in the order given, with a result line (PASS:, SKIP:, FAIL:);
# tests run J at a time, so their output is never interleaved. The last
# line is exactly "N passed, N failed, N skipped". Exit status 0 when no
# test failed and no skip was unexpected (below); 1 otherwise, and also
# when no test was selected.
#
# Environment:
#   B          the build directory under test (the Makefile passes its own;
#              build by default)
#   T          only the tests whose name (test_record, record_test)
#              contains one of these words (space or comma separated)
#   J          tests run at once (default: the number of processors)
#   QUICK      1: leave out the tests tagged slow, and set BALL_TEST_QUICK=1
#              (test_random_draw checks 20 games a ruleset instead of 400)
#              (make check-quick)
#   V          0: print the output of failed and skipped tests only
#   CI         true (any value but empty, 0, false, no): a skip fails the
#              run unless $EXPECTED_SKIPS lists the test with a pattern that
#              its reason matches
#   EXPECTED_SKIPS  default tests/expected-skips; lines "NAME PATTERN",
#              PATTERN a shell pattern for the reason ("*" for any)
#   TEST_LOGS  default $B/test-logs; NAME.log and NAME.result ("STATUS MS")
#   HEARTBEAT  seconds (default 30; 0: never): when nothing was printed
#              for that long, a progress line names the tests still
#              running and how long each has run, with the count of those
#              finished ("run-tests: [12/71 done] still running:
#              bindings_test (95 s), web_test (40 s)"), so that a long
#              test does not look like a hang (issue 49)
#
# A shell test carries its tags on a line of its own in its first comment
# block (the lines starting with # at the top of the file):
#   # run-tests: serial   runs alone (fixed ports, shared files, time bounds)
#   # run-tests: slow     left out of the quick subset
# The tests start longest first, by their durations in the last run's
# NAME.result files, to finish sooner; the output keeps the given order.
#
# The shell tests, the reference comparison and the bindings find the
# tool, the examples and the shared library through the variables exported
# here, so that a sanitizer or coverage build is tested in place.
#
# The whole script is one brace group ending in exit: sh reads it all
# before it runs, so that editing this file during a run cannot change
# the run.
{
B=${B:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
export BALL="${BALL:-$B/bin/ball}"
export PLAY="${PLAY:-$B/examples/play}"
export SELFPLAY="${SELFPLAY:-$B/examples/selfplay}"
export SOLVE="${SOLVE:-$B/examples/solve}"
export LIBBALL_PATH="${LIBBALL_PATH:-$B/libball.so.1}"
export BALL_BUILD="$B"

logs=${TEST_LOGS:-$B/test-logs}
skips_file=${EXPECTED_SKIPS:-tests/expected-skips}
jobs=${J:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) echo "run-tests: J must be a positive number, not '$jobs'"; exit 2 ;; esac
case ${CI:-} in '' | 0 | false | False | FALSE | no) ci="" ;; *) ci=1 ;; esac
case ${QUICK:-} in '' | 0) quick="" ;; *) quick=1 ;; esac
# the quick subset shrinks test_random_draw's identity check, as
# make check-valgrind does
[ -n "$quick" ] && export BALL_TEST_QUICK="${BALL_TEST_QUICK:-1}"
verbose=${V:-1}
heartbeat=${HEARTBEAT:-30}
case $heartbeat in '' | *[!0-9]*) echo "run-tests: HEARTBEAT must be a number of seconds, not '$heartbeat'"; exit 2 ;; esac
mkdir -p "$logs" || exit 2

if [ $# -eq 0 ]; then
    for t in "$B"/tests/test_* tests/*/*_test.sh; do
        case $t in *.d | *.o) continue ;; esac
        [ -f "$t" ] && set -- "$@" "$t"
    done
fi

now_ms() {
    ns=$(date +%s%N)
    case $ns in *N) echo $(($(date +%s) * 1000)) ;; *) echo $((ns / 1000000)) ;; esac
}
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

# ---- the selection: index i = 1..n, in the order given
n=0
given=0
matched=0
left_out=""
for t in "$@"; do
    given=$((given + 1))
    name=$(basename "$t")
    name=${name%.sh}
    if [ -n "${T:-}" ]; then
        match=""
        for word in $(echo "$T" | tr ',' ' '); do
            case $name in *"$word"*) match=1 ;; esac
        done
        [ -n "$match" ] || continue
    fi
    tags=""
    case $t in
        *.sh) [ -f "$t" ] && tags=$(awk 'NR == 1 && /^#!/ { next } !/^#/ { exit }
                                         sub(/^# run-tests: */, "") { print }' "$t" | tr '\n' ' ') ;;
    esac
    matched=$((matched + 1))
    if [ -n "$quick" ]; then
        case " $tags " in *" slow "*) left_out="$left_out $name"; continue ;; esac
    fi
    n=$((n + 1))
    eval "t_$n=\$t name_$n=\$name tags_$n=\$tags"
done

passed=0
failed=0
skipped=0
unexpected=""

if [ "$n" -eq 0 ]; then
    echo "run-tests: no test selected${T:+ (T=$T matches none of the $given tests)}"
    echo "0 passed, 0 failed, 0 skipped"
    exit 1
fi

# expected [NAME REASON]: is this skip listed in $skips_file? Without
# arguments: checks that every entry has a name and a pattern.
expected() {
    [ -f "$skips_file" ] || return 1
    line=0
    while IFS= read -r entry || [ -n "$entry" ]; do
        line=$((line + 1))
        case $entry in '' | '#'*) continue ;; esac
        ename=${entry%%[ 	]*}
        epat=${entry#"$ename"}
        epat=${epat#"${epat%%[! 	]*}"}
        if [ -z "$epat" ]; then
            echo "run-tests: $skips_file:$line: '$ename' has no reason pattern (\"*\" for any)"
            return 2
        fi
        [ $# -eq 2 ] && [ "$ename" = "$1" ] || continue
        # shellcheck disable=SC2254 # the pattern is meant to match
        case $2 in $epat) return 0 ;; esac
    done <"$skips_file"
    return 1
}
expected
[ $? -eq 2 ] && exit 2

# ---- the schedule: the tests that may share the machine, longest first
# (unknown durations first of all), then the serial ones in the given order.
sched=$(
    i=1
    while [ "$i" -le "$n" ]; do
        eval "name=\$name_$i tags=\$tags_$i"
        case " $tags " in
            *" serial "*) echo "0 0 $i" ;;
            *)
                ms=999999999
                [ -f "$logs/$name.result" ] && read -r _ ms <"$logs/$name.result"
                case $ms in '' | *[!0-9]*) ms=999999999 ;; esac
                echo "1 $ms $i"
                ;;
        esac
        i=$((i + 1))
    done | sort -k1,1nr -k2,2nr -k3,3n | awk '{ print $3 }' | tr '\n' ' '
)
i=1
while [ "$i" -le "$n" ]; do
    eval "rm -f \"\$logs/\$name_$i.result\" \"\$logs/\$name_$i.log\""
    i=$((i + 1))
done

pids=""
stop() {
    for p in $pids; do
        kill -s TERM -- "-$p" 2>/dev/null || kill -s TERM "$p" 2>/dev/null
    done
    echo "run-tests: interrupted"
    exit 130
}
trap stop INT TERM HUP

# start I: runs test I in the background, in a session of its own (so that
# an interrupt stops all its processes); NAME.result appears when it ends.
runner='t=$1 log=$2 result=$3
start=$4
case $t in *.sh) sh "$t" ;; *) "$t" ;; esac >"$log" 2>&1 </dev/null
st=$?
ns=$(date +%s%N)
case $ns in *N) end=$(($(date +%s) * 1000)) ;; *) end=$((ns / 1000000)) ;; esac
echo "$st $((end - start))" >"$result.tmp" && mv "$result.tmp" "$result"'
setsid=""
command -v setsid >/dev/null 2>&1 && setsid=setsid
start() {
    eval "t=\$t_$1 name=\$name_$1 started_$1=\$(date +%s)"
    $setsid sh -c "$runner" sh "$t" "$logs/$name.log" "$logs/$name.result" "$(now_ms)" &
    pids="$pids $!"
    eval "pid_$1=\$!"
}

# report I: prints test I's output and result line, counts it.
report() {
    eval "t=\$t_$1 name=\$name_$1 pid=\$pid_$1"
    wait "$pid" 2>/dev/null
    pids=$(echo " $pids " | sed "s/ $pid / /")
    st=1 ms=0
    read -r st ms <"$logs/$name.result"
    log=$logs/$name.log
    echo "== $t"
    case $st in
        0)
            [ "$verbose" = 0 ] || cat "$log"
            passed=$((passed + 1))
            echo "PASS: $t ($(secs "$ms") s)"
            ;;
        77)
            cat "$log"
            skipped=$((skipped + 1))
            reason=$(sed -n 's/^SKIP: *//p' "$log" | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
            [ -n "$reason" ] || reason="(no reason given: the test printed no SKIP: line)"
            if [ -n "$ci" ] && ! expected "$name" "$reason"; then
                unexpected="$unexpected $name"
                echo "SKIP: $t: $reason -- unexpected under CI ($skips_file does not list it)"
            else
                echo "SKIP: $t: $reason"
            fi
            ;;
        *)
            cat "$log"
            failed=$((failed + 1))
            echo "FAIL: $t (exit status $st, $(secs "$ms") s; log: $log)"
            ;;
    esac
}

# still_running: the heartbeat line (see HEARTBEAT above).
still_running() {
    now=$(date +%s)
    line=""
    for i in $active; do
        eval "name=\$name_$i s=\$started_$i"
        line="$line${line:+, }$name ($((now - s)) s)"
    done
    ended=0
    i=1
    while [ "$i" -le "$n" ]; do
        eval "[ -n \"\${done_$i:-}\" ]" && ended=$((ended + 1))
        i=$((i + 1))
    done
    echo "run-tests: [$ended/$n done] still running: $line"
}

# ---- run: start tests while there are free slots (a serial test waits
# for an empty machine and keeps it), print finished ones in order.
last_print=$(date +%s)
running=0
active=""
exclusive=""
printed=0
queue=$sched
while [ "$printed" -lt "$n" ]; do
    progress=""
    # the tests that ended since the last look
    still=""
    for i in $active; do
        eval "name=\$name_$i pid=\$pid_$i"
        # a test whose wrapper was killed leaves no result: a failure
        if [ ! -f "$logs/$name.result" ] && ! kill -0 "$pid" 2>/dev/null &&
            [ ! -f "$logs/$name.result" ]; then
            echo "killed 0" >"$logs/$name.result"
        fi
        if [ -f "$logs/$name.result" ]; then
            running=$((running - 1))
            eval "tags=\$tags_$i"
            case " $tags " in *" serial "*) exclusive="" ;; esac
            eval "done_$i=1"
            progress=1
        else
            still="$still $i"
        fi
    done
    active=$still
    # start what fits
    while [ -n "$queue" ] && [ -z "$exclusive" ]; do
        set -- $queue
        i=$1
        eval "tags=\$tags_$i"
        case " $tags " in
            *" serial "*)
                [ "$running" -eq 0 ] || break
                exclusive=1
                ;;
            *) [ "$running" -lt "$jobs" ] || break ;;
        esac
        shift
        queue=$*
        start "$i"
        running=$((running + 1))
        active="$active $i"
        progress=1
    done
    # print in the given order
    while [ "$printed" -lt "$n" ]; do
        next=$((printed + 1))
        eval "d=\${done_$next:-}"
        [ -n "$d" ] || break
        report "$next"
        printed=$next
        progress=1
        last_print=$(date +%s)
    done
    if [ -z "$progress" ]; then
        if [ "$heartbeat" -gt 0 ] && [ -n "$active" ] && [ $(($(date +%s) - last_print)) -ge "$heartbeat" ]; then
            still_running
            last_print=$(date +%s)
        fi
        sleep 0.1 2>/dev/null || sleep 1
    fi
done
trap - INT TERM HUP

[ -n "$left_out" ] && echo "quick: left out the slow tests:$left_out (make check runs them)"
[ -n "${T:-}" ] && echo "T=$T: $matched of $given tests match"
if [ -n "$unexpected" ]; then
    echo "run-tests: CI: unexpected skip of:$unexpected (a skip in CI must be listed in $skips_file with its reason)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ -z "$unexpected" ]
exit
}
