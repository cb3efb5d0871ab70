// SPDX-License-Identifier: MIT
// The game server's bar on the board page (docs/server.md, "The lobby"):
// the server adds this module to the page it serves with --web. On a game
// of the server (/?game=ID) it shows under the page's header who plays
// (the names, or the computer and its strength), the rules and the clock,
// and a link to the lobby; at the end of the game it offers a rematch
// (colours swapped, same rules, clock and bot: POST
// /api/games/ID/rematch with the seat's token), and tells the other
// player when one is offered, with a button that takes the kept seat.
// It reads the game with GET /api/games/ID at the start, then every few
// seconds while a seat is open or the game is over (worthAsking); the
// page (examples/web/online.mjs) plays the game itself, untouched.

import { clockText, el, post, rulesText, seatName } from './describe.mjs';

const POLL_MS = 2500;
const params = new URLSearchParams(location.search);
const gameId = params.get('game');
const token = new URLSearchParams(location.hash.slice(1)).get('token');

function style() {
  const css = el('style');
  css.textContent = `
#gamebar { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center;
  padding: 0.35rem 1rem; background: #e9ecef; border-bottom: 1px solid #ced4da; font-size: 0.95rem; }
#gamebar .players { font-weight: 600; }
#gamebar .chip { padding: 0.05rem 0.5rem; border-radius: 1rem; color: #fff; font-weight: 700; }
#gamebar .chip.atk { background: var(--atk, #c92a2a); }
#gamebar .chip.def { background: var(--def, #1864ab); }
#gamebar .rematch { margin-left: auto; display: flex; gap: 0.5rem; align-items: center; }
#gamebar .rematch button { font: inherit; padding: 0.2rem 0.8rem; border-radius: 0.3rem;
  border: 1px solid #2b3a33; background: #22302a; color: #fff; cursor: pointer; }
#gamebar .error { color: #c92a2a; }`;
  document.head.append(css);
}

function chip(side) {
  return el('span', side, `chip ${side.toLowerCase()}`);
}

/** The side this page's token holds, as the page knows it from the
 * server's welcome (examples/web/online.mjs sets body[data-online] to
 * ATK, DEF or watch); null for a watcher. */
function mySide() {
  const side = document.body.dataset.online;
  return side === 'ATK' || side === 'DEF' ? side : null;
}

function render(bar, state) {
  const players = el('span', '', 'players');
  players.append(chip('ATK'), ` ${seatName(state, 'ATK')} vs `, chip('DEF'), ` ${seatName(state, 'DEF')}`);
  const lobby = el('a', '← Lobby');
  lobby.href = '/lobby/';
  const what = el('span', `${rulesText(state.rules)} · ${clockText(state.turn_seconds)}`);
  const parts = [lobby, players, what];
  if (state.rematch_of) {
    const prev = el('a', 'previous game');
    prev.href = `/?game=${encodeURIComponent(state.rematch_of)}`;
    parts.push(prev);
  }
  if (state.outcome)
    parts.push(rematchBox(state));
  bar.replaceChildren(...parts);
}

let asked = false;

function rematchBox(state) {
  const box = el('span', '', 'rematch');
  box.id = 'rematch';
  const me = token ? mySide() : null;
  if (!me) {
    if (state.rematch) {
      const a = el('a', 'Watch the rematch');
      a.href = `/?game=${encodeURIComponent(state.rematch)}`;
      box.append(a);
    }
    return box;
  }
  const swapped = me === 'ATK' ? 'DEF' : 'ATK';
  if (state.rematch && state.rematch_by === me) {
    box.append(el('span', 'You offered a rematch (its link took you there).'));
    return box;
  }
  const label = state.rematch ? `Your opponent offers a rematch: you play ${swapped}` : `Rematch, colours swapped: you play ${swapped}`;
  const button = el('button', state.rematch ? 'Accept the rematch' : 'Offer a rematch');
  button.type = 'button';
  button.disabled = asked;
  button.addEventListener('click', async () => {
    asked = true;
    button.disabled = true;
    const { status, body } = await post(`/api/games/${encodeURIComponent(gameId)}/rematch`, { token });
    if (status === 200 || status === 201) {
      location.href = body.link;
      return;
    }
    asked = false;
    box.append(el('span', ` ${body.message || status}`, 'error'));
  });
  box.append(el('span', label), button);
  return box;
}

let last = null;

/** The bar asks the server again only while something it shows may
 * change (a seat open, a rematch after the end) and while the page is
 * connected: during the game and while the server is away it is quiet. */
function worthAsking() {
  const ds = document.body.dataset;
  if (last === null)
    return true;
  if (ds.onlineJoined !== '1')
    return false;
  return Boolean(ds.onlineOutcome) || Object.values(last.seats).some((seat) => seat.unclaimed);
}

async function poll(bar) {
  if (!worthAsking())
    return;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
    if (r.ok) {
      last = await r.json();
      render(bar, last);
    }
  } catch {
    // the page says when the server is away; the bar waits for it
  }
}

if (gameId) {
  style();
  const bar = el('div');
  bar.id = 'gamebar';
  const header = document.querySelector('header');
  if (header)
    header.after(bar);
  else
    document.body.prepend(bar);
  poll(bar);
  setInterval(() => poll(bar), POLL_MS);
}
