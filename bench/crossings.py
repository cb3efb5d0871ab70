#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random playouts through the Python binding, three ways (issue 29,
"Fewer crossings"; docs/performance.md):

  loop      Game.random_action() + Game.apply(), one decision at a time
  apply     Game.random_apply(): draw and apply in one call
  playout   Game.random_playout(): the whole game in one call
  nolock    the loop's two calls of libball._speed without Game and its
            per-game lock (what the lock and the methods cost: loop - bare)
  locked    the same calls, each under the game's lock as Game holds it
  create    Game(turn_limit=200) and close(), GAMES * 100 times ("decisions"
            counts games)
  bpn       Game.bpn then Game.set_bpn() of a mid-game position, GAMES * 100
            round trips

Games under turn_limit=200, as `make bench`'s playouts; a new Game per
game (the same for every way). Prints "WAY decisions cpu-seconds" per
measured repetition, the ways interleaved (rounds of one repetition each):

    python3 bench/crossings.py [GAMES [ROUNDS [WAY...]]]

BENCH_NO_WARMUP=1 leaves out the warm-up round (bench/crossings.sh, for
callgrind's instruction counts).
"""
import os
import random
import sys
import time

import libball
from libball import Game, RangeError


def loop(games):
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        try:
            while True:
                g.apply(g.random_action())
                n += 1
        except RangeError:
            pass
    return n


def apply(games):
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        try:
            while True:
                g.random_apply()
                n += 1
        except RangeError:
            pass
    return n


def playout(games):
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        n += g.random_playout()
    return n


def nolock(games):
    sp = libball._native.speed
    bits = random.getrandbits
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        h = g._handle
        try:
            while True:
                sp.apply(h, sp.random_action(h, bits(64))._code)
                n += 1
        except RangeError:
            pass
    return n


def locked(games):
    sp = libball._native.speed
    bits = random.getrandbits
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        h, lock = g._handle, g._lock
        try:
            while True:
                with lock:
                    a = sp.random_action(h, bits(64))
                with lock:
                    sp.apply(h, a._code)
                n += 1
        except RangeError:
            pass
    return n


def create(games):
    for _ in range(games * 100):
        Game(turn_limit=200).close()
    return games * 100


def bpn(games):
    g = Game(turn_limit=200)
    g.random_playout(1, 40)
    text = g.bpn
    for _ in range(games * 100):
        g.set_bpn(g.bpn)
    assert g.bpn == text
    return games * 100


WAYS = {"loop": loop, "apply": apply, "playout": playout, "nolock": nolock, "locked": locked,
        "create": create, "bpn": bpn}


def main(argv):
    games = int(argv[1]) if len(argv) > 1 else 100
    rounds = int(argv[2]) if len(argv) > 2 else 5
    ways = argv[3:] or list(WAYS)
    assert libball.Game  # loaded
    if not os.environ.get("BENCH_NO_WARMUP"):  # set for callgrind's counts
        for w in ways:
            WAYS[w](max(1, games // 10))
    for _ in range(rounds):
        for w in ways:
            t = time.process_time()
            n = WAYS[w](games)
            print(w, n, "%.6f" % (time.process_time() - t), flush=True)


if __name__ == "__main__":
    main(sys.argv)
