// The browser test of the playable page (examples/web, built into
// build/web by `make web`): Debian's chromium, headless, driven by
// playwright-core, against a server bound to 127.0.0.1. It plays a whole
// scripted game through real clicks (a dodge with its exit, a tactical
// dodge with its push square, a hand-off, a short pass, release-phase
// stand-ups, an undo, a cancel, up to a touchdown), compares the page's
// BPN after every step with the native tool's, checks the highlighted
// squares against the tool's legal decisions, then BPN load and copy, a
// draw, the built-in players, the MCTS player (in its worker: a seeded game
// against greedy that repeats the native selfplay decision for decision,
// "thinking…" with the page responsive, a search dropped by Undo; in the
// page when the worker cannot start), the turn search (a seeded game that
// repeats selfplay's, the evaluation bar and best line, the Hint button on
// a touchdown in one turn and on the start), the evaluation choice
// (network by default; "Hand-written" makes the worker's turn search play
// the decisions of TurnSearch({ eval: 'hand' }); "value.net": the worker
// fetches wasm/value.net and the turn search plays the native search's
// decisions with that net, read through the Python binding) and the phone
// width; the
// visual comparison with `ball svg` (the same pixels), the scripted game
// again by keyboard only, the legend, accessible names and contrast, the
// small glitches of issue 30, and whole games (save, reload, load,
// continue, drop, the history, shared links). No console error may
// appear. Screenshots go to $SHOTS, the hint's also to
// $HINT_SHOT (build/web-hint.png).
//
//   WEB_ROOT=build/web BALL_TOOL=build/bin/ball SELFPLAY=build/examples/selfplay \
//     SHOTS=build/web-test node tests/web/browser.test.mjs    (make check-web runs it)
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../examples/web/serve.mjs';
import load from '../../bindings/js/libball.mjs';

const ROOT = resolve(process.env.WEB_ROOT ?? 'build/web');
const TOOL = resolve(process.env.BALL_TOOL ?? 'build/bin/ball');
const SELFPLAY = resolve(process.env.SELFPLAY ?? join(dirname(dirname(TOOL)), 'examples', 'selfplay'));
const SHOTS = resolve(process.env.SHOTS ?? 'build/web-test');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const HINT_SHOT = resolve(process.env.HINT_SHOT ?? join(dirname(SHOTS), 'web-hint.png'));
// The native library and the repository (the Python binding, share/net/value.net).
const LIBRARY = resolve(process.env.LIBBALL_PATH ?? join(dirname(dirname(TOOL)), 'libball.so.1'));
const REPO = resolve(new URL('../..', import.meta.url).pathname);
// ATK's X* on G13 with 2 PA, DEF's x on A1: two 2-square diagonal moves
// (R5.1, R4.3), G13-E15 or G13-I15 first, reach row 17 and score (R11.1);
// no other first decision scores this turn.
const IN_ONE = '7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2';
const START = '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1';

function tool(...args) {
  const r = spawnSync(TOOL, args, { encoding: 'utf8' });
  if (r.error)
    throw r.error;
  return r;
}

/** The BPN after `actions` from `bpn`, by the native tool. */
function toolApply(bpn, ...actions) {
  const r = tool('apply', bpn, ...actions);
  assert.equal(r.status, 0, `ball apply '${bpn}' ${actions.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The native tool's legal decisions in a position. */
const toolLegal = (bpn) => tool('legal', bpn).stdout.trim().split('\n');

/** The decisions of the native selfplay's game 1 with `args` (from its record). */
function selfplayGame(args) {
  const dir = mkdtempSync(join(tmpdir(), 'libball-selfplay-'));
  try {
    const file = join(dir, 'game.rec');
    const r = spawnSync(SELFPLAY, ['--games', '1', '--record', file, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, `selfplay ${args.join(' ')}: ${r.stderr}`);
    return readFileSync(file, 'utf8').split('\n').filter((l) => /^\d+\. (ATK|DEF):/.test(l))
      .flatMap((l) => l.replace(/^\d+\. (ATK|DEF): /, '').split(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The decisions of the page's log: [{ action, bpn (after it), player }]. */
const pageLog = () => page.$$eval('#log li', (lis) => lis.map((li) =>
  ({ action: li.dataset.action, bpn: li.dataset.bpn, player: li.dataset.player })));

/**
 * Replays the page's decisions in the native tool, one by one: each must be
 * among `ball legal` of the position before it, and the page's BPN after it
 * must be `ball apply`'s.
 */
function replayInTool(log, start = START, args = []) {
  let bpn = start;
  for (const [i, e] of log.entries()) {
    const legal = tool(...args, 'legal', bpn).stdout.trim().split('\n');
    assert.ok(legal.includes(e.action), `decision ${i + 1} ${e.action} is legal in ${bpn}`);
    const r = tool(...args, 'apply', bpn, e.action);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(e.bpn, r.stdout.trim(), `BPN after decision ${i + 1} (${e.action})`);
    bpn = e.bpn;
  }
  return bpn;
}

// The scripted game. Each step is one decision, made by the clicks listed:
// a square name, { verb } (a verb button of the selected piece),
// { button } (a panel button), { task } (a release task of the panel).
// `check` names the squares the page must highlight after the first clicks.
const GAME = [
  // turn 1, DEF
  { action: 'E11-F10', clicks: ['E11', 'F10'] },
  { action: 'F10-E9', clicks: ['F10', 'E9'] },
  { action: 'end', clicks: [{ button: 'end' }] },
  // turn 2, ATK: a dodge with its exit choice, a move of the carrier, a hand-off
  { action: 'G7-E9/F10', clicks: ['G7', 'E9', 'F10'], shot: ['02-dodge-exits', 2] },
  { action: 'G5-H6', clicks: ['G5', 'H6'] },
  { action: 'H6=I7', clicks: ['H6', { verb: '=' }, 'I7'] },
  { action: 'end', clicks: [{ button: 'end' }] },
  // turn 3, DEF: a release phase with a stand-up task
  { action: 'end', clicks: [{ button: 'end' }], shot: ['03-release-task', 1] },
  { action: 'E9-F8', clicks: [{ task: 'E9' }, 'F8'] },
  // turn 4, ATK: a tactical dodge with its push square, a short pass
  { action: 'E7-G9/E9', clicks: ['E7', 'G9', 'E9'], shot: ['04-tactical-push', 2] },
  { action: 'I7^H10', clicks: ['I7', { verb: '^' }, 'H10'], expect: { '.loose-ball': 1, '.held-ball': 0 } },
  { action: 'end', clicks: [{ button: 'end' }] },
  // turn 5, DEF: end, then the stand-up of the pushed piece
  { action: 'end', clicks: [{ button: 'end' }] },
  { action: 'E9-D8', clicks: ['E9', 'D8'] },
  // turn 6, ATK: a pickup, a move taken back with Undo, a cancelled selection
  { action: 'F10-H10', clicks: ['F10', 'H10'], expect: { '.restricted': 1, '.loose-ball': 0, '.held-ball': 1 } },
  { action: 'H6-G7', clicks: ['H6', 'G7'] },
  { undo: true },
  { cancel: 'C7' },
  { action: 'end', clicks: [{ button: 'end' }] },
  { action: 'end', clicks: [{ button: 'end' }] },
  // turn 8, ATK: the carrier runs; turn 10: touchdown
  { action: 'H10-H12', clicks: ['H10', 'H12'] },
  { action: 'H12-H14', clicks: ['H12', 'H14'] },
  { action: 'end', clicks: [{ button: 'end' }] },
  { action: 'end', clicks: [{ button: 'end' }] },
  { action: 'H14-H16', clicks: ['H14', 'H16'] },
  { action: 'H16-G17', clicks: ['H16', 'G17'] },
];

const SEPARATOR = { '-': '-', '=': '=', '^': '^', '^^': '^^' };

let server;
let url;
let context;
let page;
let userDir;
const problems = [];

async function shot(name, opts = {}) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), ...opts });
}

const pageBpn = () => page.inputValue('#bpn');
const marked = (cls) => page.$$eval(`rect.sq.${cls}`, (els) => els.map((e) => e.getAttribute('data-square')).sort());

async function click(c) {
  if (typeof c === 'string')
    await page.click(`rect.sq[data-square="${c}"]`);
  else if (c.verb) {
    // a piece with one verb has it chosen already (no buttons then)
    if (await page.locator('#verbs button').count())
      await page.click(`#verbs button[data-verb="${c.verb}"]`);
    assert.equal(await page.getAttribute('body', 'data-verb'), c.verb);
  }
  else if (c.button)
    await page.click(`#${c.button}`);
  else if (c.task)
    await page.click(`#task-list button[data-task="${c.task}"]`);
}

// The squares the page should highlight after the clicks so far, from the
// native tool's legal decisions: destinations after the piece (and verb),
// options (exit, push square) after the destination.
function expectedMarks(bpn, clicks) {
  const legal = toolLegal(bpn);
  let verb = '-';
  for (const c of clicks)
    if (typeof c === 'object' && c.verb)
      verb = c.verb;
  const squares = clicks.map((c) => (typeof c === 'object' && c.task) || c).filter((c) => typeof c === 'string');
  const from = squares[0];
  const set = new Set();
  for (const text of legal) {
    const m = /^([A-M]\d+)(-|=|\^\^|\^)([A-M]\d+)(?:\/([A-M]\d+))?/.exec(text);
    if (!m || m[1] !== from || m[2] !== SEPARATOR[verb])
      continue;
    if (squares.length === 1)
      set.add(m[3]);
    else if (squares.length === 2 && m[3] === squares[1] && m[4])
      set.add(m[4]);
  }
  return { cls: squares.length === 1 ? 'dest' : 'option', squares: [...set].sort() };
}

// The contrast of the page's text against its background (WCAG 2.1
// 1.4.3, AA: 4.5:1, 3:1 for large text) and of the board's piece letters
// against their piece (its fill over the light square, faded when knocked
// down): the texts that fail.
const lowContrast = () => page.evaluate(() => {
  const lin = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const rgba = (s) => s.match(/[\d.]+/g).map(Number);
  const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0.5)
        return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || el.closest('[hidden]') || el.closest(':disabled') || !el.getClientRects().length)
      continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden')
      continue;
    const size = parseFloat(st.fontSize);
    const need = size >= 24 || (Number(st.fontWeight) >= 700 && size >= 18.66) ? 3 : 4.5;
    const r = ratio(rgba(st.color).slice(0, 3), background(el));
    if (r < need)
      bad.push(`${el.tagName.toLowerCase()}#${el.id} "${el.textContent.trim().slice(0, 40)}": ${r.toFixed(2)}`);
  }
  for (const g of document.querySelectorAll('#board .piece')) {
    const shape = g.querySelector('circle, rect, polygon');
    const op = Number(shape.getAttribute('fill-opacity') ?? 1);
    const fill = hex(shape.getAttribute('fill')).map((v, i) => op * v + (1 - op) * [0xef, 0xe3, 0xc4][i]);
    const r = ratio(hex(g.querySelector('text').getAttribute('fill')), fill);
    if (r < 4.5)
      bad.push(`${g.getAttribute('class')} on ${g.dataset.square}: ${r.toFixed(2)}`);
  }
  return bad;
});

// Moves the page's keyboard cursor to `square` with the arrow keys only.
async function cursorTo(square) {
  for (let i = 0; i < 80; i++) {
    const cur = await page.getAttribute('body', 'data-cursor');
    if (cur === square)
      return;
    if (!cur) {
      await page.keyboard.press('ArrowUp');
      continue;
    }
    const dr = Number(square.slice(1)) - Number(cur.slice(1));
    const dc = square.charCodeAt(0) - cur.charCodeAt(0);
    await page.keyboard.press(dr > 0 ? 'ArrowUp' : dr < 0 ? 'ArrowDown' : dc > 0 ? 'ArrowRight' : 'ArrowLeft');
  }
  assert.fail(`the cursor does not reach ${square}`);
}

test('browser test of the web page', { timeout: 300000 }, async (t) => {
  for (const [what, path] of [['web build (make web)', join(ROOT, 'index.html')],
    ['native tool (make tool)', TOOL], ['native selfplay (make examples)', SELFPLAY],
    ['chromium (apt-get install chromium)', CHROMIUM]])
    assert.ok(existsSync(path), `${what}: no ${path}`);
  mkdirSync(SHOTS, { recursive: true });
  ({ server, url } = await startServer(ROOT, { port: 0, host: '127.0.0.1' }));
  userDir = mkdtempSync(join(tmpdir(), 'libball-chromium-'));
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
    timeout: 30000,
  });
  t.after(async () => {
    await context?.close().catch(() => {});
    server?.close();
    if (userDir)
      rmSync(userDir, { recursive: true, force: true });
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
  page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(10000);
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A navigation of the test's own (goto, reload) cuts short what the old
  // document still had in flight, such as the search worker fetching
  // wasm/ball.mjs (seen once in CI: net::ERR_ABORTED): such an abort within
  // 2 s of a navigation request of the main frame is not the page's fault.
  let lastNavigation = -Infinity;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame())
      lastNavigation = Date.now();
  });
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText;
    if (why === 'net::ERR_ABORTED' && Date.now() - lastNavigation < 2000)
      return;
    problems.push(`request failed: ${r.url()} ${why}`);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });

  await t.test('the page loads the engine and shows the start', async () => {
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await pageBpn(), START);
    assert.equal(await page.getAttribute('body', 'data-side'), 'DEF');
    assert.match(await page.textContent('#version'), /libball 1\.\d+\.\d+/);
    // the board to scale: 13 x 17 squares, 111 playable
    assert.equal(await page.locator('rect.sq').count(), 111);
    assert.equal(await page.locator('#board .board rect').count(), 13 * 17, 'the library draws every square');
    assert.equal(await page.locator('#board .piece.x polygon').count(), 6, 'X is the library\'s diamond');
    const box = await page.locator('#board').boundingBox();
    const cell = await page.locator('rect.sq[data-square="A1"]').boundingBox();
    assert.ok(Math.abs(cell.width - cell.height) < 0.5, 'squares are square');
    assert.ok(box.height / box.width > 1.2, 'taller than wide (17 rows, 13 columns)');
    assert.deepEqual(await marked('selectable'), [...new Set(toolLegal(START).filter((a) => a !== 'end')
      .map((a) => a.match(/^[A-M]\d+/)[0]))].sort(), 'the pieces that can act');
    await shot('01-start');
  });

  await t.test('a whole scripted game through clicks, BPN = native tool after each step', async () => {
    let bpn = START;
    const history = [];
    for (const step of GAME) {
      if (step.undo) {
        await click({ button: 'undo' });
        bpn = history.pop();
        assert.equal(await pageBpn(), bpn, 'after Undo: the position before');
        continue;
      }
      if (step.cancel) {
        await click(step.cancel);
        assert.equal(await page.getAttribute('body', 'data-step'), '2');
        assert.ok((await marked('dest')).length > 0, 'destinations highlighted');
        await page.keyboard.press('Escape');
        assert.equal(await page.getAttribute('body', 'data-step'), '0', 'Esc cancels the selection');
        assert.deepEqual(await marked('dest'), []);
        assert.equal(await pageBpn(), bpn, 'cancelling changes nothing');
        continue;
      }
      const { action, clicks } = step;
      for (let i = 0; i < clicks.length; i++) {
        await click(clicks[i]);
        const done = i === clicks.length - 1;
        if (!done && typeof clicks[i + 1] === 'string') {
          const want = expectedMarks(bpn, clicks.slice(0, i + 1));
          assert.deepEqual(await marked(want.cls), want.squares,
            `${action}: highlighted ${want.cls} squares after ${clicks.slice(0, i + 1).join(' ')}`);
        }
        if (step.shot && i === step.shot[1] - 1)
          await shot(step.shot[0]);
        if (!done)
          assert.equal(await pageBpn(), bpn, `${action}: nothing played before the last click`);
      }
      const want = toolApply(bpn, action);
      assert.equal(await pageBpn(), want, `BPN after ${action}`);
      const last = await page.locator('#log li').last().textContent();
      assert.ok(last.endsWith(` ${action}`), `the log shows ${action}: ${last}`);
      for (const [sel, n] of Object.entries(step.expect ?? {}))
        assert.equal(await page.locator(`#board ${sel}`).count(), n, `${sel} after ${action}`);
      history.push(bpn);
      bpn = want;
      if (step.shot && step.shot[1] === clicks.length)
        await shot(step.shot[0]);
      if (action === 'end' && bpn.split(' ')[2] === 'r') {
        const tasks = await page.$$eval('#task-list button', (bs) => bs.map((b) => b.dataset.task));
        assert.ok(tasks.length > 0, 'the release tasks are listed');
      }
    }
    assert.equal(await page.getAttribute('body', 'data-result'), 'atk_won');
    assert.equal(await page.isVisible('#result'), true);
    assert.match(await page.textContent('#result'), /Touchdown! ATK wins/);
    assert.match(await page.textContent('#status'), /Touchdown! ATK wins/);
    await shot('05-touchdown');
    // Undo works after the end too
    await click({ button: 'undo' });
    assert.equal(await pageBpn(), toolApply(START, ...GAME.filter((s) => s.action && s.action !== 'H6-G7')
      .map((s) => s.action).slice(0, -1)));
    assert.equal(await page.isVisible('#result'), false);
  });

  await t.test('the same game with the keyboard only (arrows, Enter, digits, e, u, Esc)', async () => {
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'board', 'Tab reaches the board first');
    let bpn = START;
    const history = [];
    for (const step of GAME) {
      if (step.undo) {
        await page.keyboard.press('u');
        bpn = history.pop();
        assert.equal(await pageBpn(), bpn, 'after u: the position before');
        continue;
      }
      if (step.cancel) {
        await cursorTo(step.cancel);
        await page.keyboard.press('Enter');
        assert.equal(await page.getAttribute('body', 'data-step'), '2');
        await page.keyboard.press('Escape');
        assert.equal(await page.getAttribute('body', 'data-step'), '0', 'Esc cancels the selection');
        assert.equal(await pageBpn(), bpn, 'Esc changes nothing in the game (R12)');
        continue;
      }
      for (const c of step.clicks) {
        if (typeof c === 'string' || c.task) {
          await cursorTo(typeof c === 'string' ? c : c.task);
          await page.keyboard.press('Enter');
        } else if (c.verb) {
          const verbs = await page.$$eval('#verbs button', (bs) => bs.map((b) => b.dataset.verb));
          if (verbs.length)
            await page.keyboard.press(String(verbs.indexOf(c.verb) + 1));
          assert.equal(await page.getAttribute('body', 'data-verb'), c.verb);
        } else if (c.button === 'end') {
          await page.keyboard.press('e');
        }
      }
      const want = toolApply(bpn, step.action);
      assert.equal(await pageBpn(), want, `BPN after ${step.action} (keyboard)`);
      history.push(bpn);
      bpn = want;
      if (step.action === 'G7-E9/F10')
        await shot('10-keyboard');
    }
    assert.equal(await page.getAttribute('body', 'data-result'), 'atk_won');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'board', 'the board kept the focus');
  });

  await t.test('legend, readable decisions, the rules link, accessible names, contrast, small glitches', async () => {
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    // the legend: the library's own pictures (X a diamond) with their words
    assert.equal(await page.locator('#legend-icons li').count(), 9);
    assert.equal(await page.locator('#legend-icons li svg').count(), 9, 'each line has its picture');
    assert.equal(await page.locator('#legend-icons li svg .piece.x polygon').count(), 3);
    assert.equal(await page.locator('#legend-icons li svg .piece.down').count(), 1);
    assert.equal(await page.locator('#legend-icons li svg .fresh').count(), 1);
    assert.equal(await page.locator('#legend-icons li svg .loose-ball').count(), 1);
    assert.match(await page.textContent('#legend'), /PA/);
    // the rules are a link, served with the page
    const href = await page.getAttribute('footer a', 'href');
    const rules = await page.request.get(new URL(href, page.url()).href);
    assert.equal(rules.status(), 200);
    assert.match(await rules.text(), /<h1 id="the-rules-of-ball">The rules of BALL<\/h1>/);
    // accessible names of squares and pieces (a grid of named cells)
    assert.equal(await page.getAttribute('rect.sq[data-square="G5"]', 'aria-label'), 'G5: ATK X with the ball');
    assert.equal(await page.getAttribute('rect.sq[data-square="G9"]', 'aria-label'), 'G9: empty');
    assert.equal(await page.getAttribute('#board', 'role'), 'grid');
    assert.deepEqual(await lowContrast(), [], 'WCAG AA contrast at the start');
    // "cannot act now" goes at the next click
    await page.click('rect.sq[data-square="G5"]');
    assert.match(await page.textContent('#message'), /G5 cannot act now/);
    await page.click('rect.sq[data-square="E11"]');
    assert.equal(await page.textContent('#message'), '', 'the message went with the next click');
    await page.click('rect.sq[data-square="F10"]');
    // a decision in words, then in N2
    assert.equal(await page.textContent('#log li .words'), 'Turn 1, DEF: moves x on E11 to F10');
    assert.equal(await page.textContent('#log li code'), 'E11-F10');
    // the release prompt names the stack and its upper piece
    const stacks = '7/2o_3/7/6/7/6/7/2OS2/3[X*o]+3/2x_3/1[SO]5/6/7/6/7/6/7 ATK a 2 - 0/0 2';
    await page.goto(url + `?delay=0&rules=zone%3D2&bpn=${encodeURIComponent(stacks)}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.deepEqual(await lowContrast(), [], 'WCAG AA contrast with knocked-down pieces and stacks');
    await page.click('#end');
    await page.click('#task-list button[data-task="C7"]');
    assert.equal(await page.textContent('#prompt'),
      'Release the stack on C7: click the square where its upper piece (ATK S) goes.');
    await shot('11-release-prompt');
    // a finished game shows no phase or PA
    await page.goto(url + `?delay=0&bpn=${encodeURIComponent(IN_ONE)}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('rect.sq[data-square="G13"]');
    await page.click('rect.sq[data-square="I15"]');
    await page.click('rect.sq[data-square="I15"]');
    await page.click('rect.sq[data-square="K17"]');
    assert.equal(await page.getAttribute('body', 'data-result'), 'atk_won');
    assert.equal(await page.textContent('#phase'), '');
    assert.equal(await page.textContent('#pa'), '');
    assert.match(await page.textContent('#side-chip'), /Game over/);
    await shot('12-finished');
  });

  await t.test('whole games: save, reload, load, continue; drag and drop; the history; a shared link', async () => {
    // plays GAME's steps by clicks; returns the BPN after them
    const playSteps = async (steps, bpn) => {
      for (const step of steps) {
        for (const c of step.clicks)
          await click(c);
        bpn = toolApply(bpn, step.action);
        assert.equal(await pageBpn(), bpn, `BPN after ${step.action}`);
      }
      return bpn;
    };
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    const saved = await playSteps(GAME.slice(0, 7), START);
    const moves = GAME.slice(0, 7).map((s) => s.action);
    // save: the record downloads, and the native tool reads it to the same position
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    assert.match(download.suggestedFilename(), /^ball-game-turn-3\.txt$/);
    const file = join(SHOTS, 'saved-game.txt');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /^1\. DEF: E11-F10 F10-E9 end$/m);
    const replayed = tool('replay', file);
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.equal(replayed.stdout.split('\t')[0], saved, 'ball replay of the saved record');
    // reload: a new game; load the file: the same game, then continue it
    // a reload while the page still fetches (its worker's ball.mjs) aborts
    // that fetch, which the request check would count as a failure
    await page.waitForLoadState('networkidle');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await pageBpn(), START);
    await page.setInputFiles('#open-file', file);
    await page.waitForFunction(() => document.body.dataset.decisions === '7');
    assert.equal(await pageBpn(), saved);
    assert.deepEqual((await pageLog()).map((e) => e.action), moves);
    replayInTool(await pageLog());
    const after = await playSteps(GAME.slice(7, 9), saved);
    // drag and drop of the same file onto the page
    // a reload while the page still fetches (its worker's ball.mjs) aborts
    // that fetch, which the request check would count as a failure
    await page.waitForLoadState('networkidle');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'saved-game.txt', { type: 'text/plain' }));
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForFunction(() => document.body.dataset.decisions === '7');
    assert.equal(await pageBpn(), saved);
    assert.match(await page.textContent('#message'), /saved-game\.txt: a game of 7 decisions loaded/);
    // a bad record is refused with the library's message, the game untouched
    await page.setInputFiles('#open-file', { name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('1. DEF: Z9-Z8\n') });
    await page.waitForFunction(() => document.getElementById('message').className === 'error');
    assert.equal(await pageBpn(), saved);
    // the history: any earlier position, whole turns back and forward
    await page.click('#log li:nth-child(2) button');
    assert.equal(await pageBpn(), toolApply(START, ...moves.slice(0, 2)));
    assert.equal(await page.getAttribute('body', 'data-later'), '5');
    assert.equal(await page.locator('#future li').count(), 5);
    await shot('13-history');
    await page.click('#back-turn');
    assert.equal(await pageBpn(), START, 'back a turn: the start of turn 1');
    await page.click('#forward-turn');
    assert.equal(await pageBpn(), toolApply(START, ...moves.slice(0, 3)), 'forward a turn: the start of turn 2');
    await page.click('#forward-turn');
    assert.equal(await pageBpn(), saved, 'forward a turn: the start of turn 3');
    await page.click('#back-turn');
    assert.equal(await pageBpn(), toolApply(START, ...moves.slice(0, 3)), 'back a turn: turn 2 again');
    // continue from there with another decision: the later ones go
    await page.click('rect.sq[data-square="G5"]');
    await page.click('rect.sq[data-square="F6"]');
    assert.equal(await pageBpn(), toolApply(START, ...moves.slice(0, 3), 'G5-F6'));
    assert.equal(await page.getAttribute('body', 'data-later'), '0');
    // a shared link carries the game: open it in another tab
    await page.click('#share');
    const link = await page.inputValue('#share-url');
    assert.match(link, /#moves=/);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    const other = await context.newPage();
    try {
      other.on('pageerror', (e) => problems.push(`page error (link): ${e.message}`));
      await other.goto(link);
      await other.waitForSelector('body[data-ready="1"]');
      assert.equal(await other.inputValue('#bpn'), toolApply(START, ...moves.slice(0, 3), 'G5-F6'));
      assert.equal(await other.locator('#log li').count(), 4);
    } finally {
      await other.close();
    }
    // and one with its own rules and start position
    const rules = 'zone=2 turns=9';
    await page.goto(url + `?delay=0&rules=${encodeURIComponent(rules)}&bpn=${encodeURIComponent(IN_ONE)}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('rect.sq[data-square="G13"]');
    await page.click('rect.sq[data-square="I15"]');
    await page.click('#share');
    await page.goto(await page.inputValue('#share-url'));
    // a reload while the page still fetches (its worker's ball.mjs) aborts
    // that fetch, which the request check would count as a failure
    await page.waitForLoadState('networkidle');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await pageBpn(), toolApply(IN_ONE, 'G13-I15'));
    assert.equal(await page.locator('#log li').count(), 1);
    assert.match(await page.textContent('#status'), /turn 2/);
    assert.ok(after);
  });

  await t.test('stacks, knocked-down pieces and end zones are drawn', async () => {
    // a fresh stack with the ball, a protecting stack, two knocked-down
    // pieces (one of them in DEF's end zone, 2 rows deep)
    const bpn = '7/2o_3/7/6/7/6/7/2OS2/3[X*o]+3/2x_3/1[SO]5/6/7/6/7/6/7 ATK a 2 - 0/0 2';
    await page.goto(url + `?delay=0&rules=zone%3D2&bpn=${encodeURIComponent(bpn)}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await pageBpn(), bpn);
    assert.equal(await page.locator('#board .piece').count(), 8);
    assert.equal(await page.locator('#board .piece.down').count(), 2);
    assert.equal(await page.locator('#board .fresh').count(), 1);
    assert.equal(await page.locator('#board .held-ball').count(), 1);
    // the library's end zones: ATK scores at the top (rows 16-17, tinted
    // ATK's red), DEF at the bottom (rows 1-2, DEF's blue)
    for (const [cls, y, fill] of [['atk-scores', 24, '#c0392b'], ['def-scores', 24 + 15 * 40, '#1f4e9c']]) {
      const z = page.locator(`#board rect.end-zone.${cls}`);
      assert.equal(await z.getAttribute('height'), '80', `${cls}: 2 rows`);
      assert.equal(await z.getAttribute('y'), String(y), cls);
      assert.equal(await z.getAttribute('fill'), fill, cls);
    }
    await shot('08-stacks');
  });

  await t.test('the page draws a position as `ball svg` does: the same pixels (one visual language)', async () => {
    // no marks: both coaches are built-in players that wait (delay), so
    // the page shows the library's picture with its transparent layer
    const bpn = '7/2o_3/7/6/7/6/7/2OS2/3[X*o]+3/2x_3/1[SO]5/6/7/6/7/6/7 ATK a 2 - 0/0 2';
    const compare = async (refSvg, name) => {
      const ref = await context.newPage();
      try {
        await ref.setViewportSize({ width: 700, height: 800 });
        await ref.setContent('<body style="margin:0;background:#fff"><img id="ref" style="display:block;' +
          `width:568px;height:728px" src="data:image/svg+xml;base64,${Buffer.from(refSvg).toString('base64')}"></body>`);
        await ref.waitForFunction(() => document.getElementById('ref').complete);
        const b = await ref.locator('#ref').screenshot({ path: join(SHOTS, `${name}-ball-svg.png`) });
        const a = await page.locator('#board').screenshot({ path: join(SHOTS, `${name}-page.png`) });
        // both PNGs decoded by chromium, compared pixel by pixel
        return await ref.evaluate(async ([pa, pb]) => {
          const img = async (b64) => {
            const i = new Image();
            i.src = `data:image/png;base64,${b64}`;
            await i.decode();
            const c = document.createElement('canvas');
            c.width = i.width;
            c.height = i.height;
            const g = c.getContext('2d');
            g.drawImage(i, 0, 0);
            return { w: i.width, h: i.height, d: g.getImageData(0, 0, i.width, i.height).data };
          };
          const [x, y] = [await img(pa), await img(pb)];
          if (x.w !== y.w || x.h !== y.h)
            return { size: `${x.w}x${x.h} / ${y.w}x${y.h}`, differing: 1 };
          let differing = 0;
          for (let i = 0; i < x.d.length; i += 4)
            if (Math.max(Math.abs(x.d[i] - y.d[i]), Math.abs(x.d[i + 1] - y.d[i + 1]),
              Math.abs(x.d[i + 2] - y.d[i + 2])) > 24)
              differing++;
          return { size: `${x.w}x${x.h}`, differing: differing / (x.w * x.h) };
        }, [a.toString('base64'), b.toString('base64')]);
      } finally {
        await ref.close();
      }
    };
    const show = async (rules, position) => {
      await page.goto(url + `?delay=1000000&atk=random&def=random&rules=${encodeURIComponent(rules)}` +
        `&bpn=${encodeURIComponent(position)}`);
      await page.waitForSelector('body[data-ready="1"]');
      // the board alone, at the library's own size, on whole pixels
      await page.addStyleTag({ content: '#board { position: fixed; left: 0; top: 0; z-index: 9; ' +
        'width: 568px !important; height: 728px !important; min-height: 0 !important; }' });
      const r = tool('--rules', rules || 'zone=1', 'svg', position);
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const pct = (x) => `${(100 * x.differing).toFixed(3)}%`;
    // Tolerance: a pixel differs when a channel differs by more than 24 of
    // 255, and at most 0.05% of the board's pixels (206 of 413,504) may:
    // the same picture drawn twice differs at most on a few anti-aliased
    // edges. The controls show what a real disagreement costs: the six X
    // drawn as the page's old disc instead of the library's diamond, or
    // the end zones tinted the other way round (the page's old tints),
    // each differ on far more.
    const TOLERANCE = 0.0005;
    try {
      const start = await show('', START);
      const same = await compare(start, '09-compare-start');
      assert.equal(same.size, '568x728');
      assert.ok(same.differing <= TOLERANCE, `start: the page and ball svg differ on ${pct(same)} of the pixels`);
      const disc = start.replace(/<polygon points="0,-17 17,0 0,17 -17,0"/g, '<circle r="15"');
      const discs = await compare(disc, '09-control-disc');
      assert.ok(discs.differing > 4 * TOLERANCE, `control: X as a disc differs on only ${pct(discs)}`);
      const swapped = start.replace(/(atk-scores[^>]*fill=")#c0392b/, '$1#1f4e9c')
        .replace(/(def-scores[^>]*fill=")#1f4e9c/, '$1#c0392b');
      const tints = await compare(swapped, '09-control-tints');
      assert.ok(tints.differing > 4 * TOLERANCE, `control: swapped end zones differ on only ${pct(tints)}`);
      const marks = await show('zone=2', bpn);
      const same2 = await compare(marks, '09-compare-marks');
      assert.ok(same2.differing <= TOLERANCE, `marks: the page and ball svg differ on ${pct(same2)} of the pixels`);
      console.log(`# visual comparison: ${pct(same)} (start), ${pct(same2)} (stacks, knocked down, zone=2) ` +
        `of the pixels differ; controls: X as a disc ${pct(discs)}, end zones swapped ${pct(tints)}`);
    } finally {
      await page.goto(url + '?delay=0');
      await page.waitForSelector('body[data-ready="1"]');
    }
  });

  await t.test('load a BPN, refuse a bad one with the library message, copy', async () => {
    const dodge = '7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1';
    await page.fill('#bpn', dodge);
    await page.click('#load');
    assert.equal(await pageBpn(), dodge);
    assert.equal(await page.locator('#log li').count(), 0);
    const bad = dodge.replace('3X3', '3X*3');
    await page.fill('#bpn', bad);
    await page.click('#load');
    const message = await page.textContent('#message');
    const r = tool('show', bad);
    assert.equal(r.status, 2);
    assert.ok(message.length > 5 && r.stderr.trim().endsWith(message), `${message} / ${r.stderr}`);
    await page.click('#copy');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), dodge);
    assert.equal(await pageBpn(), dodge, 'the refused BPN left the position alone');
  });

  await t.test('a draw at the turn limit, shown clearly', async () => {
    await page.click('#setup summary');
    await page.fill('#turns', '1');
    await page.click('#new');
    assert.equal(await pageBpn(), START);
    await click({ button: 'end' });
    assert.equal(await page.getAttribute('body', 'data-result'), 'draw');
    assert.match(await page.textContent('#result'), /Draw/);
    await shot('06-draw');
    await page.fill('#turns', '0');
    await page.click('#new');
  });

  await t.test('the built-in players play; their decisions replay in the native tool', async () => {
    await page.goto(url + '?atk=greedy&def=random&delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForFunction(() => Number(document.body.dataset.turn) >= 8 ||
      document.body.dataset.result !== 'ongoing', null, { timeout: 30000 });
    await page.selectOption('#player-ATK', 'human');
    await page.selectOption('#player-DEF', 'human');
    const played = await page.$$eval('#log li', (lis) => lis.map((li) => li.dataset.action));
    assert.ok(played.length >= 8, `${played.length} decisions`);
    assert.equal(await pageBpn(), toolApply(START, ...played));
  });

  await t.test('MCTS (in its worker) plays ATK against greedy: legal decisions, BPN = ball apply, ' +
    'the native selfplay\'s game', async () => {
    // selfplay seeds game 1 of --seed 7 with 8: the page's seed=8
    await page.goto(url + '?atk=mcts:playouts%3D300&def=greedy&seed=8&delay=0&rules=turns%3D10');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.getAttribute('body', 'data-search'), 'worker');
    assert.equal(await page.inputValue('#player-ATK'), 'mcts:playouts=300');
    assert.match(await page.textContent('#player-ATK option:checked'), /^MCTS, 300 playouts$/);
    const MAX = 80;
    await page.waitForFunction((max) => document.body.dataset.result !== 'ongoing' ||
      Number(document.body.dataset.decisions) >= max, MAX, { timeout: 60000 });
    await shot('09-mcts-game');
    await page.selectOption('#player-DEF', 'human');
    await page.selectOption('#player-ATK', 'human');
    const log = await pageLog();
    assert.ok(log.length >= 20, `${log.length} decisions`);
    assert.ok(log.some((e) => e.player === 'mcts:playouts=300') && log.some((e) => e.player === 'greedy'));
    const last = replayInTool(log, START, ['--turn-limit', '10']);
    assert.equal(await pageBpn(), last);
    assert.equal(await page.getAttribute('body', 'data-result'), 'draw', 'turn 10 reached');
    assert.deepEqual(log.map((e) => e.action),
      selfplayGame(['--seed', '7', '--turn-limit', '10', '--atk', 'mcts:playouts=300', '--def', 'greedy']),
      'the decisions of selfplay --seed 7 --atk mcts:playouts=300 --def greedy');
    assert.match(await page.textContent('#search-info'), /^ATK \(MCTS, 300 playouts\) played \S+: .*\(in a worker\)\./);
  });

  await t.test('MCTS thinking: shown, the page responsive, a search dropped by Undo', async () => {
    // a time budget: 1.5 s of search for each of ATK's decisions
    await page.goto(url + '?atk=mcts:ms%3D1500&delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    await click({ button: 'end' }); // DEF (a person) ends turn 1: ATK searches
    await page.waitForSelector('body[data-thinking="ATK"]', { timeout: 5000 });
    assert.equal(await page.textContent('#prompt'), 'ATK (MCTS, 1.5 s) is thinking…');
    assert.equal(await page.getAttribute('#prompt', 'class'), 'thinking');
    assert.equal(await page.getAttribute('#board-wrap', 'aria-busy'), 'true');
    await shot('10-mcts-thinking');
    // the page answers at once while the worker searches: frames, clicks
    const t0 = Date.now();
    const frames = await page.evaluate(() => new Promise((ok) => {
      let n = 0;
      const start = performance.now();
      const step = () => (++n < 10 ? requestAnimationFrame(step) : ok([n, performance.now() - start]));
      requestAnimationFrame(step);
    }));
    await page.click('#setup summary');
    assert.equal(await page.getAttribute('#setup', 'open'), '');
    await page.click('#setup summary');
    const busy = Date.now() - t0;
    assert.equal(await page.getAttribute('body', 'data-thinking'), 'ATK', 'still thinking meanwhile');
    assert.ok(frames[1] < 1000 && busy < 1200, `10 frames in ${frames[1]} ms, clicks answered in ${busy} ms`);
    await page.waitForFunction(() => Number(document.body.dataset.decisions) >= 2, null, { timeout: 15000 });
    replayInTool(await pageLog());
    assert.match(await page.textContent('#search-info'),
      /^ATK \(MCTS, 1\.5 s\) played \S+: [\d,]+ playouts, [\d,]+ nodes in [\d,]+ ms, value [01]\.\d\d \(ATK's mean result in its random playouts: 0 lost, 1 won\) \(in a worker\)\.$/);
    // Undo goes back to the person's last decision: the start
    await click({ button: 'undo' });
    assert.equal(await pageBpn(), START);
    // Undo while ATK thinks: the late answer is dropped
    await click({ button: 'end' });
    await page.waitForSelector('body[data-thinking="ATK"]', { timeout: 5000 });
    await click({ button: 'undo' });
    assert.equal(await pageBpn(), START);
    assert.equal(await page.getAttribute('body', 'data-thinking'), '');
    assert.equal(await page.getAttribute('#board-wrap', 'aria-busy'), 'false');
    await page.waitForTimeout(2500);
    assert.equal(await pageBpn(), START, 'the late answer did not play');
    assert.equal(await page.locator('#log li').count(), 0);
    // after a cancelled search the next one answers (a worker stopped while
    // searching is replaced; one still loading skips the dropped search)
    await click({ button: 'end' });
    await page.waitForFunction(() => Number(document.body.dataset.decisions) >= 2, null, { timeout: 15000 });
    await page.selectOption('#player-ATK', 'human');
    replayInTool(await pageLog());
    assert.match(await page.textContent('#search-info'), /\(in a worker\)\./);
  });

  await t.test('MCTS in the page when the worker cannot start', async () => {
    const other = await context.newPage();
    const seen = [];
    other.on('pageerror', (e) => seen.push(`page error: ${e.message}`));
    other.on('console', (m) => { if (m.type() === 'warning') seen.push(m.text()); });
    await other.route('**/search-worker.mjs', (r) => r.fulfill({ status: 200, contentType: 'text/javascript',
      body: 'throw new Error("no worker here");' }));
    // both sides MCTS: selfplay --seed 4 seeds game 1 with 5
    await other.goto(url + '?atk=mcts:playouts%3D200&def=mcts:playouts%3D200,turns%3D3&seed=5&delay=0&rules=turns%3D4');
    await other.waitForSelector('body[data-ready="1"]');
    await other.waitForFunction(() => document.body.dataset.result !== 'ongoing', null, { timeout: 60000 });
    assert.equal(await other.getAttribute('body', 'data-search'), 'page');
    assert.ok(seen.some((m) => /searching in the page/.test(m)), seen.join('\n'));
    const log = await other.$$eval('#log li', (lis) => lis.map((li) =>
      ({ action: li.dataset.action, bpn: li.dataset.bpn })));
    replayInTool(log, START, ['--turn-limit', '4']);
    assert.deepEqual(log.map((e) => e.action), selfplayGame(['--seed', '4', '--turn-limit', '4',
      '--atk', 'mcts:playouts=200', '--def', 'mcts:playouts=200,turns=3']));
    assert.match(await other.textContent('#search-info'), /\(in the page\)\./);
    await other.close();
  });

  await t.test('the turn search plays ATK against greedy: the native selfplay\'s game; ' +
    'the evaluation bar and the best line', async () => {
    await page.goto(url + '?atk=search:nodes%3D3000&def=greedy&seed=8&delay=0&rules=turns%3D6');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.inputValue('#player-ATK'), 'search:nodes=3000');
    assert.match(await page.textContent('#player-ATK option:checked'), /^Turn search, 3,000 nodes$/);
    await page.waitForFunction(() => document.body.dataset.result !== 'ongoing', null, { timeout: 60000 });
    await page.selectOption('#player-DEF', 'human');
    await page.selectOption('#player-ATK', 'human');
    const log = await pageLog();
    assert.ok(log.some((e) => e.player === 'search:nodes=3000') && log.some((e) => e.player === 'greedy'));
    replayInTool(log, START, ['--turn-limit', '6']);
    assert.deepEqual(log.map((e) => e.action),
      selfplayGame(['--seed', '7', '--turn-limit', '6', '--atk', 'search:nodes=3000', '--def', 'greedy']),
      'the decisions of selfplay --seed 7 --atk search:nodes=3000 --def greedy');
    assert.match(await page.textContent('#search-info'),
      /^ATK \(Turn search, 3,000 nodes\) played \S+: (depth \d+, [\d,]+ nodes in (under 1|[\d,]+) ms, value [+\u2212][01]\.\d\d for ATK \(from \u22121, a touchdown it cannot stop, to \+1, a forced touchdown; about \u00b10\.5 is the ball's worth\)|no search needed) \(in a worker\)\.( Ending the action phase with \d PA left is legal \(R4\.2\): the search found no action worth more\.)?$/);
    // the bar and the line of ATK's last search
    assert.equal(await page.isVisible('#analysis'), true);
    assert.match(await page.textContent('#eval-value'), /^[+\u2212][01]\.\d\d$/);
    assert.match(await page.textContent('#eval-label'), /^for ATK to act, turn \d+.* · by ATK's Turn search, 3,000 nodes/);
    const line = (await page.textContent('#best-line')).split(' ');
    const lastAtk = log.findLastIndex((e) => e.player === 'search:nodes=3000');
    assert.equal(line[0], log[lastAtk].action, 'the best line starts with the decision played');
  });

  await t.test('the evaluation: network by default; hand-written plays TurnSearch({ eval: \'hand\' })\'s decisions; ' +
    'value.net: the worker fetches wasm/value.net and plays the native search\'s decisions with that net', async () => {
    const fetched = [];
    const seen = (r) => { if (r.url().endsWith('/wasm/value.net')) fetched.push(r.url()); };
    context.on('request', seen); // the worker's requests too
    // A game of ATK's turn search (20,000 nodes, selfplay's seed 8 for
    // ATK) against greedy, turn limit 4, with the Evaluation `choice`.
    const playWith = async (choice) => {
      await page.goto(url + '?def=greedy&seed=8&delay=0&rules=turns%3D4');
      await page.waitForSelector('body[data-ready="1"]');
      assert.equal(await page.inputValue('#evaluation'), 'network', 'the network by default');
      await page.selectOption('#evaluation', choice);
      await page.selectOption('#player-ATK', 'search:nodes=20000');
      await page.waitForFunction(() => document.body.dataset.result !== 'ongoing', null, { timeout: 60000 });
      await page.selectOption('#player-DEF', 'human');
      await page.selectOption('#player-ATK', 'human');
      const log = await pageLog();
      const mine = log.filter((e) => e.player === 'search:nodes=20000');
      assert.ok(mine.length >= 3 && log.some((e) => e.player === 'greedy'), `${mine.length} decisions of the search`);
      replayInTool(log, START, ['--turn-limit', '4']);
      return log;
    };
    try {
      await page.goto(url);
      await page.waitForSelector('body[data-ready="1"]');
      assert.deepEqual(await page.$$eval('#evaluation option', (os) => os.map((o) => [o.value, o.textContent])),
        [['network', 'Network (default)'], ['hand', 'Hand-written'], ['value.net', 'value.net (experimental)']]);
      for (const [param, value] of [['hand', 'hand'], ['net', 'value.net'], ['network', 'network'], ['x', 'network']]) {
        await page.goto(url + `?eval=${param}`);
        await page.waitForSelector('body[data-ready="1"]');
        assert.equal(await page.inputValue('#evaluation'), value, `eval=${param}`);
      }
      // the hand-written evaluation: the decisions of the binding's
      // TurnSearch({ eval: 'hand' }) with the same budget and seed, one
      // searcher for the game as the page keeps one
      const hand = await playWith('hand');
      await page.locator('#players').scrollIntoViewIfNeeded();
      await shot('12-evaluation-hand');
      assert.match(await page.textContent('#search-info'),
        /^ATK \(Turn search, 20,000 nodes\) played \S+: (.*, with the hand-written evaluation|no search needed) \(in a worker\)\./);
      const ball = await load();
      const game = new ball.Game({ rules: { turnLimit: 4 } });
      const search = new ball.TurnSearch({ nodes: 20000, seed: 8n, eval: 'hand' });
      const want = hand.map((e) => {
        const mine = e.player === 'search:nodes=20000' ? search.choose(game).text : e.action;
        game.apply(e.action);
        return mine;
      });
      search.free();
      game.free();
      assert.deepEqual(hand.map((e) => e.action), want, "the decisions of TurnSearch({ nodes: 20000, seed: 8n, eval: 'hand' })");
      assert.equal(fetched.length, 0, 'value.net not fetched for the hand-written evaluation');
      // value.net
      const log = await playWith('value.net');
      assert.equal(fetched.length, 1, `the network fetched once: ${fetched.join(' ')}`);
      assert.match(await page.textContent('#search-info'),
        /^ATK \(Turn search, 20,000 nodes\) played \S+: (.*, with the network value\.net|no search needed) \(in a worker\)\./);
      // The native search with the same net, budget and seed (selfplay's
      // seed 8 for ATK), one searcher for the game as the page keeps one
      const py = spawnSync('python3', ['-c', `
import json, sys
from libball import Game, Net, TurnSearch
net = Net.from_file(sys.argv[1])
game = Game(turn_limit=4)
search = TurnSearch(nodes=20000, seed=8, eval=net)
out = []
for e in json.load(sys.stdin):
    out.append(search.choose(game).text if e["player"] == "search:nodes=20000" else e["action"])
    game.apply(e["action"])
json.dump(out, sys.stdout)
`, join(REPO, 'share/net/value.net')], {
        input: JSON.stringify(log), encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: join(REPO, 'bindings/python'), LIBBALL_PATH: LIBRARY },
      });
      assert.equal(py.status, 0, `the native search through the Python binding (make lib python-ext): ${py.stderr}`);
      assert.deepEqual(log.map((e) => e.action), JSON.parse(py.stdout),
        'the decisions of the native TurnSearch(nodes=20000, seed=8, eval=value.net)');
      // with the default (the network) the same game is another one: the
      // choice was used each time
      await page.goto(url + '?def=greedy&atk=search:nodes%3D20000&seed=8&delay=0&rules=turns%3D4');
      await page.waitForSelector('body[data-ready="1"]');
      await page.waitForFunction(() => document.body.dataset.result !== 'ongoing', null, { timeout: 60000 });
      await page.selectOption('#player-ATK', 'human');
      await page.selectOption('#player-DEF', 'human');
      const byDefault = (await pageLog()).map((e) => e.action);
      assert.notDeepEqual(byDefault, log.map((e) => e.action), 'value.net changed the game');
      assert.notDeepEqual(byDefault, hand.map((e) => e.action), 'the hand-written evaluation changed the game');
      assert.equal(fetched.length, 1, 'not fetched for the network');
    } finally {
      context.off('request', seen);
    }
  });

  await t.test('Hint: the suggested decision is shown and marked, not played; the bar and the best line', async () => {
    await page.goto(url + `?delay=0&bpn=${encodeURIComponent(IN_ONE)}`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await pageBpn(), IN_ONE);
    assert.equal(await page.isVisible('#analysis'), false, 'no search yet');
    await click({ button: 'hint' });
    await page.waitForFunction(() => document.getElementById('hint-text').dataset.action !== '', null,
      { timeout: 30000 });
    const action = await page.getAttribute('#hint-text', 'data-action');
    assert.ok(toolLegal(IN_ONE).includes(action), `${action} is legal`);
    assert.ok(['G13-E15', 'G13-I15'].includes(action), `${action} scores this turn`);
    assert.match(await page.textContent('#hint-text'), new RegExp(`^Hint for ATK: ${action} \\(the turn: ${action} \\S+\\)$`));
    assert.deepEqual(await marked('hint'), [action.slice(0, 3), action.slice(4)].sort());
    // the value for ATK, to act: +1, a proven touchdown; the bar all ATK's
    assert.equal(await page.textContent('#eval-value'), '+1.00');
    assert.match(await page.textContent('#eval-label'), /^for ATK to act, turn 2 · a forced touchdown for ATK in 2 decisions/);
    assert.equal(await page.$eval('#eval-fill', (e) => e.style.width), '100%');
    const line = (await page.textContent('#best-line')).split(' ');
    assert.equal(line.length, 2);
    assert.equal(line[0], action);
    const after = toolApply(IN_ONE, ...line);
    assert.match(tool('show', after).stdout, /result: ATK won/, 'the native tool: the line scores');
    assert.ok(/[CGK]17$/.test(line[1]), `${line[1]} ends in row 17`);
    // not played
    assert.equal(await pageBpn(), IN_ONE);
    assert.equal(await page.locator('#log li').count(), 0);
    await shot('12-hint');
    await page.screenshot({ path: HINT_SHOT });
    // the hint is for this position only: playing something else clears it
    await click('G13');
    await click('F12');
    assert.equal(await pageBpn(), toolApply(IN_ONE, 'G13-F12'));
    assert.equal(await page.textContent('#hint-text'), '');
    assert.deepEqual(await marked('hint'), []);
    assert.match(await page.textContent('#eval-label'), /\(an earlier position\)$/);
    // at the start, DEF to act: a legal decision, a value in [-1, 1], a line that replays
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.getElementById('hint-text').dataset.action !== '', null,
      { timeout: 30000 });
    const first = await page.getAttribute('#hint-text', 'data-action');
    assert.ok(toolLegal(START).includes(first), `${first} is legal at the start`);
    const v = Number((await page.textContent('#eval-value')).replace('\u2212', '-'));
    assert.ok(v >= -1 && v <= 1, String(v));
    const width = parseFloat(await page.$eval('#eval-fill', (e) => e.style.width));
    // (the label rounds the value to 0.01: the width may differ from it by 0.25)
    assert.ok(Math.abs(width - 50 * (1 - v)) <= 0.35, `DEF to act: ATK's share ${width}% for ${v}`);
    const pv = (await page.textContent('#best-line')).split(' ');
    assert.equal(pv[0], first);
    toolApply(START, ...pv); // each decision legal in turn
    assert.equal(await pageBpn(), START);
    await shot('13-hint-start');
  });

  await t.test('Stop: a long hint and a computer player\'s search are stopped, nothing played; Hint works after', async () => {
    // a hint of 10 minutes (hint=), on DEF's turn at the start
    await page.goto(url + '?delay=0&hint=search:ms=600000');
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.isDisabled('#stop'), true, 'nothing runs: Stop is disabled');
    await click({ button: 'hint' });
    await page.waitForSelector('#stop:not([disabled])');
    await page.waitForTimeout(1500); // the worker has loaded and is searching
    assert.equal(await page.textContent('#hint-text'), 'Looking for a hint\u2026');
    assert.equal(await page.isDisabled('#hint'), true);
    await click({ button: 'stop' });
    assert.equal(await page.textContent('#hint-text'), 'Hint stopped.');
    assert.equal(await page.getAttribute('#hint-text', 'data-action'), '');
    assert.equal(await page.isDisabled('#stop'), true, 'Stop is disabled again');
    assert.equal(await page.isDisabled('#hint'), false);
    assert.deepEqual(await marked('hint'), []);
    assert.equal(await pageBpn(), START, 'the position is unchanged');
    assert.equal(await page.locator('#log li').count(), 0);
    assert.equal(await page.isVisible('#analysis'), false, 'no search result shown');
    await shot('14-hint-stopped');
    // a later hint in the same page (a fresh worker): the touchdown in one
    // is proven at once, whatever the time budget
    await page.fill('#bpn', IN_ONE);
    await page.click('#load');
    assert.equal(await pageBpn(), IN_ONE);
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.getElementById('hint-text').dataset.action !== '', null,
      { timeout: 30000 });
    assert.ok(['G13-E15', 'G13-I15'].includes(await page.getAttribute('#hint-text', 'data-action')));
    assert.equal(await page.isDisabled('#stop'), true);
    assert.equal(await pageBpn(), IN_ONE);

    // DEF, a turn search of 10 minutes, to act at the start: the `s` key stops it
    await page.goto(url + '?delay=0&def=search:ms=600000');
    await page.waitForSelector('body[data-ready="1"][data-thinking="DEF"]');
    assert.equal(await page.isDisabled('#stop'), false, 'a search runs: Stop is enabled');
    await page.waitForTimeout(1500);
    assert.equal(await page.getAttribute('body', 'data-decisions'), '0');
    await page.keyboard.press('s');
    assert.equal(await page.getAttribute('body', 'data-thinking'), '');
    assert.equal(await page.isDisabled('#stop'), true, 'Stop is disabled again');
    assert.equal(await page.inputValue('#player-DEF'), 'human', 'DEF is handed to a person');
    assert.match(await page.textContent('#message'), /^Stopped DEF's .*nothing was played/);
    await page.waitForTimeout(1000); // and nothing is played later
    assert.equal(await page.getAttribute('body', 'data-decisions'), '0');
    assert.equal(await pageBpn(), START, 'the position is unchanged');
    assert.equal(await page.locator('#log li').count(), 0);
    // the person's Hint (the default budget) works in the fresh worker
    await click({ button: 'hint' });
    await page.waitForFunction(() => document.getElementById('hint-text').dataset.action !== '', null,
      { timeout: 30000 });
    assert.ok(toolLegal(START).includes(await page.getAttribute('#hint-text', 'data-action')));
    assert.equal(await pageBpn(), START);
    await shot('15-bot-stopped');
  });

  await t.test('phone width: the whole board fits, no sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url + '?delay=0');
    await page.waitForSelector('body[data-ready="1"]');
    await click('G11');
    const box = await page.locator('#board').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390 + 0.5, `board ${box.x} + ${box.width}`);
    assert.equal(await page.getAttribute('#legend', 'open'), null, 'the legend starts folded on a phone');
    const prompt = await page.locator('#prompt').boundingBox();
    assert.ok(prompt.y < box.y + box.height + 200, `the prompt (${prompt.y}) comes right under the board`);
    const cell = await page.locator('rect.sq[data-square="G9"]').boundingBox();
    assert.ok(cell.width >= 24, `squares of ${cell.width} px can be tapped`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await shot('07-phone', { fullPage: true });
    await click('G9');
    assert.equal(await pageBpn(), toolApply(START, 'G11-G9'));
    // the players' choice fits too; MCTS answers DEF's turn
    await page.selectOption('#player-ATK', 'mcts:playouts=1000');
    await click({ button: 'end' });
    await page.waitForFunction(() => Number(document.body.dataset.decisions) >= 3, null, { timeout: 15000 });
    for (const sel of ['#player-ATK', '#player-DEF', '#players', '#legend', '#save', '#share', '#forward-turn',
      '#log', 'footer']) {
      const b = await page.locator(sel).boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 390 + 0.5, `${sel}: ${b.x} + ${b.width}`);
    }
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    replayInTool(await pageLog());
    await page.locator('#players').scrollIntoViewIfNeeded();
    await shot('11-phone-mcts', { fullPage: true });
    assert.deepEqual(await lowContrast(), [], 'WCAG AA contrast at phone width');
  });

  await t.test('no console error, failed request or page error', () => {
    assert.deepEqual(problems, []);
  });
});
