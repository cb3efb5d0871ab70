#!/bin/sh
# The build's output (Makefile, "Quiet output"): one short line per step,
# "  CC      <object>", the whole command under `make V=1`, and a compiler
# warning printed either way (and an error under WERROR=1). Builds one
# object of the library in a scratch build directory. Run from the
# repository root. Prints each failure; exits non-zero if any.

MAKE=${MAKE:-make}
# not the flags of a calling make (make check V=1, make -s); V and WERROR
# are given on each command line below, as a calling make exports its own
unset MAKEFLAGS MFLAGS MAKELEVEL

. tests/lib/shell-test.sh

b=$tmp/b
obj=$b/obj/hash.o

# quiet: exactly the short line
"$MAKE" --no-print-directory B="$b" V= WERROR= "$obj" >"$tmp/quiet.out" 2>&1 || fail "make $obj exited $?: $(cat "$tmp/quiet.out")"
[ "$(cat "$tmp/quiet.out")" = "  CC      $obj" ] || fail "make: expected the line '  CC      $obj', got: $(cat "$tmp/quiet.out")"

# V=1: the compile command itself
rm -f "$obj"
"$MAKE" --no-print-directory B="$b" V=1 "$obj" >"$tmp/verbose.out" 2>&1 || fail "make V=1 exited $?"
grep -q -- "-c libball/hash.c -o $obj" "$tmp/verbose.out" || fail "make V=1: no compile command: $(cat "$tmp/verbose.out")"
grep -q '^  CC  ' "$tmp/verbose.out" && fail "make V=1: short line printed too"

# a warning (an unused function, from a forced include) is printed in the
# quiet build, and fails the build under WERROR=1
printf 'static int build_output_test_unused(void) { return 0; }\n' >"$tmp/warn.h"
rm -f "$obj"
"$MAKE" --no-print-directory B="$b" V= WERROR= CFLAGS="-include $tmp/warn.h" "$obj" >"$tmp/warn.out" 2>&1 ||
    fail "make with a warning exited $?: $(cat "$tmp/warn.out")"
grep -q 'warning:.*build_output_test_unused' "$tmp/warn.out" || fail "make: the warning is not shown: $(cat "$tmp/warn.out")"
rm -f "$obj"
if "$MAKE" --no-print-directory B="$b" V= WERROR=1 CFLAGS="-include $tmp/warn.h" "$obj" >"$tmp/werror.out" 2>&1; then
    fail "make WERROR=1 succeeded despite a warning"
fi
grep -q 'build_output_test_unused' "$tmp/werror.out" || fail "make WERROR=1: the warning is not shown: $(cat "$tmp/werror.out")"

if [ "$failures" -ne 0 ]; then
    echo "build_output_test: $failures failure(s)"
    exit 1
fi
echo "build_output_test: all passed"
