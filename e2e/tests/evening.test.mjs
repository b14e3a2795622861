// What every table does the same way, whatever its game (issue 29), shown on an Iron Triangle
// table played by keyboard alone: who may act when any one of several may, a refusal beside
// its control that goes once the table moves on, a rule ID as a small link to that rule, text
// over its limit refused and counted (never cut), a second tab's stale action, a reused invite,
// a seat moved to another device with its player's secret stance, the live region (which always
// says what the banner says), the keyboard's focus kept on its control through every redraw,
// the banner kept small and clear of what a player types, and every control locked once the
// table is archived or ended. Every page state passes `checkPage`
// (banned words, axe-core) through the helpers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, checkPage, focused, DESKTOP, LAPTOP, PHONE } from '../lib.mjs';
import { banner, waitForBanner, shotsBoth, axNodesWhen, assertAnnouncerSaysBanner, bannerHeight, assertNotCovered } from '../room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Press Tab until `locator` holds the focus, as a keyboard reaches it (fails if it never does). */
async function tabTo(page, locator) {
  await locator.first().waitFor();
  for (let i = 0; i < 400; i++) {
    if (await locator.first().evaluate((e) => e === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail('the keyboard never reaches ' + locator);
}

/** Reach a control by Tab and press `key` on it; when `moves`, wait for the table to move on. */
async function press(page, locator, { key = 'Enter', moves = true } = {}) {
  const before = Number(await page.evaluate(() => document.body.dataset.events || 0));
  await tabTo(page, locator);
  await page.keyboard.press(key);
  if (!moves) return;
  await page.waitForFunction((n) => Number(document.body.dataset.events || 0) > n
    || [...document.querySelectorAll('#panel .error')].some((e) => e.textContent !== ''), before);
  const errors = await page.$$eval('#panel .error', (es) => es.map((e) => e.textContent).filter(Boolean));
  if (errors.length) assert.fail(locator + ' was refused: ' + errors.join(' | '));
  await checkPage(page);
}

/** Reach a text field by Tab and type into it. */
async function typeInto(page, locator, text) {
  await tabTo(page, locator);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

const panelOf = (page) => page.locator('#panel');

test('the shared mechanism of a table, with one Iron Triangle conflict played by keyboard alone', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Two players (Ada, Bo)', 'An evening without friction');
  const adaLink = await invite(gm, 'p1');
  const boLink = await invite(gm, 'p2');
  const ada = await person(browser);
  const bo = await person(browser, PHONE);
  await join(ada, adaLink);
  await join(bo, boLink);

  // A reused invite says what happened and what to do, instead of "not valid".
  const stranger = await person(browser);
  await stranger.goto(adaLink);
  assert.match(await stranger.textContent('h2'), /This invite was already used/);
  assert.match(await stranger.textContent('main'), /already opened on another device.*ask the GM for a new link/s);
  await checkPage(stranger);
  await stranger.close();

  // Text over a limit is counted and refused with the reason, and stays as typed.
  const long = 'x'.repeat(501);
  await typeInto(ada, ada.locator('#chat-text'), long);
  assert.match(await ada.textContent('#chat .count.over'), /501 \/ 500: 1 too many/);
  await ada.keyboard.press('Enter');
  await ada.waitForFunction(() => document.getElementById('chat-error').textContent !== '');
  assert.match(await ada.textContent('#chat-error'), /501 characters long: the most is 500/);
  assert.equal((await ada.inputValue('#chat-text')).length, 501, 'nothing is cut');
  await typeInto(ada, ada.locator('#chat-text'), 'Ready when you are');
  await ada.keyboard.press('Enter');
  await ada.waitForFunction(() => document.getElementById('chat-error').textContent === '');

  // A refusal sits beside the control that caused it, with its rule as a small link that opens
  // that rule; it goes once the table moves on.
  const rename = panelOf(ada).locator('[data-control="rename"]');
  await press(ada, rename.locator('button'), { moves: false });
  await ada.waitForSelector('#panel [data-control="rename"] .error sup.rule-ref a');
  assert.doesNotMatch(await rename.locator('.error').textContent(), /\(IT-7\)/, 'the rule is a link, not brackets');
  await press(ada, rename.locator('.error sup.rule-ref a'), { moves: false });
  await ada.waitForSelector('dialog#rules-sheet[open] #rules-body .flash');
  assert.match(await ada.textContent('#rules-body .flash'), /IT-7/, 'the link opens the rule itself');
  // The rule lands below the sheet's bar, not under it.
  const [bar, rule] = await ada.evaluate(() => [document.querySelector('#rules-sheet .sheet-bar').getBoundingClientRect().bottom,
    document.querySelector('#rules-body .flash').getBoundingClientRect().top]);
  assert.ok(rule >= bar, 'the rule (at ' + rule + ' px) is under the sheet bar (to ' + bar + ' px)');
  await ada.keyboard.press('Escape');
  await ada.waitForFunction(() => !document.getElementById('rules-sheet').open);

  // Folds are named groups, their arrows left out of what a screen reader says.
  const tree = await axNodesWhen(ada, (t) => t.some((n) => n.role === 'group' && n.name.startsWith('Fair dice')));
  for (const fold of ['Log and table talk', 'Fair dice']) {
    assert.ok(tree.some((n) => n.role === 'group' && n.name.startsWith(fold)), 'the fold “' + fold + '” is a named group');
  }
  assert.ok(!tree.some((n) => /[▸▾]/.test(n.name)), 'no name carries a fold arrow');

  // The GM starts a minor conflict, by keyboard.
  const start = panelOf(gm).locator('[data-control="g:start_conflict"]');
  await typeInto(gm, start.locator('input[type=text]'), 'The ledger');
  await press(gm, start.locator('label:has-text("Minor") input'), { key: 'Space', moves: false });
  await press(gm, start.locator('button:has-text("Start a conflict")'));
  await ada.waitForFunction(() => document.querySelector('#panel [data-control="rename"] .error').textContent === '');
  // The GM's page keeps its own tools folded (the seats stay open while the GM hands out
  // invites): beside the board they take less than a desktop's two screens.
  await shotsBoth(gm, 'evening-gm-conflict');
  await gm.setViewportSize(DESKTOP);
  const tools = await gm.evaluate(() => {
    const cards = [...document.querySelector('.col-side').children].filter((c) => c.checkVisibility());
    return cards.at(-1).getBoundingClientRect().bottom - cards[0].getBoundingClientRect().top;
  });
  assert.ok(tools < 1800, 'the GM tools are ' + tools + ' px tall');

  // Ada's second tab stops following the table; what it sends after her first tab acted is
  // refused in words.
  const stale = await ada.context().newPage();
  await stale.route('**/stream**', (r) => r.abort());
  await stale.goto(ada.url());
  await stale.waitForSelector('#panel [data-control="g:join_conflict"] button:has-text("Ada")');
  await press(ada, panelOf(ada).locator('[data-control="g:join_conflict"] button:has-text("Ada")'));
  await stale.click('#panel [data-control="g:join_conflict"] button:has-text("Ada")');
  await stale.waitForFunction(() => /Already done in your other tab/.test(document.getElementById('main').textContent));
  await stale.close();
  await press(bo, panelOf(bo).locator('[data-control="g:join_conflict"] button:has-text("Bo")'));
  // On a short laptop Bo types a new name for a move, the field just under the banner: as the
  // others' moves come in under the banner, the field is never covered.
  await bo.setViewportSize(LAPTOP);
  await typeInto(bo, panelOf(bo).locator('[data-control="rename"] input'), 'Low Sweep');
  await bo.evaluate(() => {
    const f = document.querySelector('#panel [data-control="rename"] input');
    window.scrollBy(0, f.getBoundingClientRect().top - document.getElementById('turn').getBoundingClientRect().bottom - 2);
  });
  const boSeen = Number(await bo.evaluate(() => document.body.dataset.events));

  // Either player may pick who fights first: each is told so, and once Ada has, Bo sees it.
  await waitForBanner(bo, /^Any of you may act now: Ada or Bo; the first to do so decides/);
  await waitForBanner(ada, /^Any of you may act now/);
  assert.match(await ada.textContent('#announcer'), /Any of you may act now/, 'told to a screen reader');
  await press(ada, panelOf(ada).locator('[data-control="g:pick_active"] button:has-text("Ada")'));
  await bo.waitForFunction(() => !/Any of you/.test(document.getElementById('turn-text').textContent));
  assert.equal(await bo.locator('#panel [data-control="g:pick_active"] button').count(), 0, 'no second pick for Bo');
  // The live region follows the banner: it no longer says anyone may act.
  await assertAnnouncerSaysBanner(bo, 'Bo, once Ada picked');
  await press(ada, panelOf(ada).locator('[data-control="g:pick_opponent"] button:has-text("Brute")'));
  await bo.waitForFunction((n) => Number(document.body.dataset.events) > n + 1, boSeen);
  assert.match(await focused(bo), /^input/, 'Bo is still typing in the field');
  assert.equal(await bo.inputValue('#panel [data-control="rename"] input'), 'Low Sweep');
  await assertNotCovered(bo, '#panel [data-control="rename"] input', 'Bo typing on a laptop');
  await assertAnnouncerSaysBanner(bo, 'Bo, once Ada picked Brute');
  await bo.setViewportSize(PHONE);
  // A player's focus stays on the control it is on while the others play: Bo's on Rename.
  await tabTo(bo, panelOf(bo).locator('[data-control="rename"] button'));

  // Secret stances; then Ada moves her seat to her other device, her stance going with her.
  await press(ada, panelOf(ada).locator('button[data-stance="attack"]'), { moves: false });
  // A tap that only changes the board (the stance chosen) keeps the focus on the tile tapped.
  assert.match(await focused(ada), /^button \[stance=attack\]/, 'the focus stays on the stance tapped');
  await press(ada, panelOf(ada).locator('button:has-text("Take the stance in secret")'));
  assert.notEqual(await focused(ada), 'body', 'the focus goes to what the stance brought, not the page body');
  await press(ada, ada.locator('#move-card > summary'), { moves: false });
  await press(ada, ada.locator('#move-make'), { moves: false });
  await ada.waitForSelector('#move-link-box:not([hidden])');
  const moveLink = await ada.inputValue('#move-link');
  // Copying says so, on the button and to a screen reader.
  await press(ada, ada.locator('#move-copy'), { moves: false });
  await ada.waitForFunction(() => /Copied/.test(document.getElementById('move-copy').textContent));
  assert.match(await ada.textContent('#move-card .copied'), /copied|selected/);
  const adaPhone = await person(browser, PHONE);
  await adaPhone.goto(moveLink);
  await adaPhone.waitForSelector('#status.live');
  await ada.waitForSelector('text=Your seat has moved to another device');
  await checkPage(ada);
  await ada.close();
  await adaPhone.waitForSelector('#panel .it-duel [data-participant="Ada"]');
  assert.match(await adaPhone.textContent('#panel .it-duel [data-participant="Ada"]'), /Attack/, 'her secret stance moved with her');
  await press(gm, panelOf(gm).locator('button[data-stance="defend"]'), { moves: false });
  await press(gm, panelOf(gm).locator('button:has-text("Take the stance in secret")'));
  assert.match(await focused(bo), /^button .*Rename/, 'Bo kept the focus through the others’ moves');

  // Secret moves, revealed together; the reveal is told to a screen reader.
  await press(adaPhone, panelOf(adaPhone).locator('button.kit-tile[data-move="A-H"]'), { moves: false });
  await press(adaPhone, panelOf(adaPhone).locator('button:has-text("in secret")'));
  await press(gm, panelOf(gm).locator('button.kit-tile[data-move="A-L"]'), { moves: false });
  await press(gm, panelOf(gm).locator('button:has-text("in secret")'));
  await bo.waitForFunction(() => /Ada loses 4/.test(document.getElementById('log').textContent));
  // "Since your last move" is what the others did and what the move brought out, never the
  // GM's own move.
  await gm.waitForFunction(() => /Moves are revealed/.test(document.getElementById('just').textContent));
  assert.match(await gm.textContent('#just-label'), /Since your last move/);
  assert.doesNotMatch(await gm.textContent('#just-lines'), /Brute secretly commits/);
  await adaPhone.waitForSelector('#panel [data-control="split_loss:Ada"]');
  // On the phone the last result stays in sight, in the banner, above the control reached next.
  assert.match(await adaPhone.textContent('#just'), /\S/);
  await tabTo(adaPhone, panelOf(adaPhone).locator('[data-control="split_loss:Ada"] button:not([disabled])'));
  const [just, next] = await adaPhone.evaluate(() => [document.getElementById('just').getBoundingClientRect(),
    document.activeElement.getBoundingClientRect()]);
  assert.ok(just.top >= 0 && just.bottom <= next.top, 'the result is in sight above the control: ' + JSON.stringify([just, next]));
  await shotsBoth(adaPhone, 'evening-ada-moved-split');
  // The banner with three lines of news stays small: folded to the newest on a phone and a
  // short laptop, and never more than a sixth of a desktop.
  for (const [size, most] of [[PHONE, 110], [LAPTOP, 110], [DESKTOP, 150]]) {
    await adaPhone.setViewportSize(size);
    await adaPhone.waitForTimeout(100);
    const tall = await bannerHeight(adaPhone);
    assert.ok(tall <= most, 'the banner is ' + Math.round(tall) + ' px tall at ' + size.width + '×' + size.height);
  }
  await adaPhone.setViewportSize(PHONE);
  // Its folded lines unfold on a tap, and fold again.
  await press(adaPhone, adaPhone.locator('#just-more'), { moves: false });
  assert.equal(await adaPhone.getAttribute('#just-more', 'aria-expanded'), 'true');
  assert.equal(await adaPhone.locator('#just-lines li').evaluateAll((lis) => lis.filter((li) => li.checkVisibility()).length), 3);
  await shotsBoth(adaPhone, 'evening-ada-banner-unfolded');
  await adaPhone.click('#just-more');
  await press(adaPhone, panelOf(adaPhone).locator('button:has-text("Pay these")'));

  // The GM tells how it ends.
  const narrate = panelOf(gm).locator('[data-control="g:narrate_conflict"]');
  await typeInto(gm, narrate.locator('input[type=text]'), 'Brute keeps the ledger.');
  await press(gm, narrate.locator('button'));
  await bo.waitForFunction(() => /Brute keeps the ledger/.test(document.getElementById('panel').textContent));

  // Archived: no moves and no talk, said in words a player understands.
  await gm.click('#manage-card > summary');
  await gm.click('#archive');
  await waitForBanner(bo, /archived/);
  assert.match(await bo.textContent('#chat-readonly'), /The GM has archived this table: talk goes on when it is brought back/);
  await assertLocked(bo);
  await gm.click('#archive');
  await bo.waitForFunction(() => !document.body.classList.contains('table-closed'));

  // Ended: every control locks, and nobody's tab says it is their move.
  await gm.click('#close-table');
  await gm.click('#confirm-yes');
  for (const page of [gm, adaPhone, bo]) {
    await waitForBanner(page, /ended|Game over/);
    await assertLocked(page);
  }
  await shotsBoth(bo, 'evening-bo-ended');
  await shotsBoth(gm, 'evening-gm-ended');
});

/** Nothing on the board or in the list of moves can be pressed, and the tab's title does not
 *  say "Your move". */
async function assertLocked(page) {
  await page.waitForFunction(() => document.body.classList.contains('table-closed'));
  const live = await page.$$eval('#panel button, #panel input, #panel select, #panel textarea, #legal button',
    (cs) => cs.filter((c) => !c.disabled && !c.closest('[data-stays-open]') && c.checkVisibility()).map((c) => c.outerHTML.slice(0, 120)));
  assert.deepEqual(live, [], 'no live control on a closed table');
  assert.doesNotMatch(await page.title(), /Your move/);
  assert.doesNotMatch(await banner(page), /Your move|Your turn/);
  await checkPage(page);
}
