// A small static file server for the page, bound to the loopback address
// only. `make serve-web` runs it on build/web/:
//
//   node examples/web/serve.mjs DIR [--port 8000] [--host 127.0.0.1]
//
// The browser test imports startServer() and uses port 0 (any free port).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serves `root` on host:port; resolves to { server, url }. */
export function startServer(root, { port = 8000, host = '127.0.0.1', log = false } = {}) {
  const base = resolve(root);
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
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (!(await stat(file)).isFile())
        throw new Error('not a file');
      const body = await readFile(file);
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
      ok({ server, url: `http://${host}:${a.port}/` });
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
  const { url } = await startServer(root, { port, host, log: true });
  console.log(`serving ${root} on ${url} (Ctrl-C stops)`);
}
