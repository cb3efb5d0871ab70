# SPDX-License-Identifier: MIT
"""The server's structured log (docs/server.md, "Logs"): one JSON object
a line, on standard error unless ``--log FILE`` says otherwise.

Each line has ``ts`` (Unix time, milliseconds), ``msg`` (what happened)
and the fields of that: ``game`` whenever a game is concerned. One line
per game event (``msg: "event"``, with its seq, kind, side, action and
outcome), per game created, claimed or offered again (``"game"``), per
refused request or message (``"refused"``, with its reason and the
client's address) and per bot plan (``"bot"``). Lines are written
together once per turn of the event loop, so that the log costs a write
per round of decisions, not one per line.
"""

import asyncio
import json
import sys
import time
from typing import Any, List, Optional, TextIO

_dumps = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode
_text = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]


class Log:
    def __init__(self, stream: Optional[TextIO] = None, enabled: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self._lines: List[str] = []

    def write(self, msg: str, **fields: Any) -> None:
        if not self.enabled:
            return
        self._add(_dumps(dict(ts=round(time.time(), 3), msg=msg, **fields)))

    def _add(self, line: str) -> None:
        if not self._lines:
            try:
                asyncio.get_running_loop().call_soon(self.flush)
            except RuntimeError:  # no loop (start-up, shut-down): at once
                self._lines.append(line)
                self.flush()
                return
        self._lines.append(line)

    def event(self, game: str, event: Any) -> None:
        """A game event, accepted and durable. (Formatted by hand: one a
        decision, the log's cost shows in the server's.)"""
        if not self.enabled:
            return
        line = '{"ts":%.3f,"msg":"event","game":%s,"seq":%d,"kind":"%s","side":"%s"' % (
            time.time(), _text(game), event["seq"], event["kind"], event["side"])
        if "action" in event:
            line += ',"action":' + _text(event["action"])
        if "outcome" in event:
            line += ',"outcome":' + _dumps(event["outcome"])
        self._add(line + "}")

    def refused(self, reason: str, message: str, game: Optional[str] = None,
                peer: Optional[str] = None, **fields: Any) -> None:
        """A refused HTTP request or WebSocket message."""
        self.write("refused", game=game, reason=reason, message=message, peer=peer, **fields)

    def flush(self) -> None:
        lines, self._lines = self._lines, []
        if lines:
            try:
                self.stream.write("\n".join(lines) + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass  # a closed or full log never stops the games
