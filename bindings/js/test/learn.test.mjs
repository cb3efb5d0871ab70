// SPDX-License-Identifier: MIT
// The learning interface (learn.mjs): indices, masks, observations, the
// mirror, returns and batches, against what the header and
// docs/learning.md say (sizes, layouts, the start position counted by
// hand, the mirror built from the BPN), against the Game API (legal
// actions, random play with splitmix64), and against the Python binding
// on the same positions (libball.learn through ctypes, the same C library
// built natively). Hostile arguments throw BallError and change nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { BallError, ErrorCode, START_BPN } from '../libball.mjs';
import bindLearn, * as L from '../learn.mjs';
import { ball, BALL_TOOL, DODGE_BPN, RELEASE_BPN } from './helpers.mjs';

const learn = bindLearn(ball);
const { Game } = ball;
const CARDS = 'earn.move=1 atk=Sprint:2:pa+1 def=Sprint:2:pa+1';

const refuses = (fn, code, message) =>
  assert.throws(fn, (e) => e instanceof BallError && e.code === code && (!message || message.test(e.message)),
    `expected BallError ${code}${message ? ` ${message}` : ''}`);

// The index of a square from its column (1-13) and row (1-17), as the
// header's board geometry numbers them.
const sqIndex = (col, row) => (13 * (row - 1) + (col - 1)) / 2;
const sum = (a) => a.reduce((x, y) => x + y, 0);

// ------------------------------------------------------------ the mirror, by hand

// A BPN with every row reversed: the left-right mirror (column c to 14 - c)
// of the position, built from the text alone.
function mirrorBpn(bpn) {
  const [board, ...rest] = bpn.split(' ');
  const rows = board.split('/').map((row) => {
    const squares = [];
    for (const [, run, token] of row.matchAll(/(\d+)|(\[[^\]]*\]\+?|[xosXOS@][*_!]*)/g)) {
      if (run)
        for (let i = 0; i < Number(run); i++) squares.push(null);
      else
        squares.push(token);
    }
    let out = '';
    let empty = 0;
    for (const s of squares.reverse()) {
      if (s === null) {
        empty++;
        continue;
      }
      out += (empty ? String(empty) : '') + s;
      empty = 0;
    }
    return out + (empty ? String(empty) : '');
  });
  return [rows.join('/'), ...rest].join(' ');
}

// The N2 text of an action with every column letter mirrored (A <-> M, ...).
const mirrorText = (text) => text.replace(/\b([A-M])(?=\d)/g, (c) => String.fromCharCode(0x4d - (c.charCodeAt(0) - 0x41)));

// A seeded random game of up to n decisions.
function randomGame(seed, n, options) {
  const next = ball.xorshift64(seed);
  const game = new Game(options);
  for (let i = 0; i < n && !game.isOver; i++)
    game.apply(game.randomAction(next()));
  return game;
}

// ------------------------------------------------------------ constants

test('sizes as ball.h states them: 71 planes of 111 squares, end, 99 conversions, 9 cards', () => {
  assert.equal(L.ACTION_SPACE, 71 * 111 + 1 + 99 + 9);
  assert.equal(L.INDEX_END, 71 * 111);
  assert.equal(L.INDEX_CARD, L.INDEX_END + 1 + 99);
  assert.equal(L.ACTION_MASK_BYTES, Math.ceil(7990 / 8));
  // P * C + S, or (P + S) * C with SCALAR_PLANES; C = 111 or 17 x 13
  assert.equal(learn.observationSize(), 28 * 111 + 63);
  assert.equal(learn.observationSize(L.ObsFlag.GRID), 28 * 221 + 63);
  assert.equal(learn.observationSize(L.ObsFlag.SCALAR_PLANES), (28 + 63) * 111);
  assert.equal(learn.observationSize(3), (28 + 63) * 221);
  assert.equal(learn.observationBytes(3), Math.ceil(20111 / 8));
  assert.equal(bindLearn(ball), learn, 'one object per instance');
  assert.equal(learn.ACTION_SPACE, 7990);
});

test('splitmix64: the reference outputs from state 0', () => {
  // The published first outputs of SplitMix64 seeded with 0.
  const [s1, a] = L.splitmix64(0n);
  const [, b] = L.splitmix64(s1);
  assert.equal(a, 0xE220A8397B1DCDAFn);
  assert.equal(b, 0x6E789E6AA1B965F4n);
  refuses(() => L.splitmix64(1), ErrorCode.ARG);
});

// ------------------------------------------------------------ indices and masks

test('indices: one per legal decision, a bijection, the mask marks exactly them', () => {
  for (const [bpn, rules] of [[START_BPN], [DODGE_BPN], [RELEASE_BPN], [null, CARDS]]) {
    const game = rules ? randomGame(5n, 7, { rules }) : new Game(bpn);
    const legal = game.legalActions();
    const indices = learn.legalIndices(game);
    assert.equal(indices.length, legal.length, bpn);
    assert.deepEqual([...indices].sort((x, y) => x - y), indices, 'increasing');
    const seen = new Set();
    for (const a of legal) {
      const i = learn.actionToIndex(game, a);
      assert.ok(i >= 0 && i < L.ACTION_SPACE);
      assert.equal(learn.actionToIndex(game, a.text), i, 'by text');
      assert.equal(learn.actionToIndex(game, a.code), i, 'by code');
      assert.equal(learn.actionFromIndex(game, i), a, 'the inverse (interned Actions)');
      seen.add(i);
    }
    assert.deepEqual([...seen].sort((x, y) => x - y), indices);
    const mask = learn.legalMask(game);
    assert.ok(mask instanceof Uint8Array);
    assert.equal(mask.length, L.ACTION_SPACE);
    assert.equal(sum(mask), legal.length);
    for (const i of indices)
      assert.equal(mask[i], 1);
    const bits = learn.legalMask(game, { bits: true });
    assert.equal(bits.length, L.ACTION_MASK_BYTES);
    assert.deepEqual(learn.unpackBits(bits, L.ACTION_SPACE), mask);
    if (game.isLegal('end'))
      assert.equal(learn.actionToIndex(game, 'end'), L.INDEX_END, 'end is 71 * 111');
    game.free();
  }
});

test('the start: 55 decisions for DEF, E11-F10 among them', () => {
  const game = new Game();
  assert.equal(learn.legalIndices(game).length, 55);
  // DEF's frame flips the rows: E11 is read as E7, F10 as F8; a step
  // towards row 17 of the frame from E7 to F8 is direction 0 (+1, +1),
  // plane STEP + 0, square E7 = (5, 7).
  assert.equal(learn.actionToIndex(game, 'E11-F10'), 0 * 111 + sqIndex(5, 7));
  assert.equal(learn.actionFromIndex(game, sqIndex(5, 7)).text, 'E11-F10');
  game.free();
});

test('index mirror: an involution, end / conversions / cards fixed, the mirrored position agrees', () => {
  const perm = learn.mirrorPermutation();
  assert.ok(perm instanceof Int32Array);
  for (let i = 0; i < L.ACTION_SPACE; i++) {
    assert.equal(perm[perm[i]], i);
    if (i >= L.INDEX_END)
      assert.equal(perm[i], i);
  }
  assert.equal(learn.indexMirror(L.INDEX_END), L.INDEX_END);
  perm[0] = 1234;
  assert.notEqual(learn.mirrorPermutation()[0], 1234, 'a copy each time');
  for (const bpn of [DODGE_BPN, RELEASE_BPN, randomGame(9n, 23).bpn]) {
    const game = new Game(bpn);
    const mirrored = new Game(mirrorBpn(bpn));
    for (const a of game.legalActions()) {
      const m = learn.actionFromIndex(mirrored, learn.indexMirror(learn.actionToIndex(game, a)));
      assert.equal(m.text, mirrorText(a.text), `${bpn}: ${a.text}`);
    }
    // policies move with the indices
    const mask = learn.legalMask(game);
    assert.deepEqual(learn.policyMirror(mask), learn.legalMask(mirrored));
    assert.deepEqual(learn.policyMirror(Array.from(mask)), Array.from(learn.legalMask(mirrored)));
    game.free();
    mirrored.free();
  }
});

// ------------------------------------------------------------ observations

test('the observation of the start, counted from the BPN', () => {
  const game = new Game();
  const obs = learn.observation(game);
  assert.ok(obs instanceof Float32Array);
  assert.equal(obs.length, 3171);
  assert.ok(obs.every((v) => v === 0 || v === 1));
  const plane = (p) => obs.subarray(p * 111, (p + 1) * 111);
  // 14 pieces (7 a side), none stacked or down: the level-0, down-0 planes
  // of each owner and type hold them all.
  assert.equal(sum(obs.subarray(0, 24 * 111)), 14);
  // DEF to act: "own" is DEF (owner 0). Each side has 3 X, 2 O and 2 S
  // (types X 1, O 2, S 3); plane 6 owner + 2 (type - 1) for standing
  // pieces not in a stack.
  const perType = { 1: 3, 2: 2, 3: 2 };
  for (const owner of [0, 1])
    for (const type of [1, 2, 3])
      assert.equal(sum(plane(6 * owner + 2 * (type - 1))), perType[type], `owner ${owner} type ${type}`);
  // The ball is held by the X on G5; DEF's frame reads row r as 18 - r.
  const ball5 = sqIndex(7, 18 - 5);
  assert.equal(plane(24)[ball5], 1);
  assert.equal(sum(plane(24)), 1);
  assert.equal(sum(plane(25)) + sum(plane(26)) + sum(plane(27)), 0, 'no loose ball, restriction or fresh stack');
  const s = obs.subarray(28 * 111);
  assert.equal(s[0], 1, 'DEF to act');
  assert.deepEqual([...s.subarray(3, 7)], [1, 1, 0, 0], 'PA 2: at least 1 and 2');
  assert.deepEqual([...s.subarray(7, 14)], [0, 1, 0, 0, 0, 0, 0], 'PA 2 in bits');
  assert.equal(sum(s), 4, 'and nothing else: no limit, zone 1, no cards');
  // bits are the same values
  const bits = learn.observationBits(game);
  assert.equal(bits.length, 397);
  assert.deepEqual(learn.unpackBits(bits, 3171), Uint8Array.from(obs));
  // the other layouts hold the same ones
  assert.equal(sum(learn.observation(game, { flags: L.ObsFlag.GRID })), 19);
  assert.equal(sum(learn.observation(game, { flags: L.ObsFlag.SCALAR_PLANES })), 15 + 4 * 111);
  // a scalar as a plane is constant over the whole grid, unplayable cells too
  assert.equal(sum(learn.observation(game, { flags: 3 })), 15 + 4 * 221);
  // the start is symmetric: its mirror is itself
  assert.deepEqual(learn.observationMirror(obs), obs);
  game.free();
});

test('observation mirror = the observation of the mirrored position, every layout, bits too', () => {
  const bpns = [DODGE_BPN, RELEASE_BPN, randomGame(3n, 41).bpn, randomGame(4n, 120, { rules: CARDS }).bpn];
  for (const bpn of bpns) {
    const game = new Game({ bpn, rules: bpn === bpns[3] ? CARDS : undefined });
    const mirrored = new Game({ bpn: mirrorBpn(bpn), rules: bpn === bpns[3] ? CARDS : undefined });
    for (const flags of [0, 1, 2, 3]) {
      const obs = learn.observation(game, { flags });
      assert.deepEqual(learn.observationMirror(obs, { flags }), learn.observation(mirrored, { flags }), `${bpn} flags ${flags}`);
      assert.deepEqual(learn.observationBitsMirror(learn.observationBits(game, { flags }), { flags }),
        learn.observationBits(mirrored, { flags }));
      // several at once, in place
      const two = new Float32Array(2 * obs.length);
      two.set(obs);
      two.set(learn.observation(mirrored, { flags }), obs.length);
      const back = learn.observationMirror(two, { flags, out: two });
      assert.equal(back, two);
      assert.deepEqual(two.subarray(0, obs.length), learn.observation(mirrored, { flags }));
      assert.deepEqual(two.subarray(obs.length), obs);
    }
    game.free();
    mirrored.free();
  }
});

test('out: written into and returned; copies stay valid when the memory grows', () => {
  const game = new Game(DODGE_BPN);
  const out = new Float32Array(4000).fill(7);
  assert.equal(learn.observation(game, { out }), out);
  assert.deepEqual(out.subarray(0, 3171), learn.observation(game));
  assert.equal(out[3171], 7, 'nothing written beyond');
  const mask = new Uint8Array(8000);
  assert.equal(learn.legalMask(game, { out: mask }), mask);
  const obs = learn.observation(game);
  const copy = obs.slice();
  const heap = ball.memory().heapSize;
  const games = [];
  while (ball.memory().heapSize === heap && games.length < 20000)
    games.push(new Game());
  assert.ok(ball.memory().heapSize > heap, 'the memory grew');
  assert.deepEqual(obs, copy, 'an observation is a copy of its own');
  for (const g of games)
    g.free();
  game.free();
});

// ------------------------------------------------------------ returns

// A ball carrier one step from the end zone: ATK on H16 (R11.1: row 17),
// and the same position flipped by rows with the teams swapped, DEF on H2.
const ATK_SCORES = '7/3X*2/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 1';
const DEF_SCORES = '7/6/7/6/7/6/7/6/7/6/7/6/7/6/7/3x*2/7 DEF a 2 - 0/0 1';

test('the side to act\'s frame: DEF\'s decisions have the indices of ATK\'s in the row-flipped position', () => {
  const atk = new Game(ATK_SCORES);
  const def = new Game(DEF_SCORES);
  assert.deepEqual(learn.legalIndices(def), learn.legalIndices(atk));
  assert.deepEqual(learn.observation(def).subarray(0, 28 * 111), learn.observation(atk).subarray(0, 28 * 111));
  // H16 to G17 is direction 1 (-1, +1): plane STEP + 1 from H16 = (8, 16)
  assert.equal(learn.actionToIndex(atk, 'H16-G17'), 111 + sqIndex(8, 16));
  assert.equal(learn.actionToIndex(def, 'H2-G1'), 111 + sqIndex(8, 16));
  atk.free();
  def.free();
});

test('returns: a touchdown +1 for the scorer, -1 for the other; a turn limit a draw; 0 while it goes on', () => {
  for (const [bpn, move, winner] of [[ATK_SCORES, 'H16-G17', 'ATK'], [DEF_SCORES, 'H2-G1', 'DEF']]) {
    const game = new Game(bpn);
    assert.deepEqual(learn.returns(game), { terminal: 'not_terminal', terminalCode: 0, atk: 0, def: 0, values: [0, 0] });
    game.apply(move);
    const r = learn.returns(game);
    assert.equal(r.terminal, 'touchdown');
    assert.equal(r.terminalCode, L.Terminal.TOUCHDOWN);
    assert.deepEqual(r.values, winner === 'ATK' ? [1, -1] : [-1, 1]);
    assert.deepEqual(learn.legalIndices(game), [], 'over: no index');
    assert.equal(sum(learn.legalMask(game)), 0);
    refuses(() => learn.actionToIndex(game, 'end'), ErrorCode.ILLEGAL);
    game.free();
  }
  // R11.2: turns=1 ends the game when the first turn is handed over
  const game = new Game({ rules: 'turns=1' });
  game.apply('end');
  assert.equal(game.result, 'draw');
  const r = learn.returns(game);
  assert.equal(r.terminal, 'turn_limit');
  assert.deepEqual([r.atk, r.def], [0, 0]);
  game.free();
});

// ------------------------------------------------------------ batches

test('Batch: game i plays what a Game plays with splitmix64 (docs/learning.md), outputs and all', () => {
  const n = 5;
  const seed = 77n;
  const batch = new learn.Batch(n, { seed, outputs: [...L.DEFAULT_OUTPUTS, 'obs_bits', 'maskBits'] });
  assert.equal(batch.n, n);
  assert.equal(batch.length, n);
  assert.deepEqual([...batch.actions], Array(n).fill(-1), 'after reset: -1');
  // the reference: one Game per batch game, turn limit 100 (AUTO_TURN_LIMIT)
  const games = [];
  const states = [];
  let seeder = seed;
  for (let i = 0; i < n; i++) {
    let out;
    [seeder, out] = L.splitmix64(seeder);
    states.push(out);
    games.push(new Game({ rules: { turnLimit: 100 } }));
  }
  let ended = 0;
  for (let step = 0; step < 400; step++) {
    const played = [];
    const expectDone = [];
    const expectRewards = [];
    for (let i = 0; i < n; i++) {
      const g = games[i];
      let r;
      [states[i], r] = L.splitmix64(states[i]);
      const a = g.randomAction(r);
      played.push(learn.actionToIndex(g, a));
      g.apply(a);
      const ret = learn.returns(g);
      expectDone.push(ret.terminalCode);
      expectRewards.push(ret.atk, ret.def);
      if (g.isOver)
        g.bpn = START_BPN;
    }
    const got = batch.step();
    assert.equal(got, expectDone.filter((d) => d).length);
    ended += got;
    assert.deepEqual([...batch.actions], played, `step ${step}`);
    assert.deepEqual([...batch.done], expectDone);
    assert.deepEqual([...batch.rewards], expectRewards);
    assert.deepEqual([...batch.side], games.map((g) => (g.side === 'ATK' ? 0 : 1)));
    if (step % 37 === 0 || got) {
      for (let i = 0; i < n; i++) {
        assert.equal(batch.position(i), games[i].bpn);
        assert.deepEqual(batch.row('obs', i), learn.observation(games[i]));
        assert.deepEqual(batch.row('obsBits', i), learn.observationBits(games[i]));
        assert.deepEqual(batch.row('mask', i), learn.legalMask(games[i]));
        assert.deepEqual(batch.row('mask_bits', i), learn.legalMask(games[i], { bits: true }));
      }
      const obs = batch.obs;
      assert.equal(obs.length, n * 3171);
      assert.deepEqual(obs.subarray(3171, 2 * 3171), learn.observation(games[1]));
    }
  }
  assert.ok(ended > 0, 'games ended and were reset within 400 steps (turn limit 100)');
  for (const g of games)
    g.free();
  batch.free();
});

test('Batch: chosen indices, a start, unbinding, games out of it, freeing', () => {
  const batch = new learn.Batch(3, { start: DODGE_BPN, outputs: ['actions'], obsFlags: 1 });
  assert.equal(batch.obsSize, 6251);
  assert.equal(batch.position(2), DODGE_BPN);
  assert.equal(batch.obs, null, 'not bound');
  const game = batch.game(1);
  assert.equal(game.bpn, DODGE_BPN);
  assert.equal(game.historyLength, 0);
  const idx = learn.legalIndices(game);
  const choice = [idx[0], idx[1], idx.at(-1)];
  assert.equal(batch.step(Int32Array.from(choice)), 0);
  assert.deepEqual([...batch.actions], choice);
  for (let i = 0; i < 3; i++) {
    const g = new Game(DODGE_BPN);
    g.apply(learn.actionFromIndex(g, choice[i]));
    assert.equal(batch.position(i), g.bpn);
    g.free();
  }
  // an illegal index anywhere: no game moves
  const before = [0, 1, 2].map((i) => batch.position(i));
  const legal = [0, 1, 2].map((i) => {
    const g = batch.game(i);
    const list = learn.legalIndices(g);
    g.free();
    return list;
  });
  const illegal = Array.from({ length: L.ACTION_SPACE }, (_, i) => i).find((i) => !legal[2].includes(i));
  refuses(() => batch.step([legal[0][0], legal[1][0], illegal]), ErrorCode.ILLEGAL, /game 2/);
  assert.deepEqual([0, 1, 2].map((i) => batch.position(i)), before, 'nothing moved');
  batch.bind('done').unbind('actions');
  assert.equal(batch.isBound('actions'), false);
  assert.equal(batch.actions, null);
  const out = new Uint8Array(3);
  assert.equal(batch.read('done', out), out);
  batch.setStart(null);
  batch.reset(1);
  assert.equal(batch.position(0), START_BPN);
  const live = learn.liveBatches;
  batch.free();
  batch.free();
  assert.equal(learn.liveBatches, live - 1);
  assert.equal(batch.freed, true);
  assert.equal(game.bpn, DODGE_BPN, 'a game from a batch outlives it');
  game.free();
  refuses(() => batch.step(), ErrorCode.ARG, /freed/);
  refuses(() => batch.position(0), ErrorCode.ARG, /freed/);
  refuses(() => batch.obs, ErrorCode.ARG, /freed/);
});

// ------------------------------------------------------------ the Python binding

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
// The native library: LIBBALL_PATH (the library file, as the Python
// binding reads it; scripts/run-tests.sh sets it), or the one next to the
// tool's build (BALL_TOOL is B/bin/ball).
const LIBRARY = process.env.LIBBALL_PATH || `${dirname(dirname(BALL_TOOL))}/libball.so.1`;
const python = spawnSync('python3', ['-c', 'import ctypes'], { encoding: 'utf8' });
const NO_PYTHON = python.status !== 0 ? 'no python3' :
  !existsSync(LIBRARY) ? `no native library ${LIBRARY} (make lib, or set LIBBALL_PATH)` : false;

const PY = `
import json, sys
from libball import Game, learn
out = []
for case in json.load(sys.stdin):
    g = Game(case["bpn"], rules_text=case["rules"]) if case["rules"] else Game(case["bpn"])
    r = learn.returns(g)
    item = {"indices": list(learn.legal_indices(g)), "mask_bits": list(learn.legal_mask(g, bits=True)),
            "texts": [learn.action_from_index(g, i).text for i in learn.legal_indices(g)],
            "returns": [int(r.terminal), r.atk, r.def_], "obs": {}, "bits": {}, "mirror": {}}
    for f in range(4):
        o = learn.observation(g, f)
        item["obs"][f] = "".join("1" if v else "0" for v in o)
        item["bits"][f] = list(learn.observation_bits(g, f))
        item["mirror"][f] = "".join("1" if v else "0" for v in learn.observation_mirror(o, f))
    out.append(item)
out.append({"perm": list(learn.mirror_permutation())})
json.dump(out, sys.stdout)
`;

test('the same positions through the Python binding: the same indices, masks, observations, mirrors, returns',
  { skip: NO_PYTHON }, () => {
    const cases = [{ bpn: START_BPN, rules: '' }, { bpn: DODGE_BPN, rules: '' }, { bpn: RELEASE_BPN, rules: '' }];
    for (const [seed, n, rules] of [[1n, 15, ''], [2n, 60, 'zone=2 turns=40'], [3n, 90, CARDS], [4n, 3000, 'turns=30']]) {
      const g = randomGame(seed, n, { rules: rules || undefined });
      cases.push({ bpn: g.bpn, rules });
      g.free();
    }
    const r = spawnSync('python3', ['-c', PY], {
      input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 1 << 28,
      env: { ...process.env, PYTHONPATH: `${REPO}bindings/python`, LIBBALL_PATH: LIBRARY },
    });
    assert.equal(r.status, 0, r.stderr);
    const py = JSON.parse(r.stdout);
    assert.deepEqual([...learn.mirrorPermutation()], py.at(-1).perm);
    cases.forEach((c, k) => {
      const game = new Game({ bpn: c.bpn, rules: c.rules || undefined });
      const want = py[k];
      const what = `${c.bpn} ${c.rules}`;
      assert.deepEqual(learn.legalIndices(game), want.indices, what);
      assert.deepEqual([...learn.legalMask(game, { bits: true })], want.mask_bits, what);
      assert.deepEqual(want.indices.map((i) => learn.actionFromIndex(game, i).text), want.texts, what);
      const ret = learn.returns(game);
      assert.deepEqual([ret.terminalCode, ret.atk, ret.def], want.returns, what);
      for (const f of [0, 1, 2, 3]) {
        const obs = learn.observation(game, { flags: f });
        assert.equal(Array.from(obs, (v) => (v ? '1' : '0')).join(''), want.obs[f], `${what} flags ${f}`);
        assert.deepEqual([...learn.observationBits(game, { flags: f })], want.bits[f]);
        assert.equal(Array.from(learn.observationMirror(obs, { flags: f }), (v) => (v ? '1' : '0')).join(''), want.mirror[f]);
      }
      game.free();
    });
    assert.ok(py.some((x) => x.returns && x.returns[0] !== 0), 'a finished game among them');
  });

// ------------------------------------------------------------ hostile arguments

test('hostile: games, indices, flags, outs', () => {
  const game = new Game();
  const before = game.bpn;
  const freed = new Game();
  freed.free();
  for (const fn of [learn.legalMask, learn.legalIndices, learn.observation, learn.observationBits, learn.returns]) {
    refuses(() => fn(freed), ErrorCode.ARG, /freed/);
    refuses(() => fn(null), ErrorCode.ARG);
    refuses(() => fn({}), ErrorCode.ARG);
    refuses(() => fn(Object.create(Game.prototype)), ErrorCode.ARG);
  }
  refuses(() => learn.actionToIndex(freed, 'end'), ErrorCode.ARG, /freed/);
  refuses(() => learn.actionToIndex({ parseAction: () => ({ code: 1 }) }, 'end'), ErrorCode.ARG, /expected a Game/);
  const own = new Game();
  own.parseAction = () => { throw new Error('the caller\'s own method ran'); };
  assert.equal(learn.actionToIndex(own, 'E11-F10'), 41, 'Game\'s parseAction, not the object\'s');
  own.free();
  refuses(() => learn.actionFromIndex(freed, 0), ErrorCode.ARG, /freed/);
  refuses(() => learn.actionToIndex(game, 'K9-L10'), ErrorCode.ILLEGAL);
  refuses(() => learn.actionToIndex(game, 'zz'), ErrorCode.NOTATION);
  refuses(() => learn.actionToIndex(game, 0), ErrorCode.ARG);
  refuses(() => learn.actionToIndex(game, {}), ErrorCode.ARG);
  refuses(() => learn.actionToIndex(game, 'end\0'), ErrorCode.NOTATION, /NUL/);
  for (const i of [-1, 7990, 2 ** 31 - 1, -(2 ** 31)])
    refuses(() => learn.actionFromIndex(game, i), ErrorCode.RANGE);
  for (const i of [2 ** 31, 1.5, NaN, '3', 3n, null])
    refuses(() => learn.actionFromIndex(game, i), typeof i === 'number' && Number.isInteger(i) ? ErrorCode.RANGE : ErrorCode.ARG);
  refuses(() => learn.actionFromIndex(game, 0), ErrorCode.ILLEGAL, /./);
  for (const i of [-1, 7990, 1e10])
    refuses(() => learn.indexMirror(i), ErrorCode.RANGE);
  refuses(() => learn.indexMirror('1'), ErrorCode.ARG);
  for (const f of [4, -1, 8, 2 ** 31])
    refuses(() => learn.observation(game, { flags: f }), f === 2 ** 31 ? ErrorCode.RANGE : ErrorCode.ARG);
  refuses(() => learn.observationSize('1'), ErrorCode.ARG);
  refuses(() => learn.observation(game, { flag: 1 }), ErrorCode.ARG, /unknown/);
  refuses(() => learn.observation(game, 1), ErrorCode.ARG);
  refuses(() => learn.legalMask(game, { bits: 1 }), ErrorCode.ARG);
  // outs: wrong type, too short, detached, a view of the library's memory
  refuses(() => learn.observation(game, { out: new Float64Array(3171) }), ErrorCode.ARG);
  refuses(() => learn.observation(game, { out: new Float32Array(3170) }), ErrorCode.BUFFER);
  refuses(() => learn.observation(game, { out: [] }), ErrorCode.ARG);
  refuses(() => learn.legalMask(game, { out: new Uint8Array(7989) }), ErrorCode.BUFFER);
  refuses(() => learn.legalMask(game, { out: new Int8Array(7990) }), ErrorCode.ARG);
  const detached = new Float32Array(3171);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  refuses(() => learn.observation(game, { out: detached }), ErrorCode.BUFFER, /detached/);
  const heapView = new Float32Array(ball.native.HEAPU8.buffer, 0, 3171);
  const saved = heapView.slice();
  refuses(() => learn.observation(game, { out: heapView }), ErrorCode.ARG, /library's own memory/);
  assert.deepEqual(heapView, saved);
  const liar = new Float32Array(10);
  Object.defineProperty(liar, 'length', { value: 5000 });
  refuses(() => learn.observation(game, { out: liar }), ErrorCode.BUFFER, /holds 10/);
  // inputs of the mirror and unpacking
  refuses(() => learn.observationMirror(new Float32Array(3170)), ErrorCode.BUFFER);
  refuses(() => learn.observationMirror(new Float32Array(0)), ErrorCode.BUFFER);
  refuses(() => learn.observationMirror(new Uint8Array(3171)), ErrorCode.ARG);
  refuses(() => learn.observationMirror(['1', ...Array(3170).fill(0)]), ErrorCode.ARG);
  refuses(() => learn.observationMirror([, ...Array(3170).fill(0)]), ErrorCode.ARG, /hole/);
  refuses(() => learn.observationBitsMirror(new Uint8Array(396)), ErrorCode.BUFFER);
  // an input whose buffer was transferred away (found by test/fuzz.mjs)
  const gone = new Float32Array(3171);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  refuses(() => learn.observationMirror(gone), ErrorCode.BUFFER, /detached/);
  refuses(() => learn.policyMirror(gone), ErrorCode.BUFFER, /detached/);
  refuses(() => learn.unpackBits(new Uint8Array(2), 17), ErrorCode.BUFFER);
  refuses(() => learn.policyMirror(new Float32Array(7989)), ErrorCode.BUFFER);
  refuses(() => learn.policyMirror('x'), ErrorCode.ARG);
  // the caller's code that throws while its options are read
  const boom = new Error('boom');
  assert.throws(() => learn.observation(game, { get flags() { throw boom; } }),
    (e) => e instanceof BallError && e.code === ErrorCode.ARG && e.cause === boom);
  assert.throws(() => learn.observation(game, new Proxy({}, { ownKeys() { throw boom; } })),
    (e) => e instanceof BallError && e.cause === boom);
  assert.equal(game.bpn, before, 'the game is unchanged');
  game.free();
  refuses(() => bindLearn({}), ErrorCode.ARG);
  refuses(() => bindLearn(null), ErrorCode.ARG);
});

test('hostile: batches', () => {
  const live = learn.liveBatches;
  const allocated = ball.memory().allocated;
  for (const n of [0, -1, L.BATCH_MAX + 1])
    refuses(() => new learn.Batch(n), ErrorCode.RANGE);
  refuses(() => new learn.Batch(1.5), ErrorCode.ARG);
  refuses(() => new learn.Batch('2'), ErrorCode.ARG);
  refuses(() => new learn.Batch(2, { outputs: ['obs', 'nope'] }), ErrorCode.ARG, /no batch output/);
  refuses(() => new learn.Batch(2, { outputs: 'obs' }), ErrorCode.ARG);
  refuses(() => new learn.Batch(2, { colour: 'red' }), ErrorCode.ARG, /unknown/);
  refuses(() => new learn.Batch(2, { obsFlags: 4 }), ErrorCode.ARG);
  refuses(() => new learn.Batch(2, { seed: -1 }), ErrorCode.ARG);
  refuses(() => new learn.Batch(2, { start: 'bad' }), ErrorCode.BPN);
  refuses(() => new learn.Batch(2, { start: 'x\0' }), ErrorCode.BPN, /NUL/);
  refuses(() => new learn.Batch(2, { rules: 'zone=9' }), ErrorCode.RULES);
  refuses(() => new learn.Batch(2, { rules: 'turns=3', turnLimit: 3 }), ErrorCode.ARG, /not both/);
  // an output the memory cannot hold: refused before anything is written
  refuses(() => new learn.Batch(L.BATCH_MAX, { outputs: ['obs'], obsFlags: 3 }), ErrorCode.NOMEM);
  assert.equal(learn.liveBatches, live, 'the failed batches were freed');
  assert.ok(ball.memory().allocated <= allocated + 4096, 'and their memory');
  const batch = new learn.Batch(2, { outputs: ['actions'] });
  const before = [batch.position(0), batch.position(1)];
  refuses(() => batch.step([0]), ErrorCode.BUFFER, /2 indices/);
  refuses(() => batch.step(new Int32Array(3)), ErrorCode.BUFFER);
  refuses(() => batch.step(new Uint32Array(2)), ErrorCode.ARG);
  refuses(() => batch.step([0, 7990]), ErrorCode.RANGE);
  refuses(() => batch.step([0, 2 ** 40]), ErrorCode.RANGE);
  refuses(() => batch.step([0, '1']), ErrorCode.ARG);
  refuses(() => batch.step(Int32Array.of(-5, 0)), ErrorCode.RANGE);
  refuses(() => batch.step('ab'), ErrorCode.ARG);
  assert.deepEqual([batch.position(0), batch.position(1)], before, 'nothing moved');
  for (const i of [-1, 2, 2 ** 31])
    refuses(() => batch.position(i), ErrorCode.RANGE);
  refuses(() => batch.game(2), ErrorCode.RANGE);
  refuses(() => batch.row('actions', 2), ErrorCode.RANGE);
  refuses(() => batch.row('obs', 0), ErrorCode.ARG, /not bound/);
  refuses(() => batch.read('actions', new Float32Array(2)), ErrorCode.ARG);
  refuses(() => batch.read('actions', new Int32Array(1)), ErrorCode.BUFFER);
  refuses(() => batch.bind(8), ErrorCode.ARG);
  refuses(() => batch.setStart('7/6 DEF'), ErrorCode.BPN);
  assert.equal(batch.position(0), before[0], 'a refused start changes nothing');
  refuses(() => batch.reset(-1), ErrorCode.ARG);
  refuses(() => batch.reset(2n ** 64n), ErrorCode.ARG);
  assert.throws(() => { batch.n = 5; }, TypeError, 'frozen');
  // the caller's array frees the batch while step() reads it
  const doomed = new learn.Batch(2, { outputs: ['actions'] });
  const g0 = doomed.game(0);
  const first = learn.legalIndices(g0)[0];
  g0.free();
  const sneaky = new Proxy([first, first], { get(t, k) { doomed.free(); return Reflect.get(t, k); } });
  refuses(() => doomed.step(sneaky), ErrorCode.ARG, /freed/);
  assert.equal(doomed.freed, true);
  batch.free();
  assert.equal(learn.liveBatches, live);
});
