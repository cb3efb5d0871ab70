# SPDX-License-Identifier: MIT
"""Exceptions raised by the binding: one class per libball error code."""

import re
from typing import Optional

from . import _native as _n


class BallError(Exception):
    """A libball call failed.

    ``code`` is the library's negative ball_error code and ``message`` the
    text of ball_errmsg() (what went wrong and where), or of
    ball_strerror() when the library left no message.
    """

    code: Optional[int] = None

    def __init__(self, message: str, code: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ArgumentError(BallError, ValueError):
    """BALL_E_ARG: an invalid argument. The binding also raises it for an
    argument of the wrong Python type, for a non-integral number where the
    C function takes an integer, and for ``bool`` where it takes an integer
    (True/False are rejected, not read as 1/0)."""

    code = _n.E_ARG


class OutOfMemoryError(BallError, MemoryError):
    """BALL_E_NOMEM: the library could not allocate."""

    code = _n.E_NOMEM


class BpnError(BallError, ValueError):
    """BALL_E_BPN: malformed or invalid position text (N1)."""

    code = _n.E_BPN


class NotationError(BallError, ValueError):
    """BALL_E_NOTATION: malformed action or square text (N2)."""

    code = _n.E_NOTATION


class IllegalActionError(BallError):
    """BALL_E_ILLEGAL: the action is not legal in this position."""

    code = _n.E_ILLEGAL


class BufferTooSmallError(BallError):
    """BALL_E_BUFFER: a buffer was too small (a binding bug if ever seen)."""

    code = _n.E_BUFFER


class RangeError(BallError, ValueError):
    """BALL_E_RANGE: a number out of its range (square, depth, rule value).
    The binding raises it too, before any C call, for an int that the C
    parameter's type cannot hold (ctypes would silently truncate it)."""

    code = _n.E_RANGE


class NoHistoryError(BallError):
    """BALL_E_NO_HISTORY: undo() with nothing to take back."""

    code = _n.E_NO_HISTORY


class RulesError(BallError, ValueError):
    """BALL_E_RULES: malformed ruleset text (``Game(rules_text=...)``; also
    a text with a NUL character)."""

    code = _n.E_RULES


class LimitError(BallError):
    """BALL_E_LIMIT: a counter would pass its bound: apply() refuses a
    decision that would take the turn past BALL_MAX_TURN (game unchanged)."""

    code = _n.E_LIMIT


class RecordError(BallError, ValueError):
    """A game record that cannot be read (``libball.read_records()``,
    ``Game.from_record()``): malformed (BALL_E_RECORD), or with a bad
    ruleset, start position, decision text, or a decision that is illegal
    where the record plays it (then ``code`` is BALL_E_RULES, BALL_E_BPN,
    BALL_E_NOTATION or BALL_E_ILLEGAL: every unreadable record is a
    RecordError). The message says where (``line 7, column 12: decision 9
    (turn 3, DEF) 'E9-E7': ...``); ``line`` and ``column`` hold those
    numbers (from 1), or None when the message has none."""

    code = _n.E_RECORD
    line: Optional[int] = None
    column: Optional[int] = None

    def __init__(self, message: str, code: Optional[int] = None) -> None:
        super().__init__(message, code)
        found = re.search(r"\bline (\d+)(?:, column (\d+))?", message)
        if found:
            self.line = int(found.group(1))
            self.column = int(found.group(2)) if found.group(2) else None


class ClosedGameError(BallError):
    """The Game was closed (close() or the end of a ``with`` block); also
    raised for a closed ``Batch``, ``MCTS`` or ``TurnSearch`` searcher."""


_BY_CODE = {cls.code: cls for cls in (
    ArgumentError, OutOfMemoryError, BpnError, NotationError,
    IllegalActionError, BufferTooSmallError, RangeError, NoHistoryError,
    RulesError, LimitError, RecordError)}


def error_for(code: int, message: Optional[str] = None) -> BallError:
    """The exception for a negative library code, with ``message`` or the
    library's static description of the code."""
    if not message:
        message = str(_n.lib.ball_strerror(code).decode())
    cls = _BY_CODE.get(code, BallError)
    return cls(message, code)
