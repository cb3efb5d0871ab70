#!/bin/sh
# Every hand-written binding wraps every public function of include/ball.h
# (issue 29, "One description"), or a listed exclusion says why (the
# generated layers, Python's ctypes table and the wasm exports, have them
# all: api_generate_test checks those):
#   - scripts/api-describe.py reads the header into its JSON description
#     (the same as `make api-describe`), twice, byte for byte the same;
#   - scripts/api-check.py checks the Lua binding (the C module and the
#     LuaJIT learning interface ball_learn.lua, whose own cdef is compared
#     with the header) and the JavaScript binding against the description,
#     with bindings/api-exclusions.txt.
# Then the check is shown to fail, on copies in $tmp, for: a function
# removed from the C module's table, a changed prototype, struct field and
# typedef in ball_learn's cdef, a C.NAME it calls that its cdef lacks, the
# JavaScript binding's wasm glue (bindings/js/emscripten/net.c) without
# ball_net_search_eval, a stale exclusion, an exclusion without reason, and
# a header declaration the describer cannot read (file:line).
# python3 only (no library build); a second or two.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/shell-test.sh

command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 (Debian: python3)"; exit 77; }

describe() { python3 scripts/api-describe.py "$@"; }
check() { python3 scripts/api-check.py --api "$tmp/api.json" "$@"; }

# ---------------------------------------------------------------- the real check
describe -o "$tmp/api.json" || { echo "FAIL: scripts/api-describe.py failed on include/ball.h"; exit 1; }
describe -o "$tmp/api2.json" && cmp -s "$tmp/api.json" "$tmp/api2.json" ||
    fail "api-describe: two runs differ"
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["functions"]))' "$tmp/api.json")
m=$(grep -c '^BALL_API' include/ball.h)
[ "$n" = "$m" ] || fail "api-describe: $n functions described, include/ball.h has $m lines starting with BALL_API"

if check >"$tmp/check.out" 2>&1; then
    cat "$tmp/check.out"
else
    cat "$tmp/check.out"
    fail "api-check: a binding lacks a public function (above)"
fi

# ---------------------------------------------------------------- the check can fail
# Each case: api-check on a changed copy must fail (exit 1) and print a
# line naming the binding and the function (one python3 for all cases).
mkdir "$tmp/cdef" "$tmp/field" "$tmp/typedef" "$tmp/undeclared" "$tmp/luac" "$tmp/jsc"
learn=bindings/lua/ball_learn.lua
sed 's/^int ball_index_mirror(int index);/int ball_index_mirror(unsigned index);/' "$learn" >"$tmp/cdef/ball_learn.lua"
sed 's/^    unsigned turn_limit;/    int turn_limit;/' "$learn" >"$tmp/field/ball_learn.lua"
sed 's/^typedef uint32_t ball_action;/typedef int32_t ball_action;/' "$learn" >"$tmp/typedef/ball_learn.lua"
grep -v '^int ball_returns(' "$learn" >"$tmp/undeclared/ball_learn.lua"
# the C module without ball_pe: its one call and its method's table row
cp bindings/lua/c/*.[ch] "$tmp/luac/"
sed -e '/ball_pe(/d' -e '/{"pe", g_pe}/d' bindings/lua/c/ballc_game.c >"$tmp/luac/ballc_game.c"
grep -q 'ball_pe(' "$tmp/luac/"*.[ch] && fail "the copy of the C module still names ball_pe"
# the JavaScript binding's wasm glue without its one use of ball_net_search_eval
sed 's/return ball_net_search_eval;/return 0;/' bindings/js/emscripten/net.c >"$tmp/jsc/net.c"
grep -q 'ball_net_search_eval;' "$tmp/jsc/net.c" && fail "the copy of net.c still returns ball_net_search_eval"
{ cat bindings/api-exclusions.txt; echo "lua ball_pe a reason that no longer holds"; } >"$tmp/stale.txt"
{ cat bindings/api-exclusions.txt; echo "js ball_pe"; } >"$tmp/noreason.txt"
python3 - "$tmp" <<'PY' || fail "api-check did not fail as it should (above)"
import contextlib, importlib.util, io, re, sys
tmp = sys.argv[1]
spec = importlib.util.spec_from_file_location("api_check", "scripts/api-check.py")
api_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(api_check)
base = ["--api", tmp + "/api.json"]
cases = [
    ("ball_pe gone from the C module", ["--lua-c", tmp + "/luac"],
     r"^api-check: lua: ball_pe: missing from \S*/luac or \S*ball_learn\.lua"),
    ("a changed prototype in ball_learn's cdef", ["--lua-learn", tmp + "/cdef/ball_learn.lua"],
     r"^api-check: lua: ball_index_mirror: the cdef \(\S*ball_learn\.lua:\d+\) declares int \(unsigned\), "
     r"ball\.h int \(int\)"),
    ("a changed field of ball_rules in ball_learn's cdef", ["--lua-learn", tmp + "/field/ball_learn.lua"],
     r"^api-check: lua: ball_rules: the cdef \(\S*ball_learn\.lua:\d+\) declares the fields .*int turn_limit.*, "
     r"ball\.h .*unsigned turn_limit"),
    ("a changed typedef in ball_learn's cdef", ["--lua-learn", tmp + "/typedef/ball_learn.lua"],
     r"^api-check: lua: ball_action: the cdef \(\S*ball_learn\.lua:\d+\) declares typedef int32_t, ball\.h uint32_t"),
    ("a call ball_learn's cdef does not declare", ["--lua-learn", tmp + "/undeclared/ball_learn.lua"],
     r"^api-check: lua: ball_returns: \S*ball_learn\.lua calls C\.ball_returns, its cdef does not declare it"),
    ("ball_net_search_eval gone from the JavaScript binding's wasm glue", ["--js-c", tmp + "/jsc/net.c"],
     r"^api-check: js: ball_net_search_eval: missing from .*\S*/jsc/net\.c"),
    ("a stale exclusion", ["--exclusions", tmp + "/stale.txt"],
     r"^api-check: lua: ball_pe: stale exclusion \S*stale\.txt:\d+"),
    ("an exclusion without reason", ["--exclusions", tmp + "/noreason.txt"],
     r"^api-check: exclusions: \S*noreason\.txt:\d+: .*the reason is required"),
]
bad = 0
for what, args, pattern in cases:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = api_check.main(base + args)
    text = out.getvalue()
    if rc != 1 or not re.search(pattern, text, re.M):
        print(text, end="")
        print("FAIL: api-check with %s: exit %s, want 1 and a line matching %r" % (what, rc, pattern))
        bad += 1
    else:
        print("api-check fails as it should with %s: %s" % (what, re.search(pattern, text, re.M).group(0)))
sys.exit(1 if bad else 0)
PY

# the describer stops at a declaration it cannot read, naming file:line
awk '{ print } /^BALL_API int ball_turn\(/ { print "BALL_API int ball_odd(struct odd x);" }' include/ball.h >"$tmp/ball.h"
line=$(grep -n 'ball_odd' "$tmp/ball.h" | cut -d: -f1)
if describe --header "$tmp/ball.h" -o "$tmp/odd.json" >"$tmp/odd.out" 2>&1; then
    fail "api-describe accepted BALL_API int ball_odd(struct odd x)"
elif ! grep -q "ball.h:$line: " "$tmp/odd.out"; then
    cat "$tmp/odd.out"
    fail "api-describe failed on ball_odd without naming ball.h:$line"
fi

finish
