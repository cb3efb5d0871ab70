# SPDX-License-Identifier: MIT
"""Whole games (issue 11): the history read from the library, game records
(written, read back, several per text, malformed ones rejected with their
line), and the drawings (the text diagram and the SVG picture)."""

import copy
import pickle
import random
import subprocess
import unittest
import xml.etree.ElementTree as ET

import libball
from libball import Action, Game, NoHistoryError, RangeError, RecordError, Result
from libball.game import TAGS, read_records

from helpers import AFTER_E11_F10, BALL_TOOL, CARDS, DODGE, KEEP, START

SVG_NS = "{http://www.w3.org/2000/svg}"


def random_game(seed, decisions, **options):
    """A game of up to ``decisions`` random decisions drawn with ``seed``."""
    rng = random.Random(seed)
    game = Game(**options)
    while game.history_length < decisions and not game.is_over:
        game.apply(game.random_action(rng.getrandbits(64)))
    return game


# (seed, decisions, Game options): the random games of the round trips.
GAMES = [
    (1, 40, {}),
    (2, 400, {}),
    (2024, 600, {}),
    (3, 300, {"end_zone_depth": 2}),
    (7, 400, {"end_zone_depth": 2, "turn_limit": 30}),  # ends in a draw
    (11, 200, {"turn_limit": 5}),
    (5, 150, {"rules_text": CARDS}),
    (9, 120, {"bpn": DODGE}),
    (13, 120, {"bpn": KEEP, "end_zone_depth": 3}),
    (17, 0, {}),
]


class History(unittest.TestCase):
    """move_stack, peek, pop and the positions, read from the C history."""

    def test_move_stack_is_the_library_history(self):
        for seed, n, options in GAMES:
            with self.subTest(seed=seed), random_game(seed, n, **options) as g:
                played = g.move_stack
                self.assertEqual(len(played), g.history_length)
                self.assertEqual(played, [g.history_action(i) for i in range(len(played))])
                if played:
                    self.assertEqual(g.history_action(-1), g.peek())
                    self.assertIs(type(played[0]), Action)
                # replaying the stack from the first position gives the game
                with Game(g.history_position(0), rules_text=g.rules_text) as again:
                    for a in played:
                        again.apply(a)
                    self.assertEqual(again, g)
                    self.assertEqual(again.move_stack, played)
                # each decision was played from its history position
                for i in range(len(played), 0, -1):
                    self.assertEqual(g.history_position(i), g.bpn)
                    self.assertEqual(g.pop(), played[i - 1])
                self.assertEqual(g.move_stack, [])
                self.assertIsNone(g.peek())

    def test_positions_and_ranges(self):
        with Game() as g:
            self.assertEqual(g.history_position(0), START)
            g.push("E11-F10")
            self.assertEqual((g.history_position(0), g.history_position(1)),
                             (START, AFTER_E11_F10))
            self.assertEqual(g.history_position(-1), AFTER_E11_F10)
            self.assertEqual(g.history_position(-2), START)
            for bad in (2, -3):
                with self.assertRaises(RangeError):
                    g.history_position(bad)
            for bad in (1, -2):
                with self.assertRaises(RangeError):
                    g.history_action(bad)
            g.undo()
            with self.assertRaises(NoHistoryError):
                g.pop()

    def test_set_bpn_clone_and_pickle_keep_the_history(self):
        with random_game(3, 60) as g:
            g.set_tag("Event", "pickled")
            for other in (g.clone(), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
                with other:
                    self.assertEqual(other.move_stack, g.move_stack)
                    self.assertEqual(other.history_position(0), START)
                    self.assertEqual(other.tags["Event"], "pickled")
                    self.assertEqual(other.record(), g.record())
            g.bpn = g.bpn
            self.assertEqual(g.move_stack, [])


class Records(unittest.TestCase):
    def test_round_trip_over_random_games(self):
        """Every record reads back into the same game (position, ruleset,
        history, tags) whose record is the same text."""
        for seed, n, options in GAMES:
            with self.subTest(seed=seed), random_game(seed, n, **options) as g:
                text = g.record(event="Seed %d" % seed, date="2026-11-30", ATK="random",
                                DEF="random too")
                self.assertTrue(text.endswith("\n"))
                with Game.from_record(text) as back:
                    self.assertEqual(back, g)
                    self.assertEqual(back.result, g.result)
                    self.assertEqual(back.rules_text, g.rules_text)
                    self.assertEqual(back.move_stack, g.move_stack)
                    self.assertEqual(back.history_position(0), g.history_position(0))
                    self.assertEqual(back.tags, {"Event": "Seed %d" % seed, "Site": "",
                                                 "Date": "2026-11-30", "ATK": "random",
                                                 "DEF": "random too"})
                    self.assertEqual(back.record(), text)
                self.assertEqual(g.tags, dict.fromkeys(TAGS, ""))  # record() set none

    def test_record_property_and_call(self):
        """``game.record`` is the text (a str, as JavaScript's
        ``game.record``); ``game.record()`` and ``game.record(event=...)``,
        the 1.0 method, still work (docs/bindings.md)."""
        with random_game(5, 40) as g:
            text = g.record
            self.assertIsInstance(text, str)
            self.assertIsInstance(text, libball.RecordText)
            self.assertEqual(text, g.record())
            self.assertIs(type(g.record()), str)
            self.assertTrue(text.endswith("\n"))
            with Game.from_record(g.record) as back:
                self.assertEqual(back.move_stack, g.move_stack)
            tagged = g.record(event="Club night", ATK="Ann")
            self.assertTrue(tagged.startswith('[Event "Club night"]\n[ATK "Ann"]\n'))
            self.assertEqual(text(event="Club night", ATK="Ann"), tagged)  # the value is callable
            self.assertEqual(g.tags, dict.fromkeys(TAGS, ""))  # the tags were for that record
            self.assertIs(type(pickle.loads(pickle.dumps(text))), str)
            self.assertIs(type(copy.copy(text)), str)
            self.assertEqual(text.splitlines()[-1], tagged.splitlines()[-1])
            if not g.is_over:
                g.push(g.legal_actions()[0])
                self.assertNotEqual(g.record, text)  # a value: it does not follow the game
        self.assertEqual(text(), text)  # still a text once the game is closed
        with self.assertRaises(libball.ClosedGameError):
            text(event="late")
        if BALL_TOOL.exists():
            # the text `ball record` writes for the same decisions
            with random_game(5, 40) as g:
                played = "".join(str(a) + "\n" for a in g.move_stack)
                tool = subprocess.run([str(BALL_TOOL), "record"], input=played, check=True,
                                      capture_output=True, text=True).stdout
                self.assertEqual(g.record, tool)
                self.assertEqual(g.record(), tool)

    def test_turn_limit_draw_survives(self):
        with random_game(7, 10000, end_zone_depth=2, turn_limit=30) as g:
            self.assertIs(g.result, Result.DRAW)
            text = g.record()
            self.assertIn('[Result "1/2-1/2"]', text)
            self.assertTrue(text.endswith("\n1/2-1/2\n"))
            with Game.from_record(text) as back:
                self.assertIs(back.result, Result.DRAW)

    def test_several_records(self):
        games = [random_game(seed, n, **options) for seed, n, options in GAMES]
        text = "\n\n".join(g.record() for g in games) + "\n\n"
        read = list(read_records(text))
        self.assertEqual(len(read), len(games))
        for g, back in zip(games, read):
            self.assertEqual((back, back.move_stack), (g, g.move_stack))
        self.assertEqual([b.bpn for b in read_records(text.encode())], [g.bpn for g in games])
        self.assertEqual(list(read_records("")), [])
        self.assertEqual(list(read_records("\n \n")), [])
        for g in games + read:
            g.close()
        with self.assertRaises(RecordError):
            Game.from_record(text)  # more than one
        with self.assertRaises(RecordError):
            Game.from_record("\n")  # none

    def test_tags(self):
        with Game() as g:
            g.set_tag("event", "Club night")
            g.set_tag("DEF", "Bo")
            self.assertEqual(g.tags["Event"], "Club night")
            text = g.record(site="Lyon", DEF=None)
            self.assertEqual(text, '[Event "Club night"]\n[Site "Lyon"]\n[Rules ""]\n'
                                   '[Result "*"]\n\n*\n')
            self.assertEqual(g.tags["DEF"], "Bo")  # record()'s tags are its own
            g.set_tag("Event", 'say "hi" \\ bye')
            with Game.from_record(g.record()) as back:
                self.assertEqual(back.tags["Event"], 'say "hi" \\ bye')
            g.set_tag("Event", None)
            self.assertEqual(g.tags["Event"], "")
            with self.assertRaises(RangeError):
                g.set_tag("Event", "x" * 128)
            with self.assertRaises(RangeError):
                g.set_tag("Site", "line\nbreak")
            # a lone surrogate has no UTF-8 form: refused as JavaScript's
            # setTag refuses it (BallError range), not a UnicodeEncodeError
            for value in ("ab\udc80", "\ud800", "x\udfff y"):
                with self.subTest(value=ascii(value)):
                    with self.assertRaises(RangeError) as caught:
                        g.set_tag("Event", value)
                    self.assertIn("lone surrogate", caught.exception.message)
            self.assertEqual(g.tags["Event"], "")  # unchanged
            with self.assertRaises(ValueError):
                g.set_tag("Round", "1")
            with self.assertRaises(ValueError):
                g.record(round="1")

    def test_tags_are_utf8_so_a_loaded_game_is_written_back(self):
        # Tags are UTF-8 (docs/records.md): a record whose tag holds bytes
        # that are not (0xFF, overlong C0 80, surrogate ED A0 80, truncated,
        # above U+10FFFF) is refused with its line and column, so every
        # game read has tags that decode, pickle and write back.
        # the value of [Site "..."] starts at column 8
        for raw, column in [(b"\xff", 8), (b"a\xc0\x80", 9), (b"\xed\xa0\x80", 8),
                            (b"ab\xe2\x82", 10), (b"\xf4\x90\x80\x80", 8)]:
            text = b'[Event "x"]\n[Site "' + raw + b'"]\n[Result "*"]\n\n*\n'
            with self.subTest(raw=raw):
                with self.assertRaises(RecordError) as caught:
                    Game.from_record(text)
                self.assertEqual(caught.exception.line, 2)
                self.assertEqual(caught.exception.column, column)
                self.assertIn("not UTF-8", caught.exception.message)
        good = '[Event "Zo\u00eb \u65e5\u672c \U0001f600"]\n[Rules ""]\n[Result "*"]\n\n*\n'
        with Game.from_record(good.encode()) as g:
            self.assertEqual(g.tags["Event"], "Zo\u00eb \u65e5\u672c \U0001f600")
            self.assertEqual(g.record(), good)
            with pickle.loads(pickle.dumps(g)) as back:
                self.assertEqual(back.tags["Event"], g.tags["Event"])

    def test_docs_example(self):
        text = ('[Event "Club night"]\n[Site "Lyon"]\n[Date "2026-11-30"]\n[ATK "Ann"]\n'
                '[DEF "Bo"]\n[Rules "zone=2"]\n[Result "*"]\n\n'
                "1. DEF: E11-F10 F10-E9 end\n"
                "2. ATK: G7-E9/F10 G5-H6 {the carrier steps aside} H6=I7 end\n"
                "3. DEF: end E9-F8\n*\n")
        with Game.from_record(text) as g:
            self.assertEqual(g.history_length, 9)
            self.assertEqual(str(g.move_stack[3]), "G7-E9/F10")
            self.assertEqual(g.rules.end_zone_depth, 2)
            self.assertEqual(g.record(), text.replace(" {the carrier steps aside}", ""))

    def test_malformed_records_raise_with_the_line(self):
        good = ('[Rules ""]\n[Result "*"]\n\n1. DEF: E11-F10 end\n'
                "2. ATK: G5-H6 end\n*\n")
        with Game.from_record(good) as g:
            self.assertEqual(g.history_length, 4)
        cases = [  # (text, line of the error, library code)
            (good.replace("[Rules", "[Rulez"), 1, libball._native.E_RECORD),
            (good.replace('[Result "*"]\n', '[Result "*"]\n[Rules ""]\n'), 3,
             libball._native.E_RECORD),  # tags out of order
            (good.replace("G5-H6", "G5-G7"), 5, libball._native.E_ILLEGAL),
            (good.replace("G5-H6", "G5-"), 5, libball._native.E_NOTATION),
            (good.replace("2. ATK", "3. ATK"), 5, libball._native.E_RECORD),
            (good.replace('[Rules ""]', '[Rules "zone=9"]'), 1, libball._native.E_RULES),
            (good[:-2], 6, libball._native.E_RECORD),  # truncated: no result line
            (good.replace("\n*\n", "\n1-0\n"), 6, libball._native.E_RECORD),  # wrong result
        ]
        for text, line, code in cases:
            with self.subTest(text=text):
                with self.assertRaises(RecordError) as caught:
                    Game.from_record(text)
                err = caught.exception
                self.assertIsInstance(err, ValueError)
                self.assertEqual(err.code, code, err.message)
                self.assertIn("line %d" % line, err.message)
                self.assertEqual(err.line, line, err.message)
                self.assertIsNotNone(err.column)
        # a bad record after good ones: the good ones come first, then the error
        games = read_records(good + "\n" + good.replace("G5-H6", "G5-G7"))
        first = next(games)
        first.close()
        with self.assertRaises(RecordError) as caught:
            next(games)
        self.assertEqual(caught.exception.line, 12)
        with self.assertRaises(RecordError):
            Game.from_record("1. DEF: end\0\n")
        with self.assertRaises(libball.ArgumentError):
            Game.from_record(42)  # type: ignore[arg-type]


class RecordSources(unittest.TestCase):
    """read_records() takes a text, a file object (text or binary) or a
    path, and reads a file one record at a time (issue 49, P1), as
    python-chess's PGN reader does."""

    def setUp(self):
        self.games = [random_game(seed, n, **options) for seed, n, options in GAMES]
        self.text = "\n".join(g.record for g in self.games)
        self.bad = ('[Rules ""]\n[Result "*"]\n\n1. DEF: E11-F10 end\n'
                    "2. ATK: G5-G7 end\n*\n")  # G5-G7 illegal, line 5 of its record

    def tearDown(self):
        for g in self.games:
            g.close()

    def check_games(self, read):
        self.assertEqual(len(read), len(self.games))
        for g, back in zip(self.games, read):
            self.assertEqual((back, back.move_stack, back.tags), (g, g.move_stack, g.tags))
            back.close()

    def test_file_objects_and_paths(self):
        import io
        import pathlib
        import tempfile
        self.check_games(list(read_records(io.StringIO(self.text))))
        self.check_games(list(read_records(io.BytesIO(self.text.encode()))))
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "games.rec"
            path.write_text(self.text + "\n\n", encoding="utf-8")
            self.check_games(list(read_records(path)))
            with open(path, encoding="utf-8") as f:
                self.check_games(list(read_records(f)))
            with open(path, "rb") as f:
                self.check_games(list(read_records(f)))
            with self.assertRaises(libball.ArgumentError) as caught:
                next(read_records(pathlib.Path(d) / "missing.rec"))
            self.assertIn("missing.rec", caught.exception.message)
        self.assertEqual(list(read_records(io.StringIO(""))), [])
        self.assertEqual(list(read_records(io.StringIO("\n \n"))), [])
        with self.assertRaises(libball.ArgumentError):
            next(read_records(3.5))  # type: ignore[arg-type]

    def test_a_file_is_read_one_record_at_a_time(self):
        import io

        class Counted(io.BytesIO):
            lines = 0

            def readline(self, *args):
                line = super().readline(*args)
                if line:
                    Counted.lines += 1
                return line

        f = Counted(self.text.encode())
        games = read_records(f)
        first = next(games)
        # the first record's lines and no more
        self.assertEqual(Counted.lines, self.games[0].record.count("\n"))
        self.assertEqual(first, self.games[0])
        first.close()
        for g in games:
            g.close()
        self.assertEqual(Counted.lines, self.text.count("\n"))

    def test_errors_count_lines_from_the_start_of_the_file(self):
        import io
        text = self.text + "\n" + self.bad + "\n" + self.text
        expected = None
        try:
            for g in read_records(text):
                g.close()
        except RecordError as e:
            expected = (e.line, e.column, e.code, e.message)
        self.assertIsNotNone(expected)
        self.assertEqual(expected[0], self.text.count("\n") + 1 + 5)
        for source in (io.StringIO(text), io.BytesIO(text.encode())):
            with self.subTest(source=type(source).__name__):
                games = read_records(source)
                for _ in self.games:
                    next(games).close()
                with self.assertRaises(RecordError) as caught:
                    next(games)
                e = caught.exception
                self.assertEqual((e.line, e.column, e.code, e.message), expected)
        # truncated at the end: the same error as for the whole text
        cut = self.text + "\n" + self.bad.replace("G5-G7", "G5-H6")[:-2]
        errors = []
        for source in (cut, io.StringIO(cut)):
            with self.assertRaises(RecordError) as caught:
                for g in read_records(source):
                    g.close()
            errors.append((caught.exception.line, caught.exception.message))
        self.assertEqual(errors[1], errors[0])
        self.assertEqual(errors[0][0], cut.count("\n") + 1)
        self.assertIn("before its result line", errors[0][1])
        # a lone surrogate in a text file: refused where it is, as bytes
        # that are not UTF-8 are
        broken = '[Event "ab\udc80"]\n[Result "*"]\n\n*\n'
        with self.assertRaises(RecordError) as caught:
            next(read_records(io.StringIO(broken)))
        self.assertEqual((caught.exception.line, caught.exception.column), (1, 11))


class Drawings(unittest.TestCase):
    def test_svg_is_xml_with_the_pieces_of_the_start(self):
        with Game() as g:
            svg = g.svg()
            self.assertEqual(g._repr_svg_(), svg)
            root = ET.fromstring(svg)
            self.assertEqual(root.tag, SVG_NS + "svg")
            drawn = {}
            for el in root.iter(SVG_NS + "g"):
                classes = el.get("class", "").split()
                if "piece" in classes:
                    drawn[el.get("data-square")] = set(classes)
            want = {}
            for square, piece in g.pieces():
                want[square] = {"piece", piece.team.name.lower(), piece.type.name.lower()}
                if piece.has_ball:
                    want[square].add("ball")
            self.assertEqual(len(want), 14)
            self.assertEqual(drawn, want)
            self.assertEqual(drawn["G5"], {"piece", "atk", "x", "ball"})

    def test_svg_highlight_action_and_coords(self):
        with Game() as g:
            root = ET.fromstring(g.svg(highlight=["E11", "F10"], action="E11-F10"))
            marked = [el.get("data-square") for el in root.iter()
                      if "highlight" in el.get("class", "").split()]
            self.assertEqual(sorted(marked), ["E11", "F10"])
            arrows = [el for el in root.iter() if "arrow" in el.get("class", "").split()]
            self.assertEqual(len(arrows), 1)
            self.assertEqual(len(ET.fromstring(g.svg(highlight="G5")).findall(
                ".//*[@class='highlight']")), 1)
            self.assertNotIn("arrow", g.svg(action="end").replace('id="head"', ""))
            self.assertLess(len(g.svg(coords=False)), len(g.svg()))
            with self.assertRaises(libball.IllegalActionError):
                g.svg(action="E11-E9")
            with self.assertRaises(libball.NotationError):
                g.svg(highlight=["Z99"])

    def test_text_diagram(self):
        with Game(KEEP) as g:
            text = g.diagram()
            self.assertTrue(text.endswith("\n"))
            self.assertEqual(str(g), text[:-1])
            self.assertIn("[X*o]".strip("[]")[:2], text)  # a stack: upper then lower
            self.assertIn(">", g.diagram(highlight=["G9"]))
            self.assertNotIn(">", text)
            self.assertEqual(len(g.diagram(legend=True).splitlines()),
                             len(text.splitlines()) + 2)


if __name__ == "__main__":
    unittest.main()
