# SPDX-License-Identifier: MIT
"""The messages of the game server's WebSocket protocol (docs/server.md).

``parse(text)`` turns one client message into a ``Message`` or raises
``Refused`` with a reason code and a sentence; it never raises anything
else, whatever the text (the parser's fuzz test checks this). The rules
are checked later, by the game (games.py) with libball; here only the
shape: a JSON object of at most MAX_MESSAGE bytes, a known ``type``, the
fields that type takes with the right types and bounds, nothing else.
"""

import json
from typing import Any, Dict, NamedTuple, Optional

#: The largest client message, in bytes: a larger one is refused
#: (too_large) and the connection stays.
MAX_MESSAGE = 4096
#: The largest WebSocket message: a larger one closes the connection with
#: code 1009 (message too big) before it is read whole.
MAX_FRAME = 65536
#: The largest sequence number.
MAX_SEQ = 2 ** 31 - 1
MAX_ACTION = 64
MAX_TOKEN = 128
MAX_ID = 64
MAX_CLIENT_ID = 64

# type -> {field: (kind, required)}
_FIELDS: Dict[str, Dict[str, Any]] = {
    "hello": {"game": ("id", True), "token": ("token", False), "last_seq": ("seq", False)},
    "decision": {"seq": ("seq", True), "action": ("action", True)},
    "resign": {"seq": ("seq", True)},
    "offer_draw": {"seq": ("seq", True)},
    "accept_draw": {"seq": ("seq", True)},
    "decline_draw": {"seq": ("seq", True)},
    "ping": {},
}
TYPES = tuple(sorted(_FIELDS))
#: The messages that change a game: they carry the seq they expect.
GAME_CHANGES = ("decision", "resign", "offer_draw", "accept_draw", "decline_draw")


class Refused(Exception):
    """A message refused: ``reason`` is a stable code, ``message`` says why."""

    def __init__(self, reason: str, message: str, client_id: Optional[str] = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        #: the refused message's own id, when it had a valid one
        self.client_id = client_id


class Message(NamedTuple):
    type: str
    id: Optional[str]          # the client's own id, echoed in the answer
    game: Optional[str] = None
    token: Optional[str] = None
    last_seq: Optional[int] = None
    seq: Optional[int] = None
    action: Optional[str] = None


def _printable(s: str, limit: int) -> bool:
    return len(s) <= limit and s.isascii() and s.isprintable()


def _check(kind: str, name: str, value: Any) -> Any:
    if kind == "seq":
        if type(value) is not int or not 0 <= value <= MAX_SEQ:
            raise Refused("bad_field", "%s must be an integer from 0 to %d" % (name, MAX_SEQ))
        return value
    if type(value) is not str:
        raise Refused("bad_field", "%s must be a string" % name)
    limit = {"id": MAX_ID, "token": MAX_TOKEN, "action": MAX_ACTION}[kind]
    if not value or not _printable(value, limit):
        raise Refused("bad_field", "%s must be 1 to %d printable ASCII characters" % (name, limit))
    if kind in ("id", "token") and not all(c.isalnum() or c in "-_" for c in value):
        raise Refused("bad_field", "%s holds a character other than A-Z a-z 0-9 - _" % name)
    return value


def parse(data: Any) -> Message:
    """One client message (the text of a WebSocket text frame)."""
    if not isinstance(data, str):
        raise Refused("malformed", "messages are JSON text frames")
    if len(data) > MAX_MESSAGE or len(data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refused("too_large", "a message is at most %d bytes" % MAX_MESSAGE)
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError) as e:
        raise Refused("malformed", "not JSON: %s" % str(e)[:100]) from None
    if not isinstance(obj, dict):
        raise Refused("malformed", "a message is a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise Refused("unknown_type", "type must be one of %s" % ", ".join(TYPES))
    fields = _FIELDS[kind]
    client_id = obj.get("id")
    if client_id is not None:
        if type(client_id) is not str or not _printable(client_id, MAX_CLIENT_ID):
            raise Refused("bad_field", "id must be a string of at most %d printable ASCII characters"
                          % MAX_CLIENT_ID)
    values: Dict[str, Any] = {}
    try:
        for name in obj:
            if name not in fields and name not in ("type", "id"):
                raise Refused("bad_field", "%s takes no field %r" % (kind, name[:40]))
        for name, (field_kind, required) in fields.items():
            if name not in obj or obj[name] is None:
                if required:
                    raise Refused("bad_field", "%s needs the field %s" % (kind, name))
                continue
            values[name] = _check(field_kind, name, obj[name])
    except Refused as e:
        e.client_id = client_id
        raise
    return Message(type=kind, id=client_id, **values)


def error(reason: str, message: str, client_id: Optional[str] = None) -> Dict[str, Any]:
    """The server's answer to a refused message."""
    out: Dict[str, Any] = {"type": "error", "reason": reason, "message": message}
    if client_id is not None:
        out["id"] = client_id
    return out
