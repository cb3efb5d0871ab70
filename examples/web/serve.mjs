// SPDX-License-Identifier: MIT
// A small static file server for the page, bound to a loopback address
// only (127.0.0.1, the default, or ::1). `make serve-web` runs it on
// build/web/:
//
//   node examples/web/serve.mjs DIR [--port 8000] [--host 127.0.0.1]
//
// It serves the regular files under DIR and nothing else: a path that
// leaves DIR ('..', also percent-encoded) is refused with 403, and a
// symbolic link whose target lies outside DIR is answered 404, as if it
// were not there (the resolved path is checked, not the name).
// The browser test imports startServer() and uses port 0 (any free port);
// tests/web/serve.test.mjs tests the refusals.
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.md': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
};

const LOOPBACK = ['127.0.0.1', '::1'];

/** Whether `file` (a resolved path) is `dir` or lies under it. */
const inside = (file, dir) => file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Serves `root` on host:port (a loopback address); resolves to { server, url }. */
export async function startServer(root, { port = 8000, host = '127.0.0.1', log = false } = {}) {
  if (!LOOPBACK.includes(host))
    throw new Error(`serve: host ${host}: only a loopback address (${LOOPBACK.join(', ')}) is served`);
  const base = resolve(root);
  const realBase = await realpath(base);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (path.endsWith('/'))
      path += 'index.html';
    const file = normalize(join(base, path));
    if (!inside(file, base)) {
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end('forbidden');
      if (log)
        console.log(`403 ${req.method} ${path}`);
      return;
    }
    try {
      // The file itself, links resolved: a link out of the root is not served.
      const real = await realpath(file);
      if (!inside(real, realBase))
        throw new Error('outside the root');
      if (!(await stat(real)).isFile())
        throw new Error('not a file');
      const body = await readFile(real);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log)
        console.log(`200 ${req.method} ${path}`);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      if (log)
        console.log(`404 ${req.method} ${path}`);
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const a = server.address();
      ok({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${a.port}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : def;
  };
  const port = Number(opt('--port', '8000'));
  const host = opt('--host', '127.0.0.1');
  const root = args[0] ?? 'build/web';
  try {
    await stat(join(root, 'index.html'));
  } catch {
    console.error(`serve: no ${join(root, 'index.html')}: run \`make web\` first`);
    process.exit(2);
  }
  try {
    const { url } = await startServer(root, { port, host, log: true });
    console.log(`serving ${root} on ${url} (Ctrl-C stops)`);
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
}
