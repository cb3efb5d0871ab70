// SPDX-License-Identifier: MIT
// The MCTS searcher (ball_mcts_*): the same seed and budget give the same
// decisions as the native selfplay (whole games, both sides searched), the
// game is left as it was, an immediate touchdown is played without search,
// bad settings throw the library's message, and searchers give their wasm
// memory back. Budgets are small: the machine is shared.
import test from 'node:test';
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BallError, ErrorCode } from '../libball.mjs';
import { ball, tool, selfplay, NO_TOOL, NO_SELFPLAY, RELEASE_BPN } from './helpers.mjs';

const { Game, MCTS } = ball;

// selfplay seeds the players of game i with S + i: ATK's searcher with it,
// DEF's with it xor 0x9e3779b9 (examples/selfplay.c).
const seeds = (s) => ({ ATK: s, DEF: (s ^ 0x9e3779b9) >>> 0 });

// One game of two searchers through the binding, as selfplay plays it.
function playGame(rules, options, seed) {
  const game = new Game({ rules });
  const s = seeds(seed);
  const players = {
    ATK: new MCTS({ ...options.ATK, seed: s.ATK }),
    DEF: new MCTS({ ...options.DEF, seed: s.DEF }),
  };
  const played = [];
  while (!game.isOver)
    played.push(game.apply(players[game.side].choose(game)).text);
  const out = { played, bpn: game.bpn, result: game.result };
  game.free();
  players.ATK.free();
  players.DEF.free();
  return out;
}

// The decisions of selfplay's game 1 with `args`, from its record.
function nativeGame(args) {
  const dir = mkdtempSync(join(tmpdir(), 'libball-mcts-'));
  try {
    const file = join(dir, 'game.rec');
    const r = selfplay(['--games', '1', '--record', file, ...args]);
    assert.equal(r.status, 0, r.stderr);
    const [game] = ball.readRecords(readFileSync(file, 'utf8'));
    const out = { played: game.history().map(String), bpn: game.bpn, result: game.result };
    game.free();
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MATCHES = [
  // [selfplay arguments, rules, binding options of ATK and DEF, seed of game 1]
  [['--seed', '7', '--turn-limit', '8', '--atk', 'mcts:playouts=300', '--def', 'mcts:playouts=300'],
    'turns=8', { ATK: { playouts: 300 }, DEF: { playouts: 300 } }, 8],
  [['--seed', '40', '--turn-limit', '6', '--depth-zone', '2', '--atk', 'mcts:playouts=150,turns=0,c=1.5',
    '--def', 'mcts:playouts=400,turns=3'],
  'zone=2 turns=6', { ATK: { playouts: 150, playoutTurns: 0, exploration: 1.5 },
    DEF: { playouts: 400, playoutTurns: 3 } }, 41],
];

test('same seed and playouts: the decisions of the native selfplay, game after game',
  { skip: NO_SELFPLAY || NO_TOOL }, () => {
    for (const [args, rules, options, seed] of MATCHES) {
      const want = nativeGame(args);
      const got = playGame(rules, options, seed);
      assert.ok(want.played.length >= 10, `${want.played.length} decisions`);
      assert.deepEqual(got.played, want.played, `selfplay ${args.join(' ')}`);
      assert.equal(got.bpn, want.bpn);
      assert.equal(got.result, want.result);
      const r = tool(['--rules', rules, 'apply', ball.START_BPN, ...got.played]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), got.bpn, 'ball apply of the same decisions');
    }
  });

test('the same seed gives the same decision; seed() starts the generator again', () => {
  const game = new Game();
  game.apply('E11-F10');
  const a = new MCTS({ playouts: 400, seed: 99n });
  const b = new MCTS({ playouts: 400, seed: 99 });
  const first = a.choose(game);
  assert.equal(b.choose(game), first);
  assert.deepEqual({ ...a.stats, elapsedMs: 0 }, { ...b.stats, elapsedMs: 0 });
  assert.equal(a.seed(99n), a, 'seed() returns the searcher');
  assert.equal(a.choose(game), first);
  const seen = new Set();
  for (let s = 1; s <= 8; s++)
    seen.add(a.seed(s).choose(game).text);
  assert.ok(seen.size > 1, 'other seeds, other decisions');
  a.free();
  b.free();
  game.free();
});

test('config and stats', () => {
  const d = new MCTS();
  assert.deepEqual(d.config, { playouts: 1000, timeMs: 0, maxNodes: 0, playoutTurns: 1, exploration: 0.3, seed: 1n });
  assert.ok(Object.isFrozen(d.config));
  assert.equal(d.stats, null, 'no search yet');
  const game = new Game();
  const action = d.choose(game);
  const st = d.stats;
  assert.ok(game.isLegal(action));
  assert.equal(st.playouts, 1000);
  assert.ok(st.nodes > 1 && st.nodes <= 1001, `${st.nodes} nodes`);
  assert.ok(st.maxDepth >= 1);
  assert.ok(st.visits >= 1 && st.visits <= 1000);
  assert.ok(st.value > 0 && st.value < 1);
  assert.ok(st.elapsedMs >= 0);
  assert.ok(Object.isFrozen(st));
  d.free();
  // a time budget alone: no playout limit
  const timed = new MCTS({ timeMs: 40, playoutTurns: 1 });
  assert.equal(timed.config.playouts, 0);
  assert.equal(timed.config.timeMs, 40);
  assert.ok(game.isLegal(timed.choose(game)));
  assert.ok(timed.stats.elapsedMs >= 35 && timed.stats.playouts > 0, JSON.stringify(timed.stats));
  timed.free();
  const both = new MCTS({ timeMs: 5000, playouts: 50, maxNodes: 2000, seed: 2n ** 64n - 1n });
  assert.equal(both.config.seed, 2n ** 64n - 1n);
  both.choose(game);
  assert.equal(both.stats.playouts, 50, 'the playouts ran out first');
  both.free();
  game.free();
});

test('the game is left as it was: position, hash, history, selection', () => {
  const mcts = new MCTS({ playouts: 300, seed: 5 });
  const next = ball.xorshift64(77n);
  const game = new Game({ rules: 'turns=40' });
  const release = new Game(RELEASE_BPN);
  for (let i = 0; i < 60 && !game.isOver; i++) {
    for (const g of i % 10 === 0 ? [game, release] : [game]) {
      const before = { bpn: g.bpn, hash: g.hash, n: g.historyLength, history: g.history().join(' '),
        legal: g.legalActions().join(' '), roots: g.select([]).choices.join(' ') };
      const action = mcts.choose(g);
      assert.ok(g.isLegal(action), `${action} legal in ${before.bpn}`);
      assert.deepEqual({ bpn: g.bpn, hash: g.hash, n: g.historyLength, history: g.history().join(' '),
        legal: g.legalActions().join(' '), roots: g.select([]).choices.join(' ') }, before);
    }
    game.apply(game.randomAction(next()));
  }
  // the release phase: the decision solves a task
  const task = mcts.choose(release);
  assert.ok(['stand_up', 'release'].includes(task.kind) || task.kind === 'end' || release.phase === 'action');
  mcts.free();
  game.free();
  release.free();
});

test('an immediate touchdown is chosen at once; so is the only decision', () => {
  // ATK's carrier on H16, a step from DEF's end zone, DEF pieces around
  const atk = new Game('7/3X*2/1x3x1/6/3o3/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  // DEF's carrier on F2, a step from ATK's end zone
  const def = new Game('7/6/7/6/7/6/7/6/7/6/7/6/2X4/6/3O3/2s*3/7 DEF a 1 - 0/0 3');
  for (const [game, won] of [[atk, 'atk_won'], [def, 'def_won']]) {
    for (const playouts of [1, 2000]) {
      const mcts = new MCTS({ playouts, seed: 3 });
      const bpn = game.bpn;
      const action = mcts.choose(game);
      assert.equal(game.bpn, bpn);
      assert.equal(mcts.stats.playouts, 0, 'no search');
      assert.equal(mcts.stats.value, 1);
      game.apply(action);
      assert.equal(game.result, won, `${action} scores`);
      if (!NO_TOOL) {
        const r = tool(['apply', bpn, action.text]);
        assert.equal(r.stdout.trim(), game.bpn, 'the same position in the tool');
      }
      game.undo();
      mcts.free();
    }
  }
  const one = new Game('7/6/7/6/7/6/7/6/7/6/7/6/7/6/7/3X*2/7 ATK a 0 - 0/0 2');
  assert.deepEqual(one.legalActions().map(String), ['end']);
  const mcts = new MCTS({ playouts: 500 });
  assert.equal(mcts.choose(one).text, 'end');
  assert.equal(mcts.stats.playouts, 0);
  mcts.free();
  for (const g of [atk, def, one])
    g.free();
});

test('bad settings and bad calls throw BallError with the library message', () => {
  const bad = [
    [{ playouts: 0 }, ErrorCode.RANGE, 'mcts: no budget: set playouts, time_ms or both'],
    [{ playouts: 0, timeMs: 0 }, ErrorCode.RANGE, 'mcts: no budget: set playouts, time_ms or both'],
    [{ playouts: -1 }, ErrorCode.RANGE, 'mcts: playouts 0-1000000000, time_ms 0-86400000, max_nodes >= 0, playout_turns 0-1000'],
    [{ timeMs: 86400001 }, ErrorCode.RANGE, /time_ms 0-86400000/],
    [{ playoutTurns: 1001 }, ErrorCode.RANGE, /playout_turns 0-1000/],
    [{ maxNodes: -5 }, ErrorCode.RANGE, /max_nodes >= 0/],
    [{ exploration: 101 }, ErrorCode.RANGE, 'mcts: exploration must lie in 0-100'],
    [{ exploration: -0.1 }, ErrorCode.RANGE, 'mcts: exploration must lie in 0-100'],
    [{ playouts: 2 ** 31 }, ErrorCode.RANGE, /playouts .* out of range/],
    [{ playouts: 1.5 }, ErrorCode.ARG, 'playouts is an integer, not 1.5'],
    [{ playouts: '100' }, ErrorCode.ARG, /integer/],
    [{ exploration: NaN }, ErrorCode.ARG, /exploration is a number/],
    [{ seed: -1 }, ErrorCode.ARG, /seed/],
    [{ seed: 2n ** 64n }, ErrorCode.ARG, /seed/],
    [{ budget: 5 }, ErrorCode.ARG, /unknown MCTS option 'budget'/],
    [null, ErrorCode.ARG, /new MCTS/],
  ];
  const live = ball.liveSearchers;
  for (const [options, code, message] of bad) {
    assert.throws(() => new MCTS(options), (e) => {
      assert.ok(e instanceof BallError, `${inspect(options)}: ${e}`);
      assert.equal(e.code, code, `${inspect(options)}: ${e.message}`);
      if (typeof message === 'string')
        assert.equal(e.message, message);
      else
        assert.match(e.message, message);
      return true;
    });
  }
  assert.equal(ball.liveSearchers, live, 'nothing made by a failed constructor');
  const mcts = new MCTS({ playouts: 50 });
  const over = new Game('7/3X*2/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  over.apply('H16-G17');
  assert.throws(() => mcts.choose(over), { code: ErrorCode.RANGE, codeName: 'range',
    message: 'mcts: the game is over (atk_won)' });
  assert.throws(() => mcts.choose('7/6/7 ATK'), { code: ErrorCode.ARG, message: 'expected a Game, not string' });
  assert.throws(() => mcts.choose(null), { code: ErrorCode.ARG });
  over.free();
  assert.throws(() => mcts.choose(over), { code: ErrorCode.ARG, message: 'the game has been freed' });
  assert.throws(() => mcts.seed(1.5), { code: ErrorCode.ARG });
  assert.throws(() => mcts.seed('1'), { code: ErrorCode.ARG });
  mcts.free();
  assert.equal(mcts.freed, true);
  mcts.free(); // twice is harmless
  const game = new Game();
  assert.throws(() => mcts.choose(game), { code: ErrorCode.ARG, message: 'the searcher has been freed' });
  assert.throws(() => mcts.seed(1), { code: ErrorCode.ARG, message: 'the searcher has been freed' });
  game.free();
});

test('no wasm heap leak over 400 create / choose / free cycles', () => {
  const game = new Game();
  const cycle = (i) => {
    const mcts = new MCTS({ playouts: 20 + (i % 5) * 40, seed: i, maxNodes: i % 3 === 0 ? 5000 : 0 });
    game.apply(mcts.choose(game));
    if (game.isOver || game.historyLength > 40)
      game.bpn = ball.START_BPN;
    if (i % 2)
      mcts.free();
    else
      mcts[Symbol.dispose ?? Symbol.for('Symbol.dispose')]();
  };
  for (let i = 0; i < 60; i++) // warm-up: the allocator's own structures, the game's history
    cycle(i);
  const live = ball.liveSearchers;
  const before = ball.memory();
  const t = Date.now();
  for (let i = 0; i < 400; i++)
    cycle(i);
  const after = ball.memory();
  console.log(`# 400 searchers in ${Date.now() - t} ms; wasm heap in use ${before.allocated} -> ` +
    `${after.allocated} bytes`);
  assert.equal(ball.liveSearchers, live);
  assert.ok(after.allocated <= before.allocated + 4096,
    `heap in use grew from ${before.allocated} to ${after.allocated} bytes`);
  // the measure sees searchers that are not freed
  const kept = Array.from({ length: 10 }, () => new MCTS({ playouts: 1000 }));
  assert.ok(ball.memory().allocated - after.allocated >= 10 * 1000 * 16, 'node pools are counted');
  for (const m of kept)
    m.free();
  assert.ok(ball.memory().allocated <= after.allocated + 256);
  game.free();
});

test('searchers dropped without free() are freed by the FinalizationRegistry',
  { skip: typeof globalThis.gc !== 'function' && 'needs node --expose-gc' }, async () => {
    const live = ball.liveSearchers;
    const before = ball.memory().allocated;
    (() => {
      for (let i = 0; i < 50; i++)
        new MCTS({ playouts: 500 });
    })();
    assert.equal(ball.liveSearchers, live + 50);
    for (let round = 0; round < 50 && ball.liveSearchers > live; round++) {
      globalThis.gc();
      await tick();
    }
    assert.equal(ball.liveSearchers, live, 'all collected searchers freed');
    assert.ok(ball.memory().allocated <= before + 256);
  });
