// SPDX-License-Identifier: MIT
// The one-crossing calls (experimental tier): applyIndex(), randomApply()
// and randomPlayout(), each compared with the same decisions played
// through legalActions() + apply() and randomAction() + apply() on a twin
// game; the playout's generator is docs/learning.md's splitmix64, written
// out here with BigInt.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ball } from './helpers.mjs';

const { Game, ErrorCode, START_BPN } = ball;
const M64 = (1n << 64n) - 1n;

function splitmix64(state) {
  state = (state + 0x9E3779B97F4A7C15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
  return [state, z ^ (z >> 31n)];
}

function referencePlayout(g, seed, max = Infinity) {
  let state = seed, played = 0;
  while (played < max && g.countLegalActions() > 0) {
    let r;
    [state, r] = splitmix64(state);
    g.apply(g.randomAction(r));
    played++;
  }
  return played;
}

function assertSame(a, b) {
  assert.equal(a.bpn, b.bpn);
  assert.equal(a.hash, b.hash);
  assert.deepEqual(a.history().map(String), b.history().map(String));
}

test('applyIndex plays legalActions()[index]', () => {
  const g = new Game(), twin = new Game();
  let x = 29;
  for (let k = 0; k < 300; k++) {
    const list = twin.legalActions();
    if (list.length === 0)
      break;
    x = (x * 1103515245 + 12345) % 2147483648;
    const i = x % list.length;
    twin.apply(list[i]);
    assert.equal(g.applyIndex(i), undefined);
    assert.equal(String(g.historyAction(g.historyLength - 1)), String(list[i]));
  }
  assertSame(g, twin);
  g.free(); twin.free();
});

test('applyIndex: out of range, bad values and game over leave the game', () => {
  const g = new Game();
  g.apply('E11-F10');
  const bpn = g.bpn, n = g.countLegalActions();
  for (const bad of [n, n + 1, 2 ** 31 - 1])
    assert.throws(() => g.applyIndex(bad), { code: ErrorCode.RANGE });
  assert.throws(() => g.applyIndex(-1), { code: ErrorCode.RANGE });
  for (const bad of [1.5, '1', 1n, null, NaN])
    assert.throws(() => g.applyIndex(bad), { code: ErrorCode.ARG });
  assert.equal(g.bpn, bpn);
  assert.equal(g.historyLength, 1);
  g.randomPlayout(3n);
  assert.ok(g.isOver);
  assert.throws(() => g.applyIndex(0), { code: ErrorCode.RANGE });
  g.free();
  assert.throws(() => g.applyIndex(0));
});

test('randomApply plays what randomAction draws', () => {
  const g = new Game(), twin = new Game();
  let state = 7n;
  for (let k = 0; k < 300 && twin.countLegalActions() > 0; k++) {
    let r;
    [state, r] = splitmix64(state);
    const want = twin.randomAction(r);
    twin.apply(want);
    assert.equal(String(g.randomApply(r)), String(want));
  }
  assertSame(g, twin);
  assert.ok(new Game().randomApply() instanceof ball.Action);
  for (const bad of [-1n, 2n ** 64n, 5, '1'])
    assert.throws(() => g.randomApply(bad), { code: ErrorCode.ARG });
  const over = new Game();
  over.randomPlayout(11n);
  const bpn = over.bpn;
  assert.throws(() => over.randomApply(0n), { code: ErrorCode.RANGE });
  assert.equal(over.bpn, bpn);
});

test('randomPlayout: the documented splitmix64 draws, cut at maxDecisions, undone one by one', () => {
  for (const seed of [0n, 1n, 12345n, M64]) {
    for (const max of [undefined, 0, 1, 40]) {
      const g = new Game(), twin = new Game();
      const want = referencePlayout(twin, seed, max ?? Infinity);
      const got = g.randomPlayout(seed, max);
      assert.equal(got, want);
      assertSame(g, twin);
      if (max === undefined)
        assert.ok(g.isOver);
      for (let i = 0; i < got; i++)
        g.undo();
      assert.equal(g.bpn, START_BPN);
      assert.equal(g.historyLength, 0);
    }
  }
  const g = new Game({ rules: 'turns=30' });
  assert.ok(g.randomPlayout() > 0);
  assert.equal(g.randomPlayout(), 0);
  const h = new Game();
  assert.throws(() => h.randomPlayout(1n, -1), { code: ErrorCode.RANGE });
  for (const bad of [-1n, 2n ** 64n, 5, '1'])
    assert.throws(() => h.randomPlayout(bad), { code: ErrorCode.ARG });
  assert.throws(() => h.randomPlayout(1n, 1.5), { code: ErrorCode.ARG });
  assert.equal(h.bpn, START_BPN);
});
