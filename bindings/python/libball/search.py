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

The turn search (ball_search of ball.h, section "Turn search"; the
library's strongest player): ``TurnSearch``.

    with libball.TurnSearch(nodes=200000) as search, libball.Game() as game:
        result = search.analyse(game)       # the game is left as it was
        print(result.best, result.value, result.best_turn)

With ``info=callable`` (and ``info_every_ms=N``) the callable receives a
``SearchInfo`` (nodes, depth, value, proven, elapsed_ms, pv) during each
run; returning True stops the run, an exception stops it and is raised
again by ``choose()`` / ``analyse()``.
"""

import ctypes
import threading
import weakref
from typing import (Any, Callable, List, Literal, NamedTuple, NoReturn, Optional, Tuple, Union,
                    overload)

from . import _native as _n
from .errors import ArgumentError, BallError, ClosedGameError, RangeError, error_for
from .game import Action, Game, _action, _c_int, _Owned
from .net import Net, _search_eval_fn

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


class SearchLine(NamedTuple):
    """One root decision after a ``TurnSearch`` run (struct
    ball_search_line)."""

    #: The root decision.
    action: Action
    #: Its value for the coach to act at the root, in [-1, 1].
    value: float
    #: False: ``value`` is exact at ``depth``; True: it is an upper bound
    #: (the decision was shown to be no better than the best).
    bound: bool
    #: +1 proven win, -1 proven loss, 0 not proven.
    proven: int
    #: The depth in turns of the search that gave ``value``.
    depth: int
    #: Nodes spent on this decision in that search.
    nodes: int
    #: The principal variation: ``action``, the rest of its turn and the
    #: opponent's reply turn, each legal when replayed.
    pv: List[Action]


class SearchResult(NamedTuple):
    """What one ``TurnSearch.analyse()`` found (struct ball_search_result,
    with ball_search_lines() and ball_search_best_turn())."""

    #: The decision to play.
    best: Action
    #: Its value for the coach to act, in [-1, 1]: +1 a proven win, -1 a
    #: proven loss, in between the evaluation (0 about even).
    value: float
    #: +1 proven win, -1 proven loss, 0 not proven.
    proven: int
    #: For a proven value: decisions (both coaches') to the touchdown,
    #: counting the best one; else 0.
    decisions_to_end: int
    #: The deepest search completed, in turns.
    depth: int
    #: Nodes searched, by all threads.
    nodes: int
    #: Time the run took, in milliseconds.
    elapsed_ms: float
    #: True when ``stop()`` or the info callback stopped the run (not when
    #: a budget ran out).
    stopped: bool
    #: The root decisions searched, best first (the first ``multipv`` exact).
    lines: List[SearchLine]
    #: The best turn as far as the run knows it: ``best`` and the rest of
    #: its turn, up to the hand-over (or the touchdown). It ends earlier
    #: (the coach to act still to act after its last decision) when the
    #: position had a single legal decision (answered without a search,
    #: ``depth`` 0: that decision alone on a new or cleared searcher), when
    #: the budget or a stop ended the run before depth 1 (``depth`` 0: the
    #: decisions searched so far, often ``best`` alone), or, rarely, when
    #: the searcher's table lost an entry of the turn
    #: (ball_search_best_turn()). Check ``game.side`` after playing it.
    best_turn: List[Action]


class SearchInfo(NamedTuple):
    """The progress of a ``TurnSearch`` run, as its info callback receives
    it (struct ball_search_info)."""

    #: Nodes (decisions played) so far, by the calling thread.
    nodes: int
    #: The deepest search completed, in turns (0 before the first).
    depth: int
    #: The value of the best decision so far, as ``SearchResult.value``.
    value: float
    #: +1 proven win, -1 proven loss, 0 not proven.
    proven: int
    #: Milliseconds since the run began.
    elapsed_ms: float
    #: The principal variation so far, from the root: the best decision, the
    #: rest of its turn and the opponent's reply (each legal when replayed;
    #: ``" ".join(map(str, pv))`` is its text).
    pv: List[Action]


#: What an info callback may be: it receives a SearchInfo; a true return
#: stops the run.
InfoCallback = Callable[[SearchInfo], Any]

#: The names ``TurnSearch(eval=...)`` takes besides a Net.
EvalName = Literal["network", "hand"]
#: Those names, as ball_search_config::eval's values.
_EVALS = {"network": _n.EVAL_NETWORK, "hand": _n.EVAL_HAND}


class TurnSearch(_Owned):
    """The library's turn search (alpha-beta by whole turns, with a
    transposition table): ``ball_search_new()``.

    ``TurnSearch(nodes=200000, time_ms=0, depth=0, threads=1, seed=1,
    multipv=1, hash_mb=16)``: the budget of a run is ``nodes`` decisions
    played (0: no limit), ``time_ms`` milliseconds of wall clock (0: no
    limit) and ``depth`` turns (0: up to 64), the first reached stops it;
    ``threads`` search in parallel (1-64; more than one makes the results
    not repeatable); ``seed`` (0 to 2**64 - 1) breaks ties between equal
    evaluations; ``multipv`` root decisions (1-256) get exact values;
    ``hash_mb`` sizes the transposition table (1-65536 MiB, allocated here).
    ``info`` (a callable, keyword only) is called during each run with a
    ``SearchInfo`` (nodes, depth, value, proven, elapsed_ms, pv) at the end
    of each depth and, with ``info_every_ms`` > 0 (0-86400000), about every
    ``info_every_ms`` milliseconds; see "Info callback" below.
    ``eval`` (keyword only) chooses how the leaves are evaluated:
    ``"network"`` (the default; None means the same), the learned network
    the library carries (``BALL_EVAL_NETWORK``: ``share/net/nnue.net``,
    stronger at equal time, docs/players.md); ``"hand"``, the hand-written
    evaluation alone (``BALL_EVAL_HAND``: the evaluation of libball 1.0,
    whose values and decisions earlier versions gave by default); or a
    ``libball.Net`` (experimental), whose value replaces the evaluation
    (``ball_search_set_eval()`` with ``ball_net_search_eval``: the network
    runs in C, no Python at the leaves); the searcher keeps the net, and a
    run holds the net's lock, so closing the net waits for the run.
    Anything else raises ArgumentError naming the accepted values.
    The library checks the values (ArgumentError with its message, e.g. for
    threads=0 or no budget at all); a non-integral number raises
    ArgumentError, an int the C field cannot hold RangeError.

    ``choose(game)`` returns the decision (an ``Action``) for the coach to
    act; ``analyse(game)`` returns a ``SearchResult`` (the value, the root
    lines with their principal variations, the best whole turn). Both leave
    the game as it was and raise RangeError when the game is over. The
    searcher keeps its table between runs (a turn's later decisions reuse
    what the first found); ``clear()`` forgets it. With a budget in nodes
    only (and one thread) the same runs on a fresh searcher give the same
    results, as the C API's and ``selfplay --atk search:nodes=N``.

    ``stop()`` may be called from another thread during a run: the run
    returns promptly with the best decision found so far (``stopped`` is
    True). Every other call on one searcher is serialised by its lock (a
    run also holds the game's lock); ctypes releases the GIL during the
    run. ``close()``, the end of a ``with`` block or the garbage collector
    frees the C memory; a closed searcher raises ClosedGameError. A
    searcher cannot be pickled or copied.

    Info callback: it runs in the thread that called ``choose()`` or
    ``analyse()`` (the library's helper threads, with ``threads`` > 1, never
    call it), holding the GIL (ctypes takes it for the call; the run itself
    releases it), while the search waits: keep it short. A true return
    stops the run as ``stop()`` does (``stopped`` is True). An exception in
    it (any BaseException, KeyboardInterrupt included) stops the run and is
    raised again by ``choose()`` / ``analyse()`` once the run has returned;
    the searcher and the game stay usable. Inside it the game being
    searched reads as closed (ClosedGameError; ``game.closed`` is True
    then, in other threads too), and the searcher raises ArgumentError for
    every call but ``stop()``: the search is using both.
    """

    _what = "turn searcher"

    def __init__(self, nodes: int = 200000, time_ms: int = 0, depth: int = 0, threads: int = 1,
                 seed: int = 1, multipv: int = 1, hash_mb: int = 16, *,
                 info: Optional[InfoCallback] = None, info_every_ms: int = 0,
                 eval: Union[EvalName, Net, None] = "network") -> None:
        self._lock = threading.RLock()
        if eval is None:
            eval = "network"
        if not isinstance(eval, Net) and (not isinstance(eval, str) or eval not in _EVALS):
            raise ArgumentError('eval is "network", "hand" or a libball.Net, not %r' % (eval,),
                                _n.E_ARG)
        if not _n.has("ball_search_new"):
            raise BallError("the loaded libball (%s) has no turn search (ball_search_new)"
                            % _n.path)
        cfg = _n.BallSearchConfig()
        _lib.ball_search_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg))
        cfg.nodes = _c_int(nodes, "nodes", 0, _n.UINT64_MAX)
        cfg.time_ms = _c_int(time_ms, "time_ms")
        cfg.depth = _c_int(depth, "depth")
        cfg.threads = _c_int(threads, "threads")
        cfg.seed = _c_int(seed, "seed", 0, _n.UINT64_MAX)
        cfg.multipv = _c_int(multipv, "multipv")
        cfg.hash_mb = _c_int(hash_mb, "hash_mb")
        cfg.info_every_ms = _c_int(info_every_ms, "info_every_ms")
        # A Net replaces the evaluation: the searcher need not load its own
        # copy of the built-in network (about 1 MB) for nothing.
        cfg.eval = _EVALS["hand" if isinstance(eval, Net) else eval]
        if info is not None and not callable(info):
            raise ArgumentError("info is a callable, not %r" % (info,), _n.E_ARG)
        self._info = info
        self._info_error: Optional[BaseException] = None
        self._running: Optional[Game] = None  # the game of the run in progress
        self._info_cb: Optional[Any] = None  # the C callback, alive as long as the searcher
        if info is not None:
            self._info_cb = _n.SEARCH_CONFIG_INFO_FN(_trampoline(weakref.ref(self)))
            cfg.info = self._info_cb
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_n.ERR_MAX)
        rc = _lib.ball_search_new(ctypes.byref(handle), ctypes.byref(cfg), err, len(err))
        if rc < 0 or handle.value is None:
            raise error_for(rc if rc < 0 else _n.E_NOMEM, err.value.decode(errors="replace"))
        self._config = (int(cfg.nodes), int(cfg.time_ms), int(cfg.depth), int(cfg.threads),
                        int(cfg.seed), int(cfg.multipv), int(cfg.hash_mb))
        self._info_every_ms = int(cfg.info_every_ms)
        self._result = _n.BallSearchResult()
        self._lines = (_n.BallSearchLine * _n.MAX_ACTIONS)()
        for line in self._lines:
            _lib.ball_search_line_init(ctypes.byref(line), ctypes.sizeof(line))
        self._stop_lock = threading.Lock()  # stop() against close(), without the run's lock
        self._turn = (ctypes.c_uint32 * _SEARCH_PV_MAX)()
        # Kept on the instance so that __del__ works during interpreter exit.
        self._free = _lib.ball_search_free
        self._run = _lib.ball_search_run
        self._stop = _lib.ball_search_stop
        self._handle = handle.value
        self._net: Optional[Net] = None
        self._eval: Union[EvalName, Net] = eval
        self._eval_fn: Optional[Any] = None  # the C function pointer, alive with the searcher
        if isinstance(eval, Net):
            self._eval_fn = _search_eval_fn()
            with eval._lock:
                rc = _lib.ball_search_set_eval(self._handle, self._eval_fn, eval._live())
            if rc < 0:
                raise error_for(rc, "ball_search_set_eval failed")
            self._net = eval

    # -------------------------------------------------- settings

    @property
    def nodes(self) -> int:
        """Nodes a run (0: no limit)."""
        return self._config[0]

    @property
    def time_ms(self) -> int:
        """Milliseconds a run (0: no limit)."""
        return self._config[1]

    @property
    def depth(self) -> int:
        """Deepest search in turns (0: up to 64)."""
        return self._config[2]

    @property
    def threads(self) -> int:
        """Search threads."""
        return self._config[3]

    @property
    def seed(self) -> int:
        """The seed that breaks ties between equal evaluations."""
        return self._config[4]

    @property
    def multipv(self) -> int:
        """Root decisions whose value is searched exactly."""
        return self._config[5]

    @property
    def hash_mb(self) -> int:
        """Size of the transposition table in MiB."""
        return self._config[6]

    @property
    def info(self) -> Optional[InfoCallback]:
        """The info callback (None for none)."""
        return self._info

    @property
    def eval(self) -> Union[EvalName, Net]:
        """How the leaves are evaluated: ``"network"`` (the library's
        built-in network, the default), ``"hand"`` (the hand-written
        evaluation) or the ``libball.Net`` given."""
        return self._eval

    @property
    def info_every_ms(self) -> int:
        """How often the info callback is called besides the end of each
        depth, in milliseconds (0: only then)."""
        return self._info_every_ms

    def __repr__(self) -> str:
        """``libball.TurnSearch(...)`` with the settings it was created with."""
        text = ("libball.TurnSearch(nodes=%d, time_ms=%d, depth=%d, threads=%d, seed=%d, "
                "multipv=%d, hash_mb=%d" % self._config)
        if self._info is not None:
            text += ", info=%r, info_every_ms=%d" % (self._info, self._info_every_ms)
        if self._eval != "network":
            text += ", eval=%r" % (self._eval,)
        text += ")"
        return text if self._handle is not None else "<closed %s>" % text

    def __reduce__(self) -> NoReturn:
        raise TypeError("a libball.TurnSearch cannot be pickled or copied (its table lives "
                        "in C): make a new one, e.g. %r" % (self,))

    # -------------------------------------------------- searching

    def _search(self, game: Game, what: str) -> int:
        """Runs the search on ``game`` (under both locks, held by the
        caller for the searcher); returns the handle."""
        if not isinstance(game, Game):
            raise ArgumentError("TurnSearch.%s() takes a libball.Game, not %s"
                                % (what, type(game).__name__), _n.E_ARG)
        handle = self._idle(what)
        res = self._result
        _lib.ball_search_result_init(ctypes.byref(res), ctypes.sizeof(res))
        with game._lock:
            g = game._live()
            self._running = game
            self._info_error = None
            try:
                if self._net is not None:
                    with self._net._lock:  # the net stays open during the run
                        self._net._live()
                        rc = self._run(handle, g, ctypes.byref(res))
                else:
                    rc = self._run(handle, g, ctypes.byref(res))
            finally:
                self._running = None
            error, self._info_error = self._info_error, None
            if error is not None:
                raise error
            if rc < 0:
                result = _lib.ball_result(g)
                if rc == _n.E_RANGE and result != _n.ONGOING:
                    raise RangeError("the game is over (%s): there is no decision to "
                                     "search" % _RESULT_TEXT.get(result, result), rc)
                message = _lib.ball_errmsg(g).decode(errors="replace") \
                    if _n.has("ball_errmsg") else ""
                raise error_for(rc, "ball_search_run: %s" % (
                    message or _lib.ball_strerror(rc).decode(errors="replace")))
        return handle

    def _idle(self, what: str) -> int:
        """The handle, when no run of this searcher is in progress in this
        thread (its info callback calling it); call with the lock held."""
        handle = self._live()
        if self._running is not None:
            raise ArgumentError("TurnSearch.%s(): the searcher is running a search (called "
                                "from its info callback?)" % what, _n.E_ARG)
        return handle

    def choose(self, game: Game) -> Action:
        """Searches the position of ``game`` within the budget and returns
        the decision for the coach to act (legal there; not played: the
        game is left as it was). Raises RangeError when the game has no
        legal decision (it is over), ClosedGameError when the searcher or
        the game is closed, and what the info callback raised."""
        with self._lock:
            self._search(game, "choose")
            return _action(self._result.best)

    def analyse(self, game: Game, lines: bool = True) -> SearchResult:
        """Searches as ``choose()`` does and returns all it found: a
        ``SearchResult`` (the best decision, its value, the root lines best
        first with their principal variations, the best whole turn).
        ``lines=False`` leaves ``lines`` empty: the same search, without
        the cost of building a line object for every root decision (what
        self-play that only keeps the value and the turn wants)."""
        with self._lock:
            handle = self._search(game, "analyse")
            res = self._result
            out = self._root_lines(handle) if lines else []
            m = _lib.ball_search_best_turn(handle, self._turn, len(self._turn))
            if m < 0:
                raise error_for(m, "ball_search_best_turn failed")
            turn = [_action(self._turn[i]) for i in range(m)]
            return SearchResult(_action(res.best), float(res.value), int(res.proven),
                                int(res.decisions_to_end), int(res.depth), int(res.nodes),
                                float(res.elapsed_ms), bool(res.stopped), out, turn)

    def evaluate(self, game: Game) -> float:
        """The value this searcher gives the position of ``game`` as a leaf,
        for the coach to act, in [-1, 1] as ``SearchResult.value`` (its
        evaluation, the built-in network, the hand-written evaluation or the
        ``eval`` Net, squashed the same way; ``ball_search_evaluate()``). No
        search is run."""
        if not isinstance(game, Game):
            raise ArgumentError("TurnSearch.evaluate() takes a libball.Game, not %s"
                                % type(game).__name__, _n.E_ARG)
        value = ctypes.c_double()
        with self._lock:
            handle = self._idle("evaluate")
            with game._lock:
                rc = _lib.ball_search_evaluate(handle, game._live(), ctypes.byref(value))
        if rc < 0:
            raise error_for(rc, "ball_search_evaluate failed")
        return value.value

    def _root_lines(self, handle: int) -> List[SearchLine]:
        lines = self._lines
        n = _lib.ball_search_lines(handle, lines, len(lines))
        if n < 0:
            raise error_for(n, "ball_search_lines failed")
        return [SearchLine(_action(ln.action), float(ln.value), bool(ln.bound),
                           int(ln.proven), int(ln.depth), int(ln.nodes),
                           [_action(ln.pv[i]) for i in range(min(ln.pv_len, _SEARCH_PV_MAX))])
                for ln in lines[:min(n, len(lines))]]

    def stop(self) -> None:
        """Asks the run in progress to stop (ball_search_stop()): it returns
        promptly with the best decision found so far. Callable from another
        thread while ``choose()`` or ``analyse()`` runs (it does not take
        the lock); does nothing when no run is in progress or the searcher
        is closed."""
        with self._stop_lock:
            handle = self._handle
            if handle is not None:
                self._stop(handle)

    def close(self) -> None:
        """Frees the C object now (waits for a run in progress: stop() it
        first to make that prompt; from the info callback of that run it
        raises ArgumentError). Further use raises ClosedGameError; closing
        twice is harmless."""
        lock = self.__dict__.get("_lock")
        stop_lock = self.__dict__.get("_stop_lock")
        if lock is None or stop_lock is None:  # __init__ failed before the C object existed
            return
        with lock, stop_lock:
            if self.__dict__.get("_running") is not None:
                raise ArgumentError("TurnSearch.close(): the searcher is running a search "
                                    "(called from its info callback?)", _n.E_ARG)
            handle, self._handle = self._handle, None
            if handle is not None:
                self._free(handle)

    def clear(self) -> None:
        """Forgets what earlier runs stored in the table (ball_search_clear()):
        the next run searches as a new searcher would."""
        with self._lock:
            rc = _lib.ball_search_clear(self._idle("clear"))
        if rc < 0:
            raise error_for(rc, "ball_search_clear failed")


_SEARCH_PV_MAX = 64  # BALL_SEARCH_PV_MAX


def _trampoline(ref: "weakref.ReferenceType[TurnSearch]") -> Callable[[Any, Any], int]:
    """The C info callback of one searcher (held through a weak reference,
    so that an info callable that refers to its searcher makes no cycle
    through C): builds the SearchInfo, calls the callable with the game
    hidden, keeps what it raised for the run to raise; nonzero stops."""

    def info_cb(ud: Any, p: Any) -> int:
        search = ref()
        if search is None or search._info_error is not None or search._info is None:
            return 1
        try:
            info = p.contents
            n = max(0, min(int(info.pv_len), _SEARCH_PV_MAX))
            pv = [_action(info.pv[i]) for i in range(n)]
            si = SearchInfo(int(info.nodes), int(info.depth), float(info.value),
                            int(info.proven), float(info.elapsed_ms), pv)
            game = search._running
            hidden = game._handle if game is not None else None
            if game is not None:
                game._handle = None  # the game reads as closed: the search is using it
            try:
                stop = search._info(si)
            finally:
                if game is not None:
                    game._handle = hidden
            return 1 if stop else 0
        except BaseException as exc:  # raised again by the run: nothing may unwind into C
            search._info_error = exc
            return 1

    return info_cb


_RESULT_TEXT = {_n.ATK_WON: "ATK won", _n.DEF_WON: "DEF won", _n.DRAW: "a draw"}


def _real(value: object, what: str) -> float:
    """``value`` as a C double: an int or a float, not a bool nor a str."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentError("%s is a number, not %r" % (what, value), _n.E_ARG)
    try:
        return float(value)
    except OverflowError:
        raise RangeError("%s %d out of range" % (what, value), _n.E_RANGE) from None


__all__ = ["EvalName", "InfoCallback", "MCTS", "SearchInfo", "SearchLine", "SearchResult",
           "SearchStats", "TurnSearch"]
