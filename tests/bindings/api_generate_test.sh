#!/bin/sh
# The bindings' generated layer (scripts/api-generate.py, issue 46,
# "Generated, not mirrored"):
#   - the committed outputs are what the generator writes from this
#     include/ball.h (--check), and --check fails, naming the file, on a
#     copy with one number changed;
#   - on a scratch copy of the header and the exports map that gains a
#     function (ball_probe_count, in node LIBBALL_1.1), a struct field
#     (ball_search_config.probe_budget, a uint64_t after the last field) and
#     a constant (BALL_PROBE_LIMIT), the regenerated files carry all three
#     into every binding: Python's _FUNCTIONS row (types, optional) and
#     BallSearchConfig field, whose ctypes size and offset equal the C
#     compiler's for the scratch header; JavaScript's wasm32 offset (64) and
#     size (72) of the field, CONSTANTS, the wasm export list and the
#     .d.mts declaration (a uint64_t is a bigint); Lua's constants list,
#     which compiles against the scratch header;
#   - the same checks fail on the committed outputs (which lack the
#     additions), so they cannot pass by checking nothing;
#   - every struct of the scratch header, as the compilers lay it out: the
#     size and each field's offset printed by a program built with cc
#     equal the generated ctypes classes', and built with emcc (run by
#     node) equal the generated wasm32 LAYOUTS of _api.mjs.
# python3 (cc and emcc for the layouts: a part without its compiler is
# skipped); a second or two, and as long again as emcc takes.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/shell-test.sh

command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 (Debian: python3)"; exit 77; }

# ---------------------------------------------------------------- staleness
if python3 scripts/api-generate.py --check >"$tmp/check.out" 2>&1; then
    echo "api-generate: the committed outputs are up to date"
else
    cat "$tmp/check.out"
    fail "a generated file is stale: run make (or python3 scripts/api-generate.py) and commit it"
fi
mkdir -p "$tmp/stale/bindings/js/emscripten" "$tmp/stale/bindings/python/libball" "$tmp/stale/bindings/lua/c"
for f in bindings/python/libball/_api.py bindings/js/_api.mjs bindings/js/_api.d.mts \
         bindings/js/emscripten/exports.json bindings/lua/c/ball_constants.h; do
    cp "$f" "$tmp/stale/$f"
done
sed 's/^    sizeof: 64,$/    sizeof: 60,/' bindings/js/_api.mjs >"$tmp/stale/bindings/js/_api.mjs"
cmp -s bindings/js/_api.mjs "$tmp/stale/bindings/js/_api.mjs" && fail "the stale copy of _api.mjs was not changed"
if python3 scripts/api-generate.py --check --out "$tmp/stale" >"$tmp/stale.out" 2>&1; then
    fail "api-generate --check passed on a copy whose _api.mjs says sizeof: 60"
elif ! grep -q "stale/bindings/js/_api.mjs is stale" "$tmp/stale.out"; then
    cat "$tmp/stale.out"
    fail "api-generate --check failed without naming the stale _api.mjs"
else
    echo "api-generate --check fails as it should on a changed copy: $(head -n 1 "$tmp/stale.out")"
fi

# ---------------------------------------------------------------- a scratch header
mkdir -p "$tmp/h"
awk '
    { print }
    /^BALL_API int ball_turn\(const ball_game \*game\);$/ {
        print "/** A probe added by api_generate_test. */"
        print "BALL_API int ball_probe_count(const ball_game *game, uint64_t seed);"
    }
    /^#define BALL_MAX_TASKS 14$/ { print "#define BALL_PROBE_LIMIT 42" }
' include/ball.h >"$tmp/h/ball.h"
# the field: after the last field of ball_search_config, the line before
# its closing "} ball_search_config;"
awk '/^} ball_search_config;$/ { print "    uint64_t probe_budget;" } { print }' "$tmp/h/ball.h" >"$tmp/h/ball2.h" &&
    mv "$tmp/h/ball2.h" "$tmp/h/ball.h"
sed 's/^        ball_search_stop;$/        ball_search_stop;\n        ball_probe_count;/' libball/exports.map >"$tmp/h/exports.map"
for what in "ball_probe_count(" "BALL_PROBE_LIMIT 42" "uint64_t probe_budget;"; do
    grep -qF "$what" "$tmp/h/ball.h" || fail "the scratch header lacks $what (include/ball.h changed shape?)"
done
grep -q "ball_probe_count;" "$tmp/h/exports.map" || fail "the scratch exports map lacks ball_probe_count"

python3 scripts/api-generate.py --header "$tmp/h/ball.h" --map "$tmp/h/exports.map" --out "$tmp/out" \
    >"$tmp/gen.out" 2>&1 || { cat "$tmp/gen.out"; fail "api-generate failed on the scratch header"; }

# C's own layout of the scratch struct (native ABI), for Python's ctypes
cc_layout=""
if command -v "${CC:-cc}" >/dev/null 2>&1; then
    cat >"$tmp/layout.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include "ball.h"
int main(void)
{
    printf("%zu %zu\n", sizeof(ball_search_config), offsetof(ball_search_config, probe_budget));
    return 0;
}
EOF
    if ${CC:-cc} -std=c11 -I"$tmp/h" "$tmp/layout.c" -o "$tmp/layout" 2>"$tmp/cc.out"; then
        cc_layout=$("$tmp/layout")
    else
        cat "$tmp/cc.out"; fail "the layout program did not compile against the scratch header"
    fi
    # Lua's list: every name it gives is a constant of the header
    { echo '#define BALL_EXPERIMENTAL /* as ballc_core.h */'; echo '#include "ball.h"'; echo '#define BALL_CONST(name) long long v_##name = (long long)(BALL_##name);'
      echo "#include \"$tmp/out/bindings/lua/c/ball_constants.h\""; } >"$tmp/luaconst.c"
    ${CC:-cc} -std=c11 -Wall -c -I"$tmp/h" "$tmp/luaconst.c" -o "$tmp/luaconst.o" 2>"$tmp/cc2.out" ||
        { cat "$tmp/cc2.out"; fail "the generated Lua constants list does not compile against the scratch header"; }
else
    skip "no C compiler: the C layout of the scratch struct and the Lua list's compile not checked"
fi

# reached DIR EXPECT: each check on the outputs under DIR; EXPECT "all"
# (each must pass) or "none" (each must fail: the committed outputs).
reached() {
    python3 - "$1" "$2" "$cc_layout" <<'PY'
import ctypes, importlib.util, json, re, sys
root, expect, cc_layout = sys.argv[1], sys.argv[2], sys.argv[3]
results = []

def check(what, ok):
    results.append((what, bool(ok)))

def text(rel):
    with open(root + "/" + rel, encoding="utf-8") as f:
        return f.read()

# Python
spec = importlib.util.spec_from_file_location("gen_api", root + "/bindings/python/libball/_api.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
rows = {r[0]: r for r in mod._FUNCTIONS}
row = rows.get("ball_probe_count")
check("python: _FUNCTIONS has ball_probe_count (int; void *, uint64_t; optional)",
      row is not None and row[1] is ctypes.c_int and row[2] == [ctypes.c_void_p, ctypes.c_uint64]
      and row[3] is False)
fields = mod.BallSearchConfig._fields_
check("python: BallSearchConfig ends with probe_budget, a c_uint64",
      fields[-1] == ("probe_budget", ctypes.c_uint64))
if cc_layout:
    size, off = map(int, cc_layout.split())
    got = (ctypes.sizeof(mod.BallSearchConfig),
           getattr(getattr(mod.BallSearchConfig, "probe_budget", None), "offset", -1))
    check("python: BallSearchConfig's size and probe_budget's offset are C's %s" % cc_layout,
          got == (size, off))
check("python: PROBE_LIMIT = 42", getattr(mod, "PROBE_LIMIT", None) == 42)

# JavaScript
js = text("bindings/js/_api.mjs")
m = re.search(r"^  ball_search_config: Object\.freeze\(\{\n(.*?)^  \}\),", js, re.M | re.S)
block = dict(re.findall(r"^    (\w+): (\d+),$", m.group(1), re.M)) if m else {}
check("js: LAYOUTS.ball_search_config.probe_budget = 64", block.get("probe_budget") == "64")
check("js: LAYOUTS.ball_search_config.sizeof = 72", block.get("sizeof") == "72")
check("js: CONSTANTS.PROBE_LIMIT = 42", re.search(r"^  PROBE_LIMIT: 42,$", js, re.M))
exports = json.loads(text("bindings/js/emscripten/exports.json"))
check("wasm: the export list has _ball_probe_count", "_ball_probe_count" in exports)
dts = text("bindings/js/_api.d.mts")
check("d.mts: BallExports declares _ball_probe_count(game: number, seed: bigint): number",
      "  _ball_probe_count(game: number, seed: bigint): number;" in dts)
check("d.mts: LAYOUTS declares ball_search_config's probe_budget",
      re.search(r"^  ball_search_config: Readonly<\{[^\n]*; probe_budget: number \}>;$", dts, re.M))
check("d.mts: CONSTANTS declares PROBE_LIMIT: 42", "  PROBE_LIMIT: 42;" in dts)

# Lua
check("lua: ball_constants.h lists PROBE_LIMIT",
      "BALL_CONST(PROBE_LIMIT)" in text("bindings/lua/c/ball_constants.h"))

bad = 0
for what, ok in results:
    if expect == "all":
        print("%s: %s" % ("ok" if ok else "FAIL", what))
        bad += not ok
    elif ok:
        print("FAIL: the committed outputs pass '%s': the check cannot fail" % what)
        bad += 1
if expect == "none" and not bad:
    print("each of the %d checks fails on the committed outputs, which lack the additions" % len(results))
sys.exit(1 if bad else 0)
PY
}
reached "$tmp/out" all || fail "an addition to the scratch header did not reach every binding (above)"
reached . none || fail "a check passed on outputs without the additions (above)"

# ---------------------------------------------------------------- every layout
# layouts.c prints "STRUCT sizeof N" and "STRUCT FIELD OFFSET" for every
# struct of the scratch header; layouts.py NATIVE|WASM FILE compares what a
# build of it printed with the generated ctypes classes or LAYOUTS.
python3 - "$tmp" <<'PY' || fail "could not write the layout program"
import importlib.util, sys
tmp = sys.argv[1]
spec = importlib.util.spec_from_file_location("api_generate", "scripts/api-generate.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
desc = gen.api_describe.describe(tmp + "/h/ball.h", tmp + "/h/exports.map")
lines = ["#include <stddef.h>", "#include <stdio.h>", "#include \"ball.h\"", "int main(void)", "{"]
for s in desc["structs"]:
    lines.append('    printf("%s sizeof %%zu\\n", sizeof(%s));' % (s["name"], s["name"]))
    for f in s["fields"]:
        lines.append('    printf("%s %s %%zu\\n", offsetof(%s, %s));' % (s["name"], f["name"], s["name"], f["name"]))
lines += ["    return 0;", "}"]
with open(tmp + "/layouts.c", "w") as f:
    f.write("\n".join(lines) + "\n")
PY
cat >"$tmp/layouts.py" <<'PY'
import ctypes, importlib.util, re, sys
kind, printed, out = sys.argv[1], sys.argv[2], sys.argv[3]
want = {}
for line in open(printed):
    struct, field, value = line.split()
    want[(struct, field)] = int(value)
got = {}
if kind == "native":
    spec = importlib.util.spec_from_file_location("gen_api", out + "/bindings/python/libball/_api.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for struct, field in want:
        cls = getattr(mod, "".join(w.capitalize() for w in struct.split("_")), None)
        if cls is not None:
            got[(struct, field)] = ctypes.sizeof(cls) if field == "sizeof" else getattr(cls, field).offset
else:
    js = open(out + "/bindings/js/_api.mjs").read()
    for m in re.finditer(r"^  (\w+): Object\.freeze\(\{\n(.*?)^  \}\),", js, re.M | re.S):
        for field, value in re.findall(r"^    (\w+): (\d+),$", m.group(2), re.M):
            got[(m.group(1), field)] = int(value)
bad = [(k, v, got.get(k)) for k, v in want.items() if got.get(k) != v]
for (struct, field), v, g in bad:
    print("FAIL: %s: %s.%s is %s in the generated file, %d for the compiler" % (kind, struct, field, g, v))
if not bad:
    print("%s: the generated layouts equal the compiler's (%d structs, %d sizes and offsets)"
          % (kind, len({s for s, _ in want}), len(want)))
sys.exit(1 if bad or len(want) < 20 else 0)
PY
if command -v "${CC:-cc}" >/dev/null 2>&1; then
    if ${CC:-cc} -std=c11 -DBALL_EXPERIMENTAL -I"$tmp/h" "$tmp/layouts.c" -o "$tmp/layouts" 2>"$tmp/cc3.out"; then
        "$tmp/layouts" >"$tmp/native.txt" && python3 "$tmp/layouts.py" native "$tmp/native.txt" "$tmp/out" ||
            fail "the generated ctypes classes differ from the C compiler's layouts (above)"
    else
        cat "$tmp/cc3.out"; fail "the layout program did not compile"
    fi
fi
if command -v emcc >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    # (Debian's emscripten finds its JavaScript modules through NODE_PATH, as mk/web.mk says)
    if NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} emcc -std=c11 -DBALL_EXPERIMENTAL -I"$tmp/h" \
           -sSINGLE_FILE=1 -sENVIRONMENT=node "$tmp/layouts.c" -o "$tmp/layouts.js" >"$tmp/emcc.out" 2>&1; then
        node "$tmp/layouts.js" >"$tmp/wasm.txt" && python3 "$tmp/layouts.py" wasm "$tmp/wasm.txt" "$tmp/out" ||
            fail "the generated wasm32 LAYOUTS differ from emscripten's (above)"
    else
        cat "$tmp/emcc.out"; fail "emcc could not build the layout program"
    fi
else
    skip "no emcc or node (Debian: emscripten, nodejs): the wasm32 layouts not compared with emscripten's"
fi

finish
