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

/** What each page shows a person, for a test that cannot go on: the banner, every control
 *  group with its buttons, and the conflict as the board draws it; a screenshot of each. */
async function showing(pages, name) {
  const out = [];
  for (const [who, page] of Object.entries(pages)) {
    await page.screenshot({ path: new URL(`../artifacts/${name}-${who.replace(/\W/g, '')}.png`, import.meta.url).pathname, fullPage: true });
    const controls = await page.$$eval('#panel [data-control]', (gs) => gs.map((g) => g.dataset.control + ': ' +
      [...g.querySelectorAll('button')].filter((b) => b.offsetParent !== null).map((b) => (b.disabled ? '(off) ' : '') + b.textContent.trim()).join(' | ')));
    const board = await page.$eval('#panel .wa-conflict', (e) => /** @type {HTMLElement} */ (e).innerText.replace(/\s+/g, ' ').trim()).catch(() => '(no board)');
    out.push(`${who}: banner "${await banner(page)}"; controls: ${controls.join('; ') || 'none'}; board: ${board}`);
  }
  return out.join('\n');
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
 *  consequence) with the sheet's tiles; false when it has none. At the start of rounds 2 and 3
 *  the talk comes before initiative, and the first roll ends it (WA-25): a player offered the
 *  talk leaves it to the other side (Ysolde, who concedes) and waits, rather than rolling before
 *  the other side's page has even shown the new round. */
async function playStep(page) {
  const groups = await page.$$eval('#panel [data-control]', (gs) => gs.map((g) => g.dataset.control));
  if (groups.some((k) => k.endsWith(':negotiate'))) return false;
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
  // Oren leaves the talk at the start of a round to Ysolde (see `playStep`), so her page is
  // waited for rather than raced. A page that has not drawn the latest change yet is waited for;
  // if no page offers a move for 20 s, the test fails with what each page showed.
  const seats = { 'the GM': gm, Ysolde: ysolde, Oren: oren };
  for (let idle = 0, fights = 1; !(await hasControl(ysolde, 'Ysolde:negotiate'));) {
    // A first-round knockout ends about one conflict in four: eight in a row almost never.
    assert.ok(fights <= 8, 'eight conflicts ended before round 2:\n' + (await lines(gm)).filter((l) => /^Conflict|knock|concede|Round/.test(l)).join('\n'));
    if (idle >= 100) assert.fail('nobody could move for 20 s; the pages showed:\n' + (await showing(seats, 'wa-stuck')));
    // Between conflicts (as the GM's own page shows, whatever a player's page has drawn yet),
    // the GM starts the next one.
    if (await gm.$('#panel [data-control="start"]')) {
      await startConflict(gm, ['Ysolde', 'Oren'], 'Oren steals the ring again');
      fights++;
      idle = 0;
      continue;
    }
    let acted = false;
    for (const page of [ysolde, oren]) if (await playStep(page)) { acted = true; break; }
    if (acted) idle = 0;
    else { idle++; await ysolde.waitForTimeout(200); }
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

test('Wicked Age: the answer to a roll, overtaken by the live stream, does not take the board back', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Three-way brawl', 'Slow answer');
  const p1Link = await invite(gm, 'p1');
  const p2Link = await invite(gm, 'p2');
  const ysolde = await person(browser, PHONE);
  const oren = await person(browser);
  await join(ysolde, p1Link);
  await join(oren, p2Link);
  await startConflict(gm, ['Ysolde', 'Oren'], 'Oren steals the ring');
  await waitForBanner(ysolde, /^Your move/);
  await waitForBanner(oren, /^Your move/);

  // Ysolde is on a slow connection: the answer to her roll comes back only after the live
  // stream has brought her roll and Oren's (which sets the order) to her page.
  let release = () => {};
  const held = new Promise((r) => { release = r; });
  const commands = (/** @type {URL} */ url) => url.pathname.endsWith('/commands');
  await ysolde.route(commands, async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  const init = '#panel [data-control="c:Ysolde:init"]';
  const before = Number(await ysolde.evaluate(() => document.body.dataset.events));
  await tapForms(ysolde, init, 2);
  await ysolde.click(`${init} button.kit-go`);
  await ysolde.waitForFunction((n) => Number(document.body.dataset.events) > n, before);
  assert.ok(await playStep(oren), 'Oren rolls initiative');
  await ysolde.waitForFunction(() => /Initiative order/.test(document.querySelector('#panel').textContent));
  release();
  // The answer is in once the page is no longer busy sending.
  await ysolde.waitForFunction(() => !document.body.classList.contains('busy'));
  await ysolde.unroute(commands);

  // The board still shows the table as it is: the order set, and no one left to roll.
  const board = await ysolde.textContent('#panel');
  assert.match(board, /Initiative order/, 'the board went back to before the order was set');
  assert.doesNotMatch(board, /to roll initiative/, 'the board went back to before Oren rolled');
  const first = await oren.textContent('#panel .wa-order li:first-child b');
  assert.equal(await hasControl(ysolde, 'Ysolde:challenge'), first === 'Ysolde', 'Ysolde can challenge when she is first in the order');
  assert.match(await banner(ysolde), first === 'Ysolde' ? /^Your move/ : /^Waiting for Oren/);
  await shotsBoth(ysolde, 'wa-ysolde-after-slow-answer');
});
