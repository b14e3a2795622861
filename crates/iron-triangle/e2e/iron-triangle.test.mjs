// A minor Iron Triangle conflict to its end: the GM and two players (one on a phone), each in
// their own browser, using only the board's controls — stance and move cards, the loss split's
// steppers, renaming a move, the winners' narration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { launch, person, createTable, invite, join, shots, logLines, act, panelText, assertReadable, PHONE } from '../../../e2e/lib.mjs';
import { spectatorLink, assertNoRawTokens, assertLogReadable, shotsBoth, banner } from '../../../e2e/room.mjs';
import { assertNoBannedWords } from '../../../e2e/words.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function waitForLog(page, pattern) {
  await page.waitForFunction((src) => [...document.querySelectorAll('#log li')].some((li) => new RegExp(src).test(li.textContent)), pattern.source);
}

/** Press the stepper's − or + until it shows `target`. */
async function setStepper(page, label, target) {
  const box = `#panel .kit-stepper[data-stepper^="${label}"]`;
  for (let i = 0; i < 12; i++) {
    const now = Number(await page.textContent(`${box} output`));
    if (now === target) return;
    await page.click(`${box} button[aria-label^="${now < target ? 'more' : 'less'} ${label}"]`);
  }
  throw new Error(label + ' never reached ' + target);
}

// The two-player preset, with Cy beside Bo (Bo's player plays both).
const TEAM = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../presets/team.json'), 'utf8'));
TEAM.characters.push(Object.assign(structuredClone(TEAM.characters.find((c) => c.name === 'Bo')), { name: 'Cy' }));

test('GM and two players fight a minor conflict with cards and steppers, to its narrated end', async () => {
  const gm = await person(browser);
  await createTable(gm, 'Two players (Ada, Bo)', 'Iron Triangle e2e', TEAM);
  const p1Link = await invite(gm, 'p1');
  const p2Link = await invite(gm, 'p2');
  const p1 = await person(browser);
  const p2 = await person(browser, PHONE);
  await join(p1, p1Link);
  await join(p2, p2Link);
  // A spectator watches the whole evening.
  const watcher = await person(browser);
  await join(watcher, await spectatorLink(gm));
  await p1.waitForSelector('#panel .it-char');

  // Moves are drawn as cards with their action and element; hovering one says what it beats.
  const card = p1.locator('#panel .it-char[data-character="Ada"] .it-card[data-move="A-H"]');
  assert.match(await card.textContent(), /Attack.*Overhand Right.*High/s);
  await card.hover();
  assert.match(await p1.textContent('.kit-tip'), /Attack beats Grapple and loses to Defend; High beats Mid and Jump/);

  // Renaming any move, not just the first; an empty name is refused and changes nothing (IT-7).
  await p1.selectOption('#panel [data-control="rename"] select', 'Ada|G-L');
  await p1.click('#panel [data-control="rename"] button');
  assert.match(await p1.textContent('#panel [data-control="rename"] .error'), /cannot go without a name/);
  await p1.fill('#panel [data-control="rename"] input', 'Ankle Tap');
  await act(p1, '#panel [data-control="rename"] button');
  await p1.waitForSelector('#panel .it-char[data-character="Ada"] .it-card[data-move="G-L"]:has-text("Ankle Tap")');
  await p2.waitForSelector('#panel .it-char[data-character="Ada"] .it-card[data-move="G-L"]:has-text("Ankle Tap")');

  // The GM switches odds in play on for this table (off by default).
  await gm.waitForSelector('#panel .kit-odds-switch input');
  assert.equal(await gm.isChecked('#panel .kit-odds-switch input'), false, 'odds start off');
  await gm.check('#panel .kit-odds-switch input');
  assert.equal(await p1.locator('#panel .kit-odds-switch').count(), 0, 'only the GM has the switch');

  // The GM starts a minor conflict (one turn decides it) against Brute.
  const start = '#panel [data-control="g:start_conflict"]';
  await gm.fill(`${start} input[type=text]`, 'The ledger');
  await gm.check(`${start} label:has-text("Minor") input`);
  await act(gm, `${start} button:has-text("Start a conflict")`);
  // Whom the conflict waits on, as a list a person writes.
  await gm.waitForFunction(() => /Waiting for Ada, Bo and Cy\./.test(document.querySelector('#panel .it-conflict').textContent));
  await act(p1, '#panel [data-control="g:join_conflict"] button:has-text("Ada")');
  await act(p2, '#panel [data-control="g:join_conflict"] button:has-text("Bo")');
  await act(p2, '#panel [data-control="g:join_conflict"] button:has-text("Cy")');
  await act(p1, '#panel [data-control="g:pick_active"] button:has-text("Ada")');
  await act(p1, '#panel [data-control="g:pick_opponent"] button:has-text("Brute")');

  // With odds on, Ada's player sees the equilibrium stance mix of this turn.
  await p1.waitForSelector('#panel [data-control="stance:Ada"] .kit-odds');
  assert.match(await p1.textContent('#panel [data-control="stance:Ada"] .kit-odds'), /Equilibrium stance mix.*%/s);
  await shots(p1, 'it-p1-stance-odds');

  // The stance picker starts at "No stance": nothing is spent unless the player chooses it.
  assert.equal(await p1.getAttribute('#panel [data-control="stance:Ada"] button[data-stance="none"]', 'aria-pressed'), 'true');
  assert.match(await p1.textContent('#panel [data-control="stance:Ada"] button.kit-go'), /Take no stance/);
  // The odds say the chances to win and to lose the turn, not a score.
  assert.match(await p1.textContent('#panel [data-control="stance:Ada"] .kit-odds'), /win \d+(\.\d)?% · lose \d+(\.\d)?%/);
  // An NPC's sheet claims no veto and no background points: those are the players' alone.
  const brute = await p1.textContent('#panel .it-char[data-character="Brute"]');
  assert.doesNotMatch(brute, /veto|not yet given/);
  await assertNoBannedWords(p1, 'Ada\'s page at the stances');

  // Secret stances, picked as cards: the others see a face-down card until both are in (IT-2).
  await p1.click('#panel button[data-stance="attack"]');
  await act(p1, '#panel button:has-text("Take the stance in secret")');
  for (const other of [gm, p2]) {
    await other.waitForSelector('#panel .it-duel [data-participant="Ada"] .it-back');
    assert.doesNotMatch(await other.textContent('#panel .it-duel [data-participant="Ada"]'), /Attack/, 'Ada\'s stance is hidden');
  }
  await shots(p2, 'it-p2-phone-stance-hidden');
  await gm.click('#panel button[data-stance="defend"]');
  await act(gm, '#panel button:has-text("Take the stance in secret")');

  // Secret moves, tapped as cards; then both are revealed.
  await p1.waitForSelector('#panel button.kit-tile[data-move="A-H"]');
  await p1.waitForSelector('#panel [data-control="move:Ada"] .kit-odds');
  assert.match(await p1.textContent('#panel [data-control="move:Ada"] .kit-odds'), /Equilibrium move mix/);
  await p1.click('#panel button.kit-tile[data-move="A-H"]');
  await shots(p1, 'it-p1-move-cards');
  await act(p1, '#panel button:has-text("Play Overhand Right in secret")');
  assert.doesNotMatch((await logLines(p2)).join('\n'), /A-H|Overhand/, 'Ada\'s move is secret before the reveal');
  await gm.click('#panel button.kit-tile[data-move="A-L"]');
  await act(gm, '#panel button:has-text("in secret")');
  // Brute's sheet stays hidden, but the move it played shows by the name the log gives it.
  await p1.waitForSelector('#panel .it-duel [data-participant="Brute"] .it-card[data-move="A-L"]');
  assert.match(await p1.textContent('#panel .it-duel [data-participant="Brute"] .it-card[data-move="A-L"]'), /Shin Kick/);
  assert.match(await p1.textContent('#panel .it-char[data-character="Brute"]'), /Moves seen so far.*Shin Kick/s);

  // Low beats High: Ada loses 4 — 1 fixed by her own matched Attack stance, 3 to share (IT-51).
  await p1.waitForSelector('#panel [data-control="split_loss:Ada"]');
  const split = await p1.textContent('#panel [data-control="split_loss:Ada"]');
  assert.match(split, /Ada loses 4: 1 is fixed \(Ada’s own matched Attack stance/);
  assert.match(split, /the other 3 you share/);
  assert.match(await p1.textContent('#panel .it-sum'), /= 4/, 'the turn summary says 4 too');
  // The suggested split takes no type to 0 while another can pay, and the preview says what
  // each energy becomes; a split that would empty a type warns of the zero mark.
  assert.match(await p1.textContent('#panel .it-preview'), /After: Defend 3 → \d · Grapple 2( → \d)? · Attack \d+ → \d/);
  assert.doesNotMatch(await p1.textContent('#panel .it-preview'), /zero mark/);
  await setStepper(p1, 'Attack', 0);
  await setStepper(p1, 'Grapple', 0);
  await setStepper(p1, 'Defend', 3);
  assert.match(await p1.textContent('#panel .it-preview'), /Defend would reach 0: a zero mark/);
  await shots(p1, 'it-p1-split-zero-warning');
  // Make it Defend 1, Attack 2 with the steppers; the total follows every press.
  await setStepper(p1, 'Defend', 1);
  await setStepper(p1, 'Attack', 2);
  assert.match(await p1.textContent('#panel .it-total'), /Shared 3 of 3/);
  // The preview counts what her stance already took: Attack 5, less 1 for it, less 2 here.
  assert.match(await p1.textContent('#panel .it-preview'), /Attack 5 → 2 \(1 for the stance\)/);
  await shots(p1, 'it-p1-split');
  await act(p1, '#panel button:has-text("Pay these")');

  for (const page of [gm, p1, p2]) {
    await waitForLog(page, /Ada loses 4/);
    // Every screen shows Ada at Defend 2, Grapple 2, Attack 2 afterwards.
    await page.waitForFunction(() => {
      const bar = (t) => document.querySelector(`#panel .it-char[data-character="Ada"] .it-bar[data-type="${t}"] b`);
      return bar('defend') && bar('defend').textContent === '2 of 3' && bar('grapple').textContent === '2 of 2' && bar('attack').textContent === '2 of 5';
    });
  }

  // A minor conflict is over after one turn: the GM's side won, and the GM tells how it ends.
  const narrate = '#panel [data-control="g:narrate_conflict"]';
  await gm.waitForSelector(narrate);
  await gm.fill(`${narrate} input[type=text]`, 'Brute keeps the ledger.');
  await act(gm, `${narrate} button`);
  for (const page of [gm, p1, p2]) {
    await page.waitForFunction(() => /What happened: Brute keeps the ledger/.test(document.querySelector('#panel').textContent));
    assert.match(await panelText(page), /Over: the GM’s side wins/);
    await assertReadable(page);
  }
  await shots(gm, 'it-gm-result');
  await shots(p1, 'it-p1-result');
  await shots(p2, 'it-p2-phone-result');

  // A second minor conflict starts clean: no stance carried over from the last turn (the GM's
  // Defend, Ada's Attack), and the loss split at its suggestion, not at last time's shares.
  await gm.fill(`${start} input[type=text]`, 'The ledger, again');
  await gm.check(`${start} label:has-text("Minor") input`);
  await act(gm, `${start} button:has-text("Start a conflict")`);
  await act(p1, '#panel [data-control="g:join_conflict"] button:has-text("Ada")');
  await act(p2, '#panel [data-control="g:join_conflict"] button:has-text("Bo")');
  await act(p2, '#panel [data-control="g:join_conflict"] button:has-text("Cy")');
  await act(p1, '#panel [data-control="g:pick_active"] button:has-text("Ada")');
  await act(p1, '#panel [data-control="g:pick_opponent"] button:has-text("Brute")');
  for (const [page, who] of [[p1, 'Ada'], [gm, 'Brute']]) {
    await page.waitForSelector(`#panel [data-control="stance:${who}"]`);
    assert.equal(await page.getAttribute(`#panel [data-control="stance:${who}"] button[data-stance="none"]`, 'aria-pressed'), 'true', who + ' starts at No stance');
    assert.match(await page.textContent(`#panel [data-control="stance:${who}"] button.kit-go`), /Take no stance/);
  }
  await shots(gm, 'it-gm-second-stance');
  await act(p1, '#panel [data-control="stance:Ada"] button.kit-go');
  await act(gm, '#panel [data-control="stance:Brute"] button.kit-go');
  await p1.waitForSelector('#panel [data-control="move:Ada"]');
  assert.equal(await p1.locator('#panel [data-control="move:Ada"] button.kit-tile[aria-pressed="true"]').count(), 0, 'no card chosen yet');
  await p1.click('#panel button.kit-tile[data-move="A-H"]');
  await act(p1, '#panel button:has-text("Play Overhand Right in secret")');
  await gm.click('#panel button.kit-tile[data-move="A-L"]');
  await act(gm, '#panel button:has-text("in secret")');
  // Ada (Defend 2, Grapple 2, Attack 2) loses Shin Kick's base 3: one from each type, as the
  // split suggests, not last time's Defend 1 and Attack 2.
  await p1.waitForSelector('#panel [data-control="split_loss:Ada"]');
  const shares = await p1.$$eval('#panel [data-control="split_loss:Ada"] .kit-stepper output', (os) => os.map((o) => Number(o.textContent)));
  assert.deepEqual(shares, [1, 1, 1]);
  assert.match(await p1.textContent('#panel .it-total'), /Shared 3 of 3/);
  await shots(p1, 'it-p1-second-split');
  await act(p1, '#panel button:has-text("Pay these")');
  await gm.waitForSelector(narrate);
  await gm.fill(`${narrate} input[type=text]`, 'Brute keeps the ledger again.');
  await act(gm, `${narrate} button`);

  // Every page, the spectator's included, names everyone: no raw token on the page or in the
  // log; each is kept at desktop and phone size.
  for (const [name, page] of [['gm', gm], ['ada', p1], ['bo', p2], ['spectator', watcher]]) {
    assert.doesNotMatch(await banner(page), /^$/);
    await assertNoRawTokens(page, 'the ' + name + ' page');
    await assertNoBannedWords(page, 'the ' + name + ' page');
    await assertLogReadable(page);
    await shotsBoth(page, 'it-' + name + '-evening');
  }
});
