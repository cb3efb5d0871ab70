#!/usr/bin/env python3
"""Cross-check libball's `ball trace` against the Python reference (ballref.py).

Usage:
  compare.py [--games N] [--max-decisions N] [--seed S] [--bin PATH]
             [--random-starts F] [--greedy F] [--keep-going] [--start BPN]
  compare.py --perft DEPTH [BPN]      print the reference perft count
  compare.py --selftest               run the reference's hand-derived checks
  compare.py --perft-check N [--perft-depth D]
                                      compare `ball perft` on N sampled positions
                                      (on a difference, `ball divide` per action)
  compare.py --parse-check N          compare BPN acceptance, canonical text and
                                      legal list on N randomly mutated BPNs
  --depth D (1-3) sets the end-zone depth; it is passed to ball as --depth-zone.

Each game is played by the reference with a seeded random policy; the whole
action list is fed to `ball trace BPN` on stdin and every output line
(`BPN<TAB>legal actions`) is compared with the reference's.  On the first
mismatch the previous BPN, the action and both outputs are printed and the
exit status is 1 (with --keep-going: one report per failing game, then exit 1).
"""

import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ballref as R  # noqa: E402

# The tool under test: $BALL (scripts/run-tests.sh sets it from the build
# directory), else the default build's.
DEFAULT_BIN = os.environ.get("BALL") or os.path.normpath(os.path.join(HERE, "..", "..", "build", "bin", "ball"))


def line_of(st):
    return R.format_bpn(st) + "\t" + " ".join(R.legal_actions(st))


# ---------------------------------------------------------------- positions

def random_position(rng, depth=1):
    """A random valid position, for games that start away from the formation."""
    while True:
        board = [None] * (R.NCOLS * R.NROWS)
        free = list(R.PLAYABLE)
        rng.shuffle(free)
        pieces = []
        for team in (R.ATK, R.DEF):
            for _ in range(rng.randint(2, 7)):
                pieces.append((team, rng.choice("XOS")))
        rng.shuffle(pieces)
        nstacks = rng.choice((0, 0, 1, 1, 2, 3))
        nstacks = min(nstacks, len(pieces) // 2)
        side = rng.randint(0, 1)
        holders = []
        for _ in range(nstacks):
            up = pieces.pop()
            lo = pieces.pop()
            s = free.pop()
            fresh = up[0] == side and rng.random() < 0.3
            board[s] = ("s", R.P(up[0], up[1]), R.P(lo[0], lo[1], False, rng.random() < 0.35), fresh)
            holders.append(s)
        for (team, kind) in pieces:
            s = free.pop()
            down = rng.random() < 0.25
            board[s] = R.P(team, kind, False, down)
            if not down:
                holders.append(s)
        if not holders or rng.random() < 0.25:
            board[free.pop()] = R.BALL
        else:
            s = rng.choice(holders)
            c = board[s]
            if c[0] == "p":
                board[s] = R.P(c[1], c[2], True)
            else:
                board[s] = ("s", R.P(c[1][1], c[1][2], True), c[2], c[3])
        st = R.State(board, side, "a", rng.randint(0, 2), False, (0, 0), rng.randint(1, 40), depth)
        for s in R.PLAYABLE:
            c = board[s]
            if c is not None and c != R.BALL and c[0] == "p" and c[3] and c[1] == side:
                if rng.random() < 0.3:
                    board[s] = R.P(c[1], c[2], True, False, True)
                elif rng.random() < 0.2:
                    st.handoff = True
        if rng.random() < 0.2:
            st.phase = "r"
            st.pa = 0
            st.handoff = False
            for s in R.PLAYABLE:
                c = board[s]
                if c is not None and c != R.BALL and c[0] == "p" and c[5]:
                    board[s] = R.P(c[1], c[2], c[3])
            if not R._has_release_solution(st):
                continue
        if R.winner(st) is not None and rng.random() < 0.9:
            continue
        text = R.format_bpn(st)
        st2 = R.parse_bpn(text, depth)   # must be valid
        assert R.format_bpn(st2) == text
        return st2


# ---------------------------------------------------------------- policy

def _progress(st, side):
    """How well the ball stands for `side` (bigger is better)."""
    w = R.winner(st)
    if w is not None:
        return 1000 if w == R.SIDE_NAMES[side] else -1000
    b = st.board
    mine = []
    ball = None
    held = None
    for s in R.PLAYABLE:
        c = b[s]
        if c is None:
            continue
        if c == R.BALL:
            ball = s
            continue
        if c[0] == "p" and c[1] == side and not c[4]:
            mine.append(s)
        holder = c if c[0] == "p" else c[1]
        if holder[3]:
            ball, held = s, holder[1]
    r = R.row(ball)
    v = r if side == R.ATK else 18 - r
    if held is None:
        if mine:
            v -= 2 * min(R.dist(ball, y) for y in mine)
    else:
        v += 10 if held == side else -10
    return v


def _kind(st, op):
    k = op[0]
    b = st.board
    if k == "move":
        dc = b[op[2]]
        return "pickup" if dc == R.BALL else ("stack" if dc else "move")
    if k == "rel" and op[4]:
        return "rel-keeper"
    if k == "dodge" and (b[op[2]][3] or b[op[3]] == R.BALL):
        return "dodge-ball"
    if k == "tac" and b[op[3]][3]:
        return "tac-ball"
    return k


def choose(rng, st, greedy, balanced):
    ops = R._gen(st)
    legal = sorted(ops)
    if greedy and rng.random() < greedy and st.phase == "a":
        best = None
        bestv = None
        for t in legal:
            v = _progress(R._execute(st, ops[t]), st.side) + rng.random()
            if bestv is None or v > bestv:
                best, bestv = t, v
        return best
    if balanced:
        kinds = {}
        for t in legal:
            kinds.setdefault(_kind(st, ops[t]), []).append(t)
        names = sorted(kinds)
        if len(names) > 1 and "end" in names and rng.random() < 0.7:
            names.remove("end")
        return rng.choice(kinds[rng.choice(names)])
    return rng.choice(legal)


def play(rng, st, max_decisions, greedy, balanced=False):
    actions = []
    lines = [line_of(st)]
    states = [st]
    while len(actions) < max_decisions:
        if R.winner(st) is not None:
            break
        a = choose(rng, st, greedy, balanced)
        st = R.apply(st, a)
        actions.append(a)
        states.append(st)
        lines.append(line_of(st))
    return actions, lines, states


# ---------------------------------------------------------------- driver

def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def run_trace(binpath, bpn, actions, depth=1):
    inp = "".join(a + "\n" for a in actions)
    for attempt in range(5):
        try:
            cmd = [binpath] + (["--depth-zone", str(depth)] if depth != 1 else []) + ["trace", bpn]
            p = subprocess.run(cmd, input=inp, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
            break
        except OSError:                      # binary being rebuilt right now
            if attempt == 4:
                raise
            time.sleep(2)
    out = p.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    return p.returncode, out, p.stderr


def report(game, seed, start_bpn, actions, i, ref_lines, c_lines, rc, err):
    print("MISMATCH in game %d (seed %d) at line %d" % (game, seed, i))
    if i > 0:
        print("  previous BPN : %s" % ref_lines[i - 1].split("\t")[0])
        print("  action       : %s" % actions[i - 1])
    else:
        print("  start BPN    : %s" % start_bpn)
    print("  reference    : %s" % (ref_lines[i] if i < len(ref_lines) else "<no line>"))
    print("  ball trace   : %s" % (c_lines[i] if i < len(c_lines) else "<no line>"))
    if i < len(ref_lines) and i < len(c_lines):
        rb, _, rl = ref_lines[i].partition("\t")
        cb, _, cl = c_lines[i].partition("\t")
        if rb != cb:
            print("  BPN differs")
        rs, cs = set(rl.split()), set(cl.split())
        if rs != cs:
            print("  only reference: %s" % " ".join(sorted(rs - cs)))
            print("  only trace    : %s" % " ".join(sorted(cs - rs)))
        elif rl != cl:
            print("  same actions, different order/spacing")
    if rc != 0 or err.strip():
        print("  trace exit %d, stderr: %s" % (rc, err.strip()[:500]))
    print("  reproduce: printf '%s' | ball trace %s" % (
        "".join(a + "\\n" for a in actions[:i]), shell_quote(start_bpn)))
    sys.stdout.flush()


def sample_positions(rng, count, depth):
    """Random valid positions and positions met in random games."""
    out = []
    while len(out) < count:
        if rng.random() < 0.5:
            out.append(random_position(rng, depth))
        else:
            st = random_position(rng, depth) if rng.random() < 0.3 else R.start(depth)
            _, _, states = play(rng, st, rng.randint(1, 120), 0.3 if rng.random() < 0.5 else 0.0, True)
            out.append(states[-1])
    return out


def _tool(binpath, depth, *args):
    cmd = [binpath] + (["--depth-zone", str(depth)] if depth != 1 else []) + list(args)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def perft_check(args):
    """Compare perft counts (and, on a difference, divide) on sampled positions."""
    rng = random.Random(args.seed)
    bad = 0
    positions = sample_positions(rng, args.perft_check, args.depth)
    for n, st in enumerate(positions):
        bpn = R.format_bpn(st)
        d = args.perft_depth
        ref = R.perft(st, d)
        rc, out, err = _tool(args.bin, args.depth, "perft", str(d), bpn)
        if rc != 0 or out.strip() != str(ref):
            bad += 1
            print("PERFT MISMATCH depth %d: %s" % (d, bpn))
            print("  reference %d, ball %s %s" % (ref, out.strip(), err.strip()))
            rc, out, err = _tool(args.bin, args.depth, "divide", str(d), bpn)
            cdiv = dict(l.rsplit(" ", 1) for l in out.splitlines() if l and not l.startswith("total"))
            ops = R._gen(st)
            for t in sorted(set(ops) | set(cdiv)):
                rv = R.perft(R._execute(st, ops[t]), d - 1) if t in ops else None
                cv = int(cdiv[t]) if t in cdiv else None
                if rv != cv:
                    print("  %s: reference %s, ball %s" % (t, rv, cv))
            if not args.keep_going:
                break
    print("perft-check: %d positions at depth %d, %d mismatches" % (len(positions), args.perft_depth, bad))
    return 1 if bad else 0


MUTATION_CHARS = "XOSxos*_!@[]+0123456789/ -hraATKDEF"


def parse_check(args):
    """Mutate valid BPNs; compare accept/reject, canonical text and legal list."""
    rng = random.Random(args.seed)
    bad = 0
    accepted = 0
    texts = [R.format_bpn(st) for st in sample_positions(rng, max(1, args.parse_check // 20), args.depth)]
    for n in range(args.parse_check):
        t = rng.choice(texts)
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            i = rng.randrange(len(t))
            op = rng.randrange(4)
            c = rng.choice(MUTATION_CHARS)
            if op == 0:
                t = t[:i] + c + t[i + 1:]
            elif op == 1:
                t = t[:i] + t[i + 1:]
            elif op == 2:
                t = t[:i] + c + t[i:]
            elif i + 1 < len(t):
                t = t[:i] + t[i + 1] + t[i] + t[i + 2:]
        try:
            st = R.parse_bpn(t, args.depth)
            ref = R.format_bpn(st) + "\t" + " ".join(R.legal_actions(st))
            why = ""
        except ValueError as e:
            ref = None
            why = str(e)
        rc, out, err = _tool(args.bin, args.depth, "apply", t)
        if rc == 0:
            rc2, out2, err2 = _tool(args.bin, args.depth, "legal", t)
            got = out.strip() + "\t" + " ".join(out2.split())
        else:
            got = None
        if ref is not None:
            accepted += 1
        if (ref is None) != (got is None) or ref != got:
            bad += 1
            print("PARSE MISMATCH: %r" % t)
            print("  reference: %s" % (ref if ref is not None else "rejected: " + why))
            print("  ball     : %s" % (got if got is not None else "rejected: " + err.strip()))
            if not args.keep_going:
                break
    print("parse-check: %d texts (%d valid for the reference), %d mismatches" % (args.parse_check, accepted, bad))
    return 1 if bad else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-decisions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--depth", type=int, default=1, help="end-zone depth, 1-3 (passed to ball as --depth-zone; default 1)")
    ap.add_argument("--random-starts", type=float, default=0.25,
                    help="fraction of games starting from a random valid position")
    ap.add_argument("--greedy", type=float, default=0.3,
                    help="in every third game, chance of a ball-forward greedy choice")
    ap.add_argument("--start", default=None, help="start BPN (default: standard start)")
    ap.add_argument("--keep-going", action="store_true", help="report one mismatch per game, do not stop")
    ap.add_argument("--no-trace", action="store_true", help="only play reference games")
    ap.add_argument("--perft", type=int, default=None, metavar="DEPTH")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--perft-check", type=int, default=0, metavar="N",
                    help="compare perft with ball on N sampled positions")
    ap.add_argument("--perft-depth", type=int, default=2, metavar="D", help="depth for --perft-check")
    ap.add_argument("--parse-check", type=int, default=0, metavar="N",
                    help="compare BPN acceptance on N mutated texts")
    ap.add_argument("bpn", nargs="*", help="BPN for --perft (may be given as 7 words)")
    args = ap.parse_args(argv)

    if args.selftest:
        return R._selftest()
    if args.perft is not None:
        bpn = " ".join(args.bpn) if args.bpn else R.START_BPN
        try:
            st = R.parse_bpn(bpn, args.depth)
        except ValueError as e:
            print("compare: invalid BPN: %s" % e, file=sys.stderr)
            return 2
        print(R.perft(st, args.perft))
        return 0

    if not args.no_trace and not os.access(args.bin, os.X_OK):
        print("compare: %s not found (build it: make build/bin/ball)" % args.bin, file=sys.stderr)
        return 2
    if args.perft_check:
        return perft_check(args)
    if args.parse_check:
        return parse_check(args)

    positions = 0
    mismatches = 0
    touchdowns = 0
    for g in range(args.games):
        seed = args.seed * 1000003 + g
        rng = random.Random(seed)
        if args.start:
            st = R.parse_bpn(args.start, args.depth)
        elif rng.random() < args.random_starts:
            st = random_position(rng, args.depth)
        else:
            st = R.start(args.depth)
        start_bpn = R.format_bpn(st)
        # policy: uniform (g%3==0), kind-balanced (1), kind-balanced + greedy (2)
        greedy = args.greedy if g % 3 == 2 else 0.0
        actions, ref_lines, states = play(rng, st, args.max_decisions, greedy, g % 3 != 0)
        positions += len(ref_lines)
        if R.winner(states[-1]) is not None:
            touchdowns += 1
        if args.no_trace:
            continue
        rc, c_lines, err = run_trace(args.bin, start_bpn, actions, args.depth)
        bad = None
        for i in range(max(len(ref_lines), len(c_lines))):
            if i >= len(ref_lines) or i >= len(c_lines) or ref_lines[i] != c_lines[i]:
                bad = i
                break
        if bad is None and rc != 0:
            bad = len(ref_lines) - 1
        if bad is not None:
            mismatches += 1
            report(g, seed, start_bpn, actions, bad, ref_lines, c_lines, rc, err)
            if not args.keep_going:
                print("compare: %d games, %d positions, %d mismatches" % (g + 1, positions, mismatches))
                return 1
    print("compare: %d games, %d positions, %d mismatches (%d games ended in a touchdown)"
          % (args.games, positions, mismatches, touchdowns))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
