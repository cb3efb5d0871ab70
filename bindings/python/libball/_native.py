# SPDX-License-Identifier: MIT
"""Loading libball.so.1 and declaring its C functions (ctypes).

Where the shared library is looked for, first match wins:

1. ``LIBBALL_PATH``: a file, or a directory holding ``libball.so.1``
   (only that one is tried);
2. with ``LIBBALL_USE_SYSTEM=1``, the system's copy only:
   ``ctypes.util.find_library("ball")``, then ``libball.so.1`` through the
   dynamic loader's usual search (``LD_LIBRARY_PATH``, the ld.so cache);
3. the copy bundled in the installed package (``libball/_lib/libball.so.1``,
   which the wheel's build backend compiles from the repository's sources);
4. the build tree of the repository this package's source lives in
   (``bindings/python/../../build/libball.so.1``), for development;
5. ``build/libball.so.1`` under the current directory, when that directory
   is a libball repository (it has ``include/ball.h``);
6. the system, as in 2.

``path`` (``libball.LIBRARY_PATH``) is the file that was loaded: for a
library found by the dynamic loader, its real path when it can be asked
(``dladdr``), else the name it was loaded by.

The loaded library must have the major version this package was written
for (the soname's number, ``ABI_MAJOR``); otherwise ImportError is raised.

Every function of ``include/ball.h`` is declared from one table
(``_FUNCTIONS``) with the exact C types of the header (the test
``tests/test_header_constants.py`` compares the two). Functions that later
1.x libraries add are to be declared as optional (``required=False``) so
that the binding keeps working with an older 1.x library and can test for
them with ``has()``.

The constants below mirror ``include/ball.h`` without the ``BALL_`` prefix
(``BALL_E_ARG`` is ``E_ARG``); the same test checks that every value equals
the header's and that no enumerator of the header is missing.

Threads: the C library allows calls on distinct games at the same time but
no overlapping calls on one game; ``libball.Game`` serialises the calls on
its handle with a per-game lock (see ``Game``).
"""

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

#: The major version of libball this binding speaks (ball.h
#: BALL_VERSION_MAJOR); the soname carries it.
ABI_MAJOR = 1
SONAME = "libball.so.%d" % ABI_MAJOR

# ---------------------------------------------------------------- constants
# Mirrors of the #defines and enums of ball.h (values are ABI).

VERSION_MAJOR = 1  # of the header this binding was written against
VERSION_MINOR = 1
VERSION_PATCH = 0

# enum ball_error
OK = 0
E_ARG = -1
E_NOMEM = -2
E_BPN = -3
E_NOTATION = -4
E_ILLEGAL = -5
E_BUFFER = -6
E_RANGE = -7
E_NO_HISTORY = -8
E_RULES = -9
E_LIMIT = -10

# Board geometry
NUM_SQUARES = 111
NUM_COLS = 13
NUM_ROWS = 17
NO_SQUARE = 127
SQUARE_TEXT_MAX = 4

# enum ball_team, ball_phase, ball_result
ATK = 0
DEF = 1
PHASE_ACTION = 0
PHASE_RELEASE = 1
ONGOING = 0
ATK_WON = 1
DEF_WON = 2
DRAW = 3

# enum ball_piece_type
X = 1
O = 2  # noqa: E741 - the rules' own name
SQUARE = 3

# enum ball_piece_bits
PIECE_TYPE_MASK = 0x03
PIECE_DEF = 0x04
PIECE_DOWN = 0x08
PIECE_RESTRICTED = 0x10
PIECE_BALL = 0x20
PIECE_STACKED = 0x40

# enum ball_level
UPPER = 0
LOWER = 1

# enum ball_square_bits
SQ_PIECE = 0x01
SQ_STACK = 0x02
SQ_FRESH = 0x04
SQ_LOOSE_BALL = 0x08
SQ_BALL = 0x10

MAX_TURN = 999999999
MAX_PA = 99
MAX_PE = 999999999

# Actions
ACTION_NONE = 0
MAX_ACTIONS = 1024
ACTION_TEXT_MAX = 32

# enum ball_action_kind
MOVE = 1
DODGE = 2
TACTICAL_DODGE = 3
BLOCK = 4
PROTECT = 5
HANDOFF = 6
SHORT_PASS = 7
LONG_PASS = 8
END = 9
STAND_UP = 10
UNBLOCK = 11
UNPROTECT = 12
CONVERT_PA = 13
PLAY_CARD = 14

# enum ball_action_flags
FLAG_PICKUP = 0x1
FLAG_FORCED_FUMBLE = 0x2
FLAG_FUMBLE = 0x4

# enum ball_keeper
KEEPER_NONE = 0
KEEPER_UPPER = 1
KEEPER_LOWER = 2

# Release tasks
MAX_TASKS = 14
TASK_STAND_UP = 1
TASK_RELEASE = 2

# enum ball_earn
EARN_MOVE = 0
EARN_PICKUP = 1
EARN_DODGE = 2
EARN_FORCED_FUMBLE = 3
EARN_TACTICAL_DODGE = 4
EARN_BLOCK = 5
EARN_PROTECT = 6
EARN_HANDOFF = 7
EARN_SHORT_PASS = 8
EARN_LONG_PASS = 9
EARN_STAND_UP = 10
EARN_UNBLOCK = 11
EARN_UNPROTECT = 12
EARN_COUNT = 13

# enum ball_card_effect
EFFECT_GAIN_PA = 1
EFFECT_UNRESTRICT = 2

MAX_HAND = 9
CARD_NAME_MAX = 24
MAX_CARD_PE = 999

# enum ball_card_field
CARD_COST = 0
CARD_EFFECT = 1
CARD_AMOUNT = 2

RULES_TEXT_MAX = 1024

# Selection (R12)
SELECT_STEPS = 5
VERB_MOVE = 1
VERB_HANDOFF = 2
VERB_SHORT_PASS = 3
VERB_LONG_PASS = 4
VERB_CARD = 5

BPN_MAX = 1024
START_BPN = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"
MAX_PERFT_DEPTH = 64

# Learning interface (declared for completeness; the Python layer has no
# wrapper for it yet: call libball._native.lib directly)
ACTION_SPACE = 7990
ACTION_MASK_BYTES = 999
# enum ball_index_plane
PLANE_STEP = 0
PLANE_JUMP = 4
PLANE_DODGE = 12
PLANE_RELEASE = 44
PLANE_HANDOFF = 68
PLANE_SHORT_PASS = 69
PLANE_LONG_PASS = 70
INDEX_PLANES = 71
INDEX_END = 7881
INDEX_CARD = 7981
MASK_BITS = 1
# enum ball_obs_flags
OBS_GRID = 1
OBS_SCALAR_PLANES = 2
# enum ball_obs_plane
OBS_PIECES = 0
OBS_BALL = 24
OBS_LOOSE_BALL = 25
OBS_RESTRICTED = 26
OBS_FRESH = 27
OBS_PLANES = 28
# enum ball_obs_scalar
SCALAR_DEF = 0
SCALAR_RELEASE = 1
SCALAR_HANDOFF = 2
SCALAR_PA_AT_LEAST = 3
SCALAR_PA_BITS = 7
SCALAR_TURN_LIMIT = 14
SCALAR_TURNS_LEFT = 15
SCALAR_ZONE = 22
SCALAR_CARDS = 24
SCALAR_PE_OWN = 25
SCALAR_PE_OTHER = 35
SCALAR_HAND_OWN = 45
SCALAR_HAND_OTHER = 54
OBS_SCALARS = 63
OBS_GRID_CELLS = 221
# enum ball_terminal
NOT_TERMINAL = 0
TERMINAL_TOUCHDOWN = 1
TERMINAL_TURN_LIMIT = 2
TERMINAL_TRUNCATED = 3
BATCH_MAX = 1048576
# enum ball_batch_output
OUT_OBS = 0
OUT_OBS_BITS = 1
OUT_MASK = 2
OUT_MASK_BITS = 3
OUT_REWARDS = 4
OUT_DONE = 5
OUT_ACTIONS = 6
OUT_SIDE = 7
OUT_COUNT = 8

# Analysis: MCTS player (libball.MCTS), history, records, drawing
E_RECORD = -11
# enum ball_tag
TAG_EVENT = 0
TAG_SITE = 1
TAG_DATE = 2
TAG_ATK = 3
TAG_DEF = 4
TAG_COUNT = 5
TAG_TEXT_MAX = 128
# enum ball_draw_flags
DRAW_LEGEND = 1
DRAW_NO_COORDS = 2

# C integer ranges, for the binding's argument checks (ctypes would
# truncate an out-of-range Python int silently).
INT_MIN = -2 ** 31
INT_MAX = 2 ** 31 - 1
UINT_MAX = 2 ** 32 - 1
UINT64_MAX = 2 ** 64 - 1
SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1

# Size of the message buffers given to the library (err/errlen).
ERR_MAX = 256


class BallRules(ctypes.Structure):
    """struct ball_rules of ball.h 1.0.

    The library accepts only published sizes of the struct (today exactly
    the 1.0 layout), so every field is declared. ``cards`` is an opaque
    ``const ball_cardset *``.
    """

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("end_zone_depth", ctypes.c_int),
        ("turn_limit", ctypes.c_uint),
        ("flags", ctypes.c_uint),
        ("cards", ctypes.c_void_p),
    ]


class BallMctsConfig(ctypes.Structure):
    """struct ball_mcts_config of ball.h (libball.MCTS fills it)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("seed", ctypes.c_uint64),
        ("playouts", ctypes.c_int),
        ("time_ms", ctypes.c_int),
        ("max_nodes", ctypes.c_int),
        ("exploration", ctypes.c_double),
        ("playout_turns", ctypes.c_int),
    ]


class BallMctsStats(ctypes.Structure):
    """struct ball_mcts_stats of ball.h (libball.SearchStats reads it)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("playouts", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("max_depth", ctypes.c_int),
        ("visits", ctypes.c_uint32),
        ("value", ctypes.c_double),
        ("elapsed_ms", ctypes.c_double),
    ]


class BallSearchInfo(ctypes.Structure):
    """struct ball_search_info of ball.h (wrapped by libball.TurnSearch)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("nodes", ctypes.c_uint64),
        ("depth", ctypes.c_int),
        ("value", ctypes.c_double),
        ("proven", ctypes.c_int),
        ("elapsed_ms", ctypes.c_double),
        ("pv", ctypes.POINTER(ctypes.c_uint32)),
        ("pv_len", ctypes.c_int),
    ]


SEARCH_INFO_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(BallSearchInfo))
# ball_search_eval_fn (experimental): double (*)(void *ud, const ball_game *game)
SEARCH_EVAL_FN = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p)


class BallSearchConfig(ctypes.Structure):
    """struct ball_search_config of ball.h (wrapped by libball.TurnSearch)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("nodes", ctypes.c_uint64),
        ("time_ms", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("threads", ctypes.c_int),
        ("seed", ctypes.c_uint64),
        ("multipv", ctypes.c_int),
        ("hash_mb", ctypes.c_int),
        ("info", SEARCH_INFO_FN),
        ("info_ud", ctypes.c_void_p),
        ("info_every_ms", ctypes.c_int),
    ]


class BallSearchResult(ctypes.Structure):
    """struct ball_search_result of ball.h (wrapped by libball.TurnSearch)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("best", ctypes.c_uint32),
        ("value", ctypes.c_double),
        ("proven", ctypes.c_int),
        ("decisions_to_end", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("nodes", ctypes.c_uint64),
        ("elapsed_ms", ctypes.c_double),
        ("stopped", ctypes.c_int),
    ]


class BallSearchLine(ctypes.Structure):
    """struct ball_search_line of ball.h (wrapped by libball.TurnSearch)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("action", ctypes.c_uint32),
        ("value", ctypes.c_double),
        ("bound", ctypes.c_int),
        ("proven", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("nodes", ctypes.c_uint64),
        ("pv_len", ctypes.c_int),
        ("pv", ctypes.c_uint32 * 64),
    ]


MALLOC_FN = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
REALLOC_FN = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                              ctypes.c_size_t)
FREE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


class BallAllocator(ctypes.Structure):
    """struct ball_allocator of ball.h 1.0 (declared for completeness; the
    Python layer does not use custom allocators)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("malloc_fn", MALLOC_FN),
        ("realloc_fn", REALLOC_FN),
        ("free_fn", FREE_FN),
        ("user", ctypes.c_void_p),
    ]


def new_rules() -> "BallRules":
    """A BallRules with the library's defaults (ball_rules_init())."""
    rules = BallRules()
    lib.ball_rules_init(ctypes.byref(rules), ctypes.sizeof(BallRules))
    return rules


def read_rules(handle: Optional[int]) -> Tuple[int, "BallRules"]:
    """(rc, BallRules) from ball_game_rules(); in card mode ``cards``
    points to the game's own card set, valid while the game lives."""
    rules = new_rules()
    rc = lib.ball_game_rules(handle, ctypes.byref(rules))
    return rc, rules


_p = ctypes.c_void_p            # ball_game *, ball_cardset *, ball_batch *, void *
_pp = ctypes.POINTER(ctypes.c_void_p)  # ball_game **, ball_cardset **, ball_batch **
_int = ctypes.c_int
_uint = ctypes.c_uint
_u64 = ctypes.c_uint64
_act = ctypes.c_uint32          # ball_action
_task = ctypes.c_int32          # ball_task
_size = ctypes.c_size_t
_str = ctypes.c_char_p          # const char *
_buf = ctypes.c_char_p          # char * (a caller's buffer)
_pint = ctypes.POINTER(ctypes.c_int)
_pact = ctypes.POINTER(ctypes.c_uint32)
_ptask = ctypes.POINTER(ctypes.c_int32)
_pu64 = ctypes.POINTER(ctypes.c_uint64)
_pu8 = ctypes.POINTER(ctypes.c_uint8)
_pi32 = ctypes.POINTER(ctypes.c_int32)
_pfloat = ctypes.POINTER(ctypes.c_float)
_prules = ctypes.POINTER(BallRules)
_palloc = ctypes.POINTER(BallAllocator)
_pmcfg = ctypes.POINTER(BallMctsConfig)
_pmstats = ctypes.POINTER(BallMctsStats)
_psize = ctypes.POINTER(ctypes.c_size_t)
_pscfg = ctypes.POINTER(BallSearchConfig)
_psres = ctypes.POINTER(BallSearchResult)
_psline = ctypes.POINTER(BallSearchLine)

# name, result type, argument types, required (in the order of ball.h)
_FUNCTIONS = [
    ("ball_version_number", _uint, [], True),
    ("ball_version_string", _str, [], True),
    ("ball_strerror", _str, [_int], True),
    ("ball_square_at", _int, [_int, _int], True),
    ("ball_square_col", _int, [_int], True),
    ("ball_square_row", _int, [_int], True),
    ("ball_square_distance", _int, [_int, _int], True),
    ("ball_square_to_text", _int, [_int, _buf, _size], True),
    ("ball_square_from_text", _int, [_str], True),
    ("ball_action_kind", _int, [_act], True),
    ("ball_action_from", _int, [_act], True),
    ("ball_action_to", _int, [_act], True),
    ("ball_action_option", _int, [_act], True),
    ("ball_action_keeper", _int, [_act], True),
    ("ball_action_flags", _int, [_act], True),
    ("ball_action_cost", _int, [_act], True),
    ("ball_action_value", _int, [_act], True),
    ("ball_action_to_text", _int, [_act, _buf, _size], True),
    ("ball_task_square", _int, [_task], True),
    ("ball_task_kind", _int, [_task], True),
    ("ball_task_solvable", _int, [_task], True),
    ("ball_cardset_new", _int, [_pp], True),
    ("ball_cardset_free", None, [_p], True),
    ("ball_cardset_set_earn", _int, [_p, _int, _int], True),
    ("ball_cardset_earn", _int, [_p, _int], True),
    ("ball_cardset_add_card", _int, [_p, _int, _str, _int, _int, _int], True),
    ("ball_cardset_hand_size", _int, [_p, _int], True),
    ("ball_cardset_card_name", _str, [_p, _int, _int], True),
    ("ball_cardset_card_value", _int, [_p, _int, _int, _int], True),
    ("ball_rules_init", None, [_prules, _size], True),
    ("ball_rules_check", _int, [_prules, _buf, _size], True),
    ("ball_rules_from_text", _int, [_prules, _pp, _str, _buf, _size], True),
    ("ball_rules_to_text", _int, [_prules, _buf, _size], True),
    ("ball_game_new", _int, [_pp, _prules, _buf, _size], True),
    ("ball_game_clone", _int, [_pp, _p], True),
    ("ball_game_free", None, [_p], True),
    ("ball_game_rules", _int, [_p, _prules], True),
    ("ball_errmsg", _str, [_p], True),
    ("ball_side", _int, [_p], True),
    ("ball_phase", _int, [_p], True),
    ("ball_pa", _int, [_p], True),
    ("ball_handoff_last", _int, [_p], True),
    ("ball_turn", _int, [_p], True),
    ("ball_result", _int, [_p], True),
    ("ball_piece", _int, [_p, _int, _int], True),
    ("ball_square_state", _int, [_p, _int], True),
    ("ball_square_of_ball", _int, [_p], True),
    ("ball_restricted_square", _int, [_p], True),
    ("ball_pe", _int, [_p, _int], True),
    ("ball_hand", _int, [_p, _int], True),
    ("ball_legal_actions", _int, [_p, _pact, _size], True),
    ("ball_random_action", _int, [_p, _u64, _pact], True),
    ("ball_is_legal", _int, [_p, _act], True),
    ("ball_apply", _int, [_p, _act], True),
    ("ball_undo", _int, [_p], True),
    ("ball_history_length", _int, [_p], True),
    ("ball_release_tasks", _int, [_p, _ptask, _size], True),
    ("ball_task_solutions", _int, [_p, _int, _pact, _size], True),
    ("ball_select", _int, [_p, _pint, _size, _pint, _size, _pact], True),
    ("ball_position_to_text", _int, [_p, _buf, _size], True),
    ("ball_position_from_text", _int, [_p, _str], True),
    ("ball_action_from_text", _int, [_p, _str, _pact], True),
    ("ball_perft", _int, [_p, _int, _pu64], True),
    ("ball_hash", _u64, [_p], True),
    ("ball_action_to_index", _int, [_p, _act], True),
    ("ball_action_from_index", _int, [_p, _int, _pact], True),
    ("ball_legal_mask", _int, [_p, _pu8, _size, _int], True),
    ("ball_legal_indices", _int, [_p, _pi32, _size], True),
    ("ball_index_mirror", _int, [_int], True),
    ("ball_observation_size", _int, [_int], True),
    ("ball_observation", _int, [_p, _int, _pfloat, _size], True),
    ("ball_observation_bits", _int, [_p, _int, _pu8, _size], True),
    ("ball_observation_mirror", _int, [_int, _pfloat, _pfloat, _size], True),
    ("ball_observation_bits_mirror", _int, [_int, _pu8, _pu8, _size], True),
    ("ball_returns", _int, [_p, _pfloat], True),
    ("ball_batch_new", _int, [_pp, _int, _prules, _int, _buf, _size], True),
    ("ball_batch_free", None, [_p], True),
    ("ball_batch_size", _int, [_p], True),
    ("ball_batch_set_output", _int, [_p, _int, _p, _size], True),
    ("ball_batch_set_start", _int, [_p, _str], True),
    ("ball_batch_reset", _int, [_p, _u64], True),
    ("ball_batch_step", _int, [_p, _pi32, _size], True),
    ("ball_batch_position_to_text", _int, [_p, _int, _buf, _size], True),
    ("ball_batch_game_clone", _int, [_p, _int, _pp], True),
    ("ball_batch_errmsg", _str, [_p], True),
    # Added during 1.0 development by other work: optional, so that the
    # binding still loads a library built before them.
    ("ball_mcts_config_init", None, [_pmcfg, _size], False),
    ("ball_mcts_stats_init", None, [_pmstats, _size], False),
    ("ball_mcts_new", _int, [_pp, _pmcfg, _buf, _size], False),
    ("ball_mcts_free", None, [_p], False),
    ("ball_mcts_seed", _int, [_p, _u64], False),
    ("ball_mcts_choose", _int, [_p, _p, _pact, _pmstats], False),
    # The turn search (1.1): optional, so that the binding still loads a
    # library built before it.
    ("ball_search_config_init", None, [_pscfg, _size], False),
    ("ball_search_result_init", None, [_psres, _size], False),
    ("ball_search_line_init", None, [_psline, _size], False),
    ("ball_search_new", _int, [_pp, _pscfg, _buf, _size], False),
    ("ball_search_free", None, [_p], False),
    ("ball_search_clear", _int, [_p], False),
    ("ball_search_run", _int, [_p, _p, _psres], False),
    ("ball_search_stop", None, [_p], False),
    ("ball_search_lines", _int, [_p, _psline, _size], False),
    ("ball_search_best_turn", _int, [_p, _pact, _size], False),
    # The experimental tier (BALL_EXPERIMENTAL, node LIBBALL_EXPERIMENTAL):
    # a learned evaluation (libball.net) and the search's evaluation hook.
    ("ball_search_set_eval", _int, [_p, SEARCH_EVAL_FN, _p], False),
    ("ball_net_load", _int, [_pp, _p, _size, _buf, _size], False),
    ("ball_net_free", None, [_p], False),
    ("ball_net_evaluate", _int, [_p, _p, ctypes.POINTER(ctypes.c_double)], False),
    ("ball_net_search_eval", ctypes.c_double, [_p, _p], False),
    ("ball_net_features", _int, [_p, _int, ctypes.POINTER(ctypes.c_uint16), _size], False),
    ("ball_search_evaluate", _int, [_p, _p, ctypes.POINTER(ctypes.c_double)], False),
    ("ball_history_action", _int, [_p, _int, _pact], False),
    ("ball_history_position", _int, [_p, _int, _buf, _size], False),
    ("ball_game_set_tag", _int, [_p, _int, _str], False),
    ("ball_game_tag", _int, [_p, _int, _buf, _size], False),
    ("ball_record_write", _int, [_p, _buf, _size], False),
    ("ball_record_read", _int, [_pp, _str, _size, _psize, _buf, _size], False),
    ("ball_position_to_board_text", _int, [_p, _pint, _size, _int, _buf, _size], False),
    ("ball_position_to_svg", _int, [_p, _pint, _size, _act, _int, _buf, _size], False),
    ("ball_apply_unchecked", _int, [_p, _act], True),
    ("ball_legal_action_at", _int, [_p, _int, _pact], True),
    ("ball_history_reserve", _int, [_p, _size], True),
    ("ball_allocator_init", None, [_palloc, _size], True),
    ("ball_game_new_with_allocator", _int, [_pp, _prules, _palloc, _buf, _size], True),
    # the experimental tier (LIBBALL_EXPERIMENTAL): optional, a later
    # library may lack them (Game methods raise then, has() tells)
    ("ball_apply_index", _int, [_p, _int], False),
    ("ball_random_apply", _int, [_p, _u64, _pact], False),
    ("ball_random_playout", _int, [_p, _u64, _int], False),
]


def _system_candidates() -> Iterator[str]:
    found = ctypes.util.find_library("ball")
    if found:
        yield found
    yield SONAME


def _candidates() -> Iterator[str]:
    """The library paths to try, in order (see the module text)."""
    env = os.environ.get("LIBBALL_PATH")
    if env:
        path = Path(env)
        yield str(path / SONAME) if path.is_dir() else str(path)
        return  # an explicit choice is not second-guessed
    if os.environ.get("LIBBALL_USE_SYSTEM") == "1":
        yield from _system_candidates()
        return
    package = Path(__file__).resolve().parent  # .../libball
    yield str(package / "_lib" / SONAME)
    source_root = package.parent  # bindings/python in a checkout
    yield str(source_root.parent.parent / "build" / SONAME)
    cwd = Path.cwd()
    if (cwd / "include" / "ball.h").is_file():
        yield str(cwd / "build" / SONAME)
    yield from _system_candidates()


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _loaded_file(lib: ctypes.CDLL, candidate: str) -> str:
    """The file the library was loaded from: candidate when it is a path,
    else what dladdr() says of one of its functions (the dynamic loader
    chose the file), else candidate."""
    if os.sep in candidate:
        return candidate
    try:
        dladdr = ctypes.CDLL(None).dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
        dladdr.restype = ctypes.c_int
        info = _DlInfo()
        address = ctypes.cast(lib.ball_version_number, ctypes.c_void_p)
        if dladdr(address, ctypes.byref(info)) and info.dli_fname:
            name = os.fsdecode(info.dli_fname)
            if os.sep in name:
                return os.path.realpath(name)
    except (AttributeError, OSError, ValueError):
        pass
    return candidate


def _load() -> Tuple[ctypes.CDLL, str]:
    errors = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            errors.append("%s: no such file" % candidate)
            continue
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as exc:
            errors.append(str(exc))
            continue
        return lib, _loaded_file(lib, candidate)
    if os.environ.get("LIBBALL_PATH"):
        hint = "the file LIBBALL_PATH names"
    elif os.environ.get("LIBBALL_USE_SYSTEM") == "1":
        hint = ("LIBBALL_USE_SYSTEM=1 asks for the system's copy: install it "
                "with `make install`, or unset LIBBALL_USE_SYSTEM")
    else:
        hint = ("reinstall the package, set LIBBALL_PATH to the library's path, "
                "or build it with `make`")
    raise ImportError("libball: cannot load the shared library %s (%s): %s"
                      % (SONAME, hint, "; ".join(errors)))


def _declare(lib: ctypes.CDLL) -> None:
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
# The version is checked before anything else is declared: a library of
# another major version may lack functions or have other signatures.
lib.ball_version_number.restype = ctypes.c_uint
lib.ball_version_number.argtypes = []
lib.ball_version_string.restype = ctypes.c_char_p
lib.ball_version_string.argtypes = []
version_number = lib.ball_version_number()
version_string = lib.ball_version_string().decode()
if version_number // 10000 != ABI_MAJOR:
    raise ImportError(
        "libball: %s is version %s, this binding needs major version %d"
        % (path, version_string, ABI_MAJOR))
_declare(lib)


def has(name: str) -> bool:
    """True if the loaded library exports the function ``name``."""
    return hasattr(lib, name)


# ---------------------------------------------------------------- _speed
# The C extension module libball._speed carries the hot calls of Game
# (issue 29; libball/_speed.c). It does not link libball: it is given the
# addresses of the functions of the library loaded above (``addresses()``),
# so both paths call one library. Where it is looked for: the package
# (an installed wheel or Debian package), else ``python/`` beside the
# loaded library (the build tree: ``make`` builds
# build/python/_speed<EXT_SUFFIX> beside build/libball.so.1).
SPEED_FUNCTIONS = ("ball_random_action", "ball_random_apply", "ball_apply", "ball_apply_index",
                   "ball_random_playout", "ball_legal_actions", "ball_position_to_text",
                   "ball_position_from_text", "ball_game_new", "ball_game_clone",
                   "ball_game_free", "ball_rules_init", "ball_apply_unchecked", "ball_result",
                   "ball_side", "ball_turn", "ball_history_length", "ball_undo", "ball_hash",
                   "ball_history_action", "ball_errmsg")


def addresses() -> Dict[str, int]:
    """name -> address of the loaded library's functions that _speed calls
    (an experimental one the library lacks is left out)."""
    return {name: int(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value or 0)
            for name in SPEED_FUNCTIONS if has(name)}


def _load_speed() -> Any:
    """The extension module, or None without it (LIBBALL_SPEED=ctypes
    asks for None: game.py then runs on its ctypes fallback,
    _speed_ctypes.py, as the tests do to test both)."""
    global speed_missing
    if os.environ.get("LIBBALL_SPEED") == "ctypes":
        speed_missing = "LIBBALL_SPEED=ctypes"
        return None
    import importlib.machinery
    import importlib.util
    import sysconfig
    try:
        from . import _speed
        return _speed
    except ImportError as exc:
        first = str(exc)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    candidate = Path(os.path.realpath(path)).parent / "python" / ("_speed" + suffix)
    if candidate.is_file():
        loader = importlib.machinery.ExtensionFileLoader("libball._speed", str(candidate))
        spec = importlib.util.spec_from_file_location("libball._speed", str(candidate),
                                                      loader=loader)
        if spec is not None:
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return module
    speed_missing = ("the extension module libball._speed is missing (%s; nor is it %s): "
                     "reinstall the package, or build it with `make` (build/python/)"
                     % (first, candidate))
    return None


#: Why ``speed`` is None ("" when the extension is loaded).
speed_missing = ""
speed = _load_speed()
