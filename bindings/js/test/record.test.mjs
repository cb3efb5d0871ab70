// SPDX-License-Identifier: MIT
// Whole games: the history, the record tags, game records written as the
// native `ball record` writes them and read back as `ball replay` reads
// them, and bad records refused with the library's message.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../libball.mjs';
import { ball, tool, NO_TOOL } from './helpers.mjs';

const { Game } = ball;

// A seeded random game of `n` decisions.
function randomGame(seed, n, options) {
  const next = ball.xorshift64(seed);
  const game = new Game(options);
  const played = [];
  while (played.length < n && !game.isOver)
    played.push(game.apply(game.randomAction(next())).text);
  return { game, played };
}

test('history: the decisions and the positions they were played from', () => {
  const { game, played } = randomGame(11n, 40);
  const bpns = [];
  const replay = new Game();
  for (const a of played) {
    bpns.push(replay.bpn);
    replay.apply(a);
  }
  bpns.push(replay.bpn);
  assert.deepEqual(game.history().map(String), played);
  assert.equal(game.historyAction(0).text, played[0]);
  assert.equal(game.historyAction(played.length - 1).text, played.at(-1));
  for (const i of [0, 1, 17, played.length])
    assert.equal(game.historyPosition(i), bpns[i], `position ${i}`);
  assert.throws(() => game.historyAction(played.length), { code: ErrorCode.RANGE });
  assert.throws(() => game.historyAction(-1), { code: ErrorCode.RANGE });
  assert.throws(() => game.historyPosition(played.length + 1), { code: ErrorCode.RANGE });
  assert.throws(() => game.historyAction('0'), { code: ErrorCode.ARG });
  assert.equal(game.bpn, bpns.at(-1), 'reading the history changes nothing');
  game.bpn = ball.START_BPN;
  assert.deepEqual(game.history(), [], 'setting a position clears it');
  game.free();
  replay.free();
});

test('tags: set, read, cleared, refused', () => {
  const game = new Game();
  assert.deepEqual(game.tags, { Event: '', Site: '', Date: '', ATK: '', DEF: '' });
  game.setTag('event', 'Club night');
  game.setTag('Site', 'Lyon');
  game.setTag(2, '2026-11-30');
  game.setTag('ATK', 'Ann');
  game.setTag('def', 'Bö "the wall"');
  assert.deepEqual(game.tags, { Event: 'Club night', Site: 'Lyon', Date: '2026-11-30', ATK: 'Ann', DEF: 'Bö "the wall"' });
  assert.equal(game.tag('DEF'), 'Bö "the wall"');
  game.setTag('site', '');
  game.setTag('date', null);
  assert.equal(game.tag('site') + game.tag('date'), '');
  assert.throws(() => game.setTag('event', 'a\nb'), { code: ErrorCode.RANGE });
  assert.throws(() => game.setTag('event', 'x'.repeat(128)), { code: ErrorCode.RANGE });
  assert.equal(game.tag('event'), 'Club night', 'a refused value leaves the tag alone');
  assert.throws(() => game.setTag('round', '3'), { code: ErrorCode.ARG, message: /not a record tag: round/ });
  assert.throws(() => game.tag(5), { code: ErrorCode.ARG });
  game.bpn = ball.START_BPN;
  assert.equal(game.tag('atk'), 'Ann', 'tags survive a new position');
  const copy = game.clone();
  assert.equal(copy.tag('event'), 'Club night', 'and are cloned');
  copy.free();
  game.free();
});

test('record = ball record, and back: the same game, the same text', { skip: NO_TOOL }, () => {
  const cases = [
    [12n, 30, undefined, []],
    [13n, 500, { rules: 'zone=2 turns=12' }, ['--rules', 'zone=2 turns=12']],
    [14n, 60, { rules: 'earn.move=1 atk=Sprint:2:pa+1 def=Sprint:2:pa+1' },
      ['--rules', 'earn.move=1 atk=Sprint:2:pa+1 def=Sprint:2:pa+1']],
  ];
  for (const [seed, n, options, args] of cases) {
    const { game, played } = randomGame(seed, n, options);
    game.setTag('event', 'binding test');
    game.setTag('atk', 'random');
    const r = tool([...args, 'record', '--event', 'binding test', '--atk', 'random'], played.join('\n') + '\n');
    assert.equal(r.status, 0, r.stderr);
    const text = game.record;
    assert.equal(text, r.stdout, `record of seed ${seed}`);
    const back = Game.fromRecord(text);
    assert.equal(back.bpn, game.bpn);
    assert.deepEqual(back.history().map(String), played);
    assert.equal(back.tags.event, 'binding test');
    assert.equal(back.rules.text, game.rules.text);
    assert.equal(back.record, text, 'written back into the same text');
    back.free();
    game.free();
  }
  // from another position: a Start tag
  const dodge = new Game('7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1');
  dodge.apply('G9-I11/J12');
  assert.match(dodge.record, /^\[Start "7\/6\/7\/6\/7\/6\/4x2\/6\/3X3\/6\/7\/6\/7\/6\/7\/6\/@6 ATK a 2 - 0\/0 1"\]$/m);
  dodge.free();
});

// One shape across the bindings (docs/bindings.md, "One shape for record"):
// `game.record` is a property holding the text, here as in Python, where
// the 1.0 call `game.record()` still works; a JavaScript string cannot be
// called, so here the property is the only spelling, a plain string.
test('record is a property holding a string, as Python\'s game.record', () => {
  const { game } = randomGame(31n, 25);
  const desc = Object.getOwnPropertyDescriptor(Game.prototype, 'record');
  assert.equal(typeof desc.get, 'function', 'a getter');
  assert.equal(desc.set, undefined, 'read-only');
  assert.equal(typeof game.record, 'string');
  assert.equal(game.record, game.record, 'the same text each time');
  assert.ok(game.record.endsWith('\n'));
  assert.throws(() => game.record(), TypeError, 'not a method');
  const text = game.record;
  if (!game.isOver) {
    game.apply(game.legalActions()[0]);
    assert.notEqual(game.record, text, 'read when asked: it follows the game');
  }
  game.free();
});

// The rest of the record API in Python's shape (bindings/python/libball/
// game.py): tags keyed by the record's names (TAGS, as in the written
// record), the record with tags for one record only (Python's
// game.record(event=...)), from_record() refusing a text of two records.
test('tags by the record\'s names, as Python\'s Game.tags; the lower-case names still read', () => {
  assert.deepEqual(ball.TAGS, ['Event', 'Site', 'Date', 'ATK', 'DEF']);
  const game = new Game();
  ball.TAGS.forEach((name, i) => game.setTag(name, `value ${i}`));
  const tags = game.tags;
  assert.deepEqual(Object.keys(tags), ball.TAGS);
  assert.equal(JSON.stringify(tags), '{"Event":"value 0","Site":"value 1","Date":"value 2","ATK":"value 3","DEF":"value 4"}');
  // each key names the record's own tag line
  const record = game.record;
  for (const [name, value] of Object.entries(tags))
    assert.match(record, new RegExp(`^\\[${name} "${value}"\\]$`, 'm'));
  // 1.1 development spelling (deprecated): read, not enumerated
  assert.equal(tags.event, 'value 0');
  assert.equal(tags.def, 'value 4');
  game.free();
});

test('recordWith(tags): the record with tags for that record only, as Python\'s game.record(event=...)', () => {
  const game = new Game();
  game.apply('E11-F10');
  game.setTag('event', 'Club night');
  game.setTag('site', 'Lyon');
  const plain = game.record;
  const text = game.recordWith({ Event: 'Final', atk: 'Ann', Site: '' });
  assert.match(text, /^\[Event "Final"\]$/m);
  assert.match(text, /^\[ATK "Ann"\]$/m);
  assert.doesNotMatch(text, /^\[Site /m, "'' leaves a tag out");
  assert.equal(text.replace(/^\[(Event|ATK) .*\n/gm, ''), plain.replace(/^\[(Event|Site) .*\n/gm, ''),
    'the rest is the record');
  assert.deepEqual(game.tags, { Event: 'Club night', Site: 'Lyon', Date: '', ATK: '', DEF: '' }, 'the game keeps its tags');
  assert.equal(game.record, plain);
  assert.equal(game.recordWith({}), plain);
  const back = Game.fromRecord(text);
  assert.equal(back.tag('event'), 'Final');
  back.free();
  // refused: nothing changes
  assert.throws(() => game.recordWith({ Round: '3' }), { code: ErrorCode.ARG, message: /not a record tag: Round/ });
  assert.throws(() => game.recordWith({ ATK: 'Ann', DEF: 'a\nb' }), { code: ErrorCode.RANGE });
  assert.throws(() => game.recordWith({ ATK: 5 }), { code: ErrorCode.ARG });
  assert.throws(() => game.recordWith('Final'), { code: ErrorCode.ARG });
  assert.throws(() => game.recordWith(null), { code: ErrorCode.ARG });
  const boom = new Error('boom');
  assert.throws(() => game.recordWith({ get Event() { throw boom; } }), (e) => e.code === ErrorCode.ARG && e.cause === boom);
  assert.deepEqual(game.tags, { Event: 'Club night', Site: 'Lyon', Date: '', ATK: '', DEF: '' });
  game.free();
});

test('fromRecord: one record, as Python\'s Game.from_record; two are refused', () => {
  const a = new Game();
  a.apply('E11-F10');
  const live = ball.liveGames;
  const two = `${a.record}\n${a.record}`;
  assert.equal(ball.readRecords(two).map((g) => { const h = g.historyLength; g.free(); return h; }).join(), '1,1');
  assert.throws(() => Game.fromRecord(two), { code: ErrorCode.RECORD, message: /more than one game record/ });
  assert.equal(ball.liveGames, live, 'both games read were freed');
  const one = Game.fromRecord(`\n\n${a.record}\n\n`);
  assert.equal(one.bpn, a.bpn);
  one.free();
  a.free();
});

test('readRecords: several games, as ball replay reads them', { skip: NO_TOOL }, () => {
  const games = [randomGame(21n, 80), randomGame(22n, 10, { rules: 'turns=3' }), randomGame(23n, 0)];
  const text = '\n' + games.map(({ game }) => game.record).join('\n') + '\n\n';
  const dir = mkdtempSync(join(tmpdir(), 'libball-record-'));
  try {
    const file = join(dir, 'games.rec');
    writeFileSync(file, text);
    const r = tool(['replay', file]);
    assert.equal(r.status, 0, r.stderr);
    const read = ball.readRecords(text);
    assert.equal(read.length, 3);
    assert.deepEqual(read.map((g) => `${g.bpn}\t${{ ongoing: '*', atk_won: '1-0', def_won: '0-1', draw: '1/2-1/2' }[g.result]}`),
      r.stdout.trim().split('\n'));
    read.forEach((g, i) => assert.deepEqual(g.history().map(String), games[i].played));
    for (const g of [...read, ...games.map((x) => x.game)])
      g.free();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(ball.readRecords(''), []);
  assert.deepEqual(ball.readRecords('\n  \n'), []);
});

test('bad records: BallError with the line, the column and the reason, as ball replay says', { skip: NO_TOOL }, () => {
  const bad = [
    ['[Result "*"]\n\n1. DEF: E11-F10 G5-G6\n*\n', ErrorCode.NOTATION],
    ['[Result "*"]\n\n1. DEF: E11-F10 G5-H6\n*\n', ErrorCode.ILLEGAL],
    ['[Event "x"]\n\n1. DEF: end\n*\n', ErrorCode.RECORD],
    ['[Result "*"]\n\n1. DEF: end\n', ErrorCode.RECORD],
    ['[Rules "zone=9"]\n[Result "*"]\n\n*\n', ErrorCode.RULES],
    ['[Start "7/6"]\n[Result "*"]\n\n*\n', ErrorCode.BPN],
  ];
  const dir = mkdtempSync(join(tmpdir(), 'libball-record-'));
  const live = ball.liveGames;
  try {
    for (const [text, code] of bad) {
      const file = join(dir, 'bad.rec');
      // a good game first: it is freed when the second one fails
      const good = '[Result "*"]\n\n1. DEF: E11-F10\n*\n\n';
      writeFileSync(file, good + text);
      const r = tool(['replay', file]);
      assert.equal(r.status, 2, r.stdout);
      assert.throws(() => ball.readRecords(good + text), (e) => {
        assert.equal(e.code, code, `${text}: ${e.message}`);
        assert.ok(r.stderr.trim().endsWith(`game 2: ${e.message}`), `${e.message} / ${r.stderr}`);
        assert.match(e.message, /^line \d+, column \d+: /);
        return true;
      });
      assert.equal(ball.liveGames, live, 'nothing left allocated');
      assert.throws(() => Game.fromRecord(text), { code });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => Game.fromRecord('\n\n'), { code: ErrorCode.RECORD, codeName: 'record',
    message: 'line 1, column 1: no game record in the text' });
  assert.throws(() => ball.readRecords(42), { code: ErrorCode.ARG });
});
