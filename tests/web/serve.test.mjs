// examples/web/serve.mjs serves the regular files under its root and
// nothing else (issue 23): a symbolic link to a file or a directory
// outside the root is answered 404 (before: 200 with the file), a path
// with '..' (plain or percent-encoded) 403 or 404, never the file; a link
// that stays inside the root is served; only loopback addresses are bound.
// Run by `make check-web` (node --test).
import test from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../examples/web/serve.mjs';

const SECRET = 'the secret outside the root';

// GET of a raw path (not normalised by a URL parser): [status, body].
function get(url, path) {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => ok([res.statusCode, body]));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serve.mjs: files under the root are served, links and paths out of it are not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'libball-serve-'));
  const root = join(dir, 'root');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(dir, 'outside', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>ok</title>');
  writeFileSync(join(root, 'sub', 'page.mjs'), 'export {};');
  symlinkSync('../secret.txt', join(root, 'link.txt'));            // a file outside
  symlinkSync('../outside', join(root, 'outdir'));                  // a directory outside
  symlinkSync(join(dir, 'secret.txt'), join(root, 'abs.txt'));      // an absolute link outside
  symlinkSync('sub/page.mjs', join(root, 'inside.mjs'));            // a link that stays inside
  const { server, url } = await startServer(root, { port: 0 });
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const [s1, b1] = await get(url, '/index.html');
    assert.equal(s1, 200);
    assert.match(b1, /<title>ok/);
    assert.equal((await get(url, '/'))[0], 200, 'index.html for /');
    assert.equal((await get(url, '/sub/page.mjs'))[0], 200);
    assert.equal((await get(url, '/inside.mjs'))[0], 200, 'a link inside the root is served');
    for (const path of ['/link.txt', '/outdir/secret.txt', '/abs.txt', '/outdir/', '/nothing.html', '/sub']) {
      const [status, body] = await get(url, path);
      assert.equal(status, 404, path);
      assert.ok(!body.includes(SECRET), path);
    }
    for (const path of ['/../secret.txt', '/sub/../../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt',
      '/%2E%2E%2Fsecret.txt', '/..%5csecret.txt', '/%00', '/%zz']) {
      const [status, body] = await get(url, path);
      assert.ok(status === 403 || status === 404 || status === 400, `${path}: ${status}`);
      assert.ok(!body.includes(SECRET), path);
    }
  } finally {
    await new Promise((ok) => server.close(ok));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve.mjs binds loopback addresses only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'libball-serve-'));
  try {
    for (const host of ['0.0.0.0', '::', '192.168.1.1', 'example.com'])
      await assert.rejects(startServer(dir, { port: 0, host }), /only a loopback address/, host);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
