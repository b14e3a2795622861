// A Triforce turn to the end of the game, played by three people in three browsers (one on a
// phone) with the board alone: place by tapping home (from the keyboard), move by tap-and-tap,
// pick the fight on the board, swap pieces for a sword and a shield, and read the dice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, shots, events, act, panelText, assertReadable, checkPage, focused, BASE, PHONE, LAPTOP, DESKTOP } from '../../../e2e/lib.mjs';
import { spectatorLink, assertNoRawTokens, assertLogReadable, shotsBoth, banner, axNodes } from '../../../e2e/room.mjs';
import { assertNoBannedWords } from '../../../e2e/words.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Red is one move away from crowding stack 5, and the game ends after this turn (TF-30), so
// the fight decides the result. Red holds the bottom of 7 and 9; Green of 5 and 15.
const SETUP = {
  players: 3,
  turn_limit: 1,
  board: { 2: ['p1-S'], 5: ['p2-L', 'p1-M', 'p2-M'], 7: ['p1-L'], 9: ['p1-S'], 15: ['p2-M'], 11: ['p3-L'] },
};

test('three players play a Triforce turn and its fight on the board, to the end of the game', async () => {
  const organiser = await person(browser);
  await createTable(organiser, 'Triforce — Three players', 'Triforce e2e', SETUP);
  const links = {};
  for (const seat of ['p1', 'p2', 'p3']) links[seat] = await invite(organiser, seat);
  assert.equal(new Set(Object.values(links)).size, 3, 'one distinct link per seat');

  const p1 = await person(browser);
  const p2 = await person(browser);
  const p3 = await person(browser, PHONE);
  for (const [page, seat] of [[p1, 'p1'], [p2, 'p2'], [p3, 'p3']]) {
    await join(page, links[seat]);
    await page.waitForSelector('#panel svg.tf-board');
  }
  // A spectator watches the whole evening.
  const watcher = await person(browser);
  await join(watcher, await spectatorLink(organiser));

  // The organiser switches odds in play on (off by default): the fights will show their odds.
  await organiser.waitForSelector('#panel .kit-odds-switch input');
  await organiser.check('#panel .kit-odds-switch input');

  // Every stack shows every pyramid in it: stack 5 holds three pieces above its white.
  assert.equal(await p1.locator('#panel g[data-pos="5"] polygon').count(), 4, 'the white and three pieces');
  // The legend names the players and their colours; nobody reads a seat id.
  const legend = await p1.textContent('#panel .tf-legend');
  for (const name of ['Red', 'Green', 'Blue']) assert.match(legend, new RegExp(name));
  for (const page of [p1, p2, p3]) await assertReadable(page);
  assert.match(await p1.textContent('#panel .tf-hint'), /tap your home/);
  assert.match(await p2.textContent('#panel .tf-hint'), /Waiting for Red/);
  await shots(p1, 'triforce-p1-start');
  await shots(p3, 'triforce-p3-phone-start');

  // The whole board fits the screen under the banner, every home in sight, on a desktop, a
  // short laptop and a phone; the player's own row leads the legend.
  for (const [size, label] of [[LAPTOP, 'laptop'], [PHONE, 'phone'], [DESKTOP, 'desktop']]) {
    await p1.setViewportSize(size);
    await p1.evaluate(() => document.querySelector('#panel .tf-board-wrap').scrollIntoView());
    await p1.waitForTimeout(150);
    const fit = await p1.evaluate(() => {
      const top = document.getElementById('turn').getBoundingClientRect().bottom;
      const board = document.querySelector('#panel svg.tf-board').getBoundingClientRect();
      const homes = [...document.querySelectorAll('#panel g.tf-pos .ring.home')].map((r) => r.getBoundingClientRect());
      return { top, bottom: innerHeight, board: [board.top, board.bottom], homes: homes.map((h) => [h.top, h.bottom]) };
    });
    assert.ok(fit.board[0] >= fit.top - 1 && fit.board[1] <= fit.bottom + 1, label + ': the board is at ' + fit.board + ', the screen shows ' + [fit.top, fit.bottom]);
    assert.equal(fit.homes.length, 3);
    for (const [t, b] of fit.homes) assert.ok(t >= fit.top - 1 && b <= fit.bottom + 1, label + ': a home is out of sight');
    await p1.screenshot({ path: new URL('../../../e2e/artifacts/triforce-p1-board-' + label + '.png', import.meta.url).pathname });
  }
  assert.equal(await p1.getAttribute('#panel .tf-legend .tf-player:first-child', 'data-seat'), 'p1', 'Red reads its own row first');
  assert.equal(await p2.getAttribute('#panel .tf-legend .tf-player:first-child', 'data-seat'), 'p2', 'Green reads its own row first');
  // Stashes say their sizes to a screen reader, not "×5 ×5 ×5".
  assert.match(await p1.textContent('#panel .tf-legend .tf-player:first-child .tf-stash .sr-only'), /^stash: \d+ small, \d+ medium, \d+ large$/);
  assert.ok(!(await axNodes(p1)).some((n) => !['StaticText', 'InlineTextBox'].includes(n.role) && /×\d/.test(n.name)), 'no count without its size');

  // The board is one Tab stop: Tab reaches one stack (your home), the arrow keys move between
  // stacks, and Tab leaves the board.
  await p1.focus('#panel [data-control="place"] button.tf-place:last-of-type');
  await p1.keyboard.press('Tab');
  assert.match(await focused(p1), /^g \[pos=1\]/, 'Tab reaches Red’s home');
  await p1.keyboard.press('ArrowDown');
  assert.match(await focused(p1), /^g \[pos=2\]/);
  await p1.keyboard.press('ArrowRight');
  assert.match(await focused(p1), /^g \[pos=3\]/);
  await p1.keyboard.press('ArrowUp');
  assert.match(await focused(p1), /^g \[pos=1\]/);
  await p1.keyboard.press('Tab');
  assert.doesNotMatch(await focused(p1), /^g \[pos=/, 'one Tab leaves the board');
  await p1.keyboard.press('Shift+Tab');
  assert.match(await focused(p1), /^g \[pos=1\]/, 'Shift+Tab comes back to the same stack');

  // Place by tapping home, from the keyboard: home 1 takes only a small pyramid (TF-13, TF-14).
  await p1.focus('#panel g[data-pos="1"]');
  const placed = await events(p1);
  await p1.keyboard.press('Enter');
  await p1.waitForFunction((n) => Number(document.body.dataset.events || 0) > n, placed);
  assert.equal(await p1.locator('#panel g[data-pos="1"] polygon').count(), 2, 'the white and the new small pyramid');

  // Tap-and-tap: pick up the small piece on 2, see where it may go, put it on 5.
  await p1.click('#panel g[data-pos="2"]');
  const legal = await p1.$$eval('#panel g.legal', (gs) => gs.map((g) => Number(g.dataset.pos)).sort((a, b) => a - b));
  assert.ok(legal.includes(5) && !legal.includes(2), 'stack 5 is a legal destination: ' + legal);
  assert.match(await p1.textContent('#panel .tf-hint'), /picked up/);
  await shots(p1, 'triforce-p1-choosing-move');
  await act(p1, '#panel g[data-pos="5"]');
  await act(p1, '#panel button:has-text("End turn")');

  // Stack 5 is crowded: the hint says so, and Red picks the fight on the board.
  await p1.waitForSelector('#panel g.fight[data-pos="5"]');
  assert.match(await p1.textContent('#panel .tf-hint'), /pick a fight/);
  assert.match(await p2.textContent('#panel .tf-hint'), /Fights are due: Red picks/);
  await p1.waitForSelector('#panel [data-control="resolve"] .kit-odds');
  assert.match(await p1.textContent('#panel [data-control="resolve"] .kit-odds'), /Stack 5: Red loses \d+(\.\d)?%, Green loses/);
  await act(p1, '#panel g[data-pos="5"]');

  // Sword: Red gives up the medium piece (its highest stays on top).
  await p1.waitForSelector('#panel .tf-give');
  assert.match(await p1.textContent('#panel .tf-hint'), /take a sword/);
  await p1.waitForSelector('#panel [data-control="exchange"] .kit-odds');
  assert.match(await p1.textContent('#panel [data-control="exchange"] .kit-odds'), /With the sword you lose this fight \d+(\.\d)?% of the time; without it \d+(\.\d)?%/);
  await shots(p1, 'triforce-p1-sword');
  await act(p1, '#panel button.tf-give[data-level="2"]');

  // Shield: Green gives up its medium piece (its lowest stays at the bottom).
  await p2.waitForSelector('#panel .tf-give');
  assert.match(await p2.textContent('#panel .tf-hint'), /take a shield/);
  await shots(p2, 'triforce-p2-shield');
  await act(p2, '#panel button.tf-give[data-level="3"]');

  // The dice are rolled and shown on every screen: Red's two d12, Green's clear d20.
  for (const page of [p1, p2, p3, organiser]) {
    await page.waitForSelector('#panel .tf-battle');
    const fight = await page.textContent('#panel .tf-battle');
    assert.match(fight, /Fight at stack 5/);
    assert.match(fight, /Red with the sword/);
    assert.match(fight, /Green with the shield/);
    assert.equal(await page.locator('#panel .tf-battle .kit-die').count(), 3, 'own d12, black d12, clear d20');
    assert.match(fight, /loses the (sword|shield)/);
    // The turn limit has come: the game is over and the page says who won (TF-30).
    await page.waitForFunction(() => /Game over/.test(document.querySelector('#panel .tf-hint').textContent));
    assert.match(await panelText(page), /Game over: (Red|Green|Blue) wins/);
    await assertReadable(page);
  }
  await shots(p1, 'triforce-p1-result');
  await shots(p2, 'triforce-p2-result');
  await shots(p3, 'triforce-p3-phone-result');
  await shots(organiser, 'triforce-organiser-result');

  // Every page, the spectator's included, names everyone: no raw token on the page or in the
  // log; each is kept at desktop and phone size. Triforce has no GM: no page, log line or tool
  // calls anyone that, the organiser's own page included (the organiser hosts the table).
  for (const [name, page] of [['organiser', organiser], ['p1', p1], ['p2', p2], ['p3', p3], ['spectator', watcher]]) {
    const read = await page.evaluate(() => document.body.innerText + '\n' + document.getElementById('log').textContent);
    assert.doesNotMatch(read, /\bGM\b/, 'the ' + name + ' page speaks of a GM: ' + (/.{0,60}\bGM\b.{0,60}/.exec(read) || [''])[0]);
    assert.doesNotMatch(await banner(page), /^$/);
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertNoBannedWords(page, 'the ' + name + ' page', { triforce: true });
    await assertLogReadable(page);
    await shotsBoth(page, 'triforce-' + name + '-evening');
  }
});

// Red's home holds Red's medium piece, so a small or a large pyramid fits there; stack 6 is a tall
// stack of Green's with a sword on top, stack 8 a shield.
const BOARD = {
  players: 3,
  board: { 1: ['p1-M'], 6: ['p2-S', 'p2-M', 'p2-L', 'p2-M', 'K-S'], 8: ['C-M'] },
};

test('the Triforce board on a phone: tap home to place, see why a tap is refused, open a tall stack', async () => {
  const organiser = await person(browser);
  await createTable(organiser, 'Triforce — Three players', 'Triforce board', BOARD);
  const red = await person(browser, PHONE);
  const redInvite = await invite(organiser, 'p1');
  await join(red, redInvite);
  await red.waitForSelector('#panel svg.tf-board');
  // Back after opening the invite stays on the seat's page (the invite is spent: its page is the
  // only copy of the seat's link).
  const seatPage = red.url();
  await red.goBack();
  await red.waitForTimeout(200);
  assert.equal(red.url(), seatPage, 'Back keeps the seat’s page');
  // The invite opened again elsewhere says who to ask, by the game's own word: the host.
  const stranger = await person(browser);
  await stranger.goto(redInvite);
  assert.match(await stranger.textContent('main'), /ask the host for a new link/);
  assert.doesNotMatch(await stranger.textContent('main'), /\bGM\b/);
  await checkPage(stranger);
  await stranger.close();

  // The whole board fits the phone's screen.
  const box = await red.locator('#panel svg.tf-board').boundingBox();
  assert.ok(box.width <= PHONE.width && box.height <= PHONE.height, 'the board is ' + box.width + '×' + box.height);
  // Each colour carries a letter, and swords and shields are drawn shapes, never a font glyph.
  assert.equal(await red.textContent('#panel g[data-pos="1"] text.tf-letter'), 'R');
  assert.equal(await red.locator('#panel g[data-pos="6"] .tf-mark.sword').count(), 1);
  assert.equal(await red.locator('#panel g[data-pos="8"] .tf-mark.shield').count(), 1);
  assert.doesNotMatch(await red.textContent('#panel svg.tf-board'), /[⚔⛨]/);
  assert.match(await red.textContent('#panel .tf-legend'), /Red/);

  // Tapping home asks which size, since two fit (and the home's own top could move instead).
  const before = await events(red);
  await red.click('#panel g[data-pos="1"]');
  await red.waitForSelector('#panel .tf-tapbar [data-control="home"]');
  assert.equal(await events(red), before, 'nothing is placed before the size is chosen');
  const sizes = await red.$$eval('#panel .tf-tapbar button.tf-place', (bs) => bs.map((b) => b.dataset.size));
  assert.deepEqual(sizes, ['S', 'L']);
  // Red's medium on its home cannot move (stacks 2 and 3 show a small and a large white), so
  // the chooser offers sizes only.
  assert.doesNotMatch(await red.textContent('#panel .tf-tapbar'), /Move the top piece instead/);
  await shots(red, 'triforce-home-sizes');
  await act(red, '#panel .tf-tapbar button.tf-place[data-size="L"]');
  assert.equal(await red.locator('#panel g[data-pos="1"] polygon').count(), 3, 'the white, the medium and the new large');

  // Pick up the large piece and tap a stack it cannot reach: the board says why, with sizes.
  // The large piece can go to stack 3 (a large white): when a size could still be placed, the
  // chooser offers to move the top piece instead; else the tap picks it up at once.
  await red.click('#panel g[data-pos="1"]');
  const instead = '#panel .tf-tapbar button:has-text("Move the top piece instead")';
  if (await red.$(instead)) await red.click(instead);
  await red.waitForSelector('#panel g.legal');
  const legal = await red.$$eval('#panel g.legal', (gs) => gs.map((g) => Number(g.dataset.pos)));
  const refused = [2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15].find((n) => !legal.includes(n));
  await red.click(`#panel g[data-pos="${refused}"]`);
  await red.waitForSelector('#panel .tf-refused');
  assert.match(await red.textContent('#panel .tf-refused'), /Your large piece cannot (go|get) to \d+: .*(small|medium|large)/);
  await shots(red, 'triforce-refused-tap');
  await red.click('#panel g[data-pos="1"]');

  // A tall stack opens when tapped: every piece, bottom first, in words.
  await red.click('#panel g[data-pos="6"]');
  await red.waitForSelector('#panel .tf-stack-box');
  const opened = await red.textContent('#panel .tf-stack-box');
  assert.match(opened, /Stack 6, from the bottom/);
  assert.equal(await red.locator('#panel .tf-stack-box .tf-piece').count(), 6, 'the white and five pyramids');
  assert.match(opened, /small sword/);
  await shots(red, 'triforce-tall-stack');
  await assertNoBannedWords(red, 'Red\'s phone', { triforce: true });
  await assertNoBannedWords(organiser, 'the organiser\'s page', { triforce: true });
  await shotsBoth(red, 'triforce-board-phone');
});

test('the lobby offers a Triforce turn limit by default: 30 turns a player', async () => {
  // Issue 38: a game whose stacks hold steady ran 326 turns; the form ends it after 30 turns
  // for each player unless the host unticks the limit (TF-30, crates/triforce/rules.md).
  const host = await person(browser);
  await host.goto(BASE + '/');
  await host.click('#by-form button.game-pick[data-game="triforce"]');
  const limit = '#by-form [data-field="options.turn_limit"]';
  await host.waitForSelector(limit);
  assert.ok(await host.isChecked(`${limit} input[type=checkbox]`), 'the limit is on');
  assert.equal(await host.textContent(`${limit} [data-stepper="Turns"] output`), '90');
  assert.match(await host.textContent(limit), /scored as a deadlock/);
  await host.click('#by-form button[aria-label="more Players"]');
  assert.equal(await host.textContent(`${limit} [data-stepper="Turns"] output`), '120');
  await shotsBoth(host, 'tf-lobby-turn-limit');
  await host.waitForFunction(() => !document.getElementById('create-by-form').disabled);
  await Promise.all([host.waitForURL(/\/t\//), host.click('#create-by-form')]);
  await host.waitForSelector('#status.live');
  const setup = await host.evaluate(async () => {
    const boot = JSON.parse(document.getElementById('boot').textContent);
    return fetch('/api/tables/' + boot.table + '/setup?key=' + boot.key).then((r) => r.json());
  });
  assert.equal(JSON.stringify(setup).match(/"turn_limit":(\d+)/)[1], '120');
});
