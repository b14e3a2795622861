// Playing across a week (issue 31): a player adds a webhook on their own seat's page, the GM
// sets reminders and a clock (issue 38: in its own card, in minutes, hours or days, or
// ready-made), another player's move makes the server post to the webhook (a local receiver
// here, so the server runs with --notify-allow-private); the payload says only what the seat
// may see and what the game asks, carries no key and is signed; the open card shows the
// delivery without a reload; the GM's signed channel shows its signing key; the times show on
// the table page in words; the GM's delivery log lists it; the lobby lists the tables waiting
// on you first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { launch, person, invite, join, checkPage, PHONE } from '../lib.mjs';
import { createAt, shotsBoth, assertNoRawTokens, waitForBanner, openLog, waitForLine } from '../room.mjs';


/** A port nobody listens on. */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/** A webhook receiver: every POST it gets, with its headers and raw body. */
function receiver() {
  const got = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: 'http://127.0.0.1:' + server.address().port + '/hook',
    got,
    close: () => new Promise((r) => server.close(r)),
  })));
}

/** `clash serve` on a throw-away database, allowed to post to this machine. */
async function notifyServer() {
  const bin = process.env.CLASH_BIN;
  if (!bin) throw new Error('CLASH_BIN is not set: run the tests with e2e/run.sh');
  const dir = mkdtempSync(path.join(tmpdir(), 'clash-e2e-'));
  const port = await freePort();
  const url = 'http://127.0.0.1:' + port;
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:' + port, '--db', path.join(dir, 'notify.db'),
    '--public-url', url, '--notify-allow-private', '--notify-throttle-seconds', '1', '--notify-tick-seconds', '1'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (await fetch(url + '/healthz').then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async dispose() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The key in a table page's address. */
const keyOf = (page) => new URL(page.url()).pathname.split('/')[3];

let browser;
let server;
let hook;
before(async () => { browser = await launch(); server = await notifyServer(); hook = await receiver(); });
after(async () => { await browser?.close(); await server?.dispose(); await hook?.close(); });

test('a webhook hears of your move; clocks and times in words; the lobby puts your move first', async () => {
  const gm = await person(browser);
  await createAt(gm, server.url, 'Three players', 'A week of pyramids');
  const ada = await person(browser);
  await join(ada, await invite(gm, 'p1'));
  const bo = await person(browser, PHONE);
  await join(bo, await invite(gm, 'p2'));
  const cy = await person(browser);
  await join(cy, await invite(gm, 'p3'));
  await waitForBanner(ada, /^Your move/);

  // Bo adds a signed JSON webhook and a handle for the group's channel on their own page.
  await bo.click('#notify-card > summary');
  await bo.waitForSelector('#notify-targets li');
  assert.equal(await bo.isVisible('#notify-kind option[value=email]'), false, 'no email without an SMTP relay');
  await bo.selectOption('#notify-kind', 'json');
  // A bad address is refused at once, with the reason.
  await bo.fill('#notify-address', 'not a web address');
  await bo.click('#notify-save');
  await bo.waitForFunction(() => document.getElementById('notify-error').textContent !== '');
  await bo.fill('#notify-address', hook.url);
  await bo.click('#notify-save');
  await bo.waitForSelector('#notify-targets li[data-target]');
  assert.match(await bo.textContent('#notify-targets'), /Signed JSON webhook.*Nothing sent yet/s);
  await bo.click('#notify-targets details.signing > summary');
  const secret = await bo.inputValue('#notify-targets input.secret');
  assert.ok(secret.length >= 16, 'the signing key is shown to its owner');
  await bo.fill('#notify-handle-text', '<@4242>');
  await bo.click('#notify-handle button');
  await bo.waitForTimeout(300);
  await shotsBoth(bo, 'notify-seat');
  await assertNoRawTokens(bo, 'the seat page with its notify card');

  // The GM's clock and reminders sit under the banner, saying how they stand (issue 38): one
  // tap sets a ready-made evening, and any setting goes in minutes, hours or days.
  assert.equal(await gm.textContent('#clock-open'), 'Clock and reminders: Off');
  await gm.click('#clock-open');
  await gm.waitForSelector('#clock-dialog[open]');
  await gm.click('#clock-dialog [data-preset="evening"]');
  await gm.waitForFunction(() => document.getElementById('clock-summary').textContent === 'Reminder after 5 minutes');
  assert.equal(await gm.inputValue('#remind-amount'), '5');
  assert.equal(await gm.inputValue('#remind-unit'), '60');
  // A reminder after 12 hours and a deadline of a day for each move.
  await gm.fill('#remind-amount', '12');
  await gm.selectOption('#remind-unit', { label: 'hours' });
  await gm.selectOption('#clock-mode', 'deadline');
  await gm.fill('#clock-amount', '1');
  await gm.selectOption('#clock-unit', { label: 'days' });
  await gm.selectOption('#on-expiry', 'bot');
  await gm.click('#clock-save');
  await gm.waitForFunction(() => document.getElementById('clock-summary').textContent === 'Reminder after 12 hours · 1 day a move');
  await shotsBoth(gm, 'notify-clock-card');
  await checkPage(gm);
  await gm.click('#clock-close');
  assert.equal(await gm.evaluate(() => document.activeElement.id), 'clock-open', 'focus back on the button');
  await openLog(ada);
  await waitForLine(ada, /1 day for each move/);
  // The times show for everyone, in words.
  await ada.waitForFunction(() => /left on your clock/.test(document.getElementById('times').textContent));
  assert.match(await ada.textContent('#times'), /^2[34] hours( \d+ minutes?)? left on your clock$/);
  await bo.waitForFunction(() => /left on .+’s clock/.test(document.getElementById('times').textContent));

  // Ada moves: now the game waits on Bo, and Bo's webhook hears of it.
  const before = hook.got.length;
  const moved = await ada.evaluate(async () => {
    const boot = JSON.parse(document.getElementById('boot').textContent);
    // A turn is several actions: act until the turn passes (ending it when the rules allow).
    for (let i = 0; i < 12; i++) {
      const view = await fetch('/api/tables/' + boot.table + '/view?key=' + boot.key).then((r) => r.json());
      if (!view.room.turn.yours) return true;
      const pick = view.legal.find((l) => /end/i.test(l.label)) || view.legal[0];
      const r = await fetch('/api/tables/' + boot.table + '/commands?key=' + boot.key, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: pick.command }),
      });
      if (!r.ok) return false;
    }
    return false;
  });
  assert.ok(moved, 'Ada made her turn');
  await waitForBanner(bo, /^Your move/);
  for (let i = 0; i < 150 && hook.got.length === before; i++) await new Promise((r) => setTimeout(r, 200));
  assert.ok(hook.got.length > before, 'the webhook was posted to');
  const message = hook.got[hook.got.length - 1];
  const payload = JSON.parse(message.body);
  assert.ok(payload.events.some((e) => e.kind === 'your_move' && /^Your move: play your turn/.test(e.text)), 'it says it is your move, and what is asked: ' + message.body);
  // It is signed with Bo's key, and says nothing only another seat may know: no key at all.
  const mac = createHmac('sha256', secret).update(message.headers['x-clash-timestamp'] + '.' + message.body).digest('hex');
  assert.equal(message.headers['x-clash-signature'], 'sha256=' + mac);
  for (const page of [gm, ada, bo, cy]) assert.ok(!message.body.includes(keyOf(page)), 'no link key in the payload');
  assert.ok(!message.body.includes(secret), 'not its own signing key either');
  // It links to the server's lobby, which lists the tables that browser opened (a seat's page
  // address is its key, so it is never sent).
  assert.ok(payload.link.startsWith(server.url), 'links to this server: ' + payload.link);
  // The card, open all along, shows the delivery without a reload (issue 38).
  assert.ok(await bo.evaluate(() => document.getElementById('notify-card').open));
  await bo.waitForFunction(() => /Last delivered/.test(document.getElementById('notify-targets').textContent), null, { timeout: 10000 });
  await bo.waitForFunction(() => /left on your clock/.test(document.getElementById('times').textContent));

  // The GM's signed-JSON channel shows its signing key to the GM (issue 38).
  await gm.click('#manage-card > summary');
  await gm.click('#week-card > summary');
  await gm.selectOption('#channel-kind', 'json');
  await gm.fill('#channel-address', hook.url + '/channel');
  await gm.click('#channel-form button[type=submit]');
  await gm.waitForSelector('#channel-now details.signing');
  await gm.click('#channel-now details.signing > summary');
  assert.ok((await gm.inputValue('#channel-now input.secret')).length >= 16, 'the channel\'s signing key is shown to the GM');

  // The GM's delivery log says it was sent, to whom and what, never where.
  await gm.click('#deliveries-load');
  await gm.waitForSelector('#deliveries li.sent');
  const log = await gm.textContent('#deliveries');
  assert.match(log, /Sent to .+: your move/);
  assert.ok(!log.includes(hook.url), 'no address in the delivery log');
  await shotsBoth(gm, 'notify-gm');
  await assertNoRawTokens(gm, 'the GM page with its week card');

  // A second table where the game waits on someone else: Bo's lobby still lists the first
  // table, where it is Bo's move, first.
  await createAt(gm, server.url, 'Three players', 'Another week');
  await join(bo, await invite(gm, 'p2'));
  await bo.goto(server.url + '/');
  await bo.waitForFunction(() => document.querySelectorAll('#mine-list li').length === 2);
  const rows = await bo.$$eval('#mine-list li', (lis) => lis.map((li) => li.textContent));
  assert.match(rows[0], /A week of pyramids.*Your move/);
  assert.match(rows[1], /Another week/);
  await shotsBoth(bo, 'notify-lobby');
  await checkPage(bo);
});

test('a clock running out is told before it ends, and when it ends', async () => {
  // Issue 38: the webhook heard the reminder and then only the reveal. Now a quarter of the
  // clock left warns the player, and its end says what the table did.
  const gm = await person(browser);
  await createAt(gm, server.url, 'Three players', 'Against the clock');
  const ada = await person(browser, PHONE);
  await join(ada, await invite(gm, 'p1'));
  await waitForBanner(ada, /^Your move/);
  await ada.click('#notify-card > summary');
  await ada.waitForSelector('#notify-targets li');
  await ada.selectOption('#notify-kind', 'json');
  await ada.fill('#notify-address', hook.url + '/ada');
  await ada.click('#notify-save');
  await ada.waitForSelector('#notify-targets li[data-target]');
  // A clock far shorter than the page offers (its units start at minutes), set through the same
  // API the card uses, so the test waits seconds rather than minutes. When it runs out the
  // table only tells (a bot's move would make the warning moot before it is sent).
  const status = await gm.evaluate(async () => {
    const boot = JSON.parse(document.getElementById('boot').textContent);
    const rule = { clock: { mode: 'deadline', seconds: 8 }, on_expiry: 'remind' };
    const r = await fetch('/api/tables/' + boot.table + '/clock?key=' + boot.key, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule),
    });
    return r.status;
  });
  assert.equal(status, 204);
  // Everything Ada's webhook heard, in the order it heard it.
  const heard = () => hook.got.filter((g) => g.path === '/hook/ada').flatMap((g) => JSON.parse(g.body).events || []);
  const kinds = () => heard().map((e) => e.kind).filter((k) => k.startsWith('clock'));
  for (let i = 0; i < 100 && !kinds().includes('clock_out'); i++) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(kinds(), ['clock_warning', 'clock_out'], 'warned, then told: ' + JSON.stringify(heard()));
  const text = (kind) => heard().find((e) => e.kind === kind).text;
  assert.match(text('clock_warning'), /^Ada’s clock is running out: \d+ seconds? left\.$|clock is running out: .*seconds? left/);
  assert.match(text('clock_out'), /clock has run out\./);
  // Her page says so too, without a reload or a move.
  await ada.waitForFunction(() => /Your clock has run out/.test(document.getElementById('times').textContent));
  await assertNoRawTokens(ada, 'the seat page after its clock ran out');
});
