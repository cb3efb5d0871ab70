# SPDX-License-Identifier: MIT
"""What the server's tests and its benchmark share: starting the server on
a free 127.0.0.1 port, and a client that keeps its own libball Game in
step with the events it receives (so that it checks the server's BPN) and
plays random legal decisions."""

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))

import aiohttp  # noqa: E402

import libball  # noqa: E402

SERVER = os.path.join(ROOT, "examples", "server", "server.py")


class ServerProcess:
    """The server, started on port 0 (the kernel's free port); the port is
    read from its first line of output."""

    def __init__(self, db: str, *args: str, log: Optional[str] = None) -> None:
        self.db = db
        self.args = args
        self.log = log or db + ".log"  # a PostgreSQL URI names no file
        self.proc: Optional[subprocess.Popen] = None
        self.port = 0

    def start(self, timeout: float = 20.0) -> None:
        self.proc = subprocess.Popen([sys.executable, SERVER, "--port", "0", "--db", self.db,
                                      *self.args], stdout=subprocess.PIPE,
                                     stderr=open(self.log, "a"), text=True)
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening on http://127.0.0.1:" not in line or time.monotonic() > deadline:
            self.kill()
            raise RuntimeError("the server did not start: %r (see %s)" % (line, self.log))
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])

    @property
    def url(self) -> str:
        return "http://127.0.0.1:%d" % self.port

    def rss_kb(self) -> int:
        assert self.proc is not None
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user + system)."""
        return sum(self.cpu_split())

    def cpu_split(self) -> "tuple[float, float]":
        """The server's CPU time so far: (user, system), in seconds."""
        assert self.proc is not None
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def kill(self) -> None:
        """kill -9: no clean-up at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class PgCluster:
    """A PostgreSQL cluster of its own in ``dirname`` (initdb, pg_ctl), on
    a unix socket there and no TCP port; as the postgres user when run as
    root (PostgreSQL refuses to run as root). ``dsn`` is the URI the
    server's --db takes."""

    BIN = "/usr/lib/postgresql/15/bin"

    def __init__(self, dirname: str) -> None:
        self.dir = os.path.abspath(dirname)
        self.data = os.path.join(self.dir, "data")
        self.sock = os.path.join(self.dir, "sock")
        self.dsn = "postgresql://ball@/postgres?host=%s&port=5432" % self.sock
        self.started = False

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if os.getuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                       stderr=open(os.path.join(self.dir, "pg_ctl.log"), "a"))

    def start(self) -> None:
        os.makedirs(self.dir)
        os.makedirs(self.data)
        os.makedirs(self.sock)
        if os.getuid() == 0:
            os.chmod(self.dir, 0o711)
            import pwd
            pg = pwd.getpwnam("postgres")
            for d in (self.data, self.sock):
                os.chown(d, pg.pw_uid, pg.pw_gid)
        self._run(os.path.join(self.BIN, "initdb"), "-D", self.data, "-U", "ball", "-A", "trust",
                  "-E", "UTF8", "--no-locale")
        self._run(os.path.join(self.BIN, "pg_ctl"), "-D", self.data, "-w", "-t", "30",
                  "-l", os.path.join(self.data, "log"), "-o",
                  "-c listen_addresses= -c unix_socket_directories=%s -c port=5432" % self.sock,
                  "start")
        self.started = True

    def stop(self) -> None:
        if self.started:
            self._run(os.path.join(self.BIN, "pg_ctl"), "-D", self.data, "-m", "fast", "-w",
                      "-t", "30", "stop")
            self.started = False


async def create_game(http: aiohttp.ClientSession, url: str, **options: Any) -> Dict[str, Any]:
    async with http.post(url + "/api/games", json=options) as r:
        body = await r.json()
        if r.status != 201:
            raise RuntimeError("create: %d %r" % (r.status, body))
        return body


async def within(fut: "asyncio.Future[Any]", timeout: float) -> Any:
    """``await fut``, or asyncio.TimeoutError after ``timeout`` seconds (fut
    cancelled): asyncio.wait_for() without its wrapping future and
    callbacks, which the benchmark's clients, sharing the processors with
    the server, pay at every message."""
    expired = []

    def expire() -> None:
        expired.append(True)
        fut.cancel()

    handle = asyncio.get_running_loop().call_later(timeout, expire)
    try:
        return await fut
    except asyncio.CancelledError:
        if expired:
            raise asyncio.TimeoutError() from None
        raise  # the caller's own cancellation
    finally:
        handle.cancel()


class Client:
    """One WebSocket following one game (a seat or a spectator)."""

    def __init__(self, http: aiohttp.ClientSession, url: str, game: str,
                 token: Optional[str] = None) -> None:
        self.http, self.url, self.game_id, self.token = http, url, game, token
        self.ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self.events: List[Dict[str, Any]] = []   # every event seen, in seq order
        self.acked: List[int] = []               # the seqs of this client's acks
        self.errors: List[Dict[str, Any]] = []
        self.game: Optional[libball.Game] = None
        self.side: Optional[str] = None
        self.state: Dict[str, Any] = {}
        self.outcome: Optional[Dict[str, Any]] = None
        self.mismatch: List[str] = []
        self._waiters: List[Any] = []
        self._answers: Dict[str, Any] = {}
        self._reader: Optional["asyncio.Task[None]"] = None
        self.sent_at: Dict[int, float] = {}
        self.latencies: List[float] = []
        self.sent_log: Dict[int, float] = {}  # seq: when this client sent its decision
        self.seen_at: Dict[int, float] = {}   # seq: when its event arrived here

    @property
    def seq(self) -> int:
        return len(self.events)

    async def connect(self) -> Dict[str, Any]:
        """hello with the last seq seen (0 the first time): resume."""
        self.ws = await self.http.ws_connect(self.url + "/ws", max_msg_size=0)
        hello: Dict[str, Any] = {"type": "hello", "game": self.game_id, "last_seq": self.seq}
        if self.token:
            hello["token"] = self.token
        await self.ws.send_str(json.dumps(hello))
        welcome = await self.ws.receive_json(timeout=20)
        if welcome.get("type") != "welcome":
            raise RuntimeError("hello refused: %r" % welcome)
        self.side = welcome["side"]
        self.state = welcome["state"]
        if self.game is None:
            self.game = libball.Game(rules_text=self.state["rules"])
        for event in welcome["events"]:
            self._event(event)
        if self.state["outcome"]:
            self.outcome = self.state["outcome"]
        self._reader = asyncio.ensure_future(self._read())
        return welcome

    def _event(self, event: Dict[str, Any]) -> None:
        if event["seq"] != self.seq + 1:
            self.mismatch.append("event %d after %d" % (event["seq"], self.seq))
            return
        self.events.append(event)
        if event["kind"] == "decision":
            assert self.game is not None
            self.game.apply(event["action"])
            if self.game.bpn != event["bpn"]:
                self.mismatch.append("seq %d: BPN %s, the server says %s"
                                     % (event["seq"], self.game.bpn, event["bpn"]))
        if "outcome" in event:
            self.outcome = event["outcome"]
        now = time.monotonic()
        self.seen_at[event["seq"]] = now
        t = self.sent_at.pop(event["seq"], None)
        if t is not None:
            self.latencies.append(now - t)

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data["type"] == "event":
                self._event(data["event"])
            elif data["type"] == "ack":
                self.acked.append(data["seq"])
            elif data["type"] == "error":
                self.errors.append(data)
            fut = self._answers.pop(data.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result(data)
            self._wake(data)
        for fut in self._answers.values():
            if not fut.done():
                fut.set_result(None)
        self._answers = {}
        self._wake(None)

    def _wake(self, data: Any) -> None:
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(data)

    async def next_message(self, timeout: float = 20.0) -> Any:
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        return await within(fut, timeout)

    async def send(self, timeout: float = 20.0, **msg: Any) -> Dict[str, Any]:
        """Sends a message and waits for its answer (ack or error)."""
        assert self.ws is not None
        msg_id = "m%d" % random.getrandbits(48)
        msg["id"] = msg_id
        if msg.get("type") == "decision":
            self.sent_at[msg["seq"]] = self.sent_log[msg["seq"]] = time.monotonic()
        fut = asyncio.get_running_loop().create_future()
        self._answers[msg_id] = fut
        await self.ws.send_str(json.dumps(msg))
        answer = await within(fut, timeout)
        if answer is None:
            raise ConnectionError("closed before the answer")
        return answer

    async def wait_seq(self, seq: int, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while self.seq < seq:
            await self.next_message(max(0.01, end - time.monotonic()))

    @property
    def closed(self) -> bool:
        return self.ws is None or self.ws.closed or self._reader is None or self._reader.done()

    def my_turn(self) -> bool:
        return (self.outcome is None and self.game is not None
                and str(self.game.side) == self.side)

    async def play_random(self, rng: random.Random) -> Dict[str, Any]:
        """One random legal decision of this seat's side (uniform, drawn
        by the library from ``rng``'s 64 bits: no list of the decisions)."""
        assert self.game is not None
        action = self.game.random_action(rng.getrandbits(64))
        return await self.send(type="decision", seq=self.seq + 1, action=action.text)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass

    def drop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
