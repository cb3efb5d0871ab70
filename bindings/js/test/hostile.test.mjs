// SPDX-License-Identifier: MIT
// Hostile arguments (issue 32): every argument becomes a plain value
// before the binding touches a handle or wasm memory. No valueOf() runs
// inside a call, texts with a NUL or a lone surrogate are refused instead
// of cut or mangled, integers outside the C type raise instead of
// wrapping, nested calls from the caller's getters and iterators cannot
// change the scratch memory of the call that runs them, sparse arrays are
// refused. Each case here was wrong before (the comment says how).
import test from 'node:test';
import assert from 'node:assert/strict';
import { BallError, ErrorCode } from '../libball.mjs';
import { ball } from './helpers.mjs';

const START = ball.START_BPN;
const { Game, Action, MCTS, TurnSearch } = ball;

/** assert.throws for a BallError with this code (and message pattern). */
function refuses(fn, code, message, what = '') {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof BallError, `${what}: ${e?.constructor?.name}: ${e?.message}`);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    if (message)
      assert.match(e.message, message, what);
    return true;
  });
}

test('use after free: an Action\'s code is checked when it is made, never read in apply()', () => {
  // Before: the Action kept the object; apply() read the game pointer,
  // then wasm called valueOf(), which freed the game and made another in
  // its place: the move was played on the new game.
  const victim = new Game();
  const code = victim.parseAction('E11-F10').code;
  let other = null;
  const hostile = { valueOf() { victim.free(); other = new Game(); return code; } };
  refuses(() => victim.apply(new Action(hostile, 'x')), ErrorCode.ARG, /not an action code/);
  assert.equal(other, null, 'valueOf() never ran');
  assert.equal(victim.freed, false);
  assert.equal(victim.historyLength, 0);
  assert.equal(victim.bpn, START);
  // The same through the other entry points that take an Action or a code.
  for (const call of [() => victim.apply(hostile), () => victim.isLegal(hostile), () => Action.fromCode(hostile),
    () => new Action(String(code)), () => new Action(code + 0.5), () => new Action(2 ** 32 + code)])
    refuses(call, ErrorCode.ARG, null, String(call));
  assert.equal(other, null);
  // An object with Action's prototype and a getter is not an Action.
  const fake = Object.create(Action.prototype, {
    code: { get() { victim.free(); other = new Game(); return code; } },
    text: { value: 'E11-F10' },
  });
  refuses(() => victim.apply(fake), ErrorCode.ARG);
  assert.equal(victim.isLegal(fake.text), true);
  assert.equal(other, null);
  // new Action(code) is the interned Action of a checked code.
  assert.equal(new Action(code), victim.parseAction('E11-F10'));
  assert.equal(new Action(code, 'E11-F10'), Action.fromCode(code));
  refuses(() => new Action(code, 'x'), ErrorCode.ARG, /not the text of action/);
  assert.equal(victim.apply(new Action(code)).text, 'E11-F10');
  assert.equal(victim.historyLength, 1);
  victim.free();
});

test('a Game-like object is not a Game', () => {
  // Before: gamePointer's `instanceof` passed, then the private field
  // threw a bare TypeError.
  const fake = Object.create(Game.prototype);
  const mcts = new MCTS({ playouts: 1 });
  refuses(() => mcts.choose(fake), ErrorCode.ARG, /expected a Game/);
  refuses(() => new ball.Selection(fake, []), ErrorCode.ARG, /expected a Game/);
  mcts.free();
});

test('texts with a NUL character are refused, not cut at the NUL', () => {
  // Before: each was read up to the NUL and accepted.
  const game = new Game();
  refuses(() => { game.bpn = START + '\0junk'; }, ErrorCode.BPN, new RegExp(`the BPN contains a NUL character at index ${START.length}$`));
  refuses(() => new Game(START + '\0'), ErrorCode.BPN, /NUL/);
  refuses(() => new Game({ bpn: '\0' + START }), ErrorCode.BPN, /NUL character at index 0/);
  for (const text of ['E11-F10\0x', 'E11-F10\0', 'end\0G5-F6']) {
    refuses(() => game.apply(text), ErrorCode.NOTATION, /NUL/, text);
    refuses(() => game.parseAction(text), ErrorCode.NOTATION, /NUL/, text);
    refuses(() => game.isLegal(text), ErrorCode.NOTATION, /NUL/, text);
  }
  assert.equal(game.historyLength, 0);
  assert.equal(game.bpn, START);
  game.setTag('event', 'abc');
  refuses(() => game.setTag('event', '\0abc'), ErrorCode.RANGE, /tag event contains a NUL/);
  refuses(() => game.setTag('site', 'x\0'), ErrorCode.RANGE, /NUL/);
  assert.equal(game.tag('event'), 'abc', 'the tag is not cleared');
  assert.equal(game.tag('site'), '');
  refuses(() => new Game({ rules: 'zone=2\0garbage' }), ErrorCode.RULES, /rules text contains a NUL/);
  refuses(() => ball.parseRules('zone=2\0garbage'), ErrorCode.RULES, /NUL/);
  refuses(() => new Game({ cards: { atk: [{ name: 'Sprint\0x', cost: 1, effect: 'pa+1' }] } }),
    ErrorCode.ARG, /name contains a NUL/);
  const record = game.record;
  refuses(() => ball.readRecords(record + '\0'), ErrorCode.RECORD, /NUL/);
  refuses(() => Game.fromRecord('1. DEF: end\0\n'), ErrorCode.RECORD, /NUL/);
  game.free();
});

test('texts that are not well-formed Unicode (lone surrogates) are refused', () => {
  // Before: 'ab\uD800c' went to C as bytes that read back as
  // 'ab\u{10063}' (the lone surrogate swallowed the 'c').
  const game = new Game();
  game.setTag('event', 'Club night \u{1F3C8}'); // a surrogate pair is fine
  assert.equal(game.tag('event'), 'Club night \u{1F3C8}');
  for (const bad of ['ab\uD800c', 'ab\uD800', '\uDC00x', 'x\uDFFF\uD800'])
    refuses(() => game.setTag('event', bad), ErrorCode.RANGE, /not well-formed Unicode: a lone surrogate/, bad);
  assert.equal(game.tag('event'), 'Club night \u{1F3C8}', 'unchanged');
  refuses(() => { game.bpn = START + ' \uD800'; }, ErrorCode.BPN, /lone surrogate U\+D800/);
  refuses(() => game.apply('E11-F10\uDC00'), ErrorCode.NOTATION, /lone surrogate U\+DC00 at index 7/);
  refuses(() => ball.parseRules('zone=2 \uD83D'), ErrorCode.RULES, /lone surrogate/);
  refuses(() => ball.readRecords('\uD800'), ErrorCode.RECORD, /lone surrogate/);
  assert.equal(game.historyLength, 0);
  game.free();
});

test('integers: non-integers, wrong types and values outside the C type raise, never wrap', () => {
  // Before: perft(2**32 + 1) was perft(1), historyAction(2**32) decision
  // 0, squareAt(1.9, 1), squareAt('1', '1') and squareAt(2**32 + 1, 1)
  // 'A1', strerror('x') 'success', reserveHistory(2**32) reserved nothing.
  const game = new Game();
  game.apply('E11-F10');
  refuses(() => game.perft(2 ** 32 + 1), ErrorCode.RANGE, /perft\(depth\): depth 4294967297 out of range/);
  refuses(() => game.perft(2 ** 31), ErrorCode.RANGE, /depth/);
  for (const bad of [1.5, '1', 1n, true, null, undefined, NaN, Infinity, { valueOf: () => 1 }, [1]])
    refuses(() => game.perft(bad), ErrorCode.ARG, /depth is an integer/, String(bad));
  refuses(() => game.perft(-1), ErrorCode.RANGE, null, 'the library refuses depth -1');
  assert.equal(game.perft(-0), 1n, '-0 is 0');
  refuses(() => game.historyAction(2 ** 32), ErrorCode.RANGE, /historyAction\(i\): i 4294967296 out of range/);
  refuses(() => game.historyAction(2 ** 32 + 1), ErrorCode.RANGE);
  refuses(() => game.historyPosition(2 ** 32), ErrorCode.RANGE);
  refuses(() => game.historyAction('0'), ErrorCode.ARG, /i is an integer/);
  refuses(() => game.historyAction(0.5), ErrorCode.ARG);
  assert.equal(game.historyAction(0).text, 'E11-F10');
  refuses(() => ball.squareAt(1.9, 1), ErrorCode.ARG, /squareAt\(col, row\): col is an integer, not 1\.9/);
  refuses(() => ball.squareAt('1', '1'), ErrorCode.ARG, /col is an integer, not "1"/);
  refuses(() => ball.squareAt(1, '1'), ErrorCode.ARG, /row is an integer/);
  refuses(() => ball.squareAt(2 ** 32 + 1, 1), ErrorCode.RANGE, /col 4294967297 out of range/);
  refuses(() => ball.squareAt(1, -(2 ** 32) + 1), ErrorCode.RANGE, /row/);
  assert.equal(ball.squareAt(1, 1), 'A1');
  refuses(() => ball.strerror('x'), ErrorCode.ARG, /strerror\(code\): code is an integer/);
  refuses(() => ball.strerror(2 ** 32 + ErrorCode.ILLEGAL), ErrorCode.RANGE);
  refuses(() => ball.strerror(-5.5), ErrorCode.ARG);
  assert.equal(ball.strerror(ErrorCode.ILLEGAL), 'illegal action');
  refuses(() => game.reserveHistory(2 ** 32), ErrorCode.RANGE, /reserveHistory\(n\): n/);
  refuses(() => game.reserveHistory(-1), ErrorCode.RANGE);
  refuses(() => game.reserveHistory(1.5), ErrorCode.ARG);
  refuses(() => game.legalAction(2 ** 32), ErrorCode.RANGE);
  refuses(() => game.square(2 ** 32 + 5), ErrorCode.RANGE);
  refuses(() => game.square(5.5), ErrorCode.ARG);
  refuses(() => game.square(new Number(5)), ErrorCode.ARG);
  refuses(() => game.tag(2 ** 32), ErrorCode.ARG);
  refuses(() => game.select([2 ** 32 + 60]), ErrorCode.RANGE);
  refuses(() => game.select(['E11', '-', 'F10', 'G9', 2 ** 32]), ErrorCode.RANGE);
  refuses(() => new Game({ endZoneDepth: 2 ** 32 + 2 }), ErrorCode.RANGE, /endZoneDepth/);
  refuses(() => new Game({ turnLimit: 2 ** 32 + 30 }), ErrorCode.RANGE, /turnLimit/);
  refuses(() => new Game({ turnLimit: '30' }), ErrorCode.ARG, /turnLimit is an integer/);
  refuses(() => new Game({ cards: { earn: { move: 2 ** 32 + 1 } } }), ErrorCode.RANGE, /earning entry 'move'/);
  refuses(() => new Game({ cards: { atk: [{ name: 'Sprint', cost: 2 ** 32 + 1, effect: 'pa+1' }] } }),
    ErrorCode.RANGE, /cost/);
  refuses(() => new MCTS({ playouts: 2 ** 32 + 10 }), ErrorCode.RANGE, /playouts/);
  refuses(() => ball.xorshift64(1.5), ErrorCode.ARG, /seed/);
  refuses(() => ball.xorshift64('7'), ErrorCode.ARG, /seed/);
  assert.equal(game.historyLength, 1);
  game.free();
});

test('randomAction(r): every BigInt of [0, 2^64) is the C draw floor(r n / 2^64), nothing else is taken', () => {
  // The draw numbers the n legal decisions in an order of its own: the
  // decision changes exactly at ceil(k 2^64 / n), k = 1 .. n - 1, and the
  // n decisions met that way are the legal ones. A binding that lost bits
  // (a Number, a signed 63-bit range) would fail at the high thresholds.
  const next = ball.xorshift64(77n);
  const game = new Game();
  const TWO64 = 2n ** 64n;
  for (let d = 0; d < 40 && !game.isOver; d++) {
    const legal = game.legalActions();
    const n = BigInt(legal.length);
    const seen = new Set();
    for (let k = 0n; k < n; k++) {
      const lo = (k * TWO64 + n - 1n) / n; // ceil(k 2^64 / n)
      const hi = ((k + 1n) * TWO64 + n - 1n) / n - 1n; // the last r of action k
      const a = game.randomAction(lo);
      assert.equal(game.randomAction(hi), a, `r = ${hi}: still action ${k} of ${n}`);
      if (k > 0n)
        assert.notEqual(game.randomAction(lo - 1n), a, `r = ${lo}: action ${k} of ${n} starts here`);
      seen.add(a);
    }
    assert.equal(seen.size, legal.length, 'n different decisions');
    for (const a of legal)
      assert.ok(seen.has(a), `${a} drawn`);
    assert.equal(game.randomAction(TWO64 - 1n), game.randomAction((n - 1n) * TWO64 / n + 1n));
    game.apply(game.randomAction(next()));
  }
  for (const bad of [-1n, TWO64, TWO64 + 1n, -(2n ** 63n), 5, 2 ** 63, 1.5, '5', Object(5n), null])
    refuses(() => game.randomAction(bad), ErrorCode.ARG, /random is a BigInt in 0 \.\. 2n \*\* 64n - 1n/, String(bad));
  game.free();
});

test('re-entrancy: a nested call from the caller\'s iterator or getter does not change the outer call', () => {
  // Before: makeCardset() ran the iterator after the outer rules were set
  // up in the shared scratch memory; the inner parseRules() overwrote
  // them, and the game came out with zone=3 turns=7.
  const atk = {
    * [Symbol.iterator]() {
      ball.parseRules('zone=3 turns=7');
      yield { name: 'Sprint', cost: 2, effect: 'pa+1' };
    },
  };
  const g = new Game({ endZoneDepth: 1, turnLimit: 50, cards: { atk } });
  assert.equal(g.rules.endZoneDepth, 1);
  assert.equal(g.rules.turnLimit, 50);
  assert.deepEqual(g.rules.cards.atk.map((c) => c.name), ['Sprint']);
  g.free();
  // The same through getters: of a card, of the rules object, of the
  // options of a game (its BPN), of an MCTS setting.
  const card = { get name() { new Game({ rules: 'zone=3 turns=9' }).free(); return 'Rally'; }, cost: 1, effect: 'again' };
  const rules = { get turnLimit() { ball.parseRules('turns=9 zone=3'); return 40; }, endZoneDepth: 2, cards: { def: [card] } };
  const h = new Game({ rules });
  assert.equal(h.rules.text, ball.parseRules({ endZoneDepth: 2, turnLimit: 40,
    cards: { def: [{ name: 'Rally', cost: 1, effect: 'again' }] } }).text);
  h.free();
  const after = new Game({ rules: 'zone=2 turns=40', get bpn() { ball.parseRules('zone=3 turns=9'); return START; } });
  assert.equal(after.rules.text, 'zone=2 turns=40');
  after.free();
  // Before: the getter of playouts ran after ball_mcts_config_init() of
  // the shared config; the inner searcher's playoutTurns 3 stayed.
  const defaults = new MCTS({ playouts: 5 }).config;
  const m = new MCTS({ get playouts() { new MCTS({ playouts: 7, playoutTurns: 3, timeMs: 5 }).free(); return 123; } });
  assert.equal(m.config.playouts, 123);
  assert.equal(m.config.playoutTurns, defaults.playoutTurns);
  assert.equal(m.config.timeMs, defaults.timeMs);
  m.free();
});

test('sparse arrays and holes are refused, not filled from the last call', () => {
  // Before: select([ , ]) used the choice of the previous call.
  const game = new Game();
  assert.ok(game.select(['E11']).choices.length > 0);
  // eslint-disable-next-line no-sparse-arrays
  refuses(() => game.select([, ]), ErrorCode.ARG, /element 0 is a hole/);
  // eslint-disable-next-line no-sparse-arrays
  refuses(() => game.select(['E11', , 'F10']), ErrorCode.ARG, /element 1 is a hole/);
  refuses(() => game.select(new Array(3)), ErrorCode.ARG, /hole/);
  refuses(() => game.select([undefined]), ErrorCode.ARG);
  // eslint-disable-next-line no-sparse-arrays
  refuses(() => new Game({ cards: { atk: [, { name: 'Sprint', cost: 1, effect: 'pa+1' }] } }), ErrorCode.ARG, /hole/);
  refuses(() => game.selection().choose(undefined), ErrorCode.ARG);
  // A proxy whose length is not a number.
  refuses(() => game.select(new Proxy([], { get: (t, k) => (k === 'length' ? '1' : t[k]) })), ErrorCode.ARG);
  game.free();
});

test('wrong shapes throw BallError, not a bare TypeError', () => {
  // Before: `for (const card of 5)` threw "hand is not iterable".
  refuses(() => new Game({ cards: { atk: 5 } }), ErrorCode.ARG, /cards\.atk is an array or an iterable, not 5/);
  refuses(() => new Game({ cards: { atk: [5] } }), ErrorCode.ARG, /card 0 of ATK/);
  refuses(() => new Game({ cards: { atk: [null] } }), ErrorCode.ARG);
  refuses(() => new Game({ cards: 5 }), ErrorCode.ARG);
  refuses(() => new Game({ cards: { earn: 5 } }), ErrorCode.ARG);
  refuses(() => new Game({ cards: { atk: { length: 2 } } }), ErrorCode.ARG);
  refuses(() => new Game({ cards: { atk: Array(1e6).fill({ name: 'a', cost: 1, effect: 'again' }) } }), ErrorCode.RANGE);
  refuses(() => new Game([]), ErrorCode.ARG);
  const game = new Game();
  assert.equal(game.legalActions(null).length, 55, 'null: no options (before: a bare TypeError)');
  refuses(() => game.legalActions(5), ErrorCode.ARG);
  refuses(() => game.legalActions({ sort: true }), ErrorCode.ARG, /unknown/);
  assert.equal(game.legalActions(undefined).length, 55);
  refuses(() => game.piece('G5', { valueOf: () => 0 }), ErrorCode.ARG);
  refuses(() => ball.compareActionTexts({ toString: () => 'a' }, 'b'), ErrorCode.ARG);
  assert.equal(ball.compareActionTexts(game.parseAction('E11-F10'), 'E11-F10'), 0);
  refuses(() => new MCTS([]), ErrorCode.ARG);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  refuses(() => game.square(revoked.proxy), ErrorCode.ARG);
  refuses(() => game.apply(revoked.proxy), ErrorCode.ARG);
  game.free();
});

test('reserveHistory(n): a reservation wasm memory cannot hold is refused, not wrapped', () => {
  // Before: 53,687,092 records of 80 bytes are 2^32 + 64 bytes, which a
  // 32-bit size_t wraps to 64: the library took that small block for the
  // whole history, and the decisions played next overwrote other games.
  const game = new Game();
  const other = new Game();
  other.apply('E11-F10');
  const otherBpn = other.bpn;
  for (const n of [53687092, 2 ** 24 + 1, 2 ** 31 - 1, 2 ** 32 - 1])
    refuses(() => game.reserveHistory(n), ErrorCode.NOMEM, /do not fit in the WebAssembly memory/, String(n));
  const next = ball.xorshift64(3n);
  for (let i = 0; i < 300 && !game.isOver; i++)
    game.apply(game.randomAction(next()));
  assert.equal(other.bpn, otherBpn, 'the other game is untouched');
  assert.equal(other.historyAction(0).text, 'E11-F10');
  game.reserveHistory(1000);
  game.free();
  other.free();
});

test('what the caller\'s getters, traps and iterators throw comes out as BallError with that cause', () => {
  // Found by test/fuzz.mjs. Before: an options object inheriting from
  // Game.prototype ran the binding's own bpn getter on it (a bare
  // TypeError), a revoked proxy's TypeError and the caller's own errors
  // came out as they were.
  class Mine extends Error {}
  const boom = new Mine('boom');
  const throwing = { get bpn() { throw boom; } };
  assert.throws(() => new Game(throwing), (e) => e instanceof BallError && e.code === ErrorCode.ARG &&
    e.cause === boom && /new Game\(options\)/.test(e.message));
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  for (const call of [() => new Game(revoked.proxy), () => new MCTS(revoked.proxy), () => ball.parseRules(revoked.proxy),
    () => new Game({ cards: revoked.proxy }), () => new Game({ cards: { atk: [revoked.proxy] } })])
    assert.throws(call, (e) => e instanceof BallError && e.code === ErrorCode.ARG && e.cause instanceof TypeError, String(call));
  const iter = { * [Symbol.iterator]() { yield { name: 'Sprint', cost: 1, effect: 'pa+1' }; throw boom; } };
  assert.throws(() => new Game({ cards: { atk: iter } }), (e) => e instanceof BallError && e.cause === boom);
  assert.throws(() => new MCTS({ get playouts() { throw boom; } }), (e) => e instanceof BallError && e.cause === boom);
  assert.throws(() => new Game().legalActions({ get sorted() { throw boom; } }), (e) => e instanceof BallError && e.cause === boom);
  // A BallError of a nested call comes out as it is.
  const nested = { get bpn() { return new Game('bad').bpn; } };
  assert.throws(() => new Game(nested), { code: ErrorCode.BPN, message: 'BPN: 1 field, expected 7' });
  // Only own properties are options: inherited ones (a getter of ours) are not read.
  const g = new Game(Object.create(Game.prototype));
  assert.equal(g.bpn, START);
  g.free();
  const shadow = new Game();
  shadow.select = () => { throw boom; };
  assert.equal(new ball.Selection(shadow, ['E11']).chosen[0], 'E11', 'Selection uses Game\'s select()');
  shadow.free();
});

test('every entry point turns a revoked proxy, or one whose traps throw, into BallError', async () => {
  // Found by test/fuzz.mjs at its defaults (issue 49): `new Net(revoked)`
  // threw the TypeError of `instanceof` (a proxy's getPrototypeOf), and
  // svg() and boardText() read their options without readCaller. Every
  // function and method of the module and the learning interface, every
  // static method and setter, gets such an object in each of its first
  // three arguments (the ones before it plain values, games and actions):
  // whatever a call throws is a BallError. The options objects get one in
  // each field, and the arrays as an element: BallError 'arg'.
  const { readFileSync } = await import('node:fs');
  const { bindLearn } = await import('../learn.mjs');
  const learn = bindLearn(ball);
  const NET = new Uint8Array(readFileSync(new URL('../../../share/net/value.net', import.meta.url)));
  const trap = () => () => { throw new Error('trap'); };
  const revoked = (target) => {
    const r = Proxy.revocable(target, {});
    r.revoke();
    return r.proxy;
  };
  const hostiles = { revoked: revoked({}), throwing: new Proxy({}, new Proxy({}, { get: trap })),
    throwingArray: new Proxy([], { get: trap(), getOwnPropertyDescriptor: trap(), has: trap() }) };
  const escaped = [];
  const ours = new Set();
  const attempt = (label, fn, code) => {
    try {
      const made = fn(); // a game or a searcher the call made (a valid call): freed now
      for (const x of Array.isArray(made) ? made : [made])
        if (x !== null && typeof x === 'object' && typeof x.free === 'function' && !ours.has(x) && !x.freed)
          x.free();
    } catch (e) {
      let ours = false;
      try {
        ours = e instanceof BallError && (code === undefined || e.code === code);
      } catch { /* a thrown proxy */ }
      if (!ours)
        escaped.push(`${label}: ${e?.constructor?.name} ${e?.code ?? ''}: ${e?.message}`);
    }
  };
  const construct = (C, args) => {
    try {
      return new C(...args);
    } catch (e) {
      if (e instanceof TypeError && /is not a constructor/.test(e.message))
        return C(...args);
      throw e;
    }
  };
  const methodsOf = (o) => {
    const out = new Map();
    for (let p = Object.getPrototypeOf(o); p && p !== Object.prototype; p = Object.getPrototypeOf(p))
      for (const k of Object.getOwnPropertyNames(p))
        if (k !== 'constructor' && k !== 'free' && !out.has(k))
          out.set(k, Object.getOwnPropertyDescriptor(p, k));
    return out;
  };
  // the entry points: [label, call(args)]
  const entries = [];
  for (const [ns, api] of [['ball', ball], ['learn', learn]])
    for (const [k, v] of Object.entries(api)) {
      if (typeof v !== 'function' || k === 'BallError') // an Error class: its message is JavaScript's
        continue;
      entries.push([`${ns}.${k}`, (args) => construct(v, args)]);
      for (const sk of Object.getOwnPropertyNames(v))
        if (!['length', 'name', 'prototype'].includes(sk) && typeof v[sk] === 'function')
          entries.push([`${ns}.${k}.${sk}`, (args) => v[sk](...args)]);
    }
  const game = new Game();
  const selected = new Game();
  const owned = { game, selected, search: new TurnSearch({ nodes: 100 }), mcts: new MCTS({ playouts: 10 }),
    net: new ball.Net(NET), batch: new learn.Batch(2) };
  const objects = { ...owned, action: game.parseAction('E11-F10'), selection: new ball.Selection(selected) };
  Object.values(objects).forEach((o) => ours.add(o));
  for (const [oname, o] of Object.entries(objects))
    for (const [k, d] of methodsOf(o)) {
      if (typeof d.value === 'function')
        entries.push([`${oname}.${k}`, (args) => o[k](...args)]);
      else if (d.set)
        entries.push([`${oname}.${k} =`, (args) => { if (args.length === 1) o[k] = args[0]; }]);
    }
  const fills = [undefined, 1, 'E11', new Uint8Array(8), game, game.parseAction('E11-F10')];
  let calls = 0;
  for (const [hname, h] of Object.entries(hostiles)) {
    for (const [label, call] of entries)
      for (let pos = 0; pos < 3; pos++)
        for (const fill of pos === 0 ? [undefined] : fills) {
          const args = Array(pos + 1).fill(fill);
          args[pos] = h;
          calls++;
          attempt(`${label} (argument ${pos} ${hname}, before it ${typeof fill})`, () => call(args));
          if (game.historyLength > 0) // a fill played a decision
            game.bpn = START;
        }
    // in the fields of options objects and in arrays: 'arg'
    for (const [label, fn] of Object.entries({
      'svg highlight': () => game.svg({ highlight: h }), 'svg highlight element': () => game.svg({ highlight: ['G5', h] }),
      'svg arrow': () => game.svg({ arrow: h }), 'boardText highlight': () => game.boardText({ highlight: h }),
      'boardText highlight element': () => game.boardText({ highlight: [h] }),
      'Game bpn': () => new Game({ bpn: h }), 'Game rules': () => new Game({ rules: h }),
      'Game cards': () => new Game({ cards: h }), 'MCTS playouts': () => new MCTS({ playouts: h }),
      'TurnSearch nodes': () => new TurnSearch({ nodes: h }), 'TurnSearch eval': () => new TurnSearch({ eval: h }),
      'legalActions sorted': () => game.legalActions({ sorted: h }), 'recordWith tag': () => game.recordWith({ event: h }),
      'Selection element': () => new ball.Selection(game, [h]), 'parseRules field': () => ball.parseRules({ endZoneDepth: h }),
      'Net bytes': () => new ball.Net(h), 'Net array element': () => new ball.Net([h]),
    })) {
      calls++;
      attempt(`${label} (${hname})`, fn, ErrorCode.ARG);
    }
  }
  for (const o of Object.values(owned))
    o.free();
  assert.ok(entries.length > 100 && calls > 4000, `${entries.length} entry points, ${calls} calls`);
  console.log(`# ${entries.length} entry points, ${calls} calls`);
  assert.deepEqual([...new Set(escaped)], []);
});
