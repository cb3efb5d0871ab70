"""Loading libball.so and declaring its C functions (ctypes).

Where the shared library is looked for, first match wins:

1. ``LIBBALL_PATH``: a file, or a directory holding ``libball.so.0``;
2. the build tree of the repository this package's source lives in
   (``bindings/python/../../build/libball.so.0``);
3. ``build/libball.so.0`` under the current directory, when that directory
   is a libball repository (it has ``include/ball.h``);
4. the system: ``ctypes.util.find_library("ball")``, then ``libball.so.0``
   through the dynamic loader's usual search.

The loaded library must have the major version this package was written
for (the soname's number); otherwise ImportError is raised.

Every function is declared from one table (``_FUNCTIONS``). Functions that
newer libraries add are declared as optional (``required=False``) so that
the binding keeps working with an older library and can test for them with
``has()``.
"""

import ctypes
import ctypes.util
import os
from pathlib import Path

#: The major version of libball this binding speaks (ball.h BALL_VERSION_MAJOR).
ABI_MAJOR = 0
SONAME = "libball.so.%d" % ABI_MAJOR

# ---------------------------------------------------------------- constants
# Mirrors of the enums of ball.h (values are ABI).

OK = 0
E_ARG = -1
E_NOMEM = -2
E_BPN = -3
E_NOTATION = -4
E_ILLEGAL = -5
E_BUFFER = -6
E_RANGE = -7
E_NO_HISTORY = -8

NUM_SQUARES = 111
NUM_COLS = 13
NUM_ROWS = 17
MAX_ACTIONS = 1024
ACTION_TEXT_MAX = 32
BPN_MAX = 1024
MAX_TASKS = 14
START_BPN = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"

PIECE_TYPE_MASK = 0x03
PIECE_DEF = 0x04
PIECE_DOWN = 0x08
PIECE_RESTRICTED = 0x10
PIECE_BALL = 0x20
PIECE_STACKED = 0x40

SQ_PIECE = 0x01
SQ_STACK = 0x02
SQ_FRESH = 0x04
SQ_LOOSE_BALL = 0x08
SQ_BALL = 0x10

UPPER = 0
LOWER = 1


class BallRules(ctypes.Structure):
    """The fields of struct ball_rules this binding knows (the first ones).

    The struct starts with its own size: ball_rules_init() and
    ball_game_rules() write at most that many bytes, and the library gives
    any field this binding does not know its default.
    """

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("end_zone_depth", ctypes.c_int),
        ("turn_limit", ctypes.c_uint),
        ("flags", ctypes.c_uint),
    ]


def new_rules(end_zone_depth=1, turn_limit=0):
    """A BallRules with the library's defaults, then the given values."""
    rules = BallRules()
    lib.ball_rules_init(ctypes.byref(rules), ctypes.sizeof(BallRules))
    rules.end_zone_depth = end_zone_depth
    rules.turn_limit = turn_limit
    return rules


def read_rules(handle):
    """(rc, BallRules) from ball_game_rules()."""
    rules = new_rules()
    rc = lib.ball_game_rules(handle, ctypes.byref(rules))
    return rc, rules


_p = ctypes.c_void_p
_int = ctypes.c_int
_uint = ctypes.c_uint
_u32 = ctypes.c_uint32
_size = ctypes.c_size_t
_str = ctypes.c_char_p
_buf = ctypes.c_char_p
_pint = ctypes.POINTER(ctypes.c_int)
_pact = ctypes.POINTER(ctypes.c_uint32)
_prules = ctypes.POINTER(BallRules)

# name, result type, argument types, required
_FUNCTIONS = [
    ("ball_version_number", _uint, [], True),
    ("ball_version_string", _str, [], True),
    ("ball_strerror", _str, [_int], True),
    ("ball_square_at", _int, [_int, _int], True),
    ("ball_square_col", _int, [_int], True),
    ("ball_square_row", _int, [_int], True),
    ("ball_square_from_name", _int, [_str], True),
    ("ball_square_name", _int, [_int, _buf, _size], True),
    ("ball_square_distance", _int, [_int, _int], True),
    ("ball_rules_init", None, [_prules, _size], True),
    ("ball_game_new", _int, [ctypes.POINTER(_p), _prules], True),
    ("ball_game_clone", _int, [ctypes.POINTER(_p), _p], True),
    ("ball_game_free", None, [_p], True),
    ("ball_game_rules", _int, [_p, _prules], True),
    ("ball_errmsg", _str, [_p], True),
    ("ball_side", _int, [_p], True),
    ("ball_phase", _int, [_p], True),
    ("ball_pa", _int, [_p], True),
    ("ball_handoff_last", _int, [_p], True),
    ("ball_turn", _uint, [_p], True),
    ("ball_result", _int, [_p], True),
    ("ball_piece", _int, [_p, _int, _int], True),
    ("ball_square_state", _int, [_p, _int], True),
    ("ball_ball_square", _int, [_p], True),
    ("ball_restricted_square", _int, [_p], True),
    ("ball_action_kind", _int, [_u32], True),
    ("ball_action_from", _int, [_u32], True),
    ("ball_action_to", _int, [_u32], True),
    ("ball_action_option", _int, [_u32], True),
    ("ball_action_keeper", _int, [_u32], True),
    ("ball_action_flags", _int, [_u32], True),
    ("ball_action_cost", _int, [_u32], True),
    ("ball_legal_actions", _int, [_p, _pact, _size], True),
    ("ball_is_legal", _int, [_p, _u32], True),
    ("ball_apply", _int, [_p, _u32], True),
    ("ball_undo", _int, [_p], True),
    ("ball_history_length", _size, [_p], True),
    ("ball_history_reserve", _int, [_p, _size], True),
    ("ball_release_tasks", _int, [_p, _pint, _size], True),
    ("ball_task_square", _int, [_int], True),
    ("ball_task_kind", _int, [_int], True),
    ("ball_task_solvable", _int, [_int], True),
    ("ball_task_solutions", _int, [_p, _int, _pact, _size], True),
    ("ball_select", _int, [_p, _pint, _size, _pint, _size, _pact], True),
    ("ball_get_bpn", _int, [_p, _buf, _size], True),
    ("ball_set_bpn", _int, [_p, _str], True),
    ("ball_action_text", _int, [_u32, _buf, _size], True),
    ("ball_action_parse", _int, [_p, _str, _pact], True),
    ("ball_perft", _int, [_p, _int, ctypes.POINTER(ctypes.c_uint64)], True),
    # Newer than 0.1.0: bound when the loaded library has them.
    ("ball_hash", ctypes.c_uint64, [_p], False),
    ("ball_legal_action_at", _int, [_p, _int, _pact], False),
    ("ball_random_action", _int, [_p, ctypes.c_uint64, _pact], False),
]


def _candidates():
    """The library paths to try, in order (see the module text)."""
    env = os.environ.get("LIBBALL_PATH")
    if env:
        path = Path(env)
        yield str(path / SONAME) if path.is_dir() else str(path)
        return  # an explicit choice is not second-guessed
    source_root = Path(__file__).resolve().parent.parent  # bindings/python
    yield str(source_root.parent.parent / "build" / SONAME)
    cwd = Path.cwd()
    if (cwd / "include" / "ball.h").is_file():
        yield str(cwd / "build" / SONAME)
    found = ctypes.util.find_library("ball")
    if found:
        yield found
    yield SONAME


def _load():
    errors = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            errors.append("%s: no such file" % candidate)
            continue
        try:
            return ctypes.CDLL(candidate), candidate
        except OSError as exc:
            errors.append(str(exc))
    raise ImportError(
        "libball: cannot load the shared library %s (set LIBBALL_PATH to its "
        "path, or build it with `make`): %s" % (SONAME, "; ".join(errors)))


def _declare(lib):
    for name, restype, argtypes, required in _FUNCTIONS:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            if required:
                raise ImportError("libball: the loaded library lacks %s()" % name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes


lib, path = _load()
_declare(lib)

version_number = lib.ball_version_number()
version_string = lib.ball_version_string().decode()
if version_number // 10000 != ABI_MAJOR:
    raise ImportError(
        "libball: %s is version %s, this binding needs major version %d"
        % (path, version_string, ABI_MAJOR))


def has(name):
    """True if the loaded library exports the function ``name``."""
    return hasattr(lib, name)
