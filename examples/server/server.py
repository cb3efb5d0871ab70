# SPDX-License-Identifier: MIT
"""The BALL game server: HTTP for games and records, a WebSocket for play.

    python3 examples/server/server.py [--host 127.0.0.1] [--port 8080]
                                      [--db ball-server.sqlite | postgresql://...] ...

(`make serve` runs it on the build's libball.) The server owns every
game: a client sends decisions, the server checks them with libball,
commits them to storage, then tells every watcher. See docs/server.md for
the protocol, the limits and how to put TLS in front of it.
"""

import argparse
import asyncio
import collections
import concurrent.futures
import functools
import gc
import json
import os
import socket
import struct
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, "..", "..", "bindings", "python"))

from aiohttp import WSCloseCode, WSMessage, WSMsgType, web  # noqa: E402
try:  # the aiohttp of Debian 12 (3.8): its reader's queue is replaced (Inbox)
    from aiohttp.http_websocket import WebSocketReader, WSParserState, _websocket_mask
    from aiohttp.streams import FlowControlDataQueue
    DIRECT_READING = True
except ImportError:  # another one: receive() throughout
    WebSocketReader = FlowControlDataQueue = object  # type: ignore[misc,assignment]
    DIRECT_READING = False

import protocol  # noqa: E402
from bots import DEFAULT_MEMORY_MB, EVALUATIONS, LEVELS, BotPool  # noqa: E402
from commit import GroupCommit  # noqa: E402
from games import SIDES, Session, check_name, check_options, new_token, token_hash  # noqa: E402
from limits import AddressRate  # noqa: E402
from logs import Log  # noqa: E402
from protocol import Message, Refused  # noqa: E402
from storage import Conflict, SQLiteStorage, Storage, StorageError  # noqa: E402

#: Per connection: messages per second, and the burst above it.
RATE = 20.0
BURST = 40.0
#: Refused messages in a row before the connection is closed.
MAX_REFUSED = 50
#: Messages of a connection waiting for the answer to the one before, at
#: which its socket is no longer read until they are answered.
BACKLOG = 32
#: Bytes waiting for a client that does not read (beyond the kernel's
#: buffer), before it is dropped.
MAX_BUFFERED = 128 * 1024
#: The kernel's send buffer of a WebSocket, in bytes.
SEND_BUFFER = 65536
#: Seconds a new WebSocket has to send its hello.
HELLO_SECONDS = 10.0
#: Seconds of silence after which a connection is pinged (twice: cut).
HEARTBEAT = 20.0
MAX_BODY = 16 * 1024
#: Games with a bot seat going on at once, and the strongest bot allowed.
MAX_BOT_GAMES = 32
MAX_BOT_NODES = 20000
#: Games one client address may create: a second, and at once.
CREATE_RATE = 0.2
CREATE_BURST = 10.0
#: Seconds the group commit waits after an idle spell's first event.
COMMIT_WINDOW = 0.001
#: Decisions whose time in the server /api/stats reports (Server.held).
HELD_SAMPLES = 100000
#: The lobby page's files (examples/server/lobby), served at /lobby/.
LOBBY_DIR = os.path.join(HERE, "lobby")
#: What the server adds to the board page (--web): names, lobby, rematch.
GAMEBAR_TAG = b'<script type="module" src="/lobby/gamebar.mjs"></script>\n'


def ws_frame(text: Any, opcode: int = 0x81) -> bytes:
    """One unmasked WebSocket frame (RFC 6455, 5.2), a text frame unless
    ``opcode`` says otherwise (0x89 ping, 0x8A pong, FIN set): what a
    server sends. Built here so that a message is encoded once for all its
    receivers and written without a task or a queue."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    n = len(data)
    if n < 126:
        return bytes((opcode, n)) + data
    if n < 65536:
        return struct.pack("!BBH", opcode, 126, n) + data
    return struct.pack("!BBQ", opcode, 127, n) + data


class Outbox:
    """The connections with something to send: flushed together once a
    turn of the event loop, after every callback of that turn (a batch of
    committed events, their acks) has added its frames."""

    def __init__(self) -> None:
        self._conns: List["Conn"] = []

    def add(self, conn: "Conn") -> None:
        if not self._conns:
            asyncio.get_running_loop().call_soon(self.flush)
        self._conns.append(conn)

    def flush(self) -> None:
        conns, self._conns = self._conns, []
        for conn in conns:
            conn.flush()


class GameLock:
    """A game's lock: asyncio.Lock's first come, first served, plus
    ``try_acquire()``, which takes a free lock at once without a
    coroutine, so that a decision can be checked and handed to the group
    commit in the very callback that read it (Server._take). ``release()``
    hands the lock straight to the first waiter."""

    __slots__ = ("_locked", "_waiters")

    def __init__(self) -> None:
        self._locked = False
        self._waiters: "collections.deque[asyncio.Future[bool]]" = collections.deque()

    def locked(self) -> bool:
        return self._locked

    def try_acquire(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    async def acquire(self) -> bool:
        if not self._locked:
            self._locked = True
            return True
        fut: "asyncio.Future[bool]" = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await fut
        except BaseException:
            if fut.done() and not fut.cancelled():
                self.release()  # handed over, then cancelled: passed on
            raise
        return True

    def release(self) -> None:
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(True)  # still locked: the waiter holds it now
                return
        self._locked = False

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: Any) -> None:
        self.release()


class Inbox(FlowControlDataQueue):
    """The queue into which aiohttp's frame reader puts a WebSocket's
    messages. Once ``take`` is set (the connection follows a game), every
    message but a close goes straight to it, in the callback that read it
    from the socket: no ``receive()``, no timeout context, no task woken
    per message. A close, an error and the end of the stream are still
    queued, for the connection's task, which waits for nothing else."""

    take: Any = None

    def feed_data(self, data: WSMessage, size: int = 0) -> None:
        if self.take is not None and data.type not in (WSMsgType.CLOSE, WSMsgType.CLOSING):
            self.take(data)
        else:
            super().feed_data(data, size)


class FrameReader:
    """What aiohttp's protocol feeds a WebSocket's bytes to, in place of
    its ``WebSocketReader`` (kept as ``reader``). While the connection's
    ``Inbox`` takes messages straight away, the complete, final, masked
    text frames of at most 65535 bytes at the head of each chunk (what a
    client's messages are: RFC 6455, 5.1-5.3) are unmasked, decoded and
    handed to ``take`` here, without aiohttp's frame parser, its state
    machine and its queue. Whatever else comes (a control frame, a binary,
    fragmented, unmasked or oversized frame, reserved bits, a frame cut
    between two chunks, text that is not UTF-8) goes, from that byte on,
    to aiohttp's reader, which refuses or reads it as before: the checks
    of hostile frames are aiohttp's, and only a frame it would read
    without remark is read here."""

    __slots__ = ("reader", "inbox")

    def __init__(self, reader: WebSocketReader, inbox: "Inbox") -> None:
        self.reader = reader
        self.inbox = inbox

    def feed_eof(self) -> None:
        self.reader.feed_eof()

    def feed_data(self, data: bytes) -> Tuple[bool, bytes]:
        reader = self.reader
        take = self.inbox.take
        if (take is None or reader._exc is not None or reader._tail
                or reader._state != WSParserState.READ_HEADER
                or reader._opcode is not None or reader._partial):
            return reader.feed_data(data)  # type: ignore[no-any-return]
        n = len(data)
        pos = 0
        while n - pos >= 6:
            if data[pos] != 0x81:  # FIN, no reserved bit, text
                break
            length = data[pos + 1]
            if length < 0x80:  # not masked
                break
            length &= 0x7F
            head = pos + 6
            if length == 126:
                if n - pos < 8:
                    break
                length = (data[pos + 2] << 8) | data[pos + 3]
                head = pos + 8
            elif length == 127:
                break
            end = head + length
            if end > n:
                break
            payload = bytearray(data[head:end])
            _websocket_mask(data[head - 4:head], payload)
            try:
                text = payload.decode("utf-8")
            except UnicodeDecodeError:
                break
            pos = end
            take(WSMessage(WSMsgType.TEXT, text, ""))
            if self.inbox.take is None:  # the connection stopped taking
                break
        if pos == n:
            return False, b""
        return reader.feed_data(data[pos:] if pos else data)  # type: ignore[no-any-return]


class ServerSocket(web.WebSocketResponse):
    """aiohttp's WebSocket with an ``Inbox`` in place of its message queue
    (``inbox``; None where aiohttp's reader is not the one this was
    written for, or where bytes followed the handshake before it was
    answered: the connection then reads with ``receive()`` throughout)."""

    inbox: Optional[Inbox] = None

    def _post_start(self, request: web.BaseRequest, *args: Any, **kwargs: Any) -> None:
        super()._post_start(request, *args, **kwargs)  # type: ignore[misc]
        parser = getattr(request.protocol, "_payload_parser", None)
        queue = self._reader
        if (DIRECT_READING and isinstance(parser, WebSocketReader)
                and type(queue) is FlowControlDataQueue
                and getattr(parser, "queue", None) is queue and not len(queue)
                and not queue.is_eof() and queue.exception() is None):
            self.inbox = Inbox(request.protocol, 2 ** 16, loop=asyncio.get_running_loop())
            self._reader = parser.queue = self.inbox
            request.protocol._payload_parser = FrameReader(parser, self.inbox)


class Conn:
    """One WebSocket: its seat, its rate bucket, and what it is sent.

    Messages go straight to the socket's transport: the frames of one turn
    of the event loop are joined into one write (an event and its ack are
    one packet), and a client whose unsent bytes pass ``max_buffered``
    (it does not read) is dropped, never waited for. No task and no queue
    per connection: nothing is left pending when a client goes away."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request,
                 stats: Dict[str, Any], rate: float, burst: float, max_buffered: int,
                 outbox: "Outbox") -> None:
        self.ws = ws
        self.max_buffered = max_buffered
        self.rate, self.burst = rate, burst
        self.stats = stats
        self.transport = request.transport
        self.protocol = request.protocol
        self.peer = request.remote or ""
        self.session: Optional[Session] = None
        self.side: Optional[str] = None
        self.tokens = burst
        self.last = time.monotonic()
        self.refused = 0
        self.seen = self.last  # the last frame received (heartbeat)
        self.dropped = False
        self._out: List[bytes] = []
        self._outbox = outbox
        # read straight from the Inbox: a message that comes while the one
        # before is not answered waits here (reading paused beyond BACKLOG)
        self.busy = False
        self.closing = False
        self.paused = False
        self.backlog: "collections.deque[WSMessage]" = collections.deque()

    def send_frame(self, frame: bytes) -> None:
        if self.dropped or self.ws.closed:
            return
        if not self._out:
            self._outbox.add(self)
        self._out.append(frame)

    def send(self, data: str) -> None:
        self.send_frame(ws_frame(data))

    def send_obj(self, obj: Dict[str, Any]) -> None:
        self.send(json.dumps(obj))

    def flush(self) -> None:
        out, self._out = self._out, []
        t = self.transport
        if not out or self.dropped or t is None or t.is_closing():
            return
        t.write(out[0] if len(out) == 1 else b"".join(out))
        if t.get_write_buffer_size() > self.max_buffered:
            self.drop()

    def drop(self) -> None:
        """Too slow: the connection is cut (the client may resume)."""
        if not self.dropped:
            self.stats["dropped"] += 1
        self.dropped = True
        self._out = []
        if self.transport is not None:
            self.transport.abort()

    async def close(self, code: int, message: bytes) -> None:
        """Sends what is waiting, then closes (within 5 s)."""
        self.flush()
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=message), 5.0)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            self.drop()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Server:
    def __init__(self, storage: Storage, allow_origins: List[str], public_url: str = "",
                 bot_threads: int = 0, max_games: int = 10000, max_connections: int = 4096,
                 hello_seconds: float = HELLO_SECONDS, rate: float = RATE,
                 burst: float = BURST, max_buffered: int = MAX_BUFFERED,
                 bot_memory_mb: int = DEFAULT_MEMORY_MB, max_bot_games: int = MAX_BOT_GAMES,
                 max_bot_nodes: int = MAX_BOT_NODES, create_rate: float = CREATE_RATE,
                 create_burst: float = CREATE_BURST, commit_window: float = COMMIT_WINDOW,
                 log: Optional[Log] = None, bot_eval: str = EVALUATIONS[0]) -> None:
        self.rate, self.burst = rate, burst
        self.max_buffered = max_buffered
        self.hello_seconds = hello_seconds
        self.storage = storage
        self.allow_origins = set(allow_origins)
        self.public_url = public_url.rstrip("/")
        self.sessions: Dict[str, Session] = {}
        self.max_games = max_games
        self.max_connections = max_connections
        self.max_bot_games = max_bot_games
        self.max_bot_nodes = max_bot_nodes
        self.create_limit = AddressRate(create_rate, create_burst)
        self.connections = 0
        self.log = log if log is not None else Log(enabled=False)
        self.stats: Dict[str, Any] = {"decisions": 0, "events": 0, "commits": 0, "commit_ms": 0,
                                      "dropped": 0, "caught_up": 0, "refused": 0}
        # one thread writes to storage, in the order of the calls
        self.db = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="storage")
        self.committer = GroupCommit(storage.append_events, self.db, self.stats, commit_window)
        self.bots = BotPool(bot_threads, bot_memory_mb, bot_eval)
        self._timers: Dict[str, asyncio.TimerHandle] = {}
        self._behind: Dict[str, int] = {}  # several processes: games to catch up
        self._following = False
        self._bot_tasks: Dict[str, "asyncio.Task[None]"] = {}
        self.outbox = Outbox()
        self._starting_bots = 0
        self.conns: "set[Conn]" = set()
        self._tasks: "set[asyncio.Task[None]]" = set()
        #: seconds from the check of a decision read straight from its
        #: socket to its broadcast and ack (queued to be written), the last
        #: HELD_SAMPLES of them: the server's part of a decision's latency
        self.held: "collections.deque[float]" = collections.deque(maxlen=HELD_SAMPLES)

    # -------------------------------------------------- storage

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    def _db_later(self, what: str, game_id: str, fn: Any, *args: Any) -> None:
        """A write nobody waits for (after the events before it, in the
        storage thread); a failure is logged."""
        def run() -> None:
            try:
                fn(*args)
            except StorageError as e:
                self.log.write("storage", game=game_id, what=what, error=str(e))
        self.db.submit(run)

    # -------------------------------------------------- start-up

    def load(self) -> int:
        """Reads every game back; returns how many are still going on."""
        going = 0
        for game_id, meta, events, outcome in self.storage.load_games():
            session = Session(game_id, meta)
            for event in events:
                session.replay(event)
            session.lock = GameLock()
            self.sessions[game_id] = session
            if session.over:
                if outcome is None:  # killed between the last event and its record
                    self.storage.finish_game(game_id, session.outcome, session.record())
            else:
                going += 1
        return going

    async def heartbeat(self, every: float = HEARTBEAT) -> None:
        """Dead connections found: every ``every`` seconds each connection
        silent for that long is pinged, and one silent for twice that
        (not even a pong) is cut."""
        ping = ws_frame(b"", 0x89)
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for conn in list(self.conns):
                if now - conn.seen > 2 * every:
                    conn.drop()
                elif now - conn.seen > every * 0.9:
                    conn.send_frame(ping)

    def start_games(self) -> None:
        for session in self.sessions.values():
            if not session.over:
                self.after_change(session)

    # -------------------------------------------------- changes

    async def change(self, session: Session, side: Optional[str], msg: Message,
                     conn: Optional[Conn] = None) -> Dict[str, Any]:
        """Checks, commits, then tells: the one way a client changes a
        game. The event is proposed under the session's lock and handed
        to the group commit, which accepts it, sends it, acknowledges it
        to ``conn`` and releases the lock once it is durable: a client that
        goes away meanwhile cannot leave the game half changed (only its
        ack is lost)."""
        for _ in range(3):
            if self.storage.shared and msg.seq != session.seq + 1:
                async with session.lock:
                    await self._catch_up(session)  # the client knows of events we do not
            await session.lock.acquire()
            try:
                event = session.propose(side, msg)
            except BaseException:
                session.lock.release()
                raise
            try:
                await self._commit(session, event, conn, msg.id)
                return event
            except Stale:
                async with session.lock:
                    await self._catch_up(session)  # then checked again: stale_seq, ...
        raise Refused("storage", "not stored, not played: the game changes too fast")

    def _commit(self, session: Session, event: Dict[str, Any], conn: Optional[Conn] = None,
                msg_id: Optional[str] = None, then: Any = None) -> "asyncio.Future[None]":
        """Called holding the session's lock, which it releases once the
        event is durable, accepted and broadcast (and acknowledged to
        ``conn``), or refused and reverted: the future says which
        (Refused, or Stale when another process stored that seq first).
        With ``then``, no future: ``then(None)`` or ``then(the Refused)``
        is called instead, right after the lock is released."""
        fut: "Optional[asyncio.Future[None]]" = None
        if then is None:
            fut = asyncio.get_running_loop().create_future()
        text = json.dumps(event)  # stored and sent as it is

        def done(error: Optional[StorageError]) -> None:
            try:
                if error is None:
                    self._accepted(session, event, text, conn, msg_id)
                else:
                    session.revert(event)
            except Exception as e:  # a bug: logged, and the game not left locked
                self.log.write("error", game=session.id, seq=event["seq"], error=repr(e))
            finally:
                session.lock.release()
                refused: Optional[Refused] = None
                if isinstance(error, Conflict):
                    refused = Stale("stale_seq", "seq %d: accepted already by another "
                                    "process" % event["seq"])
                elif error is not None:
                    refused = Refused("storage", "not stored, not played: %s" % error)
                if then is not None:
                    then(refused)
                elif fut is None or fut.done():
                    pass  # its asker went away
                elif refused is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(refused)

        self.committer.submit([(session.id, event["seq"], text)], done)
        return fut  # type: ignore[return-value]

    def _accepted(self, session: Session, event: Dict[str, Any], text: str,
                  conn: Optional[Conn], msg_id: Optional[str]) -> None:
        """The event is durable: it becomes part of the game and is told."""
        session.accept(event)
        self.stats["events"] += 1
        if event["kind"] == "decision":
            self.stats["decisions"] += 1
        self.log.event(session.id, event)
        self._broadcast(session, event, text)
        if conn is not None:
            conn.send('{"type":"ack","seq":%d%s}' % (
                event["seq"], "" if msg_id is None else ',"id":' + json.dumps(msg_id)))
        if session.over:
            self._db_later("finish", session.id, self.storage.finish_game, session.id,
                           session.outcome, session.record())
        self.after_change(session)

    def _broadcast(self, session: Session, event: Dict[str, Any], text: Optional[str] = None) -> None:
        """The event to every connection following the game: encoded once."""
        if not session.watchers:
            return
        deadline = session.deadline()
        frame = ws_frame('{"type":"event","game":"%s","event":%s,"deadline":%s}' % (
            session.id, text or json.dumps(event), "null" if deadline is None else repr(deadline)))
        for watcher in list(session.watchers):
            watcher.send_frame(frame)

    # -------------------------------------------------- several processes

    async def _catch_up(self, session: Session) -> None:
        """Under the session's lock: the events (and the metadata) that
        other processes stored, applied and sent to this process's watchers
        in seq order. Nothing to do with one process (SQLite)."""
        if not self.storage.shared:
            return
        try:
            found = await self._db(self.storage.load_game, session.id, session.seq)
        except StorageError:
            return  # the next event or notification tries again
        if found is None:
            return
        session.meta, events, _ = found
        self._apply_stored(session, events)

    def _apply_stored(self, session: Session, events: List[Dict[str, Any]]) -> bool:
        """Under the session's lock: events read from the database applied
        and broadcast, those it has already skipped. False at a gap."""
        applied = False
        for event in events:
            if event["seq"] <= session.seq:
                continue  # accepted or caught up here meanwhile
            if event["seq"] != session.seq + 1:
                return False
            session.replay(event)
            applied = True
            self.stats["caught_up"] += 1
            self._broadcast(session, event)
        if applied:
            self.after_change(session)
        return True

    async def find_session(self, game_id: str) -> Optional[Session]:
        """The game, also one another process created since this one read
        the database."""
        session = self.sessions.get(game_id)
        if session is not None or not self.storage.shared or not game_id:
            return session
        try:
            found = await self._db(self.storage.load_game, game_id, 0)
        except StorageError:
            return None
        if found is None:
            return None
        if game_id in self.sessions:  # loaded meanwhile
            return self.sessions[game_id]
        meta, events, _ = found
        session = Session(game_id, meta)
        for event in events:
            session.replay(event)
        session.lock = GameLock()
        self.sessions[game_id] = session
        self.after_change(session)
        return session

    async def _seat_of(self, session: Session, token: Optional[str]) -> Optional[str]:
        """session.seat_of(), after a catch-up when the token is unknown:
        its seat may have been claimed on another process."""
        try:
            return session.seat_of(token)
        except Refused:
            if not self.storage.shared:
                raise
        async with session.lock:
            await self._catch_up(session)
        return session.seat_of(token)

    def start_listening(self) -> None:
        """Follows the notifications of the other processes: each one's
        game is caught up (loaded when new), and its watchers here told."""
        fd = self.storage.listen_fileno()
        if fd is None:
            return
        self._listen_fd = fd  # kept: a closed connection no longer tells it
        asyncio.get_running_loop().add_reader(fd, self._on_notified)

    def _on_notified(self) -> None:
        try:
            changes = self.storage.notifications()
        except StorageError as e:
            print("ball-server: %s; listening again" % e, file=sys.stderr, flush=True)
            asyncio.get_running_loop().remove_reader(self._listen_fd)
            asyncio.ensure_future(self._relisten())
            return
        for game_id, seq in changes:
            session = self.sessions.get(game_id)
            if session is None or seq == 0:
                asyncio.ensure_future(self._follow(game_id, seq))
            elif seq > session.seq:
                self._behind[game_id] = max(seq, self._behind.get(game_id, 0))
        if self._behind and not self._following:
            self._following = True
            asyncio.ensure_future(self._follow_loop())

    async def _relisten(self) -> None:
        """A lost listening connection opened again (every second until
        the database answers), then every game read again: the
        notifications of the time between are lost."""
        while True:
            try:
                await self._db(self.storage.relisten)
                break
            except StorageError:
                await asyncio.sleep(1.0)
        self.start_listening()
        print("ball-server: listening to the other processes again", file=sys.stderr, flush=True)
        for game_id, session in self.sessions.items():
            self._behind[game_id] = max(session.seq + 1, self._behind.get(game_id, 0))
        if self._behind and not self._following:
            self._following = True
            asyncio.ensure_future(self._follow_loop())

    async def _follow_loop(self) -> None:
        """The games other processes changed, read in one query a round
        (those notified during a round go together into the next)."""
        try:
            while self._behind:
                behind, self._behind = self._behind, {}
                after = {gid: self.sessions[gid].seq for gid, seq in behind.items()
                         if self.sessions[gid].seq < seq}
                if not after:
                    continue
                try:
                    found = await self._db(self.storage.load_events, after)
                except StorageError:
                    found = {}
                for game_id, seq in behind.items():
                    asyncio.ensure_future(self._follow_with(self.sessions[game_id], seq,
                                                            found.get(game_id, [])))
        finally:
            self._following = False

    async def _follow_with(self, session: Session, seq: int,
                           events: List[Dict[str, Any]]) -> None:
        async with session.lock:
            if not self._apply_stored(session, events) or session.seq < seq:
                await self._catch_up(session)  # not all there: one game's own query

    async def _follow(self, game_id: str, seq: int) -> None:
        session = self.sessions.get(game_id)
        if session is None:
            await self.find_session(game_id)
            return
        async with session.lock:
            if seq == 0 or seq > session.seq:
                await self._catch_up(session)

    def after_change(self, session: Session) -> None:
        """The clock and the searcher's turn, after each change."""
        loop = asyncio.get_running_loop()
        timer = self._timers.pop(session.id, None)
        if timer is not None:
            timer.cancel()
        if session.over:
            return
        deadline = session.deadline()
        if deadline is not None:
            self._timers[session.id] = loop.call_later(
                max(0.0, deadline - time.time()) + 0.01,
                lambda: asyncio.ensure_future(self._on_time(session)))
        side = session.side_to_act()
        if session.meta["seats"][side]["kind"] == "bot" and session.id not in self._bot_tasks:
            self._bot_tasks[session.id] = asyncio.ensure_future(self._bot_turns(session))

    async def _on_time(self, session: Session) -> None:
        await session.lock.acquire()
        try:
            event = session.propose_timeout()
        except BaseException:
            session.lock.release()
            raise
        if event is None:
            session.lock.release()
            if not session.over:
                self.after_change(session)  # woken early: wait again
            return
        try:
            await self._commit(session, event)
        except Stale:
            async with session.lock:
                await self._catch_up(session)  # another process was first
            self.after_change(session)
        except Refused:
            self.after_change(session)  # not stored: try again

    async def _bot_turns(self, session: Session) -> None:
        """While a bot seat is to act: its turn planned in the pool (once a
        turn, bots.plan_turn), then played decision by decision through the
        group commit, as a person's would be. A game changed meanwhile (a
        resignation, the clock, another process) is planned again."""
        plan: List[str] = []
        try:
            while True:
                async with session.lock:
                    side = session.side_to_act()
                    if session.over or session.meta["seats"][side]["kind"] != "bot":
                        return
                    seq = session.seq
                    position = None if plan else session.game.clone()
                if position is not None:
                    nodes = min(session.meta["bot_nodes"], self.max_bot_nodes)
                    t = time.monotonic()
                    try:
                        plan = await self.bots.plan(position, nodes, session.has_person())
                    except Exception as e:  # libball refused: said, then tried again
                        self.log.write("error", game=session.id, side=side, error=repr(e))
                        await asyncio.sleep(1.0)
                        continue
                    self.log.write("bot", game=session.id, side=side, nodes=nodes, turn=plan,
                                   ms=round((time.monotonic() - t) * 1000, 1))
                await session.lock.acquire()
                if session.seq != seq or session.over:
                    session.lock.release()
                    plan = []
                    continue
                try:
                    event = session.propose(side, Message(type="decision", id=None, seq=seq + 1,
                                                          action=plan.pop(0)))
                except Refused as e:
                    session.lock.release()
                    self.log.refused(e.reason, e.message, game=session.id, side=side, bot=True)
                    plan = []
                    await asyncio.sleep(0.5)
                    continue
                except BaseException:
                    session.lock.release()
                    raise
                try:
                    await self._commit(session, event)
                except Stale:
                    plan = []
                    async with session.lock:
                        await self._catch_up(session)  # another process was first
                except Refused:
                    plan = []
                    await asyncio.sleep(0.5)
        finally:
            if self._bot_tasks.get(session.id) is asyncio.current_task():
                self._bot_tasks.pop(session.id, None)

    # -------------------------------------------------- HTTP

    def origin_ok(self, request: web.Request) -> bool:
        """A browser's request must come from an allowed origin (or from
        the server's own); a program sends no Origin and is allowed."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        host = request.headers.get("Host", "")
        if origin in ("http://" + host, "https://" + host):
            return True
        return origin in self.allow_origins

    def base_url(self, request: web.Request) -> str:
        return self.public_url or "%s://%s" % (request.scheme, request.host)

    def refuse(self, request: web.Request, status: int, reason: str, message: str,
               game: Optional[str] = None, retry_after: Optional[float] = None) -> web.Response:
        """A refused HTTP request: logged (with the game, when there is
        one) and answered with a reason code and a sentence."""
        self.stats["refused"] += 1
        self.log.refused(reason, message, game=game, peer=request.remote, status=status,
                         path=request.path)
        headers = {"Retry-After": str(max(1, int(retry_after + 0.999)))} \
            if retry_after is not None else None
        return web.json_response(protocol.error(reason, message), status=status, headers=headers)

    def bot_games(self) -> int:
        """Games with a bot going on, and those being created."""
        return self._starting_bots + sum(
            1 for s in self.sessions.values()
            if not s.over and any(v["kind"] == "bot" for v in s.meta["seats"].values()))

    def levels(self) -> List[Dict[str, Any]]:
        """The bot strengths the lobby offers: those within --max-bot-nodes."""
        return [{"name": name, "nodes": nodes} for name, nodes in LEVELS
                if nodes <= self.max_bot_nodes]

    def _check_limits(self, request: web.Request, options: Dict[str, Any]) -> Optional[web.Response]:
        """The per-server limits of a new game: None when it may start."""
        if sum(1 for s in self.sessions.values() if not s.over) >= self.max_games:
            return self.refuse(request, 503, "busy", "too many games going on")
        if any(v["kind"] == "bot" for v in options["seats"].values()):
            if options["bot_nodes"] > self.max_bot_nodes:
                return self.refuse(request, 400, "bot_too_strong",
                                   "bot_nodes %d: this server's bots search at most %d"
                                   % (options["bot_nodes"], self.max_bot_nodes))
            if self.bot_games() >= self.max_bot_games:
                return self.refuse(request, 429, "too_many_bot_games",
                                   "%d games with a bot are going on, this server's limit: "
                                   "try again later" % self.max_bot_games, retry_after=60)
        return None

    async def _start_game(self, request: web.Request, options: Dict[str, Any],
                          reserved: Optional[Dict[str, Optional[str]]] = None) -> Any:
        """A new game stored and started; (session, tokens) or an error
        response. ``reserved``: {side: token hash} of seats kept for the
        holder of an earlier game's token (a rematch)."""
        session, tokens = Session.create(options, reserved=reserved)
        session.lock = GameLock()
        bot = any(v["kind"] == "bot" for v in options["seats"].values())
        self._starting_bots += bot  # counted by the limit from its check on
        try:
            await self._db(self.storage.create_game, session.id, session.meta)
        except StorageError as e:
            return None, self.refuse(request, 503, "storage", str(e))
        finally:
            self._starting_bots -= bot
        self.sessions[session.id] = session
        self.log.write("game", game=session.id, what="created", peer=request.remote,
                       rules=options["rules"], seats=session.state()["seats"],
                       bot_nodes=options["bot_nodes"], turn_seconds=options["turn_seconds"],
                       public=options["public"], rematch_of=options.get("rematch_of"))
        self.after_change(session)
        return session, tokens

    def seat_link(self, request: web.Request, game_id: str, token: str) -> str:
        return "%s/?game=%s#token=%s" % (self.base_url(request), game_id, token)

    async def create_game(self, request: web.Request) -> web.Response:
        if not self.origin_ok(request):
            return self.refuse(request, 403, "bad_origin", "origin not allowed")
        wait = self.create_limit.take(request.remote or "")
        if wait > 0:
            return self.refuse(request, 429, "rate_limited",
                               "at most %g new games a minute from one address (%g at once)"
                               % (self.create_limit.rate * 60, self.create_limit.burst),
                               retry_after=wait)
        try:
            options = check_options(json.loads(await request.text()))
        except (ValueError, RecursionError):
            return self.refuse(request, 400, "malformed", "the body is a JSON object of options")
        except Refused as e:
            return self.refuse(request, 400, e.reason, e.message)
        refused = self._check_limits(request, options)
        if refused is not None:
            return refused
        session, tokens = await self._start_game(request, options)
        if session is None:
            return tokens
        seats = {side: {"token": tok, "link": self.seat_link(request, session.id, tok)}
                 for side, tok in tokens.items()}
        return web.json_response({"game": session.id, "seats": seats,
                                  "watch": "%s/?game=%s" % (self.base_url(request), session.id),
                                  "state": session.state()}, status=201)

    async def _body(self, request: web.Request) -> Dict[str, Any]:
        """An optional JSON object body ({} when empty); Refused else."""
        text = await request.text()
        if not text.strip():
            return {}
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):
            body = None
        if not isinstance(body, dict):
            raise Refused("malformed", "the body is a JSON object")
        return body

    async def claim_seat(self, request: web.Request) -> web.Response:
        """The lobby's open seat, to the first who asks (body, optional:
        {"name": the player's name})."""
        game_id = request.match_info["game"]
        if not self.origin_ok(request):
            return self.refuse(request, 403, "bad_origin", "origin not allowed", game_id)
        try:
            name = check_name((await self._body(request)).get("name", ""))
        except Refused as e:
            return self.refuse(request, 400, e.reason, e.message, game_id)
        session = await self.find_session(game_id)
        if session is None:
            return self.refuse(request, 404, "no_such_game", "no such game", game_id)
        async with session.lock:
            seat = next((s for s in SIDES if session.meta["seats"][s].get("unclaimed")
                         and not session.meta["seats"][s].get("reserved")), None)
            if seat is None or session.over:
                return self.refuse(request, 409, "no_open_seat", "this game has no open seat",
                                   game_id)
            token, error = await self._give_seat(session, seat, name)
            if error is not None:
                return self.refuse(request, error[0], error[1], error[2], game_id)
        self.log.write("game", game=session.id, what="claimed", side=seat, name=name,
                       peer=request.remote)
        return web.json_response({"game": session.id, "side": seat, "token": token,
                                  "link": self.seat_link(request, session.id, token)})

    async def _give_seat(self, session: Session, seat: str, name: str
                         ) -> Tuple[str, Optional[Tuple[int, str, str]]]:
        """Under the session's lock: the unclaimed seat given a new token
        (and the name, when one is given); (token, None) or (None, (status,
        reason, message))."""
        token = new_token()
        meta = json.loads(json.dumps(session.meta))
        meta["seats"][seat]["token_hash"] = token_hash(token)
        meta["seats"][seat].pop("unclaimed", None)
        meta["seats"][seat].pop("reserved", None)
        if name:
            meta["seats"][seat]["name"] = name
        if not any(v.get("unclaimed") for v in meta["seats"].values()):
            meta["started"] = round(time.time(), 3)  # the clock runs from now
        try:
            await self._db(self.storage.update_meta, session.id, meta, seat)
        except Conflict:
            await self._catch_up(session)  # another process gave the seat away
            return "", (409, "no_open_seat", "this game has no open seat")
        except StorageError as e:
            return "", (503, "storage", str(e))
        session.meta = meta
        self.after_change(session)  # the clock, now that it runs
        return token, None

    async def rematch(self, request: web.Request) -> web.Response:
        """A finished game's rematch, colours swapped, same rules, clock and
        bot (body: {"token": a seat's token of the finished game}). The
        first seat to ask creates it and gets its new seat; the other
        seat's is kept for the other player, who gets it by asking the
        same (a bot takes its seat at once). 409 for the seat that offered
        already."""
        game_id = request.match_info["game"]
        if not self.origin_ok(request):
            return self.refuse(request, 403, "bad_origin", "origin not allowed", game_id)
        session = await self.find_session(game_id)
        if session is None:
            return self.refuse(request, 404, "no_such_game", "no such game", game_id)
        try:
            token = (await self._body(request)).get("token")
            if not isinstance(token, str) or not token:
                raise Refused("bad_token", "a rematch needs the token of a seat of the game")
            side = session.seat_of(token)
        except Refused as e:
            return self.refuse(request, 400 if e.reason == "malformed" else 403, e.reason,
                               e.message, game_id)
        if not session.over:
            return self.refuse(request, 409, "not_over", "the game is not over", game_id)
        async with session.lock:
            new_id = session.meta.get("rematch")
            if new_id is None:
                return await self._offer_rematch(request, session, side, token)
        other = await self.find_session(new_id)
        if other is None:
            return self.refuse(request, 404, "no_such_game", "the rematch is gone", game_id)
        mine = "DEF" if side == "ATK" else "ATK"  # colours swapped
        async with other.lock:
            seat = other.meta["seats"][mine]
            if not (seat.get("unclaimed") and seat.get("reserved") == token_hash(token)):
                return self.refuse(request, 409, "rematch_offered",
                                   "the rematch %s was offered from this seat already" % new_id,
                                   game_id)
            new_token_, error = await self._give_seat(other, mine, "")
            if error is not None:
                return self.refuse(request, error[0], error[1], error[2], game_id)
        self.log.write("game", game=other.id, what="rematch accepted", side=mine,
                       rematch_of=session.id)
        return web.json_response({"game": other.id, "side": mine, "token": new_token_,
                                  "link": self.seat_link(request, other.id, new_token_)})

    async def _offer_rematch(self, request: web.Request, session: Session, side: str,
                             token: str) -> web.Response:
        """Under the finished game's lock: the rematch created."""
        old = session.meta
        seats = {new: dict(kind=old["seats"][was]["kind"], name=old["seats"][was]["name"])
                 for new, was in (("ATK", "DEF"), ("DEF", "ATK"))}
        options = {"rules": old["rules"], "seats": seats, "bot_nodes": old["bot_nodes"],
                   "turn_seconds": old["turn_seconds"], "public": old["public"],
                   "open_seat": False, "event": old.get("event", ""), "rematch_of": session.id}
        refused = self._check_limits(request, options)
        if refused is not None:
            return refused
        mine = "DEF" if side == "ATK" else "ATK"
        reserved = {s: old["seats"][was].get("token_hash")
                    for s, was in (("ATK", "DEF"), ("DEF", "ATK"))
                    if s != mine and seats[s]["kind"] == "human"}
        other, tokens = await self._start_game(request, options, reserved=reserved)
        if other is None:
            return tokens
        meta = json.loads(json.dumps(old))
        meta["rematch"] = other.id
        meta["rematch_by"] = side
        try:
            await self._db(self.storage.update_meta, session.id, meta)
        except StorageError as e:
            return self.refuse(request, 503, "storage", str(e), session.id)
        session.meta = meta
        self.log.write("game", game=session.id, what="rematch offered", side=side,
                       rematch=other.id)
        return web.json_response({"game": other.id, "side": mine, "token": tokens[mine],
                                  "link": self.seat_link(request, other.id, tokens[mine])},
                                 status=201)

    async def lobby(self, request: web.Request) -> web.Response:
        """The public games going on, newest first (at most 500), and what
        a new game may ask for on this server."""
        games = [s.summary() for s in reversed(list(self.sessions.values()))
                 if s.meta["public"] and not s.over][:500]
        return web.json_response({
            "games": games,
            "limits": {"levels": self.levels(), "max_bot_nodes": self.max_bot_nodes,
                       "bot_games": self.bot_games(), "max_bot_games": self.max_bot_games,
                       "bot_threads": self.bots.threads}})

    async def game_state(self, request: web.Request) -> web.Response:
        game_id = request.match_info["game"]
        session = await self.find_session(game_id)
        if session is None:
            return self.refuse(request, 404, "no_such_game", "no such game", game_id)
        return web.json_response(session.state())

    async def game_record(self, request: web.Request) -> web.Response:
        game_id = request.match_info["game"]
        session = await self.find_session(game_id)
        if session is None:
            return self.refuse(request, 404, "no_such_game", "no such game", game_id)
        text = await self._db(self.storage.record, game_id) if session.over else None
        if text is None:
            text = session.record()
        return web.Response(text=text, content_type="text/plain", headers={
            "Content-Disposition": 'attachment; filename="ball-%s.txt"' % game_id})

    async def stats_page(self, request: web.Request) -> web.Response:
        held = sorted(self.held)

        def ms(p: float) -> Optional[float]:
            return round(held[min(len(held) - 1, int(p * len(held)))] * 1000, 2) if held else None

        return web.json_response(dict(self.stats, **self.bots.stats, games=len(self.sessions),
                                      connections=self.connections, bot_running=self.bots.running,
                                      bot_waiting=self.bots.waiting,
                                      held={"decisions": len(held), "p50_ms": ms(0.5),
                                            "p99_ms": ms(0.99)}))

    # -------------------------------------------------- WebSocket

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_ok(request):
            return self.refuse(request, 403, "bad_origin", "origin not allowed")
        if self.connections >= self.max_connections:
            return self.refuse(request, 503, "busy", "too many connections")
        # aiohttp's heartbeat re-arms a timer at every message: the
        # server's own (heartbeat()) looks at all connections every 20 s
        ws = ServerSocket(max_msg_size=protocol.MAX_FRAME, autoping=False, compress=False)
        await ws.prepare(request)
        sock = request.transport.get_extra_info("socket") if request.transport else None
        if sock is not None:
            # a fixed kernel buffer: what a client does not read stays bounded
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        conn = Conn(ws, request, self.stats, self.rate, self.burst, self.max_buffered,
                    self.outbox)
        self.connections += 1
        self.conns.add(conn)
        try:
            await self._serve(conn)
        finally:
            self.connections -= 1
            self.conns.discard(conn)
            if conn.session is not None:
                conn.session.watchers.discard(conn)
            if not ws.closed and not conn.dropped:
                await conn.close(WSCloseCode.OK, b"")
        return ws

    async def _serve(self, conn: Conn) -> None:
        """The connection's task. Until the connection follows a game (its
        hello), it reads the messages with ``receive()``; then, when its
        socket has an Inbox, the messages go straight to ``_take()`` and
        the task only waits for the close, an error or the end."""
        ws = conn.ws
        inbox: Optional[Inbox] = getattr(ws, "inbox", None)
        hello_by = time.monotonic() + self.hello_seconds
        while not conn.dropped:
            if (inbox is not None and inbox.take is None and conn.session is not None
                    and not len(inbox)):
                inbox.take = functools.partial(self._take, conn)
            timeout = None if conn.session is not None else max(0.0, hello_by - time.monotonic())
            try:
                raw = await ws.receive(timeout=timeout)
            except asyncio.TimeoutError:
                conn.send_obj(protocol.error("timeout", "no hello within %g s" % self.hello_seconds))
                await conn.close(WSCloseCode.POLICY_VIOLATION, b"no hello")
                return
            conn.seen = time.monotonic()
            if raw.type == WSMsgType.PING:
                conn.send_frame(ws_frame(raw.data, 0x8A))
                continue
            if raw.type == WSMsgType.PONG:
                continue  # alive (heartbeat())
            if raw.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if raw.type == WSMsgType.ERROR:
                return  # e.g. a frame above the size limit: aiohttp closed with 1009
            client_id = None
            try:
                msg = self._parse(conn, raw)
                client_id = msg.id
                await self._handle(conn, msg)
                conn.refused = 0
            except Refused as e:
                if self._refused(conn, e, client_id):
                    await conn.close(WSCloseCode.POLICY_VIOLATION, b"too many refused")
                    return

    def _parse(self, conn: Conn, raw: WSMessage) -> Message:
        """A text frame's message, within the connection's rate; Refused else."""
        msg = protocol.parse(raw.data if raw.type == WSMsgType.TEXT else None)
        if not conn.allow():
            raise Refused("rate_limited", "at most %g messages a second" % conn.rate, msg.id)
        return msg

    def _refused(self, conn: Conn, e: Refused, client_id: Optional[str]) -> bool:
        """A refused message logged and answered; True when the connection
        is to be closed (MAX_REFUSED in a row)."""
        conn.refused += 1
        self.stats["refused"] += 1
        game = conn.session.id if conn.session is not None else None
        self.log.refused(e.reason, e.message, game=game, peer=conn.peer, side=conn.side)
        conn.send_obj(protocol.error(e.reason, e.message, client_id or e.client_id))
        return conn.refused >= MAX_REFUSED

    # The messages of a connection that follows a game, read straight from
    # its Inbox (in aiohttp's callback that read the socket). One at a time,
    # as the task would: a message that comes before the one before is
    # answered waits in the connection's backlog (reading is paused at
    # BACKLOG of them). A decision whose game is not locked is checked and
    # handed to the group commit at once, and answered from the commit's
    # callback: no task, no coroutine. Anything else runs in a task.

    def _take(self, conn: Conn, raw: WSMessage) -> None:
        conn.seen = time.monotonic()
        if raw.type == WSMsgType.PING:
            conn.send_frame(ws_frame(raw.data, 0x8A))
            return
        if raw.type == WSMsgType.PONG or conn.closing:
            return
        if conn.busy:
            conn.backlog.append(raw)
            if len(conn.backlog) >= BACKLOG and not conn.paused:
                conn.paused = True
                conn.protocol.pause_reading()
            return
        self._take_one(conn, raw)

    def _take_one(self, conn: Conn, raw: WSMessage) -> None:
        client_id = None
        try:
            msg = self._parse(conn, raw)
            client_id = msg.id
            if msg.type == "ping":
                self._pong(conn, msg)
                conn.refused = 0
            elif msg.type not in protocol.GAME_CHANGES or not self._change_now(conn, msg):
                conn.busy = True
                self._spawn(self._handle_later(conn, msg))
        except Refused as e:
            self._refused_now(conn, e, client_id)

    def _change_now(self, conn: Conn, msg: Message) -> bool:
        """change() without a coroutine when the game is free (and, with
        several processes, the seq the next one here); False: not tried."""
        session = conn.session
        assert session is not None
        if self.storage.shared and msg.seq != session.seq + 1:
            return False
        if not session.lock.try_acquire():
            return False
        try:
            event = session.propose(conn.side, msg)
        except BaseException:
            session.lock.release()
            raise
        conn.busy = True
        t = time.monotonic()
        self._commit(session, event, conn, msg.id,
                     then=lambda refused: self._changed(conn, msg, refused, t))
        return True

    def _changed(self, conn: Conn, msg: Message, refused: Optional[Refused],
                 checked: float = 0.0) -> None:
        if isinstance(refused, Stale):  # another process was first: change() catches up
            self._spawn(self._handle_later(conn, msg))
            return
        if refused is None:
            conn.refused = 0
            self.held.append(time.monotonic() - checked)
        else:
            self._refused_now(conn, refused, msg.id)
        self._next(conn)

    async def _handle_later(self, conn: Conn, msg: Message) -> None:
        try:
            await self._handle(conn, msg)
            conn.refused = 0
        except Refused as e:
            self._refused_now(conn, e, msg.id)
        except Exception as e:  # a bug: logged, the connection cut (it may resume)
            self.log.write("error", game=conn.session.id if conn.session else None,
                           error=repr(e))
            conn.drop()
        finally:
            self._next(conn)

    def _next(self, conn: Conn) -> None:
        """The connection's last message answered: the ones it sent
        meanwhile, in order."""
        conn.busy = False
        while conn.backlog and not conn.busy and not conn.closing:
            self._take_one(conn, conn.backlog.popleft())
        if conn.paused and not conn.backlog:
            conn.paused = False
            conn.protocol.resume_reading()

    def _refused_now(self, conn: Conn, e: Refused, client_id: Optional[str]) -> None:
        if self._refused(conn, e, client_id):
            conn.closing = True
            conn.backlog.clear()
            self._spawn(conn.close(WSCloseCode.POLICY_VIOLATION, b"too many refused"))

    def _spawn(self, coro: Any) -> None:
        """A task kept until it ends (the loop keeps only a weak one)."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _pong(self, conn: Conn, msg: Message) -> None:
        out: Dict[str, Any] = {"type": "pong"}
        if msg.id is not None:
            out["id"] = msg.id
        conn.send_obj(out)

    async def _handle(self, conn: Conn, msg: Message) -> None:
        if msg.type == "ping":
            self._pong(conn, msg)
            return
        if msg.type == "hello":
            if conn.session is not None:
                raise Refused("already_joined", "this connection follows a game already")
            session = await self.find_session(msg.game or "")
            if session is None:
                raise Refused("no_such_game", "no such game")
            side = await self._seat_of(session, msg.token)
            last = msg.last_seq or 0
            async with session.lock:
                if last > session.seq:
                    await self._catch_up(session)  # it saw them on another process
                if last > session.seq:
                    raise Refused("bad_last_seq", "last_seq %d: the game has %d events"
                                  % (last, session.seq))
                welcome = {"type": "welcome", "side": side, "state": session.state(),
                           "events": session.events[last:]}
                if msg.id is not None:
                    welcome["id"] = msg.id
                conn.send_obj(welcome)
                conn.session, conn.side = session, side
                session.watchers.add(conn)
            return
        if conn.session is None:
            raise Refused("not_joined", "send hello first")
        await self.change(conn.session, conn.side, msg, conn)

    def close(self) -> None:
        self.db.shutdown(wait=True)
        self.bots.close()
        self.storage.close()


class Stale(Refused):
    """An event another process stored first (the game is caught up)."""


def open_storage(args: argparse.Namespace) -> Storage:
    """--db: a PostgreSQL connection URI, or the SQLite file."""
    if args.db.startswith(("postgresql://", "postgres://")):
        from storage_pg import PostgresStorage
        return PostgresStorage(args.db, channel=args.pg_channel)
    return SQLiteStorage(args.db, synchronous=args.synchronous)


@web.middleware
async def security_headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response = await handler(request)
    if not response.prepared:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


#: The types of the page's files (--web); any other file is served as bytes.
WEB_TYPES = {".html": "text/html; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
             ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
             ".svg": "image/svg+xml", ".md": "text/plain; charset=utf-8",
             ".wasm": "application/wasm", ".json": "application/json", ".png": "image/png"}


def file_handler(root: str, inject: Optional[bytes] = None) -> Any:
    """A handler serving the regular files under ``root`` by the route's
    ``path`` (a directory's index.html): a path with a ``..`` segment is
    refused (403), a file whose resolved path (links followed) lies
    outside ``root`` is answered 404, as examples/web/serve.mjs does.
    ``inject`` is added to each index.html, before ``</body>`` (at its
    end when there is none)."""
    base = os.path.realpath(root)

    async def page_file(request: web.Request) -> web.StreamResponse:
        path = request.match_info["path"]
        if not path or path.endswith("/"):
            path += "index.html"
        parts = path.split("/")
        if ".." in parts or "\\" in path or "\0" in path:
            return web.Response(status=403, text="forbidden")
        real = os.path.realpath(os.path.join(base, *[p for p in parts if p]))
        if not real.startswith(base + os.sep) or not os.path.isfile(real):
            return web.Response(status=404, text="not found")
        with open(real, "rb") as f:
            body = f.read()
        if inject and os.path.basename(real) == "index.html":
            at = body.rfind(b"</body>")
            body = body + inject if at < 0 else body[:at] + inject + body[at:]
        ext = os.path.splitext(real)[1]
        return web.Response(body=body, headers={
            "Content-Type": WEB_TYPES.get(ext, "application/octet-stream")})

    return page_file


def add_web_routes(app: web.Application, root: str) -> None:
    """Serves the page (``--web DIR``, e.g. build/web) at ``/``, so that
    an invitation link (``/?game=ID#token=...``) opens it from the
    server's own origin, with the server's bar (GAMEBAR_TAG: the names,
    the lobby, the rematch) added. Registered after the API, the
    WebSocket and the lobby, which keep their paths."""
    app.router.add_get("/{path:.*}", file_handler(root, GAMEBAR_TAG))


async def to_lobby(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/lobby/")


def make_app(server: Server, web_root: Optional[str] = None) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY, middlewares=[security_headers])
    app.router.add_post("/api/games", server.create_game)
    app.router.add_get("/api/games", server.lobby)
    app.router.add_get("/api/games/{game}", server.game_state)
    app.router.add_post("/api/games/{game}/claim", server.claim_seat)
    app.router.add_post("/api/games/{game}/rematch", server.rematch)
    app.router.add_get("/api/games/{game}/record", server.game_record)
    app.router.add_get("/api/stats", server.stats_page)
    app.router.add_get("/ws", server.websocket)
    app.router.add_get("/lobby", to_lobby)
    app.router.add_get("/lobby/{path:.*}", file_handler(LOBBY_DIR))
    if web_root:
        add_web_routes(app, web_root)
    else:
        app.router.add_get("/", to_lobby)
    return app


async def run(args: argparse.Namespace) -> None:
    # The storage thread must get the GIL soon after SQLite returns: with
    # the default 5 ms switch interval a busy event loop would hold every
    # commit up by several of them.
    sys.setswitchinterval(0.0005)
    storage = open_storage(args)
    log = Log(open(args.log, "a", buffering=1 << 16) if args.log != "-" else sys.stderr,
              enabled=not args.no_log)
    server = Server(storage, args.allow_origin, args.public_url, bot_threads=args.bot_threads,
                    max_games=args.max_games, hello_seconds=args.hello_seconds,
                    rate=args.rate, burst=args.burst,
                    max_buffered=args.max_buffered if args.max_queued is None
                    else args.max_queued * 256,
                    bot_memory_mb=args.bot_memory, max_bot_games=args.max_bot_games,
                    max_bot_nodes=args.max_bot_nodes, create_rate=args.create_rate / 60.0,
                    create_burst=args.create_burst, commit_window=args.commit_window / 1000.0,
                    log=log, bot_eval=args.bot_eval)
    going = server.load()
    # what start-up made (modules, the games read back) stays: out of the
    # collector's sight, so that its full passes look at the new objects only
    gc.freeze()
    runner = web.AppRunner(make_app(server, args.web), access_log=None, handle_signals=True)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port, reuse_address=True)
    await site.start()
    server.start_games()
    server.start_listening()
    heartbeat = asyncio.ensure_future(server.heartbeat())
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print("ball-server: listening on http://%s:%d/ (%s, %d games, %d going on)"
          % (args.host, port, "PostgreSQL" if storage.shared else args.db,
             len(server.sessions), going), flush=True)
    log.write("start", address="%s:%d" % (args.host, port), games=len(server.sessions),
              going=going, loop=type(asyncio.get_running_loop()).__module__.split(".")[0],
              bot_threads=server.bots.threads, bot_memory_mb=server.bots.memory_mb,
              bot_eval=server.bots.evaluation, max_bot_games=server.max_bot_games, max_bot_nodes=server.max_bot_nodes)
    try:
        await asyncio.Event().wait()
    finally:
        heartbeat.cancel()
        await runner.cleanup()
        server.close()


def install_loop(choice: str, option: str) -> bool:
    """The event loop of ``choice`` (auto, uvloop, asyncio) installed:
    uvloop unless "asyncio", when installed. False, said on standard
    error after ``option``, when "uvloop" was asked for and is missing."""
    if choice != "asyncio":
        try:
            import uvloop  # type: ignore[import-not-found]
            uvloop.install()
        except ImportError:
            if choice == "uvloop":
                print("%s uvloop: python3-uvloop is not installed" % option, file=sys.stderr)
                return False
    return True


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description="The BALL game server (docs/server.md).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8080, help="port (0: any free one; default 8080)")
    p.add_argument("--db", default="ball-server.sqlite",
                   help="the SQLite file of the games, or a PostgreSQL connection URI "
                   "(postgresql://...) that several server processes may share")
    p.add_argument("--pg-channel", default="ball_events",
                   help="PostgreSQL: the LISTEN/NOTIFY channel of the processes sharing "
                   "the database (default ball_events)")
    p.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL", "EXTRA"),
                   help="SQLite's synchronous: FULL survives a power cut (default)")
    p.add_argument("--allow-origin", action="append", default=[],
                   help="a web origin (https://example.org) whose pages may use the server")
    p.add_argument("--public-url", default="", help="the URL the invitation links start with")
    p.add_argument("--web", default=None, metavar="DIR",
                   help="serve the page from DIR (make web builds build/web) at /, where "
                   "the invitation links point")
    p.add_argument("--bot-threads", type=int, default=0,
                   help="threads that run the bots' searches (default 0: one a processor)")
    p.add_argument("--bot-memory", type=int, default=DEFAULT_MEMORY_MB, metavar="MIB",
                   help="the bots' search tables, all threads together (default %d MiB)"
                   % DEFAULT_MEMORY_MB)
    p.add_argument("--bot-eval", default=EVALUATIONS[0], choices=EVALUATIONS,
                   help="how the bots' searches evaluate: network (default), the learned "
                   "network the library carries, or hand, the hand-written evaluation")
    p.add_argument("--max-bot-games", type=int, default=MAX_BOT_GAMES,
                   help="games with a bot going on at once (default %d)" % MAX_BOT_GAMES)
    p.add_argument("--max-bot-nodes", type=int, default=MAX_BOT_NODES,
                   help="the strongest bot a game may ask for, bot_nodes (default %d)"
                   % MAX_BOT_NODES)
    p.add_argument("--create-rate", type=float, default=CREATE_RATE * 60,
                   help="games one address may create a minute (default %g)" % (CREATE_RATE * 60))
    p.add_argument("--create-burst", type=float, default=CREATE_BURST,
                   help="games one address may create at once (default %g)" % CREATE_BURST)
    p.add_argument("--commit-window", type=float, default=COMMIT_WINDOW * 1000, metavar="MS",
                   help="the group commit's wait for more events after an idle spell "
                   "(default %g ms)" % (COMMIT_WINDOW * 1000))
    p.add_argument("--log", default="-", metavar="FILE",
                   help="the structured log (JSON lines; default -: standard error)")
    p.add_argument("--no-log", action="store_true", help="no structured log")
    p.add_argument("--max-games", type=int, default=10000, help="games going on at once")
    p.add_argument("--hello-seconds", type=float, default=HELLO_SECONDS,
                   help="seconds a new WebSocket has to say hello (default %g)" % HELLO_SECONDS)
    p.add_argument("--rate", type=float, default=RATE,
                   help="messages a second a connection may send (default %g)" % RATE)
    p.add_argument("--burst", type=float, default=BURST,
                   help="messages a connection may send at once above the rate (default %g)" % BURST)
    p.add_argument("--max-buffered", type=int, default=MAX_BUFFERED, metavar="BYTES",
                   help="bytes waiting for a client that does not read before it is "
                   "dropped (default %d)" % MAX_BUFFERED)
    p.add_argument("--max-queued", type=int, default=None, metavar="N",
                   help="(older) --max-buffered of N messages of 256 bytes")
    p.add_argument("--loop", default="auto", choices=("auto", "uvloop", "asyncio"),
                   help="the event loop: uvloop (Debian's python3-uvloop; about half the "
                   "CPU a decision) or asyncio's own; auto (default): uvloop when installed")
    args = p.parse_args(argv)
    if not install_loop(args.loop, "ball-server: --loop"):
        return 2
    try:
        asyncio.run(run(args))
    except (KeyboardInterrupt, web.GracefulExit):  # Ctrl-C, SIGTERM: a clean stop
        pass
    except StorageError as e:  # e.g. PostgreSQL not there
        print("ball-server: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
