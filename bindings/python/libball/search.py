# SPDX-License-Identifier: MIT
"""The library's Monte-Carlo tree search player: ``MCTS`` (ball_mcts of
ball.h, section "Search"; docs/players.md describes the search and its
strength).

    import libball
    with libball.MCTS(playouts=200, seed=7) as mcts, libball.Game() as game:
        action = mcts.choose(game)          # the game is left as it was
        game.push(action)
        print(action, mcts.last_stats)      # SearchStats(playouts=200, ...)

With a budget in playouts the same seed and the same positions give the
same decisions as the C API (and the ``selfplay`` and ``play`` examples
with ``mcts:playouts=N``), on any machine; a time budget depends on the
machine's speed and load.
"""

import ctypes
import threading
from typing import Literal, NamedTuple, NoReturn, Optional, Tuple, Union, overload

from . import _native as _n
from .errors import ArgumentError, BallError, ClosedGameError, RangeError, error_for
from .game import Action, Game, _action, _c_int, _Owned

_lib = _n.lib


class SearchStats(NamedTuple):
    """What one ``MCTS.choose()`` did (struct ball_mcts_stats)."""

    #: Iterations (one playout each) made; 0 when the decision needed no
    #: search (an immediate touchdown, or the only legal decision).
    playouts: int
    #: Tree nodes used.
    nodes: int
    #: Deepest tree path walked, in decisions.
    max_depth: int
    #: Visits of the chosen decision.
    visits: int
    #: Mean reward of the chosen decision for the coach to act, 0-1 (1 for
    #: an immediate touchdown).
    value: float
    #: Time the search took, in milliseconds.
    elapsed_ms: float


class MCTS(_Owned):
    """A Monte-Carlo tree searcher (UCT) of the library: ``ball_mcts_new()``.

    ``MCTS(playouts=1000, *, time_ms=0, seed=1, playout_turns=None,
    exploration=None, max_nodes=0)``: the budget a decision is
    ``playouts`` iterations and/or ``time_ms`` milliseconds of wall clock
    (the first reached stops the search; ``playouts`` left out with a
    ``time_ms`` given means no playout limit, as ``mcts:ms=T`` of the
    examples); ``seed`` starts the searcher's own random generator
    (splitmix64, 0 to 2**64 - 1); a playout closes the turn in progress and
    stops after ``playout_turns`` hand-overs of the turn, scored by the
    built-in evaluation (0: play to the end of the game); ``exploration``
    is the UCB1 constant c (0-100); None takes the library's default for
    either (``ball_mcts_config_init()``: 1 and 0.3); ``max_nodes`` sizes the node pool (0: from the budget). The
    library checks the values (RangeError with its message: playouts
    0-1000000000, time_ms 0-86400000, playout_turns 0-1000, at least one
    budget); a non-integral number where an integer is expected raises
    ArgumentError, an int that C's ``int`` cannot hold RangeError.

    ``choose(game)`` returns the decision (an ``Action``) for the coach to
    act and leaves the game as it was (same position and history: the
    search plays on it with apply/undo, holding its lock);
    ``choose(game, stats=True)`` returns ``(action, SearchStats)``, and
    ``last_stats`` keeps the statistics of the last search either way.
    ``seed(n)`` restarts the random generator (e.g. once per game, so that
    games repeat one by one). With a budget in playouts the decisions
    depend only on the seed and the positions searched since: the same as
    the C API's and the examples' (``selfplay --atk mcts:playouts=N``).

    The C memory (the node pool, allocated once here) is freed by
    ``close()``, at the end of a ``with`` block, or by the garbage
    collector; a closed searcher raises ClosedGameError. Threads: the calls
    on one searcher are serialised by a per-searcher lock (a search also
    holds the game's lock); distinct searchers on distinct games search in
    parallel (ctypes releases the GIL during the C call). A searcher cannot
    be pickled or copied (its random state lives in C): make a new one with
    the same settings and seed.
    """

    _what = "searcher"

    def __init__(self, playouts: Optional[int] = None, *, time_ms: int = 0, seed: int = 1,
                 playout_turns: Optional[int] = None, exploration: Optional[float] = None,
                 max_nodes: int = 0) -> None:
        self._lock = threading.RLock()
        if not _n.has("ball_mcts_new"):
            raise BallError("the loaded libball (%s) has no MCTS player (ball_mcts_new)"
                            % _n.path)
        cfg = _n.BallMctsConfig()
        _lib.ball_mcts_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg))
        time_ms = _c_int(time_ms, "time_ms")
        if playouts is None:
            playouts = 0 if time_ms > 0 else int(cfg.playouts)
        cfg.playouts = _c_int(playouts, "playouts")
        cfg.time_ms = time_ms
        cfg.seed = _c_int(seed, "seed", 0, _n.UINT64_MAX)
        if playout_turns is not None:
            cfg.playout_turns = _c_int(playout_turns, "playout_turns")
        cfg.max_nodes = _c_int(max_nodes, "max_nodes")
        if exploration is not None:
            cfg.exploration = _real(exploration, "exploration")
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_n.ERR_MAX)
        rc = _lib.ball_mcts_new(ctypes.byref(handle), ctypes.byref(cfg), err, len(err))
        if rc < 0 or handle.value is None:
            raise error_for(rc if rc < 0 else _n.E_NOMEM, err.value.decode(errors="replace"))
        self._config = (int(cfg.playouts), int(cfg.time_ms), int(cfg.seed),
                        int(cfg.playout_turns), float(cfg.exploration), int(cfg.max_nodes))
        self._stats = _n.BallMctsStats()
        self._out = ctypes.c_uint32()
        self._last: Optional[SearchStats] = None
        # Kept on the instance so that __del__ works during interpreter exit.
        self._free = _lib.ball_mcts_free
        self._choose = _lib.ball_mcts_choose
        self._handle = handle.value

    # -------------------------------------------------- settings

    @property
    def playouts(self) -> int:
        """Iterations a decision (0: no limit)."""
        return self._config[0]

    @property
    def time_ms(self) -> int:
        """Milliseconds a decision (0: no limit)."""
        return self._config[1]

    @property
    def initial_seed(self) -> int:
        """The seed the searcher was created with (``seed()`` restarts the
        generator without changing it)."""
        return self._config[2]

    @property
    def playout_turns(self) -> int:
        """Hand-overs a playout plays before it is scored (0: to the end)."""
        return self._config[3]

    @property
    def exploration(self) -> float:
        """The UCB1 exploration constant c."""
        return self._config[4]

    @property
    def max_nodes(self) -> int:
        """The node pool's size as asked (0: sized from the budget)."""
        return self._config[5]

    def __repr__(self) -> str:
        """``libball.MCTS(...)`` with the settings it was created with."""
        text = ("libball.MCTS(playouts=%d, time_ms=%d, seed=%d, playout_turns=%d, "
                "exploration=%r, max_nodes=%d)" % self._config)
        return text if self._handle is not None else "<closed %s>" % text

    # -------------------------------------------------- lifetime (close, with: _Owned)

    def __reduce__(self) -> NoReturn:
        raise TypeError("a libball.MCTS cannot be pickled or copied (its random state "
                        "lives in C): make a new one, e.g. %r" % (self,))

    # -------------------------------------------------- searching

    def seed(self, seed: int) -> None:
        """Restarts the searcher's random generator from ``seed`` (0 to
        2**64 - 1; ball_mcts_seed()): the decisions that follow are those
        of a new searcher created with that seed."""
        value = _c_int(seed, "seed", 0, _n.UINT64_MAX)
        with self._lock:
            rc = _lib.ball_mcts_seed(self._live(), value)
        if rc < 0:
            raise error_for(rc, "ball_mcts_seed failed")

    @overload
    def choose(self, game: Game, stats: Literal[False] = ...) -> Action: ...

    @overload
    def choose(self, game: Game, stats: Literal[True]) -> Tuple[Action, SearchStats]: ...

    @overload
    def choose(self, game: Game, stats: bool) -> Union[Action, Tuple[Action, SearchStats]]: ...

    def choose(self, game: Game, stats: bool = False) -> Union[Action, Tuple[Action, SearchStats]]:
        """Searches the position of ``game`` within the budget and returns
        the decision chosen for the coach to act (legal there; not played:
        the game is left as it was). An immediate touchdown, and the only
        legal decision, are returned without search. With ``stats=True``,
        returns ``(action, SearchStats)``; ``last_stats`` holds the
        statistics either way. Raises RangeError when the game is over,
        ClosedGameError when the searcher or the game is closed."""
        if not isinstance(game, Game):
            raise ArgumentError("MCTS.choose() takes a libball.Game, not %s"
                                % type(game).__name__, _n.E_ARG)
        with self._lock:
            handle = self._live()
            st = self._stats
            st.size = ctypes.sizeof(st)
            with game._lock:
                g = game._live()
                rc = self._choose(handle, g, ctypes.byref(self._out), ctypes.byref(st))
                if rc < 0:
                    result = _lib.ball_result(g)
                    if rc == _n.E_RANGE and result != _n.ONGOING:
                        raise RangeError("the game is over (%s): there is no decision to "
                                         "choose" % _RESULT_TEXT.get(result, result), rc)
                    raise error_for(rc, "ball_mcts_choose: %s"
                                    % _lib.ball_strerror(rc).decode(errors="replace"))
            action = _action(self._out.value)
            last = SearchStats(int(st.playouts), int(st.nodes), int(st.max_depth),
                               int(st.visits), float(st.value), float(st.elapsed_ms))
            self._last = last
        return (action, last) if stats else action

    @property
    def last_stats(self) -> Optional[SearchStats]:
        """The statistics of the last ``choose()`` (None before the first)."""
        return self._last


_RESULT_TEXT = {_n.ATK_WON: "ATK won", _n.DEF_WON: "DEF won", _n.DRAW: "a draw"}


def _real(value: object, what: str) -> float:
    """``value`` as a C double: an int or a float, not a bool nor a str."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentError("%s is a number, not %r" % (what, value), _n.E_ARG)
    try:
        return float(value)
    except OverflowError:
        raise RangeError("%s %d out of range" % (what, value), _n.E_RANGE) from None


__all__ = ["MCTS", "SearchStats"]
