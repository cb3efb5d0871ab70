"""libball for Python: the rules engine of the board game BALL, over ctypes.

    >>> import libball
    >>> with libball.Game() as game:            # the standard start
    ...     game.side, game.pa
    ...     game.apply("E11-F10")
    (<Team.DEF: 1>, 2)
    Action('E11-F10')

See ``Game`` for everything a game does, ``Action`` for decisions,
``Selection`` for step-by-step choice (R12), and ``errors`` for the
exceptions. Rule ids (R1...R12, N1...N3) refer to the project's RULES.md.
"""

from . import _native
from .errors import (ArgumentError, BallError, BpnError, BufferTooSmallError,
                     ClosedGameError, IllegalActionError, NoHistoryError,
                     NotationError, OutOfMemoryError, RangeError)
from .game import (SQUARES, Action, ActionFlag, ActionKind, Game, Keeper, Phase,
                   Piece, PieceType, Result, Rules, Selection, SquareContents,
                   Task, TaskKind, Team, Verb, distance, square_at, square_col,
                   square_index, square_name, square_row)

#: Version of the loaded shared library, e.g. "0.1.0".
LIBRARY_VERSION = _native.version_string
#: The same as a number, major * 10000 + minor * 100 + patch.
LIBRARY_VERSION_NUMBER = _native.version_number
#: Path (or name) the shared library was loaded from.
LIBRARY_PATH = _native.path
#: The BPN of the standard start (N1).
START_BPN = _native.START_BPN
#: The version of this binding.
__version__ = "0.1.0"

__all__ = [
    "Action", "ActionFlag", "ActionKind", "ArgumentError", "BallError",
    "BpnError", "BufferTooSmallError", "ClosedGameError", "Game",
    "IllegalActionError", "Keeper", "LIBRARY_PATH", "LIBRARY_VERSION",
    "LIBRARY_VERSION_NUMBER", "NoHistoryError", "NotationError",
    "OutOfMemoryError", "Phase", "Piece", "PieceType", "RangeError", "Result",
    "Rules", "SQUARES", "START_BPN", "Selection", "SquareContents", "Task",
    "TaskKind", "Team", "Verb", "distance", "square_at", "square_col",
    "square_index", "square_name", "square_row",
]
