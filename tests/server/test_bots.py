# SPDX-License-Identifier: MIT
"""Tests of the game server's bots (examples/server/bots.py, docs/server.md
"Bots"), run by tests/tools/server_test.sh:

    python3 tests/server/test_bots.py DIR [PART...]

Parts: nullturn (no turn that ends where ``end`` at once would, at every
strength the lobby offers, from the 55 positions after DEF's first
decision, and through the server), eval (``--bot-eval``: the server's
bot plays the turn of the evaluation chosen, the network by default, and
a bad value is refused at start-up with a message), attack (the attack of issue 48
replayed: bot-only games of the greatest strength from several client
addresses, refused with clear 4xx answers past the server's caps and the
per-address rate; the server's memory stays under the documented budget
while the accepted ones play, and the bot of a person's game still
answers within BOT_REPLY_SECONDS). Prints FAIL lines and exits 1 when a
check fails."""

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from typing import Any, Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import ROOT, SERVER, Client, ServerProcess, create_game  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "examples", "server"))
import aiohttp  # noqa: E402

import bots  # noqa: E402
import libball  # noqa: E402

failures: List[str] = []
#: The longest a person's bot may take to answer during the attack. The
#: pool serves games with a person first: the wait is the searches
#: already running (at most the strongest budget's) and its own.
BOT_REPLY_SECONDS = 8.0
#: What the server may hold beyond its resident memory at the start: the
#: bots' tables (--bot-memory, 64 MiB by default) and the games (docs/server.md).
MEMORY_MARGIN_MB = 40


def check(cond: bool, what: str) -> None:
    if not cond:
        failures.append(what)
        print("FAIL: %s" % what, flush=True)


def null_turn(game: libball.Game, turn: List[str]) -> bool:
    """A turn of several decisions that hands over the position ``end``
    at once would: a piece moved out and back."""
    if len(turn) < 2 or not game.is_legal("end"):
        return False
    ended, played = game.clone(), game.clone()
    try:
        ended.apply("end")
        for text in turn:
            played.apply(text)
        return (ended.hash, ended.bpn) == (played.hash, played.bpn)
    finally:
        ended.close()
        played.close()


def after_first_decisions() -> List[libball.Game]:
    """The positions after each first decision of DEF (and its end of
    the turn when the turn goes on): ATK to act."""
    out = []
    start = libball.Game()
    for action in start.legal_actions():
        g = start.clone()
        g.apply(action)
        if g.side != libball.Team.ATK and g.is_legal("end"):
            g.apply("end")
        if g.side == libball.Team.ATK and not g.is_over:
            out.append(g)
        else:
            g.close()
    return out


async def part_nullturn(dirname: str) -> None:
    # the shortening itself: the null turn of the issue is played as `end`
    g = libball.Game()
    g.apply("end")
    check(bots.shortest_turn(g, ["G5-I3", "I3-G5", "end"]) == ["end"],
          "G5-I3 I3-G5 end is played as end")
    check(bots.shortest_turn(g, ["G5-I3", "end"]) == ["G5-I3", "end"],
          "a turn that changes the position is kept")
    check(bots.shortest_turn(g, ["G5-I3", "I3-G5"]) == ["G5-I3", "I3-G5"],
          "a plan short of the hand-over is kept as it is")
    # every strength of the lobby, from every position after DEF's first decision
    positions = after_first_decisions()
    check(len(positions) >= 50, "positions to try: %d" % len(positions))
    old = 0
    for name, nodes in bots.LEVELS:
        found = []
        for pos in positions:
            turn = bots.plan_turn(pos.clone(), nodes, 8)
            if null_turn(pos, turn):
                found.append(" ".join(turn))
            # how the server chose before (a searcher kept for the game,
            # asked at each decision): printed, for the record
            with libball.TurnSearch(nodes=nodes) as searcher:
                c, asked = pos.clone(), []
                while not c.is_over and c.side == libball.Team.ATK:
                    a = searcher.choose(c)
                    c.apply(a)
                    asked.append(a.text)
                c.close()
            old += null_turn(pos, asked)
        check(not found, "%s (%d nodes): null turns %r" % (name, nodes, found[:3]))
    print("nullturn: %d positions x %d strengths, no null turn (deciding at each decision "
          "gave %d)" % (len(positions), len(bots.LEVELS), old))
    for pos in positions:
        pos.close()
    # through the server: DEF a person, ATK the bot at the default strength
    server = ServerProcess(os.path.join(dirname, "nullturn.sqlite"))
    server.start()
    try:
        for first in ("G15-I15", "K11-L10", "E11-F10"):
            position, turn = await bot_turn(server, first)
            check(bool(turn) and not null_turn(position, turn),
                  "the server's bot after %s: %r" % (first, turn))
            position.close()
    finally:
        server.stop()


async def bot_turn(server: ServerProcess, first: str) -> Tuple[libball.Game, List[str]]:
    """The position after DEF's ``first`` decision (and its ``end`` when
    the turn goes on) in a new game against the server's bot (2000 nodes),
    and ATK's turn from there, as the bot played it."""
    async with aiohttp.ClientSession() as http:
        made = await create_game(http, server.url, atk="bot", bot_nodes=2000)
        c = Client(http, server.url, made["game"], made["seats"]["DEF"]["token"])
        await c.connect()
        r = await c.send(type="decision", seq=1, action=first)
        check(r.get("type") == "ack", "DEF's first decision: %r" % r)
        seq = 1
        if c.game.side == libball.Team.DEF and c.game.is_legal("end"):
            await c.send(type="decision", seq=2, action="end")
            seq = 2
        position = c.game.clone()
        while c.game.side == libball.Team.ATK and not c.game.is_over:
            await c.next_message(20)
        turn = [e["action"] for e in c.events[seq:]]
        await c.close()
        return position, turn


async def part_eval(dirname: str) -> None:
    """--bot-eval reaches the bots' TurnSearch: with one bot thread and
    8 MiB (the table of plan_turn(..., 8)) the server's bot plays the turn
    that the search with that evaluation plans, and the two evaluations
    plan different turns there (else this would tell nothing)."""
    first = "G15-I15"
    pos = libball.Game()
    pos.apply(first)
    if pos.side == libball.Team.DEF and pos.is_legal("end"):
        pos.apply("end")
    planned = {how: bots.plan_turn(pos.clone(), 2000, 8, how) for how in bots.EVALUATIONS}
    pos.close()
    check(planned["network"] != planned["hand"],
          "the evaluations plan different turns after %s: %r" % (first, planned))
    for how, args in (("network", ()), ("hand", ("--bot-eval", "hand"))):
        db = os.path.join(dirname, "eval-%s.sqlite" % how)
        log = db + ".log"
        server = ServerProcess(db, "--bot-threads", "1", "--bot-memory", "8", *args, log=log)
        server.start()
        try:
            position, turn = await bot_turn(server, first)
            position.close()
        finally:
            server.stop()
        check(turn == planned[how], "--bot-eval %s (%s): the bot played %r, the search with "
              "eval=%r plans %r" % (how, " ".join(args) or "the default", turn, how,
                                    planned[how]))
        with open(log) as f:
            starts = [json.loads(line) for line in f if '"start"' in line]
        check(bool(starts) and starts[-1].get("bot_eval") == how,
              "the start line of the log says bot_eval %s: %r" % (how, starts[-1:]))
    # a bad value: refused at start-up, with the option and the accepted values
    r = subprocess.run([sys.executable, SERVER, "--port", "0", "--bot-eval", "nnue",
                        "--db", os.path.join(dirname, "never.sqlite")],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 2 and "--bot-eval" in r.stderr and "'nnue'" in r.stderr
          and "'network', 'hand'" in r.stderr,
          "--bot-eval nnue refused at start-up: exit %d, %r" % (r.returncode, r.stderr[-300:]))
    check(not os.path.exists(os.path.join(dirname, "never.sqlite")),
          "--bot-eval nnue: nothing made before the refusal")
    try:
        bots.BotPool(1, 8, "nnue")
        check(False, "BotPool(evaluation='nnue') refused")
    except ValueError as e:
        check("network or hand, not 'nnue'" in str(e), "BotPool's message: %s" % e)
    print("eval: the bot plays %r with the network (default), %r with --bot-eval hand"
          % (" ".join(planned["network"]), " ".join(planned["hand"])))


def rss_mb(server: ServerProcess) -> float:
    return server.rss_kb() / 1024


async def part_attack(dirname: str) -> None:
    """Issue 48's attack: bot-only games of the greatest strength, a long
    rule, from 8 addresses at once (127.0.0.2-9: one machine, as many
    clients as it likes), with the server's defaults."""
    db = os.path.join(dirname, "attack.sqlite")
    for old in (db, db + "-wal", db + "-shm"):
        if os.path.exists(old):
            os.remove(old)  # its games would count
    server = ServerProcess(db, "--bot-threads", "2")
    server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/api/games") as r:
                limits = (await r.json())["limits"]
            rss0 = rss_mb(server)
            # a person's game against the bot, made before the attack
            mine = await create_game(http, server.url, rules="turns=60", atk="bot", bot_nodes=2000)
            me = Client(http, server.url, mine["game"], mine["seats"]["DEF"]["token"])
            await me.connect()
            answers: Dict[Any, int] = {}
            accepted: List[str] = []

            async def attacker(address: str) -> None:
                conn = aiohttp.TCPConnector(local_addr=(address, 0))
                async with aiohttp.ClientSession(connector=conn) as own:
                    # 12 a address: 2 too strong, 8 of the greatest strength,
                    # 2 past the address's burst (10)
                    for nodes in [200000] * 2 + [limits["max_bot_nodes"]] * 10:
                        if True:
                            async with own.post(server.url + "/api/games", json={
                                    "atk": "bot", "def": "bot", "bot_nodes": nodes,
                                    "rules": "turns=9999", "public": True}) as r:
                                body = await r.json()
                                key = (r.status, body.get("reason"))
                                answers[key] = answers.get(key, 0) + 1
                                if r.status == 201:
                                    accepted.append(body["game"])
                                elif r.status == 429:
                                    check(int(r.headers.get("Retry-After", "0")) >= 1,
                                          "a 429 says when to come back: %r" % dict(r.headers))
                                check(r.status in (201, 400, 429) and (r.status == 201 or
                                                                        body.get("message")),
                                      "an answer with its reason: %d %r" % (r.status, body))

            await asyncio.gather(*(attacker("127.0.0.%d" % i) for i in range(2, 10)))
            print("attack: answers %s" % sorted(answers.items()))
            check(answers.get((400, "bot_too_strong"), 0) == 16,
                  "bot_nodes=200000 refused every time (400 bot_too_strong)")
            check(len(accepted) == limits["max_bot_games"] - 1,
                  "bot games accepted up to the cap: %d of %d (one was the person's)"
                  % (len(accepted), limits["max_bot_games"]))
            check(answers.get((429, "too_many_bot_games"), 0) >= 1, "429 too_many_bot_games")
            check(answers.get((429, "rate_limited"), 0) == 16, "429 rate_limited per address")
            # while the bot games play: the person plays and times the bot's answers
            peak, waits, t_end = rss0, [], time.monotonic() + 20
            rng = random.Random(7)
            while time.monotonic() < t_end and me.outcome is None:
                peak = max(peak, rss_mb(server))
                if me.my_turn():
                    r = await me.play_random(rng)
                    check(r.get("type") == "ack", "the person's decision: %r" % r)
                    if not me.my_turn() and me.outcome is None:
                        t = time.monotonic()
                        await me.wait_seq(me.seq + 1, timeout=30)
                        waits.append(time.monotonic() - t)
                else:
                    await me.next_message(30)
            while time.monotonic() < t_end:  # the bot games go on: memory, 20 s
                peak = max(peak, rss_mb(server))
                await asyncio.sleep(0.3)
            async with http.get(server.url + "/api/stats") as r:
                stats = await r.json()
            print("attack: RSS %.1f MB at the start, %.1f MB at most; the person's bot answered "
                  "%d times, at most in %.2f s; %d decisions, %d bot plans"
                  % (rss0, peak, len(waits), max(waits or [0]), stats["decisions"],
                     stats.get("bot_plans", 0)))
            check(len(waits) >= 3, "the person's bot answered (%d times)" % len(waits))
            check(max(waits or [99]) < BOT_REPLY_SECONDS,
                  "the person's bot answers within %g s: %r" % (BOT_REPLY_SECONDS, waits))
            check(peak < rss0 + 64 + MEMORY_MARGIN_MB,
                  "memory under the budget: %.1f MB at most, %.1f at the start" % (peak, rss0))
            await me.close()
    finally:
        server.stop()


async def main() -> int:
    dirname = sys.argv[1]
    os.makedirs(dirname, exist_ok=True)
    parts = sys.argv[2:] or ["nullturn", "eval", "attack"]
    for part in parts:
        t = time.monotonic()
        before = len(failures)
        await {"nullturn": part_nullturn, "eval": part_eval, "attack": part_attack}[part](dirname)
        print("%s: %s (%.1f s)" % (part, "ok" if len(failures) == before else "FAILED",
                                   time.monotonic() - t), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
