#!/bin/sh
# Symbol versions (docs/abi.md, "Symbol versions"): libball/exports.map
# names every exported function in exactly one version node, and the
# shared library agrees with it and with the header:
#   - every BALL_API function of include/ball.h is exported, and nothing
#     else (a function named in no node would be silently hidden by
#     `local: *`);
#   - each exported function carries the node the map lists it in, and is
#     listed once;
#   - the node LIBBALL_1.0 is the 1.0 baseline abi/libball.abi, name for
#     name (a new function cannot land in a released node);
#   - the functions of the header's experimental section (BALL_EXPERIMENTAL)
#     are exactly those of the node LIBBALL_EXPERIMENTAL.
# The library under test is $LIBBALL_PATH (scripts/run-tests.sh sets it),
# else build/libball.so.1.
set -e
cd "$(dirname "$0")/../.."
lib=${LIBBALL_PATH:-build/libball.so.1}
map=libball/exports.map
baseline=abi/libball.abi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "abi_symbols: $*" >&2
    failures=$((failures + 1))
}

[ -f "$lib" ] || { echo "abi_symbols: $lib not built (make lib)" >&2; exit 1; }
command -v objdump >/dev/null 2>&1 || { echo "abi_symbols: objdump (binutils) not found" >&2; exit 1; }

# "NODE NAME" for each name the map lists; a pattern other than the one
# `local: *;` is refused (names only, so that nothing lands in a node
# by accident).
awk '
    /^[ \t]*\/?\*/ || /^[ \t]*$/ { next }
    /^[A-Z][A-Z0-9_.]* *\{/ { node = $1; next }
    /^\}/ { node = ""; next }
    /^[ \t]*(global|local):[ \t]*$/ { next }
    /^[ \t]*local:[ \t]*\*;[ \t]*$/ { next }
    /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;[ \t]*$/ { n = $1; sub(/;$/, "", n); print node, n; next }
    { print "BAD", $0 }
' "$map" | sort -k2 >"$tmp/map"
if grep '^BAD ' "$tmp/map" >&2; then
    fail "$map: the line(s) above are not one plain name each"
fi
grep -v '^BAD ' "$tmp/map" >"$tmp/map.ok"
awk '{print $2}' "$tmp/map.ok" | uniq -d >"$tmp/dup"
if [ -s "$tmp/dup" ]; then
    fail "$map lists these in more than one node: $(tr '\n' ' ' <"$tmp/dup")"
fi

# "NODE NAME" for each defined dynamic symbol of the library (the node
# names themselves, *ABS* symbols, left out).
objdump -T "$lib" | awk '$0 ~ /^[0-9a-f]+ / && $0 !~ /\*UND\*/ && $0 !~ /\*ABS\*/ {
    print $(NF - 1), $NF }' | sort -k2 >"$tmp/lib"
[ -s "$tmp/lib" ] || fail "objdump -T $lib lists no symbol"
if ! cmp -s "$tmp/map.ok" "$tmp/lib"; then
    fail "the exported symbols of $lib (+) and their nodes differ from $map (-):"
    diff "$tmp/map.ok" "$tmp/lib" | sed -n 's/^</  -/p; s/^>/  +/p' >&2
fi

# Every function the header declares, and those of its experimental section.
sed -n 's/^BALL_API[^(]*[ *]\(ball_[a-z0-9_]*\)(.*/\1/p' include/ball.h | sort >"$tmp/declared"
sed -n '/^#ifdef BALL_EXPERIMENTAL/,/^#endif \/\* BALL_EXPERIMENTAL \*\//p' include/ball.h |
    sed -n 's/^BALL_API[^(]*[ *]\(ball_[a-z0-9_]*\)(.*/\1/p' | sort >"$tmp/experimental"
[ "$(wc -l <"$tmp/declared")" -ge 100 ] || fail "parsed only $(wc -l <"$tmp/declared") functions of include/ball.h"
[ -s "$tmp/experimental" ] || fail "no function in the experimental section of include/ball.h"
awk '{print $2}' "$tmp/lib" >"$tmp/exported"
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
    fail "include/ball.h declares (-) and $lib exports (+) different functions:"
    diff "$tmp/declared" "$tmp/exported" | sed -n 's/^</  -/p; s/^>/  +/p' >&2
fi
awk '$1 == "LIBBALL_EXPERIMENTAL" {print $2}' "$tmp/map.ok" >"$tmp/exp-node"
if ! cmp -s "$tmp/experimental" "$tmp/exp-node"; then
    fail "the experimental section of ball.h (-) and the node LIBBALL_EXPERIMENTAL (+) differ:"
    diff "$tmp/experimental" "$tmp/exp-node" | sed -n 's/^</  -/p; s/^>/  +/p' >&2
fi

# LIBBALL_1.0 is the baseline's LIBBALL_1.0, name for name.
sed -n "s/.*<elf-symbol name='\([^']*\)' version='LIBBALL_1\.0'.*/\1/p" "$baseline" | sort >"$tmp/base10"
[ "$(wc -l <"$tmp/base10")" -ge 100 ] || fail "parsed only $(wc -l <"$tmp/base10") LIBBALL_1.0 symbols of $baseline"
awk '$1 == "LIBBALL_1.0" {print $2}' "$tmp/map.ok" >"$tmp/node10"
if ! cmp -s "$tmp/base10" "$tmp/node10"; then
    fail "the node LIBBALL_1.0 of $map (+) is not the 1.0 baseline $baseline (-):"
    diff "$tmp/base10" "$tmp/node10" | sed -n 's/^</  -/p; s/^>/  +/p' >&2
fi
# No experimental symbol in the baseline, ever.
if grep -q "version='LIBBALL_EXPERIMENTAL'" "$baseline"; then
    fail "$baseline holds experimental symbols (regenerate it with make abi-baseline)"
fi

[ "$failures" -eq 0 ] || exit 1
echo "abi_symbols: $(wc -l <"$tmp/exported") functions, each in one node:" \
    "$(awk '{print $1}' "$tmp/lib" | sort | uniq -c | awk '{printf "%s%s %d", s, $2, $1; s = ", "}')"
