#!/bin/sh
# Line and branch coverage of libball/ from the gcov data of a --coverage
# build (make coverage). Writes DIR/coverage.info and an HTML report in
# DIR/html (when genhtml is there), prints the two percentages and every
# line and branch of libball/ that no test reached, as file:line.
#
#   sh scripts/coverage-report.sh DIR      (DIR: the build dir, e.g. build/coverage)
#
# Exits non-zero only when the data cannot be read. COVERAGE_MIN_LINES and
# COVERAGE_MIN_BRANCHES (percentages, default 0) turn the figures into a
# gate.
set -e
dir=${1:?usage: coverage-report.sh BUILD_DIR}
info=$dir/coverage.info
rc="--rc lcov_branch_coverage=1"
# lcov's messages (Debian's 1.16 also warns about redefined subroutines
# on every run) go to a log shown only when it fails.
log=$dir/lcov.log
# shellcheck disable=SC2086
if ! lcov $rc --quiet --capture --directory "$dir/obj" --output-file "$info.raw" >"$log" 2>&1 ||
   ! lcov $rc --quiet --extract "$info.raw" '*/libball/*' --output-file "$info" >>"$log" 2>&1; then
    grep -v 'redefined at' "$log" >&2
    echo "coverage-report: lcov failed" >&2
    exit 1
fi
rm -f "$info.raw"
if command -v genhtml >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    genhtml $rc --quiet --output-directory "$dir/html" "$info" >/dev/null 2>&1 || true
fi

# The .info format: SF:<file>, DA:<line>,<count>, BRDA:<line>,<block>,<branch>,<taken>
awk -v min_l="${COVERAGE_MIN_LINES:-0}" -v min_b="${COVERAGE_MIN_BRANCHES:-0}" '
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
    printf "coverage of libball/: lines %.1f%% (%d of %d), branches %.1f%% (%d of %d)\n", lp, hit, lines, bp, taken, branches
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
        printf "coverage: below the minimum of %s%% lines, %s%% branches\n", min_l, min_b
        exit 1
    }
}' "$info"
