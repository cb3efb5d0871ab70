# SPDX-License-Identifier: MIT
"""Tests of the game server's lobby API, rematches, structured log and
connections (examples/server, docs/server.md), run by tests/tools/server_test.sh:

    python3 tests/server/test_lobby.py DIR [PART...]

Parts: lobby (the lobby's open games and games in play with their names,
rules, clock and bot; an open seat for ATK or DEF claimed with a name;
the per-address creation limit; a rematch offered and accepted with the
colours swapped and the same rules, clock and bot, refused to the wrong
token, before the end and twice), log (one JSON line per game event and
per refused request or message, with the game's id), leak (300
connections closed by their clients, some in the middle of a game's
broadcasts: no "Task was destroyed but it is pending" on the server's
standard error, and no connection left counted). Prints FAIL lines and
exits 1 when a check fails."""

import asyncio
import json
import os
import random
import sys
import time
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, ServerProcess, create_game  # noqa: E402

import aiohttp  # noqa: E402

failures: List[str] = []
MANY = ("--create-burst", "1000", "--create-rate", "100000")


def check(cond: bool, what: str) -> None:
    if not cond:
        failures.append(what)
        print("FAIL: %s" % what, flush=True)


async def post(http: aiohttp.ClientSession, url: str, body: Any = None):
    async with http.post(url, json=body if body is not None else {}) as r:
        return r.status, await r.json()


async def get(http: aiohttp.ClientSession, url: str) -> Any:
    async with http.get(url) as r:
        return await r.json()


async def part_lobby(dirname: str) -> None:
    server = ServerProcess(os.path.join(dirname, "lobby.sqlite"), "--create-burst", "6",
                           "--create-rate", "0.6")
    server.start()
    try:
        async with aiohttp.ClientSession() as http:
            u = server.url
            # without --web, / leads to the lobby's page
            async with http.get(u + "/", allow_redirects=False) as r:
                check(r.status == 302 and r.headers.get("Location") == "/lobby/",
                      "/ leads to /lobby/: %d %r" % (r.status, r.headers.get("Location")))
            async with http.get(u + "/lobby/") as r:
                check(r.status == 200 and "lobby.mjs" in await r.text(), "the lobby page")
            # the lobby: an open seat (ATK left open), a game in play against the bot
            open_game = await create_game(http, u, rules="turns=20", turn_seconds=60,
                                          public=True, open_seat="ATK", def_name="Dora")
            check(list(open_game["seats"]) == ["DEF"], "open_seat ATK: only DEF's token given")
            bot_game = await create_game(http, u, rules="turns=10", public=True, atk="bot",
                                         bot_nodes=500, def_name="Eve")
            lobby = await get(http, u + "/api/games")
            games = {g["game"]: g for g in lobby["games"]}
            og, bg = games.get(open_game["game"]), games.get(bot_game["game"])
            check(og is not None and og["seats"]["ATK"]["unclaimed"] and og["seats"]["DEF"]["name"] == "Dora"
                  and og["rules"] == "turns=20" and og["turn_seconds"] == 60,
                  "the open game in the lobby: %r" % og)
            check(bg is not None and bg["seats"]["ATK"]["kind"] == "bot" and bg["bot_nodes"] == 500
                  and bg["seats"]["DEF"]["name"] == "Eve", "the bot game in the lobby: %r" % bg)
            check([lv["nodes"] for lv in lobby["limits"]["levels"]] == [500, 2000, 8000, 20000]
                  and lobby["limits"]["max_bot_games"] == 32, "the limits: %r" % lobby["limits"])
            # the open seat, claimed with a name
            status, claim = await post(http, u + "/api/games/%s/claim" % open_game["game"],
                                       {"name": "Finn"})
            check(status == 200 and claim["side"] == "ATK", "claim: %d %r" % (status, claim))
            state = await get(http, u + "/api/games/%s" % open_game["game"])
            check(state["seats"]["ATK"]["name"] == "Finn" and not state["seats"]["ATK"]["unclaimed"],
                  "the name given with the claim: %r" % state["seats"])
            # the clock runs once both seats are held: one second a turn
            made = await create_game(http, u, turn_seconds=1, public=True, open_seat=True)
            await asyncio.sleep(1.5)
            state = await get(http, u + "/api/games/%s" % made["game"])
            check(state["deadline"] is None and state["outcome"] is None and state["seq"] == 0,
                  "no clock while a seat is open: %r" % state)
            status, claim = await post(http, u + "/api/games/%s/claim" % made["game"], {})
            t = time.time()
            state = await get(http, u + "/api/games/%s" % made["game"])
            check(state["deadline"] is not None and t - 1 < state["deadline"] <= t + 1.5,
                  "the clock from the claim: %r (now %.3f)" % (state["deadline"], t))
            await asyncio.sleep(2.0)
            state = await get(http, u + "/api/games/%s" % made["game"])
            check(state["outcome"] == {"result": "1-0", "reason": "time"},
                  "DEF lost on time after the claim: %r" % state["outcome"])
            status, body = await post(http, u + "/api/games/%s/claim" % open_game["game"],
                                      {"name": 7})
            check(status == 400, "a name that is not text: %d %r" % (status, body))
            # the creation limit per address (a burst of 6: 3 made above, 3 left)
            made = 0
            for _ in range(6):
                async with http.post(u + "/api/games", json={}) as r:
                    made += r.status == 201
                    last = (r.status, (await r.json()).get("reason"), r.headers.get("Retry-After"))
            check(made == 3 and last[:2] == (429, "rate_limited") and last[2] is not None,
                  "the per-address limit: %d made, then %r" % (made, last))

        # a rematch: another server (a fresh address budget)
        server.stop()
        server = ServerProcess(os.path.join(dirname, "rematch.sqlite"), *MANY)
        server.start()
        u = server.url
        async with aiohttp.ClientSession() as http:
            made = await create_game(http, u, rules="turns=20", turn_seconds=120, atk_name="Ann",
                                     def_name="Bo", public=True)
            tok = {s: v["token"] for s, v in made["seats"].items()}
            rem = u + "/api/games/%s/rematch" % made["game"]
            status, body = await post(http, rem, {"token": tok["ATK"]})
            check(status == 409 and body["reason"] == "not_over", "before the end: %d %r" % (status, body))
            c = Client(http, u, made["game"], tok["DEF"])
            await c.connect()
            r = await c.send(type="resign", seq=1)
            check(r.get("type") == "ack", "DEF resigns: %r" % r)
            status, body = await post(http, rem, {"token": "x" * 32})
            check(status == 403 and body["reason"] == "bad_token", "a wrong token: %d %r" % (status, body))
            status, body = await post(http, rem, {})
            check(status == 403, "no token: %d %r" % (status, body))
            status, offer = await post(http, rem, {"token": tok["DEF"]})
            check(status == 201 and offer["side"] == "ATK", "DEF offers, plays ATK: %d %r" % (status, offer))
            new = offer.get("game", "")
            state = await get(http, u + "/api/games/%s" % new)
            check(state["seats"]["ATK"]["name"] == "Bo" and state["seats"]["DEF"]["name"] == "Ann"
                  and state["seats"]["DEF"]["unclaimed"] and state["seats"]["DEF"]["reserved"]
                  and state["rules"] == "turns=20" and state["turn_seconds"] == 120
                  and state["rematch_of"] == made["game"], "the rematch: %r" % state)
            old = await get(http, u + "/api/games/%s" % made["game"])
            check(old["rematch"] == new and old["rematch_by"] == "DEF", "the old game names it: %r" % old)
            lobby = await get(http, u + "/api/games")
            check(all(not (g["game"] == new and g["seats"]["DEF"]["unclaimed"]
                           and not g["seats"]["DEF"]["reserved"]) for g in lobby["games"]),
                  "the kept seat is not offered to the lobby")
            status, body = await post(http, u + "/api/games/%s/claim" % new, {})
            check(status == 409, "the kept seat cannot be claimed from the lobby: %d" % status)
            status, body = await post(http, rem, {"token": tok["DEF"]})
            check(status == 409 and body["reason"] == "rematch_offered", "offered twice: %d %r" % (status, body))
            status, accept = await post(http, rem, {"token": tok["ATK"]})
            check(status == 200 and accept["game"] == new and accept["side"] == "DEF",
                  "ATK accepts, plays DEF: %d %r" % (status, accept))
            status, body = await post(http, rem, {"token": tok["ATK"]})
            check(status == 409, "accepted once: %d %r" % (status, body))
            players = {s: Client(http, u, new, t) for s, t in (("ATK", offer["token"]),
                                                              ("DEF", accept["token"]))}
            for p in players.values():
                await p.connect()
            check(players["ATK"].side == "ATK" and players["DEF"].side == "DEF",
                  "both seats of the rematch hold their tokens")
            for p in (c, *players.values()):
                await p.close()
            # against the bot: the rematch starts at once, the bot on the other side
            made = await create_game(http, u, rules="turns=4", atk="bot", bot_nodes=500)
            me = Client(http, u, made["game"], made["seats"]["DEF"]["token"])
            await me.connect()
            r = await me.send(type="resign", seq=1)
            status, offer = await post(http, u + "/api/games/%s/rematch" % made["game"],
                                       {"token": made["seats"]["DEF"]["token"]})
            state = await get(http, u + "/api/games/%s" % offer.get("game"))
            check(status == 201 and offer["side"] == "ATK" and state["seats"]["DEF"]["kind"] == "bot"
                  and state["bot_nodes"] == 500 and not state["seats"]["DEF"]["unclaimed"],
                  "a rematch against the bot: %d %r" % (status, state))
            await me.close()
    finally:
        server.stop()


async def part_log(dirname: str) -> None:
    log = os.path.join(dirname, "log.jsonl")
    server = ServerProcess(os.path.join(dirname, "log.sqlite"), "--log", log, *MANY)
    server.start()
    try:
        async with aiohttp.ClientSession() as http:
            made = await create_game(http, server.url, rules="turns=4")
            c = {s: Client(http, server.url, made["game"], v["token"]) for s, v in made["seats"].items()}
            for x in c.values():
                await x.connect()
            rng = random.Random(5)
            r = await c["ATK"].send(type="decision", seq=1, action="G5-I3")  # DEF is to act
            check(r.get("reason") == "not_your_turn", "refused: %r" % r)
            n = 0
            while c["DEF"].outcome is None and n < 500:
                mover = next((x for x in c.values() if x.my_turn()), None)
                if mover is None:
                    break
                answer = await mover.play_random(rng)
                check(answer.get("type") == "ack", "a legal decision: %r" % answer)
                n += 1
                for x in c.values():  # both in step before the next
                    await x.wait_seq(answer["seq"])
            async with http.get(server.url + "/api/games/nope") as r:
                check(r.status == 404, "no such game")
            for x in c.values():
                await x.close()
        await asyncio.sleep(0.3)
    finally:
        server.stop()
    with open(log) as f:
        lines = [json.loads(line) for line in f]
    game = made["game"]
    events = [x for x in lines if x["msg"] == "event" and x["game"] == game]
    check([x["seq"] for x in events] == list(range(1, len(c["DEF"].events) + 1)),
          "one line per event, in order: %d lines, %d events" % (len(events), len(c["DEF"].events)))
    check(all(x["action"] == e["action"] for x, e in zip(events, c["DEF"].events)),
          "each line with the event's decision")
    check("outcome" in events[-1], "the last event's line has the outcome")
    refused = [x for x in lines if x["msg"] == "refused"]
    check(any(x["game"] == game and x["reason"] == "not_your_turn" and x["side"] == "ATK"
              for x in refused), "a refused message's line, with its game: %r" % refused)
    check(any(x["game"] == "nope" and x["status"] == 404 for x in refused),
          "a refused request's line, with the game asked for")
    check(any(x["msg"] == "game" and x["what"] == "created" and x["game"] == game for x in lines),
          "the game's creation")
    check(all("ts" in x for x in lines), "every line has its time")
    print("log: %d lines, %d of them events of the game" % (len(lines), len(events)))


async def part_leak(dirname: str) -> None:
    server = ServerProcess(os.path.join(dirname, "leak.sqlite"), *MANY)
    server.start()
    try:
        async with aiohttp.ClientSession() as http:
            made = await create_game(http, server.url)
            tok = {s: v["token"] for s, v in made["seats"].items()}
            player = Client(http, server.url, made["game"], tok["DEF"])
            await player.connect()
            rng = random.Random(9)

            async def watcher(i: int) -> None:
                ws = await http.ws_connect(server.url + "/ws")
                await ws.send_str(json.dumps({"type": "hello", "game": made["game"]}))
                await ws.receive(timeout=10)
                if i % 3 == 0:  # gone without a close frame
                    ws._response.connection.transport.abort()  # type: ignore[union-attr]
                    ws._response.close()  # type: ignore[union-attr]
                else:
                    await ws.close()

            t = time.monotonic()
            for i in range(0, 300, 30):
                await asyncio.gather(*(watcher(i + j) for j in range(30)))
                if player.my_turn() and player.outcome is None:
                    await player.play_random(rng)  # broadcasts to whoever is left
            await asyncio.sleep(0.5)
            stats = await get(http, server.url + "/api/stats")
            check(stats["connections"] == 1, "only the player's connection left: %r" % stats)
            await player.close()
            print("leak: 300 connections opened and closed in %.1f s" % (time.monotonic() - t))
    finally:
        server.stop()
    with open(server.log) as f:
        err = f.read()
    check("Task was destroyed but it is pending" not in err and "Traceback" not in err,
          "the server's standard error: %r" % err[-500:])


async def main() -> int:
    dirname = sys.argv[1]
    os.makedirs(dirname, exist_ok=True)
    parts = sys.argv[2:] or ["lobby", "log", "leak"]
    for part in parts:
        t = time.monotonic()
        before = len(failures)
        await {"lobby": part_lobby, "log": part_log, "leak": part_leak}[part](dirname)
        print("%s: %s (%.1f s)" % (part, "ok" if len(failures) == before else "FAILED",
                                   time.monotonic() - t), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
