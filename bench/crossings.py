#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random playouts through the Python binding (issue 29, "Fewer
crossings"; issue 46, "Python at native speed"; docs/performance.md):

  loop      while not g.is_over: g.apply(g.random_action()), one decision
            at a time (the loop of issue 46)
  walk      a perft-like walk: at each position of a random game, the
            legal list, and every decision of it applied and undone
            (g.apply(a); g.undo()); then one of them played. "Decisions"
            counts the applied-and-undone ones
  apply     Game.random_apply(): draw and apply in one call
  playout   Game.random_playout(): the whole game in one call
  raw       the loop's two calls of libball._speed made directly, on the
            game's Guard, without Game's methods
  guarded   the same, each call inside `with guard:` (what a ctypes call
            of Game pays for the guard)
  rlock     the same, each call inside a threading.RLock (what every call
            of Game paid for 1.0's per-game lock)
  create    Game(turn_limit=200) and close(), GAMES * 100 times ("decisions"
            counts games)
  bpn       Game.bpn then Game.set_bpn() of a mid-game position, GAMES * 100
            round trips

Games under turn_limit=200, as `make bench`'s playouts; a new Game per
game (the same for every way). Prints "WAY decisions cpu-seconds" per
measured repetition, the ways interleaved (rounds of one repetition each):

    python3 bench/crossings.py [GAMES [ROUNDS [WAY...]]]

BENCH_NO_WARMUP=1 leaves out the warm-up round (bench/crossings.sh, for
callgrind's instruction counts). LIBBALL_SPEED=ctypes measures the
binding without its extension module (libball/_speed_ctypes.py).
"""
import os
import random
import sys
import threading
import time

import libball
from libball import Game, RangeError


def loop(games):
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        while not g.is_over:
            g.apply(g.random_action())
            n += 1
    return n


def walk(games):
    rnd = random.Random(games)
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        while not g.is_over:
            actions = g.legal_actions()
            for a in actions:
                g.apply(a)
                g.undo()
            n += len(actions)
            g.apply(actions[rnd.randrange(len(actions))])
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


def _speed():
    speed = libball._native.speed
    if speed is None:
        from libball import _speed_ctypes as speed
    return speed


def raw(games):
    sp = _speed()
    bits = random.getrandbits
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        h = g._lock
        try:
            while True:
                sp.apply(h, sp.random_action(h, bits(64))._code)
                n += 1
        except RangeError:
            pass
    return n


def _held(games, make_lock):
    sp = _speed()
    bits = random.getrandbits
    n = 0
    for _ in range(games):
        g = Game(turn_limit=200)
        h = g._lock
        lock = make_lock(h)
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


def guarded(games):
    return _held(games, lambda guard: guard)


def rlock(games):
    return _held(games, lambda guard: threading.RLock())


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


WAYS = {"loop": loop, "walk": walk, "apply": apply, "playout": playout, "raw": raw,
        "guarded": guarded, "rlock": rlock, "create": create, "bpn": bpn}


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
