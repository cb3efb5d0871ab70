# SPDX-License-Identifier: MIT
"""A learned evaluation (experimental): a network file of
docs/network-format.md, loaded and evaluated by the library in C
(``ball_net_load()``, ``ball_net_evaluate()``), and usable as the turn
search's evaluation::

    import libball
    with libball.Net.from_file("value.net") as net:
        print(net.evaluate(libball.Game()))   # in [-1, 1], for the coach to act
        search = libball.TurnSearch(nodes=20000, eval=net)
        search.choose(libball.Game())

The calls are of the library's experimental tier (docs/abi.md): a later
minor release may change them. ``scripts/net-write.py`` writes the format.
"""

import ctypes
import os
import threading
from typing import List, Union

from . import _native as _n
from .errors import ArgumentError, BallError, error_for
from .game import Game, _Owned

_lib = _n.lib


def available() -> bool:
    """True when the loaded library has the network calls."""
    return _n.has("ball_net_load") and _n.has("ball_search_set_eval")


class Net(_Owned):
    """A network loaded from the bytes of a network file: ``Net(data)``
    (``bytes`` or ``bytearray``), or ``Net.from_file(path)``. A file the
    library refuses (truncated, corrupt, another version or shape) raises
    ArgumentError with its message (``net: byte 8: format version 2, this
    library reads 1``). The net is read-only once loaded: several threads
    and searchers may use one. ``close()``, a ``with`` block or the garbage
    collector frees it; it waits for a search that uses it."""

    _what = "network"

    def __init__(self, data: Union[bytes, bytearray]) -> None:
        self._lock = threading.RLock()
        if not available():
            raise BallError("the loaded libball (%s) has no network calls (ball_net_load)"
                            % _n.path)
        if not isinstance(data, (bytes, bytearray)):
            raise ArgumentError("Net() takes the bytes of a network file, not %s"
                                % type(data).__name__, _n.E_ARG)
        buf = (ctypes.c_char * len(data)).from_buffer_copy(bytes(data)) if data else None
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_n.ERR_MAX)
        rc = _lib.ball_net_load(ctypes.byref(handle), buf if buf is not None else b"",
                                len(data), err, len(err))
        if rc < 0 or handle.value is None:
            raise error_for(rc if rc < 0 else _n.E_NOMEM, err.value.decode(errors="replace"))
        self._free = _lib.ball_net_free
        self._size = len(data)
        self._handle = handle.value

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"]) -> "Net":
        """The network of the file ``path`` (OSError when it cannot be read)."""
        with open(path, "rb") as f:
            return cls(f.read())

    def evaluate(self, game: Game) -> float:
        """The value of the position of ``game`` for the coach to act, in
        [-1, 1] (``ball_net_evaluate()``)."""
        if not isinstance(game, Game):
            raise ArgumentError("Net.evaluate() takes a libball.Game, not %s"
                                % type(game).__name__, _n.E_ARG)
        value = ctypes.c_double()
        with game._lock:
            g = game._live()
            with self._lock:
                rc = _lib.ball_net_evaluate(self._live(), g, ctypes.byref(value))
        if rc < 0:
            raise error_for(rc, "ball_net_evaluate failed")
        return value.value

    def __repr__(self) -> str:
        text = "<libball.Net of a %d-byte file>" % self._size
        return text if self._handle is not None else "<closed libball.Net>"

    def __reduce__(self) -> None:
        raise TypeError("a libball.Net cannot be pickled (it lives in C): keep the file's "
                        "bytes and make a new one")


#: Features of format-2 networks (``BALL_NET_FEATURES``) and the most
#: active in one position (``BALL_NET_MAX_ACTIVE``).
FEATURES = 4783
MAX_ACTIVE = 32


def features(game: Game, perspective: int) -> List[int]:
    """The format-2 network features active in the position of ``game``
    seen from the coach ``perspective`` (0 ATK, 1 DEF): what a trainer
    feeds the first layer (``ball_net_features()``, docs/network-format.md,
    "Feature set 1")."""
    if not isinstance(game, Game):
        raise ArgumentError("features() takes a libball.Game, not %s"
                            % type(game).__name__, _n.E_ARG)
    out = (ctypes.c_uint16 * MAX_ACTIVE)()
    with game._lock:
        n = _lib.ball_net_features(game._live(), int(perspective), out, MAX_ACTIVE)
    if n < 0:
        raise error_for(n, "ball_net_features: perspective is 0 (ATK) or 1 (DEF), not %r"
                        % (perspective,))
    return list(out[:n])


def _search_eval_fn() -> object:
    """``ball_net_search_eval`` as the C function pointer that
    ``ball_search_set_eval()`` takes (a C function: no Python runs at the
    search's leaves, and the GIL stays released)."""
    address = ctypes.cast(_lib.ball_net_search_eval, ctypes.c_void_p).value
    return _n.SEARCH_EVAL_FN(address)


__all__ = ["FEATURES", "MAX_ACTIVE", "Net", "available", "features"]
