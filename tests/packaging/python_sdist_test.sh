#!/bin/sh
# The Python binding's sdist (bindings/python/README.md, "Building a wheel
# and an sdist"): built with Debian's python3-build (`python3 -m build
# --sdist --no-isolation`, installed by scripts/deps.sh pybuild as root),
# it carries LICENSE and the C sources (csrc/); installed offline into a
# fresh venv outside the repository (`pip install --no-index`, no
# configuration file), pip builds the wheel from it, which compiles
# libball.so.1 from the sdist's csrc/ (not from this repository); then,
# from an empty directory with no LIBBALL_* or LD_LIBRARY_PATH variable,
# the package loads its bundled libball/_lib/libball.so.1 (the library
# README.md, "Which library is loaded", says it loads) and plays a whole
# game (a turn limit of 6) whose final position and result are those the
# repository's tool gives for the same actions. Run from the repository
# root. Prints each failure; exits 1 if any.
# Run alone (installs a package with apt) and not in the quick subset:
# pip compiles the library once (docs/testing.md).
# run-tests: serial slow

# Skipped in the sanitizer and coverage runs of the suite: pip builds its
# own library with plain cc (as tests/packaging/install_test.sh).
. tests/lib/instrumented.sh
skip_if_instrumented any "pip builds its own library"
. tests/lib/shell-test.sh
BALL=${BALL:-build/bin/ball}
case $BALL in /*) ;; *) BALL=$(pwd)/$BALL ;; esac

if ! sh scripts/deps.sh pybuild >"$tmp/deps.log" 2>&1; then
    cat "$tmp/deps.log"
    echo "SKIP: Debian's python3-build or python3-venv is missing (make check installs them as root: sh scripts/deps.sh pybuild)"
    exit 77
fi
[ -x "$BALL" ] || { echo "FAIL: no tool $BALL (make)"; exit 1; }
py=/usr/bin/python3
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' bindings/python/pyproject.toml)
[ -n "$version" ] || { echo "FAIL: no version in bindings/python/pyproject.toml"; exit 1; }
hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
libversion=$(hdr BALL_VERSION_MAJOR).$(hdr BALL_VERSION_MINOR).$(hdr BALL_VERSION_PATCH)
[ "$version" = "$libversion" ] ||
    fail "bindings/python/pyproject.toml is at version $version, the library (include/ball.h) at $libversion"
start=$(date +%s)

# ---- the sdist, the documented way
clean_env="env -u LIBBALL_PATH -u LIBBALL_USE_SYSTEM -u LD_LIBRARY_PATH -u PYTHONPATH -u PIP_FIND_LINKS
    PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONNOUSERSITE=1"
# shellcheck disable=SC2086
if ! $clean_env "$py" -m build --sdist --no-isolation --outdir "$tmp/dist" bindings/python >"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log"
    echo "FAIL: python3 -m build --sdist --no-isolation bindings/python"
    exit 1
fi
sdist=$tmp/dist/libball-$version.tar.gz
[ -f "$sdist" ] || { ls -l "$tmp/dist"; echo "FAIL: no libball-$version.tar.gz"; exit 1; }
tar -tzf "$sdist" >"$tmp/sdist.list" || fail "tar -tzf $sdist"
for f in LICENSE PKG-INFO pyproject.toml README.md build_backend/libball_build.py libball/__init__.py \
         libball/_native.py libball/py.typed csrc/include/ball.h csrc/libball/exports.map csrc/libball/game.c; do
    grep -qx "libball-$version/$f" "$tmp/sdist.list" || fail "the sdist lacks $f"
done
tar -xzOf "$sdist" "libball-$version/PKG-INFO" | grep -qx 'License: MIT' || fail "the sdist's PKG-INFO does not say License: MIT"
[ -n "$(find bindings/python -name build -o -name dist -o -name '*.egg-info' -o -name '_lib')" ] &&
    fail "python3 -m build left files in bindings/python: $(find bindings/python -name build -o -name dist -o -name '*.egg-info' -o -name _lib)"

# ---- a fresh venv outside the repository, the sdist installed offline
work=$tmp/work
mkdir -p "$work" "$tmp/empty"
# shellcheck disable=SC2086
if ! (cd "$work" && $clean_env "$py" -m venv venv && $clean_env venv/bin/pip install -v --no-index "$sdist") \
        >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log"
    echo "FAIL: pip install --no-index of the sdist in a fresh venv"
    exit 1
fi
# the wheel compiled the library from the sdist's csrc/, not from this tree
from=$(sed -n 's/.*libball_build: compiled libball\.so\.1 from [0-9]* files of \(.*\) in [0-9.]* s .*/\1/p' "$tmp/pip.log")
case $from in
    "$(pwd -P)"/* | "$(pwd)"/* | "") fail "pip's build did not compile libball.so.1 from the sdist's csrc/: $(grep 'libball_build' "$tmp/pip.log")" ;;
    */csrc) ;;
    *) fail "pip's build compiled libball.so.1 from $from, not from the sdist's csrc/" ;;
esac
echo "sdist: python3 -m build --sdist, then pip install --no-index in a fresh venv in $(($(date +%s) - start)) s"
# The wheel pip built is the one bindings/python/README.md names (issue
# 49: it said py3-none-linux_x86_64): the name from pip's log, and the
# build backend's own tag for this interpreter, not a hand-typed one.
wheel=$(sed -n 's/.*Created wheel for libball: filename=\([^ ]*\.whl\).*/\1/p' "$tmp/pip.log" | head -n 1)
tag=$(cd bindings/python/build_backend && "$py" -B -c 'import libball_build; print(libball_build._wheel_tag())')
[ "$wheel" = "libball-$version-$tag.whl" ] ||
    fail "pip built '$wheel', the build backend's tag for $py is $tag (libball-$version-$tag.whl)"
names=$(grep -o 'libball-[0-9.]*-[A-Za-z0-9_.-]*\.whl' bindings/python/README.md | sort -u)
[ -n "$names" ] || fail "bindings/python/README.md names no wheel"
for name in $names; do
    [ "$name" = "libball-$version-$tag.whl" ] ||
        fail "bindings/python/README.md names the wheel $name; $py builds libball-$version-$tag.whl"
done

# ---- from an empty directory: the bundled library, a whole game
# shellcheck disable=SC2086
if (cd "$tmp/empty" && $clean_env "$work/venv/bin/python" -B -c '
import importlib.metadata, os, sys, libball
version = sys.argv[1]
site = os.path.realpath(os.path.join(sys.prefix, "lib"))
pkg = os.path.dirname(os.path.realpath(libball.__file__))
assert pkg.startswith(site + os.sep), pkg
bundled = os.path.join(pkg, "_lib", "libball.so.1")
assert os.path.isfile(bundled), bundled
assert os.path.realpath(libball.LIBRARY_PATH) == bundled, (libball.LIBRARY_PATH, bundled)
assert libball.__version__ == version, libball.__version__
assert importlib.metadata.version("libball") == version
assert importlib.metadata.metadata("libball")["License"] == "MIT"
assert libball.LIBRARY_VERSION == version, libball.LIBRARY_VERSION
# a whole game, actions picked by a fixed sequence of numbers
with libball.Game(turn_limit=6) as g:
    played, x = [], 12345
    while not g.is_over and len(played) < 5000:
        legal = g.legal_actions()
        x = (x * 1103515245 + 12345) % 2**31
        played.append(str(g.push(legal[x % len(legal)])))
    assert g.is_over, "not over after 5000 decisions"
    print(g.bpn)
    print(int(g.result))
    print(" ".join(played))
' "$version") >"$tmp/game.out" 2>&1; then
    bpn=$(sed -n 1p "$tmp/game.out")
    result=$(sed -n 2p "$tmp/game.out")
    actions=$(sed -n 3p "$tmp/game.out")
    # the same actions through the repository's tool: the same end
    # shellcheck disable=SC2086
    tool=$("$BALL" --turn-limit 6 apply "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1" $actions 2>&1)
    [ "$tool" = "$bpn" ] || fail "the game in the venv ended at '$bpn', the tool gives '$tool' for its actions"
    case $result in 1 | 2 | 3) ;; *) fail "the game in the venv ended with result '$result' (not 1-3: ATK_WON, DEF_WON, DRAW)" ;; esac
    echo "venv: the bundled library loaded, a game of $(echo "$actions" | wc -w) decisions played to the end (result $result), the tool agrees"
else
    cat "$tmp/game.out"
    fail "the package installed from the sdist does not load its bundled library or play"
fi

if [ "$failures" -ne 0 ]; then
    echo "python_sdist_test: $failures failure(s)"
    exit 1
fi
echo "python_sdist_test: passed in $(($(date +%s) - start)) s"
finish
