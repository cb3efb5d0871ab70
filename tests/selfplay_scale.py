# SPDX-License-Identifier: MIT
"""The checks of tests/learning/dask_test.sh on libball.selfplay and libball.perft
(docs/scale.md), on one LocalCluster of 2 worker processes on 127.0.0.1.

    python3 tests/selfplay_scale.py TMPDIR BALL SELFPLAY

Prints one line per check; exits 1 when one failed. Each check says what
it compares with what: the reference is the same games played in this
process (--workers 0), itself compared byte for byte with the records of
the C example `selfplay --record`, and the shards with the observations
the library gives for the replayed positions.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import dask

from libball import learn, perft, read_records, selfplay, shards

TMP, BALL, SELFPLAY = (sys.argv[1:4] + ["", "", ""])[:3]
PY = sys.executable
failures = []

N, CHUNK = 16, 2
ATK, DEF, LIMIT = "mcts:playouts=12", "random", 16
PARAMS = selfplay.Params(atk=ATK, dfn=DEF, seed=40, chunk=CHUNK)


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def files(folder, ext):
    """The chunk files (seeds-A-B) of the folder with that extension."""
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "seeds-*" + ext)))


def same_files(a, b):
    """The chunk files of folders a and b: the same names and bytes."""
    names = files(a, ".records") + files(a, ".npz")
    if names != files(b, ".records") + files(b, ".npz"):
        return False
    for n in names:
        with open(os.path.join(a, n), "rb") as f, open(os.path.join(b, n), "rb") as g:
            if f.read() != g.read():
                return False
    return True


def cli(*args, **kw):
    env = dict(os.environ)
    return subprocess.run([PY, "-m", "libball.selfplay"] + list(args), capture_output=True,
                          text=True, env=env, timeout=kw.get("timeout", 60))


def run(out, games=N, **kw):
    return selfplay.run(os.path.join(TMP, out), games, PARAMS, turn_limit=LIMIT, **kw)


def main():
    # (under a function: the worker processes, started by spawn, import this file)
    t_start = time.monotonic()

    # ---- the reference: this process, compared with the C example
    ref = run("ref", workers=0)
    ref_dir = os.path.join(TMP, "ref")
    cfile = os.path.join(TMP, "c.records")
    subprocess.run([SELFPLAY, "--games", str(N), "--seed", "40", "--atk", ATK, "--def", DEF,
                    "--turn-limit", str(LIMIT), "--record", cfile], check=True,
                   stdout=subprocess.DEVNULL)
    joined = b"\n".join(open(os.path.join(ref_dir, n), "rb").read()
                        for n in files(ref_dir, ".records"))
    check(joined == open(cfile, "rb").read(),
          "the records of %d games (seeds 41-56, %s vs %s) equal `selfplay --record`'s" % (N, ATK, DEF))
    replay = [subprocess.run([BALL, "replay", os.path.join(ref_dir, n)], capture_output=True,
                             text=True) for n in files(ref_dir, ".records")]
    check(all(r.returncode == 0 for r in replay),
          "`ball replay` reads every records file (%s)"
          % " ".join(r.stderr.strip()[:100] for r in replay if r.returncode))
    check(not os.path.exists(os.path.join(ref_dir, selfplay.LOCK)), "the lock file is gone after a run")

    # ---- the shards: documented dtypes and shapes, observations of the replayed positions
    obs_bytes = learn.observation_bytes(0)
    rows_ok, shapes_ok, rows = True, True, 0
    for name in files(ref_dir, ".npz"):
        s = shards.load(os.path.join(ref_dir, name))
        r = len(s["index"])
        want = {"obs": ("uint8", (r, obs_bytes)), "mask": ("uint8", (r, learn.ACTION_MASK_BYTES)),
                "index": ("int32", (r,)), "policy_offset": ("int64", (r + 1,)),
                "searched": ("uint8", (r,)), "ret": ("float32", (r,)), "side": ("uint8", (r,)),
                "seed": ("int64", (r,)), "ply": ("int32", (r,)),
                "policy_index": ("int32", (int(s["policy_offset"][-1]),)),
                "policy_prob": ("float32", (int(s["policy_offset"][-1]),))}
        for k, (dt, shape) in want.items():
            if str(s[k].dtype) != dt or s[k].shape != shape:
                shapes_ok = False
                print("  %s: %s %s, expected %s %s" % (k, s[k].dtype, s[k].shape, dt, shape))
        text = open(os.path.join(ref_dir, name[:-4] + ".records"), "rb").read()
        k = 0
        for g in read_records(text):
            with g:
                moves = list(g.move_stack)
                final = learn.returns(g).values
                while g.history_length:
                    g.undo()
                for ply, m in enumerate(moves):
                    if k >= r:
                        rows_ok = False
                        break
                    a, b = int(s["policy_offset"][k]), int(s["policy_offset"][k + 1])
                    legal = set(learn.legal_indices(g))
                    ok = (bytes(learn.observation_bits(g)) == s["obs"][k].tobytes()
                          and bytes(learn.legal_mask(g, bits=True)) == s["mask"][k].tobytes()
                          and learn.action_to_index(g, m) == int(s["index"][k])
                          and int(g.side) == int(s["side"][k]) and int(s["ply"][k]) == ply
                          and float(s["ret"][k]) == final[int(g.side)]
                          and set(s["policy_index"][a:b].tolist()) <= legal
                          and abs(float(s["policy_prob"][a:b].sum()) - 1) < 1e-4)
                    if not ok and rows_ok:
                        print("  %s row %d (ply %d) differs from the replayed position" % (name, k, ply))
                    rows_ok = rows_ok and ok
                    g.apply(m)
                    k += 1
        rows_ok = rows_ok and k == r
        rows += r
    searched = sum(int(shards.load(os.path.join(ref_dir, n))["searched"].sum())
                   for n in files(ref_dir, ".npz"))
    check(shapes_ok, "the shards have the documented dtypes and shapes")
    check(rows_ok and rows > 0, "the %d shard rows equal the library's observation, legal mask, "
          "index, side and return of the replayed positions" % rows)
    check(searched > 0, "%d rows carry the searcher's visit distribution (ball_mcts_root_decisions)"
          % searched)

    # ---- continuing with a larger --games equals one run
    run("grow", games=6, workers=0)
    grown = run("grow", workers=0)
    check(grown["records_sha256"] == ref["records_sha256"] and grown["games_run"] == N - 6,
          "6 games then --games %d: %d more games played, the records digest of one run" % (N, N - 6))

    # ---- bad parameters: refused before anything starts (exit 2, no folder made)
    bad = [(["--games", "-5"], "--games"), (["--chunk", "-1"], "--chunk"),
           (["--chunk", "0"], "--chunk"), (["--retries", "-1"], "--retries"),
           (["--window", "0"], "--window"), (["--atk", "nobody"], "unknown player"),
           (["--def", "mcts:playouts=-3"], "out of range"), (["--def", "mcts:foo=1"], "bad setting"),
           (["--def", "random:x=1"], "takes no settings"), (["--rules", "zone=9"], "zone"),
           (["--turn-limit", "-1"], "--turn-limit"), (["--seed", "-1"], "--seed"),
           (["--task-seconds", "0"], "--task-seconds"), (["--start", "nonsense"], "--start"),
           (["--obs-flags", "9"], "--obs-flags"), (["--workers", "-2"], "--workers")]
    for args, word in bad:
        out = os.path.join(TMP, "bad")
        p = cli("--out", out, "--workers", "2", *args) if "--workers" not in args else cli("--out", out, *args)
        check(p.returncode == 2 and word in p.stderr and not os.path.exists(out),
              "%s refused (exit %d, %r)" % (" ".join(args), p.returncode, p.stderr.strip()[-90:]))
    p = subprocess.run([PY, "-m", "libball.perft", "65"], capture_output=True, text=True)
    check(p.returncode == 2 and "64" in p.stderr, "perft 65 refused (%s)" % p.stderr.strip())
    p = subprocess.run([PY, "-m", "libball.perft", "4", "--max-tasks", "0"], capture_output=True,
                       text=True)
    check(p.returncode == 2 and "--max-tasks" in p.stderr, "perft --max-tasks 0 refused")
    p = cli("--out", ref_dir, "--games", str(N), "--seed", "40", "--atk", "greedy", "--def", DEF,
            "--chunk", str(CHUNK), "--turn-limit", str(LIMIT), "--workers", "0")
    check(p.returncode == 2 and "other parameters" in p.stderr and "atk" in p.stderr,
          "other parameters than the folder's refused (%s)" % p.stderr.strip()[-80:])

    # ---- one LocalCluster of 2 processes for the rest
    dask.config.set({"distributed.scheduler.allowed-failures": 3})
    from distributed import Client, LocalCluster  # noqa: E402

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, scheduler_port=0, silence_logs=50,
                           local_directory=os.path.join(TMP, "dask"))
    client = Client(cluster, direct_to_workers=True)
    try:
        check(client.scheduler.address.startswith("tcp://127.0.0.1:"), "the scheduler is on 127.0.0.1")
        on2 = run("two", client=client)
        check(on2["records_sha256"] == ref["records_sha256"] and same_files(ref_dir, os.path.join(TMP, "two")),
              "2 workers: the same record and shard files, byte for byte, as one process")
        check(on2["workers_seen"] == 2, "both workers played (%d seen)" % on2["workers_seen"])

        # a worker killed after the first chunk is on disk
        pids = list(client.run(os.getpid).values())
        killed = []

        def kill_one(info):
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        lost = run("lost", client=client, on_chunk=kill_one)
        check(bool(killed) and lost["records_sha256"] == ref["records_sha256"]
              and same_files(ref_dir, os.path.join(TMP, "lost")) and lost["games"] == N,
              "a worker killed mid-run (pid %s): complete and the same files" % killed)
        client.wait_for_workers(2, timeout=30)

        # distributed perft, largest first, split 3, against `ball perft`
        want = int(subprocess.run([BALL, "perft", "4"], capture_output=True, text=True,
                                  check=True).stdout.split()[-1].replace(",", ""))
        pr = perft.run(4, 3, client=client, max_tasks=40)
        check(pr["count"] == want and pr["subtrees"] > 55 * 55 and pr["tasks"] == 40
              and pr["largest_first"] == sorted(pr["largest_first"], reverse=True),
              "perft 4 split at 3 on 2 workers: %d (ball perft: %d), %d subtrees in %d tasks, "
              "largest first" % (pr["count"], want, pr["subtrees"], pr["tasks"]))
    finally:
        client.close()
        cluster.close()

    # ---- the driver killed mid-run, then run again; a second driver refused meanwhile
    kdir = os.path.join(TMP, "killed")
    args = ["--out", kdir, "--games", str(N), "--seed", "40", "--atk", ATK, "--def", DEF,
            "--chunk", str(CHUNK), "--turn-limit", str(LIMIT)]
    drv = subprocess.Popen([PY, "-m", "libball.selfplay", "--workers", "1", "--window", "1"] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           start_new_session=True)
    deadline = time.monotonic() + 60
    # the lock is taken before the cluster starts: a second driver meets it
    while not os.path.exists(os.path.join(kdir, selfplay.MANIFEST)) and time.monotonic() < deadline:
        time.sleep(0.02)
    second = cli("--workers", "0", *args)
    while not files(kdir, ".json") and drv.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(drv.pid, signal.SIGKILL)
    drv.wait()
    partial = len(files(kdir, ".json"))
    check(second.returncode == 2 and "in use by another driver" in second.stderr,
          "a second driver on the folder refused (%s)" % second.stderr.strip()[-80:])
    check(0 < partial < N // CHUNK, "the driver killed with %d of %d chunks on disk" % (partial, N // CHUNK))
    again = cli("--workers", "0", *args)
    summary = json.loads(again.stdout) if again.returncode == 0 else {}
    check(again.returncode == 0 and summary.get("records_sha256") == ref["records_sha256"]
          and summary.get("games_run") == N - CHUNK * partial
          and same_files(ref_dir, kdir),
          "run again: %s games played, none twice, the same files as one run (%s)"
          % (summary.get("games_run"), again.stderr.strip()[-100:]))

    print("selfplay_scale: %.1f s" % (time.monotonic() - t_start))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
