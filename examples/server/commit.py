# SPDX-License-Identifier: MIT
"""Group commit: one durable write for every event of a short window,
across games (docs/server.md, "Storage").

The server acknowledges an event only once it is durable, and a durable
commit costs one ``fsync`` (SQLite's ``synchronous=FULL``; PostgreSQL's
``synchronous_commit``) whatever it holds. ``GroupCommit.submit()`` adds
an event to the next batch and calls its ``done`` back, in the event
loop, once the batch is committed (``done(None)``) or refused
(``done(error)``). One batch is written at a time, in the storage thread;
the events that arrive while it is written, and those of the ``window``
after the first of an idle spell, go together into the next one. A batch
the database refuses is written again one event at a time, so that one
bad write fails only itself.

No task per event: the callbacks run in the one task that writes, which
is what lets the server spend its time on the decisions.
"""

import asyncio
import concurrent.futures
import time
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

from storage import StorageError

Done = Callable[[Optional[StorageError]], None]
Row = Tuple[str, int, Any]


class GroupCommit:
    def __init__(self, write: Callable[[List[Row]], None],
                 executor: concurrent.futures.Executor, stats: Dict[str, Any],
                 window: float = 0.001, max_batch: int = 4096) -> None:
        self._write = write
        self._executor = executor
        self.window = window
        self.max_batch = max_batch
        self.stats = stats
        self._pending: List[Tuple[List[Row], Done]] = []
        self._running = False

    def submit(self, rows: List[Row], done: Done) -> None:
        """Commits ``rows`` (game id, seq, event) with the next batch, all
        or none; then ``done(None)``, or ``done(StorageError)``."""
        self._pending.append((rows, done))
        if not self._running:
            self._running = True
            asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            if self.window > 0:
                await asyncio.sleep(self.window)  # the rest of the window joins
            while self._pending:
                batch = self._pending[:self.max_batch]
                del self._pending[:self.max_batch]
                t = time.monotonic()
                try:
                    await loop.run_in_executor(self._executor, self._write,
                                               [r for rows, _ in batch for r in rows])
                    errors: List[Optional[StorageError]] = [None] * len(batch)
                except Exception:
                    errors = []
                    for rows, _ in batch:  # one at a time: one bad write fails only itself
                        try:
                            await loop.run_in_executor(self._executor, self._write, rows)
                            errors.append(None)
                        except Exception as e:
                            errors.append(e if isinstance(e, StorageError) else StorageError(str(e)))
                self.stats["commits"] += 1
                self.stats["commit_ms"] += (time.monotonic() - t) * 1000
                for (_, done), error in zip(batch, errors):
                    try:
                        done(error)
                    except Exception:  # a bug there must not hold up the others
                        traceback.print_exc()
        finally:
            self._running = False
