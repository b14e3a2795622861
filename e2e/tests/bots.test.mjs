// Bots at the table: the GM seats bots from the seat list, and people play against them.
// An Iron Triangle conflict with one player against two NPCs a bot plays, to its narrated end;
// a Triforce game with two bots and one person, to the end of the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { launch, person, createTable, invite, join, shots, act, panelText, assertReadable, PHONE } from '../lib.mjs';
import { assertNoRawTokens, assertLogReadable, shotsBoth, banner, waitForLine, lines } from '../room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** On the GM page: seat a bot of `strength` in `seat` with the seat list's controls. */
async function seatBot(gm, seat, strength, label) {
  await gm.evaluate(() => { document.getElementById('seats-card').open = true; });
  const row = gm.locator(`.seat-row[data-seat="${seat}"]`);
  await row.locator('select').selectOption(strength);
  await row.getByRole('button', { name: label || 'Seat a bot' }).click();
  await gm.waitForSelector(`.seat-row[data-seat="${seat}"] button:has-text("Take the seat back")`);
}

/** Click the first element matching `selector` if there is one; true if it did. */
async function tryAct(page, selector) {
  const first = page.locator(selector).first();
  if (!(await first.count())) return false;
  await act(page, selector + ' >> nth=0');
  return true;
}

/** Ada's player does whatever the conflict asks of her now, with the board's controls. */
async function adaActs(page) {
  if (await page.evaluate(() => document.body.dataset.yours !== 'true')) return false;
  for (const type of ['join_conflict', 'pick_active', 'pick_opponent', 'end_chain']) {
    if (await tryAct(page, `#panel [data-control="g:${type}"] button`)) return true;
  }
  const stance = '#panel [data-control="stance:Ada"]';
  if (await page.locator(stance).count()) {
    const attack = page.locator(`${stance} button[data-stance="attack"]`);
    if (await attack.count()) await attack.click();
    await act(page, `${stance} button:text-matches("Take (the|no) stance")`);
    return true;
  }
  const move = '#panel [data-control="move:Ada"]';
  if (await page.locator(move).count()) {
    await page.locator(`${move} button.kit-tile[data-move]:not([disabled]):not([data-move="surrender"])`).first().click();
    await act(page, `${move} button:has-text("in secret")`);
    return true;
  }
  if (await tryAct(page, '#panel [data-control^="split_"] button:text-matches("(Pay|Regain) these")')) return true;
  return tryAct(page, '#panel [data-control="g:pass_window"] button');
}

test('one player fights an Iron Triangle conflict against two NPCs a bot plays, to its end', async () => {
  // The one-player preset with a second NPC beside Brute.
  const setup = JSON.parse(readFileSync(path.join(ROOT, 'crates/iron-triangle/presets/duel.json'), 'utf8'));
  const brute = setup.characters.find((c) => c.name === 'Brute');
  setup.characters.push(Object.assign(JSON.parse(JSON.stringify(brute)), { name: 'Vera', combos: [] }));

  const gm = await person(browser);
  await createTable(gm, 'One player (Ada)', 'Bots e2e', setup);
  const adaLink = await invite(gm, 'p1');
  // The GM lets a strong bot play the NPCs: everyone's log says so, by name.
  await seatBot(gm, 'gm', 'strong', 'Let a bot play your NPCs');
  assert.match(await gm.textContent('.seat-row[data-seat="gm"] .holder'), /strong bot playing your NPCs/);
  const ada = await person(browser, PHONE);
  await join(ada, adaLink);
  await waitForLine(ada, /The GM seats a strong bot in the GM’?'?s seat\./);
  await shots(gm, 'bots-it-gm-seats');

  // The GM starts a minor conflict with both NPCs; from here on the bot answers for them.
  const start = '#panel [data-control="g:start_conflict"]';
  await gm.fill(`${start} input[type=text]`, 'The ledger');
  for (const npc of ['Brute', 'Vera']) await gm.check(`${start} label:has-text("${npc}") input`);
  await gm.check(`${start} label:has-text("Minor") input`);
  await act(gm, `${start} button:has-text("Start a conflict")`);

  // Ada's player answers only for Ada, until the conflict is over and the GM may tell its end.
  const narrate = '#panel [data-control="g:narrate_conflict"]';
  const deadline = Date.now() + 120000;
  let sawBotTurn = false;
  while (!(await gm.locator(narrate).count())) {
    assert.ok(Date.now() < deadline, 'the conflict did not end: ' + (await banner(ada)));
    if (!(await adaActs(ada))) {
      if (/Waiting for the GM/.test(await banner(ada))) {
        if (!sawBotTurn) await shots(ada, 'bots-it-ada-waits-for-bot');
        sawBotTurn = true;
      }
      await ada.waitForTimeout(200);
    }
  }
  assert.ok(sawBotTurn, 'Ada waited on the NPCs at least once');
  // The bot took the NPCs' stances in secret, like a person: the log says the GM is ready
  // before the reveal, and never names a stance before it.
  const log = (await lines(ada)).join('\n');
  assert.match(log, /stance/i);
  await gm.fill(`${narrate} input[type=text]`, 'The ledger changes hands.');
  await act(gm, `${narrate} button`);
  for (const page of [gm, ada]) {
    await page.waitForFunction(() => /What happened: The ledger changes hands/.test(document.querySelector('#panel').textContent));
    await assertReadable(page);
    await assertNoRawTokens(page);
    await assertLogReadable(page);
  }
  // The GM takes the seat back: the NPCs are the GM's own again.
  await gm.locator('.seat-row[data-seat="gm"]').getByRole('button', { name: 'Take the seat back' }).click();
  await waitForLine(ada, /The GM takes the GM’?'?s seat back from its bot\./);
  await shotsBoth(gm, 'bots-it-gm-end');
  await shotsBoth(ada, 'bots-it-ada-end');
});

/** The person at a Triforce table does whatever their turn asks, with the board's controls. */
async function triforceTurn(page) {
  if (await page.evaluate(() => document.body.dataset.yours !== 'true')) return false;
  if (await tryAct(page, '#panel [data-control="exchange"] button:text-matches("^No (sword|shield)$")')) return true;
  if (await tryAct(page, '#panel [data-control="resolve"] button')) return true;
  if (await tryAct(page, '#panel [data-control="end"] button:has-text("End turn")')) return true;
  if (await tryAct(page, '#panel button.tf-place')) return true;
  const home = page.locator('#panel g.tap.place').first();
  if (await home.count()) {
    // One size to place sends it at once; several open the choice of size.
    const before = await page.evaluate(() => Number(document.body.dataset.events || 0));
    await home.click();
    await page.waitForFunction((n) => Number(document.body.dataset.events || 0) > n || document.querySelector('#panel button.tf-place'), before);
    await tryAct(page, '#panel button.tf-place');
    return true;
  }
  // Nothing to place: pick up a piece and put it where it may go.
  const origin = page.locator('#panel g.tap.origin').first();
  if (await origin.count()) {
    await origin.click();
    return tryAct(page, '#panel g.tap.legal');
  }
  return false;
}

test('a Triforce game with two bots and one person, to its end', async () => {
  const organiser = await person(browser);
  await createTable(organiser, 'Triforce — Three players', 'Triforce with bots', { players: 3, turn_limit: 4 });
  const redLink = await invite(organiser, 'p1');
  await seatBot(organiser, 'p2', 'strong');
  await seatBot(organiser, 'p3', 'casual');
  for (const [seat, word] of [['p2', /a strong bot/], ['p3', /a casual bot/]]) {
    assert.match(await organiser.textContent(`.seat-row[data-seat="${seat}"] .holder`), word);
  }
  const red = await person(browser);
  await join(red, redLink);
  await red.waitForSelector('#panel svg.tf-board');
  assert.match(await red.textContent('#people'), /played by a bot/);

  const deadline = Date.now() + 120000;
  let waited = false;
  while (!/Game over/.test(await banner(red))) {
    assert.ok(Date.now() < deadline, 'the game did not end: ' + (await banner(red)));
    if (!(await triforceTurn(red))) {
      if (!waited && /Waiting for/.test(await banner(red))) {
        await shots(red, 'bots-triforce-red-waits');
        waited = true;
      }
      await red.waitForTimeout(200);
    }
  }
  assert.ok(waited, 'Red waited on the bots');
  assert.match(await panelText(red), /Game over: (Red|Green|Blue) wins|Game over/);
  // Both bots played: the log shows Green's and Blue's moves.
  const log = (await lines(red)).join('\n');
  for (const name of ['Green', 'Blue']) assert.match(log, new RegExp(name), name + ' never played');
  for (const [name, page] of [['organiser', organiser], ['red', red]]) {
    await assertReadable(page);
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertLogReadable(page);
    await shotsBoth(page, 'bots-triforce-' + name + '-end');
  }
});
