# SPDX-License-Identifier: MIT
"""A random game played through the binding gives, line for line, what the
C tool prints: `ball trace` reads the same decisions and prints the BPN and
the legal decisions before and after each one (in the tool's own order, so
the decisions are compared as sorted lists)."""

import random
import subprocess
import unittest

from libball import Game

from helpers import BALL_TOOL


def trace_line(game):
    return game.bpn + "\t" + " ".join(sorted(str(a) for a in game.legal_actions()))


def normalized(tool_line):
    """A `ball trace` line with its decisions sorted like trace_line()'s."""
    bpn, _, actions = tool_line.partition("\t")
    return bpn + "\t" + " ".join(sorted(actions.split()))


class RandomTrace(unittest.TestCase):
    def play(self, seed, decisions, args=(), bpn=None, **rules):
        rng = random.Random(seed)
        played, lines = [], []
        with Game(bpn, **rules) as game:
            lines.append(trace_line(game))
            while len(played) < decisions and not game.is_over:
                action = rng.choice(game.legal_actions())
                game.apply(action)
                played.append(str(action))
                lines.append(trace_line(game))
            # undo all the way back: the start again, bit for bit
            for _ in played:
                game.undo()
            self.assertEqual(trace_line(game), lines[0])
        cmd = [str(BALL_TOOL), *args, "trace"] + ([bpn] if bpn else [])
        out = subprocess.run(cmd, input="\n".join(played) + "\n", capture_output=True,
                             text=True, check=True).stdout.splitlines()
        self.assertEqual(len(out), len(lines))
        for i, (got, want) in enumerate(zip(lines, map(normalized, out))):
            self.assertEqual(got, want, "line %d, after %s" % (i, played[i - 1] if i else "-"))
        return played

    def test_seed_2024(self):
        played = self.play(2024, 600)
        self.assertGreater(len(played), 50)

    def test_seed_7_turn_limit_and_deep_end_zone(self):
        self.play(7, 400, args=("--depth-zone", "2", "--turn-limit", "30"),
                  end_zone_depth=2, turn_limit=30)


if __name__ == "__main__":
    unittest.main()
