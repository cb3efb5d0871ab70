#!/bin/sh
# Line and branch coverage of libball/ from the gcov data of a --coverage
# build (make coverage). Writes DIR/coverage.info and an HTML report in
# DIR/html (when genhtml is there), prints the two percentages and every
# line and branch of libball/ that no test reached, as file:line.
#
#   sh scripts/coverage-report.sh DIR      (DIR: the build dir, e.g. build/coverage)
#
# Two figures, each a gate when given minimums (percentages, default 0):
#  - the engine: libball/ less the modules listed in COVERAGE_NEW_MODULES,
#    against COVERAGE_MIN_LINES and COVERAGE_MIN_BRANCHES;
#  - the whole of libball/, against COVERAGE_ALL_MIN_LINES and
#    COVERAGE_ALL_MIN_BRANCHES.
# Then the ratchet: every uncovered line and branch outcome must be in
# tests/coverage-baseline.txt with a reason (scripts/coverage-ratchet.py;
# COVERAGE_RATCHET=update rewrites the list, as make coverage-baseline
# does). Exits non-zero when the data cannot be read, a figure is below its
# minimum or the ratchet fails.
set -e
dir=${1:?usage: coverage-report.sh BUILD_DIR}
info=$dir/coverage.info
rc="--rc lcov_branch_coverage=1"
# lcov's messages (Debian's 1.16 also warns about redefined subroutines
# on every run) go to a log shown only when it fails.
log=$dir/lcov.log
# The initial capture (every instrumented line and branch at zero, from
# the .gcno files) is added to the tests' counts, so that a library file
# that no test loads (no .gcda) counts as uncovered instead of dropping
# out of the figures.
# shellcheck disable=SC2086
if ! lcov $rc --quiet --capture --initial --directory "$dir/obj" --output-file "$info.base" >"$log" 2>&1; then
    grep -v 'redefined at' "$log" >&2
    echo "coverage-report: lcov --initial failed" >&2
    exit 1
fi
# shellcheck disable=SC2086
if lcov $rc --quiet --capture --directory "$dir/obj" --output-file "$info.run" >>"$log" 2>&1; then
    set -- -a "$info.base" -a "$info.run"
else
    echo "coverage-report: no test counts in $dir/obj (lcov --capture failed): everything counts as uncovered" >&2
    set -- -a "$info.base"
fi
# COVERAGE_ADD: the coverage.info of an earlier run of the same sources,
# whose counts are added (CI's second run after a red one): an outcome
# counts as reached when either run reached it.
if [ -n "${COVERAGE_ADD:-}" ]; then
    [ -f "$COVERAGE_ADD" ] || { echo "coverage-report: COVERAGE_ADD=$COVERAGE_ADD: no such file" >&2; exit 1; }
    set -- "$@" -a "$COVERAGE_ADD"
    echo "coverage-report: counts of $COVERAGE_ADD added (an outcome either run reached counts as reached)"
fi
# shellcheck disable=SC2086
if ! lcov $rc --quiet "$@" --output-file "$info.raw" >>"$log" 2>&1 ||
   ! lcov $rc --quiet --extract "$info.raw" '*/libball/*' --output-file "$info" >>"$log" 2>&1; then
    grep -v 'redefined at' "$log" >&2
    echo "coverage-report: lcov failed" >&2
    exit 1
fi
rm -f "$info.raw" "$info.base" "$info.run"
if command -v genhtml >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    genhtml $rc --quiet --output-directory "$dir/html" "$info" >/dev/null 2>&1 || true
fi

# The modules of 1.0's additions (games, pictures, learning, search) and
# 1.1's turn search (search/), whose uncovered lines are mostly
# allocation failures of their own buffers and, for the turn search, paths its
# tests do not build yet (tests/coverage-baseline.txt says which);
# measured on their own so that they cannot hide a gap in the engine.
: "${COVERAGE_NEW_MODULES:=search/* record.c record_sink.c svg.c text_board.c learn/learn_actions.c learn/learn_batch.c learn/learn_observation.c learn/learn_symmetry.c history.c}"

# The .info format: SF:<file>, DA:<line>,<count>, BRDA:<line>,<block>,<branch>,<taken>
report() { # INFO LABEL MIN_LINES MIN_BRANCHES
awk -v label="$2" -v min_l="${3:-0}" -v min_b="${4:-0}" '
function short(f) { sub(/.*\/libball\//, "libball/", f); return f }
/^SF:/ { file = short(substr($0, 4)); files[file] = 1; next }
/^DA:/ {
    split(substr($0, 4), a, ",")
    lines++
    key = file SUBSEP a[1]
    if (a[2] + 0 > 0) hit++
    else if (!(key in missed_line)) { missed_line[key] = 1; ml[file] = ml[file] " " a[1] }
    next
}
/^BRDA:/ {
    split(substr($0, 6), b, ",")
    branches++
    if (b[4] != "-" && b[4] + 0 > 0) taken++
    else {
        key = file SUBSEP b[1]
        nb[key]++
        if (!(key in seen_b)) { seen_b[key] = 1; mb[file] = mb[file] " " b[1] }
    }
    next
}
END {
    lp = lines ? 100 * hit / lines : 0
    bp = branches ? 100 * taken / branches : 0
    printf "coverage of %s: lines %.2f%% (%d of %d), branches %.2f%% (%d of %d)\n", label, lp, hit, lines, bp, taken, branches
    n = 0
    for (f in files) order[++n] = f
    for (i = 2; i <= n; i++) { v = order[i]; for (j = i - 1; j >= 1 && order[j] > v; j--) order[j + 1] = order[j]; order[j + 1] = v }
    for (i = 1; i <= n; i++) {
        f = order[i]
        if (ml[f] != "") printf "  uncovered lines    %s:%s\n", f, ml[f]
        if (mb[f] != "") {
            s = ""
            m = split(mb[f], L, " ")
            for (k = 1; k <= m; k++) s = s " " L[k] "(" nb[f SUBSEP L[k]] ")"
            printf "  untaken branches   %s:%s\n", f, s
        }
    }
    print "  (branches: line(number of untaken branch outcomes on it))"
    if (lp < min_l || bp < min_b) {
        need_l = int(min_l * lines / 100); if (need_l * 100 < min_l * lines) need_l++
        need_b = int(min_b * branches / 100); if (need_b * 100 < min_b * branches) need_b++
        printf "coverage of %s: below the minimum of %s%% lines, %s%% branches", label, min_l, min_b
        if (lp < min_l) printf "; %d more line(s) needed", need_l - hit
        if (bp < min_b) printf "; %d more branch outcome(s) needed", need_b - taken
        printf "\n"
        exit 1
    }
}' "$1"
}

engine=$dir/coverage-engine.info
patterns=""
set -f # the patterns are lcov's, not the shell's (search/* too)
for m in $COVERAGE_NEW_MODULES; do patterns="$patterns */libball/$m"; done
# shellcheck disable=SC2086
lcov $rc --quiet --remove "$info" $patterns --output-file "$engine" >>"$log" 2>&1 || {
    grep -v 'redefined at' "$log" >&2
    echo "coverage-report: lcov --remove failed" >&2
    exit 1
}
set +f
status=0
report "$info" "libball/" "${COVERAGE_ALL_MIN_LINES:-0}" "${COVERAGE_ALL_MIN_BRANCHES:-0}" || status=1
report "$engine" "the engine (libball/ less $COVERAGE_NEW_MODULES)" \
    "${COVERAGE_MIN_LINES:-0}" "${COVERAGE_MIN_BRANCHES:-0}" >"$dir/coverage-engine.txt" || status=1
sed -n '1p;/below the minimum/p' "$dir/coverage-engine.txt"

# The ratchet (scripts/coverage-ratchet.py): every uncovered line and
# branch outcome must be listed with a reason in COVERAGE_BASELINE.
# COVERAGE_RATCHET=update (make coverage-baseline) rewrites the list
# instead; COVERAGE_RATCHET=off skips it; COVERAGE_STALE=warn only reports
# entries that are now covered.
baseline=${COVERAGE_BASELINE:-tests/coverage-baseline.txt}
case ${COVERAGE_RATCHET:-check} in
    off) ;;
    update) python3 "$(dirname "$0")/coverage-ratchet.py" update "$info" "$baseline" "$dir/obj" || status=1 ;;
    *) python3 "$(dirname "$0")/coverage-ratchet.py" check "$info" "$baseline" "$dir/obj" || status=1 ;;
esac
exit $status
