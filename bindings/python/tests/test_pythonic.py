# SPDX-License-Identifier: MIT
"""Python habits (python-chess style): the legal-actions view, lazy action
text, push/pop/move_stack, str/repr, ==, copy and pickle, and the typing
of the public API (a smoke test that runs without mypy)."""

import collections.abc
import copy
import pickle
import typing
import unittest

import libball
from libball import Action, Game, LegalActions, NoHistoryError

from helpers import AFTER_E11_F10, CARDS, START


class LegalActionsView(unittest.TestCase):
    def test_view(self):
        with Game() as g:
            view = g.legal_actions()
            self.assertIsInstance(view, LegalActions)
            self.assertIsInstance(view, collections.abc.Sequence)
            self.assertEqual(len(view), g.count_legal_actions())
            a = view[0]
            self.assertIs(type(a), Action)
            self.assertEqual(view[-1], "end")  # R4.2: `end` comes last
            self.assertIn(a, view)
            self.assertIn("E11-F10", view)
            self.assertIn(a.code, view)
            self.assertNotIn("E11-E10", view)
            self.assertNotIn(None, view)
            self.assertEqual(list(view), [view[i] for i in range(len(view))])
            self.assertEqual(view[1:3], [view[1], view[2]])
            self.assertEqual(view, list(view))
            self.assertEqual(view.texts(), [str(x) for x in view])
            self.assertEqual(view.codes, tuple(x.code for x in view))
            self.assertEqual(view.index(a), 0)
            g.apply(a)  # a snapshot: the view does not follow the game
            self.assertEqual(len(view), len(view.codes))
            self.assertNotEqual(view, g.legal_actions())

    def test_actions_are_interned_and_lazy(self):
        with Game() as g:
            first, second = g.legal_actions(), g.legal_actions()
            self.assertIs(first[0], second[0])  # one Action per code
            self.assertEqual(Action(first[0].code), first[0])
            self.assertEqual(hash(first[0]), hash(str(first[0])))
            self.assertEqual(first[0].__slots__, ("_code",))  # no text stored
            with self.assertRaises(AttributeError):
                first[0].code = 3


class StackAndProtocols(unittest.TestCase):
    def test_push_pop_move_stack(self):
        with Game() as g:
            self.assertIsNone(g.peek())
            pushed = g.push("E11-F10")
            self.assertEqual(g.move_stack, [pushed])
            self.assertEqual(g.peek(), pushed)
            self.assertEqual(g.bpn, AFTER_E11_F10)
            self.assertEqual(g.pop(), pushed)
            self.assertEqual((g.bpn, g.move_stack), (START, []))
            with self.assertRaises(NoHistoryError):
                g.pop()
            g.push("E11-F10")
            g.bpn = START  # a new position starts a new history
            self.assertEqual(g.move_stack, [])

    def test_str_repr_eq(self):
        with Game() as g, Game(rules_text=CARDS) as c:
            self.assertEqual(str(g) + "\n", g.diagram())
            self.assertIn(" 9 ", str(g))
            self.assertEqual(repr(g), "libball.Game(%r)" % START)
            rebuilt = eval(repr(c), {"libball": libball})
            self.assertEqual(rebuilt, c)
            self.assertEqual(rebuilt.rules_text, CARDS)
            self.assertNotEqual(g, c)  # same start, other rules
            self.assertEqual(g, Game())
            self.assertNotEqual(g, START)
            with self.assertRaises(TypeError):
                hash(g)

    def test_copy_and_pickle(self):
        with Game(rules_text=CARDS) as g:
            g.push("E11-F10")
            g.push("card1")  # the played card leaves DEF's hand (in the BPN)
            for other in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
                with other:
                    self.assertEqual(other, g)
                    self.assertEqual(other.hand("DEF"), 0)
                    self.assertEqual(other.move_stack, g.move_stack)
                    self.assertEqual(other.history_length, 2)
                    other.pop()
                    other.pop()
                    self.assertEqual(other.bpn.split(" ")[:7], START.split(" "))
                    self.assertEqual(g.history_length, 2)
            a = g.legal_actions()[0]
            self.assertEqual(pickle.loads(pickle.dumps(a)), a)


class Typing(unittest.TestCase):
    """Every public function and method of the package has complete
    annotations (what `mypy --strict` needs of the API's surface)."""

    def test_public_api_is_annotated(self):
        missing = []
        for name in libball.__all__:
            obj = getattr(libball, name)
            members = [(name, obj)] if callable(obj) and not isinstance(obj, type) else []
            if isinstance(obj, type) and obj.__module__.startswith("libball"):
                for attr, value in vars(obj).items():
                    if attr.startswith("_") and attr not in ("__init__", "__getitem__",
                                                              "__contains__", "__len__",
                                                              "__iter__", "__eq__"):
                        continue
                    if isinstance(value, property):
                        value = value.fget
                    elif isinstance(value, (classmethod, staticmethod)):
                        value = value.__func__
                    if callable(value) and hasattr(value, "__code__"):
                        members.append(("%s.%s" % (name, attr), value))
            for qual, fn in members:
                if not hasattr(fn, "__code__") or "libball" not in fn.__code__.co_filename:
                    continue  # e.g. the __eq__ that dataclass writes
                hints = typing.get_type_hints(fn)
                args = fn.__code__.co_varnames[:fn.__code__.co_argcount
                                                + fn.__code__.co_kwonlyargcount]
                for arg in args:
                    if arg not in ("self", "cls") and arg not in hints:
                        missing.append("%s(%s)" % (qual, arg))
                if "return" not in hints and fn.__name__ != "__init__":
                    missing.append("%s -> ?" % qual)
        self.assertEqual(missing, [])


if __name__ == "__main__":
    unittest.main()
