# SPDX-License-Identifier: MIT
"""Tasks for running libball on a Dask cluster: self-play games and perft
subtrees (docs/scale.md).

This module is what the workers execute. It needs only the installed
``libball`` Python package (``pip install ./bindings/python``) and the
shared library ``libball.so.1`` (installed, or named by ``LIBBALL_PATH``);
the driver (``scale.py``) ships this file to the workers with
``Client.upload_file``, so the workers need no copy of the repository.

Games cross process boundaries as text only: a position is its BPN plus
the rules text (``Game(bpn, rules_text=...)``), a game record is the list
of its decisions in N2 text. Every task is a pure function of its
arguments (seeds included), so the same tasks give the same results on one
process or on any number of workers.

The MCTS player is the library's (include/ball.h, "Search"), through the
binding's ``libball.MCTS``: with a budget in playouts its decisions depend
only on the seed, so they are the same on every worker.
"""

import time

import libball

# ---------------------------------------------------------------- self-play

MASK64 = (1 << 64) - 1


def splitmix64(state):
    """(next state, output) of splitmix64."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _make_player(spec, seed):
    """'random' or 'mcts' / 'mcts:N' (N playouts a decision)."""
    if spec == "random":
        return None
    if spec == "mcts" or spec.startswith("mcts:"):
        playouts = int(spec[5:]) if spec.startswith("mcts:") else 1000
        return libball.MCTS(playouts=playouts, seed=seed)
    raise ValueError("unknown player %r (random, mcts or mcts:PLAYOUTS)" % spec)


def play_game(seed, bpn, rules_text, atk="random", dfn="random", max_decisions=100000):
    """Plays one game from the position ``bpn`` under ``rules_text`` with
    players ``atk`` and ``dfn``, every random choice drawn from ``seed``.
    Returns a plain dict: seed, result (ATK/DEF/draw/unfinished), turns,
    decisions, the record (decisions in N2 text), the final BPN and the
    worker's process id."""
    import os
    state = seed & MASK64
    players = [_make_player(atk, (seed * 2 + 1) & MASK64),
               _make_player(dfn, (seed * 2 + 2) & MASK64)]
    record = []
    with libball.Game(bpn, rules_text=rules_text) as game:
        start_turn = game.turn
        while not game.is_over and len(record) < max_decisions:
            p = players[int(game.side)]
            if p is None:
                state, r = splitmix64(state)
                action = game.random_action(r)
            else:
                action = p.choose(game)
            record.append(str(game.apply(action)))
        result = game.result
        out = {
            "seed": seed,
            "result": {libball.Result.ATK_WON: "ATK", libball.Result.DEF_WON: "DEF",
                       libball.Result.DRAW: "draw"}.get(result, "unfinished"),
            "turns": game.turn - start_turn + 1,
            "decisions": len(record),
            "record": record,
            "final_bpn": game.bpn,
            "pid": os.getpid(),
            "libball_file": libball.__file__,
        }
    for p in players:
        if p is not None:
            p.close()
    return out


def play_games(seeds, bpn, rules_text, atk="random", dfn="random"):
    """play_game() for each seed of a chunk (fewer, larger tasks)."""
    return [play_game(s, bpn, rules_text, atk, dfn) for s in seeds]


def summary(games):
    """The statistics of a list of play_game() results, independent of the
    order they arrive in: counts by result, total and extreme lengths, and
    a digest of all records by seed."""
    import hashlib
    games = sorted(games, key=lambda g: g["seed"])
    counts = {"ATK": 0, "DEF": 0, "draw": 0, "unfinished": 0}
    for g in games:
        counts[g["result"]] += 1
    digest = hashlib.sha256()
    for g in games:
        digest.update(("%d %s %s\n" % (g["seed"], " ".join(g["record"]), g["final_bpn"])).encode())
    return {
        "games": len(games),
        "results": counts,
        "decisions": sum(g["decisions"] for g in games),
        "turns": sum(g["turns"] for g in games),
        "max_decisions": max((g["decisions"] for g in games), default=0),
        "records_sha256": digest.hexdigest(),
    }


def replay_check(game_result, bpn, rules_text):
    """Replays a record on this process and checks it ends in the final BPN
    reported by the worker (a game crossing back as text)."""
    with libball.Game(bpn, rules_text=rules_text) as game:
        for text in game_result["record"]:
            game.apply(text)
        return game.bpn == game_result["final_bpn"]


# ---------------------------------------------------------------- perft


def split_moves(bpn, rules_text, split_depth):
    """The decision sequences (N2 texts) of exactly ``split_depth``
    decisions from the position (divide at depth 1 or 2). A sequence that
    ends the game earlier has no continuation and counts 0 in perft, as
    it does here."""
    seqs = []
    with libball.Game(bpn, rules_text=rules_text) as game:
        def walk(prefix, depth):
            if depth == 0:
                seqs.append(list(prefix))
                return
            for a in game.legal_actions():
                game.apply(a)
                prefix.append(str(a))
                walk(prefix, depth - 1)
                prefix.pop()
                game.undo()
        walk([], split_depth)
    return seqs


def perft_subtree(bpn, rules_text, moves, depth):
    """perft(``depth``) after the decisions ``moves`` from ``bpn``."""
    with libball.Game(bpn, rules_text=rules_text) as game:
        for m in moves:
            game.apply(m)
        return game.perft(depth)


def perft_chunk(bpn, rules_text, seqs, depth):
    """Sum of perft_subtree() over a chunk of sequences."""
    return sum(perft_subtree(bpn, rules_text, s, depth) for s in seqs)


def perft_single(bpn, rules_text, depth):
    """perft(``depth``) on this process, for comparison."""
    with libball.Game(bpn, rules_text=rules_text) as game:
        return game.perft(depth)


def where():
    """What a worker runs: its process id and the libball it imported."""
    import os
    return {"pid": os.getpid(), "libball_file": libball.__file__,
            "library": libball.LIBRARY_PATH, "version": libball.LIBRARY_VERSION}


def noop(x):
    """A task that does nothing, to measure the per-task overhead."""
    return x


def timed(fn, *args):
    t = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - t
