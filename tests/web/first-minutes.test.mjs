// SPDX-License-Identifier: MIT
// What a new user meets in the first minutes of the page (issue 49), in
// Debian's chromium driven by playwright-core against a server on
// 127.0.0.1: the footer's "the rules" opens a page (HTML, its diagrams
// loaded), not raw Markdown as text/plain with broken images; on a phone
// (a narrow touch screen) the page says "Tap", not "Click", and lists no
// keyboard keys; no blank gap under Hint/Stop; the move arrow is drawn
// under the pieces, so that its head does not cover the moved piece's
// letter. Screenshots go to $SHOTS (first-*.png); look at them.
//
//   WEB_ROOT=build/web SHOTS=build/screenshots node tests/web/first-minutes.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../examples/web/serve.mjs';

const ROOT = resolve(process.env.WEB_ROOT ?? 'build/web');
const SHOTS = resolve(process.env.SHOTS ?? 'build/screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

test('the first minutes: the rules page, a phone, the move arrow', { timeout: 120000 }, async (t) => {
  mkdirSync(SHOTS, { recursive: true });
  const { server, url } = await startServer(ROOT, { port: 0, host: '127.0.0.1' });
  const userDir = mkdtempSync(join(tmpdir(), 'libball-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  t.after(async () => {
    await browser.close().catch(() => {});
    server.close();
    rmSync(userDir, { recursive: true, force: true });
  });
  const problems = [];
  const watch = (page) => {
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
  };

  await t.test('the rules: a page with its diagrams', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    watch(page);
    // loaded to the end before the link is followed: a request still in
    // flight then (the module, 1.6 MB with the network it carries) is
    // aborted by the navigation, which is not what this checks
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForSelector('#board');
    const href = await page.getAttribute('footer a', 'href');
    const response = await page.request.get(new URL(href, page.url()).href);
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-type'], /^text\/html/, `${href} is served as HTML`);
    await Promise.all([page.waitForNavigation(), page.click('footer a')]);
    assert.equal(await page.textContent('h1'), 'The rules of BALL');
    const images = await page.$$eval('img', (list) => list.map((i) => ({ src: i.getAttribute('src'), w: i.naturalWidth })));
    assert.ok(images.length >= 17, `${images.length} diagrams`);
    for (const i of images)
      assert.ok(i.w > 0, `${i.src} does not load`);
    assert.ok(await page.locator('table').count() > 0, 'the tables are tables');
    assert.equal(await page.locator('text=![').count(), 0, 'no Markdown image syntax left');
    await page.locator('img[src="diagrams/movement-x.svg"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'first-rules.png') });
    await page.close();
  });

  await t.test('a phone: tap, no keyboard keys, no gap under Hint/Stop', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
      deviceScaleFactor: 2 });
    const page = await phone.newPage();
    watch(page);
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('#prompt')?.textContent.length > 0);
    const prompt = await page.textContent('#prompt');
    assert.match(prompt, /^Tap /, `the prompt on a phone: ${prompt}`);
    assert.doesNotMatch(prompt, /[Cc]lick/);
    const footer = await page.innerText('footer');
    assert.doesNotMatch(footer, /Tab|arrow keys|Enter|Esc|[Cc]lick/, `the footer on a phone: ${footer}`);
    assert.match(footer, /tap a piece/);
    // the row of Hint/Stop, then the next thing that shows something: no
    // blank band between (an empty message line took 34 px of it)
    const gap = await page.evaluate(() => {
      const row = document.querySelector('#stop').parentElement;
      const shows = (e) => e.getBoundingClientRect().height > 0 &&
        (e.innerText.trim() !== '' || e.querySelector('button, select, input, textarea, svg, img'));
      let next = row.nextElementSibling;
      while (next && !shows(next))
        next = next.nextElementSibling;
      return next.getBoundingClientRect().top - row.getBoundingClientRect().bottom;
    });
    assert.ok(gap < 20, `${gap} px of blank under Hint/Stop`);
    // (a fullPage screenshot loses the touch emulation: the viewport, scrolled)
    await page.locator('#hint').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'first-phone.png') });
    await page.locator('footer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'first-phone-footer.png') });
    // a tap plays as a click does
    await page.tap('rect.sq[data-square="E11"]');
    await page.tap('rect.sq[data-square="F10"]');
    assert.match(await page.textContent('#log'), /E11-F10/);
    await phone.close();
  });

  await t.test('the move arrow lies under the pieces', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    watch(page);
    await page.goto(url);
    await page.waitForSelector('rect.sq[data-square="E11"]');
    await page.click('rect.sq[data-square="E11"]');
    await page.click('rect.sq[data-square="F10"]');
    await page.waitForSelector('#board .arrow');
    const order = await page.evaluate(() => {
      const svg = document.querySelector('#board');
      const all = [...svg.querySelectorAll('.arrow, .piece')];
      return { arrow: all.findIndex((e) => e.matches('.arrow')), firstPiece: all.findIndex((e) => e.matches('.piece')) };
    });
    assert.ok(order.arrow >= 0 && order.arrow < order.firstPiece, `the arrow is drawn after a piece: ${JSON.stringify(order)}`);
    await page.locator('#board').screenshot({ path: join(SHOTS, 'first-arrow.png') });
    await page.close();
  });
  assert.deepEqual(problems, []);
});
