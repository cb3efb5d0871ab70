// SPDX-License-Identifier: MIT
// The ```js blocks of docs/web.md, of this package's README.md and of the
// repository's README.md (if it has any) run as they are, with
// `from 'libball'` and `from 'libball/learn'` pointing at this checkout.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LIB = new URL('../libball.mjs', import.meta.url).href;
const LEARN = new URL('../learn.mjs', import.meta.url).href;
// [path from here, name in the repository]
const FILES = [['../../../docs/web.md', 'docs/web.md'], ['../README.md', 'bindings/js/README.md'],
  ['../../../README.md', 'README.md']];
const OPTIONAL = new Set(['README.md']);

for (const [file, name] of FILES) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const blocks = [...text.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  test(`the js blocks of ${name} run`, { skip: !blocks.length && OPTIONAL.has(name) && `${name} has none` }, () => {
    assert.ok(blocks.length > 0, 'no ```js block');
    const dir = mkdtempSync(join(tmpdir(), 'libball-doc-'));
    try {
      blocks.forEach((code, i) => {
        const path = join(dir, `block${i + 1}.mjs`);
        writeFileSync(path, code.replaceAll("from 'libball/learn'", `from '${LEARN}'`)
          .replaceAll("from 'libball'", `from '${LIB}'`));
        const r = spawnSync(process.execPath, [path], { encoding: 'utf8' });
        assert.equal(r.status, 0, `block ${i + 1}:\n${code}\n${r.stderr}`);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
