#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes share/openings.txt, the openings of `ball match` (docs/match.md):
positions a few decisions from the standard start, each checked not to be
decided already.

    python3 share/gen-openings.py [COUNT] > share/openings.txt

(run from the repository root with the library built: LIBBALL_PATH or
build/libball.so.1). From the standard start, 2 to 9 decisions are
played, each drawn uniformly from the legal ones (seeded, so the file is
reproducible); a position is kept when the game goes on, it is not a
duplicate, the coach to act has no immediate touchdown, and a quick search
(libball.MCTS, 3000 playouts) gives the coach to act a value between 0.3
and 0.7: neither side is close to a sure touchdown. Default COUNT 120.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bindings", "python"))
if "LIBBALL_PATH" not in os.environ:
    os.environ["LIBBALL_PATH"] = os.path.join(HERE, "..", "build", "libball.so.1")

import libball  # noqa: E402

SEED = 20261201
PLAYOUTS = 3000
LOW, HIGH = 0.3, 0.7


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    rng = random.Random(SEED)
    search = libball.MCTS(PLAYOUTS, seed=SEED)
    seen = set()
    out = []
    tried = 0
    while len(out) < count:
        tried += 1
        game = libball.Game()
        for _ in range(rng.randint(2, 9)):
            legal = game.legal_actions()
            if game.is_over or not legal:
                break
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_over or game.bpn in seen:
            continue
        _, stats = search.choose(game, stats=True)
        if stats.value >= 0.999 or not LOW <= stats.value <= HIGH:
            continue
        seen.add(game.bpn)
        out.append((game.bpn, game.history_length, stats.value))
    print("# Openings of `ball match` (docs/match.md): one BPN per line, %d positions" % count)
    print("# from the standard start after 2-9 random decisions, each with a value")
    print("# between %.1f and %.1f for the coach to act by a %d-playout MCTS search." % (LOW, HIGH, PLAYOUTS))
    print("# Written by share/gen-openings.py (seed %d; %d positions tried)." % (SEED, tried))
    for bpn, _, _ in out:
        print(bpn)


main()
