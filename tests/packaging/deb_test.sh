#!/bin/sh
# The Debian packages (debian/; docs/guide.md, "Debian packages"): `make
# deb DEB_DIR=build/deb-test` installs what is missing (scripts/deps.sh
# deb, as root), builds libball1, libball-dev, ball-tools and
# python3-libball with dpkg-buildpackage -us -uc -b from a copy of the
# source tree in build/deb-test/src (nothing is written outside build/)
# and runs lintian on the .changes, which fails on any error. Then every
# .deb is unpacked with dpkg-deb -x into a scratch root, and from there:
# each package holds its files; examples/minimal.c builds through the
# unpacked libball.pc (PKG_CONFIG_SYSROOT_DIR) and runs against the
# unpacked libball.so.1; a CMake project finds libball-dev's package with
# find_package(libball 1.1) and runs; the unpacked `ball` runs; the
# unpacked Python package imports (PYTHONPATH) with the unpacked library
# and plays a decision; debian/libball1.symbols is the one
# debian/gen-symbols.sh writes from libball/exports.map. Run from the
# repository root. Prints each failure; exits 1 if any.
# Run alone (installs packages with apt; one package build, about half a
# minute) and not in the quick subset (docs/testing.md):
# run-tests: serial slow

# Skipped in the sanitizer and coverage runs of the suite (make
# check-asan, make coverage): the package build compiles its own library
# with dpkg's flags, so those runs would not test their build.
. tests/lib/instrumented.sh
skip_if_instrumented any "the package build compiles its own library"
. tests/lib/shell-test.sh
MAKE=${MAKE:-make}

if ! sh scripts/deps.sh deb >"$tmp/deps.log" 2>&1; then
    cat "$tmp/deps.log"
    echo "SKIP: the Debian packaging tools are missing (make check installs them as root: sh scripts/deps.sh deb)"
    exit 77
fi
hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
major=$(hdr BALL_VERSION_MAJOR)
minor=$(hdr BALL_VERSION_MINOR)
version=$major.$minor.$(hdr BALL_VERSION_PATCH)
debver=$(dpkg-parsechangelog -l debian/changelog -S Version)
case $debver in
    "$version"-*) ;;
    *) fail "debian/changelog is at $debver, not at the library's version $version (include/ball.h)" ;;
esac
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
out=${BALL_BUILD:-$(pwd)/build}/deb-test
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

# ---- the symbols file is the generated one
sh debian/gen-symbols.sh >"$tmp/symbols" || fail "debian/gen-symbols.sh failed"
cmp -s "$tmp/symbols" debian/libball1.symbols ||
    fail "debian/libball1.symbols is not what debian/gen-symbols.sh writes from libball/exports.map (make deb-symbols): $(diff debian/libball1.symbols "$tmp/symbols" | head -n 10)"

# ---- build and lintian
start=$(date +%s)
if ! $MAKE --no-print-directory deb DEB_DIR="$out" >"$tmp/deb.log" 2>&1; then
    cat "$tmp/deb.log"
    echo "FAIL: make deb DEB_DIR=$out"
    exit 1
fi
took=$(($(date +%s) - start))
# dpkg-buildpackage wrote into $out, the parent of the copy, and nowhere else.
for p in libball1 libball-dev ball-tools; do
    [ -f "$out/${p}_${debver}_$arch.deb" ] || fail "not built: ${p}_${debver}_$arch.deb"
done
[ -f "$out/python3-libball_${debver}_$arch.deb" ] || fail "not built: python3-libball_${debver}_$arch.deb"
[ -f "$out/lintian.log" ] || fail "make deb wrote no lintian.log"
if grep -q '^E: ' "$out/lintian.log"; then
    fail "lintian errors: $(grep '^E: ' "$out/lintian.log")"
fi
echo "packages built and checked with lintian in $took s:"
for d in "$out"/*.deb; do
    echo "  $(basename "$d") $(wc -c <"$d") bytes"
done
echo "lintian: $(grep -c '^E: ' "$out/lintian.log") errors, $(grep -c '^W: ' "$out/lintian.log") warnings$(
    grep '^W: ' "$out/lintian.log" | sed 's/^W: [^:]*: \([^ ]*\).*/\1/' | sort | uniq -c |
        awk '{ printf "%s%s x%d", (NR == 1 ? " (" : ", "), $2, $1 } END { if (NR) printf ")" }')"

# ---- unpack everything into a scratch root
root=$tmp/root
mkdir -p "$root"
for d in "$out"/*.deb; do
    dpkg-deb -x "$d" "$root" || fail "dpkg-deb -x $(basename "$d")"
done
lib=$root/usr/lib/$ma
# which package holds what (dpkg-deb -c of each)
contents() { dpkg-deb -c "$out/$1" | awk '{ print $6 }' | sed 's|^\./|/|'; }
has() {
    contents "$1" | grep -qx "$2" || fail "$1 lacks $2"
}
has "libball1_${debver}_$arch.deb" "/usr/lib/$ma/libball.so.$version"
has "libball1_${debver}_$arch.deb" "/usr/lib/$ma/libball.so.$major"
has "libball1_${debver}_$arch.deb" /usr/share/doc/libball1/copyright
for f in /usr/include/ball.h "/usr/lib/$ma/libball.a" "/usr/lib/$ma/libball.so" \
         "/usr/lib/$ma/pkgconfig/libball.pc" "/usr/lib/$ma/cmake/libball/libballConfig.cmake" \
         "/usr/lib/$ma/cmake/libball/libballConfigVersion.cmake" /usr/share/doc/libball-dev/guide.md \
         /usr/share/doc/libball-dev/rules.md /usr/share/doc/libball-dev/diagrams/start.svg; do
    has "libball-dev_${debver}_$arch.deb" "$f"
done
has "ball-tools_${debver}_$arch.deb" /usr/bin/ball
has "ball-tools_${debver}_$arch.deb" /usr/share/man/man1/ball.1.gz
for f in /usr/bin/ball-play /usr/bin/ball-selfplay /usr/share/man/man1/ball-play.1.gz \
         /usr/share/man/man1/ball-selfplay.1.gz; do
    has "ball-tools_${debver}_$arch.deb" "$f"
done
has "ball-tools_${debver}_$arch.deb" /usr/share/libball/openings.txt
has "ball-tools_${debver}_$arch.deb" /usr/share/libball/value.net
has "ball-tools_${debver}_$arch.deb" /usr/share/libball/nnue.net
has "python3-libball_${debver}_$arch.deb" /usr/lib/python3/dist-packages/libball/__init__.py
has "python3-libball_${debver}_$arch.deb" /usr/lib/python3/dist-packages/libball/_native.py
has "python3-libball_${debver}_$arch.deb" /usr/lib/python3/dist-packages/libball/_speed.pyi
contents "python3-libball_${debver}_$arch.deb" | grep -q 'dist-packages/libball/_speed\.cpython-[^/]*\.so$' ||
    fail "python3-libball lacks its extension module libball/_speed.*.so"
contents "python3-libball_${debver}_$arch.deb" | grep '_lib/\|\.so' | grep -qv '/libball/_speed\.[^/]*\.so$' &&
    fail "python3-libball carries a library of its own: $(contents "python3-libball_${debver}_$arch.deb" | grep '_lib/\|\.so')"
# the dependencies: the library package by its shlibs/symbols
dpkg-deb -f "$out/libball-dev_${debver}_$arch.deb" Depends | grep -q "libball1 (= $debver)" ||
    fail "libball-dev does not depend on libball1 (= $debver)"
dpkg-deb -f "$out/python3-libball_${debver}_$arch.deb" Depends | grep -q "libball1 (>= $version)" ||
    fail "python3-libball does not depend on libball1 (>= $version): $(dpkg-deb -f "$out/python3-libball_${debver}_$arch.deb" Depends)"
# libball1's shlibs come from the symbols file (dpkg-gensymbols)
dpkg-deb --ctrl-tarfile "$out/libball1_${debver}_$arch.deb" | tar -tf - | grep -q '^\./symbols$' ||
    fail "libball1 has no symbols control file"

# ---- a C program built through the unpacked libball.pc, run against the
# unpacked library
expected='after undo: *7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X\*3/6/3S3/6/7 DEF a 2 - 0/0 1'
CC=${CC:-cc}
pcenv="PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR=$root"
# shellcheck disable=SC2086
flags=$(env $pcenv pkg-config --cflags --libs libball) || fail "pkg-config --cflags --libs libball on the unpacked root"
# shellcheck disable=SC2086
[ "$(env $pcenv pkg-config --modversion libball)" = "$version" ] || fail "the unpacked libball.pc is not at version $version"
case $flags in
    *"-I$root/usr/include"*"-L$lib"*) ;;
    *) fail "pkg-config flags do not point into the unpacked root: $flags" ;;
esac
# shellcheck disable=SC2086
if $CC -std=c11 -Wall -Wextra -Werror examples/minimal.c $flags -o "$tmp/minimal" 2>"$tmp/cc.log"; then
    env LD_LIBRARY_PATH="$lib" "$tmp/minimal" >"$tmp/minimal.out" 2>&1 ||
        fail "minimal against the unpacked library exited $?: $(cat "$tmp/minimal.out")"
    # the position after undo is the standard start (docs/spec.md, N1)
    grep -qx "$expected" "$tmp/minimal.out" || fail "minimal printed: $(cat "$tmp/minimal.out")"
    LD_LIBRARY_PATH="$lib" ldd "$tmp/minimal" | grep -q "libball.so.$major => $lib/" ||
        fail "minimal does not load $lib/libball.so.$major: $(LD_LIBRARY_PATH="$lib" ldd "$tmp/minimal" | grep libball)"
    echo "C: examples/minimal.c built with the unpacked libball.pc and run against the unpacked libball.so.$major: ok"
else
    cat "$tmp/cc.log"
    fail "cannot build examples/minimal.c against the unpacked libball-dev"
fi

# ---- CMake: libball-dev's package under lib/$ma/cmake/libball
if command -v cmake >/dev/null 2>&1; then
    mkdir -p "$tmp/app"
    cp examples/minimal.c "$tmp/app/app.c"
    cat >"$tmp/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(libball $major.$minor REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE libball::libball)
file(WRITE "\${CMAKE_BINARY_DIR}/found.txt" "\${libball_VERSION} \${libball_DIR}\n")
CMAKE
    if cmake -S "$tmp/app" -B "$tmp/app-build" -DCMAKE_PREFIX_PATH="$root/usr" >"$tmp/cmake.log" 2>&1 &&
            cmake --build "$tmp/app-build" >>"$tmp/cmake.log" 2>&1; then
        read -r found dir <"$tmp/app-build/found.txt"
        [ "$found" = "$version" ] || fail "cmake: find_package found version $found, expected $version"
        [ "$dir" = "$lib/cmake/libball" ] || fail "cmake: libball_DIR is $dir, not $lib/cmake/libball"
        LD_LIBRARY_PATH="$lib" "$tmp/app-build/app" 2>&1 | grep -qx "$expected" ||
            fail "cmake: the app linked with libball::libball does not print the start after undo"
        echo "CMake: find_package(libball $major.$minor) found $lib/cmake/libball, the app built and ran: ok"
    else
        cat "$tmp/cmake.log"
        fail "cmake could not build a project with find_package(libball $major.$minor) against the unpacked root"
    fi
else
    skip "cmake not installed (Debian: cmake; sh scripts/deps.sh deb installs it); the CMake package of libball-dev not tried"
fi

# ---- the unpacked tool
"$root/usr/bin/ball" --version 2>&1 | grep -q "$version" ||
    fail "the unpacked ball --version does not print $version: $("$root/usr/bin/ball" --version 2>&1)"
# perft 3 from the standard start: 16283 (docs/spec.md, the perft table)
n=$("$root/usr/bin/ball" perft 3 2>&1)
[ "$n" = 16283 ] || fail "the unpacked ball perft 3 printed $n, not 16283"
if command -v man >/dev/null 2>&1; then
    man -l "$root/usr/share/man/man1/ball.1.gz" 2>/dev/null | grep -q 'ball' ||
        fail "the unpacked man page does not render"
fi
printf 'legal\nquit\n' | "$root/usr/bin/ball-play" --atk human --def human 2>&1 | grep -q '^55 legal decisions: .* E11-F10 ' ||
    fail "the unpacked ball-play does not list the legal decisions"
"$root/usr/bin/ball-selfplay" --games 2 2>&1 | grep -q '^selfplay: 2 games' ||
    fail "the unpacked ball-selfplay does not play 2 games"
echo "ball-tools: ball --version and perft 3 (16283) from the unpacked /usr/bin/ball, ball-play and ball-selfplay: ok"

# ---- the unpacked Python package, with the unpacked library (the loader's
# search, as for the system's copy), from an empty directory
mkdir -p "$tmp/empty"
if [ -x /usr/bin/python3 ]; then
    want=$(cd "$lib" && pwd -P)/libball.so.$version
    if (cd "$tmp/empty" && env -u LIBBALL_PATH -u LIBBALL_USE_SYSTEM PYTHONNOUSERSITE=1 \
            PYTHONPATH="$root/usr/lib/python3/dist-packages" LD_LIBRARY_PATH="$lib" \
            /usr/bin/python3 -B -c '
import os, sys, importlib.metadata, libball
root, want, version = sys.argv[1], sys.argv[2], sys.argv[3]
assert os.path.realpath(libball.__file__).startswith(os.path.realpath(root) + os.sep), libball.__file__
assert os.path.realpath(libball.LIBRARY_PATH) == want, (libball.LIBRARY_PATH, want)
assert libball.LIBRARY_VERSION == version, libball.LIBRARY_VERSION
assert importlib.metadata.version("libball") == version, importlib.metadata.version("libball")
with libball.Game() as g:
    g.apply("E11-F10")        # DEF X E11 to F10 (docs/spec.md R5): one PA left
    assert g.pa == 1, g.pa
    g.undo()
    assert g.bpn == libball.START_BPN
print("python3-libball:", libball.__version__, "with", libball.LIBRARY_PATH)
' "$root" "$want" "$version") >"$tmp/py.out" 2>&1; then
        cat "$tmp/py.out"
    else
        cat "$tmp/py.out"
        fail "the unpacked python3-libball does not import or play with the unpacked library"
    fi
else
    fail "no /usr/bin/python3 (Debian: python3), which python3-libball is for"
fi

if [ "$failures" -ne 0 ]; then
    echo "deb_test: $failures failure(s)"
    exit 1
fi
echo "deb_test: passed in $(($(date +%s) - start)) s"
finish
