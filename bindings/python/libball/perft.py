# SPDX-License-Identifier: MIT
"""Distributed perft (N3): the number of decision sequences of exactly
DEPTH decisions, counted on a Dask cluster (docs/scale.md).

    python3 -m libball.perft 7 --split 2 --workers 2 --check

The position is divided at ``--split`` decisions (1 to DEPTH - 1; deeper
splits give more, smaller subtrees); the subtrees are sorted by an
estimate of their size (the number of legal decisions at their root, the
exact count when one decision is left) and packed, largest first, into
at most ``--max-tasks`` tasks of about equal estimated size, handed out
largest first. A sequence that ends the game before ``--split`` decisions
has no continuation and counts 0, as in ``ball perft``. Each task checks
its budget (``--task-seconds``) between subtrees: a deeper split makes
each subtree shorter, hence the budget finer. ``--workers 0`` counts in
this process. Prints one JSON object; ``--check`` also counts on this
process and exits 1 when the counts differ.
"""

import argparse
import heapq
import json
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _native as _n

#: Most subtrees a split may make (the walk that lists them runs here).
MAX_SUBTREES = 500000
EXIT_USAGE = 2


class UsageError(ValueError):
    """A parameter refused before anything runs (exit status 2)."""


class BudgetError(RuntimeError):
    """A task over its time budget."""


def check(depth: int, split: int, max_tasks: int, task_seconds: float) -> None:
    """UsageError unless 1 <= depth <= BALL_MAX_PERFT_DEPTH, 1 <= split <
    depth, max_tasks >= 1 and task_seconds > 0."""
    for what, v, lo, hi in (("DEPTH", depth, 1, _n.MAX_PERFT_DEPTH),
                            ("--max-tasks", max_tasks, 1, 1000000)):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise UsageError("%s is %d to %d, not %r" % (what, lo, hi, v))
    if depth >= 2 and (isinstance(split, bool) or not isinstance(split, int)
                       or not 1 <= split < depth):
        raise UsageError("--split is 1 to DEPTH - 1 (%d), not %r" % (depth - 1, split))
    if isinstance(task_seconds, bool) or not isinstance(task_seconds, (int, float)) \
            or not 0 < task_seconds <= 7 * 86400:
        raise UsageError("--task-seconds is above 0 and at most a week, not %r" % (task_seconds,))


def split_moves(bpn: Optional[str], rules: str, split: int) -> List[Tuple[int, List[str]]]:
    """(estimate, decisions) of every sequence of ``split`` decisions from
    the position; the estimate is the number of legal decisions after it.
    UsageError past MAX_SUBTREES."""
    from .game import Game
    out: List[Tuple[int, List[str]]] = []
    with Game(bpn, rules_text=rules) as game:
        def walk(prefix: List[str], depth: int) -> None:
            if depth == 0:
                out.append((game.count_legal_actions(), list(prefix)))
                if len(out) > MAX_SUBTREES:
                    raise UsageError("--split %d makes more than %d subtrees; split less deep"
                                     % (split, MAX_SUBTREES))
                return
            for a in game.legal_actions():
                game.apply(a)
                prefix.append(str(a))
                walk(prefix, depth - 1)
                prefix.pop()
                game.undo()
        walk([], split)
    return out


def pack(subtrees: Sequence[Tuple[int, List[str]]], max_tasks: int) -> List[Tuple[int, List[List[str]]]]:
    """Subtrees packed into at most ``max_tasks`` tasks, the largest first
    into the least loaded task (LPT); the tasks come back largest first."""
    order = sorted(subtrees, key=lambda s: -s[0])
    n = min(max_tasks, len(order)) or 1
    heap = [(0, k) for k in range(n)]
    tasks: List[Tuple[int, List[List[str]]]] = [(0, []) for _ in range(n)]
    for est, seq in order:
        load, k = heapq.heappop(heap)
        tasks[k] = (load + max(est, 1), tasks[k][1] + [seq])
        heapq.heappush(heap, (load + max(est, 1), k))
    return sorted((t for t in tasks if t[1]), key=lambda t: -t[0])


def perft_task(bpn: Optional[str], rules: str, seqs: List[List[str]], depth: int,
               task_seconds: float = 3600.0) -> Dict[str, Any]:
    """The sum of perft(``depth``) after each sequence of ``seqs``; the
    budget is checked between subtrees (BudgetError)."""
    import os
    from .game import Game
    deadline = time.monotonic() + task_seconds
    total = 0
    t0 = time.perf_counter()
    with Game(bpn, rules_text=rules) as game:
        for k, seq in enumerate(seqs):
            if time.monotonic() > deadline:
                raise BudgetError("a perft task is over its budget of %g s (--task-seconds) "
                                  "after %d of its %d subtrees; split deeper"
                                  % (task_seconds, k, len(seqs)))
            for m in seq:
                game.apply(m)
            total += game.perft(depth)
            for _ in seq:
                game.undo()
    return {"count": total, "pid": os.getpid(), "seconds": time.perf_counter() - t0}


def run(depth: int, split: int = 2, *, rules: str = "", start: Optional[str] = None,
        workers: int = 2, scheduler: Optional[str] = None, security: Any = None,
        client: Any = None, max_tasks: int = 200, task_seconds: float = 3600.0,
        retries: int = 2) -> Dict[str, Any]:
    """perft(``depth``) of the position, divided at ``split`` decisions and
    counted on the cluster (``workers`` 0: in this process)."""
    from .game import Game
    if depth == 1:
        split = 0
    check(depth, split if depth > 1 else 1, max_tasks, task_seconds)
    try:
        with Game(start, rules_text=rules) as g:
            rules, start = g.rules_text, (None if start is None else g.bpn)
    except Exception as e:
        raise UsageError("--rules/--start: %s" % e) from None
    t0 = time.perf_counter()
    subtrees = split_moves(start, rules, split) if split else [(0, [])]
    tasks = pack(subtrees, max_tasks)
    split_s = time.perf_counter() - t0
    own = None
    pids = set()
    if workers == 0 and client is None and scheduler is None:
        results = [perft_task(start, rules, seqs, depth - split, task_seconds)
                   for _, seqs in tasks]
    else:
        from libball import perft as mod  # by name, also when run as __main__
        from libball.selfplay import _connect, check_workers
        if client is None:
            client, own = _connect(workers, scheduler, security, retries)
        try:
            check_workers(client, need_numpy=False)
            futs = [client.submit(mod.perft_task, start, rules, seqs, depth - split,
                                  task_seconds, priority=len(tasks) - k, retries=retries,
                                  pure=False) for k, (_, seqs) in enumerate(tasks)]
            results = client.gather(futs)
        finally:
            if own is not None:
                client.close()
                own.close()
    pids = {r["pid"] for r in results}
    return {"job": "perft", "depth": depth, "split": split, "subtrees": len(subtrees),
            "tasks": len(tasks), "count": sum(r["count"] for r in results),
            "split_s": round(split_s, 3), "wall_s": round(time.perf_counter() - t0, 3),
            "task_s": round(sum(r["seconds"] for r in results), 3), "workers_seen": len(pids),
            "largest_first": [t[0] for t in tasks[:5]]}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m libball.perft",
                                 description="perft (N3) counted on a Dask cluster "
                                 "(docs/scale.md).")
    ap.add_argument("depth", type=int, help="decisions, 1 to %d" % _n.MAX_PERFT_DEPTH)
    ap.add_argument("--split", type=int, help="divide at this many decisions "
                    "(1 to DEPTH - 1; default min(2, DEPTH - 1))")
    ap.add_argument("--rules", default="", help="rules text")
    ap.add_argument("--start", help="BPN of the position (the standard start)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster processes; 0: here")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler")
    ap.add_argument("--max-tasks", type=int, default=200, help="tasks at most (200)")
    ap.add_argument("--task-seconds", type=float, default=3600.0,
                    help="budget of a task, checked between subtrees (3600)")
    ap.add_argument("--check", action="store_true", help="also count here and compare")
    a = ap.parse_args(argv)
    split = a.split if a.split is not None else min(2, max(a.depth - 1, 1))
    try:
        if isinstance(a.workers, int) and a.workers < 0:
            raise UsageError("--workers is 0 or more, not %d" % a.workers)
        out = run(a.depth, split, rules=a.rules, start=a.start, workers=a.workers,
                  scheduler=a.scheduler, max_tasks=a.max_tasks, task_seconds=a.task_seconds)
    except UsageError as e:
        print("%s: %s" % (ap.prog, e), file=sys.stderr)
        return EXIT_USAGE
    except BudgetError as e:
        print("%s: %s" % (ap.prog, e), file=sys.stderr)
        return 1
    except Exception as e:  # KilledWorker, a worker mismatch: what and why
        print("%s: %s: %s" % (ap.prog, type(e).__name__, e), file=sys.stderr)
        return 1
    if a.check:
        from .game import Game
        t = time.perf_counter()
        with Game(a.start, rules_text=a.rules) as g:
            out["single_count"] = g.perft(a.depth)
        out["single_wall_s"] = round(time.perf_counter() - t, 3)
        out["identical"] = out["single_count"] == out["count"]
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0 if out.get("identical", True) else 1


if __name__ == "__main__":
    from libball.perft import main as _main
    sys.exit(_main())
