# SPDX-License-Identifier: MIT
"""The one-crossing calls (experimental tier): Game.apply_index(),
Game.random_apply() and Game.random_playout(), each compared with the same
decisions played through legal_actions() + apply() and random_action() +
apply() on a twin game; the playout's generator is docs/learning.md's
splitmix64 written out here."""
import unittest

import libball
from libball import Game

from helpers import START

M64 = 2 ** 64 - 1


def splitmix64(state):
    """(new state, output) of splitmix64 (docs/learning.md)."""
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def reference_playout(g, seed, max_decisions=None):
    state, played = seed, 0
    while max_decisions is None or played < max_decisions:
        if g.count_legal_actions() == 0:
            break
        state, r = splitmix64(state)
        g.apply(g.random_action(r))
        played += 1
    return played


def same(test, a, b):
    test.assertEqual(a.bpn, b.bpn)
    test.assertEqual(a.hash, b.hash)
    test.assertEqual(a.move_stack, b.move_stack)


class ApplyIndex(unittest.TestCase):
    def test_plays_the_listed_decision(self):
        import random
        rng = random.Random(29)
        g, twin = Game(), Game()
        for _ in range(300):
            acts = twin.legal_actions()
            if not acts:
                break
            i = rng.randrange(len(acts))
            twin.apply(acts[i])
            self.assertIsNone(g.apply_index(i))
            self.assertEqual(g.peek(), acts[i])
        same(self, g, twin)

    def test_out_of_range_leaves_the_game(self):
        g = Game()
        g.apply("E11-F10")
        bpn, hist = g.bpn, g.move_stack
        n = g.count_legal_actions()
        for bad in (-1, n, 2 ** 31 - 1):
            with self.assertRaises(libball.RangeError):
                g.apply_index(bad)
            self.assertEqual((g.bpn, g.move_stack), (bpn, hist))
        with self.assertRaises(libball.RangeError):
            g.apply_index(2 ** 40)  # does not fit a C int
        for bad in ("1", 1.0, True, None):
            with self.assertRaises(libball.ArgumentError):
                g.apply_index(bad)
        self.assertEqual((g.bpn, g.move_stack), (bpn, hist))
        g.random_playout(3)
        self.assertNotEqual(g.result, libball.Result.ONGOING)
        with self.assertRaises(libball.RangeError):
            g.apply_index(0)
        g.close()
        with self.assertRaises(libball.ClosedGameError):
            g.apply_index(0)


class RandomApply(unittest.TestCase):
    def test_plays_the_draw(self):
        import random
        rng = random.Random(7)
        g, twin = Game(), Game()
        for _ in range(300):
            if twin.count_legal_actions() == 0:
                break
            r = rng.getrandbits(64)
            want = twin.random_action(r)
            twin.apply(want)
            self.assertEqual(g.random_apply(r), want)
        same(self, g, twin)
        self.assertIsInstance(Game().random_apply(), libball.Action)

    def test_errors(self):
        g = Game()
        for bad in (-1, 2 ** 64, "1", 1.0, True):
            with self.assertRaises(libball.ArgumentError):
                g.random_apply(bad)
        self.assertEqual(g.bpn, START)
        g.random_playout(11)
        bpn = g.bpn
        with self.assertRaises(libball.RangeError):
            g.random_apply(0)
        self.assertEqual(g.bpn, bpn)


class RandomPlayout(unittest.TestCase):
    def test_equals_the_reference_loop(self):
        for seed in (0, 1, 12345, M64):
            for limit in (None, 0, 1, 40):
                g, twin = Game(), Game()
                want = reference_playout(twin, seed, limit)
                got = g.random_playout(seed, limit)
                self.assertEqual(got, want)
                same(self, g, twin)
                if limit is None:
                    self.assertNotEqual(g.result, libball.Result.ONGOING)
                for _ in range(got):
                    g.undo()
                self.assertEqual(g.bpn, START)
                self.assertEqual(g.history_length, 0)

    def test_over_and_errors(self):
        g = Game(rules_text="turns=30")
        self.assertGreater(g.random_playout(), 0)
        self.assertEqual(g.random_playout(), 0)  # over: nothing to play
        g = Game()
        with self.assertRaises(libball.RangeError):
            g.random_playout(1, -1)
        for bad in (-1, 2 ** 64, "1", True):
            with self.assertRaises(libball.ArgumentError):
                g.random_playout(bad)
        self.assertEqual(g.bpn, START)


if __name__ == "__main__":
    unittest.main()
