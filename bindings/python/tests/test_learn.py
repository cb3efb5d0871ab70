# SPDX-License-Identifier: MIT
"""The learning interface from Python (libball.learn): the action-index
bijection and masks over seeded random games, observations and their
packed bits, the mirror, returns, batches equal to single games with the
same seeds, the environment, and the errors of bad inputs. Each test
runs with numpy when it can be imported and again with the array.array
fallback (``learn._np = None``)."""

import array
import ctypes
import random
import unittest

from libball import (ArgumentError, BufferTooSmallError, ClosedGameError, Game,
                     IllegalActionError, RangeError, Team, learn)

from helpers import CARDS

try:
    import numpy
except ImportError:  # the fallback is tested either way
    numpy = None

RULESETS = [{}, {"end_zone_depth": 2}, {"rules_text": CARDS}, {"turn_limit": 3}]


def tolist(buf):
    """Any array this module returns as a flat list of Python numbers."""
    if numpy is not None and isinstance(buf, numpy.ndarray):
        return buf.reshape(-1).tolist()
    if isinstance(buf, list):
        return buf
    view = memoryview(buf)
    if view.ndim != 1:
        view = view.cast("B").cast(view.format.lstrip("@=<"))
    return view.tolist()


def unpack(bits, count):
    return tolist(learn.unpack_bits(bits, count))


def splitmix_stream(seed, i):
    """Game i's generator state in a batch reset with ``seed``."""
    state = seed
    for _ in range(i + 1):
        state, out = learn.splitmix64(state)
    return out


class WithNumpy(unittest.TestCase):
    """Base: the tests run with numpy (skipped without it)."""

    use_numpy = True

    def setUp(self):
        self.saved = learn._np
        if self.use_numpy:
            if numpy is None:
                self.skipTest("numpy is not importable")
        else:
            learn._np = None

    def tearDown(self):
        learn._np = self.saved


class IndexBijection(WithNumpy):
    """Every legal action of every position of seeded random games has a
    distinct index that decodes back to it; masks, index lists and their
    packed forms agree; the mirror is an involution."""

    def walk(self, rules, seed, decisions):
        rng = random.Random(seed)
        with Game(**rules) as g:
            for _ in range(decisions):
                yield g
                if g.is_over:
                    break
                g.apply(g.random_action(rng.getrandbits(64)))

    def test_bijection_and_masks(self):
        positions = 0
        for k, rules in enumerate(RULESETS):
            for g in self.walk(rules, 100 + k, 120):
                positions += 1
                actions = list(g.legal_actions())
                idx = [learn.action_to_index(g, a) for a in actions]
                self.assertEqual(len(set(idx)), len(idx), g.bpn)
                self.assertTrue(all(0 <= i < learn.ACTION_SPACE for i in idx))
                for a, i in zip(actions, idx):
                    self.assertEqual(learn.action_from_index(g, i), a)
                self.assertEqual(learn.legal_indices(g), sorted(idx))
                mask = tolist(learn.legal_mask(g))
                self.assertEqual(len(mask), learn.ACTION_SPACE)
                self.assertEqual([i for i, v in enumerate(mask) if v], sorted(idx))
                bits = learn.legal_mask(g, bits=True)
                self.assertEqual(len(tolist(bits)), learn.ACTION_MASK_BYTES)
                self.assertEqual(unpack(bits, learn.ACTION_SPACE), mask)
                ret = learn.returns(g)
                if g.is_over:
                    self.assertEqual(idx, [])
                    self.assertNotEqual(ret.terminal, learn.Terminal.NOT_TERMINAL)
                else:
                    self.assertEqual(ret, (learn.Terminal.NOT_TERMINAL, 0.0, 0.0))
        self.assertGreater(positions, 300)

    def test_worked_example(self):
        # docs/learning.md, "Worked example"
        with Game() as g:
            self.assertEqual(learn.action_to_index(g, "E11-F10"), 41)
            self.assertEqual(learn.action_to_index(g, "I11-H10"), 154)
            self.assertEqual(learn.action_to_index(g, "G11-E9"), 597)
            self.assertEqual(learn.action_to_index(g, "end"), learn.INDEX_END)
            self.assertEqual(str(learn.action_from_index(g, 597)), "G11-E9")
            self.assertEqual(learn.index_mirror(41), 154)

    def test_mirror_permutation(self):
        perm = tolist(learn.mirror_permutation())
        self.assertEqual(sorted(perm), list(range(learn.ACTION_SPACE)))
        self.assertTrue(all(perm[perm[i]] == i for i in range(learn.ACTION_SPACE)))
        self.assertEqual(perm[learn.INDEX_END], learn.INDEX_END)
        with Game() as g:
            mask = learn.legal_mask(g)
            mirrored = tolist(learn.policy_mirror(mask if numpy is not None and self.use_numpy
                                                  else tolist(mask)))
            ones = [i for i, v in enumerate(mirrored) if v]
            # the start is left-right symmetric: its legal set is its own image
            self.assertEqual(ones, learn.legal_indices(g))


class Observations(WithNumpy):
    """Sizes, float and packed forms, the start picture, the mirror."""

    def test_sizes(self):
        self.assertEqual([learn.observation_size(f) for f in range(4)],
                         [3171, 6251, 10101, 20111])
        self.assertEqual(learn.observation_bytes(0), 397)

    def test_start_position(self):
        # docs/learning.md, "The start position": 19 ones, DEF to act
        with Game() as g:
            obs = tolist(learn.observation(g))
            self.assertEqual(len(obs), 3171)
            self.assertEqual(sum(obs), 19)
            scalars = obs[learn.OBS_PLANES * 111:]
            self.assertEqual([i for i, v in enumerate(scalars) if v], [0, 3, 4, 8])
            g.apply("end")
            scalars = tolist(learn.observation(g))[learn.OBS_PLANES * 111:]
            self.assertEqual([i for i, v in enumerate(scalars) if v], [3, 4, 8])

    def test_bits_and_mirror(self):
        rng = random.Random(7)
        for flags in range(4):
            size = learn.observation_size(flags)
            with Game(rules_text=CARDS) as g:
                for _ in range(40):
                    obs = learn.observation(g, flags)
                    bits = learn.observation_bits(g, flags)
                    self.assertEqual(unpack(bits, size), [int(v) for v in tolist(obs)])
                    m = learn.observation_mirror(obs, flags)
                    self.assertEqual(tolist(learn.observation_mirror(m, flags)), tolist(obs))
                    mb = learn.observation_bits_mirror(bits, flags)
                    self.assertEqual(unpack(mb, size), [int(v) for v in tolist(m)])
                    g.apply(g.random_action(rng.getrandbits(64)))

    def test_out_buffers(self):
        with Game() as g:
            out = array.array("f", bytes(4 * 3171))
            self.assertIs(learn.observation(g, 0, out), out)
            self.assertEqual(sum(out), 19)
            mask = bytearray(learn.ACTION_SPACE)
            self.assertIs(learn.legal_mask(g, out=mask), mask)
            self.assertEqual(sum(mask), 55)
            # several observations mirrored at once, in place
            two = array.array("f", list(out) * 2)
            learn.observation_mirror(two, 0, two)
            self.assertEqual(list(two[:3171]), list(two[3171:]))


class BadInputs(WithNumpy):
    """Bad inputs raise the binding's exceptions with clear messages."""

    def test_index_errors(self):
        with Game() as g:
            for bad in (learn.ACTION_SPACE, -1):
                with self.assertRaises(RangeError) as cm:
                    learn.action_from_index(g, bad)
                self.assertIn("out of range", str(cm.exception))
                with self.assertRaises(RangeError):
                    learn.index_mirror(bad)
            with self.assertRaises(RangeError):
                learn.action_from_index(g, 2 ** 40)
            with self.assertRaises(IllegalActionError) as cm:
                learn.action_from_index(g, 0)
            self.assertIn("not legal", str(cm.exception))
            with self.assertRaises(ArgumentError):
                learn.action_from_index(g, 1.5)
            with self.assertRaises(IllegalActionError):
                learn.action_to_index(g, "G5-F6")  # ATK's piece, DEF to act

    def test_buffer_errors(self):
        with Game() as g:
            with self.assertRaises(BufferTooSmallError) as cm:
                learn.legal_mask(g, out=bytearray(10))
            self.assertIn("7990", str(cm.exception))
            with self.assertRaises(BufferTooSmallError):
                learn.legal_mask(g, bits=True, out=bytearray(998))
            with self.assertRaises(BufferTooSmallError):
                learn.observation(g, 0, array.array("f", [0.0] * 3170))
            with self.assertRaises(BufferTooSmallError):
                learn.observation_bits(g, 1, bytearray(781))
            with self.assertRaises(ArgumentError):   # float buffer for bytes
                learn.legal_mask(g, out=array.array("f", [0.0] * 8000))
            with self.assertRaises(ArgumentError):   # read-only
                learn.legal_mask(g, out=bytes(8000))
            with self.assertRaises(ArgumentError):
                learn.observation(g, 4)
            with self.assertRaises(BufferTooSmallError):
                learn.observation_mirror(array.array("f", [0.0] * 3172))

    def test_batch_errors(self):
        with self.assertRaises(RangeError) as cm:
            learn.Batch(0)
        self.assertIn("batch size 0", str(cm.exception))
        with self.assertRaises(RangeError):
            learn.Batch(learn.BATCH_MAX + 1, outputs=())
        with learn.Batch(4, outputs=("actions",)) as b:
            with self.assertRaises(BufferTooSmallError) as cm:
                b.bind("mask", bytearray(4 * learn.ACTION_SPACE - 1))
            self.assertIn("needs", str(cm.exception))
            with self.assertRaises(ArgumentError):
                b.bind("obs", bytearray(4 * 4 * 3171))   # bytes for floats
            with self.assertRaises(ArgumentError):
                b.bind("nonsense")
            with self.assertRaises(BufferTooSmallError):
                b.step([0, 0, 0])
            before = [b.position(i) for i in range(4)]
            with self.assertRaises(RangeError) as cm:
                b.step([41, 41, 41, 9999])
            self.assertIn("9999", str(cm.exception))
            with self.assertRaises(RangeError):
                b.step([41, 41, 41, 2 ** 33])
            with self.assertRaises(IllegalActionError) as cm:
                b.step([41, 41, 0, 41])   # index 0 is not legal at the start
            self.assertIn("game 2", str(cm.exception))
            self.assertEqual([b.position(i) for i in range(4)], before)  # nothing moved
            with self.assertRaises(ArgumentError):
                b.step([41, 41, 41, "x"])
            with self.assertRaises(RangeError):
                b.position(4)
            self.assertEqual(b.step([41] * 4), 0)
        with self.assertRaises(ClosedGameError):
            b.step()


class BatchEqualsGames(WithNumpy):
    """Game i of a batch is the single game of docs/learning.md's loop:
    the same decisions, positions, outputs, returns and resets."""

    def check(self, rules, seed, n, steps, choose=None, start=None):
        outputs = ("obs", "obs_bits", "mask", "mask_bits", "rewards", "done", "actions",
                   "side")
        batch = learn.Batch(n, outputs=outputs, seed=seed, start=start, **rules)
        # the games of the batch's whole ruleset (its turn limit is
        # AUTO_TURN_LIMIT where rules set none)
        with batch.game(0) as g:
            rules = {"rules_text": g.rules_text}
        games = [Game(start, **rules) for _ in range(n)]
        states = []
        for i in range(n):
            state = seed
            for _ in range(i + 1):
                state, out = learn.splitmix64(state)
            states.append(out)
        ended_total = 0
        size = batch.obs_size
        for step in range(steps):
            if choose is None:
                indices = None
            else:
                indices = [choose(g) for g in games]
            expect_ended = 0
            for i, g in enumerate(games):
                if indices is None:
                    states[i], r = learn.splitmix64(states[i])
                    a = g.random_action(r)
                else:
                    a = learn.action_from_index(g, indices[i])
                played = learn.action_to_index(g, a)
                g.apply(a)
                ret = learn.returns(g)
                if ret.terminal:
                    expect_ended += 1
                    g.close()
                    games[i] = g = Game(start, **rules)
                expected = {"actions": played, "done": int(ret.terminal),
                            "rewards": [ret.atk, ret.def_], "side": int(g.side)}
                expected["_bpn"] = g.bpn
                expected["_obs"] = tolist(learn.observation(g))
                expected["_mask"] = tolist(learn.legal_mask(g))
                games[i]._expected = expected
            ended = batch.step(indices)
            self.assertEqual(ended, expect_ended)
            ended_total += ended
            for i, g in enumerate(games):
                e = g._expected
                self.assertEqual(batch.position(i), e["_bpn"])
                self.assertEqual(tolist(batch.row("actions", i)), [e["actions"]])
                self.assertEqual(tolist(batch.row("done", i)), [e["done"]])
                self.assertEqual(tolist(batch.row("rewards", i)), e["rewards"])
                self.assertEqual(tolist(batch.row("side", i)), [e["side"]])
                if step % 5 == 0 or e["done"]:
                    self.assertEqual(tolist(batch.row("obs", i)), e["_obs"])
                    self.assertEqual(unpack(batch.row("obs_bits", i), size),
                                     [int(v) for v in e["_obs"]])
                    self.assertEqual(tolist(batch.row("mask", i)), e["_mask"])
                    self.assertEqual(unpack(batch.row("mask_bits", i), learn.ACTION_SPACE),
                                     e["_mask"])
        for g in games:
            g.close()
        batch.close()
        return ended_total

    def test_random_decisions(self):
        ended = self.check({"turn_limit": 2}, 12345, 6, 70)
        self.assertGreater(ended, 0)   # resets happened

    def test_callers_indices(self):
        # the highest legal index in every game: deterministic, not random
        ended = self.check({"turn_limit": 2, "end_zone_depth": 2}, 1, 4, 60,
                           choose=lambda g: max(learn.legal_indices(g)))
        self.assertGreaterEqual(ended, 0)

    def test_cards_and_start(self):
        # card mode, from the position after DEF's E11-F10 (a move earns 1 PE)
        start = "7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/1 1 12/1"
        self.check({"rules_text": CARDS}, 99, 3, 40, start=start)

    def test_types_and_clone(self):
        with learn.Batch(3, seed=5) as b:
            if self.use_numpy:
                self.assertEqual(b.obs.shape, (3, 3171))
                self.assertEqual(b.mask.dtype, numpy.uint8)
                self.assertEqual(b.actions.tolist(), [-1, -1, -1])
            else:
                self.assertIsInstance(b.obs, array.array)
                self.assertEqual(len(b.obs), 3 * 3171)
                self.assertEqual(list(b.actions), [-1, -1, -1])
            b.step()
            with b.game(1) as g:
                self.assertEqual(g.bpn, b.position(1))
                self.assertEqual(tolist(learn.legal_mask(g)), tolist(b.row("mask", 1)))
            # the batch's own index buffer is read without a copy
            for i in range(3):
                with b.game(i) as g:
                    b.indices[i] = learn.legal_indices(g)[0]
            expect = list(b.indices)
            b.step(b.indices)
            self.assertEqual(tolist(b.actions), expect)
            b.unbind("obs")
            self.assertIsNone(b.obs)
            b.step()


class Environment(WithNumpy):
    """The Gymnasium-style Env: reset/step, rewards, termination, seeds."""

    def play(self, seed, **kw):
        env = learn.Env(**kw)
        obs, info = env.reset(seed=seed)
        self.assertEqual(len(tolist(obs)), env.observation_shape[0])
        self.assertIs(info["side"], Team.DEF)
        trace, total = [], 0
        while True:
            index = env.sample()
            self.assertEqual(tolist(info["mask"])[index], 1)
            side = env.game.side
            obs, reward, terminated, truncated, info = env.step(index)
            trace.append(index)
            if terminated or truncated:
                break
            self.assertEqual(reward, 0.0)
        if terminated:
            self.assertEqual(reward, info["returns"][int(side)])
            self.assertEqual(sum(tolist(info["mask"])), 0)
        env.close()
        return trace, terminated, truncated, info

    def test_episode(self):
        t1, term, trunc, info = self.play(3, turn_limit=2)
        self.assertTrue(term and not trunc)
        self.assertEqual(info["terminal"] in (learn.Terminal.TOUCHDOWN,
                                              learn.Terminal.TURN_LIMIT), True)
        t2 = self.play(3, turn_limit=2)[0]
        self.assertEqual(t1, t2)   # the seed fixes sample()
        _, term, trunc, _ = self.play(4, max_decisions=25, bits=True)
        self.assertTrue(trunc and not term)

    def test_default_turn_limit(self):
        # R11.2 with the turn limit of automated games, AUTO_TURN_LIMIT =
        # 100 (docs/rules-choices.md): a random episode ends at the latest
        # with turn 100, drawn, while Game() keeps the library's default.
        self.assertEqual(learn.AUTO_TURN_LIMIT, 100)
        for seed in (1, 2):
            env = learn.Env()
            env.reset(seed=seed)
            self.assertEqual(env.game.rules.turn_limit, 100)
            steps, done = 0, False
            while not done:
                obs, reward, terminated, truncated, info = env.step(env.sample())
                steps += 1
                done = terminated or truncated
            self.assertTrue(terminated and not truncated)
            # drawn once the turn number passes the limit (docs/rules-choices.md)
            self.assertLessEqual(env.game.turn, 101)
            if info["terminal"] == learn.Terminal.TURN_LIMIT:
                self.assertEqual(info["returns"], (0.0, 0.0))
                self.assertEqual(env.game.turn, 101)
            else:
                self.assertEqual(info["terminal"], learn.Terminal.TOUCHDOWN)
            env.close()
        # without it the same random game goes past turn 100
        env = learn.Env(turn_limit=0)
        env.reset(seed=1)
        self.assertEqual(env.game.rules.turn_limit, 0)
        for _ in range(20000):
            obs, reward, terminated, truncated, info = env.step(env.sample())
            if terminated or env.game.turn > 101:
                break
        self.assertGreater(env.game.turn, 101)
        env.close()
        # a limit given as an option or in the rules text is kept
        for kw, limit in (({"turn_limit": 12}, 12), ({"rules_text": "turns=7"}, 7),
                          ({"rules_text": "zone=2"}, 100), ({"end_zone_depth": 2}, 100)):
            env = learn.Env(**kw)
            env.reset()
            self.assertEqual(env.game.rules.turn_limit, limit, kw)
            env.close()
            with learn.Batch(2, outputs=(), **kw) as b, b.game(1) as g:
                self.assertEqual(g.rules.turn_limit, limit, kw)
        with learn.Batch(2, outputs=()) as b, b.game(0) as g:
            self.assertEqual(g.rules.turn_limit, 100)
        with learn.Batch(2, outputs=(), turn_limit=0) as b, b.game(0) as g:
            self.assertEqual(g.rules.turn_limit, 0)
        with Game() as g:
            self.assertEqual(g.rules.turn_limit, 0)  # play: the library's default (R11.2)

    def test_touchdown_reward(self):
        # ATK's carrier on G15 runs into the end zone: G15-E17 (R11.1).
        bpn = "7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 ATK a 2 - 0/0 1"
        env = learn.Env(start=bpn)
        env.reset()
        g = env.game
        index = learn.action_to_index(g, "G15-E17")
        obs, reward, terminated, truncated, info = env.step(index)
        self.assertTrue(terminated)
        self.assertEqual(reward, 1.0)
        self.assertEqual(info["returns"], (1.0, -1.0))
        with self.assertRaises(IllegalActionError):
            env.step(index)
        env.close()
        env = learn.Env()
        env.reset()
        with self.assertRaises(RangeError):
            env.step(-3)
        env.close()


    def test_stopped_at_the_turn_bound_truncates(self):
        # DEF's last PA at turn 999999999, x alone on G9: after G9-F8 only
        # `end` would be left, and it would hand the turn over past the
        # bound (N1; docs/rules-choices.md, "Turn bound"): truncated.
        bpn = "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 1 - 0/0 999999999"
        env = learn.Env(start=bpn, turn_limit=0)  # no limit: else turn 100 has ended it
        env.reset()
        index = learn.action_to_index(env.game, "G9-F8")
        obs, reward, terminated, truncated, info = env.step(index)
        self.assertFalse(terminated)
        self.assertTrue(truncated)
        self.assertEqual(reward, 0.0)
        self.assertEqual(sum(info["mask"]), 0)
        env.close()


class FallbackIndexBijection(IndexBijection):
    use_numpy = False


class FallbackObservations(Observations):
    use_numpy = False


class FallbackBadInputs(BadInputs):
    use_numpy = False


class FallbackBatchEqualsGames(BatchEqualsGames):
    use_numpy = False


class FallbackEnvironment(Environment):
    use_numpy = False


class NumpyViews(WithNumpy):
    """numpy specifics: int64 index arrays, 2-D mirror, unpackbits."""

    def test_numpy_indices(self):
        with learn.Batch(2, outputs=("actions", "obs_bits")) as b:
            b.step(numpy.array([41, 154], dtype=numpy.int64))
            self.assertEqual(b.actions.tolist(), [41, 154])
            with self.assertRaises(RangeError):
                b.step(numpy.array([41, 2 ** 40], dtype=numpy.int64))
            with self.assertRaises(ArgumentError):
                b.step(numpy.array([41.0, 154.0]))
            two = learn.observation_bits_mirror(b.obs_bits)
            self.assertEqual(two.shape, b.obs_bits.shape)
            self.assertEqual(learn.unpack_bits(two, 3171).shape, (2, 3171))



if __name__ == "__main__":
    unittest.main()
