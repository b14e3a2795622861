// An In A Wicked Age conflict to its end: the GM and two players (one on a phone), each in their
// own browser, tapping forms on their sheets to roll initiative, challenge and answer, and the
// winner choosing a consequence. The start form is empty every time (no one is pulled in).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { launch, person, createTable, invite, join, shots, act, panelText, assertReadable, focused, PHONE } from '../../../e2e/lib.mjs';
import { waitForBanner } from '../../../e2e/room.mjs';
import { assertNoBannedWords } from '../../../e2e/words.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Tap the first `n` unpressed, usable form tiles in `group`. */
async function tapForms(page, group, n) {
  for (let i = 0; i < n; i++) {
    const tile = page.locator(`${group} button.wa-pick[data-form][aria-pressed="false"]:not([disabled])`).first();
    await tile.click();
  }
}

/** Do whatever step of the conflict this page is asked for; false when it has none. */
async function playStep(page) {
  const groups = await page.$$eval('#panel [data-control]', (gs) => gs.map((g) => g.dataset.control));
  const init = groups.find((k) => k.endsWith(':init'));
  const challenge = groups.find((k) => k.endsWith(':challenge'));
  const answer = groups.find((k) => k.endsWith(':answer'));
  const consequence = groups.find((k) => k.startsWith('k:'));
  if (init || answer) {
    const g = `#panel [data-control="${init || answer}"]`;
    const want = (await page.$$(`${g} button.wa-pick[data-form]`)).length === 3 ? 1 : 2;
    const pressed = (await page.$$(`${g} button.wa-pick[data-form][aria-pressed="true"]`)).length;
    await tapForms(page, g, want - pressed);
    await act(page, `${g} button.kit-go`);
    return true;
  }
  if (challenge) {
    const g = `#panel [data-control="${challenge}"]`;
    if (!(await page.$(`${g} button[data-target][aria-pressed="true"]`))) await page.locator(`${g} button[data-target]`).first().click();
    const forms = (await page.$$(`${g} button.wa-pick[data-form]`)).length;
    if (forms) {
      const pressed = (await page.$$(`${g} button.wa-pick[data-form][aria-pressed="true"]`)).length;
      await tapForms(page, g, (forms === 3 ? 1 : 2) - pressed);
    }
    await act(page, `${g} button.kit-go`);
    return true;
  }
  if (consequence) {
    const g = `#panel [data-control="${consequence}"]`;
    if (await page.$(`${g} button:has-text("Exhausted")`)) {
      // A consequential strength's extra loss is offered to waive only when the winner added
      // one to a roll: Ysolde's Hidden Blade, never Oren's potent Exorcism.
      const text = await page.textContent(g);
      const winner = /knocked out by ([^)]+)\)/.exec(text)[1];
      if (winner === 'Ysolde') assert.match(text, /waive the extra loss from Hidden Blade \(consequential\)/);
      else assert.doesNotMatch(text, /waive/i, winner + ' used no consequential strength');
      await act(page, `${g} button:has-text("Exhausted")`);
      return true;
    }
  }
  return false;
}

test('GM and two players fight a Wicked Age conflict by tapping forms and dice, to its consequences', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Three-way brawl', 'Wicked Age e2e');
  const p1 = await person(browser);
  const p2 = await person(browser, PHONE);
  await join(p1, await invite(gm, 'p1'));
  await join(p2, await invite(gm, 'p2'));
  await p1.waitForSelector('#panel [data-control="start"]');

  // The GM switches odds in play on: whoever answers sees the chance of each band.
  await gm.waitForSelector('#panel .kit-odds-switch input');
  await gm.check('#panel .kit-odds-switch input');

  // The start form begins empty; Ysolde's player brings only Ysolde and Oren (WA-19).
  assert.equal(await p1.locator('#panel [data-control="start"] button[aria-pressed="true"]').count(), 0, 'no one is ticked');
  await p1.click('#panel [data-control="start"] button[data-participant="Ysolde"]');
  await p1.click('#panel [data-control="start"] button[data-participant="Oren"]');
  await p1.fill('#panel [data-control="start"] input', 'Ysolde steals the temple key');
  await shots(p1, 'wa-p1-start-form');
  await act(p1, '#panel [data-control="start"] button.kit-go');
  for (const page of [gm, p1, p2]) {
    await page.waitForSelector('#panel .wa-order');
    const order = await page.textContent('#panel .wa-order');
    assert.match(order, /Ysolde/);
    assert.match(order, /Oren/);
    assert.doesNotMatch(order, /Khan/, 'the GM\'s Khan was not pulled in');
  }
  // Step 1 is lit, for the eye and for a screen reader, and the dice on every sheet are drawn at
  // their size.
  assert.match(await p2.textContent('#panel .wa-steps li.now'), /Initiative/);
  assert.equal(await p2.getAttribute('#panel .wa-steps li.now', 'aria-current'), 'step');
  assert.ok(await p1.locator('#panel .wa-char .kit-die').count() >= 12, 'form dice drawn');

  // Ysolde taps two forms on her sheet and her strength if it fits; the roll shows every die.
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-form="covertly"]');
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-form="with_love"]');
  // A third form is not taken in place of the first without a word: the tap is refused in
  // words, the two chosen stay, and the focus stays on the tile tapped.
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-form="directly"]');
  assert.match(await p1.textContent('#panel [data-control="c:Ysolde:init"] .wa-full'), /Two forms are chosen already: tap Covertly or With Love to put it back, then Directly/);
  const pressed = await p1.$$eval('#panel [data-control="c:Ysolde:init"] button[data-form][aria-pressed="true"]', (bs) => bs.map((b) => b.dataset.form));
  assert.deepEqual(pressed.sort(), ['covertly', 'with_love']);
  assert.match(await focused(p1), /\[.*form=directly/, 'the focus stays on the tile tapped');
  await shots(p1, 'wa-p1-third-form-refused');
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-strength="Hidden Blade"]');
  // Hidden Blade adds its die only with Covertly: dropping Covertly unselects it, and it cannot
  // be tapped again until Covertly is back.
  const blade = '#panel [data-control="c:Ysolde:init"] button[data-strength="Hidden Blade"]';
  assert.equal(await p1.getAttribute(blade, 'aria-pressed'), 'true');
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-form="covertly"]');
  assert.equal(await p1.getAttribute(blade, 'aria-pressed'), 'false', 'the strength went with its form');
  assert.ok(await p1.isDisabled(blade), 'a strength without its form cannot be chosen');
  assert.match(await p1.textContent(blade), /with Covertly/);
  await shots(p1, 'wa-p1-strength-dropped');
  // With Love stayed chosen; Covertly back, the strength may be chosen again.
  await p1.click('#panel [data-control="c:Ysolde:init"] button[data-form="covertly"]');
  await p1.click(blade);
  assert.equal(await p1.getAttribute(blade, 'aria-pressed'), 'true');
  await shots(p1, 'wa-p1-initiative-forms');
  await act(p1, '#panel [data-control="c:Ysolde:init"] button.kit-go');
  await p2.waitForFunction(() => /strength/.test(document.querySelector('#panel .wa-order').textContent) || document.querySelectorAll('#panel .wa-order .kit-die').length >= 3);
  assert.match(await p2.textContent('#panel .wa-order'), /Hidden Blade/, 'the strength die is labelled with its name');
  // A roll's value says what its numbers are: a total, and the tie-break when there is one.
  assert.match(await p2.textContent('#panel .wa-order .wa-value'), /^\d+ total( · tie-break \d+)?$/);

  // Play on, each page doing the step it is asked for, until the conflict is settled.
  let answered = false;
  for (let i = 0; i < 60; i++) {
    const text = await panelText(p1);
    if (/No conflict right now/.test(text)) break;
    if (!answered && (await p2.$('#panel [data-control$=":answer"] .wa-bands'))) {
      // The answer step shows the challenge's dice and the bands that decide it.
      assert.match(await p2.textContent('#panel [data-control$=":answer"]'), /doubles: the challenger is knocked out|the challenger is knocked out/);
      await p2.waitForSelector('#panel [data-control$=":answer"] .kit-odds');
      await tapForms(p2, '#panel [data-control$=":answer"]', 2 - (await p2.$$('#panel [data-control$=":answer"] button.wa-pick[data-form][aria-pressed="true"]')).length);
      assert.match(await p2.textContent('#panel [data-control$=":answer"] .kit-odds'), /Odds of this answer.*%.*knocked out/s);
      await shots(p2, 'wa-p2-phone-answer-bands');
      answered = true;
    }
    let acted = false;
    for (const page of [p1, p2, gm]) if (await playStep(page)) { acted = true; break; }
    if (!acted) await p1.waitForTimeout(200);
  }
  for (const [name, page] of [['gm', gm], ['ysolde', p1], ['p2', p2]]) {
    await page.waitForFunction(() => /No conflict right now/.test(document.querySelector('#panel').textContent));
    await assertReadable(page);
    await assertNoBannedWords(page, 'the ' + name + ' page');
  }
  assert.match(await panelText(p1), /The last one was: Ysolde steals the temple key/);
  // A consequence was chosen: someone lost a size, drawn struck out on the sheet.
  assert.ok(await p1.locator('#panel .wa-char .kit-die.lost').count() >= 1, 'a lost die is shown');
  await shots(gm, 'wa-gm-result');
  await shots(p1, 'wa-p1-result');
  await shots(p2, 'wa-p2-phone-result');

  // The next conflict's form starts empty again.
  assert.equal(await p1.locator('#panel [data-control="start"] button[aria-pressed="true"]').count(), 0, 'no ticks left over');
  assert.equal(await p1.inputValue('#panel [data-control="start"] input'), '', 'no action left over');
});

// The preset's three, mid-conflict: the Khan has just knocked Ysolde out in round 1 (his Action
// d12 rolled 11 against her 1), and Oren is next to challenge.
const BRAWL = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../presets/brawl.json'), 'utf8'));
const KNOCKED_OUT = Object.assign(structuredClone(BRAWL), { conflict: {"action": "interferes","round": 1,"stage": "turns","participants": [{"name": "The Khan","in_conflict": true,"turn_used": true,"owe_die": false,"initiative": {"choice": {"form": "action"},"roll": {"dice": [{"kind": "npc_form","form": "action","sides": 12,"face": 11},{"kind": "npc_form","form": "action","sides": 8,"face": 1}],"value": {"p": 11,"t": 1}},"rerolls": []},"round_one_dice": [12,8],"consequential_used": []},{"name": "Oren","in_conflict": true,"turn_used": false,"owe_die": false,"initiative": {"choice": {"forms": ["covertly","for_myself"]},"roll": {"dice": [{"kind": "pc_form","form": "covertly","sides": 12,"face": 9},{"kind": "pc_form","form": "for_myself","sides": 6,"face": 5}],"value": {"p": 9,"t": 5}},"rerolls": []},"round_one_dice": [12,6],"consequential_used": []},{"name": "Ysolde","in_conflict": false,"turn_used": true,"owe_die": false,"initiative": {"choice": {"forms": ["for_myself","directly"]},"roll": {"dice": [{"kind": "pc_form","form": "for_myself","sides": 8,"face": 2},{"kind": "pc_form","form": "directly","sides": 4,"face": 1}],"value": {"p": 2,"t": 1}},"rerolls": []},"round_one_dice": [8,4],"consequential_used": []}],"advantage": null,"order": ["The Khan","Oren","Ysolde"],"standing": null,"pending": null,"exchanges": [{"round": 1,"challenger": "The Khan","answerer": "Ysolde","challenge": {"p": 11,"t": 1},"answer": {"p": 1,"t": 1},"outcome": "answerer_knocked_out"}],"round_one_pairs": [["The Khan","Ysolde"]],"knockouts": [{"winner": "The Khan","loser": "Ysolde","round": 1,"cause": "exchange","settlement": {"state": "open","alternative": null,"refused": false}}],"proposal": null,"ended": null} });

test('a Wicked Age knockout mid-conflict: its chooser is told at once, and no waive is offered without a consequential strength', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Three-way brawl', 'Wicked Age knockout', KNOCKED_OUT);
  const oren = await person(browser, PHONE);
  await join(oren, await invite(gm, 'p2'));
  // The GM has the Khan's consequence to choose while the conflict goes on with Oren's turn:
  // both are told, neither waits on the other.
  await waitForBanner(gm, /^Your move \(also waiting for Oren\)$/);
  await waitForBanner(oren, /^Your move \(also waiting for the GM\)$/);
  const g = '#panel [data-control="k:The Khan>Ysolde"]';
  await gm.waitForSelector(g);
  // The Khan added no consequential strength to a roll: there is no extra loss to waive.
  assert.doesNotMatch(await gm.textContent(g), /waive/i);
  await shots(gm, 'wa-gm-knockout-mid-conflict');
  await act(gm, `${g} button:has-text("Injured")`);
  await waitForBanner(gm, /^Waiting for Oren$/);
});
