// SPDX-License-Identifier: MIT
// The search players of the page: the library's turn search (the
// binding's TurnSearch) and its MCTS. createSearcher(ball) runs them in a
// Web Worker (search-worker.mjs, with its own instance of the engine), so
// that the page stays responsive however long the search; where a module
// worker cannot start it searches in the page itself, after letting the
// page draw "thinking…". Either way a search is a request { side, kind,
// options, seed, start, moves, rules, evaluation }: `kind` 'search' (the
// default) or 'mcts', the settings `options` as the binding takes them;
// `evaluation` (players.mjs, EVALUATIONS) how the turn search evaluates its
// leaves: 'network' (the default: the library's own network), 'hand' (the
// hand-written evaluation), both TurnSearch({ eval }), or 'value.net' (the
// binding's Net of wasm/value.net, share/net/value.net of the sources,
// fetched once by the instance that searches, and TurnSearch({ eval: net
// }); experimental, docs/learning.md); the game is
// the position `start` (BPN) under `rules` (a rules text) and the
// decisions `moves` (N2 texts) played since; `side` names the searcher
// that answers ('ATK', 'DEF', or any other key: the page's hints use
// 'hint'). The answer is { action (N2 text), stats, analysis, where:
// 'worker' | 'page' }; for the turn search `analysis` is what it found
// (analysisOf() below), for MCTS null.
//
// The service keeps one game in step with the page's, history included
// (it plays and takes back only the decisions that differ from the last
// request), and each side its own searcher, kept from one decision to the
// next (the MCTS random generator runs on, the turn search keeps its
// table): the search sees what the native selfplay's search sees. `seed`
// (a BigInt) restarts the side's MCTS generator before the search, or
// gives the side a new turn searcher with that seed, as selfplay seeds its
// players at the start of each game, so that a seeded game repeats.

// What the page shows of a turn search (plain values: it crosses the
// worker's message channel): the value for the coach to act, in [-1, 1],
// the principal variation of the best decision as text, the best whole
// turn, and the three best root decisions.
function analysisOf(r, side) {
  return {
    side,
    best: r.best.text,
    value: r.value,
    proven: r.proven,
    decisionsToEnd: r.decisionsToEnd,
    depth: r.depth,
    nodes: r.nodes,
    elapsedMs: r.elapsedMs,
    pv: r.lines[0]?.pvText ?? r.best.text,
    bestTurn: r.bestTurnText,
    lines: r.lines.slice(0, 3).map((l) => ({ action: l.action.text, value: l.value, bound: l.bound,
      pv: l.pvText })),
  };
}

// Where the learned evaluation's network is: wasm/value.net next to the
// page (make web copies share/net/value.net there).
const NET_URL = new URL('./wasm/value.net', import.meta.url);

/** The bytes of the network file at `url`, fetched (an Error naming the
 *  file when it cannot be had). */
async function fetchNet(url) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`the learned evaluation's network ${url} could not be fetched: ${e.message}`);
  }
  if (!res.ok)
    throw new Error(`the learned evaluation's network ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * The searches on one engine instance: what the worker runs. search()
 * returns a promise (it may first fetch the network, once); the search
 * itself is synchronous. `netBytes` gives the network file's bytes (a
 * promise), by default fetched from wasm/value.net.
 */
export function createSearchService(ball, { netBytes = () => fetchNet(NET_URL) } = {}) {
  const searchers = new Map(); // side -> { key, kind, player }
  let line = null;             // { start, rules, moves, game }: the page's game
  let net = null;              // a promise of the Net, loaded at the first value.net search

  // The Net of value.net, loaded once and kept for the service's
  // lifetime (its searchers hold it); a failed load is tried again at the
  // next value.net search.
  function learnedNet() {
    if (!net) {
      const p = netBytes().then((bytes) => new ball.Net(bytes));
      p.catch(() => { if (net === p) net = null; });
      net = p;
    }
    return net;
  }

  function gameFor(start, rules, moves) {
    if (line && (line.start !== start || line.rules !== rules)) {
      line.game.free();
      line = null;
    }
    if (!line) {
      line = { start, rules, moves: [], game: new ball.Game({ bpn: start, rules }) };
    } else {
      let same = 0;
      while (same < line.moves.length && same < moves.length && line.moves[same] === moves[same])
        same++;
      while (line.moves.length > same) {
        line.game.undo();
        line.moves.pop();
      }
    }
    for (let i = line.moves.length; i < moves.length; i++) {
      line.game.apply(moves[i]);
      line.moves.push(moves[i]);
    }
    return line.game;
  }

  const randomSeed = () => globalThis.crypto.getRandomValues(new BigUint64Array(1))[0];

  // The search itself, synchronous: nothing else of the service runs
  // between reading the request and answering it.
  function searchNow({ side, kind = 'search', options, seed, start, moves, rules }, evaluation, evalNet) {
    const key = JSON.stringify([kind, options, evaluation]);
    const seeded = seed !== undefined && seed !== null;
    let s = searchers.get(side);
    if (!s || s.key !== key || (seeded && kind === 'search')) {
      s?.player.free();
      searchers.delete(side);
      const first = seeded ? seed : randomSeed();
      s = { key, kind, player: kind === 'search' ? new ball.TurnSearch({ ...options, seed: first, eval: evalNet ?? evaluation }) :
        new ball.MCTS({ ...options, seed: first }) };
      searchers.set(side, s);
    } else if (seeded) {
      s.player.seed(seed);
    }
    const game = gameFor(start, rules, moves);
    if (s.kind === 'search') {
      const r = s.player.analyse(game);
      const analysis = analysisOf(r, game.side);
      return { action: r.best.text, stats: { nodes: r.nodes, depth: r.depth, value: r.value,
        elapsedMs: r.elapsedMs, evaluation }, analysis };
    }
    const action = s.player.choose(game);
    return { action: action.text, stats: { ...s.player.stats }, analysis: null };
  }

  return {
    async search(request) {
      // (a name other than these three: TurnSearch's own refusal)
      const evaluation = (request.kind ?? 'search') === 'search' ? request.evaluation ?? 'network' : null;
      const evalNet = evaluation === 'value.net' ? await learnedNet() : null;
      return searchNow(request, evaluation, evalNet);
    },
    clear() {
      for (const s of searchers.values())
        s.player.free();
      searchers.clear();
      line?.game.free();
      line = null;
    },
  };
}

const later = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * The page's searcher: `search(request)` returns a promise of the answer
 * (null when cancelled); `cancel()` drops the searches under way (a worker
 * that is searching cannot be interrupted: it is stopped, and a fresh one
 * starts with the next search; one still loading is only told to skip
 * them); `mode` is 'worker' or 'page' (no worker: `useWorker` false, or it
 * could not start). A worker that fails to load hands its requests to the
 * page.
 */
export function createSearcher(ball, { useWorker = true } = {}) {
  let local = null;
  let worker = null;
  let canUseWorker = useWorker && typeof Worker === 'function';
  let nextId = 1;
  let generation = 0; // cancel() drops the searches of older generations
  let ready = false;  // the worker has loaded the engine
  const pending = new Map(); // id -> { request, ok, fail }

  const inPage = async (request) => {
    const mine = generation;
    local ??= createSearchService(ball);
    await later(30); // let the page draw "thinking…" first
    if (mine !== generation)
      return null;
    const answer = await local.search(request);
    if (mine !== generation)
      return null;
    return { ...answer, where: 'page' };
  };

  function fallBack(reason) {
    console.warn(`libball page: searching in the page (${reason})`);
    canUseWorker = false;
    worker?.terminate();
    worker = null;
    for (const [id, p] of pending) {
      pending.delete(id);
      inPage(p.request).then(p.ok, p.fail);
    }
  }

  function startWorker() {
    try {
      const w = new Worker(new URL('./search-worker.mjs', import.meta.url), { type: 'module', name: 'libball-search' });
      w.addEventListener('message', ({ data }) => {
        if (w !== worker)
          return;
        if (data.type === 'ready') {
          ready = true;
          return;
        }
        if (data.type === 'fatal') {
          fallBack(data.message);
          return;
        }
        const p = pending.get(data.id);
        if (!p)
          return;
        pending.delete(data.id);
        if (data.type === 'result')
          p.ok({ action: data.action, stats: data.stats, analysis: data.analysis ?? null, where: 'worker' });
        else
          p.fail(Object.assign(new Error(data.message), { codeName: data.codeName }));
      });
      w.addEventListener('error', (ev) => {
        ev.preventDefault();
        if (w === worker)
          fallBack(ev.message || 'the worker did not start');
      });
      worker = w;
      ready = false;
    } catch (e) {
      fallBack(`no module worker: ${e.message}`);
    }
  }

  if (canUseWorker)
    startWorker();

  return {
    get mode() { return canUseWorker ? 'worker' : 'page'; },
    search(request) {
      if (canUseWorker && !worker)
        startWorker();
      if (!worker)
        return inPage(request);
      return new Promise((ok, fail) => {
        const id = nextId++;
        pending.set(id, { request, ok, fail });
        worker.postMessage({ type: 'search', id, epoch: generation, ...request });
      });
    },
    cancel() {
      generation++;
      if (!worker || pending.size === 0)
        return;
      for (const p of pending.values())
        p.ok(null);
      pending.clear();
      if (ready) {
        worker.terminate(); // busy searching: a new one takes over
        worker = null;
      } else {
        worker.postMessage({ type: 'cancel', epoch: generation });
      }
    },
  };
}
