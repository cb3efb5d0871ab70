# SPDX-License-Identifier: MIT
"""Training shards of ``python3 -m libball.selfplay`` (docs/scale.md): one
``.npz`` per chunk of games, one row per decision, and the atomic file
writes the tool uses.

A shard holds (``R`` decisions, ``P`` policy entries in all, ``G`` games):

========================  ==========  =========================================
array                     dtype       shape, meaning
========================  ==========  =========================================
``obs``                   uint8       (R, observation_bytes(obs_flags)): the
                                      observation of the position before the
                                      decision, packed least significant bit
                                      first (``learn.observation_bits()``)
``mask``                  uint8       (R, 999): the legal mask in bits
                                      (``learn.legal_mask(bits=True)``)
``index``                 int32       (R,): the action index played
``policy_offset``         int64       (R + 1,): decision r's policy entries are
                                      ``policy_offset[r]:policy_offset[r+1]``
``policy_index``          int32       (P,): action indices (increasing within
                                      a decision), all legal there
``policy_prob``           float32     (P,): their probabilities (sum 1)
``searched``              uint8       (R,): 1 when the policy is the searcher's
                                      visit distribution over the decisions it
                                      searched, 0 when it is one-hot on the
                                      decision played (random, greedy, a lone
                                      legal decision, an immediate touchdown)
``ret``                   float32     (R,): the final return for the coach who
                                      took the decision: +1 won, -1 lost, 0
                                      draw or game stopped
``side``                  uint8       (R,): the coach to act, 0 ATK, 1 DEF
``seed``                  int64       (R,): the game's seed (its record's
                                      Event tag says ``seed N``)
``ply``                   int32       (R,): the decision's number in its game,
                                      from 0
``obs_flags``             int32       (): the observation flags (ObsFlag)
``obs_size``              int32       (): values of an unpacked observation
``format``                int32       (): SHARD_FORMAT
========================  ==========  =========================================

A *values shard* (``--values``, ``format`` 2) keeps positions instead of
decisions: one row per turn start that a search player searched (the
positions the turn search evaluates at its leaves), once a game each:

========================  ==========  =========================================
array                     dtype       shape, meaning
========================  ==========  =========================================
``bpn``                   bytes (S)   (R,): the position (BPN, docs/notation.md)
``hash``                  uint64      (R,): its ``Game.hash`` (duplicates across
                                      games are removed by it when training)
``value``                 float32     (R,): the search's value for the coach to
                                      act, in [-1, 1] (``SearchResult.value``:
                                      v / (|v| + 1500) of the search's scale,
                                      +-1 proven)
``nodes``                 int64       (R,): nodes the search spent
``budget``                int64       (R,): its node budget (the player's
                                      ``nodes=``); 0 for a time or depth budget
``ret``                   float32     (R,): the final return for the coach to
                                      act there: +1 won, -1 lost, 0 draw or game
                                      stopped
``side``                  uint8       (R,): the coach to act, 0 ATK, 1 DEF
``seed``                  int64       (R,): the game's seed
``ply``                   int32       (R,): decisions played before it
``turn``                  int32       (R,): its turn number
``format``                int32       (): VALUES_FORMAT
========================  ==========  =========================================

Unpack with ``learn.unpack_bits()`` or ``numpy.unpackbits(a, axis=-1,
count=size, bitorder="little")``. ``load()`` reads a shard into a dict of
arrays; ``dense_policy()`` spreads one decision's policy over the 7,990
indices.
"""

import hashlib
import io
import os
from typing import Any, Dict, List, Optional

#: Version of the decision shard layout above.
SHARD_FORMAT = 1
#: Version of the values shard layout above.
VALUES_FORMAT = 2

ARRAYS = ("obs", "mask", "index", "policy_offset", "policy_index", "policy_prob",
          "searched", "ret", "side", "seed", "ply")
VALUE_ARRAYS = ("bpn", "hash", "value", "nodes", "budget", "ret", "side", "seed", "ply", "turn")


class ShardBuilder:
    """Collects the rows of one shard; ``to_bytes()`` gives the ``.npz``."""

    def __init__(self, obs_flags: int, obs_size: int, obs_bytes: int, mask_bytes: int) -> None:
        self.obs_flags, self.obs_size = obs_flags, obs_size
        self.obs_bytes, self.mask_bytes = obs_bytes, mask_bytes
        self.obs: List[bytes] = []
        self.mask: List[bytes] = []
        self.index: List[int] = []
        self.offsets: List[int] = [0]
        self.pol_index: List[int] = []
        self.pol_prob: List[float] = []
        self.searched: List[int] = []
        self.ret: List[float] = []
        self.side: List[int] = []
        self.seed: List[int] = []
        self.ply: List[int] = []

    def add_game(self, seed: int, rows: List[Any], returns: Any) -> None:
        """Adds a game's rows (obs, mask, index, side, policy or None) with
        its final returns (ATK, DEF)."""
        for ply, (obs, mask, index, side, policy) in enumerate(rows):
            self.obs.append(obs)
            self.mask.append(mask)
            self.index.append(index)
            if policy:
                for i, p in policy:
                    self.pol_index.append(i)
                    self.pol_prob.append(p)
                self.searched.append(1)
            else:
                self.pol_index.append(index)
                self.pol_prob.append(1.0)
                self.searched.append(0)
            self.offsets.append(len(self.pol_index))
            self.ret.append(float(returns[side]))
            self.side.append(side)
            self.seed.append(seed)
            self.ply.append(ply)

    def to_bytes(self) -> bytes:
        import numpy as np
        n = len(self.index)
        arrays = {
            "obs": np.frombuffer(b"".join(self.obs), dtype=np.uint8).reshape(n, self.obs_bytes),
            "mask": np.frombuffer(b"".join(self.mask), dtype=np.uint8).reshape(n, self.mask_bytes),
            "index": np.array(self.index, dtype=np.int32),
            "policy_offset": np.array(self.offsets, dtype=np.int64),
            "policy_index": np.array(self.pol_index, dtype=np.int32),
            "policy_prob": np.array(self.pol_prob, dtype=np.float32),
            "searched": np.array(self.searched, dtype=np.uint8),
            "ret": np.array(self.ret, dtype=np.float32),
            "side": np.array(self.side, dtype=np.uint8),
            "seed": np.array(self.seed, dtype=np.int64),
            "ply": np.array(self.ply, dtype=np.int32),
            "obs_flags": np.int32(self.obs_flags),
            "obs_size": np.int32(self.obs_size),
            "format": np.int32(SHARD_FORMAT),
        }
        return npz_bytes(arrays)


class ValueShardBuilder:
    """Collects the rows of one values shard; ``to_bytes()`` gives the
    ``.npz``."""

    def __init__(self) -> None:
        self.rows: List[Any] = []
        self.ret: List[float] = []
        self.seed: List[int] = []

    def add_game(self, seed: int, rows: List[Any], returns: Any) -> None:
        """Adds a game's rows (bpn, hash, value, nodes, budget, side, ply,
        turn) with its final returns (ATK, DEF)."""
        for row in rows:
            self.rows.append(row)
            self.ret.append(float(returns[row[5]]))
            self.seed.append(seed)

    def to_bytes(self) -> bytes:
        import numpy as np
        cols = list(zip(*self.rows)) if self.rows else [()] * 8
        width = max((len(b) for b in cols[0]), default=1)
        arrays = {
            "bpn": np.array([b.encode() for b in cols[0]], dtype="S%d" % width),
            "hash": np.array(cols[1], dtype=np.uint64),
            "value": np.array(cols[2], dtype=np.float32),
            "nodes": np.array(cols[3], dtype=np.int64),
            "budget": np.array(cols[4], dtype=np.int64),
            "ret": np.array(self.ret, dtype=np.float32),
            "side": np.array(cols[5], dtype=np.uint8),
            "seed": np.array(self.seed, dtype=np.int64),
            "ply": np.array(cols[6], dtype=np.int32),
            "turn": np.array(cols[7], dtype=np.int32),
            "format": np.int32(VALUES_FORMAT),
        }
        return npz_bytes(arrays)


def npz_bytes(arrays: Dict[str, Any]) -> bytes:
    """The ``.npz`` (deflated) of ``arrays``, the same bytes for the same
    arrays: numpy's savez stamps each member with the time of day, this
    writes a fixed date, so that a chunk played twice gives the same file."""
    import zipfile
    import numpy as np
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, value in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(  # type: ignore[no-untyped-call]
                member, np.asanyarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, member.getvalue())
    return buf.getvalue()


def load(path: str) -> Dict[str, Any]:
    """The arrays of a shard file, as a dict of numpy arrays."""
    import numpy as np
    with np.load(path) as data:
        out = {k: data[k] for k in data.files}
    if int(out.get("format", -1)) not in (SHARD_FORMAT, VALUES_FORMAT):
        raise ValueError("%s: shard format %s, this module reads %d (decisions) and %d "
                         "(values)" % (path, out.get("format"), SHARD_FORMAT, VALUES_FORMAT))
    return out


def dense_policy(shard: Dict[str, Any], r: int, space: int = 7990) -> Any:
    """Decision ``r``'s policy over the whole action space (float32)."""
    import numpy as np
    out = np.zeros(space, dtype=np.float32)
    a, b = int(shard["policy_offset"][r]), int(shard["policy_offset"][r + 1])
    out[shard["policy_index"][a:b]] = shard["policy_prob"][a:b]
    return out


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


TMP_PREFIX = ".tmp-"


def write_atomic(path: str, data: bytes, dir_fd: Optional[int] = None) -> None:
    """Writes ``data`` to ``path`` so that the file is either absent, or
    there whole: a temporary file in the same folder, fsync, rename, then
    an fsync of the folder (so that the rename survives a power cut)."""
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, "%s%d-%s" % (TMP_PREFIX, os.getpid(), name))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(folder or ".", os.O_RDONLY) if dir_fd is None else dir_fd
    try:
        os.fsync(dfd)
    finally:
        if dir_fd is None:
            os.close(dfd)


__all__ = ["ARRAYS", "SHARD_FORMAT", "ShardBuilder", "VALUES_FORMAT", "VALUE_ARRAYS",
           "ValueShardBuilder", "dense_policy", "file_sha256", "load", "npz_bytes", "sha256",
           "write_atomic"]
