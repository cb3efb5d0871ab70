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
import concurrent.futures
import json
import os
import socket
import sys
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, "..", "..", "bindings", "python"))

from aiohttp import WSCloseCode, WSMsgType, web  # noqa: E402

import libball  # noqa: E402

import protocol  # noqa: E402
from games import SIDES, Session, check_options, new_token, token_hash  # noqa: E402
from protocol import Message, Refused  # noqa: E402
from storage import Conflict, SQLiteStorage, Storage, StorageError  # noqa: E402

#: Per connection: messages per second, and the burst above it.
RATE = 20.0
BURST = 40.0
#: Refused messages in a row before the connection is closed.
MAX_REFUSED = 50
#: Messages waiting for a client that does not read, before it is dropped.
MAX_QUEUED = 512
#: The kernel's send buffer of a WebSocket, in bytes.
SEND_BUFFER = 65536
#: Seconds a new WebSocket has to send its hello.
HELLO_SECONDS = 10.0
MAX_BODY = 16 * 1024


class Conn:
    """One WebSocket: its outgoing queue (a client that stops reading is
    dropped, never waited for), its rate bucket and its seat."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request,
                 stats: Dict[str, int], rate: float, burst: float, max_queued: int) -> None:
        self.ws = ws
        self.max_queued = max_queued
        self.rate, self.burst = rate, burst
        self.stats = stats
        self.transport = request.transport
        self.queue: "asyncio.Queue[Optional[str]]" = asyncio.Queue()
        self.session: Optional[Session] = None
        self.side: Optional[str] = None
        self.tokens = burst
        self.last = time.monotonic()
        self.refused = 0
        self.dropped = False
        self.sender = asyncio.ensure_future(self._send_loop())

    def send(self, data: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.max_queued:
            self.drop()
            return
        self.queue.put_nowait(data)

    def send_obj(self, obj: Dict[str, Any]) -> None:
        self.send(json.dumps(obj))

    def drop(self) -> None:
        """Too slow: the connection is cut (the client may resume)."""
        if not self.dropped:
            self.stats["dropped"] += 1
        self.dropped = True
        if self.transport is not None:
            self.transport.abort()
        self.sender.cancel()

    async def close(self, code: int, message: bytes) -> None:
        """Sends what is queued (within 5 s), then closes."""
        self.queue.put_nowait(None)
        try:
            await asyncio.wait_for(asyncio.shield(self.sender), 5.0)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.drop()
            return
        await self.ws.close(code=code, message=message)

    async def _send_loop(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    return
                await self.ws.send_str(data)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass

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
                 bot_threads: int = 1, max_games: int = 10000, max_connections: int = 4096,
                 hello_seconds: float = HELLO_SECONDS, rate: float = RATE,
                 burst: float = BURST, max_queued: int = MAX_QUEUED) -> None:
        self.rate, self.burst = rate, burst
        self.max_queued = max_queued
        self.hello_seconds = hello_seconds
        self.storage = storage
        self.allow_origins = set(allow_origins)
        self.public_url = public_url.rstrip("/")
        self.sessions: Dict[str, Session] = {}
        self.max_games = max_games
        self.max_connections = max_connections
        self.connections = 0
        # one thread writes to storage, in the order of the calls
        self.db = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="storage")
        self.bots = concurrent.futures.ThreadPoolExecutor(bot_threads, thread_name_prefix="bot")
        self._pending: List[Any] = []
        self._committing = False
        self._timers: Dict[str, asyncio.TimerHandle] = {}
        self._behind: Dict[str, int] = {}  # several processes: games to catch up
        self._following = False
        self._bot_tasks: Dict[str, "asyncio.Task[None]"] = {}
        self.stats = {"decisions": 0, "events": 0, "commits": 0, "commit_ms": 0, "dropped": 0,
                      "caught_up": 0}

    # -------------------------------------------------- storage

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    async def commit_events(self, events: List[Any]) -> None:
        """Commits events; returns once they are durable. Events that
        arrive while a commit runs go together into the next one."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._pending.append((events, fut))
        if not self._committing:
            self._committing = True
            asyncio.ensure_future(self._commit_loop())
        await fut

    async def _commit_loop(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    t = time.monotonic()
                    await self._db(self.storage.append_events, [e for evs, _ in batch for e in evs])
                    self.stats["commits"] += 1
                    self.stats["commit_ms"] += int((time.monotonic() - t) * 1000)
                    for _, fut in batch:
                        fut.set_result(None)
                except Exception:
                    # one at a time, so that one bad write fails only itself
                    for evs, fut in batch:
                        try:
                            await self._db(self.storage.append_events, evs)
                            fut.set_result(None)
                        except Exception as e:
                            fut.set_exception(e if isinstance(e, StorageError)
                                              else StorageError(str(e)))
        finally:
            self._committing = False

    # -------------------------------------------------- start-up

    def load(self) -> int:
        """Reads every game back; returns how many are still going on."""
        going = 0
        for game_id, meta, events, outcome in self.storage.load_games():
            session = Session(game_id, meta)
            for event in events:
                session.replay(event)
            session.lock = asyncio.Lock()
            self.sessions[game_id] = session
            if session.over:
                if outcome is None:  # killed between the last event and its record
                    self.storage.finish_game(game_id, session.outcome, session.record())
            else:
                going += 1
        return going

    def start_games(self) -> None:
        for session in self.sessions.values():
            if not session.over:
                self.after_change(session)

    # -------------------------------------------------- changes

    async def change(self, session: Session, side: Optional[str], msg: Message,
                     conn: Optional[Conn] = None) -> Dict[str, Any]:
        """Checks, commits, then tells: the one way a game changes. The
        work runs in a task of its own, shielded: a client that goes away
        while its event is being committed cannot leave the game half
        changed (the event is committed and sent, only the ack is lost)."""
        event = await asyncio.shield(asyncio.ensure_future(self._change(session, side, msg)))
        if conn is not None:
            ack: Dict[str, Any] = {"type": "ack", "seq": event["seq"]}
            if msg.id is not None:
                ack["id"] = msg.id
            conn.send_obj(ack)
        return event

    async def _change(self, session: Session, side: Optional[str], msg: Message) -> Dict[str, Any]:
        async with session.lock:
            if self.storage.shared and msg.seq != session.seq + 1:
                await self._catch_up(session)  # the client knows of events we do not
            for _ in range(3):
                event = session.propose(side, msg)
                try:
                    await self._commit(session, event)
                    return event
                except Stale:
                    await self._catch_up(session)  # then checked again: stale_seq, ...
        raise Refused("storage", "not stored, not played: the game changes too fast")

    async def _commit(self, session: Session, event: Dict[str, Any]) -> None:
        """Under the session's lock: commit, accept, broadcast."""
        try:
            await self.commit_events([(session.id, event["seq"], event)])
        except StorageError as e:
            session.revert(event)
            if isinstance(e, Conflict):
                raise Stale("stale_seq", "seq %d: accepted already by another process"
                            % event["seq"]) from None
            raise Refused("storage", "not stored, not played: %s" % e) from None
        session.accept(event)
        self.stats["events"] += 1
        if event["kind"] == "decision":
            self.stats["decisions"] += 1
        self._broadcast(session, event)
        if session.over:
            try:
                await self._db(self.storage.finish_game, session.id, session.outcome,
                               session.record())
            except StorageError:
                pass  # written again at the next start (load)
        self.after_change(session)

    def _broadcast(self, session: Session, event: Dict[str, Any]) -> None:
        data = json.dumps({"type": "event", "game": session.id, "event": event,
                           "deadline": session.deadline()})
        for watcher in list(session.watchers):
            watcher.send(data)

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
        session.lock = asyncio.Lock()
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
            if session.searcher is not None:
                # in the searchers' thread: a run in progress ends first
                self.bots.submit(session.searcher.close)
                session.searcher = None
            return
        deadline = session.deadline()
        if deadline is not None:
            self._timers[session.id] = loop.call_later(
                max(0.0, deadline - time.time()) + 0.01,
                lambda: asyncio.ensure_future(self._on_time(session)))
        side = session.side_to_act()
        if session.meta["seats"][side]["kind"] == "bot" and session.id not in self._bot_tasks:
            self._bot_tasks[session.id] = asyncio.ensure_future(self._bot_move(session))

    async def _on_time(self, session: Session) -> None:
        async with session.lock:
            event = session.propose_timeout()
            if event is None:
                if not session.over:
                    self.after_change(session)  # woken early: wait again
                return
            try:
                await self._commit(session, event)
            except Stale:
                await self._catch_up(session)  # another process was first
                self.after_change(session)
            except Refused:
                self.after_change(session)  # not stored: try again

    async def _bot_move(self, session: Session) -> None:
        try:
            while not session.over:
                side = session.side_to_act()
                if session.meta["seats"][side]["kind"] != "bot":
                    return
                if session.searcher is None:
                    session.searcher = libball.TurnSearch(nodes=session.meta["bot_nodes"])
                seq = session.seq
                position = session.game.clone()
                try:
                    action = await asyncio.get_running_loop().run_in_executor(
                        self.bots, session.searcher.choose, position)
                finally:
                    position.close()
                if session.seq != seq or session.over:
                    continue  # the game changed meanwhile (resignation, time)
                msg = Message(type="decision", id=None, seq=seq + 1, action=action.text)
                try:
                    async with session.lock:
                        event = session.propose(side, msg)
                        self._bot_tasks.pop(session.id, None)
                        await self._commit(session, event)
                    return  # after_change started the next move if any
                except Stale:
                    async with session.lock:
                        await self._catch_up(session)  # another process was first
                except Refused:
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

    async def create_game(self, request: web.Request) -> web.Response:
        if not self.origin_ok(request):
            return json_error(403, "bad_origin", "origin not allowed")
        if sum(1 for s in self.sessions.values() if not s.over) >= self.max_games:
            return json_error(503, "busy", "too many games going on")
        try:
            options = check_options(json.loads(await request.text()))
        except (ValueError, RecursionError):
            return json_error(400, "malformed", "the body is a JSON object of options")
        except Refused as e:
            return json_error(400, e.reason, e.message)
        session, tokens = Session.create(options)
        session.lock = asyncio.Lock()
        try:
            await self._db(self.storage.create_game, session.id, session.meta)
        except StorageError as e:
            return json_error(503, "storage", str(e))
        self.sessions[session.id] = session
        self.after_change(session)
        base = self.base_url(request)
        seats = {side: {"token": tok, "link": "%s/?game=%s#token=%s" % (base, session.id, tok)}
                 for side, tok in tokens.items()
                 if not session.meta["seats"][side].get("unclaimed")}
        return web.json_response({"game": session.id, "seats": seats,
                                  "watch": "%s/?game=%s" % (base, session.id),
                                  "state": session.state()}, status=201)

    async def claim_seat(self, request: web.Request) -> web.Response:
        """The lobby's open seat, to the first who asks."""
        if not self.origin_ok(request):
            return json_error(403, "bad_origin", "origin not allowed")
        session = await self.find_session(request.match_info["game"])
        if session is None:
            return json_error(404, "no_such_game", "no such game")
        async with session.lock:
            seat = next((s for s in SIDES if session.meta["seats"][s].get("unclaimed")), None)
            if seat is None or session.over:
                return json_error(409, "no_open_seat", "this game has no open seat")
            token = new_token()
            meta = json.loads(json.dumps(session.meta))
            meta["seats"][seat]["token_hash"] = token_hash(token)
            del meta["seats"][seat]["unclaimed"]
            try:
                await self._db(self.storage.update_meta, session.id, meta, seat)
            except Conflict:
                await self._catch_up(session)  # another process gave the seat away
                return json_error(409, "no_open_seat", "this game has no open seat")
            except StorageError as e:
                return json_error(503, "storage", str(e))
            session.meta = meta
        base = self.base_url(request)
        return web.json_response({"game": session.id, "side": seat, "token": token,
                                  "link": "%s/?game=%s#token=%s" % (base, session.id, token)})

    async def lobby(self, request: web.Request) -> web.Response:
        games = [s.state() for s in self.sessions.values() if s.meta["public"] and not s.over]
        return web.json_response({"games": games[:500]})

    async def game_state(self, request: web.Request) -> web.Response:
        session = await self.find_session(request.match_info["game"])
        if session is None:
            return json_error(404, "no_such_game", "no such game")
        return web.json_response(session.state())

    async def game_record(self, request: web.Request) -> web.Response:
        game_id = request.match_info["game"]
        session = await self.find_session(game_id)
        if session is None:
            return json_error(404, "no_such_game", "no such game")
        text = await self._db(self.storage.record, game_id) if session.over else None
        if text is None:
            text = session.record()
        return web.Response(text=text, content_type="text/plain", headers={
            "Content-Disposition": 'attachment; filename="ball-%s.txt"' % game_id})

    async def stats_page(self, request: web.Request) -> web.Response:
        return web.json_response(dict(self.stats, games=len(self.sessions),
                                      connections=self.connections))

    # -------------------------------------------------- WebSocket

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_ok(request):
            return json_error(403, "bad_origin", "origin not allowed")
        if self.connections >= self.max_connections:
            return json_error(503, "busy", "too many connections")
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_FRAME, heartbeat=20.0,
                                   compress=False)
        await ws.prepare(request)
        sock = request.transport.get_extra_info("socket") if request.transport else None
        if sock is not None:
            # a fixed kernel buffer: what a client does not read stays bounded
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        conn = Conn(ws, request, self.stats, self.rate, self.burst, self.max_queued)
        self.connections += 1
        try:
            await self._serve(conn)
        finally:
            self.connections -= 1
            if conn.session is not None:
                conn.session.watchers.discard(conn)
            if not ws.closed and not conn.dropped:
                await conn.close(WSCloseCode.OK, b"")
        return ws

    async def _serve(self, conn: Conn) -> None:
        ws = conn.ws
        hello_by = time.monotonic() + self.hello_seconds
        while not conn.dropped:
            timeout = None if conn.session is not None else max(0.0, hello_by - time.monotonic())
            try:
                raw = await ws.receive(timeout=timeout)
            except asyncio.TimeoutError:
                conn.send_obj(protocol.error("timeout", "no hello within %g s" % self.hello_seconds))
                await conn.close(WSCloseCode.POLICY_VIOLATION, b"no hello")
                return
            if raw.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if raw.type == WSMsgType.ERROR:
                return  # e.g. a frame above the size limit: aiohttp closed with 1009
            client_id = None
            try:
                msg = protocol.parse(raw.data if raw.type == WSMsgType.TEXT else None)
                client_id = msg.id
                if not conn.allow():
                    raise Refused("rate_limited", "at most %g messages a second" % conn.rate)
                await self._handle(conn, msg)
                conn.refused = 0
            except Refused as e:
                conn.refused += 1
                conn.send_obj(protocol.error(e.reason, e.message, client_id or e.client_id))
                if conn.refused >= MAX_REFUSED:
                    await conn.close(WSCloseCode.POLICY_VIOLATION, b"too many refused")
                    return

    async def _handle(self, conn: Conn, msg: Message) -> None:
        if msg.type == "ping":
            out: Dict[str, Any] = {"type": "pong"}
            if msg.id is not None:
                out["id"] = msg.id
            conn.send_obj(out)
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
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.storage.close()


class Stale(Refused):
    """An event another process stored first (the game is caught up)."""


def open_storage(args: argparse.Namespace) -> Storage:
    """--db: a PostgreSQL connection URI, or the SQLite file."""
    if args.db.startswith(("postgresql://", "postgres://")):
        from storage_pg import PostgresStorage
        return PostgresStorage(args.db, channel=args.pg_channel)
    return SQLiteStorage(args.db, synchronous=args.synchronous)


def json_error(status: int, reason: str, message: str) -> web.Response:
    return web.json_response(protocol.error(reason, message), status=status)


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


def add_web_routes(app: web.Application, root: str) -> None:
    """Serves the page (``--web DIR``, e.g. build/web) at ``/``, so that
    an invitation link (``/?game=ID#token=...``) opens it from the
    server's own origin. Only the regular files under DIR: a path with a
    ``..`` segment is refused (403), a file whose resolved path (links
    followed) lies outside DIR is answered 404, as examples/web/serve.mjs
    does. Registered after the API and the WebSocket, which keep their
    paths."""
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
        ext = os.path.splitext(real)[1]
        return web.Response(body=body, headers={
            "Content-Type": WEB_TYPES.get(ext, "application/octet-stream")})

    app.router.add_get("/{path:.*}", page_file)


def make_app(server: Server, web_root: Optional[str] = None) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY, middlewares=[security_headers])
    app.router.add_post("/api/games", server.create_game)
    app.router.add_get("/api/games", server.lobby)
    app.router.add_get("/api/games/{game}", server.game_state)
    app.router.add_post("/api/games/{game}/claim", server.claim_seat)
    app.router.add_get("/api/games/{game}/record", server.game_record)
    app.router.add_get("/api/stats", server.stats_page)
    app.router.add_get("/ws", server.websocket)
    if web_root:
        add_web_routes(app, web_root)
    return app


async def run(args: argparse.Namespace) -> None:
    # The storage thread must get the GIL soon after SQLite returns: with
    # the default 5 ms switch interval a busy event loop would hold every
    # commit up by several of them.
    sys.setswitchinterval(0.0005)
    storage = open_storage(args)
    server = Server(storage, args.allow_origin, args.public_url, bot_threads=args.bot_threads,
                    max_games=args.max_games, hello_seconds=args.hello_seconds,
                    rate=args.rate, burst=args.burst, max_queued=args.max_queued)
    going = server.load()
    runner = web.AppRunner(make_app(server, args.web), access_log=None, handle_signals=True)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port, reuse_address=True)
    await site.start()
    server.start_games()
    server.start_listening()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print("ball-server: listening on http://%s:%d/ (%s, %d games, %d going on)"
          % (args.host, port, "PostgreSQL" if storage.shared else args.db,
             len(server.sessions), going), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        server.close()


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
    p.add_argument("--bot-threads", type=int, default=1, help="threads for the searcher seats")
    p.add_argument("--max-games", type=int, default=10000, help="games going on at once")
    p.add_argument("--hello-seconds", type=float, default=HELLO_SECONDS,
                   help="seconds a new WebSocket has to say hello (default %g)" % HELLO_SECONDS)
    p.add_argument("--rate", type=float, default=RATE,
                   help="messages a second a connection may send (default %g)" % RATE)
    p.add_argument("--burst", type=float, default=BURST,
                   help="messages a connection may send at once above the rate (default %g)" % BURST)
    p.add_argument("--max-queued", type=int, default=MAX_QUEUED,
                   help="messages waiting for a client that does not read before it is "
                   "dropped (default %d)" % MAX_QUEUED)
    args = p.parse_args(argv)
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
