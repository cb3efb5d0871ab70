#!/bin/sh
# Tests of the Python and Lua bindings, run from the repository root after
# `make` (make check does):
#   1. the Python unittest suite (bindings/python/tests), and
#      `mypy --strict` on the package when mypy is installed;
#   2. the Lua tests (bindings/lua/test_ball.lua) of the C module
#      bindings/lua/c/*.c, the one Lua implementation, built for each
#      of lua5.1 ... lua5.4 that is installed with its headers and run by
#      each, and by luajit, which loads the build for the 5.1 ABI (made
#      from lua5.1's headers, or LuaJIT's); under luajit also the learning
#      interface's tests (bindings/lua/test_learn.lua, ball_learn.lua);
#   3. the ```python and ```lua code blocks of README.md, docs/guide.md,
#      docs/bindings.md and bindings/python/README.md, run as they are (the
#      lua blocks under luajit and under each PUC Lua built in 2).
# The library under test is $LIBBALL_PATH when set, else the one of the
# build directory $B (the Makefile's B, exported to the tests when given on
# make's command line; build by default); the `ball` tool used for
# cross-checks is $BALL_TOOL, else $B/bin/ball, and the `selfplay` example
# whose MCTS decisions both bindings' searchers must repeat is $SELFPLAY,
# else $B/examples/selfplay. (pip install of the Python
# binding is tested by tests/packaging/install_test.sh.) Prints each failure; exits
# non-zero if any.
# Not in the quick subset: the Python and Lua suites take a minute or more
# (docs/testing.md).
# run-tests: slow

failures=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
root=$(pwd)
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ left in the work tree

B=${B:-build}
case $B in /*) build=$B ;; *) build=$root/$B ;; esac
major=$(sed -n 's/^#define BALL_VERSION_MAJOR \([0-9]*\)$/\1/p' include/ball.h)
if [ -n "$LIBBALL_PATH" ]; then
    lib=$LIBBALL_PATH
    [ -d "$lib" ] && lib=$lib/libball.so.$major
else
    lib=$build/libball.so.$major
fi
case $lib in /*) ;; *) lib=$root/$lib ;; esac
export LIBBALL_PATH="$lib" BALL_TOOL="${BALL_TOOL:-$build/bin/ball}" B
export SELFPLAY="${SELFPLAY:-$build/examples/selfplay}"

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
# skip REASON: a part that cannot run here; the test ends skipped (exit
# 77) unless a check failed.
skips=0
skip() {
    echo "SKIP: $*"
    skips=$((skips + 1))
}

[ -f "$lib" ] || { echo "FAIL: $lib not built (make B=$B lib)"; exit 1; }
[ -x "$BALL_TOOL" ] || fail "$BALL_TOOL not built (make B=$B tool)"
[ -x "$SELFPLAY" ] || fail "$SELFPLAY not built (make B=$B examples)"
command -v python3 >/dev/null 2>&1 || fail "python3 not found (make check installs it)"
# The Python binding's extension module (libball._speed, mk/python.mk) is
# found beside the library it runs on, in python/: built there (a no-op
# when it is up to date) for the library under test.
libdir=$(dirname "$(realpath "$lib")")
if command -v python3 >/dev/null 2>&1; then
    make -s B="$libdir" python-ext >"$tmp/ext.log" 2>&1 ||
        { cat "$tmp/ext.log"; fail "make B=$libdir python-ext (libball._speed)"; }
    ls "$libdir"/python/_speed.*so >/dev/null 2>&1 ||
        fail "no libball._speed in $libdir/python (python3's headers, Python.h, missing?)"
fi
command -v luajit >/dev/null 2>&1 || fail "luajit not found (make check installs it)"

# ---- 1. Python unittest suite
if command -v python3 >/dev/null 2>&1; then
    (cd bindings/python && python3 -m unittest discover -s tests) >"$tmp/py.log" 2>&1 ||
        { cat "$tmp/py.log"; fail "python unittest suite"; }
    tail -n 3 "$tmp/py.log" | sed -n 's/^\(Ran .*\)/python binding: \1/p'
    # The same tests of Game on the ctypes fallback (libball/_speed_ctypes.py,
    # what the package runs on where its extension cannot be built).
    (cd bindings/python/tests && PYTHONPATH=..${PYTHONPATH:+:$PYTHONPATH} LIBBALL_SPEED=ctypes \
        python3 -m unittest -q test_game test_actions \
        test_threads test_pythonic test_records test_random_trace test_errors test_limits \
        test_select_release test_cards) >"$tmp/pyct.log" 2>&1 ||
        { cat "$tmp/pyct.log"; fail "python unittest suite on the ctypes fallback (LIBBALL_SPEED=ctypes)"; }
    tail -n 3 "$tmp/pyct.log" | sed -n 's/^\(Ran .*\)/python binding, ctypes fallback: \1/p'
    if python3 -m mypy --version >/dev/null 2>&1; then mypy="python3 -m mypy"
    elif command -v mypy >/dev/null 2>&1; then mypy=mypy
    else mypy=""; fi
    if [ -n "$mypy" ]; then
        # The modules of this binding (others in the package, such as
        # learn.py, are checked only as far as these use them).
        (cd bindings/python && $mypy --strict --follow-imports=silent --cache-dir "$tmp/mypy" \
             libball/__init__.py libball/game.py libball/errors.py libball/_native.py libball/_api.py \
             libball/search.py libball/_speed_ctypes.py) \
            >"$tmp/mypy.log" 2>&1 ||
            { cat "$tmp/mypy.log"; fail "mypy --strict bindings/python/libball"; }
        tail -n 1 "$tmp/mypy.log" | sed 's/^/python binding: mypy --strict: /'
    else
        skip "python binding: mypy not installed (Debian: mypy), mypy --strict not run; the typing smoke test (test_pythonic) ran"
    fi
fi
# The learning tests once more under a python3 that has numpy (Debian's
# python3-numpy) when the one above has not: learn.py's numpy views, after
# its array.array fallback.
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import numpy' >/dev/null 2>&1 &&
   [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1; then
    (cd bindings/python && ${LIBBALL_RUN:-} /usr/bin/python3 -m unittest discover -s tests -p 'test_learn*.py') \
        >"$tmp/pynp.log" 2>&1 || { cat "$tmp/pynp.log"; fail "python learn tests with numpy"; }
    tail -n 3 "$tmp/pynp.log" | sed -n 's/^\(Ran .*\)/python learn tests with numpy: \1/p'
elif command -v python3 >/dev/null 2>&1 && ! python3 -c 'import numpy' >/dev/null 2>&1; then
    skip "python binding: no numpy (Debian: python3-numpy); the learning tests' numpy views not tested"
fi

# ---- 2. Lua tests: the C module, built with its generated constants list
# (scripts/api-generate.py; api_generate_test checks that it is this
# ball.h's), for each PUC Lua with headers, and for LuaJIT (the 5.1 ABI:
# lua5.1's headers, else LuaJIT's own).
libdir=$(dirname "$lib")
mkdir -p "$tmp/luac"
cp bindings/lua/c/*.c bindings/lua/c/ballc*.h bindings/lua/c/ball_constants.h "$tmp/luac/"
CC=${CC:-cc}
# build V INCDIR: $tmp/luac/V/ball.so, or a failure
build_c_module() {
    mkdir -p "$tmp/luac/$1"
    $CC -std=c99 -O2 -Wall -Wextra -Werror -shared -fPIC -I"$root/include" -I"$2" \
        "$tmp/luac/"*.c -o "$tmp/luac/$1/ball.so" -L"$libdir" -l:"$(basename "$lib")" \
        >"$tmp/luac.log" 2>&1 && return 0
    cat "$tmp/luac.log"; fail "building the C module for lua$1 (headers $2)"; return 1
}
built=""
for v in 5.1 5.2 5.3 5.4; do
    inc=/usr/include/lua$v
    if [ "$v" = 5.1 ] && [ ! -f "$inc/lua.h" ] && [ -f /usr/include/luajit-2.1/lua.h ]; then
        inc=/usr/include/luajit-2.1 # the 5.1 ABI for luajit
    fi
    if [ ! -f "$inc/lua.h" ]; then
        if command -v "lua$v" >/dev/null 2>&1; then
            skip "lua binding: lua$v has no headers (Debian: liblua$v-dev); its C module not tested"
        fi
        continue
    fi
    build_c_module "$v" "$inc" && built="$built $v"
done
puc=""
for v in $built; do
    command -v "lua$v" >/dev/null 2>&1 || continue
    puc="$puc $v"
    LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_PATH=";;" LUA_CPATH="$tmp/luac/$v/?.so" \
        "lua$v" bindings/lua/test_ball.lua >"$tmp/lua.log" 2>&1 ||
        { cat "$tmp/lua.log"; fail "lua tests (lua$v, C module)"; }
    tail -n 1 "$tmp/lua.log" | sed "s/^lua binding:/lua binding (lua$v, C module):/"
done
[ -n "$puc" ] || skip "lua binding: no PUC Lua with headers installed (Debian: lua5.4 liblua5.4-dev); C module not tested under PUC Lua"
lj=""
if command -v luajit >/dev/null 2>&1; then
    case $built in
        *5.1*)
            lj=yes
            LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_PATH=";;" LUA_CPATH="$tmp/luac/5.1/?.so" \
                luajit bindings/lua/test_ball.lua >"$tmp/lua.log" 2>&1 ||
                { cat "$tmp/lua.log"; fail "lua tests (luajit, C module)"; }
            tail -n 1 "$tmp/lua.log" | sed "s/^lua binding:/lua binding (luajit, C module):/"
            LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_PATH=";;" LUA_CPATH="$tmp/luac/5.1/?.so" \
                luajit bindings/lua/test_learn.lua >"$tmp/lua_learn.log" 2>&1 ||
                { cat "$tmp/lua_learn.log"; fail "lua learn tests (luajit, ball_learn.lua over the C module)"; }
            tail -n 1 "$tmp/lua_learn.log" | sed "s/^lua learn:/lua learn (luajit, C module):/"
            ;;
        *) skip "luajit: no C module built for the 5.1 ABI (Debian: liblua5.1-0-dev or libluajit-5.1-dev); the Lua tests did not run under luajit" ;;
    esac
fi

# ---- 2b. the modules `make` builds in the tree (mk/lua.mk): each loads
# with no LD_LIBRARY_PATH, is this checkout's version and uses the
# library built beside it
for v in 5.1 5.2 5.3 5.4; do
    so=$root/build/lua/$v/ball.so
    [ -f "$so" ] || continue
    for interp in "lua$v" $([ "$v" = 5.1 ] && echo luajit); do
        command -v "$interp" >/dev/null 2>&1 || continue
        got=$(env -u LD_LIBRARY_PATH LUA_CPATH="$root/build/lua/$v/?.so" "$interp" -e \
            'local b = require("ball"); print(b.version .. " " .. b.library_path)' 2>&1) ||
            { echo "$got"; fail "build/lua/$v/ball.so does not load under $interp"; continue; }
        # the library's path resolved (build/ is a link in the sanitizer
        # and coverage runs)
        got="${got%% *} $(readlink -f "${got#* }")"
        want="$(awk '$1 == "#define" && $2 ~ /^BALL_VERSION_(MAJOR|MINOR|PATCH)$/ { v = v (v == "" ? "" : ".") $3 }
                     END { print v }' "$root/include/ball.h") $(readlink -f "$root/build/libball.so.1")"
        [ "$got" = "$want" ] || fail "build/lua/$v/ball.so under $interp: '$got', not '$want'"
    done
    echo "lua binding: build/lua/$v/ball.so loads ($v)"
done

# ---- 3. README snippets (and those of docs/guide.md)
# extract FILE LANG: writes each ```LANG block of FILE to $tmp/LANG.N,
# numbering on from the blocks already extracted; prints the new total.
extract() {
    awk -v lang="$2" -v dir="$tmp" -v n="$3" '
        $0 == "```" lang { inside = 1; n++; next }
        inside && $0 == "```" { inside = 0; next }
        inside { print > (dir "/" lang "." n) }
        END { print n + 0 }' "$1"
}
n_py=$(extract README.md python 0)
n_lua=$(extract README.md lua 0)
[ "$n_py" -ge 1 ] || fail "README.md has no \`\`\`python block"
[ "$n_lua" -ge 1 ] || fail "README.md has no \`\`\`lua block"
n_py=$(extract docs/guide.md python "$n_py")
n_lua=$(extract docs/guide.md lua "$n_lua")
n_py=$(extract docs/bindings.md python "$n_py")
n_lua=$(extract docs/bindings.md lua "$n_lua")
n_py=$(extract bindings/python/README.md python "$n_py")
i=1
while [ "$i" -le "$n_py" ] && command -v python3 >/dev/null 2>&1; do
    PYTHONPATH="$root/bindings/python" python3 "$tmp/python.$i" >"$tmp/snippet.out" 2>&1 ||
        { cat "$tmp/snippet.out"; fail "python block $i (README.md, docs/guide.md, docs/bindings.md, then bindings/python/README.md)"; }
    i=$((i + 1))
done
i=1
while [ "$i" -le "$n_lua" ]; do
    if [ -n "$lj" ]; then
        LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_PATH="$root/bindings/lua/?.lua;;" \
            LUA_CPATH="$tmp/luac/5.1/?.so" luajit "$tmp/lua.$i" >"$tmp/snippet.out" 2>&1 ||
            { cat "$tmp/snippet.out"; fail "lua block $i (README.md, docs/guide.md, then docs/bindings.md) under luajit"; }
    fi
    for v in $puc; do
        LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LUA_PATH=";;" \
            LUA_CPATH="$tmp/luac/$v/?.so" "lua$v" "$tmp/lua.$i" >"$tmp/snippet.out" 2>&1 ||
            { cat "$tmp/snippet.out"; fail "lua block $i (README.md, docs/guide.md, then docs/bindings.md) under lua$v"; }
    done
    i=$((i + 1))
done
echo "snippets: $n_py python and $n_lua lua blocks of README.md, docs/guide.md, docs/bindings.md and bindings/python/README.md ran (lua under ${lj:+luajit}${lj:+${puc:+ and }}${puc:+lua}$(echo $puc | sed 's/ /, lua/g'))"

if [ "$failures" -ne 0 ]; then
    echo "bindings_test: $failures failure(s)"
    exit 1
fi
if [ "$skips" -ne 0 ]; then
    echo "bindings_test: all that ran passed; $skips part(s) skipped"
    exit 77
fi
echo "bindings_test: all passed"
