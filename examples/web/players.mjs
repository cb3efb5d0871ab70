// SPDX-License-Identifier: MIT
// The built-in players of the page, those of the terminal `play` and of
// `selfplay` (examples/common/players.c): a random one, a greedy one that
// tries each legal decision (apply, score, undo) and keeps the first best,
// the library's turn search (ball_search_*, the strongest) and its
// Monte-Carlo tree search (ball_mcts_*), both run by search.mjs, in a
// worker when the browser can. Players are named as the examples name
// them: 'human', 'random', 'greedy', 'search', 'search:nodes=50000',
// 'search:ms=1000,depth=4', 'mcts', 'mcts:playouts=5000',
// 'mcts:ms=2000,turns=3,c=1.2'.

/** The players the page offers; any other valid search or MCTS name works too (URL). */
export const PLAYERS = ['human', 'search:nodes=20000', 'search:nodes=200000', 'search:ms=1000',
  'random', 'greedy', 'mcts:playouts=1000', 'mcts:playouts=5000', 'mcts:playouts=20000',
  'mcts:playouts=100000'];

/** How the computer players' turn search evaluates its leaves (the
 *  page's Evaluation choice, `eval=` of the URL): by the library's own
 *  network (the default, TurnSearch's eval 'network'), by the hand-written
 *  evaluation (eval 'hand'), or by the network file value.net
 *  (experimental, weaker: a Net of wasm/value.net). Each with its label. */
export const EVALUATIONS = { network: 'Network (default)', hand: 'Hand-written',
  'value.net': 'value.net (experimental)' };

/** What a search's line and a record's tag add for an evaluation: nothing
 *  for the default. */
export const EVALUATION_NOTE = { network: '', hand: 'the hand-written evaluation',
  'value.net': 'the network value.net' };

/** The computer player the page suggests (the library's strongest, at its default budget). */
export const DEFAULT_COMPUTER = 'search:nodes=200000';

const MCTS_KEYS = { playouts: 'playouts', ms: 'timeMs', turns: 'playoutTurns', c: 'exploration' };
const SEARCH_KEYS = { nodes: 'nodes', ms: 'timeMs', depth: 'depth' };
const SEARCH_MAX = { nodes: 1e12, ms: 86400000, depth: 64 };

/**
 * A player's name read as players.c reads it: { kind: 'human' | 'random'
 * | 'greedy' | 'search' | 'mcts', name, options } (options: the settings
 * as the binding's TurnSearch or MCTS takes them), or null for a name
 * that is none. 'mcts:ms=T' alone means a time budget without a playout
 * limit; for 'search', a budget named without nodes= is the only one.
 */
export function parsePlayer(name) {
  if (name === 'human' || name === 'random' || name === 'greedy')
    return { kind: name, name, options: null };
  const text = String(name ?? '');
  const s = /^search(?::(.*))?$/.exec(text);
  if (s) {
    const options = {};
    for (const part of s[1] === undefined ? [] : s[1].split(',')) {
      const kv = /^(nodes|ms|depth)=(\d+)$/.exec(part);
      if (!kv || Number(kv[2]) > SEARCH_MAX[kv[1]])
        return null;
      options[SEARCH_KEYS[kv[1]]] = Number(kv[2]);
    }
    if (s[1] !== undefined && options.nodes === undefined)
      options.nodes = 0; // the budgets named are the only ones
    if (options.nodes === 0 && !options.timeMs && !options.depth)
      return null; // no budget at all
    return { kind: 'search', name, options };
  }
  const m = /^mcts(?::(.*))?$/.exec(text);
  if (!m)
    return null;
  const options = {};
  for (const part of m[1] === undefined ? [] : m[1].split(',')) {
    const kv = /^(playouts|ms|turns|c)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!kv)
      return null;
    const value = Number(kv[2]);
    if (kv[1] !== 'c' && (!Number.isInteger(value) || value > 1e9))
      return null;
    if (kv[1] === 'c' && value > 100)
      return null;
    options[MCTS_KEYS[kv[1]]] = value;
  }
  const playouts = options.playouts ?? (options.timeMs !== undefined ? 0 : 1000);
  if (playouts === 0 && !options.timeMs)
    return null; // no budget at all
  return { kind: 'mcts', name, options };
}

const ms = (t) => (t >= 1000 ? `${t / 1000} s` : `${t} ms`);

/** What a player is called in the page: 'Turn search, 200,000 nodes',
 *  'MCTS, 5,000 playouts', ... */
export function playerLabel(name) {
  const p = parsePlayer(name);
  if (!p)
    return String(name);
  if (p.kind !== 'mcts' && p.kind !== 'search')
    return p.kind;
  const o = p.options;
  const parts = [];
  if (p.kind === 'search') {
    const nodes = o.nodes ?? 200000;
    if (nodes)
      parts.push(`${nodes.toLocaleString('en-US')} nodes`);
    if (o.timeMs)
      parts.push(ms(o.timeMs));
    if (o.depth)
      parts.push(`depth ${o.depth}`);
    return `Turn search, ${parts.join(', ')}`;
  }
  const playouts = o.playouts ?? (o.timeMs !== undefined ? 0 : 1000);
  if (playouts)
    parts.push(`${playouts.toLocaleString('en-US')} playouts`);
  if (o.timeMs)
    parts.push(ms(o.timeMs));
  if (o.playoutTurns !== undefined)
    parts.push(`turns ${o.playoutTurns}`);
  if (o.exploration !== undefined)
    parts.push(`c ${o.exploration}`);
  return `MCTS, ${parts.join(', ')}`;
}

// Row of a square as seen by `team`: 17 is always the row it scores in.
function forwardRow(square, team) {
  const row = Number(square.slice(1));
  return team === 'ATK' ? row : 18 - row;
}

/** The score of the position for `team` (players.c, player_evaluate). */
export function evaluate(game, team) {
  const result = game.result;
  if (result === (team === 'ATK' ? 'atk_won' : 'def_won'))
    return 1000000;
  if (result === (team === 'ATK' ? 'def_won' : 'atk_won'))
    return -1000000;
  const ballSq = game.ballSquare;
  const carrier = game.piece(ballSq);
  const ballRow = forwardRow(ballSq, team);
  let score = 0;
  if (carrier && carrier.team === team)
    score += 1000 + 100 * ballRow;        // we hold it
  else if (carrier)
    score -= 1000 + 100 * (18 - ballRow); // they do
  else
    score += 50 * ballRow;                // loose ball
  for (const s of game.board()) {
    const p = s.upper;
    if (!p)
      continue;
    if (p.team !== team) {
      if (p.down)
        score += 20;                      // opponent down
    } else {
      if (p.down)
        score -= 20;
      score += forwardRow(s.square, team); // move up
    }
  }
  return score;
}

/** The decision of the random or the greedy player (search, MCTS: search.mjs). */
export function choose(kind, game) {
  if (kind === 'random')
    return game.randomAction();
  const team = game.side;
  let best = null;
  let bestScore = 0;
  for (const action of game.legalActions()) {
    game.apply(action);
    const score = evaluate(game, team);
    game.undo();
    if (best === null || score > bestScore) {
      best = action;
      bestScore = score;
    }
  }
  return best;
}
