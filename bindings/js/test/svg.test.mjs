// SPDX-License-Identifier: MIT
// The pictures of a position: Game.svg() is ball_position_to_svg (the same
// text as the native `ball svg`, with its highlight and arrow), boardText()
// is ball_position_to_board_text (the same text as `ball show`), and bad
// options are refused with an error saying what.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ball, tool, NO_TOOL } from './helpers.mjs';

const { Game } = ball;
// A knocked-down DEF piece (the dodge of the page's scripted game, R6.2)
// and the held ball.
const DODGE = ['E11-F10', 'F10-E9', 'end', 'G7-E9/F10'];

test('svg(): the library picture, as `ball svg` draws it', { skip: NO_TOOL }, () => {
  for (const bpn of [ball.START_BPN, '7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2']) {
    const game = Game.fromBpn(bpn);
    const native = tool(['svg', bpn]);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(game.svg(), native.stdout);
    const hl = tool(['svg', '--highlight', 'G5,H6', '--action', game.legalActions()[0].text, bpn]);
    assert.equal(hl.status, 0, hl.stderr);
    assert.equal(game.svg({ highlight: ['G5', 'H6'], arrow: game.legalActions()[0] }), hl.stdout);
    assert.equal(game.svg({ highlight: ['G5', 'H6'], arrow: game.legalActions()[0].text }), hl.stdout);
    game.free();
  }
});

test('svg(): its classes name every piece and mark (R12: down, stacks, the ball)', () => {
  const game = new Game();
  DODGE.forEach((a) => game.apply(a));
  const svg = game.svg();
  assert.equal((svg.match(/<g class="piece def [xos] down"/g) ?? []).length, 1);
  assert.equal((svg.match(/<g class="piece atk x ball"/g) ?? []).length, 1);
  assert.match(svg, /^<\?xml version="1\.0"/);
  assert.match(svg, /<\/svg>\n$/);
  const pieces = svg.match(/<g class="piece /g) ?? [];
  const expected = game.board().reduce((n, s) => n + (s.stack ? 2 : s.upper ? 1 : 0), 0);
  assert.equal(pieces.length, expected);
  assert.equal(game.svg({ coords: false }).includes('class="coords"'), false);
  assert.equal(svg.includes('class="coords"'), true);
  game.free();
});

test('boardText(): the text diagram of `ball show`, with highlights and the legend', { skip: NO_TOOL }, () => {
  const game = new Game();
  const text = game.boardText();
  assert.match(text, /ATK scores in row 17/);
  assert.ok(text.split('\n').every((l) => l.length <= 80));
  const legend = game.boardText({ legend: true });
  assert.ok(legend.startsWith(text));
  assert.ok(legend.length > text.length);
  const hl = game.boardText({ highlight: ['G5'] });
  assert.match(hl, />X\*/);
  game.free();
});

test('svg() and boardText(): bad options are refused, saying what', () => {
  const game = new Game();
  assert.throws(() => game.svg(null), { codeName: 'arg', message: /options is an object/ });
  assert.throws(() => game.svg({ highlight: 'G5' }), { codeName: 'arg', message: /highlight is an array/ });
  assert.throws(() => game.svg({ highlight: ['Z9'] }), { codeName: 'notation', message: /not a playable square/ });
  assert.throws(() => game.svg({ highlight: [111] }), { codeName: 'range' });
  assert.throws(() => game.svg({ arrow: 'Q1-Q2' }), { codeName: 'notation' });
  assert.throws(() => game.boardText({ highlight: [-1] }), { codeName: 'range' });
  assert.throws(() => game.boardText(7), { codeName: 'arg' });
  assert.equal(game.bpn, ball.START_BPN);
  game.free();
});
