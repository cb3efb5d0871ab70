#!/bin/sh
# Installs the Python binding with the command of bindings/python/README.md
# into a fresh venv outside the repository (the wheel bundles libball.so.1,
# compiled from this repository's sources) and imports it from an empty
# directory, with no LIBBALL_* variable; checks its sdist;
# then installs libball into a scratch DESTDIR, checks the installed files,
# checks that the Python package loads that copy with LIBBALL_USE_SYSTEM=1,
# builds the PUC Lua C module with its rockspec (luarocks make, offline,
# into a local tree) against the installed copy, builds and
# runs examples/minimal.c against the installed copy through pkg-config,
# installs to a non-system prefix (no DESTDIR) and builds and runs a
# program there the way docs/guide.md documents (-Wl,-rpath),
# checks the shared library's soname and exported symbols, then
# uninstalls. Run from the repository root (make check does; the build
# directory is $B, build by default). Prints each failure; exits non-zero
# if any.
# Not in the quick subset: pip compiles the library twice (docs/testing.md).
# run-tests: slow

# Skipped in the sanitizer and coverage runs of the suite (make
# check-asan, make coverage): pip builds the library anew with plain cc,
# so those runs would not test their own build, only run this again.
. tests/lib/instrumented.sh
skip_if_instrumented any "pip builds its own library"

MAKE=${MAKE:-make}
. tests/lib/shell-test.sh

hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
major=$(hdr BALL_VERSION_MAJOR)
version=$major.$(hdr BALL_VERSION_MINOR).$(hdr BALL_VERSION_PATCH)
root=$tmp/root
lib=$root/usr/lib
repo=$(pwd)
B=${B:-build}

# ---- the Python binding: the README's install command, offline, in a
# plain venv outside the repository, for python3 and Debian's
# /usr/bin/python3 when it is another interpreter (the two at once: each
# compiles the library). The wheel compiles and bundles libball.so.1 from
# the repository's sources; the package must then work from an empty
# directory with no LIBBALL_* (or LD_LIBRARY_PATH) variable.
readme=bindings/python/README.md
# The first ```sh block of the README, run as it is from a scratch
# directory, with ./bindings/python pointing at this repository's copy.
awk '$0 == "```sh" { inside = 1; next } inside && $0 == "```" { exit }
     inside { print }' "$readme" >"$tmp/pip-install.sh"
grep -q 'pip install .*\./bindings/python' "$tmp/pip-install.sh" ||
    fail "$readme: no \`\`\`sh block with the pip install ./bindings/python command"
sed "s|\\./bindings/python|'$repo/bindings/python'|g" "$tmp/pip-install.sh" >"$tmp/pip-install-repo.sh"
# No LIBBALL_* variable, no library path, no extra module path; pip offline
# (no index, no find-links, no configuration file).
clean_env="env -u LIBBALL_PATH -u LIBBALL_USE_SYSTEM -u LD_LIBRARY_PATH -u PYTHONPATH -u PIP_FIND_LINKS
    PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1"
mkdir -p "$tmp/empty" || exit 1
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# python_install WORK PYTHON: runs the README's commands in WORK with
# PYTHON as python3, then checks the installed package from an empty
# directory. Prints FAIL: lines (counted by the caller); creates WORK/ok
# when all passed.
python_install() {
    mkdir -p "$1/bin" || return 1
    ln -s "$2" "$1/bin/python3" # `python3` of the README is this one
    start=$(now)
    # shellcheck disable=SC2086
    if ! (cd "$1" && $clean_env PATH="$1/bin:$PATH" sh -e "$tmp/pip-install-repo.sh") \
            >"$1/pip.log" 2>&1; then
        cat "$1/pip.log"
        echo "FAIL: python binding: the install command of $readme failed with $2"
        return 1
    fi
    took=$(since "$start")
    # shellcheck disable=SC2086
    perft=$(cd "$tmp/empty" && $clean_env "$1/venv/bin/python" -c \
        'import libball; g = libball.Game(); print(g.perft(2))' 2>&1)
    if [ "$perft" != 3238 ]; then
        echo "FAIL: python binding ($2): perft(2) from an empty directory printed: $perft"
        return 1
    fi
    # shellcheck disable=SC2086
    if ! (cd "$tmp/empty" && $clean_env "$1/venv/bin/python" -c '
import os, sys, libball
prefix = os.path.realpath(sys.prefix) + os.sep
where = os.path.realpath(libball.__file__)
assert where.startswith(prefix), where
library = os.path.realpath(libball.LIBRARY_PATH)
assert library.startswith(prefix), "library outside the venv: " + library
assert os.path.basename(library) == "libball.so.1", library
with libball.Game() as g:
    g.apply("E11-F10")
    assert g.pa == 1, g.pa
with libball.Game(rules_text="atk=Sprint:2:pa+1") as g:
    assert g.cards("ATK")[0].name == "Sprint"
print("installed", libball.__version__, "at", where, "library", library, libball.LIBRARY_VERSION)
') >"$1/import.log" 2>&1; then
        cat "$1/import.log"
        echo "FAIL: python binding ($2): the installed package does not import or work"
        return 1
    fi
    wheel=$(find "$1"/venv/lib/python*/site-packages -path '*/libball-*.dist-info/WHEEL' | head -n 1)
    if ! grep -qx 'Root-Is-Purelib: false' "$wheel" || grep -q '^Tag: .*-any$' "$wheel"; then
        echo "FAIL: python binding ($2): the wheel is not tagged for the platform: $(cat "$wheel")"
        return 1
    fi
    echo "python binding: venv, pip install ./bindings/python (${took} s) and import from an empty directory with $2: ok"
    : >"$1/ok"
}
seen=""
n=0
for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    real=$("$py" -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null) || continue
    case " $seen " in *" $real "*) continue ;; esac
    seen="$seen $real"
    if ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        skip "python binding: $real has no venv/ensurepip (Debian: python3-venv)"
        continue
    fi
    n=$((n + 1))
    python_install "$tmp/py$n" "$real" >"$tmp/py$n.out" 2>&1 &
done
wait
[ "$n" -gt 0 ] || skip "python binding: no python3 with venv and ensurepip; pip install not tested"
i=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    cat "$tmp/py$i.out"
    failures=$((failures + $(grep -c '^FAIL:' "$tmp/py$i.out")))
    [ -f "$tmp/py$i/ok" ] || grep -q '^FAIL:' "$tmp/py$i.out" ||
        fail "python binding: the install with interpreter $i stopped without a result"
done
pyvenv=""
[ -f "$tmp/py1/ok" ] && pyvenv=$tmp/py1/venv
left=$(find "$repo/bindings/python" -name __pycache__ -prune -o \
           \( -name '*.egg-info' -o -name build -o -name _lib -o -name '*.so*' -o -name '*.whl' \) -print)
[ -n "$left" ] && fail "python binding: the install left build files in the source tree: $left"
# The sdist carries the C sources (csrc/), and a wheel built from it,
# away from the repository, compiles those.
mkdir -p "$tmp/sdist" || exit 1
if sdist=$(cd bindings/python && python3 -B -c '
import sys
sys.path.insert(0, "build_backend")
import libball_build
print(libball_build.build_sdist(sys.argv[1]))' "$tmp/sdist" 2>"$tmp/sdist.log") &&
        tar -xzf "$tmp/sdist/$sdist" -C "$tmp/sdist"; then
    unpacked=$tmp/sdist/${sdist%.tar.gz}
    for f in csrc/include/ball.h csrc/libball/exports.map csrc/libball/game.c libball/_native.py; do
        [ -f "$unpacked/$f" ] || fail "python binding: the sdist lacks $f"
    done
    from=$(cd "$unpacked" && python3 -B -c '
import sys
sys.path.insert(0, "build_backend")
import libball_build
print(libball_build._c_sources())' 2>&1)
    [ "$from" = "$(cd "$unpacked" && pwd -P)/csrc" ] ||
        fail "python binding: a wheel built from the sdist would compile $from, not its csrc/"
else
    cat "$tmp/sdist.log"
    fail "python binding: build_sdist failed"
fi

# ---- install
if ! $MAKE --no-print-directory install DESTDIR="$root" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: make install"
    exit 1
fi

for f in usr/include/ball.h usr/lib/libball.a "usr/lib/libball.so.$version" \
         usr/lib/pkgconfig/libball.pc usr/bin/ball usr/bin/ball-play usr/bin/ball-selfplay \
         usr/share/man/man1/ball-play.1 usr/share/man/man1/ball-selfplay.1; do
    [ -f "$root/$f" ] || fail "not installed: /$f"
done
[ -L "$lib/libball.so.$major" ] || fail "libball.so.$major is not a symlink"
[ -L "$lib/libball.so" ] || fail "libball.so is not a symlink"
[ -e "$lib/libball.so" ] || fail "libball.so is a dangling symlink"
[ "$(readlink "$lib/libball.so.$major")" = "libball.so.$version" ] ||
    fail "libball.so.$major -> $(readlink "$lib/libball.so.$major"), expected libball.so.$version"
[ -x "$root/usr/bin/ball" ] || fail "bin/ball is not executable"
grep -q "^Version: $version\$" "$lib/pkgconfig/libball.pc" 2>/dev/null ||
    fail "libball.pc does not say Version: $version"
grep -q '@' "$lib/pkgconfig/libball.pc" 2>/dev/null && fail "libball.pc has unreplaced @VARIABLES@"

# ---- the installed tool runs
"$root/usr/bin/ball" --version 2>/dev/null | grep -q "$version" ||
    fail "installed ball --version does not print $version"
# and the examples installed with it (ball-play, ball-selfplay), from an
# empty directory: linked statically, they need nothing of the build tree
(cd "$tmp" && printf 'legal\nquit\n' | "$root/usr/bin/ball-play" --atk human --def human) 2>&1 |
    grep -q '^55 legal decisions: .* E11-F10 ' || fail "installed ball-play does not list the legal decisions"
(cd "$tmp" && "$root/usr/bin/ball-selfplay" --games 2) 2>&1 | grep -q '^selfplay: 2 games' ||
    fail "installed ball-selfplay does not play 2 games"

# ---- the installed Python package loads the system's library when asked
if [ -n "$pyvenv" ]; then
    want=$(cd "$lib" && pwd -P)/libball.so.$version
    got=$(cd "$tmp/empty" && env -u LIBBALL_PATH -u PYTHONPATH LIBBALL_USE_SYSTEM=1 \
              LD_LIBRARY_PATH="$lib" "$pyvenv/bin/python" -c '
import libball
assert libball.Game().perft(2) == 3238
print(libball.LIBRARY_PATH)' 2>&1)
    [ "$got" = "$want" ] ||
        fail "python binding: with LIBBALL_USE_SYSTEM=1 it loads $got, not the installed $want"
fi

# ---- build an example against the installed copy, found through pkg-config
flags=$(PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_LIBDIR="$lib/pkgconfig" \
        PKG_CONFIG_SYSROOT_DIR="$root" \
        PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
        pkg-config --cflags --libs libball) || fail "pkg-config --cflags --libs libball"
case $flags in
    *"-I$root/usr/include"*"-L$lib"*) ;;
    *)  # pkg-config without sysroot support: rewrite a copy of the .pc file.
        mkdir -p "$tmp/pc"
        sed "s|^prefix=.*|prefix=$root/usr|; s|=/usr/|=$root/usr/|" \
            "$lib/pkgconfig/libball.pc" >"$tmp/pc/libball.pc"
        flags=$(PKG_CONFIG_PATH="$tmp/pc" PKG_CONFIG_LIBDIR="$tmp/pc" \
                PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
                pkg-config --cflags --libs libball) || fail "pkg-config on rewritten libball.pc"
        ;;
esac
case $flags in
    *"-I$root/usr/include"*"-L$lib"*) ;;
    *) fail "pkg-config flags do not point into DESTDIR: $flags" ;;
esac

# ---- the Lua C module: the rockspec builds it against the installed
# copy (found by pkg-config) into a local tree, offline, for each lua5.x
# with headers; then `require "ball"` loads it from that tree (and under
# luajit the 5.1 build, with ball_learn.lua installed beside it).
if command -v luarocks >/dev/null 2>&1; then
    tried=0
    mkdir -p "$tmp/lua-pc"
    sed "s|^prefix=.*|prefix=$root/usr|; s|=/usr/|=$root/usr/|" \
        "$lib/pkgconfig/libball.pc" >"$tmp/lua-pc/libball.pc"
    for v in 5.1 5.2 5.3 5.4; do
        command -v "lua$v" >/dev/null 2>&1 && [ -f "/usr/include/lua$v/lua.h" ] || continue
        tried=$((tried + 1))
        rm -rf "$tmp/lua-src" && cp -R bindings/lua "$tmp/lua-src"
        if ! (cd "$tmp/lua-src" && PKG_CONFIG_PATH="$tmp/lua-pc" \
                  luarocks --lua-version="$v" make --tree="$tmp/rocks" libball-1.1.0-1.rockspec) \
                >"$tmp/luarocks.log" 2>&1; then
            cat "$tmp/luarocks.log"
            fail "luarocks make of bindings/lua/libball-1.1.0-1.rockspec for lua$v"
            continue
        fi
        # No LD_LIBRARY_PATH: the module's run path (the rockspec's
        # -Wl,-rpath, libball.pc's libdir) finds the library.
        out=$(cd "$tmp" && env -u LD_LIBRARY_PATH LUA_PATH=";;" \
                  LUA_CPATH="$tmp/rocks/lib/lua/$v/?.so" "lua$v" -e '
local ball = require("ball")
local g = ball.new({ rules_text = "atk=Sprint:2:pa+1" })
g:apply("E11-F10")
assert(g:pa() == 1 and g:cards("ATK")[1].name == "Sprint" and ball.backend == "c")
print(ball.version, ball.library_path)' 2>&1) ||
            { echo "$out"; fail "lua$v: the module installed by luarocks does not load or work"; continue; }
        case $out in
            *"$lib/libball.so.$major"*) echo "lua binding: luarocks make and require with lua$v: ok" ;;
            *) fail "lua$v: the luarocks module loads another libball: $out" ;;
        esac
        # LuaJIT loads the 5.1 build, and the learning interface the
        # rockspec installs beside it works over its games.
        if [ "$v" = 5.1 ] && command -v luajit >/dev/null 2>&1; then
            out=$(cd "$tmp" && env -u LD_LIBRARY_PATH LUA_PATH="$tmp/rocks/share/lua/5.1/?.lua" \
                      LUA_CPATH="$tmp/rocks/lib/lua/5.1/?.so" luajit -e '
local ball, learn = require("ball"), require("ball_learn")
local g = ball.new()
assert(learn.to_index(g, "E11-F10") == 41 and ball.backend == "c")
assert(type(g:hash()) == "cdata")
print(ball.library_path)' 2>&1) ||
                { echo "$out"; fail "luajit: the luarocks module (5.1 build) or ball_learn.lua does not load or work"; continue; }
            case $out in
                *"$lib/libball.so.$major"*) echo "lua binding: luarocks make (5.1) and require ball, ball_learn with luajit: ok" ;;
                *) fail "luajit: the luarocks module loads another libball: $out" ;;
            esac
        fi
    done
    [ "$tried" -gt 0 ] || skip "lua binding: no lua5.x with headers (Debian: liblua5.4-dev); rockspec not tested"
else
    skip "lua binding: luarocks not installed (Debian: luarocks); rockspec not tested"
fi

CC=${CC:-cc}
WARN="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# shellcheck disable=SC2086
if $CC $WARN examples/minimal.c $flags -o "$tmp/minimal" 2>"$tmp/cc.log"; then
    LD_LIBRARY_PATH="$lib" "$tmp/minimal" >"$tmp/minimal.out" 2>&1 ||
        fail "minimal (shared) exited $?: $(cat "$tmp/minimal.out")"
    # Hand-derived from docs/spec.md: DEF's X steps from E11 to F10, then undo.
    grep -qx 'after E11-F10: 7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X\*3/6/3S3/6/7 DEF a 1 - 0/0 1' \
        "$tmp/minimal.out" || fail "minimal (shared) printed: $(cat "$tmp/minimal.out")"
    grep -qx 'after undo: *7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X\*3/6/3S3/6/7 DEF a 2 - 0/0 1' \
        "$tmp/minimal.out" || fail "minimal (shared): undo did not restore the start"
    # It must load the installed library, not another copy.
    if command -v ldd >/dev/null 2>&1; then
        LD_LIBRARY_PATH="$lib" ldd "$tmp/minimal" | grep -q "libball.so.$major => $lib/" ||
            fail "minimal does not load $lib/libball.so.$major"
    fi
else
    cat "$tmp/cc.log"
    fail "cannot build examples/minimal.c against the installed copy"
fi
# Static linking against the installed archive works too.
# shellcheck disable=SC2086
if $CC $WARN -I"$root/usr/include" examples/minimal.c "$lib/libball.a" -o "$tmp/minimal-static" 2>"$tmp/cc.log"; then
    "$tmp/minimal-static" >/dev/null 2>&1 || fail "minimal (static) exited $?"
else
    cat "$tmp/cc.log"
    fail "cannot build examples/minimal.c against the installed libball.a"
fi

# ---- soname and exported symbols
so=$lib/libball.so.$version
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$so" | grep -q "SONAME.*\\[libball\\.so\\.$major\\]" ||
        fail "soname of libball.so.$version is not libball.so.$major: $(readelf -d "$so" | grep SONAME)"
elif command -v objdump >/dev/null 2>&1; then
    objdump -p "$so" | grep -q "SONAME  *libball\\.so\\.$major\$" || fail "soname is not libball.so.$major"
else
    fail "neither readelf nor objdump found"
fi
if nm -D --defined-only "$so" >"$tmp/syms" 2>/dev/null; then
    # Columns: value type name. Names carry their version node
    # (@@LIBBALL_<major>.<minor>, or @@LIBBALL_EXPERIMENTAL for the
    # experimental tier, docs/abi.md); the nodes themselves are listed as
    # absolute symbols.
    nodes="^LIBBALL_(${major}[.][0-9]+|EXPERIMENTAL)\$"
    awk -v nodes="$nodes" '$NF !~ nodes { sub(/@.*/, "", $NF); print $NF }' "$tmp/syms" |
        grep -v '^ball_' >"$tmp/foreign"
    [ -s "$tmp/foreign" ] && fail "exported symbols without the ball_ prefix: $(tr '\n' ' ' <"$tmp/foreign")"
    awk -v nodes="$nodes" '$NF !~ nodes { n = split($NF, v, "@@"); if (n != 2 || v[2] !~ nodes) print $NF }' \
        "$tmp/syms" >"$tmp/unversioned"
    [ -s "$tmp/unversioned" ] &&
        fail "exported symbols outside a LIBBALL_$major.x version node: $(tr '\n' ' ' <"$tmp/unversioned")"
    grep -q " ball_game_new@@LIBBALL_${major}[.]0\$" "$tmp/syms" ||
        fail "ball_game_new is not exported in version node LIBBALL_$major.0"
else
    fail "nm -D --defined-only failed"
fi

# ---- a non-system prefix, the documented way (docs/guide.md, "Installing
# to a prefix"): make install PREFIX=..., pkg-config through
# PKG_CONFIG_PATH, -Wl,-rpath; the program runs with no LD_LIBRARY_PATH.
# Without the run path it does not start (libball.pc has none: the reason
# the guide documents one), and LD_LIBRARY_PATH is the other way.
guide=docs/guide.md
awk '/^### Installing to a prefix/ { sec = 1; next } sec && /^#/ { exit }
     sec && $0 == "```sh" { inside = 1; next } inside && $0 == "```" { exit }
     inside { print }' "$guide" >"$tmp/prefix.sh"
grep -q 'make install PREFIX=' "$tmp/prefix.sh" && grep -q -- '-Wl,-rpath,' "$tmp/prefix.sh" ||
    fail "$guide: no \`\`\`sh block with make install PREFIX= and -Wl,-rpath in \"Installing to a prefix\""
cp examples/minimal.c "$tmp/game.c"
home=$tmp/home
prefix=$home/.local
mkdir -p "$home"
# The guide's commands, from the repository root, with HOME a scratch
# directory and game.c examples/minimal.c; no LD_LIBRARY_PATH.
sed -e "s| game\.c | '$tmp/game.c' |" -e "s|-o game\$|-o '$tmp/game'|" -e "s|^\./game\$|'$tmp/game'|" \
    "$tmp/prefix.sh" >"$tmp/prefix-run.sh"
if (env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH HOME="$home" MAKE="$MAKE" sh -e "$tmp/prefix-run.sh") \
        >"$tmp/prefix.log" 2>&1; then
    grep -qx 'after undo: *7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X\*3/6/3S3/6/7 DEF a 2 - 0/0 1' \
        "$tmp/prefix.log" || fail "the program of \"Installing to a prefix\" printed: $(tail -n 5 "$tmp/prefix.log")"
    if command -v ldd >/dev/null 2>&1; then
        env -u LD_LIBRARY_PATH ldd "$tmp/game" | grep -q "libball.so.$major => $prefix/lib/" ||
            fail "the program of \"Installing to a prefix\" does not load $prefix/lib/libball.so.$major"
    fi
    grep -q "^Libs:.*rpath" "$prefix/lib/pkgconfig/libball.pc" && fail "libball.pc has a run path in Libs"
    # shellcheck disable=SC2046
    $CC -std=c11 "$tmp/game.c" $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs libball) \
        -o "$tmp/game-norpath" 2>"$tmp/cc.log" || { cat "$tmp/cc.log"; fail "cc without the run path"; }
    if env -u LD_LIBRARY_PATH "$tmp/game-norpath" >"$tmp/norpath.out" 2>&1; then
        fail "without -Wl,-rpath the program ran: libball.so.$major was found elsewhere ($(env -u LD_LIBRARY_PATH ldd "$tmp/game-norpath" 2>&1 | grep libball))"
    else
        grep -q "libball.so.$major: cannot open shared object file" "$tmp/norpath.out" ||
            fail "without -Wl,-rpath: $(cat "$tmp/norpath.out")"
    fi
    LD_LIBRARY_PATH="$prefix/lib" "$tmp/game-norpath" >/dev/null 2>&1 ||
        fail "LD_LIBRARY_PATH=$prefix/lib: the program built without a run path exited $?"
    echo "prefix install: make install PREFIX=$prefix, pkg-config and -Wl,-rpath as in $guide: ok"
else
    cat "$tmp/prefix.log"
    fail "the commands of \"Installing to a prefix\" ($guide) failed"
fi
$MAKE --no-print-directory uninstall PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 ||
    { cat "$tmp/uninstall.log"; fail "make uninstall PREFIX=$prefix"; }

# ---- uninstall
if ! $MAKE --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr >"$tmp/uninstall.log" 2>&1; then
    cat "$tmp/uninstall.log"
    fail "make uninstall"
fi
left=$(find "$root" ! -type d)
[ -n "$left" ] && fail "left after make uninstall: $left"

if [ "$failures" -ne 0 ]; then
    echo "install_test: $failures failure(s)"
    exit 1
fi
echo "install_test: all passed"
finish
