# SPDX-License-Identifier: MIT
"""The Pythonic layer over libball: Game, Action, Piece, SquareContents,
Task and Selection. Squares are given as names ("G5") or indices (0-110)
and returned as names.

Integer arguments are checked before they reach C: a value that the C
parameter's type cannot hold raises RangeError (a ValueError) instead of
being truncated by ctypes, and a non-integral value (a float, a str, or a
bool: True/False are rejected, not read as 1/0) raises ArgumentError (a
ValueError). Text arguments must be str without NUL characters (a NUL would
cut the text short in C): BpnError, NotationError or RulesError otherwise.
"""

import ctypes
import enum
import operator
import os
import random as _random
import re
import weakref
from array import array
from dataclasses import dataclass
from typing import (IO, TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Mapping, NamedTuple,
                    Optional, Sequence, Tuple, TypeVar, Union, overload)

from . import _native as _n
from .errors import (ArgumentError, BallError, BpnError, ClosedGameError, IllegalActionError,
                     NotationError, RangeError, RecordError, RulesError, error_for)

_lib = _n.lib
# The hot calls of Game go through the C extension libball._speed
# (_speed.c), bound below once Action exists; where it cannot be built (or
# under LIBBALL_SPEED=ctypes), through the same functions over ctypes
# (_speed_ctypes.py). Game holds its C game in a _speed.Guard.
if _n.speed is not None:
    _speed: Any = _n.speed
else:
    from . import _speed_ctypes as _speed
_getrandbits = _random.getrandbits

# ---------------------------------------------------------------- enums
# The values come from _native's mirror of ball.h (one source, checked
# against the header by tests/test_header_constants.py).


class Team(enum.IntEnum):
    """The two teams (R2.1); the values are those of ball.h."""

    ATK = _n.ATK
    DEF = _n.DEF

    @property
    def opponent(self) -> "Team":
        return Team(1 - self)

    def __str__(self) -> str:
        return self.name


class Phase(enum.IntEnum):
    """The phases of a turn (R4.1)."""

    ACTION = _n.PHASE_ACTION
    RELEASE = _n.PHASE_RELEASE

    def __str__(self) -> str:
        return self.name.lower()


class Result(enum.IntEnum):
    """The state of the game (R11)."""

    ONGOING = _n.ONGOING
    ATK_WON = _n.ATK_WON
    DEF_WON = _n.DEF_WON
    DRAW = _n.DRAW

    @property
    def winner(self) -> Optional[Team]:
        return {Result.ATK_WON: Team.ATK, Result.DEF_WON: Team.DEF}.get(self)

    def __str__(self) -> str:
        return self.name.lower()


# The members by value, for the hot properties (a dict lookup, where
# calling the enum class takes several times as long).
_TEAMS: Dict[int, Team] = {int(t): t for t in Team}
_RESULTS: Dict[int, Result] = {int(r): r for r in Result}


class PieceType(enum.IntEnum):
    """Piece types (R2.1); S is the square piece (BALL_SQUARE)."""

    X = _n.X
    O = _n.O  # noqa: E741 - the rules' own name
    S = _n.SQUARE

    def __str__(self) -> str:
        return self.name


class ActionKind(enum.IntEnum):
    """Kinds of decisions (R5-R10)."""

    MOVE = _n.MOVE
    DODGE = _n.DODGE
    TACTICAL_DODGE = _n.TACTICAL_DODGE
    BLOCK = _n.BLOCK
    PROTECT = _n.PROTECT
    HANDOFF = _n.HANDOFF
    SHORT_PASS = _n.SHORT_PASS
    LONG_PASS = _n.LONG_PASS
    END = _n.END
    STAND_UP = _n.STAND_UP
    UNBLOCK = _n.UNBLOCK
    UNPROTECT = _n.UNPROTECT
    CONVERT_PA = _n.CONVERT_PA  #: card mode (R10.2): `pe+k`
    PLAY_CARD = _n.PLAY_CARD    #: card mode (R10.4): `cardN`, `cardN@SQ`

    def __str__(self) -> str:
        return self.name.lower()


class ActionFlag(enum.IntFlag):
    """Flags of an action."""

    NONE = 0
    PICKUP = _n.FLAG_PICKUP                #: the mover takes the loose ball (R8.1)
    FORCED_FUMBLE = _n.FLAG_FORCED_FUMBLE  #: the dodged piece held the ball (R6.1)
    FUMBLE = _n.FLAG_FUMBLE                #: the pushed piece held the ball (R6.2)


class Keeper(enum.IntEnum):
    """Who keeps the ball after a release (R9.3)."""

    NONE = _n.KEEPER_NONE
    UPPER = _n.KEEPER_UPPER
    LOWER = _n.KEEPER_LOWER


class Verb(enum.IntEnum):
    """Step 2 of a selection (R12); ``text`` is the N2 separator."""

    MOVE = _n.VERB_MOVE
    HANDOFF = _n.VERB_HANDOFF
    SHORT_PASS = _n.VERB_SHORT_PASS
    LONG_PASS = _n.VERB_LONG_PASS
    CARD = _n.VERB_CARD  #: card mode: a card that targets the piece

    @property
    def text(self) -> str:
        return _VERB_TEXT[self]

    @classmethod
    def parse(cls, value: Union["Verb", int, str]) -> "Verb":
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

    def __str__(self) -> str:
        return self.text


_VERB_TEXT = {Verb.MOVE: "-", Verb.HANDOFF: "=", Verb.SHORT_PASS: "^",
              Verb.LONG_PASS: "^^", Verb.CARD: "card"}


class TaskKind(enum.IntEnum):
    """Kinds of release tasks (R9)."""

    STAND_UP = _n.TASK_STAND_UP
    RELEASE = _n.TASK_RELEASE

    def __str__(self) -> str:
        return self.name.lower()


class CardEffect(enum.IntEnum):
    """Card effect primitives (R10.5), as read by ``Game.cards()``."""

    GAIN_PA = _n.EFFECT_GAIN_PA        #: gain ``amount`` PA this action phase
    UNRESTRICT = _n.EFFECT_UNRESTRICT  #: the restricted piece may act again

    def __str__(self) -> str:
        return self.name.lower()


# ---------------------------------------------------------------- arguments


def _c_int(value: object, what: str, lo: int = _n.INT_MIN, hi: int = _n.INT_MAX) -> int:
    """``value`` as a Python int that fits the C type [lo, hi]: ArgumentError
    for a non-integer (bool included), RangeError when out of range."""
    if isinstance(value, bool):
        raise ArgumentError("%s is an integer, not a bool" % what, _n.E_ARG)
    try:
        value = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentError("%s is an integer, not %r" % (what, value), _n.E_ARG) from None
    if not lo <= value <= hi:
        raise RangeError("%s %d out of range (%d to %d)" % (what, value, lo, hi), _n.E_RANGE)
    return value


def _c_text(text: object, what: str, error: Callable[[str, int], BallError] = ArgumentError,
            code: int = _n.E_ARG) -> bytes:
    """``text`` (a str without NUL) as bytes for a ``const char *``."""
    if not isinstance(text, str):
        raise ArgumentError("%s is a str, not %s" % (what, type(text).__name__), _n.E_ARG)
    if "\0" in text:
        raise error("%s contains a NUL character at index %d" % (what, text.index("\0")), code)
    try:
        return text.encode()
    except UnicodeEncodeError as e:  # a lone surrogate: no UTF-8 form
        raise error("%s is not well-formed Unicode: a lone surrogate U+%04X at index %d"
                    % (what, ord(text[e.start]), e.start), code) from None


def _team(team: object) -> int:
    """A team given as a Team, 0/1 or "ATK"/"DEF"."""
    if isinstance(team, str):
        try:
            return Team[team.upper()]
        except KeyError:
            raise ArgumentError("a team is ATK or DEF, not %r" % team, _n.E_ARG) from None
    value = _c_int(team, "team")
    if value not in (Team.ATK, Team.DEF):
        raise ArgumentError("a team is 0 (ATK) or 1 (DEF), not %d" % value, _n.E_ARG)
    return value


# ---------------------------------------------------------------- squares

SquareLike = Union[str, int]


def _square_name(index: int) -> str:
    buf = ctypes.create_string_buffer(_n.SQUARE_TEXT_MAX)
    rc = _lib.ball_square_to_text(index, buf, len(buf))
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
    rc: int = _lib.ball_square_at(_c_int(col, "column"), _c_int(row, "row"))
    if rc < 0:
        raise error_for(rc, "no playable square at column %d, row %d" % (col, row))
    return SQUARES[rc]


def square_col(square: SquareLike) -> int:
    """The column of a square, 1 (A) to 13 (M)."""
    return int(_lib.ball_square_col(square_index(square)))


def square_row(square: SquareLike) -> int:
    """The row of a square, 1 to 17."""
    return int(_lib.ball_square_row(square_index(square)))


def distance(a: SquareLike, b: SquareLike) -> int:
    """The distance between two squares (R1.3)."""
    return int(_lib.ball_square_distance(square_index(a), square_index(b)))


def _square_or_none(rc: int, what: str) -> Optional[str]:
    """The name of square ``rc``, None for BALL_NO_SQUARE; raises for an
    error code."""
    if rc == _n.NO_SQUARE:
        return None
    if rc < 0:
        raise error_for(rc, what)
    return SQUARES[rc]


def _ok(rc: int, what: str) -> int:
    """``rc`` of a call that takes no game, or its exception."""
    if rc < 0:
        raise error_for(rc, what)
    return rc


# ---------------------------------------------------------------- actions


_TEXTS: Dict[int, str] = {}      # action code -> N2 text, filled on demand
_ACTIONS: Dict[int, "Action"] = {}  # action code -> its (interned) Action
_CACHE_MAX = 1 << 16


def _action_text(code: int) -> str:
    """The N2 text of a valid action code (cached); raises for a bad code."""
    text = _TEXTS.get(code)
    if text is None:
        buf = ctypes.create_string_buffer(_n.ACTION_TEXT_MAX)
        rc = _lib.ball_action_to_text(code, buf, len(buf))
        if rc < 0:
            raise error_for(rc, "not an action code: %#x" % code)
        text = buf.value.decode()
        if len(_TEXTS) >= _CACHE_MAX:
            _TEXTS.clear()
        _TEXTS[code] = text
    return text


class Action:
    """One whole decision (an action, ``end`` or a release-task solution).

    An Action holds only the library's 32-bit code; its N2 text and its
    fields are computed when read (the text once per code). Immutable and
    hashable. ``str(action)`` is its N2 text. Two actions are equal when
    they are the same decision (the same code); an action also compares
    equal to its text, so ``"end" in game.legal_actions()`` works.
    ``int(action)`` is the code.
    """

    __slots__ = ("_code",)
    if TYPE_CHECKING:
        _code: int

    def __init__(self, code: Union["Action", int]) -> None:
        if isinstance(code, Action):
            code = code._code
        if not isinstance(code, int) or isinstance(code, bool) or not 0 < code < 2 ** 32:
            raise ArgumentError("not an action code: %r" % (code,), _n.E_ARG)
        _action_text(code)  # validates the code
        _set_code(self, code)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> Tuple[type, Tuple[int]]:
        return (Action, (self._code,))

    @property
    def code(self) -> int:
        """The library's 32-bit code of the decision."""
        return self._code

    @property
    def text(self) -> str:
        """The N2 text ("G5-F6", "E9-E7/D6", "end", ...)."""
        return _TEXTS.get(self._code) or _action_text(self._code)

    @property
    def kind(self) -> ActionKind:
        return ActionKind(_ok(_lib.ball_action_kind(self._code), "action kind"))

    @property
    def from_square(self) -> Optional[str]:
        """The mover, carrier, knocked-down piece, stack or a card's target;
        None when there is none (end, pe+k, a card without target)."""
        return _square_or_none(_lib.ball_action_from(self._code), "action square")

    @property
    def to_square(self) -> Optional[str]:
        """Destination, dodge target, landing, receiver, ball square, or the
        upper piece's square of a release; None for end and card actions."""
        return _square_or_none(_lib.ball_action_to(self._code), "action square")

    @property
    def option_square(self) -> Optional[str]:
        """Dodge exit, push square, or the lower piece's square of a
        release; None otherwise."""
        return _square_or_none(_lib.ball_action_option(self._code), "action square")

    @property
    def keeper(self) -> Keeper:
        return Keeper(_ok(_lib.ball_action_keeper(self._code), "action keeper"))

    @property
    def flags(self) -> ActionFlag:
        return ActionFlag(_ok(_lib.ball_action_flags(self._code), "action flags"))

    @property
    def cost(self) -> int:
        """PA cost (R4.3): 0, 1 or 2; k for a conversion `pe+k`."""
        return _ok(_lib.ball_action_cost(self._code), "action cost")

    @property
    def value(self) -> Optional[int]:
        """The number a card-mode action carries: k of a conversion `pe+k`,
        the 0-based hand index of a card play; None for other actions.
        (Added with libball 1.0: ball_action_value().)"""
        rc = _lib.ball_action_value(self._code)
        return None if rc == _n.E_ARG else _ok(rc, "action value")

    @property
    def is_pickup(self) -> bool:
        return bool(self.flags & ActionFlag.PICKUP)

    @property
    def is_conversion(self) -> bool:
        """Card mode: a conversion `pe+k` of k PA into k PE (R10.2)."""
        return bool(_lib.ball_action_kind(self._code) == _n.CONVERT_PA)

    @property
    def is_card_play(self) -> bool:
        """Card mode: the play of a card (R10.4); ``value`` is its hand
        index, ``from_square`` its target (or None)."""
        return bool(_lib.ball_action_kind(self._code) == _n.PLAY_CARD)

    def __str__(self) -> str:
        return _TEXTS.get(self._code) or _action_text(self._code)

    def __repr__(self) -> str:
        return "Action(%r)" % self.text

    def __int__(self) -> int:
        return self._code

    def __index__(self) -> int:
        return self._code

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._code == other._code
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        # Equal codes have equal texts, and an action equals its text.
        return hash(self.text)


_set_code: Callable[[Action, int], None] = getattr(Action, "_code").__set__  # the slot
_new_action = object.__new__


def _action(code: int) -> Action:
    """The Action of a code the library gave (no validation needed)."""
    action = _ACTIONS.get(code)
    if action is None:
        action = _new_action(Action)
        _set_code(action, code)
        if len(_ACTIONS) >= _CACHE_MAX:
            _ACTIONS.clear()
        _ACTIONS[code] = action
    return action


def _speed_error(rc: int, message: str) -> None:
    """The exception of a failed _speed call: ``message`` is the game's
    (ball_errmsg()), as Game._check gives it."""
    raise error_for(rc, message)


def _speed_closed() -> None:
    raise ClosedGameError("the game is closed", None)


def _speed_missing(name: str) -> None:
    raise BallError("the loaded libball lacks %s() (experimental tier)" % name, None)


_speed.bind(_n.addresses(), _speed_error, _speed_closed, _speed_missing, _action, _ACTIONS)
_game_new = _speed.game_new

ActionLike = Union[Action, str, int]

_CODES = "I" if array("I").itemsize == 4 else "L"


class LegalActions(Sequence[Action]):
    """The legal decisions of one position, as ``Game.legal_actions()``
    returns them: a read-only sequence of Actions in the library's fixed
    order, filled by one C call. It holds the 32-bit codes only; an Action
    is made when an element is read. ``len()``, ``in`` (an Action, its N2
    text or its code), iteration, indexing and slicing work as on a list
    (and a LegalActions equals the list of the same actions). It is a
    snapshot: it does not change when the game plays on."""

    __slots__ = ("_codes",)

    def __init__(self, codes: Sequence[int]) -> None:
        self._codes = codes

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> List[Action]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Action, List[Action]]:
        if isinstance(index, slice):
            return [_action(code) for code in self._codes[index]]
        return _action(self._codes[index])

    def __iter__(self) -> Iterator[Action]:
        return iter(_speed.actions(self._codes))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Action):
            return item._code in self._codes
        if isinstance(item, str):
            return any(_action_text(code) == item for code in self._codes)
        if isinstance(item, int) and not isinstance(item, bool):
            return item in self._codes
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return self._codes == other._codes
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "LegalActions([%s])" % ", ".join(map(str, self.texts()))

    @property
    def codes(self) -> Tuple[int, ...]:
        """The library's codes, in order."""
        return tuple(self._codes)

    def texts(self) -> List[str]:
        """The N2 texts, in order."""
        return [_action_text(code) for code in self._codes]


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

    def __str__(self) -> str:
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

    def __str__(self) -> str:
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
    """The rule options of a game (R1.4, R11.2). The whole ruleset,
    card mode included, is ``Game.rules_text``."""

    end_zone_depth: int = 1
    turn_limit: int = 0


class Card(NamedTuple):
    """A card of a hand (card mode, R10), as listed by ``Game.cards()`` and
    as given to ``Game(cards=...)``."""

    name: str
    cost: int
    effect: CardEffect
    amount: int


class EarnEntry(enum.IntEnum):
    """The entries of the PE earning table (R10.3); ``text`` is the word of
    the rules text (``earn.<text>=N``)."""

    MOVE = _n.EARN_MOVE
    PICKUP = _n.EARN_PICKUP
    DODGE = _n.EARN_DODGE
    FORCED_FUMBLE = _n.EARN_FORCED_FUMBLE
    TACTICAL_DODGE = _n.EARN_TACTICAL_DODGE
    BLOCK = _n.EARN_BLOCK
    PROTECT = _n.EARN_PROTECT
    HANDOFF = _n.EARN_HANDOFF
    SHORT_PASS = _n.EARN_SHORT_PASS
    LONG_PASS = _n.EARN_LONG_PASS
    STAND_UP = _n.EARN_STAND_UP
    UNBLOCK = _n.EARN_UNBLOCK
    UNPROTECT = _n.EARN_UNPROTECT

    @property
    def text(self) -> str:
        return _EARN_TEXT[self]

    def __str__(self) -> str:
        return self.text


_EARN_TEXT = dict(zip(EarnEntry, ("move", "pickup", "dodge", "fumble", "tactical", "block",
                                  "protect", "handoff", "short", "long", "standup", "unblock",
                                  "unprotect")))
_EARN_BY_NAME: Dict[str, EarnEntry] = {text: entry for entry, text in _EARN_TEXT.items()}
_EARN_BY_NAME.update({entry.name.lower(): entry for entry in EarnEntry})

#: An earning-table key: an EarnEntry, its number, its rules-text word
#: ("move", "fumble", "short", ...) or its enum name ("forced_fumble").
EarnKey = Union[EarnEntry, int, str]
#: A card: (name, cost, effect, amount) with effect a CardEffect, its
#: number or name ("gain_pa", "unrestrict"); or (name, cost, effect text)
#: with the text of the rules form ("pa+2", "again").
CardLike = Union[Card, Tuple[str, int, Union[CardEffect, int, str], int],
                 Tuple[str, int, str]]
TeamLike = Union["Team", int, str]


def _earn_entry(key: EarnKey) -> int:
    if isinstance(key, str):
        entry = _EARN_BY_NAME.get(key.lower())
        if entry is None:
            raise ArgumentError("not an earning entry: %r (one of %s)"
                                % (key, " ".join(_EARN_TEXT.values())), _n.E_ARG)
        return entry
    value = _c_int(key, "earning entry")
    if value not in EarnEntry.__members__.values():
        raise ArgumentError("not an earning entry: %d" % value, _n.E_ARG)
    return value


def _card_fields(card: CardLike) -> Tuple[str, int, int, int]:
    """(name, cost, effect, amount) of a card given in one of the CardLike
    forms."""
    if not isinstance(card, tuple) or len(card) not in (3, 4):
        raise ArgumentError("a card is (name, cost, effect, amount) or (name, cost, "
                            "'pa+N' / 'again'), not %r" % (card,), _n.E_ARG)
    name, cost, effect = card[0], card[1], card[2]
    amount: Any = card[3] if len(card) == 4 else None  # type: ignore[misc]
    if isinstance(effect, str):
        low = effect.lower()
        if low.startswith("pa+") and amount is None:
            effect, amount = CardEffect.GAIN_PA, _c_int(int(low[3:]) if low[3:].isdigit()
                                                        else low, "card amount")
        elif low == "again" and amount is None:
            effect, amount = CardEffect.UNRESTRICT, 0
        elif low.upper() in CardEffect.__members__:
            effect = CardEffect[low.upper()]
        else:
            raise ArgumentError("not a card effect: %r" % card[2], _n.E_ARG)
    if amount is None:
        amount = 0
    return (name, _c_int(cost, "card cost"), _c_int(effect, "card effect"),
            _c_int(amount, "card amount"))


def _make_cardset(earn: Optional[Mapping[EarnKey, int]],
                  cards: Optional[Mapping[TeamLike, Iterable[CardLike]]]) -> int:
    """A new ball_cardset (its address) built from keyword arguments; the
    caller frees it."""
    out = ctypes.c_void_p()
    rc = _lib.ball_cardset_new(ctypes.byref(out))
    if rc < 0:
        raise error_for(rc, "cannot create a card set")
    cs: int = out.value or 0
    try:
        for key, pe in (earn or {}).items():
            entry = _earn_entry(key)
            rc = _lib.ball_cardset_set_earn(cs, entry, _c_int(pe, "PE of earn.%s" % _EARN_TEXT[
                EarnEntry(entry)]))
            if rc < 0:
                raise error_for(rc, "earn.%s=%r: a PE is 0 to %d"
                                % (_EARN_TEXT[EarnEntry(entry)], pe, _n.MAX_CARD_PE))
        for team, deck in (cards or {}).items():
            t = _team(team)
            for card in deck:
                name, cost, effect, amount = _card_fields(card)
                data = _c_text(name, "a card name")
                rc = _lib.ball_cardset_add_card(cs, t, data, cost, effect, amount)
                if rc < 0:
                    raise error_for(rc, "card %r of %s: a hand holds at most %d cards named "
                                    "with 1-%d letters, digits, _ or -, costing 0-%d PE, "
                                    "with a valid effect and amount"
                                    % (card, Team(t).name, _n.MAX_HAND, _n.CARD_NAME_MAX - 1,
                                       _n.MAX_CARD_PE))
    except BaseException:
        _lib.ball_cardset_free(cs)
        raise
    return cs


def _make_rules(end_zone_depth: Optional[int], turn_limit: Optional[int],
                rules_text: Optional[str], earn: Optional[Mapping[EarnKey, int]] = None,
                cards: Optional[Mapping[TeamLike, Iterable[CardLike]]] = None
                ) -> Tuple[_n.BallRules, Optional[int]]:
    """(BallRules, card set pointer or None): the ruleset read from
    ``rules_text`` (ball_rules_from_text()), then the explicit options. The
    caller frees the card set once the game is created."""
    depth = None if end_zone_depth is None else _c_int(end_zone_depth, "end zone depth")
    limit = None if turn_limit is None else _c_int(turn_limit, "turn limit", 0, _n.UINT_MAX)
    rules = _n.new_rules()
    out = ctypes.c_void_p()
    if rules_text is not None:
        text = _c_text(rules_text, "the rules text", RulesError, _n.E_RULES)
        err = ctypes.create_string_buffer(_n.ERR_MAX)
        rc = _lib.ball_rules_from_text(ctypes.byref(rules), ctypes.byref(out), text,
                                       err, len(err))
        if rc < 0:
            raise error_for(rc, err.value.decode(errors="replace"))
    cs: Optional[int] = out.value
    if earn is not None or cards is not None:
        if cs:
            _lib.ball_cardset_free(cs)
            raise ArgumentError("the card ruleset is given twice: by rules_text and by "
                                "earn= / cards=", _n.E_ARG)
        cs = _make_cardset(earn, cards)
        rules.cards = cs
    if depth is not None:
        rules.end_zone_depth = depth
    if limit is not None:
        rules.turn_limit = limit
    return rules, cs


def _restore(bpn: str, rules_text: str, moves: Sequence[int] = (),
             tags: Optional[Mapping[str, str]] = None) -> "Game":
    """Unpickling: the game of ``rules_text`` at ``bpn``, then ``moves``,
    with the record's ``tags``."""
    game = Game(bpn, rules_text=rules_text)
    for code in moves:
        game.apply(code)
    for name, value in (tags or {}).items():
        game.set_tag(name, value)
    return game


#: The tags of a game record (docs/records.md), by their names in the
#: record, as ``Game.tags`` gives them; ``Game.set_tag()`` and
#: ``Game.record()`` also take them in lower case (``event``, ``atk``, ...).
TAGS: Tuple[str, ...] = ("Event", "Site", "Date", "ATK", "DEF")
_TAG_INDEX = {name.lower(): i for i, name in enumerate(TAGS)}


def _tag_index(name: object) -> int:
    if not isinstance(name, str) or name.lower() not in _TAG_INDEX:
        raise ArgumentError("a record tag is one of %s, not %r" % (", ".join(TAGS), name),
                            _n.E_ARG)
    return _TAG_INDEX[name.lower()]


def _squares_arg(squares: Union[SquareLike, Iterable[SquareLike]]
                 ) -> Tuple["ctypes.Array[ctypes.c_int]", int]:
    """Squares (names or indices; one square alone too) as a C int array
    and its length, for the drawing calls."""
    if isinstance(squares, (str, int)):
        squares = (squares,)
    indices = [square_index(sq) for sq in squares]
    return (ctypes.c_int * max(len(indices), 1))(*indices), len(indices)


def _record_error(rc: int, message: str) -> BallError:
    """The exception for a failed ball_record_read(): RecordError for every
    malformed record (``code`` says which check failed: E_RECORD, E_RULES,
    E_BPN, E_NOTATION, E_ILLEGAL, E_LIMIT), the usual class otherwise."""
    if rc in (_n.E_RECORD, _n.E_RULES, _n.E_BPN, _n.E_NOTATION, _n.E_ILLEGAL, _n.E_LIMIT):
        return RecordError(message or str(_lib.ball_strerror(rc).decode()), rc)
    return error_for(rc, message)


#: The line that ends a record (docs/records.md: a result token alone,
#: spaces, tabs and a CR allowed after it), as read_records() finds it in
#: a stream of lines.
_RESULT_LINE = re.compile(rb"(?:1-0|0-1|1/2-1/2|\*)[ \t\r]*\n?")


def read_records(source: Union[str, bytes, bytearray, "os.PathLike[str]", IO[str], IO[bytes]]
                 ) -> Iterator["Game"]:
    """The games of game records (docs/records.md), one after the other,
    each with its ruleset, start, tags and history (so ``move_stack``
    lists its decisions). ``source`` is the text (a str or bytes), a file
    object open for reading (text or binary, as python-chess's PGN reader
    takes one), or a path (a ``pathlib.Path`` or other ``os.PathLike``; a
    str is always the text itself). A file or a path is read as a stream,
    one record at a time: the next record is read when the iteration
    reaches it, and memory holds one record, not the file. A path's file
    is closed when the iteration ends (or the iterator is closed); a file
    object stays the caller's to close.

    Lazy: a malformed record raises RecordError (its message says the
    line and column, counted from the start of the text or the file;
    ``line`` and ``column`` hold them) when the iteration reaches it,
    after the games before it. Each Game is the caller's (close it, or
    let the garbage collector free it). ArgumentError for anything else."""
    if isinstance(source, str):
        yield from _records_of(_c_text(source, "the record text", RecordError, _n.E_RECORD))
    elif isinstance(source, (bytes, bytearray)):
        yield from _records_of(bytes(source))
    elif isinstance(source, os.PathLike):
        yield from _records_of_path(source)
    elif callable(getattr(source, "readline", None)):
        yield from _records_of_stream(source)
    else:
            raise ArgumentError("read_records() takes a record text (str or bytes), a file object or "
                            "a path (os.PathLike), not %s" % type(source).__name__, _n.E_ARG)


def _records_of(data: bytes, first_line: int = 1) -> Iterator["Game"]:
    """The games of the records in ``data``, read by the library; an error's
    line is counted from ``first_line``, the line ``data`` starts on."""
    offset = ctypes.c_size_t(0)
    err = ctypes.create_string_buffer(_n.ERR_MAX)
    while True:
        out = ctypes.c_void_p()
        rc = _lib.ball_record_read(ctypes.byref(out), data, len(data), ctypes.byref(offset),
                                   err, len(err))
        if rc < 0:
            message = err.value.decode(errors="replace")
            if first_line > 1:  # the library counts from the start of data
                message = re.sub(r"\bline (\d+)",
                                 lambda m: "line %d" % (int(m.group(1)) + first_line - 1),
                                 message, count=1)
            raise _record_error(rc, message)
        if rc == 0 or out.value is None:
            return
        game = Game.__new__(Game)
        game._adopt(out.value)
        yield game


def _records_of_path(path: "os.PathLike[str]") -> Iterator["Game"]:
    try:
        f = open(path, "rb")
    except OSError as e:
        raise ArgumentError("cannot read the records of %s: %s" % (os.fspath(path), e.strerror or e),
                            _n.E_ARG) from e
    with f:
        yield from _records_of_stream(f)


def _records_of_stream(f: Union[IO[str], IO[bytes]]) -> Iterator["Game"]:
    """The games of a file's records, one record in memory at a time: the
    lines up to a result line (the one line of a well-formed record that is
    a result token alone) go to the library together; what follows the
    last one (a truncated record, say) goes at the end, where the library
    says what is wrong. A text file's str is written as UTF-8, a lone
    surrogate included, for the library to refuse with its line and
    column like any byte that is not UTF-8."""
    lines: List[bytes] = []
    first = 1  # the line the pending lines start on
    number = 0
    while True:
        line = f.readline()
        if not line:
            break
        number += 1
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")
        elif not isinstance(line, (bytes, bytearray)):
            raise ArgumentError("read_records(): the file gave %s, not str or bytes"
                                % type(line).__name__, _n.E_ARG)
        lines.append(bytes(line))
        if _RESULT_LINE.fullmatch(line):
            yield from _records_of(b"".join(lines), first)
            lines = []
            first = number + 1
    if lines:
        yield from _records_of(b"".join(lines), first)


# ---------------------------------------------------------------- the game


_OwnedT = TypeVar("_OwnedT", bound="_Owned")


class _Owned:
    """An object that owns one C handle: ``_handle`` (the pointer as an
    int, None once closed), freed by ``_free`` under ``_lock``, the lock
    every call on the handle holds. ``close()``, a ``with`` block or the
    garbage collector frees it; using it afterwards raises ClosedGameError
    naming ``_what``."""

    _handle: Optional[int] = None
    _lock: Any  # a threading.RLock; Game's is its _speed.Guard
    _free: Any  # the C function that frees the handle, kept for interpreter exit
    _what = "object"

    def close(self) -> None:
        """Frees the C object now. Further use raises ClosedGameError;
        closing twice is harmless. Waits for a call in progress in another
        thread."""
        lock = self.__dict__.get("_lock")
        if lock is None:  # __init__ failed before the C object existed
            return
        with lock:
            handle, self._handle = self._handle, None
            if handle is not None:
                self._free(handle)

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self: _OwnedT) -> _OwnedT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - never raise from __del__
            pass

    def _live(self) -> int:
        """The handle; call with the lock held."""
        handle = self._handle
        if handle is None:
            raise ClosedGameError("the %s is closed" % self._what, None)
        return handle


class RecordText(str):
    """The text of ``Game.record``: a ``str``, the game record. Calling it
    is the 1.0 spelling ``game.record()`` (the same text, a plain ``str``)
    or ``game.record(event=..., ATK=...)`` (the record with these tags for
    this record only; ClosedGameError once the game is closed). It keeps
    no game alive, and pickles and copies as a plain ``str``."""

    _game: "Optional[weakref.ReferenceType[Game]]"

    def __new__(cls, text: str, game: "Optional[Game]" = None) -> "RecordText":
        self = super().__new__(cls, text)
        self._game = weakref.ref(game) if game is not None else None
        return self

    def __call__(self, **tags: Optional[str]) -> str:
        if not tags:
            return str(self)
        game = self._game() if self._game is not None else None
        if game is None:
            raise ClosedGameError("the game of this record is gone", None)
        return game._record(tags)

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        return (str, (str(self),))


class Game(_Owned):
    """A game of BALL: a position, its ruleset and the undo history.

    ``Game()`` is the standard start (R2.2); ``Game(bpn)`` or
    ``Game.from_bpn(bpn)`` starts from a BPN position (N1). Keyword options
    set the ruleset: ``end_zone_depth`` (1-3, default 1), ``turn_limit``
    (0 = none, the default) and ``rules_text``, a whole ruleset in the text
    form of ball_rules_from_text() (e.g. ``"zone=2 earn.move=1
    atk=Sprint:2:pa+1"``, card mode included; the two other options, when
    given, override its values). Card mode (R10) can also be given by
    keywords: ``earn``, the earning table as a dict (``{"move": 1,
    "dodge": 3}``, keys as in ``EarnEntry``), and ``cards``, the hands as a
    dict from team to a list of cards ``(name, cost, effect, amount)``
    (``{"ATK": [("Sprint", 2, "gain_pa", 1)]}``; ``(name, cost, "pa+1")``
    and ``Card`` objects work too); either one turns card mode on. The C
    memory is freed by ``close()``, at the end of a ``with`` block, or by
    the garbage collector, whichever comes first.

    Python protocols: ``str(game)`` is the board diagram, ``repr(game)``
    the expression that rebuilds the position and ruleset; ``==`` compares
    position (BPN) and ruleset; ``copy.copy``/``copy.deepcopy`` clone the
    game (history included); ``pickle`` stores the start BPN, the ruleset
    and the decisions played, so the undo history survives. ``push`` and
    ``pop`` are ``apply`` and ``undo`` returning the decision taken back;
    ``move_stack`` lists the decisions ``undo()`` can take back (the
    library's history, ball_history_action()). ``record`` is the
    game record (docs/records.md) and ``Game.from_record()`` /
    ``read_records()`` read records back; ``svg()`` draws the position
    (``_repr_svg_`` shows it in Jupyter).

    Threads: every call into the C library on this game's handle (close()
    and the garbage collector's finaliser included) is guarded per game, so
    several threads may share one Game: their calls are serialised, never
    interleaved, and close() waits for a call in progress (later calls
    raise ClosedGameError). The guard (``_lock``, a _speed.Guard) is held
    only around the calls that let the interpreter go; the extension's
    calls, which keep it, wait for such a call and are otherwise atomic. A sequence of calls (e.g.
    ``legal_actions()`` then ``apply()``) is not atomic: another thread may
    play in between, so ``apply()`` can raise IllegalActionError. Distinct
    games never wait for each other.
    """

    _what = "game"
    # The Guard in a slot, which the extension reads at its offset.
    __slots__ = ("_lock",)

    def __init__(self, bpn: Optional[str] = None, *, end_zone_depth: Optional[int] = None,
                 turn_limit: Optional[int] = None, rules_text: Optional[str] = None,
                 earn: Optional[Mapping[EarnKey, int]] = None,
                 cards: Optional[Mapping[TeamLike, Iterable[CardLike]]] = None):
        if (end_zone_depth is None and turn_limit is None and rules_text is None
                and earn is None and cards is None):
            made = _game_new(0)  # the default rules, made in C
            depth, limit = 1, 0
        else:
            rules, cards_ptr = _make_rules(end_zone_depth, turn_limit, rules_text, earn, cards)
            try:
                made = _game_new(ctypes.addressof(rules))
            finally:
                _lib.ball_cardset_free(cards_ptr)  # the game has its own copy
            depth, limit = rules.end_zone_depth, rules.turn_limit
        if isinstance(made, tuple):  # (rc, message)
            rc, msg = made
            raise error_for(rc, msg or "cannot create a game (end zone depth %d, turn limit %d)"
                            % (depth, limit))
        self._adopt(made)
        if bpn is not None:
            self.set_bpn(bpn)

    @classmethod
    def from_bpn(cls, text: str, end_zone_depth: Optional[int] = None,
                 turn_limit: Optional[int] = None, rules_text: Optional[str] = None,
                 earn: Optional[Mapping[EarnKey, int]] = None,
                 cards: Optional[Mapping[TeamLike, Iterable[CardLike]]] = None) -> "Game":
        """A game starting from the BPN position ``text`` (N1)."""
        return cls(text, end_zone_depth=end_zone_depth, turn_limit=turn_limit,
                   rules_text=rules_text, earn=earn, cards=cards)

    def _adopt(self, game: Any) -> None:
        """Takes a game: a _speed.Guard, or a pointer (an int) made by
        another call (the record reader's, a batch's clone)."""
        self._lock = game if isinstance(game, _speed.Guard) else _speed.Guard(game)

    @property
    def _handle(self) -> Optional[int]:
        """The game's pointer, None once closed or while hidden (a search's
        info callback: the game reads as closed while the search uses
        it); setting None hides it, a pointer shows it again."""
        guard = getattr(self, "_lock", None)
        handle: Optional[int] = None if guard is None else guard.handle
        return handle

    @_handle.setter
    def _handle(self, value: Optional[int]) -> None:
        guard = getattr(self, "_lock", None)
        if guard is not None:
            guard.hidden = value is None

    def close(self) -> None:
        """Frees the C game now. Further use raises ClosedGameError;
        closing twice is harmless. Waits for a call in progress in another
        thread."""
        guard = getattr(self, "_lock", None)
        if guard is None:  # __init__ failed before the C game existed
            return
        guard.close()

    # -------------------------------------------------- lifetime (close, with: _Owned)

    def _check(self, rc: int) -> int:
        """``rc``, or the exception with the game's message; call with the
        lock held (the message belongs to the last call on the handle)."""
        if rc < 0:
            msg = _lib.ball_errmsg(self._handle).decode(errors="replace")
            raise error_for(rc, msg)
        return rc

    def clone(self) -> "Game":
        """An independent copy: position, ruleset and undo history."""
        made = _speed.game_clone(self._lock)
        if isinstance(made, int):
            raise error_for(made)
        copy = Game.__new__(Game)
        copy._adopt(made)
        return copy

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.clone()

    def __reduce__(self) -> Tuple[Callable[..., "Game"],
                                  Tuple[str, str, Tuple[int, ...], Dict[str, str]]]:
        """Pickling: the position the undo history starts from, the rules
        text, the decisions played since (card hands are in the BPN) and
        the record's tags."""
        with self._lock:
            moves = tuple(a.code for a in self.move_stack)
            return (_restore, (self.history_position(0), self.rules_text, moves,
                               {k: v for k, v in self.tags.items() if v}))

    def __eq__(self, other: object) -> bool:
        """Same position (BPN) under the same ruleset."""
        if not isinstance(other, Game):
            return NotImplemented
        return self.bpn == other.bpn and self.rules_text == other.rules_text

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def rules(self) -> Rules:
        with self._lock:
            rc, rules = _n.read_rules(self._live())
            self._check(rc)
        return Rules(rules.end_zone_depth, rules.turn_limit)

    @property
    def rules_text(self) -> str:
        """The whole ruleset in the text form of ball_rules_to_text() ("" for
        the default rules), as ``Game(rules_text=...)`` reads it. (Added
        with libball 1.0.)"""
        buf = ctypes.create_string_buffer(_n.RULES_TEXT_MAX)
        with self._lock:
            rc, rules = _n.read_rules(self._live())
            self._check(rc)
            _ok(_lib.ball_rules_to_text(ctypes.byref(rules), buf, len(buf)), "rules text")
        return buf.value.decode()

    @property
    def hash(self) -> int:
        """A 64-bit hash of the position (equal positions, equal hashes; the
        turn number is not part of it)."""
        value: int = _speed.hash(self._lock)
        return value

    # -------------------------------------------------- position

    @property
    def bpn(self) -> str:
        """The position as BPN text (N1). Assigning sets the position and
        clears the undo history."""
        text: str = _speed.to_bpn(self._lock)
        return text

    @bpn.setter
    def bpn(self, text: str) -> None:
        self.set_bpn(text)

    def set_bpn(self, text: str) -> None:
        """Replaces the position by the BPN ``text``; raises BpnError (with
        what is wrong and where; also for a text with a NUL character) and
        leaves the game unchanged if invalid."""
        if not isinstance(text, str):
            raise ArgumentError("a BPN is a str, not %s" % type(text).__name__, _n.E_ARG)
        data = _c_text(text, "the BPN", BpnError, _n.E_BPN)
        _speed.from_bpn(self._lock, data)

    def _get(self, fn: Callable[..., int], *args: int) -> int:
        with self._lock:
            return self._check(fn(self._live(), *args))

    @property
    def side(self) -> Team:
        """The coach to act (after a touchdown: the one who scored)."""
        return _TEAMS[_speed.side(self._lock)]

    @property
    def phase(self) -> Phase:
        return Phase(self._get(_lib.ball_phase))

    @property
    def pa(self) -> int:
        """PA left in this action phase (0 in the release phase)."""
        return self._get(_lib.ball_pa)

    @property
    def handoff_last(self) -> bool:
        """True if the last action of this action phase was a hand-off."""
        return bool(self._get(_lib.ball_handoff_last))

    @property
    def turn(self) -> int:
        """The turn number, 1 to BALL_MAX_TURN."""
        turn: int = _speed.turn(self._lock)
        return turn

    @property
    def result(self) -> Result:
        return _RESULTS[_speed.result(self._lock)]

    @property
    def is_over(self) -> bool:
        over: bool = _speed.is_over(self._lock)
        return over

    @property
    def winner(self) -> Optional[Team]:
        """The team that scored, or None."""
        return self.result.winner

    def pe(self, team: TeamLike) -> int:
        """Card mode: the PE of ``team`` (R10.1); 0 outside card mode.
        (Added with libball 1.0.)"""
        return self._get(_lib.ball_pe, _team(team))

    def hand(self, team: TeamLike) -> int:
        """Card mode: the cards still in the hand of ``team`` as a bit mask
        (bit i: ``cards(team)[i]`` can still be played); 0 outside card
        mode. (Added with libball 1.0.)"""
        return self._get(_lib.ball_hand, _team(team))

    def cards(self, team: TeamLike) -> List[Card]:
        """Card mode: the whole hand of ``team`` as dealt (played cards
        included; ``hand()`` says which are left), in hand order; [] outside
        card mode. (Added with libball 1.0.)"""
        t = _team(team)
        result: List[Card] = []
        with self._lock:
            rc, rules = _n.read_rules(self._live())
            self._check(rc)
            cs = rules.cards  # the game's own copy, valid while it lives
            if not cs:
                return []
            for i in range(_ok(_lib.ball_cardset_hand_size(cs, t), "hand size")):
                name = _lib.ball_cardset_card_name(cs, t, i).decode()
                cost, effect, amount = (
                    _ok(_lib.ball_cardset_card_value(cs, t, i, field), "card")
                    for field in (_n.CARD_COST, _n.CARD_EFFECT, _n.CARD_AMOUNT))
                result.append(Card(name, cost, CardEffect(effect), amount))
        return result

    def hand_cards(self, team: TeamLike) -> List[Card]:
        """Card mode: the cards ``team`` still holds (R10.4), in hand order;
        their hand indices are the set bits of ``hand(team)``."""
        mask = self.hand(team)
        return [card for i, card in enumerate(self.cards(team)) if mask >> i & 1]

    @property
    def card_mode(self) -> bool:
        """True if the ruleset has card mode on (R10)."""
        with self._lock:
            rc, rules = _n.read_rules(self._live())
            self._check(rc)
            return bool(rules.cards)

    @property
    def earnings(self) -> Dict[str, int]:
        """Card mode: the earning table (R10.3) as {rules-text word: PE}
        for every entry (``EarnEntry`` gives the words); {} outside card
        mode."""
        with self._lock:
            rc, rules = _n.read_rules(self._live())
            self._check(rc)
            cs = rules.cards
            if not cs:
                return {}
            return {entry.text: _ok(_lib.ball_cardset_earn(cs, entry), "earning entry")
                    for entry in EarnEntry}

    def piece_at(self, square: SquareLike, level: Union[str, int] = "upper") -> Optional[Piece]:
        """The piece on ``square`` (the upper one of a stack, or with
        ``level="lower"`` the lower one), None if there is none."""
        if isinstance(level, str):
            levels = {"upper": _n.UPPER, "lower": _n.LOWER}
            if level not in levels:
                raise ArgumentError("level is 'upper' or 'lower', not %r" % level, _n.E_ARG)
            level = levels[level]
        level = _c_int(level, "level")
        return Piece.from_code(self._get(_lib.ball_piece, square_index(square), level))

    def __getitem__(self, square: SquareLike) -> SquareContents:
        """``game["G5"]``: the contents of a square."""
        index = square_index(square)
        upper = lower = None
        with self._lock:
            g = self._live()
            state = self._check(_lib.ball_square_state(g, index))
            if state & _n.SQ_PIECE:
                upper = Piece.from_code(self._check(_lib.ball_piece(g, index, _n.UPPER)))
                if state & _n.SQ_STACK:
                    lower = Piece.from_code(self._check(_lib.ball_piece(g, index, _n.LOWER)))
        return SquareContents(SQUARES[index], upper, lower,
                              bool(state & _n.SQ_LOOSE_BALL), bool(state & _n.SQ_FRESH))

    def pieces(self) -> Iterator[Tuple[str, Piece]]:
        """Every piece as (square, piece), upper before lower, squares in
        index order (read at once: one position even if another thread
        plays)."""
        with self._lock:
            board = [self[index] for index in range(_n.NUM_SQUARES)]
        for contents in board:
            if contents.upper:
                yield contents.square, contents.upper
            if contents.lower:
                yield contents.square, contents.lower

    @property
    def ball_square(self) -> str:
        """The square of the ball, loose or held."""
        return SQUARES[self._get(_lib.ball_square_of_ball)]

    @property
    def restricted_square(self) -> Optional[str]:
        """The square of the restricted piece of the side to act, or None."""
        with self._lock:
            rc = _lib.ball_restricted_square(self._live())
            if rc == _n.NO_SQUARE:
                return None
            return SQUARES[self._check(rc)]

    def _draw(self, fn: Callable[..., int], *args: Any) -> str:
        """The text a ball_position_to_board_text()-like call writes: sized
        by a first call with no buffer, then written."""
        with self._lock:
            g = self._live()
            n = self._check(fn(g, *args, None, 0))
            buf = ctypes.create_string_buffer(n + 1)
            self._check(fn(g, *args, buf, len(buf)))
        return buf.raw[:n].decode()

    def diagram(self, highlight: Union[SquareLike, Iterable[SquareLike]] = (),
                legend: bool = False) -> str:
        """The board as text, row 17 at the top: the diagram of ``ball
        show`` and the examples, drawn by the library
        (ball_position_to_board_text()), with the end zones marked, a ``>``
        before each square of ``highlight`` and, with ``legend``, two lines
        explaining the letters. Every line ends with a newline."""
        squares, count = _squares_arg(highlight)
        return self._draw(_lib.ball_position_to_board_text, squares, count,
                          _n.DRAW_LEGEND if legend else 0)

    def __str__(self) -> str:
        """The board diagram (``diagram()``) without its last newline."""
        return self.diagram()[:-1]

    def svg(self, highlight: Union[SquareLike, Iterable[SquareLike]] = (),
            action: Optional[ActionLike] = None, coords: bool = True) -> str:
        """The position as an SVG 1.1 picture (ball_position_to_svg(), the
        one drawing of ``ball svg``): the board to scale, the end zones,
        every piece and mark, the squares of ``highlight`` outlined and an
        arrow for ``action`` (an Action, its code, or its N2 text, which
        must then be legal here); without ``coords`` the column letters and
        row numbers are left out. Each piece is a ``<g class="piece atk x
        ball" data-square="G5">``."""
        squares, count = _squares_arg(highlight)
        with self._lock:
            code = _n.ACTION_NONE if action is None else self._code(action)
            return self._draw(_lib.ball_position_to_svg, squares, count, code,
                              0 if coords else _n.DRAW_NO_COORDS)

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: the board as SVG (``svg()``)."""
        return self.svg()

    def __repr__(self) -> str:
        """``libball.Game(BPN)``, with ``rules_text=...`` unless the rules
        are the defaults: evaluated, it rebuilds the position and ruleset."""
        with self._lock:
            if self._handle is None:
                return "<closed libball.Game>"
            rules = self.rules_text
            if rules:
                return "libball.Game(%r, rules_text=%r)" % (self.bpn, rules)
            return "libball.Game(%r)" % self.bpn

    # -------------------------------------------------- actions

    def legal_actions(self) -> LegalActions:
        """The legal decisions, in the library's fixed order (empty once the
        game is over; ``ball legal`` lists the same set in an order of its
        own, see ``ball --help``), as a LegalActions: a sequence filled by
        one C call that makes an Action only for the elements read."""
        return LegalActions(array(_CODES, _speed.legal_codes(self._lock)))

    def count_legal_actions(self) -> int:
        """The number of legal decisions, counted without listing them."""
        count: int = _speed.count_legal(self._lock)
        return count

    def legal_action(self, index: int) -> Action:
        """``legal_actions()[index]`` (0 <= index < count_legal_actions()),
        found without listing the others: with ``random.randrange(n)`` it
        picks a uniform random decision cheaply. Raises RangeError for an
        index out of range."""
        index = _c_int(index, "action index")
        out = ctypes.c_uint32()
        with self._lock:
            self._check(_lib.ball_legal_action_at(self._live(), index, ctypes.byref(out)))
        return _action(out.value)

    def random_action(self, random: Optional[int] = None) -> Action:
        """A legal decision drawn with the 64-bit number ``random`` (default:
        ``random.getrandbits(64)``): the one numbered
        floor(random * n / 2**64) of the n legal decisions, so a uniform
        ``random`` over 0 .. 2**64 - 1 draws a uniform decision; the
        cheapest way to play random playouts. ``random`` is an int in
        0 .. 2**64 - 1 (ArgumentError for anything else: a negative, 2**64
        or more, a bool, a float). Raises RangeError when there is no legal
        decision (the game is over, or stopped at the turn bound)."""
        if random is None:
            random = _getrandbits(64)
        elif type(random) is not int and (not isinstance(random, int) or isinstance(random, bool)):
            raise ArgumentError("random is an int in 0 .. 2**64 - 1", _n.E_ARG)
        elif not 0 <= random < 18446744073709551616:  # 2 ** 64
            raise ArgumentError("random is an int in 0 .. 2**64 - 1", _n.E_ARG)
        action: Action = _speed.random_action(self._lock, random)
        return action

    def parse_action(self, text: str) -> Action:
        """The action of this position written ``text`` (N2). Raises
        NotationError (malformed, or a text with a NUL character) or
        IllegalActionError (no such action)."""
        if not isinstance(text, str):
            raise ArgumentError("an action text is a str", _n.E_ARG)
        data = _c_text(text, "the action text", NotationError, _n.E_NOTATION)
        return _action(_speed.action_from_text(self._lock, data))

    def _code(self, action: ActionLike) -> int:
        if isinstance(action, Action):
            return action._code
        if isinstance(action, str):
            return self.parse_action(action)._code
        if isinstance(action, int) and not isinstance(action, bool) and 0 < action < 2 ** 32:
            return action
        raise ArgumentError("not an action: %r" % (action,), _n.E_ARG)

    def is_legal(self, action: ActionLike) -> bool:
        with self._lock:
            try:
                code = self._code(action)
            except (NotationError, IllegalActionError):
                return False
            return bool(self._check(_lib.ball_is_legal(self._live(), code)))

    def apply(self, action: ActionLike) -> Action:
        """Plays a decision given as an Action, its N2 text or its code, and
        returns it as an Action. Raises IllegalActionError (game unchanged),
        or LimitError when the turn would pass BALL_MAX_TURN."""
        if type(action) is Action:
            _speed.apply(self._lock, action._code)
            return action
        with self._lock:
            code = self._code(action)
            _speed.apply(self._lock, code)
        return _action(code)

    def apply_index(self, index: int) -> None:
        """Plays ``legal_actions()[index]`` (0 <= index <
        count_legal_actions()) in one C call, without the legality check
        of ``apply()``: the library finds and plays its own decision
        (ball_apply_index(), experimental). Raises RangeError (game
        unchanged) for an index out of range, the game over included.
        Returns nothing: ``peek()`` gives the decision played."""
        index = _c_int(index, "action index")
        _speed.apply_index(self._lock, index)

    def random_apply(self, random: Optional[int] = None) -> Action:
        """Plays the decision ``random_action(random)`` draws, in one C call
        and without the legality check of ``apply()``
        (ball_random_apply(), experimental), and returns it. ``random`` as
        for ``random_action()`` (default ``random.getrandbits(64)``).
        Raises RangeError (game unchanged) when there is no legal
        decision."""
        if random is None:
            random = _random.getrandbits(64)
        elif type(random) is not int or not 0 <= random < 2 ** 64:
            raise ArgumentError("random is an int in 0 .. 2**64 - 1", _n.E_ARG)
        action: Action = _speed.random_apply(self._lock, random)
        return action

    def random_playout(self, seed: Optional[int] = None,
                       max_decisions: Optional[int] = None) -> int:
        """Plays random decisions until the game ends or ``max_decisions``
        (default: no limit) have been played, in one C call
        (ball_random_playout(), experimental), and returns how many it
        played (0 when the game is already over). Decision k is the one
        ``random_action()`` draws with output k of a splitmix64 generator
        started at ``seed`` (default ``random.getrandbits(64)``), so a seed
        repeats its playout. Each decision is one entry of the history:
        ``undo()`` as many times as the count returned takes the playout
        back. RangeError for a negative ``max_decisions``, ArgumentError
        for a seed outside 0 .. 2**64 - 1. Without a turn limit (the
        default rules) a random game need not end, and the history grows
        with every decision: bound ``max_decisions`` (seed 465 from the
        start is past 100,000 decisions)."""
        if seed is None:
            seed = _random.getrandbits(64)
        elif type(seed) is not int or not 0 <= seed < 2 ** 64:
            raise ArgumentError("seed is an int in 0 .. 2**64 - 1", _n.E_ARG)
        limit = _n.INT_MAX if max_decisions is None else _c_int(max_decisions, "max_decisions")
        played: int = _speed.random_playout(self._lock, seed, limit)
        return played

    def undo(self) -> None:
        """Takes back the last decision; NoHistoryError if there is none."""
        _speed.undo(self._lock)

    def push(self, action: ActionLike) -> Action:
        """``apply()`` under python-chess's name."""
        return self.apply(action)

    def pop(self) -> Action:
        """Takes back the last decision and returns it (python-chess's
        ``Board.pop()``); NoHistoryError if there is none."""
        last: Action = _speed.pop(self._lock)
        return last

    def peek(self) -> Optional[Action]:
        """The last decision played (the one ``pop()`` takes back), or None."""
        with self._lock:
            if _speed.history_length(self._lock) == 0:
                return None
            last: Action = _speed.history_action(self._lock, -1)
            return last

    def history_action(self, i: int) -> Action:
        """Decision ``i`` of the history (from 0, the oldest; negative
        ``i`` counts from the end like a list index), read from the library
        (ball_history_action()). RangeError when there is no such
        decision."""
        action: Action = _speed.history_action(self._lock, _c_int(i, "history index"))
        return action

    def history_position(self, i: int) -> str:
        """The BPN of the position decision ``i`` was played from
        (ball_history_position()): 0 is the position the game was created
        or last set with, ``history_length`` the current one (negative
        ``i`` counts from the end). The game is not changed."""
        i = _c_int(i, "history index")
        buf = ctypes.create_string_buffer(_n.BPN_MAX)
        with self._lock:
            g = self._live()
            if i < 0:
                i += self._check(_lib.ball_history_length(g)) + 1
            self._check(_lib.ball_history_position(g, i, buf, len(buf)))
        return buf.value.decode()

    @property
    def move_stack(self) -> List[Action]:
        """The decisions ``undo()`` can take back, oldest first (cleared by
        ``set_bpn()``, kept by ``clone()``, ``pickle`` and the game record),
        read from the library's history (ball_history_action())."""
        stack: List[Action] = _speed.history(self._lock)
        return stack

    # -------------------------------------------------- game records

    @property
    def tags(self) -> Dict[str, str]:
        """The record's tags (docs/records.md) as {name: value} for every
        name of ``TAGS`` ("" when unset)."""
        buf = ctypes.create_string_buffer(_n.TAG_TEXT_MAX)
        result = {}
        with self._lock:
            g = self._live()
            for i, name in enumerate(TAGS):
                self._check(_lib.ball_game_tag(g, i, buf, len(buf)))
                result[name] = buf.value.decode()
        return result

    def set_tag(self, name: str, value: Optional[str]) -> None:
        """Sets the record tag ``name`` (one of ``TAGS``, any case) to
        ``value`` (UTF-8 text of at most BALL_TAG_TEXT_MAX - 1 bytes without
        control characters; "" or None clears it). Tags survive
        ``set_bpn()`` and are copied by ``clone()``."""
        index = _tag_index(name)
        data = None if value is None else _c_text(value, "the value of tag %s" % TAGS[index],
                                                   RangeError, _n.E_RANGE)
        with self._lock:
            self._check(_lib.ball_game_set_tag(self._live(), index, data))

    @property
    def record(self) -> "RecordText":
        """The game record (docs/records.md): the tags, the ruleset, the
        start position when it is not the standard start, the decisions of
        the history one turn per line, and the result
        (ball_record_write()), as a ``str`` (a RecordText), as JavaScript's
        ``game.record`` is. ``Game.from_record()`` reads it back. The value
        can also be called, as in 1.0 where ``record`` was a method:
        ``game.record()`` is the same text, and ``game.record(event=...)``
        the record with tags set for that record only (``event=``,
        ``site=``, ``date=``, ``ATK=``, ``DEF=``; None or "" leaves one
        out); the game's own tags are unchanged."""
        return RecordText(self._record({}), self)

    def _record(self, tags: Mapping[str, Optional[str]]) -> str:
        with self._lock:
            saved = self.tags
            try:
                for name, value in tags.items():
                    self.set_tag(name, value)
                return self._draw(_lib.ball_record_write)
            finally:
                for name, value in saved.items():
                    _lib.ball_game_set_tag(self._live(), _tag_index(name), value.encode())

    @classmethod
    def from_record(cls, text: Union[str, bytes]) -> "Game":
        """The game of a text holding one game record (blank lines around
        it allowed): its ruleset, start, tags and history. RecordError
        (with the line and column) for a malformed record, for a text with
        no record or with more than one (``read_records()`` reads
        several)."""
        games = read_records(text)
        game = next(games, None)
        if game is None:
            raise RecordError("line 1, column 1: no game record in the text", _n.E_RECORD)
        try:
            extra = next(games, None)
        except BaseException:
            game.close()
            raise
        if extra is not None:
            extra.close()
            game.close()
            raise RecordError("the text holds more than one game record "
                              "(libball.read_records() reads them all)", _n.E_RECORD)
        return game

    # -------------------------------------------------- card mode (R10)

    def conversions(self) -> List[Action]:
        """Card mode: the legal conversions `pe+k` (R10.2), k ascending."""
        return [a for a in self.legal_actions() if a.is_conversion]

    def card_plays(self) -> List[Action]:
        """Card mode: the legal card plays (R10.4), in the library's order;
        ``value`` is the hand index, ``from_square`` the target or None."""
        return [a for a in self.legal_actions() if a.is_card_play]

    def convert(self, k: int) -> Action:
        """Card mode: plays `pe+k`, turning k PA into k PE (R10.2)."""
        return self.apply("pe+%d" % _c_int(k, "PA to convert", 1, _n.MAX_PA))

    def play_card(self, card: Union[int, str], target: Optional[SquareLike] = None) -> Action:
        """Card mode: plays the card of hand index ``card`` (from 0) or of
        that name (the first one still in hand) of the side to act, on the
        square ``target`` when the card needs one (R10.4, R10.5)."""
        if isinstance(card, str):
            with self._lock:
                side = self.side
                mask = self.hand(side)
                names = [i for i, c in enumerate(self.cards(side))
                         if c.name == card and mask >> i & 1]
            if not names:
                raise IllegalActionError("%s holds no card named %r" % (side, card),
                                         _n.E_ILLEGAL)
            index = names[0]
        else:
            index = _c_int(card, "hand index", 0, _n.MAX_HAND - 1)
        text = "card%d" % (index + 1)
        if target is not None:
            text += "@" + square_name(target)
        return self.apply(text)

    @property
    def history_length(self) -> int:
        """How many decisions undo() can take back."""
        length: int = _speed.history_length(self._lock)
        return length

    def perft(self, depth: int) -> int:
        """The number of decision sequences of exactly ``depth`` decisions
        (N3), 0 <= depth <= BALL_MAX_PERFT_DEPTH."""
        depth = _c_int(depth, "perft depth")
        count = ctypes.c_uint64()
        with self._lock:
            self._check(_lib.ball_perft(self._live(), depth, ctypes.byref(count)))
        return count.value

    # -------------------------------------------------- release phase

    def release_tasks(self) -> List[Task]:
        """The release-phase tasks in square order, solvable or not (R9);
        empty outside the release phase."""
        tasks = (ctypes.c_int32 * _n.MAX_TASKS)()
        with self._lock:
            n = self._check(_lib.ball_release_tasks(self._live(), tasks, _n.MAX_TASKS))
        return [Task(SQUARES[_ok(_lib.ball_task_square(t), "task")],
                     TaskKind(_ok(_lib.ball_task_kind(t), "task")),
                     bool(_ok(_lib.ball_task_solvable(t), "task"))) for t in tasks[:n]]

    def task_solutions(self, square: SquareLike) -> List[Action]:
        """The solutions of the task on ``square``; IllegalActionError when
        there is no task there."""
        index = square_index(square)
        out = (ctypes.c_uint32 * _n.MAX_ACTIONS)()
        with self._lock:
            n = self._check(_lib.ball_task_solutions(self._live(), index, out, _n.MAX_ACTIONS))
            codes = out[:n]
        return [Action(code) for code in codes]

    # -------------------------------------------------- selection (R12)

    def select(self, chosen: Sequence[Union[str, int, Verb]] = ()) -> Tuple[List[Union[str, Verb]], Optional[Action]]:
        """One step of ball_select(): given the choices made so far (a
        square, a Verb or its text, a square, a square, the keeper's
        square), returns ``(choices, action)``: the next step's choices
        (square names, or Verbs at step 2) and the whole action when the
        choices made already form one (else None). Raises
        IllegalActionError when they lead to no legal action. The game is
        never changed."""
        if len(chosen) > _n.SELECT_STEPS:
            raise ArgumentError("at most %d choices" % _n.SELECT_STEPS, _n.E_ARG)
        values = []
        for i, choice in enumerate(chosen):
            values.append(int(Verb.parse(choice)) if i == 1 else square_index(choice))
        arr = (ctypes.c_int * _n.SELECT_STEPS)(*values)
        out = (ctypes.c_int * _n.NUM_SQUARES)()
        action = ctypes.c_uint32()
        with self._lock:
            n = self._check(_lib.ball_select(self._live(), arr, len(values), out,
                                             _n.NUM_SQUARES, ctypes.byref(action)))
        step = len(values)
        choices: List[Union[str, Verb]] = [Verb(v) if step == 1 else SQUARES[v] for v in out[:n]]
        return choices, (Action(action.value) if action.value else None)

    def selection(self) -> "Selection":
        """An empty selection to build an action one choice at a time."""
        return Selection(self, ())


def _legal_of(codes: bytes) -> LegalActions:
    return LegalActions(array(_CODES, codes))


#: The hot methods and properties of Game that the extension carries as
#: its own method descriptors (_speed.c, "Game's methods"): called without
#: a Python frame. The Python definitions above stay: the extension hands
#: them the unusual arguments (their checks and exceptions are the one
#: implementation), they give the docstrings, and they are the methods of
#: the ctypes fallback.
_C_PROPERTIES = ("is_over", "result", "side", "hash", "history_length", "move_stack", "bpn")
_C_METHODS = ("undo", "pop", "peek", "count_legal_actions", "legal_actions", "random_action",
              "apply", "history_action")


def _install_methods() -> None:
    if not hasattr(_speed, "methods"):  # _speed_ctypes: the Python methods stay
        return
    python = {name: Game.__dict__[name] for name in _C_PROPERTIES + _C_METHODS + ("set_bpn",)}
    made = _speed.methods(Game, python, tuple(sorted(Result, key=int)),
                          tuple(sorted(Team, key=int)), _random.getrandbits, _legal_of, Action)
    for name in _C_PROPERTIES + _C_METHODS:
        setattr(Game, name, made[name])


_install_methods()


class Selection:
    """An action being chosen step by step (R12): piece, verb, destination,
    exit / push / lower square, keeper. Immutable: ``choose()`` returns a
    new Selection, ``cancel()`` an empty one; the game never changes until
    you apply ``action``."""

    __slots__ = ("game", "chosen", "choices", "action")

    def __init__(self, game: Game, chosen: Tuple[Union[str, int, Verb], ...]) -> None:
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

    def __repr__(self) -> str:
        return "<Selection %s -> %s>" % (
            " ".join(str(c) for c in self.chosen) or "(empty)",
            self.action if self.action else self.choices)
