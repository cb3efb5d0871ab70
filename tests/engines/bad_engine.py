#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A misbehaving BEP engine for the tests (docs/protocol.md): the Python
client (bindings/python/tests/test_engine.py) and `ball match`
(tests/tools/match_test.sh) are tested against each mode.

    bad_engine.py MODE

MODE:
  crash     handshake fine, then exits with status 3 at the first go
            (after a line on stderr)
  exit      exits at once with status 4, before reading anything
  hang      handshake fine, then never answers go (ignores stop too; ends
            by itself after 120 s, so that no test leaves it behind)
  garbage   handshake fine, then answers go with noise and a malformed
            'bestdecision ###'
  illegal   handshake fine, then a well-formed but illegal decision
            ('bestdecision A1-C3': no piece on A1 at the start)
  silence   reads everything, writes nothing
  slow      sleeps 30 s before answering bep
  noready   handshake fine, never answers isready
"""

import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "crash"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    if MODE == "exit":
        sys.stderr.write("bad_engine: exit at once\n")
        sys.exit(4)
    for line in sys.stdin:
        words = line.split()
        if not words or MODE == "silence":
            continue
        cmd = words[0]
        if cmd == "bep":
            if MODE == "slow":
                time.sleep(30)
            out("id name bad_engine %s" % MODE)
            out("id author the libball tests")
            out("option name Foo type spin default 1 min 0 max 9")
            out("bepok")
        elif cmd == "isready":
            if MODE != "noready":
                out("readyok")
        elif cmd == "go":
            if MODE == "crash":
                sys.stderr.write("bad_engine: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            if MODE == "hang":
                time.sleep(120)
                sys.exit(5)
            if MODE == "garbage":
                out("\x01\x02 nonsense \xff")
                out("info depth x nodes y")
                out("bestdecision ###")
            if MODE == "illegal":
                out("info depth 1 nodes 1 pv A1-C3")
                out("bestdecision A1-C3")
        elif cmd == "quit":
            return


main()
