// SPDX-License-Identifier: MIT
// The lobby page of the game server (served at /lobby/; docs/server.md,
// "The lobby"): the public games with an open seat and those in play,
// read from GET /api/games every few seconds; a form that creates a game
// (POST /api/games) against a person or the turn search; a seat joined
// with POST /api/games/ID/claim. Each leads to the board page of the
// game (/?game=ID#token=...), which plays it; "Watch" opens it without a
// token. The player's name is kept in this browser (localStorage).

import { botName, clockText, el, post, rulesText, seatName } from './describe.mjs';

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;
const NAME_KEY = 'ball-lobby-name';

function myName() {
  return $('name').value.trim().slice(0, 40);
}

function opponent() {
  return document.querySelector('input[name="opponent"]:checked').value;
}

function showForm() {
  $('rules-text').hidden = $('rules').value !== 'custom';
  $('level-row').hidden = opponent() !== 'bot';
}

/** The options of POST /api/games from the form. */
function options() {
  const side = $('side').value;
  const other = side === 'ATK' ? 'DEF' : 'ATK';
  const rules = $('rules').value === 'custom' ? $('rules-text').value.trim() : $('rules').value;
  const opts = { rules, turn_seconds: Number($('clock').value), public: $('public').checked };
  opts[`${side.toLowerCase()}_name`] = myName();
  if (opponent() === 'bot') {
    opts[other.toLowerCase()] = 'bot';
    opts.bot_nodes = Number($('level').value);
  } else if (opts.public) {
    opts.open_seat = other;
  }
  return { opts, side, other };
}

async function create(ev) {
  ev.preventDefault();
  $('create-error').textContent = '';
  $('invite').hidden = true;
  const { opts, side, other } = options();
  $('create-button').disabled = true;
  try {
    const { status, body } = await post('/api/games', opts);
    if (status !== 201) {
      $('create-error').textContent = `Not created: ${body.message || status}`;
      return;
    }
    const mine = body.seats[side].link;
    if (opponent() === 'person' && !opts.public) {
      // a private game: the other seat's link is for the person invited
      $('invite-link').value = body.seats[other].link;
      $('invite-go').href = mine;
      $('invite').hidden = false;
      return;
    }
    location.href = mine;
  } finally {
    $('create-button').disabled = false;
  }
}

async function join(game) {
  $('lobby-error').textContent = '';
  const { status, body } = await post(`/api/games/${encodeURIComponent(game)}/claim`, { name: myName() });
  if (status !== 200) {
    $('lobby-error').textContent = `Could not join: ${body.message || status}`;
    refresh();
    return;
  }
  location.href = body.link;
}

function sideChip(side) {
  return el('span', side, `chip ${side.toLowerCase()}`);
}

function cell(row, content, cls = '') {
  const td = el('td', '', cls);
  if (typeof content === 'string')
    td.textContent = content;
  else
    td.append(content);
  row.append(td);
  return td;
}

function nameCell(row, game, side) {
  const td = cell(row, seatName(game, side));
  if (game.seats[side].kind === 'bot')
    td.classList.add('bot');
  return td;
}

function watchLink(game) {
  const a = el('a', 'Watch', 'button');
  a.href = `/?game=${encodeURIComponent(game.game)}`;
  return a;
}

function render(data) {
  const open = data.games.filter((g) => !g.outcome && Object.values(g.seats).some((s) => s.unclaimed && !s.reserved));
  const play = data.games.filter((g) => !open.includes(g));
  const openBody = $('open').querySelector('tbody');
  openBody.replaceChildren();
  for (const g of open) {
    const free = ['ATK', 'DEF'].find((s) => g.seats[s].unclaimed);
    const host = free === 'ATK' ? 'DEF' : 'ATK';
    const row = el('tr');
    row.dataset.game = g.game;
    const who = cell(row, '');
    who.append(sideChip(host), ` ${seatName(g, host)}`);
    cell(row, sideChip(free));
    cell(row, rulesText(g.rules));
    cell(row, clockText(g.turn_seconds));
    const act = cell(row, '', 'act');
    const b = el('button', `Join as ${free}`);
    b.type = 'button';
    b.addEventListener('click', () => join(g.game));
    act.append(b);
    openBody.append(row);
  }
  $('open').hidden = open.length === 0;
  $('open-none').hidden = open.length > 0;
  $('open-count').textContent = open.length ? `(${open.length})` : '';

  const playBody = $('play').querySelector('tbody');
  playBody.replaceChildren();
  for (const g of play) {
    const row = el('tr');
    row.dataset.game = g.game;
    nameCell(row, g, 'ATK');
    nameCell(row, g, 'DEF');
    cell(row, rulesText(g.rules));
    cell(row, clockText(g.turn_seconds));
    cell(row, `${g.turn} (${g.side} to act)`);
    const act = cell(row, '', 'act');
    act.append(watchLink(g));
    if (g.watchers)
      act.prepend(`${g.watchers} watching `);
    playBody.append(row);
  }
  $('play').hidden = play.length === 0;
  $('play-none').hidden = play.length > 0;
  $('play-count').textContent = play.length ? `(${play.length})` : '';

  const lim = data.limits;
  const level = $('level');
  if (level.options.length !== lim.levels.length) {
    level.replaceChildren(...lim.levels.map((l) => {
      const o = el('option', `${l.name} (searches ${l.nodes} decisions)`);
      o.value = l.nodes;
      return o;
    }));
    level.value = String(lim.levels[Math.min(1, lim.levels.length - 1)]?.nodes ?? '');
  }
  $('limits').textContent = `Games against the computer: ${lim.bot_games} of ${lim.max_bot_games} going on; ` +
    `the strongest: ${botName(lim.max_bot_nodes)}; ${lim.bot_threads} search thread${lim.bot_threads === 1 ? '' : 's'}.`;
}

async function refresh() {
  try {
    const r = await fetch('/api/games');
    if (!r.ok)
      throw new Error(`HTTP ${r.status}`);
    render(await r.json());
    $('lobby-error').textContent = '';
  } catch (e) {
    $('lobby-error').textContent = `The server does not answer (${e.message}); trying again.`;
  }
}

function start() {
  $('name').value = localStorage.getItem(NAME_KEY) || '';
  $('name').addEventListener('input', () => localStorage.setItem(NAME_KEY, myName()));
  for (const input of document.querySelectorAll('#rules, input[name="opponent"]'))
    input.addEventListener('change', showForm);
  $('create').addEventListener('submit', create);
  showForm();
  refresh();
  setInterval(refresh, POLL_MS);
}

start();
