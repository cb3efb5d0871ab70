"""The Pythonic layer over libball: Game, Action, Piece, SquareContents,
Task and Selection. Squares are given as names ("G5") or indices (0-110)
and returned as names."""

import ctypes
import enum
import random as _random
from dataclasses import dataclass
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _native as _n
from .errors import (ArgumentError, ClosedGameError, IllegalActionError, NotationError,
                     RangeError, error_for)

_lib = _n.lib

# ---------------------------------------------------------------- enums


class Team(enum.IntEnum):
    """The two teams (R2.1); the values are those of ball.h."""

    ATK = 0
    DEF = 1

    @property
    def opponent(self) -> "Team":
        return Team(1 - self)

    def __str__(self):
        return self.name


class Phase(enum.IntEnum):
    """The phases of a turn (R4.1)."""

    ACTION = 0
    RELEASE = 1

    def __str__(self):
        return self.name.lower()


class Result(enum.IntEnum):
    """The state of the game (R11)."""

    ONGOING = 0
    ATK_WON = 1
    DEF_WON = 2
    DRAW = 3

    @property
    def winner(self) -> Optional[Team]:
        return {Result.ATK_WON: Team.ATK, Result.DEF_WON: Team.DEF}.get(self)

    def __str__(self):
        return self.name.lower()


class PieceType(enum.IntEnum):
    """Piece types (R2.1); S is the square piece."""

    X = 1
    O = 2  # noqa: E741 - the rules' own name
    S = 3

    def __str__(self):
        return self.name


class ActionKind(enum.IntEnum):
    """Kinds of decisions (R5-R9)."""

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
    CONVERT_PA = 13  #: card mode (R10.2); this binding creates no card games yet
    PLAY_CARD = 14   #: card mode (R10.4)

    def __str__(self):
        return self.name.lower()


class ActionFlag(enum.IntFlag):
    """Flags of an action."""

    NONE = 0
    PICKUP = 0x1         #: the mover takes the loose ball (R8.1)
    FORCED_FUMBLE = 0x2  #: the dodged piece held the ball (R6.1)
    FUMBLE = 0x4         #: the pushed piece held the ball (R6.2)


class Keeper(enum.IntEnum):
    """Who keeps the ball after a release (R9.3)."""

    NONE = 0
    UPPER = 1
    LOWER = 2


class Verb(enum.IntEnum):
    """Step 2 of a selection (R12); ``text`` is the N2 separator."""

    MOVE = 1
    HANDOFF = 2
    SHORT_PASS = 3
    LONG_PASS = 4
    CARD = 5  #: card mode: a card that targets the piece

    @property
    def text(self) -> str:
        return _VERB_TEXT[self]

    @classmethod
    def parse(cls, value) -> "Verb":
        """A Verb from a Verb, its number or its text ("-", "=", "^", "^^")."""
        if isinstance(value, str):
            for verb, text in _VERB_TEXT.items():
                if text == value:
                    return verb
            try:
                return cls[value.upper()]
            except KeyError:
                raise NotationError("not a verb: %r" % value, _n.E_NOTATION) from None
        return cls(value)

    def __str__(self):
        return self.text


_VERB_TEXT = {Verb.MOVE: "-", Verb.HANDOFF: "=", Verb.SHORT_PASS: "^",
              Verb.LONG_PASS: "^^", Verb.CARD: "card"}


class TaskKind(enum.IntEnum):
    """Kinds of release tasks (R9)."""

    STAND_UP = 1
    RELEASE = 2

    def __str__(self):
        return self.name.lower()


# ---------------------------------------------------------------- squares

SquareLike = Union[str, int]


def _square_name(index: int) -> str:
    buf = ctypes.create_string_buffer(8)
    rc = _lib.ball_square_name(index, buf, len(buf))
    if rc < 0:
        raise error_for(rc, "no square %r" % (index,))
    return buf.value.decode()


#: The names of the 111 playable squares in index order (A1, C1, ..., M17).
SQUARES: Tuple[str, ...] = tuple(_square_name(i) for i in range(_n.NUM_SQUARES))
_INDEX = {name: i for i, name in enumerate(SQUARES)}


def square_index(square: SquareLike) -> int:
    """The index (0-110) of a square given by name ("G5") or index."""
    if isinstance(square, str):
        try:
            return _INDEX[square]
        except KeyError:
            raise NotationError("not a playable square: %r" % square, _n.E_NOTATION) from None
    if isinstance(square, bool) or not isinstance(square, int):
        raise ArgumentError("a square is a name or an index, not %r" % (square,), _n.E_ARG)
    if not 0 <= square < _n.NUM_SQUARES:
        raise RangeError("no square %d (0-110)" % square, _n.E_RANGE)
    return square


def square_name(square: SquareLike) -> str:
    """The name of a square given by name or index."""
    return SQUARES[square_index(square)]


def square_at(col: int, row: int) -> str:
    """The name of the playable square at column 1-13 (A-M), row 1-17."""
    rc = _lib.ball_square_at(col, row)
    if rc < 0:
        raise error_for(rc, "no playable square at column %d, row %d" % (col, row))
    return SQUARES[rc]


def square_col(square: SquareLike) -> int:
    """The column of a square, 1 (A) to 13 (M)."""
    return _lib.ball_square_col(square_index(square))


def square_row(square: SquareLike) -> int:
    """The row of a square, 1 to 17."""
    return _lib.ball_square_row(square_index(square))


def distance(a: SquareLike, b: SquareLike) -> int:
    """The distance between two squares (R1.3)."""
    return _lib.ball_square_distance(square_index(a), square_index(b))


def _name_or_none(index: int) -> Optional[str]:
    return SQUARES[index] if index >= 0 else None


# ---------------------------------------------------------------- actions


class Action:
    """One whole decision (an action, ``end`` or a release-task solution).

    Immutable and hashable. ``str(action)`` is its N2 text. Two actions are
    equal when they are the same decision (the same library code); an action
    also compares equal to its text, so ``"end" in game.legal_actions()``
    works. ``int(action)`` is the library's code.
    """

    __slots__ = ("_code", "_text")

    def __init__(self, code: int):
        if isinstance(code, Action):
            code = code.code
        if not isinstance(code, int) or isinstance(code, bool) or not 0 < code < 2 ** 32:
            raise ArgumentError("not an action code: %r" % (code,), _n.E_ARG)
        buf = ctypes.create_string_buffer(_n.ACTION_TEXT_MAX)
        rc = _lib.ball_action_text(code, buf, len(buf))
        if rc < 0:
            raise error_for(rc, "not an action code: %#x" % code)
        object.__setattr__(self, "_code", code)
        object.__setattr__(self, "_text", buf.value.decode())

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    def __delattr__(self, name):
        raise AttributeError("Action is immutable")

    def __reduce__(self):
        return (Action, (self._code,))

    @property
    def code(self) -> int:
        """The library's 32-bit code of the decision."""
        return self._code

    @property
    def text(self) -> str:
        """The N2 text ("G5-F6", "E9-E7/D6", "end", ...)."""
        return self._text

    @property
    def kind(self) -> ActionKind:
        return ActionKind(_lib.ball_action_kind(self._code))

    @property
    def from_square(self) -> Optional[str]:
        """The mover, carrier, knocked-down piece or stack; None for end."""
        return _name_or_none(_lib.ball_action_from(self._code))

    @property
    def to_square(self) -> Optional[str]:
        """Destination, dodge target, landing, receiver, ball square, or the
        upper piece's square of a release; None for end."""
        return _name_or_none(_lib.ball_action_to(self._code))

    @property
    def option_square(self) -> Optional[str]:
        """Dodge exit, push square, or the lower piece's square of a
        release; None otherwise."""
        return _name_or_none(_lib.ball_action_option(self._code))

    @property
    def keeper(self) -> Keeper:
        return Keeper(_lib.ball_action_keeper(self._code))

    @property
    def flags(self) -> ActionFlag:
        return ActionFlag(_lib.ball_action_flags(self._code))

    @property
    def cost(self) -> int:
        """PA cost (R4.3): 0, 1 or 2."""
        return _lib.ball_action_cost(self._code)

    @property
    def is_pickup(self) -> bool:
        return bool(self.flags & ActionFlag.PICKUP)

    def __str__(self):
        return self._text

    def __repr__(self):
        return "Action(%r)" % self._text

    def __int__(self):
        return self._code

    def __eq__(self, other):
        if isinstance(other, Action):
            return self._code == other._code
        if isinstance(other, str):
            return self._text == other
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # Equal codes have equal texts, and an action equals its text.
        return hash(self._text)


# ---------------------------------------------------------------- squares' contents


@dataclass(frozen=True)
class Piece:
    """One piece as it stands (R3)."""

    team: Team
    type: PieceType
    down: bool = False
    restricted: bool = False
    has_ball: bool = False
    stacked: bool = False

    @classmethod
    def from_code(cls, code: int) -> Optional["Piece"]:
        """The Piece of a ball_piece() code, None for 0."""
        if code <= 0:
            return None
        return cls(team=Team.DEF if code & _n.PIECE_DEF else Team.ATK,
                   type=PieceType(code & _n.PIECE_TYPE_MASK),
                   down=bool(code & _n.PIECE_DOWN),
                   restricted=bool(code & _n.PIECE_RESTRICTED),
                   has_ball=bool(code & _n.PIECE_BALL),
                   stacked=bool(code & _n.PIECE_STACKED))

    @property
    def active(self) -> bool:
        """Standing and not stacked (R3.2)."""
        return not self.down and not self.stacked

    def __str__(self):
        """The BPN letter and marks: upper case ATK, ``*`` ball, ``_`` down,
        ``!`` restricted."""
        letter = self.type.name
        if self.team == Team.DEF:
            letter = letter.lower()
        return (letter + ("*" if self.has_ball else "") + ("_" if self.down else "")
                + ("!" if self.restricted else ""))


@dataclass(frozen=True)
class SquareContents:
    """What stands on one square: nothing, the loose ball, a piece, or a
    stack (``upper`` over ``lower``)."""

    square: str
    upper: Optional[Piece] = None
    lower: Optional[Piece] = None
    loose_ball: bool = False
    fresh: bool = False

    @property
    def piece(self) -> Optional[Piece]:
        """The only piece, or the upper piece of a stack."""
        return self.upper

    @property
    def is_stack(self) -> bool:
        return self.lower is not None

    @property
    def open(self) -> bool:
        """No piece here, standing or knocked down (R3.4)."""
        return self.upper is None

    @property
    def vacant(self) -> bool:
        """Neither a piece nor the ball here (R3.4)."""
        return self.upper is None and not self.loose_ball

    @property
    def has_ball(self) -> bool:
        """The ball is here, loose or held."""
        return self.loose_ball or (self.upper is not None and self.upper.has_ball)

    def __str__(self):
        """As in ``ball show``: ``.`` vacant, ``@`` loose ball, a piece, or a
        stack (upper then lower, ``+`` when fresh)."""
        if self.upper is None:
            return "@" if self.loose_ball else "."
        text = str(self.upper) + (str(self.lower) if self.lower else "")
        return text + ("+" if self.fresh else "")


class Task(NamedTuple):
    """A release-phase task (R9): the piece's or the stack's square, the
    kind, and whether it has a solution now."""

    square: str
    kind: TaskKind
    solvable: bool


class Rules(NamedTuple):
    """The rule options of a game (R1.4, R11.2)."""

    end_zone_depth: int = 1
    turn_limit: int = 0


def _make_rules(end_zone_depth: int, turn_limit: int) -> _n.BallRules:
    if not isinstance(end_zone_depth, int) or not isinstance(turn_limit, int):
        raise ArgumentError("rule values are integers", _n.E_ARG)
    if turn_limit < 0 or turn_limit >= 2 ** 32:
        raise RangeError("turn limit %d out of range" % turn_limit, _n.E_RANGE)
    return _n.new_rules(end_zone_depth, turn_limit)


# ---------------------------------------------------------------- the game


class Game:
    """A game of BALL: a position, its ruleset and the undo history.

    ``Game()`` is the standard start (R2.2); ``Game(bpn)`` or
    ``Game.from_bpn(bpn)`` starts from a BPN position (N1). The C memory is
    freed by ``close()``, at the end of a ``with`` block, or by the garbage
    collector, whichever comes first.
    """

    _handle = None  # the ball_game pointer as an int; None once closed

    def __init__(self, bpn: Optional[str] = None, *, end_zone_depth: int = 1,
                 turn_limit: int = 0):
        rules = _make_rules(end_zone_depth, turn_limit)
        handle = ctypes.c_void_p()
        rc = _lib.ball_game_new(ctypes.byref(handle), ctypes.byref(rules))
        if rc < 0:
            raise error_for(rc, "cannot create a game (end zone depth %d, turn limit %d)"
                            % (end_zone_depth, turn_limit))
        self._adopt(handle.value)
        if bpn is not None:
            self.set_bpn(bpn)

    @classmethod
    def from_bpn(cls, text: str, end_zone_depth: int = 1, turn_limit: int = 0) -> "Game":
        """A game starting from the BPN position ``text`` (N1)."""
        return cls(text, end_zone_depth=end_zone_depth, turn_limit=turn_limit)

    def _adopt(self, handle: int) -> None:
        self._handle = handle
        # Kept on the instance so that __del__ works during interpreter exit.
        self._free = _lib.ball_game_free
        self._actions = (ctypes.c_uint32 * _n.MAX_ACTIONS)()

    # -------------------------------------------------- lifetime

    def close(self) -> None:
        """Frees the C game now. Further use raises ClosedGameError;
        closing twice is harmless."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self._free(handle)

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # pragma: no cover - never raise from __del__
            pass

    @property
    def _g(self) -> int:
        if self._handle is None:
            raise ClosedGameError("the game is closed")
        return self._handle

    def _check(self, rc: int) -> int:
        if rc < 0:
            msg = _lib.ball_errmsg(self._handle).decode(errors="replace")
            raise error_for(rc, msg)
        return rc

    def clone(self) -> "Game":
        """An independent copy: position, ruleset and undo history."""
        handle = ctypes.c_void_p()
        rc = _lib.ball_game_clone(ctypes.byref(handle), self._g)
        if rc < 0:
            raise error_for(rc)
        copy = Game.__new__(Game)
        copy._adopt(handle.value)
        return copy

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    @property
    def rules(self) -> Rules:
        rc, rules = _n.read_rules(self._g)
        self._check(rc)
        return Rules(rules.end_zone_depth, rules.turn_limit)

    @property
    def hash(self) -> int:
        """A 64-bit hash of the position (equal positions, equal hashes; the
        turn number is not part of it). Needs a library with ball_hash()."""
        if not _n.has("ball_hash"):
            raise NotImplementedError("the loaded libball has no ball_hash()")
        return _lib.ball_hash(self._g)

    # -------------------------------------------------- position

    @property
    def bpn(self) -> str:
        """The position as BPN text (N1). Assigning sets the position and
        clears the undo history."""
        buf = ctypes.create_string_buffer(_n.BPN_MAX)
        self._check(_lib.ball_get_bpn(self._g, buf, len(buf)))
        return buf.value.decode()

    @bpn.setter
    def bpn(self, text: str) -> None:
        self.set_bpn(text)

    def set_bpn(self, text: str) -> None:
        """Replaces the position by the BPN ``text``; raises BpnError (with
        what is wrong and where) and leaves the game unchanged if invalid."""
        if not isinstance(text, str):
            raise ArgumentError("a BPN is a str, not %s" % type(text).__name__, _n.E_ARG)
        self._check(_lib.ball_set_bpn(self._g, text.encode()))

    @property
    def side(self) -> Team:
        """The coach to act (after a touchdown: the one who scored)."""
        return Team(self._check(_lib.ball_side(self._g)))

    @property
    def phase(self) -> Phase:
        return Phase(self._check(_lib.ball_phase(self._g)))

    @property
    def pa(self) -> int:
        """PA left in this action phase (0 in the release phase)."""
        return self._check(_lib.ball_pa(self._g))

    @property
    def handoff_last(self) -> bool:
        """True if the last action of this action phase was a hand-off."""
        return bool(self._check(_lib.ball_handoff_last(self._g)))

    @property
    def turn(self) -> int:
        return _lib.ball_turn(self._g)

    @property
    def result(self) -> Result:
        return Result(self._check(_lib.ball_result(self._g)))

    @property
    def is_over(self) -> bool:
        return self.result != Result.ONGOING

    @property
    def winner(self) -> Optional[Team]:
        """The team that scored, or None."""
        return self.result.winner

    def piece_at(self, square: SquareLike, level: Union[str, int] = "upper") -> Optional[Piece]:
        """The piece on ``square`` (the upper one of a stack, or with
        ``level="lower"`` the lower one), None if there is none."""
        if isinstance(level, str):
            levels = {"upper": _n.UPPER, "lower": _n.LOWER}
            if level not in levels:
                raise ArgumentError("level is 'upper' or 'lower', not %r" % level, _n.E_ARG)
            level = levels[level]
        code = self._check(_lib.ball_piece(self._g, square_index(square), level))
        return Piece.from_code(code)

    def __getitem__(self, square: SquareLike) -> SquareContents:
        """``game["G5"]``: the contents of a square."""
        index = square_index(square)
        state = self._check(_lib.ball_square_state(self._g, index))
        upper = lower = None
        if state & _n.SQ_PIECE:
            upper = Piece.from_code(self._check(_lib.ball_piece(self._g, index, _n.UPPER)))
            if state & _n.SQ_STACK:
                lower = Piece.from_code(self._check(_lib.ball_piece(self._g, index, _n.LOWER)))
        return SquareContents(SQUARES[index], upper, lower,
                              bool(state & _n.SQ_LOOSE_BALL), bool(state & _n.SQ_FRESH))

    def pieces(self) -> Iterator[Tuple[str, Piece]]:
        """Every piece as (square, piece), upper before lower, squares in
        index order."""
        for index, name in enumerate(SQUARES):
            contents = self[index]
            if contents.upper:
                yield name, contents.upper
            if contents.lower:
                yield name, contents.lower

    @property
    def ball_square(self) -> str:
        """The square of the ball, loose or held."""
        return SQUARES[self._check(_lib.ball_ball_square(self._g))]

    @property
    def restricted_square(self) -> Optional[str]:
        """The square of the restricted piece of the side to act, or None."""
        # -1 means "none" here (it equals BALL_E_ARG, which only a NULL game
        # could cause, and self._g is never NULL).
        return _name_or_none(_lib.ball_restricted_square(self._g))

    def diagram(self) -> str:
        """The board as text, row 17 at the top (the layout of ``ball show``)."""
        lines = ["   " + "     ".join("ABCDEFGHIJKLM")]
        for row in range(_n.NUM_ROWS, 0, -1):
            cells = [" " * 6] * _n.NUM_COLS
            for col in range(1, _n.NUM_COLS + 1):
                index = _lib.ball_square_at(col, row)
                if index >= 0:
                    cells[col - 1] = str(self[index]).ljust(6)
            lines.append(("%2d " % row + "".join(cells)).rstrip())
        return "\n".join(lines)

    def __str__(self):
        return self.diagram()

    def __repr__(self):
        if self._handle is None:
            return "<closed libball.Game>"
        return "Game.from_bpn(%r)" % self.bpn

    # -------------------------------------------------- actions

    def _action_list(self, count: int) -> List[Action]:
        return [Action(self._actions[i]) for i in range(count)]

    def legal_actions(self) -> List[Action]:
        """The legal decisions, in the library's fixed order (empty once the
        game is over). ``sorted(..., key=str)`` gives the byte order of
        ``ball legal``."""
        n = self._check(_lib.ball_legal_actions(self._g, self._actions, _n.MAX_ACTIONS))
        return self._action_list(n)

    def count_legal_actions(self) -> int:
        """The number of legal decisions, counted without listing them."""
        return self._check(_lib.ball_legal_actions(self._g, None, 0))

    def legal_action(self, index: int) -> Action:
        """``legal_actions()[index]`` (0 <= index < count_legal_actions()),
        found without listing the others: with ``random.randrange(n)`` it
        picks a uniform random decision cheaply. Raises RangeError for an
        index out of range. Needs a library with ball_legal_action_at()."""
        if not _n.has("ball_legal_action_at"):
            raise NotImplementedError("the loaded libball has no ball_legal_action_at()")
        if not isinstance(index, int) or isinstance(index, bool):
            raise ArgumentError("an action index is an int", _n.E_ARG)
        if not -2 ** 31 <= index < 2 ** 31:
            raise RangeError("action index %d out of range" % index, _n.E_RANGE)
        out = ctypes.c_uint32()
        self._check(_lib.ball_legal_action_at(self._g, index, ctypes.byref(out)))
        return Action(out.value)

    def random_action(self, random: Optional[int] = None) -> Action:
        """A legal decision drawn with the 64-bit number ``random`` (default:
        ``random.getrandbits(64)``), uniformly when ``random`` is uniform;
        the cheapest way to play random playouts. Raises RangeError when
        the game is over. Needs a library with ball_random_action()."""
        if not _n.has("ball_random_action"):
            raise NotImplementedError("the loaded libball has no ball_random_action()")
        if random is None:
            random = _random.getrandbits(64)
        if not isinstance(random, int) or isinstance(random, bool) or not 0 <= random < 2 ** 64:
            raise ArgumentError("random is an int in 0 .. 2**64 - 1", _n.E_ARG)
        out = ctypes.c_uint32()
        self._check(_lib.ball_random_action(self._g, random, ctypes.byref(out)))
        return Action(out.value)

    def parse_action(self, text: str) -> Action:
        """The action of this position written ``text`` (N2). Raises
        NotationError (malformed) or IllegalActionError (no such action)."""
        if not isinstance(text, str):
            raise ArgumentError("an action text is a str", _n.E_ARG)
        out = ctypes.c_uint32()
        self._check(_lib.ball_action_parse(self._g, text.encode(), ctypes.byref(out)))
        return Action(out.value)

    def _code(self, action: Union[Action, str, int]) -> int:
        if isinstance(action, Action):
            return action.code
        if isinstance(action, str):
            return self.parse_action(action).code
        if isinstance(action, int) and not isinstance(action, bool) and 0 < action < 2 ** 32:
            return action
        raise ArgumentError("not an action: %r" % (action,), _n.E_ARG)

    def is_legal(self, action: Union[Action, str, int]) -> bool:
        try:
            code = self._code(action)
        except (NotationError, IllegalActionError):
            return False
        return bool(self._check(_lib.ball_is_legal(self._g, code)))

    def apply(self, action: Union[Action, str, int]) -> Action:
        """Plays a decision given as an Action, its N2 text or its code, and
        returns it as an Action. Raises IllegalActionError (game unchanged)."""
        code = self._code(action)
        self._check(_lib.ball_apply(self._g, code))
        return action if isinstance(action, Action) else Action(code)

    def undo(self) -> None:
        """Takes back the last decision; NoHistoryError if there is none."""
        self._check(_lib.ball_undo(self._g))

    @property
    def history_length(self) -> int:
        """How many decisions undo() can take back."""
        return _lib.ball_history_length(self._g)

    def perft(self, depth: int) -> int:
        """The number of decision sequences of exactly ``depth`` decisions (N3)."""
        count = ctypes.c_uint64()
        self._check(_lib.ball_perft(self._g, depth, ctypes.byref(count)))
        return count.value

    # -------------------------------------------------- release phase

    def release_tasks(self) -> List[Task]:
        """The release-phase tasks in square order, solvable or not (R9);
        empty outside the release phase."""
        tasks = (ctypes.c_int * _n.MAX_TASKS)()
        n = self._check(_lib.ball_release_tasks(self._g, tasks, _n.MAX_TASKS))
        return [Task(SQUARES[_lib.ball_task_square(t)], TaskKind(_lib.ball_task_kind(t)),
                     bool(_lib.ball_task_solvable(t))) for t in tasks[:n]]

    def task_solutions(self, square: SquareLike) -> List[Action]:
        """The solutions of the task on ``square``; IllegalActionError when
        there is no task there."""
        n = self._check(_lib.ball_task_solutions(self._g, square_index(square),
                                                 self._actions, _n.MAX_ACTIONS))
        return self._action_list(n)

    # -------------------------------------------------- selection (R12)

    def select(self, chosen: Sequence[Union[str, int, Verb]] = ()) -> Tuple[list, Optional[Action]]:
        """One step of ball_select(): given the choices made so far (a
        square, a Verb or its text, a square, a square, the keeper's
        square), returns ``(choices, action)``: the next step's choices
        (square names, or Verbs at step 2) and the whole action when the
        choices made already form one (else None). Raises
        IllegalActionError when they lead to no legal action. The game is
        never changed."""
        if len(chosen) > 5:
            raise ArgumentError("at most 5 choices", _n.E_ARG)
        values = []
        for i, choice in enumerate(chosen):
            values.append(int(Verb.parse(choice)) if i == 1 else square_index(choice))
        arr = (ctypes.c_int * max(1, len(values)))(*values)
        out = (ctypes.c_int * _n.NUM_SQUARES)()
        action = ctypes.c_uint32()
        n = self._check(_lib.ball_select(self._g, arr, len(values), out, _n.NUM_SQUARES,
                                         ctypes.byref(action)))
        step = len(values)
        choices = [Verb(v) if step == 1 else SQUARES[v] for v in out[:n]]
        return choices, (Action(action.value) if action.value else None)

    def selection(self) -> "Selection":
        """An empty selection to build an action one choice at a time."""
        return Selection(self, ())


class Selection:
    """An action being chosen step by step (R12): piece, verb, destination,
    exit / push / lower square, keeper. Immutable: ``choose()`` returns a
    new Selection, ``cancel()`` an empty one; the game never changes until
    you apply ``action``."""

    __slots__ = ("game", "chosen", "choices", "action")

    def __init__(self, game: Game, chosen: tuple):
        self.game = game
        self.chosen = tuple(chosen)
        self.choices, self.action = game.select(self.chosen)

    def choose(self, choice: Union[str, int, Verb]) -> "Selection":
        """The selection with one more choice; IllegalActionError if it is
        not among ``choices``."""
        return Selection(self.game, self.chosen + (choice,))

    def back(self) -> "Selection":
        """The selection without its last choice."""
        return Selection(self.game, self.chosen[:-1])

    def cancel(self) -> "Selection":
        """An empty selection (the ESC key of R12)."""
        return Selection(self.game, ())

    @property
    def complete(self) -> bool:
        return self.action is not None

    def __repr__(self):
        return "<Selection %s -> %s>" % (
            " ".join(str(c) for c in self.chosen) or "(empty)",
            self.action if self.action else self.choices)
