// SPDX-License-Identifier: MIT
// `npm pack` makes a package that works on its own: packed into a scratch
// directory, unpacked, imported from there.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });

test('npm pack gives a working package', { skip: npm.status !== 0 && 'no npm' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'libball-pack-'));
  try {
    const r = spawnSync('npm', ['pack', '--pack-destination', dir, '--json'],
      { cwd: HERE, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const [info] = JSON.parse(r.stdout);
    const files = info.files.map((f) => f.path).sort();
    assert.deepEqual(files, ['LICENSE', 'README.md', '_api.d.mts', '_api.mjs', 'learn.d.mts', 'learn.mjs', 'libball.d.mts', 'libball.mjs', 'package.json',
      'wasm/ball.mjs']);
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    assert.equal(tgz, `libball-${info.version}.tgz`);
    const t = spawnSync('tar', ['-xzf', join(dir, tgz), '-C', dir], { encoding: 'utf8' });
    assert.equal(t.status, 0, t.stderr);
    assert.ok(existsSync(join(dir, 'package', 'wasm', 'ball.mjs')));
    const mod = await import(pathToFileURL(join(dir, 'package', 'libball.mjs')).href);
    const ball = await mod.load();
    const game = new ball.Game();
    assert.equal(game.perft(3), 16283n);
    assert.equal(ball.version, info.version);
    const learn = (await import(pathToFileURL(join(dir, 'package', 'learn.mjs')).href)).bindLearn(ball);
    assert.equal(learn.legalIndices(game).length, 55, 'the learning module works from the package (55 at the start)');
    game.free();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
