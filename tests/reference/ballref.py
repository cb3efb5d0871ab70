"""Independent reference implementation of BALL (Python 3, standard library).

Written from the rules text alone (the project's docs/spec.md restates it),
to cross-check libball.  It covers
R1-R9, R11 and the notations N1 (BPN), N2 (action text) and N3 (perft) of the
default ruleset (no card mode, no turn limit); the end-zone depth is a
parameter (R1.4).

Public API:
    parse_bpn(text, depth=1) -> State     (ValueError on invalid text)
    format_bpn(state) -> str
    legal_actions(state) -> list of action texts in square order (as `ball
                            legal` prints them: G9 before G13, end last)
    apply(state, text) -> new State         (ValueError on illegal action)
    perft(state, depth) -> int
    winner(state) -> 'ATK' / 'DEF' / None
    START_BPN
"""

import re
import sys

START_BPN = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"

NCOLS = 13
NROWS = 17
ATK = 0
DEF = 1
SIDE_NAMES = ("ATK", "DEF")

# --------------------------------------------------------------------------
# Geometry (R1).  A square is an index (r-1)*13 + (c-1).


def sq(c, r):
    return (r - 1) * NCOLS + (c - 1)


def col(i):
    return i % NCOLS + 1


def row(i):
    return i // NCOLS + 1


def on_board(c, r):
    return 1 <= c <= NCOLS and 1 <= r <= NROWS


def name(i):
    return chr(ord("A") + col(i) - 1) + str(row(i))


PLAYABLE = [sq(c, r) for r in range(1, NROWS + 1) for c in range(1, NCOLS + 1)
            if (c + r) % 2 == 0]
assert len(PLAYABLE) == 111


def dist(a, b):
    return max(abs(col(a) - col(b)), abs(row(a) - row(b)))


NEIGH = [[] for _ in range(NCOLS * NROWS)]
for _s in PLAYABLE:
    for _dc in (-1, 1):
        for _dr in (-1, 1):
            _c, _r = col(_s) + _dc, row(_s) + _dr
            if on_board(_c, _r):
                NEIGH[_s].append(sq(_c, _r))

DIAG1 = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
DIAG2 = [(-2, -2), (2, -2), (-2, 2), (2, 2)]
ORTH2 = [(-2, 0), (2, 0), (0, -2), (0, 2)]
PATTERNS = {
    "X": DIAG1 + DIAG2,
    "O": DIAG1 + ORTH2,
    "S": DIAG1 + DIAG2 + ORTH2,
}

# MOVES[kind][square] = list of (destination, intermediate, two_square)
# intermediate is None for 1-square moves and 2-square orthogonal moves (R5.2).
MOVES = {}
for _k, _vecs in PATTERNS.items():
    _tab = [[] for _ in range(NCOLS * NROWS)]
    for _s in PLAYABLE:
        for (_dc, _dr) in _vecs:
            _c, _r = col(_s) + _dc, row(_s) + _dr
            if not on_board(_c, _r):
                continue
            _two = abs(_dc) == 2 or abs(_dr) == 2
            _mid = None
            if abs(_dc) == 2 and abs(_dr) == 2:
                _mid = sq(col(_s) + _dc // 2, row(_s) + _dr // 2)
            _tab[_s].append((sq(_c, _r), _mid, _two))
    MOVES[_k] = _tab

# --------------------------------------------------------------------------
# State.
#
# A board cell is one of:
#   None                                   vacant
#   '@'                                    loose ball
#   ('p', team, kind, ball, down, restr)   one piece
#   ('s', upper, lower, fresh)             stack; upper/lower are 'p' tuples
# Pieces inside a stack: upper has down=False restr=False, lower has ball=False
# restr=False (its 'down' is the state it gets back on release).

BALL = "@"


def P(team, kind, ball=False, down=False, restr=False):
    return ("p", team, kind, ball, down, restr)


class State(object):
    __slots__ = ("board", "side", "phase", "pa", "handoff", "pe", "turn", "depth")

    def __init__(self, board, side, phase, pa, handoff, pe, turn, depth=1):
        self.board = board
        self.side = side
        self.phase = phase
        self.pa = pa
        self.handoff = handoff
        self.pe = pe
        self.turn = turn
        self.depth = depth

    def copy(self):
        return State(list(self.board), self.side, self.phase, self.pa,
                     self.handoff, self.pe, self.turn, self.depth)

    def __eq__(self, other):
        return format_bpn(self) == format_bpn(other)

    def __repr__(self):
        return "State(%r)" % format_bpn(self)


def in_target_zone(team, r, depth):
    if team == ATK:
        return r > NROWS - depth
    return r <= depth


def winner(st):
    """R11.1: the team whose ball holder stands in its target end zone."""
    b = st.board
    for s in PLAYABLE:
        c = b[s]
        if c is None or c == BALL:
            continue
        holder = c if c[0] == "p" else c[1]
        if holder[3]:
            if in_target_zone(holder[1], row(s), st.depth):
                return SIDE_NAMES[holder[1]]
            return None
    return None


# --------------------------------------------------------------------------
# N1 notation


def _piece_text(p):
    t = p[2] if p[1] == ATK else p[2].lower()
    if p[3]:
        t += "*"
    if p[4]:
        t += "_"
    if p[5]:
        t += "!"
    return t


def format_bpn(st):
    b = st.board
    groups = []
    for r in range(NROWS, 0, -1):
        out = []
        run = 0
        for c in range(1, NCOLS + 1):
            if (c + r) % 2:
                continue
            cell = b[sq(c, r)]
            if cell is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            if cell == BALL:
                out.append("@")
            elif cell[0] == "p":
                out.append(_piece_text(cell))
            else:
                out.append("[" + _piece_text(cell[1]) + _piece_text(cell[2]) + "]"
                           + ("+" if cell[3] else ""))
        if run:
            out.append(str(run))
        groups.append("".join(out))
    return "%s %s %s %d %s %d/%d %d" % (
        "/".join(groups), SIDE_NAMES[st.side], st.phase, st.pa,
        "h" if st.handoff else "-", st.pe[0], st.pe[1], st.turn)


def _parse_piece(g, i, where):
    """Parse a piece letter and its marks at g[i]; return (letter, marks, next i)."""
    ch = g[i]
    if ch not in "XOSxos":
        raise ValueError("%s: expected a piece letter, got %r" % (where, ch))
    i += 1
    marks = ""
    for m in "*_!":
        if i < len(g) and g[i] == m:
            marks += m
            i += 1
    if i < len(g) and g[i] in "*_!":
        raise ValueError("%s: marks out of order or repeated after %r" % (where, ch))
    return ch, marks, i


def _nat(text, what):
    if not text or not text.isdigit() or not all(ch in "0123456789" for ch in text):
        raise ValueError("%s: not a number: %r" % (what, text))
    if len(text) > 1 and text[0] == "0":
        raise ValueError("%s: leading zero in %r" % (what, text))
    return int(text)


def parse_bpn(text, depth=1):
    if not isinstance(text, str):
        raise ValueError("BPN must be a string")
    if text.endswith("\n"):
        text = text[:-1]
    if "\n" in text or "\r" in text or "\t" in text:
        raise ValueError("BPN must be one line with fields separated by single spaces")
    fields = text.split(" ")
    if len(fields) != 7:
        raise ValueError("BPN needs 7 fields separated by single spaces, got %d" % len(fields))
    placement, side_t, phase_t, pa_t, ho_t, pe_t, turn_t = fields
    if not 1 <= depth <= 3:
        raise ValueError("end-zone depth must be 1-3")

    groups = placement.split("/")
    if len(groups) != NROWS:
        raise ValueError("placement needs 17 groups, got %d" % len(groups))
    board = [None] * (NCOLS * NROWS)
    balls = 0
    count = [0, 0]
    for gi, g in enumerate(groups):
        r = NROWS - gi
        cols = [c for c in range(1, NCOLS + 1) if (c + r) % 2 == 0]
        where = "row %d" % r
        if not g:
            raise ValueError("%s: empty group" % where)
        pos = 0  # squares filled so far
        i = 0
        prev_digit = False

        def take(cell):
            if pos >= len(cols):
                raise ValueError("%s: group describes more than %d squares" % (where, len(cols)))
            board[sq(cols[pos], r)] = cell

        while i < len(g):
            ch = g[i]
            if ch in "0123456789":
                if prev_digit:
                    raise ValueError("%s: touching digits" % where)
                n = int(ch)
                if n < 1 or n > 7:
                    raise ValueError("%s: bad run length %r" % (where, ch))
                if pos + n > len(cols):
                    raise ValueError("%s: group describes more than %d squares" % (where, len(cols)))
                pos += n
                i += 1
                prev_digit = True
                continue
            prev_digit = False
            here = "%s %s" % (where, name(sq(cols[pos], r)) if pos < len(cols) else "?")
            if ch == "@":
                take(BALL)
                balls += 1
                pos += 1
                i += 1
            elif ch in "XOSxos":
                letter, marks, i = _parse_piece(g, i, here)
                team = ATK if letter.isupper() else DEF
                if "*" in marks and "_" in marks:
                    raise ValueError("%s: knocked-down carrier" % here)
                if "!" in marks and "_" in marks:
                    raise ValueError("%s: restricted piece that is not active" % here)
                if "*" in marks:
                    balls += 1
                take(P(team, letter.upper(), "*" in marks, "_" in marks, "!" in marks))
                count[team] += 1
                pos += 1
            elif ch == "[":
                i += 1
                if i >= len(g):
                    raise ValueError("%s: unterminated stack" % here)
                ul, um, i = _parse_piece(g, i, here)
                if i >= len(g):
                    raise ValueError("%s: unterminated stack" % here)
                ll, lm, i = _parse_piece(g, i, here)
                if i >= len(g) or g[i] != "]":
                    raise ValueError("%s: stack must be [upper lower]" % here)
                i += 1
                fresh = False
                if i < len(g) and g[i] == "+":
                    fresh = True
                    i += 1
                if "_" in um:
                    raise ValueError("%s: knocked-down upper piece" % here)
                if "!" in um:
                    raise ValueError("%s: restricted upper piece" % here)
                if "*" in lm:
                    raise ValueError("%s: lower piece holds the ball" % here)
                if "!" in lm:
                    raise ValueError("%s: restricted piece that is not active (lower)" % here)
                if "*" in um:
                    balls += 1
                ut = ATK if ul.isupper() else DEF
                lt = ATK if ll.isupper() else DEF
                count[ut] += 1
                count[lt] += 1
                take(("s", P(ut, ul.upper(), "*" in um), P(lt, ll.upper(), False, "_" in lm), fresh))
                pos += 1
            else:
                raise ValueError("%s: unexpected character %r" % (where, ch))
        if pos != len(cols):
            raise ValueError("%s: group describes %d squares, needs %d" % (where, pos, len(cols)))

    if balls != 1:
        raise ValueError("placement has %d balls, needs exactly one" % balls)
    for t in (ATK, DEF):
        if count[t] > 7:
            raise ValueError("%s has %d pieces, at most 7" % (SIDE_NAMES[t], count[t]))

    if side_t not in SIDE_NAMES:
        raise ValueError("side must be ATK or DEF, got %r" % side_t)
    side = SIDE_NAMES.index(side_t)
    if phase_t not in ("a", "r"):
        raise ValueError("phase must be a or r, got %r" % phase_t)
    if pa_t not in ("0", "1", "2"):
        raise ValueError("pa must be 0-2, got %r" % pa_t)
    pa = int(pa_t)
    if ho_t not in ("h", "-"):
        raise ValueError("handoff must be h or -, got %r" % ho_t)
    handoff = ho_t == "h"
    pe_parts = pe_t.split("/")
    if len(pe_parts) != 2:
        raise ValueError("pe must be <ATK PE>/<DEF PE>, got %r" % pe_t)
    pe = (_nat(pe_parts[0], "pe"), _nat(pe_parts[1], "pe"))
    if pe != (0, 0):
        raise ValueError("pe must be 0/0 outside card mode, got %r" % pe_t)
    turn = _nat(turn_t, "turn")
    if turn < 1:
        raise ValueError("turn must be at least 1")

    if phase_t == "r":
        if pa != 0:
            raise ValueError("PA > 0 in the release phase")
        if handoff:
            raise ValueError("hand-off flag in the release phase")
    for s in PLAYABLE:
        c = board[s]
        if c is None or c == BALL:
            continue
        if c[0] == "p":
            if c[5]:
                if phase_t == "r":
                    raise ValueError("%s: restricted piece in the release phase" % name(s))
                if not c[3] or c[1] != side:
                    raise ValueError("%s: '!' on a piece that is not an active carrier of the side to act" % name(s))
        else:
            if c[3] and c[1][1] != side:
                raise ValueError("%s: fresh stack whose upper piece is not the side to act's" % name(s))

    st = State(board, side, phase_t, pa, handoff, pe, turn, depth)
    if phase_t == "r" and winner(st) is None and not _release_solutions(st):
        raise ValueError("release phase in which no task has a solution")
    return st


# --------------------------------------------------------------------------
# Action generation.  _gen returns {text: op}.


def _release_solutions(st):
    """R9: every solution of every release-phase task, as {text: op}."""
    out = {}
    b = st.board
    side = st.side
    for x in PLAYABLE:
        c = b[x]
        if c is None or c == BALL:
            continue
        if c[0] == "p":
            if c[1] == side and c[4]:          # R9.2 stand up
                for t in NEIGH[x]:
                    if b[t] is None:
                        out[name(x) + "-" + name(t)] = ("stand", x, t)
        else:
            up, lo, fresh = c[1], c[2], c[3]
            if up[1] != side or fresh:         # R9.3 release
                continue
            vac = [t for t in NEIGH[x] if b[t] is None]
            for u in vac:
                for w in vac:
                    if u == w:
                        continue
                    base = name(x) + "-" + name(u) + "/" + name(w)
                    if up[3]:
                        out[base + "=" + name(u)] = ("rel", x, u, w, "U")
                        if not lo[4]:
                            out[base + "=" + name(w)] = ("rel", x, u, w, "W")
                    else:
                        out[base] = ("rel", x, u, w, None)
    return out


def _has_release_solution(st):
    b = st.board
    side = st.side
    for x in PLAYABLE:
        c = b[x]
        if c is None or c == BALL:
            continue
        if c[0] == "p":
            if c[1] == side and c[4]:
                for t in NEIGH[x]:
                    if b[t] is None:
                        return True
        else:
            if c[1][1] == side and not c[3]:
                n = 0
                for t in NEIGH[x]:
                    if b[t] is None:
                        n += 1
                if n >= 2:
                    return True
    return False


def _is_open(cell):
    return cell is None or cell == BALL


def _gen(st):
    if winner(st) is not None:
        return {}
    if st.phase == "r":
        return _release_solutions(st)
    out = {"end": ("end",)}
    b = st.board
    side = st.side
    for s in PLAYABLE:
        cell = b[s]
        if cell is None or cell == BALL or cell[0] != "p":
            continue
        _, team, kind, ball, down, restr = cell
        if team != side or down or restr:      # R4.4: active, unrestricted
            continue
        ns = name(s)
        if st.pa >= 1:
            for (d, m, two) in MOVES[kind][s]:
                dc = b[d]
                if not two:
                    # 1-square move: open -> move/pickup; one piece -> stack (R7)
                    if _is_open(dc) or dc[0] == "p":
                        out[ns + "-" + name(d)] = ("move", s, d)
                    continue
                tactical = False
                if m is not None:              # R5.3 intermediate square
                    mc = b[m]
                    if _is_open(mc):
                        pass
                    elif mc[0] == "p" and not mc[4]:
                        if mc[1] != side:
                            tactical = True
                    else:
                        continue               # knocked-down piece or stack
                if _is_open(dc):
                    if not tactical:
                        out[ns + "-" + name(d)] = ("move", s, d)
                    else:
                        # R6.2: push square adjacent to M, vacant after landing, not L
                        for p in NEIGH[m]:
                            if p == d:
                                continue
                            if p == s or b[p] is None:
                                out[ns + "-" + name(d) + "/" + name(p)] = ("tac", s, d, m, p)
                elif dc[0] == "p" and not dc[4] and dc[1] != side and not tactical:
                    # R6.1 dodge: exit open and adjacent to the target
                    for e in NEIGH[d]:
                        if e != s and _is_open(b[e]):
                            out[ns + "-" + name(d) + "/" + name(e)] = ("dodge", s, d, e)
                # anything else is illegal
        if ball:
            # R8.2 hand-off
            if not st.handoff:
                seen = {s}
                todo = [s]
                while todo:
                    x = todo.pop()
                    for y in NEIGH[x]:
                        if y in seen:
                            continue
                        yc = b[y]
                        if yc is not None and yc != BALL and yc[0] == "p" and yc[1] == side and not yc[4]:
                            seen.add(y)
                            todo.append(y)
                for y in seen:
                    if y != s:
                        out[ns + "=" + name(y)] = ("hand", s, y)
            # R8.3 short pass
            if st.pa >= 1:
                for y in PLAYABLE:
                    if y == s:
                        continue
                    yc = b[y]
                    if yc is None or yc == BALL or yc[0] != "p" or yc[1] != side or yc[4]:
                        continue
                    if dist(s, y) > 4:
                        continue
                    for z in NEIGH[y]:
                        if b[z] is None:
                            out[ns + "^" + name(z)] = ("spass", s, z)
            # R8.4 long pass
            if st.pa >= 2:
                mine = []
                for y in PLAYABLE:
                    yc = b[y]
                    if yc is None or yc == BALL:
                        continue
                    if yc[0] == "p":
                        if yc[1] == side:
                            mine.append(y)
                    elif yc[1][1] == side or yc[2][1] == side:
                        mine.append(y)
                for z in PLAYABLE:
                    if b[z] is not None:
                        continue
                    if all(dist(z, y) >= 2 for y in mine):
                        out[ns + "^^" + name(z)] = ("lpass", s, z)
    return out


_TOK = re.compile(r"([A-M])([0-9]{1,2})|([0-9]+)|(.)", re.S)


def square_order_key(text):
    """Sort key of an action text: square names by (row, column), numbers
    by value, other characters by code, so that G9 sorts before G13."""
    key = []
    for m in _TOK.finditer(text):
        letter, row, num, other = m.groups()
        if letter:
            col, r = ord(letter) - 64, int(row)
            if row[0] != "0" and r <= NROWS and (col + r) % 2 == 0:
                key.append((0, r, col))
                continue
            key.append((2, ord(letter)))
            num = row
        key.append((1, int(num)) if num else (2, ord(other)))
    return key, text


def legal_actions(st):
    return sorted(_gen(st), key=square_order_key)


def _handover(st):
    st.side = 1 - st.side
    st.phase = "a"
    st.pa = 2
    st.handoff = False
    st.turn += 1
    b = st.board
    for s in PLAYABLE:
        c = b[s]
        if c is not None and c != BALL and c[0] == "s" and c[3]:
            b[s] = ("s", c[1], c[2], False)


def _execute(st, op):
    n = st.copy()
    b = n.board
    kind = op[0]
    if kind == "end":                          # R9.5
        n.phase = "r"
        n.pa = 0
        n.handoff = False
        for s in PLAYABLE:
            c = b[s]
            if c is not None and c != BALL and c[0] == "p" and c[5]:
                b[s] = c[:5] + (False,)
    elif kind == "move":
        _, s, d = op
        mv = b[s]
        dc = b[d]
        b[s] = None
        if dc is None:
            b[d] = mv
        elif dc == BALL:                       # pickup -> restricted
            b[d] = P(mv[1], mv[2], True, False, True)
        else:                                  # R7 stack
            up = P(mv[1], mv[2], mv[3] or dc[3], False, False)
            lo = P(dc[1], dc[2], False, dc[4], False)
            b[d] = ("s", up, lo, True)
        n.pa -= 1
        n.handoff = False
    elif kind == "dodge":                      # R6.1
        _, s, t, e = op
        mv = b[s]
        q = b[t]
        b[s] = None
        b[t] = P(q[1], q[2], False, True, False)
        ec = b[e]
        took = q[3] or ec == BALL
        b[e] = P(mv[1], mv[2], mv[3] or took, False, took)
        n.pa -= 1
        n.handoff = False
    elif kind == "tac":                        # R6.2
        _, s, l, m, p = op
        mv = b[s]
        b[s] = None
        picked = b[l] == BALL
        b[l] = P(mv[1], mv[2], mv[3] or picked, False, picked)
        q = b[m]
        b[p] = P(q[1], q[2], False, True, False)
        b[m] = None
        if q[3]:
            bc = 2 * col(m) - col(p)
            br = 2 * row(m) - row(p)
            if on_board(bc, br) and b[sq(bc, br)] is None:
                b[sq(bc, br)] = BALL
            else:
                b[m] = BALL
        n.pa -= 1
        n.handoff = False
    elif kind == "hand":                       # R8.2
        _, s, y = op
        c = b[s]
        b[s] = P(c[1], c[2], False, False, False)
        c = b[y]
        b[y] = P(c[1], c[2], True, False, False)
        n.handoff = True
    elif kind in ("spass", "lpass"):           # R8.3 / R8.4
        _, s, z = op
        c = b[s]
        b[s] = P(c[1], c[2], False, False, False)
        b[z] = BALL
        n.pa -= 1 if kind == "spass" else 2
        n.handoff = False
    elif kind == "stand":                      # R9.2
        _, x, t = op
        c = b[x]
        b[x] = None
        b[t] = P(c[1], c[2], False, False, False)
    elif kind == "rel":                        # R9.3
        _, x, u, w, keeper = op
        _, up, lo, _f = b[x]
        b[x] = None
        b[u] = P(up[1], up[2], up[3] and keeper == "U", False, False)
        b[w] = P(lo[1], lo[2], up[3] and keeper == "W", lo[4], False)
    else:
        raise AssertionError(op)
    if winner(n) is not None:                  # R11.1
        return n
    if n.phase == "r" and not _has_release_solution(n):
        _handover(n)
    return n


def apply(st, text):
    ops = _gen(st)
    op = ops.get(text)
    if op is None:
        raise ValueError("illegal action %r in %s" % (text, format_bpn(st)))
    return _execute(st, op)


def successors(st):
    """List of (text, new state), in square order of the texts."""
    ops = _gen(st)
    return [(t, _execute(st, ops[t])) for t in sorted(ops, key=square_order_key)]


def perft(st, depth):
    if depth == 0:
        return 1
    ops = _gen(st)
    if depth == 1:
        return len(ops)
    total = 0
    for op in ops.values():
        total += perft(_execute(st, op), depth - 1)
    return total


def start(depth=1):
    return parse_bpn(START_BPN, depth)


def _main():
    bpn = START_BPN
    d = 1
    args = sys.argv[1:]
    if args:
        d = int(args[0])
    if len(args) > 1:
        bpn = " ".join(args[1:])
    print(perft(parse_bpn(bpn), d))


# --------------------------------------------------------------------------
# Self-checks, derived by hand from the rules (docs/spec.md) (run: python3 ballref.py --selftest)


def make_bpn(cells, rest):
    """cells: {'E5': 'X*', 'F6': '[Ox]+', 'A1': '@'}; rest: 'ATK a 2 - 0/0 1'."""
    grid = {}
    for k, v in cells.items():
        grid[(ord(k[0]) - 64, int(k[1:]))] = v
    groups = []
    for r in range(NROWS, 0, -1):
        out = ""
        run = 0
        for c in range(1, NCOLS + 1):
            if (c + r) % 2:
                continue
            if (c, r) in grid:
                if run:
                    out += str(run)
                    run = 0
                out += grid[(c, r)]
            else:
                run += 1
        if run:
            out += str(run)
        groups.append(out)
    return "/".join(groups) + " " + rest


def _selftest():
    fails = []

    def by_bytes(st):
        # The hand-derived lists below are written in byte order.
        return sorted(legal_actions(st))

    def check(label, got, want):
        if got != want:
            fails.append("%s:\n  got  %r\n  want %r" % (label, got, want))

    def acts(bpn):
        return " ".join(by_bytes(parse_bpn(bpn)))

    def after(bpn, *texts):
        st = parse_bpn(bpn)
        for t in texts:
            st = apply(st, t)
        return format_bpn(st)

    # Start position: 54 moves by hand (7+7+9+7+7+6+11) plus end.
    s = start()
    check("start roundtrip", format_bpn(s), START_BPN)
    la = by_bytes(s)
    check("start count", len(la), 55)
    per = {}
    for a in la:
        per[a[:3]] = per.get(a[:3], 0) + 1
    check("start per piece", per, {"C11": 7, "E11": 7, "G11": 9, "I11": 7, "K11": 7,
                                   "G13": 6, "G15": 11, "end": 1})
    check("start perft1", perft(s, 1), 55)

    # R6.2 tactical dodge, ball on the pushed piece.
    p = make_bpn({"E5": "X", "F6": "x*"}, "ATK a 2 - 0/0 1")
    check("tac acts", acts(p), "E5-C3 E5-C7 E5-D4 E5-D6 E5-F4 E5-F6 E5-G3 "
          "E5-G7/E5 E5-G7/E7 E5-G7/G5 end")
    check("tac push G5 -> ball E7", after(p, "E5-G7/G5"),
          make_bpn({"G7": "X", "G5": "x_", "E7": "@"}, "ATK a 1 - 0/0 1"))
    check("tac push E5 (start square) -> ball stays on M", after(p, "E5-G7/E5"),
          make_bpn({"G7": "X", "E5": "x_", "F6": "@"}, "ATK a 1 - 0/0 1"))
    check("tac push E7 -> ball G5", after(p, "E5-G7/E7"),
          make_bpn({"G7": "X", "E7": "x_", "G5": "@"}, "ATK a 1 - 0/0 1"))
    # B occupied -> ball stays on M
    p2 = make_bpn({"E5": "X", "F6": "x*", "E7": "o"}, "ATK a 2 - 0/0 1")
    check("tac B occupied", after(p2, "E5-G7/G5"),
          make_bpn({"G7": "X", "G5": "x_", "F6": "@", "E7": "o"}, "ATK a 1 - 0/0 1"))
    # near the edge (M is never on an edge, so B is always on the board)
    p3 = make_bpn({"C3": "X", "B2": "x*"}, "ATK a 2 - 0/0 1")
    check("tac near edge", after(p3, "C3-A1/C1"),
          make_bpn({"A1": "X", "C1": "x_", "A3": "@"}, "ATK a 1 - 0/0 1"))
    # block onto a ball carrier: upper takes the ball, fresh stack
    check("block takes ball", after(p, "E5-F6"),
          make_bpn({"F6": "[X*x]+"}, "ATK a 1 - 0/0 1"))

    # R6.1 dodge with forced fumble, then restriction, end, release
    d = make_bpn({"C5": "O", "E5": "x*"}, "ATK a 2 - 0/0 2")
    check("dodge acts", acts(d), "C5-A5 C5-B4 C5-B6 C5-C3 C5-C7 C5-D4 C5-D6 "
          "C5-E5/D4 C5-E5/D6 C5-E5/F4 C5-E5/F6 end")
    d1 = after(d, "C5-E5/F6")
    check("dodge result", d1, make_bpn({"F6": "O*!", "E5": "x_"}, "ATK a 1 - 0/0 2"))
    check("restricted acts", acts(d1), "end")
    d2 = after(d1, "end")
    check("end + hand-over", d2, make_bpn({"F6": "O*", "E5": "x_"}, "DEF a 2 - 0/0 3"))
    check("DEF down only end", acts(d2), "end")
    d3 = after(d2, "end")
    check("DEF release", d3, make_bpn({"F6": "O*", "E5": "x_"}, "DEF r 0 - 0/0 3"))
    check("DEF stand-ups", acts(d3), "E5-D4 E5-D6 E5-F4")
    check("after stand-up", after(d3, "E5-D6"),
          make_bpn({"F6": "O*", "D6": "x"}, "ATK a 2 - 0/0 4"))
    # dodge exit on the loose ball: picked up, restricted
    d4 = make_bpn({"C5": "O", "E5": "x", "F6": "@"}, "ATK a 2 - 0/0 2")
    check("dodge exit pickup", after(d4, "C5-E5/F6"),
          make_bpn({"F6": "O*!", "E5": "x_"}, "ATK a 1 - 0/0 2"))
    # exit squares must be open: an allied piece on D6 removes that exit
    d5 = make_bpn({"C5": "O", "E5": "x", "D6": "X", "A17": "@"}, "ATK a 2 - 0/0 2")
    check("dodge exits", [a for a in by_bytes(parse_bpn(d5)) if a.startswith("C5-E5")],
          ["C5-E5/D4", "C5-E5/F4", "C5-E5/F6"])
    # 2-square diagonal dodge over an active ally
    d6 = make_bpn({"C3": "X", "D4": "X", "E5": "x", "A17": "@"}, "ATK a 2 - 0/0 2")
    check("dodge over ally", [a for a in by_bytes(parse_bpn(d6)) if a.startswith("C3-E5")],
          ["C3-E5/D6", "C3-E5/F4", "C3-E5/F6"])

    # knocked-down pieces: 1-square onto them stacks, 2-square over/onto illegal
    k = make_bpn({"E5": "X", "F6": "x_", "C3": "o_", "A17": "@"}, "ATK a 2 - 0/0 1")
    check("knocked-down", acts(k), "E5-C7 E5-D4 E5-D6 E5-F4 E5-F6 E5-G3 end")
    check("stack on down", after(k, "E5-F6"),
          make_bpn({"F6": "[Xx_]+", "C3": "o_", "A17": "@"}, "ATK a 1 - 0/0 1"))

    # protection of a restricted carrier: restriction mark lost
    r = make_bpn({"E5": "X*!", "D4": "O", "A17": "x"}, "ATK a 1 - 0/0 1")
    check("protect restricted", after(r, "D4-E5"),
          make_bpn({"E5": "[O*X]+", "A17": "x"}, "ATK a 0 - 0/0 1"))

    # R9.3 releases
    rel = make_bpn({"E5": "[X*o]", "A17": "x"}, "ATK r 0 - 0/0 4")
    la = by_bytes(parse_bpn(rel))
    check("release count keeper both", len(la), 24)
    check("release keeper lower", after(rel, "E5-D4/F6=F6"),
          make_bpn({"D4": "X", "F6": "o*", "A17": "x"}, "DEF a 2 - 0/0 5"))
    rel2 = make_bpn({"E5": "[X*o_]", "A17": "x"}, "ATK r 0 - 0/0 4")
    la = by_bytes(parse_bpn(rel2))
    check("release count keeper upper", len(la), 12)
    check("release keeper upper only", all(a.endswith("=" + a[3:5]) for a in la), True)
    rel3 = make_bpn({"E5": "[SX_]", "A1": "@", "A17": "x"}, "ATK r 0 - 0/0 4")
    check("release no ball", len(by_bytes(parse_bpn(rel3))), 12)
    r4 = after(rel3, "E5-D4/F6")
    check("R9.4 stand-up after release", r4,
          make_bpn({"D4": "S", "F6": "X_", "A1": "@", "A17": "x"}, "ATK r 0 - 0/0 4"))
    check("R9.4 stand-ups", acts(r4), "F6-E5 F6-E7 F6-G5 F6-G7")
    # fresh stack not released; end with only a fresh stack -> hand-over
    fr = make_bpn({"E5": "[X*o]+", "A17": "x"}, "ATK a 1 - 0/0 4")
    check("fresh not released", after(fr, "end"),
          make_bpn({"E5": "[X*o]", "A17": "x"}, "DEF a 2 - 0/0 5"))
    # release needs two vacant squares (the loose ball is not vacant)
    rb = make_bpn({"E5": "[Xo]", "D4": "@", "F4": "x", "D6": "x"}, "ATK a 0 - 0/0 4")
    check("release blocked", after(rb, "end"),
          make_bpn({"E5": "[Xo]", "D4": "@", "F4": "x", "D6": "x"}, "DEF a 2 - 0/0 5"))

    # R8.2 hand-off network, 0 PA, no hand-off after a hand-off
    h = make_bpn({"E5": "X*", "F6": "X", "G7": "X", "I9": "X", "D4": "O_", "A17": "x"},
                 "ATK a 0 - 0/0 1")
    check("hand-off acts", acts(h), "E5=F6 E5=G7 end")
    h1 = after(h, "E5=G7")
    check("hand-off result", h1,
          make_bpn({"E5": "X", "F6": "X", "G7": "X*", "I9": "X", "D4": "O_", "A17": "x"},
                   "ATK a 0 h 0/0 1"))
    check("no hand-off after hand-off", acts(h1), "end")
    # R8.3 short passes (dedup by ball square) with 1 PA
    h2 = make_bpn({"E5": "X*", "F6": "X", "G7": "X", "I9": "X", "D4": "O_", "A17": "x"},
                  "ATK a 1 - 0/0 1")
    sp = [a for a in by_bytes(parse_bpn(h2)) if "^" in a]
    check("short passes", sp, ["E5^E7", "E5^F8", "E5^G5", "E5^H10", "E5^H6", "E5^H8",
                               "E5^J10", "E5^J8"])
    # The list order of `ball legal`: by square (row, then column), so that
    # G5 (row 5) comes before E7 and H8 before J8 before H10.
    check("square order", [a for a in legal_actions(parse_bpn(h2)) if "^" in a],
          ["E5^G5", "E5^H6", "E5^E7", "E5^F8", "E5^H8", "E5^J8", "E5^H10", "E5^J10"])
    check("short pass result", after(h2, "E5^J10"),
          make_bpn({"E5": "X", "F6": "X", "G7": "X", "I9": "X", "D4": "O_", "A17": "x",
                    "J10": "@"}, "ATK a 0 - 0/0 1"))
    # R8.4 long passes: 111 squares - A1 - B2 - M17
    lp = make_bpn({"A1": "X*", "M17": "x"}, "ATK a 2 - 0/0 1")
    la = by_bytes(parse_bpn(lp))
    check("long passes", len([a for a in la if "^^" in a]), 108)
    check("long pass all", len(la), 111)
    lp2 = make_bpn({"A1": "X*", "E5": "[ox_]", "M17": "x"}, "ATK a 2 - 0/0 1")
    check("long pass ignores other team's stack", len([a for a in by_bytes(parse_bpn(lp2)) if "^^" in a]), 107)
    lp3 = make_bpn({"A1": "X*", "E5": "[oX_]", "M17": "x"}, "ATK a 2 - 0/0 1")
    check("long pass counts own lower", len([a for a in by_bytes(parse_bpn(lp3)) if "^^" in a]), 107 - 4)
    check("long pass result", after(lp, "A1^^M1"),
          make_bpn({"A1": "X", "M1": "@", "M17": "x"}, "ATK a 0 - 0/0 1"))

    # R11.1 touchdown
    t = make_bpn({"F16": "X*", "A1": "x"}, "ATK a 2 - 0/0 7")
    t1 = after(t, "F16-G17")
    check("touchdown", t1, make_bpn({"G17": "X*", "A1": "x"}, "ATK a 1 - 0/0 7"))
    check("touchdown no actions", by_bytes(parse_bpn(t1)), [])
    check("touchdown winner", winner(parse_bpn(t1)), "ATK")
    # touchdown for the other team after a release (keeper = opponent lower)
    t2 = make_bpn({"B2": "[X*o]", "M17": "x"}, "ATK r 0 - 0/0 8")
    t3 = after(t2, "B2-C3/A1=A1")
    check("opponent touchdown on release", t3,
          make_bpn({"C3": "X", "A1": "o*", "M17": "x"}, "ATK r 0 - 0/0 8"))
    check("opponent touchdown winner", winner(parse_bpn(t3)), "DEF")
    # depth 2 end zone
    check("depth 2", winner(parse_bpn(make_bpn({"F16": "X*", "A1": "x"}, "ATK a 2 - 0/0 7"), 2)), "ATK")

    # N1 rejections
    bad = [
        START_BPN.replace("3X*3", "7"),                  # no ball
        START_BPN.replace("3S3/6/7", "3S3/6/@6"),        # two balls
        START_BPN.replace("X*", "X*_"),                  # knocked-down carrier
        START_BPN.replace("X*", "X_*"),                  # marks out of order
        START_BPN.replace("3X*3", "3X*2"),               # wrong group length
        START_BPN.replace("3X*3", "3X*21"),              # touching digits
        START_BPN.replace("X*", "X*!"),                  # ! not side to act's
        START_BPN.replace(" a 2 ", " r 2 "),             # PA > 0 in release
        START_BPN.replace(" a 2 ", " r 0 "),             # release, no task solution
        START_BPN.replace(" - ", " h ").replace(" a 2 ", " r 0 "),
        START_BPN.replace("  ", " ") + " ",
        START_BPN.replace("3s3", "3[sx*]3").replace("3X*3", "7"),   # lower carrier
        START_BPN.replace("3s3", "3[s_x]3"),                        # down upper
        START_BPN.replace("3s3", "3[S*x]+3").replace("3X*3", "7"),  # fresh upper not side's
    ]
    for i, b in enumerate(bad):
        try:
            parse_bpn(b)
            fails.append("accepted bad BPN #%d: %s" % (i, b))
        except ValueError:
            pass
    eight = START_BPN.replace("7/6/3s3", "s6/6/3s3", 1)
    try:
        parse_bpn(eight)
        fails.append("accepted 8 DEF pieces")
    except ValueError:
        pass

    if fails:
        print("\n".join(fails))
        print("selftest: %d failures" % len(fails))
        return 1
    print("selftest: ok")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--selftest"]:
        sys.exit(_selftest())
    _main()
