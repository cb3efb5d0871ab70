#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A thin example of libball.selfplay and libball.perft on Dask
(docs/scale.md): the tools are ``python3 -m libball.selfplay`` and
``python3 -m libball.perft``; this shows their function API on a cluster
of your own making, then reads the training shards back.

    PYTHONPATH=bindings/python LIBBALL_PATH=build/libball.so.1 \\
        /usr/bin/python3 examples/dask/scale.py [--scheduler tcp://127.0.0.1:8786] [OUT]

Plays 40 games (MCTS with 100 playouts a decision against random, turn
limit 100) into OUT (default ./selfplay-example; rerun it and nothing is
played again), prints the summary and the shapes of the training data,
and counts perft 5 divided at depth 2 on the same cluster.
"""

import argparse
import glob
import json
import os

from libball import perft, selfplay, shards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scheduler", help="a running scheduler (default: 2 local workers)")
    ap.add_argument("out", nargs="?", default="selfplay-example")
    a = ap.parse_args()

    from distributed import Client, LocalCluster
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler, direct_to_workers=True)
    else:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster, direct_to_workers=True)
    try:
        params = selfplay.Params(atk="mcts:playouts=100", dfn="random", seed=1, chunk=5)
        summary = selfplay.run(a.out, 40, params, client=client)
        print(json.dumps(summary, indent=1, sort_keys=True))

        rows = 0
        for path in sorted(glob.glob(os.path.join(a.out, "seeds-*.npz"))):
            s = shards.load(path)
            rows += len(s["index"])
        print("%d decisions; observations %s x %d bytes, masks x %d bytes"
              % (rows, s["obs"].dtype, s["obs"].shape[1], s["mask"].shape[1]))

        print(json.dumps(perft.run(5, 2, client=client), sort_keys=True))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
