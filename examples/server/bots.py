# SPDX-License-Identifier: MIT
"""The searcher's seats of every game, run within bounds (docs/server.md,
"Bots").

A bot seat asks ``BotPool.plan()`` for its turn. The pool runs the turn
search (``libball.TurnSearch``, which releases the GIL while it searches)
in a fixed number of threads, ``threads`` (the machine's processors by
default), each run on a searcher of its own made for that run with a
transposition table of ``memory_mb / threads`` MiB: the searchers' memory
never exceeds ``memory_mb`` whatever the number of bot games, and no
table outlives its run (a game between turns costs no search memory).
The searchers evaluate with ``evaluation``: ``"network"`` (the default,
the learned network the library carries; each searcher loads a copy of
about 1 MB while it lives) or ``"hand"`` (the hand-written evaluation,
the bots of libball 1.0).
Requests wait in two first-come-first-served queues, the games with a
person in them before the games of bots only, so that a person's bot is
delayed by at most its share of the pool, whatever bot-only games pile up.

``plan_turn()`` plans once a turn and returns the whole turn (the
search's best turn, ``SearchResult.best_turn``, searched on from its end
when it stops short of the hand-over), shortened when a shorter
turn reaches the same position: a turn that moves a piece out and back
(``G5-I3 I3-G5 end``) is played as ``end``. The search values equal
positions equally and may pick either; a person reads the longer one as a
bug.
"""

import asyncio
import collections
import concurrent.futures
import os
from typing import Any, Deque, List, Optional, Tuple

import libball

#: The strengths the lobby offers: the budget of each search (TurnSearch's
#: nodes, decisions played), weakest first.
LEVELS = (("easy", 500), ("medium", 2000), ("hard", 8000), ("strong", 20000))
#: The default budget of the searchers' transposition tables, all together.
DEFAULT_MEMORY_MB = 64
#: Decisions of one turn at most (a guard: a turn ends long before).
MAX_TURN = 256
#: The evaluations a bot may search with (TurnSearch's eval), the default first.
EVALUATIONS = ("network", "hand")


def default_threads() -> int:
    """The processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _key(game: libball.Game) -> Tuple[int, str]:
    return game.hash, game.bpn


def _hands_over(game: libball.Game, side: libball.Team) -> bool:
    return game.is_over or game.side != side


def _play(game: libball.Game, turn: List[str], side: libball.Team) -> Optional[Tuple[int, str]]:
    """The position after ``turn`` played on a clone, when every decision
    is legal and the last one ends the turn; else None."""
    g = game.clone()
    try:
        for text in turn:
            if _hands_over(g, side) or not g.is_legal(text):
                return None
            g.apply(text)
        return _key(g) if _hands_over(g, side) else None
    except libball.BallError:
        return None
    finally:
        g.close()


def shortest_turn(game: libball.Game, turn: List[str]) -> List[str]:
    """``turn`` (decisions of the side to act in ``game``, up to the
    hand-over), or the shortest of its beginnings that, followed by
    ``end``, hands over the same position (PA and all). Each candidate is
    checked by playing it; the original stays when none holds (e.g. a
    plan that does not reach the hand-over). A loop inside a turn needs no
    more: positions within a turn differ by the PA spent, and the turn's
    end is where the loop shows."""
    side = game.side
    final = _play(game, turn, side)
    if final is None:
        return turn
    for i in range(len(turn) - 1):
        shorter = turn[:i] + ["end"]
        if _play(game, shorter, side) == final:
            return shorter
    return turn


def plan_turn(game: libball.Game, nodes: int, hash_mb: int,
              evaluation: str = EVALUATIONS[0]) -> List[str]:
    """The whole turn the search plays from ``game`` (the caller's to
    close; played on here), shortened by ``shortest_turn``. The search's
    best turn may stop short of the hand-over (its principal variation
    is cut where the table's line ends): the rest is searched from there,
    decision by decision, as a seat asking at each decision would. A
    searcher of its own, made and freed here: its table lives only as
    long as the turn's runs. ``evaluation`` is TurnSearch's ``eval``."""
    start = game.clone()
    side = game.side
    turn: List[str] = []
    try:
        with libball.TurnSearch(nodes=nodes, hash_mb=hash_mb, eval=evaluation) as searcher:
            while not _hands_over(game, side) and len(turn) < MAX_TURN:
                result = searcher.analyse(game)
                for action in result.best_turn or [result.best]:
                    if _hands_over(game, side):
                        break
                    game.apply(action)
                    turn.append(action.text)
        return shortest_turn(start, turn)
    finally:
        start.close()


class BotPool:
    """A fixed pool of search threads shared by every bot seat."""

    def __init__(self, threads: int = 0, memory_mb: int = DEFAULT_MEMORY_MB,
                 evaluation: str = EVALUATIONS[0]) -> None:
        if evaluation not in EVALUATIONS:
            raise ValueError("the bots' evaluation is %s, not %r"
                             % (" or ".join(EVALUATIONS), evaluation))
        self.evaluation = evaluation
        self.threads = threads or default_threads()
        if memory_mb < self.threads:
            raise ValueError("the bots' memory (%d MiB) is less than 1 MiB a thread (%d threads)"
                             % (memory_mb, self.threads))
        self.memory_mb = memory_mb
        self.hash_mb = memory_mb // self.threads
        self._executor = concurrent.futures.ThreadPoolExecutor(self.threads,
                                                               thread_name_prefix="bot")
        self._queues: Tuple[Deque[Any], Deque[Any]] = (collections.deque(), collections.deque())
        self.running = 0
        self.stats = {"bot_plans": 0}

    @property
    def waiting(self) -> int:
        return len(self._queues[0]) + len(self._queues[1])

    async def plan(self, game: libball.Game, nodes: int, with_person: bool) -> List[str]:
        """The turn for the side to act in ``game``, a copy the pool takes
        (and closes). Games with a person first, then first come first
        served."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queues[0 if with_person else 1].append((game, nodes, fut))
        self._pump()
        return await fut

    def _pump(self) -> None:
        while self.running < self.threads:
            queue = self._queues[0] or self._queues[1]
            if not queue:
                return
            game, nodes, fut = queue.popleft()
            if fut.done():  # the game's bot task was cancelled while waiting
                game.close()
                continue
            self.running += 1
            done = asyncio.wrap_future(self._executor.submit(plan_turn, game, nodes, self.hash_mb,
                                                                 self.evaluation))
            done.add_done_callback(lambda d, g=game, f=fut: self._done(d, g, f))

    def _done(self, done: "asyncio.Future[List[str]]", game: libball.Game,
              fut: "asyncio.Future[List[str]]") -> None:
        self.running -= 1
        self.stats["bot_plans"] += 1
        game.close()
        if done.cancelled():  # the pool shut down
            if not fut.done():
                fut.cancel()
        elif not fut.done():
            if done.exception() is not None:
                fut.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                fut.set_result(done.result())
        else:
            done.exception()  # retrieved: the asker is gone
        self._pump()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
