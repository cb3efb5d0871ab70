# SPDX-License-Identifier: MIT
"""PostgreSQL storage of the game server: several processes, one database.

    python3 examples/server/server.py --db postgresql://user@host/dbname

Debian's python3-psycopg2 (``sh scripts/deps.sh server``). The tables are
those of SQLite (storage.py), created when missing. What several server
processes on one database need besides:

- ``append_events()`` locks the row of each game it appends to
  (``SELECT ... FOR UPDATE``, in the order of the game ids so that two
  processes never wait for each other), checks that each game's first new
  seq follows the last stored one, inserts, and commits: an event another
  process stored first raises ``Conflict`` and writes nothing. The (game,
  seq) primary key stays the last guard against a duplicate.
- Every write sends a notification on the channel (``ball_events`` unless
  told otherwise) in its transaction, so that it is delivered at commit and
  only then: payload "GAME SEQ", the game's last seq (0: a new game or new
  metadata). The other processes LISTEN on it (``listen_fileno()``,
  ``notifications()``), ignore their own and read the new events back with
  ``load_events()`` (many games in one query) or ``load_game()``.

Every method that writes commits before it returns; PostgreSQL's
``synchronous_commit`` (on by default) makes the commit durable.
"""

import json
import threading
from typing import Any, Dict, Iterable, List, Optional, Tuple

import psycopg2
import psycopg2.extras

from storage import Conflict, Storage, StorageError, event_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      TEXT PRIMARY KEY,
    n       BIGSERIAL,
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

#: The channel's name: letters, digits and _ (it is part of the SQL text).
DEFAULT_CHANNEL = "ball_events"

Loaded = Tuple[Dict[str, Any], List[Dict[str, Any]], Optional[Dict[str, Any]]]


class PostgresStorage(Storage):
    """Two connections: one for the storage thread's reads and writes, one
    that only LISTENs (read by the server's event loop)."""

    shared = True

    def __init__(self, dsn: str, channel: str = DEFAULT_CHANNEL) -> None:
        if not channel or not all(c.isalnum() or c == "_" for c in channel) or channel[0].isdigit():
            raise ValueError("the channel is a name of letters, digits and _")
        self.channel = channel
        self._dsn = dsn
        self._lock = threading.Lock()
        self._pid = 0  # this process's backend: its notifications are its own
        try:
            self._db = self._connect()
            with self._db:
                with self._db.cursor() as cur:
                    # two processes starting at once: one creates the tables
                    cur.execute("SELECT pg_advisory_xact_lock(4242424242)")
                    cur.execute(SCHEMA)
            self._listen = self._connect_listen()
        except psycopg2.Error as e:
            raise StorageError("PostgreSQL: %s" % str(e).strip()) from e

    # -------------------------------------------------- connections

    def _connect(self) -> Any:
        db = psycopg2.connect(self._dsn)
        # (a lost backend's pid may be reused by another process's: only
        # the current one is skipped; reading one's own event again is harmless)
        self._pid = db.get_backend_pid()
        return db

    def _connect_listen(self) -> Any:
        listen = psycopg2.connect(self._dsn)
        listen.autocommit = True
        with listen.cursor() as cur:
            cur.execute("LISTEN " + self.channel)
        return listen

    def _run(self, fn: Any) -> Any:
        """fn(cursor) in one transaction, committed (or rolled back on an
        exception). A connection found lost (the database restarted, the
        backend terminated) is opened again and fn tried once more: at the
        first statement nothing was written; a commit whose answer was lost
        either happened (the retry then meets Conflict, and the server
        catches up) or did not."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    if self._db.closed:
                        self._db = self._connect()
                    with self._db:  # commits, or rolls back on an exception
                        with self._db.cursor() as cur:
                            return fn(cur)
                except (psycopg2.OperationalError, psycopg2.InterfaceError) as e:
                    if attempt == 1 and self._db.closed:
                        continue
                    raise StorageError(str(e).strip()) from e
                except psycopg2.Error as e:
                    raise StorageError(str(e).strip()) from e
        return None  # not reached

    # -------------------------------------------------- writes

    def _write(self, fn: Any) -> None:
        self._run(fn)

    def _notify(self, cur: Any, payloads: List[str]) -> None:
        cur.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                    (self.channel, payloads))

    def create_game(self, game_id: str, meta: Dict[str, Any]) -> None:
        def fn(cur: Any) -> None:
            cur.execute("INSERT INTO games (id, meta) VALUES (%s, %s)", (game_id, json.dumps(meta)))
            self._notify(cur, ["%s 0" % game_id])
        self._write(fn)

    def update_meta(self, game_id: str, meta: Dict[str, Any],
                    claimed: Optional[str] = None) -> None:
        def fn(cur: Any) -> None:
            if claimed is None:
                cur.execute("UPDATE games SET meta = %s WHERE id = %s", (json.dumps(meta), game_id))
            else:  # the seat must still be open in the stored row (row lock until commit)
                cur.execute("UPDATE games SET meta = %s WHERE id = %s"
                            " AND (meta::jsonb -> 'seats' -> %s ->> 'unclaimed') IS NOT NULL",
                            (json.dumps(meta), game_id, claimed))
                if cur.rowcount != 1:
                    raise Conflict("game %s: seat %s was claimed already (by another process)"
                                   % (game_id, claimed))
            self._notify(cur, ["%s 0" % game_id])
        self._write(fn)

    def append_events(self, events: Iterable[Tuple[str, int, Any]]) -> None:
        rows = [(game_id, seq, event_text(event)) for game_id, seq, event in events]
        if not rows:
            return
        first: Dict[str, int] = {}
        last: Dict[str, int] = {}
        for game_id, seq, _ in rows:
            first[game_id] = min(seq, first.get(game_id, seq))
            last[game_id] = max(seq, last.get(game_id, seq))
        ids = sorted(first)

        def fn(cur: Any) -> None:
            # the games' rows locked, in id order, until the commit
            cur.execute("SELECT id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = g.id)"
                        " FROM games g WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,))
            stored = dict(cur.fetchall())
            for game_id in ids:
                if game_id not in stored:
                    raise StorageError("game %s: no such game" % game_id)
                if stored[game_id] != first[game_id] - 1:
                    raise Conflict("game %s: seq %d is stored already (by another process)"
                                   % (game_id, first[game_id]))
            psycopg2.extras.execute_values(
                cur, "INSERT INTO events (game, seq, event) VALUES %s", rows, page_size=1000)
            self._notify(cur, ["%s %d" % (game_id, last[game_id]) for game_id in ids])
        self._write(fn)

    def finish_game(self, game_id: str, outcome: Dict[str, Any], record: str) -> None:
        self._write(lambda cur: cur.execute(
            "UPDATE games SET outcome = %s, record = %s WHERE id = %s",
            (json.dumps(outcome), record, game_id)))

    # -------------------------------------------------- reads

    def _read(self, fn: Any) -> Any:
        return self._run(fn)

    def load_games(self) -> List[Tuple[str, Dict[str, Any], List[Dict[str, Any]],
                                       Optional[Dict[str, Any]]]]:
        def fn(cur: Any) -> Any:
            cur.execute("SELECT id, meta, outcome FROM games ORDER BY n")
            games = cur.fetchall()
            cur.execute("SELECT game, event FROM events ORDER BY game, seq")
            events: Dict[str, List[Dict[str, Any]]] = {}
            for game_id, event in cur:
                events.setdefault(game_id, []).append(json.loads(event))
            return games, events
        games, events = self._read(fn)
        return [(gid, json.loads(meta), events.get(gid, []),
                 json.loads(outcome) if outcome else None) for gid, meta, outcome in games]

    def load_game(self, game_id: str, after_seq: int = 0) -> Optional[Loaded]:
        def fn(cur: Any) -> Any:
            cur.execute("SELECT meta, outcome FROM games WHERE id = %s", (game_id,))
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute("SELECT event FROM events WHERE game = %s AND seq > %s ORDER BY seq",
                        (game_id, after_seq))
            return row, [json.loads(e) for (e,) in cur]
        found = self._read(fn)
        if found is None:
            return None
        (meta, outcome), events = found
        return json.loads(meta), events, json.loads(outcome) if outcome else None

    def load_events(self, after: Dict[str, int]) -> Dict[str, List[Dict[str, Any]]]:
        ids = list(after)

        def fn(cur: Any) -> Any:  # one query for all the games
            cur.execute("SELECT e.game, e.event FROM events e"
                        " JOIN unnest(%s::text[], %s::int[]) AS a(game, seq)"
                        " ON e.game = a.game AND e.seq > a.seq ORDER BY e.game, e.seq",
                        (ids, [after[i] for i in ids]))
            return cur.fetchall()
        out: Dict[str, List[Dict[str, Any]]] = {}
        for game_id, event in self._read(fn):
            out.setdefault(game_id, []).append(json.loads(event))
        return out

    def record(self, game_id: str) -> Optional[str]:
        def fn(cur: Any) -> Any:
            cur.execute("SELECT record FROM games WHERE id = %s", (game_id,))
            return cur.fetchone()
        row = self._read(fn)
        return row[0] if row else None

    # -------------------------------------------------- the other processes

    def listen_fileno(self) -> Optional[int]:
        return self._listen.fileno()

    def relisten(self) -> None:
        """A new listening connection for one that was lost (StorageError
        while the database cannot be reached). Notifications sent in
        between are lost: the server then reads every game again."""
        try:
            self._listen.close()
        except psycopg2.Error:
            pass
        try:
            self._listen = self._connect_listen()
        except psycopg2.Error as e:
            raise StorageError("the listening connection: %s" % str(e).strip()) from e

    def notifications(self) -> List[Tuple[str, int]]:
        """Reads what arrived on the listening connection (never waits).
        StorageError when that connection is lost."""
        try:
            self._listen.poll()
        except psycopg2.Error as e:
            raise StorageError("the listening connection: %s" % str(e).strip()) from e
        out = []
        while self._listen.notifies:
            n = self._listen.notifies.pop(0)
            if n.pid == self._pid:
                continue  # this process's own write
            game_id, _, seq = n.payload.partition(" ")
            try:
                out.append((game_id, int(seq)))
            except ValueError:
                continue
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._listen.close()
