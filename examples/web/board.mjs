// SPDX-License-Identifier: MIT
// The board: the library's own SVG picture of the position
// (Game.svg(), ball_position_to_svg: the picture of `ball svg`, Python's
// `_repr_svg_` and the docs' diagrams, so the page speaks their visual
// language), with the page's interactive layer put into it: under the
// pieces, one <rect class="sq" data-square="G5"> per playable square (the
// element a click lands on, tinted by the marks of the selection), and on
// top the destination dots, option rings, the selection's frame and the
// keyboard cursor. The pieces and the ball let clicks through.
//
// The geometry is the library's (libball/svg.c): 40-unit squares, a
// 24-unit margin for the coordinates, row 17 at the top.

const SVG = 'http://www.w3.org/2000/svg';
export const CELL = 40;
const MARGIN = 24;
export const WIDTH = 2 * MARGIN + 13 * CELL;
export const HEIGHT = 2 * MARGIN + 17 * CELL;
const FILES = 'ABCDEFGHIJKLM';

/** The top-left corner of a square on the drawing. */
function corner(name) {
  const col = FILES.indexOf(name[0]) + 1;
  const row = Number(name.slice(1));
  return [MARGIN + (col - 1) * CELL, MARGIN + (17 - row) * CELL];
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs))
    e.setAttribute(k, String(v));
  if (parent)
    parent.appendChild(e);
  return e;
}

/** Creates the board's host inside `host`; `onSquare(name)` is called on a click. */
export function createBoard(host, onSquare) {
  const box = document.createElement('div');
  box.id = 'board-box';
  host.appendChild(box);
  box.addEventListener('click', (ev) => {
    const sq = ev.target.closest?.('[data-square]');
    if (sq && sq.classList.contains('sq'))
      onSquare(sq.getAttribute('data-square'));
  });
  return box;
}

// What a screen reader says of a square: its name and what stands on it.
function squareLabel(game, name) {
  const s = game.square(name);
  const piece = (p) => `${p.team} ${{ X: 'X', O: 'O', S: 'S' }[p.type]}${p.down ? ' knocked down' : ''}` +
    `${p.hasBall ? ' with the ball' : ''}${p.restricted ? ' restricted' : ''}`;
  if (s.stack)
    return `${name}: ${s.fresh ? 'fresh ' : ''}stack, ${piece(s.upper)} on ${piece(s.lower)}`;
  if (s.upper)
    return `${name}: ${piece(s.upper)}`;
  return s.looseBall ? `${name}: the loose ball` : `${name}: empty`;
}

/**
 * Draws the whole board. `view`:
 *   game     the libball Game
 *   marks    Map square name -> class list ('selectable', 'selected',
 *            'dest', 'option', 'keeper', 'last', 'task', 'hint')
 *   arrow    an action (or null) the library draws as an arrow
 *   cursor   the keyboard cursor's square (or null)
 */
export function drawBoard(box, view) {
  const { game, marks, arrow, cursor } = view;
  const doc = new DOMParser().parseFromString(game.svg({ arrow: arrow ?? null }), 'image/svg+xml');
  const svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.id = 'board';
  svg.setAttribute('role', 'grid');
  svg.setAttribute('aria-label', `BALL board, 13 columns by 17 rows: ${svg.querySelector('title')?.textContent ?? ''}`);
  svg.querySelector('title')?.remove();
  svg.setAttribute('tabindex', '0');
  if (cursor)
    svg.setAttribute('aria-activedescendant', `sq-${cursor}`);
  // the library draws the arrow last, over the pieces: its head covered the
  // letter of the piece that moved (issue 49). Under the pieces here, the
  // letter stays readable and the arrow still shows from where to where.
  const arrowMark = svg.querySelector('.arrow');
  const firstPiece = svg.querySelector('.piece, .loose-ball');
  if (arrowMark && firstPiece)
    firstPiece.parentNode.insertBefore(arrowMark, firstPiece);
  // the interactive layer goes under the pieces: after the board, the end
  // zones and the coordinates, before the first thing drawn on a square
  const first = svg.querySelector('.highlight, .fresh, .piece, .loose-ball, .arrow');
  const field = el('g', { class: 'field' });
  svg.insertBefore(field, first);
  for (let row = 17; row >= 1; row--) {
    const line = el('g', { role: 'row' }, field);
    for (let col = 1; col <= 13; col++) {
      if ((col + row) % 2 !== 0)
        continue;
      const name = FILES[col - 1] + row;
      const [x, y] = corner(name);
      const cls = ['sq', ...(marks.get(name) ?? [])];
      el('rect', { x, y, width: CELL, height: CELL, class: cls.join(' '), 'data-square': name,
        id: `sq-${name}`, role: 'gridcell', 'aria-label': squareLabel(game, name),
        'aria-selected': String(cls.includes('selected')) }, line);
    }
  }
  // the marks on top: destination dots, option rings, the selection's frames
  const overlay = el('g', { class: 'overlay' }, svg);
  for (const [name, ms] of marks) {
    const [x0, y0] = corner(name);
    const x = x0 + CELL / 2;
    const y = y0 + CELL / 2;
    if (ms.includes('dest'))
      el('circle', { cx: x, cy: y, r: 7, class: 'dest-dot' }, overlay);
    if (ms.includes('option') || ms.includes('keeper'))
      el('circle', { cx: x, cy: y, r: 18, class: ms.includes('keeper') ? 'keeper-ring' : 'option-ring' }, overlay);
    if (ms.includes('selected'))
      el('rect', { x: x0 + 2, y: y0 + 2, width: CELL - 4, height: CELL - 4, class: 'selected-frame' }, overlay);
  }
  if (cursor) {
    const [x0, y0] = corner(cursor);
    el('rect', { x: x0 + 1, y: y0 + 1, width: CELL - 2, height: CELL - 2, class: 'cursor-frame' }, overlay);
  }
  const focused = box.contains(document.activeElement);
  box.replaceChildren(svg);
  if (focused)
    svg.focus({ preventScroll: true });
  return svg;
}

/**
 * The keyboard cursor's next square from `square` by one arrow key,
 * `[dc, dr]`: left and right go to the row's next playable square (two
 * columns on), up and down to the next row, as near the column the cursor
 * was last moved to sideways (`state.cursorCol`) as the board's pattern
 * allows.
 */
export function moveCursor(square, [dc, dr], state) {
  let col = FILES.indexOf(square[0]) + 1;
  let row = Number(square.slice(1));
  if (dc) {
    col = Math.min(13, Math.max(1, col + 2 * dc));
    if ((col + row) % 2 !== 0)
      col -= dc;
    state.cursorCol = col;
  } else {
    row = Math.min(17, Math.max(1, row + dr));
    const pref = state.cursorCol ?? col;
    col = (pref + row) % 2 === 0 ? pref : pref + 1 <= 13 ? pref + 1 : pref - 1;
  }
  return FILES[col - 1] + row;
}

// The legend's pictures: squares of the library's own SVG of a few
// positions, so that the legend shows exactly what the board shows.
const LEGEND = [
  // [BPN, square, text]
  ['X*1O1S2', 'A5', 'ATK (red, capital letters): X, with the ball; ATK scores in the red row (17)'],
  ['X*1O1S2', 'E5', 'O: moves 1 square diagonally or 2 straight (R5.1)'],
  ['X*1O1S2', 'I5', 'S, the square piece: both patterns'],
  ['x1o1s2', 'A9', 'DEF (blue, small letters): x moves 1 or 2 squares diagonally; DEF scores in the blue row (1)'],
  ['O_6', 'A3', 'knocked down: faded, its letter on its side; it stands up in the release phase (R3.2, R9.2)'],
  ['[So]6', 'A3', 'a stack: a block (on an opponent) or a protection (on an ally), two pieces out of play until released (R7)'],
  ['[SO]+6', 'A3', 'a fresh stack (dashed ring): made this turn, released at the earliest next turn (R7.4)'],
  ['X*!6', 'A5', 'gold ball on a piece: it holds the ball; red !: restricted, it took the ball this turn and acts no more (R4.4)'],
  ['@6', 'A1', 'gold ball alone on a square: the loose ball, a piece that ends a move there picks it up (R8.1)'],
];

function legendBpn(group, square) {
  const row = Number(square.slice(1));
  const rows = [];
  // (the one ball of N1: loose on row 17 when the group has none)
  const ball = /[*@]/.test(group) ? '7' : '@6';
  for (let r = 17; r >= 1; r--)
    rows.push(r === row ? group : r === 17 ? ball : r % 2 ? '7' : '6');
  return `${rows.join('/')} ATK a 2 - 0/0 2`;
}

/** Draws the legend's pictures and texts into the list `host`. */
export function drawLegend(ball, host) {
  host.replaceChildren();
  for (const [group, square, text] of LEGEND) {
    const li = document.createElement('li');
    let game = null;
    try {
      game = ball.Game.fromBpn(legendBpn(group, square));
      const doc = new DOMParser().parseFromString(game.svg({ coords: false }), 'image/svg+xml');
      const [x, y] = corner(square);
      const icon = el('svg', { viewBox: `${x} ${y} ${CELL} ${CELL}`, width: 36, height: 36, 'aria-hidden': 'true' });
      el('rect', { x, y, width: CELL, height: CELL, fill: '#efe3c4' }, icon);
      for (const e of doc.documentElement.children) {
        const cx = Number(e.getAttribute('cx'));
        const cy = Number(e.getAttribute('cy'));
        if (e.getAttribute('data-square') === square ||
            (e.getAttribute('class') === 'fresh' && cx === x + CELL / 2 && cy === y + CELL / 2))
          icon.appendChild(document.importNode(e, true));
      }
      li.appendChild(icon);
    } catch {
      // (a picture the library refuses: the text alone)
    } finally {
      game?.free();
    }
    const span = document.createElement('span');
    span.textContent = text;
    li.appendChild(span);
    host.appendChild(li);
  }
}
