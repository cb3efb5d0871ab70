# SPDX-License-Identifier: MIT
"""Game lifetime, reading the position, BPN, clone, close."""

import copy
import gc
import subprocess
import unittest
import weakref

import libball
from libball import Game, Phase, Piece, PieceType, Result, Team

from helpers import AFTER_E11_F10, BALL_TOOL, DODGE, KEEP, START


class StandardStart(unittest.TestCase):
    """R2.2, R2.3: the standard formation, DEF to act with 2 PA, turn 1."""

    def setUp(self):
        self.game = Game()

    def tearDown(self):
        self.game.close()

    def test_r2_3_state(self):
        g = self.game
        self.assertEqual(g.bpn, START)
        self.assertEqual(g.bpn, libball.START_BPN)
        self.assertIs(g.side, Team.DEF)
        self.assertIs(g.phase, Phase.ACTION)
        self.assertEqual(g.pa, 2)
        self.assertEqual(g.turn, 1)
        self.assertIs(g.result, Result.ONGOING)
        self.assertFalse(g.is_over)
        self.assertIsNone(g.winner)
        self.assertFalse(g.handoff_last)
        self.assertEqual(g.history_length, 0)
        self.assertEqual(g.rules, libball.Rules(1, 0))

    def test_r2_2_pieces(self):
        g = self.game
        self.assertEqual(g.ball_square, "G5")
        self.assertEqual(g.piece_at("G5"), Piece(Team.ATK, PieceType.X, has_ball=True))
        self.assertEqual(g.piece_at("G3"), Piece(Team.ATK, PieceType.S))
        self.assertEqual(g.piece_at("C11"), Piece(Team.DEF, PieceType.O))
        self.assertEqual(g.piece_at("G15").type, PieceType.S)
        self.assertIsNone(g.piece_at("G9"))
        self.assertIsNone(g.piece_at("G5", "lower"))
        self.assertEqual(g.piece_at(libball.square_index("G5")), g.piece_at("G5"))
        squares = [sq for sq, _ in g.pieces()]
        self.assertEqual(len(squares), 14)
        self.assertEqual(str(g["G5"]), "X*")
        self.assertEqual(str(g["K11"]), "o")
        self.assertEqual(str(g["A1"]), ".")
        self.assertTrue(g["A1"].vacant)
        self.assertFalse(g["G5"].open)
        self.assertTrue(g["G5"].has_ball)
        self.assertIsNone(g.restricted_square)

    def test_piece_text_and_flags(self):
        p = self.game.piece_at("G5")
        self.assertEqual(str(p), "X*")
        self.assertTrue(p.active)
        self.assertFalse(p.down or p.restricted or p.stacked)

    def test_diagram_matches_ball_show(self):
        shown = subprocess.run([str(BALL_TOOL), "show"], check=True,
                               capture_output=True, text=True).stdout.splitlines()
        mine = self.game.diagram(legend=True).splitlines()
        self.assertEqual(mine, shown[:len(mine)])  # one renderer: the library's
        # ATK's end zone, letters, 17 rows, letters, DEF's end zone, 2 of legend
        self.assertEqual(len(mine), 23)
        self.assertEqual(mine[0], "   end zone: ATK scores in row 17")  # R1.4
        self.assertTrue(all(len(line) <= 80 for line in mine))

    def test_repr(self):
        self.assertEqual(repr(self.game), "libball.Game(%r)" % START)


class Positions(unittest.TestCase):
    """R2.4, N1: any valid BPN, rule options, stacks and marks."""

    def test_from_bpn(self):
        with Game.from_bpn(DODGE) as g:
            self.assertEqual(g.bpn, DODGE)
            self.assertIs(g.side, Team.ATK)
            self.assertEqual(g.ball_square, "A1")
            self.assertTrue(g["A1"].loose_ball)
            self.assertTrue(g["A1"].open)
            self.assertFalse(g["A1"].vacant)

    def test_stack(self):
        with Game(KEEP) as g:
            sq = g["G9"]
            self.assertTrue(sq.is_stack)
            self.assertEqual(sq.upper, Piece(Team.ATK, PieceType.X, has_ball=True, stacked=True))
            self.assertEqual(sq.lower, Piece(Team.DEF, PieceType.O, stacked=True))
            self.assertEqual(g.piece_at("G9", "lower"), sq.lower)
            self.assertFalse(sq.fresh)
            self.assertEqual(str(sq), "X*o")

    def test_rules(self):
        with Game.from_bpn(START, end_zone_depth=3, turn_limit=40) as g:
            self.assertEqual(g.rules, libball.Rules(end_zone_depth=3, turn_limit=40))
        with Game(turn_limit=7) as g:
            self.assertEqual(g.rules.turn_limit, 7)
        with self.assertRaises(libball.RangeError):
            Game(end_zone_depth=4)

    def test_set_bpn_clears_history(self):
        with Game() as g:
            g.apply("E11-F10")
            g.bpn = DODGE
            self.assertEqual(g.bpn, DODGE)
            self.assertEqual(g.history_length, 0)
            with self.assertRaises(libball.NoHistoryError):
                g.undo()

    def test_bad_bpn_leaves_game_unchanged(self):
        with Game() as g:
            with self.assertRaises(libball.BpnError) as cm:
                g.set_bpn("7/6 DEF a 2 - 0/0 1")
            self.assertTrue(cm.exception.message)
            self.assertEqual(g.bpn, START)


class OneAction(unittest.TestCase):
    """legal_action(i) is legal_actions()[i], fetched alone."""

    def test_same_as_the_list(self):
        g = Game.from_bpn(DODGE)
        actions = g.legal_actions()
        self.assertEqual(g.count_legal_actions(), len(actions))
        self.assertEqual([g.legal_action(i) for i in range(len(actions))], actions)

    def test_out_of_range(self):
        g = Game()
        n = g.count_legal_actions()
        self.assertEqual(n, 55)
        for bad in (n, -1, 2 ** 31, -2 ** 40):
            with self.assertRaises(libball.RangeError):
                g.legal_action(bad)
        with self.assertRaises(libball.ArgumentError):
            g.legal_action("0")
        self.assertEqual(g.bpn, START)


class RandomAction(unittest.TestCase):
    """random_action() draws legal decisions, all of them over the range."""

    def test_draws_every_action_once(self):
        g = Game.from_bpn(DODGE)
        actions = g.legal_actions()
        n = len(actions)
        drawn = [g.random_action(-(-(i << 64) // n)) for i in range(n)]
        self.assertEqual(sorted(drawn, key=str), sorted(actions, key=str))
        self.assertIn(g.random_action(), actions)
        self.assertIn(g.random_action(2 ** 64 - 1), actions)

    def test_uniform_over_the_documented_range(self):
        """ball_random_action() maps floor(r * n / 2**64): a uniform r from
        0 .. 2**64 - 1 (random.getrandbits(64)) gives each of the n legal
        decisions 1/n of the draws. Counted over 50 n draws with a fixed
        seed and judged by Pearson's chi-square at 0.999 (Wilson-Hilferty,
        z = 3.09); r from [0, 2**63) would reach only the first half of
        the decisions, and the same test refuses it."""
        g = Game()
        actions = g.legal_actions()
        n = len(actions)
        self.assertGreaterEqual(n, 20)
        draws = 50 * n
        df = n - 1
        k = 2 / (9 * df)
        limit = df * (1 - k + 3.09 * k ** 0.5) ** 3

        def chi_square(bits):
            import random
            rng = random.Random(2023)
            counts = dict.fromkeys(actions, 0)
            for _ in range(draws):
                counts[g.random_action(rng.getrandbits(bits))] += 1
            expect = draws / n
            return sum((c - expect) ** 2 / expect for c in counts.values())

        self.assertLess(chi_square(64), limit)
        self.assertGreater(chi_square(63), 10 * limit)

    def test_bad_values_and_game_over(self):
        g = Game()
        for bad in (-1, 2 ** 64, "1", 1.0, True, None.__class__):
            with self.assertRaises(libball.ArgumentError):
                g.random_action(bad)
        self.assertEqual(g.bpn, START)


class Lifetime(unittest.TestCase):
    """Memory is freed by close(), by `with`, and by the garbage collector."""

    def test_context_manager_closes(self):
        with Game() as g:
            self.assertFalse(g.closed)
        self.assertTrue(g.closed)
        with self.assertRaises(libball.ClosedGameError):
            g.bpn
        with self.assertRaises(libball.BallError):
            g.legal_actions()
        g.close()  # twice is harmless
        self.assertIn("closed", repr(g))

    def test_garbage_collector_frees(self):
        g = Game()
        ref = weakref.ref(g)
        del g
        gc.collect()
        self.assertIsNone(ref())

    def test_many_games_freed(self):
        # 20000 leaked games would take about 100 MB of resident memory.
        def rss_kb():
            try:
                with open("/proc/self/statm") as f:
                    return int(f.read().split()[1]) * 4
            except OSError:
                return 0
        before = rss_kb()
        for _ in range(20000):
            Game().apply("E11-F10")
        gc.collect()
        self.assertLess(rss_kb() - before, 20000)

    def test_clone_is_independent(self):
        with Game() as g:
            g.apply("E11-F10")
            with g.clone() as c:
                self.assertEqual(c.bpn, AFTER_E11_F10)
                self.assertEqual(c.history_length, 1)
                c.apply("end")
                self.assertEqual(g.bpn, AFTER_E11_F10)
                c.undo()
                c.undo()  # the clone has the history too
                self.assertEqual(c.bpn, START)
            self.assertEqual(g.bpn, AFTER_E11_F10)
            d = copy.copy(g)
            self.assertEqual(d.bpn, g.bpn)
            self.assertIsNot(d, g)
            d.close()
            self.assertEqual(copy.deepcopy(g).bpn, g.bpn)


class Hash(unittest.TestCase):
    @unittest.skipUnless(libball._native.has("ball_hash"), "library without ball_hash()")
    def test_hash(self):
        with Game() as g, Game(START) as same:
            h0 = g.hash
            self.assertIsInstance(h0, int)
            self.assertEqual(same.hash, h0)
            g.apply("E11-F10")
            self.assertNotEqual(g.hash, h0)
            g.undo()
            self.assertEqual(g.hash, h0)


class Module(unittest.TestCase):
    def test_version(self):
        self.assertEqual(libball._native.ABI_MAJOR, 1)
        self.assertEqual(libball.LIBRARY_VERSION_NUMBER // 10000, libball._native.ABI_MAJOR)
        self.assertRegex(libball.LIBRARY_VERSION, r"^1\.\d+\.\d+$")

    def test_squares(self):
        self.assertEqual(len(libball.SQUARES), 111)
        self.assertEqual(libball.SQUARES[0], "A1")
        self.assertEqual(libball.SQUARES[55], "G9")
        self.assertEqual(libball.SQUARES[110], "M17")
        self.assertEqual(libball.square_index("G9"), 55)
        self.assertEqual(libball.square_name(7), "B2")
        self.assertEqual(libball.square_at(7, 9), "G9")
        self.assertEqual(libball.square_col("M1"), 13)
        self.assertEqual(libball.square_row("M17"), 17)
        self.assertEqual(libball.distance("A1", "M17"), 16)  # R1.3
        self.assertEqual(libball.distance("G5", "G9"), 4)
        with self.assertRaises(libball.NotationError):
            libball.square_index("B1")  # R1.2: B1 is not playable
        with self.assertRaises(libball.RangeError):
            libball.square_index(111)
        with self.assertRaises(libball.RangeError):
            libball.square_at(2, 1)

    def test_docstring_example(self):
        import doctest
        failures, _ = doctest.testmod(libball, verbose=False)
        self.assertEqual(failures, 0)


if __name__ == "__main__":
    unittest.main()
