#!/bin/sh
# Installs libball into a scratch DESTDIR, checks the installed files,
# builds and runs examples/minimal.c against the installed copy through
# pkg-config, checks the shared library's soname and exported symbols, then
# uninstalls. Run from the repository root (make check does). Prints each
# failure; exits non-zero if any.

MAKE=${MAKE:-make}
. tests/lib/shell-test.sh

hdr() { sed -n "s/^#define $1 \\([0-9]*\\)\$/\\1/p" include/ball.h; }
major=$(hdr BALL_VERSION_MAJOR)
version=$major.$(hdr BALL_VERSION_MINOR).$(hdr BALL_VERSION_PATCH)
root=$tmp/root
lib=$root/usr/lib

# ---- install
if ! $MAKE --no-print-directory install DESTDIR="$root" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: make install"
    exit 1
fi

for f in usr/include/ball.h usr/lib/libball.a "usr/lib/libball.so.$version" \
         usr/lib/pkgconfig/libball.pc usr/bin/ball; do
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

CC=${CC:-cc}
WARN="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# shellcheck disable=SC2086
if $CC $WARN examples/minimal.c $flags -o "$tmp/minimal" 2>"$tmp/cc.log"; then
    LD_LIBRARY_PATH="$lib" "$tmp/minimal" >"$tmp/minimal.out" 2>&1 ||
        fail "minimal (shared) exited $?: $(cat "$tmp/minimal.out")"
    # Hand-derived from RULES.md: DEF's X steps from E11 to F10, then undo.
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
    # Columns: value type name (name may carry @VERSION).
    awk '{ print $NF }' "$tmp/syms" | grep -v '^ball_' >"$tmp/foreign"
    [ -s "$tmp/foreign" ] && fail "exported symbols without the ball_ prefix: $(tr '\n' ' ' <"$tmp/foreign")"
    grep -q ' ball_game_new$' "$tmp/syms" || fail "ball_game_new is not exported"
else
    fail "nm -D --defined-only failed"
fi

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
