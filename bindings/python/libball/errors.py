"""Exceptions raised by the binding: one class per libball error code."""

from . import _native as _n


class BallError(Exception):
    """A libball call failed.

    ``code`` is the library's negative ball_error code and ``message`` the
    text of ball_errmsg() (what went wrong and where), or of
    ball_strerror() when the library left no message.
    """

    code = None

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ArgumentError(BallError, ValueError):
    """BALL_E_ARG: an invalid argument."""

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
    """BALL_E_RANGE: a number out of its range (square, depth, rule value)."""

    code = _n.E_RANGE


class NoHistoryError(BallError):
    """BALL_E_NO_HISTORY: undo() with nothing to take back."""

    code = _n.E_NO_HISTORY


class ClosedGameError(BallError):
    """The Game was closed (close() or the end of a ``with`` block)."""


_BY_CODE = {cls.code: cls for cls in (
    ArgumentError, OutOfMemoryError, BpnError, NotationError,
    IllegalActionError, BufferTooSmallError, RangeError, NoHistoryError)}


def error_for(code, message=None):
    """The exception for a negative library code, with ``message`` or the
    library's static description of the code."""
    if not message:
        message = _n.lib.ball_strerror(code).decode()
    cls = _BY_CODE.get(code, BallError)
    return cls(message, code)
