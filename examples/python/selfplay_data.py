#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-play data for learning: plays games of BALL in a libball.learn.Batch
and writes one record per decision: (observation, legal mask, chosen
index, final return), the observation and mask packed in bits.

    PYTHONPATH=bindings/python python3 examples/python/selfplay_data.py \\
        --games 16 --parallel 8 --turn-limit 30 --out selfplay.npz

The final return is that of the coach who took the decision: +1 if it
won the game, -1 if it lost, 0 for a draw (turn limit) - the value target
of AlphaZero-style training. Observations are in that coach's frame
(docs/learning.md), so one network learns both sides.

This example shows the Batch interface on one machine. For data at scale,
with the MCTS player's visit counts as policy targets, written as it is
made and resumable, use ``python3 -m libball.selfplay`` (docs/scale.md).

Output: with numpy, a .npz holding ``obs`` (uint8, records x packed
observation bytes), ``mask`` (uint8, records x 999), ``index`` (int32),
``ret`` (float32), ``side`` (uint8: 0 ATK, 1 DEF), ``game`` (int32) and
``obs_flags``/``obs_size``; unpack with
``numpy.unpackbits(a, axis=-1, count=size, bitorder="little")``. Without
numpy (or with ``--format bin``) a simple binary file: the 8 bytes
``BALLSP1\\n``, six little-endian uint32 (format version 1, obs_flags,
obs_size, observation bytes, mask bytes, records), then each record:
observation bytes, mask bytes, int32 index, float32 return, uint8 side.
``load(path)`` reads either format back.

``--policy library`` (the default) lets the batch draw uniformly random
decisions itself, one foreign call per step for all games; ``--policy
mask`` picks them in Python from the legal masks and passes the indices
to step(): the place where a network's choice would go.
"""

import argparse
import random
import struct
import sys
from typing import Any, Dict, List, Optional

from libball import learn

MAGIC = b"BALLSP1\n"
HEADER = struct.Struct("<6I")
TAIL = struct.Struct("<ifB")  # index, return, side


def _scalar(batch: learn.Batch, output: str, i: int) -> int:
    """Game i's value of a one-number output (numpy scalar or memoryview)."""
    v = batch.row(output, i)
    return int(v[0]) if isinstance(v, memoryview) else int(v)


def generate(games: int, parallel: int, seed: int, turn_limit: int, obs_flags: int,
             policy: str, start: Optional[str] = None) -> Dict[str, Any]:
    """Plays until ``games`` games have ended; returns the records of the
    ended games as lists (unfinished games are dropped)."""
    outputs = ("obs_bits", "mask_bits", "actions", "done", "rewards", "side")
    batch = learn.Batch(parallel, outputs=outputs, obs_flags=obs_flags, seed=seed,
                        turn_limit=turn_limit, start=start)
    rng = random.Random(seed)
    pending: List[List[Any]] = [[] for _ in range(parallel)]
    rec: Dict[str, List[Any]] = {"obs": [], "mask": [], "index": [], "ret": [], "side": [],
                                 "game": []}
    finished = 0
    mask_bits = learn.ACTION_MASK_BYTES
    while finished < games:
        # what each game sees before the step
        seen = [(bytes(batch.row("obs_bits", i)), bytes(batch.row("mask_bits", i)),
                 _scalar(batch, "side", i)) for i in range(parallel)]
        if policy == "mask":
            for i, (_, mask, _) in enumerate(seen):
                legal = [8 * b + k for b in range(mask_bits) if mask[b]
                         for k in range(8) if mask[b] >> k & 1]
                batch.indices[i] = rng.choice(legal)
            batch.step(batch.indices)
        else:
            batch.step()
        for i in range(parallel):
            obs, mask, side = seen[i]
            played = _scalar(batch, "actions", i)
            pending[i].append((obs, mask, played, side))
            done = _scalar(batch, "done", i)
            if done:
                rewards = list(batch.row("rewards", i))
                if finished < games:
                    for o, m, index, s in pending[i]:
                        rec["obs"].append(o)
                        rec["mask"].append(m)
                        rec["index"].append(index)
                        rec["ret"].append(float(rewards[s]))
                        rec["side"].append(s)
                        rec["game"].append(finished)
                    finished += 1
                pending[i] = []
    batch.close()
    rec["obs_flags"] = obs_flags
    rec["obs_size"] = learn.observation_size(obs_flags)
    return rec


def save(rec: Dict[str, Any], path: str, fmt: str) -> None:
    """Writes the records to ``path`` in format "npz" or "bin"."""
    if fmt == "npz":
        import numpy as np
        n = len(rec["index"])
        obs_bytes = (rec["obs_size"] + 7) // 8
        with open(path, "wb") as f:  # a file object: numpy adds no ".npz"
            np.savez_compressed(
                f,
                obs=np.frombuffer(b"".join(rec["obs"]), dtype=np.uint8).reshape(n, obs_bytes),
                mask=np.frombuffer(b"".join(rec["mask"]), dtype=np.uint8)
                .reshape(n, learn.ACTION_MASK_BYTES),
                index=np.array(rec["index"], dtype=np.int32),
                ret=np.array(rec["ret"], dtype=np.float32),
                side=np.array(rec["side"], dtype=np.uint8),
                game=np.array(rec["game"], dtype=np.int32),
                obs_flags=np.int32(rec["obs_flags"]), obs_size=np.int32(rec["obs_size"]))
        return
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(HEADER.pack(1, rec["obs_flags"], rec["obs_size"], (rec["obs_size"] + 7) // 8,
                            learn.ACTION_MASK_BYTES, len(rec["index"])))
        for o, m, index, r, s in zip(rec["obs"], rec["mask"], rec["index"], rec["ret"],
                                     rec["side"]):
            f.write(o)
            f.write(m)
            f.write(TAIL.pack(index, r, s))


def load(path: str) -> Dict[str, Any]:
    """The records of a file written by save(): a dict of arrays (npz) or
    of lists, with ``obs``/``mask`` as packed bytes per record (bin)."""
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
        if head != MAGIC:
            import numpy as np
            with np.load(path) as data:
                return {k: data[k] for k in data.files}
        version, flags, size, obs_bytes, mask_bytes, n = HEADER.unpack(f.read(HEADER.size))
        if version != 1:
            raise ValueError("%s: format version %d, not 1" % (path, version))
        rec: Dict[str, Any] = {"obs": [], "mask": [], "index": [], "ret": [], "side": [],
                               "obs_flags": flags, "obs_size": size}
        for _ in range(n):
            rec["obs"].append(f.read(obs_bytes))
            rec["mask"].append(f.read(mask_bytes))
            index, r, s = TAIL.unpack(f.read(TAIL.size))
            rec["index"].append(index)
            rec["ret"].append(r)
            rec["side"].append(s)
        if f.read(1):
            raise ValueError("%s: trailing bytes after %d records" % (path, n))
        return rec


def main(argv: List[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=16, help="games to record (16)")
    p.add_argument("--parallel", type=int, default=8, help="games played at once (8)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--turn-limit", type=int, default=learn.AUTO_TURN_LIMIT,
                   help="turn limit of the ruleset, 0 for none (%d, the turn limit of "
                   "automated games; random games without a limit last about 2,500 "
                   "decisions)" % learn.AUTO_TURN_LIMIT)
    p.add_argument("--obs-flags", type=int, default=0, help="ObsFlag: 1 grid, 2 scalar planes")
    p.add_argument("--start", help="BPN of the start position (default: the standard start)")
    p.add_argument("--policy", choices=("library", "mask"), default="library")
    p.add_argument("--format", choices=("npz", "bin"),
                   default="npz" if learn.have_numpy() else "bin")
    p.add_argument("--out", default="selfplay.npz")
    a = p.parse_args(argv)
    if a.format == "npz" and not learn.have_numpy():
        p.error("--format npz needs numpy; use --format bin")
    rec = generate(a.games, a.parallel, a.seed, a.turn_limit, a.obs_flags, a.policy, a.start)
    save(rec, a.out, a.format)
    wins = sum(1 for r in rec["ret"] if r > 0)
    print("%s: %d records of %d games (%d decisions by a coach who won), format %s"
          % (a.out, len(rec["index"]), a.games, wins, a.format))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
