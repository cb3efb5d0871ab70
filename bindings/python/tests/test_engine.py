# SPDX-License-Identifier: MIT
"""libball.engine, the BEP client (docs/protocol.md): against `ball engine`
(play, analyse with multipv, configure, limits, the asyncio API) and against
each mode of the misbehaving engine tests/engines/bad_engine.py (the
documented exception for a crash, an exit, a hang, garbage, an illegal
decision, silence, a slow handshake)."""

import asyncio
import sys
import time
import unittest

import libball
from libball import Game
from libball.engine import (EngineError, EngineTerminatedError, EngineTimeoutError, Limit,
                            SimpleEngine, popen_engine)

from helpers import BALL_TOOL, REPO

BAD = [sys.executable, str(REPO / "tests" / "engines" / "bad_engine.py")]
ENGINE = [str(BALL_TOOL), "engine", "--searcher", "mcts"]


class DefaultEngine(unittest.TestCase):
    """`ball engine` with no --searcher serves the turn search."""

    def setUp(self):
        self.engine = SimpleEngine.popen([str(BALL_TOOL), "engine"])
        self.addCleanup(self.engine.quit)

    def test_plays_a_whole_legal_turn(self):
        self.assertTrue(self.engine.id["name"].startswith("libball search"))
        self.assertIn("Nodes", self.engine.options)
        game = Game()
        before = game.bpn
        r = self.engine.play(game, Limit(nodes=20000))
        self.assertEqual(game.bpn, before)
        self.assertIn(r.decision, game.legal_actions())
        self.assertGreater(len(r.turn), 0)  # the rest of the chosen turn
        team = game.side
        game.apply(r.decision)
        for d in r.turn:
            self.assertEqual(game.side, team)
            game.apply(d)
        self.assertNotEqual(game.side, team)  # the turn was handed over

    def test_analyse_gives_value_and_pv(self):
        infos = self.engine.analyse(Game(), Limit(nodes=20000), multipv=2)
        self.assertEqual([i["multipv"] for i in infos], [1, 2])
        for i in infos:
            self.assertTrue(0.0 <= i["value"] <= 1.0)
            self.assertGreater(len(i["pv"]), 1)


class GoodEngine(unittest.TestCase):
    def setUp(self):
        self.engine = SimpleEngine.popen(ENGINE)
        self.addCleanup(self.engine.quit)

    def test_handshake(self):
        self.assertTrue(self.engine.id["name"].startswith("libball"))
        self.assertIn("author", self.engine.id)
        opt = self.engine.options["Exploration"]
        self.assertEqual((opt.type, opt.default, opt.min, opt.max), ("real", "0.3", "0", "100"))
        self.engine.ping()

    def test_play_is_legal_and_repeats(self):
        game = Game()
        game.apply("E11-F10")
        game.apply("end")
        before = game.bpn
        r1 = self.engine.play(game, Limit(playouts=500))
        self.assertEqual(game.bpn, before)  # the game is not changed
        self.assertIn(r1.decision, game.legal_actions())
        self.assertEqual(r1.turn, [])
        self.assertEqual(r1.info["nodes"], 500)
        r2 = self.engine.play(game, Limit(nodes=500))
        self.assertEqual(r1.decision, r2.decision)  # nodes = playouts, same seed

    def test_play_whole_turns_from_a_bpn_and_rules(self):
        game = Game.from_bpn(libball.START_BPN, turn_limit=30)
        for _ in range(6):
            r = self.engine.play(game, Limit(playouts=200))
            game.apply(r.decision)
        self.assertEqual(game.history_length, 6)

    def test_analyse_multipv(self):
        game = Game()
        infos = self.engine.analyse(game, Limit(playouts=600), multipv=3)
        self.assertEqual([i["multipv"] for i in infos], [1, 2, 3])
        visits = [i["visits"] for i in infos]
        self.assertEqual(visits, sorted(visits, reverse=True))
        for info in infos:
            self.assertIn(game.parse_action(info["pv"][0]), game.legal_actions())
            self.assertTrue(0.0 <= info["value"] <= 1.0)
        one = self.engine.analyse(game, Limit(depth=2))
        self.assertEqual(one["depth"], 2)

    def test_time_limit(self):
        t = time.monotonic()
        self.engine.play(Game(), Limit(time=0.1))
        self.assertLess(time.monotonic() - t, 5)
        self.engine.play(Game(), Limit(atime=2.0, dtime=2.0, ainc=0.01, dinc=0.01))

    def test_configure(self):
        self.engine.configure({"Seed": 5, "Slice": 100})
        with self.assertRaises(EngineError) as cm:
            self.engine.configure({"Exploration": 1000})
        self.assertIn("out of range", str(cm.exception))
        with self.assertRaises(EngineError):
            self.engine.configure({"NoSuchOption": 1})
        self.engine.ping()  # still alive

    def test_game_over(self):
        game = Game.from_bpn("7/2X*3/7/6/7/6/7/6/7/6/7/6/3x3/6/7/6/7 ATK a 2 - 0/0 1")
        game.apply("F16-E17")
        with self.assertRaises(EngineError):
            self.engine.play(game, Limit(playouts=10))


class AsyncApi(unittest.TestCase):
    def test_popen_engine(self):
        async def main():
            transport, engine = await popen_engine(ENGINE)
            result = await engine.play(Game(), Limit(playouts=300))
            await engine.quit()
            return transport, result

        loop = asyncio.new_event_loop()
        try:
            transport, result = loop.run_until_complete(main())
        finally:
            loop.close()
        self.assertIn(result.decision, Game().legal_actions())
        self.assertEqual(transport.get_returncode(), 0)


class BadEngines(unittest.TestCase):
    def bad(self, mode, timeout=10.0):
        engine = SimpleEngine.popen(BAD + [mode], timeout=timeout)
        self.addCleanup(engine.quit, 1.0)
        return engine

    def test_crash(self):
        engine = self.bad("crash")
        with self.assertRaises(EngineTerminatedError) as cm:
            engine.play(Game(), Limit(playouts=10), timeout=10)
        self.assertEqual(cm.exception.returncode, 3)
        self.assertIn("crashing on purpose", cm.exception.stderr)
        self.assertIn("crashing on purpose", str(cm.exception))

    def test_exit_at_once(self):
        with self.assertRaises(EngineTerminatedError) as cm:
            SimpleEngine.popen(BAD + ["exit"])
        self.assertEqual(cm.exception.returncode, 4)
        self.assertIn("exit at once", cm.exception.stderr)

    def test_hang(self):
        engine = self.bad("hang")
        t = time.monotonic()
        with self.assertRaises(EngineTimeoutError):
            engine.play(Game(), Limit(playouts=10), timeout=0.5)
        self.assertLess(time.monotonic() - t, 5)
        engine.quit(0.5)  # killed
        self.assertIsNotNone(engine.transport.get_returncode())

    def test_hang_with_time_limit(self):
        engine = self.bad("hang")
        with self.assertRaises(EngineTimeoutError):
            engine.play(Game(), Limit(time=0.2), timeout=1.0)

    def test_garbage(self):
        engine = self.bad("garbage")
        with self.assertRaises(EngineError) as cm:
            engine.play(Game(), Limit(playouts=10))
        self.assertNotIsInstance(cm.exception, (EngineTerminatedError, EngineTimeoutError))
        self.assertIn("###", str(cm.exception))

    def test_illegal(self):
        engine = self.bad("illegal")
        with self.assertRaises(EngineError) as cm:
            engine.play(Game(), Limit(playouts=10))
        self.assertIn("A1-C3", str(cm.exception))
        self.assertIn("not a legal decision", str(cm.exception))

    def test_silence(self):
        t = time.monotonic()
        with self.assertRaises(EngineTimeoutError):
            SimpleEngine.popen(BAD + ["silence"], timeout=0.5)
        self.assertLess(time.monotonic() - t, 5)

    def test_slow_handshake(self):
        with self.assertRaises(EngineTimeoutError):
            SimpleEngine.popen(BAD + ["slow"], timeout=0.5)

    def test_noready(self):
        engine = self.bad("noready")
        with self.assertRaises(EngineTimeoutError):
            engine.ping(timeout=0.3)

    def test_not_found(self):
        with self.assertRaises(OSError):
            SimpleEngine.popen(["/nonexistent/engine"])


if __name__ == "__main__":
    unittest.main()
