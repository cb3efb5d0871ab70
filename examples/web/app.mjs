// The playable page: libball's JavaScript binding, an SVG board and the
// selection flow of R12 (piece, verb, destination, exit / push / lower
// square, keeper), with cancel, undo, the release phase, BPN load and copy
// and the built-in players. No framework; see docs/web.md.
//
// URL parameters: atk=, def= (human, random, greedy), delay= (ms between
// the built-in players' decisions, default 500), rules= (rules text),
// bpn= (a position to start from).
import { load } from './libball.mjs';
import { createBoard, drawBoard } from './board.mjs';
import { PLAYERS, choose } from './players.mjs';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const BOT_DELAY = Math.max(0, Number(params.get('delay') ?? 500) || 0);

const VERB_LABELS = { '-': 'Move', '=': 'Hand off', '^': 'Short pass', '^^': 'Long pass', card: 'Card' };
const TEAM_NAME = { ATK: 'ATK', DEF: 'DEF' };

let ball;
let svg;
const state = {
  game: null,
  rulesText: '',
  endZoneDepth: 1,
  players: { ATK: 'human', DEF: 'human' },
  chosen: [],      // the choices of the selection under way (R12)
  log: [],         // { turn, side, action } of each decision, for display and undo
  message: '',
  messageKind: '',
  botTimer: 0,
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
  say('');
  render();
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
  return !state.game.isOver && state.players[state.game.side] === 'human';
}

function play(action) {
  const game = state.game;
  const entry = { turn: game.turn, side: game.side, action: null };
  entry.action = game.apply(action);
  state.log.push(entry);
  state.chosen = [];
  say('');
  render();
}

function humanPlays(action) {
  if (!humanToAct())
    return;
  try {
    play(action);
  } catch (e) {
    say(e.message, 'error');
    render();
  }
}

function undo() {
  const game = state.game;
  if (game.historyLength === 0) {
    say('Nothing to undo', 'error');
    return;
  }
  stopBot();
  const someHuman = state.players.ATK === 'human' || state.players.DEF === 'human';
  do {
    game.undo();
    state.log.pop();
  } while (someHuman && game.historyLength > 0 && state.players[game.side] !== 'human');
  state.chosen = [];
  say('');
  render();
}

function stopBot() {
  clearTimeout(state.botTimer);
  state.botTimer = 0;
}

function scheduleBot() {
  stopBot();
  const game = state.game;
  if (game.isOver || state.players[game.side] === 'human')
    return;
  const kind = state.players[game.side];
  state.botTimer = setTimeout(() => {
    state.botTimer = 0;
    if (state.game !== game || game.isOver || state.players[game.side] !== kind)
      return;
    try {
      play(choose(kind, game));
    } catch (e) {
      say(e.message, 'error');
    }
  }, BOT_DELAY);
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
function promptText(game, chosen, choices) {
  if (game.isOver)
    return 'The game is over: start a new one, undo, or load a position.';
  if (!humanToAct())
    return `${game.side} (${state.players[game.side]}) is playing…`;
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
      return task?.kind === 'stand_up' ? 'Click where the piece stands up.' :
        'Click the square for the upper piece.';
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
    return 'Click the square for the lower piece.';
  }
  return 'Click the piece that keeps the ball.';
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
  drawBoard(svg, { game, endZoneDepth: state.endZoneDepth, marks });

  // state of the game
  const side = game.side;
  const result = game.result;
  $('side-chip').textContent = result === 'ongoing' ? `${TEAM_NAME[side]} to act` : 'Game over';
  $('side-chip').className = `chip ${result === 'ongoing' ? side.toLowerCase() : 'over'}`;
  $('turn').textContent = `turn ${game.turn}`;
  $('phase').textContent = game.phase === 'action' ? 'action phase' : 'release phase';
  $('pa').textContent = game.phase === 'action' ? `PA ${'●'.repeat(Math.min(game.pa, 9))}${game.pa > 9 ? game.pa : ''}${'○'.repeat(Math.max(0, 2 - game.pa))}` : '';
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
  $('prompt').textContent = promptText(game, chosen, sel.choices);

  // verbs of the selected piece (a carrier can move, hand off or pass)
  const verbsBox = $('verbs');
  verbsBox.replaceChildren();
  if (human && chosen.length >= 2) {
    const verbs = game.select([chosen[0]]).choices;
    if (verbs.length > 1) {
      for (const v of verbs) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = VERB_LABELS[v] ?? v;
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
  const log = $('log');
  log.replaceChildren(...state.log.map((e) => {
    const li = document.createElement('li');
    li.textContent = `T${e.turn} ${e.side} ${e.action.text}`;
    return li;
  }));
  log.scrollTop = log.scrollHeight;

  Object.assign(document.body.dataset, {
    side, phase: game.phase, turn: String(game.turn), result, step: String(chosen.length),
    verb: chosen.length >= 2 ? String(chosen[1]) : '',
  });
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
for (const team of ['ATK', 'DEF']) {
  const sel = $(`player-${team}`);
  for (const p of PLAYERS)
    sel.add(new Option(p, p));
  const wanted = params.get(team.toLowerCase());
  state.players[team] = PLAYERS.includes(wanted) ? wanted : 'human';
  sel.value = state.players[team];
  sel.addEventListener('change', () => {
    state.players[team] = sel.value;
    state.chosen = [];
    render();
  });
}
$('end').addEventListener('click', () => humanPlays('end'));
$('cancel').addEventListener('click', cancel);
$('undo').addEventListener('click', undo);
$('new').addEventListener('click', newGameFromForm);
$('load').addEventListener('click', loadBpn);
$('copy').addEventListener('click', copyBpn);
document.addEventListener('keydown', (ev) => {
  if (ev.target.closest?.('input, textarea, select'))
    return;
  if (ev.key === 'Escape')
    cancel();
  else if (ev.key === 'u' && !ev.ctrlKey && !ev.metaKey && !ev.altKey)
    undo();
});
$('version').textContent = `libball ${ball.version} (WebAssembly)`;

try {
  newGame(params.get('rules') ?? '', params.get('bpn') ?? undefined);
} catch (e) {
  newGame('', undefined);
  say(e.message, 'error');
}
document.body.dataset.ready = '1';
