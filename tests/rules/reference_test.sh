#!/bin/sh
# Cross-checks the engine, position by position, against the independent
# Python implementation of the rules (docs/spec.md) in tests/reference/ (see its README):
# its hand-derived self-test, seeded random games through `ball trace`,
# perft on sampled positions and mutated BPN texts.
# Not in the quick subset: the Python reference takes about a minute
# (docs/testing.md).
# run-tests: slow
set -e
ref=tests/reference
python3 $ref/compare.py --selftest
python3 $ref/compare.py --games 60 --seed 11
python3 $ref/compare.py --games 30 --seed 12 --depth 2
python3 $ref/compare.py --perft-check 40 --perft-depth 2 --seed 13
python3 $ref/compare.py --parse-check 2000 --seed 14
