import { launch, person, createTable, invite, join, shot, PHONE } from './lib.mjs';
const browser = await launch();
try {
  const gm = await person(browser);
  gm.on('console', (m) => console.log('gm console:', m.text()));
  await createTable(gm, process.argv[2] || 'Two players', 'Smoke');
  const link = await invite(gm, 'p1');
  const p1 = await person(browser, PHONE);
  p1.on('console', (m) => console.log('p1 console:', m.text()));
  await join(p1, link);
  await gm.waitForTimeout(800);
  await shot(gm, 'smoke-gm');
  await shot(p1, 'smoke-p1');
  await p1.fill('#chat-text', 'hello table');
  await p1.click('#chat-send');
  await gm.waitForTimeout(800);
  await shot(gm, 'smoke-gm2');
  console.log(await gm.textContent('#log'));
  console.log(await gm.textContent('#turn'));
} finally { await browser.close(); }
