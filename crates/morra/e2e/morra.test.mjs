// Morra, the example game, in the browser: a server without examples keeps it out of its lobby
// and API; with examples (e2e/run.sh starts its server so), a person plays rounds against a
// seated strong bot on the board, at desktop and at phone size, with odds in play on, and the
// bot's hand stays face down until hers is in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, launch, person, createTable, invite, join, act, assertReadable, shots } from '../../../e2e/lib.mjs';
import { ownServer, assertNoRawTokens, assertLogReadable, shotsBoth, waitForLine, lines } from '../../../e2e/room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function rulesetIds(base) {
  const r = await fetch(base + '/api/rulesets');
  assert.equal(r.status, 200);
  return (await r.json()).rulesets.map((x) => x.id);
}

test('a server started without examples keeps Morra out of its lobby and API', async () => {
  const own = await ownServer();
  try {
    const ids = await rulesetIds(own.url);
    assert.ok(ids.includes('triforce') && !ids.includes('morra'), 'listed: ' + ids);
    const lobby = await (await fetch(own.url + '/')).text();
    assert.doesNotMatch(lobby, /Morra/);
    const r = await fetch(own.url + '/api/tables', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ruleset: 'morra' }),
    });
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.message, /^unknown ruleset "morra"; this server has: .*triforce/);
  } finally {
    await own.dispose();
  }
  // The test server runs with --examples: there it is offered.
  assert.ok((await rulesetIds(BASE)).includes('morra'));
});

/** On the GM page: seat a bot of `strength` in `seat` with the seat list's controls. */
async function seatBot(gm, seat, strength) {
  await gm.evaluate(() => { document.getElementById('seats-card').open = true; });
  const row = gm.locator(`.seat-row[data-seat="${seat}"]`);
  await row.locator('select').selectOption(strength);
  await row.getByRole('button', { name: 'Seat a bot' }).click();
  await gm.waitForSelector(`.seat-row[data-seat="${seat}"] button:has-text("Take the seat back")`);
}

/** Ada plays round `round` on the board: the fingers, then the call. */
async function playRound(ada, round, fingers, call, shotName) {
  await ada.waitForFunction((r) => /Round (\d+): choose your hand/.exec(document.querySelector('#panel .mo-hint')?.textContent || '')?.[1] === String(r), round);
  await ada.click(`#panel button.mo-pick[data-fingers="${fingers}"]`);
  const send = `#panel .mo-call button[data-call="${call}"]`;
  await ada.waitForSelector(send);
  // Only the calls her fingers allow are offered (MO-5).
  const calls = await ada.$$eval('#panel .mo-call button', (bs) => bs.map((b) => Number(b.dataset.call)));
  assert.deepEqual(calls, [fingers + 1, fingers + 2, fingers + 3]);
  // Odds in play: each call's chance of scoring against any hand.
  await ada.waitForSelector('#panel .mo-call .kit-odds');
  assert.match(await ada.textContent('#panel .mo-call'), /scores \d+(\.\d)?%, concedes \d+(\.\d)?%/);
  if (shotName) await shots(ada, shotName);
  await act(ada, send);
  await ada.waitForFunction((r) => (document.querySelector('#panel .mo-last h3')?.textContent || '').startsWith('Round ' + r + ':'), round);
}

test('Ada plays Morra against a seated strong bot, at desktop and at phone size', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Morra — First to 11 points', 'Morra e2e');
  const adaLink = await invite(gm, 'p1');
  await seatBot(gm, 'p2', 'strong');
  await gm.waitForSelector('#panel .kit-odds-switch input');
  await gm.check('#panel .kit-odds-switch input');

  const ada = await person(browser);
  await join(ada, adaLink);
  await ada.waitForSelector('#panel .mo-fingers');
  // The bot chooses at once, face down: Ada reads only that Bo has chosen.
  await waitForLine(ada, /Bo chooses a hand, face down\./);
  assert.match(await ada.textContent('#panel .mo-player:not(.me) .mo-state'), /has chosen/);
  assert.equal(await ada.locator('#panel .mo-last').count(), 0, 'nothing is revealed yet');
  await assertReadable(ada);
  await assertNoRawTokens(ada, "Ada's page");

  await playRound(ada, 1, 2, 4, 'morra-ada-choosing');
  const result = await ada.textContent('#panel .mo-last');
  assert.match(result, /Round 1: Ada shows two fingers and calls 4; Bo shows (one finger|two fingers|three fingers) and calls [2-6]\. The total is [2-6]:/);
  // Both hands are drawn, each with as many fingers up as it showed.
  assert.equal(await ada.locator('#panel .mo-last figure.mo-hand').count(), 2);
  assert.equal(await ada.locator('#panel .mo-last figure.mo-hand').first().locator('rect.mo-finger.up').count(), 2);
  await shotsBoth(ada, 'morra-ada-round-1');

  // The second round on a phone.
  await ada.setViewportSize(PHONE);
  await playRound(ada, 2, 1, 3, 'morra-ada-phone-choosing');
  assert.match(await ada.textContent('#panel .mo-last'), /Round 2: Ada shows one finger and calls 3;/);
  await shots(ada, 'morra-ada-phone-round-2');

  const log = (await lines(ada)).join('\n');
  assert.match(log, /Ada shows two fingers and calls 4, face down\./, 'Ada reads her own hand in the log');
  // The GM's page never showed Bo's or Ada's hand before a reveal: only "chooses a hand".
  const gmLog = (await lines(gm)).join('\n');
  assert.doesNotMatch(gmLog, /calls \d, face down/);
  for (const [name, page] of [['Ada', ada], ['the GM', gm]]) {
    await assertReadable(page);
    await assertNoRawTokens(page, name + "'s page");
    await assertLogReadable(page);
  }
  await shotsBoth(gm, 'morra-gm-after-two-rounds');
});
