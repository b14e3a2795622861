// Email only to people who asked for it (issue 37): a server with an SMTP relay (a local sink
// here) sends an address one message asking its owner to confirm it, and nothing else until
// they press the button on the page its link opens; every message then carries a link that
// stops all mail to the address, from a page with one button, which can also ask for mail
// again. Each page is looked at, at desktop and phone sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, person, checkPage, DESKTOP, PHONE } from '../lib.mjs';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** A port nobody listens on. */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/** A minimal SMTP server that keeps each message's text. */
function smtpSink() {
  const mails = [];
  const server = net.createServer((sock) => {
    sock.write('220 sink ready\r\n');
    let buffer = '';
    let data = null;
    sock.on('data', (chunk) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\r\n'); at >= 0; at = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data !== null) {
          if (line === '.') { mails.push(data); data = null; sock.write('250 queued\r\n'); } else data += line + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') sock.write('250-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') { data = ''; sock.write('354 go on\r\n'); } else if (verb === 'QUIT') sock.end('221 bye\r\n');
        else sock.write('250 ok\r\n');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port,
    mails,
    close: () => new Promise((r) => server.close(r)),
  })));
}

/** `clash serve` with the sink as its relay, on a throw-away database. */
async function mailServer(sink) {
  const dir = mkdtempSync(path.join(tmpdir(), 'clash-e2e-mail-'));
  const port = await freePort();
  const url = 'http://127.0.0.1:' + port;
  const child = spawn(process.env.CLASH_BIN, ['serve', '--addr', '127.0.0.1:' + port, '--db', path.join(dir, 'mail.db'),
    '--public-url', url, '--smtp-url', 'smtp://127.0.0.1:' + sink.port, '--smtp-from', 'clash@clash.example',
    '--notify-throttle-seconds', '1'], { stdio: 'ignore' });
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

/** A mail's text with quoted-printable soft line breaks and escapes undone. */
const decoded = (mail) => mail.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

async function until(check) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(check(), 'in time');
}

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}

/** The page at `url`, checked and shot at desktop and phone sizes, as `name`. */
async function looked(page, name) {
  await checkPage(page);
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(ARTIFACTS, name + '-' + size + '.png'), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

let browser;
let sink;
let server;
before(async () => { browser = await launch(); sink = await smtpSink(); server = await mailServer(sink); });
after(async () => { await browser?.close(); await server?.dispose(); await sink?.close(); });

test('an address confirms by the button of its link, then hears of its table, then stops everything in one click', async () => {
  const base = server.url;
  const created = (await post(base + '/api/tables', { ruleset: 'wicked-age', title: 'By mail' })).json;
  const { table: id, owner_key: owner } = created;
  const invite = (await post(`${base}/api/tables/${id}/seats/p1/link?key=${owner}`)).json.invite;
  const p1 = (await post(`${base}/api/tables/${id}/claim?key=${invite}`)).json.key;
  const added = await post(`${base}/api/tables/${id}/notify/targets?key=${p1}`, { kind: 'email', address: 'ada@example.org' });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  await until(() => sink.mails.length === 1);
  const ask = decoded(sink.mails[0]);
  assert.match(ask, /Subject: Clash: please confirm this address/);
  assert.match(ask, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const token = /\/mail\/confirm\/([0-9a-f]{32})/.exec(ask)[1];

  // The link opens a page with one button; only the button confirms.
  const page = await person(browser);
  await page.goto(base + '/mail/confirm/' + token);
  assert.match(await page.textContent('main'), /ada@example\.org/);
  await looked(page, 'mail-confirm');
  await post(`${base}/api/tables/${id}/chat?key=${owner}`, { text: 'Not yet, surely?', to: 'p1' });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(sink.mails.length, 1, 'nothing before the button');
  await Promise.all([page.waitForURL(/\/mail\/confirm\//), page.click('button[type=submit]')]);
  await page.waitForSelector('text=Your address is confirmed');
  await looked(page, 'mail-confirmed');

  await post(`${base}/api/tables/${id}/chat?key=${owner}`, { text: 'Your move, Ada.', to: 'p1' });
  await until(() => sink.mails.length === 2);
  const news = decoded(sink.mails[1]);
  assert.match(news, /Your move, Ada\./);
  assert.doesNotMatch(news, /Subject:.*By mail/, 'no player text in the subject');

  // The link in the message stops everything, from a page with one button.
  await page.goto(base + '/mail/unsubscribe/' + token);
  await looked(page, 'mail-unsubscribe');
  await page.click('button[type=submit]');
  await page.waitForSelector('text=No more mail');
  await looked(page, 'mail-unsubscribed');
  await post(`${base}/api/tables/${id}/chat?key=${owner}`, { text: 'Still there?', to: 'p1' });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(sink.mails.length, 2, 'nothing after unsubscribing');
  // …and its owner can ask for mail again.
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Your address is confirmed');
});
