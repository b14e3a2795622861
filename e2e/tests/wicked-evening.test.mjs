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
import { assertNoBannedWords } from '../words.mjs';

/** The GM (or anyone who may) starts a conflict between `who` over `action`. */
async function startConflict(page, who, action, { double } = {}) {
  const form = '#panel [data-control="start"]';
  await page.waitForSelector(form);
  for (const name of who) await page.click(`${form} button[data-participant="${name}"]`);
  await page.fill(`${form} input`, action);
  const go = page.locator(`${form} button.kit-go`);
  if (double) await go.dblclick();
  else await act(page, go);
}

async function hasControl(page, suffix) {
  return (await page.$$eval('#panel [data-control]', (gs, s) => gs.some((g) => g.dataset.control.endsWith(s)), suffix));
}

/** Tap the `n` unpressed, usable form tiles in `group` with the largest dice. Big dice against
 *  big dice rarely double each other, so first-round knockouts (which end a conflict before the
 *  round-2 concession this test needs) stay rare, and a loser's consequential step-downs land on
 *  large forms, far from taking a character out of the chapter. */
async function tapForms(page, group, n) {
  const tiles = `${group} button.wa-pick[data-form][aria-pressed="false"]:not([disabled])`;
  const ranked = await page.$$eval(tiles, (ts) => ts
    .map((t) => ({ form: t.dataset.form, size: Math.max(0, ...((t.dataset.dice || '').match(/\d+/g) || []).map(Number)) }))
    .sort((a, b) => b.size - a.size)
    .map((t) => t.form));
  for (const form of ranked.slice(0, Math.max(0, n))) {
    await page.click(`${group} button.wa-pick[data-form="${form}"]`);
  }
}

/** Do the step of the conflict this page is asked for (initiative, challenge, answer or a
 *  consequence) with the sheet's tiles; false when it has none. */
async function playStep(page) {
  const groups = await page.$$eval('#panel [data-control]', (gs) => gs.map((g) => g.dataset.control));
  const roll = groups.find((k) => k.endsWith(':init') || k.endsWith(':answer'));
  const challenge = groups.find((k) => k.endsWith(':challenge'));
  const consequence = groups.find((k) => k.startsWith('k:'));
  if (roll || challenge) {
    const g = `#panel [data-control="${roll || challenge}"]`;
    // Nothing stray in the step: no "null" where the odds would be while odds are off.
    assert.doesNotMatch(await page.textContent(g), /null|undefined/, g);
    if (challenge && !roll && !(await page.$(`${g} button[data-target][aria-pressed="true"]`))) {
      await page.locator(`${g} button[data-target]`).first().click();
    }
    const forms = (await page.$$(`${g} button.wa-pick[data-form]`)).length;
    if (forms) {
      const pressed = (await page.$$(`${g} button.wa-pick[data-form][aria-pressed="true"]`)).length;
      await tapForms(page, g, (forms === 3 ? 1 : 2) - pressed);
    }
    await act(page, page.locator(`${g} button.kit-go`));
    return true;
  }
  if (consequence && (await page.$(`#panel [data-control="${consequence}"] button:has-text("Exhausted")`))) {
    await act(page, page.locator(`#panel [data-control="${consequence}"] button:has-text("Exhausted")`));
    return true;
  }
  return false;
}

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

  // The GM starts a conflict, notices a slip (the Khan is not in this one), and takes it back:
  // recorded, not erased.
  await startConflict(gm, ['Ysolde', 'The Khan'], 'Ysolde takes the ring');
  await waitForLine(ysolde, /Conflict: Ysolde vs The Khan/);
  // An NPC rolls one form: a tap chooses it, and a second tap on it keeps it chosen.
  const khan = '#panel [data-control="c:The Khan:init"]';
  await gm.click(`${khan} button[data-form="action"]`);
  await gm.click(`${khan} button[data-form="action"]`);
  assert.equal(await gm.getAttribute(`${khan} button[data-form="action"]`, 'aria-pressed'), 'true', 'the chosen form stays chosen');
  assert.equal(await gm.isDisabled(`${khan} button.kit-go`), false, 'ready to roll');
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

  // The right conflict this time, started with an impatient double tap: it starts once.
  await startConflict(gm, ['Ysolde', 'Oren'], 'Oren steals the ring', { double: true });
  await waitForLine(watcher, /Conflict: Ysolde vs Oren/);
  await gm.waitForTimeout(500);
  assert.equal((await lines(watcher)).filter((l) => /^Conflict: Ysolde vs Oren/.test(l)).length, 1, 'one conflict for two taps');
  // Both players are told it is their move.
  await waitForBanner(ysolde, /^Your move/);
  await waitForBanner(oren, /^Your move/);
  assert.match(await ysolde.title(), /^● Your move/);
  await shotsBoth(oren, 'wa-oren-your-move');

  // Initiative, a challenge and an answer, each on the sheet, until the conflict reaches its
  // second round (a knockout in the first ends it early: then the next conflict is fought).
  for (let i = 0, fights = 1; !(await hasControl(ysolde, 'Ysolde:negotiate')); i++) {
    assert.ok(i < 200 && fights <= 5, 'a conflict reaches round 2');
    if (/No conflict right now/.test(await ysolde.textContent('#panel'))) {
      if (!(await playStep(oren)) && !(await playStep(ysolde))) {
        await startConflict(gm, ['Ysolde', 'Oren'], 'Oren steals the ring again');
        fights++;
      }
      continue;
    }
    let acted = false;
    for (const page of [ysolde, oren]) if (await playStep(page)) { acted = true; break; }
    if (!acted) await ysolde.waitForTimeout(200);
  }
  await watcher.click('button[data-filter="reveals"]');
  const rolls = await watcher.$$eval('#log li', (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.textContent));
  assert.ok(rolls.some((l) => /rolls initiative/.test(l)), rolls.join(' | '));
  assert.ok(rolls.every((l) => /initiative|Initiative|challenges|answers|→/.test(l)), rolls.join(' | '));
  await watcher.click('button[data-filter="all"]');

  // Round 2: Ysolde concedes, and is asked first (once).
  const negotiate = '#panel [data-control="c:Ysolde:negotiate"]';
  await ysolde.waitForSelector(negotiate);
  await ysolde.click(negotiate + ' .kit-confirm button');
  await ysolde.waitForSelector(negotiate + ' .kit-ask');
  assert.equal(await ysolde.textContent(negotiate + ' .kit-ask'), 'Concede and be knocked out?');
  await shotsBoth(ysolde, 'wa-ysolde-concede-asked');
  const before = Number(await ysolde.evaluate(() => document.body.dataset.events));
  await ysolde.click(negotiate + ' .kit-confirm button.kit-go');
  await ysolde.waitForFunction((n) => Number(document.body.dataset.events) > n, before);
  assert.equal(await ysolde.isVisible('dialog#confirm'), false, 'not asked a second time');
  for (const page of [gm, ysolde, oren, watcher]) await waitForLine(page, /Ysolde concedes to Oren/);

  // Oren chooses the consequence; the conflict is closed on every screen.
  await waitForBanner(oren, /^Your move/);
  assert.ok(await playStep(oren), 'Oren chooses a consequence');
  for (const page of [gm, ysolde, oren, watcher]) {
    await page.waitForFunction(() => /No conflict right now/.test(document.querySelector('#panel').textContent));
  }
  await waitForBanner(gm, /^Your move/);

  // A refusal names its rule, and the rule's ID opens the rules at its section. (The GM's JSON
  // drawer sends what the board would never offer: a concession with no conflict.)
  await gm.click('#json-box > summary');
  await gm.fill('#json-command', JSON.stringify({ type: 'concede', character: 'Ysolde', to: 'Oren' }));
  await gm.click('#json-send');
  await gm.waitForSelector('#json-error a.rule');
  const rule = await gm.textContent('#json-error a.rule');
  assert.match(rule, /^WA-\d+/);
  await gm.click('#json-error a.rule');
  await gm.waitForSelector('dialog#rules-sheet[open] #rules-charts');
  const anchor = await gm.getAttribute('#json-error a.rule', 'data-anchor');
  assert.ok(await gm.$(`#rules-body [id="${anchor}"]`), 'the rules open at the section of ' + rule);
  await gm.click('#rules-close');
  await gm.click('#json-box > summary');
  // Rules one tap away for a player on a phone: the charts first.
  await oren.click('#rules-open');
  await oren.waitForSelector('dialog#rules-sheet[open] #rules-charts h3');
  assert.match(await oren.textContent('#rules-charts'), /Reading a roll/);
  await oren.screenshot({ path: new URL('../artifacts/wa-oren-rules-phone.png', import.meta.url).pathname });
  await oren.click('#rules-close');

  // Ending the chapter cannot be taken back: the page asks first, saying what it does.
  let asked = '';
  await act(gm, gm.locator('#panel [data-control="chapter"] button:has-text("End the chapter")'), { confirm: (q) => { asked = q; } });
  assert.match(asked, /^End chapter 1\? Chapter 2 begins.*cannot be taken back/);
  for (const page of [gm, ysolde, oren, watcher]) await waitForLine(page, /Chapter 2 begins/);

  // Nothing a person reads shows a raw token.
  for (const [name, page] of [['gm', gm], ['ysolde', ysolde], ['oren', oren], ['watcher', watcher]]) {
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertNoBannedWords(page, 'the ' + name + ' page');
    await assertLogReadable(page);
    await shotsBoth(page, 'wa-' + name + '-result');
  }

  // Oren closes the page: everyone sees him go.
  await oren.context().close();
  await gm.waitForFunction(() => [...document.querySelectorAll('#people li')].some((li) => /Oren/.test(li.textContent) && li.classList.contains('away')), null, { timeout: 20000 });
  await ysolde.waitForFunction(() => [...document.querySelectorAll('#people li')].some((li) => /Oren/.test(li.textContent) && li.classList.contains('away')), null, { timeout: 20000 });
});
