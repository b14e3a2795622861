// An N-Dimensional Tourists round to its result, then a concession: the GM and three players (one
// on a phone), each in their own browser, bidding from the deck, covering with a card from the
// hand, letting cards stand and spending Losses, all by tapping cards. And an evening's rounds
// where each party is asked only to save its own cards (issue 38): fewer taps than bids.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, shots, act, panelText, assertReadable, checkPage, focused, PHONE, LAPTOP, DESKTOP } from '../../../e2e/lib.mjs';
import { spectatorLink, assertNoRawTokens, assertLogReadable, shotsBoth, banner, axNodesWhen, bannerHeight } from '../../../e2e/room.mjs';
import { assertNoBannedWords } from '../../../e2e/words.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Do the step this page is asked for in the bidding; false when it has none. */
async function bidStep(page, state) {
  const has = (sel) => page.$(sel).then((x) => !!x);
  if (await has('#panel [data-control^="bid:"] .kit-odds')) {
    // Odds in play: the bidder sees its chance to beat the cards already down.
    assert.match(await page.textContent('#panel [data-control^="bid:"] .kit-odds'), /Chance your next draw beats.*%/s);
    if (!state.odds) await shots(page, 'ndt-bid-odds');
    state.odds = true;
  }
  if (await has('#panel [data-control="spend"] button.kit-tile')) {
    await act(page, '#panel [data-control="spend"] button.kit-tile');
    return true;
  }
  if (await has('#panel [data-control^="bid:"] button.ndt-draw')) {
    await act(page, '#panel [data-control^="bid:"] button.ndt-draw');
    return true;
  }
  if (state.cover && !state.covered && (await has('#panel [data-control^="cover:"] button.kit-tile[data-card]'))) {
    // Cover the card just placed with one from the hand: tap the card, then choose among the
    // traits the rules allow (the drawer's, named), never typed in blind.
    const cover = '#panel [data-control^="cover:"]';
    const traits = await page.$$eval(`${cover} select[aria-label="The trait your narration rests on"] option`, (os) => os.map((o) => o.textContent));
    assert.ok(traits.length > 0 && traits.every((t) => /(Aspect|Weakness) “.+”|Loss card /.test(t)), 'the traits to rest on: ' + traits.join(' | '));
    assert.equal(await page.locator(`${cover} input[type=text], ${cover} input[type=checkbox]`).count(), 0, 'no trait to type, no tick to set');
    await page.locator('#panel [data-control^="cover:"] button.kit-tile[data-card]').first().click();
    assert.match(await focused(page), /^button \[.*card=/, 'the focus stays on the card tapped');
    await shots(page, 'ndt-gm-cover-chosen');
    await act(page, '#panel [data-control^="cover:"] button.kit-go');
    // A cover keeps its name readable: the mark "cover" is written under the card, not over it.
    await page.waitForSelector('#panel .ndt-slot:has(.ndt-card.cover) .ndt-marks');
    assert.equal(await page.locator('#panel .ndt-card.cover .ndt-marks').count(), 0);
    assert.ok(await page.locator('#panel .ndt-slot:has(.ndt-card.cover) .ndt-fig').first().isVisible(), 'the covered card shows its name');
    await shots(page, 'ndt-gm-covered');
    state.covered = true;
    return true;
  }
  if (state.covered && !state.quiet && (await has('#panel [data-control="window"] button:has-text("and every card this round")'))) {
    // Having covered once, the GM stops being asked: one tap lets this card and every later
    // one of the round stand.
    await act(page, '#panel [data-control="window"] button:has-text("and every card this round")');
    state.quiet = true;
    return true;
  }
  if (await has('#panel [data-control="window"] button:has-text("Let it stand")')) {
    await act(page, '#panel [data-control="window"] button:has-text("Let it stand")');
    state.stands = (state.stands || 0) + 1;
    return true;
  }
  return false;
}

test('GM and three players bid, cover and concede in N-Dimensional Tourists by tapping cards', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Four sides, balanced', 'Tourists e2e');
  const p1 = await person(browser);
  const p2 = await person(browser);
  const p3 = await person(browser, PHONE);
  await join(p1, await invite(gm, 'p1'));
  await join(p2, await invite(gm, 'p2'));
  await join(p3, await invite(gm, 'p3'));
  // A spectator watches the whole evening.
  const watcher = await person(browser);
  await join(watcher, await spectatorLink(gm));

  await gm.waitForSelector('#panel .kit-odds-switch input');
  await gm.check('#panel .kit-odds-switch input');
  await act(gm, '#panel [data-control="start"] button');
  // The GM's party holds a Reserve: drawn as a hand of cards, each telling what it beats.
  await gm.waitForSelector('#panel .ndt-handbox .ndt-card');
  const first = gm.locator('#panel .ndt-handbox .ndt-card').first();
  await first.hover();
  assert.match(await gm.textContent('.kit-tip'), /beats|stalemate/);
  await shots(gm, 'ndt-gm-hand');
  // The players see how many cards the GM holds, never which.
  assert.equal(await p1.locator('#panel .ndt-handbox .ndt-card').count(), 0, 'TMDF holds no card back');
  for (const page of [p1, p2, p3]) assert.doesNotMatch(await panelText(page), new RegExp(await first.getAttribute('data-card') + ' '), 'the GM\'s hand is hidden');

  // Each party may choose when it is asked to react: the choice is on its board all round.
  // Asked only to save its own cards by default (issue 38), a party may ask to be asked at
  // every chance, and then never to reject.
  await p2.waitForSelector('#panel [data-control^="auto:"] button.ndt-flip');
  assert.match(await p2.textContent('#panel [data-control^="auto:"]'), /only when a card of yours is reversed.*No reactions this round.*Ask me at every chance/s);
  await act(p2, '#panel [data-control^="auto:"] button.ndt-flip:has-text("Ask me at every chance")');
  await act(p2, '#panel [data-control^="auto:"] button.ndt-flip:has-text("never to reject")');
  await p2.waitForSelector('#panel [data-control^="auto:"] button.ndt-flip.on:has-text("never to reject")');
  // The GM wants to cover other parties' cards: asked at every chance.
  await act(gm, '#panel [data-control^="auto:"] button.ndt-flip:has-text("Ask me at every chance")');

  // Bid until the round ends: whoever is asked acts; the GM covers one card from the hand,
  // then lets every later card of the round stand in one tap.
  const state = { cover: true, covered: false };
  for (let i = 0; i < 120; i++) {
    if (await gm.$('#panel [data-control="round-end"]')) break;
    let acted = false;
    for (const page of [gm, p1, p2, p3]) if (await bidStep(page, state)) { acted = true; break; }
    if (!acted) await gm.waitForTimeout(200);
    if (i === 2) await shots(p3, 'ndt-p3-phone-bidding');
  }
  await gm.waitForSelector('#panel [data-control="round-end"]');
  assert.ok(state.covered, 'the GM covered a card from the hand');
  assert.ok(state.quiet, 'the GM stopped being asked for the rest of the round');
  // The log folds the chances nobody took into one line a card, and names no refusal to react.
  const log = (await gm.$$eval('#log li', (lis) => lis.map((li) => li.textContent))).join('\n');
  assert.match(log, /Nobody reacts to \S+ /);
  assert.match(log, /lets every card stand for the rest of this round/);
  assert.doesNotMatch(log, /does not (reject|turn|cover)/);
  assert.ok(state.odds, 'a bidder saw the odds of its next draw');
  for (const page of [gm, p1, p2, p3]) {
    await page.waitForFunction(() => /Round won by/.test(document.querySelector('#panel').textContent));
    assert.ok(await page.locator('#panel .ndt-parties .ndt-card').count() >= 4, 'bid lines drawn as cards');
    await assertReadable(page);
  }
  await shots(gm, 'ndt-gm-round-result');
  await shots(p1, 'ndt-p1-round-result');
  await shots(p3, 'ndt-p3-phone-round-result');
  // To a screen reader a bid line is a list of named cards, not loose glyphs.
  const tree = await axNodesWhen(p1, (t) => t.some((n) => n.role === 'list' && /’s bid line$/.test(n.name)));
  assert.ok(tree.some((n) => n.role === 'list' && /’s bid line$/.test(n.name)), 'bid lines are named lists');
  const cards = tree.filter((n) => (n.role === 'img' || n.role === 'image') && /, (upright|reversed)$/.test(n.name));
  assert.ok(cards.length >= 4, 'cards are named pictures: ' + cards.map((n) => n.name).join(' | '));
  const glyphs = tree.filter((n) => !['StaticText', 'InlineTextBox'].includes(n.role) && /[⚔⬢∿▤↑↓]/.test(n.name));
  assert.deepEqual(glyphs, [], 'no control or item is named by its glyphs');
  // A phone shows the whole board in about one and a half screens.
  const tall = await p3.evaluate(() => document.querySelector('#panel').getBoundingClientRect().height);
  assert.ok(tall < 844 * 1.6, 'the phone board is ' + Math.round(tall) + ' px tall');

  // A party that took a Loss may choose which cards mark it, by tapping them.
  for (const page of [p1, p2, p3]) {
    const keep = await page.$('#panel [data-control^="keep:"]');
    if (!keep) continue;
    assert.ok(await page.locator('#panel [data-control^="keep:"] button.kit-tile[aria-pressed="true"]').count() >= 1);
    await shots(page, 'ndt-keep-loss-cards');
    break;
  }

  // Conceding asks first, then takes the party out (ND-24).
  await p2.click('#panel [data-control^="concede:"] button:has-text("Concede")');
  assert.match(await p2.textContent('#panel [data-control^="concede:"]'), /Leave the Conflict\?/);
  await act(p2, '#panel [data-control^="concede:"] button:has-text("Yes, concede")');
  for (const page of [gm, p1, p2, p3]) {
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /concede/i.test(li.textContent)));
  }
  await gm.waitForFunction(() => [...document.querySelectorAll('#panel .ndt-party')].some((p) => /^US/.test(p.textContent) && /conceded/.test(p.textContent)));
  await act(gm, '#panel [data-control="round-end"] button:has-text("Next round")');
  await gm.waitForFunction(() => /Round 2/.test(document.querySelector('#panel .ndt-summary').textContent));
  await shots(gm, 'ndt-gm-round-two');
  await shots(p2, 'ndt-p2-conceded');

  // Every page, the spectator's included, names everyone: no raw token on the page or in the
  // log; each is kept at desktop and phone size.
  for (const [name, page] of [['gm', gm], ['tmdf', p1], ['us', p2], ['ann', p3], ['spectator', watcher]]) {
    assert.doesNotMatch(await banner(page), /^$/);
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertNoBannedWords(page, 'the ' + name + ' page');
    await assertLogReadable(page);
    await shotsBoth(page, 'ndt-' + name + '-evening');
    // A Loss is marked by reversed cards, and the Loss line shows them that way up.
    for (const way of await page.$$eval('#panel .ndt-card.loss:not(.facedown)', (cs) => cs.map((c) => c.classList.contains('reversed')))) assert.ok(way, 'a Loss card lies reversed');
  }
});

/** The party a page speaks for, from its board. */
const partyOf = (page) => page.$eval('#panel [data-control^="auto:"]', (g) => g.dataset.control.slice('auto:'.length));

test('Tourists asks a party only to save its own cards: fewer taps than bids, and a quiet log', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Four sides, balanced', 'Tourists, a quiet evening');
  const pages = [gm];
  for (const [seat, size] of [['p1'], ['p2', { width: 1024, height: 640 }], ['p3', PHONE]]) {
    const page = await person(browser, size);
    await join(page, await invite(gm, seat));
    pages.push(page);
  }
  await act(gm, '#panel [data-control="start"] button');
  const parties = [];
  for (const page of pages) {
    await page.waitForSelector('#panel [data-control^="auto:"]');
    parties.push(await partyOf(page));
  }
  const bids = parties.map(() => 0);
  const taps = parties.map(() => 0);
  const thisRound = parties.map(() => 0);
  let round = 1;
  // Two rounds, each step done by whoever is asked (a party bids at most twice a round, then
  // passes); the window's heading names the drawer.
  for (let i = 0; i < 300; i++) {
    const summary = await gm.textContent('#panel .ndt-summary');
    if (/Round 3/.test(summary)) break;
    if (/Round 2/.test(summary) && round === 1) { round = 2; thisRound.fill(0); }
    let acted = false;
    for (const [k, page] of pages.entries()) {
      const has = (sel) => page.$(sel).then((x) => !!x);
      const pass = '#panel [data-control^="bid:"] button:has-text("Pass")';
      if (await has('#panel [data-control="spend"] button.kit-tile')) {
        await act(page, '#panel [data-control="spend"] button.kit-tile');
      } else if (thisRound[k] >= 2 && (await has(pass))) {
        await act(page, pass);
      } else if (await has('#panel [data-control^="bid:"] button.ndt-draw')) {
        await act(page, '#panel [data-control^="bid:"] button.ndt-draw');
        bids[k] += 1;
        thisRound[k] += 1;
      } else if (await has('#panel [data-control="window"] button:has-text("Let it stand")')) {
        const heading = await page.textContent('#panel [data-control="window"]');
        assert.ok(heading.startsWith(parties[k] + ' just placed'), parties[k] + ' was asked about another party\'s card: ' + heading);
        if (taps.every((t) => t === 0)) await shots(page, 'ndt-asked-own-card');
        await act(page, '#panel [data-control="window"] button:has-text("Let it stand")');
        taps[k] += 1;
      } else if (k === 0 && (await has('#panel [data-control="round-end"] button:has-text("Next round")'))) {
        await act(gm, '#panel [data-control="round-end"] button:has-text("Next round")');
      } else continue;
      acted = true;
      break;
    }
    if (!acted) await gm.waitForTimeout(200);
  }
  await gm.waitForFunction(() => /Round 3/.test(document.querySelector('#panel .ndt-summary').textContent));
  // A party is asked at most once for each card of its own (only a reversed one it could save),
  // so it never taps more than it bids; a party whose every card came up reversed taps as often
  // as it bids, so across the table the taps are fewer than the bids.
  for (const [k, party] of parties.entries()) {
    assert.ok(taps[k] <= bids[k], party + ': ' + taps[k] + ' taps for ' + bids[k] + ' bids');
  }
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  assert.ok(sum(taps) < sum(bids), sum(taps) + ' taps for ' + sum(bids) + ' bids at the table');
  // The log keeps a line for each tap at most: a card nobody was asked about adds none.
  const log = (await gm.$$eval('#log li', (lis) => lis.map((li) => li.textContent))).join('\n');
  const stands = (log.match(/Nobody (else )?reacts to|lets .+ stand\b/g) || []).length;
  assert.ok(stands <= taps.reduce((a, b) => a + b, 0), stands + ' "let it stand" lines for ' + taps + ' taps');
  for (const page of pages) await assertLogReadable(page);
  await shotsBoth(pages[2], 'ndt-quiet-evening');
});

// TMDF's card (Triumph XIX) was rejected: TMDF must spend a face-up Loss card (a Temporary XVI, a
// Lasting Loss with one of its three cards already spent). The Smugglers still draw their one card of this
// Balance-breaker.
const END = {
  parties: [
    { name: 'TMDF', seat: 'p1', goal: 'Save Tokyo', characters: [{ name: 'TMDF', attribute: { name: 'Paper', value: 5 }, aspects: ['Well-trained team'], weaknesses: ['Slow'] }] },
    { name: 'The Smugglers', seat: 'p2', goal: 'Get rich', characters: [{ name: 'The Smugglers', attribute: { name: 'Blades', value: 5 }, aspects: ['Fast boats'] }] },
  ],
  blanks: false,
  position: {
    round: 1, kind: 'balance_breaker', phase: 'bidding', control: 0, tokens: 0, turn: 'TMDF', passes: 0,
    window: 'TMDF', reacting: { step: 'reject', party: 'The Smugglers' }, rejection: 'The Smugglers', discard: [],
    parties: [
      { name: 'TMDF', status: 'in_play', bid_line: [{ card: 'XIX', reversed: false }], temporary: [{ card: 'XVI' }],
        lasting: [{ cards: [{ card: 'Blades Seeker', face_up: true }, { card: 'Paper Home', face_up: true }, { card: 'Serpent Lover', face_up: false }] }], characters: [] },
      { name: 'The Smugglers', status: 'in_play', bid_line: [], temporary: [], lasting: [], characters: [] },
    ],
  },
};

test('the end of a Tourists Conflict: a Loss spent as it lies, spent cards readable, every size', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Four sides, balanced', 'Tourists end', END);
  const tmdf = await person(browser, PHONE);
  const smugglers = await person(browser, LAPTOP);
  await join(tmdf, await invite(gm, 'p1'));
  await join(smugglers, await invite(gm, 'p2'));

  // The Loss cards to spend are drawn as they lie on the Loss line: reversed.
  await tmdf.waitForSelector('#panel [data-control="spend"] button.kit-tile');
  const ways = await tmdf.$$eval('#panel [data-control="spend"] .ndt-card', (cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.deepEqual(ways, ['Triumph XVI, reversed', 'Blades Seeker, reversed', 'Paper Home, reversed']);
  // On a phone a Triumph's name is never broken over two lines (the corner says "Triumph").
  assert.ok(await tmdf.locator('#panel .ndt-party .ndt-card.triumph[data-card="XIX"]').count(), 'a Triumph on a bid line');
  const broken = await tmdf.$$eval('#panel .ndt-card.triumph .ndt-corner, #panel .ndt-card.triumph .ndt-fig', (es) => es
    .filter((e) => e.checkVisibility())
    .filter((e) => e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight) || e.scrollWidth > e.clientWidth + 1)
    .map((e) => e.textContent));
  assert.deepEqual(broken, [], 'a Triumph card’s word fits');
  await shots(tmdf, 'ndt-end-spend-phone');
  await act(tmdf, '#panel [data-control="spend"] button[data-card="Blades Seeker"]');
  // The Smugglers let the rest of TMDF's turn stand and draw their card; nobody can react to it;
  // the round ends and they concede.
  await smugglers.waitForSelector('#panel [data-control="window"], #panel [data-control^="bid:"]');
  if (await smugglers.$('#panel [data-control="window"] button:has-text("Let it stand")')) {
    await act(smugglers, '#panel [data-control="window"] button:has-text("Let it stand") >> nth=0');
  }
  await act(smugglers, '#panel [data-control^="bid:"] button.ndt-draw');
  await smugglers.waitForSelector('#panel [data-control^="concede:"]');
  await smugglers.click('#panel [data-control^="concede:"] button:has-text("Concede")');
  await act(smugglers, '#panel [data-control^="concede:"] button:has-text("Yes, concede")');
  for (const page of [gm, tmdf, smugglers]) await page.waitForFunction(() => /TMDF wins the Conflict/.test(document.querySelector('#panel .ndt-summary').textContent));

  // The end: the spent Lasting cards lie face down and stay readable (axe finds nothing at any
  // size), and the banner's last line is never cut off, even 320 px wide.
  const spent = tmdf.locator('#panel .ndt-card.facedown');
  assert.equal(await spent.count(), 2, 'two spent Lasting cards');
  assert.match(await spent.first().getAttribute('aria-label'), /, spent \(face down\)$/);
  for (const [page, name] of [[tmdf, 'tmdf'], [smugglers, 'smugglers'], [gm, 'gm']]) {
    for (const [size, label] of [[DESKTOP, 'desktop'], [LAPTOP, 'laptop'], [PHONE, 'phone'], [{ width: 320, height: 640 }, 'narrow']]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(100);
      await checkPage(page, { where: name + ' at the end (' + label + ')' });
      const overflow = await page.evaluate(() => { const j = document.getElementById('just'); return j.scrollWidth - j.clientWidth; });
      assert.ok(overflow <= 1, name + ': the banner’s line runs ' + overflow + ' px past its edge at ' + label);
      assert.ok(await bannerHeight(page) <= 130, name + ': the banner is small at ' + label);
      await page.screenshot({ path: new URL('../../../e2e/artifacts/ndt-end-' + name + '-' + label + '.png', import.meta.url).pathname });
    }
  }
  // At 320 px the folded line unfolds whole.
  await tmdf.click('#just-more');
  const cut = await tmdf.$$eval('#just-lines li', (lis) => lis.filter((li) => li.scrollHeight > li.clientHeight + 1 || li.scrollWidth > li.clientWidth + 1).length);
  assert.equal(cut, 0, 'no line of the banner is cut once unfolded');
  await tmdf.screenshot({ path: new URL('../../../e2e/artifacts/ndt-end-tmdf-narrow-unfolded.png', import.meta.url).pathname });
  await shotsBoth(tmdf, 'ndt-end-tmdf');
});
