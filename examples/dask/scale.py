#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Distributed self-play and perft for libball on Dask (docs/scale.md).

  scale.py [--scheduler ADDRESS | --workers N] selfplay [--games N] [--seed S]
           [--atk P] [--def P] [--rules TEXT] [--turn-limit T] [--bpn BPN]
           [--chunk K] [--check]
  scale.py [--scheduler ADDRESS | --workers N] perft DEPTH [--split 1|2|1,2]
           [--rules TEXT] [--bpn BPN] [--check]
  scale.py [--scheduler ADDRESS | --workers N] overhead [--tasks N]

--scheduler connects to a running cluster (e.g. tcp://10.0.0.5:8786);
otherwise a LocalCluster of N worker processes (default 2, one thread
each) is started on 127.0.0.1. This file's sibling ballscale.py is
uploaded to the workers, which need only the installed libball package
and its shared library. --check also runs the same job on this process
and exits 1 unless the results are identical. Prints one JSON object.

Self-play: game i (from 1) is seeded with S + i; a player P is random,
mcts (1000 playouts a decision) or mcts:N (N playouts). The games have the
turn limit of automated games, 100 (libball.learn.AUTO_TURN_LIMIT,
docs/rules-choices.md), unless --turn-limit T (0: none) or the turns= of
--rules gives one.
Perft: the position is divided at depth 1 or 2 (--split, default 1; 1,2
runs both); the subtrees are grouped into at most --max-tasks tasks
(default 200), and the counts are summed.
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ballscale  # noqa: E402  (after the path is set)
import libball  # noqa: E402
from libball import learn  # noqa: E402


def selfplay_rules(rules_text, turn_limit=None):
    """The rules text of the self-play games: ``rules_text`` with the turn
    limit ``turn_limit`` (0: none) set over it, or when that is None, the
    turns= of ``rules_text`` or else learn.AUTO_TURN_LIMIT."""
    if turn_limit is None:
        with libball.Game(rules_text=rules_text) as game:
            turn_limit = game.rules.turn_limit or learn.AUTO_TURN_LIMIT
    with libball.Game(rules_text=rules_text, turn_limit=turn_limit) as game:
        return game.rules_text


def connect(args):
    from distributed import Client, LocalCluster
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None,
                               scheduler_port=0)
        client = Client(cluster)
    client.upload_file(os.path.join(HERE, "ballscale.py"))
    return client, cluster


def run_selfplay(client, args):
    seeds = [args.seed + i for i in range(1, args.games + 1)]
    chunks = [seeds[i:i + args.chunk] for i in range(0, len(seeds), args.chunk)]
    t = time.perf_counter()
    futures = client.map(ballscale.play_games, chunks, bpn=args.bpn, rules_text=args.rules,
                         atk=args.atk, dfn=args.dfn, pure=False)
    games = [g for chunk in client.gather(futures) for g in chunk]
    wall = time.perf_counter() - t
    out = {"job": "selfplay", "rules": args.rules, "wall_s": round(wall, 3), "tasks": len(chunks),
           "workers": sorted({g["pid"] for g in games}).__len__(),
           "worker_libball": sorted({g["libball_file"] for g in games}),
           "summary": ballscale.summary(games)}
    out["replayed_ok"] = all(ballscale.replay_check(g, args.bpn, args.rules) for g in games)
    if args.check:
        t = time.perf_counter()
        local = [ballscale.play_game(s, args.bpn, args.rules, args.atk, args.dfn) for s in seeds]
        out["single_wall_s"] = round(time.perf_counter() - t, 3)
        out["single_summary"] = ballscale.summary(local)
        out["identical"] = out["single_summary"] == out["summary"]
    return out


def run_perft(client, args):
    out = {"job": "perft", "depth": args.depth, "splits": {}}
    for split in args.split:
        t = time.perf_counter()
        seqs = ballscale.split_moves(args.bpn, args.rules, split)
        # at most --max-tasks tasks: subtrees are grouped in chunks
        chunk = max(1, -(-len(seqs) // args.max_tasks))
        chunks = [seqs[i:i + chunk] for i in range(0, len(seqs), chunk)]
        futures = [client.submit(ballscale.perft_chunk, args.bpn, args.rules, c,
                                 args.depth - split, pure=False) for c in chunks]
        total = sum(client.gather(futures))
        out["splits"][str(split)] = {"subtrees": len(seqs), "tasks": len(chunks),
                                     "count": total,
                                     "wall_s": round(time.perf_counter() - t, 3)}
    counts = {v["count"] for v in out["splits"].values()}
    out["count"] = counts.pop() if len(counts) == 1 else None  # None: the splits disagree
    out["wall_s"] = round(sum(v["wall_s"] for v in out["splits"].values()), 3)
    if args.check:
        t = time.perf_counter()
        out["single_count"] = ballscale.perft_single(args.bpn, args.rules, args.depth)
        out["single_wall_s"] = round(time.perf_counter() - t, 3)
        out["identical"] = out["single_count"] == out["count"]
    return out


def run_overhead(client, args):
    client.gather(client.map(ballscale.noop, range(10), pure=False))  # warm up
    t = time.perf_counter()
    client.gather(client.map(ballscale.noop, range(args.tasks), pure=False))
    wall = time.perf_counter() - t
    return {"job": "overhead", "tasks": args.tasks, "wall_s": round(wall, 3),
            "ms_per_task": round(1000 * wall / args.tasks, 3)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scheduler", help="address of a running Dask scheduler")
    ap.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    sub = ap.add_subparsers(dest="job", required=True)
    sp = sub.add_parser("selfplay")
    sp.add_argument("--games", type=int, default=20)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--atk", default="random")
    sp.add_argument("--def", dest="dfn", default="random")
    sp.add_argument("--chunk", type=int, default=1, help="games per task")
    sp.add_argument("--turn-limit", type=int, default=None,
                    help="turn limit of the games, 0 for none (default: the turns= of "
                    "--rules, else %d)" % learn.AUTO_TURN_LIMIT)
    pp = sub.add_parser("perft")
    pp.add_argument("depth", type=int)
    pp.add_argument("--split", default="1",
                    help="divide at depth 1, 2, or both (1,2: one job after the other)")
    pp.add_argument("--max-tasks", type=int, default=200,
                    help="group the subtrees into at most this many tasks (default 200)")
    op = sub.add_parser("overhead")
    op.add_argument("--tasks", type=int, default=200)
    for p in (sp, pp):
        p.add_argument("--rules", default="", help="rules text (ball_rules_from_text)")
        p.add_argument("--bpn", default=libball.START_BPN, help="start position (BPN)")
        p.add_argument("--check", action="store_true",
                       help="also run on this process and compare")
    args = ap.parse_args(argv)
    if args.job == "selfplay":
        try:
            args.rules = selfplay_rules(args.rules, args.turn_limit)
        except libball.BallError as e:
            ap.error("--rules / --turn-limit: %s" % e)
    if args.job == "perft":
        try:
            args.split = [int(x) for x in args.split.split(",")]
        except ValueError:
            args.split = []
        if not args.split or any(x not in (1, 2) for x in args.split):
            ap.error("--split is 1, 2 or 1,2")
        if args.depth <= max(args.split):
            ap.error("perft DEPTH must be larger than --split")

    client, cluster = connect(args)
    try:
        job = {"selfplay": run_selfplay, "perft": run_perft, "overhead": run_overhead}[args.job]
        out = job(client, args)
        out["scheduler"] = client.scheduler.address
        out["n_workers"] = len(client.scheduler_info()["workers"])
        out["driver_libball"] = libball.__file__
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0 if out.get("identical", True) and out.get("replayed_ok", True) else 1


if __name__ == "__main__":
    sys.exit(main())
