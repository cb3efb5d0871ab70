// SPDX-License-Identifier: MIT
// perft from the standard start (N3), against docs/spec.md and the native tool.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ball, tool, NO_TOOL } from './helpers.mjs';

const EXPECTED = [1n, 55n, 3238n, 16283n, 761170n];

test('perft 0-4 from the standard start', () => {
  const game = new ball.Game();
  for (let d = 0; d <= 4; d++)
    assert.equal(game.perft(d), EXPECTED[d], `perft ${d}`);
  assert.equal(game.bpn, ball.START_BPN, 'perft leaves the game unchanged');
  game.free();
});

test('perft 3 after a few decisions equals the native tool', { skip: NO_TOOL }, () => {
  const game = new ball.Game();
  for (const a of ['E11-F10', 'F10-E9', 'end', 'G7-E9/F10'])
    game.apply(a);
  const out = tool(['perft', '3', game.bpn]);
  assert.equal(out.status, 0, out.stderr);
  assert.equal(String(game.perft(3)), out.stdout.trim().split(/\s+/).pop());
  game.free();
});

test('perft refuses a bad depth', () => {
  const game = new ball.Game();
  assert.throws(() => game.perft(-1), { name: 'BallError', codeName: 'range' });
  assert.throws(() => game.perft(65), { name: 'BallError', codeName: 'range' });
  assert.throws(() => game.perft(1.5), { name: 'BallError', codeName: 'arg' });
  game.free();
});
