// Two verifiers, one verdict (issue 26): records of real tables played to the end, and forged
// copies of them, are checked by `clash verify` and by the page's own verifier (verify.js, run
// here in Node with WebCrypto, and again with its plain SHA-256), which must agree. Then the Fair
// dice card, in a browser, shows the check on a live table, on a finished one, and on a record
// that was tampered with.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, person, join, BASE, DESKTOP, PHONE } from '../lib.mjs';
import { assertNoRawTokens, shotsBoth } from '../room.mjs';
import { ClashVerify, playedTable, play, api, clashVerify, jsVerify, verdictOf, read, write, rechain, reforge, headNow } from '../records.mjs';
import { readFileSync, writeFileSync } from 'node:fs';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

let browser;
const tables = {};
before(async () => {
  browser = await launch();
  for (const ruleset of ['wicked-age', 'nd-tourists', 'triforce', 'iron-triangle']) {
    tables[ruleset] = await playedTable(ruleset, 14);
  }
});
after(async () => { await browser?.close(); });

/** Both verifiers on one record's text; returns both verdicts and reports. */
async function both(text, seen) {
  const rust = clashVerify(text, ...(seen ? ['--seen', seen] : []));
  const js = await jsVerify(text, seen ? { seen: [seen] } : {});
  const plain = await jsVerify(text, { subtle: null, seen: seen ? [seen] : [] });
  assert.equal(plain.verdict, js.verdict, 'WebCrypto and the plain SHA-256 agree: ' + JSON.stringify(plain.failures));
  return { rust, js, verdict: js.verdict };
}

/** Both verifiers reach `verdict` on `text`. */
async function agree(text, verdict, why) {
  const r = await both(text);
  assert.equal(verdictOf(r.rust.code), verdict, why + ': clash verify said\n' + r.rust.out);
  assert.equal(r.js.verdict, verdict, why + ': verify.js said ' + JSON.stringify(r.js, null, 1));
  return r;
}

function commandWith(record, kind) {
  return record.entries.find((e) => e.entry && e.entry.kind === 'command'
    && (e.entry.draws || []).some((d) => d.kind === kind && Number(d.count ?? d.sides) > 1));
}

test('finished records of all four games verify in both verifiers, whoever downloaded them', async () => {
  for (const [ruleset, t] of Object.entries(tables)) {
    for (const [who, text] of [['the GM', t.gm], ['a spectator', t.watcher]]) {
      const r = await agree(text, 'verified', ruleset + ', taken by ' + who);
      assert.match(r.rust.out, /commands replayed/);
      assert.ok(r.js.chance.commands >= 1, ruleset + ': commands were re-derived');
      assert.match(r.js.lines.join('\n'), /Every roll and draw re-derived from the revealed secret: \d+ commands, \d+ draws/);
    }
    // The spectator is not given the whisper, only its digest; both chain it all the same.
    assert.match(t.watcher, /"hidden": true/);
    assert.doesNotMatch(t.watcher, /I bluff/);
    assert.match(t.gm, /I bluff/);
  }
  const dice = tables['wicked-age'];
  const cards = tables['nd-tourists'];
  assert.ok((await jsVerify(dice.gm)).chance.rolls > 0, 'Wicked Age rolled dice');
  assert.ok((await jsVerify(cards.gm)).chance.picks > 0, 'Tourists drew cards');
});

test('a record taken before the end: the chain checks, the rolls wait, exit code 3', async () => {
  for (const [ruleset, t] of Object.entries(tables)) {
    const r = await agree(t.before, 'partly', ruleset + ', before the end');
    assert.equal(r.rust.code, 3);
    assert.match(r.rust.out, /not checked: rolls, draws and events/);
    assert.match(r.rust.out, /PARTLY verified: .*NOT checked/);
    assert.match(r.js.lines.join('\n'), /The log’s chain is intact: \d+ entries checked/);
    assert.match(r.js.unchecked.join('\n'), /checked once the table ends/);
    assert.doesNotMatch(t.before, /"secret"/);
  }
  // A head noted during play must be in the record; a made-up one is not.
  const t = tables['wicked-age'];
  const head = JSON.parse(t.before).head;
  assert.equal((await both(t.gm, head)).verdict, 'verified');
  const forged = await both(t.gm, 'ab'.repeat(32));
  assert.equal(verdictOf(forged.rust.code), 'failed');
  assert.equal(forged.verdict, 'failed');
  // A digest changed in an early record breaks its chain for both.
  const early = read(t.before);
  const at = early.entries.length - 1;
  early.entries[at].digest = '00'.repeat(32);
  await agree(write(early), 'failed', 'an early record with a changed digest');
});

test('every kind of tampering is refused by both verifiers', async () => {
  const cases = [];
  const dice = tables['wicked-age'].gm;
  const cards = tables['nd-tourists'].gm;

  // Edits that leave the hashes as they were: the chain breaks at the changed entry.
  const event = read(cards);
  const ev = event.entries.find((e) => e.entry && e.entry.kind === 'event');
  ev.entry.event.forged = true;
  cases.push(['an event changed', event, ev.pos]);
  const roll = read(dice);
  const rolled = commandWith(roll, 'roll');
  const die = rolled.entry.draws.find((d) => d.kind === 'roll');
  die.face = read(String(Number(die.face) % Number(die.sides) + 1));
  cases.push(['a die changed', roll, rolled.pos]);
  const seed = read(dice);
  const added = seed.entries.find((e) => e.entry && e.entry.kind === 'table' && e.entry.event.type === 'seed_added');
  added.entry.event.seed = 'a-seed-nobody-added';
  cases.push(['a seed changed', seed, added.pos]);
  const secret = read(dice);
  secret.secret = (secret.secret[0] === '0' ? '1' : '0') + secret.secret.slice(1);
  cases.push(['a byte of the secret changed', secret]);
  const hash = read(cards);
  hash.entries[3].hash = 'ff'.repeat(32);
  cases.push(['a hash changed', hash, 3]);
  const head = read(cards);
  head.head = head.entries[2].hash;
  cases.push(['the head changed', head]);
  const dropped = read(cards);
  dropped.entries.splice(4, 1);
  cases.push(['an entry dropped', dropped]);

  // Forgeries by someone who knows the revealed secret and rebuilt the chain: only the
  // derivation of the rolls and draws can tell.
  const card = read(cards);
  const drew = commandWith(card, 'pick');
  const pick = drew.entry.draws.find((d) => d.kind === 'pick' && Number(d.count) > 1);
  pick.index = read(String((Number(pick.index) + 1) % Number(pick.count)));
  cases.push(['a card changed, chain rebuilt', await rechain(card), drew.pos]);
  const die2 = read(dice);
  const rolled2 = commandWith(die2, 'roll');
  const d2 = rolled2.entry.draws.find((d) => d.kind === 'roll' && Number(d.sides) > 1);
  d2.face = read(String(Number(d2.face) % Number(d2.sides) + 1));
  cases.push(['a die changed, chain rebuilt', await rechain(die2), rolled2.pos]);
  // A command passed off as private talk: its digest kept, so the chain holds; the gap in the
  // commands' numbers gives it away.
  const gap = read(dice);
  const commands = gap.entries.filter((e) => e.entry && e.entry.kind === 'command');
  const dropped2 = commands[1];
  const d = ClashVerify.derive;
  const digest = await d.digest(d.hashing(globalThis.crypto.subtle), d.unhex(gap.secret), gap.table, Number(dropped2.pos), dropped2.entry);
  gap.entries[Number(dropped2.pos)] = { pos: dropped2.pos, hash: dropped2.hash, hidden: true, digest: d.hex(digest) };
  cases.push(['a command hidden as private talk', gap]);
  const gapReport = await jsVerify(write(gap));
  assert.match(gapReport.failures[0].text, /comes where command no\. 1 should: a command is missing from the record/);
  const seed2 = read(dice);
  const added2 = seed2.entries.find((e) => e.entry && e.entry.kind === 'table' && e.entry.event.type === 'seed_added');
  added2.entry.event.seed = 'a-seed-nobody-added';
  cases.push(['a seed changed, chain rebuilt', await rechain(seed2)]);

  for (const [what, record, at] of cases) {
    const r = await agree(write(record), 'failed', what);
    const pos = at === undefined ? undefined : Number(at);
    if (pos !== undefined) {
      assert.equal(r.js.failures[0].pos, pos, what + ': verify.js names the entry: ' + r.js.failures[0].text);
      assert.match(r.rust.out, new RegExp('FAILED: entry ' + pos + '\\b'), what + ': clash verify names the entry');
    }
  }
});

test('where they differ, by design: an event forged with the chain rebuilt fails only the rules replay', async () => {
  const record = read(tables['nd-tourists'].gm);
  const ev = record.entries.find((e) => e.entry && e.entry.kind === 'event');
  ev.entry.event.forged = true;
  const r = await both(write(await rechain(record)));
  assert.equal(r.rust.code, 1, r.rust.out);
  assert.match(r.rust.out, new RegExp('FAILED: entry ' + ev.pos + ' \\(event'));
  // The page re-derives chance only; it says so, and its verdict covers what it checks.
  assert.equal(r.js.verdict, 'verified');
});

test('a record is the whole game or says it is not, in both verifiers (issue 37)', async () => {
  const gm = tables['wicked-age'].gm;
  // Cut short after the end, the head set to the last entry kept: partly, naming the end.
  for (const cut of [1, 2, 50]) {
    const record = read(gm);
    record.entries.splice(Math.max(1, record.entries.length - cut));
    record.head = record.entries[record.entries.length - 1].hash;
    const r = await agree(write(record), 'partly', 'the last ' + cut + ' entries cut');
    assert.match(r.rust.out, /not checked: the (end of the table|replay)/);
    assert.match(r.js.unchecked.join(' '), /end of the table/i);
  }
  // The reveal of another secret, the chain rebuilt: named at its entry.
  const reveal = read(gm);
  const last = reveal.entries.length - 1;
  reveal.entries[last].entry.event.secret = '11'.repeat(32);
  const r = await agree(write(await rechain(reveal)), 'failed', 'another secret revealed');
  assert.equal(r.js.failures[0].pos, last);
  assert.match(r.rust.out, new RegExp('FAILED: entry ' + last + ' \\(the reveal of the secret\\)'));
  // Every top-level field is the table's, or the record says it is not.
  for (const [field, value] of [['title', 'Another table'], ['ruleset', 'triforce'], ['chance', 'legacy'], ['exported_as', 'spectator']]) {
    const record = read(gm);
    record[field] = value;
    await agree(write(record), 'failed', field + ' changed');
  }
  const extra = read(gm);
  extra.winner = 'Ada';
  const x = await agree(write(extra), 'partly', 'a field no record has');
  assert.match(x.js.unchecked[0], /winner/);
});

test('heads seen during play catch an Iron Triangle game forged whole, on the page and in clash verify', async () => {
  // Iron Triangle draws nothing here: a host could rebuild its whole chain from a new secret.
  const created = (await api('POST', '/api/tables', { ruleset: 'iron-triangle', title: 'Witnessed' })).json;
  const { table: id, owner_key: owner } = created;
  const seats = created.seats.map((s) => s.seat);
  for (const seat of seats) if (seat !== 'gm') await api('POST', `/api/tables/${id}/seats/${seat}/link?key=${owner}`, { npc: true });
  await api('POST', `/api/tables/${id}/chat?key=${owner}`, { text: 'The duel begins.' });
  // A spectator follows the game: the page keeps each head it is sent.
  const context = await browser.newContext({ viewport: DESKTOP });
  const watching = await context.newPage();
  await join(watching, BASE + created.links.spectator);
  const seen = [await headNow(id, owner)];
  for (let i = 0; i < 4; i++) {
    await play(id, owner, seats, 1);
    seen.push(await headNow(id, owner));
  }
  await watching.waitForFunction(([n, count]) => JSON.parse(localStorage.getItem('clash.heads.' + n) || '[]').length >= count, [id, 3]);
  await watching.close();
  await api('POST', `/api/tables/${id}/close?key=${owner}`);
  const honest = (await api('GET', `/api/tables/${id}/export?key=${owner}`)).text;
  assert.ok(read(honest).entries.every((e) => !(e.entry.draws || []).length), 'this game drew nothing');
  const forged = read(honest);
  forged.entries.find((e) => e.entry.event && e.entry.event.type === 'said').entry.event.text = 'The duel never happened.';
  const text = write(await reforge(forged, '07'.repeat(32)));
  // Alone, the forgery is a perfect record: both verifiers pass it.
  await agree(text, 'verified', 'the forged record, with no heads to compare');
  // Against the heads seen during play, both name the rewrite.
  const file = path.join(ARTIFACTS, 'witnessed-heads.json');
  writeFileSync(file, JSON.stringify({ format: 'clash-seen-heads/1', table: id, heads: seen }));
  const rust = clashVerify(text, '--seen', file);
  assert.equal(rust.code, 1, rust.out);
  assert.match(rust.out, /the log's history was rewritten/);
  assert.equal(clashVerify(honest, '--seen', file).code, 0);
  // The page, opened again in the same browser, compares the record with what it saw then.
  const again = await context.newPage();
  await again.route('**/export?**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: text }));
  await join(again, BASE + created.links.spectator);
  await fairCard(again);
  const said = await waitForCheck(again, /Something is wrong/);
  assert.match(said, /The log’s history was rewritten\. Entry \d+ is not the one seen earlier\./);
  // The heads it kept, downloaded from the card, are a file clash verify reads.
  await again.click('#fair-check details > summary');
  const [download] = await Promise.all([again.waitForEvent('download'), again.click('#seen-heads')]);
  const kept = await download.path();
  const heads = JSON.parse(readFileSync(kept, 'utf8'));
  assert.equal(heads.format, 'clash-seen-heads/1');
  assert.ok(heads.heads.length >= 3, JSON.stringify(heads));
  assert.equal(clashVerify(text, '--seen', kept).code, 1);
  assert.equal(clashVerify(honest, '--seen', kept).code, 0);
  await cardShots(again, 'verify-fair-card-witnessed');
  await context.close();
});

// ---- The Fair dice card ------------------------------------------------------------------

async function fairCard(page) {
  if (!(await page.$eval('#fair-card', (d) => d.open))) await page.click('#fair-card > summary');
  return page.locator('#fair-card');
}

async function waitForCheck(page, pattern) {
  await page.waitForFunction((src) => new RegExp(src).test(document.getElementById('fair-check').textContent), pattern.source);
  return page.textContent('#fair-check');
}

/** The Fair dice card at desktop and phone sizes, cut from the whole page (so the sticky turn
 * banner stays at the top of the page rather than over the card). */
async function cardShots(page, name) {
  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    const clip = await page.$eval('#fair-card', (e) => {
      const r = e.getBoundingClientRect();
      return { x: Math.max(0, r.x - 8), y: Math.max(0, r.y + window.scrollY - 8), width: r.width + 16, height: r.height + 16 };
    });
    await page.screenshot({ path: path.join(ARTIFACTS, name + '-' + label + '.png'), fullPage: true, clip });
  }
  await page.setViewportSize(DESKTOP);
}

test('the Fair dice card follows the chain as a table is played', async () => {
  const created = (await api('POST', '/api/tables', { ruleset: 'wicked-age', title: 'Checked live' })).json;
  const { table: id, owner_key: owner } = created;
  const seats = created.seats.map((s) => s.seat);
  for (const seat of seats) if (seat !== 'gm') await api('POST', `/api/tables/${id}/seats/${seat}/link?key=${owner}`, { npc: true });
  const page = await person(browser);
  await join(page, BASE + created.links.spectator);
  await fairCard(page);
  const first = await waitForCheck(page, /chain is intact: \d+ entries/);
  const count = (text) => Number(/(\d+) entries checked/.exec(text)[1]);
  await play(id, owner, seats, 3);
  await page.waitForFunction((n) => Number((/(\d+) entries checked/.exec(document.getElementById('fair-check').textContent) || [])[1]) > n, count(first));
  const text = await page.textContent('#fair-check');
  assert.match(text, /Rolls and draws are checked once the table ends/);
  assert.equal(await page.$eval('#fair-check', (e) => e.dataset.verdict), 'partly');
  assert.equal(await page.textContent('#fair-summary'), '✓ log intact');
  await cardShots(page, 'verify-fair-card-live');
});

test('after the end, every viewer is shown the rolls and draws re-derived; a forged record is named', async () => {
  const t = tables['wicked-age'];
  const page = await person(browser, PHONE);
  await join(page, BASE + t.links.spectator);
  await fairCard(page);
  const text = await waitForCheck(page, /Every roll and draw/);
  assert.match(text, /The revealed secret is the one sealed when the table was made/);
  assert.match(text, /The log’s chain is intact: \d+ entries checked, each against its content/);
  assert.match(text, /Every roll and draw re-derived from the revealed secret: \d+ commands, \d+ draws \(\d+ dice, 0 picks\), all match/);
  assert.match(text, /checks the dice, not the rules/);
  assert.equal(await page.$eval('#fair-check', (e) => e.dataset.verdict), 'verified');
  // Folded, the card's heading still tells the outcome.
  await page.click('#fair-card > summary');
  assert.equal(await page.textContent('#fair-summary'), '✓ every roll checked');
  await page.click('#fair-card > summary');
  await assertNoRawTokens(page, 'the finished table, Fair dice open');
  await cardShots(page, 'verify-fair-card-finished');
  await shotsBoth(page, 'verify-finished-page');

  // The same table, its record handed to the page with one die changed: the chain breaks there.
  const changed = read(t.watcher);
  const rolled = commandWith(changed, 'roll');
  const d = rolled.entry.draws.find((x) => x.kind === 'roll' && Number(x.sides) > 1);
  d.face = read(String(Number(d.face) % Number(d.sides) + 1));
  const tampered = await tamperedPage(t, write(changed));
  const bad = await waitForCheck(tampered, /Something is wrong/);
  assert.match(bad, new RegExp('Entry ' + rolled.pos + ' \\(.+’s command no\\. \\d+\\) does not match its hash: it was changed after it was recorded'));
  assert.equal(await tampered.$eval('#fair-check', (e) => e.dataset.verdict), 'failed');
  assert.equal(await tampered.textContent('#fair-summary'), '✗ something is wrong');
  await assertNoRawTokens(tampered, 'the changed record, Fair dice open');
  await tampered.click('#fair-check details > summary');
  await cardShots(tampered, 'verify-fair-card-changed');

  // A record with a field no record has: the card says it is only partly verified, and why.
  const extra = read(t.watcher);
  extra.winner = 'Ada';
  const partlyPage = await tamperedPage(t, write(extra));
  const partly = await waitForCheck(partlyPage, /Partly verified/);
  assert.match(partly, /The record’s field “winner”: no Clash record has it/);
  assert.equal(await partlyPage.$eval('#fair-check', (e) => e.dataset.verdict), 'partly');
  assert.equal(await partlyPage.textContent('#fair-summary'), '◐ partly verified');
  await assertNoRawTokens(partlyPage, 'a record with an unknown field, Fair dice open');
  await cardShots(partlyPage, 'verify-fair-card-partly');
  // Cut short after the end: this page saw the table's last head, so it names the cut.
  const cut = read(t.watcher);
  cut.entries.splice(cut.entries.length - 2);
  cut.head = cut.entries[cut.entries.length - 1].hash;
  const shortened = await tamperedPage(t, write(cut));
  const cutShort = await waitForCheck(shortened, /Something is wrong/);
  assert.match(cutShort, /the record ends before it: entries were cut from its end/);

  // With the chain rebuilt from the revealed secret, the record no longer holds the head this
  // page was sent: the history was rewritten. (verify.js names the die itself when no head
  // was seen: see the tampering test above.)
  const rebuilt = await tamperedPage(t, write(await rechain(changed)));
  const rewritten = await waitForCheck(rebuilt, /Something is wrong/);
  assert.match(rewritten, /The log’s history was rewritten\. Entry \d+ is not the one seen earlier\./);
  await assertNoRawTokens(rebuilt, 'the rebuilt record, Fair dice open');
});

/** A page of table `t` that is handed `body` for the table's record. */
async function tamperedPage(t, body) {
  const page = await person(browser);
  await page.route('**/export?**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
  await join(page, BASE + t.links.spectator);
  await fairCard(page);
  return page;
}
