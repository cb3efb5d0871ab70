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
  refuse    handshake fine, then answers go with an error line (a long
            one, past the 127 bytes of a record's tag) and
            'bestdecision none'
  flood     handshake fine, then writes 50 MB (or the bytes given after
            the mode) to stderr and answers go with an illegal decision
            ('bestdecision A1-C3')
  orphan    handshake fine; at the first go leaves behind a process in a
            session of its own (setsid), named by the word after the mode,
            then answers an illegal decision
"""

import subprocess
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
            if MODE == "refuse":
                out("info string error: go: refusing on purpose, with an explanation long enough "
                    "to pass the end of a tag in the records")
                out("bestdecision none")
            if MODE == "flood":
                # as fast as the pipe takes it (Python's own writes are slower)
                size = sys.argv[2] if len(sys.argv) > 2 else "50000000"
                subprocess.run(["head", "-c", size, "/dev/zero"], stdout=2, check=True)
                out("bestdecision A1-C3")
            if MODE == "orphan":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[2]],
                                 start_new_session=True, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                out("bestdecision A1-C3")
        elif cmd == "quit":
            return


main()
