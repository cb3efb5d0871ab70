#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""From nothing to a network file: self-play, training, export, checks and
a match, for the learned evaluation of the turn search (docs/training.md).

    PYTHONPATH=bindings/python python3 examples/python/train_net.py --out build/train

Each generation K (from 0) does, in OUT/genK/:

1. ``data/``: ``--games`` self-play games of ``python3 -m libball.selfplay``
   between two turn searches of ``--nodes`` nodes (generation 0 with the
   hand-written evaluation, generation K > 0 with generation K-1's
   network), seeds ``--seed`` + 1000000 K + i; the shards keep the
   observations (packed bits) and each decision's final return;
2. ``value.net`` (and the torch parameters, ``model.pt``): a value network (docs/network-format.md, architecture 1:
   Linear(3171, H1), Hardtanh(0, 1), [Linear(H1, H2), Hardtanh(0, 1)],
   Linear, Tanh) trained with torch on the returns of all generations'
   games so far (mean squared error, Adam, ``--epochs``; one game in ten
   held out for the validation loss), each position also seen in its
   left-right mirror image (``--mirror``);
3. ``check.json``: the library's evaluation of the file (``libball.Net``)
   against the torch model on ``--check`` positions of random games: the
   largest difference, which must be under 1e-5;
4. ``match.json``: with ``--match-games`` > 0, ``ball match`` of the search
   with this network against the search with the hand-written evaluation,
   each at its own node budget (``--match-nodes``, and for the network
   ``--match-net-nodes``, by default the same).

``OUT/value.net`` is the last generation's network; ``OUT/run.json`` holds
every generation's parameters, data counts and digests, losses, check and
match results, the torch and library versions and the CPU seconds of each
step. Seeds are fixed (torch, the data, the split): the same command on
the same machine gives the same file, byte for byte (torch runs on one
thread for that; ``--threads`` trades it for speed).

Needs numpy and torch (Debian's python3-numpy, python3-torch).
"""

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

import libball
from libball import learn, selfplay, shards

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
#: The largest difference allowed between the library's value and torch's.
CHECK_TOLERANCE = 1e-5
#: Games of a generation are seeded SEED + GEN_STRIDE * generation + i.
GEN_STRIDE = 1000000


def _net_writer() -> Any:
    """scripts/net-write.py, the format's writer (its name has a dash)."""
    path = os.path.join(ROOT, "scripts", "net-write.py")
    spec = importlib.util.spec_from_file_location("net_write", path)
    if spec is None or spec.loader is None:
        raise SystemExit("train_net: cannot load %s" % path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime


def _sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ------------------------------------------------------------------ data

def make_data(out: str, games: int, nodes: int, seed: int, net: Optional[str],
              workers: int, turn_limit: int) -> Dict[str, Any]:
    """Self-play games into the folder ``out`` (resumed if it exists)."""
    # generation 0: the hand-written evaluation (the search's default is
    # the network the library carries, which this pipeline does not start from)
    player = "search:nodes=%d" % nodes + (",net=%s" % net if net else ",eval=hand")
    params = selfplay.Params(atk=player, dfn=player, seed=seed, chunk=max(1, min(50, games)))
    return selfplay.run(out, games, params, turn_limit=turn_limit, workers=workers)


def load_rows(folders: List[str]) -> Tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The packed observations, returns and game seeds of every shard of
    the folders, in file order, and the unpacked size."""
    obs, ret, seed, size = [], [], [], None
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".npz"):
                continue
            d = shards.load(os.path.join(folder, name))
            if int(d["obs_flags"]) != 0:
                raise SystemExit("train_net: %s/%s: observation flags %d, the pipeline "
                                 "trains on flags 0" % (folder, name, int(d["obs_flags"])))
            size = int(d["obs_size"])
            obs.append(d["obs"])
            ret.append(d["ret"])
            seed.append(d["seed"])
    if not obs:
        raise SystemExit("train_net: no shards in %s" % ", ".join(folders))
    return np.concatenate(obs), np.concatenate(ret), np.concatenate(seed), int(size)


def mirrored(obs: np.ndarray) -> np.ndarray:
    """The left-right mirror images of packed observations (the library's)."""
    out = np.empty_like(obs)
    learn.observation_bits_mirror(obs, 0, out)
    return out


# ------------------------------------------------------------------ model

def build_model(torch: Any, size: int, h1: int, h2: int) -> Any:
    """Architecture 1 with its first layer as a sum over the set inputs
    (an EmbeddingBag: the weights of input i are row i, the file's
    input-major W1), as the library evaluates it; a few dozen of the 3,171
    inputs are set, so this is much cheaper than a dense Linear."""
    nn, F = torch.nn, torch.nn.functional

    class ValueNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.l1 = nn.EmbeddingBag(size, h1, mode="sum")
            # Hardtanh(0, 1) passes gradients only inside (0, 1): start
            # the first layer's units there, so none is dead from the start.
            self.b1 = nn.Parameter(torch.full((h1,), 0.5))
            bound = 0.5 / size ** 0.5
            nn.init.uniform_(self.l1.weight, -bound, bound)
            self.l2 = nn.Linear(h1, h2) if h2 else None
            self.out = nn.Linear(h2 or h1, 1)

        def forward(self, idx: Any, offsets: Any) -> Any:
            a = F.hardtanh(self.l1(idx, offsets) + self.b1, 0.0, 1.0)
            if self.l2 is not None:
                a = F.hardtanh(self.l2(a), 0.0, 1.0)
            return torch.tanh(self.out(a))

    return ValueNet()


def _batch(torch: Any, packed: np.ndarray, size: int) -> Tuple[Any, Any]:
    """The set inputs of packed observations, as EmbeddingBag's indices
    and per-row offsets."""
    bits = np.unpackbits(packed, axis=-1, count=size, bitorder="little")
    rows, cols = np.nonzero(bits)
    counts = np.bincount(rows, minlength=len(packed))
    offsets = np.zeros(len(packed), dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    return torch.from_numpy(cols.astype(np.int64)), torch.from_numpy(offsets)


def train(torch: Any, obs: np.ndarray, ret: np.ndarray, seeds: np.ndarray, size: int,
          a: argparse.Namespace, gen: int) -> Tuple[Any, Dict[str, Any]]:
    """A model trained on the rows; the losses of every epoch."""
    torch.manual_seed(a.seed + gen)
    rng = np.random.default_rng(a.seed + gen)
    held = (seeds % 10) == 0          # one game in ten, by its seed
    tr_obs, tr_ret = obs[~held], ret[~held]
    va_obs, va_ret = obs[held], ret[held]
    if a.mirror:
        tr_obs = np.concatenate([tr_obs, mirrored(tr_obs)])
        tr_ret = np.concatenate([tr_ret, tr_ret])
    model = build_model(torch, size, a.h1, a.h2)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    loss_fn = torch.nn.MSELoss()
    history = []
    for epoch in range(a.epochs):
        model.train()
        order = rng.permutation(len(tr_ret))
        total, n = 0.0, 0
        for start in range(0, len(order), a.batch):
            idx = np.sort(order[start:start + a.batch])
            x = _batch(torch, tr_obs[idx], size)
            y = torch.from_numpy(tr_ret[idx].astype(np.float32)).unsqueeze(1)
            opt.zero_grad()
            loss = loss_fn(model(*x), y)
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
            n += len(idx)
        history.append({"epoch": epoch + 1, "train_mse": total / max(n, 1),
                        "valid_mse": validate(torch, model, va_obs, va_ret, size)})
    return model, {"rows_train": int(len(tr_ret)), "rows_valid": int(len(va_ret)),
                   "epochs": history,
                   "valid_mse_of_zero": float(np.mean(va_ret.astype(np.float64) ** 2))
                   if len(va_ret) else None}


def validate(torch: Any, model: Any, obs: np.ndarray, ret: np.ndarray, size: int) -> Optional[float]:
    if not len(ret):
        return None
    model.eval()
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(ret), 4096):
            x = _batch(torch, obs[start:start + 4096], size)
            v = model(*x).squeeze(1).double().numpy()
            total += float(np.sum((v - ret[start:start + 4096].astype(np.float64)) ** 2))
    return total / len(ret)


def export(model: Any, path: str, h2: int) -> None:
    """The model as a network file (the EmbeddingBag's rows are W1)."""
    w = _net_writer()

    def a(t: Any) -> np.ndarray:
        return t.detach().numpy().astype(np.float32)

    extra = (a(model.l2.weight), a(model.l2.bias)) if h2 else (None, None)
    w.write_net(path, 0, a(model.l1.weight), a(model.b1), a(model.out.weight)[0],
                float(a(model.out.bias)[0]), *extra)


# ------------------------------------------------------------------ checks

def check(torch: Any, model: Any, path: str, positions: int, seed: int) -> Dict[str, Any]:
    """The library's value of ``path`` against the torch model's on
    ``positions`` positions of random games (the game's own observation)."""
    model.eval()
    worst, total, rng = 0.0, 0.0, np.random.default_rng(seed)
    size = learn.observation_size(0)
    with libball.Net.from_file(path) as net:
        game, done = libball.Game(), 0
        while done < positions:
            if game.is_over or rng.random() < 0.02:
                game.close()
                game = libball.Game()
            game.random_apply(int(rng.integers(1, 2 ** 31)))
            if game.is_over:
                continue
            c_value = net.evaluate(game)
            bits = np.asarray(learn.observation_bits(game), dtype=np.uint8)
            with torch.no_grad():
                t_value = float(model(*_batch(torch, bits[np.newaxis], size))[0, 0])
            diff = abs(c_value - t_value)
            worst, total, done = max(worst, diff), total + diff, done + 1
        game.close()
    return {"positions": positions, "max_abs_diff": worst, "mean_abs_diff": total / positions,
            "tolerance": CHECK_TOLERANCE, "ok": worst < CHECK_TOLERANCE}


def match(a: argparse.Namespace, net: str, out: str) -> Dict[str, Any]:
    """``ball match``: the search with ``net`` against the hand-written one."""
    report = os.path.join(out, "match.json")
    cmd = [a.ball, "match",
           "--engine", "cmd=%s engine" % a.ball, "name=net",
           "nodes=%d" % (a.match_net_nodes or a.match_nodes), "option.EvalFile=%s" % net,
           "--engine", "cmd=%s engine" % a.ball, "name=hand", "nodes=%d" % a.match_nodes,
           "--games", str(a.match_games), "--concurrency", str(a.match_concurrency),
           "--rules", "turns=%d" % a.turn_limit, "--json", report]
    openings = os.path.join(ROOT, "share", "openings.txt")
    if os.path.isfile(openings):
        cmd += ["--openings", openings]
    with open(os.path.join(out, "match.log"), "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        raise SystemExit("train_net: ball match failed (exit %d): see %s/match.log" % (rc, out))
    with open(report) as f:
        return {"command": cmd, "report": json.load(f)}


# ------------------------------------------------------------------ the run

def generation(torch: Any, a: argparse.Namespace, gen: int, prev_net: Optional[str],
               folders: List[str]) -> Dict[str, Any]:
    out = os.path.join(a.out, "gen%d" % gen)
    os.makedirs(out, exist_ok=True)
    info: Dict[str, Any] = {"generation": gen, "data_net": prev_net}
    t = _cpu()
    data = os.path.join(out, "data")
    summary = make_data(data, a.games, a.nodes, a.seed + GEN_STRIDE * gen, prev_net,
                        a.workers, a.turn_limit)
    info["data"] = {"games": summary["games"], "decisions": summary["decisions"],
                    "results": summary["results"],
                    "records_sha256": summary["records_sha256"], "cpu_s": _cpu() - t}
    folders.append(data)
    t = _cpu()
    obs, ret, seeds, size = load_rows(folders[-a.window:])
    model, info["train"] = train(torch, obs, ret, seeds, size, a, gen)
    info["train"]["cpu_s"] = _cpu() - t
    net = os.path.join(out, "value.net")
    export(model, net, a.h2)
    torch.save(model.state_dict(), os.path.join(out, "model.pt"))
    info["net"] = {"file": net, "bytes": os.path.getsize(net), "sha256": _sha256(net)}
    info["check"] = check(torch, model, net, a.check, a.seed + gen)
    if not info["check"]["ok"]:
        raise SystemExit("train_net: %s differs from torch by %.3g (over %g)"
                         % (net, info["check"]["max_abs_diff"], CHECK_TOLERANCE))
    if a.match_games:
        t = _cpu()
        info["match"] = match(a, net, out)
        info["match"]["cpu_s"] = _cpu() - t
    return info


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the run's folder (created; resumed)")
    ap.add_argument("--generations", type=int, default=1, help="data-train rounds (1)")
    ap.add_argument("--games", type=int, default=2000, help="self-play games a generation (2000)")
    ap.add_argument("--nodes", type=int, default=2000, help="nodes a decision in self-play (2000)")
    ap.add_argument("--turn-limit", type=int, default=100, help="turn limit of every game (100)")
    ap.add_argument("--workers", type=int, default=2, help="self-play processes; 0: this one (2)")
    ap.add_argument("--window", type=int, default=3,
                    help="train on the data of the last N generations (3)")
    ap.add_argument("--h1", type=int, default=64, help="first hidden layer (64)")
    ap.add_argument("--h2", type=int, default=0, help="second hidden layer, 0 for none (0)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over the data (4)")
    ap.add_argument("--batch", type=int, default=512, help="positions a step (512)")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (0.001)")
    ap.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True,
                    help="train on each position's mirror image too (yes)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (1)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: reproducible)")
    ap.add_argument("--check", type=int, default=1000, help="positions of the C-torch check (1000)")
    ap.add_argument("--match-games", type=int, default=0, help="games of the match, 0: none (0)")
    ap.add_argument("--match-nodes", type=int, default=20000,
                    help="nodes a decision of the hand-written search in the match (20000)")
    ap.add_argument("--match-net-nodes", type=int, default=0,
                    help="nodes a decision of the network's search (--match-nodes)")
    ap.add_argument("--match-concurrency", type=int, default=2, help="games at once (2)")
    ap.add_argument("--ball", default=None, help="the ball tool (build/bin/ball, else PATH)")
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    a = _parser().parse_args(argv)
    for name in ("generations", "games", "nodes", "h1", "epochs", "batch", "threads", "window"):
        if getattr(a, name) < 1:
            raise SystemExit("train_net: --%s must be at least 1" % name.replace("_", "-"))
    if not 0 <= a.h2 <= 512 or a.h1 > 512:
        raise SystemExit("train_net: --h1 is 1-512 and --h2 0-512 (docs/network-format.md)")
    if a.ball is None:
        local = os.path.join(ROOT, "build", "bin", "ball")
        a.ball = local if os.access(local, os.X_OK) else (shutil.which("ball") or "ball")
    try:
        import torch
    except ImportError:
        raise SystemExit("train_net: needs torch (Debian: apt install python3-torch)") from None
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    os.makedirs(a.out, exist_ok=True)
    run: Dict[str, Any] = {"args": vars(a), "torch": torch.__version__,
                           "library": libball.LIBRARY_VERSION, "generations": []}
    folders: List[str] = []
    prev: Optional[str] = None
    start = time.time()
    for gen in range(a.generations):
        info = generation(torch, a, gen, prev, folders)
        run["generations"].append(info)
        prev = info["net"]["file"]
        valid, zero = info["train"]["epochs"][-1]["valid_mse"], info["train"]["valid_mse_of_zero"]
        print("generation %d: %d games, %d decisions, %s, C-torch max diff %.2g"
              % (gen, info["data"]["games"], info["data"]["decisions"],
                 "valid mse %.4f (zero %.4f)" % (valid, zero) if valid is not None
                 else "no game held out for validation (one in ten, by seed)",
                 info["check"]["max_abs_diff"]), flush=True)
        if "match" in info:
            r = info["match"]["report"]
            print("  match, the network's search: %d-%d-%d, score %.3f, elo %s"
                  % (r["wins"], r["draws"], r["losses"], r["score"], r.get("elo")), flush=True)
    shutil.copyfile(prev, os.path.join(a.out, "value.net"))
    run["wall_s"], run["cpu_s"] = time.time() - start, _cpu()
    with open(os.path.join(a.out, "run.json"), "w") as f:
        json.dump(run, f, indent=1, sort_keys=True)
    print("wrote %s (%d bytes) and %s" % (os.path.join(a.out, "value.net"),
                                          os.path.getsize(prev), os.path.join(a.out, "run.json")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
