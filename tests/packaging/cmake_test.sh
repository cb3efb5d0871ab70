#!/bin/sh
# The CMake package (cmake/*.cmake.in, installed by make install under
# $(LIBDIR)/cmake/libball/): installs libball into a scratch prefix, then
# configures, builds and runs a tiny project with find_package(libball 1.1
# REQUIRED) and target_link_libraries(app PRIVATE libball::libball) (and
# libball::libball_static) with -DCMAKE_PREFIX_PATH; moves the installed
# tree and builds again (the paths are relative to the config file); and
# checks that find_package(libball 2.0) and a newer minor version are
# refused while 1.0 is accepted (SameMajorVersion). Uses the system's
# cmake (Debian: cmake). Run from the repository root. Prints each
# failure; exits 1 if any, 77 when cmake is missing.
. tests/lib/shell-test.sh
MAKE=${MAKE:-make}

if ! command -v cmake >/dev/null 2>&1; then
    echo "SKIP: cmake not installed (Debian: cmake); the CMake package not tested"
    exit 77
fi
hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
major=$(hdr BALL_VERSION_MAJOR)
minor=$(hdr BALL_VERSION_MINOR)
version=$major.$minor.$(hdr BALL_VERSION_PATCH)
prefix=$tmp/prefix
if ! $MAKE --no-print-directory install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: make install PREFIX=$prefix"
    exit 1
fi
for f in libballConfig.cmake libballConfigVersion.cmake; do
    [ -f "$prefix/lib/cmake/libball/$f" ] || fail "not installed: lib/cmake/libball/$f"
done
grep -n '@[A-Z_]*@' "$prefix"/lib/cmake/libball/*.cmake && fail "unreplaced @VARIABLES@ in the installed CMake files"

# project DIR WANT: a project asking for libball WANT, built against both targets.
project() {
    mkdir -p "$1"
    cp examples/minimal.c "$1/app.c"
    cat >"$1/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(libball $2 REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE libball::libball)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE libball::libball_static)
file(WRITE "\${CMAKE_BINARY_DIR}/found.txt" "\${libball_VERSION} \${libball_DIR}\n")
CMAKE
}
# build SRC BUILD PREFIX: configure (Unix Makefiles, Debug) and build.
build() {
    cmake -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$3" -DCMAKE_BUILD_TYPE=Debug >"$2.log" 2>&1 &&
        cmake --build "$2" >>"$2.log" 2>&1
}
expected='after undo: *7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X\*3/6/3S3/6/7 DEF a 2 - 0/0 1'

project "$tmp/app" 1.1
if build "$tmp/app" "$tmp/build" "$prefix"; then
    read -r found dir <"$tmp/build/found.txt"
    [ "$found" = "$version" ] || fail "find_package found version $found, expected $version"
    [ "$dir" = "$prefix/lib/cmake/libball" ] || fail "libball_DIR is $dir, not $prefix/lib/cmake/libball"
    env -u LD_LIBRARY_PATH "$tmp/build/app" >"$tmp/app.out" 2>&1 ||
        fail "the app linked with libball::libball exited $?: $(cat "$tmp/app.out")"
    grep -qx "$expected" "$tmp/app.out" || fail "the app (libball::libball) printed: $(cat "$tmp/app.out")"
    if command -v ldd >/dev/null 2>&1; then
        env -u LD_LIBRARY_PATH ldd "$tmp/build/app" | grep -q "libball.so.$major => $prefix/lib/" ||
            fail "the app does not load $prefix/lib/libball.so.$major: $(ldd "$tmp/build/app" | grep libball)"
        ldd "$tmp/build/app_static" | grep -q libball && fail "app_static (libball::libball_static) loads libball.so"
    fi
    "$tmp/build/app_static" >"$tmp/app_static.out" 2>&1 && grep -qx "$expected" "$tmp/app_static.out" ||
        fail "the app linked with libball::libball_static printed: $(cat "$tmp/app_static.out")"
else
    cat "$tmp/build.log"
    fail "cmake could not configure or build a project with find_package(libball 1.1 REQUIRED)"
fi

# The installed tree moved elsewhere: the config file finds its files
# relative to itself.
mv "$prefix" "$tmp/moved"
if build "$tmp/app" "$tmp/build-moved" "$tmp/moved"; then
    env -u LD_LIBRARY_PATH "$tmp/build-moved/app" | grep -qx "$expected" ||
        fail "the app built against the moved prefix does not run"
else
    cat "$tmp/build-moved.log"
    fail "cmake against the moved prefix $tmp/moved"
fi
mv "$tmp/moved" "$prefix"

# SameMajorVersion: 1.0 and this version accepted; the next major, and a
# newer minor, refused.
for want in 1.0 "$major.$minor"; do
    project "$tmp/ok-$want" "$want"
    build "$tmp/ok-$want" "$tmp/build-ok-$want" "$prefix" ||
        { cat "$tmp/build-ok-$want.log"; fail "find_package(libball $want REQUIRED) refused version $version"; }
done
for want in "$((major + 1)).0" "$major.$((minor + 1))"; do
    project "$tmp/no-$want" "$want"
    if build "$tmp/no-$want" "$tmp/build-no-$want" "$prefix"; then
        fail "find_package(libball $want REQUIRED) accepted version $version"
    else
        grep -q "$version" "$tmp/build-no-$want.log" ||
            fail "find_package(libball $want) failed without naming the version found: $(cat "$tmp/build-no-$want.log")"
    fi
done

$MAKE --no-print-directory uninstall PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 ||
    { cat "$tmp/uninstall.log"; fail "make uninstall PREFIX=$prefix"; }
[ -e "$prefix/lib/cmake/libball/libballConfig.cmake" ] && fail "make uninstall left lib/cmake/libball/libballConfig.cmake"

if [ "$failures" -ne 0 ]; then
    echo "cmake_test: $failures failure(s)"
    exit 1
fi
echo "cmake_test: find_package(libball 1.1) with $(cmake --version | head -n 1), libball::libball and libball::libball_static built and ran, a moved prefix, 2.0 refused: ok"
finish
