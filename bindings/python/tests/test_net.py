# SPDX-License-Identifier: MIT
"""The learned evaluation (libball.Net over ball_net_*, experimental): a
net written by scripts/net-write.py evaluates as that script's own
forward pass (plain Python, independent of libball/nnue/net.c) says, within
1e-6; refused files raise ArgumentError with the loader's message; the
turn search with eval=net answers legal decisions and repeats; lifetime."""

import importlib.util
import os
import pickle
import random
import unittest

import libball
from libball import Game, Net, TurnSearch
from libball import learn

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "net_write", os.path.join(HERE, "..", "..", "..", "scripts", "net-write.py"))
net_write = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(net_write)


def positions(n=12, seed=5):
    """The start and positions of a seeded random game."""
    rng = random.Random(seed)
    game = Game()
    out = [Game()]
    while len(out) < n:
        if game.result != libball.Result.ONGOING:
            game = Game()
        for _ in range(3):
            if game.result == libball.Result.ONGOING:
                game.apply(rng.choice(list(game.legal_actions())))
        out.append(Game(game.bpn))
    return out


@unittest.skipUnless(libball.net.available(), "the loaded libball has no ball_net_load")
class NetTest(unittest.TestCase):
    def test_against_python_forward(self):
        for flags, h1, h2 in ((0, 16, 0), (0, 8, 4), (1, 4, 0)):
            spec = net_write.random_net(h1, h2, flags, seed=h1 + h2)
            data = net_write.pack_net(flags, **spec)
            with Net(data) as net:
                seen = set()
                for g in positions():
                    obs = learn.observation(g, flags)
                    want = net_write.forward(list(obs), spec)
                    got = net.evaluate(g)
                    self.assertAlmostEqual(got, want, delta=1e-6, msg=g.bpn)
                    seen.add(round(got, 6))
                self.assertGreater(len(seen), 3, "the same value everywhere")

    def test_refusals(self):
        data = net_write.pack_net(0, **net_write.random_net(2, seed=1))
        cases = {
            "truncated": data[:-1],
            "checksum": data[:100] + bytes([data[100] ^ 4]) + data[101:],
            "byte 8: format version 3, this library reads 1 and 2": data[:8] + b"\x03" + data[9:],
            "byte 0: bad magic": b"X" + data[1:],
        }
        for want, bad in cases.items():
            with self.assertRaises(libball.ArgumentError) as cm:
                Net(bad)
            self.assertIn(want, str(cm.exception))
        with self.assertRaises(libball.ArgumentError):
            Net(b"")
        with self.assertRaises(libball.ArgumentError):
            Net("not bytes")

    def test_search_with_net(self):
        data = net_write.pack_net(0, **net_write.random_net(32, seed=4))
        net = Net(data)
        game = Game()
        a = TurnSearch(nodes=3000, hash_mb=1, eval=net)
        b = TurnSearch(nodes=3000, hash_mb=1, eval=net)
        self.assertIs(a.eval, net)
        self.assertIn("eval=", repr(a))
        best = a.choose(game)
        self.assertIn(best, list(game.legal_actions()))
        self.assertEqual(b.choose(game), best)
        r = TurnSearch(nodes=3000, hash_mb=1, threads=2, eval=net).analyse(game)
        self.assertIn(r.best, list(game.legal_actions()))
        with self.assertRaises(libball.ArgumentError):
            TurnSearch(nodes=100, eval="net")
        net.close()
        with self.assertRaises(libball.ClosedGameError):
            a.choose(game)
        with self.assertRaises(libball.ClosedGameError):
            net.evaluate(game)
        self.assertEqual(TurnSearch(nodes=10).eval, "network")

    def test_from_file_and_pickle(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "n.net")
            net_write.write_net(path, 0, **net_write.random_net(4, seed=2))
            net = Net.from_file(path)
            self.assertTrue(-1.0 <= net.evaluate(Game()) <= 1.0)
            with self.assertRaises(TypeError):
                pickle.dumps(net)
            net.close()
            self.assertIn("closed", repr(net))


if __name__ == "__main__":
    unittest.main()
