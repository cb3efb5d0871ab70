#!/bin/sh
# Replays the committed fuzz corpora (tests/fuzz/corpus/*) through the fuzz
# targets built with the ordinary C compiler as plain programs
# (`make fuzz-replay`; tests/fuzz/replay_main.c). Run from the repository
# root by `make check`; under `make check-asan` and `make coverage` the
# environment carries their compiler flags and build directory.
#
# The build directory is make's B: the calling make passes its own (make
# B=build-rel check), or set it in the environment when running this
# script by hand (B=build-rel sh tests/fuzz/fuzz_replay_test.sh); build/ by
# default.
exec ${MAKE:-make} --no-print-directory fuzz-replay
