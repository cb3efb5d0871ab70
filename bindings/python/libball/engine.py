# SPDX-License-Identifier: MIT
"""Engines as processes: a client of BEP, the BALL engine protocol
(docs/protocol.md), in the spirit of python-chess's ``chess.engine``.

    >>> import libball, libball.engine
    >>> with libball.engine.SimpleEngine.popen(["ball", "engine"]) as engine:
    ...     game = libball.Game()
    ...     result = engine.play(game, libball.engine.Limit(playouts=500))
    ...     game.apply(result.decision)

``SimpleEngine`` is the blocking API; beneath it is an asyncio one:
``await popen_engine(command)`` returns ``(transport, protocol)`` where
``protocol`` (a ``BepProtocol``) has the coroutines ``initialize()``,
``ping()``, ``configure()``, ``play()``, ``analyse()`` and ``quit()``.

Errors: ``EngineTerminatedError`` when the engine process ended (its exit
status and standard error attached), ``EngineTimeoutError`` when it did not
answer in time, ``EngineError`` (their base class) when it answered
something malformed or illegal. Only the standard library and the libball
binding are used.
"""

import asyncio
import os
import signal
import subprocess
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from .errors import BallError
from .game import Action, Game

__all__ = ["EngineError", "EngineTerminatedError", "EngineTimeoutError", "Limit", "Option",
           "PlayResult", "InfoDict", "BepProtocol", "popen_engine", "SimpleEngine"]

#: What an ``info`` line says: ``depth``, ``nodes``, ``nps``, ``time``
#: (seconds), ``multipv``, ``value`` (0-1 for the coach to act),
#: ``visits``, ``pv`` (a list of N2 texts), ``string``; only the fields the
#: engine sent.
InfoDict = Dict[str, Any]


class EngineError(RuntimeError):
    """The engine answered something malformed or illegal (the base class
    of the two below)."""


class EngineTerminatedError(EngineError):
    """The engine process ended. ``returncode`` is its exit status (negative:
    the signal) and ``stderr`` what it wrote on its standard error."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = "") -> None:
        if stderr:
            message += "; its stderr: " + stderr.strip()[-2000:]
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer within the time allowed."""


class Limit(NamedTuple):
    """The limits of a search (``go``): ``nodes``, ``playouts``, ``depth``,
    ``time`` (seconds per decision: ``movetime``), the clock ``atime``,
    ``dtime`` (seconds left), ``ainc``, ``dinc`` (increments); None: not
    given."""

    nodes: Optional[int] = None
    playouts: Optional[int] = None
    time: Optional[float] = None
    depth: Optional[int] = None
    atime: Optional[float] = None
    dtime: Optional[float] = None
    ainc: Optional[float] = None
    dinc: Optional[float] = None

    def words(self) -> List[str]:
        out: List[str] = []
        for name in ("nodes", "playouts", "depth"):
            v = getattr(self, name)
            if v is not None:
                out += [name, str(int(v))]
        if self.time is not None:
            out += ["movetime", str(max(1, int(round(self.time * 1000))))]
        for name in ("atime", "dtime", "ainc", "dinc"):
            v = getattr(self, name)
            if v is not None:
                out += [name, str(max(0, int(round(v * 1000))))]
        return out

    def seconds(self) -> Optional[float]:
        """The longest a search under this limit may take, None if unknown."""
        if self.time is not None:
            return self.time
        clocks = [t for t in (self.atime, self.dtime) if t is not None]
        return max(clocks) if clocks else None


class Option(NamedTuple):
    """An ``option`` line of the handshake."""

    name: str
    type: str
    default: str
    min: Optional[str]
    max: Optional[str]
    var: Tuple[str, ...]


class PlayResult(NamedTuple):
    """The answer of ``play()``: the decision (an Action legal in the game),
    the rest of the turn the engine announced (N2 texts, a hint) and the
    last ``info`` of the search."""

    decision: Action
    turn: List[str]
    info: InfoDict


_INT_FIELDS = ("depth", "nodes", "nps", "multipv", "visits", "seldepth")


def parse_info(line: str) -> InfoDict:
    """The fields of one ``info`` line (unknown ones skipped)."""
    words = line.split()[1:]
    info: InfoDict = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "string":
            info["string"] = " ".join(words[i + 1:])
            break
        if key == "pv":
            info["pv"] = words[i + 1:]
            break
        if i + 1 < len(words):
            try:
                if key in _INT_FIELDS:
                    info[key] = int(words[i + 1])
                elif key == "value":
                    info["value"] = float(words[i + 1])
                elif key == "time":
                    info["time"] = int(words[i + 1]) / 1000.0
            except ValueError:
                pass
        i += 2
    return info


def position_command(game: Game) -> str:
    """The ``position`` line of ``game``: where its history starts, then its
    decisions."""
    start = game.history_position(0)
    decisions = [str(a) for a in game.move_stack]
    from . import START_BPN
    line = "position startpos" if start == START_BPN else "position bpn " + start
    if decisions:
        line += " decisions " + " ".join(decisions)
    return line


class BepProtocol(asyncio.SubprocessProtocol):
    """The client side of BEP over one engine process (see popen_engine())."""

    def __init__(self) -> None:
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.lines: "asyncio.Queue[Optional[str]]" = asyncio.Queue()
        self._buf = b""
        self._stderr = b""
        self._stderr_done = asyncio.get_event_loop().create_future()
        self.returncode: Optional[int] = None
        self.id: Dict[str, str] = {}
        self.options: Dict[str, Option] = {}
        self._rules: Optional[str] = None
        self._dead = False

    # ---- asyncio callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 2:
            self._stderr += data[-65536:]
            return
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            self.lines.put_nowait(line.rstrip(b"\r").decode("utf-8", errors="replace"))

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        if fd == 2 and not self._stderr_done.done():
            self._stderr_done.set_result(None)
        if fd == 1:
            self.lines.put_nowait(None)

    def process_exited(self) -> None:
        assert self.transport is not None
        self.returncode = self.transport.get_returncode()
        self.lines.put_nowait(None)

    # ---- helpers
    @property
    def stderr(self) -> str:
        return self._stderr.decode("utf-8", errors="replace")

    def send(self, line: str) -> None:
        if self._dead or self.transport is None:
            raise EngineTerminatedError("the engine has ended", self.returncode, self.stderr)
        pipe = self.transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            raise EngineTerminatedError("the engine has ended", self.returncode, self.stderr)
        pipe.write((line + "\n").encode())  # type: ignore[attr-defined]

    async def _terminated(self, what: str) -> EngineTerminatedError:
        self._dead = True
        try:
            await asyncio.wait_for(asyncio.shield(self._stderr_done), 1.0)
        except asyncio.TimeoutError:
            pass
        if self.returncode is None and self.transport is not None:
            for _ in range(50):  # the exit status follows the closed pipes
                self.returncode = self.transport.get_returncode()
                if self.returncode is not None:
                    break
                await asyncio.sleep(0.01)
        return EngineTerminatedError("the engine ended %s (exit status %s)" % (what, self.returncode),
                                     self.returncode, self.stderr)

    async def readline(self, timeout: Optional[float], what: str) -> str:
        if self._dead:
            raise await self._terminated(what)
        try:
            line = await asyncio.wait_for(self.lines.get(), timeout)
        except asyncio.TimeoutError:
            raise EngineTimeoutError("the engine did not answer %s within %.1f s"
                                     % (what, timeout or 0)) from None
        if line is None:
            raise await self._terminated(what)
        return line

    # ---- the protocol
    async def initialize(self, timeout: float = 10.0) -> None:
        """The handshake: ``bep`` ... ``bepok``; fills ``id`` and ``options``."""
        self.send("bep")
        loop = asyncio.get_event_loop()
        deadline = loop.time() + timeout
        while True:
            line = await self.readline(max(0.0, deadline - loop.time()), "bep (no bepok)")
            words = line.split()
            if not words:
                continue
            if words[0] == "bepok":
                return
            if words[0] == "id" and len(words) >= 2:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "option":
                opt = _parse_option(words)
                if opt is not None:
                    self.options[opt.name] = opt

    async def ping(self, timeout: float = 10.0) -> None:
        """``isready`` ... ``readyok``."""
        self.send("isready")
        loop = asyncio.get_event_loop()
        deadline = loop.time() + timeout
        while True:
            line = await self.readline(max(0.0, deadline - loop.time()), "isready")
            if line.strip() == "readyok":
                return
            self._check_error(line)

    def _check_error(self, line: str) -> None:
        if line.startswith("info string error: "):
            raise EngineError("the engine refused a command: " + line[len("info string error: "):])

    async def configure(self, options: Mapping[str, object], timeout: float = 10.0) -> None:
        """Sends ``setoption`` for each option; an unknown name (not listed in
        the handshake) or a value the engine refuses raises EngineError."""
        for name, value in options.items():
            if name not in self.options:
                raise EngineError("the engine has no option %r (it has: %s)"
                                  % (name, " ".join(self.options)))
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self.send("setoption name %s value %s" % (name, text))
        await self.ping(timeout)

    async def _position(self, game: Game, timeout: float) -> None:
        rules = game.rules_text
        if rules != self._rules:
            self.send("newgame rules " + rules if rules else "newgame")
            self._rules = rules
        self.send(position_command(game))
        await self.ping(timeout)

    def _timeout(self, limit: Limit, timeout: Optional[float]) -> Optional[float]:
        if timeout is not None:
            return timeout
        seconds = limit.seconds()
        return None if seconds is None else seconds + 10.0

    async def _go(self, game: Game, limit: Limit, multipv: Optional[int],
                  timeout: Optional[float]) -> Tuple[List[InfoDict], str]:
        await self._position(game, 10.0)
        words = ["go"] + limit.words()
        if multipv is not None:
            words += ["multipv", str(int(multipv))]
        self.send(" ".join(words))
        loop = asyncio.get_event_loop()
        limit_s = self._timeout(limit, timeout)
        deadline = None if limit_s is None else loop.time() + limit_s
        infos: List[InfoDict] = []
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            line = await self.readline(left, "go (no bestdecision)")
            if line.startswith("bestdecision"):
                return infos, line
            if line.startswith("info string error: "):
                if "the game is over" not in line:
                    self._check_error(line)
            elif line.startswith("info "):
                infos.append(parse_info(line))

    async def play(self, game: Game, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The engine's decision in ``game`` (not changed), checked legal.
        ``timeout``: seconds to wait for it (default: the limit's time + 10 s,
        or no timeout for a limit in nodes/playouts/depth)."""
        infos, line = await self._go(game, limit, None, timeout)
        words = line.split()
        if len(words) < 2 or words[0] != "bestdecision":
            raise EngineError("malformed answer %r (expected 'bestdecision N2')" % line[:80])
        if words[1] == "none":
            raise EngineError("the engine has no decision (bestdecision none): is the game over?")
        try:
            action = game.parse_action(words[1])
        except BallError as exc:  # NotationError, IllegalActionError
            raise EngineError("the engine sent %r, not a legal decision: %s"
                              % (words[1][:40], exc)) from None
        turn: List[str] = []
        if len(words) > 2:
            if words[2] != "turn":
                raise EngineError("malformed answer %r (expected 'turn' after the decision)"
                                  % line[:80])
            turn = words[3:]
        return PlayResult(action, turn, infos[-1] if infos else {})

    async def analyse(self, game: Game, limit: Limit, *, multipv: Optional[int] = None,
                      timeout: Optional[float] = None) -> Union[InfoDict, List[InfoDict]]:
        """The last ``info`` of the search (a dict), or with ``multipv`` the
        last one of each rank (a list, best first)."""
        infos, _ = await self._go(game, limit, multipv, timeout)
        if multipv is None:
            return infos[-1] if infos else {}
        last: Dict[int, InfoDict] = {}
        for info in infos:
            last[info.get("multipv", 1)] = info
        return [last[k] for k in sorted(last)]

    async def quit(self, timeout: float = 5.0) -> None:
        """Sends ``quit`` and waits for the process to end (killed after
        ``timeout``)."""
        if not self._dead:
            try:
                self.send("quit")
            except EngineTerminatedError:
                pass
        await self._reap(timeout)

    async def _reap(self, timeout: float) -> None:
        self._dead = True
        if self.transport is None:
            return
        loop = asyncio.get_event_loop()
        deadline = loop.time() + timeout
        while self.transport.get_returncode() is None and loop.time() < deadline:
            await asyncio.sleep(0.01)
        if self.transport.get_returncode() is None:
            kill_group(self.transport.get_pid())
            while self.transport.get_returncode() is None:
                await asyncio.sleep(0.01)
        self.returncode = self.transport.get_returncode()
        self.transport.close()


def kill_group(pid: int) -> None:
    """SIGKILL to the process group of ``pid`` (the engine and its children)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _parse_option(words: Sequence[str]) -> Optional[Option]:
    fields: Dict[str, str] = {}
    var: List[str] = []
    i = 1
    while i + 1 < len(words):
        key = words[i]
        if key == "var":
            var.append(words[i + 1])
        elif key == "default" and fields.get("type") == "string":
            fields["default"] = " ".join(words[i + 1:])
            break
        else:
            fields[key] = words[i + 1]
        i += 2
    if "name" not in fields or "type" not in fields:
        return None
    default = fields.get("default", "")
    return Option(fields["name"], fields["type"], "" if default == "<empty>" else default,
                  fields.get("min"), fields.get("max"), tuple(var))


async def popen_engine(command: Union[str, Sequence[str]], *, timeout: float = 10.0,
                       **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, BepProtocol]:
    """Starts the engine (in a process group of its own), does the handshake
    within ``timeout`` seconds and returns ``(transport, protocol)``. The
    engine is killed when the handshake fails."""
    loop = asyncio.get_event_loop()
    argv = [command] if isinstance(command, str) else list(command)
    popen_args.setdefault("start_new_session", True)
    transport, protocol = await loop.subprocess_exec(BepProtocol, *argv, stdin=subprocess.PIPE,
                                                     stdout=subprocess.PIPE,
                                                     stderr=subprocess.PIPE, **popen_args)
    try:
        await protocol.initialize(timeout)
    except BaseException:
        await protocol._reap(0.0)
        raise
    return transport, protocol


class SimpleEngine:
    """The blocking API over one engine process: ``SimpleEngine.popen(cmd)``,
    then ``play()``, ``analyse()``, ``configure()``, ``ping()`` and
    ``quit()`` (or a ``with`` block). Runs its own event loop; use one
    SimpleEngine from one thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, transport: asyncio.SubprocessTransport,
                 protocol: BepProtocol) -> None:
        self._loop = loop
        self.transport = transport
        self.protocol = protocol

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], *, timeout: float = 10.0,
              **popen_args: Any) -> "SimpleEngine":
        loop = asyncio.new_event_loop()
        try:
            asyncio.set_event_loop(loop)
            transport, protocol = loop.run_until_complete(
                popen_engine(command, timeout=timeout, **popen_args))
        except BaseException:
            loop.close()
            raise
        return cls(loop, transport, protocol)

    @property
    def id(self) -> Dict[str, str]:
        return self.protocol.id

    @property
    def options(self) -> Dict[str, Option]:
        return self.protocol.options

    def _run(self, coro: Any) -> Any:
        if self._loop.is_closed():
            raise EngineTerminatedError("the engine has been closed")
        asyncio.set_event_loop(self._loop)
        return self._loop.run_until_complete(coro)

    def ping(self, timeout: float = 10.0) -> None:
        self._run(self.protocol.ping(timeout))

    def configure(self, options: Mapping[str, object]) -> None:
        self._run(self.protocol.configure(options))

    def play(self, game: Game, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        return self._run(self.protocol.play(game, limit, timeout=timeout))  # type: ignore[no-any-return]

    def analyse(self, game: Game, limit: Limit, *, multipv: Optional[int] = None,
                timeout: Optional[float] = None) -> Union[InfoDict, List[InfoDict]]:
        return self._run(self.protocol.analyse(game, limit, multipv=multipv,  # type: ignore[no-any-return]
                                               timeout=timeout))

    def quit(self, timeout: float = 5.0) -> None:
        """Ends the engine (killed if it does not end within ``timeout``)."""
        if self._loop.is_closed():
            return
        try:
            self._run(self.protocol.quit(timeout))
        finally:
            self._loop.close()

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __del__(self) -> None:
        try:
            if not self._loop.is_closed() and self.transport.get_returncode() is None:
                kill_group(self.transport.get_pid())
        except Exception:
            pass
