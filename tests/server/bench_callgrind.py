# SPDX-License-Identifier: MIT
"""The server's instructions a decision (`make bench-server-callgrind`,
docs/server.md): a measure that the machine's load does not move.

    python3 tests/server/bench_callgrind.py [--games 20] [--warm 15] [--window 20]
                                            [--rules turns=400] [--dir DIR]

Starts the server under callgrind with instrumentation off, plays GAMES
games of random legal play on it with bench.py's clients (SQLite,
synchronous=FULL), turns instrumentation on after WARM seconds and off
WINDOW seconds later (callgrind_control), and prints the instructions the
server's process executed in that window (its threads, the storage
thread included; not the kernel's) divided by the decisions committed in
it. The rules' long turn limit keeps games from starting or ending in the
window. Compare two trees by running it in each, in turn.
"""

import argparse
import asyncio
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import client  # noqa: E402

import aiohttp  # noqa: E402


class CallgrindServer(client.ServerProcess):
    """The server under callgrind, instrumentation off until asked."""

    def __init__(self, db: str, out: str, *args: str) -> None:
        super().__init__(db, *args)
        self.out = out

    def start(self, timeout: float = 120.0) -> None:
        self.proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             "--callgrind-out-file=" + self.out, sys.executable, client.SERVER,
             "--port", "0", "--db", self.db, *self.args],
            stdout=subprocess.PIPE, stderr=open(self.log, "a"), text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            self.kill()
            raise RuntimeError("the server did not start: %r (see %s)" % (line, self.log))
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])

    def instrument(self, on: bool) -> None:
        assert self.proc is not None
        subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(self.proc.pid)],
                       check=True, stdout=subprocess.DEVNULL)


def instructions(path: str) -> int:
    """The total of a callgrind output file."""
    total = 0
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return total


async def measure(args: argparse.Namespace) -> int:
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    out = os.path.join(args.dir, "callgrind.out")
    server = CallgrindServer(os.path.join(args.dir, "bench.sqlite"), out,
                             "--rate", "100000", "--burst", "100000",
                             "--create-rate", "1000000", "--create-burst", "100000")
    # play goes on for 15 s after the window, so that the instrumentation is
    # off (callgrind_control waits for the slowed server) before the
    # clients stop and read every game back, which is not a decision's work
    play = argparse.Namespace(games=args.games, seconds=args.warm + args.window + 15,
                              rules=args.rules, seed=1, postgres=False, synchronous="FULL")

    async def window() -> "tuple[dict, dict]":
        async with aiohttp.ClientSession() as http:
            await asyncio.sleep(args.warm)
            before = await bench.stats_of(http, [server])
            server.instrument(True)
            await asyncio.sleep(args.window)
            server.instrument(False)
            return before, await bench.stats_of(http, [server])

    server.start()
    try:
        timed = asyncio.ensure_future(window())
        status = await bench.bench_on(play, [server])
        before, after = await timed
    finally:
        server.stop()
    decisions = after["decisions"] - before["decisions"]
    events = after["events"] - before["events"]
    total = instructions(out)
    print("bench-server-callgrind: %d games, %.0f s instrumented after %.0f s: %d decisions "
          "(%d events), %d instructions, %.0f a decision"
          % (args.games, args.window, args.warm, decisions, events, total,
             total / max(1, decisions)))
    if not decisions or not total:
        print("  nothing measured")
        return 1
    return status


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--warm", type=float, default=15.0)
    p.add_argument("--window", type=float, default=20.0)
    p.add_argument("--rules", default="turns=400")
    p.add_argument("--dir", default="build/bench-server-callgrind")
    args = p.parse_args()
    return asyncio.run(measure(args))


if __name__ == "__main__":
    sys.exit(main())
