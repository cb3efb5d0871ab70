#!/bin/sh
# Tests of the Python and Lua bindings, run from the repository root after
# `make` (make check does):
#   1. the Python unittest suite (bindings/python/tests);
#   2. the Lua tests (bindings/lua/test_ball.lua) under luajit;
#   3. the ```python and ```lua code blocks of README.md (and of
#      docs/guide.md), run as they are;
#   4. `pip install` of bindings/python, offline, into a scratch venv (or
#      --target directory), then an import of the installed copy from
#      another directory with LIBBALL_PATH pointing at the built library.
# Step 4 needs an interpreter with pip, setuptools and wheel (Debian:
# python3-pip python3-setuptools python3-wheel python3-venv); without one
# it is reported as skipped. Prints each failure; exits non-zero if any.

failures=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
root=$(pwd)
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ left in the work tree
lib="$root/build/libball.so.0"

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
command -v python3 >/dev/null 2>&1 || fail "python3 not found (make check installs it)"
command -v luajit >/dev/null 2>&1 || fail "luajit not found (make check installs it)"

# ---- 1. Python unittest suite
if command -v python3 >/dev/null 2>&1; then
    (cd bindings/python && python3 -m unittest discover -s tests) >"$tmp/py.log" 2>&1 ||
        { cat "$tmp/py.log"; fail "python unittest suite"; }
    tail -n 3 "$tmp/py.log" | sed -n 's/^\(Ran .*\)/python binding: \1/p'
fi

# ---- 2. Lua tests
if command -v luajit >/dev/null 2>&1; then
    luajit bindings/lua/test_ball.lua >"$tmp/lua.log" 2>&1 ||
        { cat "$tmp/lua.log"; fail "lua tests"; }
    tail -n 1 "$tmp/lua.log"
fi

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
i=1
while [ "$i" -le "$n_py" ] && command -v python3 >/dev/null 2>&1; do
    PYTHONPATH="$root/bindings/python" python3 "$tmp/python.$i" >"$tmp/snippet.out" 2>&1 ||
        { cat "$tmp/snippet.out"; fail "python block $i (README.md, then docs/guide.md)"; }
    i=$((i + 1))
done
i=1
while [ "$i" -le "$n_lua" ] && command -v luajit >/dev/null 2>&1; do
    LUA_PATH="$root/bindings/lua/?.lua;;" luajit "$tmp/lua.$i" >"$tmp/snippet.out" 2>&1 ||
        { cat "$tmp/snippet.out"; fail "lua block $i (README.md, then docs/guide.md)"; }
    i=$((i + 1))
done
echo "snippets: $n_py python and $n_lua lua blocks of README.md and docs/guide.md ran"

# ---- 4. pip install, offline
# The package is copied first: setuptools builds in the source directory
# and would leave build/ and *.egg-info behind in the work tree.
cp -R bindings/python "$tmp/src"
rm -rf "$tmp/src/tests"
installed=""
attempted=""
for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    "$py" -c 'import setuptools, wheel, pip' >/dev/null 2>&1 || continue
    attempted=$py
    if "$py" -m venv --system-site-packages "$tmp/venv" >/dev/null 2>&1 &&
       [ -x "$tmp/venv/bin/python" ]; then
        if "$tmp/venv/bin/python" -m pip install --no-index --no-build-isolation \
               --no-deps "$tmp/src" >"$tmp/pip.log" 2>&1; then
            installed="venv of $py"
            run_py() { (cd "$tmp" && LIBBALL_PATH="$lib" $LIBBALL_RUN "$tmp/venv/bin/python" -c "$1"); }
        fi
    fi
    if [ -z "$installed" ] &&
       "$py" -m pip install --no-index --no-build-isolation --no-deps \
           --target "$tmp/site" "$tmp/src" >"$tmp/pip.log" 2>&1; then
        installed="--target with $py"
        run_py() { (cd "$tmp" && PYTHONPATH="$tmp/site" LIBBALL_PATH="$lib" $LIBBALL_RUN "$py" -c "$1"); }
    fi
    [ -n "$installed" ] && break
    cat "$tmp/pip.log"
    fail "pip install --no-index --no-build-isolation ./bindings/python with $py"
    break
done
if [ -n "$installed" ]; then
    where=$(run_py 'import libball, os; print(os.path.dirname(libball.__file__))') ||
        fail "import of the installed package ($installed)"
    case $where in
        "$tmp"/*) ;;
        *) fail "the installed package was not the one imported: $where" ;;
    esac
    run_py '
import libball
with libball.Game() as g:
    g.apply("E11-F10")
    assert g.pa == 1, g.pa
    assert g.perft(2) > 0
print("installed package:", libball.__version__, "library", libball.LIBRARY_VERSION)
' >"$tmp/inst.out" 2>&1 || { cat "$tmp/inst.out"; fail "the installed package does not work"; }
    echo "python binding: pip install ($installed) and import: ok"
elif [ -z "$attempted" ]; then
    echo "python binding: pip install skipped: no python3 with pip, setuptools and wheel" \
         "(Debian: python3-pip python3-setuptools python3-wheel python3-venv)"
fi

if [ "$failures" -ne 0 ]; then
    echo "bindings_test: $failures failure(s)"
    exit 1
fi
echo "bindings_test: all passed"
