// SPDX-License-Identifier: MIT
// The board as SVG, to scale: 13 x 17 squares, row 17 at the top (DEF's
// end zone), row 1 at the bottom (ATK's). Every playable square is a
// <rect data-square="G5">, the element a click lands on; what is drawn on
// it (pieces, the ball, marks) lets clicks through.

const SVG = 'http://www.w3.org/2000/svg';
export const CELL = 40;
const LEFT = 22;  // room for the row numbers
const TOP = 6;
const BOTTOM = 22; // room for the column letters
export const WIDTH = LEFT + 13 * CELL + 6;
export const HEIGHT = TOP + 17 * CELL + BOTTOM;
const FILES = 'ABCDEFGHIJKLM';

/** The centre of a square on the drawing. */
function centre(name) {
  const col = FILES.indexOf(name[0]) + 1;
  const row = Number(name.slice(1));
  return [LEFT + (col - 0.5) * CELL, TOP + (17 - row + 0.5) * CELL];
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs))
    e.setAttribute(k, String(v));
  if (parent)
    parent.appendChild(e);
  return e;
}

/** Creates the <svg> inside `host`; `onSquare(name)` is called on a click. */
export function createBoard(host, onSquare) {
  const svg = el('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, id: 'board', role: 'img',
    'aria-label': 'BALL board, 13 columns by 17 rows',
  });
  host.appendChild(svg);
  svg.addEventListener('click', (ev) => {
    const sq = ev.target.closest?.('[data-square]');
    if (sq)
      onSquare(sq.getAttribute('data-square'));
  });
  return svg;
}

/**
 * Draws the whole board. `view`:
 *   game            the libball Game
 *   endZoneDepth    rows of each end zone
 *   marks           Map square name -> class list ('selectable', 'selected',
 *                   'dest', 'option', 'keeper', 'last', 'task')
 */
export function drawBoard(svg, view) {
  const { game, endZoneDepth, marks } = view;
  svg.replaceChildren();
  const field = el('g', { class: 'field' }, svg);
  // the end zones, shaded in the colour of the team whose own zone it is
  for (let row = 1; row <= 17; row++) {
    const zone = row <= endZoneDepth ? 'zone-atk' : row >= 18 - endZoneDepth ? 'zone-def' : null;
    for (let col = 1; col <= 13; col++) {
      const x = LEFT + (col - 1) * CELL;
      const y = TOP + (17 - row) * CELL;
      const playable = (col + row) % 2 === 0;
      if (!playable) {
        el('rect', { x, y, width: CELL, height: CELL, class: `off${zone ? ' ' + zone : ''}` }, field);
        continue;
      }
      const name = FILES[col - 1] + row;
      const cls = ['sq'];
      if (zone)
        cls.push(zone);
      for (const m of marks.get(name) ?? [])
        cls.push(m);
      el('rect', { x, y, width: CELL, height: CELL, class: cls.join(' '), 'data-square': name }, field);
    }
  }
  // labels
  const labels = el('g', { class: 'labels' }, svg);
  for (let col = 1; col <= 13; col++) {
    const t = el('text', { x: LEFT + (col - 0.5) * CELL, y: TOP + 17 * CELL + 16 }, labels);
    t.textContent = FILES[col - 1];
  }
  for (let row = 1; row <= 17; row++) {
    const t = el('text', { x: LEFT / 2, y: TOP + (17 - row + 0.5) * CELL + 4 }, labels);
    t.textContent = String(row);
  }
  // pieces and the ball
  const pieces = el('g', { class: 'pieces' }, svg);
  for (const s of game.board()) {
    const [x, y] = centre(s.square);
    if (s.stack) {
      // both pieces, smaller, the upper one in front (up and left)
      el('rect', { x: x - CELL / 2 + 2.5, y: y - CELL / 2 + 2.5, width: CELL - 5, height: CELL - 5, rx: 6,
        class: `stack-frame${s.fresh ? ' fresh-stack' : ''}` }, pieces);
      drawPiece(pieces, s.lower, x + 7, y + 7, 0.62);
      drawPiece(pieces, s.upper, x - 6, y - 6, 0.72);
      if (s.fresh) {
        const f = el('text', { x: x - 11, y: y + 16, class: 'fresh' }, pieces);
        f.textContent = '+';
      }
    } else if (s.upper) {
      drawPiece(pieces, s.upper, x, y, 1);
    } else if (s.looseBall) {
      drawBall(pieces, x, y, 1.5, 'loose-ball');
    }
  }
  // the marks on top: destination dots, option rings, the selection's frames
  const overlay = el('g', { class: 'overlay' }, svg);
  for (const [name, ms] of marks) {
    const [x, y] = centre(name);
    if (ms.includes('dest'))
      el('circle', { cx: x, cy: y, r: 7, class: 'dest-dot' }, overlay);
    if (ms.includes('option') || ms.includes('keeper'))
      el('circle', { cx: x, cy: y, r: 17, class: ms.includes('keeper') ? 'keeper-ring' : 'option-ring' }, overlay);
    if (ms.includes('selected'))
      el('rect', { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, class: 'selected-frame' }, overlay);
  }
}

function drawPiece(parent, p, x, y, scale) {
  const g = el('g', {
    class: `piece ${p.team.toLowerCase()}${p.down ? ' down' : ''}`,
    transform: `translate(${x} ${y}) scale(${scale})${p.down ? ' rotate(90)' : ''}`,
  }, parent);
  if (p.down) {
    // knocked down: lying flat (rotated), drawn as a flattened token
    el('ellipse', { cx: 0, cy: 0, rx: 10, ry: 18, class: 'token' }, g);
  } else if (p.type === 'S') {
    el('rect', { x: -14, y: -14, width: 28, height: 28, rx: 4, class: 'token' }, g);
  } else {
    el('circle', { cx: 0, cy: 0, r: 15, class: 'token' }, g);
  }
  const t = el('text', { x: 0, y: 6, class: 'letter' }, g);
  t.textContent = p.type;
  if (p.hasBall)
    drawBall(parent, x + 12 * scale, y - 12 * scale, 1.05 * scale, 'held-ball');
  if (p.restricted) {
    const r = el('g', { class: 'restricted', transform: `translate(${x - 12 * scale} ${y - 12 * scale})` }, parent);
    el('circle', { cx: 0, cy: 0, r: 6.5 }, r);
    const ex = el('text', { x: 0, y: 4 }, r);
    ex.textContent = '!';
  }
}

/** The ball: an oval with its laces. */
function drawBall(parent, x, y, scale, cls) {
  const g = el('g', { class: `ball ${cls}`, transform: `translate(${x} ${y}) scale(${scale}) rotate(-35)` }, parent);
  el('ellipse', { cx: 0, cy: 0, rx: 8, ry: 5 }, g);
  el('line', { x1: -3, y1: 0, x2: 3, y2: 0 }, g);
  for (const dx of [-1.5, 0, 1.5])
    el('line', { x1: dx, y1: -1.4, x2: dx, y2: 1.4 }, g);
}
