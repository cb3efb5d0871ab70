#!/usr/bin/env python3
"""The chess anchor (make bench-anchors): libball against Stockfish on the
same machine, in one run whose rounds interleave the workloads, so that
both see the same drift of a shared machine.

    anchors.py BALL_TOOL ANCHORS_DRIVER [STOCKFISH] [ROUNDS]

Workloads, each run once per round (the order rotates from round to round):
  ball perft 6         `ball perft 6` from the standard start (bulk: the
                       last ply is counted, not played)
  ball make-every-leaf the driver's perft 5 from the start with every leaf
                       decision applied and undone (bench/anchors.c)
  sf perft 6           Stockfish `go perft 6` from the chess start
  sf kiwipete 5        Stockfish `go perft 5` from Kiwipete

Stockfish's perft is bulk at the leaves too: it plays every move down to
the last-but-one ply and counts the last ply's legal moves. Its
make-every-leaf rate is therefore taken as the positions it plays (the
perft counts of plies 1 to depth - 1) per second of the same run; it also
generates the last ply's moves in that time, which libball's driver does
not, so that rate errs in libball's favour by that much. The last two
ratios set libball's make-every-leaf rate against Stockfish's bulk one,
which errs the other way by far: they bound the comparison.

libball runs as one process per run (its start-up, about a millisecond,
is inside the time); Stockfish stays up between runs (its start-up loads
the network and takes a good part of a second) and is timed from the
command to its answer. CPU time: getrusage() of the finished child for
libball, /proc/PID/task/*/schedstat (nanoseconds on a CPU, all threads)
for Stockfish. Every ratio is libball over Stockfish, paired within a
round; the tables give the median and the spread (lowest-highest) over
the rounds.
"""
import glob
import os
import resource
import statistics
import subprocess
import sys
import time

START_FEN = "startpos"
KIWIPETE = "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KIWIPETE_5 = 193690690  # the published count; checked on every run
BALL_6 = 122909068


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_libball(cmd):
    """Runs one libball process; returns (leaves, wall s, cpu s)."""
    cpu0, t0 = child_cpu(), time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall, cpu = time.perf_counter() - t0, child_cpu() - cpu0
    return int(out.split()[0]), wall, cpu


class Stockfish:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.version = "Stockfish"
        for line in self.lines():
            if line.startswith("id name "):
                self.version = line[len("id name "):]
            if line == "uciok":
                break

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def lines(self):
        for line in self.proc.stdout:
            yield line.strip()
        raise RuntimeError("stockfish exited")

    def cpu(self):
        ns = 0
        for f in glob.glob("/proc/%d/task/*/schedstat" % self.proc.pid):
            with open(f) as fh:
                ns += int(fh.read().split()[0])
        return ns / 1e9

    def perft(self, position, depth):
        """Returns (leaves, wall s, cpu s) of `go perft depth`."""
        self.send("position " + position)
        self.send("isready")
        for line in self.lines():
            if line == "readyok":
                break
        cpu0, t0 = self.cpu(), time.perf_counter()
        self.send("go perft %d" % depth)
        for line in self.lines():
            if line.startswith("Nodes searched:"):
                wall, cpu = time.perf_counter() - t0, self.cpu() - cpu0
                return int(line.split(":")[1]), wall, cpu

    def close(self):
        self.send("quit")
        self.proc.wait()


def spread(values):
    return "%.2f (%.2f-%.2f)" % (statistics.median(values), min(values), max(values))


def machine():
    model, cpus = "unknown CPU", os.cpu_count()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "%s, %d CPUs" % (model, cpus)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: anchors.py BALL_TOOL ANCHORS_DRIVER [STOCKFISH] [ROUNDS]")
    tool, driver = sys.argv[1], sys.argv[2]
    sf_path = sys.argv[3] if len(sys.argv) > 3 else "stockfish"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    sf = Stockfish(sf_path)
    # the positions Stockfish plays in `go perft D`: plies 1 .. D-1
    made_start = sum(sf.perft(START_FEN, d)[0] for d in range(1, 6))
    made_kiwi = sum(sf.perft(KIWIPETE, d)[0] for d in range(1, 5))
    work = {
        "ball perft 6": lambda: run_libball([tool, "perft", "6"]),
        "ball make-every-leaf 5": lambda: run_libball([driver, "leaves", "5"]),
        "sf perft 6": lambda: sf.perft(START_FEN, 6),
        "sf kiwipete 5": lambda: sf.perft(KIWIPETE, 5),
    }
    names = list(work)
    runs = {name: [] for name in names}
    work["ball perft 4"] = lambda: run_libball([tool, "perft", "4"])  # warm-up of the caches
    work["ball perft 4"]()
    for r in range(rounds):
        for i in range(len(names)):
            name = names[(r + i) % len(names)]
            runs[name].append(work[name]())
    sf.close()
    if runs["ball perft 6"][0][0] != BALL_6 or runs["sf kiwipete 5"][0][0] != KIWIPETE_5:
        sys.exit("anchors: unexpected perft counts %s" % {n: v[0][0] for n, v in runs.items()})

    # rates in M per second, per round, by wall and by CPU time
    def rates(name, units=None):
        return {clock: [(units or leaves) / t / 1e6 for leaves, *times in runs[name] for t in [times[k]]]
                for k, clock in enumerate(("wall", "cpu"))}

    rate = {
        "ball perft 6": rates("ball perft 6"),
        "sf perft 6": rates("sf perft 6"),
        "sf kiwipete 5": rates("sf kiwipete 5"),
        "ball make-every-leaf 5": rates("ball make-every-leaf 5"),
        "sf perft 6, positions played": rates("sf perft 6", made_start),
        "sf kiwipete 5, positions played": rates("sf kiwipete 5", made_kiwi),
    }
    print("machine: %s; %s; %d rounds" % (machine(), sf.version, rounds))
    print("\n| workload | M/s by wall time | M/s by CPU time | CPU s per run |")
    print("|---|---:|---:|---:|")
    for name, by in rate.items():
        base = name.split(",")[0]
        cpu = statistics.median(t[2] for t in runs[base])
        unit = "positions played" if "played" in name or "every" in name else "leaves"
        print("| %s (%s) | %s | %s | %.3f |" % (name.split(",")[0], unit, spread(by["wall"]), spread(by["cpu"]), cpu))
    pairs = [
        ("bulk: ball perft 6 / sf perft 6", "ball perft 6", "sf perft 6"),
        ("bulk: ball perft 6 / sf kiwipete 5", "ball perft 6", "sf kiwipete 5"),
        ("make every leaf: ball / sf perft 6, positions played", "ball make-every-leaf 5",
         "sf perft 6, positions played"),
        ("make every leaf: ball / sf kiwipete 5, positions played", "ball make-every-leaf 5",
         "sf kiwipete 5, positions played"),
        ("ball make every leaf / sf perft 6 bulk leaves", "ball make-every-leaf 5", "sf perft 6"),
        ("ball make every leaf / sf kiwipete 5 bulk leaves", "ball make-every-leaf 5", "sf kiwipete 5"),
    ]
    print("\n| ratio, libball / Stockfish (paired by round) | by wall time | by CPU time |")
    print("|---|---:|---:|")
    for label, a, b in pairs:
        cells = [spread([x / y for x, y in zip(rate[a][c], rate[b][c])]) for c in ("wall", "cpu")]
        print("| %s | %s | %s |" % (label, cells[0], cells[1]))


if __name__ == "__main__":
    main()
