# SPDX-License-Identifier: MIT
"""The game server's load benchmark (`make bench-server`, docs/server.md).

    python3 tests/server/bench.py [--games 200] [--seconds 60] [--dir DIR]
                                  [--postgres [--processes 2]]

Starts the server on a free 127.0.0.1 port with a fresh SQLite file in DIR,
then keeps GAMES games going at once for SECONDS seconds: each game has two
seats on WebSockets of their own playing random legal decisions (from each
client's own libball Game, kept in step with the events), with rules
"turns=40" so that games end and new ones start in their place. Prints the
decisions per second the server committed, the latency from a decision's
send to its broadcast back to the sender (p50, p99), the server's resident
memory before and after, and the lost or duplicated events found by
comparing every game's events on the server (read back by a fresh
spectator) with those its clients saw. Exits 1 if any was lost or
duplicated.

With --postgres (`make bench-server-pg`): a PostgreSQL cluster of its own
in DIR (initdb, pg_ctl, a unix socket), PROCESSES servers on it, and each
game's seats on two different processes (ATK on one, DEF on the next, the
games created on each in turn): every decision reaches the other seat
through PostgreSQL's LISTEN/NOTIFY. Also prints the latency from a
decision's send to its arrival at the other seat, on the other process.
"""

import argparse
import asyncio
import os
import random
import shutil
import signal
import sys
import time
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import ROOT, Client, PgCluster, ServerProcess, create_game  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "examples", "server"))
from server import install_loop  # noqa: E402

import aiohttp  # noqa: E402


async def bench(args: argparse.Namespace) -> int:
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    cluster = None
    opts = ("--rate", "100000", "--burst", "100000", "--create-rate", "1000000",
            "--create-burst", "100000", *args.server_args.split())
    if args.postgres:
        cluster = PgCluster(os.path.join(args.dir, "pg"))
        cluster.start()
        servers = [ServerProcess(cluster.dsn, *opts, log=os.path.join(args.dir, "server-%d.log" % i))
                   for i in range(args.processes)]
    else:
        servers = [ServerProcess(os.path.join(args.dir, "bench.sqlite"), *opts,
                                 "--synchronous", args.synchronous)]
    try:
        for server in servers:
            server.start()
        return await bench_on(args, servers)
    finally:
        for server in servers:
            server.stop()
        if cluster is not None:
            cluster.stop()


async def stats_of(http: aiohttp.ClientSession, servers: List[ServerProcess]) -> Dict[str, Any]:
    """The servers' counters summed; ``held``: each server's own."""
    total: Dict[str, Any] = {"held": []}
    for server in servers:
        async with http.get(server.url + "/api/stats") as r:
            for k, v in (await r.json()).items():
                if isinstance(v, dict):
                    total[k].append(v)
                else:
                    total[k] = total.get(k, 0) + v
    return total


async def bench_on(args: argparse.Namespace, servers: List[ServerProcess]) -> int:
    server = servers[0]
    rss_before = sum(s.rss_kb() for s in servers)
    cpu_before = sum(s.cpu_seconds() for s in servers)
    sys_before = sum(s.cpu_split()[1] for s in servers)
    own_before = time.process_time()
    latencies: List[float] = []
    across: List[float] = []  # send to arrival at the other seat (on another process)
    finished: List[Dict[str, Client]] = []
    problems: List[str] = []
    rng = random.Random(args.seed)
    stop_at = time.monotonic() + args.seconds
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:

        async def slot(i: int) -> None:
            n = 0
            while time.monotonic() < stop_at:
                # the game on one process, DEF's seat on the next one
                home = servers[(i + n) % len(servers)]
                away = servers[(i + n + 1) % len(servers)]
                n += 1
                made = await create_game(http, home.url, rules=args.rules)
                seats = {s: Client(http, (home if s == "ATK" else away).url, made["game"], v["token"])
                         for s, v in made["seats"].items()}
                for c in seats.values():
                    await c.connect()
                try:
                    while time.monotonic() < stop_at and seats["ATK"].outcome is None:
                        mover = next((c for c in seats.values() if c.my_turn()), None)
                        if mover is None:
                            await seats["ATK"].next_message(10)
                            continue
                        answer = await mover.play_random(rng)
                        if answer.get("type") != "ack":
                            problems.append("game %s: refused %r" % (made["game"], answer))
                            break
                        for c in seats.values():
                            await c.wait_seq(answer["seq"])
                finally:
                    for c in seats.values():
                        await c.close()
                        latencies.extend(c.latencies)
                    for c, other in ((seats["ATK"], seats["DEF"]), (seats["DEF"], seats["ATK"])):
                        across.extend(other.seen_at[q] - t for q, t in c.sent_log.items()
                                      if q in other.seen_at)
                finished.append(seats)

        t0 = time.monotonic()
        before = (await stats_of(http, servers))["decisions"]
        await asyncio.gather(*(slot(i) for i in range(args.games)))
        elapsed = time.monotonic() - t0
        stats = await stats_of(http, servers)
        rss_after = sum(s.rss_kb() for s in servers)
        cpu = sum(s.cpu_seconds() for s in servers) - cpu_before
        cpu_sys = sum(s.cpu_split()[1] for s in servers) - sys_before
        own = time.process_time() - own_before
        # every game: the server's events, read back whole by a spectator
        lost = duplicated = 0
        for seats in finished:
            watcher = Client(http, server.url, seats["ATK"].game_id)
            await watcher.connect()
            await watcher.close()
            seen = seats["ATK"].events
            acked = sorted(s for c in seats.values() for s in c.acked)
            if len(set(acked)) != len(acked):
                duplicated += len(acked) - len(set(acked))
            server_seqs = [e["seq"] for e in watcher.events]
            if server_seqs != list(range(1, len(server_seqs) + 1)) or watcher.mismatch:
                duplicated += 1
                problems.append("game %s: seqs %r..." % (watcher.game_id, server_seqs[:5]))
            if watcher.events[:len(seen)] != seen or seats["DEF"].events != seen:
                lost += 1
                problems.append("game %s: the clients saw other events" % watcher.game_id)
            lost += sum(1 for s in acked if s > len(watcher.events))
    decisions = stats["decisions"] - before
    latencies.sort()
    across.sort()

    def pct(p: float, values: List[float] = latencies) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else 0.0

    where = ("PostgreSQL 15, %d server processes" % len(servers) if args.postgres
             else "SQLite, synchronous=%s" % args.synchronous)
    print("bench-server: %d games at once for %.0f s (%d games played, rules %r, %s)"
          % (args.games, elapsed, len(finished), args.rules, where))
    print("  decisions: %d, %.0f per second; %d commits (%.1f decisions per commit, "
          "%.1f ms per commit from the event loop's call to its return)"
          % (decisions, decisions / elapsed, stats["commits"],
             decisions / max(1, stats["commits"]), stats["commit_ms"] / max(1, stats["commits"])))
    print("  send to broadcast: p50 %.1f ms, p99 %.1f ms (%d decisions)"
          % (pct(0.50), pct(0.99), len(latencies)))
    for i, held in enumerate(stats["held"]):
        print("  in the server%s, from the check of a decision to its broadcast and ack: "
              "p50 %s ms, p99 %s ms (the last %d decisions)"
              % (" %d" % (i + 1) if len(servers) > 1 else "", held["p50_ms"], held["p99_ms"],
                 held["decisions"]))
    if len(servers) > 1:
        print("  send to the other seat, on another process: p50 %.1f ms, p99 %.1f ms "
              "(%d decisions; %d events caught up from PostgreSQL)"
              % (pct(0.50, across), pct(0.99, across), len(across), stats.get("caught_up", 0)))
    print("  CPU: server%s %.1f s (%.0f us per decision; the kernel's part %.1f s), "
          "the clients' process %.1f s, in %.0f s of wall clock"
          % ("s" if len(servers) > 1 else "", cpu, cpu * 1e6 / max(1, decisions), cpu_sys, own,
             elapsed))
    print("  server memory (VmRSS%s): %.1f MB before, %.1f MB after"
          % (", all processes" if len(servers) > 1 else "", rss_before / 1024, rss_after / 1024))
    print("  lost: %d, duplicated: %d" % (lost, duplicated))
    print("  machine: %d processors, load average %.1f at the end (other work included); "
          "the clients on %s" % (os.cpu_count() or 0, os.getloadavg()[0],
                                 type(asyncio.get_running_loop()).__module__.split(".")[0]))
    for p in problems[:10]:
        print("  " + p)
    return 1 if lost or duplicated or problems else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--dir", default="build/bench-server")
    p.add_argument("--rules", default="turns=40")
    p.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--server-args", default="", help="more options of the server, e.g. "
                   "'--loop asyncio' or '--commit-window 2' (one word with =: "
                   "--server-args=--no-log)")
    p.add_argument("--client-loop", default="auto", choices=("auto", "uvloop", "asyncio"),
                   help="the clients' event loop (auto: uvloop when installed, as the "
                   "server's --loop): the clients share the processors with the server")
    p.add_argument("--postgres", action="store_true",
                   help="PostgreSQL (a cluster of its own in DIR) and several server processes")
    p.add_argument("--processes", type=int, default=2, help="with --postgres (default 2)")
    args = p.parse_args()
    # timeout(1)'s SIGTERM: the servers and the cluster are stopped on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if not install_loop(args.client_loop, "bench: --client-loop"):
        return 2
    return asyncio.run(bench(args))


if __name__ == "__main__":
    sys.exit(main())
