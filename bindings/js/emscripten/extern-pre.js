// SPDX-License-Identifier: MIT
// Put before emscripten's ES-module loader (emcc --extern-pre-js, mk/web.mk).
// Under node, emscripten 3.1.6's loader calls the CommonJS `require` and
// reads `__dirname`, which an ES module does not have: give it both, from
// node's own modules. In a browser this does nothing.
var require, __dirname;
if (typeof process == 'object' && typeof process.versions == 'object' &&
    typeof process.versions.node == 'string') {
  require = (await import('module')).createRequire(import.meta.url);
  __dirname = require('path').dirname(require('url').fileURLToPath(import.meta.url));
}
