# SPDX-License-Identifier: MIT
"""The learning interface of libball (ball.h section "Learning interface",
docs/learning.md): a fixed action space of 7,990 indices, legal masks,
observation tensors, the left-right mirror, returns, batches of games
stepped by one foreign call, and a small Gymnasium-style environment.

    >>> from libball import Game, learn
    >>> game = Game()
    >>> mask = learn.legal_mask(game)          # 7,990 bytes, 55 ones here
    >>> obs = learn.observation(game)          # 3,171 float32 values
    >>> index = learn.action_to_index(game, "E11-F10")
    >>> index, learn.action_from_index(game, index)
    (41, Action('E11-F10'))

Arrays: when numpy can be imported, the functions return numpy arrays
(float32 observations, uint8 masks and packed bits, int32 indices) and
``Batch`` exposes its outputs as numpy arrays of shape (games, size);
otherwise they are ``array.array`` objects ('f', 'B', 'i'), flat, and
``Batch.row()`` gives game i's part as a ``memoryview``. numpy stays
optional. Every ``out=`` argument takes any writable, C-contiguous buffer
of the right element type (numpy array, ``array.array``, ``bytearray``
for bytes, a ctypes array, a ``memoryview`` of one of them).

Indices and observations are in the frame of the coach to act (the rows
flipped for DEF): see docs/learning.md for the layout of both.

Errors are the binding's exceptions (``libball.errors``) with the
library's message: RangeError for an index outside 0-7,989,
IllegalActionError for an index or action not legal here,
BufferTooSmallError for a buffer too small, ArgumentError for a buffer of
the wrong element type or layout.
"""

import ctypes
import enum
import operator
import threading
from array import array
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

from . import _native as _n
from .errors import ArgumentError, BufferTooSmallError, RangeError, error_for
from .game import Action, Game, _c_int, _c_text, _make_rules, _Owned

try:  # numpy is optional
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the interpreter
    _np = None

_lib = _n.lib

#: Number of distinct action indices (BALL_ACTION_SPACE).
ACTION_SPACE = _n.ACTION_SPACE
#: Bytes of a legal mask in bits (BALL_ACTION_MASK_BYTES).
ACTION_MASK_BYTES = _n.ACTION_MASK_BYTES
#: Index of ``end``; ``pe+k`` is INDEX_END + k (card mode).
INDEX_END = _n.INDEX_END
#: Index of the play of the card of hand index i is INDEX_CARD + i.
INDEX_CARD = _n.INDEX_CARD
#: Planes of the spatial part of the action space (71 x 111 squares).
INDEX_PLANES = _n.INDEX_PLANES
#: Spatial planes and scalar features of an observation.
OBS_PLANES = _n.OBS_PLANES
OBS_SCALARS = _n.OBS_SCALARS
OBS_GRID_CELLS = _n.OBS_GRID_CELLS
#: Most games in one Batch.
BATCH_MAX = _n.BATCH_MAX
#: The turn limit (R11.2) of automated games when none is given: ``Batch``
#: and ``Env`` use it unless ``turn_limit`` (0 for none) or the ``turns=`` of
#: ``rules_text`` sets one. The same default as examples/selfplay and the
#: strength measurements (docs/rules-choices.md, "Turn limits of the
#: programs and bindings"); ``Game()``, for play, keeps the library's
#: default, no limit. Without a limit a random game lasts thousands of
#: decisions.
AUTO_TURN_LIMIT = 100


def have_numpy() -> bool:
    """True when this module returns numpy arrays (numpy was importable)."""
    return _np is not None


class IndexPlane(enum.IntEnum):
    """enum ball_index_plane: the first plane of each kind of decision."""

    STEP = _n.PLANE_STEP
    JUMP = _n.PLANE_JUMP
    DODGE = _n.PLANE_DODGE
    RELEASE = _n.PLANE_RELEASE
    HANDOFF = _n.PLANE_HANDOFF
    SHORT_PASS = _n.PLANE_SHORT_PASS
    LONG_PASS = _n.PLANE_LONG_PASS


class ObsFlag(enum.IntFlag):
    """enum ball_obs_flags: the layout of an observation."""

    SQUARES = 0                             # 111 squares, scalars after the planes
    GRID = _n.OBS_GRID                      # 17 x 13 cells per plane
    SCALAR_PLANES = _n.OBS_SCALAR_PLANES    # each scalar as a constant plane


class Terminal(enum.IntEnum):
    """enum ball_terminal: how a game ended."""

    NOT_TERMINAL = _n.NOT_TERMINAL
    TOUCHDOWN = _n.TERMINAL_TOUCHDOWN
    TURN_LIMIT = _n.TERMINAL_TURN_LIMIT
    TRUNCATED = _n.TERMINAL_TRUNCATED   # batch only: stopped at BALL_MAX_TURN


class Output(enum.IntEnum):
    """enum ball_batch_output: the arrays a Batch writes."""

    OBS = _n.OUT_OBS
    OBS_BITS = _n.OUT_OBS_BITS
    MASK = _n.OUT_MASK
    MASK_BITS = _n.OUT_MASK_BITS
    REWARDS = _n.OUT_REWARDS
    DONE = _n.OUT_DONE
    ACTIONS = _n.OUT_ACTIONS
    SIDE = _n.OUT_SIDE


class Returns(NamedTuple):
    """What ball_returns() says: how the game ended and the returns of
    ATK and DEF (+1 winner, -1 loser, 0 for a draw or a game going on);
    ``returns[team]`` also works through ``values``."""

    terminal: Terminal
    atk: float
    def_: float

    @property
    def values(self) -> Tuple[float, float]:
        """(ATK, DEF), indexable by Team."""
        return (self.atk, self.def_)


# ---------------------------------------------------------------- buffers

# element kinds: (array typecode, numpy dtype name, item size, accepted
# memoryview formats, C type)
_KINDS = {
    "f": ("f", "float32", 4, ("f",), "float32"),
    "B": ("B", "uint8", 1, ("B", "b", "c", "?"), "uint8"),
    "i": ("i", "int32", 4, ("i", "l"), "int32"),
}


def _new(kind: str, count: int, shape: Optional[Tuple[int, ...]] = None) -> Any:
    """A zeroed array of ``count`` elements: numpy (of ``shape``) when
    available, else a flat array.array."""
    typecode, dtype, size = _KINDS[kind][:3]
    if _np is not None:
        return _np.zeros(shape if shape is not None else (count,), dtype=dtype)
    return array(typecode, bytes(count * size))


class _Mem:
    """The memory of a caller's buffer: address, capacity in elements, and
    the ctypes object that holds the buffer's export (while it lives, an
    array.array or bytearray cannot be resized under the C code)."""

    __slots__ = ("addr", "count", "nbytes", "keep")

    def __init__(self, addr: int, count: int, nbytes: int, keep: Any) -> None:
        self.addr, self.count, self.nbytes, self.keep = addr, count, nbytes, keep


def _mem(obj: Any, kind: str, what: str, writable: bool = True) -> _Mem:
    """Checks that ``obj`` is a C-contiguous buffer of ``kind`` elements
    (writable when asked) and returns its memory. A read-only input is
    copied."""
    _, dtype, size, formats, cname = _KINDS[kind]
    try:
        view = memoryview(obj)
    except TypeError:
        raise ArgumentError("%s must be a buffer of %s (a numpy array, array.array or "
                            "bytearray), not %s" % (what, cname, type(obj).__name__),
                            _n.E_ARG) from None
    with view:
        fmt = view.format.lstrip("@=<")
        if view.itemsize != size or fmt not in formats:
            raise ArgumentError("%s must hold %s elements, not format %r of %d bytes"
                                % (what, cname, view.format, view.itemsize), _n.E_ARG)
        if not view.c_contiguous:
            raise ArgumentError("%s must be C-contiguous" % what, _n.E_ARG)
        nbytes = view.nbytes
        if view.readonly:
            if writable:
                raise ArgumentError("%s is read-only" % what, _n.E_ARG)
            keep = (ctypes.c_char * nbytes).from_buffer_copy(view)
        else:
            keep = None
    if keep is None:
        keep = (ctypes.c_char * nbytes).from_buffer(obj)
    addr = ctypes.addressof(keep)
    if addr % size:
        raise ArgumentError("%s at %#x is not aligned to %d bytes" % (what, addr, size),
                            _n.E_ARG)
    return _Mem(addr, nbytes // size, nbytes, keep)


def _out(out: Any, kind: str, count: int, what: str) -> Tuple[Any, _Mem]:
    """(the output object, its memory): ``out`` checked, or a new array."""
    if out is None:
        out = _new(kind, count)
    mem = _mem(out, kind, what)
    if mem.count < count:
        raise BufferTooSmallError("%s needs %d %s elements, buffer has %d"
                                  % (what, count, _KINDS[kind][4], mem.count), _n.E_BUFFER)
    return out, mem


_F = ctypes.POINTER(ctypes.c_float)
_U8 = ctypes.POINTER(ctypes.c_uint8)
_I32 = ctypes.POINTER(ctypes.c_int32)


def _ptr(mem: _Mem, ptype: Any, offset: int = 0) -> Any:
    return ctypes.cast(mem.addr + offset, ptype)


def _flags(flags: object) -> int:
    value = _c_int(flags, "observation flags")
    if value & ~(_n.OBS_GRID | _n.OBS_SCALAR_PLANES):
        raise ArgumentError("unknown observation flags %#x (GRID = 1, SCALAR_PLANES = 2)"
                            % value, _n.E_ARG)
    return value


def _index(index: object) -> int:
    value = _c_int(index, "action index")
    if not 0 <= value < ACTION_SPACE:
        raise RangeError("action index %d out of range 0-%d" % (value, ACTION_SPACE - 1),
                         _n.E_RANGE)
    return value


# ---------------------------------------------------------------- actions

def action_to_index(game: Game, action: Union[Action, str, int]) -> int:
    """The index (0-7,989) of the legal decision ``action`` (an Action, its
    N2 text or its code) in ``game``'s position. IllegalActionError when it
    is not legal here (the game being over included)."""
    with game._lock:
        code = game._code(action)
        return game._check(_lib.ball_action_to_index(game._live(), code))


def action_from_index(game: Game, index: int) -> Action:
    """The legal decision of index ``index`` in ``game``'s position.
    RangeError outside 0-7,989; IllegalActionError when no legal decision
    has this index (the message names the plane and square)."""
    index = _c_int(index, "action index")
    out = ctypes.c_uint32()
    with game._lock:
        game._check(_lib.ball_action_from_index(game._live(), index, ctypes.byref(out)))
    return Action(out.value)


def legal_mask(game: Game, bits: bool = False, out: Any = None) -> Any:
    """The legal mask of the position: 7,990 bytes, 1 for a legal index
    (or, with ``bits``, 999 bytes, index i being bit i % 8 of byte i / 8:
    ``numpy.unpackbits(m, bitorder="little")``). Written into ``out`` when
    given (a uint8 buffer of at least that many bytes), else into a new
    array; returns it. All 0 once the game is over."""
    size = ACTION_MASK_BYTES if bits else ACTION_SPACE
    out, mem = _out(out, "B", size, "the legal mask")
    with game._lock:
        game._check(_lib.ball_legal_mask(game._live(), _ptr(mem, _U8), mem.nbytes,
                                         _n.MASK_BITS if bits else 0))
    return out


def legal_indices(game: Game) -> List[int]:
    """The indices of the legal decisions, in increasing order (OpenSpiel's
    ``legal_actions()``); empty once the game is over."""
    buf = (ctypes.c_int32 * _n.MAX_ACTIONS)()
    with game._lock:
        n = game._check(_lib.ball_legal_indices(game._live(), buf, _n.MAX_ACTIONS))
    return buf[:n]


def index_mirror(index: int) -> int:
    """The index of the left-right mirror image of decision ``index``
    (column c read as 14 - c); an involution of 0-7,989."""
    index = _index(index)
    return _lib.ball_index_mirror(index)


_PERM: Any = None


def mirror_permutation() -> Any:
    """The 7,990 values ``index_mirror(i)`` (int32; numpy or array): for a
    policy vector p over indices, the mirrored policy is ``q[perm] = p``
    (numpy), or use ``policy_mirror()``."""
    global _PERM
    if _PERM is None:
        _PERM = array("i", (_lib.ball_index_mirror(i) for i in range(ACTION_SPACE)))
    if _np is not None:
        return _np.array(_PERM, dtype=_np.int32)
    return array("i", _PERM)


def policy_mirror(values: Any) -> Any:
    """A mask or policy over the 7,990 indices (the last axis of a numpy
    array, or any sequence) moved to the mirrored indices: the value at i
    goes to ``index_mirror(i)``. A numpy array gives a numpy array; a
    sequence gives a list."""
    perm = mirror_permutation()
    if _np is not None and isinstance(values, _np.ndarray):
        if values.shape[-1:] != (ACTION_SPACE,):
            raise BufferTooSmallError("a policy has %d values on its last axis, not %s"
                                      % (ACTION_SPACE, values.shape[-1:]), _n.E_BUFFER)
        out = _np.empty_like(values)
        out[..., perm] = values
        return out
    values = list(values)
    if len(values) != ACTION_SPACE:
        raise BufferTooSmallError("a policy has %d values, not %d"
                                  % (ACTION_SPACE, len(values)), _n.E_BUFFER)
    out = [values[0]] * ACTION_SPACE
    for i, v in enumerate(values):
        out[perm[i]] = v
    return out


# ---------------------------------------------------------------- observations

def observation_size(flags: int = 0) -> int:
    """Values of an observation written with ``flags`` (ObsFlag):
    3,171, 6,251 (GRID), 10,101 (SCALAR_PLANES) or 20,111 (both)."""
    flags = _flags(flags)
    return _lib.ball_observation_size(flags)


def observation_bytes(flags: int = 0) -> int:
    """Bytes of a packed observation: (observation_size(flags) + 7) // 8."""
    return (observation_size(flags) + 7) // 8


def _observe(game: Game, flags: int, out: Any, bits: bool) -> Any:
    flags = _flags(flags)
    size = _lib.ball_observation_size(flags)
    if bits:
        size = (size + 7) // 8
        out, mem = _out(out, "B", size, "the observation bits (flags %d)" % flags)
        fn, ptype, cap = _lib.ball_observation_bits, _U8, mem.nbytes
    else:
        out, mem = _out(out, "f", size, "the observation (flags %d)" % flags)
        fn, ptype, cap = _lib.ball_observation, _F, mem.count
    with game._lock:
        game._check(fn(game._live(), flags, _ptr(mem, ptype), cap))
    return out


def observation(game: Game, flags: int = 0, out: Any = None) -> Any:
    """The observation of the position from the coach to act's point of
    view: observation_size(flags) float32 values 0.0 or 1.0 (planes, then
    scalars; docs/learning.md), into ``out`` or a new array."""
    return _observe(game, flags, out, False)


def observation_bits(game: Game, flags: int = 0, out: Any = None) -> Any:
    """observation() packed 8 values a byte, least significant bit first
    (``numpy.unpackbits(b, bitorder="little")[:size]`` gives it back)."""
    return _observe(game, flags, out, True)


def _mirror(data: Any, flags: int, out: Any, bits: bool) -> Any:
    flags = _flags(flags)
    size = _lib.ball_observation_size(flags)
    kind, fn, ptype, item = ("f", _lib.ball_observation_mirror, _F, 4)
    if bits:
        size = (size + 7) // 8
        kind, fn, ptype, item = ("B", _lib.ball_observation_bits_mirror, _U8, 1)
    what = "the observation%s (flags %d)" % (" bits" if bits else "", flags)
    src = _mem(data, kind, what, writable=False)
    if src.count < size or src.count % size:
        raise BufferTooSmallError("%s has %d values, not a positive multiple of %d"
                                  % (what, src.count, size), _n.E_BUFFER)
    if out is None:
        if _np is not None and isinstance(data, _np.ndarray):
            out = _np.empty_like(data)
        else:
            out = _new(kind, src.count)
    out, dst = _out(out, kind, src.count, "the mirrored observation")
    for k in range(src.count // size):
        rc = fn(flags, _ptr(src, ptype, k * size * item), _ptr(dst, ptype, k * size * item),
                size)
        if rc < 0:
            raise error_for(rc, "%s: cannot mirror" % what)
    return out


def observation_mirror(obs: Any, flags: int = 0, out: Any = None) -> Any:
    """The left-right mirror image of one observation, or of several laid
    one after the other (e.g. a numpy array of shape (n, size)), written
    with ``flags``: into ``out`` (may be ``obs`` itself) or a new array."""
    return _mirror(obs, flags, out, False)


def observation_bits_mirror(bits: Any, flags: int = 0, out: Any = None) -> Any:
    """observation_mirror() of packed observations."""
    return _mirror(bits, flags, out, True)


def returns(game: Game) -> Returns:
    """How the game ended and the returns of ATK and DEF (ball_returns())."""
    values = (ctypes.c_float * 2)()
    with game._lock:
        terminal = game._check(_lib.ball_returns(game._live(), values))
    return Returns(Terminal(terminal), values[0], values[1])


def unpack_bits(data: Any, count: int) -> Any:
    """The first ``count`` values of packed bits (least significant bit
    first) as uint8 0/1: numpy.unpackbits when numpy is there (any leading
    axes kept), else a flat array.array('B') of one packed row."""
    if _np is not None and isinstance(data, _np.ndarray):
        return _np.unpackbits(data, axis=-1, count=count, bitorder="little")
    raw = bytes(memoryview(data).cast("B"))
    if count > 8 * len(raw):
        raise BufferTooSmallError("%d bits asked of %d bytes" % (count, len(raw)), _n.E_BUFFER)
    return array("B", ((raw[i >> 3] >> (i & 7)) & 1 for i in range(count)))


# ---------------------------------------------------------------- batches

_OUTPUT_NAMES = {o.name.lower(): o for o in Output}
_ALL = tuple(_OUTPUT_NAMES)
#: The outputs a Batch binds unless told otherwise.
DEFAULT_OUTPUTS = ("obs", "mask", "rewards", "done", "actions", "side")


def _output(value: object) -> Output:
    if isinstance(value, str):
        try:
            return _OUTPUT_NAMES[value.lower()]
        except KeyError:
            raise ArgumentError("no batch output %r (one of %s)"
                                % (value, ", ".join(_ALL)), _n.E_ARG) from None
    try:
        return Output(_c_int(value, "batch output"))
    except ValueError:
        raise ArgumentError("no batch output %r (0-%d)" % (value, _n.OUT_COUNT - 1),
                            _n.E_ARG) from None


class Batch(_Owned):
    """B games (1 to 1,048,576) under one ruleset, stepped together by one
    C call: ``ball_batch`` of ball.h.

        batch = Batch(1024, outputs=("obs_bits", "mask_bits", "rewards", "done"))
        batch.reset(seed=1)
        for _ in range(100):
            ended = batch.step()          # random decisions; or step(indices)
            # batch.obs_bits, batch.mask_bits: the positions now to play;
            # batch.rewards, batch.done: the games that ended in this step

    ``outputs`` names the arrays the batch allocates and binds once (names
    of ``Output``, lower case): ``obs`` (float32, games x observation
    size), ``obs_bits`` (uint8, packed), ``mask`` (uint8 x 7,990),
    ``mask_bits`` (uint8 x 999), ``rewards`` (float32 x 2: ATK, DEF),
    ``done`` (uint8, a Terminal), ``actions`` (int32, the index played),
    ``side`` (uint8, the Team to act). Each is an attribute of that name
    (None when not bound): a numpy array of shape (games, size) or (games,)
    when numpy is there, else a flat array.array (``row(name, i)`` gives
    game i's part). ``bind(name, buffer)`` binds a buffer of your own,
    ``unbind(name)`` stops an output (an unbound output costs nothing).

    Game i of a batch reset with ``seed`` plays the random games that
    ``splitmix64`` of docs/learning.md gives; a game that ends is reset at
    once to the start (the standard start, or ``start``, a BPN). The
    ruleset options are those of ``Game`` (end_zone_depth, turn_limit,
    rules_text, earn, cards), except that the turn limit is
    ``AUTO_TURN_LIMIT`` (100) unless ``turn_limit`` (0 for none) or the
    ``turns=`` of ``rules_text`` gives one. Free the C memory with close() or a ``with``
    block (the garbage collector does it too). One batch must not be
    stepped by two threads at once; its calls hold a lock.
    """

    _what = "batch"

    def __init__(self, n_games: int, *, outputs: Iterable[Union[str, int]] = DEFAULT_OUTPUTS,
                 obs_flags: int = 0, seed: Optional[int] = 0, start: Optional[str] = None,
                 end_zone_depth: Optional[int] = None, turn_limit: Optional[int] = None,
                 rules_text: Optional[str] = None,
                 earn: Optional[Mapping[Any, int]] = None,
                 cards: Optional[Mapping[Any, Iterable[Any]]] = None) -> None:
        self._lock = threading.RLock()
        self._mems: Dict[Output, _Mem] = {}
        n = _c_int(n_games, "batch size")
        flags = _flags(obs_flags)
        rules, cards_ptr = _make_rules(end_zone_depth, turn_limit, rules_text, earn, cards)
        if turn_limit is None and rules.turn_limit == 0:
            rules.turn_limit = AUTO_TURN_LIMIT
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_n.ERR_MAX)
        try:
            rc = _lib.ball_batch_new(ctypes.byref(handle), n, ctypes.byref(rules), flags,
                                     err, len(err))
        finally:
            _lib.ball_cardset_free(cards_ptr)
        if rc < 0 or not handle.value:
            raise error_for(rc if rc < 0 else _n.E_NOMEM, err.value.decode(errors="replace"))
        self._free = _lib.ball_batch_free
        self._step = _lib.ball_batch_step
        self._handle = handle.value
        self.n = n
        self.obs_flags = ObsFlag(flags)
        self.obs_size = _lib.ball_observation_size(flags)
        self._idx = (ctypes.c_int32 * n)()
        #: An int32 array of one index per game that step() reads without a
        #: copy: write the chosen indices into it and call step(batch.indices).
        self.indices = (_np.ctypeslib.as_array(self._idx) if _np is not None
                        else memoryview(self._idx).cast("B").cast("i"))
        for o in Output:
            setattr(self, o.name.lower(), None)
        if start is not None:
            self.set_start(start)
        for name in outputs:
            self.bind(name)
        if seed is not None:
            self.reset(seed)

    # -------------------------------------------------- lifetime

    def close(self) -> None:
        """Frees the C batch; the arrays stay usable as plain arrays."""
        lock = self.__dict__.get("_lock")
        if lock is None:  # __init__ failed before the C object existed
            return
        with lock:
            super().close()
            self._mems.clear()

    def __len__(self) -> int:
        return self.n

    def _check(self, rc: int) -> int:
        if rc < 0:
            raise error_for(rc, _lib.ball_batch_errmsg(self._handle).decode(errors="replace"))
        return rc

    # -------------------------------------------------- outputs

    def _spec(self, o: Output) -> Tuple[str, int]:
        """(element kind, elements per game) of an output."""
        return {
            Output.OBS: ("f", self.obs_size),
            Output.OBS_BITS: ("B", (self.obs_size + 7) // 8),
            Output.MASK: ("B", ACTION_SPACE),
            Output.MASK_BITS: ("B", ACTION_MASK_BYTES),
            Output.REWARDS: ("f", 2),
            Output.DONE: ("B", 1),
            Output.ACTIONS: ("i", 1),
            Output.SIDE: ("B", 1),
        }[o]

    def bind(self, output: Union[str, int], buffer: Any = None) -> Any:
        """Binds ``buffer`` (a writable C-contiguous buffer of the output's
        element type for all games) to ``output``, or a new array when
        ``buffer`` is None; returns it. Later reset() and step() calls
        write into it; the attribute of the output's name refers to it.
        Not written until the next reset() or step()."""
        o = _output(output)
        kind, per = self._spec(o)
        if buffer is None:
            shape = (self.n,) if per == 1 else (self.n, per)
            buffer = _new(kind, self.n * per, shape)
        mem = _mem(buffer, kind, "the %s buffer" % o.name.lower())
        with self._lock:
            self._check(_lib.ball_batch_set_output(self._live(), int(o), mem.addr, mem.nbytes))
            self._mems[o] = mem
            setattr(self, o.name.lower(), buffer)
        return buffer

    def unbind(self, output: Union[str, int]) -> None:
        """Stops writing ``output`` (its attribute becomes None)."""
        o = _output(output)
        with self._lock:
            self._check(_lib.ball_batch_set_output(self._live(), int(o), None, 0))
            self._mems.pop(o, None)
            setattr(self, o.name.lower(), None)

    def row(self, output: Union[str, int], i: int) -> Any:
        """Game i's part of a bound output: a numpy row (or scalar array),
        else a memoryview slice of the flat array."""
        o = _output(output)
        buf = getattr(self, o.name.lower())
        if buf is None:
            raise ArgumentError("output %s is not bound" % o.name.lower(), _n.E_ARG)
        i = self._game_index(i)
        if _np is not None and isinstance(buf, _np.ndarray):
            return buf[i]
        per = self._spec(o)[1]
        view = memoryview(buf)
        if view.ndim != 1:
            view = view.cast("B").cast(view.format.lstrip("@=<"))
        return view[i * per:(i + 1) * per]

    def _game_index(self, i: object) -> int:
        value = _c_int(i, "game index")
        if not 0 <= value < self.n:
            raise RangeError("game index %d out of range 0-%d" % (value, self.n - 1),
                             _n.E_RANGE)
        return value

    # -------------------------------------------------- stepping

    def set_start(self, bpn: Optional[str]) -> None:
        """The position every game starts from at each reset (None: the
        standard start). Games under way go on; call reset() to restart."""
        data = None if bpn is None else _c_text(bpn, "the start position")
        with self._lock:
            self._check(_lib.ball_batch_set_start(self._live(), data))

    def reset(self, seed: int = 0) -> None:
        """Puts every game back at its start and seeds game i with output
        i + 1 of splitmix64(seed); writes the bound outputs."""
        seed = _c_int(seed, "seed", 0, _n.UINT64_MAX)
        with self._lock:
            self._check(_lib.ball_batch_reset(self._live(), seed))

    def step(self, indices: Any = None) -> int:
        """Plays one decision in every game and returns how many games
        ended (and were reset). With ``indices`` None each game plays a
        uniformly random legal decision drawn by the library; otherwise
        one action index per game (an int32 numpy array or array.array,
        ``self.indices``, or any sequence of ints), each legal in its game.
        All indices are checked before any game moves: RangeError,
        IllegalActionError (the message names the game and the index),
        BufferTooSmallError for a count other than the batch size."""
        with self._lock:
            ptr = self._live()
            if indices is None:
                rc = self._step(ptr, None, 0)
            else:
                rc = self._step(ptr, self._load(indices), self.n)
            if rc < 0:
                self._check(rc)
            return rc

    def _load(self, indices: Any) -> Any:
        """A ctypes int32 array holding ``indices`` (the internal buffer)."""
        if indices is self.indices or indices is self._idx:
            return self._idx
        n = self.n
        try:
            count = len(indices)
        except TypeError:
            raise ArgumentError("indices must be a sequence of %d ints, not %s"
                                % (n, type(indices).__name__), _n.E_ARG) from None
        if count != n:
            raise BufferTooSmallError("step() takes %d indices, one per game, got %d"
                                      % (n, count), _n.E_BUFFER)
        if _np is not None and isinstance(indices, _np.ndarray):
            if indices.dtype != _np.int32:
                if indices.dtype.kind not in "iu":
                    raise ArgumentError("indices must be integers, not %s" % indices.dtype,
                                        _n.E_ARG)
                lo, hi = int(indices.min()), int(indices.max())
                if lo < _n.INT_MIN or hi > _n.INT_MAX:
                    bad = lo if lo < _n.INT_MIN else hi
                    raise RangeError("action index %d out of range 0-%d"
                                     % (bad, ACTION_SPACE - 1), _n.E_RANGE)
            self.indices[:] = indices
            return self._idx
        try:
            data = indices if isinstance(indices, array) and indices.typecode == "i" \
                else array("i", [operator.index(v) if not isinstance(v, bool) else None
                                 for v in indices])
        except OverflowError:
            raise RangeError("an action index is out of range 0-%d"
                             % (ACTION_SPACE - 1), _n.E_RANGE) from None
        except TypeError:
            raise ArgumentError("indices must be ints", _n.E_ARG) from None
        ctypes.memmove(self._idx, data.buffer_info()[0], 4 * n)
        return self._idx

    # -------------------------------------------------- games

    def position(self, i: int) -> str:
        """The BPN of game i's current position."""
        i = self._game_index(i)
        buf = ctypes.create_string_buffer(_n.BPN_MAX)
        with self._lock:
            self._check(_lib.ball_batch_position_to_text(self._live(), i, buf, len(buf)))
        return buf.value.decode()

    def game(self, i: int) -> Game:
        """An independent Game (same ruleset) at game i's current position,
        with an empty history: for search, or for any Game call."""
        i = self._game_index(i)
        handle = ctypes.c_void_p()
        with self._lock:
            self._check(_lib.ball_batch_game_clone(self._live(), i, ctypes.byref(handle)))
        game = Game.__new__(Game)
        game._adopt(handle.value)
        return game


# ---------------------------------------------------------------- environment

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> Tuple[int, int]:
    """(new state, output) of the splitmix64 generator of docs/learning.md."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _auto_turn_limit(rules: Dict[str, Any]) -> Dict[str, Any]:
    """The Game options ``rules`` with ``turn_limit=AUTO_TURN_LIMIT`` when
    neither ``turn_limit`` nor the ``turns=`` of ``rules_text`` sets one
    (a bad ruleset raises here, as Game would)."""
    if rules.get("turn_limit") is not None:
        return dict(rules)
    with Game(**rules) as game:
        limit = game.rules.turn_limit
    return dict(rules) if limit else dict(rules, turn_limit=AUTO_TURN_LIMIT)


class Env:
    """A Gymnasium-style environment of one game, for self-play: one agent
    plays both sides, always seeing the position from the side to act
    (no dependency on gym/gymnasium).

        env = Env()
        obs, info = env.reset(seed=1)
        while True:
            index = env.sample()            # or your policy over info["mask"]
            obs, reward, terminated, truncated, info = env.step(index)
            if terminated or truncated:
                break

    ``step(index)`` plays the decision of action index ``index`` (0-7,989)
    and returns (observation, reward, terminated, truncated, info):
    ``reward`` is the return of the side that just acted (+1 when its
    decision won, -1 lost, 0 otherwise: only the last decision of a game
    earns non-zero); ``terminated`` is True when the game ended
    (touchdown, or the turn limit: a draw); ``truncated`` is True when
    ``max_decisions`` decisions were played or the game is stopped at
    turn BALL_MAX_TURN (every decision left would hand the turn over past
    it, so none is legal). ``info`` holds ``mask`` (the legal mask of the new
    position), ``side`` (the Team to act, whose frame the observation is
    in), ``terminal`` (a Terminal), ``returns`` (ATK, DEF) and ``action``
    (the Action played). An illegal index raises IllegalActionError, an
    index out of range RangeError; the game is unchanged.

    ``obs_flags`` (ObsFlag) and ``bits`` choose the observation layout;
    ``start`` a BPN to start from; the ruleset options are those of Game,
    except that the turn limit is ``AUTO_TURN_LIMIT`` (100) unless
    ``turn_limit`` (0 for none) or the ``turns=`` of ``rules_text`` gives
    one: an episode then ends at the latest with turn 100, a draw
    (``terminated``, ``info["terminal"]`` Terminal.TURN_LIMIT).
    ``reset(seed=...)`` seeds ``sample()``'s generator (splitmix64).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, *, obs_flags: int = 0, bits: bool = False, start: Optional[str] = None,
                 max_decisions: Optional[int] = None, **rules: Any) -> None:
        self.obs_flags = _flags(obs_flags)
        self.bits = bool(bits)
        self.start = start
        self.max_decisions = max_decisions
        self._rules = _auto_turn_limit(rules)
        self.n_actions = ACTION_SPACE
        size = observation_size(self.obs_flags)
        self.observation_shape = ((size + 7) // 8,) if self.bits else (size,)
        self.game: Optional[Game] = None
        self.decisions = 0
        self._state = 0
        self.done = True

    def _obs(self) -> Any:
        assert self.game is not None
        if self.bits:
            return observation_bits(self.game, self.obs_flags)
        return observation(self.game, self.obs_flags)

    def _info(self, ret: Returns, action: Optional[Action]) -> Dict[str, Any]:
        assert self.game is not None
        return {"mask": legal_mask(self.game), "side": self.game.side,
                "terminal": ret.terminal, "returns": ret.values, "action": action}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Mapping[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        """Starts a new game; returns (observation, info). ``seed`` seeds
        sample(); ``options={"bpn": ...}`` starts from another position."""
        if seed is not None:
            self._state = _c_int(seed, "seed", 0, _n.UINT64_MAX)
        bpn = (options or {}).get("bpn", self.start)
        if self.game is not None:
            self.game.close()
        self.game = Game(bpn, **self._rules)
        self.decisions = 0
        ret = returns(self.game)
        self.done = ret.terminal != Terminal.NOT_TERMINAL
        return self._obs(), self._info(ret, None)

    def _game(self) -> Game:
        if self.game is None:
            raise ArgumentError("call reset() before step()", _n.E_ARG)
        return self.game

    def sample(self) -> int:
        """A uniformly random legal index, drawn with the library's
        ball_random_action() and this environment's seeded generator."""
        game = self._game()
        self._state, r = splitmix64(self._state)
        return action_to_index(game, game.random_action(r))

    def legal_mask(self, bits: bool = False) -> Any:
        return legal_mask(self._game(), bits)

    def legal_indices(self) -> List[int]:
        return legal_indices(self._game())

    def step(self, index: int) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        game = self._game()
        side = game.side
        action = action_from_index(game, index)
        truncated = False
        try:
            game.apply(action)
        except Exception as exc:
            if getattr(exc, "code", None) != _n.E_LIMIT:
                raise
            truncated = True   # BALL_MAX_TURN: the game cannot go on
        self.decisions += 1
        ret = returns(game)
        terminated = ret.terminal != Terminal.NOT_TERMINAL
        if not terminated and game.count_legal_actions() == 0:
            truncated = True   # stopped at BALL_MAX_TURN: every decision left would pass it
        if (not terminated and self.max_decisions is not None
                and self.decisions >= self.max_decisions):
            truncated = True
        self.done = terminated or truncated
        reward = ret.values[int(side)]
        return self._obs(), reward, terminated, truncated, self._info(ret, action)

    def render(self) -> str:
        """The board diagram of the position (render mode "ansi")."""
        return str(self._game())

    def close(self) -> None:
        if self.game is not None:
            self.game.close()
            self.game = None


__all__ = [
    "ACTION_MASK_BYTES", "ACTION_SPACE", "AUTO_TURN_LIMIT", "BATCH_MAX", "Batch", "DEFAULT_OUTPUTS", "Env",
    "INDEX_CARD", "INDEX_END", "INDEX_PLANES", "IndexPlane", "OBS_GRID_CELLS", "OBS_PLANES",
    "OBS_SCALARS", "ObsFlag", "Output", "Returns", "Terminal", "action_from_index",
    "action_to_index", "have_numpy", "index_mirror", "legal_indices", "legal_mask",
    "mirror_permutation", "observation", "observation_bits", "observation_bits_mirror",
    "observation_mirror", "observation_size", "observation_bytes", "policy_mirror",
    "returns", "splitmix64", "unpack_bits",
]
