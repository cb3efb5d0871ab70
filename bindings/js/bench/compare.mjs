// SPDX-License-Identifier: MIT
// wasm / native speed, side by side (make bench-web; docs/web.md quotes
// its output). Usage: node compare.mjs NATIVE_SPEED WASM_SPEED_JS [ROUNDS]
//
// Three contenders run the same workloads, alternately, ROUNDS times:
//  - native: bench/speed.c built with the project's compiler and flags;
//  - wasm:   the same C program built by emscripten, run by node;
//  - binding: the JavaScript binding (libball.mjs): game.perft(5), and the
//    random games as a JavaScript loop of randomAction() and apply().
//  - chromium: the binding in Debian's chromium (headless, driven by
//    playwright-core from tests/web/node_modules), when both are there.
// Each run repeats its workload (perft 11 times, the games 5 times) in
// one process; the first repetition is set apart, the others are its
// "warm" times. A contender's figures are the best (least disturbed by
// other load on the machine) and the median of its warm times, and its
// "first run": the first repetition in a fresh process for native and
// wasm (median over the rounds: for wasm it includes the engine's tier-up
// to optimised code), the very first one for the binding and chromium,
// whose later runs reuse the compiled module. Ratios are the contender's
// time over the native time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../libball.mjs';

const [native, wasmJs, roundsArg] = process.argv.slice(2);
if (!native || !wasmJs) {
  console.error('usage: node compare.mjs NATIVE_SPEED WASM_SPEED_JS [ROUNDS]');
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 5);
const REPS = { perft: 11, games: 5 };
const PERFT = 5;
const GAMES = 1000;
const SEED = 7n;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function runProgram(cmd, args) {
  const out = execFileSync(cmd, args, { encoding: 'utf8' }).trim().split('\n');
  return out.map((l) => l.split(' ')).map((f) => ({ count: f[2], seconds: Number(f[3]) }));
}

const ball = await load();

function bindingPerft() {
  const out = [];
  const game = new ball.Game();
  for (let r = 0; r < REPS.perft; r++) {
    const t = performance.now();
    const n = game.perft(PERFT);
    out.push({ count: String(n), seconds: (performance.now() - t) / 1000 });
  }
  game.free();
  return out;
}

function bindingGames() {
  const out = [];
  for (let r = 0; r < REPS.games; r++) {
    // the same numbers as speed.c: xorshift64 from SEED | 1
    const next = ball.xorshift64(SEED | 1n);
    let decisions = 0;
    const t = performance.now();
    for (let i = 0; i < GAMES; i++) {
      const game = new ball.Game({ turnLimit: 200 });
      // speed.c draws a number for the call that finds the game over, too
      for (let r = next(); !game.isOver; r = next()) {
        game.apply(game.randomAction(r));
        decisions++;
      }
      game.free();
    }
    out.push({ count: String(decisions), seconds: (performance.now() - t) / 1000 });
  }
  return out;
}

// The binding's two workloads as the source of a function run in a page.
const IN_PAGE = `async (args) => {
  const { load } = await import('./libball.mjs');
  const ball = await load();
  const out = [];
  for (let r = 0; r < args.reps; r++) {
    let count = 0n;
    const t = performance.now();
    if (args.work === 'perft') {
      const game = new ball.Game();
      count = game.perft(args.perft);
      game.free();
    } else {
      const next = ball.xorshift64(BigInt(args.seed) | 1n);
      for (let i = 0; i < args.games; i++) {
        const game = new ball.Game({ turnLimit: 200 });
        for (let x = next(); !game.isOver; x = next()) {
          game.apply(game.randomAction(x));
          count++;
        }
        game.free();
      }
    }
    out.push({ count: String(count), seconds: (performance.now() - t) / 1000 });
  }
  return out;
}`;

// Debian's chromium with playwright-core, if both are there: a page of
// the binding's directory served on 127.0.0.1.
async function openChromium() {
  const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const pw = fileURLToPath(new URL('../../../tests/web/node_modules/playwright-core/index.mjs', import.meta.url));
  if (!existsSync(chromiumPath) || !existsSync(pw))
    return null;
  const { chromium } = await import(pw);
  const { startServer } = await import('../../../examples/web/serve.mjs');
  const { server, url } = await startServer(fileURLToPath(new URL('..', import.meta.url)), { port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'libball-bench-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  const run = async (args) => {
    await page.goto(url + 'package.json');
    return page.evaluate(`(${IN_PAGE})(${JSON.stringify({ ...args, reps: REPS[args.work], perft: PERFT, games: GAMES, seed: String(SEED) })})`);
  };
  const close = async () => {
    await context.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { run, close };
}

const browser = await openChromium();

const contenders = {
  perft: {
    native: () => runProgram(native, ['perft', String(PERFT), String(REPS.perft)]),
    wasm: () => runProgram('node', [wasmJs, 'perft', String(PERFT), String(REPS.perft)]),
    binding: bindingPerft,
    ...(browser && { chromium: () => browser.run({ work: 'perft' }) }),
  },
  games: {
    native: () => runProgram(native, ['games', String(GAMES), String(SEED), String(REPS.games)]),
    wasm: () => runProgram('node', [wasmJs, 'games', String(GAMES), String(SEED), String(REPS.games)]),
    binding: bindingGames,
    ...(browser && { chromium: () => browser.run({ work: 'games' }) }),
  },
};

const results = {};
for (const [work, who] of Object.entries(contenders)) {
  results[work] = {};
  for (const name of Object.keys(who))
    results[work][name] = { warm: [], cold: [], count: null };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(who)) {
      const runs = await fn();
      const r = results[work][name];
      if (r.count !== null && r.count !== runs[0].count)
        throw new Error(`${work} ${name}: count ${runs[0].count}, expected ${r.count}`);
      r.count = runs[0].count;
      r.cold.push(runs[0].seconds);
      r.warm.push(...runs.slice(1).map((x) => x.seconds));
    }
  }
}

const fmt = (s) => (s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(3)} s`);
console.log(`libball ${ball.version}: ${ROUNDS} alternated rounds; ` +
  `node ${process.versions.node} (V8 ${process.versions.v8})`);
for (const [work, rs] of Object.entries(results)) {
  const what = work === 'perft' ? `perft ${PERFT} from the start (${rs.native.count} leaves)` :
    `${GAMES} random games, turn limit 200 (${rs.native.count} decisions)`;
  console.log(`\n${what}`);
  console.log('  contender     warm best  ratio   warm median  ratio      first run  ratio');
  const n = rs.native;
  const col = (x, base) => `${fmt(x).padStart(12)} ${(x / base).toFixed(2).padStart(6)}x`;
  for (const [name, r] of Object.entries(rs)) {
    if (r.count !== n.count)
      throw new Error(`${work}: ${name} counted ${r.count}, native ${n.count}`);
    const first = name === 'native' || name === 'wasm' ? median(r.cold) : r.cold[0];
    console.log(`  ${name.padEnd(9)} ${col(Math.min(...r.warm), Math.min(...n.warm))}` +
      ` ${col(median(r.warm), median(n.warm))} ${col(first, median(n.cold))}`);
  }
}
if (browser) {
  console.log(`\nchromium: ${(await browser.close(), 'the binding in Debian\'s chromium, headless')}`);
} else {
  console.log('\n(no chromium row: needs /usr/bin/chromium and tests/web/node_modules, see make check-web)');
}
