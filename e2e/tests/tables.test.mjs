// A table lives through a restart of the server with its talk; the lobby lists the tables this
// browser made or joined; the GM renames, archives and deletes a table from its page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, invite, join, PHONE } from '../lib.mjs';
import { ownServer, createAt, say, openLog, waitForLine, lines, banner, waitForBanner, shotsBoth, assertNoRawTokens } from '../room.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await ownServer(); });
after(async () => { await browser?.close(); await server?.dispose(); });

test('table talk survives a restart; the lobby lists your tables; rename, archive and delete', async () => {
  const gm = await person(browser);
  await createAt(gm, server.url, 'Three players', 'Restart night');
  const p1Link = await invite(gm, 'p1');
  const p1 = await person(browser, PHONE);
  await join(p1, p1Link);
  await say(p1, 'Back in five minutes');
  await say(gm, 'Take your time');

  // The server stops and starts again: the pages reconnect by themselves, and the talk is
  // still there for a page opened afresh.
  await server.stop();
  await gm.waitForSelector('#status.down');
  await server.start();
  await gm.waitForSelector('#status.live', { timeout: 20000 });
  await say(gm, 'Everyone back?');
  await p1.reload();
  await p1.waitForSelector('#status.live');
  await openLog(p1);
  await waitForLine(p1, /Back in five minutes/);
  // Triforce has no GM: the seat that made the table speaks as its host.
  await waitForLine(p1, /The host: Take your time/);
  await waitForLine(p1, /The host: Everyone back\?/);
  const talk = (await lines(p1)).filter((l) => /: (Back|Take|Everyone)/.test(l));
  assert.deepEqual(talk.map((l) => l.replace(/^.*: /, '')), ['Back in five minutes', 'Take your time', 'Everyone back?'], 'in order');

  // The lobby of each browser lists the tables it made or joined, with whose move it is.
  const lobby = await gm.context().newPage();
  await lobby.goto(server.url + '/');
  await lobby.waitForSelector('#mine-list li');
  // Triforce has no GM: its organiser is the host there (issue 38), named once.
  assert.match(await lobby.textContent('#mine-list'), /Restart night · Triforce · you are the host(?! \(host\))/);
  await p1.goto(server.url + '/');
  await p1.waitForSelector('#mine-list li');
  assert.match(await p1.textContent('#mine-list'), /Restart night/);
  assert.match(await p1.textContent('#mine-list'), /Your move/);
  await shotsBoth(p1, 'lobby-your-tables');
  await assertNoRawTokens(p1, 'the lobby');
  await p1.click('#mine-list a');
  await p1.waitForSelector('#status.live');

  // The rules sheet from the keyboard: Enter opens it, Escape closes it.
  await p1.focus('#rules-open');
  await p1.keyboard.press('Enter');
  await p1.waitForSelector('dialog#rules-sheet[open] #rules-charts');
  assert.match(await p1.textContent('#rules-charts'), /Combat/);
  await p1.keyboard.press('Escape');
  await p1.waitForFunction(() => !document.getElementById('rules-sheet').open);
  // Whose move, reveals and rolls are announced to screen readers (one live region), and the log.
  assert.equal(await p1.getAttribute('#announcer', 'aria-live'), 'polite');
  assert.equal(await p1.getAttribute('#log', 'aria-live'), 'polite');

  // Rename: every page follows.
  await gm.click('#manage-card > summary');
  await gm.fill('#rename-title', 'Friday pyramids');
  await gm.click('#rename button');
  await p1.waitForFunction(() => document.getElementById('title').textContent === 'Friday pyramids');
  assert.match(await p1.title(), /Friday pyramids/);

  // Archive: no moves or talk until it is brought back; the lobby files it under Archived.
  await gm.click('#archive');
  await waitForBanner(p1, /archived/);
  assert.equal(await p1.isVisible('#chat-text'), false, 'no talk at an archived table');
  await lobby.reload();
  await lobby.waitForSelector('#archived-list li', { state: 'attached' });
  await lobby.click('#archived > summary');
  assert.match(await lobby.textContent('#archived-list'), /Friday pyramids/);
  await gm.click('#archive');
  await waitForBanner(p1, /^(Your move|Waiting)/);

  // Delete: asked first; then the table is gone for everyone.
  await gm.click('#delete');
  await gm.waitForSelector('dialog#confirm[open]');
  assert.match(await gm.textContent('#confirm-text'), /Delete “Friday pyramids” for good\?/);
  await Promise.all([gm.waitForURL(server.url + '/'), gm.click('#confirm-yes')]);
  await waitForBanner(p1, /deleted/);
  await lobby.reload();
  await lobby.waitForTimeout(300);
  assert.doesNotMatch(await lobby.textContent('body'), /Friday pyramids/);
});
