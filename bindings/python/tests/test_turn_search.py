# SPDX-License-Identifier: MIT
"""The turn search (libball.TurnSearch over ball_search_*): legal decisions,
the game left as it was, repeatable node budgets, the root lines and the
best turn replayed on a copy, a known position, bad settings, stop() from
another thread, a game that is over, lifetime, and the info callback
(called, consistent, a true return stops, an exception propagates)."""

import gc
import pickle
import re
import threading
import time
import unittest
import weakref

import libball
from libball import Game, SearchInfo, SearchResult, TurnSearch

from helpers import HEADER, START

# The position of the issue that asked for the turn search: ATK's best
# whole turn at the default 200000 nodes is K11-J12 J12-I11 end (the
# expectation comes from the issue, not from this binding's output).
# ATK to act with 0 PA and no hand-off: `end` is the one legal decision,
# and the release phase after it is ATK's too (R4.5, R9).
ONLY_END = ("7/6/4x2/4s1/5o1/o5/7/1x1x2/7/3s2/2XS_1O@/6/O4X1/6/2X4/3S2/7 "
            "ATK a 0 - 0/0 12")
ISSUE = ("7/6/3s3/6/7/3x2/4x*S1/3xo1/1O5/4[sX_]1/1o5/1X3O/3X2S/6/7/6/7 "
         "ATK a 2 - 0/0 34")
# R11.1 with R1.4: ATK's X holding the ball on F16 steps into row 17 and
# scores (the same position as test_mcts.py's ATK_TOUCHDOWN).
ATK_TOUCHDOWN = "7/2X*3/7/6/7/6/7/6/7/6/7/6/3x3/6/7/6/7 ATK a 2 - 0/0 1"
# ATK X* on G13 with 2 PA, DEF x on A1: two 2-square diagonal moves (R5.1,
# R4.3: 1 PA each) take the carrier from row 13 to row 17, ATK's target end
# zone (R1.4): a touchdown this turn (R11.1); tests/search/test_search.c's IN_ONE.
IN_ONE = "7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2"


def replay(test, game, actions, what):
    """Plays ``actions`` on a copy of ``game``, each legal when played;
    returns the copy."""
    copy = game.clone()
    for k, action in enumerate(actions):
        test.assertIn(action, list(copy.legal_actions()), "%s: decision %d" % (what, k))
        copy.push(action)
    return copy


class Choose(unittest.TestCase):
    def test_legal_and_game_unchanged(self):
        with TurnSearch(nodes=5000) as search, Game() as game:
            before = game.bpn
            action = search.choose(game)
            self.assertEqual(game.bpn, before)
            self.assertIn(action, list(game.legal_actions()))

    def test_same_budget_same_decision(self):
        with Game(ISSUE) as game:
            picks = []
            for _ in range(2):
                with TurnSearch(nodes=20000) as search:
                    picks.append(search.choose(game))
        self.assertEqual(picks[0], picks[1])

    def test_clear_searches_as_new(self):
        with Game() as game, TurnSearch(nodes=3000) as fresh, TurnSearch(nodes=3000) as used:
            used.analyse(game)
            used.clear()
            self.assertEqual(used.analyse(game)._replace(elapsed_ms=0),
                             fresh.analyse(game)._replace(elapsed_ms=0))

    def test_touchdown_found(self):
        # R11.1: a touchdown in the turn being searched is always found.
        with TurnSearch(nodes=2000) as search, Game(ATK_TOUCHDOWN) as game:
            r = search.analyse(game)
            self.assertIn(str(r.best), ("F16-E17", "F16-G17"))
            self.assertEqual(r.proven, 1)
            self.assertEqual(r.value, 1.0)


class Analyse(unittest.TestCase):
    def test_lines_sorted_and_pvs_replay(self):
        with TurnSearch(nodes=20000, multipv=4) as search, Game(ISSUE) as game:
            r = search.analyse(game)
            self.assertIsInstance(r, SearchResult)
            self.assertTrue(-1.0 <= r.value <= 1.0)
            self.assertEqual(r.lines[0].action, r.best)
            legal = list(game.legal_actions())
            self.assertEqual(sorted(int(ln.action) for ln in r.lines),
                             sorted(int(a) for a in legal))
            exact = [ln.value for ln in r.lines[:4]]
            self.assertEqual(exact, sorted(exact, reverse=True))
            for ln in r.lines[:4]:
                self.assertFalse(ln.bound)
            for ln in r.lines:
                self.assertLessEqual(ln.value, r.lines[0].value)
                self.assertEqual(ln.pv[0], ln.action)
                with game.clone() as copy:
                    for action in ln.pv:
                        self.assertIn(action, list(copy.legal_actions()))
                        copy.push(action)

    def test_best_turn_reaches_the_hand_over(self):
        with TurnSearch(nodes=20000) as search, Game() as game:
            r = search.analyse(game)
            self.assertEqual(r.best_turn[0], r.best)
            side = game.side
            with game.clone() as copy:
                for k, action in enumerate(r.best_turn):
                    self.assertEqual(copy.side, side, "decision %d is in the turn" % k)
                    copy.push(action)
                self.assertTrue(copy.side != side or copy.is_over)

    def test_best_turn_can_end_before_the_hand_over(self):
        # the two cases ball_search_best_turn()'s documentation names
        # (issue 49): a single legal decision (`end` of the action phase,
        # then the same coach's release phase, R9) answered without a
        # search, and a budget spent before depth 1; the coach to act is
        # still to act after the turn
        for bpn, nodes, alone in ((ONLY_END, 20000, True), (START, 50, False)):
            with self.subTest(bpn=bpn, nodes=nodes), TurnSearch(nodes=nodes) as search, \
                    Game(bpn) as game:
                r = search.analyse(game)
                self.assertEqual(r.depth, 0)
                self.assertEqual(r.best_turn[0], r.best)
                if alone:
                    self.assertEqual(list(game.legal_actions()), [r.best])
                    self.assertEqual(r.best_turn, [r.best])
                side = game.side
                for action in r.best_turn:
                    game.push(action)
                self.assertEqual(game.side, side)
                self.assertFalse(game.is_over)
                self.assertTrue(list(game.legal_actions()), "the turn goes on")

    def test_issue_position(self):
        # The issue's turn was asked of the hand-written evaluation (1.0's
        # default); the network, the default since, finds it too.
        for how in ("hand", "network"):
            with self.subTest(eval=how):
                with TurnSearch(nodes=200000, eval=how) as search, Game(ISSUE) as game:
                    r = search.analyse(game)
                self.assertEqual(" ".join(str(a) for a in r.best_turn), "K11-J12 J12-I11 end")


# Positions on which the two evaluations are compared: the start, the
# issue's, a carrier two steps from the touchdown, a position late in a
# turn with one decision left.
EVAL_POSITIONS = (START, ISSUE, IN_ONE, ONLY_END)


class Evaluation(unittest.TestCase):
    """eval="network" (the default: the library's built-in network),
    eval="hand" (the hand-written evaluation alone) or a Net."""

    def values(self, **kw):
        with TurnSearch(nodes=3000, hash_mb=1, **kw) as search:
            out = []
            for bpn in EVAL_POSITIONS:
                with Game(bpn) as game:
                    out.append(search.evaluate(game))
            return out

    def test_default_is_the_network(self):
        with TurnSearch(nodes=10) as search:
            self.assertEqual(search.eval, "network")
            self.assertNotIn("eval=", repr(search))
        with TurnSearch(nodes=10, eval="hand") as search:
            self.assertEqual(search.eval, "hand")
            self.assertIn("eval='hand'", repr(search))
        self.assertEqual(TurnSearch(nodes=10, eval=None).eval, "network")
        self.assertEqual(self.values(), self.values(eval="network"))
        self.assertEqual(self.values(eval=None), self.values(eval="network"))

    def test_hand_differs_from_the_network(self):
        hand, network = self.values(eval="hand"), self.values()
        # the same evaluation each time: a second searcher gives the same values
        self.assertEqual(self.values(eval="hand"), hand)
        for v in hand + network:
            self.assertTrue(-1.0 <= v <= 1.0, v)
        self.assertTrue(any(h != n for h, n in zip(hand, network)),
                        "the network's values equal the hand evaluation's: %r" % (hand,))
        # and the searches that stand on them differ somewhere too
        with Game() as game:
            a = TurnSearch(nodes=3000, hash_mb=1, eval="hand").analyse(game).value
            b = TurnSearch(nodes=3000, hash_mb=1).analyse(game).value
            self.assertEqual(TurnSearch(nodes=3000, hash_mb=1, eval="hand").analyse(game).value, a)
        self.assertNotEqual(a, b)

    def test_bad_values_refused(self):
        for bad in ("Network", "nnue", "", "hand ", b"hand", 0, 1, True, ["hand"]):
            with self.subTest(eval=bad):
                with self.assertRaises(libball.ArgumentError) as cm:
                    TurnSearch(nodes=10, eval=bad)
                self.assertIn('eval is "network", "hand" or a libball.Net, not %r' % (bad,),
                              str(cm.exception))


class Errors(unittest.TestCase):
    def test_bad_settings(self):
        for kw, word in ((dict(nodes=-1), "nodes"), (dict(threads=0), "threads"),
                         (dict(multipv=0), "multipv"), (dict(hash_mb=0), "hash_mb"),
                         (dict(nodes=0, time_ms=0, depth=0), "budget"),
                         (dict(depth=65), "depth"), (dict(nodes=1.5), "nodes"),
                         (dict(threads=True), "threads")):
            with self.subTest(kw=kw):
                with self.assertRaises(libball.BallError) as cm:
                    TurnSearch(**kw)
                self.assertIn(word, str(cm.exception))
        with self.assertRaises(libball.ArgumentError) as cm:
            TurnSearch(threads=0)
        self.assertIn("threads must lie in 1-64", str(cm.exception))  # the library's text

    def test_game_over(self):
        with TurnSearch(nodes=1000) as search, Game(ATK_TOUCHDOWN) as game:
            game.push("F16-E17")
            self.assertTrue(game.is_over)
            for call in (search.choose, search.analyse):
                with self.assertRaises(libball.RangeError) as cm:
                    call(game)
                self.assertIn("over", str(cm.exception))

    def test_not_a_game(self):
        with TurnSearch(nodes=1000) as search:
            with self.assertRaises(libball.ArgumentError):
                search.choose(START)

    def test_closed(self):
        search = TurnSearch(nodes=1000)
        search.close()
        search.close()
        search.stop()  # nothing to stop: no error
        with Game() as game:
            for call in (search.choose, search.analyse):
                with self.assertRaises(libball.ClosedGameError):
                    call(game)
        with self.assertRaises(libball.ClosedGameError):
            search.clear()
        self.assertIn("closed", repr(search))
        with TurnSearch(nodes=1000) as search:
            game = Game()
            game.close()
            with self.assertRaises(libball.ClosedGameError):
                search.choose(game)

    def test_pv_capacity_is_the_headers(self):
        from libball import search
        found = re.search(r"#define BALL_SEARCH_PV_MAX (\d+)", HEADER.read_text())
        self.assertIsNotNone(found)
        self.assertEqual(search._SEARCH_PV_MAX, int(found.group(1)))

    def test_not_picklable(self):
        with TurnSearch(nodes=1000) as search:
            with self.assertRaises(TypeError):
                pickle.dumps(search)


class Stop(unittest.TestCase):
    def test_stop_from_another_thread(self):
        with TurnSearch(nodes=0, time_ms=0, depth=64) as search, Game() as game:
            out = {}

            def run():
                out["result"] = search.analyse(game)

            t = threading.Thread(target=run, daemon=True)
            t0 = time.monotonic()
            t.start()
            time.sleep(0.2)
            search.stop()
            t.join(2.0)
            alive = t.is_alive()
            if alive:  # end the run through C directly, so that the test fails, not hangs
                libball._native.lib.ball_search_stop(search._handle)
                t.join()
            self.assertFalse(alive, "the search did not stop within 2 s")
            self.assertLess(time.monotonic() - t0, 2.5)
            self.assertTrue(out["result"].stopped)
            self.assertIn(out["result"].best, list(game.legal_actions()))

    def test_stop_from_another_thread_with_an_info_callback(self):
        # the callback takes the GIL every millisecond while this thread
        # sleeps and then calls stop()
        calls = []
        with TurnSearch(nodes=0, time_ms=10000, depth=64, info_every_ms=1,
                        info=calls.append) as search, Game() as game:
            out = {}
            t = threading.Thread(target=lambda: out.setdefault("r", search.analyse(game)),
                                 daemon=True)
            t.start()
            time.sleep(0.2)
            search.stop()
            t.join(12.0)
            self.assertFalse(t.is_alive())
            self.assertTrue(out["r"].stopped)  # not the 10 s time budget
            self.assertGreaterEqual(len(calls), 1)


class Info(unittest.TestCase):
    def test_called_and_consistent(self):
        calls = []
        with Game(ISSUE) as game, TurnSearch(nodes=200000, hash_mb=4, info_every_ms=1,
                                             info=calls.append) as search:
            before = (game.bpn, game.history_length, game.hash)
            r = search.analyse(game)
            self.assertEqual((game.bpn, game.history_length, game.hash), before)
            self.assertGreaterEqual(len(calls), 1)
            self.assertFalse(r.stopped)
            last = None
            for k, info in enumerate(calls):
                self.assertIsInstance(info, SearchInfo)
                self.assertTrue(0 <= info.nodes <= r.nodes)
                self.assertTrue(-1.0 <= info.value <= 1.0)
                self.assertGreaterEqual(info.elapsed_ms, 0.0)
                self.assertLessEqual(info.depth, r.depth)
                if last is not None:
                    self.assertGreaterEqual(info.nodes, last.nodes)
                    self.assertGreaterEqual(info.depth, last.depth)
                    self.assertGreaterEqual(info.elapsed_ms, last.elapsed_ms)
                replay(self, game, info.pv, "info %d" % k).close()
                last = info
            self.assertTrue(any(info.pv for info in calls))

    def test_touchdown_reported(self):
        # R11.1: the depth-1 report of IN_ONE already holds the proven
        # touchdown, G13 to row 17 in two moves.
        calls = []
        with Game(IN_ONE) as game, TurnSearch(nodes=100000, hash_mb=4,
                                              info=calls.append) as search:
            r = search.analyse(game)
            self.assertEqual(calls[0].depth, 1)
            self.assertEqual(calls[0].proven, 1)
            self.assertEqual(calls[0].value, 1.0)
            self.assertEqual(calls[0].pv[:2], r.best_turn)
            with replay(self, game, calls[0].pv[:2], "pv") as done:
                self.assertEqual(done.winner, libball.Team.ATK)

    def test_true_stops_the_run(self):
        # Without info_every_ms the callback is called at the end of each
        # depth: the first call is at depth 1, and True stops there. (The
        # time budget only ends the test if stopping failed: stopped stays
        # False then.)
        first = []

        def stop_now(info):
            first.append(info)
            return True

        with Game(ISSUE) as game, TurnSearch(nodes=0, depth=64, time_ms=10000, hash_mb=4,
                                             info=stop_now) as search:
            r = search.analyse(game)
            self.assertEqual(len(first), 1)
            self.assertEqual(first[0].depth, 1)
            self.assertTrue(r.stopped)
            self.assertEqual(r.depth, 1)
            self.assertIn(r.best, list(game.legal_actions()))
            # a falsy return does not stop
            search2 = TurnSearch(nodes=5000, hash_mb=4, info=lambda info: 0)
            self.assertFalse(search2.analyse(game).stopped)
            search2.close()

    def test_stop_from_the_callback(self):
        box = []
        with Game(ISSUE) as game, TurnSearch(nodes=0, depth=64, time_ms=10000, hash_mb=4,
                                             info=lambda info: box[0].stop()) as search:
            box.append(search)
            self.assertTrue(search.analyse(game).stopped)

    def test_exception_propagates_and_searcher_stays_usable(self):
        class Boom(Exception):
            pass

        raised = []

        def once(info):
            if not raised:
                raised.append(Boom("from the callback"))
                raise raised[0]

        with Game(ISSUE) as game, TurnSearch(nodes=20000, hash_mb=4, info=once) as search:
            before = (game.bpn, game.history_length, game.hash)
            with self.assertRaises(Boom) as cm:
                search.analyse(game)
            self.assertIs(cm.exception, raised[0])
            self.assertEqual((game.bpn, game.history_length, game.hash), before)
            self.assertFalse(game.closed)
            self.assertIn(search.choose(game), list(game.legal_actions()))
            r = search.analyse(game)
            self.assertFalse(r.stopped)

    def test_keyboard_interrupt_propagates(self):
        def interrupt(info):
            raise KeyboardInterrupt

        with Game() as game, TurnSearch(nodes=20000, hash_mb=4, info=interrupt) as search:
            with self.assertRaises(KeyboardInterrupt):
                search.choose(game)

    def test_game_and_searcher_are_busy_inside(self):
        seen = {}
        box = []

        def inside(info):
            if seen:
                return
            search = box[0]
            for name, call in (("bpn", lambda: game.bpn), ("push", lambda: game.push("end")),
                               ("choose", lambda: search.choose(other)),
                               ("clear", search.clear), ("close", search.close)):
                try:
                    call()
                    seen[name] = None
                except libball.BallError as exc:
                    seen[name] = type(exc)

        with Game(ISSUE) as game, Game() as other, \
                TurnSearch(nodes=20000, hash_mb=4, info=inside) as search:
            box.append(search)
            before = game.bpn
            search.analyse(game)
            self.assertEqual(seen, {"bpn": libball.ClosedGameError,
                                    "push": libball.ClosedGameError,
                                    "choose": libball.ArgumentError,
                                    "clear": libball.ArgumentError,
                                    "close": libball.ArgumentError})
            self.assertEqual(game.bpn, before)
            self.assertFalse(search.closed)

    def test_threads_call_back_on_the_calling_thread(self):
        idents = set()
        with Game(ISSUE) as game, TurnSearch(nodes=30000, threads=2, hash_mb=4, info_every_ms=1,
                                             info=lambda i: idents.add(threading.get_ident())) \
                as search:
            self.assertIn(search.choose(game), list(game.legal_actions()))
        self.assertEqual(idents, {threading.get_ident()})

    def test_bad_settings(self):
        with self.assertRaises(libball.ArgumentError) as cm:
            TurnSearch(info="print")
        self.assertIn("info", str(cm.exception))
        with self.assertRaises(libball.ArgumentError) as cm:
            TurnSearch(info=print, info_every_ms=-1)
        self.assertIn("info_every_ms must lie in 0-86400000", str(cm.exception))  # the library's
        with TurnSearch(nodes=10, hash_mb=1, info=print, info_every_ms=5) as search:
            self.assertIs(search.info, print)
            self.assertEqual(search.info_every_ms, 5)
            self.assertIn("info_every_ms=5", repr(search))

    def test_no_cycle_through_c(self):
        # a callback that refers to its searcher: both are collected
        box = []
        search = TurnSearch(nodes=100, hash_mb=1, info=lambda info: box[0].nodes < 0)
        box.append(search)
        with Game() as game:
            search.choose(game)
        ref = weakref.ref(search)
        del search, box[:]
        gc.collect()
        self.assertIsNone(ref())


if __name__ == "__main__":
    unittest.main()
