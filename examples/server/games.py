# SPDX-License-Identifier: MIT
"""The games of the server: seats, events, outcomes, checked by libball.

A ``Session`` is one game: its libball ``Game`` (the rules are libball's,
never the client's), its seats (ATK and DEF, each a person holding a
secret token or the library's turn searcher), its events numbered from 1
(``seq``), the standing draw offer and the outcome. It does no I/O: the
server asks it to ``propose()`` an event for a message, commits the event
to storage, then ``accept()``s it (or ``revert()``s it when the commit
failed), so that memory, storage and what the clients are told agree.

Events (docs/server.md): ``decision`` (an N2 action, the BPN after it),
``resign``, ``draw_offer``, ``draw_decline``, ``draw`` (agreed), ``time``
(a loss on time). An event that ends the game carries the ``outcome``:
``{"result": "1-0" | "0-1" | "1/2-1/2", "reason": "game" | "resign" |
"draw" | "time"}``; "game" is an end by the rules (R11).
"""

import hashlib
import hmac
import secrets
import time
from typing import Any, Dict, List, Optional

import libball

from protocol import Message, Refused

SIDES = ("ATK", "DEF")
RESULT_TOKEN = {libball.Result.ATK_WON: "1-0", libball.Result.DEF_WON: "0-1",
                libball.Result.DRAW: "1/2-1/2"}
#: The searcher's budgets a game may ask for (decisions searched per move).
BOT_NODES_MIN, BOT_NODES_MAX = 100, 200000
TURN_SECONDS_MAX = 86400
MAX_RULES_TEXT = 1023
MAX_NAME = 40


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A game's id: 96 random bits, so that private games cannot be listed."""
    return secrets.token_urlsafe(12)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _side_name(team: libball.Team) -> str:
    return "ATK" if team == libball.Team.ATK else "DEF"


def _winner_token(side: str) -> str:
    return "1-0" if side == "ATK" else "0-1"


def check_name(name: Any, what: str = "name") -> str:
    """A player's or an event's name: printable text of at most MAX_NAME
    characters; Refused("bad_game") else."""
    if not isinstance(name, str) or len(name) > MAX_NAME or not name.isprintable():
        raise Refused("bad_game", "%s must be printable text of at most %d characters"
                      % (what, MAX_NAME))
    return name


def check_options(options: Any) -> Dict[str, Any]:
    """The options of a new game, checked; Refused("bad_game", ...) else.

    {"rules": rules text, "atk"/"def": "human" | "bot", "bot_nodes": int,
     "turn_seconds": int (0: no clock), "public": bool, "open_seat": bool,
     "atk_name"/"def_name": str, "event": str}"""
    if not isinstance(options, dict):
        raise Refused("bad_game", "the game's options are a JSON object")
    known = {"rules", "atk", "def", "bot_nodes", "turn_seconds", "public", "open_seat",
             "atk_name", "def_name", "event"}
    for k in options:
        if k not in known:
            raise Refused("bad_game", "unknown option %r (known: %s)" % (str(k)[:40], ", ".join(sorted(known))))
    rules = options.get("rules", "")
    if not isinstance(rules, str) or len(rules) > MAX_RULES_TEXT:
        raise Refused("bad_game", "rules must be a rules text of at most %d characters" % MAX_RULES_TEXT)
    try:
        with libball.Game(rules_text=rules) as g:
            rules = g.rules_text
    except libball.BallError as e:
        raise Refused("bad_game", "rules: %s" % e) from None
    seats = {}
    for side in SIDES:
        kind = options.get(side.lower(), "human")
        if kind not in ("human", "bot"):
            raise Refused("bad_game", "%s must be \"human\" or \"bot\"" % side.lower())
        name = check_name(options.get(side.lower() + "_name", ""), side.lower() + "_name")
        seats[side] = {"kind": kind, "name": name}
    nodes = options.get("bot_nodes", 2000)
    if type(nodes) is not int or not BOT_NODES_MIN <= nodes <= BOT_NODES_MAX:
        raise Refused("bad_game", "bot_nodes must be an integer from %d to %d"
                      % (BOT_NODES_MIN, BOT_NODES_MAX))
    clock = options.get("turn_seconds", 0)
    if type(clock) is not int or not 0 <= clock <= TURN_SECONDS_MAX:
        raise Refused("bad_game", "turn_seconds must be an integer from 0 (no clock) to %d"
                      % TURN_SECONDS_MAX)
    event = check_name(options.get("event", ""), "event")
    if type(options.get("public", False)) is not bool:
        raise Refused("bad_game", "public must be true or false")
    open_seat = options.get("open_seat", False)
    if open_seat is True:
        open_seat = "DEF"
    if open_seat not in (False,) + SIDES:
        raise Refused("bad_game", "open_seat must be true (DEF), \"ATK\", \"DEF\" or false")
    humans = [s for s in SIDES if seats[s]["kind"] == "human"]
    if open_seat and len(humans) != 2:
        raise Refused("bad_game", "open_seat needs two human seats (the second is left for the lobby)")
    return {"rules": rules, "seats": seats, "bot_nodes": nodes, "turn_seconds": clock,
            "public": options.get("public", False), "open_seat": open_seat, "event": event}


class Session:
    """One game. ``meta`` is what storage keeps besides the events."""

    def __init__(self, game_id: str, meta: Dict[str, Any]) -> None:
        self.id = game_id
        self.meta = meta
        self.game = libball.Game(rules_text=meta["rules"])
        self.events: List[Dict[str, Any]] = []
        self.draw_offer: Optional[str] = None
        self.outcome: Optional[Dict[str, Any]] = None
        self.turn_started = meta.get("created", time.time())
        self._side: Optional[str] = None
        self._turn_key = self._key()
        self.lock: Any = None           # the server's asyncio.Lock
        self.watchers: set = set()       # the server's connections

    @classmethod
    def create(cls, options: Dict[str, Any], now: Optional[float] = None,
               reserved: Optional[Dict[str, Optional[str]]] = None):
        """A new game from checked options; returns (session, {side: token})
        with the tokens given out. The open seat (``open_seat``) and those
        of ``reserved`` ({side: token hash of an earlier game's seat, or
        None}, a rematch) get no token: they are claimed later, the
        reserved ones only with a token of that hash."""
        tokens = {}
        meta = dict(options)
        meta["created"] = time.time() if now is None else now
        reserved = reserved or {}
        seats = {}
        for side in SIDES:
            seat = dict(options["seats"][side])
            if side in reserved or side == options["open_seat"]:
                seat["unclaimed"] = True
                if reserved.get(side):
                    seat["reserved"] = reserved[side]
            elif seat["kind"] == "human":
                tokens[side] = new_token()
                seat["token_hash"] = token_hash(tokens[side])
            seats[side] = seat
        meta["seats"] = seats
        return cls(new_game_id(), meta), tokens

    # -------------------------------------------------- reading

    @property
    def seq(self) -> int:
        """The seq of the last event (0: none yet)."""
        return len(self.events)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def has_person(self) -> bool:
        """A seat held by a person (its bot's turns go first in the pool)."""
        return any(self.meta["seats"][s]["kind"] == "human" for s in SIDES)

    def side_to_act(self) -> str:
        """ATK or DEF (kept between changes: asked several times a decision)."""
        if self._side is None:
            self._side = _side_name(self.game.side)
        return self._side

    def seat_of(self, token: Optional[str]) -> Optional[str]:
        """The side whose token this is, or None (a spectator, no token).
        Refused("bad_token") for a token of no seat of this game."""
        if token is None:
            return None
        h = token_hash(token)
        found = None
        for side in SIDES:
            known = self.meta["seats"][side].get("token_hash")
            # compare every seat, in constant time
            if known is not None and hmac.compare_digest(known, h):
                found = side
        if found is None:
            raise Refused("bad_token", "this token holds no seat of this game")
        return found

    def deadline(self) -> Optional[float]:
        """When the side to act loses on time (None: no clock, over, or a
        seat still open: the clock runs once both seats are held, the turn
        under way counted from then, ``meta["started"]``)."""
        if self.over or not self.meta["turn_seconds"]:
            return None
        if any(v.get("unclaimed") for v in self.meta["seats"].values()):
            return None
        return max(self.turn_started, self.meta.get("started", 0)) + self.meta["turn_seconds"]

    def state(self) -> Dict[str, Any]:
        """What a client needs to show the game now."""
        g = self.game
        out = self.summary()
        out.update(bpn=g.bpn, draw_offer=self.draw_offer, deadline=self.deadline())
        return out

    def summary(self) -> Dict[str, Any]:
        """What the lobby lists of the game: its seats (who holds each:
        a person, open, kept for a rematch, or the bot and its strength),
        rules, clock and progress."""
        seats = {s: {"kind": v["kind"], "name": v["name"], "unclaimed": bool(v.get("unclaimed")),
                     "reserved": bool(v.get("reserved"))}
                 for s, v in self.meta["seats"].items()}
        bot = any(v["kind"] == "bot" for v in seats.values())
        return {"game": self.id, "rules": self.meta["rules"], "seats": seats,
                "seq": self.seq, "side": self.side_to_act(), "turn": self.game.turn,
                "outcome": self.outcome, "turn_seconds": self.meta["turn_seconds"],
                "bot_nodes": self.meta["bot_nodes"] if bot else None,
                "public": self.meta["public"], "event": self.meta.get("event", ""),
                "created": self.meta.get("created"), "watchers": len(self.watchers),
                "rematch": self.meta.get("rematch"), "rematch_by": self.meta.get("rematch_by"),
                "rematch_of": self.meta.get("rematch_of")}

    # -------------------------------------------------- changing

    def _key(self):
        return (self.game.turn, self.side_to_act())

    def _finish_by_rules(self) -> Optional[Dict[str, Any]]:
        if not self.game.is_over:
            return None
        return {"result": RESULT_TOKEN[self.game.result], "reason": "game"}

    def propose(self, side: Optional[str], msg: Message, now: Optional[float] = None) -> Dict[str, Any]:
        """The event that ``msg`` from seat ``side`` (None: a spectator)
        would add, or Refused. A decision is applied to the game already:
        ``accept()`` or ``revert()`` must follow."""
        if side is None:
            raise Refused("spectator", "spectators cannot change the game")
        if self.over:
            raise Refused("game_over", "the game is over")
        if msg.seq != self.seq + 1:
            raise Refused("stale_seq", "seq %d: the next event of this game is %d"
                          % (msg.seq, self.seq + 1))
        other = "DEF" if side == "ATK" else "ATK"
        event: Dict[str, Any] = {"seq": self.seq + 1, "kind": None, "side": side,
                                 "ts": round(time.time() if now is None else now, 3)}
        if msg.type == "decision":
            to_act = self.side_to_act()
            if side != to_act:
                raise Refused("not_your_turn", "%s is to act" % to_act)
            try:
                action = self.game.parse_action(msg.action)
            except libball.BallError as e:
                raise Refused("illegal", str(e)) from None
            try:
                self.game.apply(action)  # checked: an illegal one changes nothing
                self._side = None
            except libball.IllegalActionError:
                raise Refused("illegal", "%s is not legal here" % msg.action) from None
            except libball.BallError as e:  # e.g. LimitError: past BALL_MAX_TURN
                raise Refused("illegal", str(e)) from None
            event.update(kind="decision", action=action.text, bpn=self.game.bpn)
            outcome = self._finish_by_rules()
            if outcome:
                event["outcome"] = outcome
        elif msg.type == "resign":
            event.update(kind="resign", outcome={"result": _winner_token(other), "reason": "resign"})
        elif msg.type == "offer_draw":
            if self.draw_offer is not None:
                raise Refused("draw_pending", "%s's draw offer stands (accept_draw or decline_draw)"
                              % self.draw_offer)
            event.update(kind="draw_offer")
        elif msg.type in ("accept_draw", "decline_draw"):
            if self.draw_offer != other:
                raise Refused("no_draw_offer", "%s has no draw offer standing" % other)
            if msg.type == "accept_draw":
                event.update(kind="draw", outcome={"result": "1/2-1/2", "reason": "draw"})
            else:
                event.update(kind="draw_decline")
        else:
            raise Refused("unknown_type", "%s does not change a game" % msg.type)
        return event

    def propose_timeout(self, now: Optional[float] = None) -> Optional[Dict[str, Any]]:
        """The loss on time of the side to act, if its time is up."""
        deadline = self.deadline()
        now = time.time() if now is None else now
        if deadline is None or now < deadline:
            return None
        side = self.side_to_act()
        other = "DEF" if side == "ATK" else "ATK"
        return {"seq": self.seq + 1, "kind": "time", "side": side, "ts": round(now, 3),
                "outcome": {"result": _winner_token(other), "reason": "time"}}

    def revert(self, event: Dict[str, Any]) -> None:
        if event["kind"] == "decision":
            self.game.undo()
            self._side = None

    def accept(self, event: Dict[str, Any]) -> None:
        """The event is committed: it becomes part of the game."""
        assert event["seq"] == self.seq + 1
        self.events.append(event)
        kind = event["kind"]
        if kind == "draw_offer":
            self.draw_offer = event["side"]
        elif kind in ("draw_decline", "draw"):
            self.draw_offer = None
        elif kind == "decision" and self.draw_offer is not None and self.draw_offer != event["side"]:
            # a decision of the side offered a draw declines it
            self.draw_offer = None
        if "outcome" in event:
            self.outcome = event["outcome"]
            self.draw_offer = None
        key = self._key()
        if key != self._turn_key:
            self._turn_key = key
            self.turn_started = event["ts"]

    def replay(self, event: Dict[str, Any]) -> None:
        """An event read back from storage (start-up): applied as it was."""
        if event.get("seq") != self.seq + 1:
            raise ValueError("game %s: event %r out of order" % (self.id, event.get("seq")))
        if event["kind"] == "decision":
            self.game.apply(event["action"])
            self._side = None
        self.accept(event)

    # -------------------------------------------------- the record

    def record(self) -> str:
        """The game record (docs/records.md). An end the rules do not know
        (resignation, agreed draw, loss on time) keeps the result `*` of
        the position, as the record format requires, and says how the game
        ended in a comment line before it."""
        tags = {"event": self.meta.get("event") or "libball server game %s" % self.id,
                "site": "libball server",
                "date": time.strftime("%Y-%m-%d", time.gmtime(self.meta.get("created", 0))),
                "ATK": self.meta["seats"]["ATK"]["name"] or self.meta["seats"]["ATK"]["kind"],
                "DEF": self.meta["seats"]["DEF"]["name"] or self.meta["seats"]["DEF"]["kind"]}
        text = self.game.record(**tags)
        if self.outcome and self.outcome["reason"] != "game":
            how = {"resign": "%s resigned" % self.events[-1]["side"],
                   "draw": "draw agreed",
                   "time": "%s lost on time" % self.events[-1]["side"]}[self.outcome["reason"]]
            lines = text.rstrip("\n").split("\n")
            lines.insert(len(lines) - 1, "{%s: %s}" % (how, self.outcome["result"]))
            text = "\n".join(lines) + "\n"
        return text

    def close(self) -> None:
        self.game.close()
