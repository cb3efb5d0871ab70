#!/bin/sh
# The test runner itself (scripts/run-tests.sh, docs/testing.md), on fake
# tests that pass, fail and skip: the closing line "N passed, N failed,
# N skipped", the exit status, the reason of a skip, CI=true with an
# unexpected and an expected skip (tests/expected-skips' format), the T
# filter, the quick subset, J tests at once with the output kept whole and
# in the given order, a serial test alone, the logs. Run from the
# repository root (make check does). The inner runs' output is shown only
# for a failed check (indented), so that their closing lines never look
# like the suite's own.
. tests/lib/shell-test.sh

runner=$(pwd)/scripts/run-tests.sh
f=$tmp/fake
mkdir -p "$f"

# The fake tests.
printf 'echo "pass: line 1"\necho "pass: line 2"\n' >"$f/pass.sh"
printf 'echo "fail: going to fail"\nexit 1\n' >"$f/fail.sh"
printf 'echo "FAIL: a check"\nexit 2\n' >"$f/fail2.sh"
printf 'echo "SKIP: no frobnicator (apt-get install frobnicator)"\nexit 77\n' >"$f/skip.sh"
printf 'echo "skips without saying why"\nexit 77\n' >"$f/mute.sh"
printf '# run-tests: slow\necho slow\n' >"$f/slow.sh"
# par_a and par_b each wait for the other to have started: both pass only
# when they run at the same time. They mark themselves as running.
for me in a b; do
    other=$([ $me = a ] && echo b || echo a)
    cat >"$f/par_$me.sh" <<EOF
: >"$f/running.$me"
: >"$f/started.$me"
i=0
while [ ! -f "$f/started.$other" ]; do
    i=\$((i + 1))
    [ "\$i" -le 300 ] || { rm -f "$f/running.$me"; echo "par_$me: par_$other never started"; exit 1; }
    sleep 0.1
done
echo "par_$me: out 1"
sleep 0.3
echo "par_$me: out 2"
rm -f "$f/running.$me"
EOF
done
# The serial test: nothing else may run while it does.
cat >"$f/alone.sh" <<EOF
# run-tests: serial
for check in 1 2 3; do
    if ls "$f"/running.* >/dev/null 2>&1; then echo "alone: another test is running"; exit 1; fi
    sleep 0.1
done
echo "alone: ran alone"
EOF

# run NAME [VAR=VALUE...] -- TEST...: runs the runner with a clean
# environment of its own variables, B=$tmp/b; output in $tmp/NAME.out,
# exit status in $st.
run() {
    name=$1
    shift
    vars=""
    while [ "$1" != -- ]; do
        vars="$vars $1"
        shift
    done
    shift
    rm -f "$f"/running.* "$f"/started.*
    # shellcheck disable=SC2086 # one word per assignment
    env -u T -u QUICK -u CI -u V -u J -u TEST_LOGS -u EXPECTED_SKIPS -u HEARTBEAT \
        B="$tmp/b" EXPECTED_SKIPS="$tmp/none" $vars sh "$runner" "$@" >"$tmp/$name.out" 2>&1
    st=$?
}
show() { sed 's/^/  | /' "$tmp/$1.out"; }
# expect NAME STATUS CLOSING: the exit status and the last line, exactly.
expect() {
    [ "$st" -eq "$2" ] || { show "$1"; fail "$1: exit status $st, expected $2"; }
    last=$(tail -n 1 "$tmp/$1.out")
    [ "$last" = "$3" ] || { show "$1"; fail "$1: last line '$last', expected '$3'"; }
}
has() { grep -qxF -- "$2" "$tmp/$1.out" || { show "$1"; fail "$1: no line '$2'"; }; }
hasnt() { grep -qF -- "$2" "$tmp/$1.out" && { show "$1"; fail "$1: a line with '$2'"; }; }

# ---- the three states and the closing line
run mixed J=1 -- "$f/pass.sh" "$f/fail.sh" "$f/skip.sh" "$f/fail2.sh"
expect mixed 1 "1 passed, 2 failed, 1 skipped"
grep -q "^PASS: $f/pass.sh (" "$tmp/mixed.out" || { show mixed; fail "mixed: no PASS line for pass.sh"; }
grep -q "^FAIL: $f/fail.sh (exit status 1" "$tmp/mixed.out" || { show mixed; fail "mixed: no FAIL line for fail.sh"; }
grep -q "^FAIL: $f/fail2.sh (exit status 2" "$tmp/mixed.out" || { show mixed; fail "mixed: no FAIL line for fail2.sh"; }
has mixed "SKIP: $f/skip.sh: no frobnicator (apt-get install frobnicator)"
# the output of each test, in full, and its log
has mixed "pass: line 2"
has mixed "fail: going to fail"
[ "$(cat "$tmp/b/test-logs/fail.log" 2>/dev/null)" = "fail: going to fail" ] ||
    fail "mixed: $tmp/b/test-logs/fail.log does not hold the test's output"
[ "$(cut -d' ' -f1 "$tmp/b/test-logs/skip.result" 2>/dev/null)" = 77 ] ||
    fail "mixed: skip.result does not hold 77"

run passes -- "$f/pass.sh" "$f/pass.sh"
expect passes 0 "2 passed, 0 failed, 0 skipped"

# a skip is not a pass, but it does not fail the run outside CI
run skips -- "$f/pass.sh" "$f/skip.sh"
expect skips 0 "1 passed, 0 failed, 1 skipped"
run mute -- "$f/mute.sh"
expect mute 0 "0 passed, 0 failed, 1 skipped"
grep -q "^SKIP: $f/mute.sh: (no reason given" "$tmp/mute.out" || { show mute; fail "mute: no 'no reason given'"; }

# V=0: a passing test's output is left out, a failing one's is not
run quiet V=0 -- "$f/pass.sh" "$f/fail.sh"
expect quiet 1 "1 passed, 1 failed, 0 skipped"
hasnt quiet "pass: line 1"
has quiet "fail: going to fail"

# ---- CI=true: a skip must be expected, with a reason that matches
run ci_unexpected CI=true -- "$f/pass.sh" "$f/skip.sh"
expect ci_unexpected 1 "1 passed, 0 failed, 1 skipped"
grep -q "^run-tests: CI: unexpected skip of: skip " "$tmp/ci_unexpected.out" ||
    { show ci_unexpected; fail "ci_unexpected: the unexpected skip is not named"; }
run ci_false CI=false -- "$f/pass.sh" "$f/skip.sh"
expect ci_false 0 "1 passed, 0 failed, 1 skipped"
printf '# comment\n\nskip   no frobnicator*\n' >"$tmp/expected"
run ci_expected CI=true EXPECTED_SKIPS="$tmp/expected" -- "$f/pass.sh" "$f/skip.sh"
expect ci_expected 0 "1 passed, 0 failed, 1 skipped"
printf 'skip   no compiler*\nmute *\n' >"$tmp/expected-other"
run ci_other CI=true EXPECTED_SKIPS="$tmp/expected-other" -- "$f/pass.sh" "$f/skip.sh" "$f/mute.sh"
expect ci_other 1 "1 passed, 0 failed, 2 skipped"
grep -q "^run-tests: CI: unexpected skip of: skip (" "$tmp/ci_other.out" ||
    { show ci_other; fail "ci_other: the skip with another reason is not unexpected (or mute is)"; }
printf 'skip\n' >"$tmp/expected-bad"
run ci_bad CI=true EXPECTED_SKIPS="$tmp/expected-bad" -- "$f/pass.sh"
[ "$st" -eq 2 ] || { show ci_bad; fail "ci_bad: an entry without a reason: exit status $st, expected 2"; }

# ---- T: the tests whose name contains a word
run filter T=pass -- "$f/pass.sh" "$f/fail.sh" "$f/skip.sh"
expect filter 0 "1 passed, 0 failed, 0 skipped"
hasnt filter "fail: going"
run filter2 T="skip,fail2" -- "$f/pass.sh" "$f/fail2.sh" "$f/skip.sh"
expect filter2 1 "0 passed, 1 failed, 1 skipped"
run nomatch T=nothing -- "$f/pass.sh" "$f/fail.sh"
expect nomatch 1 "0 passed, 0 failed, 0 skipped"

# ---- QUICK=1: the tests tagged slow are left out, and named
run quick QUICK=1 -- "$f/pass.sh" "$f/slow.sh"
expect quick 0 "1 passed, 0 failed, 0 skipped"
grep -q '^quick: left out the slow tests: slow ' "$tmp/quick.out" || { show quick; fail "quick: slow.sh not named"; }
run full -- "$f/pass.sh" "$f/slow.sh"
expect full 0 "2 passed, 0 failed, 0 skipped"

# ---- J=2: two tests at once (each waits for the other); the output of
# each whole and in the given order; a serial test runs alone.
run parallel J=2 -- "$f/par_a.sh" "$f/par_b.sh" "$f/alone.sh" "$f/pass.sh"
expect parallel 0 "4 passed, 0 failed, 0 skipped"
grep -v '^PASS: ' "$tmp/parallel.out" | sed '$d' >"$tmp/parallel.body"
cat >"$tmp/parallel.want" <<EOF
== $f/par_a.sh
par_a: out 1
par_a: out 2
== $f/par_b.sh
par_b: out 1
par_b: out 2
== $f/alone.sh
alone: ran alone
== $f/pass.sh
pass: line 1
pass: line 2
EOF
cmp -s "$tmp/parallel.body" "$tmp/parallel.want" ||
    { show parallel; fail "parallel: the output is not each test's whole, in the given order"; }
# ---- HEARTBEAT=1: a test that runs for 3 s is named while it runs, with
# how long it has run and the count of tests done; the closing line is
# unchanged (issue 49: make check showed nothing while a long test ran)
printf 'sleep 3\necho long: done\n' >"$f/long.sh"
run heartbeat J=2 HEARTBEAT=1 -- "$f/pass.sh" "$f/long.sh"
expect heartbeat 0 "2 passed, 0 failed, 0 skipped"
grep -Eq '^run-tests: \[1/2 done\] still running: long \([1-9] s\)$' "$tmp/heartbeat.out" ||
    { show heartbeat; fail "heartbeat: no line 'run-tests: [1/2 done] still running: long (N s)'"; }
run quiet HEARTBEAT=0 -- "$f/long.sh"
expect quiet 0 "1 passed, 0 failed, 0 skipped"
hasnt quiet "still running"
run badbeat HEARTBEAT=x -- "$f/pass.sh"
[ "$st" -eq 2 ] || { show badbeat; fail "HEARTBEAT=x: exit status $st, expected 2"; }
run badjobs J=x -- "$f/pass.sh"
[ "$st" -eq 2 ] || { show badjobs; fail "J=x: exit status $st, expected 2"; }

echo "runner_test: $failures failure(s)"
finish
