# SPDX-License-Identifier: MIT
"""Card mode (R10) through the binding, mirroring the C card-mode tests
(tests/test_r10_*.c): a ruleset from its text or from keyword arguments,
PE and hands, conversions and card plays applied and undone, and seeded
random card-mode games that match `ball --rules ... trace` line for line."""

import random
import subprocess
import unittest

from libball import (ArgumentError, Card, CardEffect, EarnEntry, Game, IllegalActionError,
                     RangeError, RulesError)

from helpers import BALL_TOOL, CARDS, START

# The ruleset of tests/rules/test_r10_games.c (RANDOM_RULES): every earning entry
# a distinct prime, nine ATK and eight DEF cards of both effects.
RANDOM_RULES = (
    "earn.move=1 earn.pickup=2 earn.dodge=3 earn.fumble=5 earn.tactical=7 earn.block=11 "
    "earn.protect=13 earn.handoff=17 earn.short=19 earn.long=23 earn.standup=29 "
    "earn.unblock=31 earn.unprotect=37 "
    "atk=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again,I:0:pa+3 "
    "def=A:0:pa+1,B:0:again,C:1:pa+2,D:2:again,E:3:pa+1,F:0:again,G:40:pa+9,H:9:again")

# The same ruleset as keyword arguments.
EARN = {"move": 1, "pickup": 2, "dodge": 3, "fumble": 5, "tactical": 7, "block": 11,
        "protect": 13, "handoff": 17, "short": 19, "long": 23, "standup": 29,
        "unblock": 31, "unprotect": 37}
DECK = [("A", 0, "pa+1"), ("B", 0, "again"), ("C", 1, "gain_pa", 2),
        ("D", 2, CardEffect.UNRESTRICT, 0), ("E", 3, "pa+1"), ("F", 0, "again"),
        ("G", 40, "pa+9"), ("H", 9, "again")]
HANDS = {"ATK": DECK + [("I", 0, "pa+3")], "DEF": DECK}


class CardRulesets(unittest.TestCase):
    def test_rules_text_and_keywords_are_the_same_ruleset(self):
        with Game(rules_text=RANDOM_RULES) as a, Game(earn=EARN, cards=HANDS) as b:
            self.assertEqual(a.rules_text, b.rules_text)
            self.assertEqual(a, b)
            self.assertEqual(a.bpn, b.bpn)
            self.assertTrue(b.card_mode)
            self.assertEqual(b.earnings["tactical"], 7)
            self.assertEqual(b.earnings["unprotect"], 37)
            self.assertEqual(len(b.cards("ATK")), 9)
            self.assertEqual(b.cards("DEF")[2], Card("C", 1, CardEffect.GAIN_PA, 2))

    def test_keyword_forms(self):
        # EarnEntry members, enum names, Card objects; cards alone, earn alone
        with Game(earn={EarnEntry.DODGE: 3, "forced_fumble": 2}) as g:
            self.assertTrue(g.card_mode)
            self.assertEqual(g.rules_text, "earn.dodge=3 earn.fumble=2")
            self.assertEqual(g.cards("ATK"), [])
        with Game(cards={"DEF": [Card("Go", 1, CardEffect.GAIN_PA, 2)]}) as g:
            self.assertEqual(g.rules_text, "def=Go:1:pa+2")
            self.assertEqual(g.hand("DEF"), 1)
        with Game(earn={}) as g:  # card mode with nothing in it
            self.assertTrue(g.card_mode)
            self.assertEqual(g.earnings["move"], 0)
        with Game(cards={"ATK": [("S", 2, "pa+1")]}, end_zone_depth=2, turn_limit=9) as g:
            self.assertEqual(g.rules.end_zone_depth, 2)
            self.assertIn("atk=S:2:pa+1", g.rules_text)
        with Game() as g:
            self.assertFalse(g.card_mode)
            self.assertEqual(g.earnings, {})

    def test_bad_keywords(self):
        with self.assertRaises(ArgumentError):
            Game(earn={"nosuch": 1})
        with self.assertRaises(RangeError):
            Game(earn={"move": 1000})  # 0 to BALL_MAX_CARD_PE
        with self.assertRaises(RangeError):
            Game(cards={"ATK": [("bad name", 1, "pa+1")]})
        with self.assertRaises(RangeError):
            Game(cards={"ATK": [("X%d" % i, 0, "pa+1") for i in range(10)]})  # 9 at most
        with self.assertRaises(ArgumentError):
            Game(cards={"ATK": [("X", 0, "fly")]})
        with self.assertRaises(ArgumentError):
            Game(cards={"XYZ": []})
        with self.assertRaises(ArgumentError):  # the card ruleset twice
            Game(rules_text="atk=S:1:pa+1", earn={"move": 1})
        with self.assertRaises(RulesError):
            Game(rules_text="atk=S:1:fly")

    def test_conversions_and_card_plays(self):
        # CARDS: a move earns 1 PE; DEF holds a free Sprint (+1 PA).
        with Game(rules_text=CARDS) as g:
            self.assertEqual(g.hand_cards("ATK")[1].name, "Rally")
            self.assertEqual([str(a) for a in g.conversions()], ["pe+1", "pe+2"])
            g.apply("E11-F10")  # R10.3: DEF earns 1 PE, 1 PA left
            self.assertEqual((g.pe("DEF"), g.pe("ATK"), g.pa), (1, 0, 1))
            self.assertEqual([str(a) for a in g.conversions()], ["pe+1"])
            self.assertEqual([str(a) for a in g.card_plays()], ["card1"])
            play = g.play_card("Sprint")  # R10.4/R10.5: +1 PA, the card leaves the hand
            self.assertTrue(play.is_card_play)
            self.assertEqual((play.value, play.from_square), (0, None))
            self.assertEqual((g.pa, g.hand("DEF"), g.hand_cards("DEF")), (2, 0, []))
            self.assertEqual(g.card_plays(), [])
            with self.assertRaises(IllegalActionError):
                g.play_card("Sprint")
            conv = g.convert(2)  # R10.2: 2 PA become 2 PE
            self.assertTrue(conv.is_conversion)
            self.assertEqual((conv.value, conv.cost), (2, 2))
            self.assertEqual((g.pa, g.pe("DEF")), (0, 3))
            self.assertEqual(g.pop(), conv)
            self.assertEqual(g.pop(), play)
            self.assertEqual((g.pa, g.pe("DEF"), g.hand("DEF")), (1, 1, 1))
            g.undo()
            self.assertEqual(g.bpn.split(" ")[:7], START.split(" "))
            with self.assertRaises(IllegalActionError):
                g.convert(3)  # only 2 PA


def trace_line(game):
    return game.bpn + "\t" + " ".join(sorted(game.legal_actions().texts()))


def normalized(tool_line):
    bpn, _, actions = tool_line.partition("\t")
    return bpn + "\t" + " ".join(sorted(actions.split()))


class RandomCardGames(unittest.TestCase):
    """As test_R10_4_random_card_games: random card-mode games, with PE,
    hands and undo checked at every decision, then replayed by the tool."""

    def play(self, seed, decisions, **rules):
        rng = random.Random(seed)
        played, lines = [], []
        kinds = set()
        with Game(**rules) as game:
            lines.append(trace_line(game))
            while len(played) < decisions and not game.is_over:
                before = (game.bpn, game.pe("ATK"), game.pe("DEF"), game.hand("ATK"),
                          game.hand("DEF"))
                action = rng.choice(game.legal_actions())
                game.push(action)
                kinds.add(action.kind)
                # undo and redo: bit for bit
                game.pop()
                self.assertEqual((game.bpn, game.pe("ATK"), game.pe("DEF"), game.hand("ATK"),
                                  game.hand("DEF")), before)
                game.push(action)
                played.append(str(action))
                lines.append(trace_line(game))
            self.assertEqual([str(a) for a in game.move_stack], played)
        out = subprocess.run([str(BALL_TOOL), "--rules", RANDOM_RULES, "trace"],
                             input="\n".join(played) + "\n", capture_output=True, text=True,
                             check=True).stdout.splitlines()
        self.assertEqual(len(out), len(lines))
        for i, (got, want) in enumerate(zip(lines, map(normalized, out))):
            self.assertEqual(got, want, "line %d, after %s" % (i, played[i - 1] if i else "-"))
        return kinds

    def test_seeded_card_games_match_ball_trace(self):
        kinds = set()
        for seed in (1, 2, 3):
            kinds |= self.play(seed, 300, rules_text=RANDOM_RULES)
        kinds |= self.play(4, 300, earn=EARN, cards=HANDS)
        self.assertIn(13, kinds)  # conversions were played
        self.assertIn(14, kinds)  # and cards


if __name__ == "__main__":
    unittest.main()
