// Pages that hold still and come back at once (issue 41): the lobby, a GM's page and a seat's
// page do not move when their scripts arrive (the server draws the first screen, and keeps the
// space of what the scripts draw later), and a page kept by the browser's back/forward cache
// opens its live stream again when Back brings it back, showing what changed while it was away.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { BASE, launch, PHONE, DESKTOP, shot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** JSON from the API. */
async function api(method, path, body) {
  const r = await fetch(BASE + path, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  const out = text ? JSON.parse(text) : null;
  assert.ok(r.ok, `${method} ${path}: ${JSON.stringify(out)}`);
  return out;
}

/** An Iron Triangle table whose first seat a player holds and whose second the GM plays. */
async function ironTriangle(title) {
  const t = await api('POST', '/api/tables', { ruleset: 'iron-triangle', title });
  const owner = encodeURIComponent(t.owner_key);
  const invite = await api('POST', `/api/tables/${t.table}/seats/p1/link?key=${owner}`);
  const claimed = await api('POST', `/api/tables/${t.table}/claim?key=${encodeURIComponent(invite.invite)}`);
  await api('POST', `/api/tables/${t.table}/seats/p2/link?key=${owner}`, { npc: true });
  return { id: t.table, owner: t.owner_key, gm: BASE + t.links.owner, seat: BASE + claimed.link };
}

/**
 * Open `url` at `viewport` with the scripts held back (as on a slow phone, the page is painted
 * before they run), and add up the layout shifts until the page is drawn and live.
 */
async function shifts(url, viewport, ready) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error('page error: ' + e.message); });
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of /** @type {any[]} */ (list.getEntries())) {
        if (e.hadRecentInput) continue;
        w.shifts.push({ value: e.value, moved: e.sources.map((s) => (s.node && (s.node.id || s.node.className || s.node.nodeName)) || '?') });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.route('**/*.js', async (route) => { await new Promise((r) => setTimeout(r, 400)); await route.continue(); });
  await page.goto(url);
  await page.waitForSelector(ready);
  await page.waitForTimeout(500);
  const found = await page.evaluate(() => /** @type {any} */ (window).shifts);
  return { page, context, found, total: found.reduce((a, s) => a + s.value, 0) };
}

test('the lobby, a GM page and a seat page do not move as their scripts draw them', async () => {
  const t = await ironTriangle('Steady duel');
  const pages = [['lobby', BASE + '/', '#create-by-form'], ['gm', t.gm, '#status.live'], ['seat', t.seat, '#status.live']];
  for (const [size, viewport, limit] of [['phone', PHONE, 0.05], ['desktop', DESKTOP, 0.1]]) {
    for (const [name, url, ready] of pages) {
      const { page, context, found, total } = await shifts(url, viewport, ready);
      await shot(page, `steady-${name}-${size}`);
      await context.close();
      assert.ok(total < limit, `${name} at ${size} size moved by ${total.toFixed(3)}: ${JSON.stringify(found)}`);
    }
  }
});

test('a page kept by the back/forward cache reconnects and shows what changed meanwhile', async () => {
  const t = await ironTriangle('Cached duel');
  // Playwright turns the cache off by default; a person's browser has it.
  const cached = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  try {
    const page = await (await cached.newContext({ viewport: PHONE })).newPage();
    page.on('pageerror', (e) => { throw new Error('page error: ' + e.message); });
    await page.addInitScript(() => {
      window.addEventListener('pageshow', (e) => {
        if (e.persisted) document.documentElement.dataset.restored = String(Number(document.documentElement.dataset.restored || 0) + 1);
      });
    });
    await page.goto(t.seat);
    await page.waitForSelector('#status.live');
    assert.equal(await page.textContent('#title'), 'Cached duel');
    await page.goto(BASE + '/');
    // While the player is away, the GM renames the table.
    await api('POST', `/api/tables/${t.id}/rename?key=${encodeURIComponent(t.owner)}`, { title: 'Renamed while away' });
    // A page the cache brings back fires no load event: wait for the navigation only.
    await page.goBack({ waitUntil: 'commit' });
    const restored = await page.waitForSelector('html[data-restored="1"]', { timeout: 5000 }).then(() => true, () => false);
    // Why the browser did not keep the page, if it did not (Chromium says so).
    const why = restored ? null : await page.evaluate(() => JSON.stringify(/** @type {any} */ (performance.getEntriesByType('navigation')[0]).notRestoredReasons));
    assert.ok(restored, 'the page came back from the back/forward cache: ' + why);
    await page.waitForFunction(() => document.getElementById('title').textContent === 'Renamed while away');
    await page.waitForSelector('#status.live');
    await shot(page, 'steady-restored');
  } finally {
    await cached.close();
  }
});
