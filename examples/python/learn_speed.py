#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Speed of the Python learning interface: decisions per second of
uniform random play in B games (default 1,024), one core.

    PYTHONPATH=bindings/python python3 examples/python/learn_speed.py [games] [seconds]

Batch lines: one ball_batch_step() foreign call per step of all games
(the library draws the random decisions), with different outputs bound.
The "unpacked" lines bind the packed observation bits and unpack them
after every step in numpy (numpy.unpackbits, bitorder "little"), to
uint8 or on into a float32 array bound once: what the float view costs
when numpy makes it instead of the library (docs/learning.md).
Per-game lines: the Python loop over the games, Game.random_action() +
Game.apply() per decision (and a reset of ended games), optionally with
learn.observation_bits() + learn.legal_mask(bits=True) per decision.
Rates are decisions per CPU second of this process (time.process_time),
which the load of other processes changes less than wall-clock time;
the median of three runs of about ``seconds`` each.
"""

import os
import random
import statistics
import sys
import time

from libball import Game, learn

CONFIGS = [
    ("batch, no output", ()),
    ("batch + rewards, done, actions, side", ("rewards", "done", "actions", "side")),
    ("batch + mask bits", ("rewards", "done", "actions", "side", "mask_bits")),
    ("batch + obs bits + mask bits", ("rewards", "done", "actions", "side", "obs_bits",
                                      "mask_bits")),
    ("batch + obs float32 + mask bits", ("rewards", "done", "actions", "side", "obs",
                                         "mask_bits")),
    ("batch + obs float32 + mask bytes", ("rewards", "done", "actions", "side", "obs",
                                          "mask")),
]
BITS = ("rewards", "done", "actions", "side", "obs_bits", "mask_bits")
#: (name, outputs, unpack to): the observation bits unpacked in numpy.
UNPACKED = [
    ("batch + obs bits unpacked to uint8", BITS, "uint8"),
    ("batch + obs bits unpacked to float32", BITS, "float32"),
]


def timed(run, seconds):
    """Median decisions per CPU second of three runs of ``run(budget)``,
    which plays until ``budget`` CPU seconds have passed and returns the
    number of decisions."""
    rates = []
    for _ in range(3):
        t0 = time.process_time()
        n = run(seconds)
        rates.append(n / (time.process_time() - t0))
    return statistics.median(rates)


def batch_run(games, outputs, unpack_to=None):
    batch = learn.Batch(games, outputs=outputs, seed=1)
    for _ in range(20):  # warm up: games spread over their lengths
        batch.step()
    step = batch.step
    if unpack_to is not None:
        import numpy as np
        size = batch.obs_size
        view = np.empty((games, size), unpack_to)

        def step():
            batch.step()
            bits = np.unpackbits(batch.obs_bits, axis=1, count=size, bitorder="little")
            if unpack_to == "uint8":
                return bits
            np.copyto(view, bits)
            return view

    def run(seconds):
        steps, end = 0, time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(10):
                step()
            steps += 10
        return steps * games
    return run


def loop_run(games, outputs):
    pool = [Game() for _ in range(games)]
    rng = random.Random(1)

    def run(seconds):
        n, end = 0, time.process_time() + seconds
        getrandbits = rng.getrandbits
        while time.process_time() < end:
            for i, g in enumerate(pool):
                g.apply(g.random_action(getrandbits(64)))
                if outputs:
                    learn.observation_bits(g)
                    learn.legal_mask(g, bits=True)
                if g.is_over:
                    g.close()
                    pool[i] = Game()
            n += games
        return n
    return run


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    print("%d games, Python %s, numpy %s, load average %s" % (
        games, sys.version.split()[0], learn.have_numpy(),
        " ".join("%.1f" % x for x in os.getloadavg())))
    for name, outputs in CONFIGS:
        print("%-42s %6.2f M decisions/s" % (name, timed(batch_run(games, outputs), seconds) / 1e6))
    for name, outputs, unpack_to in UNPACKED if learn.have_numpy() else ():
        rate = timed(batch_run(games, outputs, unpack_to), seconds)
        print("%-42s %6.2f M decisions/s" % (name, rate / 1e6))
    for name, outputs in (("per-game loop: random_action + apply", False),
                          ("per-game loop + obs bits + mask bits", True)):
        print("%-42s %6.2f M decisions/s" % (name, timed(loop_run(games, outputs), seconds) / 1e6))


if __name__ == "__main__":
    main()
