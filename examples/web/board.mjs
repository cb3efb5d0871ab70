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
