// Shared helpers for the browser tests: launching Chromium, creating tables through the lobby,
// handing out seat links from the GM page, and screenshots.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const BASE = process.env.CLASH_URL || 'http://127.0.0.1:8080';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export const DESKTOP = { width: 1280, height: 900 };
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

/** Create a table from the lobby with the preset whose label contains `presetText`. */
export async function createTable(page, presetText, title) {
  await page.goto(BASE + '/');
  const value = await page.$$eval('#preset option', (opts, text) => {
    const o = opts.find((x) => x.textContent.includes(text));
    return o ? o.value : null;
  }, presetText);
  if (!value) throw new Error('no preset matching ' + presetText);
  await page.selectOption('#preset', value);
  if (title) await page.fill('#title', title);
  await Promise.all([page.waitForURL(/\/t\//), page.click('button[type=submit]')]);
  await page.waitForSelector('#status.live');
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
