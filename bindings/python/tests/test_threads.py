# SPDX-License-Identifier: MIT
"""One Game shared by threads (ctypes releases the GIL during each C call,
so without the per-game lock the calls would overlap in C): 4 threads
hammer one game with apply / undo / bpn / legal_actions and, at the end,
close; the process must not crash, the game must stay consistent, and
after close() every call must raise ClosedGameError."""

import random
import sys
import threading
import time
import unittest

import libball
from libball import Game

from helpers import START

THREADS = 4
# Exceptions a thread may see because another thread played in between.
EXPECTED = (libball.IllegalActionError, libball.NoHistoryError, libball.RangeError)


def hammer(game, seed, deadline, errors, calls, closed_ok):
    rng = random.Random(seed)
    n = 0
    while time.monotonic() < deadline:
        op = rng.randrange(8)
        try:
            if op == 0:
                actions = game.legal_actions()
                if actions:
                    game.apply(rng.choice(actions))
            elif op == 1:
                game.apply(game.random_action(rng.getrandbits(64)))
            elif op in (2, 3):
                game.undo()
            elif op == 4:
                bpn = game.bpn
                if rng.randrange(8) == 0:
                    Game(bpn).close()  # never a torn text: it parses
            elif op == 5:
                game.history_length, game.hash, game.count_legal_actions()
            elif op == 6:
                game["G5"], game.side, game.pa, game.turn, game.restricted_square
            else:
                game.is_legal("end"), game.select(())
        except libball.ClosedGameError:
            if not closed_ok.is_set():
                errors.append("ClosedGameError before close()")
            time.sleep(0.001)
        except EXPECTED:
            pass
        except Exception as exc:  # pragma: no cover - a failure
            errors.append("%s: %s" % (type(exc).__name__, exc))
        n += 1
    calls.append(n)


class SharedGame(unittest.TestCase):
    def run_threads(self, game, seconds, closer=None):
        errors, calls = [], []
        closed_ok = threading.Event()
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=hammer,
                                    args=(game, 1000 + i, deadline, errors, calls, closed_ok))
                   for i in range(THREADS)]
        for t in threads:
            t.start()
        if closer:
            time.sleep(seconds / 2)
            closed_ok.set()
            closer()
        for t in threads:
            t.join()
        self.assertEqual(errors[:5], [])
        self.assertEqual(len(calls), THREADS)
        self.assertGreater(sum(calls), 100)
        return sum(calls)

    def test_four_threads_then_close(self):
        game = Game()
        game.apply("E11-F10")
        self.run_threads(game, 1.5)
        # Consistent: every decision can be taken back to the start.
        bpn = game.bpn
        self.assertEqual(Game(bpn).bpn, bpn)
        for _ in range(game.history_length):
            game.undo()
        self.assertEqual(game.bpn, START)
        self.assertEqual(game.hash, Game().hash)
        # Close while the threads are in calls: they see ClosedGameError.
        self.run_threads(game, 0.5, closer=game.close)
        self.assertTrue(game.closed)
        with self.assertRaises(libball.ClosedGameError):
            game.apply("end")
        game.close()  # twice is harmless

    def test_close_races_with_del(self):
        # close() from several threads at once frees the game once.
        for _ in range(200):
            game = Game()
            barrier = threading.Barrier(THREADS)

            def close():
                barrier.wait()
                game.close()

            threads = [threading.Thread(target=close) for _ in range(THREADS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertTrue(game.closed)
            del game


class PlayoutLetsGo(unittest.TestCase):
    """Game.random_playout() lets the interpreter go for its C call (as
    ctypes does for every other call), so that other threads run while one
    plays out: a thread waiting for the interpreter must get it while the
    call is in C. The switch interval is set far beyond the test's length,
    so that the interpreter is not handed over between bytecodes: the only
    way the waiting thread can see the flag set is during the call.

    A playout lasts under a millisecond, shorter than a busy machine
    may take to wake a thread, so one call is not a fair chance: the test
    plays out fresh games one after the other, for up to DEADLINE seconds,
    until the watching thread has run inside three different calls. The
    watcher lets the interpreter go (time.sleep) whenever it has looked, so
    the main thread is never kept waiting for it."""

    DEADLINE = 20.0
    WANTED = 3
    # A bound on each playout: without a turn limit (R11.2, the default) a
    # random game may never end (seed 465 from the start plays on past
    # 100,000 decisions), and the history would grow without end.
    DECISIONS = 2000

    def test_other_thread_runs_during_playout(self):
        old = sys.getswitchinterval()
        sys.setswitchinterval(100.0)
        try:
            seen, calls = self.watch_playouts()
        finally:
            sys.setswitchinterval(old)
        self.assertGreaterEqual(len(seen), self.WANTED,
                                "no thread ran during random_playout() (%d calls, seen in %s)"
                                % (calls, sorted(seen)))

    def watch_playouts(self):
        state = {"call": 0, "in_call": False, "done": False}
        seen = set()

        def watch():
            while not state["done"]:
                if state["in_call"]:
                    seen.add(state["call"])
                time.sleep(0)  # lets the interpreter go, also to the main thread

        t = threading.Thread(target=watch)
        t.start()
        deadline = time.monotonic() + self.DEADLINE
        calls = 0
        try:
            while len(seen) < self.WANTED and time.monotonic() < deadline:
                game = Game()  # a C call too, made with the flag down
                calls += 1
                state["call"] = calls
                state["in_call"] = True
                game.random_playout(calls, self.DECISIONS)
                state["in_call"] = False
                game.close()
        finally:
            state["done"] = True
            t.join()
        return seen, calls
