// The browser test of the game server's lobby (examples/server/lobby,
// docs/server.md "The lobby"): the server runs with the board page
// (--web build/web) on a free 127.0.0.1 port and a scratch SQLite file;
// contexts of Debian's chromium (playwright-core, from tests/web's
// lockfile) use it as people would:
//
// - Ann opens /lobby/, gives her name, creates a public game (ATK, rules
//   turns=20, a 5-minute clock) against a person: her page goes to her
//   seat, whose bar says "Ann vs open seat", the rules and the clock;
// - Bo opens the lobby, sees Ann's game among the open games (her name,
//   the rules, the clock), joins it: his page plays DEF, both bars say
//   "Ann vs Bo"; the lobby then lists the game in play;
// - Cy creates a game against the computer (easy) from the form: the
//   bot's turn arrives on his board; the lobby lists "computer (easy)",
//   and its Watch button opens the game as a watcher;
// - Ann resigns: both bars offer a rematch; Ann offers it and lands on the
//   new game as DEF; Bo's bar says the rematch is offered, he accepts and
//   plays ATK in it: the same rules and clock, the names swapped.
// The server's answers are checked beside what the pages show, and no
// page logs an error. Screenshots: $SHOTS/lobby-*.png.
//
//   LIBBALL_PATH=build/libball.so.1 WEB_ROOT=build/web SHOTS=build/screenshots \
//     node tests/server/lobby.test.mjs    (tests/tools/server_lobby_test.sh runs it)
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '../web/node_modules/playwright-core/index.mjs';

const ROOT = resolve(process.env.WEB_ROOT ?? 'build/web');
const LIB = resolve(process.env.LIBBALL_PATH ?? 'build/libball.so.1');
const SHOTS = resolve(process.env.SHOTS ?? 'build/screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PYTHON = process.env.SERVER_PYTHON ?? '/usr/bin/python3';

/** Starts the server; resolves to { proc, base } once it listens. */
function startGameServer(dir) {
  const proc = spawn(PYTHON, ['examples/server/server.py', '--port', '0', '--db', join(dir, 'games.sqlite'),
    '--web', ROOT, '--log', join(dir, 'server.log')],
  { env: { ...process.env, LIBBALL_PATH: LIB, PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
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
        ok({ proc, base: m[1] });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code}): ${err}`));
    });
  });
}

test('the lobby: create, join, watch, play the computer, rematch', { timeout: 100000 }, async (t) => {
  for (const [what, path] of [['web build (make web)', join(ROOT, 'index.html')], ['libball (make lib)', LIB],
    ['chromium (apt-get install chromium)', CHROMIUM], ["Debian's python3", PYTHON]])
    assert.ok(existsSync(path), `${what}: no ${path}`);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'libball-lobby-'));
  let server;
  let browser;
  t.after(async () => {
    await browser?.close().catch(() => {});
    server?.proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  server = await startGameServer(dir);
  const { base } = server;
  const api = async (path) => (await fetch(`${base}${path}`)).json();
  browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true, timeout: 30000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  const person = async (who) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`${who}: console error: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`${who}: page error: ${e.message}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${who}: HTTP ${r.status()}: ${r.url()}`); });
    return page;
  };
  const shot = (page, name) => page.screenshot({ path: join(SHOTS, `lobby-${name}.png`) });
  const bar = (page) => page.locator('#gamebar .players');

  // Ann creates a public game against a person, from the form
  const ann = await person('Ann');
  await ann.goto(`${base}/lobby/`);
  await ann.waitForSelector('#open-none:not([hidden])');
  await ann.fill('#name', 'Ann');
  await ann.selectOption('#rules', 'turns=20');
  await ann.selectOption('#clock', '300');
  await ann.selectOption('#side', 'ATK');
  await shot(ann, 'new');
  await ann.click('#create-button');
  await ann.waitForURL(/\/\?game=[\w-]+#token=[\w-]+$/);
  const gameA = new URL(ann.url()).searchParams.get('game');
  await ann.waitForSelector('body[data-online="ATK"][data-online-joined="1"]');
  await assert.doesNotReject(bar(ann).filter({ hasText: 'Ann vs DEF open seat' }).waitFor(), 'Ann: the bar names her seat');
  assert.match(await ann.textContent('#gamebar'), /turns=20 · 5 min a turn/);
  let state = await api(`/api/games/${gameA}`);
  assert.deepEqual([state.seats.ATK.name, state.seats.DEF.unclaimed, state.rules, state.turn_seconds, state.public],
    ['Ann', true, 'turns=20', 300, true], 'the game as created by the form');

  // Bo sees it in the lobby and joins it
  const bo = await person('Bo');
  await bo.goto(`${base}/lobby/`);
  await bo.fill('#name', 'Bo');
  const row = bo.locator(`#open tr[data-game="${gameA}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /ATK Ann.*DEF.*turns=20.*5 min a turn.*Join as DEF/);
  await shot(bo, 'open');
  await row.locator('button').click();
  await bo.waitForURL(new RegExp(`/\\?game=${gameA}#token=`));
  await bo.waitForSelector('body[data-online="DEF"][data-online-joined="1"]');
  for (const page of [ann, bo])
    await bar(page).filter({ hasText: 'Ann vs DEF Bo' }).waitFor();
  state = await api(`/api/games/${gameA}`);
  assert.equal(state.seats.DEF.name, 'Bo', 'the name given when joining');
  assert.equal(state.seats.DEF.unclaimed, false);
  await shot(bo, 'board-names');

  // Cy plays the computer: the bot's first turn (DEF acts first) reaches his board
  const cy = await person('Cy');
  await cy.goto(`${base}/lobby/`);
  await cy.fill('#name', 'Cy');
  await cy.check('input[name="opponent"][value="bot"]');
  await cy.waitForSelector('#level-row:not([hidden])');
  const levels = await cy.locator('#level option').allTextContents();
  assert.deepEqual(levels.map((l) => l.split(' ')[0]), ['easy', 'medium', 'hard', 'strong'], 'the strengths offered');
  await cy.selectOption('#level', '500');
  await cy.click('#create-button');
  await cy.waitForURL(/\/\?game=[\w-]+#token=/);
  const gameC = new URL(cy.url()).searchParams.get('game');
  await cy.waitForSelector('body[data-online="ATK"][data-online-joined="1"]');
  await bar(cy).filter({ hasText: 'Cy vs DEF computer (easy)' }).waitFor();
  await cy.waitForFunction(() => Number(document.body.dataset.onlineSeq) >= 1, null, { timeout: 30000 });
  const bot = await api(`/api/games/${gameC}`);
  assert.equal(bot.seats.DEF.kind, 'bot');
  assert.equal(bot.bot_nodes, 500);
  assert.ok(bot.seq >= 1, 'the bot played');
  await shot(cy, 'board-bot');

  // the lobby lists both games in play; Watch opens one as a watcher
  const dee = await person('Dee');
  await dee.goto(`${base}/lobby/`);
  const playRow = dee.locator(`#play tr[data-game="${gameC}"]`);
  await playRow.waitFor();
  assert.match(await playRow.textContent(), /Cy.*computer \(easy\).*standard rules.*no clock/);
  assert.match(await dee.locator(`#play tr[data-game="${gameA}"]`).textContent(), /Ann.*Bo.*turns=20/);
  assert.equal(await dee.locator('#open tbody tr').count(), 0, 'no open game left');
  assert.match(await dee.textContent('#limits'), /Games against the computer: 1 of \d+/);
  await shot(dee, 'play');
  await playRow.locator('a', { hasText: 'Watch' }).click();
  await dee.waitForSelector('body[data-online="watch"][data-online-joined="1"]');
  assert.equal(await dee.textContent('#online-seat'), 'Watching');
  await bar(dee).filter({ hasText: 'Cy vs DEF computer (easy)' }).waitFor();

  // the end: Ann resigns (two clicks); both bars offer a rematch
  await ann.click('#resign');
  await ann.click('#resign');
  for (const page of [ann, bo])
    await page.locator('#rematch button', { hasText: 'Offer a rematch' }).waitFor();
  assert.match(await bo.textContent('#rematch'), /you play ATK/);
  await shot(ann, 'rematch-offer');
  await ann.locator('#rematch button').click();
  await ann.waitForURL((url) => new URL(url).searchParams.get('game') !== gameA);
  const gameR = new URL(ann.url()).searchParams.get('game');
  await ann.waitForSelector('body[data-online="DEF"][data-online-joined="1"]');
  await bo.locator('#rematch button', { hasText: 'Accept the rematch' }).waitFor();
  assert.match(await bo.textContent('#rematch'), /Your opponent offers a rematch: you play ATK/);
  await shot(bo, 'rematch-offered');
  await bo.locator('#rematch button').click();
  await bo.waitForURL(new RegExp(`/\\?game=${gameR}#token=`));
  await bo.waitForSelector('body[data-online="ATK"][data-online-joined="1"]');
  for (const page of [ann, bo])
    await bar(page).filter({ hasText: 'Bo vs DEF Ann' }).waitFor();
  const rematch = await api(`/api/games/${gameR}`);
  assert.deepEqual([rematch.seats.ATK.name, rematch.seats.DEF.name, rematch.rules, rematch.turn_seconds, rematch.rematch_of],
    ['Bo', 'Ann', 'turns=20', 300, gameA], 'colours swapped, same rules and clock');
  assert.equal(rematch.seats.ATK.unclaimed, false);
  await shot(bo, 'rematch-board');
  assert.deepEqual(problems, [], 'no console error, no failed request');
  console.log(`lobby: ok (games ${gameA}, ${gameC}, rematch ${gameR})`);
});
