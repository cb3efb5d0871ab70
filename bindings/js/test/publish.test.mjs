// SPDX-License-Identifier: MIT
// The npm package as it would be published (issue 24): `npm pack
// --dry-run --json` lists the license, the WebAssembly module, the module
// and its types, and nothing else; package.json names the MIT license, is
// at the library's version (include/ball.h), is publishable (not
// private) and has an `exports` map whose every target is in the
// tarball; LICENSE is the repository's; `npm publish --dry-run` succeeds
// without a warning (but the one that the dry run is not logged in). Skipped when npm is missing, or when wasm/ball.mjs
// is not built (make wasm; make check-web builds it first).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(HERE, '..', '..');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const skip = npm.status !== 0 ? 'no npm'
  : !existsSync(join(HERE, 'wasm', 'ball.mjs')) ? 'wasm/ball.mjs is not built (make wasm)' : false;
// npm offline and without the user's configuration: nothing here needs
// the registry.
const env = { ...process.env, npm_config_offline: 'true', npm_config_userconfig: '/dev/null',
  npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

function header(name) {
  const m = readFileSync(join(REPO, 'include', 'ball.h'), 'utf8').match(new RegExp(`^#define ${name} (\\d+)$`, 'm'));
  assert.ok(m, `include/ball.h defines ${name}`);
  return m[1];
}

test('package.json is publishable: MIT, the library version, exports, types', () => {
  const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  assert.notEqual(pkg.private, true, 'package.json says "private": true: npm publish refuses it');
  const version = ['BALL_VERSION_MAJOR', 'BALL_VERSION_MINOR', 'BALL_VERSION_PATCH'].map(header).join('.');
  assert.equal(pkg.version, version);
  assert.equal(pkg.types, './libball.d.mts');
  assert.equal(pkg.exports['.'].types, './libball.d.mts');
  assert.equal(Object.keys(pkg.exports['.'])[0], 'types', 'the types condition must come first');
  assert.equal(pkg.exports['.'].default, './libball.mjs');
  assert.equal(readFileSync(join(HERE, 'LICENSE'), 'utf8'), readFileSync(join(REPO, 'LICENSE'), 'utf8'),
    'bindings/js/LICENSE is not the repository\'s LICENSE');
});

test('npm pack --dry-run lists the license, the wasm module and the types', { skip }, () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: HERE, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const [info] = JSON.parse(r.stdout);
  const files = info.files.map((f) => f.path).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', '_api.d.mts', '_api.mjs', 'learn.d.mts', 'learn.mjs', 'libball.d.mts', 'libball.mjs', 'package.json',
      'wasm/ball.mjs']);
  const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));
  const targets = [];
  const walk = (v) => (typeof v === 'string' ? targets.push(v) : Object.values(v).forEach(walk));
  walk(pkg.exports);
  for (const t of [...targets, pkg.main, pkg.types]) {
    assert.ok(files.includes(t.replace(/^\.\//, '')), `${t} (package.json) is not in the tarball`);
  }
  // the WebAssembly is inlined in wasm/ball.mjs (mk/web.mk, -sSINGLE_FILE)
  const wasm = info.files.find((f) => f.path === 'wasm/ball.mjs');
  assert.ok(wasm.size > 100000, `wasm/ball.mjs is only ${wasm.size} bytes`);
  assert.equal(info.name, 'libball');
  assert.equal(info.version, pkg.version);
});

test('npm publish --dry-run succeeds without a warning', { skip }, () => {
  const r = spawnSync('npm', ['publish', '--dry-run'], { cwd: HERE, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  // A dry run without an account always warns that publishing needs one
  // ("requires you to be logged in ... (dry-run)"): the only warning allowed.
  const warnings = r.stderr.split('\n')
    .filter((l) => /npm (WARN|warn)/.test(l) && !/requires you to be logged in .*\(dry-run\)/.test(l));
  assert.deepEqual(warnings, [], r.stderr);
  assert.match(r.stdout + r.stderr, /libball@\d+\.\d+\.\d+/);
});
