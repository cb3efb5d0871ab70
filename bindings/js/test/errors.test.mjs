// SPDX-License-Identifier: MIT
// Errors are BallError objects carrying the library's code and message:
// the same message the native tool prints.
import test from 'node:test';
import assert from 'node:assert/strict';
import { BallError, ErrorCode } from '../libball.mjs';
import { ball, tool, NO_TOOL } from './helpers.mjs';

const START = ball.START_BPN;

const BAD_BPNS = [
  'bad',
  START + ' x',
  '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3*/6/3S3/6/7 DEF a 2 - 0/0 1',
  '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 3 - 0/0 1',
  '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X3/6/3S3/6/7 DEF a 2 - 0/0 1',
  '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 0',
  '',
];

test('a bad BPN throws BallError "bpn" with the library message, game unchanged', () => {
  const game = new ball.Game();
  game.apply('E11-F10');
  const before = game.bpn;
  for (const bad of BAD_BPNS) {
    assert.throws(() => { game.bpn = bad; }, (e) => {
      assert.ok(e instanceof BallError && e instanceof Error);
      assert.equal(e.name, 'BallError');
      assert.equal(e.code, ErrorCode.BPN);
      assert.equal(e.codeName, 'bpn');
      assert.match(e.message, /^BPN: ./, `message of ${JSON.stringify(bad)}`);
      return true;
    });
    assert.equal(game.bpn, before, 'position unchanged');
    assert.equal(game.historyLength, 1, 'history unchanged');
  }
  assert.throws(() => new ball.Game('bad'), { code: ErrorCode.BPN, message: 'BPN: 1 field, expected 7' });
  assert.throws(() => { game.bpn = 42; }, { code: ErrorCode.ARG });
  game.free();
});

test('bad BPN messages are those of the native tool', { skip: NO_TOOL }, () => {
  const game = new ball.Game();
  for (const bad of BAD_BPNS.filter((b) => b !== '')) {
    let message;
    try { game.bpn = bad; } catch (e) { message = e.message; }
    const out = tool(['show', bad]);
    assert.equal(out.status, 2);
    assert.ok(out.stderr.trimEnd().endsWith(message), `${out.stderr} vs ${message}`);
  }
  game.free();
});

const BAD_ACTIONS = [
  ['g5-f6', ErrorCode.NOTATION, "action 'g5-f6': expected a square such as G5 at character 1"],
  ['G05-F6', ErrorCode.NOTATION, null],
  ['B1-C2', ErrorCode.NOTATION, null],
  ['G5^^^G11', ErrorCode.NOTATION, null],
  ['card0', ErrorCode.NOTATION, null],
  ['', ErrorCode.NOTATION, null],
  ['G5-F6', ErrorCode.ILLEGAL, 'G5-F6: no piece of DEF on G5'],
  ['E11-E15', ErrorCode.ILLEGAL, null],
  ['pe+1', ErrorCode.ILLEGAL, null],
];

test('a bad action text throws with the message: notation (malformed) or illegal', () => {
  const game = new ball.Game();
  for (const [text, code, message] of BAD_ACTIONS) {
    for (const call of [() => game.apply(text), () => game.parseAction(text)]) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof BallError);
        assert.equal(e.code, code, `${text}: ${e.message}`);
        assert.equal(e.codeName, code === ErrorCode.NOTATION ? 'notation' : 'illegal');
        assert.ok(e.message.length > 0 && e.message !== ball.strerror(code), e.message);
        if (message)
          assert.equal(e.message, message);
        return true;
      });
    }
    assert.equal(game.isLegal(text), false);
  }
  assert.equal(game.bpn, START);
  assert.equal(game.historyLength, 0);
  game.free();
});

test('bad action messages are those of the native tool', { skip: NO_TOOL }, () => {
  const game = new ball.Game();
  for (const [text] of BAD_ACTIONS.filter(([t]) => t !== '')) {
    let message;
    try { game.apply(text); } catch (e) { message = e.message; }
    const out = tool(['apply', START, text]);
    assert.equal(out.status, 2);
    // the library's reason, after the action that each names in its own
    // way (the tool numbers it: "action 1 'g5-f6': ...")
    assert.ok(message.includes(': '), message);
    const reason = message.slice(message.indexOf(': ') + 2);
    assert.ok(out.stderr.trimEnd().endsWith(`: ${reason}`), `${out.stderr} vs ${reason}`);
  }
  game.free();
});

test('other errors: rules, undo, range, arguments, a freed game', () => {
  assert.throws(() => new ball.Game({ rules: 'zone=5' }), (e) => {
    assert.equal(e.code, ErrorCode.RULES);
    assert.match(e.message, /zone=5/);
    return true;
  });
  assert.throws(() => new ball.Game({ rules: { endZoneDepth: 4 } }),
    { code: ErrorCode.RANGE, message: /1-3|1 to 3|depth/ });
  assert.throws(() => new ball.Game({ endZoneDepth: 1.5 }), { code: ErrorCode.ARG });
  assert.throws(() => new ball.Game({ rules: { zone: 2 } }), { code: ErrorCode.ARG });
  assert.throws(() => new ball.Game({ colour: 'red' }), { code: ErrorCode.ARG });
  assert.throws(() => new ball.Game({ rules: 'zone=2', turnLimit: 3 }), { code: ErrorCode.ARG, message: /not both/ });
  assert.throws(() => new ball.Game(7), { code: ErrorCode.ARG });
  assert.throws(() => new ball.Game({ rules: 7 }), { code: ErrorCode.ARG });
  const game = new ball.Game();
  assert.throws(() => game.undo(), { code: ErrorCode.NO_HISTORY, codeName: 'no_history' });
  assert.throws(() => game.square('Z9'), { code: ErrorCode.NOTATION });
  assert.throws(() => game.square(111), { code: ErrorCode.RANGE });
  assert.throws(() => game.square(null), { code: ErrorCode.ARG });
  assert.throws(() => game.piece('G5', 'middle'), { code: ErrorCode.ARG });
  assert.throws(() => game.apply(0), { code: ErrorCode.ARG });
  assert.throws(() => game.apply({}), { code: ErrorCode.ARG });
  assert.throws(() => game.randomAction(-1n), { code: ErrorCode.ARG });
  assert.throws(() => game.randomAction(2n ** 64n), { code: ErrorCode.ARG });
  assert.throws(() => game.randomAction(5), { code: ErrorCode.ARG });
  assert.throws(() => game.legalAction(55), { code: ErrorCode.RANGE });
  assert.throws(() => game.legalAction(-1), { code: ErrorCode.RANGE });
  assert.throws(() => game.legalAction('1'), { code: ErrorCode.ARG });
  assert.throws(() => game.taskSolutions('G5'), { code: ErrorCode.ILLEGAL });
  assert.throws(() => game.select(['G5', '-', 'G6']), { code: ErrorCode.NOTATION });
  assert.throws(() => game.select(['G5', 'jump']), { code: ErrorCode.NOTATION });
  assert.throws(() => game.select(['A1']), { code: ErrorCode.ILLEGAL });
  assert.throws(() => game.select([1, 2, 3, 4, 5, 6]), { code: ErrorCode.ARG });
  assert.throws(() => game.reserveHistory(-1), { code: ErrorCode.RANGE });
  assert.throws(() => ball.Action.fromCode(0), { code: ErrorCode.ARG });
  assert.throws(() => ball.Action.fromCode(0xffffffff), { code: ErrorCode.ARG });
  assert.throws(() => ball.squareAt(2, 1), { code: ErrorCode.RANGE });
  assert.equal(ball.strerror(ErrorCode.ILLEGAL), 'illegal action');
  game.free();
  assert.throws(() => game.bpn, { code: ErrorCode.ARG, message: 'the game has been freed' });
  assert.throws(() => game.apply('end'), { code: ErrorCode.ARG });
  game.free(); // twice is harmless
  const over = new ball.Game({ bpn: 'X*6/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' });
  assert.equal(over.result, 'atk_won');
  assert.throws(() => over.randomAction(1n), { code: ErrorCode.RANGE });
  over.free();
});
