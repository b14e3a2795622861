// An evening of In A Wicked Age as a group meets it: the GM and two players in their own
// browsers (one on a phone) and a spectator. They talk at the table, whisper to the GM, see who
// is here and whose move it is, the GM takes back a slip, a player concedes after a
// confirmation, and the conflict ends with its consequence chosen: all from visible controls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, PHONE, BASE } from '../lib.mjs';
import {
  assertNoRawTokens, assertLogReadable, shotsBoth, banner, waitForBanner, openLog, waitForLine, lines, say, people, act, spectatorLink,
} from '../room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('Wicked Age: talk, presence, turn, undo, a confirmed concession and the conflict to its consequence', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Three-way brawl', 'Wicked evening');
  const p1Link = await invite(gm, 'p1');
  const p2Link = await invite(gm, 'p2');
  const watchLink = await spectatorLink(gm);
  const ysolde = await person(browser);
  const oren = await person(browser, PHONE);
  const watcher = await person(browser);
  await join(ysolde, p1Link);
  await join(oren, p2Link);
  await join(watcher, watchLink);

  // Who is here and whose move it is, by name, on every page.
  await gm.waitForFunction(() => document.querySelectorAll('#people li.here').length >= 3);
  const here = await people(gm);
  assert.equal(here.Ysolde.here, true);
  assert.equal(here.Oren.here, true);
  assert.match(await gm.textContent('#people'), /1 watching/);
  assert.equal(await banner(gm), 'Your move');
  assert.match(await gm.title(), /^● Your move — Wicked evening/);
  for (const page of [ysolde, oren, watcher]) assert.equal(await banner(page), 'Waiting for the GM');
  assert.match(await ysolde.textContent('#who'), /Ysolde/);

  // Table talk: said to everyone, whispered to the GM alone; spectators read but do not speak.
  await say(ysolde, 'Evening, all!');
  await say(oren, 'I have a plan for Ysolde', true);
  for (const page of [gm, oren, watcher]) await openLog(page);
  await waitForLine(gm, /Ysolde: Evening, all!/);
  await waitForLine(gm, /Oren \(to the GM only\): I have a plan/);
  await waitForLine(watcher, /Ysolde: Evening, all!/);
  await waitForLine(oren, /Ysolde: Evening, all!/);
  await ysolde.waitForTimeout(300);
  for (const page of [ysolde, watcher]) assert.doesNotMatch((await lines(page)).join('\n'), /I have a plan/);
  assert.equal(await watcher.isVisible('#chat-text'), false);
  assert.match(await watcher.textContent('#chat-readonly'), /Spectators read/);
  // The log filter: talk only.
  await gm.click('button[data-filter="talk"]');
  const shown = await gm.$$eval('#log li', (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.textContent));
  assert.ok(shown.length === 2 && shown.every((l) => /Ysolde: |Oren \(to the GM only\)/.test(l)), shown.join(' | '));
  await gm.click('button[data-filter="all"]');

  // The GM starts a conflict, notices a slip, and takes it back: recorded, not erased.
  await gm.check('#panel input[data-key="start:Ysolde"]');
  await gm.check('#panel input[data-key="start:The Khan"]');
  await gm.fill('#panel input[data-key="start:action"]', 'Ysolde takes the ring');
  await act(gm, gm.getByRole('button', { name: 'Start conflict' }));
  await waitForLine(ysolde, /Conflict: Ysolde vs The Khan/);
  await gm.waitForFunction(() => !document.getElementById('undo').disabled);
  assert.equal(await gm.textContent('#undo'), 'Take back your last command');
  await gm.click('#undo');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  for (const page of [gm, ysolde, oren, watcher]) {
    await waitForLine(page, /The GM takes back their own last command/);
    await page.waitForSelector('#log li.undone');
  }
  await shotsBoth(ysolde, 'wa-ysolde-after-undo');

  // The right conflict this time.
  await gm.check('#panel input[data-key="start:Ysolde"]');
  await gm.check('#panel input[data-key="start:Oren"]');
  await gm.uncheck('#panel input[data-key="start:The Khan"]');
  await gm.fill('#panel input[data-key="start:action"]', 'Oren steals the ring');
  await act(gm, gm.getByRole('button', { name: 'Start conflict' }));
  await waitForBanner(ysolde, /^Your move/);
  await waitForBanner(oren, /^Your move/);
  assert.match(await ysolde.title(), /^● Your move/);
  await shotsBoth(oren, 'wa-oren-your-move');

  // Initiative, a challenge and an answer: the dice are rolls, shown under "Rolls and reveals".
  await act(ysolde, ysolde.getByRole('button', { name: 'Roll initiative' }));
  await act(oren, oren.getByRole('button', { name: 'Roll initiative' }));
  // Whoever won initiative challenges; the other answers.
  await waitForLine(gm, /Initiative order/);
  const first = /Initiative order: Ysolde/.test((await lines(gm)).join('\n')) ? [ysolde, oren] : [oren, ysolde];
  await waitForBanner(first[0], /^Your move/);
  assert.match(await banner(first[1]), /^Waiting for (Ysolde|Oren)$/);
  await act(first[0], first[0].getByRole('button', { name: 'Challenge' }));
  await waitForBanner(first[1], /^Your move/);
  await act(first[1], first[1].getByRole('button', { name: 'Answer' }));
  await watcher.click('button[data-filter="reveals"]');
  const rolls = await watcher.$$eval('#log li', (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.textContent));
  assert.ok(rolls.some((l) => /rolls initiative/.test(l)) && rolls.every((l) => /roll|Initiative|challenges|answers|→/.test(l)), rolls.join(' | '));
  await watcher.click('button[data-filter="all"]');

  // Round 2: Ysolde concedes, and is asked first.
  await waitForLine(ysolde, /Round 2 begins/);
  let asked = '';
  await act(ysolde, ysolde.getByRole('button', { name: 'Concede' }), { confirm: async (q) => { asked = q; } });
  assert.match(asked, /^Concede the conflict\? Ysolde gives in to Oren/);
  for (const page of [gm, ysolde, oren, watcher]) await waitForLine(page, /The conflict ends/);

  // Oren chooses the consequence; the conflict is closed on every screen.
  await waitForBanner(oren, /^Your move/);
  await act(oren, oren.locator('#panel button', { hasText: /^Exhausted/ }).first());
  for (const page of [gm, ysolde, oren, watcher]) await waitForLine(page, /The conflict is closed/);
  await waitForBanner(gm, /^Your move/);

  // Nothing a person reads shows a raw token.
  for (const [name, page] of [['gm', gm], ['ysolde', ysolde], ['oren', oren], ['watcher', watcher]]) {
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertLogReadable(page);
    await shotsBoth(page, 'wa-' + name + '-result');
  }

  // Oren closes the page: everyone sees him go.
  await oren.context().close();
  await gm.waitForFunction(() => [...document.querySelectorAll('#people li')].some((li) => /Oren/.test(li.textContent) && li.classList.contains('away')), null, { timeout: 20000 });
  await ysolde.waitForFunction(() => [...document.querySelectorAll('#people li')].some((li) => /Oren/.test(li.textContent) && li.classList.contains('away')), null, { timeout: 20000 });
});
