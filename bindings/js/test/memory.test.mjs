// SPDX-License-Identifier: MIT
// Memory: games freed with free() give their wasm memory back (no leak
// over 10,000 games, measured on the wasm heap), and games that are
// dropped without free() are freed by the FinalizationRegistry once
// collected (run node with --expose-gc for that part).
import test from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { ball } from './helpers.mjs';

// One game: random decisions (enough to grow the undo history past its
// first allocation), sometimes a clone, a BPN round trip, then free().
function oneGame(next, i) {
  const game = new ball.Game(i % 7 === 0 ? { rules: 'zone=2 turns=20' } : undefined);
  const n = 20 + Number(next() % 60n);
  for (let d = 0; d < n && !game.isOver; d++)
    game.apply(game.randomAction(next()));
  if (i % 10 === 0) {
    const copy = game.clone();
    copy.bpn = game.bpn;
    copy.free();
  }
  game.legalActions();
  game.free();
}

test('no leak over 10,000 games (the wasm heap in use comes back)', () => {
  const next = ball.xorshift64(42n);
  for (let i = 0; i < 200; i++) // warm-up: the allocator's own structures
    oneGame(next, i);
  const live = ball.liveGames;
  const before = ball.memory();
  const t = Date.now();
  for (let i = 0; i < 10000; i++)
    oneGame(next, i);
  const after = ball.memory();
  console.log(`# 10,000 games in ${Date.now() - t} ms; wasm heap in use ${before.allocated} -> ` +
    `${after.allocated} bytes, memory ${before.heapSize} -> ${after.heapSize} bytes`);
  assert.equal(ball.liveGames, live, 'every game freed');
  assert.ok(after.allocated <= before.allocated + 4096,
    `heap in use grew from ${before.allocated} to ${after.allocated} bytes`);
  assert.equal(after.heapSize, before.heapSize, 'the wasm memory did not grow');
});

test('the heap measure sees a leak (games not freed)', () => {
  const before = ball.memory().allocated;
  const kept = Array.from({ length: 100 }, () => new ball.Game());
  const grown = ball.memory().allocated - before;
  assert.ok(grown >= 100 * 64, `100 games hold ${grown} bytes`);
  for (const g of kept)
    g.free();
  assert.ok(ball.memory().allocated <= before + 256);
});

test('games dropped without free() are freed by the FinalizationRegistry',
  { skip: typeof globalThis.gc !== 'function' && 'needs node --expose-gc' }, async () => {
    const live = ball.liveGames;
    const before = ball.memory().allocated;
    (() => {
      for (let i = 0; i < 500; i++) {
        const g = new ball.Game();
        g.apply('E11-F10');
      }
    })();
    assert.equal(ball.liveGames, live + 500);
    for (let round = 0; round < 50 && ball.liveGames > live; round++) {
      globalThis.gc();
      await tick();
    }
    assert.equal(ball.liveGames, live, 'all collected games freed');
    assert.ok(ball.memory().allocated <= before + 256);
  });

test('a fresh game\'s footprint on the wasm heap (docs/web.md, "Memory")', () => {
  // docs/web.md gives the figure and the number of games dropped without
  // free() that fill the 2 GiB of wasm memory; this keeps them honest.
  const before = ball.memory().allocated;
  const kept = Array.from({ length: 1000 }, () => new ball.Game());
  const perGame = (ball.memory().allocated - before) / 1000;
  for (const g of kept)
    g.free();
  console.log(`# ${perGame} bytes of wasm heap per fresh game; 2 GiB hold ${Math.floor(2 ** 31 / perGame)}`);
  assert.ok(perGame > 0 && perGame <= 3.5 * 1024, `${perGame} bytes per game (docs/web.md says about 3.4 KB)`);
});
