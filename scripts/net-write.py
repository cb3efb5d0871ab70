#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a network file of docs/network-format.md (format version 1,
architecture 1, float32) from arrays (numpy arrays or nested lists), and
runs its forward pass in plain Python (an implementation independent of
libball/nnue/net.c, for tests and for the training pipeline's export checks).
Needs only the standard library; numpy arrays are read through .tolist().

As a module (importlib, the file name has a dash):
    pack_net(flags, w1, b1, wo, bo, w2=None, b2=None) -> bytes
    write_net(path, flags, w1, b1, wo, bo, w2=None, b2=None)
        w1: [input][h1], b1: [h1], w2: [h2][h1], b2: [h2],
        wo: [h2 or h1], bo: a number
    forward(obs, net) -> float in [-1, 1]
        obs: the 0/1 observation (ball_observation() values), net: a dict
        of the arguments above

From the command line, a net of random weights (multiples of 1/1024, so
that float32 sums are exact), seeded:
    net-write.py random OUT --h1 64 [--h2 0] [--flags 0] [--seed 1] [--scale 0.05]
"""
import argparse
import math
import random
import struct
import sys
import zlib

MAGIC = b"BALLNET\0"
VERSION = 1
ARCH_DENSE = 1
QUANT_F32 = 0
OBS_SIZE = {0: 3171, 1: 6251, 2: 10101, 3: 20111}


def _list(a):
    return a.tolist() if hasattr(a, "tolist") else a


def _f32(values):
    values = [float(v) for v in values]
    return struct.pack("<%df" % len(values), *values)


def pack_net(flags, w1, b1, wo, bo, w2=None, b2=None):
    """The bytes of the file."""
    w1, b1, wo = _list(w1), _list(b1), _list(wo)
    inp, h1 = len(w1), len(w1[0])
    h2 = 0 if w2 is None else len(_list(w2))
    body = [MAGIC, struct.pack("<8I", VERSION, ARCH_DENSE, flags, inp, h1, h2, QUANT_F32, 0)]
    body += [_f32(row) for row in w1]
    body.append(_f32(b1))
    if h2:
        body += [_f32(row) for row in _list(w2)]
        body.append(_f32(_list(b2)))
    body.append(_f32(wo))
    body.append(_f32([bo]))
    data = b"".join(body)
    return data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF)


def write_net(path, flags, w1, b1, wo, bo, w2=None, b2=None):
    with open(path, "wb") as f:
        f.write(pack_net(flags, w1, b1, wo, bo, w2, b2))


def _clip(x):
    return min(max(x, 0.0), 1.0)


def forward(obs, net):
    """Dense double-precision forward pass of architecture 1."""
    w1, b1 = _list(net["w1"]), _list(net["b1"])
    h1 = len(b1)
    s = [float(b) for b in b1]
    for i, x in enumerate(_list(obs)):
        if x:
            row = w1[i]
            for k in range(h1):
                s[k] += x * row[k]
    a = [_clip(v) for v in s]
    if net.get("w2") is not None:
        w2, b2 = _list(net["w2"]), _list(net["b2"])
        a = [_clip(b2[j] + sum(w * v for w, v in zip(w2[j], a))) for j in range(len(b2))]
    return math.tanh(float(net["bo"]) + sum(w * v for w, v in zip(_list(net["wo"]), a)))


def random_net(h1, h2=0, flags=0, seed=1, scale=0.05):
    """Random weights, multiples of 1/1024 within +-scale (seeded)."""
    rng = random.Random(seed)

    def q(n, s=scale):
        return [round(rng.uniform(-s, s) * 1024) / 1024 for _ in range(n)]

    net = {"w1": [q(h1) for _ in range(OBS_SIZE[flags])], "b1": [v + 0.25 for v in q(h1)],
           "wo": q(h2 or h1, scale * 10), "bo": 0.0}
    if h2:
        net["w2"] = [q(h1, scale * 10) for _ in range(h2)]
        net["b2"] = q(h2)
    return net


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("random", help="write a net of random weights")
    r.add_argument("out")
    r.add_argument("--h1", type=int, default=64)
    r.add_argument("--h2", type=int, default=0)
    r.add_argument("--flags", type=int, default=0, choices=sorted(OBS_SIZE))
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--scale", type=float, default=0.05)
    a = ap.parse_args(argv)
    write_net(a.out, a.flags, **random_net(a.h1, a.h2, a.flags, a.seed, a.scale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
