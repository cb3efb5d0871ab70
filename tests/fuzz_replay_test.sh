#!/bin/sh
# Replays the committed fuzz corpora (tests/fuzz/corpus/*) through the three
# fuzz targets built with the ordinary C compiler as plain programs
# (`make fuzz-replay`; tests/fuzz/replay_main.c). Run from the repository
# root by `make check`; under `make check-asan` and `make coverage` the
# environment carries their compiler flags and build directory.
exec ${MAKE:-make} --no-print-directory fuzz-replay
