// SPDX-License-Identifier: MIT
// The learned evaluation (ball_net_*, experimental) through the binding:
// share/net/value.net evaluated on positions gives the values of the
// native library (read through the Python binding, libball.Net, in a
// process of its own), files the library refuses throw its message, a
// turn search with eval: net plays legal decisions, the same as the native
// search with the same net and node budget, eval: 'hand' and the default
// ('network') search as the native library's BALL_EVAL_HAND and
// BALL_EVAL_NETWORK do, and a net used by a searcher cannot be freed under
// it. Budgets are small: the machine is shared.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setImmediate as tick } from 'node:timers/promises';
import { BallError, ErrorCode, START_BPN } from '../libball.mjs';
import { ball, BALL_TOOL, DODGE_BPN, RELEASE_BPN } from './helpers.mjs';

const { Game, TurnSearch, Net } = ball;

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const NET_FILE = `${REPO}share/net/value.net`;
const FILE = new Uint8Array(readFileSync(NET_FILE));

const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

const refuses = (fn, code, message) =>
  assert.throws(fn, (e) => e instanceof BallError && e.code === code && (!message || message.test(e.message)),
    `BallError ${code}${message ? ` ${message}` : ''}`);

// A seeded random game of up to n decisions.
function randomGame(seed, n) {
  const next = ball.xorshift64(seed);
  const game = new Game();
  for (let i = 0; i < n && !game.isOver; i++)
    game.apply(game.randomAction(next()));
  return game;
}

// A copy of the file with `fn` applied to it.
function changed(fn) {
  const copy = FILE.slice();
  fn(copy, new DataView(copy.buffer));
  return copy;
}

// ------------------------------------------------------------ the native values

// The native library: LIBBALL_PATH, or the one next to the tool's build
// (BALL_TOOL is B/bin/ball); the Python binding reads it.
const LIBRARY = process.env.LIBBALL_PATH || `${dirname(dirname(BALL_TOOL))}/libball.so.1`;
const python = spawnSync('python3', ['-c', 'import ctypes'], { encoding: 'utf8' });
const NO_PYTHON = python.status !== 0 ? 'no python3' :
  !existsSync(LIBRARY) ? `no native library ${LIBRARY} (make lib python-ext, or set LIBBALL_PATH)` : false;

// For each case { bpn, nodes }: the net's value and, when nodes > 0, the
// decision of a native TurnSearch(nodes, hash_mb=2, eval=net), and the
// built-in search's decision with the same budget.
const PY = `
import json, sys
from libball import Game, Net, TurnSearch
net = Net.from_file(sys.argv[1])
out = []
for case in json.load(sys.stdin):
    g = Game(case["bpn"])
    item = {"value": repr(net.evaluate(g))}
    if case["nodes"]:
        with TurnSearch(nodes=case["nodes"], hash_mb=2, eval=net) as s:
            item["best"] = s.choose(g).text
        with TurnSearch(nodes=case["nodes"], hash_mb=2) as s:
            item["builtin"] = s.choose(g).text
    out.append(item)
json.dump(out, sys.stdout)
`;

function native(cases, py = PY) {
  const r = spawnSync('python3', ['-c', py, NET_FILE], {
    input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 1 << 24,
    env: { ...process.env, PYTHONPATH: `${REPO}bindings/python`, LIBBALL_PATH: LIBRARY },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// For each case { bpn, nodes }: the native library's turn search with
// ball_search_config::eval BALL_EVAL_NETWORK and BALL_EVAL_HAND, through
// ctypes alone (the C calls and structs of ball.h): { network, hand }, each
// { best, value }.
const PY_EVAL = `
import ctypes, json, os, sys
sys.path.insert(0, os.environ["PYTHONPATH"])
from libball._api import BallSearchConfig, BallSearchResult
lib = ctypes.CDLL(os.environ["LIBBALL_PATH"])
out = []
for case in json.load(sys.stdin):
    g = ctypes.c_void_p()
    assert lib.ball_game_new(ctypes.byref(g), None, None, ctypes.c_size_t(0)) == 0
    assert lib.ball_position_from_text(g, case["bpn"].encode()) == 0
    item = {}
    for name, ev in (("network", 0), ("hand", 1)):
        cfg = BallSearchConfig()
        lib.ball_search_config_init(ctypes.byref(cfg), ctypes.c_size_t(ctypes.sizeof(cfg)))
        cfg.nodes, cfg.hash_mb, cfg.eval = case["nodes"], 2, ev
        s = ctypes.c_void_p()
        assert lib.ball_search_new(ctypes.byref(s), ctypes.byref(cfg), None, ctypes.c_size_t(0)) == 0
        r = BallSearchResult()
        lib.ball_search_result_init(ctypes.byref(r), ctypes.c_size_t(ctypes.sizeof(r)))
        assert lib.ball_search_run(s, g, ctypes.byref(r)) == 0
        text = ctypes.create_string_buffer(64)
        assert lib.ball_action_to_text(ctypes.c_uint32(r.best), text, ctypes.c_size_t(64)) > 0
        item[name] = {"best": text.value.decode(), "value": r.value}
        lib.ball_search_free(s)
    lib.ball_game_free(g)
    out.append(item)
json.dump(out, sys.stdout)
`;

// The positions: the start, the guide's dodge, a release, and random games.
function positions() {
  const bpns = [START_BPN, DODGE_BPN, RELEASE_BPN];
  for (const [seed, n] of [[1n, 7], [2n, 25], [3n, 60], [4n, 140], [5n, 400]]) {
    const g = randomGame(seed, n);
    if (!g.isOver)
      bpns.push(g.bpn);
    g.free();
  }
  return bpns;
}

test('evaluate: the native library\'s values, exactly, on the start, a dodge, a release and random games',
  { skip: NO_PYTHON }, () => {
    const bpns = positions();
    assert.ok(bpns.length >= 7, 'most random games still going');
    const want = native(bpns.map((bpn) => ({ bpn, nodes: 0 })));
    // from a Uint8Array and from an ArrayBuffer: the same net
    const net = new Net(FILE);
    const net2 = new Net(FILE.buffer.slice(FILE.byteOffset, FILE.byteOffset + FILE.byteLength));
    assert.equal(net.size, FILE.length);
    const values = new Set();
    bpns.forEach((bpn, i) => {
      const game = new Game(bpn);
      const v = net.evaluate(game);
      // Python's repr() of a double reads back as the same double
      assert.equal(v, Number(want[i].value), bpn);
      assert.equal(net2.evaluate(game), v);
      assert.ok(v >= -1 && v <= 1, `${v} in [-1, 1]`);
      assert.equal(game.bpn, bpn, 'the game is unchanged');
      values.add(v);
      game.free();
    });
    assert.ok(values.size >= bpns.length - 1, 'the values differ from position to position');
    net.free();
    net2.free();
  });

test('evaluate: for the coach to act; a freed game, not a game', () => {
  const net = new Net(FILE);
  const game = new Game();
  refuses(() => net.evaluate(null), ErrorCode.ARG, /expected a Game/);
  refuses(() => net.evaluate({}), ErrorCode.ARG, /expected a Game/);
  const freed = new Game();
  freed.free();
  refuses(() => net.evaluate(freed), ErrorCode.ARG, /freed/);
  assert.equal(typeof net.evaluate(game), 'number');
  game.free();
  net.free();
});

// ------------------------------------------------------------ refused files

test('a truncated, corrupt or foreign file: BallError arg with the library\'s message, nothing allocated', () => {
  const before = ball.liveNets;
  const cases = [
    [new Uint8Array(0), /^net: truncated: 0 bytes, the header and checksum alone are 44$/],
    [FILE.subarray(0, 43), /^net: truncated: 43 bytes/],
    [FILE.subarray(0, 100), new RegExp(`^net: truncated: 100 bytes, the header's shapes need ${FILE.length}$`)],
    [FILE.subarray(0, FILE.length - 1), /^net: truncated: /],
    [changed((b) => { b[0] = 0x58; }), /^net: byte 0: bad magic \(not a BALL network file\)$/],
    [changed((b, v) => v.setUint32(8, 7, true)), /^net: byte 8: format version 7, this library reads 1 and 2$/],
    [changed((b, v) => v.setUint32(12, 9, true)), /^net: byte 12: unknown architecture 9/],
    [changed((b, v) => v.setUint32(24, 513, true)), /^net: byte 24: hidden size 513 out of range 1-512$/],
    // one weight changed: the checksum no longer matches
    [changed((b) => { b[1000] ^= 0x40; }), /^net: byte \d+: checksum 0x[0-9a-f]{8}, the contents give 0x[0-9a-f]{8} \(corrupt file\)$/],
    [(() => { const c = new Uint8Array(FILE.length + 3); c.set(FILE); return c; })(), /bytes after the checksum/],
    // a DataView of the whole file cut by one byte at the front
    [new DataView(FILE.buffer, FILE.byteOffset + 1, FILE.byteLength - 1), /^net: byte 0: bad magic/],
  ];
  for (const [bytes, message] of cases)
    refuses(() => new Net(bytes), ErrorCode.ARG, message);
  for (const bad of [undefined, null, 'value.net', 42, [1, 2, 3], {}, { length: 10 }])
    refuses(() => new Net(bad), ErrorCode.ARG, /the bytes of a network file/);
  // a detached buffer, and a view of the wasm memory itself (which the
  // load's allocation may grow and detach): refused, or read whole
  const goneView = FILE.slice();
  const gone = goneView.buffer;
  structuredClone(gone, { transfer: [gone] });
  refuses(() => new Net(gone), ErrorCode.ARG, /cannot be read \(detached\?\)/);
  refuses(() => new Net(goneView), ErrorCode.ARG, /cannot be read/);
  const heap = ball.native.HEAPU8.subarray(0, 200);
  refuses(() => new Net(heap), ErrorCode.ARG, /^net: byte 0: bad magic|^net: truncated/);
  // the caller's bytes are copied: changing them afterwards changes nothing
  const mine = FILE.slice();
  const net = new Net(mine);
  const game = new Game();
  const v = net.evaluate(game);
  mine.fill(0);
  assert.equal(net.evaluate(game), v);
  net.free();
  game.free();
  assert.equal(ball.liveNets, before);
});

// ------------------------------------------------------------ the search

test('TurnSearch({ eval: net }): legal decisions, the native search\'s with the same net and budget',
  { skip: NO_PYTHON }, () => {
    const bpns = positions().slice(0, 6);
    const NODES = 2000;
    const want = native(bpns.map((bpn) => ({ bpn, nodes: NODES })));
    const net = new Net(FILE);
    let differs = 0;
    bpns.forEach((bpn, i) => {
      const game = new Game(bpn);
      const search = new TurnSearch({ nodes: NODES, hashMb: 2, eval: net });
      assert.equal(search.eval, net);
      const r = search.analyse(game);
      assert.ok(game.legalActions().includes(r.best), `${r.best} legal in ${bpn}`);
      assert.equal(r.best.text, want[i].best, `the native decision in ${bpn}`);
      assert.ok(r.value >= -1 && r.value <= 1);
      assert.equal(game.bpn, bpn, 'the game is unchanged');
      // the default evaluation's search (the library's network), for comparison
      const plain = new TurnSearch({ nodes: NODES, hashMb: 2 });
      assert.equal(plain.eval, 'network');
      const b = plain.choose(game);
      assert.equal(b.text, want[i].builtin, `the native built-in decision in ${bpn}`);
      if (b !== r.best)
        differs++;
      plain.free();
      search.free();
      game.free();
    });
    net.free();
    assert.ok(differs > 0, 'the network changes at least one decision (it is used)');
  });

test("TurnSearch({ eval: 'hand' }) and the default: the native search's decisions and values with " +
  'BALL_EVAL_HAND and BALL_EVAL_NETWORK', { skip: NO_PYTHON }, () => {
  const bpns = positions().slice(0, 6);
  const NODES = 2000;
  const want = native(bpns.map((bpn) => ({ bpn, nodes: NODES })), PY_EVAL);
  let differs = 0;
  bpns.forEach((bpn, i) => {
    const game = new Game(bpn);
    const got = {};
    for (const [name, options] of [['network', {}], ['hand', { eval: 'hand' }]]) {
      const search = new TurnSearch({ nodes: NODES, hashMb: 2, ...options });
      assert.equal(search.eval, name);
      const r = search.analyse(game);
      got[name] = { best: r.best.text, value: r.value };
      search.free();
    }
    assert.deepEqual(got, want[i], `the native searches in ${bpn}`);
    if (got.hand.value !== got.network.value)
      differs++;
    game.free();
  });
  assert.ok(differs > 0, 'the hand-written evaluation and the network value every position alike');
});

test('TurnSearch({ eval }): not a Net nor a name, a freed net', () => {
  const freed = new Net(FILE);
  freed.free();
  refuses(() => new TurnSearch({ nodes: 100, hashMb: 1, eval: freed }), ErrorCode.ARG, /network has been freed/);
  for (const bad of [{}, 'value.net', 'Hand', '', FILE, 1, true, Object.create(Net.prototype)])
    refuses(() => new TurnSearch({ nodes: 100, hashMb: 1, eval: bad }), ErrorCode.ARG,
      /^eval is 'network' \(the default\), 'hand' or a Net, not /);
  // null and undefined: the default, the library's network
  const s = new TurnSearch({ nodes: 100, hashMb: 1, eval: null });
  assert.equal(s.eval, 'network');
  s.free();
});

// ------------------------------------------------------------ freeing

test('a net used by a searcher: free() refused until the searcher is freed; then freed for good', () => {
  const netsBefore = ball.liveNets;
  const net = new Net(FILE);
  assert.equal(ball.liveNets, netsBefore + 1);
  const game = new Game();
  const a = new TurnSearch({ nodes: 300, hashMb: 1, eval: net });
  const b = new TurnSearch({ nodes: 300, hashMb: 1, eval: net });
  assert.equal(net.users, 2);
  refuses(() => net.free(), ErrorCode.ARG, /2 TurnSearches made with eval: net still use the network/);
  assert.equal(net.freed, false);
  const first = a.choose(game);
  a.free();
  assert.equal(net.users, 1);
  refuses(() => net.free(), ErrorCode.ARG, /1 TurnSearch made with eval: net/);
  // the refusal changed nothing: the net and the other searcher still work
  assert.equal(b.choose(game), first, 'the same settings, the same decision');
  assert.equal(typeof net.evaluate(game), 'number');
  b.free();
  assert.equal(net.users, 0);
  net.free();
  net.free(); // twice is harmless
  assert.equal(net.freed, true);
  assert.equal(ball.liveNets, netsBefore);
  refuses(() => net.evaluate(game), ErrorCode.ARG, /network has been freed/);
  game.free();
});

test('Symbol.dispose (`using`): disposing the searcher, then its net, as a block of `using`s does', () => {
  const before = ball.liveNets;
  const net = new Net(FILE);
  const search = new TurnSearch({ nodes: 200, hashMb: 1, eval: net });
  const game = new Game();
  search.choose(game);
  // `using net; using search;` disposes in reverse order: search, then net
  game[DISPOSE]();
  refuses(() => net[DISPOSE](), ErrorCode.ARG, /still use the network/);
  search[DISPOSE]();
  net[DISPOSE]();
  assert.equal(net.freed, true);
  assert.equal(ball.liveNets, before);
  assert.equal(Object.getOwnPropertySymbols(Net.prototype).length, 1, 'Symbol.dispose');
});

test('a searcher the collector took no longer holds the net; a net held by a live searcher is not collected',
  { skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc' }, async () => {
    const net = new Net(FILE);
    (() => { new TurnSearch({ nodes: 100, hashMb: 1, eval: net }); })();
    for (let i = 0; i < 20 && net.users > 0; i++) {
      await tick();
      globalThis.gc();
    }
    assert.equal(net.users, 0, 'the collected searcher does not count');
    net.free();
    assert.equal(net.freed, true);
    // the other way: only the searcher refers to its net, which keeps working
    const before = ball.liveNets;
    let search = (() => new TurnSearch({ nodes: 300, hashMb: 1, eval: new Net(FILE) }))();
    for (let i = 0; i < 5; i++) {
      await tick();
      globalThis.gc();
    }
    assert.equal(ball.liveNets, before + 1, 'the net lives with its searcher');
    const game = new Game();
    assert.ok(game.legalActions().includes(search.choose(game)));
    search.eval.evaluate(game);
    const held = search.eval;
    search.free();
    search = null;
    held.free();
    game.free();
    assert.equal(ball.liveNets, before);
  });
