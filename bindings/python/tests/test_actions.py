# SPDX-License-Identifier: MIT
"""Actions: N2 text, kinds, squares, equality, apply / undo, perft."""

import pickle
import subprocess
import unittest

import libball
from libball import Action, ActionFlag, ActionKind, Game, Keeper, Phase, Team

from helpers import AFTER_DODGE, AFTER_E11_F10, BALL_TOOL, DODGE, KEEP, START


class Legal(unittest.TestCase):
    def test_same_set_as_ball_legal(self):
        # the same set (the tool has an order of its own, see `ball --help`)
        want = sorted(subprocess.run([str(BALL_TOOL), "legal"], check=True, capture_output=True,
                                     text=True).stdout.split())
        with Game() as g:
            got = sorted(str(a) for a in g.legal_actions())
        self.assertEqual(got, want)

    def test_r4_2_end_always_legal(self):
        with Game() as g:
            self.assertIn("end", g.legal_actions())
            self.assertTrue(g.is_legal("end"))
            self.assertFalse(g.is_legal("G5-F6"))  # ATK's piece, DEF to act
            self.assertFalse(g.is_legal("Z9-Z9"))

    def test_r11_1_no_action_after_game_end(self):
        # ATK X* on G15 steps to F16, then to E17: touchdown (R11.1).
        bpn = "7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2"
        with Game(bpn) as g:
            g.apply("G15-F16")
            g.apply("F16-E17")
            self.assertIs(g.result, libball.Result.ATK_WON)
            self.assertIs(g.winner, Team.ATK)
            self.assertTrue(g.is_over)
            self.assertEqual(g.legal_actions(), [])
            self.assertIs(g.side, Team.ATK)


class Kinds(unittest.TestCase):
    def test_r5_move(self):
        with Game() as g:
            a = g.parse_action("E11-F10")
            self.assertIs(a.kind, ActionKind.MOVE)
            self.assertEqual((a.from_square, a.to_square, a.option_square), ("E11", "F10", None))
            self.assertEqual(a.cost, 1)
            self.assertIs(a.keeper, Keeper.NONE)
            self.assertEqual(a.flags, ActionFlag.NONE)
            self.assertFalse(a.is_pickup)

    def test_r6_1_dodge(self):
        with Game(DODGE) as g:
            exits = sorted(a.option_square for a in g.legal_actions()
                           if a.kind is ActionKind.DODGE and a.to_square == "I11")
            self.assertEqual(exits, ["H10", "H12", "J10", "J12"])
            a = g.apply("G9-I11/J12")
            self.assertEqual((a.from_square, a.to_square, a.option_square), ("G9", "I11", "J12"))
            self.assertEqual(g.bpn, AFTER_DODGE)

    def test_end(self):
        with Game() as g:
            a = g.parse_action("end")
            self.assertIs(a.kind, ActionKind.END)
            self.assertIsNone(a.from_square)
            self.assertIsNone(a.to_square)
            self.assertEqual(a.cost, 0)

    def test_r9_3_release_keeper(self):
        with Game(KEEP) as g:
            g.apply("end")
            self.assertIs(g.phase, Phase.RELEASE)
            self.assertEqual(sorted(map(str, g.legal_actions())),
                             ["G9-F8/H8=F8", "G9-F8/H8=H8", "G9-H8/F8=F8", "G9-H8/F8=H8"])
            upper = g.parse_action("G9-F8/H8=F8")
            lower = g.parse_action("G9-F8/H8=H8")
            self.assertIs(upper.kind, ActionKind.UNBLOCK)
            self.assertIs(upper.keeper, Keeper.UPPER)
            self.assertIs(lower.keeper, Keeper.LOWER)
            self.assertEqual(upper.option_square, "H8")
            g.apply(lower)
            # R9.3: the lower (DEF) piece keeps the ball; the turn passes.
            self.assertEqual(g.bpn, "7/6/7/6/7/6/7/2OS2/7/2Xo*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3")


class Equality(unittest.TestCase):
    def test_value_semantics(self):
        with Game() as g:
            a = g.parse_action("E11-F10")
            b = Action(a.code)
            self.assertEqual(a, b)
            self.assertEqual(hash(a), hash(b))
            self.assertEqual(a, "E11-F10")
            self.assertNotEqual(a, "E11-D10")
            self.assertNotEqual(a, g.parse_action("E11-D10"))
            self.assertEqual(len({a, b, g.parse_action("end")}), 2)
            self.assertIn("E11-F10", {a: 1})
            self.assertEqual(int(a), a.code)
            self.assertEqual(repr(a), "Action('E11-F10')")
            self.assertEqual(pickle.loads(pickle.dumps(a)), a)

    def test_immutable(self):
        with Game() as g:
            a = g.parse_action("end")
        with self.assertRaises(AttributeError):
            a.kind = ActionKind.MOVE
        with self.assertRaises(AttributeError):
            a._code = 1

    def test_bad_codes(self):
        for bad in (0, -1, 2 ** 32, "end", 1.5, True):
            with self.assertRaises(libball.ArgumentError):
                Action(bad)


class ApplyUndo(unittest.TestCase):
    def test_apply_forms(self):
        with Game() as g:
            a = g.parse_action("E11-F10")
            for form in ("E11-F10", a, a.code):
                self.assertEqual(g.apply(form), a)
                self.assertEqual(g.bpn, AFTER_E11_F10)
                g.undo()
                self.assertEqual(g.bpn, START)

    def test_r4_5_turn_passes(self):
        with Game() as g:
            g.apply("E11-F10")
            g.apply("end")
            self.assertIs(g.side, Team.ATK)
            self.assertEqual((g.turn, g.pa), (2, 2))
            self.assertEqual(g.history_length, 2)
            g.undo()
            g.undo()
            self.assertEqual(g.bpn, START)
            with self.assertRaises(libball.NoHistoryError):
                g.undo()

    def test_illegal_raises_and_keeps_state(self):
        with Game() as g:
            with self.assertRaises(libball.IllegalActionError) as cm:
                g.apply("G5-F6")  # ATK's carrier; DEF is to act
            self.assertTrue(cm.exception.message)
            self.assertEqual(cm.exception.code, -5)
            self.assertEqual(g.bpn, START)
            with self.assertRaises(libball.NotationError):
                g.apply("hello")
            with self.assertRaises(libball.ArgumentError):
                g.apply(None)

    def test_action_of_another_position(self):
        with Game(DODGE) as other, Game() as g:
            a = other.parse_action("G9-I11/J12")
            with self.assertRaises(libball.IllegalActionError):
                g.apply(a)

    def test_perft_matches_tool(self):
        with Game() as g:
            for depth in range(4):
                want = int(subprocess.run([str(BALL_TOOL), "perft", str(depth)], check=True,
                                          capture_output=True, text=True).stdout)
                self.assertEqual(g.perft(depth), want)
            self.assertEqual(g.perft(0), 1)
            self.assertEqual(g.perft(1), len(g.legal_actions()))
            with self.assertRaises(libball.RangeError):
                g.perft(-1)
            self.assertEqual(g.bpn, START)


if __name__ == "__main__":
    unittest.main()


class GivenDecisions(unittest.TestCase):
    """apply() of a decision the library itself gave (random_action(), the
    legal list) skips the re-check while the game is in the state it was
    given for (libball._speed, docs/performance.md); in any other state
    it is checked as every decision is. These run on the extension and,
    under LIBBALL_SPEED=ctypes (bindings_test.sh), on the fallback, which
    always checks: both must refuse the same decisions."""

    def drawn_move(self, g):
        for r in range(0, 2 ** 64, 2 ** 58):
            a = g.random_action(r)
            if a != "end":
                return a
        self.fail("no move drawn")

    def test_drawn_then_the_side_changes(self):
        with Game() as g:
            a = self.drawn_move(g)
            g.apply("end")  # ATK to act: DEF's move is not legal
            before = g.bpn
            with self.assertRaises(libball.IllegalActionError):
                g.apply(a)
            self.assertEqual(g.bpn, before)

    def test_drawn_then_another_position(self):
        with Game() as g, Game() as other:
            other.apply("end")  # ATK to act there
            a = self.drawn_move(g)
            g.bpn = other.bpn
            with self.assertRaises(libball.IllegalActionError):
                g.apply(a)
            self.assertEqual(g.bpn, other.bpn)

    def test_drawn_then_changed_outside_the_binding(self):
        # a change through ctypes, which the extension does not see: the
        # history length, hash and turn it compares tell it
        with Game() as g:
            a = self.drawn_move(g)
            end = g.parse_action("end").code
            self.assertEqual(libball._native.lib.ball_apply(g._handle, end), 0)
            before = g.bpn
            with self.assertRaises(libball.IllegalActionError):
                g.apply(a)
            self.assertEqual(g.bpn, before)

    def test_listed_then_undone_to_another_position(self):
        with Game() as g:
            g.apply("E11-F10")
            later = list(g.legal_actions())
            g.undo()  # back at the start: most of the list is not legal here
            start = set(g.legal_actions())
            refused = 0
            for a in later:
                if a in start:
                    continue
                with self.assertRaises(libball.IllegalActionError):
                    g.apply(a)
                refused += 1
            self.assertGreater(refused, 0)
            self.assertEqual(g.bpn, START)

    def test_walk_applies_and_undoes_the_list(self):
        # every listed decision applied and undone, in order and out of
        # order: the same positions as the checked path (perft 2's leaves)
        with Game() as g:
            count = 0
            first = g.legal_actions()
            for a in list(first)[::-1] + list(first):
                g.apply(a)
                count += len(g.legal_actions())
                g.undo()
            self.assertEqual(count, 2 * g.perft(2))
            self.assertEqual(g.bpn, START)
            self.assertEqual(g.history_length, 0)
