# SPDX-License-Identifier: MIT
"""libball for Python: the rules engine of the board game BALL, over ctypes.

    >>> import libball
    >>> with libball.Game() as game:            # the standard start
    ...     game.side, game.pa
    ...     game.apply("E11-F10")
    (<Team.DEF: 1>, 2)
    Action('E11-F10')

See ``Game`` for everything a game does, ``Action`` for decisions,
``Selection`` for step-by-step choice (R12), ``MCTS`` for the library's
search player, and ``errors`` for the exceptions. Rule ids (R1...R12,
N1...N3) refer to the project's docs/spec.md. A Game (and an MCTS
searcher) may be shared by threads: its calls are serialised by a
per-object lock (see ``Game``).
"""

from . import _native, learn
from .errors import (ArgumentError, BallError, BpnError, BufferTooSmallError,
                     ClosedGameError, IllegalActionError, LimitError, NoHistoryError,
                     NotationError, OutOfMemoryError, RangeError, RecordError, RulesError)
from .game import (SQUARES, Action, ActionFlag, ActionKind, Card, CardEffect, EarnEntry,
                   Game, Keeper, LegalActions, Phase, Piece, PieceType, RecordText, Result,
                   Rules, Selection,
                   SquareContents, Task, TaskKind, Team, Verb, distance, square_at,
                   square_col, square_index, square_name, square_row, read_records, TAGS)
from .learn import Batch, Env
from .net import Net
from .search import MCTS, SearchInfo, SearchLine, SearchResult, SearchStats, TurnSearch

#: Version of the loaded shared library, e.g. "1.0.0".
LIBRARY_VERSION = _native.version_string
#: The same as a number, major * 10000 + minor * 100 + patch.
LIBRARY_VERSION_NUMBER = _native.version_number
#: Path (or name) the shared library was loaded from.
LIBRARY_PATH = _native.path
#: The BPN of the standard start (N1).
START_BPN = _native.START_BPN
#: The version of this binding.
__version__ = "1.1.0"

__all__ = [
    "Action", "ActionFlag", "ActionKind", "ArgumentError", "BallError", "Batch",
    "BpnError", "BufferTooSmallError", "Card", "CardEffect", "ClosedGameError",
    "EarnEntry", "Env", "Game", "IllegalActionError", "Keeper", "LIBRARY_PATH",
    "LIBRARY_VERSION", "LegalActions",
    "LIBRARY_VERSION_NUMBER", "LimitError", "MCTS", "Net", "NoHistoryError", "NotationError",
    "OutOfMemoryError", "Phase", "Piece", "PieceType", "RangeError", "Result",
    "RecordError", "RecordText", "Rules", "RulesError", "SQUARES", "START_BPN", "SearchStats", "Selection",
    "SquareContents", "SearchInfo", "SearchLine", "SearchResult", "TurnSearch",
    "Task", "TaskKind", "Team", "Verb", "distance", "square_at", "square_col",
    "square_index", "square_name", "square_row", "learn", "read_records", "TAGS",
]
