# SPDX-License-Identifier: MIT
"""The functions of libball._speed (_speed.c) over ctypes: what Game runs
on where the extension module cannot be built (no compiler or no
Python.h), or under LIBBALL_SPEED=ctypes, which the tests set to run the
same tests on this path (tests/bindings/bindings_test.sh). The same
names, arguments, results and exceptions as _speed.pyi; slower (every
call crosses ctypes, and the guard is a threading.RLock) but the same
behaviour. ``apply()`` here always checks the decision (ball_apply()):
the extension's unchecked path for decisions the library gave is an
optimisation, not a behaviour."""

import ctypes
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _native as _n

_lib = _n.lib
_error: Callable[[int, str], None]
_closed: Callable[[], None]
_missing: Callable[[str], None]
_action: Callable[[int], Any]


def bind(addresses: Dict[str, int], error: Callable[[int, str], None],
         closed: Callable[[], None], missing: Callable[[str], None],
         action: Callable[[int], Any], cache: Dict[int, Any]) -> None:
    """The hooks of _speed.bind(); the functions are _native's."""
    global _error, _closed, _missing, _action
    _error, _closed, _missing, _action = error, closed, missing, action


class Guard:
    """A game and its guard, as _speed.Guard: ``handle`` (the pointer as
    an int, None once closed), re-entrant ``with``, ``close()`` (frees the
    game once; also when the object is collected)."""

    __slots__ = ("_game", "hidden", "_rlock", "__weakref__")

    def __init__(self, address: int) -> None:
        if not address:
            raise ValueError("libball._speed.Guard: a NULL game")
        self._rlock = threading.RLock()
        self._game: Optional[int] = address
        self.hidden = False  # reads as closed: a search is using it

    @property
    def handle(self) -> Optional[int]:
        return None if self.hidden else self._game

    def __enter__(self) -> "Guard":
        self._rlock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._rlock.release()

    def close(self) -> None:
        with self._rlock:
            game, self._game = self._game, None
            if game is not None:
                _lib.ball_game_free(game)

    def __del__(self) -> None:
        game = getattr(self, "_game", None)
        if game is not None:
            self._game = None
            _lib.ball_game_free(game)


def _fail(g: int, rc: int) -> None:
    _error(rc, _lib.ball_errmsg(g).decode(errors="replace"))


def _call(guard: Guard, fn: Callable[..., int], *args: Any) -> int:
    """``fn(game, *args)`` under the guard; the exception for rc < 0."""
    with guard._rlock:
        g = guard.handle
        if g is None:
            _closed()
            raise AssertionError("unreachable")
        rc: int = fn(g, *args)
        if rc < 0:
            _fail(g, rc)
    return rc


def is_over(guard: Guard) -> bool:
    return _call(guard, _lib.ball_result) != _n.ONGOING


def result(guard: Guard) -> int:
    return _call(guard, _lib.ball_result)


def side(guard: Guard) -> int:
    return _call(guard, _lib.ball_side)


def turn(guard: Guard) -> int:
    return _call(guard, _lib.ball_turn)


def hash(guard: Guard) -> int:  # noqa: A001 - _speed's name
    with guard._rlock:
        if guard.handle is None:
            _closed()
        return int(_lib.ball_hash(guard.handle))


def history_length(guard: Guard) -> int:
    return _call(guard, _lib.ball_history_length)


def history_action(guard: Guard, i: int) -> Any:
    out = ctypes.c_uint32()
    with guard._rlock:
        if i < 0:
            i += history_length(guard)
        _call(guard, _lib.ball_history_action, i, ctypes.byref(out))
    return _action(out.value)


def history(guard: Guard) -> List[Any]:
    with guard._rlock:
        return [history_action(guard, i) for i in range(history_length(guard))]


def actions(codes: Sequence[int]) -> List[Any]:
    return [_action(code) for code in codes]


def random_action(guard: Guard, random: int) -> Any:
    out = ctypes.c_uint32()
    _call(guard, _lib.ball_random_action, random, ctypes.byref(out))
    return _action(out.value)


def random_apply(guard: Guard, random: int) -> Any:
    if not _n.has("ball_random_apply"):
        _missing("ball_random_apply")
    out = ctypes.c_uint32()
    _call(guard, _lib.ball_random_apply, random, ctypes.byref(out))
    return _action(out.value)


def apply(guard: Guard, code: int) -> None:
    if not 0 <= code <= 0xFFFFFFFF:
        raise OverflowError("libball._speed: an action code has 32 bits")
    _call(guard, _lib.ball_apply, code)


def undo(guard: Guard) -> None:
    _call(guard, _lib.ball_undo)


def pop(guard: Guard) -> Any:
    with guard._rlock:
        n = history_length(guard)
        last = history_action(guard, n - 1) if n else None
        undo(guard)
    return last


def apply_index(guard: Guard, index: int) -> None:
    if not _n.has("ball_apply_index"):
        _missing("ball_apply_index")
    _call(guard, _lib.ball_apply_index, index)


def random_playout(guard: Guard, seed: int, max_decisions: int) -> int:
    if not _n.has("ball_random_playout"):
        _missing("ball_random_playout")
    return _call(guard, _lib.ball_random_playout, seed, max_decisions)


def legal_codes(guard: Guard) -> bytes:
    out = (ctypes.c_uint32 * _n.MAX_ACTIONS)()
    n = _call(guard, _lib.ball_legal_actions, out, _n.MAX_ACTIONS)
    return bytes(out)[:n * 4]


def count_legal(guard: Guard) -> int:
    return _call(guard, _lib.ball_legal_actions, None, 0)


def to_bpn(guard: Guard) -> str:
    buf = ctypes.create_string_buffer(_n.BPN_MAX)
    _call(guard, _lib.ball_position_to_text, buf, len(buf))
    return buf.value.decode(errors="replace")


def from_bpn(guard: Guard, text: bytes) -> None:
    _call(guard, _lib.ball_position_from_text, text)


def action_from_text(guard: Guard, text: bytes) -> int:
    out = ctypes.c_uint32()
    _call(guard, _lib.ball_action_from_text, text, ctypes.byref(out))
    return out.value


def game_new(rules_address: int) -> Union[Guard, Tuple[int, str]]:
    if rules_address:
        rules = _n.BallRules.from_address(rules_address)
    else:
        rules = _n.new_rules()
    out = ctypes.c_void_p()
    err = ctypes.create_string_buffer(256)
    rc = _lib.ball_game_new(ctypes.byref(out), ctypes.byref(rules), err, len(err))
    if rc < 0 or not out.value:
        return (rc if rc < 0 else _n.E_NOMEM, err.value.decode(errors="replace"))
    return Guard(out.value)


def game_clone(guard: Guard) -> Union[Guard, int]:
    out = ctypes.c_void_p()
    with guard._rlock:
        if guard.handle is None:
            _closed()
        rc = _lib.ball_game_clone(ctypes.byref(out), guard.handle)
    if rc < 0 or not out.value:
        return rc if rc < 0 else int(_n.E_NOMEM)
    return Guard(out.value)
