// One Triforce turn played by three people in three browsers, set up by a fourth (the organiser).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, createTable, invite, join, shot, waitForEvents, logLines, clickMove, PHONE } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('three players see one Triforce turn live, each from their own link', async () => {
  const organiser = await person(browser);
  await createTable(organiser, 'Triforce — Three players', 'Triforce e2e');
  await shot(organiser, 'triforce-organiser-new-table');

  const links = {};
  for (const seat of ['p1', 'p2', 'p3']) links[seat] = await invite(organiser, seat);
  assert.equal(new Set(Object.values(links)).size, 3, 'one distinct link per seat');
  await shot(organiser, 'triforce-organiser-links');

  const p1 = await person(browser);
  const p2 = await person(browser);
  const p3 = await person(browser, PHONE);
  await join(p1, links.p1);
  await join(p2, links.p2);
  await join(p3, links.p3);
  assert.match(await p1.textContent('#who'), /seat p1/);

  // TF-14 / TV-1: on the empty board p1's only action is placing a small pyramid at home.
  const p1Moves = await p1.$$eval('#legal button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(p1Moves, ['Place · size: S']);
  assert.deepEqual(await p2.$$eval('#legal button', (bs) => bs.length), 0, 'p2 waits for its turn');

  // A move that is not legal now is refused, with the rule, next to the JSON box.
  await p2.click('#json-box summary');
  await p2.fill('#json-command', '{"type": "place", "size": "S"}');
  await p2.click('#json-send');
  await p2.waitForSelector('#json-error:not(:empty)');
  assert.match(await p2.textContent('#json-error'), /TF-\d+/);
  await shot(p2, 'triforce-p2-refused');

  // The board panel offers the placement too; use it.
  await p1.waitForSelector('#panel svg.board');
  await p1.click('#panel button:has-text("Place S at home")');
  for (const page of [p1, p2, p3, organiser]) await waitForEvents(page, 1);
  // Click-to-move: choosing the new piece on 1 shows its legal destinations (TV-2: 2 and 4).
  await p1.click('#panel g[data-pos="1"]');
  const legal = await p1.$$eval('#panel g.legal', (gs) => gs.map((g) => Number(g.dataset.pos)).sort((a, b) => a - b));
  assert.deepEqual(legal, [2, 4]);
  await shot(p1, 'triforce-p1-choosing-move');
  await p1.click('#panel g[data-pos="1"]');
  // After one action p1 may stop (TF-17).
  await p1.waitForSelector('#legal button:has-text("End turn")');
  await clickMove(p1, 'End turn');

  // Everyone's log shows the turn, and p2 now has moves.
  await p2.waitForSelector('#legal button');
  for (const page of [p1, p2, p3, organiser]) {
    await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
    const lines = (await logLines(page)).join('\n');
    assert.match(lines, /p1/);
  }
  assert.equal((await p1.$$eval('#legal button', (bs) => bs.length)), 0, 'p1 has finished its turn');
  const board = await p3.textContent('#render');
  assert.ok(board.length > 0, 'the board is drawn for p3');
  await shot(p1, 'triforce-p1-after-turn');
  await shot(p2, 'triforce-p2-its-turn');
  await shot(p3, 'triforce-p3-phone');
  await shot(organiser, 'triforce-organiser-after-turn');
});
