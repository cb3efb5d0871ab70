// The browser test of the page on the game server (examples/web/online.mjs,
// examples/server, docs/server.md "Playing from the page"): the server
// runs with the page (--web build/web) on a free 127.0.0.1 port and a
// scratch SQLite file; a game is created with POST /api/games (rules
// turns=6, a clock); three contexts of Debian's chromium (playwright-core)
// open ATK's and DEF's invitation links and the spectators' link, and the
// two seats play the whole game through the page's UI: clicks on the
// board, the End button and the `e` key; each seat's decision is the
// first legal move in the binding's order for up to two moves a turn, then
// the end of the action phase (no piece meets another, so the turn limit
// ends the game, R11). On the way: only the side to act can act (the
// other seat's page and the watcher's show nothing to click), every page
// shows each decision (BPN = the server's), a draw offered and declined,
// and DEF's page reloaded in the middle of its turn, going on from the
// same position; the server killed (SIGKILL) in the middle of ATK's turn
// and started again on the same database: the pages say the connection is
// lost, offer nothing to click, reconnect and resume. At the end: the outcome on all three pages, the watcher's
// decisions = those played = those of the server's record, the final BPN
// of all three = the server's (GET /api/games/ID), the record downloaded
// from the page's link = GET /api/games/ID/record. Then a second game on
// the same pages, ended by DEF's resignation. No console error.
// Screenshots: $SHOTS/online-atk.png, online-def.png, online-watch.png
// (the draw offer standing), online-*-end.png (the end) and
// online-watch-resign.png (the second game).
//
//   LIBBALL_PATH=build/libball.so.1 WEB_ROOT=build/web SHOTS=build/screenshots \
//     node tests/web/online.test.mjs    (make check-web-online runs it)
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { load } from '../../bindings/js/libball.mjs';

const ROOT = resolve(process.env.WEB_ROOT ?? 'build/web');
const LIB = resolve(process.env.LIBBALL_PATH ?? 'build/libball.so.1');
const SHOTS = resolve(process.env.SHOTS ?? 'build/screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PYTHON = process.env.SERVER_PYTHON ?? '/usr/bin/python3';
const RULES = 'turns=6';
// DEF's page is reloaded after this many decisions: DEF's first move of turn 3.
const RELOAD_AFTER = 7;
// ATK offers a draw after this many decisions (DEF declines it).
const DRAW_AFTER = 4;

// The server is killed (SIGKILL) after this many decisions, in the middle
// of ATK's turn 4, and started again on the same port and database.
const RESTART_AFTER = 10;

/** Starts the server; resolves to { proc, base } once it listens. */
function startGameServer(dir, port = 0) {
  const proc = spawn(PYTHON, ['examples/server/server.py', '--port', String(port), '--db', join(dir, 'games.sqlite'),
    '--web', ROOT], { env: { ...process.env, LIBBALL_PATH: LIB, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the server did not start in 20 s: ${err}`)), 20000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ proc, base: m[1], stderr: () => err });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code}): ${err}`));
    });
  });
}

test('two seats and a watcher play a whole game on the server through the page', { timeout: 90000 }, async (t) => {
  for (const [what, path] of [['web build (make web)', join(ROOT, 'index.html')], ['libball (make lib)', LIB],
    ['chromium (apt-get install chromium)', CHROMIUM], ["Debian's python3", PYTHON]])
    assert.ok(existsSync(path), `${what}: no ${path}`);
  mkdirSync(SHOTS, { recursive: true });
  const ball = await load();
  const dir = mkdtempSync(join(tmpdir(), 'libball-online-'));
  let server;
  let browser;
  t.after(async () => {
    await browser?.close().catch(() => {});
    server?.proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  server = await startGameServer(dir);
  const { base } = server;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 30000,
  });

  // the game: two human seats, a clock of 10 minutes a turn
  const created = await fetch(`${base}/api/games`, { method: 'POST',
    body: JSON.stringify({ rules: RULES, turn_seconds: 600, atk_name: 'Ann', def_name: 'Bob' }) });
  assert.equal(created.status, 201);
  const game = await created.json();
  assert.match(game.seats.ATK.link, new RegExp(`^${base}/\\?game=${game.game}#token=`));
  const serverState = async () => (await fetch(`${base}/api/games/${game.game}`)).json();

  const problems = [];
  let outage = false; // the server is down: the page's reconnections fail, as they should
  const pages = {};
  for (const [who, link] of [['ATK', game.seats.ATK.link], ['DEF', game.seats.DEF.link], ['watch', game.watch]]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10000);
    page.on('console', (m) => {
      if (m.type() === 'error' && !(outage && /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws' failed/.test(m.text())))
        problems.push(`${who}: console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${who}: HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(link);
    pages[who] = page;
  }
  const joined = (page, seq) => page.waitForSelector(`body[data-online-joined="1"][data-online-seq="${seq}"]`);
  for (const [who, page] of Object.entries(pages)) {
    await joined(page, 0);
    assert.equal(await page.textContent('#online-seat'), who === 'watch' ? 'Watching' : `You play ${who}`, who);
    assert.equal(await page.getAttribute('body', 'data-online'), who);
    assert.match(await page.textContent('#online-clock'), /^clock: DEF: (10:00|9:\d\d) left in the turn$/, `${who}: the clock`);
    assert.ok(!(await page.isVisible('#players')) && !(await page.isVisible('#undo')) && !(await page.isVisible('#new')),
      `${who}: no local players, undo or new game online`);
  }
  assert.ok(!(await pages.watch.isVisible('#resign')), 'the watcher cannot resign');

  // the node copy of the game, in step with the server: picks the decisions
  const mirror = new ball.Game({ rules: RULES });
  const played = [];
  let seq = 0;
  let movesThisTurn = 0;
  let lastTurn = mirror.turn;
  const waitAll = async () => {
    for (const page of Object.values(pages))
      await joined(page, seq);
  };

  while (!mirror.isOver) {
    assert.ok(played.length < 60, 'the game ends by its turn limit');
    if (mirror.turn !== lastTurn) {
      lastTurn = mirror.turn;
      movesThisTurn = 0;
    }
    const side = mirror.side;
    const page = pages[side];
    const otherPage = pages[side === 'ATK' ? 'DEF' : 'ATK'];
    // only the side to act can act
    for (const [who, p] of [['the other seat', otherPage], ['the watcher', pages.watch]]) {
      assert.equal(await p.locator('rect.sq.selectable').count(), 0, `${who} has nothing to click`);
      assert.ok(await p.isDisabled('#end'), `${who}: End is disabled`);
    }
    assert.ok((await page.locator('rect.sq.selectable').count()) > 0 || mirror.legalActions().length === 1,
      `${side} can click its pieces`);
    assert.match(await otherPage.textContent('#prompt'), new RegExp(`^Waiting for ${side}, your opponent`));
    assert.match(await pages.watch.textContent('#prompt'), new RegExp(`^Watching: ${side} to act`));

    const legal = mirror.legalActions();
    const move = movesThisTurn < 2 ? legal.find((a) => a.kind === 'move') : undefined;
    const action = move ?? legal.find((a) => a.kind === 'end');
    assert.ok(action, `a move or the end in ${mirror.bpn}`);
    if (action.kind === 'move') {
      await page.click(`rect.sq[data-square="${action.from}"]`);
      await page.click(`rect.sq[data-square="${action.to}"]`);
      movesThisTurn++;
    } else if (played.length % 2) {
      await page.click('#end');
    } else {
      await page.locator('body').press('e'); // the keyboard's End
    }
    played.push(action.text);
    mirror.apply(action.text);
    seq++;
    await waitAll();
    for (const [who, p] of Object.entries(pages)) {
      assert.equal(await p.inputValue('#bpn'), mirror.bpn, `${who}: the BPN after ${played.length} decisions`);
      assert.equal(await p.getAttribute('#log li:last-child', 'data-action'), action.text, `${who} shows ${action.text}`);
    }
    assert.equal((await serverState()).bpn, mirror.bpn, 'the server\'s BPN');

    if (played.length === DRAW_AFTER) {
      // ATK offers a draw (also when not to act), DEF declines it
      await pages.ATK.click('#offer-draw');
      seq++;
      await waitAll();
      for (const p of Object.values(pages))
        assert.equal(await p.getAttribute('body', 'data-online-draw'), 'ATK');
      assert.ok(await pages.ATK.isDisabled('#offer-draw'), 'one offer at a time');
      assert.ok(await pages.DEF.isVisible('#accept-draw') && await pages.DEF.isVisible('#decline-draw'));
      assert.match(await pages.watch.textContent('#online-feed'), /ATK offers a draw/);
      // mid-game, a draw offer standing: the three pages as their people see them
      for (const [who, name] of [['ATK', 'online-atk'], ['DEF', 'online-def'], ['watch', 'online-watch']])
        await pages[who].screenshot({ path: join(SHOTS, `${name}.png`) });
      await pages.DEF.click('#decline-draw');
      seq++;
      await waitAll();
      for (const p of Object.values(pages))
        assert.equal(await p.getAttribute('body', 'data-online-draw'), '');
      assert.match(await pages.watch.textContent('#online-feed'), /DEF declined the draw/);
    }
    if (played.length === RESTART_AFTER) {
      // the connection drops: every page says so, nobody can act; the
      // server comes back on the same database, the pages resume
      outage = true;
      server.proc.removeAllListeners('exit');
      const gone = new Promise((ok) => server.proc.once('exit', ok));
      server.proc.kill('SIGKILL');
      await gone;
      for (const [who, p] of Object.entries(pages)) {
        await p.waitForSelector('body[data-online-conn="reconnecting"]');
        assert.match(await p.textContent('#online-conn'), /^Connection lost: reconnecting/, who);
        assert.equal(await p.locator('rect.sq.selectable').count(), 0, `${who}: nothing to click while disconnected`);
      }
      server = await startGameServer(dir, Number(new URL(base).port));
      for (const p of Object.values(pages))
        await p.waitForSelector(`body[data-online-conn="connected"][data-online-seq="${seq}"]`, { timeout: 15000 });
      outage = false;
      for (const [who, p] of Object.entries(pages))
        assert.equal(await p.inputValue('#bpn'), mirror.bpn, `${who}: after the restart`);
    }
    if (played.length === RELOAD_AFTER) {
      assert.equal(mirror.side, 'DEF', 'DEF reloads in the middle of its turn');
      await pages.DEF.reload();
      await joined(pages.DEF, seq);
      assert.equal(await pages.DEF.textContent('#online-seat'), 'You play DEF', 'the token read again from the link');
      assert.deepEqual(await pages.DEF.$$eval('#log li', (lis) => lis.map((li) => li.dataset.action)), played,
        'after the reload: every decision so far');
      assert.equal(await pages.DEF.inputValue('#bpn'), mirror.bpn);
    }
  }

  // the end, on every page and on the server
  const final = await serverState();
  assert.deepEqual(final.outcome, { result: '1/2-1/2', reason: 'game' }, 'a draw at the turn limit (R11)');
  assert.equal(final.seq, seq);
  assert.equal(final.bpn, mirror.bpn);
  for (const [who, p] of Object.entries(pages)) {
    await p.waitForSelector('body[data-online-outcome="1/2-1/2 game"]');
    assert.equal(await p.inputValue('#bpn'), final.bpn, `${who}: the final position is the server's`);
    assert.equal(await p.getAttribute('body', 'data-result'), 'draw');
    assert.equal(await p.textContent('#online-end'), 'Game over: Draw: the turn limit is reached, 1/2-1/2.');
    assert.equal(await p.locator('rect.sq.selectable').count(), 0, `${who}: nothing to click after the end`);
  }
  const watched = await pages.watch.$$eval('#log li', (lis) => lis.map((li) => li.dataset.action));
  assert.deepEqual(watched, played, 'the watcher saw every decision, in order');

  // the record: the page's link = the server's record = the game played
  const recordText = await (await fetch(`${base}/api/games/${game.game}/record`)).text();
  const [download] = await Promise.all([pages.DEF.waitForEvent('download'), pages.DEF.click('#online-record')]);
  const downloaded = readFileSync(await download.path(), 'utf8');
  assert.equal(downloaded, recordText, 'the downloaded record is the server\'s');
  const fromRecord = ball.Game.fromRecord(downloaded);
  assert.deepEqual(fromRecord.history().map((a) => a.text), played, 'the record holds the decisions played');
  assert.equal(fromRecord.result, 'draw');
  assert.equal(fromRecord.bpn, final.bpn);
  fromRecord.free();
  mirror.free();

  for (const [who, name] of [['ATK', 'online-atk-end'], ['DEF', 'online-def-end'], ['watch', 'online-watch-end']])
    await pages[who].screenshot({ path: join(SHOTS, `${name}.png`) });

  // a second game on the same pages, ended by DEF's resignation (two clicks)
  const second = await (await fetch(`${base}/api/games`, { method: 'POST', body: '{}' })).json();
  for (const [who, link] of [['ATK', second.seats.ATK.link], ['DEF', second.seats.DEF.link], ['watch', second.watch]]) {
    await pages[who].goto(link);
    await joined(pages[who], 0);
  }
  assert.equal(await pages.DEF.textContent('#online-clock'), '', 'no clock in a game without one');
  await pages.DEF.click('#resign');
  assert.equal(await pages.DEF.textContent('#resign'), 'Really resign?');
  assert.equal(await pages.DEF.getAttribute('body', 'data-online-seq'), '0', 'one click does not resign');
  await pages.DEF.click('#resign');
  for (const [who, p] of Object.entries(pages)) {
    await p.waitForSelector('body[data-online-outcome="1-0 resign"]');
    assert.equal(await p.textContent('#online-end'), 'Game over: ATK wins by resignation (DEF resigned), 1-0.', who);
    assert.equal(await p.textContent('#result'), 'ATK wins by resignation (DEF resigned)', `${who}: the banner`);
  }
  assert.deepEqual((await (await fetch(`${base}/api/games/${second.game}`)).json()).outcome,
    { result: '1-0', reason: 'resign' });

  await pages.watch.screenshot({ path: join(SHOTS, 'online-watch-resign.png') });
  assert.deepEqual(problems, [], 'no console error, page error or failed request');
  console.log(`online: ${played.length} decisions, ${seq} events, outcome ${final.outcome.result} (${final.outcome.reason})`);
});
