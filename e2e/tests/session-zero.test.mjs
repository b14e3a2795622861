// Session zero in the browser (issue 17): a new group goes from an empty lobby to its first
// conflict with its own characters, and nobody types JSON. The GM makes the table by form; each
// player makes a character from their invite link, the form naming the rule a sheet breaks
// until it is fixed; the GM readies an NPC with the same form, starts play and runs a conflict
// with the players' characters. A Wicked Age character is made the same way and rolls its own
// forms. A sheet downloaded from one table is imported into another. A ready-made table opens in
// session zero too (issue 38): the GM adds a seat for a third player, whose sheet goes through
// the GM's review, removes a seat nobody takes, and starting with a sheet missing asks first. A
// character made during play goes through the GM's review too, and a conflict started while a
// player has none asks first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, person, invite, join, shots, act, createTable, BASE, PHONE } from '../lib.mjs';
import { assertNoRawTokens, banner, shotsBoth, waitForBanner } from '../room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Press the stepper labelled `label` inside `scope`, `times` times, − or +. */
async function step(page, scope, label, sign, times) {
  for (let i = 0; i < times; i++) await page.click(`${scope} button[aria-label="${sign === '+' ? 'more' : 'less'} ${label}"]`);
}

/** The note shown next to the field at `path` inside `scope`. */
function note(page, scope, path) {
  return page.locator(`${scope} [data-field="${path}"] > .kit-error`);
}

/** From the lobby: pick the game, name the table, set the number of players. */
async function lobbyForm(page, game, title, players) {
  await page.goto(BASE + '/');
  await page.click(`#by-form button.game-pick[data-game="${game}"]`);
  await page.fill('#by-form [data-field="title"] input', title);
  const count = Number(await page.textContent('#by-form [data-stepper="Players"] output'));
  await step(page, '#by-form', 'Players', players > count ? '+' : '−', Math.abs(players - count));
}

async function createFromLobby(page) {
  await page.waitForFunction(() => !document.getElementById('create-by-form').disabled);
  await Promise.all([page.waitForURL(/\/t\//), page.click('#create-by-form')]);
  await page.waitForSelector('#status.live');
}

/** Open the GM's seats fold (folded on a phone) and make an invite link for `seat`. */
async function inviteFor(gm, seat) {
  if (!(await gm.$eval('#seats-card', (d) => d.open))) await gm.click('#seats-card > summary');
  return invite(gm, seat);
}

const SHEET = '#panel .s0-player';

/** A player fills the Iron Triangle form on their page, as a person would. */
async function fillIronTriangle(page, c, root = SHEET) {
  await page.fill(`${root} [data-input="name"]`, c.name);
  const bg = page.locator(`${root} [data-field="backgrounds"] input[aria-label="Background"]`);
  await bg.nth(0).fill(c.backgrounds[0]);
  await bg.nth(1).fill(c.backgrounds[1]);
  for (const t of ['belief', 'flaw', 'goal']) await page.fill(`${root} [data-input="${t}"]`, c[t]);
  for (const [move, name] of Object.entries(c.moves)) await page.fill(`${root} input[data-move="${move}"]`, name);
}

test('a new Iron Triangle group: table by form, characters from invite links, a conflict with them', async () => {
  // The GM makes the table in the lobby: the game, its name, two players, a countdown.
  const gm = await person(browser);
  await lobbyForm(gm, 'iron-triangle', 'Harbour nights', 2);
  await gm.click('#by-form button:has-text("Add a countdown")');
  await gm.fill('#by-form input[aria-label="Countdown"]', 'The flood');
  // A countdown of 2 boxes breaks IT-13: the note says so next to it, and nothing is made.
  await step(gm, '#by-form [data-field="options.countdowns.0"]', 'Boxes', '−', 4);
  await gm.waitForFunction(() => /IT-13/.test(document.querySelector('#by-form [data-field="options.countdowns.0"] > .kit-error')?.textContent || ''));
  assert.equal(await gm.isDisabled('#create-by-form'), true, 'no table from a broken choice');
  await shotsBoth(gm, 's0-lobby-form-error');
  await step(gm, '#by-form [data-field="options.countdowns.0"]', 'Boxes', '+', 4);
  await createFromLobby(gm);
  await gm.waitForSelector('#panel .s0-gm');
  await waitForBanner(gm, /Waiting for the first player and the second player/);
  await assertNoRawTokens(gm, 'the GM page in session zero');

  // Each player opens their own invite link: one on a laptop, one on a phone.
  const ana = await person(browser);
  const bo = await person(browser, PHONE);
  await join(ana, await inviteFor(gm, 'p1'));
  await join(bo, await inviteFor(gm, 'p2'));
  await ana.waitForSelector(SHEET);
  await bo.waitForSelector(SHEET);
  await shotsBoth(ana, 's0-it-player-blank');
  await assertNoRawTokens(ana, 'a player\'s blank sheet');

  await fillIronTriangle(ana, {
    name: 'Ada', backgrounds: ['Detective', 'Hockey player'],
    belief: 'Everyone lies', flaw: 'Temper', goal: 'Find the thief',
    moves: { 'D-M': 'Philly Shell', 'G-L': 'Trip', 'A-H': 'Overhand Right' },
  });
  // Eleven energy breaks IT-9: the note next to Energy names the rule, and the hand-in waits.
  await step(ana, SHEET, 'Attack', '+', 1);
  await ana.waitForFunction((s) => /IT-9/.test(document.querySelector(s + ' [data-field="energy"] > .kit-error').textContent), SHEET);
  assert.match(await note(ana, SHEET, 'energy').textContent(), /IT-9/);
  assert.match(await ana.textContent(`${SHEET} .kit-summary`), /1 thing to fix/);
  await shotsBoth(ana, 's0-it-player-energy-error');
  await ana.click(`${SHEET} button[data-action="hand-in"]`, { force: true });
  await ana.waitForTimeout(300);
  assert.match(await gm.textContent('#panel .s0-gm'), /no sheet yet/, 'nothing is handed in from a broken sheet');
  // Fixed: the note goes, and the sheet is handed in.
  await step(ana, SHEET, 'Attack', '−', 1);
  await ana.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  assert.equal(await note(ana, SHEET, 'energy').textContent(), '');
  await act(ana, `${SHEET} button[data-action="hand-in"]`);
  await ana.waitForSelector(`${SHEET} .s0-status.done`);

  // Bo, on the phone: three points in one background breaks IT-10, then fixed.
  await fillIronTriangle(bo, {
    name: 'Bo', backgrounds: ['Dock worker', 'Boxer'],
    belief: 'Family first', flaw: 'Gambles', goal: 'Win back the family boat',
    moves: { 'D-M': 'Cover Up', 'G-L': 'Sweep', 'A-H': 'Hook' },
  });
  await step(bo, `${SHEET} [data-field="backgrounds.0"]`, 'Points', '+', 1);
  await step(bo, `${SHEET} [data-field="backgrounds.1"]`, 'Points', '−', 1);
  await bo.waitForFunction((s) => /IT-10/.test(document.querySelector(s + ' [data-field="backgrounds"]').textContent), SHEET);
  await shots(bo, 's0-it-phone-background-error');
  await step(bo, `${SHEET} [data-field="backgrounds.0"]`, 'Points', '−', 1);
  await step(bo, `${SHEET} [data-field="backgrounds.1"]`, 'Points', '+', 1);
  await bo.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await act(bo, `${SHEET} button[data-action="hand-in"]`);

  // Ana keeps her character as a file, for another table.
  const [download] = await Promise.all([ana.waitForEvent('download'), ana.click(`${SHEET} button[data-action="download"]`)]);
  const adaFile = await download.path();
  const file = JSON.parse(readFileSync(adaFile, 'utf8'));
  assert.equal(file.clash, 'sheet');
  assert.equal(file.sheet.name, 'Ada');

  // The GM reads both sheets and sends Bo's back with a comment; Bo sees it and hands in again.
  await gm.waitForFunction(() => document.querySelectorAll('#panel .s0-gm .it-sheet-card').length >= 2);
  const boRow = '#panel .s0-gm li.s0-person[data-seat="p2"]';
  await gm.click(`${boRow} .s0-sendback-box > summary`);
  await gm.fill(`${boRow} textarea`, 'Name a background from the harbour');
  await act(gm, `${boRow} button[data-action="send-back"]`);
  await bo.waitForSelector(`${SHEET} .s0-status.back`);
  assert.match(await bo.textContent(`${SHEET} .s0-status`), /Name a background from the harbour/);
  await bo.locator(`${SHEET} [data-field="backgrounds"] input[aria-label="Background"]`).nth(1).fill('Harbour boxer');
  await act(bo, `${SHEET} button[data-action="hand-in"]`);
  await bo.waitForSelector(`${SHEET} .s0-status.done`);

  // The GM makes an NPC with the same form: an established one, at level 1.
  const npc = '#panel .s0-gm [data-part="npc-form"]';
  await gm.fill(`${npc} [data-input="name"]`, 'Brute');
  await gm.fill(`${npc} input[data-move="D-M"]`, 'Block');
  await gm.fill(`${npc} input[data-move="G-L"]`, 'Shove');
  await gm.fill(`${npc} input[data-move="A-H"]`, 'Haymaker');
  await gm.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), npc);
  await act(gm, `${npc} button[data-action="ready-npc"]`);
  await gm.waitForSelector('#panel .s0-gm li[data-npc="Brute"]');
  // The GM keeps Brute in the library of this browser, and the whole setup as a file.
  await gm.click('#panel .s0-gm li[data-npc="Brute"] button:has-text("Save to my library")');
  const [setupDownload] = await Promise.all([gm.waitForEvent('download'), gm.click('#panel button[data-action="download-setup"]')]);
  const setupFile = await setupDownload.path();
  assert.deepEqual(JSON.parse(readFileSync(setupFile, 'utf8')).setup.characters.map((c) => c.name), ['Ada', 'Bo', 'Brute']);
  await shotsBoth(gm, 's0-it-gm-ready');
  await assertNoRawTokens(gm, 'the GM page with every sheet in');
  assert.doesNotMatch(await ana.textContent('#panel'), /Brute|Haymaker/, 'the NPC is the GM\'s alone');

  // Start play (asked first), then a conflict with the players' own characters.
  await gm.click('#panel button[data-action="start-play"]');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  await gm.waitForSelector('#panel [data-control="g:start_conflict"]');
  const start = '#panel [data-control="g:start_conflict"]';
  await gm.fill(`${start} input[type=text]`, 'The stolen ledger');
  await gm.check(`${start} label:has-text("Minor") input`);
  await gm.check(`${start} label:has-text("Brute") input`);
  await act(gm, `${start} button:has-text("Start a conflict")`);
  await act(ana, '#panel [data-control="g:join_conflict"] button:has-text("Ada")');
  await act(bo, '#panel [data-control="g:join_conflict"] button:has-text("Bo")');
  await act(ana, '#panel [data-control="g:pick_active"] button:has-text("Ada")');
  await act(ana, '#panel [data-control="g:pick_opponent"] button:has-text("Brute")');
  await ana.waitForSelector('#panel button[data-stance="attack"]');
  await ana.waitForSelector('#panel .it-char[data-character="Ada"] .it-card[data-move="A-H"]');
  assert.match(await ana.textContent('#panel .it-char[data-character="Ada"]'), /Overhand Right/);
  await shotsBoth(ana, 's0-it-first-conflict');
  await shotsBoth(bo, 's0-it-first-conflict-bo');
  await assertNoRawTokens(ana, 'the first conflict');

  // Next month, another table: Ada's player imports her file; the GM brings Brute back from
  // the library.
  const gm2 = await gm.context().newPage();
  await lobbyForm(gm2, 'iron-triangle', 'Another harbour', 1);
  await createFromLobby(gm2);
  await gm2.click('#panel .s0-gm .s0-library > summary');
  await gm2.click('#panel .s0-gm .s0-library li:has-text("Brute") button:has-text("Use")');
  assert.equal(await gm2.inputValue('#panel .s0-gm [data-part="npc-form"] [data-input="name"]'), 'Brute');
  await gm2.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), '#panel .s0-gm [data-part="npc-form"]');
  await act(gm2, '#panel .s0-gm [data-part="npc-form"] button[data-action="ready-npc"]');
  await gm2.waitForSelector('#panel .s0-gm li[data-npc="Brute"]');
  await join(ana, await inviteFor(gm2, 'p1'));
  await ana.waitForSelector(SHEET);
  const [chooser] = await Promise.all([ana.waitForEvent('filechooser'), ana.click(`${SHEET} button[data-action="import"]`)]);
  await chooser.setFiles(adaFile);
  await ana.waitForFunction((s) => document.querySelector(s + ' [data-input="name"]').value === 'Ada', SHEET);
  assert.equal(await ana.inputValue(`${SHEET} input[data-move="A-H"]`), 'Overhand Right');
  await ana.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await act(ana, `${SHEET} button[data-action="hand-in"]`);
  await gm2.waitForFunction(() => /Ada/.test(document.querySelector('#panel .s0-gm').textContent));
  await shotsBoth(ana, 's0-it-imported');

  // The whole setup file starts a table from the lobby, with everyone's sheets in it.
  const gm3 = await gm.context().newPage();
  await gm3.goto(BASE + '/');
  await gm3.click('#from-file > summary');
  await gm3.fill('#file-title', 'Harbour nights, again');
  const [setupChooser] = await Promise.all([gm3.waitForEvent('filechooser'), gm3.click('#file-pick')]);
  await Promise.all([gm3.waitForURL(/\/t\//), setupChooser.setFiles(setupFile)]);
  await gm3.waitForSelector('#panel .it-char[data-character="Ada"]');
  assert.match(await gm3.textContent('#panel'), /Philly Shell.*Cover Up.*Haymaker/s);
});

test('a Wicked Age character made from an invite link rolls its own forms', async () => {
  const gm = await person(browser);
  await lobbyForm(gm, 'wicked-age', 'The river chapter', 1);
  await createFromLobby(gm);
  const p = await person(browser, PHONE);
  await join(p, await inviteFor(gm, 'p1'));
  await p.waitForSelector(SHEET);
  await p.fill(`${SHEET} [data-input="name"]`, 'Ysolde');
  // Two d12s break WA-2: the note under Forms names it.
  const dice = { covertly: '12', directly: '12', for_myself: '8', for_others: '6', with_love: '6', with_violence: '4' };
  for (const [form, die] of Object.entries(dice)) await p.selectOption(`${SHEET} select[data-form="${form}"]`, die);
  await p.waitForFunction((s) => /WA-2/.test(document.querySelector(s + ' [data-field="forms"] > .kit-error').textContent), SHEET);
  await shotsBoth(p, 's0-wa-player-forms-error');
  await p.selectOption(`${SHEET} select[data-form="directly"]`, '10');
  const interests = p.locator(`${SHEET} input[aria-label="Best Interest"]`);
  await interests.nth(0).fill('Find the child of the river');
  await interests.nth(1).fill('Make the Khan pay');
  await p.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await act(p, `${SHEET} button[data-action="hand-in"]`);

  // The GM readies the Khan with the NPC form and starts play.
  const npc = '#panel .s0-gm [data-part="npc-form"]';
  await gm.waitForFunction(() => /Ysolde/.test(document.querySelector('#panel .s0-gm').textContent));
  await gm.fill(`${npc} [data-input="name"]`, 'The Khan');
  await gm.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), npc);
  await act(gm, `${npc} button[data-action="ready-npc"]`);
  await gm.click('#panel button[data-action="start-play"]');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');

  // The player starts a conflict and rolls initiative with two of Ysolde's own forms.
  await p.waitForSelector('#panel [data-control="start"]');
  await p.click('#panel [data-control="start"] button[data-participant="Ysolde"]');
  await p.click('#panel [data-control="start"] button[data-participant="The Khan"]');
  await p.fill('#panel [data-control="start"] input', 'Ysolde takes the ferry by force');
  await act(p, '#panel [data-control="start"] button.kit-go');
  const init = '#panel [data-control="c:Ysolde:init"]';
  await p.waitForSelector(init);
  await p.click(`${init} button[data-form="with_love"]`);
  await p.click(`${init} button[data-form="with_violence"]`);
  await act(p, `${init} button.kit-go`);
  await p.waitForFunction(() => /Ysolde/.test(document.querySelector('#panel .wa-order').textContent) && document.querySelectorAll('#panel .wa-order .kit-die').length >= 2);
  // The dice are the ones Ysolde's player dealt: a d6 for With Love, a d4 for With Violence.
  const order = await p.textContent('#panel .wa-order');
  assert.match(order, /d6 With Love/);
  assert.match(order, /d4 With Violence/);
  await shotsBoth(p, 's0-wa-rolled');
  await assertNoRawTokens(p, 'Ysolde\'s first roll');
});

test('a Tourists party made from an invite link plays its first round', async () => {
  const gm = await person(browser);
  // The lobby asks the players' parties by name (issue 38), so the table waits on them by name.
  await lobbyForm(gm, 'nd-tourists', 'Tourist trap', 2);
  await gm.fill('#by-form input[aria-label="Party of the first player"]', 'TMDF');
  await gm.fill('#by-form input[aria-label="Party of the second player"]', 'US');
  await createFromLobby(gm);
  await waitForBanner(gm, /Waiting for TMDF and US/);
  assert.match(await banner(gm), /Waiting for TMDF and US/);
  assert.match(await gm.textContent('#panel .s0-gm'), /TMDF.*the first player.*US.*the second player/s);
  // US will not come tonight: the GM removes its seat.
  await gm.click('#panel .s0-person[data-seat="p2"] button[data-action="remove-seat"]');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  await gm.waitForFunction(() => !document.querySelector('#panel .s0-person[data-seat="p2"]'));
  const p = await person(browser);
  await join(p, await inviteFor(gm, 'p1'));
  await p.waitForSelector(SHEET);
  // The sheet starts with the name the GM gave the party.
  assert.equal(await p.inputValue(`${SHEET} [data-input="name"]`), 'TMDF');
  await p.fill(`${SHEET} [data-input="name"]`, 'TMDF');
  await p.fill(`${SHEET} [data-input="goal"]`, 'Get the souvenir home');
  await p.fill(`${SHEET} [data-input="character"]`, 'Mika');
  await p.fill(`${SHEET} input[aria-label="Attribute"]`, 'Luck');
  await p.fill(`${SHEET} textarea[aria-label="Aspects, one per line"]`, 'Lucky\nQuick hands');
  await p.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await shotsBoth(p, 's0-nd-party');
  await assertNoRawTokens(p, 'a Tourists party sheet');
  await act(p, `${SHEET} button[data-action="hand-in"]`);

  const npc = '#panel .s0-gm [data-part="npc-form"]';
  await gm.waitForFunction(() => /TMDF/.test(document.querySelector('#panel .s0-gm').textContent));
  await gm.fill(`${npc} [data-input="name"]`, 'Levinulon');
  await gm.fill(`${npc} [data-input="goal"]`, 'Keep the souvenir');
  await gm.fill(`${npc} [data-input="character"]`, 'The customs officer');
  await gm.fill(`${npc} input[aria-label="Attribute"]`, 'Paperwork');
  await gm.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), npc);
  await act(gm, `${npc} button[data-action="ready-npc"]`);
  await shotsBoth(gm, 's0-nd-gm-ready');
  await assertNoRawTokens(gm, 'the Tourists GM page');
  await gm.click('#panel button[data-action="start-play"]');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  await p.waitForFunction(() => /TMDF/.test(document.getElementById('panel').textContent) && !document.querySelector('#panel .s0'));
  assert.match(await p.textContent('#panel'), /Mika/);
  // The GM starts the Conflict: each sheet's Reserve is drawn, Mika's three cards among them.
  await act(gm, '#panel [data-control="start"] button');
  await p.waitForFunction(() => document.querySelectorAll('#panel .kit-tile, #panel [data-card]').length >= 3);
  await shotsBoth(p, 's0-nd-playing');
  await assertNoRawTokens(p, 'the Tourists table in play');
});

test('a ready-made Iron Triangle table takes a third player: a seat added on the page, the sheet reviewed, a start without a sheet asks', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Two players (Ada, Bo)', 'Three at the harbour', null, { sessionZero: true });
  // The ready-made sheets are in, and play could start as it is.
  await gm.waitForSelector('#panel .s0-gm');
  await gm.waitForFunction(() => /Ada/.test(document.querySelector('#panel .s0-gm').textContent) && /Bo/.test(document.querySelector('#panel .s0-gm').textContent));
  assert.equal(await gm.textContent('#panel button[data-action="start-play"]'), 'Start play');
  // A third player: one tap adds the seat, which gets its invite like any other.
  await act(gm, '#panel button[data-action="add-seat"]');
  await gm.waitForSelector('#panel .s0-person[data-seat="p3"]');
  assert.match(await gm.textContent('#panel .s0-person[data-seat="p3"]'), /The third player.*no sheet yet/s);
  // And a fourth nobody takes, removed again (asked first).
  await act(gm, '#panel button[data-action="add-seat"]');
  await gm.waitForSelector('#panel .s0-person[data-seat="p4"]');
  await gm.click('#panel .s0-person[data-seat="p4"] button[data-action="remove-seat"]');
  await gm.waitForSelector('dialog#confirm[open]');
  assert.match(await gm.textContent('#confirm-text'), /Remove the seat of the fourth player\?/);
  await gm.click('#confirm-yes');
  await gm.waitForFunction(() => !document.querySelector('#panel .s0-person[data-seat="p4"]'));
  // Starting now would leave the third player out: the button says so, and asks.
  await gm.waitForFunction(() => /without the third player/.test(document.querySelector('#panel button[data-action="start-play"]').textContent));
  await shotsBoth(gm, 's0-ready-made-seat-added');
  await gm.click('#panel button[data-action="start-play"]');
  await gm.waitForSelector('dialog#confirm[open]');
  assert.match(await gm.textContent('#confirm-text'), /Start play without the third player, who has no sheet in\?/);
  await gm.click('dialog#confirm button[value="no"]');

  // Cy makes a character from the new seat's invite; the GM sends it back once, then keeps it.
  const cy = await person(browser, PHONE);
  await join(cy, await inviteFor(gm, 'p3'));
  await cy.waitForSelector(SHEET);
  await fillIronTriangle(cy, {
    name: 'Cy', backgrounds: ['Smuggler', 'Cook'],
    belief: 'The sea provides', flaw: 'Reckless', goal: 'Pay off the boat',
    moves: { 'D-M': 'Slip', 'G-L': 'Hook Leg', 'A-H': 'Haymaker' },
  });
  await cy.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await act(cy, `${SHEET} button[data-action="hand-in"]`);
  await gm.waitForFunction(() => /Cy/.test(document.querySelector('#panel .s0-person[data-seat="p3"]').textContent));
  assert.match(await gm.textContent('#panel .s0-person[data-seat="p3"]'), /handed in/);
  await gm.click('#panel .s0-person[data-seat="p3"] .s0-sendback-box > summary');
  await gm.fill('#panel .s0-person[data-seat="p3"] textarea', 'Give Cy a goal for this story.');
  await act(gm, '#panel .s0-person[data-seat="p3"] button[data-action="send-back"]');
  await cy.waitForFunction(() => /Give Cy a goal/.test(document.getElementById('panel').textContent));
  await cy.fill(`${SHEET} [data-input="goal"]`, 'Find the thief before the GM does');
  await cy.waitForFunction((s) => /follows the rules/.test(document.querySelector(s + ' .kit-summary').textContent), SHEET);
  await act(cy, `${SHEET} button[data-action="hand-in"]`);
  await gm.waitForFunction(() => document.querySelector('#panel button[data-action="start-play"]').textContent === 'Start play');
  await gm.click('#panel button[data-action="start-play"]');
  await gm.waitForSelector('dialog#confirm[open]');
  await gm.click('#confirm-yes');
  // Play begins with the three characters.
  await gm.waitForFunction(() => !document.querySelector('#panel .s0'));
  for (const name of ['Ada', 'Bo', 'Cy']) await gm.waitForSelector(`#panel .it-char[data-character="${name}"]`);
  await cy.waitForFunction(() => !document.querySelector('#panel .s0') && /Cy/.test(document.getElementById('panel').textContent));
  await shotsBoth(cy, 's0-ready-made-cy-plays');
  await assertNoRawTokens(gm, 'the GM page after a ready-made session zero');
});

test('a character made during play goes through the GM too: handed in, sent back, kept', async () => {
  // Issue 38: a player joining by invite whose seat has no character made one that joined at
  // once. A setup file seats Bo's player without a character, so the table starts in play.
  const ada = {
    name: 'Ada', controller: 'p1', energy: { defend: 3, grapple: 2, attack: 5 },
    backgrounds: [{ name: 'Detective', points: 2 }, { name: 'Disgraced hockey player', points: 1 }],
    belief: 'Everyone lies', flaw: 'Temper', goal: 'Find the thief',
    moves: [{ move: 'D-M', name: 'Philly Shell' }, { move: 'G-L', name: 'Trip' }, { move: 'A-H', name: 'Overhand Right' }],
  };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'clash-setup-')), 'harbour.json');
  const brute = {
    name: 'Brute', controller: 'gm', established: true, level: 1, energy: { defend: 2, grapple: 3, attack: 3 },
    moves: [{ move: 'D-M', name: 'Guard' }, { move: 'G-L', name: 'Sweep' }, { move: 'A-H', name: 'Overhand' }],
  };
  writeFileSync(file, JSON.stringify({ clash: 'setup', ruleset: 'iron-triangle', title: 'Harbour, later', setup: { players: ['p1', 'p2'], characters: [ada, brute] } }));
  const gm = await person(browser);
  await gm.goto(BASE + '/');
  await gm.click('#from-file > summary');
  const [chooser] = await Promise.all([gm.waitForEvent('filechooser'), gm.click('#file-pick')]);
  await Promise.all([gm.waitForURL(/\/t\//), chooser.setFiles(file)]);
  await gm.waitForSelector('#panel .it-char[data-character="Ada"]');

  const bo = await person(browser, PHONE);
  await join(bo, await inviteFor(gm, 'p2'));
  await bo.click('#panel button[data-action="create-character"]');
  const dialog = 'dialog[data-dialog="it-create-p2"]';
  await bo.waitForSelector(`${dialog}[open]`);
  await fillIronTriangle(bo, {
    name: 'Bo', backgrounds: ['Dock worker', 'Street boxer'],
    belief: 'Family first', flaw: 'Reckless', goal: 'Protect the docks',
    moves: { 'D-M': 'Cover Up', 'G-L': 'Sweep', 'A-H': 'Hook' },
  }, dialog);
  await bo.waitForFunction((d) => /follows the rules/.test(document.querySelector(d + ' .kit-summary').textContent), dialog);
  await act(bo, `${dialog} button[data-action="submit-sheet"]`);
  // Handed in, not at the table: the GM is asked to keep it or send it back.
  const review = '#panel [data-control="handed:p2"]';
  await gm.waitForSelector(review);
  assert.equal(await gm.$('#panel .it-char[data-character="Bo"]'), null, 'Bo does not play before the GM keeps him');
  assert.match(await gm.textContent(review), /Bo, handed in by .*Protect the docks/s);
  await waitForBanner(gm, /^Your move/);
  assert.match(await bo.textContent('#panel'), /With the GM/);
  await shotsBoth(gm, 's0-in-play-handed-in');
  // A conflict started now would go on without Bo's player: the page asks first.
  const start = '#panel [data-control="g:start_conflict"]';
  await gm.fill(`${start} input[type=text]`, 'The stolen ledger');
  await gm.check(`${start} label:has-text("Brute") input`);
  await gm.click(`${start} button:has-text("Start a conflict")`);
  await gm.waitForSelector('dialog#confirm[open]');
  assert.equal(await gm.textContent('#confirm-text'), 'Start the conflict without the second player, who has no character yet? They sit it out.');
  await gm.click('dialog#confirm button[value="no"]');
  await gm.fill(`${review} input[aria-label="What to change"]`, 'Give Bo a goal for this story.');
  await act(gm, `${review} button:has-text("Send back")`);
  assert.match(await gm.textContent('#log'), /The second player hands in Bo for the GM to keep or send back\./);
  await bo.waitForFunction(() => /The GM sends Bo back to .*Give Bo a goal/.test(document.getElementById('log').textContent));
  await gm.waitForFunction(() => !document.querySelector('#panel [data-control="handed:p2"]'));

  // Bo's player makes him again with another goal and hands him in; the GM keeps him.
  await bo.click('#panel button[data-action="create-character"]');
  await bo.waitForSelector(`${dialog}[open]`);
  await fillIronTriangle(bo, {
    name: 'Bo', backgrounds: ['Dock worker', 'Street boxer'],
    belief: 'Family first', flaw: 'Reckless', goal: 'Win the harbour title',
    moves: { 'D-M': 'Cover Up', 'G-L': 'Sweep', 'A-H': 'Hook' },
  }, dialog);
  await bo.waitForFunction((d) => /follows the rules/.test(document.querySelector(d + ' .kit-summary').textContent), dialog);
  await act(bo, `${dialog} button[data-action="submit-sheet"]`);
  await gm.waitForSelector(review);
  await act(gm, `${review} button:has-text("Keep Bo")`);
  await gm.waitForSelector('#panel .it-char[data-character="Bo"]');
  await bo.waitForSelector('#panel .it-char[data-character="Bo"]');
  assert.match(await gm.textContent('#panel .it-char[data-character="Bo"]'), /Win the harbour title/);
  await shotsBoth(bo, 's0-in-play-kept');
  await assertNoRawTokens(gm, 'the GM page after keeping a character made in play');
});
