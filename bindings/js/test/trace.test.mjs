// SPDX-License-Identifier: MIT
// A seeded random game played through the binding gives, line for line,
// what the native tool prints: `ball trace` reads the same decisions and
// prints "BPN<TAB>legal decisions" (in its square order) before and after
// each one.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ball, tool, NO_TOOL } from './helpers.mjs';

const line = (game) =>
  game.bpn + '\t' + game.legalActions({ sorted: true }).map(String).join(' ');

function play(seed, maxDecisions, { args = [], bpn, rules } = {}) {
  const next = ball.xorshift64(seed);
  const game = new ball.Game({ bpn, rules });
  const played = [];
  const lines = [line(game)];
  while (played.length < maxDecisions && !game.isOver) {
    played.push(game.apply(game.randomAction(next())).text);
    lines.push(line(game));
  }
  for (let i = 0; i < played.length; i++)
    game.undo();
  assert.equal(line(game), lines[0], 'undone back to the start, bit for bit');
  assert.throws(() => game.undo(), { codeName: 'no_history' });
  game.free();
  const out = tool([...args, 'trace', ...(bpn ? [bpn] : [])], played.join('\n') + '\n');
  assert.equal(out.status, 0, out.stderr);
  const want = out.stdout.split('\n').filter((l) => l !== '');
  assert.equal(want.length, lines.length, 'as many lines as the tool');
  for (let i = 0; i < lines.length; i++)
    assert.equal(lines[i], want[i], `line ${i}, after ${i ? played[i - 1] : '(start)'}`);
  return played;
}

test('seeded random game = ball trace, line for line', { skip: NO_TOOL }, () => {
  const played = play(2024n, 600);
  assert.ok(played.length > 50, `${played.length} decisions`);
});

test('seeded random game with a turn limit and deep end zones = ball trace', { skip: NO_TOOL }, () => {
  play(7n, 400, { args: ['--depth-zone', '2', '--turn-limit', '30'],
    rules: { endZoneDepth: 2, turnLimit: 30 } });
});

test('seeded random game in card mode = ball trace', { skip: NO_TOOL }, () => {
  const rules = 'earn.move=1 earn.pickup=2 atk=Rally:1:again,Sprint:2:pa+1 def=Sprint:1:pa+1';
  play(99n, 300, { args: ['--rules', rules], rules });
});

test('legal decisions in the tool order = ball legal', { skip: NO_TOOL }, () => {
  const game = new ball.Game();
  for (const a of ['E11-F10', 'F10-E9', 'end', 'G7-E9/F10', 'G5-H6'])
    game.apply(a);
  const out = tool(['legal', game.bpn]);
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(game.legalActions({ sorted: true }).map(String), out.stdout.trim().split('\n'));
  game.free();
});
