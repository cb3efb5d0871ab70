#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Speed of the Python learning interface: decisions per second of
uniform random play in B games (default 1,024), one core.

    PYTHONPATH=bindings/python python3 examples/python/learn_speed.py [games] [seconds]

Batch lines: one ball_batch_step() foreign call per step of all games
(the library draws the random decisions), with different outputs bound.
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


def batch_run(games, outputs):
    batch = learn.Batch(games, outputs=outputs, seed=1)
    for _ in range(20):  # warm up: games spread over their lengths
        batch.step()

    def run(seconds):
        steps, end = 0, time.process_time() + seconds
        step = batch.step
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
    for name, outputs in (("per-game loop: random_action + apply", False),
                          ("per-game loop + obs bits + mask bits", True)):
        print("%-42s %6.2f M decisions/s" % (name, timed(loop_run(games, outputs), seconds) / 1e6))


if __name__ == "__main__":
    main()
