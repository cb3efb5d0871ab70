# SPDX-License-Identifier: MIT
"""examples/python/selfplay_data.py: runs it for a few games in both file
formats and checks the records: the chosen index is legal in its mask,
the observation is that of a position where the mask holds, and the final
return is +1/-1 for the winner's/loser's decisions of a touchdown game,
0 for a draw."""

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

from libball import learn

from helpers import REPO

SCRIPT = REPO / "examples" / "python" / "selfplay_data.py"
# ATK's carrier on G15, two squares from the end zone; with seed 2 some of
# the 12 games end by a touchdown, the others by the turn limit.
NEAR_TD = "7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 ATK a 2 - 0/0 1"
ARGS = ["--games", "12", "--parallel", "6", "--seed", "2", "--turn-limit", "10",
        "--start", NEAR_TD]


def load_module():
    spec = importlib.util.spec_from_file_location("selfplay_data", str(SCRIPT))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bit(data, i):
    return data[i >> 3] >> (i & 7) & 1


class SelfplayData(unittest.TestCase):

    def run_script(self, fmt, *extra):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "data." + fmt)
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(
                [str(REPO / "bindings" / "python")] + env.get("PYTHONPATH", "").split(os.pathsep))
            proc = subprocess.run([sys.executable, str(SCRIPT), *ARGS, "--format", fmt,
                                   "--out", out, *extra], env=env, capture_output=True,
                                  text=True, timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("records of 12 games", proc.stdout)
            return load_module().load(out)

    def check(self, rec):
        n = len(rec["index"])
        self.assertGreater(n, 12)
        self.assertEqual(int(rec["obs_size"]), 3171)
        games = {}
        for k in range(n):
            obs, mask = bytes(rec["obs"][k]), bytes(rec["mask"][k])
            index, ret, side = int(rec["index"][k]), float(rec["ret"][k]), int(rec["side"][k])
            self.assertEqual(len(obs), 397)
            self.assertEqual(len(mask), learn.ACTION_MASK_BYTES)
            self.assertEqual(bit(mask, index), 1)           # the chosen index was legal
            # scalar 0 of the observation: DEF is to act
            self.assertEqual(bit(obs, learn.OBS_PLANES * 111), side)
            self.assertIn(ret, (-1.0, 0.0, 1.0))
            if "game" in rec:
                games.setdefault(int(rec["game"][k]), []).append((side, ret))
        wins = 0
        for records in games.values():
            winners = {side for side, ret in records if ret > 0}
            if any(ret != 0 for _, ret in records):
                wins += 1
                self.assertEqual(len(winners), 1)
                # +1 for every decision of the winner, -1 for the loser's
                for side, ret in records:
                    self.assertEqual(ret, 1.0 if side in winners else -1.0)
            else:
                self.assertEqual(winners, set())
        if games:
            self.assertEqual(len(games), 12)
            self.assertGreaterEqual(wins, 1)
        self.assertEqual(sum(1 for r in rec["ret"] if r > 0) > 0, True)

    def test_binary_file(self):
        self.check(self.run_script("bin"))

    def test_binary_file_python_policy(self):
        rec = self.run_script("bin", "--policy", "mask")
        self.assertGreater(len(rec["index"]), 12)

    @unittest.skipUnless(learn.have_numpy(), "numpy is not importable")
    def test_npz(self):
        rec = self.run_script("npz")
        self.assertEqual(rec["obs"].shape[1], 397)
        self.check(rec)

    def test_in_process_matches_file(self):
        module = load_module()
        rec = module.generate(12, 6, 2, 10, 0, "library", NEAR_TD)
        self.check(rec)
        self.assertEqual(rec["index"], list(self.run_script("bin")["index"]))


if __name__ == "__main__":
    unittest.main()
