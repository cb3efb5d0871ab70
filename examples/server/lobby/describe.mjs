// SPDX-License-Identifier: MIT
// How the lobby (lobby.mjs) and the board page's bar (gamebar.mjs) say
// what a game is: its seats, rules, clock and bot, from the server's
// state (GET /api/games, /api/games/ID; docs/server.md).

/** The bot strengths the lobby offers, by their budget (bots.py LEVELS). */
export const LEVEL_NAMES = { 500: 'easy', 2000: 'medium', 8000: 'hard', 20000: 'strong' };

/** "computer (medium)" for a budget of 2000 decisions a turn. */
export function botName(nodes) {
  const level = LEVEL_NAMES[nodes];
  return `computer (${level || `${nodes} nodes`})`;
}

/** Who holds a seat, in words. */
export function seatName(state, side) {
  const seat = state.seats[side];
  if (seat.kind === 'bot')
    return botName(state.bot_nodes);
  if (seat.reserved)
    return `${seat.name || 'the other player'} (rematch offered)`;
  if (seat.unclaimed)
    return 'open seat';
  return seat.name || 'anonymous';
}

/** The rules text, or "standard rules". */
export function rulesText(rules) {
  return rules ? rules : 'standard rules';
}

/** "no clock", "30 s a turn", "2 min a turn". */
export function clockText(seconds) {
  if (!seconds)
    return 'no clock';
  return seconds % 60 === 0 ? `${seconds / 60} min a turn` : `${seconds} s a turn`;
}

/** An element with its text (never innerHTML: names are the players'). */
export function el(tag, text = '', cls = '') {
  const node = document.createElement(tag);
  if (text)
    node.textContent = text;
  if (cls)
    node.className = cls;
  return node;
}

/** POST a JSON body; resolves to { status, body } (never throws on 4xx). */
export async function post(path, body) {
  const r = await fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  let out = null;
  try {
    out = await r.json();
  } catch {
    out = { message: `HTTP ${r.status}` };
  }
  return { status: r.status, body: out };
}
