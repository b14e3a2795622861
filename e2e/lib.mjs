// Shared helpers for the browser tests: launching Chromium, creating tables through the lobby,
// handing out seat links from the GM page, screenshots, and the check every test makes of every
// page state it reaches (`checkPage`: no words a player would not understand, and axe-core finds
// nothing to fix).
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

export const BASE = process.env.CLASH_URL || 'http://127.0.0.1:8080';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export const DESKTOP = { width: 1280, height: 900 };
export const LAPTOP = { width: 1024, height: 640 };
export const PHONE = { width: 390, height: 844 };

export function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page in its own browser context (its own cookies and storage: a separate person). */
export async function person(browser, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error('page error: ' + e.message); });
  return page;
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, name + '.png'), fullPage: true });
}

/** Create a table from the lobby with the preset whose label contains `presetText`, optionally
 * starting from another setup written in the lobby's Setup box. */
export async function createTable(page, presetText, title, setup, opts) {
  await page.goto(BASE + '/');
  // Ready-made setups sit below the lobby's form, folded.
  if (!(await page.isVisible('#preset'))) await page.click('#ready-made > summary');
  const value = await page.$$eval('#preset option', (opts, text) => {
    const o = opts.find((x) => x.textContent.includes(text));
    return o ? o.value : null;
  }, presetText);
  if (!value) throw new Error('no preset matching ' + presetText);
  // One way to start a table at a time: with a ready-made setup open, the lobby shows one
  // "Table name" field and one button that creates a table.
  const shown = () => page.evaluate(() => ['main input[placeholder="Friday night duel"]', '#create-by-form, #create-form button[type=submit]']
    .map((sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility()).length));
  await page.waitForFunction(() => !document.getElementById('by-form') || document.getElementById('by-form').hidden, null, { timeout: 2000 }).catch(() => {});
  assert.deepEqual(await shown(), [1, 1], 'one Table name field and one create button');
  await page.selectOption('#preset', value);
  if (title) await page.fill('#title', title);
  if (setup) {
    if (!(await page.isVisible('#setup'))) await page.click('#create-form details summary');
    await page.fill('#setup', JSON.stringify(setup));
  }
  await Promise.all([page.waitForURL(/\/t\//), page.click('#create-form button[type=submit]')]);
  await page.waitForSelector('#status.live');
  await checkPage(page);
  if (!(opts && opts.sessionZero)) await startReadyMade(page);
}

/**
 * A ready-made table of a game whose players make characters opens in session zero with the
 * setup's sheets in (issue 38): start play as it is, so the table is the one the setup makes.
 * Nothing to do for other games, or while a seat still owes its sheet.
 */
export async function startReadyMade(page) {
  await page.waitForFunction(() => document.querySelector('#panel') && document.querySelector('#panel').childElementCount > 0);
  const start = '#panel .s0-gm button[data-action="start-play"]';
  if (!(await page.$(start)) || (await page.isDisabled(start)) || /without/.test(await page.textContent(start))) return;
  await page.click(start);
  await page.waitForSelector('dialog#confirm[open]');
  await page.click('#confirm-yes');
  await page.waitForFunction(() => !document.querySelector('#panel .s0'));
}

/** On the GM page: make an invite link for `seat` and return it. */
export async function invite(gmPage, seat) {
  const row = gmPage.locator(`.seat-row[data-seat="${seat}"]`);
  await row.getByRole('button', { name: 'Create invite link' }).click();
  const input = gmPage.locator(`.seat-row[data-seat="${seat}"] input`);
  await input.waitFor();
  return input.inputValue();
}

/** Open a link in a page and wait until its live stream is connected. */
export async function join(page, link) {
  await page.goto(link);
  await page.waitForSelector('#status.live');
  await checkPage(page);
}

// ---- What no page may show, and accessibility ----------------------------------------------

/** Words no page may show anywhere a person reads (each test file may add its own with `ban`). */
export const BANNED = [
  'p1 has a secret choice', 'has acted since revision', 'you are the GM (GM)',
  "Your move: your bot plays the NPCs' part", 'action(s)', 'fight(s)', "'s's", 'p1 has', 'room 1',
];
/** Patterns no page may show: a seat id as a word, the log's revision numbers. */
export const BANNED_PATTERNS = [/\bp[0-9]\b/, /\brevision\b/i];
/** A rule ID in brackets, where it should be a small link instead (labels, prompts, lines). */
const BRACKETED_RULE = /\((?:TF|D|IT|WA|ND)-\d/;
/** A hex string of 16 digits or more: a seed, a key or a commitment in the log. */
const HEX = /\b[0-9a-f]{16,}\b/i;

/** Add words (or patterns) no page may show, for the rest of this test run. */
export function ban(...more) {
  for (const m of more) (m instanceof RegExp ? BANNED_PATTERNS : BANNED).push(m);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Check the page as it stands: none of `banned` (strings or patterns) in the text a person sees
 * (the rules sheet aside, which quotes rule IDs as the rules write them), no rule ID in brackets
 * outside it, no long hex string in the log, and no accessibility violation axe-core finds.
 */
export async function checkPage(page, { banned = [...BANNED, ...BANNED_PATTERNS], where, axe = true } = {}) {
  where = where || page.url().replace(/\/t\/\w+\/\w+/, '/t/…');
  const { text, log } = await page.evaluate(() => {
    const seen = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const p = t.parentElement;
      if (!p || p.closest('dialog, pre, textarea, script, style, [hidden]') || !p.checkVisibility()) continue;
      seen.push(t.data);
    }
    return { text: seen.join(' '), log: [...document.querySelectorAll('#log li')].map((li) => li.textContent) };
  });
  for (const b of banned) {
    const found = typeof b === 'string' ? text.indexOf(b) : text.search(b);
    if (found >= 0) assert.fail(where + ' shows ' + JSON.stringify(String(b)) + ' in: …' + text.slice(Math.max(0, found - 80), found + 80) + '…');
  }
  const bracket = text.search(BRACKETED_RULE);
  if (bracket >= 0) assert.fail(where + ' shows a rule ID in brackets: …' + text.slice(Math.max(0, bracket - 80), bracket + 40) + '…');
  for (const line of log) assert.doesNotMatch(line, HEX, where + ': a log line holds a hex string: ' + line);
  if (axe) await checkAxe(page, where);
}

/** axe-core, injected into the page (evaluated, so the page's CSP does not stop it). */
export async function checkAxe(page, where) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.help + '\n' + v.nodes.slice(0, 4)
      .map((n) => '    ' + n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 240)).join('\n'));
  });
  if (violations.length) assert.fail((where || page.url()) + ': axe-core finds ' + violations.length + ' violation(s):\n' + violations.join('\n'));
}

/** Wait until the page has received at least `n` game events (table events such as seats
 *  changing hands and seeds are not counted). */
export async function waitForEvents(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.gameEvents || 0) >= k, n);
}

/** The log's lines as text. */
export function logLines(page) {
  return page.$$eval('#log li', (lis) => lis.map((li) => li.textContent));
}

/** Click the legal-move button whose label is exactly `label`. */
export async function clickMove(page, label) {
  await page.locator('#legal button', { hasText: label }).first().click();
}

/** The number of log events the page holds. */
export function events(page) {
  return page.evaluate(() => Number(document.body.dataset.events || 0));
}

/** Click `selector` (a panel control that sends a command) and wait for the table to move on;
 *  the keyboard's focus stays on a control (never the page's body). */
export async function act(page, selector) {
  const before = await events(page);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.events || 0) > n
    || [...document.querySelectorAll('#panel .error')].some((e) => e.textContent !== ''), before);
  const errors = await page.$$eval('#panel .error', (es) => es.map((e) => e.textContent).filter(Boolean));
  if (errors.length) throw new Error(selector + ' was refused: ' + errors.join(' | '));
  await assertFocusKept(page, 'after ' + selector);
  await checkPage(page);
}

/** What holds the keyboard's focus: `body`, or the element's tag, data names and text. */
export function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    const data = Object.entries(a.dataset || {}).map(([k, v]) => k + '=' + v).join(' ');
    return a.localName + (a.id ? '#' + a.id : '') + (data ? ' [' + data + ']' : '') + ' ' + (a.textContent || '').trim().slice(0, 40);
  });
}

/** After an action the focus is on a control of the page (or what the action brought), never
 *  the page's body, unless the table has closed (its controls lock). */
export async function assertFocusKept(page, where) {
  // The page settled: two frames after the command's answer.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const closed = await page.evaluate(() => document.body.classList.contains('table-closed') || !!document.querySelector('dialog[open]'));
  if (closed) return;
  assert.notEqual(await focused(page), 'body', 'the focus fell to the page body ' + where);
}

/** What the game's panel says, as text. */
export function panelText(page) {
  return page.textContent('#panel');
}

/** The panel shows no seat id, index or Rust debug text. */
export async function assertReadable(page) {
  const text = await panelText(page);
  const bad = text.match(/\bp\d\b|\bparty \d|\[\d+\]|Some\(|\bNone\b|\bnull\b|\bundefined\b|\[object/);
  if (bad) throw new Error('the panel shows ' + JSON.stringify(bad[0]) + ' in: ' + text.slice(Math.max(0, bad.index - 80), bad.index + 80));
}

/** Screenshots of the whole page, of the game's panel alone, and of the first screen a person
 * sees when the page scrolls to the board (what a phone shows without scrolling further). */
export async function shots(page, name) {
  await checkPage(page);
  await shot(page, name);
  await page.locator('#panel').screenshot({ path: path.join(ARTIFACTS, name + '-panel.png') });
  await page.evaluate(() => document.getElementById('board-card').scrollIntoView());
  await page.screenshot({ path: path.join(ARTIFACTS, name + '-screen.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
}
