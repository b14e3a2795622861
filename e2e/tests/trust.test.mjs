// Seat changes in every log, fair dice on every page, and a finished table's record, downloaded
// from the page, checked with `clash verify` (and a hand-edited copy refused).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, person, createTable, invite, join, shot, logLines } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function verify(file) {
  try {
    return { ok: true, out: execFileSync(process.env.CLASH_BIN, ['verify', file], { encoding: 'utf8' }) };
  } catch (e) {
    return { ok: false, out: String(e.stdout) };
  }
}

test('a takeover shows in every log, and the record of a finished table verifies', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Triforce — Three players', 'Fair dice e2e');
  const links = {};
  for (const seat of ['p1', 'p2']) links[seat] = await invite(gm, seat);
  const p1 = await person(browser);
  await join(p1, links.p1);
  // The invite became p1's own link: the address changed, and the GM's copy no longer works.
  assert.notEqual(p1.url(), links.p1);
  const p2 = await person(browser);
  await join(p2, links.p2);
  // Each page adds its seed; everyone sees the sealed secret.
  await p1.waitForFunction(() => /Red: /.test(document.getElementById('seeds').textContent));
  assert.match(await p1.textContent('#commitment'), /^[0-9a-f]{64}$/);

  // p1 plays; then the GM takes over p3's empty seat and everyone's log says so.
  await p1.waitForSelector('#panel button.tf-place');
  await p1.locator('#panel button.tf-place', { hasText: /small/i }).click();
  await p1.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /places/.test(li.textContent)));
  await gm.click('.seat-row[data-seat="p3"] button:has-text("Play as NPC")');
  for (const page of [gm, p1, p2]) {
    // Triforce has no GM: the organiser who takes the seat over is the host (issue 38).
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /The host takes over Blue's seat/.test(li.textContent)));
  }
  await shot(p2, 'trust-p2-sees-takeover');

  // The GM ends the table; the secret appears on every page.
  await gm.click('#manage-card > summary');
  await gm.click('#close-table');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  for (const page of [gm, p1, p2]) await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.getElementById('secret').textContent));
  assert.match((await logLines(p2)).join('\n'), /secret is revealed/);

  // p2 downloads the record from the page and checks it.
  await p2.click('#fair-card > summary');
  const [download] = await Promise.all([p2.waitForEvent('download'), p2.click('#export')]);
  const dir = mkdtempSync(path.join(tmpdir(), 'clash-e2e-'));
  const file = path.join(dir, 'table.json');
  await download.saveAs(file);
  const honest = verify(file);
  assert.ok(honest.ok, honest.out);
  assert.match(honest.out, /matches the commitment/);
  // A hand-edited copy: one command changed.
  const record = JSON.parse(readFileSync(file, 'utf8'));
  const at = record.entries.findIndex((e) => e.entry.kind === 'command');
  record.entries[at].entry.command.size = 'L';
  const forged = path.join(dir, 'forged.json');
  writeFileSync(forged, JSON.stringify(record));
  const refused = verify(forged);
  assert.ok(!refused.ok, refused.out);
  assert.match(refused.out, new RegExp('FAILED: entry ' + at + ' \\(command 0'));
  await shot(p2, 'trust-p2-after-the-end');
});
