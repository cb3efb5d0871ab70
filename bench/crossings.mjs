// SPDX-License-Identifier: MIT
// Random playouts through the JavaScript binding (libball.mjs over the
// WebAssembly build, `make wasm`), run by node: the ways of
// bench/crossings.lua, for the table of make bench-crossings (issue 46,
// "Lua and JavaScript loops measured in the same table";
// docs/performance.md):
//   loop      game.randomAction() + game.apply(), one decision at a time
//   apply     game.randomApply(): draw and apply in one call
//   playout   game.randomPlayout(): the whole game in one call
// Games under turnLimit 200, as `make bench`'s playouts; a new game per
// game (freed after it). Prints "WAY decisions cpu-seconds" per measured
// repetition (CPU time of the process, process.cpuUsage()), the ways
// interleaved:
//   node bench/crossings.mjs [GAMES [ROUNDS [WAY...]]]
import { load } from '../bindings/js/libball.mjs';

const ball = await load();
const newGame = () => new ball.Game({ turnLimit: 200 });

function played(step) {
  return (games) => {
    let n = 0;
    for (let i = 0; i < games; i++) {
      const g = newGame();
      try {
        while (!g.isOver) {
          step(g);
          n++;
        }
      } finally {
        g.free();
      }
    }
    return n;
  };
}

const ways = {
  loop: played((g) => g.apply(g.randomAction())),
  apply: played((g) => g.randomApply()),
  playout: (games) => {
    let n = 0;
    for (let i = 0; i < games; i++) {
      const g = newGame();
      n += g.randomPlayout();
      g.free();
    }
    return n;
  },
};

const args = process.argv.slice(2);
const games = Number(args[0] ?? 100);
const rounds = Number(args[1] ?? 5);
const list = args.length > 2 ? args.slice(2) : Object.keys(ways);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
if (!process.env.BENCH_NO_WARMUP)
  for (const w of list) ways[w](Math.max(1, Math.floor(games / 10)));
for (let r = 0; r < rounds; r++) {
  for (const w of list) {
    const t = cpu();
    const n = ways[w](games);
    console.log(`${w} ${n} ${(cpu() - t).toFixed(6)}`);
  }
}
