# SPDX-License-Identifier: MIT
"""libball.selfplay and libball.perft without a cluster (issue 27,
docs/scale.md): the player names, the parameter checks, the chunk grid of
a continued run, the folder lock, atomic writes, in-process runs that
continue, and perft's packing. The Dask runs are in tests/learning/dask_test.sh."""

import glob
import os
import shutil
import subprocess
import tempfile
import unittest

from libball import Game, perft, selfplay
from libball.shards import TMP_PREFIX, write_atomic

from helpers import REPO, SELFPLAY

#: The network the library carries, as a file (any network file will do).
NNUE = str(REPO / "share" / "net" / "nnue.net")


class TestPlayers(unittest.TestCase):
    def test_names(self):
        self.assertEqual(selfplay.parse_player("random").kind, "random")
        self.assertEqual(selfplay.parse_player("greedy").kind, "greedy")
        spec = selfplay.parse_player("mcts:playouts=50,turns=2,c=0.5")
        self.assertEqual(dict(spec.settings), {"playouts": 50, "turns": 2, "c": 0.5})
        self.assertTrue(spec.searcher)

    def test_search_names(self):
        spec = selfplay.parse_player("search:nodes=2000,depth=3")
        self.assertEqual(spec.kind, "search")
        self.assertEqual(dict(spec.settings), {"nodes": 2000, "depth": 3})
        self.assertTrue(spec.searcher)
        self.assertEqual(selfplay.parse_player("search").settings, ())
        for name, word in (("search:", "nothing after"), ("search:playouts=5", "bad setting"),
                           ("search:depth=65", "out of range"), ("search:nodes=-1", "out of range"),
                           ("search:nodes=0", "no budget"), ("search:ms=x", "not an integer")):
            with self.subTest(name=name):
                with self.assertRaises(selfplay.UsageError) as cm:
                    selfplay.parse_player(name)
                self.assertIn(word, str(cm.exception))

    def test_search_eval(self):
        # eval=network (TurnSearch's default) or eval=hand; net=FILE is the other way
        self.assertEqual(dict(selfplay.parse_player("search:nodes=2000,eval=hand").settings),
                         {"nodes": 2000, "eval": "hand"})
        for how in ("network", "hand"):
            player = selfplay.make_player(selfplay.parse_player("search:nodes=100,eval=" + how))
            try:
                self.assertEqual(player.search.eval, how)
            finally:
                player.close()
        player = selfplay.make_player(selfplay.parse_player("search:nodes=100"))
        try:
            self.assertEqual(player.search.eval, "network")
        finally:
            player.close()
        for name, word in (("search:nodes=100,eval=nnue", "eval=nnue: eval is network or hand"),
                           ("search:nodes=100,eval=", "eval is network or hand"),
                           ("search:nodes=100,eval=hand,net=%s" % NNUE, "give one")):
            with self.subTest(name=name):
                with self.assertRaises(selfplay.UsageError) as cm:
                    selfplay.parse_player(name)
                self.assertIn(word, str(cm.exception))

    def test_bad_names(self):
        for name, word in (("nobody", "unknown player"), ("mcts:", "nothing after"),
                           ("mcts:playouts", "bad setting"), ("mcts:depth=3", "bad setting"),
                           ("mcts:playouts=-1", "out of range"), ("mcts:c=x", "not a number"),
                           ("greedy:x=1", "takes no settings"),
                           ("mcts:playouts=0,ms=0", "never stops")):
            with self.subTest(name=name):
                with self.assertRaises(selfplay.UsageError) as cm:
                    selfplay.parse_player(name)
                self.assertIn(word, str(cm.exception))


class TestParams(unittest.TestCase):
    def test_refused(self):
        P = selfplay.Params
        cases = [((-5, P()), "--games"), ((0, P()), "--games"), ((5, P(chunk=-1)), "--chunk"),
                 ((5, P(chunk=0)), "--chunk"), ((5, P(seed=-1)), "--seed"),
                 ((5, P(seed=2 ** 32 - 3)), "32-bit"), ((5, P(atk="x")), "--atk"),
                 ((5, P(dfn="mcts:foo=1")), "--def"), ((5, P(rules="zone=7")), "--rules"),
                 ((5, P(start="bad")), "--start"), ((5, P(obs_flags=4)), "--obs-flags"),
                 ((5, P(max_decisions=0)), "--max-decisions")]
        for (games, p), word in cases:
            with self.subTest(word=word, p=p):
                with self.assertRaises(selfplay.UsageError) as cm:
                    selfplay.check_params(games, p)
                self.assertIn(word, str(cm.exception))
        for kw, word in (({"retries": -1}, "--retries"), ({"window": 0}, "--window"),
                         ({"task_seconds": 0}, "--task-seconds"), ({"workers": -1}, "--workers"),
                         ({"turn_limit": -1}, "--turn-limit")):
            with self.subTest(kw=kw):
                with self.assertRaises(selfplay.UsageError) as cm:
                    selfplay.check_params(5, P(), **kw)
                self.assertIn(word, str(cm.exception))

    def test_shards_need_numpy(self):
        from libball import learn
        if learn.have_numpy():
            self.skipTest("numpy is here: nothing to refuse")
        with self.assertRaises(selfplay.UsageError) as cm:
            selfplay.check_params(5, selfplay.Params())
        self.assertIn("numpy", str(cm.exception))

    def test_rules_made_canonical(self):
        p = selfplay.check_params(5, selfplay.Params(rules="zone=2", shards=False), turn_limit=30)
        with Game(end_zone_depth=2, turn_limit=30) as g:
            self.assertEqual(p.rules, g.rules_text)


class TestGrid(unittest.TestCase):
    def test_chunks(self):
        self.assertEqual(selfplay.chunk_ranges(7, 3), [(1, 3), (4, 6), (7, 7)])

    def test_missing_completes_a_cell_cut_short(self):
        done = {(1, 3): {}, (4, 5): {}}
        self.assertEqual(selfplay._missing(9, 3, done), [(6, 6), (7, 9)])
        self.assertEqual(selfplay._missing(5, 3, done), [])


class TestFolder(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_lock_refuses_a_second_driver_and_is_removed(self):
        a = selfplay.FolderLock(self.dir)
        a.acquire()
        with self.assertRaises(selfplay.UsageError) as cm:
            selfplay.FolderLock(self.dir).acquire()
        self.assertIn("in use by another driver (pid %d" % os.getpid(), str(cm.exception))
        a.release()
        self.assertFalse(os.path.exists(os.path.join(self.dir, selfplay.LOCK)))
        with selfplay.FolderLock(self.dir):
            pass

    def test_atomic_write_leaves_no_temporary_file(self):
        path = os.path.join(self.dir, "x.bin")
        write_atomic(path, b"abc")
        write_atomic(path, b"defg")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b"defg")
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(TMP_PREFIX)], [])

    def test_run_continues_and_refuses_other_parameters(self):
        p = selfplay.Params(atk="random", dfn="random", chunk=2, shards=False)
        out = os.path.join(self.dir, "run")
        whole = selfplay.run(os.path.join(self.dir, "whole"), 5, p, turn_limit=8, workers=0)
        first = selfplay.run(out, 3, p, turn_limit=8, workers=0)
        self.assertEqual(first["games_run"], 3)
        again = selfplay.run(out, 5, p, turn_limit=8, workers=0)
        self.assertEqual(again["games_run"], 2)
        self.assertEqual(again["records_sha256"], whole["records_sha256"])
        self.assertEqual(selfplay.run(out, 5, p, turn_limit=8, workers=0)["games_run"], 0)
        with self.assertRaises(selfplay.UsageError) as cm:
            selfplay.run(out, 5, p, turn_limit=9, workers=0)
        self.assertIn("other parameters", str(cm.exception))
        with self.assertRaises(selfplay.UsageError):
            selfplay.run(out, 4, p, turn_limit=8, workers=0)   # fewer games than on disk

    def test_search_eval_named_or_not_continues_its_folder(self):
        """A folder made when a search player without eval= searched with
        the hand-written evaluation (its manifest without
        search_eval_default) continues with eval=hand, not with the bare
        name, which means the network now; a folder made now continues
        with eval=network or the bare name, not with eval=hand."""
        import json

        def params(player):
            return selfplay.Params(atk=player, dfn="random", chunk=2, shards=False)

        old = os.path.join(self.dir, "old")
        selfplay.run(old, 2, params("search:nodes=100,hash=1,eval=hand"), turn_limit=4,
                     workers=0)
        mpath = os.path.join(old, selfplay.MANIFEST)
        with open(mpath) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["search_eval_default"], "network")
        del manifest["search_eval_default"]  # as libball.selfplay wrote it before
        manifest["params"]["atk"] = "search:nodes=100,hash=1"
        with open(mpath, "w") as f:
            json.dump(manifest, f)
        with self.assertRaises(selfplay.UsageError) as cm:
            selfplay.run(old, 4, params("search:nodes=100,hash=1"), turn_limit=4, workers=0)
        self.assertIn("atk: 'search:nodes=100,hash=1' in the folder, "
                      "'search:nodes=100,hash=1' now", str(cm.exception))
        self.assertIn("name it with eval=hand", str(cm.exception))
        res = selfplay.run(old, 4, params("search:nodes=100,hash=1,eval=hand"), turn_limit=4,
                           workers=0)
        self.assertEqual(res["games_run"], 2)
        new = os.path.join(self.dir, "new")
        selfplay.run(new, 2, params("search:nodes=100,hash=1"), turn_limit=4, workers=0)
        with self.assertRaises(selfplay.UsageError) as cm:
            selfplay.run(new, 4, params("search:nodes=100,hash=1,eval=hand"), turn_limit=4,
                         workers=0)
        self.assertIn("other parameters", str(cm.exception))
        res = selfplay.run(new, 4, params("search:nodes=100,eval=network,hash=1"),
                           turn_limit=4, workers=0)
        self.assertEqual(res["games_run"], 2)

    def main(self, *args):
        """(exit status, stderr) of the command line, in this process."""
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            st = selfplay.main(list(args))
        return st, err.getvalue()

    def test_refused_folders_exit_2_with_the_reason(self):
        # issue 49 (D1): these were exit 1 with FileExistsError,
        # NotADirectoryError or OSError and nothing else
        import errno
        from unittest import mock
        a_file = os.path.join(self.dir, "a-file")
        with open(a_file, "w") as f:
            f.write("x")
        base = ["--games", "2", "--workers", "0", "--no-shards", "--atk", "random"]
        for out, word in ((a_file, "not a folder"), (os.path.join(a_file, "run"), "not a folder")):
            with self.subTest(out=out):
                st, err = self.main("--out", out, *base)
                self.assertEqual(st, 2, err)
                self.assertIn("--out %s: %s" % (out, word), err)
                self.assertNotIn("Error", err)
        with mock.patch("os.makedirs", side_effect=OSError(errno.EROFS, "Read-only file system")):
            st, err = self.main("--out", os.path.join(self.dir, "ro"), *base)
        self.assertEqual(st, 2, err)
        self.assertIn("cannot make or write the folder: Read-only file system", err)
        self.assertNotIn("OSError", err)

    def test_a_net_that_is_no_network_is_refused_before_the_folder(self):
        junk = os.path.join(self.dir, "junk.net")
        with open(junk, "wb") as f:
            f.write(b"not a network file at all")
        out = os.path.join(self.dir, "run")
        st, err = self.main("--out", out, "--games", "2", "--workers", "0", "--no-shards",
                            "--atk", "search:nodes=100,net=" + junk)
        self.assertEqual(st, 2, err)
        self.assertIn("--atk: search net=%s: " % junk, err)
        self.assertFalse(os.path.exists(out), "the folder was made")

    def test_disk_full_names_the_chunk(self):
        import errno
        from unittest import mock
        from libball import shards
        real = shards.write_atomic

        def full(path, data):
            if os.path.basename(path).startswith("seeds-0000000004-0000000005."):
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(path, data)

        out = os.path.join(self.dir, "run")
        with mock.patch.object(shards, "write_atomic", full):
            st, err = self.main("--out", out, "--games", "6", "--chunk", "2", "--workers", "0",
                                "--no-shards", "--atk", "random", "--turn-limit", "8")
        self.assertEqual(st, 1, err)
        self.assertIn("chunk seeds-0000000004-0000000005: cannot write it to %s: No space left "
                      "on device" % out, err)  # games 3-4, seeds 4-5
        self.assertIn("rerun the same command", err)
        self.assertNotIn("Traceback", err)
        self.assertTrue(os.path.exists(os.path.join(out, "seeds-0000000002-0000000003.json")))

    def test_progress_lines_when_stderr_is_not_a_terminal(self):
        # issue 49: without a terminal the run said nothing until its end
        from unittest import mock
        out = os.path.join(self.dir, "run")
        with mock.patch.object(selfplay._Progress, "LOG_EVERY", 0.0):
            st, err = self.main("--out", out, "--games", "4", "--chunk", "2", "--workers", "0",
                                "--no-shards", "--atk", "random", "--turn-limit", "8")
        self.assertEqual(st, 0, err)
        lines = [ln for ln in err.splitlines() if ln.startswith("selfplay: ")]
        self.assertRegex(lines[0], r"^selfplay: 2/4 games, [0-9.]+ games/s, ETA \d+m\d\ds$")
        self.assertTrue(lines[-1].startswith("selfplay: 4/4 games"), lines)
        self.assertNotIn("\r", err)
        st, err = self.main("--out", out, "--games", "6", "--chunk", "2", "--workers", "0",
                            "--no-shards", "--atk", "random", "--turn-limit", "8", "--no-progress")
        self.assertEqual((st, err), (0, ""))

    def test_damaged_chunk_refused(self):
        p = selfplay.Params(atk="random", dfn="random", chunk=2, shards=False)
        out = os.path.join(self.dir, "run")
        selfplay.run(out, 2, p, turn_limit=8, workers=0)
        with open(os.path.join(out, selfplay.chunk_name(p, 1, 2) + ".records"), "ab") as f:
            f.write(b"x")
        with self.assertRaises(selfplay.RunError) as cm:
            selfplay.run(out, 2, p, turn_limit=8, workers=0)
        self.assertIn("does not match its digest", str(cm.exception))


class TestSearchPlayer(unittest.TestCase):
    """The player kind ``search`` (libball.TurnSearch): its games equal
    those of the C ``selfplay`` example for the same seeds (players.c seeds
    a new searcher at each game), and its policy target is one-hot on the
    decision played."""

    ATK, DEF, SEED, GAMES, LIMIT = "search:nodes=2000", "search:nodes=2000,depth=2", 40, 2, 12

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="libball-selfplay-search-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def run_games(self, shards):
        p = selfplay.Params(atk=self.ATK, dfn=self.DEF, seed=self.SEED, chunk=1, shards=shards)
        out = os.path.join(self.dir, "shards" if shards else "records")
        res = selfplay.run(out, self.GAMES, p, turn_limit=self.LIMIT, workers=0)
        self.assertEqual(res["games"], self.GAMES)
        return out

    def test_records_equal_the_c_selfplay(self):
        if not SELFPLAY.is_file():
            raise AssertionError("%s not built (make examples, or set SELFPLAY)" % SELFPLAY)
        out = self.run_games(shards=False)
        parts = []
        for name in sorted(glob.glob(os.path.join(out, "*.records"))):
            with open(name, "rb") as f:
                parts.append(f.read())
        joined = b"\n".join(parts)
        cfile = os.path.join(self.dir, "c.records")
        subprocess.run([str(SELFPLAY), "--games", str(self.GAMES), "--seed", str(self.SEED),
                        "--atk", self.ATK, "--def", self.DEF, "--turn-limit", str(self.LIMIT),
                        "--record", cfile], check=True, capture_output=True, timeout=300)
        with open(cfile, "rb") as f:
            self.assertEqual(joined, f.read())

    def test_values_labelled_by_the_evaluation_chosen(self):
        """eval=hand labels with the hand-written evaluation, the default
        with the network: the same games' first labels differ; eval=hand
        twice gives the same bytes; the players' names, eval= included,
        are in the manifest and the records' tags."""
        from libball import learn, shards
        if not learn.have_numpy():
            self.skipTest("numpy is not installed: no values shards")

        def run(name, player):
            p = selfplay.Params(atk=player, dfn=player, seed=7, chunk=2, values=True)
            out = os.path.join(self.dir, name)
            res = selfplay.run(out, 2, p, turn_limit=6, workers=0)
            (npz,) = glob.glob(os.path.join(out, "*.npz"))
            with open(os.path.join(out, selfplay.MANIFEST)) as f:
                manifest = f.read()
            with open(npz[:-4] + ".records") as f:
                records = f.read()
            return res["records_sha256"], shards.load(npz), manifest, records

        hand = run("hand", "search:nodes=400,hash=1,eval=hand")
        again = run("again", "search:nodes=400,hash=1,eval=hand")
        network = run("network", "search:nodes=400,hash=1")
        self.assertEqual(hand[0], again[0])
        self.assertEqual(hand[1]["value"].tolist(), again[1]["value"].tolist())
        # the first position of each game is the same (the opening is drawn
        # from the seed), its label is not
        self.assertEqual(hand[1]["bpn"][0], network[1]["bpn"][0])
        self.assertNotEqual(hand[1]["value"].tolist(), network[1]["value"].tolist())
        self.assertIn('"atk": "search:nodes=400,hash=1,eval=hand"', hand[2])
        self.assertIn('[ATK "search:nodes=400,hash=1,eval=hand"]', hand[3])

    def test_policy_is_one_hot_on_the_decision_played(self):
        from libball import learn, read_records, shards
        if not learn.have_numpy():
            self.skipTest("numpy is not installed: no shards to check")
        out = self.run_games(shards=True)
        searched = 0
        for name in sorted(glob.glob(os.path.join(out, "*.npz"))):
            s = shards.load(name)
            with open(name[:-4] + ".records") as f:
                records = read_records(f.read())
            k = 0
            for rec in records:
                with Game(rec.history_position(0), rules_text=rec.rules_text) as g:
                    for move in rec.move_stack:
                        a, b = int(s["policy_offset"][k]), int(s["policy_offset"][k + 1])
                        if s["searched"][k]:
                            searched += 1
                            self.assertEqual(s["policy_index"][a:b].tolist(),
                                             [learn.action_to_index(g, move)])
                            self.assertEqual(s["policy_prob"][a:b].tolist(), [1.0])
                        g.apply(move)
                        k += 1
            self.assertEqual(k, len(s["index"]))
        self.assertGreater(searched, 0)


class TestPerft(unittest.TestCase):
    def test_bounds(self):
        for args, word in (((65, 2, 200, 1.0), "DEPTH"), ((0, 1, 200, 1.0), "DEPTH"),
                           ((4, 4, 200, 1.0), "--split"), ((4, 0, 200, 1.0), "--split"),
                           ((4, 2, 0, 1.0), "--max-tasks"), ((4, 2, 10, 0), "--task-seconds")):
            with self.subTest(args=args):
                with self.assertRaises(perft.UsageError) as cm:
                    perft.check(*args)
                self.assertIn(word, str(cm.exception))

    def test_largest_first_and_exact(self):
        with Game() as g:
            want = g.perft(3)
        for split in (1, 2):
            r = perft.run(3, split, workers=0, max_tasks=7)
            self.assertEqual(r["count"], want)
            self.assertEqual(r["largest_first"], sorted(r["largest_first"], reverse=True))
            self.assertLessEqual(r["tasks"], 7)

    def test_pack_balances(self):
        tasks = perft.pack([(10, ["a"]), (9, ["b"]), (2, ["c"]), (1, ["d"])], 2)
        self.assertEqual([t[0] for t in tasks], [11, 11])


if __name__ == "__main__":
    unittest.main()
