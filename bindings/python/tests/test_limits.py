# SPDX-License-Identifier: MIT
"""Arguments are never truncated on their way to C: integers out of the C
type's range or not integral raise, texts with a NUL character raise; the
1.0 error codes BALL_E_RULES and BALL_E_LIMIT have their exceptions; the
1.0 contracts (BALL_NO_SQUARE -> None) and card mode through rules text."""

import unittest

import libball
from libball import ActionKind, Card, CardEffect, Game, Team

from helpers import AFTER_E11_F10, CARDS, LAST_TURN, START

BIG = (2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 63, -2 ** 31 - 1, -2 ** 64)


class IntegersAreChecked(unittest.TestCase):
    """Each of these would reach C as a small valid number if truncated."""

    def test_perft_depth(self):
        with Game() as g:
            with self.assertRaises(ValueError):
                g.perft(2 ** 32 + 3)  # would be perft(3)
            with self.assertRaises(libball.RangeError):
                g.perft(2 ** 32 + 3)
            for bad in BIG:
                with self.assertRaises(libball.RangeError):
                    g.perft(bad)
            for bad in (2.0, 2.5, "2", None, True):
                with self.assertRaises(libball.ArgumentError):
                    g.perft(bad)
            with self.assertRaises(libball.RangeError):  # the library's own check
                g.perft(libball._native.MAX_PERFT_DEPTH + 1)
            self.assertEqual(g.perft(1), 55)
            self.assertEqual(g.bpn, START)

    def test_piece_level(self):
        with Game() as g:
            with self.assertRaises(ValueError):
                g.piece_at("G5", 2 ** 32 + 1)  # would be the lower level
            for bad in BIG:
                with self.assertRaises(libball.RangeError):
                    g.piece_at("G5", bad)
            for bad in (1.0, True, None):
                with self.assertRaises(libball.ArgumentError):
                    g.piece_at("G5", bad)
            with self.assertRaises(libball.BallError):
                g.piece_at("G5", 2)
            self.assertIsNone(g.piece_at("G5", 1))
            self.assertEqual(str(g.piece_at("G5", 0)), "X*")

    def test_rules(self):
        with self.assertRaises(ValueError):
            Game(end_zone_depth=2 ** 32 + 2)  # would be 2
        for bad in BIG:
            with self.assertRaises(libball.RangeError):
                Game(end_zone_depth=bad)
        for bad in (-1, 2 ** 32, 2 ** 32 + 30, -2 ** 32 + 30):
            with self.assertRaises(libball.RangeError):
                Game(turn_limit=bad)
        for bad in (2.0, "2", True):
            with self.assertRaises(libball.ArgumentError):
                Game(end_zone_depth=bad)
            with self.assertRaises(libball.ArgumentError):
                Game(turn_limit=bad)
        with self.assertRaises(libball.RangeError):  # the library's own check
            Game(turn_limit=libball._native.MAX_TURN + 1)
        with Game(turn_limit=libball._native.MAX_TURN - 1) as g:
            self.assertEqual(g.rules.turn_limit, libball._native.MAX_TURN - 1)

    def test_other_int_arguments(self):
        with Game() as g:
            for bad in BIG:
                with self.assertRaises(libball.RangeError):
                    g.legal_action(bad)
                with self.assertRaises(libball.RangeError):
                    libball.square_at(bad, 9)
                with self.assertRaises(libball.RangeError):
                    libball.square_at(7, bad)
                with self.assertRaises(ValueError):
                    g.pe(bad)
            self.assertEqual(libball.square_at(7, 9), "G9")
            with self.assertRaises(libball.RangeError):
                libball.square_at(2 ** 32 + 7, 9)  # would be G9
            for bad in (1.0, True):
                with self.assertRaises(libball.ArgumentError):
                    g.legal_action(bad)
                with self.assertRaises(libball.ArgumentError):
                    libball.square_at(bad, 1)
            for bad in (2 ** 32 + 1, 0, -1, True, 1.0):
                with self.assertRaises(libball.ArgumentError):
                    g.apply(bad)
            with self.assertRaises(libball.ArgumentError):
                g.random_action(2 ** 64)
            with self.assertRaises(libball.ArgumentError):
                g.select(["E11", "-", "F10", "F10", "F10", "F10"])  # > BALL_SELECT_STEPS


class NulCharacters(unittest.TestCase):
    """A NUL would end the C string early: the text is refused instead."""

    def test_bpn(self):
        with Game() as g:
            g.apply("E11-F10")
            for bad in (START + "\0x", START + "\0", "\0" + START):
                with self.assertRaises(libball.BpnError) as cm:
                    g.set_bpn(bad)
                self.assertIn("NUL", cm.exception.message)
                with self.assertRaises(ValueError):
                    g.bpn = bad
                with self.assertRaises(libball.BpnError):
                    Game(bad)
            # unchanged, history kept
            self.assertEqual(g.bpn, AFTER_E11_F10)
            self.assertEqual(g.history_length, 1)

    def test_action_text(self):
        with Game() as g:
            for bad in ("E11-F10\0x", "E11-F10\0", "end\0G5-F6"):
                with self.assertRaises(libball.NotationError):
                    g.parse_action(bad)
                with self.assertRaises(libball.NotationError):
                    g.apply(bad)
                self.assertFalse(g.is_legal(bad))
                with self.assertRaises(libball.NotationError):
                    libball.square_index(bad[:3] + "\0")
            self.assertEqual(g.bpn, START)

    def test_rules_text(self):
        with self.assertRaises(libball.RulesError):
            Game(rules_text="zone=2\0 turns=5")


class NewErrorCodes(unittest.TestCase):
    def test_rules_error(self):
        with self.assertRaises(libball.RulesError) as cm:
            Game(rules_text="zone=9")
        self.assertEqual(cm.exception.code, libball._native.E_RULES)
        self.assertIn("zone=9", cm.exception.message)
        self.assertIsInstance(cm.exception, ValueError)
        with self.assertRaises(libball.ArgumentError):
            Game(rules_text=3)

    def test_limit_error(self):
        with Game(LAST_TURN) as g:
            self.assertEqual(g.turn, libball._native.MAX_TURN)
            with self.assertRaises(libball.LimitError) as cm:
                g.apply("end")  # the hand-over would pass BALL_MAX_TURN
            self.assertEqual(cm.exception.code, libball._native.E_LIMIT)
            self.assertTrue(cm.exception.message)
            self.assertEqual(g.bpn, LAST_TURN)
            self.assertEqual(g.history_length, 0)
            # every listed decision is played (docs/rules-choices.md, "Turn
            # bound"): `end` is not listed, since it would hand over
            self.assertNotIn("end", [str(a) for a in g.legal_actions()])
            for a in g.legal_actions():
                g.apply(a)
                g.undo()

    def test_stopped_at_the_turn_bound(self):
        """DEF at 0 PA after a hand-off at turn 999999999: only `end` is
        legal by the rules, and it would hand the turn over past the bound
        (N1), so nothing is listed; the game goes on (no result)."""
        stopped = "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 DEF a 0 h 0/0 999999999"
        with Game(stopped) as g:
            self.assertEqual(g.legal_actions(), [])
            self.assertFalse(g.is_over)
            with self.assertRaises(libball.RangeError) as cm:
                g.random_action(0)
            self.assertIn("999999999", cm.exception.message)
            with self.assertRaises(libball.LimitError):
                g.apply("end")


class Contracts(unittest.TestCase):
    def test_no_square_is_none(self):
        with Game() as g:
            end = g.parse_action("end")
            self.assertEqual((end.from_square, end.to_square, end.option_square),
                             (None, None, None))
            self.assertIsNone(end.value)
            self.assertIsNone(g.restricted_square)
            self.assertIsNone(g.parse_action("E11-F10").value)

    def test_int_getters(self):
        with Game() as g:
            self.assertIsInstance(g.turn, int)
            self.assertIsInstance(g.history_length, int)
            self.assertEqual(g.pe(Team.ATK), 0)
            self.assertEqual(g.hand("DEF"), 0)
            self.assertEqual(g.cards(0), [])
            self.assertEqual(g.rules_text, "")


class CardMode(unittest.TestCase):
    """R10 through ball_rules_from_text(): PE, hands, card actions."""

    def test_card_game(self):
        with Game(rules_text=CARDS) as g:
            self.assertEqual(g.rules_text, CARDS)
            self.assertEqual(g.cards("ATK"), [Card("Sprint", 2, CardEffect.GAIN_PA, 1),
                                              Card("Rally", 3, CardEffect.UNRESTRICT, 0)])
            self.assertEqual(g.cards(Team.DEF), [Card("Sprint", 0, CardEffect.GAIN_PA, 1)])
            self.assertEqual(g.hand("ATK"), 0b11)
            g.apply("E11-F10")  # a move earns DEF 1 PE (earn.move=1)
            self.assertEqual((g.pe("DEF"), g.pe("ATK"), g.pa), (1, 0, 1))
            actions = {str(a): a for a in g.legal_actions()}
            pe1 = actions["pe+1"]
            self.assertIs(pe1.kind, ActionKind.CONVERT_PA)
            self.assertEqual((pe1.value, pe1.cost, pe1.from_square), (1, 1, None))
            card = actions["card1"]
            self.assertIs(card.kind, ActionKind.PLAY_CARD)
            self.assertEqual((card.value, card.from_square, card.to_square), (0, None, None))
            g.apply(card)  # Sprint: +1 PA, the card leaves the hand
            self.assertEqual((g.pa, g.hand("DEF")), (2, 0))
            g.undo()
            self.assertEqual(g.hand("DEF"), 1)
            with g.clone() as c:
                self.assertEqual(c.rules_text, CARDS)
                self.assertEqual(c.cards("DEF"), g.cards("DEF"))
        with Game(rules_text=CARDS, end_zone_depth=2, turn_limit=9) as g:
            self.assertEqual(g.rules, libball.Rules(2, 9))
            self.assertIn("zone=2", g.rules_text)
            self.assertIn("turns=9", g.rules_text)
        with self.assertRaises(ValueError):
            Game().pe("XYZ")


if __name__ == "__main__":
    unittest.main()
