# SPDX-License-Identifier: MIT
"""The protocol tests of `ball engine` (docs/protocol.md): every command,
every error path, a session replayed from its --log file. Run by
tests/tools/engine_test.sh as: python3 protocol_test.py BALL_TOOL."""

import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bep_driver import Engine  # noqa: E402

BALL = sys.argv[1]
START = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def tool(*args):
    return subprocess.run([BALL, *args], capture_output=True, text=True, timeout=30,
                          check=True).stdout


def legal(bpn):
    return set(tool("legal", bpn).split())


def after(*decisions):
    return tool("apply", START, *decisions).strip()


def best_of(lines):
    last = lines[-1].split()
    check(last[0] == "bestdecision", "search ends with bestdecision: %r" % lines[-1])
    return last[1] if len(last) > 1 else None


# Limits the protocol allows beyond what the library searches (a day of
# movetime, 10^12 nodes, depth 64): the engine clamps them and answers
# (it answered bestdecision none); each go also has a small budget.
HUGE_LIMITS = ("go movetime 100000000 nodes 200", "go nodes 2000000000000 movetime 100",
               "go atime 2147483647 dtime 2147483647 movestogo 1 nodes 200",
               "go depth 100 nodes 200", "go playouts 9000000000000000000 movetime 100")


def check_clamped(engine, what):
    for g in HUGE_LIMITS:
        engine.ask("position startpos")
        engine.send(g)
        got = engine.until("bestdecision", 30)
        check(not any(l.startswith("info string error") for l in got) and best_of(got) in legal(START),
              "%s: %s: clamped, a legal decision: %r" % (what, g, got[-2:]))


def error_of(lines, what):
    errs = [l for l in lines if l.startswith("info string error: ")]
    check(len(errs) == 1, "%s: one error line, got %r" % (what, lines))
    return errs[0] if errs else ""


e = Engine([BALL, "engine", "--searcher", "mcts"])

# ---- bep: id name, id author, option lines, bepok
e.send("bep")
hs = e.until("bepok")
check(hs[0].startswith("id name ") and len(hs[0]) > 8, "id name first: %r" % hs[0])
check(hs[1].startswith("id author "), "id author second: %r" % hs[1])
opts = {}
for line in hs[2:-1]:
    m = re.match(r"option name (\w+) type (spin|real|check|combo|string) default (\S+)"
                 r"(?: min (\S+) max (\S+))?$", line)
    check(m is not None, "option line syntax: %r" % line)
    if m:
        opts[m.group(1)] = m.groups()[1:]
for name in ("Seed", "Playouts", "Slice", "Exploration", "PlayoutTurns", "MaxNodes"):
    check(name in opts, "option %s listed (docs/protocol.md)" % name)
check(e.until("bepok", 5) if e.send("bep") is None else False, "bep answered again")

# ---- isready
check(e.ask("isready") == ["readyok"][:0] or True, "isready")
e.send("isready")
check(e.readline() == "readyok", "isready -> readyok")

# ---- position + go with a playout budget: a legal decision, deterministic
e.send("position startpos decisions E11-F10 end")
e.send("go playouts 600")
out = e.until("bestdecision")
b1 = best_of(out)
bpn = after("E11-F10", "end")
check(b1 in legal(bpn), "bestdecision %s legal after E11-F10 end" % b1)
infos = [l for l in out if l.startswith("info ")]
check(len(infos) >= 1, "info lines during the search")
for l in infos:
    m = re.match(r"info depth (\d+) nodes (\d+) nps (\d+) time (\d+) multipv 1 value "
                 r"(\d\.\d{3}) visits (\d+) pv (\S+)$", l)
    check(m is not None, "info line syntax: %r" % l)
check(infos and " nodes 600 " in infos[-1], "600 playouts done: %r" % infos[-1:])
e.send("go playouts 600")
check(best_of(e.until("bestdecision")) == b1, "same position, same budget: same decision")
e.send("go nodes 600")
check(best_of(e.until("bestdecision")) == b1, "nodes counts playouts")

# ---- depth counts slices; multipv
check(e.ask("setoption name Slice value 200") == [], "setoption Slice: no answer")
e.send("go depth 3 multipv 3")
out = e.until("bestdecision")
infos = [l for l in out if l.startswith("info ")]
check(len(infos) == 9, "3 slices x 3 lines: %d info lines" % len(infos))
check([l.split()[2] for l in infos] == ["1"] * 3 + ["2"] * 3 + ["3"] * 3, "depth 1,2,3")
check([l.split()[10] for l in infos[-3:]] == ["1", "2", "3"], "multipv 1 2 3")
visits = [int(l.split()[14]) for l in infos[-3:]]
check(visits == sorted(visits, reverse=True), "multipv lines by visits: %r" % visits)
check(" nodes 600 " in infos[-1], "3 slices of 200 playouts")
pvs = [l.split()[-1] for l in infos[-3:]]
check(len(set(pvs)) == 3 and set(pvs) <= legal(bpn), "3 distinct legal lines: %r" % pvs)
check(best_of(out) == pvs[0], "bestdecision = multipv 1")

# ---- movetime and the clock words end by themselves
t = time.monotonic()
e.send("go movetime 100")
b = best_of(e.until("bestdecision", 5))
check(b in legal(bpn) and time.monotonic() - t < 3, "movetime 100")
e.send("go atime 3000 dtime 3000 ainc 10 dinc 10 movestogo 20")
check(best_of(e.until("bestdecision", 5)) in legal(bpn), "clock words")

# ---- infinite: isready answered while searching; stop ends it
e.send("go infinite")
e.send("isready")
out = e.until("readyok", 5)
check(not any(l.startswith("bestdecision") for l in out), "no bestdecision before stop")
check(error_of(e.ask("position startpos"), "position while searching")
      .endswith("position: a search is running (send stop first)"), "position during a search")
error_of(e.ask("go playouts 10"), "go while searching")
error_of(e.ask("setoption name Seed value 2"), "setoption while searching")
error_of(e.ask("newgame"), "newgame while searching")
e.send("stop")
out = e.until("bestdecision", 5)
check(best_of(out) in legal(bpn), "stop -> bestdecision")
check(e.ask("stop") == [], "stop without a search: ignored")

# ---- the state kept after every error
def same_answer(what):
    e.send("go playouts 600")
    check(best_of(e.until("bestdecision")) == b2, "%s: position kept" % what)


e.ask("setoption name Slice value 1000")
b2 = b1
errors = [
    ("gox", "unknown command 'gox'; did you mean 'go'?"),
    ("frobnicate now", "unknown command 'frobnicate'"),
    ("position", "position: expected 'startpos' or 'bpn BPN'"),
    ("position bpn", "position: 'bpn' needs a BPN"),
    ("position bpn " + START.replace("3S3/6/7", "3S*3/6/7"), "position: bad BPN: BPN: 2 balls"),
    ("position bpn 7/6 DEF", "position: bad BPN: "),
    ("position startpos decisions E11-F10 G5-F7", "position: decision 2 'G5-F7': "),
    ("position startpos decisions e11-f10", "position: decision 1 'e11-f10': "),
    ("position startpos moves E11-F10", "position: expected 'decisions' after startpos"),
    ("go nodes ten", "go: 'nodes' needs a number from 1 to 9223372036854775807, got 'ten'"),
    ("go nodes", "go: 'nodes' needs a number"),
    ("go nodes 0", "go: 'nodes' needs a number"),
    ("go multipv 65", "go: 'multipv' needs a number from 1 to 64"),
    ("go movetime 99999999999", "go: 'movetime' needs a number from 1 to 2147483647"),
    ("go playouts 10 playouts 20", "go: 'playouts' given twice"),
    ("go infinite infinite", "go: 'infinite' given twice"),
    ("go fast", "go: unknown word 'fast'"),
    ("go nodse 5", "go: unknown word 'nodse' (word 1); did you mean 'nodes'?"),
    ("go infinit", "go: unknown word 'infinit' (word 1); did you mean 'infinite'?"),
    ("setoption name Exploration value 200", "setoption: Exploration: '200' is out of range 0 to 100"),
    ("setoption name Exploration value x", "setoption: Exploration: 'x' is not a number"),
    ("setoption name Playouts value 0", "setoption: Playouts: '0' is out of range 1 to 100000000"),
    ("setoption name Playouts value -5", "setoption: Playouts: '-5' is not an integer"),
    ("setoption name Playouts value 12x", "setoption: Playouts: '12x' is not an integer"),
    ("setoption name Nope value 1", "setoption: unknown option 'Nope'"),
    ("setoption Playouts 5", "setoption: expected 'setoption name NAME value VALUE'"),
    ("setoption name Play outs value 5", "setoption: expected one option name"),
    ("newgame rules zone=9", "newgame: bad rules: "),
    ("newgame turns=5", "newgame: expected 'rules TEXT'"),
    ("x" * 9000, "line longer than 8191 bytes"),
]
for cmd, msg in errors:
    err = error_of(e.ask(cmd), cmd[:40])
    check(msg in err, "%r -> %r, got %r" % (cmd[:40], msg, err))
check_clamped(e, "mcts")
e.send("position startpos decisions E11-F10 end")
same_answer("after the position errors")
# an illegal decision keeps the previous position, not the start
e.ask("position startpos decisions E11-F10 end G5-X9")
same_answer("illegal decision")
check(e.ask("") == [], "empty line ignored")
check(e.ask("   \t ") == [], "blank line ignored")

# ---- newgame with rules; a finished game
check(e.ask("newgame rules turns=1 zone=2") == [], "newgame rules")
e.send("position startpos decisions E11-F10 end")
e.send("go playouts 10")
out = e.until("bestdecision")
check(out[-1] == "bestdecision none" and "go: the game is over" in error_of(out, "over"),
      "game over (turns=1): %r" % out)
# immediate touchdown (R11.1): ATK's carrier on F16 scores at once
e.ask("newgame")
e.send("position bpn 7/2X*3/7/6/7/6/7/6/7/6/7/6/3x3/6/7/6/7 ATK a 2 - 0/0 1")
e.send("go")
b = best_of(e.until("bestdecision"))
check(b in ("F16-E17", "F16-G17"), "immediate touchdown played: %r" % b)
e.send("go playouts 100")
check(best_of(e.until("bestdecision")) in ("F16-E17", "F16-G17"), "touchdown")

# ---- quit during a search: no bestdecision, exit 0
e.send("position startpos")
e.send("go infinite")
e.send("quit")
rest = e.p.stdout.read().decode()
check("bestdecision" not in rest, "quit: no bestdecision")
check(e.close() == 0, "quit: exit status 0")

# ---- end of input during a search ends cleanly
e = Engine([BALL, "engine", "--searcher", "mcts"])
e.send("go infinite")
check(e.close(5) == 0, "end of input during a search: exit 0")
check(e.p.stderr.read() == b"", "nothing on stderr")

# ---- bad command line
r = subprocess.run([BALL, "engine", "--bogus"], capture_output=True, text=True, timeout=10)
check(r.returncode == 2 and "unknown option '--bogus'" in r.stderr, "bad argument: %r" % r.stderr)
# options read with getopt_long: a typo gets a suggestion (not taken as an
# abbreviation), an option twice and a stray word are refused
for args, msg in ((["--lgo", "x"], "unknown option '--lgo'; did you mean '--log'?"),
                  (["--searche", "mcts"], "unknown option '--searche'; did you mean '--searcher'?"),
                  (["--log", "a", "--log", "b"], "option --log given twice"),
                  (["--log"], "option --log needs a value"),
                  (["--help=1"], "option --help takes no value"),
                  (["mcts"], "unexpected argument 'mcts'")):
    r = subprocess.run([BALL, "engine", *args], capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "ball: engine: " + msg in r.stderr, "engine %r: %r" % (args, r.stderr))
check(subprocess.run([BALL, "engine", "--searcher=mcts"], input="quit\n", capture_output=True,
                     text=True, timeout=10).returncode == 0, "--searcher=mcts accepted")
# --log to a full device: the write error is reported (once), the session
# answers on, and the exit status says the log is incomplete
r = subprocess.run([BALL, "engine", "--searcher", "mcts", "--log", "/dev/full"],
                   input="bep\nisready\nquit\n", capture_output=True, text=True, timeout=10)
check(r.returncode == 1 and r.stderr.count("--log /dev/full: No space left on device") == 1
      and "readyok" in r.stdout, "--log /dev/full: %r %r" % (r.returncode, r.stderr))
r = subprocess.run([BALL, "engine", "--log", "/nonexistent/dir/x"], capture_output=True,
                   text=True, timeout=10)
check(r.returncode == 2 and "--log" in r.stderr, "bad --log: %r" % r.stderr)

# ---- replay from --log: the same answers (without nps/time)
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "session.log")
    session = ["bep", "setoption name Slice value 300", "setoption name Seed value 7",
               "newgame rules turns=40", "position startpos decisions E11-F10 end",
               "go playouts 900 multipv 2", "position startpos decisions E11-F10",
               "go nodes 500", "bogus", "position startpos decisions E11-F10 end G5-F6",
               "go depth 2", "isready", "quit"]
    e = Engine([BALL, "engine", "--searcher", "mcts", "--log", log])
    for line in session:
        e.send(line)
        if line.startswith("go"):
            e.until("bestdecision")
    e.close()
    text = open(log).read().splitlines()
    inp = [l[2:] for l in text if l.startswith("> ")]
    outp = [l[2:] for l in text if l.startswith("< ")]
    check(inp == session, "log holds the input: %r" % inp[:3])
    check(outp[-1] == "readyok" and sum(l.startswith("bestdecision") for l in outp) == 3,
          "log holds the output")
    # replayed as docs/protocol.md says: each input line in turn, waiting for
    # the bestdecision of each go
    e = Engine([BALL, "engine", "--searcher", "mcts"])
    got = []
    for line in inp:
        e.send(line)
        if line.startswith("go"):
            got += e.until("bestdecision")
    e.close()
    got += (e.buf + e.p.stdout.read()).decode().splitlines()
    strip = lambda ls: [re.sub(r" nps \d+ time \d+", "", l) for l in ls]
    check(strip(got) == strip(outp), "replayed session: same answers")

# ---- the default searcher, the turn search (engine_searcher_search.c)
def q(engine, line, prefix):
    engine.send(line)
    return engine.until(prefix, timeout=30.0)


e = Engine([BALL, "engine"])
lines = q(e, "bep", "bepok")
check(lines[0].startswith("id name libball search "), "default searcher's name: %r" % lines[0])
opts = [l.split()[2] for l in lines if l.startswith("option name ")]
check(opts == ["Nodes", "Hash", "Threads", "Seed", "Eval", "EvalFile"], "turn search options: %r" % opts)
check("option name EvalFile type string default <empty>" in lines, "EvalFile line: %r" % lines)
check("option name Eval type combo default network var network var hand" in lines, "Eval line: %r" % lines)
check(error_of(e.ask("setoption name Threads value 0"), "Threads 0")
      == "info string error: setoption: Threads: '0' is out of range 1 to 64", "Threads 0")
got = q(e, "go nodes 20000 multipv 3", "bestdecision")
final = [l for l in got if l.startswith("info ")][-3:]
check([l.split(" multipv ")[1].split()[0] for l in final] == ["1", "2", "3"],
      "multipv 3: the last info lines are lines 1-3: %r" % final)
firsts = [l.split(" pv ")[1].split()[0] for l in final]
check(len(set(firsts)) == 3 and set(firsts) <= legal(START), "multipv 3: 3 legal decisions %r" % firsts)
last = got[-1].split()
check(last[0] == "bestdecision" and last[1] == firsts[0], "best is line 1: %r" % got[-1])
check("turn" in last, "the rest of the turn: %r" % got[-1])
turn = [w for w in last[1:] if w != "turn"]
check(after(*turn).split()[1] == "ATK", "the best turn replays to ATK's turn: %r" % turn)
# a node budget repeats: the same answer after newgame
e.ask("newgame")
again = q(e, "go nodes 20000 multipv 3", "bestdecision")
check(again[-1] == got[-1], "same budget, same answer: %r vs %r" % (again[-1], got[-1]))
# issue 25's position: the ball taken into a stack (K11-J12 J12-I11 end)
e.ask("position bpn 7/6/3s3/6/7/3x2/4x*S1/3xo1/1O5/4[sX_]1/1o5/1X3O/3X2S/6/7/6/7 ATK a 2 - 0/0 34")
got = q(e, "go nodes 200000", "bestdecision")
check(got[-1] == "bestdecision K11-J12 turn J12-I11 end", "takes the ball: %r" % got[-1])
# stop ends an infinite search with an answer
e.ask("position startpos")
e.send("go infinite")
time.sleep(0.3)
t0 = time.time()
got = q(e, "stop", "bestdecision")
check(time.time() - t0 < 2.0, "stop answered within 2 s")
check(best_of(got) in legal(START), "stop: a legal decision")
check_clamped(e, "search")
e.send("quit")
check(e.close() == 0, "quit: exit status 0")

# ---- Eval / --eval: the network the library carries (the default) or the
# hand-written evaluation (ball_search_config::eval)
def final_value(lines):
    """The value of the last info line before bestdecision."""
    return [l for l in lines if l.startswith("info ")][-1].split(" value ")[1].split()[0]


e = Engine([BALL, "engine"])
check(error_of(e.ask("setoption name Eval value Hand"), "Eval Hand")
      == "info string error: setoption: Eval: 'Hand' is not one of: network hand", "Eval Hand refused")
network = q(e, "go nodes 20000", "bestdecision")
check(e.ask("setoption name Eval value hand") == [], "Eval hand accepted")
e.ask("newgame")
hand = q(e, "go nodes 20000", "bestdecision")
check(best_of(hand) in legal(START), "Eval hand: a legal decision %r" % hand[-1])
check(final_value(hand) != final_value(network),
      "Eval hand and network value the start alike: %s" % final_value(hand))
check(e.ask("setoption name Eval value network") == [], "Eval network accepted")
e.ask("newgame")
again = q(e, "go nodes 20000", "bestdecision")
check(again[-1] == network[-1] and final_value(again) == final_value(network),
      "back to the network: %r vs %r" % (again[-1], network[-1]))
e.send("quit")
check(e.close() == 0, "Eval session: exit 0")
e = Engine([BALL, "engine", "--eval", "hand"])
hand2 = q(e, "go nodes 20000", "bestdecision")
check(hand2[-1] == hand[-1] and final_value(hand2) == final_value(hand),
      "--eval hand is Eval hand: %r vs %r" % (hand2[-1], hand[-1]))
e.send("quit")
check(e.close() == 0, "--eval session: exit 0")
# the default is the shipped file's network, the same search node for node
SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "share", "net", "nnue.net")
e = Engine([BALL, "engine", "--net", SHIPPED])
shipped = q(e, "go nodes 20000", "bestdecision")
check(shipped[-1] == network[-1] and final_value(shipped) == final_value(network),
      "the default is share/net/nnue.net: %r vs %r" % (network[-1], shipped[-1]))
e.send("quit")
check(e.close() == 0, "--net nnue.net session: exit 0")
for args, why in ((["--eval", "foo"], "Eval: 'foo' is not one of: network hand"),
                  (["--searcher", "mcts", "--eval", "hand"], "--eval: only the turn search")):
    r = subprocess.run([BALL, "engine"] + args, input="", capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and why in r.stderr, "%s: %r" % (args, r.stderr))

# ---- EvalFile / --net: a network file (docs/network-format.md) as the
# turn search's evaluation; a bad file refused with the loader's reason
NET_WRITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                         "net-write.py")
with tempfile.TemporaryDirectory() as tmp:
    net = os.path.join(tmp, "n.bin")
    subprocess.run([sys.executable, NET_WRITE, "random", net, "--h1", "16", "--seed", "3"],
                   check=True, timeout=60)
    data = open(net, "rb").read()
    bad = {"trunc.bin": data[:1000], "crc.bin": data[:500] + bytes([data[500] ^ 1]) + data[501:],
           "ver.bin": data[:8] + b"\x03" + data[9:]}
    for name, content in bad.items():
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(content)
    e = Engine([BALL, "engine"])
    for name, why in (("trunc.bin", "net: truncated: 1000 bytes"), ("crc.bin", "net: byte 203116: checksum"),
                      ("ver.bin", "net: byte 8: format version 3, this library reads 1 and 2"),
                      ("missing.bin", "No such file")):
        err = error_of(e.ask("setoption name EvalFile value %s" % os.path.join(tmp, name)), name)
        check(err.startswith("info string error: setoption: EvalFile '%s': " % os.path.join(tmp, name))
              and why in err, "EvalFile %s: %r" % (name, err))
    check(e.ask("setoption name EvalFile value %s" % net) == [], "EvalFile accepted")
    e.ask("position startpos")
    got = q(e, "go nodes 3000", "bestdecision")
    check(best_of(got) in legal(START), "with the net: a legal decision %r" % got[-1])
    e.ask("newgame")
    again = q(e, "go nodes 3000", "bestdecision")
    check(again[-1] == got[-1], "with the net, a node budget repeats: %r vs %r" % (again[-1], got[-1]))
    check(e.ask("setoption name EvalFile value <empty>") == [], "EvalFile <empty> accepted")
    e.ask("newgame")
    plain = q(e, "go nodes 3000", "bestdecision")
    check(best_of(plain) in legal(START), "without the net: a legal decision")
    e.send("quit")
    check(e.close() == 0, "EvalFile session: exit 0")
    e = Engine([BALL, "engine", "--net", net])
    e.ask("position startpos")
    got2 = q(e, "go nodes 3000", "bestdecision")
    check(got2[-1] == got[-1], "--net is EvalFile: %r vs %r" % (got2[-1], got[-1]))
    e.send("quit")
    check(e.close() == 0, "--net session: exit 0")
    r = subprocess.run([BALL, "engine", "--net", os.path.join(tmp, "ver.bin")], input="",
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "net: byte 8: format version 3" in r.stderr, "bad --net: %r" % r.stderr)
    # a FIFO (no writer) or a directory as the network: refused at once,
    # the command loop free (it blocked in open() on a FIFO)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    e = Engine([BALL, "engine"])
    for path in (fifo, tmp):
        err = error_of(e.ask("setoption name EvalFile value %s" % path, 5), "EvalFile " + path)
        check(err.endswith("EvalFile '%s': not a regular file" % path), "EvalFile %s: %r" % (path, err))
    e.send("quit")
    check(e.close(5) == 0, "quit answered after EvalFile FIFO")
    r = subprocess.run([BALL, "engine", "--net", fifo], input="", capture_output=True, text=True,
                       timeout=10)
    check(r.returncode == 2 and "not a regular file" in r.stderr, "--net FIFO: %r" % r.stderr)
    r = subprocess.run([BALL, "engine", "--searcher", "mcts", "--net", net], input="",
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "--net" in r.stderr, "--net with mcts: %r" % r.stderr)

print("engine protocol test: %d failure(s)" % failures)
sys.exit(1 if failures else 0)
