// The workbench (issue 40): a designer compares a rule variant of the Tourists conflict with the
// rules as written, at desktop and phone sizes, reads the findings, figures and plots, shares the
// study's link (which gives the same study), and opens a table with the variant from the lobby;
// the table's record carries the variant.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, person, shot, checkPage, BASE, DESKTOP, PHONE } from '../lib.mjs';
import { api, play, clashVerify, verdictOf } from '../records.mjs';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A screenshot of the screen a person sees with `selector` at its top. */
async function screen(page, selector, name) {
  await page.locator(selector).first().evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(ARTIFACTS, name + '.png') });
}

/** Wait for the study's report and check the page as it stands. */
async function report(page) {
  await page.waitForSelector('#bench-results:not([hidden])', { timeout: 120000 });
  await checkPage(page, { where: 'the workbench report' });
  return page.textContent('#bench-report');
}

test('a designer compares a shorter Wipe Out with the Tourists rules as written and opens a table with it', async () => {
  const page = await person(browser, DESKTOP);
  await page.goto(BASE + '/workbench');
  await page.waitForSelector('#bench-game');
  await checkPage(page, { where: 'the workbench form' });
  await page.selectOption('#bench-game', 'nd-tourists');
  // The first suggested variant is ready; every number shows its rule.
  const form = await page.textContent('#bench-form');
  assert.match(form, /Reversed cards for a Wipe Out/);
  assert.ok(await page.locator('#bench-form sup.rule-ref a', { hasText: 'ND-16' }).count() > 0, 'the rule is a link');
  const wipe = page.locator('#bench-form input[data-key="wipe_out"]');
  assert.equal(await wipe.inputValue(), '4');
  await page.fill('#bench-games', '30');
  await page.fill('#bench-strong', '1');
  await page.fill('#bench-mixed', '1');
  await shot(page, 'workbench-form');
  await page.click('#bench-form button[type=submit]');
  const text = await report(page);
  assert.match(text, /Findings/);
  assert.match(text, /short fuse/);
  assert.match(text, /Reversed cards for a Wipe Out 4, the rules say 5/);
  assert.match(text, /games ended by a limit/);
  assert.match(text, /\[\d+\.\d%, \d+\.\d%\], n = 30/, 'figures carry their interval and n');
  // Every plot is drawn.
  const plots = page.locator('figure.bench-plot img');
  assert.ok(await plots.count() >= 5);
  await page.waitForFunction(() => [...document.querySelectorAll('figure.bench-plot img')].every((i) => i.complete && i.naturalWidth > 0));
  await shot(page, 'workbench-report');
  await screen(page, '#bench-results', 'workbench-report-findings');
  await screen(page, 'table.bench-table', 'workbench-report-figures');
  await screen(page, 'figure.bench-plot', 'workbench-report-plots');

  // The link gives the same study, here on a phone.
  const link = await page.getAttribute('#bench-share', 'href');
  assert.match(link, /^\/workbench\?game=nd-tourists/);
  const phone = await person(browser, PHONE);
  await phone.goto(BASE + link);
  const again = await report(phone);
  const summary = (t) => t.replace(/[\d.]+ s\./, '').slice(0, 400);
  assert.equal(summary(again).split('Link to this study')[0].replace(/; [\d.]+ s/, ''), summary(text).split('Link to this study')[0].replace(/; [\d.]+ s/, ''));
  await shot(phone, 'workbench-report-phone');
  await screen(phone, '#bench-results', 'workbench-report-phone-findings');
  await screen(phone, 'table.bench-table', 'workbench-report-phone-figures');

  // Open a table with the variant from the lobby: the form is filled in, the table made.
  await page.click('text=Open a table with it');
  await page.waitForSelector('#variant-pick[open]');
  assert.equal(await page.inputValue('#variant-changes'), 'wipe_out=4');
  await checkPage(page, { where: 'the lobby with a variant' });
  await shot(page, 'workbench-lobby-variant');
  await Promise.all([page.waitForURL(/\/t\//), page.click('#create-form button[type=submit]')]);
  await page.waitForSelector('#status.live');
  await checkPage(page);
  // The GM plays a few commands for every seat, ends the table, and its record carries the
  // variant; `clash verify` replays it under the variant's rules.
  const [, id, key] = new URL(page.url()).pathname.match(/\/t\/(\w+)\/(\w+)/);
  const info = (await api('GET', `/api/tables/${id}?key=${key}`)).json;
  const seats = info.seats.map((s) => s.seat);
  for (const seat of seats) {
    if (seat !== 'gm') await api('POST', `/api/tables/${id}/seats/${seat}/link?key=${key}`, { npc: true });
  }
  assert.ok(await play(id, key, seats, 12) >= 6);
  await api('POST', `/api/tables/${id}/close?key=${key}`).catch(() => null);
  const exported = (await api("GET", `/api/tables/${id}/export?key=${key}`)).text;
  const created = JSON.parse(exported).entries.find((e) => e.entry && e.entry.event && e.entry.event.type === 'created');
  assert.deepEqual(created.entry.event.setup.variant, { name: 'short fuse', changes: { wipe_out: 4 } });
  const verdict = clashVerify(exported);
  assert.equal(verdictOf(verdict.code), 'verified', verdict.out);
  await phone.context().close();
  await page.context().close();
});

test('a number out of its bounds is refused with its rule', async () => {
  const r = await fetch(BASE + '/api/workbench/studies', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'nd-tourists', variants: [{ name: 'too short', changes: 'wipe_out=2' }], games: 10 }),
  });
  assert.equal(r.status, 422);
  const body = await r.json();
  assert.equal(body.error.rule, 'ND-16');
  assert.match(body.error.message, /3 to 10/);
});
