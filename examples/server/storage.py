# SPDX-License-Identifier: MIT
"""Storage of the game server: one small interface, SQLite behind it.

The server needs only what ``Storage`` declares: create a game, append
its events (decisions, resignations, draw offers, losses on time) in
order, mark a seat claimed, finish a game with its record, and read
everything back at start-up. ``SQLiteStorage`` keeps it in one file (no
setup); ``PostgresStorage`` (storage_pg.py) keeps it in PostgreSQL, where
several server processes share one database.

Every method that writes commits before it returns: the server
acknowledges an event only after ``append_events()`` has returned, so a
crash (``kill -9``, a power cut with ``synchronous=FULL``) loses nothing
that a client was told was accepted. The (game, seq) primary key makes a
duplicate event impossible.
"""

import json
import sqlite3
import threading
from typing import Any, Dict, Iterable, List, Optional, Tuple


def event_text(event: Any) -> str:
    """An event's JSON text (the server hands over the text it sends)."""
    return event if isinstance(event, str) else json.dumps(event)


class StorageError(Exception):
    """A write that did not happen (the event is refused, not acknowledged)."""


class Conflict(StorageError):
    """An event whose seq another process has stored first (several
    processes on one database): nothing written; the server catches the
    game up from the database and checks the message again."""


class Storage:
    """What the server needs from a database. Every write is committed
    when the method returns (or raises StorageError, nothing written)."""

    def create_game(self, game_id: str, meta: Dict[str, Any]) -> None:
        """A new game with its metadata (ruleset, seats, token hashes, clock)."""
        raise NotImplementedError

    def update_meta(self, game_id: str, meta: Dict[str, Any],
                    claimed: Optional[str] = None) -> None:
        """Replaces the metadata of a game (e.g. a seat claimed). With
        ``claimed`` (a side), only while the stored metadata still has
        that seat unclaimed: else Conflict, nothing written (two processes
        cannot both give away one open seat)."""
        raise NotImplementedError

    def append_events(self, events: Iterable[Tuple[str, int, Any]]) -> None:
        """Appends events (game id, seq, event: a dict, or its JSON text)
        in one transaction: all or none."""
        raise NotImplementedError

    def finish_game(self, game_id: str, outcome: Dict[str, Any], record: str) -> None:
        """Marks the game finished with its outcome and game record."""
        raise NotImplementedError

    def load_games(self) -> List[Tuple[str, Dict[str, Any], List[Dict[str, Any]],
                                       Optional[Dict[str, Any]]]]:
        """Every game: (id, metadata, events in seq order, outcome or None)."""
        raise NotImplementedError

    def record(self, game_id: str) -> Optional[str]:
        """The game record of a finished game, or None."""
        raise NotImplementedError

    def load_game(self, game_id: str, after_seq: int = 0
                  ) -> Optional[Tuple[Dict[str, Any], List[Dict[str, Any]], Optional[Dict[str, Any]]]]:
        """One game: (metadata, its events after ``after_seq`` in seq order,
        outcome or None), or None when there is no such game."""
        raise NotImplementedError

    def load_events(self, after: Dict[str, int]) -> Dict[str, List[Dict[str, Any]]]:
        """The events of several games, each after its seq in ``after``
        ({game id: seq}), in seq order; a game with none is left out."""
        out = {}
        for game_id, seq in after.items():
            found = self.load_game(game_id, seq)
            if found is not None and found[1]:
                out[game_id] = found[1]
        return out

    #: True when other processes write to the same database (PostgreSQL):
    #: the server then catches games up from it and listens for changes.
    shared = False

    def listen_fileno(self) -> Optional[int]:
        """A file descriptor readable when other processes changed games
        (None: no other process)."""
        return None

    def relisten(self) -> None:
        """Opens the listening connection again after notifications()
        raised StorageError (StorageError while that fails)."""

    def notifications(self) -> List[Tuple[str, int]]:
        """The changes of other processes since the last call, without
        waiting: (game id, seq of its last event; 0 for a new game or new
        metadata)."""
        return []

    def close(self) -> None:
        raise NotImplementedError


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      TEXT PRIMARY KEY,
    meta    TEXT NOT NULL,
    outcome TEXT,
    record  TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game  TEXT NOT NULL REFERENCES games(id),
    seq   INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


class SQLiteStorage(Storage):
    """SQLite in WAL mode; ``synchronous`` FULL (the default) survives a
    power cut, NORMAL only a crash of the process. One connection, used by
    one thread at a time (the server's storage thread)."""

    def __init__(self, path: str, synchronous: str = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=%s" % synchronous)
        self._db.executescript(SCHEMA)

    def _write(self, statements: List[Tuple[str, Tuple[Any, ...]]], many: bool = False) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    if many:  # one statement, many rows: one call into SQLite
                        self._db.executemany(statements[0][0], [args for _, args in statements])
                    else:
                        for sql, args in statements:
                            self._db.execute(sql, args)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                raise StorageError(str(e)) from e

    def create_game(self, game_id: str, meta: Dict[str, Any]) -> None:
        self._write([("INSERT INTO games (id, meta) VALUES (?, ?)", (game_id, json.dumps(meta)))])

    def update_meta(self, game_id: str, meta: Dict[str, Any],
                    claimed: Optional[str] = None) -> None:
        # one process: the session's lock already orders the claims
        self._write([("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), game_id))])

    def append_events(self, events: Iterable[Tuple[str, int, Any]]) -> None:
        rows = [("INSERT INTO events (game, seq, event) VALUES (?, ?, ?)",
                 (game_id, seq, event_text(event))) for game_id, seq, event in events]
        if rows:
            self._write(rows, many=True)

    def finish_game(self, game_id: str, outcome: Dict[str, Any], record: str) -> None:
        self._write([("UPDATE games SET outcome = ?, record = ? WHERE id = ?",
                      (json.dumps(outcome), record, game_id))])

    def load_games(self) -> List[Tuple[str, Dict[str, Any], List[Dict[str, Any]],
                                       Optional[Dict[str, Any]]]]:
        with self._lock:
            games = self._db.execute("SELECT id, meta, outcome FROM games ORDER BY rowid").fetchall()
            events: Dict[str, List[Dict[str, Any]]] = {}
            for game_id, _seq, event in self._db.execute(
                    "SELECT game, seq, event FROM events ORDER BY game, seq"):
                events.setdefault(game_id, []).append(json.loads(event))
        return [(gid, json.loads(meta), events.get(gid, []),
                 json.loads(outcome) if outcome else None) for gid, meta, outcome in games]

    def record(self, game_id: str) -> Optional[str]:
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def load_game(self, game_id: str, after_seq: int = 0
                  ) -> Optional[Tuple[Dict[str, Any], List[Dict[str, Any]], Optional[Dict[str, Any]]]]:
        with self._lock:
            row = self._db.execute("SELECT meta, outcome FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            events = [json.loads(e) for (e,) in self._db.execute(
                "SELECT event FROM events WHERE game = ? AND seq > ? ORDER BY seq",
                (game_id, after_seq))]
        return json.loads(row[0]), events, json.loads(row[1]) if row[1] else None

    def close(self) -> None:
        with self._lock:
            self._db.close()
