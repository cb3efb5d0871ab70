# SPDX-License-Identifier: MIT
"""Step-by-step selection (R12) and the release phase (R9)."""

import unittest

import libball
from libball import Game, TaskKind, Verb

from helpers import KEEP, NO_SOLUTION, START


class Selection(unittest.TestCase):
    def test_r12_steps(self):
        with Game() as g:
            sel = g.selection()
            self.assertEqual(sel.choices, ["C11", "E11", "G11", "I11", "K11", "G13", "G15"])
            sel = sel.choose("E11")
            self.assertEqual(sel.choices, [Verb.MOVE])
            sel = sel.choose("-")
            self.assertIn("F10", sel.choices)
            self.assertIsNone(sel.action)
            sel = sel.choose("F10")
            self.assertTrue(sel.complete)
            self.assertEqual(sel.action, "E11-F10")
            self.assertEqual(sel.choices, [])
            self.assertEqual(g.bpn, START)  # nothing changed yet
            g.apply(sel.action)
            self.assertEqual(g.pa, 1)

    def test_r12_cancel_leaves_game_untouched(self):
        with Game() as g:
            sel = g.selection().choose("G11").choose(Verb.MOVE)
            empty = sel.cancel()
            self.assertEqual(empty.chosen, ())
            self.assertEqual(len(empty.choices), 7)
            self.assertEqual(sel.back().chosen, ("G11",))
            self.assertEqual(g.bpn, START)
            self.assertEqual(g.history_length, 0)

    def test_bad_choice(self):
        with Game() as g:
            with self.assertRaises(libball.IllegalActionError):
                g.selection().choose("G5")  # ATK's piece, DEF to act
            with self.assertRaises(libball.NotationError):
                g.select(["E11", "F10"])  # a square where a verb belongs

    def test_r9_3_release_by_steps(self):
        with Game(KEEP) as g:
            g.apply("end")
            sel = g.selection()
            self.assertEqual(sel.choices, ["G9"])
            sel = sel.choose("G9").choose("-")
            self.assertEqual(sel.choices, ["F8", "H8"])
            sel = sel.choose("F8")
            self.assertEqual(sel.choices, ["H8"])
            sel = sel.choose("H8")
            self.assertEqual(sel.choices, ["F8", "H8"])  # the keeper
            self.assertEqual(sel.choose("H8").action, "G9-F8/H8=H8")

    def test_verb_parse(self):
        self.assertIs(Verb.parse("^^"), Verb.LONG_PASS)
        self.assertIs(Verb.parse("handoff"), Verb.HANDOFF)
        self.assertIs(Verb.parse(3), Verb.SHORT_PASS)
        self.assertEqual(str(Verb.MOVE), "-")


class Release(unittest.TestCase):
    def test_r9_1_tasks(self):
        with Game(NO_SOLUTION) as g:
            self.assertEqual(g.release_tasks(), [])  # action phase
            g.apply("end")
            tasks = g.release_tasks()
            self.assertEqual([(t.square, t.kind, t.solvable) for t in tasks],
                             [("A1", TaskKind.STAND_UP, False), ("G5", TaskKind.STAND_UP, True)])
            self.assertEqual(g.task_solutions("A1"), [])
            self.assertEqual(sorted(map(str, g.task_solutions("G5"))),
                             ["G5-F4", "G5-F6", "G5-H4", "G5-H6"])
            with self.assertRaises(libball.IllegalActionError):
                g.task_solutions("G9")

    def test_r9_3_release_task(self):
        with Game(KEEP) as g:
            g.apply("end")
            (task,) = g.release_tasks()
            self.assertEqual(task, ("G9", TaskKind.RELEASE, True))
            self.assertEqual(len(g.task_solutions("G9")), 4)


if __name__ == "__main__":
    unittest.main()
