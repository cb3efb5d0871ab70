#!/bin/sh
# The size-tagged structs can grow (docs/abi.md, "Size-tagged structs"): a
# program compiled against the 1.0 header keeps working with a later
# library that appended a field to each of ball_rules, ball_allocator,
# ball_mcts_config and ball_mcts_stats.
#
# tests/abi/old_caller.c is compiled twice: against tests/abi/1.0/ball.h,
# the header of the 1.0.0 release (git show 96f3ddb:include/ball.h), and
# against today's include/ball.h. Each is linked with two libraries built
# from today's sources, in copies of the tree: one with today's header
# (the control) and one with a copy of it whose four structs each have one
# more field at the end (a simulated later release: the published sizes
# of today's sources then accept the old layout and the grown one). All
# four programs must pass; the caller's structs are followed by guard
# bytes that the library must not touch.
# Not in the quick subset: it compiles the library twice (docs/testing.md).
# run-tests: slow
set -e
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The grown header.
awk '
    /^} ball_rules;/       { print "    /** A field of a later version (test). */"; print "    long long later_field;" }
    /^} ball_allocator;/   { print "    /** A field of a later version (test). */"; print "    void *later_hook;" }
    /^} ball_mcts_config;/ { print "    /** A field of a later version (test). */"; print "    double later_weight;" }
    /^} ball_mcts_stats;/  { print "    /** A field of a later version (test). */"; print "    uint64_t later_count;" }
    { print }
' include/ball.h >"$tmp/grown.h"
for f in later_field later_hook later_weight later_count; do
    grep -q "$f;" "$tmp/grown.h" || {
        echo "abi_growth: could not append the test field $f to include/ball.h" >&2
        exit 1
    }
done
cmp -s include/ball.h tests/abi/1.0/ball.h && {
    echo "abi_growth: tests/abi/1.0/ball.h is today's header: the test would prove nothing" >&2
    exit 1
}

# The library as the Makefile builds it, in a copy of the tree with the
# given header. OPT=-O1: quicker, and the layout does not depend on it.
# The make that runs the tests (its MAKEFLAGS, the absolute B that
# scripts/run-tests.sh exports) is not inherited.
build_lib() { # name, header
    mkdir -p "$tmp/$1"
    cp -R Makefile libball include "$tmp/$1/"
    cp "$2" "$tmp/$1/include/ball.h"
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$tmp/$1" B=build \
        CC="$CC" OPT=-O1 WERROR= -j2 build/libball.a >"$tmp/$1.log" 2>&1 || {
        cat "$tmp/$1.log" >&2
        echo "abi_growth: building the library with $2 failed" >&2
        exit 1
    }
}
build_lib now include/ball.h
build_lib grown "$tmp/grown.h"

"$CC" -std=c11 -O1 -Itests/abi/1.0 -c tests/abi/old_caller.c -o "$tmp/caller-1.0.o"
"$CC" -std=c11 -O1 -Iinclude -c tests/abi/old_caller.c -o "$tmp/caller-now.o"
for caller in 1.0 now; do
    for lib in now grown; do
        "$CC" "$tmp/caller-$caller.o" "$tmp/$lib/build/libball.a" $LDFLAGS -o "$tmp/run-$caller-$lib"
        printf 'abi_growth: %s header, %s structs: ' "$caller" "$lib"
        "$tmp/run-$caller-$lib"
    done
done
echo "abi_growth: callers of the 1.0 layouts work with a library whose four sized structs grew"
