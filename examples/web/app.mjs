// SPDX-License-Identifier: MIT
// The playable page: libball's JavaScript binding, an SVG board and the
// selection flow of R12 (piece, verb, destination, exit / push / lower
// square, keeper), with cancel, undo, the release phase, BPN load and copy
// and the built-in players (random, greedy, the library's turn search and
// its MCTS, which search in a Web Worker); the turn search's evaluation
// bar and best line, and a Hint button that asks it for the person's
// decision without playing it. No framework; see docs/web.md.
//
// URL parameters: atk=, def= (human, random, greedy, search,
// search:nodes=N, search:ms=T, mcts, mcts:playouts=N, mcts:ms=T, ...: the
// names of `play` and `selfplay`), delay= (ms before each decision of a
// built-in player, default 500), rules= (rules text), bpn= (a position to
// start from), seed= (the search players are seeded at the start of each
// game as selfplay seeds its game with that seed: ATK with it, DEF with it
// xor 0x9e3779b9; hints always use seed 1), worker=0 (search in the page,
// not in a worker), hint= (the Hint button's turn search, search:nodes=N,
// search:ms=T, ...; default the strongest computer player's), eval=
// (how the computer players' turn search evaluates: network, the default,
// hand, or net for value.net: the Evaluation choice).
// game= (with #token=... in the fragment): the game of that id on the
// server the page came from, played through online.mjs (docs/server.md,
// "Playing from the page"); the other parameters are then ignored.
import { load } from './libball.mjs';
import { createBoard, drawBoard, drawLegend, moveCursor } from './board.mjs';
import { DEFAULT_COMPUTER, EVALUATIONS, EVALUATION_NOTE, PLAYERS, choose, parsePlayer,
  playerLabel } from './players.mjs';
import { createSearcher } from './search.mjs';
import { startOnline } from './online.mjs';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const BOT_DELAY = Math.max(0, Number(params.get('delay') ?? 500) || 0);
const SEED = /^\d{1,19}$/.test(params.get('seed') ?? '') ? BigInt.asUintN(64, BigInt(params.get('seed'))) : null;

const VERB_LABELS = { '-': 'Move', '=': 'Hand off', '^': 'Short pass', '^^': 'Long pass', card: 'Card' };
const TEAM_NAME = { ATK: 'ATK', DEF: 'DEF' };
// The Hint button's search: the strongest computer player's settings, or
// the hint= parameter's turn search.
const HINT = parsePlayer(params.get('hint'))?.kind === 'search' ? parsePlayer(params.get('hint')) :
  parsePlayer(DEFAULT_COMPUTER);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const signed = (v) => `${v >= 0 ? '+' : '\u2212'}${Math.abs(v).toFixed(2)}`;

let ball;
let svg;
let searcher;
const state = {
  game: null,
  rulesText: '',
  endZoneDepth: 1,
  players: { ATK: 'human', DEF: 'human' },
  // how the computer players' turn searches evaluate: 'network' (the
  // library's, the default), 'hand' or 'value.net' (players.mjs,
  // EVALUATIONS); eval=net is value.net, as when it was a box
  evaluation: { hand: 'hand', net: 'value.net', 'value.net': 'value.net' }[params.get('eval')] ?? 'network',
  chosen: [],      // the choices of the selection under way (R12)
  startBpn: '',    // the position the game's history starts from (new game, Load BPN)
  log: [],         // { turn, side, action, bpn (after it), player } of each decision since: the history
  message: '',
  messageKind: '',
  serial: 0,       // changes with every new position: a built-in player's decision is for one
  bot: { key: '', timer: 0, token: 0, thinking: null },
  seedPending: { ATK: true, DEF: true }, // seed= : seed the searcher before its next search
  searchInfo: '',  // what the last search did
  // the last turn search's analysis (search.mjs analysisOf) with the
  // position it is for: { ...analysis, serial, turn, by }
  analysis: null,
  hint: null,      // { serial, pending } or { serial, action, text }: the Hint button's answer
  cursor: null,    // the keyboard cursor's square (null until an arrow key is pressed)
  future: [],      // the decisions undone, the next one last: redo, and the history's later part
  online: null,    // online.mjs's controller when the page plays on the server (game=)
};

// ------------------------------------------------------------ games

function newGame(rulesText, bpn) {
  const game = new ball.Game({ rules: rulesText, bpn });
  stopBot();
  state.game?.free();
  state.game = game;
  const rules = game.rules;
  state.rulesText = rules.text;
  state.endZoneDepth = rules.endZoneDepth;
  state.chosen = [];
  state.log = [];
  state.future = [];
  newPosition();
  say('');
  render();
}

// A new game or a loaded position: the history starts here, and the
// searchers are seeded again (seed=).
function newPosition() {
  state.startBpn = state.game.bpn;
  state.serial++;
  state.seedPending = { ATK: true, DEF: true };
  state.searchInfo = '';
  state.analysis = null;
  state.hint = null;
}

function newGameFromForm() {
  const zone = Number($('zone').value);
  const turns = Number($('turns').value || 0);
  const words = [];
  if (zone !== 1)
    words.push(`zone=${zone}`);
  if (turns)
    words.push(`turns=${turns}`);
  if ($('cards-text').value.trim())
    words.push($('cards-text').value.trim());
  try {
    newGame(words.join(' '));
    say(state.rulesText ? `New game: ${state.rulesText}` : 'New game');
  } catch (e) {
    say(e.message, 'error');
  }
}

function loadBpn() {
  const text = $('bpn').value.trim();
  const game = state.game;
  try {
    game.bpn = text;
  } catch (e) {
    say(e.message, 'error');
    return;
  }
  stopBot();
  state.chosen = [];
  state.log = [];
  state.future = [];
  newPosition();
  say('Position loaded');
  render();
}

async function copyBpn() {
  const text = state.game.bpn;
  $('bpn').value = text;
  try {
    await navigator.clipboard.writeText(text);
    say('BPN copied');
  } catch {
    const ta = $('bpn');
    ta.value = text;
    ta.focus();
    ta.select();
    say(document.execCommand('copy') ? 'BPN copied' : 'Select the BPN above and copy it', '');
  }
}

// ------------------------------------------------------------ playing

function humanToAct() {
  if (state.online)
    return state.online.canAct(state.game);
  return !state.game.isOver && state.players[state.game.side] === 'human';
}

// Plays one decision and writes it into the history; no drawing.
function applyEntry(action, player) {
  const game = state.game;
  const entry = { turn: game.turn, side: game.side, action: null, bpn: '', player, words: '' };
  const a = typeof action === 'string' ? game.parseAction(action) : action;
  entry.words = describeAction(game, a);
  entry.action = game.apply(a);
  entry.bpn = game.bpn;
  state.serial++;
  state.log.push(entry);
  return entry;
}

function play(action, player = 'human') {
  const entry = applyEntry(action, player);
  // the history's later part stays when the decision is its next one
  if (state.future.at(-1)?.action.text === entry.action.text)
    state.future.pop();
  else
    state.future = [];
  state.chosen = [];
  say('');
  render();
}

// ------------------------------------------------------------ whole games

function undoOne() {
  state.game.undo();
  state.future.push(state.log.pop());
}

function redoOne() {
  const e = state.future.pop();
  applyEntry(e.action.text, e.player);
}

// Shows the position after the first n decisions of the history (undoing
// or redoing); the later ones stay, to go forward again, until a
// different decision is played or "Continue from here" is pressed.
function goTo(n) {
  if (state.online)
    return; // the server's game has no other position
  stopBot();
  while (state.log.length > n)
    undoOne();
  while (state.log.length < n && state.future.length)
    redoOne();
  state.serial++;
  state.chosen = [];
  say('');
  render();
}

// The indices where a turn starts in the whole history (past and future).
function turnStarts() {
  const all = [...state.log, ...[...state.future].reverse()];
  const starts = [0];
  for (let i = 1; i < all.length; i++)
    if (all[i].turn !== all[i - 1].turn)
      starts.push(i);
  return { starts, total: all.length };
}

function backTurn() {
  const n = state.log.length;
  const { starts } = turnStarts();
  goTo(starts.filter((i) => i < n).at(-1) ?? 0);
}

function forwardTurn() {
  const n = state.log.length;
  const { starts, total } = turnStarts();
  goTo(starts.find((i) => i > n) ?? total);
}

function continueHere() {
  state.future = [];
  state.serial++;
  say('The later decisions are dropped: the game goes on from here');
  render();
}

// A game from its rules, its start and its decisions (a record, a link).
function loadGame(rulesText, bpn, moves, player = 'record') {
  newGame(rulesText, bpn);
  try {
    for (const m of moves)
      applyEntry(m, player);
  } catch (e) {
    say(`Decision ${state.log.length + 1}: ${e.message}`, 'error');
  }
  render();
}

function loadRecordText(text, from) {
  if (state.online)
    return;
  let game;
  try {
    game = ball.Game.fromRecord(text);
  } catch (e) {
    say(`${from}: ${e.message}`, 'error');
    return;
  }
  const n = game.historyLength;
  const start = n ? game.historyPosition(0) : game.bpn;
  const moves = game.history().map((a) => a.text);
  const rules = game.rules.text;
  game.free();
  loadGame(rules, start, moves);
  if (state.message === '')
    say(`${from}: a game of ${n} decisions loaded`);
}

function saveGame() {
  const game = state.game;
  for (const team of ['ATK', 'DEF']) {
    const name = state.players[team];
    const note = parsePlayer(name)?.kind === 'search' ? EVALUATION_NOTE[state.evaluation] : '';
    game.setTag(team.toLowerCase(), playerLabel(name) + (note ? `, ${note}` : ''));
  }
  const url = URL.createObjectURL(new Blob([game.record], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `ball-game-turn-${game.turn}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  say(`Saved: ${a.download} (the game record, docs/records.md)`);
}

// The link that carries the game: its rules, start and decisions in the
// URL's fragment (never sent to the server).
function gameLink() {
  const f = new URLSearchParams();
  if (state.rulesText)
    f.set('rules', state.rulesText);
  if (state.startBpn !== ball.START_BPN)
    f.set('bpn', state.startBpn);
  f.set('moves', state.log.map((e) => e.action.text).join(' '));
  return `${location.href.replace(/#.*$/, '')}#${f}`;
}

async function shareGame() {
  const link = gameLink();
  history.replaceState(null, '', link);
  $('share-url').value = link;
  $('share-url').hidden = false;
  try {
    await navigator.clipboard.writeText(link);
    say('Link copied: it opens this game at this position');
  } catch {
    $('share-url').select();
    say('Copy the link above: it opens this game at this position');
  }
}

function fromFragment() {
  const f = new URLSearchParams(location.hash.slice(1));
  if (!f.has('moves') && !f.has('bpn'))
    return false;
  loadGame(f.get('rules') ?? '', f.get('bpn') ?? undefined,
    (f.get('moves') ?? '').split(' ').filter((m) => m));
  if (state.message === '')
    say(`The shared game: ${state.log.length} decisions`);
  return true;
}

function humanPlays(action) {
  if (!humanToAct())
    return;
  if (state.online) {
    // checked here for quick feedback, and again by the server
    if (state.game.isLegal(action)) {
      state.chosen = [];
      state.online.decide(typeof action === 'string' ? action : action.text);
    } else
      say(`${typeof action === 'string' ? action : action.text} is not legal here`, 'error');
    render();
    return;
  }
  try {
    play(action);
  } catch (e) {
    say(e.message, 'error');
    render();
  }
}

function undo() {
  const game = state.game;
  if (state.online)
    return;
  if (game.historyLength === 0) {
    say('Nothing to undo', 'error');
    return;
  }
  stopBot();
  const someHuman = state.players.ATK === 'human' || state.players.DEF === 'human';
  do {
    undoOne();
  } while (someHuman && game.historyLength > 0 && state.players[game.side] !== 'human');
  state.future = []; // Undo takes back and forgets; the history's buttons keep the later part
  state.serial++;
  state.chosen = [];
  say('');
  render();
}

// A built-in player's decision is scheduled once per position (state.bot.key);
// stopBot() forgets it, and the answer of a search under way is then dropped
// (state.bot.token).
function stopBot() {
  clearTimeout(state.bot.timer);
  state.bot.timer = 0;
  state.bot.key = '';
  state.bot.token++;
  if (state.bot.thinking)
    searcher.cancel();
  state.bot.thinking = null;
}

function scheduleBot() {
  const game = state.game;
  if (game.isOver || state.players[game.side] === 'human' || state.future.length) {
    if (state.bot.key)
      stopBot();
    return;
  }
  const name = state.players[game.side];
  const key = `${state.serial} ${game.side} ${name}`;
  if (state.bot.key === key)
    return; // scheduled, thinking, or failed here
  stopBot();
  state.bot.key = key;
  const token = state.bot.token;
  state.bot.timer = setTimeout(() => {
    state.bot.timer = 0;
    if (token === state.bot.token)
      botPlays(name, token);
  }, BOT_DELAY);
}

async function botPlays(name, token) {
  const game = state.game;
  const player = parsePlayer(name);
  if (player.kind !== 'mcts' && player.kind !== 'search') {
    try {
      play(choose(player.kind, game), name);
    } catch (e) {
      say(e.message, 'error');
      render();
    }
    return;
  }
  const side = game.side;
  let seed = null;
  if (SEED !== null && state.seedPending[side]) {
    seed = side === 'ATK' ? SEED : SEED ^ 0x9e3779b9n;
    state.seedPending[side] = false;
  }
  state.bot.thinking = side;
  const serial = state.serial;
  const turn = game.turn;
  render();
  try {
    const r = await searcher.search({ side, kind: player.kind, options: player.options, seed,
      start: state.startBpn, moves: state.log.map((e) => e.action.text), rules: state.rulesText,
      evaluation: player.kind === 'search' ? state.evaluation : undefined });
    if (token !== state.bot.token || r === null)
      return; // the position changed meanwhile
    state.bot.thinking = null;
    const st = r.stats;
    const ms = `${st.elapsedMs < 1 ? 'under 1' : fmt(st.elapsedMs)} ms`;
    let what;
    if (player.kind === 'search')
      what = st.nodes ? `depth ${st.depth}, ${fmt(st.nodes)} nodes in ${ms}, value ${signed(st.value)} for ${side} ` +
        '(from \u22121, a touchdown it cannot stop, to +1, a forced touchdown; about \u00b10.5 is the ball\'s worth)' :
        'no search needed';
    else
      what = st.playouts ? `${fmt(st.playouts)} playouts, ${fmt(st.nodes)} nodes in ${ms}, ` +
        `value ${st.value.toFixed(2)} (${side}'s mean result in its random playouts: 0 lost, 1 won)` : 'no search needed';
    const why = r.action === 'end' && game.pa > 0 ?
      ` Ending the action phase with ${game.pa} PA left is legal (R4.2): the search found no action worth more.` : '';
    if (EVALUATION_NOTE[st.evaluation] && st.nodes)
      what += `, with ${EVALUATION_NOTE[st.evaluation]}`;
    state.searchInfo = `${side} (${playerLabel(name)}) played ${r.action}: ${what}` +
      (r.where === 'worker' ? ' (in a worker).' : ' (in the page).') + why;
    if (r.analysis?.depth > 0) // (depth 0: the only legal decision, not searched)
      state.analysis = { ...r.analysis, serial, turn, by: `${side}'s ${playerLabel(name)}` };
    play(r.action, name);
  } catch (e) {
    if (token !== state.bot.token)
      return;
    state.bot.thinking = null;
    say(`${side} (${playerLabel(name)}): ${e.message}`, 'error');
    render();
  }
}

// The Hint button: the turn search on the person's position, in the same
// worker; the suggested decision is shown and marked on the board, never
// played. An answer for a position that has changed since is dropped.
async function hint() {
  const game = state.game;
  if (!humanToAct() || state.hint?.pending)
    return;
  const serial = state.serial;
  const turn = game.turn;
  state.hint = { serial, pending: true };
  render();
  try {
    const r = await searcher.search({ side: 'hint', kind: 'search', options: HINT.options, seed: 1n,
      start: state.startBpn, moves: state.log.map((e) => e.action.text), rules: state.rulesText });
    if (serial !== state.serial || state.hint?.serial !== serial || !state.hint.pending)
      return; // another position, or stopped
    if (r === null) {
      state.hint = null;
    } else {
      const a = r.analysis;
      if (a.depth > 0)
        state.analysis = { ...a, serial, turn, by: `the hint (${playerLabel(DEFAULT_COMPUTER)})` };
      const more = a.depth === 0 ? ' (the only legal decision)' :
        a.bestTurn && a.bestTurn !== a.best ? ` (the turn: ${a.bestTurn})` : '';
      state.hint = { serial, action: a.best, text: `Hint for ${a.side}: ${a.best}${more}` };
    }
  } catch (e) {
    if (serial !== state.serial)
      return;
    state.hint = null;
    say(`Hint: ${e.message}`, 'error');
  }
  render();
}

// The Stop button (or the `s` key): stops the search under way, a computer
// player's or the hint's. The searcher drops it (a busy worker is
// terminated and a fresh one takes the next search), so nothing is played
// and the game is unchanged; a stopped computer player's side is handed to
// a person (choosing a computer player for it again lets it search anew),
// else the scheduler would only start the same search again.
function searching() {
  return state.bot.thinking !== null || Boolean(state.hint?.pending && state.hint.serial === state.serial);
}

function stop() {
  if (!searching())
    return;
  if (state.bot.thinking !== null) {
    const side = state.bot.thinking;
    const name = state.players[side];
    stopBot();
    state.players[side] = 'human';
    $(`player-${side}`).value = 'human';
    say(`Stopped ${side}'s ${playerLabel(name)}: nothing was played. ${side} is played by a person now ` +
      '(choose a computer player for it to let it search again).');
  } else {
    searcher.cancel();
    state.hint = { serial: state.serial, text: 'Hint stopped.' };
  }
  render();
}

// Sets el's text, each decision (a word with a square name) in a span
// that is not broken at its hyphen: "G13-I15" stays on one line.
function setDecisions(el, text) {
  el.replaceChildren(...text.split(/( )/).map((w) => {
    if (!/[A-M]\d/.test(w))
      return document.createTextNode(w);
    const span = document.createElement('span');
    span.className = 'act';
    span.textContent = w;
    return span;
  }));
}

// The evaluation bar and the best line of the last turn search.
function renderAnalysis() {
  const a = state.analysis;
  const box = $('analysis');
  box.hidden = a === null;
  if (!a)
    return;
  // the bar shows ATK's share: the value is for the coach to act
  const forAtk = a.side === 'ATK' ? a.value : -a.value;
  const fill = $('eval-fill');
  fill.style.width = `${(50 * (forAtk + 1)).toFixed(1)}%`;
  const bar = $('eval-bar');
  bar.setAttribute('aria-valuenow', a.value.toFixed(2));
  bar.setAttribute('aria-valuetext', `${signed(a.value)} for ${a.side}`);
  const proven = a.proven > 0 ? ` · a forced touchdown for ${a.side} in ${a.decisionsToEnd} decisions` :
    a.proven < 0 ? ` · ${a.side} cannot stop a touchdown (${a.decisionsToEnd} decisions)` : '';
  $('eval-value').textContent = signed(a.value);
  $('eval-label').textContent = `for ${a.side} to act, turn ${a.turn}${proven} · depth ${a.depth}, ` +
    `${fmt(a.nodes)} nodes · by ${a.by}${a.serial === state.serial ? '' : ' (an earlier position)'}`;
  setDecisions($('best-line'), a.pv);
}

// ------------------------------------------------------------ selection (R12)

function cancel() {
  if (state.chosen.length) {
    state.chosen = [];
    say('');
    render();
  }
}

function startPiece(square) {
  const verbs = state.game.select([square]).choices;
  state.chosen = [square, verbs.includes('-') ? '-' : verbs[0]];
  say('');
  render();
}

function chooseNext(value) {
  const chosen = [...state.chosen, value];
  const { action } = state.game.select(chosen);
  if (action) {
    humanPlays(action);
    return;
  }
  state.chosen = chosen;
  render();
}

function onSquare(square) {
  if (!humanToAct())
    return;
  if (state.message)
    say(''); // a message is about the click before this one
  if (state.cursor)
    state.cursor = square; // the keyboard's cursor (once used) follows the clicks
  const game = state.game;
  const roots = game.select([]).choices;
  const chosen = state.chosen;
  if (chosen.length === 0) {
    if (roots.includes(square))
      startPiece(square);
    else if (game.square(square).upper)
      say(game.phase === 'release' ? `${square} has no release task` : `${square} cannot act now`, 'error');
    return;
  }
  const cardStep = chosen.length === 2 && chosen[1] === 'card';
  const { choices } = game.select(chosen);
  if (!cardStep && choices.includes(square)) {
    chooseNext(square);
  } else if (square !== chosen[0] && roots.includes(square)) {
    startPiece(square);
  } else {
    cancel();
  }
}

// What the person is asked to click now.
// On a touch screen the prompts say tap, not click (issue 49).
const TOUCH = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
const forPointer = (text) => (TOUCH ? text.replace(/\bClick\b/g, 'Tap').replace(/\bclick\b/g, 'tap') : text);

function promptText(game, chosen, choices) {
  if (game.isOver)
    return 'The game is over: start a new one, undo, or load a position.';
  if (!humanToAct()) {
    const who = `${game.side} (${playerLabel(state.players[game.side])})`;
    return state.bot.thinking ? `${who} is thinking…` : `${who} is playing…`;
  }
  const release = game.phase === 'release';
  if (chosen.length === 0) {
    if (release)
      return 'Release phase: click a task (a knocked-down piece to stand up, or a stack to release).';
    return choices.length ? 'Click a piece to act, or end the action phase.' :
      'No piece can act: end the action phase.';
  }
  const verb = chosen[1];
  if (chosen.length === 2) {
    if (verb === 'card')
      return 'Choose the card to play on this piece.';
    if (release) {
      const task = game.releaseTasks().find((t) => t.square === chosen[0]);
      const s = game.square(chosen[0]);
      return task?.kind === 'stand_up' ? `Stand up: click the square where the knocked-down ${s.upper.type} on ${chosen[0]} stands up.` :
        `Release the stack on ${chosen[0]}: click the square where its upper piece (${s.upper.team} ${s.upper.type}) goes.`;
    }
    return {
      '-': 'Click the destination (highlighted).',
      '=': 'Click the piece that receives the ball (hand-off).',
      '^': 'Click where the ball lands (short pass).',
      '^^': 'Click where the ball lands (long pass).',
    }[verb];
  }
  if (chosen.length === 3) {
    const kind = game.legalActions().find((a) => a.from === chosen[0] && a.to === chosen[2])?.kind;
    if (kind === 'dodge')
      return 'Dodge: click the exit square.';
    if (kind === 'tactical_dodge')
      return 'Tactical dodge: click the square the opponent is pushed to.';
    const s = game.square(chosen[0]);
    return `Click the square where the lower piece (${s.lower?.team} ${s.lower?.type}) goes.`;
  }
  return 'The upper piece held the ball: click the piece that keeps it.';
}

// A decision in words for a newcomer, from the position before it (the
// N2 text is shown beside it).
function describeAction(game, a) {
  const who = (sq) => {
    const p = game.square(sq)?.upper;
    return p ? `${p.team === 'ATK' ? p.type : p.type.toLowerCase()} on ${sq}` : sq;
  };
  const stackOf = (sq) => game.square(sq);
  const extra = `${a.pickup ? ', picks up the ball' : ''}${a.forcedFumble ? ', takes the ball (forced fumble)' : ''}` +
    `${a.fumble ? ', the ball comes loose' : ''}`;
  switch (a.kind) {
    case 'move': return `moves ${who(a.from)} to ${a.to}${extra}`;
    case 'dodge': return `${who(a.from)} dodges ${who(a.to)} (knocked down), out to ${a.option}${extra}`;
    case 'tactical_dodge': return `${who(a.from)} jumps to ${a.to}, pushing the piece it passes to ${a.option} ` +
      `(knocked down)${extra}`;
    case 'block': return `${who(a.from)} blocks ${who(a.to)} (a stack)`;
    case 'protect': return `${who(a.from)} protects ${who(a.to)} (a stack)`;
    case 'handoff': return `${who(a.from)} hands the ball to ${who(a.to)}`;
    case 'short_pass': return `${who(a.from)} passes short: the ball lands on ${a.to}`;
    case 'long_pass': return `${who(a.from)} passes long: the ball lands on ${a.to}`;
    case 'end': return game.pa > 0 ? `ends the action phase (${game.pa} PA unused)` : 'ends the action phase';
    case 'stand_up': return `the knocked-down ${who(a.from)} stands up on ${a.to}`;
    case 'unblock': case 'unprotect': {
      const st = stackOf(a.from);
      const keeper = a.keeper === 'upper' ? `, ${st.upper.type} keeps the ball` :
        a.keeper === 'lower' ? `, ${st.lower.type} gets the ball` : '';
      return `the stack on ${a.from} is released: ${st.upper.type} to ${a.to}, ${st.lower?.type} to ${a.option}${keeper}`;
    }
    case 'convert_pa': return 'converts PA into PE';
    default: return `plays ${a.text}`;
  }
}

// ------------------------------------------------------------ drawing

function say(text, kind = '') {
  state.message = text;
  state.messageKind = kind;
  const m = $('message');
  m.textContent = text;
  m.className = kind;
}

function render() {
  const game = state.game;
  const human = humanToAct();
  const chosen = state.chosen;
  const sel = human ? game.select(chosen) : { choices: [], action: null };
  const marks = new Map();
  const mark = (sq, m) => {
    if (!marks.has(sq))
      marks.set(sq, []);
    marks.get(sq).push(m);
  };
  const last = state.log.at(-1)?.action;
  for (const sq of [last?.from, last?.to, last?.option])
    if (sq)
      mark(sq, 'last');
  if (game.phase === 'release' && !game.isOver)
    for (const t of game.releaseTasks())
      mark(t.square, 'task');
  const hinted = state.hint?.action && state.hint.serial === state.serial ? game.parseAction(state.hint.action) : null;
  for (const sq of [hinted?.from, hinted?.to, hinted?.option])
    if (sq)
      mark(sq, 'hint');
  if (human) {
    if (chosen.length === 0)
      sel.choices.forEach((sq) => mark(sq, 'selectable'));
    else {
      mark(chosen[0], 'selected');
      if (chosen.length >= 3)
        mark(chosen[2], 'selected');
      if (chosen.length >= 4)
        mark(chosen[3], 'selected');
      if (!(chosen.length === 2 && chosen[1] === 'card')) {
        const kind = chosen.length === 2 ? 'dest' : chosen.length === 3 ? 'option' : 'keeper';
        sel.choices.forEach((sq) => mark(sq, kind));
      }
    }
  }
  // the library draws the hint's arrow, else the last decision's
  drawBoard(svg, { game, marks, arrow: hinted ?? last ?? null, cursor: state.cursor });

  // state of the game
  const side = game.side;
  const result = game.result;
  $('side-chip').textContent = result === 'ongoing' ? `${TEAM_NAME[side]} to act` : 'Game over';
  $('side-chip').className = `chip ${result === 'ongoing' ? side.toLowerCase() : 'over'}`;
  $('turn').textContent = `turn ${game.turn}`;
  $('phase').textContent = game.isOver ? '' : game.phase === 'action' ? 'action phase' : 'release phase';
  $('pa').textContent = game.isOver ? '' : game.phase === 'action' ? `PA ${'●'.repeat(Math.min(game.pa, 9))}${game.pa > 9 ? game.pa : ''}${'○'.repeat(Math.max(0, 2 - game.pa))}` : '';
  $('handoff').hidden = !game.handoffLast;
  const banner = $('result');
  let status;
  if (result === 'atk_won' || result === 'def_won') {
    const w = game.winner;
    status = `Touchdown! ${w} wins (turn ${game.turn})`;
    banner.textContent = `Touchdown! ${w} wins`;
    banner.className = `banner ${w.toLowerCase()}`;
    banner.hidden = false;
  } else if (result === 'draw') {
    status = `Draw: the turn limit is reached (turn ${game.turn})`;
    banner.textContent = 'Draw: turn limit reached';
    banner.className = 'banner draw';
    banner.hidden = false;
  } else {
    status = `${side} to act · turn ${game.turn} · ${game.phase} phase` +
      (game.phase === 'action' ? ` · ${game.pa} PA left` : '');
    banner.hidden = true;
  }
  $('status').textContent = status;
  $('prompt').textContent = forPointer(promptText(game, chosen, sel.choices));
  $('prompt').classList.toggle('thinking', state.bot.thinking !== null);
  $('board-wrap').setAttribute('aria-busy', String(state.bot.thinking !== null));
  $('search-info').textContent = state.searchInfo;
  const hintNow = state.hint?.serial === state.serial ? state.hint : null;
  $('hint').disabled = !human || Boolean(hintNow?.pending);
  $('hint').setAttribute('aria-busy', String(Boolean(hintNow?.pending)));
  setDecisions($('hint-text'), hintNow?.pending ? 'Looking for a hint…' : hintNow?.text ?? '');
  $('hint-text').dataset.action = hintNow?.action ?? '';
  $('stop').disabled = !searching();
  renderAnalysis();

  // verbs of the selected piece (a carrier can move, hand off or pass)
  const verbsBox = $('verbs');
  verbsBox.replaceChildren();
  if (human && chosen.length >= 2) {
    const verbs = game.select([chosen[0]]).choices;
    if (verbs.length > 1) {
      for (const v of verbs) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = `${verbs.indexOf(v) + 1} ${VERB_LABELS[v] ?? v}`;
        b.title = `key ${verbs.indexOf(v) + 1}`;
        b.dataset.verb = v;
        b.setAttribute('aria-pressed', String(v === chosen[1]));
        b.addEventListener('click', () => {
          state.chosen = [chosen[0], v];
          render();
        });
        verbsBox.appendChild(b);
      }
    }
  }
  verbsBox.hidden = verbsBox.childElementCount === 0;
  // hand indices after the verb 'card'
  const choicesBox = $('choices');
  choicesBox.replaceChildren();
  if (human && chosen.length === 2 && chosen[1] === 'card') {
    const hand = game.hands[side];
    for (const i of sel.choices) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `card${i + 1}: ${hand[i]?.name ?? ''}`;
      b.addEventListener('click', () => chooseNext(i));
      choicesBox.appendChild(b);
    }
  }
  choicesBox.hidden = choicesBox.childElementCount === 0;

  $('end').disabled = !human || !game.isLegal('end');
  $('cancel').disabled = !human || chosen.length === 0;
  $('undo').disabled = game.historyLength === 0;

  // release tasks
  const tasksBox = $('tasks');
  const list = $('task-list');
  list.replaceChildren();
  if (game.phase === 'release' && !game.isOver) {
    for (const t of game.releaseTasks()) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.task = t.square;
      const what = t.kind === 'stand_up' ? `stand up the knocked-down ${game.square(t.square).upper.type}` :
        `release the stack ${game.square(t.square).text}`;
      b.textContent = `${t.square}: ${what}${t.solvable ? '' : ' (no solution: it waits)'}`;
      b.disabled = !human || !t.solvable;
      b.addEventListener('click', () => startPiece(t.square));
      li.appendChild(b);
      list.appendChild(li);
    }
  }
  tasksBox.hidden = list.childElementCount === 0;

  // card mode: PE, hands, the decisions without a piece
  const rules = game.rules;
  const cardsBox = $('cards');
  cardsBox.hidden = !rules.cards;
  if (rules.cards) {
    const pe = game.pe;
    const hands = game.hands;
    const handText = (team) => hands[team].map((c) =>
      `${c.held ? '' : '<s>'}card${c.number} ${c.name} (${c.cost} PE, ${c.effect})${c.held ? '' : '</s>'}`).join(', ') || 'none';
    $('pe').innerHTML = `<div><b>ATK</b> ${pe.ATK} PE · ${handText('ATK')}</div>` +
      `<div><b>DEF</b> ${pe.DEF} PE · ${handText('DEF')}</div>`;
    const others = $('others');
    others.replaceChildren();
    if (human)
      for (const a of game.legalActions())
        if (a.kind === 'convert_pa' || (a.kind === 'play_card' && !a.from)) {
          const b = document.createElement('button');
          b.type = 'button';
          b.textContent = a.text;
          b.addEventListener('click', () => humanPlays(a));
          others.appendChild(b);
        }
  }

  // BPN and the decisions so far
  const ta = $('bpn');
  if (document.activeElement !== ta)
    ta.value = game.bpn;
  // the history: each decision a button that shows the position after it
  const item = (e, n) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'step';
    b.title = 'show the position after this decision';
    const words = document.createElement('span');
    words.className = 'words';
    words.textContent = `Turn ${e.turn}, ${e.side}: ${e.words}`;
    const code = document.createElement('code');
    code.textContent = e.action.text;
    b.append(words, ' ', code);
    b.addEventListener('click', () => goTo(n));
    li.appendChild(b);
    li.dataset.action = e.action.text;
    li.dataset.bpn = e.bpn;
    li.dataset.player = e.player;
    return li;
  };
  const log = $('log');
  log.replaceChildren(...state.log.map((e, i) => item(e, i + 1)));
  if (log.lastElementChild)
    log.lastElementChild.setAttribute('aria-current', 'step');
  const later = [...state.future].reverse();
  const future = $('future');
  future.start = state.log.length + 1;
  future.replaceChildren(...later.map((e, i) => item(e, state.log.length + i + 1)));
  future.hidden = later.length === 0;
  $('continue').hidden = later.length === 0;
  $('history-note').textContent = later.length ?
    `An earlier position: ${later.length} later decision${later.length > 1 ? 's' : ''} below. Play on from here ` +
    '(a different decision drops them), or go forward again.' : '';
  $('back-turn').disabled = state.log.length === 0;
  $('forward-turn').disabled = later.length === 0;
  $('goto-start').disabled = state.log.length === 0;
  if (!later.length)
    log.scrollTop = log.scrollHeight;

  Object.assign(document.body.dataset, {
    side, phase: game.phase, turn: String(game.turn), result, step: String(chosen.length),
    verb: chosen.length >= 2 ? String(chosen[1]) : '', thinking: state.bot.thinking ?? '',
    decisions: String(state.log.length), later: String(state.future.length), search: searcher.mode, cursor: state.cursor ?? '',
  });
  state.online?.render(game);
  scheduleBot();
}

// ------------------------------------------------------------ start

try {
  ball = await load();
} catch (e) {
  $('status').textContent = `The engine did not load: ${e.message}`;
  throw e;
}
svg = createBoard($('board-host'), onSquare);
searcher = createSearcher(ball, { useWorker: params.get('worker') !== '0' });
const startErrors = [];
for (const team of ['ATK', 'DEF']) {
  const sel = $(`player-${team}`);
  const wanted = params.get(team.toLowerCase());
  const names = parsePlayer(wanted) && !PLAYERS.includes(wanted) ? [...PLAYERS, wanted] : PLAYERS;
  for (const p of names)
    sel.add(new Option(playerLabel(p), p));
  state.players[team] = parsePlayer(wanted) ? wanted : 'human';
  if (wanted !== null && !parsePlayer(wanted))
    startErrors.push(`${team}: no player '${wanted}' (human, random, greedy, search, search:nodes=N, ` +
      'search:ms=T, mcts, mcts:playouts=N, mcts:ms=T)');
  sel.value = state.players[team];
  sel.addEventListener('change', () => {
    state.players[team] = sel.value;
    state.chosen = [];
    render();
  });
}
// How the computer players' turn searches evaluate: the next search uses
// the choice (a search under way is stopped and started again).
for (const [value, label] of Object.entries(EVALUATIONS))
  $('evaluation').append(new Option(label, value));
$('evaluation').value = state.evaluation;
$('evaluation').addEventListener('change', () => {
  state.evaluation = $('evaluation').value;
  if (state.bot.key) {
    stopBot();
    render();
  }
});
$('end').addEventListener('click', () => humanPlays('end'));
$('hint').addEventListener('click', hint);
$('stop').addEventListener('click', stop);
$('cancel').addEventListener('click', cancel);
$('undo').addEventListener('click', undo);
$('new').addEventListener('click', newGameFromForm);
$('load').addEventListener('click', loadBpn);
$('copy').addEventListener('click', copyBpn);
$('save').addEventListener('click', saveGame);
$('share').addEventListener('click', shareGame);
$('open-file').addEventListener('change', async () => {
  const file = $('open-file').files[0];
  if (file)
    loadRecordText(await file.text(), file.name);
  $('open-file').value = '';
});
document.addEventListener('dragover', (ev) => {
  if (ev.dataTransfer?.types.includes('Files')) {
    ev.preventDefault();
    document.body.classList.add('dropping');
  }
});
document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
document.addEventListener('drop', async (ev) => {
  const file = ev.dataTransfer?.files[0];
  document.body.classList.remove('dropping');
  if (!file)
    return;
  ev.preventDefault();
  loadRecordText(await file.text(), file.name);
});
$('back-turn').addEventListener('click', backTurn);
$('forward-turn').addEventListener('click', forwardTurn);
$('goto-start').addEventListener('click', () => goTo(0));
$('continue').addEventListener('click', continueHere);
document.addEventListener('keydown', (ev) => {
  if (ev.target.closest?.('input, textarea, select'))
    return;
  const onBoard = Boolean(ev.target.closest?.('#board-box')) || ev.target === document.body;
  const plain = !ev.ctrlKey && !ev.metaKey && !ev.altKey;
  const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[ev.key];
  if (step && onBoard && plain) {
    ev.preventDefault();
    state.cursor = moveCursor(state.cursor ?? state.chosen[0] ?? 'G9', step, state);
    render();
  } else if ((ev.key === 'Enter' || ev.key === ' ') && onBoard && plain) {
    ev.preventDefault();
    if (state.cursor)
      onSquare(state.cursor);
    else {
      state.cursor = state.chosen[0] ?? 'G9';
      render();
    }
  } else if (/^[1-9]$/.test(ev.key) && plain && state.chosen.length >= 2) {
    const b = $('verbs').querySelectorAll('button')[Number(ev.key) - 1] ?? $('choices').querySelectorAll('button')[Number(ev.key) - 1];
    b?.click();
  } else if (ev.key === 'e' && plain && !ev.target.closest?.('button')) {
    if (humanToAct() && state.game.isLegal('end'))
      humanPlays('end');
  } else if (ev.key === 'Escape')
    cancel();
  else if (ev.key === 'u' && !ev.ctrlKey && !ev.metaKey && !ev.altKey)
    undo();
  else if (ev.key === 'h' && !ev.ctrlKey && !ev.metaKey && !ev.altKey)
    hint();
  else if (ev.key === 's' && plain)
    stop();
});
$('version').textContent = `libball ${ball.version} (WebAssembly)`;
drawLegend(ball, $('legend-icons'));
// at phone width the legend starts folded, so the turn and the prompt come
// right under the board
if (matchMedia('(max-width: 820px)').matches)
  $('legend').open = false;

if (params.has('game')) {
  // an invitation link: the server's game (online.mjs), the seat of the
  // fragment's token or, without one, watching
  newGame('', undefined);
  state.online = startOnline({
    gameId: params.get('game'),
    token: new URLSearchParams(location.hash.slice(1)).get('token'),
    hooks: {
      reset: (rules) => newGame(rules, undefined),
      apply: (action) => {
        state.chosen = [];
        state.future = [];
        return applyEntry(action, 'server').bpn;
      },
      bpn: () => state.game.bpn,
      render,
      say,
    },
  });
  render();
} else {
  try {
    newGame(params.get('rules') ?? '', params.get('bpn') ?? undefined);
  } catch (e) {
    newGame('', undefined);
    startErrors.push(e.message);
  }
  try {
    fromFragment();
  } catch (e) {
    newGame('', undefined);
    startErrors.push(`the link's game: ${e.message}`);
  }
}
if (startErrors.length)
  say(startErrors.join('; '), 'error');
document.body.dataset.ready = '1';
