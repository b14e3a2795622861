// One Iron Triangle conflict turn: the GM and two players, each in their own browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, shot, logLines, PHONE } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Send a command from the page's JSON box and wait until the page has the resulting events. */
async function sendJson(page, command) {
  const before = Number(await page.evaluate(() => document.body.dataset.events || 0));
  if (!(await page.isVisible('#json-command'))) await page.click('#json-box summary');
  await page.fill('#json-command', JSON.stringify(command));
  await page.click('#json-send');
  await page.waitForFunction((n) => Number(document.body.dataset.events || 0) > n
    || document.getElementById('json-error').textContent !== '', before);
  assert.equal(await page.textContent('#json-error'), '', JSON.stringify(command));
}

async function waitForLog(page, pattern) {
  await page.waitForFunction((src) => [...document.querySelectorAll('#log li')].some((li) => new RegExp(src).test(li.textContent)), pattern.source);
}

test('GM and two players play a conflict turn: secret stances and moves, reveal, losses on every screen', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Two players (Ada, Bo)', 'Iron Triangle e2e');
  const p1Link = await invite(gm, 'p1');
  const p2Link = await invite(gm, 'p2');
  const p1 = await person(browser);
  const p2 = await person(browser, PHONE);
  await join(p1, p1Link);
  await join(p2, p2Link);

  await sendJson(gm, { type: 'start_conflict', stakes: 'The ledger', npcs: ['Brute'] });
  await sendJson(p1, { type: 'join_conflict', character: 'Ada' });
  await sendJson(p2, { type: 'join_conflict', character: 'Bo' });
  await sendJson(p1, { type: 'pick_active', character: 'Ada' });
  await sendJson(p1, { type: 'pick_opponent', opponent: 'Brute' });

  // Secret stances: nobody else learns Ada's stance until both are in (IT-2).
  await sendJson(p1, { type: 'take_stance', character: 'Ada', amount: 1, action: 'attack' });
  for (const other of [gm, p2]) {
    await other.waitForFunction(() => document.querySelectorAll('#log li').length >= 6);
    const seen = (await logLines(other)).join('\n') + (await other.textContent('#view-json'));
    assert.doesNotMatch(seen, /Attack 1|"amount":\s*1,\s*"action":\s*"attack"/i, 'Ada\'s stance is secret before the reveal');
  }
  await shot(gm, 'it-gm-stance-hidden');
  await sendJson(gm, { type: 'take_stance', character: 'Brute', amount: 1, action: 'defend' });

  // Secret moves, then the reveal.
  await sendJson(p1, { type: 'play_move', character: 'Ada', move: 'A-H' });
  const hidden = (await logLines(p2)).join('\n');
  assert.doesNotMatch(hidden, /A-H/, 'Ada\'s move is secret before the reveal');
  await sendJson(gm, { type: 'play_move', character: 'Brute', move: 'A-L' });

  // Low beats High: Ada loses; her player splits the free part of the loss (IT-51).
  await sendJson(p1, { type: 'split_loss', character: 'Ada', split: { defend: 1, grapple: 0, attack: 2 } });
  for (const page of [gm, p1, p2]) {
    await waitForLog(page, /A-H/);
    await waitForLog(page, /A-L/);
    const log = (await logLines(page)).join('\n');
    assert.match(log, /Ada/);
    assert.match(log, /4/, 'the loss of 4 is told');
  }
  for (const [name, page] of [['gm', gm], ['p1', p1], ['p2', p2]]) await shot(page, 'it-' + name + '-after-turn');
  // Every screen shows the same energies for Ada afterwards: Defend 2, Grapple 2, Attack 2.
  const renders = await Promise.all([gm, p1, p2].map((p) => p.textContent('#render')));
  for (const r of renders) assert.match(r, /Ada \[p1\] level 1 — D2 G2 A2/, 'Ada lost 1 Defend (split) and 1 + 2 Attack');
  for (const page of [gm, p1, p2]) assert.match((await logLines(page)).join('\n'), /Ada loses 4/);
});
