#!/bin/sh
# The size-tagged structs can grow (docs/abi.md): a program compiled
# against today's header keeps working with a later library that appended
# fields to ball_rules and ball_allocator. The later library is simulated:
# the sources are compiled against a copy of include/ball.h with one more
# field at the end of each struct, and tests/abi/old_caller.c, compiled
# against the real header, is linked with it and run. The same program
# against today's library is the control.
# Not in the quick subset: it compiles the library twice (docs/testing.md).
# run-tests: slow
set -e
cd "$(dirname "$0")/.."
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/future" "$tmp/obj-now" "$tmp/obj-future"
awk '
    /^} ball_rules;/     { print "    /** A field of a later version (test). */"; print "    long long later_field;" }
    /^} ball_allocator;/ { print "    /** A field of a later version (test). */"; print "    void *later_hook;" }
    { print }
' include/ball.h > "$tmp/future/ball.h"
grep -q later_field "$tmp/future/ball.h" && grep -q later_hook "$tmp/future/ball.h" || {
    echo "abi_growth: could not append the test fields to ball.h" >&2
    exit 1
}
build_lib() { # include dir, object dir
    for src in libball/*.c; do
        "$CC" -std=c11 -O1 -fPIC -DBALL_BUILDING_LIBRARY -I"$1" -Ilibball -c "$src" \
            -o "$2/$(basename "$src" .c).o"
    done
    ar rcs "$2/libball.a" "$2"/*.o
}
build_lib include "$tmp/obj-now"
build_lib "$tmp/future" "$tmp/obj-future"
"$CC" -std=c11 -O1 -Iinclude -c tests/abi/old_caller.c -o "$tmp/old_caller.o"
"$CC" "$tmp/old_caller.o" "$tmp/obj-now/libball.a" -o "$tmp/with-now"
"$CC" "$tmp/old_caller.o" "$tmp/obj-future/libball.a" -o "$tmp/with-future"
"$tmp/with-now"
"$tmp/with-future"
echo "abi_growth: a 1.0 caller works with a library whose structs grew"
