#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Trains a format-2 network (docs/network-format.md, architecture 2) on
the turn search's own values (docs/training.md, "Format 2"):

    PYTHONPATH=bindings/python python3 examples/python/train_nnue.py \\
        --data runs/z1 runs/z2 --out runs/net1

``--data`` names folders of ``python3 -m libball.selfplay --values``
(values shards: positions at turn starts with the search's value, the
game's result, their seed). The steps, each written into ``--out``:

1. **Features** (``cache/``): every kept position once (duplicates by
   hash and ruleset removed, first seen kept), its features from both
   coaches' sides computed by the library (``ball_net_features()``), one
   cache file per shard. Games whose seed is 0 modulo ``--val-every`` are
   held out for validation.
2. **Training**: the target of a position is ``--lam`` x the search's value
   + (1 - ``--lam``) x the game's result for the coach to act; the network
   predicts o, and o / (1 + |o|) (the search's squashing, docs/players.md)
   is compared with the target (mean squared error, Adam). The cache files
   are streamed in a seeded order through a shuffle buffer of
   ``--buffer`` files: the data need not fit in memory. Weights are kept
   within what the quantized file can hold.
3. **Export** (``value.net``): weights rounded to the file's integers.
4. **Check** (``check.json``): the library's value of ``--check``
   validation positions (``libball.Net``) against this program's own
   integer forward pass (must be equal) and against the float model.

``--features 2`` trains a network of feature set 2 (docs/network-format.md:
set 1 plus each piece within 4 columns and 3 rows of the ball, by its
offset from it). The cache stays set 1's (the same files serve both sets,
and caches made before keep working): set 2's extra features are derived
per batch (``relative()``) from set 1's list, which names every piece's
owner, type, state and square and where the ball is (its carrier's state
1 or 4, or the loose-ball feature), with the squares' columns and rows
taken from the library (``libball.square_col()``, ``square_row()``).
``--mirror`` maps set 2's features as well (dc -> -dc).

``run.json`` records the parameters, the commit of the checkout it ran
from (``commit``, with ``-dirty`` for local changes), the data (folders, their manifests'
parameters, the SHA-256 of their records, positions kept), the losses
(train, validation, and the validation loss of always answering 0), the
net's SHA-256 and CPU seconds. Needs numpy and torch (python3-numpy,
python3-torch).
"""

import argparse
import hashlib
import json
import os
import resource
import struct
import sys
import time
import zlib
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

import libball
from libball import net as lnet
from libball import shards

FEATURES = lnet.FEATURES  # feature set 1's, as the cache holds them
PAD = FEATURES           # the cache's padding index
ACTIVE = lnet.MAX_ACTIVE
#: Feature set 2 (docs/network-format.md): set 1's, then 63 offsets from
#: the ball (|dc| <= 4, |dr| <= 3) for each of set 1's 42 piece kinds.
REL_COLS, REL_ROWS = 4, 3
REL_OFFSETS = (2 * REL_COLS + 1) * (2 * REL_ROWS + 1)
FEATURES_2 = FEATURES + 42 * REL_OFFSETS
N_SQUARES, F_BALL, F_ZONE = 111, 4662, 4773  # set 1's layout (nnue.h)
QA, QB, QO = 127, 64, 1024  # the file's scales (nnue.h)
MAGIC = b"BALLNET\0"
#: The cache files' layout; a new one is computed afresh.
CACHE_VERSION = "c2"


def source_commit() -> Optional[str]:
    """The commit of the checkout this program runs from (the search and
    the features that made and read the data), with "-dirty" when files
    differ from it; None outside a git checkout or without git."""
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=30)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime


# ---------------------------------------------------------------- features


def data_shards(folders: List[str]) -> List[Tuple[str, str, str]]:
    """(shard path, rules text, folder) of every values shard, in folder
    then seed order."""
    out = []
    for folder in folders:
        with open(os.path.join(folder, "manifest.json")) as f:
            manifest = json.load(f)
        if not manifest["params"].get("values"):
            raise SystemExit("%s: not a values folder (python3 -m libball.selfplay --values)"
                             % folder)
        rules = manifest["params"]["rules"]
        for name in sorted(os.listdir(folder)):
            if name.startswith("seeds-") and name.endswith(".npz") and \
                    os.path.exists(os.path.join(folder, name[:-4] + ".json")):
                out.append((os.path.join(folder, name), rules, folder))
    return out


def featurize(path: str, rules: str) -> Dict[str, np.ndarray]:
    """The cache arrays of every row of the shard at ``path``."""
    d = shards.load(path)
    feats = np.full((len(d["value"]), 2, ACTIVE), PAD, dtype=np.uint16)
    hand = np.zeros(len(d["value"]), dtype=np.float32)
    # the hand-written evaluation (the searcher's default is the network
    # the library carries, which a new network must not be built on)
    with libball.Game(rules_text=rules) as g, \
            libball.TurnSearch(nodes=1, hash_mb=1, eval="hand") as ts:
        for r in range(len(d["value"])):
            g.bpn = d["bpn"][r].decode()
            side = int(d["side"][r])
            for j, persp in enumerate((side, side ^ 1)):
                f = lnet.features(g, persp)
                feats[r, j, :len(f)] = f
            hand[r] = ts.evaluate(g)
    return {"feats": feats, "value": d["value"], "ret": d["ret"], "seed": d["seed"],
            "hash": d["hash"], "bpn": d["bpn"], "rules": np.array(rules), "hand": hand}


def cache_name(cache: str, path: str) -> str:
    """The cache file of a shard: named by its folder's and its own name,
    so that a cache serves any run over the same shards."""
    folder = hashlib.sha256(os.path.abspath(os.path.dirname(path)).encode()).hexdigest()[:8]
    return os.path.join(cache, "%s-%s-%s" % (CACHE_VERSION, folder, os.path.basename(path)))


def build_cache(folders: List[str], cache: str, val_every: int) -> Tuple[List[Any], List[Any], Dict[str, Any]]:
    """Features of every shard into ``cache`` (kept between runs); returns
    the (file, rows) lists of the training and validation splits, each
    position once (duplicates by ruleset and hash: the first seen in
    folder and seed order is kept), and the counts."""
    os.makedirs(cache, exist_ok=True)
    seen = set()
    total = kept = 0
    train_files: List[Any] = []
    val_files: List[Any] = []
    for path, rules, _ in data_shards(folders):
        name = cache_name(cache, path)
        if not os.path.exists(name):
            tmp = name + ".tmp.npz"
            np.savez(tmp, **featurize(path, rules))
            os.replace(tmp, name)
        with np.load(name) as z:
            hashes, seeds = z["hash"], z["seed"]
        keep = np.zeros(len(hashes), dtype=bool)
        for r, h in enumerate(hashes.tolist()):
            if (rules, h) not in seen:
                seen.add((rules, h))
                keep[r] = True
        total += len(hashes)
        kept += int(keep.sum())
        val = seeds % val_every == 0
        train_files.append((name, np.nonzero(keep & ~val)[0]))
        val_files.append((name, np.nonzero(keep & val)[0]))
    return train_files, val_files, {"positions": total, "kept": kept}


def n_features(features: int) -> int:
    """The number of features of feature set ``features`` (1 or 2); it is
    also the padding index of the network's embedding (a zero row)."""
    return FEATURES_2 if features == 2 else FEATURES


def active(features: int) -> int:
    """The width of a batch's feature lists for feature set ``features``:
    set 2 has at most one relative feature a piece feature."""
    return 2 * ACTIVE if features == 2 else ACTIVE


def square_table() -> Tuple[np.ndarray, np.ndarray]:
    """(column, row) of each of the 111 squares, by the library."""
    cols = np.array([libball.square_col(sq) for sq in range(N_SQUARES)], dtype=np.int64)
    rows = np.array([libball.square_row(sq) for sq in range(N_SQUARES)], dtype=np.int64)
    return cols, rows


def relative(feats: np.ndarray, squares: Tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Feature set 2's lists [B, 2, 2 * ACTIVE] of set 1's ``feats``
    [B, 2, ACTIVE] (cache padding PAD): set 1's features, then for each
    piece within the window around the ball 4783 + kind * 63 + (dr + 3)
    * 9 + dc + 4 (kind = feature // 111, the square's column and row less
    the ball's: the squares of a perspective's list are already
    mirrored); padded with FEATURES_2."""
    cols, rows = squares
    f = feats.astype(np.int64)
    piece = f < F_BALL
    kind, sq = f // N_SQUARES, f % N_SQUARES
    carrier = piece & np.isin(kind % 7, (1, 4))
    loose = (f >= F_BALL) & (f < F_ZONE)
    ball = np.where(carrier, sq, np.where(loose, f - F_BALL, -1)).max(axis=2)
    if (ball < 0).any():
        raise ValueError("a position without the ball among its features")
    dc = cols[sq] - cols[ball][..., None]
    dr = rows[sq] - rows[ball][..., None]
    near = piece & (np.abs(dc) <= REL_COLS) & (np.abs(dr) <= REL_ROWS)
    rel = FEATURES + kind * REL_OFFSETS + (dr + REL_ROWS) * (2 * REL_COLS + 1) + dc + REL_COLS
    out = np.concatenate([np.where(f == PAD, FEATURES_2, f), np.where(near, rel, FEATURES_2)],
                         axis=2)
    return out.astype(np.uint16)


def unsquash(x: np.ndarray) -> np.ndarray:
    """o of x = o / (1 + |o|): the hand-written evaluation on the
    network's output scale (o = v / 1500 of the search's scale)."""
    x = np.clip(x.astype(np.float64), -0.999, 0.999)
    return (x / (1.0 - np.abs(x))).astype(np.float32)


def column_mirror(features: int = 1) -> np.ndarray:
    """The feature that each feature becomes when the board is mirrored
    across column G (c -> 14 - c; a playable square stays playable,
    R1.2): the rules (R5's patterns, R2.2's formation) are symmetric
    that way, so a position and its mirror image have the same value.
    Feature set 2's relative features keep their row offset and negate
    their column's (dc -> -dc). The padding index (n_features())
    maps to itself."""
    n = 111  # playable squares, numbered row by row from A1 (libball/square_table.h)
    dense = {}
    for r in range(1, 18):
        for c in range(1, 14):
            if (c + r) % 2 == 0:
                dense[(c, r)] = ((r - 1) // 2) * 13 + ((r - 1) % 2) * 7 + (c - 1) // 2
    sq_map = np.zeros(n, dtype=np.int64)
    for (c, r), sq in dense.items():
        sq_map[sq] = dense[(14 - c, r)]
    out = np.arange(n_features(features) + 1, dtype=np.int64)
    squares_end = F_ZONE  # the piece and ball features; then zone and turns (nnue.h)
    idx = np.arange(squares_end)
    out[:squares_end] = idx - idx % n + sq_map[idx % n]
    if features == 2:
        rel = np.arange(FEATURES, FEATURES_2)
        col = (rel - FEATURES) % (2 * REL_COLS + 1)  # dc + 4
        out[FEATURES:FEATURES_2] = rel - col + 2 * REL_COLS - col
    return out.astype(np.uint16)


def stream(files: List[Any], batch: int, buffer: int, rng: Optional[np.random.Generator],
           lam: float, mirror: Optional[np.ndarray] = None,
           squares: Optional[Tuple[np.ndarray, np.ndarray]] = None
           ) -> Iterator[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Batches (features [B, 2, ACTIVE], target [B], hand [B]) from the
    cache files' kept rows: a seeded file order and a shuffle over
    ``buffer`` files at a time (``rng`` None: in order, unshuffled).
    With ``squares`` (square_table()), feature set 2's lists
    (relative()), mirrored by a set-2 ``mirror``."""
    order = list(files)
    if rng is not None:
        order = [order[i] for i in rng.permutation(len(order))]
    for start in range(0, len(order), buffer):
        feats_l, target_l, hand_l = [], [], []
        for name, rows in order[start:start + buffer]:
            with np.load(name) as z:
                feats_l.append(z["feats"][rows])
                target_l.append(lam * z["value"][rows] + (1 - lam) * z["ret"][rows])
                hand_l.append(unsquash(z["hand"][rows]))
        feats, target = np.concatenate(feats_l), np.concatenate(target_l)
        hand = np.concatenate(hand_l)
        idx = rng.permutation(len(target)) if rng is not None else np.arange(len(target))
        for b in range(0, len(idx), batch):
            sel = idx[b:b + batch]
            f = feats[sel]
            if squares is not None:
                f = relative(f, squares)
            if mirror is not None and rng is not None:
                flip = rng.random(len(sel)) < 0.5
                f = f.copy()
                f[flip] = mirror[f[flip]]
            yield f, target[sel].astype(np.float32), hand[sel]


# ---------------------------------------------------------------- the model


def build_model(torch: Any, h: int, h2: int, residual: bool, features: int = 1) -> Any:
    nn = torch.nn
    nf, width = n_features(features), active(features)

    class Nnue(nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.features = features
            self.ft = nn.EmbeddingBag(nf + 1, h, mode="sum", padding_idx=nf)
            self.ftb = nn.Parameter(torch.zeros(h))
            self.l2 = nn.Linear(2 * h, h2)
            self.out = nn.Linear(h2, 1)
            #: 1.0: the output is a correction added to the hand-written
            #: evaluation (the file's base 1)
            self.base = 1.0 if residual else 0.0
            with torch.no_grad():
                self.ft.weight.normal_(0.0, 0.1)
                self.ft.weight[nf].zero_()
                self.ftb.fill_(0.25)

        def forward(self, feats: Any) -> Any:
            us = self.ft(feats[:, 0].long()) + self.ftb
            them = self.ft(feats[:, 1].long()) + self.ftb
            x = torch.cat([us, them], 1).clamp(0.0, 1.0)
            y = self.l2(x).clamp(0.0, 1.0)
            return self.out(y).squeeze(1)

        def clip_weights(self) -> None:
            """Within what the file holds: int8 hidden weights in 1/64,
            int16 output weights in 1/1024."""
            with torch.no_grad():
                self.l2.weight.clamp_(-127.0 / QB, 127.0 / QB)
                self.out.weight.clamp_(-32767.0 / QO, 32767.0 / QO)
                self.ft.weight.clamp_(-32767.0 / QA / width, 32767.0 / QA / width)

    return Nnue()


def squash(torch: Any, o: Any) -> Any:
    return o / (1.0 + o.abs())


def evaluate(torch: Any, model: Any, files: List[Any], batch: int,
             squares: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Tuple[float, float, int]:
    """(mean squared error of the model, of always answering 0, rows) on
    the search values of ``files``."""
    se = zero = 0.0
    n = 0
    model.eval()
    with torch.no_grad():
        for feats, target, hand in stream(files, batch, 64, None, 1.0, squares=squares):
            t = torch.from_numpy(target)
            p = squash(torch, model(torch.from_numpy(feats.astype(np.int64)))
                       + model.base * torch.from_numpy(hand))
            se += float(((p - t) ** 2).sum())
            zero += float((t ** 2).sum())
            n += len(target)
    model.train()
    return se / max(n, 1), zero / max(n, 1), n


def train(torch: Any, a: argparse.Namespace, model: Any, files: List[Any],
          val: List[Any], log: List[Dict[str, Any]]) -> None:
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=a.wd)
    mirror = column_mirror(a.features) if a.mirror else None
    squares = square_table() if a.features == 2 else None
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=max(1, a.epochs // 3), gamma=0.3)
    rng = np.random.default_rng(a.seed)
    for epoch in range(a.epochs):
        t0, total, n = time.time(), 0.0, 0
        for feats, target, hand in stream(files, a.batch, a.buffer, rng, a.lam, mirror, squares):
            p = squash(torch, model(torch.from_numpy(feats.astype(np.int64)))
                       + model.base * torch.from_numpy(hand))
            loss = ((p - torch.from_numpy(target)) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip_weights()
            total += float(loss) * len(target)
            n += len(target)
        sched.step()
        v, zero, vn = evaluate(torch, model, val, 4096, squares)
        log.append({"epoch": epoch, "train_loss": total / max(n, 1), "val_loss": v,
                    "val_zero_loss": zero, "val_rows": vn, "seconds": round(time.time() - t0, 1)})
        print("epoch %d: train %.5f  val %.5f (answering 0: %.5f)  %.0f s"
              % (epoch, total / max(n, 1), v, zero, time.time() - t0), flush=True)


# ---------------------------------------------------------------- export


def quantized(model: Any) -> Dict[str, np.ndarray]:
    """The file's integers (nnue.h's scales), rounded to nearest."""
    def q(t: Any, scale: float, dtype: Any) -> np.ndarray:
        info = np.iinfo(dtype)
        return np.clip(np.rint(t.detach().numpy().astype(np.float64) * scale),
                       info.min, info.max).astype(dtype)
    return {"ft": q(model.ft.weight[:n_features(model.features)], QA, np.int16),
            "ftb": q(model.ftb, QA, np.int16),
            "w2": q(model.l2.weight, QB, np.int8),
            "b2": q(model.l2.bias, QA * QB, np.int32),
            "wo": q(model.out.weight[0], QO, np.int16),
            "bo": q(model.out.bias, QA * QO, np.int32)}


def pack(w: Dict[str, np.ndarray], residual: bool) -> bytes:
    """The file: format 2, architecture 2, the feature set told by the
    number of FT's rows."""
    nf, h, h2 = w["ft"].shape[0], w["ft"].shape[1], w["w2"].shape[0]
    head = MAGIC + struct.pack("<8I", 2, 2, 2 if nf == FEATURES_2 else 1, nf, h, h2,
                               1 if residual else 0, 0)
    body = b"".join(w[k].astype(w[k].dtype.newbyteorder("<")).tobytes()
                    for k in ("ft", "ftb", "w2", "b2", "wo", "bo"))
    data = head + body
    return data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF)


def forward_int(w: Dict[str, np.ndarray], feats: np.ndarray) -> np.ndarray:
    """The raw outputs of the file's integers on ``feats`` [B, 2, width]
    (padded with the number of features), as libball computes them (int16
    sums that wrap, then exact sums)."""
    ft = np.vstack([w["ft"], np.zeros((1, w["ft"].shape[1]), np.int16)]).astype(np.int64)
    acc = w["ftb"].astype(np.int64)[None, None, :] + ft[feats.astype(np.int64)].sum(axis=2)
    acc = (acc + 32768) % 65536 - 32768
    x = np.clip(acc, 0, QA).reshape(len(feats), -1)
    y = x @ w["w2"].astype(np.int64).T + w["b2"].astype(np.int64)
    z = np.clip(np.where(y > 0, y >> 6, 0), 0, QA)
    return z @ w["wo"].astype(np.int64) + int(w["bo"][0])


def check(torch: Any, model: Any, w: Dict[str, np.ndarray], path: str, val: List[Any],
          positions: int) -> Dict[str, Any]:
    """The library's values (``libball.Net``) of up to ``positions``
    validation positions against the integer forward pass (equal up to
    the double rounding of o / (1 + |o|)) and against the float model."""
    lib_v, int_v, flt_v = [], [], []
    squares = square_table() if model.features == 2 else None
    with libball.Net.from_file(path) as net:
        for f, rows in val:
            z = np.load(f)
            rules = str(z["rules"])
            for k in rows.tolist():
                if len(lib_v) >= positions:
                    break
                feats = z["feats"][k:k + 1]
                if squares is not None:
                    feats = relative(feats, squares)
                o = forward_int(w, feats)[0] / (QA * QO)
                int_v.append(o / (1 + abs(o)))
                with torch.no_grad():
                    fo = float(model(torch.from_numpy(feats.astype(np.int64)))[0])
                flt_v.append(fo / (1 + abs(fo)))
                with libball.Game(z["bpn"][k].decode(), rules_text=rules) as g:
                    lib_v.append(net.evaluate(g))
            if len(lib_v) >= positions:
                break
    lv = np.array(lib_v)
    return {"positions": len(lib_v),
            "max_diff_integer": float(np.max(np.abs(lv - np.array(int_v)))) if lib_v else 0.0,
            "max_diff_float": float(np.max(np.abs(lv - np.array(flt_v)))) if lib_v else 0.0}


def compare_hand(path: str, val: List[Any], positions: int) -> Dict[str, Any]:
    """The mean squared error against the search's values of up to
    ``positions`` validation positions: of the exported network as the
    library evaluates it, and of the hand-written evaluation squashed the
    same way (``TurnSearch.evaluate()``): the network must predict the
    search better before it is played at all."""
    se_net = se_hand = 0.0
    n = 0
    with libball.Net.from_file(path) as net, \
            libball.TurnSearch(nodes=1, hash_mb=1, eval="hand") as hand, \
            libball.TurnSearch(nodes=1, hash_mb=1, eval=net) as learned:
        for f, rows in val:
            z = np.load(f)
            rules = str(z["rules"])
            for k in rows.tolist():
                if n >= positions:
                    break
                t = float(z["value"][k])
                with libball.Game(z["bpn"][k].decode(), rules_text=rules) as g:
                    se_net += (learned.evaluate(g) - t) ** 2
                    se_hand += (hand.evaluate(g) - t) ** 2
                n += 1
            if n >= positions:
                break
    return {"positions": n, "net_mse": se_net / max(n, 1), "hand_mse": se_hand / max(n, 1)}


# ---------------------------------------------------------------- the run


def folder_info(folder: str) -> Dict[str, Any]:
    with open(os.path.join(folder, "manifest.json")) as f:
        m = json.load(f)
    digest = hashlib.sha256()
    chunks = 0
    for name in sorted(os.listdir(folder)):
        if name.startswith("seeds-") and name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                info = json.load(f)
            digest.update((info["records_sha256"] + (info.get("shard_sha256") or "")).encode())
            chunks += 1
    return {"folder": folder, "params": m["params"], "library_version": m.get("library_version"),
            "chunks": chunks, "chunks_sha256": digest.hexdigest()}


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="values folders of libball.selfplay")
    ap.add_argument("--out", required=True, help="the run's folder (created)")
    ap.add_argument("--cache", help="the features cache (default OUT/cache)")
    ap.add_argument("--h", type=int, default=128, help="first layer a side (128)")
    ap.add_argument("--features", type=int, choices=(1, 2), default=1,
                    help="the feature set: 1 pieces by square, 2 also each piece near the "
                    "ball by its offset from it (docs/network-format.md; 1)")
    ap.add_argument("--residual", action=argparse.BooleanOptionalAction, default=True,
                    help="the network learns a correction added to the hand-written "
                    "evaluation (file base 1; default), or the whole value (--no-residual)")
    ap.add_argument("--h2", type=int, default=16, help="hidden layer (16)")
    ap.add_argument("--epochs", type=int, default=6, help="passes over the data (6)")
    ap.add_argument("--batch", type=int, default=1024, help="positions a step (1024)")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's step size (0.002)")
    ap.add_argument("--wd", type=float, default=0.0,
                    help="AdamW's weight decay (0: plain Adam's steps)")
    ap.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True,
                    help="train on each position or its mirror image across column G, "
                    "at random (the rules are symmetric that way; default on)")
    ap.add_argument("--out-scale", type=float, default=1.0,
                    help="the output layer is multiplied by this before export: a residual "
                    "network's correction shrunk toward the hand-written evaluation (1.0)")
    ap.add_argument("--lam", type=float, default=1.0,
                    help="weight of the search's value in the target, the rest the game's "
                    "result (1.0)")
    ap.add_argument("--buffer", type=int, default=16, help="cache files shuffled together (16)")
    ap.add_argument("--val-every", type=int, default=10,
                    help="games whose seed is 0 modulo N are held out (10)")
    ap.add_argument("--seed", type=int, default=1, help="torch's and the order's seed (1)")
    ap.add_argument("--threads", type=int, default=2, help="torch's threads (2)")
    ap.add_argument("--check", type=int, default=1000, help="positions of the check (1000)")
    ap.add_argument("--compare", type=int, default=50000,
                    help="validation positions on which the network and the hand-written "
                    "evaluation are compared (50000)")
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    import torch
    a = parser().parse_args(argv)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    os.makedirs(a.out, exist_ok=True)
    run: Dict[str, Any] = {"params": vars(a), "torch": torch.__version__,
                           "libball": libball.LIBRARY_VERSION, "commit": source_commit(),
                           "data": [folder_info(f) for f in a.data]}
    c0 = cpu()
    cache = a.cache or os.path.join(a.out, "cache")
    files, val, run["positions"] = build_cache(a.data, cache, a.val_every)
    if sum(len(rows) for _, rows in val) == 0:
        print("train_nnue: no game of the data has a seed that is 0 modulo --val-every %d: "
              "nothing is held out for validation (lower --val-every)" % a.val_every,
              file=sys.stderr)
        return 2
    run["cpu_features_s"] = round(cpu() - c0, 1)
    model = build_model(torch, a.h, a.h2, a.residual, a.features)
    log: List[Dict[str, Any]] = []
    c1 = cpu()
    train(torch, a, model, files, val, log)
    run["cpu_train_s"] = round(cpu() - c1, 1)
    run["epochs"] = log
    if a.out_scale != 1.0:
        with torch.no_grad():
            model.out.weight.mul_(a.out_scale)
            model.out.bias.mul_(a.out_scale)
    w = quantized(model)
    path = os.path.join(a.out, "value.net")
    data = pack(w, a.residual)
    with open(path, "wb") as f:
        f.write(data)
    torch.save(model.state_dict(), os.path.join(a.out, "model.pt"))
    run["net"] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    run["check"] = check(torch, model, w, path, val, a.check)
    run["versus_hand"] = compare_hand(path, val, a.compare)
    with open(os.path.join(a.out, "run.json"), "w") as f:
        json.dump(run, f, indent=1, sort_keys=True)
    print(json.dumps({"net": path, **run["net"], "check": run["check"],
                      "versus_hand": run["versus_hand"],
                      "val_loss": log[-1]["val_loss"] if log else None}, indent=1))
    if run["check"]["max_diff_integer"] > 1e-12:
        print("train_nnue: the library's values differ from the integer forward pass",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
