// SPDX-License-Identifier: MIT
// A fuzz target for the JavaScript binding (issue 32): random calls of the
// whole API with random arguments, most of them hostile: NaN, -0, 2**32 + 1,
// 2**53, BigInts in and out of range, texts with NUL characters and lone
// surrogates, mutated BPNs and records, objects whose valueOf / toString /
// getters / proxy traps / iterators free games, make games, parse rules,
// play moves or make nested calls, sparse and huge arrays, freed games and
// searchers, fake Actions and Games, network files cut short or with
// random bytes changed, nets freed under their searchers.
//
//   node bindings/js/test/fuzz.mjs [--count 40000] [--seed 1] [--seconds S]
//
// Runs `count` calls (FUZZ_COUNT and FUZZ_SEED set the defaults). The same
// seed gives the same calls (budgets are in playouts, never in time), so
// that the run of the defaults is one run: the one `make fuzz-web` makes
// in CI and the one `node --test bindings/js` makes (issue 49: they
// differed, and the default run failed where CI's passed). With
// `--seconds S` (or FUZZ_SECONDS) the run also stops after S seconds, for
// a longer run boxed in time; without it a run that has not made its
// calls in 300 s fails, a hang rather than a pass. It fails (exit 1, with
// the seed, the call number, the call and its arguments) when
//  - a call throws anything but a BallError: a TypeError, a RangeError, a
//    WebAssembly RuntimeError (a trap), an emscripten abort, or the
//    fuzzer's own HostileError thrown by its getters (which the binding
//    hands on as a BallError with that cause);
//  - a sentinel game that no call is given changes (its BPN, hash and
//    history are checked every 256 calls and at the end): a write through
//    a stale pointer or past a buffer;
//  - after the run and freeing everything it made: the live game and
//    searcher and net counts are not back where they were, the wasm heap in use
//    grew by more than 64 KiB (a leak on an error path), a fresh game does
//    not play a known line to the same positions, or perft(3) from the
//    start is not the count it was before.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { load, BallError } from '../libball.mjs';
import { bindLearn } from '../learn.mjs';

const { values: opt } = parseArgs({
  options: {
    seconds: { type: 'string', default: process.env.FUZZ_SECONDS || undefined },
    count: { type: 'string', default: process.env.FUZZ_COUNT || '40000' },
    seed: { type: 'string', default: process.env.FUZZ_SEED ?? '1' },
    verbose: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
  },
});
// A time bound given is an end of the run; the default one is a failure.
const BOXED = opt.seconds !== undefined;
const SECONDS = BOXED ? Number(opt.seconds) : 300;
const COUNT = Number(opt.count);
const SEED = Number(opt.seed) >>> 0;

class HostileError extends Error {}

const ball = await load();
const { Game, Action, MCTS, Selection, TurnSearch, Net, START_BPN } = ball;
// The shipped network (share/net/value.net), whole or damaged by netBytes().
const NET_FILE = new Uint8Array(readFileSync(new URL('../../../share/net/value.net', import.meta.url)));
// The learning interface (learn.mjs), bound before the heap is measured:
// its scratch memory is allocated once, for the instance's lifetime.
const learn = bindLearn(ball);

// ------------------------------------------------------------ random

let rngState = SEED || 1;
function rand() { // mulberry32
  rngState = (rngState + 0x6D2B79F5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(rand() * n);
const chance = (p) => rand() < p;
const pick = (a) => a[int(a.length)];
const rand64 = () => (BigInt(int(2 ** 32)) << 32n) | BigInt(int(2 ** 32));

// ------------------------------------------------------------ the reference, before

const LINE = ['E11-F10', 'F10-E9', 'end', 'G7-E9/F10', 'G5-H6'];
function reference() {
  const g = new Game();
  const bpns = LINE.map((a) => { g.apply(a); return g.bpn; });
  g.free();
  const s = new Game();
  const perft3 = s.perft(3);
  s.free();
  return { bpns, perft3 };
}
const REF = reference();
const LIVE0 = ball.liveGames;
const SEARCHERS0 = ball.liveSearchers;
const NETS0 = ball.liveNets;
const BATCHES0 = learn.liveBatches;
const HEAP0 = ball.memory().allocated;

// A game no call is given: it must not change.
const sentinel = new Game({ rules: 'zone=2 turns=40' });
for (const a of ['E11-F10', 'F10-E9', 'end'])
  sentinel.apply(a);
const SENTINEL = { bpn: sentinel.bpn, hash: sentinel.hash, n: sentinel.historyLength, rules: sentinel.rules.text };
function checkSentinel(where) {
  if (sentinel.bpn !== SENTINEL.bpn || sentinel.hash !== SENTINEL.hash || sentinel.historyLength !== SENTINEL.n ||
      sentinel.historyAction(2).text !== 'end' || sentinel.rules.text !== SENTINEL.rules)
    fail(`the sentinel game changed (${where}): ${sentinel.bpn}`);
}

// ------------------------------------------------------------ what the calls work on

const games = [];
const searchers = [];
const turnSearches = [];
const actions = [];
const selections = [];
const records = [];
const batches = [];
const nets = [];

function track(x) {
  if (x instanceof Game) {
    games.push(x);
    if (games.length > 48)
      games.splice(0, 8).forEach((g) => g.free());
  } else if (x instanceof MCTS) {
    searchers.push(x);
    if (searchers.length > 8)
      searchers.splice(0, 2).forEach((m) => m.free());
  } else if (x instanceof TurnSearch) {
    turnSearches.push(x);
    if (turnSearches.length > 4)
      turnSearches.splice(0, 2).forEach((m) => m.free());
  } else if (x instanceof Net) {
    nets.push(x);
    if (nets.length > 3)
      nets.splice(0, 1).forEach((n) => { try { n.free(); } catch { nets.push(n); } });
  } else if (x instanceof learn.Batch) {
    batches.push(x);
    if (batches.length > 4)
      batches.splice(0, 2).forEach((b) => b.free());
  } else if (x instanceof Action) {
    actions.push(x);
    if (actions.length > 200)
      actions.splice(0, 100);
  } else if (x instanceof Selection) {
    selections.push(x);
    if (selections.length > 30)
      selections.splice(0, 10);
  } else if (Array.isArray(x)) {
    for (const y of x.slice(0, 64))
      track(y);
  } else if (x && typeof x === 'object' && x.action instanceof Action) {
    track(x.action);
  }
  return x;
}

const liveGame = () => {
  const live = games.filter((g) => !g.freed);
  return live.length ? pick(live) : track(new Game());
};
const anyGame = () => (games.length && chance(0.9) ? pick(games) : liveGame());

function legalTexts(g) {
  try {
    return g.freed ? [] : g.legalActions().map(String);
  } catch {
    return [];
  }
}

// ------------------------------------------------------------ hostile values

let depth = 0;
// What the caller's code does when the binding runs it.
function sideEffect() {
  if (depth > 2)
    return;
  depth++;
  try {
    switch (int(9)) {
      case 0: { const g = pick(games); g?.free(); break; }
      case 1: track(new Game()); break;
      case 2: ball.parseRules(pick(RULES_TEXTS)); break;
      case 3: {
        const g = liveGame();
        const legal = legalTexts(g);
        if (legal.length)
          g.apply(pick(legal));
        break;
      }
      case 4: nestedCall(); break;
      case 5: if (chance(0.2)) throw new HostileError('thrown by the caller\'s own code'); break;
      case 6: pick(searchers)?.free(); break;
      case 7: { const g = liveGame(); if (g.historyLength) g.undo(); break; }
      default: break;
    }
  } finally {
    depth--;
  }
}

const NUMBERS = [NaN, -0, 0, 1, -1, 2, 3, 1.5, -1.5, 0.1, 1e-300, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1,
  2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 32 + 3, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Infinity, -Infinity,
  Number.MAX_VALUE, Number.MIN_VALUE, 4, 5, 8, 9, 13, 14, 17, 110, 111, 127, 128, 255, 1024, 53687092, 2 ** 24 + 1];
// Numbers that are refused, or cheap if taken (perft depth, budgets, reservations).
const CHEAP = NUMBERS.filter((n) => !Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1 || n <= 2);
const BIGINTS = [0n, 1n, -1n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n, -(2n ** 63n), 2n ** 128n, 5n];
const SQUARE_NAMES = ball.SQUARES;
const VERBS = ['-', '=', '^', '^^', 'card', 'move', 'handoff', 'short_pass', 'long_pass', 'jump'];
const RULES_TEXTS = ['', 'zone=2', 'zone=3 turns=30', 'turns=1', 'zone=9', 'turns=-1', 'zone=2 turns=30 atk=Sprint:2:pa+1',
  'earn.move=1 earn.pickup=2 atk=Rally:1:again,Sprint:2:pa+1 def=Sprint:1:pa+1', 'atk=Bad name:1:pa+1', 'garbage'];
const TAGS = ['event', 'site', 'date', 'atk', 'def', 'EVENT', 'round', 0, 4, 5];

function mutate(s) {
  if (!s.length)
    return s;
  const i = int(s.length + 1);
  switch (int(7)) {
    case 0: return s.slice(0, i) + '\0' + s.slice(i);
    case 1: return s.slice(0, i) + pick(['\uD800', '\uDC00', '\uDBFF', '\uDFFF']) + s.slice(i);
    case 2: return s.slice(0, i) + s.slice(i + 1);
    case 3: return s.slice(0, i) + String.fromCharCode(int(128)) + s.slice(i + 1);
    case 4: return s.slice(0, i) + pick(['\u{1F3C8}', '\uFFFF', '\u00e9', '\u0080']) + s.slice(i);
    case 5: return s + s.slice(0, int(s.length));
    default: return s.slice(0, i);
  }
}

function hostileString() {
  switch (int(10)) {
    case 0: return pick(SQUARE_NAMES);
    case 1: return pick(legalTexts(anyGame())) ?? 'end';
    case 2: return chance(0.5) ? START_BPN : anyGame().freed ? START_BPN : anyGame().bpn;
    case 3: return mutate(hostileString());
    case 4: return pick(RULES_TEXTS);
    case 5: return pick(records) ?? '';
    case 6: return pick(['', ' ', 'end', 'pe+1', 'card1', 'card0', 'upper', 'lower', ...VERBS, 'A1', 'Z9', 'G05']);
    case 7: return 'E11-F10'.repeat(int(3) ? 1 : 2000);
    case 8: return pick(TAGS.filter((t) => typeof t === 'string'));
    default: return mutate(pick(legalTexts(anyGame())) ?? 'end');
  }
}

// A primitive of some kind, for valueOf / toString / getters to return.
function primitive() {
  switch (int(4)) {
    case 0: return pick(NUMBERS);
    case 1: return pick(BIGINTS);
    case 2: return hostileString();
    default: return pick([true, false, null, undefined, 0, 1]);
  }
}

// An object whose own code runs (side effects) when something reads it.
function hostileObject() {
  switch (int(9)) {
    case 0: return { valueOf() { sideEffect(); return primitive(); } };
    case 1: return { toString() { sideEffect(); return hostileString(); } };
    case 2: return { [Symbol.toPrimitive]() { sideEffect(); return primitive(); } };
    case 3: return new Proxy({}, {
      get(t, k) { sideEffect(); return k === Symbol.iterator ? undefined : primitive(); },
      ownKeys() { sideEffect(); return pick([[], ['bpn'], ['playouts', 'seed'], ['cards']]); },
      getOwnPropertyDescriptor() { return { value: primitive(), enumerable: true, configurable: true }; },
    });
    case 4: return { get code() { sideEffect(); return pick(actions)?.code ?? 1; }, text: 'E11-F10' };
    case 5: return Object.create(Action.prototype, {
      code: { get() { sideEffect(); return pick(actions)?.code ?? 1; } },
      text: { value: 'E11-F10' },
    });
    case 6: return Object.create(Game.prototype);
    case 7: { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; }
    default: return { * [Symbol.iterator]() { sideEffect(); yield primitive(); sideEffect(); yield anyValue(); } };
  }
}

function hostileArray() {
  switch (int(6)) {
    case 0: return Array.from({ length: int(7) }, () => anyValue());
    // eslint-disable-next-line no-sparse-arrays
    case 1: return pick([[, ], [, 'E11'], ['E11', , '-'], new Array(3), new Array(1e6)]);
    case 2: {
      const a = [pick(SQUARE_NAMES), pick(VERBS)];
      Object.defineProperty(a, int(2), { get() { sideEffect(); return primitive(); }, enumerable: true });
      return a;
    }
    case 3: return new Proxy([pick(SQUARE_NAMES)], {
      get(t, k) { sideEffect(); return k === 'length' ? pick([1, '1', 2 ** 32, -1, NaN, 1]) : Reflect.get(t, k); },
    });
    case 4: return [pick(SQUARE_NAMES), pick(VERBS), pick(SQUARE_NAMES), pick(SQUARE_NAMES), pick(SQUARE_NAMES), 'x'];
    default: return [];
  }
}

function anyValue() {
  switch (int(12)) {
    case 0: case 1: return pick(NUMBERS);
    case 2: return pick(BIGINTS);
    case 3: case 4: return hostileString();
    case 5: return hostileObject();
    case 6: return hostileArray();
    case 7: return pick(games) ?? null;
    case 8: return pick(actions) ?? 1;
    case 9: return pick(searchers) ?? null;
    case 10: return pick([null, undefined, true, false, Symbol('s'), () => 1, Object(5), Object('E11-F10'),
      new BallError(-1, 'x'), new Date(0), 5n, {}]);
    default: return pick(selections) ?? [];
  }
}

// A value meant for a parameter: often a plausible one, else anything.
const maybe = (plausible, p = 0.6) => (chance(p) ? plausible() : anyValue());
const cheapInt = (max) => (chance(0.6) ? int(max + 1) : chance(0.7) ? pick(CHEAP) : anyValue());

// Option objects, some with getters that run side effects.
function withGetters(obj) {
  if (!chance(0.3))
    return obj;
  const out = {};
  for (const [k, v] of Object.entries(obj))
    Object.defineProperty(out, k, { get() { sideEffect(); return v; }, enumerable: true });
  return out;
}

function cardsValue() {
  const card = () => withGetters({
    name: maybe(() => pick(['Sprint', 'Rally', 'A', 'x'.repeat(30), 'Bad name'])),
    cost: cheapInt(5),
    effect: maybe(() => pick(['pa+1', 'pa+9', 'again', 'pa+0', 'pa+10'])),
  });
  const hand = () => (chance(0.2) ? hostileArray() : chance(0.15) ? {
    * [Symbol.iterator]() { sideEffect(); yield card(); },
  } : Array.from({ length: int(4) }, card));
  const cards = {};
  if (chance(0.6))
    cards.earn = chance(0.8) ? { [pick(ball.EARN_ENTRIES.concat(['bogus']))]: cheapInt(3) } : anyValue();
  if (chance(0.7))
    cards.atk = hand();
  if (chance(0.5))
    cards.def = hand();
  if (chance(0.05))
    cards.extra = 1;
  return withGetters(cards);
}

function rulesValue() {
  switch (int(5)) {
    case 0: return pick(RULES_TEXTS);
    case 1: return mutate(pick(RULES_TEXTS));
    case 2: {
      const r = {};
      if (chance(0.5)) r.endZoneDepth = cheapInt(4);
      if (chance(0.5)) r.turnLimit = chance(0.8) ? int(60) : anyValue();
      if (chance(0.4)) r.cards = cardsValue();
      return withGetters(r);
    }
    case 3: return anyValue();
    default: return undefined;
  }
}

function gameOptions() {
  switch (int(5)) {
    case 0: return undefined;
    case 1: return maybe(hostileString);
    case 2: return withGetters({ bpn: maybe(hostileString, 0.5), rules: rulesValue() });
    case 3: {
      const o = {};
      if (chance(0.5)) o.endZoneDepth = cheapInt(4);
      if (chance(0.5)) o.turnLimit = chance(0.8) ? int(60) : anyValue();
      if (chance(0.5)) o.cards = cardsValue();
      if (chance(0.1)) o.rules = 'zone=2';
      if (chance(0.05)) o.colour = 'red';
      return withGetters(o);
    }
    default: return anyValue();
  }
}

// MCTS settings: cheap when taken (a handful of playouts), hostile else.
function mctsOptions() {
  if (chance(0.1))
    return anyValue();
  const o = {};
  if (chance(0.9)) o.playouts = chance(0.7) ? 1 + int(20) : pick(CHEAP.concat([0, 'x', 5n]));
  if (chance(0.2)) o.timeMs = chance(0.5) ? 0 : pick(CHEAP.filter((n) => n !== 1 && n !== 2));
  if (chance(0.2)) o.maxNodes = chance(0.6) ? int(3000) : pick(CHEAP.filter((n) => n < 0 || !Number.isInteger(n)));
  if (chance(0.3)) o.playoutTurns = chance(0.7) ? int(3) : pick(CHEAP);
  if (chance(0.2)) o.exploration = pick([0, 0.3, 1, 100, NaN, -1, 101, Infinity, '1', 1n]);
  if (chance(0.3)) o.seed = chance(0.5) ? rand64() : anyValue();
  if (chance(0.05)) o.budget = 5;
  return withGetters(o);
}

// Turn-search settings: cheap when taken (a few hundred nodes, a 1-2 MiB
// table), hostile else; never a table the wasm heap could take a large
// part of.
function turnOptions() {
  if (chance(0.1))
    return anyValue();
  const o = {};
  if (chance(0.9)) o.nodes = chance(0.7) ? 1 + int(300) : pick([0, -1, 1.5, 'x', 5n, 10 ** 13, 2n ** 64n, NaN]);
  if (chance(0.2)) o.timeMs = chance(0.5) ? 0 : pick([-1, 86400001, 1.5, '5', Infinity]);
  if (chance(0.2)) o.depth = chance(0.6) ? int(3) : pick([-1, 65, 2 ** 31, 0.5, null]);
  if (chance(0.1)) o.threads = pick([0, 1, 2, 64, 65, -1, 1.5]);
  if (chance(0.2)) o.multipv = chance(0.6) ? 1 + int(4) : pick([0, 257, -1, 'x']);
  o.hashMb = chance(0.9) ? 1 + int(2) : pick([0, -1, 65537, 1.5, 'x', 2 ** 31]);
  if (chance(0.3)) o.seed = chance(0.5) ? rand64() : anyValue();
  if (chance(0.05)) o.playouts = 5;
  if (chance(0.2))
    o.eval = chance(0.6) ? pick(nets) ?? null : chance(0.5) ? pick(['network', 'hand', 'Hand', '']) : anyValue();
  return withGetters(o);
}

// The network file, mostly damaged: cut short, a few bytes changed, or
// random bytes; as a Uint8Array, an ArrayBuffer or anything.
function netBytes() {
  if (chance(0.1))
    return anyValue();
  let b;
  if (chance(0.3))
    b = NET_FILE.subarray(0, int(NET_FILE.length + 1));
  else if (chance(0.3))
    b = Uint8Array.from({ length: int(200) }, () => int(256));
  else {
    b = NET_FILE.slice();
    for (let i = int(3); i > 0; i--)
      b[int(chance(0.5) ? 44 : b.length)] = int(256);
  }
  return chance(0.2) ? b.slice().buffer : b;
}

function choices() {
  if (chance(0.3))
    return hostileArray();
  const g = anyGame();
  const out = [];
  try {
    let sel = g.freed ? null : g.selection();
    while (sel && out.length < 5 && chance(0.8) && sel.choices.length) {
      out.push(chance(0.9) ? pick(sel.choices) : anyValue());
      sel = chance(0.9) ? new Selection(g, out) : null;
    }
  } catch (e) {
    if (!(e instanceof BallError) && !(e instanceof HostileError))
      throw e;
  }
  return out;
}

// ------------------------------------------------------------ the calls

const g = anyGame;
const CALLS = [
  ['squareIndex', () => ball.squareIndex(maybe(() => pick(SQUARE_NAMES)))],
  ['squareName', () => ball.squareName(maybe(() => int(111)))],
  ['squareAt', () => ball.squareAt(maybe(() => int(14)), maybe(() => int(18)))],
  ['squareCol', () => ball.squareCol(anyValue())],
  ['squareRow', () => ball.squareRow(maybe(() => int(111)))],
  ['distance', () => ball.distance(maybe(() => pick(SQUARE_NAMES)), maybe(() => int(111)))],
  ['strerror', () => ball.strerror(maybe(() => -int(13)))],
  ['parseRules', () => ball.parseRules(rulesValue())],
  ['readRecords', () => track(ball.readRecords(maybe(() => (chance(0.5) ? pick(records) ?? '' : mutate(pick(records) ?? '')))))],
  ['Action.fromCode', () => track(Action.fromCode(maybe(() => pick(actions)?.code ?? int(2 ** 32))))],
  ['new Action', () => track(new Action(maybe(() => pick(actions)?.code ?? 1), maybe(() => undefined, 0.5)))],
  ['compareActionTexts', () => ball.compareActionTexts(maybe(hostileString), maybe(() => pick(actions) ?? 'end'))],
  ['xorshift64', () => ball.xorshift64(maybe(rand64))()],
  ['new Game', () => track(new Game(gameOptions()))],
  ['Game.fromBpn', () => track(Game.fromBpn(maybe(hostileString), rulesValue()))],
  ['Game.fromRecord', () => track(Game.fromRecord(maybe(() => pick(records) ?? '')))],
  ['new MCTS', () => track(new MCTS(mctsOptions()))],
  ['new Selection', () => track(new Selection(maybe(anyGame, 0.8), choices()))],
  ['memory', () => ball.memory()],
  // a game
  ['apply', () => { const x = g(); return track(x.apply(maybe(() => pick(legalTexts(x)) ?? 'end', 0.7))); }],
  ['apply(Action)', () => { const x = g(); return track(x.apply(x.freed ? anyValue() : chance(0.8) ? x.randomAction(rand64()) : anyValue())); }],
  ['isLegal', () => g().isLegal(anyValue())],
  ['parseAction', () => track(g().parseAction(maybe(hostileString)))],
  ['bpn =', () => { g().bpn = maybe(hostileString); }],
  ['bpn', () => g().bpn],
  ['legalActions', () => track(g().legalActions(maybe(() => ({ sorted: chance(0.5) }), 0.7)))],
  ['countLegalActions', () => g().countLegalActions()],
  ['legalAction', () => track(g().legalAction(cheapInt(60)))],
  ['randomAction', () => track(g().randomAction(maybe(() => pick([rand64(), ...BIGINTS]), 0.8)))],
  ['applyIndex', () => g().applyIndex(maybe(() => cheapInt(60), 0.8))],
  ['randomApply', () => track(g().randomApply(maybe(() => pick([rand64(), ...BIGINTS]), 0.8)))],
  ['randomPlayout', () => g().randomPlayout(maybe(() => pick([rand64(), ...BIGINTS]), 0.8), maybe(() => cheapInt(30), 0.8))],
  ['undo', () => g().undo()],
  ['perft', () => g().perft(chance(0.7) ? int(3) : pick(CHEAP.concat([65, 66, '2', 2n])))],
  ['hash', () => g().hash],
  ['state', () => { const x = g(); return [x.side, x.phase, x.pa, x.turn, x.result, x.winner, x.ballSquare, x.restrictedSquare, x.pe, x.handoffLast]; }],
  ['piece', () => g().piece(maybe(() => pick(SQUARE_NAMES)), maybe(() => pick(['upper', 'lower', 0, 1])))],
  ['square', () => g().square(maybe(() => int(111)))],
  ['board', () => g().board().length],
  ['diagram', () => String(g())],
  ['select', () => track(g().select(choices()))],
  ['selection', () => track(g().selection())],
  ['history', () => track(g().history())],
  ['historyAction', () => track(g().historyAction(cheapInt(10)))],
  ['historyPosition', () => g().historyPosition(cheapInt(10))],
  ['tag', () => g().tag(maybe(() => pick(TAGS)))],
  ['setTag', () => g().setTag(maybe(() => pick(TAGS)), maybe(() => (chance(0.5) ? mutate('Club night') : null)))],
  ['tags', () => g().tags],
  ['recordWith', () => g().recordWith(maybe(() => withGetters({ [pick(TAGS.filter((t) => typeof t === 'string'))]: maybe(() => (chance(0.5) ? mutate('Final') : null)) }), 0.8))],
  ['record', () => { const r = g().record; if (records.length < 20) records.push(r); else records[int(20)] = r; return r; }],
  ['clone', () => track(g().clone())],
  ['free', () => g().free()],
  ['rules', () => g().rules],
  ['hands', () => g().hands],
  ['releaseTasks', () => g().releaseTasks()],
  ['taskSolutions', () => track(g().taskSolutions(maybe(() => pick(SQUARE_NAMES))))],
  ['reserveHistory', () => g().reserveHistory(chance(0.6) ? int(5000) : pick(NUMBERS))],
  ['play on', () => { const x = liveGame(); for (let i = 0; i < 20 && !x.isOver; i++) x.apply(x.randomAction(rand64())); }],
  // searchers, actions, selections
  ['mcts.choose', () => { const m = pick(searchers) ?? track(new MCTS({ playouts: 5 })); return track(m.choose(maybe(anyGame, 0.85))); }],
  ['mcts.seed', () => (pick(searchers) ?? track(new MCTS({ playouts: 5 }))).seed(maybe(rand64))],
  ['mcts.free', () => pick(searchers)?.free()],
  ['mcts.stats', () => pick(searchers)?.stats],
  ['new TurnSearch', () => track(new TurnSearch(turnOptions()))],
  ['turn.choose', () => { const m = pick(turnSearches) ?? track(new TurnSearch({ nodes: 50, hashMb: 1 })); return track(m.choose(maybe(anyGame, 0.85))); }],
  ['turn.analyse', () => { const m = pick(turnSearches) ?? track(new TurnSearch({ nodes: 50, hashMb: 1 })); const r = m.analyse(maybe(anyGame, 0.85)); r.lines.forEach((l) => l.pv.forEach(track)); return r.value; }],
  ['turn.clear', () => pick(turnSearches)?.clear()],
  ['turn.free', () => pick(turnSearches)?.free()],
  ['new Net', () => track(new Net(netBytes()))],
  ['net.evaluate', () => (pick(nets) ?? track(new Net(NET_FILE))).evaluate(maybe(anyGame, 0.85))],
  ['net.free', () => pick(nets)?.free()],
  ['action', () => { const a = pick(actions); return a && [a.kind, a.from, a.to, a.option, a.keeper, a.flags, a.cost, a.value, a.pickup, a.fumble, a.forcedFumble, a.equals(anyValue())]; }],
  ['selection.choose', () => { const s = pick(selections); return s && track(s.choose(maybe(() => pick(s.choices) ?? 'x'))); }],
  ['selection.back', () => { const s = pick(selections); return s && track(chance(0.5) ? s.back() : s.cancel()); }],
  // the learning interface (learn.mjs)
  ['learn.actionToIndex', () => { const x = lg(); return learn.actionToIndex(x, maybe(() => pick(legalTexts(x)) ?? 'end', 0.7)); }],
  ['learn.actionFromIndex', () => track(learn.actionFromIndex(lg(), chance(0.6) ? pick(learnIndices(g())) ?? int(7990) : anyValue()))],
  ['learn.legalMask', () => learn.legalMask(lg(), maybe(() => ({ bits: chance(0.5), out: maybe(() => learnOut(Uint8Array, 7990), 0.3) }), 0.7))],
  ['learn.legalIndices', () => learn.legalIndices(lg())],
  ['learn.indexMirror', () => learn.indexMirror(maybe(() => int(7990)))],
  ['learn.policyMirror', () => learn.policyMirror(chance(0.6) ? new Float32Array(chance(0.9) ? 7990 : int(8000)) : anyValue())],
  ['learn.observationSize', () => learn.observationSize(maybe(() => int(4)))],
  ['learn.observation', () => learn.observation(lg(), maybe(obsOptions, 0.8))],
  ['learn.observationBits', () => learn.observationBits(lg(), maybe(obsOptions, 0.8))],
  ['learn.observationMirror', () => learn.observationMirror(maybe(() => learnOut(Float32Array, 3171 * (1 + int(2)))), maybe(obsOptions, 0.8))],
  ['learn.observationBitsMirror', () => learn.observationBitsMirror(maybe(() => learnOut(Uint8Array, 397)), maybe(obsOptions, 0.8))],
  ['learn.returns', () => learn.returns(lg())],
  ['learn.unpackBits', () => learn.unpackBits(maybe(() => new Uint8Array(int(20))), cheapInt(200))],
  ['new learn.Batch', () => track(new learn.Batch(chance(0.8) ? 1 + int(8) : anyValue(), maybe(batchOptions, 0.8)))],
  ['batch.step', () => { const b = pick(batches); return b && b.step(chance(0.5) ? undefined : maybe(() => batchIndices(b), 0.6)); }],
  ['batch.reset', () => pick(batches)?.reset(maybe(rand64))],
  ['batch.setStart', () => pick(batches)?.setStart(maybe(() => (chance(0.3) ? null : hostileString())))],
  ['batch.bind', () => { const b = pick(batches); return b && (chance(0.5) ? b.bind(maybe(outputName)) : b.unbind(maybe(outputName))); }],
  ['batch.read', () => { const b = pick(batches); return b && (chance(0.5) ? b.read(maybe(outputName), maybe(() => undefined, 0.7)) : b.row(maybe(outputName), cheapInt(8))); }],
  ['batch.outputs', () => { const b = pick(batches); return b && [b.obs, b.obsBits, b.mask, b.maskBits, b.rewards, b.done, b.actions, b.side, b.length]; }],
  ['batch.position', () => pick(batches)?.position(cheapInt(8))],
  ['batch.game', () => { const b = pick(batches); return b && track(b.game(cheapInt(8))); }],
  ['batch.free', () => pick(batches)?.free()],
];

// Values for the learning calls: plausible ones, or hostile.
function lg() {
  return chance(0.9) ? anyGame() : anyValue();
}
function learnIndices(x) {
  try {
    return x.freed ? [] : learn.legalIndices(x);
  } catch {
    return [];
  }
}
function learnOut(T, n) {
  switch (int(5)) {
    case 0: return new T(n);
    case 1: return new T(int(n + 2));
    case 2: return new (pick([Float32Array, Uint8Array, Int32Array, Float64Array]))(n);
    case 3: { const a = new T(n); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; }
    default: return new T(ball.native.HEAPU8.buffer, 0, Math.min(n, 64));
  }
}
const obsOptions = () => withGetters({ flags: maybe(() => int(4), 0.8), out: chance(0.2) ? learnOut(Float32Array, 3171) : undefined });
const OUTPUT_NAMES = ['obs', 'obsBits', 'mask', 'maskBits', 'rewards', 'done', 'actions', 'side', 'obs_bits', 'nope', 0, 7, 8, -1];
const outputName = () => pick(OUTPUT_NAMES);
function batchOptions() {
  const o = {};
  if (chance(0.5)) o.outputs = chance(0.8) ? Array.from({ length: int(4) }, outputName) : anyValue();
  if (chance(0.3)) o.obsFlags = maybe(() => int(4));
  if (chance(0.3)) o.seed = maybe(rand64);
  if (chance(0.2)) o.start = maybe(hostileString, 0.3);
  if (chance(0.3)) o.turnLimit = chance(0.8) ? int(60) : anyValue();
  if (chance(0.2)) o.rules = rulesValue();
  if (chance(0.05)) o.colour = 'red';
  return withGetters(o);
}
function batchIndices(b) {
  const out = [];
  for (let i = 0; i < b.n; i++) {
    let x;
    try {
      x = b.game(i);
      out.push(pick(learn.legalIndices(x)) ?? 0);
    } finally {
      x?.free();
    }
  }
  if (chance(0.2))
    out.push(int(7990));
  return chance(0.5) ? Int32Array.from(out) : out;
}

// ------------------------------------------------------------ running

const failures = [];
const tally = new Map();
let current = '';

function fail(message) {
  failures.push(`seed ${SEED}, call ${calls}: ${current}: ${message}`);
}

function describeError(e) {
  return `${e?.constructor?.name ?? typeof e}: ${e?.message ?? String(e)}\n${e?.stack ?? ''}`;
}

const slow = new Map();
function runOne(name, fn) {
  const t = performance.now();
  if (opt.trace)
    console.log(`# ${calls} ${name}`);
  try {
    fn();
    tally.set('ok', (tally.get('ok') ?? 0) + 1);
  } catch (e) {
    if (e instanceof BallError) {
      tally.set(e.codeName, (tally.get(e.codeName) ?? 0) + 1);
    } else {
      const was = current;
      current = name;
      fail(`not a BallError: ${describeError(e)}`);
      current = was;
    }
  } finally {
    const ms = performance.now() - t;
    if (ms > (slow.get(name) ?? 0))
      slow.set(name, ms);
  }
}

function nestedCall() {
  const [name, fn] = pick(CALLS);
  runOne(`${current} > ${name}`, fn);
}

let calls = 0;
const t0 = Date.now();
const deadline = t0 + SECONDS * 1000;
while (calls < COUNT && failures.length < 5) {
  if ((calls & 255) === 0) {
    if (Date.now() > deadline)
      break;
    checkSentinel('during the run');
  }
  const [name, fn] = pick(CALLS);
  current = name;
  calls++;
  runOne(name, fn);
  if (opt.verbose && calls % 10000 === 0)
    console.log(`# ${calls} calls, ${games.length} games`);
}
const elapsed = (Date.now() - t0) / 1000;
if (calls < COUNT && failures.length === 0 && !BOXED)
  fail(`only ${calls} of the ${COUNT} calls in ${SECONDS} s (--seconds bounds a run in time)`);

// ------------------------------------------------------------ afterwards

current = 'afterwards';
try {
  checkSentinel('after the run');
  for (const x of games.splice(0))
    x.free();
  for (const m of [...searchers.splice(0), ...turnSearches.splice(0), ...batches.splice(0), ...nets.splice(0)])
    m.free();
  sentinel.free();
  if (ball.liveGames !== LIVE0)
    fail(`${ball.liveGames} games live after freeing all, ${LIVE0} before`);
  if (learn.liveBatches !== BATCHES0)
    fail(`${learn.liveBatches} batches live after freeing all, ${BATCHES0} before`);
  if (ball.liveNets !== NETS0)
    fail(`${ball.liveNets} nets live after freeing all, ${NETS0} before`);
  if (ball.liveSearchers !== SEARCHERS0)
    fail(`${ball.liveSearchers} searchers live after freeing all, ${SEARCHERS0} before`);
  const heap = ball.memory().allocated;
  if (heap > HEAP0 + 65536)
    fail(`the wasm heap in use grew from ${HEAP0} to ${heap} bytes (a leak)`);
  const after = reference();
  if (after.bpns.join('\n') !== REF.bpns.join('\n'))
    fail(`a fresh game plays ${LINE.join(' ')} to other positions: ${after.bpns.join(' | ')}`);
  if (after.perft3 !== REF.perft3 || REF.perft3 !== 16283n)
    fail(`perft(3) from the start is ${after.perft3}, ${REF.perft3} before`);
  const fresh = await load();
  const f = new fresh.Game();
  LINE.forEach((a) => f.apply(a));
  if (f.bpn !== REF.bpns.at(-1))
    fail('a new instance disagrees');
  f.free();
} catch (e) {
  fail(`the module does not work after the run: ${describeError(e)}`);
}

const byKind = [...tally].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
console.log(`fuzz: seed ${SEED}, ${calls} calls in ${elapsed.toFixed(1)} s` +
  `${calls < COUNT ? ` (the ${SECONDS} s bound)` : ''}: ${byKind}`);
if (opt.verbose)
  console.log(`# slowest: ${[...slow].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, ms]) => `${k} ${ms.toFixed(1)} ms`).join(', ')}`);
if (failures.length) {
  for (const f of failures)
    console.error(`FAIL ${f}`);
  process.exit(1);
}
console.log('fuzz: passed (only BallError escaped; sentinel, counts, heap and the module intact)');
