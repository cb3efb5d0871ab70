# SPDX-License-Identifier: MIT
"""The game server as two processes on one PostgreSQL database (run by
tests/tools/server_pg_test.sh, which starts the database):

    python3 tests/server/test_server_pg.py DIR DSN

Two servers A and B on free 127.0.0.1 ports share DSN. A game created on A
is played with its decisions sent to A and B in turn, each sent as soon as
the previous one is acknowledged (so that the process it goes to may not
have heard of that one yet); spectators on A and B must see every
decision, in order, none lost or duplicated. Replays, decisions out of
turn and two different decisions for one seq sent at once to both
processes are refused on the other process. Then kill -9 of A mid-game:
the game goes on through B, then through A restarted; the records that A
and B serve hold what the clients saw. Then the lobby's open seat
claimed on A and B at the same moment goes to exactly one of them. Last,
every connection to the database is terminated mid-game: both processes
open theirs again and the game goes on, watched on both. A bot game: both
processes play the bot's turns, one commit wins each decision. The server PIDs go to DIR/pids so
that the shell test can kill them whatever happens here."""

import asyncio
import os
import random
import sys
from typing import Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, ServerProcess, create_game  # noqa: E402

import aiohttp  # noqa: E402
import psycopg2  # noqa: E402

import libball  # noqa: E402

RULES = "turns=12"
failures: List[str] = []


def check(cond: bool, what: str) -> None:
    if not cond:
        failures.append(what)
        print("FAIL: %s" % what, flush=True)


class Table:
    """One game seen from both processes: each seat holds a connection to
    A and one to B, a spectator watches on each; ``ref`` is the game as
    the acknowledgements made it (the truth the spectators must match)."""

    def __init__(self, http: aiohttp.ClientSession, urls: Dict[str, str], made: Dict) -> None:
        self.http, self.urls, self.made = http, urls, made
        self.gid = made["game"]
        self.ref = libball.Game(rules_text=made["state"]["rules"])
        self.acked: List[str] = []  # the actions acknowledged, seq 1..n
        self.seats: Dict[str, Dict[str, Client]] = {}
        self.watchers: Dict[str, Client] = {}

    async def connect(self, proc: str) -> None:
        """The seats' and a spectator's connections to process ``proc``
        (again after a restart: they resume at the last seq they saw)."""
        for side in ("ATK", "DEF"):
            c = Client(self.http, self.urls[proc], self.gid, self.made["seats"][side]["token"])
            old = self.seats.setdefault(side, {}).get(proc)
            if old is not None:
                c.events, c.game = list(old.events), old.game
            await c.connect()
            self.seats[side][proc] = c
        w = Client(self.http, self.urls[proc], self.gid)
        old_w = self.watchers.get(proc)
        if old_w is not None:
            w.events, w.game = list(old_w.events), old_w.game
        await w.connect()
        self.watchers[proc] = w

    @property
    def seq(self) -> int:
        return len(self.acked)

    def side(self) -> str:
        return "ATK" if self.ref.side == libball.Team.ATK else "DEF"

    async def play(self, proc: str, rng: random.Random) -> Dict:
        """One random legal decision of the side to act, sent to ``proc``."""
        legal = self.ref.legal_actions()
        action = legal[rng.randrange(len(legal))].text
        answer = await self.seats[self.side()][proc].send(
            type="decision", seq=self.seq + 1, action=action)
        check(answer.get("type") == "ack" and answer.get("seq") == self.seq + 1,
              "decision %d (%s) on %s acknowledged: %r" % (self.seq + 1, action, proc, answer))
        if answer.get("type") == "ack":
            self.ref.apply(action)
            self.acked.append(action)
        return {"seq": self.seq, "action": action}

    async def settle(self, procs: List[str]) -> None:
        for proc in procs:
            for c in [self.watchers[proc]] + [self.seats[s][proc] for s in ("ATK", "DEF")]:
                try:
                    await c.wait_seq(self.seq, 10)
                except asyncio.TimeoutError:
                    pass

    def check_seen(self, procs: List[str], what: str) -> None:
        """Every connection on ``procs`` saw exactly the acknowledged
        decisions, in order (Client records any seq out of order)."""
        for proc in procs:
            for name, c in [("spectator", self.watchers[proc])] + [
                    (s, self.seats[s][proc]) for s in ("ATK", "DEF")]:
                seen = [e.get("action") for e in c.events]
                check(seen == self.acked and not c.mismatch,
                      "%s: the %s on %s saw the %d acknowledged decisions in order: saw %d%s"
                      % (what, name, proc, self.seq, len(seen),
                         " (%s)" % c.mismatch[:2] if c.mismatch else ""))

    async def play_to_end(self, rng: random.Random, what: str) -> None:
        """Decisions sent to A and B in turn until the game ends; then
        every connection saw them all, and both records hold them."""
        while not self.ref.is_over and self.seq < 400:
            await self.play("AB"[self.seq % 2], rng)
        await self.settle(["A", "B"])
        check(self.ref.is_over, "%s ended (%d decisions)" % (what, self.seq))
        self.check_seen(["A", "B"], what)
        for p in "AB":
            moves = await record_of(self.http, self.urls[p], self.gid)
            check(moves == self.acked, "%s: %s's record holds the %d decisions the clients "
                  "saw (it holds %d)" % (what, p, self.seq, len(moves)))

    async def close(self) -> None:
        for c in list(self.watchers.values()) + [c for s in self.seats.values() for c in s.values()]:
            await c.close()


async def refusals(t: Table, rng: random.Random) -> None:
    """Right after an acknowledgement on one process, the other is sent a
    replay of it, then the side not to act, then (both at once) two
    decisions for the next seq: each refused, nothing changes."""
    mover = t.side()
    done = await t.play("A", rng)
    answer = await t.seats[mover]["B"].send(type="decision", seq=done["seq"],
                                            action=done["action"])
    check(answer.get("type") == "error" and answer.get("reason") == "stale_seq",
          "a replay on B of the decision A accepted is refused as stale: %r" % answer)
    idle = "DEF" if t.side() == "ATK" else "ATK"
    action = t.ref.legal_actions()[0].text
    answer = await t.seats[idle]["B"].send(type="decision", seq=t.seq + 1, action=action)
    check(answer.get("type") == "error" and answer.get("reason") == "not_your_turn",
          "a decision of the side not to act, sent to B, is refused: %r" % answer)
    legal = t.ref.legal_actions()
    if len(legal) < 2:
        return
    mover = t.side()
    a, b = await asyncio.gather(
        t.seats[mover]["A"].send(type="decision", seq=t.seq + 1, action=legal[0].text),
        t.seats[mover]["B"].send(type="decision", seq=t.seq + 1, action=legal[-1].text))
    oks = [(x, act) for x, act in ((a, legal[0].text), (b, legal[-1].text)) if x.get("type") == "ack"]
    check(len(oks) == 1, "two decisions for seq %d at once on A and B: one accepted, "
          "the other refused: %r %r" % (t.seq + 1, a, b))
    if oks:
        t.ref.apply(oks[0][1])
        t.acked.append(oks[0][1])
    other = b if oks and oks[0][0] is a else a
    check(other.get("reason") == "stale_seq", "the one refused is stale: %r" % other)


async def record_of(http: aiohttp.ClientSession, url: str, gid: str) -> List[str]:
    async with http.get(url + "/api/games/%s/record" % gid) as r:
        text = await r.text()
    if r.status != 200:
        return ["HTTP %d" % r.status]
    return [a.text for a in libball.Game.from_record(text).move_stack]


async def main(dirname: str, dsn: str) -> int:
    rng = random.Random(31)
    pids = open(os.path.join(dirname, "pids"), "a")
    servers = {p: ServerProcess(dsn, "--rate", "1000", "--burst", "1000", "--create-burst", "1000",
                                log=os.path.join(dirname, "server-%s.log" % p)) for p in "AB"}
    try:
        for s in servers.values():
            s.start()
            print(s.proc.pid, file=pids, flush=True)
        urls = {p: s.url for p, s in servers.items()}
        async with aiohttp.ClientSession() as http:
            # 1. a game created on A, decisions sent alternately to A and B
            made = await create_game(http, urls["A"], rules=RULES)
            t = Table(http, urls, made)
            await t.connect("A")
            await t.connect("B")
            await refusals(t, rng)
            await t.play_to_end(rng, "game 1")
            check(t.seq > 20, "game 1 had more than 20 decisions (%d)" % t.seq)
            for p in "AB":
                check(t.watchers[p].outcome is not None, "the spectator on %s saw the end" % p)
            await t.close()
            print("game: ok (%d decisions)" % t.seq, flush=True)

            # 2. kill -9 of A mid-game; on through B; A restarted
            made = await create_game(http, urls["B"], rules=RULES)
            t = Table(http, urls, made)
            await t.connect("A")
            await t.connect("B")
            for _ in range(10):
                await t.play("AB"[t.seq % 2], rng)
            servers["A"].kill()
            for c in [t.watchers["A"]] + [t.seats[s]["A"] for s in ("ATK", "DEF")]:
                c.drop()
            for _ in range(10):
                await t.play("B", rng)
            servers["A"].start()
            print(servers["A"].proc.pid, file=pids, flush=True)
            urls["A"] = t.urls["A"] = servers["A"].url
            await t.connect("A")  # resumes from the last seq each saw on the old A
            await t.play_to_end(rng, "game 2 (after the restart)")
            await t.close()
            print("fault: ok (%d decisions)" % t.seq, flush=True)

            # 3. the lobby's open seat claimed on A and B at the same moment
            for round_ in range(5):
                made = await create_game(http, urls["A"], rules=RULES, public=True,
                                         open_seat=True)
                await asyncio.sleep(0.2)  # B hears of the game

                async def claim(p: str) -> int:
                    async with http.post(urls[p] + "/api/games/%s/claim" % made["game"]) as r:
                        await r.read()
                        return r.status
                got = sorted(await asyncio.gather(claim("A"), claim("B")))
                check(got == [200, 409], "round %d: the open seat claimed on A and B at once "
                      "went to exactly one (HTTP %s)" % (round_, got))
                got = [await claim(p) for p in "AB"]
                check(got == [409, 409], "round %d: a later claim on A or B is refused (HTTP %s)"
                      % (round_, got))
            print("claim: ok", flush=True)

            # 4. every connection to the database lost mid-game (the
            # backends terminated): both processes open them again
            made = await create_game(http, urls["A"], rules=RULES)
            t = Table(http, urls, made)
            await t.connect("A")
            await t.connect("B")
            for _ in range(6):
                await t.play("AB"[t.seq % 2], rng)
            await t.settle(["A", "B"])
            admin = psycopg2.connect(dsn)
            admin.autocommit = True
            with admin.cursor() as cur:
                cur.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND pid <> pg_backend_pid()")
                killed = cur.fetchone()[0]
            admin.close()
            check(killed >= 4, "the servers' connections were terminated (%d)" % killed)
            await asyncio.sleep(2.5)  # the listening connections come back within a second or so
            for _ in range(4):  # sent to B only: A's connections hear of them by NOTIFY alone
                await t.play("B", rng)
            before = t.seq
            await t.settle(["A"])
            for name, c in [("spectator", t.watchers["A"])] + [
                    (side, t.seats[side]["A"]) for side in ("ATK", "DEF")]:
                check(len(c.events) == before, "game 4: the %s on A heard of B's decisions after "
                      "the listening connection came back (%d of %d)" % (name, len(c.events), before))
            await t.play_to_end(rng, "game 4 (after the lost connections)")
            await t.close()
            print("reconnect: ok (%d decisions)" % t.seq, flush=True)

            # 5. a bot seat on both processes: each plans the bot's turns
            # (bots.py), one commit wins each decision, the other catches up
            made = await create_game(http, urls["A"], rules="turns=6", atk="bot", bot_nodes=500)
            await asyncio.sleep(0.2)  # B hears of the game
            person = Client(http, urls["B"], made["game"], made["seats"]["DEF"]["token"])
            watcher = Client(http, urls["A"], made["game"])
            await person.connect()
            await watcher.connect()
            played = 0
            while person.outcome is None and played < 300:
                if person.my_turn():
                    r = await person.play_random(rng)
                    check(r.get("type") == "ack", "game 5: the person's decision: %r" % r)
                    played += 1
                else:
                    await person.next_message(30)
            await watcher.wait_seq(person.seq, timeout=30)
            seqs = [e["seq"] for e in watcher.events]
            check(person.outcome is not None and not person.mismatch and not watcher.mismatch
                  and seqs == list(range(1, person.seq + 1))
                  and watcher.events == person.events,
                  "game 5: a bot game on two processes, one event a seq, seen alike on both")
            recs = [await record_of(http, urls[p], made["game"]) for p in "AB"]
            check(recs[0] == recs[1] == [e["action"] for e in person.events
                                         if e["kind"] == "decision"],
                  "game 5: both records hold the decisions")
            bot_turns = sum(1 for e in person.events if e["side"] == "ATK")
            await person.close()
            await watcher.close()
            print("bots: ok (%d decisions, %d of the bot)" % (person.seq, bot_turns), flush=True)
    finally:
        for s in servers.values():
            s.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
