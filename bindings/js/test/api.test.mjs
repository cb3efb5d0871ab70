// SPDX-License-Identifier: MIT
// Every function of the module, exercised: the API object, Game, Action,
// Selection. The last test checks that no member was added without being
// listed (and so tested) here (applyIndex, randomApply and randomPlayout:
// test/crossings.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as mod from '../libball.mjs';
import { ball, DODGE_BPN, RELEASE_BPN } from './helpers.mjs';

const { Game, Action, Selection, MCTS } = ball;

// docs/spec.md, N2 worked example: each decision and the BPN after it.
const WORKED = [
  ['E11-F10', '7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1'],
  ['F10-E9', '7/6/3s3/6/3x3/6/1o1sxo1/6/2x4/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 0 - 0/0 1'],
  ['end', '7/6/3s3/6/3x3/6/1o1sxo1/6/2x4/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2'],
  ['G7-E9/F10', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/2x_4/6/1OX1XO1/6/3X*3/6/3S3/6/7 ATK a 1 - 0/0 2'],
  ['G5-H6', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/2x_4/6/1OX1XO1/3X*2/7/6/3S3/6/7 ATK a 0 - 0/0 2'],
  ['H6=I7', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/2x_4/6/1OX1X*O1/3X2/7/6/3S3/6/7 ATK a 0 h 0/0 2'],
  ['end', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/2x_4/6/1OX1X*O1/3X2/7/6/3S3/6/7 DEF a 2 - 0/0 3'],
  ['end', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/2x_4/6/1OX1X*O1/3X2/7/6/3S3/6/7 DEF r 0 - 0/0 3'],
  ['E9-F8', '7/6/3s3/6/3x3/6/1o1sxo1/2S3/7/2x3/1OX1X*O1/3X2/7/6/3S3/6/7 ATK a 2 - 0/0 4'],
];

test('module exports', async () => {
  assert.equal(mod.default, mod.load);
  assert.equal(mod.START_BPN, mod.constants.START_BPN);
  assert.equal(mod.ErrorCode.ILLEGAL, -5);
  assert.ok(Object.isFrozen(mod.constants));
  const other = await mod.load({ url: new URL('../wasm/ball.mjs', import.meta.url) });
  assert.notEqual(other.native, ball.native, 'each load() is its own instance');
  const factory = (await import('../wasm/ball.mjs')).default;
  const bound = mod.bind(await factory());
  assert.equal(bound.version, ball.version);
  const third = await mod.load({ factory });
  assert.equal(new third.Game().perft(2), 3238n);
  await assert.rejects(mod.load({ url: 'file:///nonexistent/ball.mjs' }),
    /cannot load the WebAssembly module .*make wasm/);
  const next = mod.xorshift64(1n);
  const a = next();
  assert.equal(typeof a, 'bigint');
  assert.ok(a > 0n && a < 2n ** 64n && next() !== a);
  assert.equal(mod.xorshift64(0n)(), mod.xorshift64()(), 'seed 0 falls back to the default seed');
  assert.deepEqual(['end', 'G13-G11', 'A15-B16', 'G9-G11', 'pe+10', 'pe+2', 'card1@H8', 'card1']
    .sort(mod.compareActionTexts),
  ['G9-G11', 'G13-G11', 'A15-B16', 'card1', 'card1@H8', 'end', 'pe+2', 'pe+10']);
  assert.equal(mod.compareActionTexts('pe+02', 'pe+2'), -1, 'bytes break ties');
  assert.equal(mod.compareActionTexts('G9', 'G9'), 0);
});

test('library facts, squares and helpers', () => {
  assert.match(ball.version, /^1\.\d+\.\d+$/);
  assert.equal(ball.versionNumber, 10000 + Number(ball.version.split('.')[1]) * 100 +
    Number(ball.version.split('.')[2]));
  assert.equal(ball.START_BPN, mod.START_BPN);
  assert.equal(ball.constants, mod.constants);
  assert.equal(ball.ErrorCode, mod.ErrorCode);
  assert.equal(ball.BallError, mod.BallError);
  assert.equal(ball.compareActionTexts, mod.compareActionTexts);
  assert.equal(ball.xorshift64, mod.xorshift64);
  assert.equal(ball.SQUARES.length, 111);
  assert.deepEqual([ball.SQUARES[0], ball.SQUARES[6], ball.SQUARES[7], ball.SQUARES[55], ball.SQUARES[110]],
    ['A1', 'M1', 'B2', 'G9', 'M17']);
  assert.equal(ball.squareIndex('G9'), 55);
  assert.equal(ball.squareIndex(55), 55);
  assert.equal(ball.squareName(110), 'M17');
  assert.equal(ball.squareName('C1'), 'C1');
  assert.equal(ball.squareAt(7, 9), 'G9');
  assert.equal(ball.squareCol('G9'), 7);
  assert.equal(ball.squareRow(ball.squareIndex('M17')), 17);
  assert.equal(ball.distance('G5', 'G9'), 4);
  assert.equal(ball.distance('A1', 'B2'), 1);
  assert.equal(ball.strerror(-3).length > 0, true);
  assert.equal(ball.strerror(-99), 'unknown error');
  assert.deepEqual(ball.EARN_ENTRIES.slice(0, 3), ['move', 'pickup', 'dodge']);
  assert.equal(ball.EARN_ENTRIES.length, ball.constants.EARN_COUNT);
  assert.equal(typeof ball.native._ball_apply, 'function');
  const r = ball.parseRules('zone=2 turns=30 earn.dodge=1 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1');
  assert.equal(r.endZoneDepth, 2);
  assert.equal(r.turnLimit, 30);
  assert.equal(r.cards.earn.dodge, 1);
  assert.deepEqual(r.cards.atk.map((c) => [c.name, c.cost, c.effect, c.amount]),
    [['Sprint', 2, 'pa+1', 1], ['Rally', 3, 'again', 0]]);
  assert.equal(r.text, 'zone=2 turns=30 earn.dodge=1 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1');
  assert.deepEqual(ball.parseRules(''), { endZoneDepth: 1, turnLimit: 0, cards: null, text: '' });
  assert.deepEqual(ball.parseRules(null), ball.parseRules(''));
  assert.equal(ball.parseRules({ turnLimit: 60, cards: { earn: { block: 2 } } }).text,
    'turns=60 earn.block=2');
  assert.equal(ball.parseRules({ cards: {} }).text, 'cards');
  const m = ball.memory();
  assert.ok(m.heapSize >= 16 * 1024 * 1024 && m.allocated > 0 && m.allocated < m.heapSize);
});

test('the worked example of docs/spec.md, decision by decision', () => {
  const game = new Game();
  assert.equal(game.bpn, ball.START_BPN);
  for (const [text, bpn] of WORKED) {
    const a = game.apply(text);
    assert.ok(a instanceof Action);
    assert.equal(a.text, text);
    assert.equal(game.bpn, bpn, `after ${text}`);
  }
  assert.equal(game.historyLength, WORKED.length);
  for (let i = WORKED.length - 1; i >= 0; i--) {
    game.undo();
    assert.equal(game.bpn, i ? WORKED[i - 1][1] : ball.START_BPN);
  }
  game.free();
});

test('reading the position', () => {
  const game = new Game();
  assert.equal(game.side, 'DEF');
  assert.equal(game.phase, 'action');
  assert.equal(game.pa, 2);
  assert.equal(game.handoffLast, false);
  assert.equal(game.turn, 1);
  assert.equal(game.result, 'ongoing');
  assert.equal(game.isOver, false);
  assert.equal(game.winner, null);
  assert.equal(game.ballSquare, 'G5');
  assert.equal(game.restrictedSquare, null);
  assert.deepEqual(game.pe, { ATK: 0, DEF: 0 });
  assert.deepEqual(game.hands, { ATK: [], DEF: [] });
  assert.equal(typeof game.hash, 'bigint');
  const h = game.hash;
  game.apply('E11-F10');
  assert.notEqual(game.hash, h);
  game.undo();
  assert.equal(game.hash, h);
  const g5 = game.square('G5');
  assert.deepEqual([g5.square, g5.index, g5.text, g5.hasBall, g5.open, g5.vacant, g5.stack, g5.looseBall, g5.fresh],
    ['G5', 29, 'X*', true, false, false, false, false, false]);
  assert.deepEqual(game.piece('G5'), g5.upper);
  assert.deepEqual({ ...game.piece('G5') }, { code: 33, team: 'ATK', type: 'X', down: false, restricted: false,
    hasBall: true, stacked: false, active: true, text: 'X*' });
  assert.equal(game.piece('G5', 'lower'), null);
  assert.equal(game.piece('A1'), null);
  assert.equal(game.piece('G15', 1), null);
  assert.equal(game.piece('G15', 0).text, 's');
  assert.equal(game.square('A1').vacant, true);
  const board = game.board();
  assert.equal(board.length, 111);
  assert.equal(board.filter((s) => s.upper).length, 14);
  assert.equal(board.map((s) => s.text).join('').replace(/\./g, ''), 'SX*OXSXOoxsxoxs');
  const diagram = game.diagram();
  assert.equal(diagram.split('\n').length, 18);
  assert.match(diagram, /^ 5 {2}\. {11}\. {11}\. {11}X\*/m);
  assert.equal(String(game), diagram);
  // knocked down, restricted, stacks, the loose ball
  const g2 = new Game('7/6/7/6/7/6/7/2OS2/3[X*o]+3/2x_3/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  const stack = g2.square('G9');
  assert.equal(stack.text, '[X*o]+');
  assert.equal(stack.stack && stack.fresh, true);
  assert.equal(stack.lower.team, 'DEF');
  assert.equal(stack.upper.stacked && stack.lower.stacked, true);
  assert.equal(stack.upper.active, false);
  assert.equal(g2.square('F8').upper.down, true);
  assert.equal(g2.square('F8').text, 'x_');
  assert.equal(g2.square('A7').looseBall, false);
  const g3 = new Game('7/6/7/6/7/6/7/6/7/6/7/6/@6/6/7/6/7 ATK a 2 - 0/0 2');
  assert.equal(g3.square('A5').text, '@');
  assert.equal(g3.square('A5').looseBall && g3.square('A5').open && !g3.square('A5').vacant, true);
  assert.equal(g3.ballSquare, 'A5');
  const g4 = new Game('7/6/7/6/7/6/7/6/7/3S*!2/7/6/7/6/7/6/7 ATK a 1 - 0/0 2');
  assert.equal(g4.restrictedSquare, 'H8');
  assert.equal(g4.piece('H8').restricted, true);
  assert.equal(g4.piece('H8').text, 'S*!');
  const g5game = new Game('7/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 1'.replace('7 DEF', '@6 DEF'));
  assert.equal(g5game.ballSquare, 'A1');
  for (const g of [game, g2, g3, g4, g5game])
    g.free();
});

test('game creation: BPN, rules text and object, clone, rules getter', () => {
  const a = new Game({ bpn: DODGE_BPN, rules: 'zone=2 turns=30' });
  assert.equal(a.bpn, DODGE_BPN);
  assert.deepEqual(a.rules, { endZoneDepth: 2, turnLimit: 30, cards: null, text: 'zone=2 turns=30' });
  const b = Game.fromBpn(DODGE_BPN, { endZoneDepth: 3 });
  assert.equal(b.rules.endZoneDepth, 3);
  assert.equal(b.rules.text, 'zone=3');
  const c = new Game({ endZoneDepth: 2, turnLimit: 10 });
  assert.equal(c.rules.text, 'zone=2 turns=10');
  const again = new Game({ rules: new Game({ rules: 'zone=3 earn.move=1 atk=Rally:1:again' }).rules });
  assert.equal(again.rules.text, 'zone=3 earn.move=1 atk=Rally:1:again', 'game.rules gives a game the same rules');
  again.free();
  assert.equal(new Game({}).rules.text, '');
  const d = a.clone();
  a.apply('G9-I11/H10');
  assert.equal(d.bpn, DODGE_BPN, 'a clone is independent');
  assert.equal(d.rules.text, 'zone=2 turns=30');
  d.apply('G9-I11/J12');
  d.undo();
  assert.equal(d.historyLength, 0);
  const e = a.clone();
  assert.equal(e.historyLength, 1, 'a clone has the history');
  e.undo();
  assert.equal(e.bpn, DODGE_BPN);
  for (const g of [a, b, c, d, e])
    g.free();
});

test('actions: accessors, interning, legal lists, random, perft', () => {
  const game = new Game(DODGE_BPN);
  const list = game.legalActions();
  assert.equal(list.length, game.countLegalActions());
  list.forEach((a, i) => assert.equal(game.legalAction(i), a));
  assert.equal(new Set(list).size, list.length);
  const dodge = game.parseAction('G9-I11/H10');
  assert.equal(dodge, list.find((a) => a.text === 'G9-I11/H10'), 'interned: the same object');
  assert.equal(Action.fromCode(dodge.code), dodge);
  assert.equal(Action.fromCode(dodge), dodge);
  assert.deepEqual([dodge.kind, dodge.from, dodge.to, dodge.option, dodge.keeper, dodge.cost, dodge.value],
    ['dodge', 'G9', 'I11', 'H10', 'none', 1, null]);
  assert.deepEqual([dodge.flags, dodge.pickup, dodge.forcedFumble, dodge.fumble], [0, false, false, false]);
  assert.equal(String(dodge), 'G9-I11/H10');
  assert.equal(JSON.stringify({ a: dodge }), '{"a":"G9-I11/H10"}');
  assert.ok(dodge.equals('G9-I11/H10') && dodge.equals(dodge.code) && dodge.equals(dodge));
  assert.ok(!dodge.equals('end') && !dodge.equals(list.find((a) => a.text === 'end')));
  assert.ok(Object.isFrozen(dodge));
  const end = game.parseAction('end');
  assert.deepEqual([end.kind, end.from, end.to, end.option, end.cost], ['end', null, null, null, 0]);
  assert.equal(game.isLegal('G9-I11/H10'), true);
  assert.equal(game.isLegal(dodge), true);
  assert.equal(game.isLegal(dodge.code), true);
  assert.equal(game.isLegal('A1-A3'), false);
  const pickup = new Game('7/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/2@S3 ATK a 2 - 0/0 2').parseAction('G1-E1');
  assert.equal(pickup.pickup, true);
  // random decisions: the same number gives the same decision
  assert.equal(game.randomAction(12345n), game.randomAction(12345n));
  assert.ok(list.includes(game.randomAction()));
  assert.equal(game.randomAction(0n), game.randomAction(0n));
  assert.ok(list.includes(game.randomAction(2n ** 64n - 1n)));
  assert.equal(game.perft(1), BigInt(list.length));
  game.reserveHistory(100);
  assert.equal(game.apply(dodge.code), dodge);
  assert.equal(game.apply(game.legalActions({ sorted: true })[0]).kind !== undefined, true);
  game.undo();
  game.undo();
  assert.equal(game.bpn, DODGE_BPN);
  game.free();
  // a pass and a hand-off
  const g = new Game(WORKED[2][1]);
  const pass = g.apply('G5^H8');
  assert.deepEqual([pass.kind, pass.from, pass.to, pass.cost], ['short_pass', 'G5', 'H8', 1]);
  assert.equal(g.square('H8').looseBall, true);
  g.undo();
  assert.equal(g.parseAction('G5^^A17').kind, 'long_pass');
  assert.equal(g.parseAction('G5^^A17').cost, 2);
  g.free();
  const h = new Game(WORKED[4][1]);
  assert.equal(h.apply('H6=I7').kind, 'handoff');
  assert.equal(h.handoffLast, true);
  h.free();
});

test('the release phase: tasks, solutions, keeper, stand-up', () => {
  const game = new Game(RELEASE_BPN);
  assert.deepEqual(game.releaseTasks(), []);
  game.apply('end');
  assert.equal(game.phase, 'release');
  assert.equal(game.pa, 0);
  const tasks = game.releaseTasks();
  assert.deepEqual(tasks, [{ square: 'G9', kind: 'release', solvable: true }]);
  const sols = game.taskSolutions('G9');
  assert.ok(sols.length > 0);
  assert.ok(sols.every((a) => a.kind === 'unblock' && a.from === 'G9'));
  assert.deepEqual(new Set(sols.map((a) => a.keeper)), new Set(['upper', 'lower']));
  const s = game.parseAction('G9-H8/F8=F8');
  assert.deepEqual([s.kind, s.from, s.to, s.option, s.keeper], ['unblock', 'G9', 'H8', 'F8', 'lower']);
  assert.deepEqual(game.legalActions().map(String).sort(), sols.map(String).sort());
  game.apply(s);
  assert.equal(game.side, 'DEF');
  assert.equal(game.piece('F8').hasBall, true);
  assert.equal(game.piece('F8').team, 'DEF');
  game.free();
  // a stand-up task (docs/spec.md: DEF's x on E9)
  const g = new Game(WORKED[7][1]);
  assert.deepEqual(g.releaseTasks(), [{ square: 'E9', kind: 'stand_up', solvable: true }]);
  assert.deepEqual(g.taskSolutions('E9').map(String), ['E9-D8', 'E9-F8', 'E9-D10']);
  assert.equal(g.apply('E9-F8').kind, 'stand_up');
  g.free();
});

test('step-by-step selection (R12): select() and Selection', () => {
  const game = new Game(DODGE_BPN);
  assert.deepEqual(game.select([]), { choices: ['G9'], action: null });
  assert.deepEqual(game.select(['G9']), { choices: ['-'], action: null });
  const dest = game.select(['G9', '-']);
  assert.ok(dest.choices.includes('I11'));
  assert.deepEqual(game.select(['G9', 'move', 'I11']).choices, ['H10', 'J10', 'H12', 'J12']);
  assert.deepEqual(game.select([55, 1, 'I11']).choices, ['H10', 'J10', 'H12', 'J12']);
  const whole = game.select(['G9', '-', 'I11', 'J12']);
  assert.deepEqual(whole.choices, []);
  assert.equal(whole.action.text, 'G9-I11/J12');
  let sel = game.selection();
  assert.ok(sel instanceof Selection);
  assert.equal(sel.game, game);
  assert.deepEqual([sel.step, sel.complete, sel.action], [0, false, null]);
  sel = sel.choose('G9').choose('-').choose('I11');
  assert.deepEqual(sel.chosen, ['G9', '-', 'I11']);
  assert.deepEqual(sel.choices, ['H10', 'J10', 'H12', 'J12']);
  assert.equal(sel.back().step, 2);
  const done = sel.choose('H12');
  assert.equal(done.complete, true);
  assert.equal(done.action.text, 'G9-I11/H12');
  assert.equal(done.cancel().step, 0);
  assert.ok(Object.isFrozen(done) && Object.isFrozen(done.chosen));
  assert.throws(() => sel.choose('A1'), { codeName: 'illegal' });
  assert.equal(game.bpn, DODGE_BPN, 'selecting never changes the game');
  game.free();
  // a carrier has several verbs; a tactical dodge asks for a push square
  const t = new Game('7/6/7/6/7/6/7/3x2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  assert.deepEqual(t.select(['G9']).choices, ['-', '^^']);
  assert.deepEqual(t.select(['G9', '-', 'I11']).choices, ['G9', 'I9', 'G11']);
  const td = t.select(['G9', '-', 'I11', 'G11']).action;
  assert.equal(td.kind, 'tactical_dodge');
  assert.equal(t.select(['G9', '^^', 'A1']).action.kind, 'long_pass');
  t.free();
  // a release: U, W, then the keeper
  const r = new Game(RELEASE_BPN);
  r.apply('end');
  assert.deepEqual(r.select(['G9', '-', 'H8', 'F8']).choices, ['F8', 'H8']);
  assert.equal(r.select(['G9', '-', 'H8', 'F8', 'H8']).action.text, 'G9-H8/F8=H8');
  r.free();
});

test('card mode: rules, PE, hands, conversions and cards', () => {
  // docs/spec.md, card-mode example
  const rules = 'earn.move=1 earn.pickup=2 atk=Rally:1:again,Sprint:2:pa+1 def=Sprint:1:pa+1';
  const game = new Game({ rules });
  assert.equal(game.rules.text, rules);
  assert.equal(game.bpn, ball.START_BPN + ' 12/1');
  assert.deepEqual(game.hands.ATK.map((c) => [c.number, c.name, c.held]), [[1, 'Rally', true], [2, 'Sprint', true]]);
  game.apply('E11-F10');
  assert.deepEqual(game.pe, { ATK: 0, DEF: 1 });
  const card = game.apply('card1');
  assert.deepEqual([card.kind, card.value, card.from, card.cost], ['play_card', 0, null, 0]);
  assert.equal(game.hands.DEF[0].held, false);
  const conv = game.apply('pe+2');
  assert.deepEqual([conv.kind, conv.value, conv.cost], ['convert_pa', 2, 2]);
  for (const a of ['end', 'G5^H8', 'G7-H8'])
    game.apply(a);
  assert.equal(game.restrictedSquare, 'H8');
  assert.deepEqual(game.pe, { ATK: 3, DEF: 2 });
  assert.deepEqual(game.select(['H8']).choices, ['card']);
  assert.deepEqual(game.select(['H8', 'card']).choices, [0]);
  assert.equal(game.select(['H8', 'card', 0]).action.text, 'card1@H8');
  assert.throws(() => game.select(['H8', 'card', 'A1']), { codeName: 'arg' });
  const again = game.apply('card1@H8');
  assert.deepEqual([again.kind, again.from, again.value], ['play_card', 'H8', 0]);
  assert.equal(game.bpn, '7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/3S*2/1OX1XO1/6/3X3/6/3S3/6/7 ATK a 0 - 2/2 2 2/-');
  game.free();
  const obj = new Game({ rules: { cards: { earn: { move: 1, pickup: 2 },
    atk: [{ name: 'Rally', cost: 1, effect: 'again' }, { name: 'Sprint', cost: 2, effect: 'pa+1' }],
    def: [{ name: 'Sprint', cost: 1, effect: 'pa+1' }] } } });
  assert.equal(obj.rules.text, rules);
  obj.free();
  assert.throws(() => new Game({ rules: { cards: { earn: { jump: 1 } } } }), { codeName: 'rules' });
  assert.throws(() => new Game({ rules: { cards: { earn: { move: 1000 } } } }), { codeName: 'range' });
  assert.throws(() => new Game({ rules: { cards: { atk: [{ name: 'A', cost: 1, effect: 'fly' }] } } }),
    { codeName: 'rules' });
  assert.throws(() => new Game({ rules: { cards: { atk: [{ name: 'bad name', cost: 1, effect: 'again' }] } } }),
    { codeName: 'range' });
  assert.throws(() => new Game({ rules: { cards: { hands: [] } } }), { codeName: 'arg' });
  assert.throws(() => new Game({ rules: { cards: 'x' } }), { codeName: 'arg' });
});

test('game over: touchdown and draw', () => {
  const won = new Game('7/1X*4/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  won.apply('D16-C17');
  assert.deepEqual([won.result, won.isOver, won.winner, won.side], ['atk_won', true, 'ATK', 'ATK']);
  assert.deepEqual(won.legalActions(), []);
  assert.equal(won.countLegalActions(), 0);
  assert.equal(won.perft(1), 0n);
  won.free();
  const draw = new Game({ bpn: '7/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2', turnLimit: 2 });
  draw.apply('end');
  assert.deepEqual([draw.result, draw.isOver, draw.winner, draw.turn, draw.side], ['draw', true, null, 3, 'DEF']);
  draw.free();
});

test('freeing: free(), freed, using, liveGames', () => {
  const before = ball.liveGames;
  const g = new Game();
  assert.equal(ball.liveGames, before + 1);
  assert.equal(g.freed, false);
  const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
  g[dispose]();
  assert.equal(g.freed, true);
  assert.equal(ball.liveGames, before);
});

test('every member of the API is listed here, and so exercised above', () => {
  const own = (o) => Object.getOwnPropertyNames(o).filter((n) => n !== 'constructor' && n !== 'length' &&
    n !== 'name' && n !== 'prototype').sort();
  const symbols = Object.getOwnPropertySymbols(Game.prototype).length;
  assert.deepEqual(Object.keys(mod).sort(), ['BallError', 'ErrorCode', 'START_BPN', 'bind',
    'compareActionTexts', 'constants', 'default', 'load', 'xorshift64']);
  assert.deepEqual(Object.keys(ball).sort(), ['Action', 'BallError', 'EARN_ENTRIES', 'ErrorCode', 'Game',
    'MCTS', 'Net', 'SQUARES', 'START_BPN', 'Selection', 'TAGS', 'TurnSearch', 'compareActionTexts', 'constants', 'distance',
    'liveGames', 'liveNets', 'liveSearchers', 'memory', 'native', 'parseRules', 'readRecords', 'squareAt', 'squareCol', 'squareIndex',
    'squareName', 'squareRow', 'strerror', 'version', 'versionNumber', 'xorshift64']);
  assert.deepEqual(own(Game), ['fromBpn', 'fromRecord']);
  assert.deepEqual(own(Game.prototype), ['ballSquare', 'board', 'boardText', 'bpn', 'clone', 'countLegalActions',
    'diagram', 'free', 'freed', 'handoffLast', 'hands', 'hash', 'history', 'historyAction', 'historyLength',
    'historyPosition', 'isLegal', 'isOver', 'legalAction', 'legalActions', 'parseAction', 'pa', 'pe', 'perft',
    'phase', 'piece', 'randomAction', 'record', 'releaseTasks', 'reserveHistory', 'restrictedSquare', 'result',
    'recordWith', 'rules', 'select', 'selection', 'setTag', 'side', 'square', 'svg', 'tag', 'tags', 'taskSolutions', 'toString',
    'turn', 'undo', 'winner', 'apply', 'applyIndex', 'randomApply', 'randomPlayout'].sort());
  assert.equal(symbols, 1, 'Symbol.dispose');
  assert.deepEqual(own(Action), ['fromCode']);
  assert.deepEqual(own(Action.prototype), ['cost', 'equals', 'flags', 'forcedFumble', 'from', 'fumble',
    'keeper', 'kind', 'option', 'pickup', 'to', 'toJSON', 'toString', 'value']);
  assert.deepEqual(own(Selection.prototype), ['back', 'cancel', 'choose', 'complete', 'step']);
  // MCTS, history and records: test/mcts.test.mjs, test/record.test.mjs
  assert.deepEqual(own(MCTS), []);
  assert.deepEqual(own(MCTS.prototype), ['choose', 'free', 'freed', 'seed', 'stats']);
  assert.equal(Object.getOwnPropertySymbols(MCTS.prototype).length, 1, 'Symbol.dispose');
  assert.deepEqual(Object.keys(new MCTS({ playouts: 1 })), ['config']);
  // TurnSearch: test/turnsearch.test.mjs
  assert.deepEqual(own(ball.TurnSearch), []);
  assert.deepEqual(own(ball.TurnSearch.prototype), ['analyse', 'choose', 'clear', 'eval', 'free', 'freed']);
  assert.equal(Object.getOwnPropertySymbols(ball.TurnSearch.prototype).length, 1, 'Symbol.dispose');
  // Net: test/net.test.mjs
  assert.deepEqual(own(ball.Net), []);
  assert.deepEqual(own(ball.Net.prototype), ['evaluate', 'free', 'freed', 'size', 'users']);
  assert.equal(Object.getOwnPropertySymbols(ball.Net.prototype).length, 1, 'Symbol.dispose');
  const search = new ball.TurnSearch({ nodes: 1, hashMb: 1 });
  assert.deepEqual(Object.keys(search), ['config']);
  search.free();
  assert.deepEqual(Object.keys(mod.ErrorCode), ['OK', 'ARG', 'NOMEM', 'BPN', 'NOTATION', 'ILLEGAL', 'BUFFER',
    'RANGE', 'NO_HISTORY', 'RULES', 'LIMIT', 'RECORD']);
});
