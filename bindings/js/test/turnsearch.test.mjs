// SPDX-License-Identifier: MIT
// The turn search (ball_search_*) through the binding: a touchdown in one
// turn is found and proven for whichever coach is to act (R4.3, R5.1,
// R11.1), multi-PV values, the game is left exactly as it was, a node
// budget repeats itself, principal variations replay legally, bad
// settings throw the library's message, a finished game and a freed
// searcher throw, and searchers give their wasm memory back. Budgets are
// small: the machine is shared.
import test from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { setImmediate as tick } from 'node:timers/promises';
import { BallError, ErrorCode } from '../libball.mjs';
import { ball, RELEASE_BPN } from './helpers.mjs';

const { Game, TurnSearch } = ball;

// ATK's X* on G13, DEF's x on A1, ATK to act with 2 PA. An X moves 1 or 2
// squares diagonally (R5.1), each move costs 1 PA (R4.3): G13-E15 or
// G13-I15 then a 2-square diagonal move to C17, G17 or K17 reaches ATK's
// target end zone, row 17, and scores (R1.4, R11.1). No other first
// decision scores this turn: after a 1-square move (F14, H14, F12, H12)
// or any move down, one move of at most 2 rows cannot reach row 17.
const IN_ONE = '7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2';
// The mirror image (row r -> 18 - r): DEF's x* on G5, ATK's X on A17,
// DEF to act; DEF scores in row 1 by G5-E3 or G5-I3 and a second
// 2-square diagonal move.
const IN_ONE_DEF = 'X6/6/7/6/7/6/7/6/7/6/7/6/3x*3/6/7/6/7 DEF a 2 - 0/0 2';

const rowOf = (square) => Number(square.slice(1));
const snapshot = (g) => ({ bpn: g.bpn, hash: g.hash, n: g.historyLength, history: g.history().join(' '),
  legal: g.legalActions().join(' ') });
// A result without its timing, for comparisons of two runs.
const timeless = (r) => ({ ...r, elapsedMs: 0 });

test('a touchdown in one turn: found, proven, the best turn scores (R5.1, R4.3, R11.1)', () => {
  for (const [bpn, side, zone, winner] of [[IN_ONE, 'ATK', 17, 'atk_won'], [IN_ONE_DEF, 'DEF', 1, 'def_won']]) {
    const game = new Game(bpn);
    assert.equal(game.side, side);
    const search = new TurnSearch({ nodes: 5000, hashMb: 2 });
    const r = search.analyse(game);
    const firstRow = side === 'ATK' ? 15 : 3;
    assert.equal(r.best.kind, 'move');
    assert.equal(r.best.from, side === 'ATK' ? 'G13' : 'G5');
    assert.ok(['E', 'I'].includes(r.best.to[0]) && rowOf(r.best.to) === firstRow, `${r.best} (${side})`);
    // the value is for the coach to act: +1, a proven win, two decisions to the end
    assert.equal(r.value, 1);
    assert.equal(r.proven, 1);
    assert.equal(r.decisionsToEnd, 2);
    assert.equal(r.stopped, false);
    assert.equal(r.bestTurn.length, 2);
    assert.equal(r.bestTurn[0], r.best);
    assert.equal(rowOf(r.bestTurn[1].to), zone);
    assert.equal(r.bestTurnText, r.bestTurn.join(' '));
    assert.equal(r.lines[0].action, r.best);
    assert.deepEqual(r.lines[0].pv, r.bestTurn, 'the touchdown ends the line');
    assert.equal(r.lines[0].pvText, r.bestTurnText);
    assert.equal(r.lines[0].proven, 1);
    assert.equal(search.choose(game), r.best);
    // playing the best turn wins the game
    for (const a of r.bestTurn)
      game.apply(a);
    assert.equal(game.result, winner);
    search.free();
    game.free();
  }
});

test('one legal decision: answered without search (R4.2, R4.3, R4.5)', () => {
  // 0 PA left and no partner for a hand-off (the only 0-PA action): `end`,
  // always legal, is the only decision
  const game = new Game('7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 0 - 0/0 2');
  assert.deepEqual(game.legalActions().map(String), ['end']);
  const search = new TurnSearch({ nodes: 1000, hashMb: 1 });
  const r = search.analyse(game);
  assert.deepEqual({ best: r.best.text, depth: r.depth, nodes: r.nodes, value: r.value, turn: r.bestTurnText,
    lines: r.lines.map((l) => l.pvText) }, { best: 'end', depth: 0, nodes: 0, value: 0, turn: 'end', lines: ['end'] });
  search.free();
  game.free();
});

test('the best turn ends before the hand-over after one legal decision or a budget spent before depth 1', () => {
  // the cases of bestTurn's documentation (issue 49): the coach to act is
  // still to act after playing it. `end` of the action phase is the one
  // decision here, and the release phase after it is ATK's (R4.5, R9).
  for (const [bpn, nodes, alone] of [
    ['7/6/4x2/4s1/5o1/o5/7/1x1x2/7/3s2/2XS_1O@/6/O4X1/6/2X4/3S2/7 ATK a 0 - 0/0 12', 20000, true],
    [ball.START_BPN, 50, false]]) {
    const game = new Game(bpn);
    const search = new TurnSearch({ nodes });
    const r = search.analyse(game);
    assert.equal(r.depth, 0);
    assert.equal(r.bestTurn[0], r.best);
    if (alone)
      assert.deepEqual(r.bestTurn, [r.best]);
    const side = game.side;
    for (const a of r.bestTurn)
      game.apply(a);
    assert.equal(game.side, side, `${bpn}: no hand-over`);
    assert.equal(game.isOver, false);
    assert.ok(game.legalActions().length > 0, 'the turn goes on');
    search.free();
    game.free();
  }
});

test('multipv: the first multipv lines are exact; the decisions that cannot score are worth less', () => {
  const game = new Game(IN_ONE);
  const search = new TurnSearch({ nodes: 20000, multipv: 3, hashMb: 2 });
  const r = search.analyse(game);
  const [a, b, c] = r.lines;
  // G13-E15 and G13-I15 both score this turn (see IN_ONE)
  assert.deepEqual([a.action.text, b.action.text].sort(), ['G13-E15', 'G13-I15']);
  for (const l of [a, b]) {
    assert.deepEqual({ value: l.value, proven: l.proven, bound: l.bound }, { value: 1, proven: 1, bound: false });
    assert.equal(rowOf(l.pv[1].to), 17);
  }
  assert.equal(c.bound, false, 'the third line is exact too');
  assert.equal(c.proven, 0);
  assert.ok(c.value < 1, `${c.action}: ${c.value}`);
  // every root decision is legal, once
  const legal = new Set(game.legalActions());
  assert.equal(new Set(r.lines.map((l) => l.action)).size, r.lines.length);
  for (const l of r.lines)
    assert.ok(legal.has(l.action), String(l.action));
  search.free();
  game.free();
});

test('the game is left exactly as it was; the lines replay legally', () => {
  const search = new TurnSearch({ nodes: 3000, hashMb: 2 });
  const next = ball.xorshift64(25n);
  const game = new Game({ rules: 'turns=30' });
  const release = new Game(RELEASE_BPN);
  for (let i = 0; i < 12 && !game.isOver; i++) {
    for (const g of i % 4 === 0 ? [game, release] : [game]) {
      const before = snapshot(g);
      const r = search.analyse(g);
      assert.deepEqual(snapshot(g), before, `analyse() on ${before.bpn}`);
      assert.ok(g.isLegal(r.best));
      assert.ok(r.value >= -1 && r.value <= 1, String(r.value));
      // (a position with one legal decision is answered without search)
      assert.ok(g.countLegalActions() === 1 || r.nodes > 0, `${r.nodes} nodes`);
      assert.ok(r.lines.length >= 1);
      for (const l of r.lines.slice(0, 5)) {
        const copy = g.clone();
        for (const a of l.pv)
          copy.apply(a); // throws 'illegal' for a decision that is not
        copy.free();
        assert.equal(l.pv[0], l.action);
        assert.equal(l.pvText, l.pv.join(' '));
      }
      const copy = g.clone();
      for (const a of r.bestTurn)
        copy.apply(a);
      // the best turn ends at the hand-over (or the game's end)
      assert.ok(copy.isOver || copy.side !== g.side || r.bestTurn.length === 0, r.bestTurnText);
      copy.free();
      assert.deepEqual(snapshot(g), before);
      search.choose(g);
      assert.deepEqual(snapshot(g), before, `choose() on ${before.bpn}`);
    }
    game.apply(game.randomAction(next()));
  }
  search.free();
  game.free();
  release.free();
});

test('a node budget repeats itself: two fresh searchers, and clear()', () => {
  const game = new Game();
  game.apply('E11-F10');
  const a = new TurnSearch({ nodes: 4000, hashMb: 2 });
  const b = new TurnSearch({ nodes: 4000n, hashMb: 2 });
  const first = a.analyse(game);
  assert.deepEqual(timeless(b.analyse(game)), timeless(first));
  assert.equal(first.nodes >= 4000 && first.nodes < 4000 + 500, true, `${first.nodes} nodes`);
  // a second run reuses the table; clear() forgets it
  a.analyse(game);
  assert.equal(a.clear(), a, 'clear() returns the searcher');
  assert.deepEqual(timeless(a.analyse(game)), timeless(first));
  // another seed breaks ties another way, yet searches the same budget
  const c = new TurnSearch({ nodes: 4000, seed: 99n, hashMb: 2 });
  assert.ok(game.isLegal(c.choose(game)));
  for (const s of [a, b, c])
    s.free();
  game.free();
});

test("eval: 'network' (the default) or 'hand': each repeats itself, they value some position differently", () => {
  const summary = (r) => JSON.stringify([r.best.text, r.value, r.depth, r.nodes, r.bestTurnText,
    r.lines.map((l) => [l.action.text, l.value])]);
  const run = (bpn, options) => {
    const search = new TurnSearch({ nodes: 3000, hashMb: 1, multipv: 3, ...options });
    const game = bpn ? new Game(bpn) : new Game();
    const r = summary(search.analyse(game));
    search.free();
    game.free();
    return r;
  };
  let differs = 0;
  for (const bpn of [null, RELEASE_BPN, IN_ONE, '7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1']) {
    const byDefault = run(bpn, {});
    assert.equal(run(bpn, { eval: 'network' }), byDefault, "eval: 'network' is the default");
    assert.equal(run(bpn, { eval: null }), byDefault, 'eval: null is the default');
    const hand = run(bpn, { eval: 'hand' });
    assert.equal(run(bpn, { eval: 'hand' }), hand, "eval: 'hand' twice: the same results");
    if (hand !== byDefault)
      differs++;
  }
  assert.ok(differs > 0, 'the network and the hand-written evaluation search every position alike');
  // the choice read back: search.eval and config.eval, also once freed
  for (const [options, name] of [[{}, 'network'], [{ eval: 'network' }, 'network'], [{ eval: 'hand' }, 'hand']]) {
    const s = new TurnSearch({ nodes: 100, hashMb: 1, ...options });
    assert.equal(s.eval, name);
    assert.equal(s.config.eval, name);
    s.free();
    assert.equal(s.eval, name, 'freed: the name still');
  }
});

test('config: defaults, a time budget alone, depth', () => {
  const d = new TurnSearch();
  assert.deepEqual(d.config, { nodes: 200000, timeMs: 0, depth: 0, threads: 1, seed: 1n, multipv: 1, hashMb: 16,
    eval: 'network' });
  assert.ok(Object.isFrozen(d.config));
  d.free();
  const timed = new TurnSearch({ timeMs: 60, hashMb: 1 });
  assert.equal(timed.config.nodes, 0, 'a time budget alone: no node limit');
  const game = new Game();
  const r = timed.analyse(game);
  assert.ok(r.elapsedMs >= 50 && r.elapsedMs < 5000, `${r.elapsedMs} ms`);
  timed.free();
  const shallow = new TurnSearch({ depth: 1, hashMb: 1 });
  assert.equal(shallow.config.nodes, 0, 'a depth alone: no node limit');
  assert.equal(shallow.analyse(new Game(IN_ONE)).depth, 1);
  shallow.free();
  game.free();
});

test('bad settings, a finished game, a freed searcher: BallError, never a crash', () => {
  const bad = [
    [{ nodes: 0 }, ErrorCode.ARG, /budget/],
    [{ nodes: 10 ** 13 }, ErrorCode.ARG, /nodes must lie in 0-1000000000000/],
    [{ nodes: -1 }, ErrorCode.ARG, /nodes/],
    [{ nodes: 1.5 }, ErrorCode.ARG, /nodes/],
    [{ depth: 65 }, ErrorCode.ARG, /depth must lie in 0-64/],
    [{ timeMs: -1 }, ErrorCode.ARG, /time_ms/],
    [{ threads: 0 }, ErrorCode.ARG, /threads must lie in 1-64/],
    [{ threads: 65 }, ErrorCode.ARG, /threads must lie in 1-64/],
    [{ threads: 2 }, ErrorCode.ARG, /one thread only/],
    [{ multipv: 257 }, ErrorCode.ARG, /multipv/],
    [{ hashMb: 0 }, ErrorCode.ARG, /hash_mb/],
    [{ hashMb: 2 ** 31 }, ErrorCode.RANGE, /hashMb .* out of range/],
    [{ seed: -1 }, ErrorCode.ARG, /seed/],
    [{ depth: '3' }, ErrorCode.ARG, 'depth is an integer, not "3"'],
    [{ playouts: 5 }, ErrorCode.ARG, /unknown TurnSearch option 'playouts'/],
    [null, ErrorCode.ARG, /new TurnSearch/],
    [[], ErrorCode.ARG, /new TurnSearch/],
  ];
  const live = ball.liveSearchers;
  const heap = ball.memory().allocated;
  for (const [options, code, message] of bad) {
    assert.throws(() => new TurnSearch(options), (e) => {
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
  assert.ok(ball.memory().allocated <= heap, 'nor left in wasm memory');

  const search = new TurnSearch({ nodes: 500, hashMb: 1 });
  const over = new Game(IN_ONE);
  over.apply('G13-I15');
  over.apply('I15-K17'); // a touchdown in row 17 (R11.1)
  assert.equal(over.result, 'atk_won');
  const before = snapshot(over);
  for (const call of [() => search.choose(over), () => search.analyse(over)])
    assert.throws(call, { code: ErrorCode.RANGE, codeName: 'range',
      message: 'search: the game is over (ATK won): there is no decision to search' });
  assert.deepEqual(snapshot(over), before);
  assert.throws(() => search.analyse('7/6/7 ATK'), { code: ErrorCode.ARG, message: 'expected a Game, not string' });
  assert.throws(() => search.choose(null), { code: ErrorCode.ARG });
  over.free();
  assert.throws(() => search.analyse(over), { code: ErrorCode.ARG, message: 'the game has been freed' });
  search.free();
  assert.equal(search.freed, true);
  search.free(); // twice is harmless
  const game = new Game();
  for (const call of [() => search.choose(game), () => search.analyse(game), () => search.clear()])
    assert.throws(call, { code: ErrorCode.ARG, message: 'the searcher has been freed' });
  game.free();
});

test('no wasm heap leak over create / analyse / free cycles', () => {
  const game = new Game();
  const cycle = (i) => {
    const s = new TurnSearch({ nodes: 200 + (i % 4) * 100, hashMb: 1 + (i % 2), multipv: 1 + (i % 3) });
    game.apply(i % 2 ? s.choose(game) : s.analyse(game).best);
    if (game.isOver || game.historyLength > 30)
      game.bpn = ball.START_BPN;
    if (i % 2)
      s.free();
    else
      s[Symbol.dispose ?? Symbol.for('Symbol.dispose')]();
  };
  for (let i = 0; i < 10; i++) // warm-up: the allocator, the game's history
    cycle(i);
  const live = ball.liveSearchers;
  const before = ball.memory();
  for (let i = 0; i < 60; i++)
    cycle(i);
  const after = ball.memory();
  assert.equal(ball.liveSearchers, live);
  assert.ok(after.allocated <= before.allocated + 4096,
    `heap in use grew from ${before.allocated} to ${after.allocated} bytes`);
  // the measure sees a searcher's table
  const kept = new TurnSearch({ nodes: 100, hashMb: 2 });
  assert.ok(ball.memory().allocated - after.allocated >= 2 * 1024 * 1024, 'the table is counted');
  kept.free();
  assert.ok(ball.memory().allocated <= after.allocated + 256);
  game.free();
});

test('searchers dropped without free() are freed by the FinalizationRegistry',
  { skip: typeof globalThis.gc !== 'function' && 'needs node --expose-gc' }, async () => {
    const live = ball.liveSearchers;
    const before = ball.memory().allocated;
    (() => {
      for (let i = 0; i < 20; i++)
        new TurnSearch({ nodes: 100, hashMb: 1 });
    })();
    assert.equal(ball.liveSearchers, live + 20);
    for (let round = 0; round < 50 && ball.liveSearchers > live; round++) {
      globalThis.gc();
      await tick();
    }
    assert.equal(ball.liveSearchers, live, 'all collected searchers freed');
    assert.ok(ball.memory().allocated <= before + 256);
  });
