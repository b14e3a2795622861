// The review of a finished game: for each of the four games, a short conflict played by bots
// (the GM starts it and ends the table), then a player steps through it on the review page at
// desktop and phone sizes — the game's own board as their seat saw it, what was revealed later,
// the verdict and luck of each step, the chart — and the review is refused before the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { BASE, launch, person, shot, checkPage, PHONE } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const preset = (crate, file) => JSON.parse(readFileSync(path.join(ROOT, 'crates', crate, 'presets', file), 'utf8'));

async function api(method, url, body) {
  const r = await fetch(BASE + url, {
    method, headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/** A table of `ruleset` from `setup`, bots of the given strength in `bots`, the GM's `start`
 * commands sent; waits until `done(view)` (or the game is over), then the GM ends the table. */
async function played(ruleset, title, setup, bots, start, done) {
  const made = await api('POST', '/api/tables', { ruleset, title, setup });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const { table, owner_key: key } = made.body;
  const q = '?key=' + key;
  for (const [seat, command] of start) {
    const r = await api('POST', `/api/tables/${table}/commands${q}`, { command, as: seat });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  for (const seat of bots) {
    const r = await api('POST', `/api/tables/${table}/seats/${seat}/bot${q}`, { strength: 'strong' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  // Before the end the review is refused, with the reason.
  const early = await api('GET', `/api/tables/${table}/review${q}`);
  assert.equal(early.status, 409);
  assert.match(early.body.error.message, /once the table has ended/);
  for (let i = 0; i < 240; i++) {
    const v = (await api('GET', `/api/tables/${table}/view${q}`)).body;
    if (v.closed || done(v.view)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await api('POST', `/api/tables/${table}/close${q}`, {});
  const seats = (await api('GET', `/api/tables/${table}${q}`)).body;
  return { table, key, spectator: seats.links.spectator };
}

/** Go to step `n` with the slider. */
async function slide(page, n) {
  await page.$eval('#rv-slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, n);
  await page.waitForSelector(`#rv-where:has-text("Step ${n} of")`);
}

/** Open the review page of `link` at `viewport`, wait for the review, step through it. */
async function stepThrough(link, name, viewport, expect) {
  const page = await person(browser, viewport);
  await page.goto(BASE + link + '/review');
  await page.waitForFunction(() => /Every one of the/.test(document.getElementById('rv-progress').textContent), null, { timeout: 120000 });
  await page.waitForSelector('#rv-where:has-text("Step 0 of")');
  // Forward with the button, then with the arrow key; the last step with End, back with Home.
  await page.click('#rv-forward');
  await page.waitForSelector('#rv-where:has-text("Step 1 of")');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#rv-where:has-text("Step 2 of")');
  const steps = Number(await page.$eval('#rv-slider', (s) => s.max));
  await page.keyboard.press('End');
  await page.waitForSelector(`#rv-where:has-text("Step ${steps} of")`);
  await page.keyboard.press('Home');
  await page.waitForSelector('#rv-where:has-text("Step 0 of")');
  // What the seat could not see then, marked as revealed later.
  if (expect.later) {
    await slide(page, expect.later);
    await page.waitForSelector('#rv-lines li.later .rv-tag');
  }
  // The chart, the players, and every decision and roll, each a step to jump to.
  await page.waitForSelector('svg.rv-chart');
  assert.match(await page.textContent('#rv-players'), /decision/);
  await page.evaluate(() => { for (const d of document.querySelectorAll('.rv-all')) d.open = true; });
  const jump = page.locator(expect.luck ? '.rv-moments li:has(.rv-luck) button.rv-jump' : '.rv-moments li:has(.rv-decision) button.rv-jump').first();
  const target = await jump.textContent();
  await jump.click();
  await page.waitForSelector(`#rv-where:has-text("${target.trim()} of")`);
  await page.waitForSelector(expect.luck ? '#rv-verdict .rv-luck' : '#rv-verdict .rv-decision');
  assert.ok(await page.locator('#panel *').count(), name + ': the game\'s board is drawn');
  await checkPage(page, { where: name + ' review' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
  await page.context().close();
}

async function reviewBoth(result, name, expect) {
  // A spectator's link reads the same review as a player's once the table has ended.
  await stepThrough(result.spectator, name + '-review-desktop', undefined, expect);
  await stepThrough(result.spectator, name + '-review-phone', PHONE, expect);
}

test('an Iron Triangle duel is reviewed: the duel solver judges every stance and move', async () => {
  const setup = preset('iron-triangle', 'duel.json');
  // A short duel: little energy left on either side.
  setup.characters[0].current = { defend: 1, grapple: 1, attack: 1 };
  setup.characters[1].current = { defend: 1, grapple: 1, attack: 1 };
  setup.characters[1].state = { revealed: true };
  const start = [['gm', { type: 'start_conflict', stakes: 'The ledger', npcs: ['Brute'] }]];
  const r = await played('iron-triangle', 'Review: a duel', setup, ['p1', 'gm'], start, (v) => !!(v.conflict && v.conflict.outcome));
  await reviewBoth(r, 'iron-triangle', { later: 5 });
});

test('an In A Wicked Age conflict is reviewed: exact odds judge the forms, luck weighs the dice', async () => {
  const brawl = preset('wicked-age', 'brawl.json');
  brawl.characters = brawl.characters.filter((c) => c.name === 'Ysolde' || c.name === 'The Khan');
  const start = [['gm', { type: 'start_conflict', participants: ['Ysolde', 'The Khan'], action: 'The ferry' }]];
  const r = await played('wicked-age', 'Review: Ysolde and the Khan', brawl, ['p1', 'gm'], start, (v) => !v.conflict && !!v.last_conflict);
  await reviewBoth(r, 'wicked-age', { luck: true });
});

test('a Triforce game is reviewed: the strong bot\'s search judges every action', async () => {
  const setup = { players: 3, names: { p1: 'Ada', p2: 'Bo', p3: 'Cy' }, turn_limit: 3 };
  const r = await played('triforce', 'Review: three players', setup, ['p1', 'p2', 'p3'], [], () => false);
  await reviewBoth(r, 'triforce', {});
});

test('an N-Dimensional Tourists round is reviewed: the luck of every draw', async () => {
  const setup = preset('nd-tourists', 'four-sides.json');
  const r = await played('nd-tourists', 'Review: Tokyo', setup, ['p1', 'p2', 'p3', 'gm'], [['gm', { type: 'start' }]],
    (v) => v.phase === 'aftermath');
  // Levinulon's Reserve cards, drawn at the start, were hidden from the others: revealed later.
  await reviewBoth(r, 'nd-tourists', { later: 1, luck: true });
});
