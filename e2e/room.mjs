// Helpers for the table page's frame (issue 15): the turn banner, who is here, the log and the
// table talk, confirmations, the GM's tools, screenshots at both sizes, and the check that no
// raw token (a seat id, an index, Rust debug text) reaches a page.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { DESKTOP, PHONE, checkPage, assertFocusKept } from './lib.mjs';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** Text a person must never read: seat ids, party indices, index lists, Rust debug output. */
export const RAW = /Some\(|\bNone\b|\bparty \d|\[\d+(, \d+)*\]|\((Npc|Players|LastPartyStanding)\)|\btype:|\bp\d\b|\bw\d\b|\bnull\b|\bundefined\b|\[object/;

/** Fail when the visible text of the page (folded sections excluded) holds a raw token. */
export async function assertNoRawTokens(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = text.match(RAW);
  if (bad) {
    const at = text.slice(Math.max(0, bad.index - 100), bad.index + 100);
    assert.fail((where || page.url()) + ' shows ' + JSON.stringify(bad[0]) + ' in: …' + at + '…');
  }
}

/** Every log line (folded or not) is free of raw tokens. */
export async function assertLogReadable(page) {
  const lines = await page.$$eval('#log li', (lis) => lis.map((li) => li.textContent));
  for (const line of lines) assert.doesNotMatch(line, RAW, 'log line: ' + line);
  return lines;
}

/** Screenshots of the whole page at desktop and at phone size, then back to the page's size. */
export async function shotsBoth(page, name) {
  const size = page.viewportSize();
  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await checkPage(page, { where: name + ' (' + label + ')' });
    await page.screenshot({ path: path.join(ARTIFACTS, name + '-' + label + '.png'), fullPage: true });
    // What a person sees first, without scrolling.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, name + '-' + label + '-screen.png') });
  }
  await page.setViewportSize(size);
}

/** The turn banner's text. */
export function banner(page) {
  return page.textContent('#turn-text');
}

export async function waitForBanner(page, pattern) {
  await page.waitForFunction((src) => new RegExp(src).test(document.getElementById('turn-text').textContent), pattern.source);
}

/** Open the log fold if it is folded (on a phone). */
export async function openLog(page) {
  if (!(await page.$eval('#log-card', (d) => d.open))) await page.click('#log-card > summary');
}

export async function waitForLine(page, pattern) {
  await page.waitForFunction((src) => [...document.querySelectorAll('#log li')].some((li) => new RegExp(src).test(li.textContent)), pattern.source);
}

export async function lines(page) {
  return page.$$eval('#log li', (lis) => lis.map((li) => li.textContent));
}

/** Say something in the table talk (or whisper it to the GM). */
export async function say(page, text, whisper) {
  await openLog(page);
  if (whisper) await page.check('#whisper');
  else if (await page.isVisible('#whisper')) await page.uncheck('#whisper');
  // From the keyboard: type and press Enter.
  await page.fill('#chat-text', text);
  await page.press('#chat-text', 'Enter');
  await waitForLine(page, text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  await checkPage(page);
}

/** The people chips: name → { here, waiting }. */
export function people(page) {
  return page.$$eval('#people li.person:not(.watchers)', (lis) => Object.fromEntries(lis.map((li) => [
    li.firstChild.nextSibling.textContent.trim(), { here: li.classList.contains('here'), waiting: li.classList.contains('waiting') }])));
}

/** Click a control that sends a command and wait for the table to move on (or fail with the
 *  refusal shown beside it). A confirmation, if one appears, is answered yes. */
export async function act(page, locator, { confirm } = {}) {
  const before = Number(await page.evaluate(() => document.body.dataset.events || 0));
  await locator.click();
  if (confirm) {
    await page.waitForSelector('dialog#confirm[open]');
    const question = await page.textContent('#confirm-text');
    await confirm(question);
    await page.click('#confirm-yes');
  }
  await page.waitForFunction((n) => Number(document.body.dataset.events || 0) > n
    || [...document.querySelectorAll('#panel .error, #legal-error')].some((e) => e.textContent !== ''), before);
  const errors = await page.$$eval('#panel .error, #legal-error', (es) => es.map((e) => e.textContent).filter(Boolean));
  if (errors.length) throw new Error('refused: ' + errors.join(' | '));
  await assertFocusKept(page, 'after ' + locator);
  await checkPage(page);
}

/** A free loopback port. */
function freePort() {
  return new Promise((ok) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
}

/** A server of our own (for restarts), on its own port and database. */
export async function ownServer() {
  const bin = process.env.CLASH_BIN;
  if (!bin) throw new Error('CLASH_BIN is not set: run the tests with e2e/run.sh');
  const dir = mkdtempSync(path.join(tmpdir(), 'clash-e2e-'));
  const port = await freePort();
  const url = 'http://127.0.0.1:' + port;
  let child = null;
  async function start() {
    child = spawn(bin, ['serve', '--addr', '127.0.0.1:' + port, '--db', path.join(dir, 'own.db')], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await fetch(url + '/healthz').then((r) => r.ok, () => false);
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the server did not start');
  }
  async function stop() {
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    child = null;
  }
  await start();
  return { url, start, stop, async dispose() { await stop(); rmSync(dir, { recursive: true, force: true }); } };
}

/** Create a table from the lobby at `base` with the preset whose label contains `presetText`. */
export async function createAt(page, base, presetText, title) {
  await page.goto(base + '/');
  // Ready-made setups sit below the lobby's form, folded.
  if (!(await page.isVisible('#preset'))) await page.click('#ready-made > summary');
  const value = await page.$$eval('#preset option', (opts, text) => {
    const o = opts.find((x) => x.textContent.includes(text));
    return o ? o.value : null;
  }, presetText);
  if (!value) throw new Error('no preset matching ' + presetText);
  await page.selectOption('#preset', value);
  if (title) await page.fill('#title', title);
  await Promise.all([page.waitForURL(/\/t\//), page.click('#create-form button[type=submit]')]);
  await page.waitForSelector('#status.live');
  await checkPage(page);
}

/** The spectators' link from the GM's seat list. */
export function spectatorLink(gm) {
  return gm.inputValue('.seat-row[data-seat="watch"] input');
}

/** The page's accessibility tree as Chromium builds it (what a screen reader is given): each
 *  node's role and name. */
export async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Accessibility.enable');
    // The tree is built as it is asked for: ask until it holds the whole page.
    let nodes = [];
    for (let i = 0; i < 5; i++) {
      nodes = (await cdp.send('Accessibility.getFullAXTree')).nodes;
      if (nodes.some((n) => n.role && n.role.value === 'main')) break;
      await page.waitForTimeout(100);
    }
    return nodes.filter((n) => !n.ignored).map((n) => ({ role: n.role && n.role.value, name: (n.name && n.name.value) || '' }));
  } finally {
    await cdp.detach();
  }
}

/** The accessibility tree once `ready(nodes)` holds (it follows the page's changes a moment
 *  later), or as it is after `ms`. */
export async function axNodesWhen(page, ready, ms = 3000) {
  const until = Date.now() + ms;
  for (;;) {
    const nodes = await axNodes(page);
    if (ready(nodes) || Date.now() > until) return nodes;
    await page.waitForTimeout(150);
  }
}

/** The live region says what the banner says (after any news of the same update). */
export async function assertAnnouncerSaysBanner(page, where) {
  const said = () => page.evaluate(() => [document.getElementById('announcer').textContent, document.getElementById('turn-text').textContent.trim()]);
  const ok = await page.waitForFunction(() => document.getElementById('announcer').textContent.endsWith(document.getElementById('turn-text').textContent.trim()),
    null, { timeout: 3000 }).then(() => true, () => false);
  const [announcer, text] = await said();
  assert.ok(ok, where + ': the announcer says “' + announcer + '” while the banner says “' + text + '”');
}

/** The sticky banner's height, in pixels. */
export function bannerHeight(page) {
  return page.evaluate(() => document.getElementById('turn').getBoundingClientRect().height);
}

/** The element `selector` is not under the sticky banner. */
export async function assertNotCovered(page, selector, where) {
  const [bar, box] = await page.evaluate((sel) => [document.getElementById('turn').getBoundingClientRect().bottom,
    document.querySelector(sel).getBoundingClientRect().top], selector);
  assert.ok(box >= bar - 0.5, where + ': the banner (down to ' + Math.round(bar) + ' px) covers ' + selector + ' (from ' + Math.round(box) + ' px)');
}
