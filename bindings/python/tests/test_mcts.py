# SPDX-License-Identifier: MIT
"""The MCTS player (libball.MCTS over ball_mcts_*): the same decisions as
the C library driven by the ``selfplay`` example, the game left as it was,
immediate touchdowns, statistics, seeding, errors and lifetime."""

import copy
import pickle
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

import libball
from libball import MCTS, Game, SearchStats

from helpers import KEEP, SELFPLAY, START

# R11.1 with R1.4: ATK's X holding the ball on F16 steps diagonally into
# row 17 (F16-E17 or F16-G17) and scores; 112 legal decisions in all.
ATK_TOUCHDOWN = "7/2X*3/7/6/7/6/7/6/7/6/7/6/3x3/6/7/6/7 ATK a 2 - 0/0 1"
# The mirror for DEF, which scores in row 1: x* on F2 to E1 or G1.
DEF_TOUCHDOWN = "7/6/7/6/7/6/7/6/7/6/7/6/3X3/6/7/2x*3/7 DEF a 2 - 0/0 1"
# The start with no PA left (R4.2): `end` is the only legal decision.
ONLY_END = START.replace(" a 2 ", " a 0 ")

# examples/selfplay.c: game i of `--seed S` seeds ATK's player with S + i
# and DEF's with (S + i) ^ 0x9e3779b9 (players.c: ball_mcts_seed()).
DEF_SEED_XOR = 0x9E3779B9


def selfplay_record(*args):
    """The game record of one `selfplay --games 1 ARGS` game."""
    if not SELFPLAY.is_file():
        raise AssertionError("%s not built (make examples, or set SELFPLAY)" % SELFPLAY)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.rec"
        subprocess.run([str(SELFPLAY), "--games", "1", "--record", str(path), *args],
                       check=True, capture_output=True, timeout=60)
        return path.read_text()


class SameAsC(unittest.TestCase):
    """Each decision a searcher of the binding makes equals the one the C
    library made in a `selfplay` game with the same settings and seed (its
    record, read back): the config fields, the seed and the stream of
    random numbers across decisions reach C unchanged."""

    def replay(self, record, players):
        played = Game.from_record(record)
        moves = played.move_stack
        self.assertGreater(len(moves), 10)
        searched = 0
        with Game(played.history_position(0), rules_text=played.rules_text) as game:
            for i, move in enumerate(moves):
                player = players[game.side]
                if player is not None:
                    before = game.bpn
                    chosen = player.choose(game)
                    self.assertEqual(game.bpn, before)
                    self.assertEqual(chosen, move, "decision %d (%s, turn %d)"
                                     % (i + 1, game.side, game.turn))
                    searched += 1
                game.push(move)
            self.assertEqual(game.result, played.result)
        return searched

    def test_both_sides_mcts(self):
        seed = 41
        record = selfplay_record("--seed", str(seed), "--turn-limit", "8",
                                 "--atk", "mcts:playouts=120",
                                 "--def", "mcts:playouts=80,turns=1,c=1.5")
        with MCTS(playouts=120, seed=seed + 1) as atk, \
                MCTS(80, playout_turns=1, exploration=1.5,
                     seed=(seed + 1) ^ DEF_SEED_XOR) as dfn:
            self.assertGreater(self.replay(record, {libball.Team.ATK: atk,
                                                    libball.Team.DEF: dfn}), 10)

    def test_pure_monte_carlo_against_random(self):
        seed = 7
        record = selfplay_record("--seed", str(seed), "--turn-limit", "6",
                                 "--atk", "random", "--def", "mcts:playouts=60,turns=0,c=0.3")
        with MCTS(playouts=60, playout_turns=0, exploration=0.3,
                  seed=(seed + 1) ^ DEF_SEED_XOR) as dfn:
            self.assertGreater(self.replay(record, {libball.Team.ATK: None,
                                                    libball.Team.DEF: dfn}), 3)

    def test_a_wrong_setting_is_noticed(self):
        # The replay is sensitive: another seed for DEF breaks it.
        seed = 41
        record = selfplay_record("--seed", str(seed), "--turn-limit", "8",
                                 "--atk", "random", "--def", "mcts:playouts=120")
        with MCTS(playouts=120, seed=seed + 1) as wrong:
            with self.assertRaises(AssertionError):
                self.replay(record, {libball.Team.ATK: None, libball.Team.DEF: wrong})


class Choosing(unittest.TestCase):
    def test_game_left_as_it_was(self):
        with Game(turn_limit=30) as g, MCTS(playouts=150, seed=3) as m:
            for text in ("E11-F10", "G11-I9", "end"):
                g.push(text)
            before = (g.bpn, g.move_stack, g.hash, g.history_length, g.rules_text)
            action, stats = m.choose(g, stats=True)
            self.assertEqual((g.bpn, g.move_stack, g.hash, g.history_length, g.rules_text),
                             before)
            self.assertIn(action, g.legal_actions())
            self.assertIsInstance(stats, SearchStats)
            self.assertEqual(stats.playouts, 150)
            self.assertTrue(1 < stats.nodes <= 151)
            self.assertTrue(0 <= stats.value <= 1)
            self.assertGreater(stats.visits, 0)
            self.assertIs(m.last_stats, stats)
        with Game(KEEP) as g, MCTS(playouts=40) as m:  # a release phase (R9.3)
            g.push("end")
            before = (g.bpn, g.move_stack)
            self.assertIn(m.choose(g), g.legal_actions())
            self.assertEqual((g.bpn, g.move_stack), before)

    def test_immediate_touchdown(self):
        for bpn, winner in ((ATK_TOUCHDOWN, libball.Team.ATK),
                            (DEF_TOUCHDOWN, libball.Team.DEF)):
            with Game(bpn) as g, MCTS(playouts=30, seed=9) as m:
                self.assertEqual(g.count_legal_actions(), 112)
                action, stats = m.choose(g, stats=True)
                self.assertEqual(g.bpn, bpn)
                g.push(action)
                self.assertEqual(g.winner, winner, "%s did not score" % action)
                self.assertEqual((stats.playouts, stats.value), (0, 1.0))

    def test_only_decision(self):
        with Game(ONLY_END) as g, MCTS(playouts=50) as m:
            self.assertEqual(m.choose(g), "end")
            self.assertEqual(m.last_stats.playouts, 0)

    def test_seed_repeats(self):
        with Game() as g, MCTS(playouts=60, seed=5) as m, MCTS(playouts=60, seed=5) as twin:
            first = [m.choose(g) for _ in range(4)]
            self.assertEqual([twin.choose(g) for _ in range(4)], first)
            m.seed(5)
            self.assertEqual([m.choose(g) for _ in range(4)], first)
            self.assertEqual(m.initial_seed, 5)
            m.seed(2 ** 64 - 1)
            self.assertIn(m.choose(g), g.legal_actions())

    def test_time_budget(self):
        with Game() as g, MCTS(time_ms=5) as m:
            self.assertEqual((m.playouts, m.time_ms), (0, 5))  # ms alone: no playout limit
            self.assertIn(m.choose(g), g.legal_actions())
            self.assertGreater(m.last_stats.playouts, 0)
        with MCTS(100, time_ms=5) as both:
            self.assertEqual((both.playouts, both.time_ms), (100, 5))

    def test_settings_and_repr(self):
        with MCTS() as m:  # the library's defaults (ball_mcts_config_init)
            self.assertEqual((m.playouts, m.time_ms, m.initial_seed, m.playout_turns,
                              m.exploration, m.max_nodes), (1000, 0, 1, 1, 0.3, 0))
            self.assertIsNone(m.last_stats)
        m = MCTS(playouts=10, seed=2, playout_turns=0, exploration=2, max_nodes=5000)
        self.assertEqual(repr(m), "libball.MCTS(playouts=10, time_ms=0, seed=2, "
                                  "playout_turns=0, exploration=2.0, max_nodes=5000)")
        self.assertEqual(repr(eval(repr(m), {"libball": libball})), repr(m))
        m.close()
        self.assertTrue(repr(m).startswith("<closed libball.MCTS("))


class Errors(unittest.TestCase):
    def test_bad_settings_raise_with_the_library_message(self):
        cases = [
            (dict(playouts=-1), libball.RangeError, "playouts 0-1000000000"),
            (dict(playouts=1000000001), libball.RangeError, "playouts 0-1000000000"),
            (dict(playouts=0), libball.RangeError, "no budget"),
            (dict(playouts=0, time_ms=0), libball.RangeError, "no budget"),
            (dict(time_ms=-5), libball.RangeError, "time_ms 0-86400000"),
            (dict(playout_turns=1001), libball.RangeError, "playout_turns 0-1000"),
            (dict(max_nodes=-1), libball.RangeError, "max_nodes >= 0"),
            (dict(exploration=100.5), libball.RangeError, "exploration must lie in 0-100"),
            (dict(exploration=float("nan")), libball.RangeError, "exploration"),
            (dict(exploration=-0.1), libball.RangeError, "exploration"),
            # checked by the binding before C: never truncated
            (dict(playouts=2 ** 31), libball.RangeError, "playouts"),
            (dict(seed=-1), libball.RangeError, "seed"),
            (dict(seed=2 ** 64), libball.RangeError, "seed"),
            (dict(playouts=10.5), libball.ArgumentError, "playouts"),
            (dict(playouts=True), libball.ArgumentError, "playouts"),
            (dict(playouts="100"), libball.ArgumentError, "playouts"),
            (dict(seed=1.0), libball.ArgumentError, "seed"),
            (dict(exploration="0.7"), libball.ArgumentError, "exploration"),
        ]
        for kwargs, cls, text in cases:
            with self.subTest(**{k: repr(v) for k, v in kwargs.items()}):
                with self.assertRaises(cls) as cm:
                    MCTS(**kwargs)
                self.assertIn(text, str(cm.exception))
                self.assertEqual(cm.exception.code, cls.code)
        with self.assertRaises(TypeError):
            MCTS(playout=100)  # type: ignore[call-arg]
        with MCTS(playouts=10) as m:
            with self.assertRaises(libball.RangeError):
                m.seed(-1)
            with self.assertRaises(libball.ArgumentError):
                m.seed(1.5)

    def test_finished_game(self):
        with Game(ATK_TOUCHDOWN) as g, MCTS(playouts=20) as m:
            g.push("F16-E17")
            bpn = g.bpn
            with self.assertRaises(libball.RangeError) as cm:
                m.choose(g)
            self.assertIn("game is over", str(cm.exception))
            self.assertIn("ATK won", str(cm.exception))
            self.assertEqual((g.bpn, g.history_length), (bpn, 1))
        with Game(ONLY_END, turn_limit=1) as g, MCTS(playouts=20) as m:
            g.push("end")  # turn 1 was the last (R11.2): a draw
            with self.assertRaises(libball.RangeError) as cm:
                m.choose(g)
            self.assertIn("draw", str(cm.exception))

    def test_closed(self):
        m = MCTS(playouts=10)
        g = Game()
        m.close()
        m.close()  # harmless
        self.assertTrue(m.closed)
        with self.assertRaises(libball.ClosedGameError) as cm:
            m.choose(g)
        self.assertIn("searcher is closed", str(cm.exception))
        with self.assertRaises(libball.ClosedGameError):
            m.seed(3)
        with MCTS(playouts=10) as live:
            g.close()
            with self.assertRaises(libball.ClosedGameError) as cm:
                live.choose(g)
            self.assertIn("game is closed", str(cm.exception))
        self.assertTrue(live.closed)  # the with block closed it

    def test_not_a_game(self):
        with MCTS(playouts=10) as m:
            for bad in (None, START, 3):
                with self.assertRaises(libball.ArgumentError):
                    m.choose(bad)  # type: ignore[call-overload]

    def test_no_pickle_or_copy(self):
        with MCTS(playouts=10) as m:
            for fn in (pickle.dumps, copy.copy, copy.deepcopy):
                with self.assertRaises(TypeError):
                    fn(m)


class Threads(unittest.TestCase):
    def test_shared_searcher(self):
        # Three threads share one searcher, each with its own game; the
        # per-searcher lock serialises the searches (no crash, legal
        # decisions, games unchanged), then a close waits for them.
        m = MCTS(playouts=40, seed=11)
        errors = []

        def work(seed):
            try:
                with Game(turn_limit=6) as g:
                    for _ in range(8):
                        if g.is_over:
                            break
                        before = g.bpn
                        a = m.choose(g)
                        if g.bpn != before or a not in g.legal_actions():
                            errors.append("bad choice %s" % a)
                        g.push(a)
            except Exception as exc:  # pragma: no cover - a failure
                errors.append("%s: %s" % (type(exc).__name__, exc))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        m.close()
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
