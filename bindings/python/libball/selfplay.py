# SPDX-License-Identifier: MIT
"""Self-play at scale that keeps what it computes (docs/scale.md).

    python3 -m libball.selfplay --games 10000 --out runs/g1 --workers 2
    python3 -m libball.selfplay --games 10000 --out runs/g1 --scheduler tls://10.0.0.5:8786 ...
    python3 -m libball.selfplay --games 100 --out runs/g0 --workers 0      # in this process

Game i (1 to N) is played with seed S + i by the players of ``--atk`` and
``--def``, named as for the C ``selfplay`` example (``random``,
``greedy``, ``mcts[:playouts=N,ms=T,turns=K,c=X]``,
``search[:nodes=N,ms=T,depth=D,eval=E,net=FILE]``), and it is the same
game: the players are seeded as ``selfplay`` seeds them, so the records
equal ``selfplay --record``'s byte for byte. The games are cut into
chunks of ``--chunk`` games on a fixed grid (games 1-K, K+1-2K, ...);
every chunk finished goes to ``--out`` at once, written atomically:

- ``seeds-A-B.records``: the game records of seeds A to B (docs/records.md;
  ``ball replay`` reads them),
- ``seeds-A-B.npz``: the training shard (``libball.shards``: packed
  observations and legal masks, action indices, policy targets, returns,
  side to act),
- ``seeds-A-B.json``: the chunk's digests and counts, written last: a
  chunk is on disk when its ``.json`` is.

``manifest.json`` holds the parameters, the library version, and after a
run the list of chunks with their digests and the SHA-256 of all records
in seed order. Rerunning the same command (the same or a larger
``--games``) skips the seed ranges already on disk: the result equals one
uninterrupted run. Other parameters than ``--games`` (and the cluster,
window and progress options) must equal the manifest's. One driver at a
time holds a folder (``.lock``, flock).

The function API is ``run(out, games, ...)`` with the same parameters; it
returns the summary the tool prints as JSON.
"""

import argparse
import ctypes
import fcntl
import hashlib
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from . import _native as _n
from .errors import BallError

MANIFEST = "manifest.json"
LOCK = ".lock"
FORMAT = "libball-selfplay/1"
#: The project's one documented default turn limit for automated games
#: (learn.AUTO_TURN_LIMIT, docs/rules-choices.md): used when neither
#: ``turn_limit`` nor the ``turns=`` of the rules text sets one.
DEFAULT_TURN_LIMIT = 100
SEED_MAX = 2 ** 32 - 1   # the C selfplay seeds 32-bit streams
CHUNK_MAX = 100000
EXIT_USAGE = 2


class UsageError(ValueError):
    """A parameter refused before anything runs (exit status 2)."""


class RunError(RuntimeError):
    """A run that could not finish (exit status 1); what is on disk stays."""


# ---------------------------------------------------------------- players
#
# One function reads a player name; a new kind of player is one entry of
# PLAYER_KINDS (its settings, their ranges) and one branch of make_player().

#: kind -> {setting: (type, low, high)}; None: the kind takes no settings.
PLAYER_KINDS: Dict[str, Optional[Dict[str, Tuple[type, float, float]]]] = {
    "random": None,
    "greedy": None,
    "mcts": {"playouts": (int, 0, 1000000000), "ms": (int, 0, 86400000),
             "turns": (int, 0, 1000), "c": (float, 0, 100)},
    "search": {"nodes": (int, 0, 10 ** 12), "ms": (int, 0, 86400000), "depth": (int, 0, 64),
               "hash": (int, 1, 65536), "eval": (str, 0, 0), "net": (str, 0, 0)},
}
#: kind -> {setting: the values it takes}: the settings that name one of a
#: few choices (the other str settings name a file).
PLAYER_CHOICES: Dict[str, Dict[str, Tuple[str, ...]]] = {
    "search": {"eval": ("network", "hand")},
}


@dataclass(frozen=True)
class PlayerSpec:
    kind: str
    settings: Tuple[Tuple[str, Any], ...] = ()

    @property
    def searcher(self) -> bool:
        return self.kind in ("mcts", "search")


def parse_player(name: str) -> PlayerSpec:
    """The player of a name as the C examples take it: ``random``,
    ``greedy``, ``mcts`` or ``mcts:key=value,...`` (playouts, ms, turns,
    c), ``search`` or ``search:key=value,...`` (nodes, ms, depth; a budget
    named alone is the only one; ``eval=network``, the default, or
    ``eval=hand``: TurnSearch's evaluation; ``net=FILE``: the network file
    FILE as the evaluation, experimental). UsageError with what is wrong."""
    if not isinstance(name, str):
        raise UsageError("a player is a name, not %r" % (name,))
    kind, _, rest = name.partition(":")
    if kind not in PLAYER_KINDS:
        raise UsageError("unknown player %r: the players are %s (e.g. mcts:playouts=200)"
                         % (name, ", ".join(PLAYER_KINDS)))
    allowed = PLAYER_KINDS[kind]
    if not rest:
        if ":" in name:
            raise UsageError("player %r: nothing after ':'" % name)
        return PlayerSpec(kind)
    if allowed is None:
        raise UsageError("player %r: %s takes no settings" % (name, kind))
    settings = {}
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        if not eq or key not in allowed:
            raise UsageError("player %r: bad setting %r (settings of %s: %s, as key=value)"
                             % (name, item, kind, ", ".join(allowed)))
        typ, lo, hi = allowed[key]
        choices = PLAYER_CHOICES.get(kind, {}).get(key)
        if choices is not None:
            if value not in choices:
                raise UsageError("player %r: %s=%s: %s is %s" % (
                    name, key, value, key, " or ".join(choices)))
            settings[key] = value
            continue
        if typ is str:
            if not value:
                raise UsageError("player %r: %s= names nothing" % (name, key))
            if not os.path.isfile(value):
                raise UsageError("player %r: %s=%s is not a file" % (name, key, value))
            settings[key] = value
            continue
        try:
            v = typ(value)
        except ValueError:
            raise UsageError("player %r: %s=%s is not a%s %s" % (
                name, key, value, "n" if typ is int else "", "integer" if typ is int
                else "number")) from None
        if not lo <= v <= hi:
            raise UsageError("player %r: %s=%s out of range %s-%s" % (name, key, value, lo, hi))
        settings[key] = v
    if kind == "mcts" and settings.get("playouts", 1) == 0 and settings.get("ms", 0) == 0 \
            and ("playouts" in settings or "ms" in settings):
        raise UsageError("player %r: a budget of 0 playouts and 0 ms never stops" % name)
    if kind == "search" and not settings.get("nodes") and not settings.get("ms") \
            and not settings.get("depth"):
        raise UsageError("player %r: no budget: set nodes, ms or depth" % name)
    if "eval" in settings and "net" in settings:
        raise UsageError("player %r: eval= and net= both choose the evaluation: give one"
                         % name)
    return PlayerSpec(kind, tuple(sorted(settings.items())))


def _xorshift32(x: int) -> int:
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


class _Random:
    """The C examples' random player: two xorshift32 draws make the 64 bits
    of ball_random_action()."""

    def __init__(self) -> None:
        self.rng = 1

    def seed(self, seed: int) -> None:
        self.rng = seed or 1

    def choose(self, game: Any) -> Tuple[Any, Optional[List[Tuple[int, float]]]]:
        hi = self.rng = _xorshift32(self.rng)
        lo = self.rng = _xorshift32(self.rng)
        return game.random_action(hi << 32 | lo), None

    def close(self) -> None:
        pass


def _forward_row(sq: int, team: int) -> int:
    row = _n.lib.ball_square_row(sq)
    return int(row) if team == _n.ATK else int(_n.NUM_ROWS + 1 - row)


_ROWS: Optional[List[Tuple[int, int]]] = None


def _evaluate(g: int, team: int) -> int:
    """player_evaluate() of examples/common/players.c, on a game handle."""
    global _ROWS
    lib = _n.lib
    if _ROWS is None:
        _ROWS = [(_forward_row(sq, _n.ATK), _forward_row(sq, _n.DEF))
                 for sq in range(_n.NUM_SQUARES)]
    result = lib.ball_result(g)
    won, lost = ((_n.ATK_WON, _n.DEF_WON) if team == _n.ATK else (_n.DEF_WON, _n.ATK_WON))
    if result == won:
        return 1000000
    if result == lost:
        return -1000000
    ball_sq = lib.ball_square_of_ball(g)
    carrier = lib.ball_piece(g, ball_sq, _n.UPPER)
    ball_row = _ROWS[ball_sq][team]
    own = 0 if team == _n.ATK else _n.PIECE_DEF
    score = 0
    if carrier > 0 and (carrier & _n.PIECE_DEF) == own:
        score += 1000 + 100 * ball_row
    elif carrier > 0:
        score -= 1000 + 100 * (_n.NUM_ROWS + 1 - ball_row)
    else:
        score += 50 * ball_row
    piece = lib.ball_piece
    for sq in range(_n.NUM_SQUARES):
        p = piece(g, sq, _n.UPPER)
        if p <= 0:
            continue
        if (p & _n.PIECE_DEF) != own:
            if p & _n.PIECE_DOWN:
                score += 20
        else:
            if p & _n.PIECE_DOWN:
                score -= 20
            score += _ROWS[sq][team]
    return score


class _Greedy:
    """The C examples' greedy player: one decision of lookahead scored by
    player_evaluate(), the first best in list order."""

    def seed(self, seed: int) -> None:
        pass

    def choose(self, game: Any) -> Tuple[Any, Optional[List[Tuple[int, float]]]]:
        lib = _n.lib
        with game._lock:
            g = game._live()
            team = lib.ball_side(g)
            best, best_score = None, 0
            for a in game.legal_actions():
                rc = lib.ball_apply(g, int(a))
                if rc < 0:
                    game._check(rc)
                score = _evaluate(g, team)
                lib.ball_undo(g)
                if best is None or score > best_score:
                    best, best_score = a, score
        return best, None

    def close(self) -> None:
        pass


_ROOT_PROTO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32),
                               ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p, ctypes.c_size_t)
_root_fn: Any = None


def root_decisions_available() -> bool:
    """True when the loaded library has ball_mcts_root_decisions()
    (experimental tier), which gives the searcher's visit counts."""
    return _n.has("ball_mcts_root_decisions")


class _Mcts:
    """The library's MCTS (libball.MCTS) seeded as the C examples seed it;
    the policy target is its visit distribution over the root decisions
    (ball_mcts_root_decisions(), called through ctypes here: the binding
    has no wrapper for the experimental tier)."""

    def __init__(self, settings: Dict[str, Any]) -> None:
        global _root_fn
        from .search import MCTS
        kw: Dict[str, Any] = {}
        if "ms" in settings:
            kw["time_ms"] = settings["ms"]
            if "playouts" not in settings:
                kw["playouts"] = 0
        if "playouts" in settings:
            kw["playouts"] = settings["playouts"]
        if "turns" in settings:
            kw["playout_turns"] = settings["turns"]
        if "c" in settings:
            kw["exploration"] = settings["c"]
        self.mcts = MCTS(**kw)
        if _root_fn is None and root_decisions_available():
            _root_fn = _ROOT_PROTO(("ball_mcts_root_decisions", _n.lib))
        self.acts = (ctypes.c_uint32 * _n.MAX_ACTIONS)()
        self.visits = (ctypes.c_uint32 * _n.MAX_ACTIONS)()

    def seed(self, seed: int) -> None:
        self.mcts.seed(seed or 1)

    def choose(self, game: Any) -> Tuple[Any, Optional[List[Tuple[int, float]]]]:
        from .learn import action_to_index
        action = self.mcts.choose(game)
        if _root_fn is None:
            return action, None
        n = _root_fn(self.mcts._live(), self.acts, self.visits, None, _n.MAX_ACTIONS)
        n = min(n, _n.MAX_ACTIONS)
        total = sum(self.visits[:n])
        if n <= 0 or total <= 0:
            return action, None
        policy = sorted((action_to_index(game, self.acts[k]), self.visits[k] / total)
                        for k in range(n) if self.visits[k])
        return action, policy

    def close(self) -> None:
        self.mcts.close()


class _Search:
    """The library's turn search (libball.TurnSearch) configured and seeded
    as player_parse() and player_seed() of examples/common/players.c do: a
    budget named alone is the only one, the seed breaks ties, and each
    seed() makes a new searcher (an empty table). ``eval=`` (network, the
    default, or hand) or ``net=FILE`` is TurnSearch's ``eval``. The policy target is
    one-hot on the decision played: an alpha-beta's nodes per root
    decision measure the work of refuting it, not a preference (at 200,000
    nodes in issue 25's position the best decision took 619 nodes and a
    worse one 41,438), so they are no distribution to learn."""

    def __init__(self, settings: Dict[str, Any]) -> None:
        budget = {k: v for k, v in settings.items() if k in ("nodes", "ms", "depth")}
        self.kw: Dict[str, Any] = {"nodes": settings.get("nodes", 0 if budget else 200000),
                                   "time_ms": settings.get("ms", 0),
                                   "depth": settings.get("depth", 0),
                                   "hash_mb": settings.get("hash", 16)}
        self.search: Any = None
        self.net: Any = None
        self.eval: str = settings.get("eval", "network")
        if settings.get("net"):
            from .net import Net
            try:
                self.net = Net.from_file(settings["net"])
            except OSError as e:
                raise UsageError("search net=%s: %s" % (settings["net"], e.strerror)) from None
            except BallError as e:  # a file the library refuses: its message says why
                raise UsageError("search net=%s: %s" % (settings["net"], e)) from None
        self.seed(1)

    def seed(self, seed: int) -> None:
        from .search import TurnSearch
        new = TurnSearch(seed=seed or 1, eval=self.net if self.net is not None else self.eval,
                         **self.kw)
        if self.search is not None:
            self.search.close()
        self.search = new

    def choose(self, game: Any) -> Tuple[Any, Optional[List[Tuple[int, float]]]]:
        from .learn import action_to_index
        best = self.search.choose(game)
        return best, [(action_to_index(game, best), 1.0)]

    def choose_turn(self, game: Any) -> Tuple[List[Any], float, int]:
        """The search's best whole turn from ``game`` (up to the hand-over,
        or shorter: ball_search_best_turn()), the value of the position for
        the coach to act in [-1, 1], and the nodes searched: the label of a
        values shard (docs/scale.md)."""
        res = self.search.analyse(game, lines=False)
        return list(res.best_turn) or [res.best], float(res.value), int(res.nodes)

    def close(self) -> None:
        if self.search is not None:
            self.search.close()
        if self.net is not None:
            self.net.close()


def make_player(spec: PlayerSpec) -> Any:
    """A player object (seed(), choose(game) -> (action, policy or None),
    close()) for a parsed name."""
    if spec.kind == "random":
        return _Random()
    if spec.kind == "greedy":
        return _Greedy()
    if spec.kind == "mcts":
        return _Mcts(dict(spec.settings))
    if spec.kind == "search":
        return _Search(dict(spec.settings))
    raise UsageError("no player %r" % spec.kind)  # parse_player() lists the kinds


# ---------------------------------------------------------------- parameters


@dataclass
class Params:
    """What makes a folder's games: everything but how many there are."""

    atk: str = "greedy"
    dfn: str = "random"
    rules: str = ""             # the rules text, canonical (Game.rules_text)
    start: Optional[str] = None  # BPN; None: the ruleset's standard start
    seed: int = 1
    chunk: int = 10
    obs_flags: int = 0
    shards: bool = True
    max_decisions: int = 100000  # a game stopped there is recorded unfinished ('*')
    values: bool = False         # shards of search values at turn starts (format 2)
    random_opening: int = 0      # each game starts with 0 to N random decisions
    random_turns: int = 0        # values: per mille of turns played at random after the label


def check_params(games: int, p: Params, turn_limit: Optional[int] = None,
                 task_seconds: float = 3600.0, retries: int = 2, window: Optional[int] = None,
                 workers: int = 2) -> Params:
    """Checks every parameter (UsageError with what is wrong) and returns
    the parameters with the rules text made canonical (the turn limit
    folded in). Nothing is started before this has passed."""
    from .game import Game

    def integer(v: Any, what: str, lo: int, hi: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise UsageError("%s is an integer, not %r" % (what, v))
        if not lo <= v <= hi:
            raise UsageError("%s is %d to %d, not %d" % (what, lo, hi, v))
        return v

    integer(games, "--games", 1, SEED_MAX)
    integer(p.chunk, "--chunk", 1, CHUNK_MAX)
    integer(p.seed, "--seed", 0, SEED_MAX)
    if p.seed + games > SEED_MAX:
        raise UsageError("--seed %d + --games %d passes 2^32 - 1: seeds are 32-bit"
                         % (p.seed, games))
    integer(p.max_decisions, "--max-decisions", 1, 10 ** 9)
    integer(retries, "--retries", 0, 100)
    integer(workers, "--workers", 0, 1024)
    if window is not None:
        integer(window, "--window", 1, 100000)
    if isinstance(task_seconds, bool) or not isinstance(task_seconds, (int, float)) \
            or not 0 < task_seconds <= 7 * 86400:
        raise UsageError("--task-seconds is a number of seconds above 0 (at most a week), "
                         "not %r" % (task_seconds,))
    if p.obs_flags not in (0, 1, 2, 3):
        raise UsageError("--obs-flags is 0-3 (1 grid, 2 scalar planes), not %r" % (p.obs_flags,))
    for what, name in (("--atk", p.atk), ("--def", p.dfn)):
        try:
            spec = parse_player(name)
            if dict(spec.settings).get("net"):  # loaded once: a file that is no network
                make_player(spec).close()       # is refused before the folder is made
        except UsageError as e:
            raise UsageError("%s: %s" % (what, e)) from None
    if turn_limit is not None:
        integer(turn_limit, "--turn-limit", 0, _n.MAX_TURN - 1)
    try:
        if turn_limit is None:
            with Game(p.start, rules_text=p.rules) as g:
                if g.rules.turn_limit == 0:
                    turn_limit = DEFAULT_TURN_LIMIT
        with Game(p.start, rules_text=p.rules, turn_limit=turn_limit) as g:
            rules = g.rules_text
            start = None if p.start is None else g.bpn
            if g.is_over:
                raise UsageError("--start: the game is over in that position")
    except UsageError:
        raise
    except Exception as e:  # the binding's errors carry the library's message
        raise UsageError("--rules/--start/--turn-limit: %s" % e) from None
    if p.shards:
        from .learn import have_numpy
        if not have_numpy():
            raise UsageError("training shards need numpy (python3-numpy); --no-shards "
                             "writes the records only")
    integer(p.random_opening, "--random-opening", 0, 1000)
    integer(p.random_turns, "--random-turns", 0, 1000)
    if p.random_turns and not p.values:
        raise UsageError("--random-turns is for --values (the positions after a random turn "
                         "are labelled by the search)")
    if p.values:
        if not p.shards:
            raise UsageError("--values writes values shards: it cannot go with --no-shards")
        for what, name in (("--atk", p.atk), ("--def", p.dfn)):
            if parse_player(name).kind != "search":
                raise UsageError("--values labels positions with the turn search's value: "
                                 "%s must be a search player (search:nodes=N,...), not %r"
                                 % (what, name))
    return Params(p.atk, p.dfn, rules, start, p.seed, p.chunk, p.obs_flags, p.shards,
                  p.max_decisions, bool(p.values), p.random_opening, p.random_turns)


def chunk_ranges(games: int, chunk: int) -> List[Tuple[int, int]]:
    """The fixed grid of game numbers: (1, K), (K + 1, 2K), ..., up to games."""
    return [(a, min(a + chunk - 1, games)) for a in range(1, games + 1, chunk)]


def chunk_name(p: Params, first: int, last: int) -> str:
    return "seeds-%010d-%010d" % (p.seed + first, p.seed + last)


# ---------------------------------------------------------------- the task


class BudgetError(RuntimeError):
    pass


def _record_text(game: Any) -> str:
    rec = game.record
    return str(rec()) if callable(rec) else str(rec)


def version_info() -> Dict[str, Any]:
    """What a process runs: library and binding versions, numpy, pid."""
    from . import LIBRARY_PATH, LIBRARY_VERSION, __version__
    from .learn import have_numpy
    return {"library_version": LIBRARY_VERSION, "binding_version": __version__,
            "library_path": LIBRARY_PATH, "numpy": have_numpy(), "pid": os.getpid(),
            "root_decisions": root_decisions_available()}


def _check_deadline(deadline: float, task_seconds: float, p: Params, first: int, last: int,
                    game: int, n: int) -> None:
    if time.monotonic() > deadline:
        raise BudgetError("chunk %s: over its budget of %g s (--task-seconds) in game %d "
                          "after %d decisions" % (chunk_name(p, first, last), task_seconds,
                                                  game, n))


def _play_decisions(game: Any, p: Params, players: List[Any], seed: int, keep: bool,
                    check: Callable[[int], None]) -> Tuple[List[Any], int]:
    """Plays ``game`` to its end, each decision chosen by the player of the
    coach to act; the rows of a decision shard (observation, mask, index,
    side, policy) when ``keep``. Returns (rows, decisions played)."""
    from . import learn
    rows: List[Any] = []
    n = _random_opening(game, p, seed, check)[0]
    while game.result == _n.ONGOING and n < p.max_decisions:
        check(n)
        side = int(game.side)
        if keep:
            obs = bytes(learn.observation_bits(game, p.obs_flags))
            mask = bytes(learn.legal_mask(game, bits=True))
        action, policy = players[side].choose(game)
        if keep:
            rows.append((obs, mask, learn.action_to_index(game, action), side, policy))
        game.apply(action)
        n += 1
    return rows, n


def _random_opening(game: Any, p: Params, seed: int,
                    check: Callable[[int], None]) -> Tuple[int, bool]:
    """The game's first decisions, uniformly random among the legal ones:
    0 to ``p.random_opening`` of them, how many drawn from the seed (a
    stream of its own, so the players' streams are the same as without).
    Returns (decisions played, whether the next one starts a turn)."""
    if p.random_opening <= 0:
        return 0, True
    rng = _Random()
    rng.seed(_xorshift32((seed ^ 0x5BD1E995) & 0xFFFFFFFF) or 1)
    k = _xorshift32(rng.rng) % (p.random_opening + 1)
    n, turn_start = 0, True
    while n < k and game.result == _n.ONGOING and n < p.max_decisions:
        check(n)
        side = int(game.side)
        game.apply(rng.choose(game)[0])
        n += 1
        turn_start = int(game.side) != side
    return n, turn_start


def _play_values(game: Any, p: Params, players: List[Any], seed: int, keep: bool,
                 check: Callable[[int], None]) -> Tuple[List[Any], int]:
    """Plays ``game`` to its end for a values shard: at the start of each
    turn (the first decision of the game or after a hand-over: the
    positions the turn search evaluates at its leaves) the player of the
    coach to act searches once; the position is kept with the search's
    value and budget, and the game plays the search's best turn. Decisions
    of a turn that the best turn did not reach (ball_search_best_turn()
    may stop short) are chosen one at a time, unlabelled. A position is
    kept once a game (by its hash). Returns (rows, decisions played)."""
    rows: List[Any] = []
    seen: Set[int] = set()
    n, turn_start = _random_opening(game, p, seed, check)
    rng = _Random()
    rng.seed(_xorshift32((seed ^ 0x27D4EB2F) & 0xFFFFFFFF) or 1)
    while game.result == _n.ONGOING and n < p.max_decisions:
        check(n)
        side = int(game.side)
        player = players[side]
        if turn_start:
            turn, value, nodes = player.choose_turn(game)
            h = game.hash
            if keep and h not in seen:
                seen.add(h)
                rows.append((game.bpn, h, value, nodes, player.kw["nodes"], side, n,
                             int(game.turn)))
            if p.random_turns and _xorshift32(rng.rng) % 1000 < p.random_turns:
                # a random turn instead of the best one: the next positions
                # are those a search meets at its leaves after a poor turn
                rng.rng = _xorshift32(rng.rng)
                while game.result == _n.ONGOING and n < p.max_decisions \
                        and int(game.side) == side:
                    game.apply(rng.choose(game)[0])
                    n += 1
                turn_start = True
                continue
            rng.rng = _xorshift32(rng.rng)
        else:
            turn = [player.choose(game)[0]]
        for a in turn:
            if game.result != _n.ONGOING or n >= p.max_decisions or int(game.side) != side:
                break
            game.apply(a)
            n += 1
        turn_start = int(game.side) != side
    return rows, n


def play_chunk(params: Dict[str, Any], first: int, last: int,
               expect: Optional[Dict[str, str]] = None,
               task_seconds: float = 3600.0) -> Dict[str, Any]:
    """Plays games ``first`` to ``last`` and returns the chunk: the records
    text, the shard (``.npz`` bytes, or None), their SHA-256, counts and
    the result of the replay check. What a worker runs; a pure function of
    its arguments (a time budget in the players excepted)."""
    from . import learn
    from .game import Game
    from .shards import ShardBuilder, ValueShardBuilder, sha256
    p = Params(**params)
    info = version_info()
    if expect:
        for k, v in expect.items():
            if info.get(k) != v:
                raise RunError("worker pid %d runs %s %s, the driver %s (libball at %s)"
                               % (info["pid"], k, info.get(k), v, info["library_path"]))
    deadline = time.monotonic() + task_seconds
    specs = (parse_player(p.atk), parse_player(p.dfn))
    players = [make_player(s) for s in specs]
    shard: Any = None
    if p.values:
        shard = ValueShardBuilder()
    elif p.shards:
        shard = ShardBuilder(p.obs_flags, learn.observation_size(p.obs_flags),
                             learn.observation_bytes(p.obs_flags), learn.ACTION_MASK_BYTES)
    texts: List[str] = []
    finals: List[Tuple[str, int, int]] = []
    counts = {"ATK": 0, "DEF": 0, "draw": 0, "unfinished": 0}
    decisions = 0
    t0 = time.perf_counter()
    try:
        for i in range(first, last + 1):
            seed = (p.seed + i) & 0xFFFFFFFF
            players[0].seed(seed)
            players[1].seed(seed ^ 0x9E3779B9)
            with Game(p.start, rules_text=p.rules) as game:
                play = _play_values if p.values else _play_decisions
                rows, n = play(game, p, players, seed, shard is not None,
                               lambda n: _check_deadline(deadline, task_seconds, p, first,
                                                         last, i, n))
                decisions += n
                res = int(game.result)
                counts[{_n.ATK_WON: "ATK", _n.DEF_WON: "DEF", _n.DRAW: "draw"}
                       .get(res, "unfinished")] += 1
                if shard is not None:
                    shard.add_game(p.seed + i, rows, learn.returns(game).values)
                game.set_tag("Event", "selfplay game %d, seed %d" % (i, seed))
                game.set_tag("ATK", p.atk)
                game.set_tag("DEF", p.dfn)
                texts.append(_record_text(game))
                finals.append((game.bpn, res, n))
    finally:
        for pl in players:
            pl.close()
    records = "\n".join(texts).encode()
    # the replay check, here on the worker: the records read back give the
    # same games (final position, result, number of decisions)
    from .game import read_records
    replayed = 0
    for j, g in enumerate(read_records(records)):
        with g:
            if j >= len(finals) or (g.bpn, int(g.result), g.history_length) != finals[j]:
                raise RunError("chunk %s: game %d does not replay to the position played "
                               "(a bug: report it)" % (chunk_name(p, first, last), first + j))
            replayed += 1
    if replayed != len(finals):
        raise RunError("chunk %s: %d records read back, %d games played"
                       % (chunk_name(p, first, last), replayed, len(finals)))
    data = shard.to_bytes() if shard is not None else None
    return {"first": first, "last": last, "records": records,
            "records_sha256": sha256(records), "shard": data,
            "shard_sha256": sha256(data) if data is not None else None,
            "games": last - first + 1, "decisions": decisions, "results": counts,
            "replayed": replayed, "pid": info["pid"],
            "seconds": round(time.perf_counter() - t0, 4)}


# ---------------------------------------------------------------- the folder


class FolderLock:
    """An exclusive flock on DIR/.lock, taken without waiting (a second
    driver is refused), its file removed on release. The inode check after
    locking makes the removal safe against a driver that opened the file
    just before it was removed."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, LOCK)
        self.fd: Optional[int] = None

    def acquire(self) -> None:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                try:
                    holder = os.read(fd, 64).decode(errors="replace").strip()
                finally:
                    os.close(fd)
                raise UsageError("%s is in use by another driver (%s); one driver at a "
                                 "time writes a folder" % (os.path.dirname(self.path),
                                                            holder or "pid unknown"))
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)   # removed by the driver before us: take the new one
        os.ftruncate(fd, 0)
        os.write(fd, ("pid %d on %s\n" % (os.getpid(), os.uname().nodename)).encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> "FolderLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _write_json(path: str, value: Any) -> None:
    from .shards import write_atomic
    write_atomic(path, (json.dumps(value, indent=1, sort_keys=True) + "\n").encode())


def _done_chunks(out: str, p: Params, verify: bool = True) -> Dict[Tuple[int, int], Dict[str, Any]]:
    """The chunks on disk (their .json and data files present, digests
    matching): {(first, last): info}. A chunk whose files do not match its
    .json is refused (RunError): it was changed after it was written."""
    from .shards import file_sha256
    done = {}
    for name in sorted(os.listdir(out)):
        if not (name.startswith("seeds-") and name.endswith(".json")):
            continue
        info = _read_json(os.path.join(out, name))
        base = name[:-5]
        for kind, ext in (("records", ".records"), ("shard", ".npz")):
            want = info.get(kind + "_sha256")
            if want is None:
                continue
            path = os.path.join(out, base + ext)
            if not os.path.exists(path):
                raise RunError("%s: %s is missing; remove %s to play the chunk again"
                               % (out, base + ext, name))
            if verify and file_sha256(path) != want:
                raise RunError("%s: %s does not match its digest in %s; remove both to play "
                               "the chunk again" % (out, base + ext, name))
        done[(info["first"], info["last"])] = info
    return done


def _missing(games: int, chunk: int, done: Dict[Tuple[int, int], Any]) -> List[Tuple[int, int]]:
    """The ranges of the grid up to ``games`` not on disk: a grid cell cut
    short by an earlier, smaller --games is completed by the range after
    what is there."""
    covered: Set[int] = set()
    for a, b in done:
        covered.update(range(a, b + 1))
    todo = []
    for a, b in chunk_ranges(games, chunk):
        run_start = None
        for i in range(a, b + 2):
            if i <= b and i not in covered:
                if run_start is None:
                    run_start = i
            elif run_start is not None:
                todo.append((run_start, i - 1))
                run_start = None
    return todo


def _manifest_params(p: Params) -> Dict[str, Any]:
    return asdict(p)


#: The evaluation of a search player without eval= (TurnSearch's default),
#: kept in the manifests: a folder without it was made when the default was
#: the hand-written evaluation (before libball 1.1's network).
SEARCH_EVAL_DEFAULT = "network"


def _same_player(old: str, old_default: str, new: str) -> bool:
    """Whether the player ``new`` (named now) plays as ``old`` (named in a
    folder made when a search player without eval= had ``old_default``):
    the same name, or search players that differ only in an eval= that
    says what the folder's default was."""
    try:
        a, b = parse_player(old), parse_player(new)
    except UsageError:
        return old == new
    if a.kind != "search" or b.kind != "search":
        return old == new
    sa, sb = dict(a.settings), dict(b.settings)
    if "net" not in sa:
        sa.setdefault("eval", old_default)
    if "net" not in sb:
        sb.setdefault("eval", SEARCH_EVAL_DEFAULT)
    return sa == sb


# ---------------------------------------------------------------- the cluster


def _connect(workers: int, scheduler: Optional[str], security: Any, retries: int,
             direct: bool = True) -> Any:
    """(client, the LocalCluster or None). ``direct``: results come from
    the workers straight to the driver; False: through the scheduler (one
    port to reach, e.g. through an SSH tunnel)."""
    import dask
    from distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler, security=security,  # type: ignore[no-untyped-call]
                      direct_to_workers=direct), None
    # a lost worker: the scheduler runs its task again elsewhere, up to
    # ``retries`` times, then reports KilledWorker
    dask.config.set({"distributed.scheduler.allowed-failures": retries})
    # every port on loopback, the HTTP servers too (dashboard_address=None
    # meant Dask's default, 0.0.0.0:8787, and the workers' on 0.0.0.0)
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0",
        scheduler_port=0, silence_logs=40)
    return Client(cluster, direct_to_workers=True), cluster  # type: ignore[no-untyped-call]


def ship_wheel(client: Any, path: str) -> bool:
    """Registers the WheelPlugin of ``path`` unless every worker has it;
    True when it was registered now. The plugin goes by value
    (libball.dask_worker): the workers need not have libball."""
    from .dask_worker import WheelPlugin, by_value, plugin_names
    by_value()
    try:
        with open(path, "rb") as f:
            plugin = WheelPlugin(f.read(), os.path.basename(path))
    except OSError as e:
        raise UsageError("--wheel %s: %s" % (path, e.strerror or e)) from None
    have = client.run(plugin_names)
    if have and all(plugin.name in names for names in have.values()):
        return False
    try:
        client.register_worker_plugin(plugin, name=plugin.name)
    except Exception as e:  # pip on a worker: its message
        raise RunError("--wheel %s: installing it on the workers failed: %s: %s"
                       % (path, type(e).__name__, e)) from None
    return True


def check_workers(client: Any, need_numpy: bool) -> Dict[str, Any]:
    """Every worker's versions against the driver's: RunError listing the
    workers that differ, lack libball (the question goes by value,
    libball.dask_worker) or lack numpy for the shards."""
    from .dask_worker import by_value, worker_versions
    by_value()
    mine = version_info()
    theirs = client.run(worker_versions)
    if not theirs:
        raise RunError("the scheduler has no workers")
    bad = []
    for addr, v in sorted(theirs.items()):
        if "error" in v:
            bad.append("%s: cannot import libball (%s, %s): install the package there, or "
                       "give --wheel" % (addr, v["error"], v.get("python")))
            continue
        for k in ("library_version", "binding_version"):
            if v.get(k) != mine[k]:
                bad.append("%s: %s %s (driver: %s)" % (addr, k, v.get(k), mine[k]))
        if need_numpy and not v.get("numpy"):
            bad.append("%s: no numpy (the shards need it; or --no-shards)" % addr)
    if bad:
        raise RunError("workers that do not match this driver:\n  " + "\n  ".join(bad))
    return dict(theirs)


# ---------------------------------------------------------------- the driver


class _Progress:
    """The progress on stderr: on a terminal one line rewritten twice a
    second; elsewhere (a log, a pipe) a line every ``LOG_EVERY`` seconds,
    and a last one at the end when any was written, so that a long run is
    never silent until its end (issue 49) and a short one adds nothing."""

    LOG_EVERY = 10.0

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled
        self.live = enabled and sys.stderr.isatty()
        self.every = 0.5 if self.live else self.LOG_EVERY
        self.done, self.t0, self.shown_done = 0, time.monotonic(), -1
        self.shown = self.t0

    def add(self, games: int, force: bool = False) -> None:
        self.done += games
        now = time.monotonic()
        if not self.enabled or (now - self.shown < self.every and not force) \
                or self.done == self.shown_done:
            return
        self.shown, self.shown_done = now, self.done
        rate = self.done / max(now - self.t0, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else 0
        line = "%d/%d games, %.1f games/s, ETA %dm%02ds" % (
            self.done, self.total, rate, left // 60, left % 60)
        sys.stderr.write("\r%s   " % line if self.live else "selfplay: %s\n" % line)
        sys.stderr.flush()

    def end(self) -> None:
        if self.live:
            self.add(0, force=True)
            sys.stderr.write("\n")
        elif self.enabled and self.shown_done >= 0:
            self.add(0, force=True)


def _kill_message(key: Tuple[int, int], p: Params, exc: BaseException, retries: int) -> str:
    return ("chunk %s: the workers running it died and its retries are spent (--retries %d "
            "for a local cluster; a running scheduler's distributed.scheduler.allowed-failures "
            "otherwise): %s: %s; giving up. The chunks done are on disk: rerun the same "
            "command to continue" % (chunk_name(p, *key), retries, type(exc).__name__, exc))


def run(out: str, games: int, params: Optional[Params] = None, *,
        turn_limit: Optional[int] = None, workers: int = 2,
        scheduler: Optional[str] = None, security: Any = None, client: Any = None,
        window: Optional[int] = None, retries: int = 2, task_seconds: float = 3600.0,
        wheel: Optional[str] = None, progress: bool = False, direct: bool = True,
        on_chunk: Optional[Callable[[Dict[str, Any]], None]] = None) -> Dict[str, Any]:
    """Plays games 1 to ``games`` into the folder ``out`` (created) and
    returns the summary. ``workers`` 0 plays in this process; otherwise a
    LocalCluster of ``workers`` processes on 127.0.0.1, or the cluster of
    ``scheduler`` (with ``security``, a distributed.Security), or the
    given ``client``. At most ``window`` chunks (default: 2 per worker
    thread) are in flight or held here. ``on_chunk(info)`` is called
    after each chunk is on disk. UsageError for a bad parameter, a folder
    in use or made with other parameters (nothing started); RunError when
    the run could not finish. ``direct`` False brings the results through
    the scheduler (a driver that reaches only the scheduler's port)."""
    p = params if params is not None else Params()
    p = check_params(games, p, turn_limit, task_seconds, retries, window, workers)
    if not isinstance(out, str) or not out:
        raise UsageError("--out is a folder name")
    if wheel is not None and not os.path.isfile(wheel):
        raise UsageError("--wheel %s: no such file" % wheel)
    from . import LIBRARY_VERSION, __version__
    own = None
    if scheduler and client is None:  # reached before the folder is made
        client = _connect_scheduler(scheduler, security, direct)
        own = client
    try:
        lock = _make_folder(out)
        try:
            return _run_locked(out, games, p, lock, workers, scheduler, security, client,
                               window, retries, task_seconds, wheel, progress, direct, on_chunk,
                               {"library_version": LIBRARY_VERSION,
                                "binding_version": __version__})
        finally:
            lock.release()
    finally:
        if own is not None:
            own.close()


def _connect_scheduler(scheduler: str, security: Any, direct: bool) -> Any:
    """A client of the running scheduler, or RunError saying why not."""
    try:
        client, _ = _connect(0, scheduler, security, 0, direct)
    except Exception as e:  # OSError, TimeoutError, a bad address (ValueError)
        raise RunError("cannot reach the scheduler %s: %s: %s"
                       % (scheduler, type(e).__name__, e)) from None
    return client


def _make_folder(out: str) -> "FolderLock":
    """The folder ``out`` (made when missing) with its lock taken; a folder
    that cannot be made or written is UsageError (exit 2) with the reason."""
    try:
        os.makedirs(out, exist_ok=True)
        lock = FolderLock(out)
        lock.acquire()
    except (FileExistsError, NotADirectoryError):
        raise UsageError("--out %s: not a folder (a file is in the way)" % out) from None
    except OSError as e:  # read-only, permission, a missing or broken path
        raise UsageError("--out %s: cannot make or write the folder: %s"
                         % (out, e.strerror or e)) from None
    return lock


def _run_locked(out: str, games: int, p: Params, lock: FolderLock, workers: int,
                scheduler: Optional[str], security: Any, client: Any, window: Optional[int],
                retries: int, task_seconds: float, wheel: Optional[str], progress: bool,
                direct: bool, on_chunk: Optional[Callable[[Dict[str, Any]], None]],
                versions: Dict[str, str]) -> Dict[str, Any]:
    from .shards import TMP_PREFIX, write_atomic
    mpath = os.path.join(out, MANIFEST)
    params = _manifest_params(p)
    if os.path.exists(mpath):
        manifest = _read_json(mpath)
        if manifest.get("format") != FORMAT:
            raise UsageError("%s: format %r, not %s" % (mpath, manifest.get("format"), FORMAT))
        # a parameter added after the folder was made has its default there
        defaults = asdict(Params())
        was_default = manifest.get("search_eval_default", "hand")
        diff = ["%s: %r in the folder, %r now" % (k, manifest["params"].get(k, defaults[k]), v)
                for k, v in params.items()
                if (not _same_player(manifest["params"].get(k, defaults[k]), was_default, v)
                    if k in ("atk", "dfn") else manifest["params"].get(k, defaults[k]) != v)]
        if was_default != SEARCH_EVAL_DEFAULT and any(
                d.startswith(("atk:", "dfn:")) and "search" in d for d in diff):
            diff.append("(a search player without eval= searched with the hand-written "
                        "evaluation when the folder was made: name it with eval=hand)")
        if diff:
            raise UsageError("%s was made with other parameters; use another --out or the "
                             "folder's parameters:\n  %s" % (out, "\n  ".join(diff)))
        if manifest.get("library_version") != versions["library_version"]:
            raise UsageError("%s was made with libball %s, this is %s; the games would "
                             "differ" % (out, manifest.get("library_version"),
                                         versions["library_version"]))
    else:
        manifest = {"format": FORMAT, "params": params, **versions,
                    "search_eval_default": SEARCH_EVAL_DEFAULT, "status": "running",
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        _write_json(mpath, manifest)
    for name in os.listdir(out):  # left by a driver killed while writing
        if name.startswith(TMP_PREFIX):
            os.unlink(os.path.join(out, name))
    done = _done_chunks(out, p)
    on_disk = max((b for _, b in done), default=0)
    if games < on_disk:
        raise UsageError("%s already holds games 1-%d; --games %d is smaller"
                         % (out, on_disk, games))
    todo = _missing(games, p.chunk, done)
    pdict = asdict(p)
    bar = _Progress(sum(b - a + 1 for a, b in todo), progress)
    stats: Dict[str, Any] = {"chunks_run": 0, "games_run": 0, "worker_pids": set(),
                             "task_seconds": 0.0}
    t0 = time.perf_counter()

    def store(res: Dict[str, Any]) -> None:
        base = os.path.join(out, chunk_name(p, res["first"], res["last"]))
        if shards_sha(res["records"]) != res["records_sha256"] or (
                res["shard"] is not None and shards_sha(res["shard"]) != res["shard_sha256"]):
            raise RunError("chunk %s arrived damaged (digest mismatch)" % base)
        info = {k: res[k] for k in ("first", "last", "games", "decisions", "results",
                                    "records_sha256", "shard_sha256", "replayed", "seconds")}
        info["seeds"] = [p.seed + res["first"], p.seed + res["last"]]
        try:
            write_atomic(base + ".records", res["records"])
            if res["shard"] is not None:
                write_atomic(base + ".npz", res["shard"])
            write_atomic(base + ".json", (json.dumps(info, sort_keys=True) + "\n").encode())
        except OSError as e:  # a full disk, say: which chunk, and that the others are kept
            raise RunError("chunk %s: cannot write it to %s: %s; the chunks done before are on "
                           "disk: rerun the same command to continue"
                           % (chunk_name(p, res["first"], res["last"]), out,
                              e.strerror or e)) from None
        done[(res["first"], res["last"])] = info
        stats["chunks_run"] += 1
        stats["games_run"] += res["games"]
        stats["worker_pids"].add(res["pid"])
        stats["task_seconds"] += res["seconds"]
        bar.add(res["games"])
        if on_chunk is not None:
            on_chunk(info)

    from .shards import sha256 as shards_sha
    own_cluster = None
    try:
        if todo and workers == 0 and client is None and scheduler is None:
            for a, b in todo:
                store(play_chunk(pdict, a, b, None, task_seconds))
        elif todo:
            if client is None:
                client, own_cluster = _connect(workers, scheduler, security, retries, direct)
            if wheel is not None:
                ship_wheel(client, wheel)
            check_workers(client, p.shards)
            _distribute(client, todo, pdict, p, versions, window, retries, task_seconds, store)
    finally:
        bar.end()
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    wall = time.perf_counter() - t0
    return _finish(out, games, p, manifest, done, stats, wall)


def _distribute(client: Any, todo: List[Tuple[int, int]], pdict: Dict[str, Any], p: Params,
                versions: Dict[str, str], window: Optional[int], retries: int,
                task_seconds: float, store: Callable[[Dict[str, Any]], None]) -> None:
    from distributed import as_completed
    try:
        from distributed.scheduler import KilledWorker
    except ImportError:  # pragma: no cover - older Dask
        from distributed import KilledWorker
    threads = sum(client.nthreads().values()) or 1
    limit = window if window is not None else 2 * threads
    pending = iter(todo)
    keys: Dict[Any, Tuple[int, int]] = {}
    token = hashlib.sha256(json.dumps(pdict, sort_keys=True).encode()).hexdigest()[:12]

    def submit(ac: Any) -> bool:
        nxt = next(pending, None)
        if nxt is None:
            return False
        a, b = nxt
        fut = client.submit(play_chunk, pdict, a, b, versions, task_seconds,
                            key="selfplay-%s-%d-%d" % (token, a, b), retries=retries,
                            pure=False)
        keys[fut.key] = nxt
        ac.add(fut)
        return True

    ac = as_completed()  # type: ignore[no-untyped-call]
    for _ in range(limit):
        if not submit(ac):
            break
    for fut in ac:
        key = keys.pop(fut.key)
        try:
            res = fut.result()
        except KilledWorker as e:
            for f in list(ac.futures):
                f.cancel()
            raise RunError(_kill_message(key, p, e, retries)) from None
        except (BudgetError, RunError) as e:
            for f in list(ac.futures):
                f.cancel()
            raise RunError(str(e)) from None
        except Exception as e:  # a library error on the worker: say which chunk
            for f in list(ac.futures):
                f.cancel()
            raise RunError("chunk %s failed on its worker: %s: %s"
                           % (chunk_name(p, *key), type(e).__name__, e)) from None
        fut.release()
        try:
            store(res)
        except BaseException:  # nothing left running when the cluster closes
            for f in list(ac.futures):
                f.cancel()
            raise
        del res
        submit(ac)


def _finish(out: str, games: int, p: Params, manifest: Dict[str, Any],
            done: Dict[Tuple[int, int], Dict[str, Any]], stats: Dict[str, Any],
            wall: float) -> Dict[str, Any]:
    chunks = [done[k] for k in sorted(done)]
    digest = hashlib.sha256()
    first = True
    for c in chunks:
        path = os.path.join(out, chunk_name(p, c["first"], c["last"]) + ".records")
        with open(path, "rb") as f:
            data = f.read()
        if not first:
            digest.update(b"\n")
        digest.update(data)
        first = False
    totals = {"ATK": 0, "DEF": 0, "draw": 0, "unfinished": 0}
    for c in chunks:
        for k, v in c["results"].items():
            totals[k] = totals.get(k, 0) + v
    summary = {
        "games": sum(c["games"] for c in chunks),
        "decisions": sum(c["decisions"] for c in chunks),
        "results": totals,
        "records_sha256": digest.hexdigest(),
        "chunks": [{"name": chunk_name(p, c["first"], c["last"]), "games": c["games"],
                    "records_sha256": c["records_sha256"], "shard_sha256": c["shard_sha256"]}
                   for c in chunks],
    }
    manifest = dict(manifest)
    manifest.update({"status": "complete", "games": games, "summary": summary,
                     "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    _write_json(os.path.join(out, MANIFEST), manifest)
    return {"out": out, "games": summary["games"], "results": totals,
            "decisions": summary["decisions"], "records_sha256": summary["records_sha256"],
            "chunks": len(chunks), "chunks_run": stats["chunks_run"],
            "games_run": stats["games_run"], "workers_seen": len(stats["worker_pids"]),
            "wall_s": round(wall, 3), "task_s": round(stats["task_seconds"], 3),
            "games_per_s": round(stats["games_run"] / wall, 2) if wall > 0 else None,
            "driver_peak_rss_mb": round(_peak_rss_mb(), 1)}


def _peak_rss_mb() -> float:
    """This process's peak resident memory (the driver's, not the workers')."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ---------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python3 -m libball.selfplay",
        description="Self-play games of BALL kept on disk as game records and training "
        "shards, in this process or on a Dask cluster (docs/scale.md).")
    ap.add_argument("--out", required=True, help="the folder of the run (created)")
    ap.add_argument("--games", type=int, default=20, help="games 1 to N (20)")
    ap.add_argument("--seed", type=int, default=1, help="game i has seed S + i (1)")
    ap.add_argument("--atk", default="greedy",
                    help="ATK's player: random, greedy, mcts[:playouts=N,ms=T,turns=K,c=X], "
                    "search[:nodes=N,ms=T,depth=D,hash=MB,eval=network|hand,net=FILE] "
                    "(greedy)")
    ap.add_argument("--def", dest="dfn", default="random", help="DEF's player (random)")
    ap.add_argument("--rules", default="", help="rules text, e.g. 'zone=2' (docs/cards.md)")
    ap.add_argument("--turn-limit", type=int, default=None,
                    help="last turn played, 0 for none (default: the turns= of --rules, "
                         "else %d)" % DEFAULT_TURN_LIMIT)
    ap.add_argument("--start", help="BPN of the start position (the standard start)")
    ap.add_argument("--chunk", type=int, default=10, help="games a task and a file (10)")
    ap.add_argument("--obs-flags", type=int, default=0, help="observation layout (ObsFlag, 0)")
    ap.add_argument("--no-shards", dest="shards", action="store_false",
                    help="write the game records only")
    ap.add_argument("--max-decisions", type=int, default=100000,
                    help="a game is stopped (recorded unfinished) after this many (100000)")
    ap.add_argument("--values", action="store_true",
                    help="values shards: each turn start with the searching player's value "
                    "and budget; the game plays the search's best turn (both players search)")
    ap.add_argument("--random-opening", type=int, default=0,
                    help="each game starts with 0 to N uniformly random decisions (0)")
    ap.add_argument("--random-turns", type=int, default=0,
                    help="--values: per mille of turns played at random (each decision "
                    "uniform) instead of the search's best turn, after the label (0)")
    ap.add_argument("--workers", type=int, default=2,
                    help="a LocalCluster of N processes on 127.0.0.1; 0: in this process (2)")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler "
                    "(tcp://HOST:PORT, tls://HOST:PORT)")
    ap.add_argument("--tls-ca-file", help="TLS: the CA certificate (with tls://)")
    ap.add_argument("--tls-cert", help="TLS: this client's certificate")
    ap.add_argument("--tls-key", help="TLS: this client's private key")
    ap.add_argument("--via-scheduler", dest="direct", action="store_false",
                    help="results through the scheduler, not from the workers directly "
                    "(a driver that reaches the scheduler's port only, e.g. an SSH tunnel)")
    ap.add_argument("--wheel", help="a libball wheel to install on the workers "
                    "(a Dask plugin, registered once)")
    ap.add_argument("--window", type=int, help="chunks in flight at most (2 per worker thread)")
    ap.add_argument("--retries", type=int, default=2,
                    help="times a chunk is retried after its worker is lost (2)")
    ap.add_argument("--task-seconds", type=float, default=3600.0,
                    help="budget of one chunk in seconds; over it the run stops (3600)")
    ap.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress on stderr: a live line on a terminal, else a line every "
                    "10 s (default: on)")
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    ap = _parser()
    a = ap.parse_args(argv)
    if a.scheduler and a.workers != ap.get_default("workers"):
        ap.error("--scheduler and --workers: one or the other")
    security = None
    if a.tls_ca_file or a.tls_cert or a.tls_key:
        if not (a.tls_ca_file and a.tls_cert and a.tls_key and a.scheduler):
            ap.error("TLS needs --tls-ca-file, --tls-cert, --tls-key and a tls:// --scheduler")
        from distributed.security import Security
        security = Security(  # type: ignore[no-untyped-call]
            tls_ca_file=a.tls_ca_file, tls_client_cert=a.tls_cert,
                            tls_client_key=a.tls_key, require_encryption=True)
    params = Params(a.atk, a.dfn, a.rules, a.start, a.seed, a.chunk, a.obs_flags, a.shards,
                    a.max_decisions, a.values, a.random_opening, a.random_turns)
    progress = True if a.progress is None else a.progress  # _Progress: live on a terminal
    try:
        summary = run(a.out, a.games, params, turn_limit=a.turn_limit, workers=a.workers,
                      scheduler=a.scheduler, security=security, window=a.window,
                      retries=a.retries, task_seconds=a.task_seconds, wheel=a.wheel,
                      progress=progress, direct=a.direct)
    except UsageError as e:
        print("%s: %s" % (ap.prog, e), file=sys.stderr)
        return EXIT_USAGE
    except RunError as e:
        print("%s: %s" % (ap.prog, e), file=sys.stderr)
        return 1
    except (OSError, TimeoutError) as e:  # the folder, the scheduler
        print("%s: %s: %s" % (ap.prog, type(e).__name__, e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("%s: interrupted; the chunks done are on disk, rerun to continue" % ap.prog,
              file=sys.stderr)
        return 130
    print(json.dumps(summary, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    # run as the module libball.selfplay, not as __main__: the tasks sent to
    # the workers are then named by module (not pickled by value), and the
    # exceptions they raise are the classes caught here
    from libball.selfplay import main as _main
    sys.exit(_main())
