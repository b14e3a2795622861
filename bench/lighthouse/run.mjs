// Lighthouse (mobile, its default simulated slow 4G and 4x slower CPU) on the three pages a
// table's people open first: the lobby, the GM's page and a seat's page of an Iron Triangle
// table. The server is started by run.sh; this makes the table through the API, runs
// Lighthouse on each page RUNS times in a fresh headless Chromium, and prints each page's
// median scores and metrics.
//
//   CLASH_URL=http://127.0.0.1:PORT node run.mjs [RUNS]
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { writeFileSync } from 'node:fs';

const BASE = process.env.CLASH_URL;
const RUNS = Number(process.argv[2] || 3);
if (!BASE) throw new Error('set CLASH_URL to the server');

/** JSON from the API (the body's error when it refuses). */
async function api(method, path, body) {
  const r = await fetch(BASE + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const out = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(out)}`);
  return out;
}

/** An Iron Triangle table from its first ready-made setup, with p1 claimed by a player and
 * p2 played by the GM: the GM's link and the player's own. */
async function ironTriangleTable() {
  const t = await api('POST', '/api/tables', { ruleset: 'iron-triangle', title: 'Lighthouse duel' });
  const owner = encodeURIComponent(t.owner_key);
  const invite = await api('POST', `/api/tables/${t.table}/seats/p1/link?key=${owner}`);
  const claimed = await api('POST', `/api/tables/${t.table}/claim?key=${encodeURIComponent(invite.invite)}`);
  await api('POST', `/api/tables/${t.table}/seats/p2/link?key=${owner}`, { npc: true });
  return { gm: BASE + t.links.owner, seat: BASE + claimed.link };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One Lighthouse run of `url`: the scores and metrics that matter here. */
async function measure(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const r = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    const lhr = r.lhr;
    // LH_REPORTS=dir keeps each run's whole report, to see what a page waits on.
    if (process.env.LH_REPORTS) writeFileSync(`${process.env.LH_REPORTS}/${new URL(url).pathname.split('/').length}-${Date.now()}.json`, JSON.stringify(lhr));
    const audit = (id) => lhr.audits[id];
    const num = (id) => audit(id).numericValue;
    const failing = ['uses-text-compression', 'render-blocking-resources', 'unminified-javascript',
      'unminified-css', 'uses-long-cache-ttl', 'bf-cache']
      .filter((id) => audit(id) && audit(id).score !== null && audit(id).score < 0.9);
    return {
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      cls: num('cumulative-layout-shift'),
      tbt: num('total-blocking-time'),
      si: num('speed-index'),
      bytes: num('total-byte-weight'),
      failing,
      error: lhr.runtimeError ? lhr.runtimeError.message : null,
    };
  } finally {
    await chrome.kill();
  }
}

const table = await ironTriangleTable();
const pages = [['lobby', BASE + '/'], ['GM page', table.gm], ['seat page', table.seat]];
console.log(`Lighthouse ${RUNS} run(s) a page, mobile, simulated throttling; medians:`);
console.log('| page | performance | accessibility | best practices | first paint | largest paint | CLS | blocking | speed index | KiB sent | audits not passed |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [name, url] of pages) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(url));
  const errors = runs.map((r) => r.error).filter(Boolean);
  if (errors.length) console.error(`${name}: ${errors.join('; ')}`);
  const m = (k) => median(runs.map((r) => r[k]));
  const s = (ms) => (ms / 1000).toFixed(2) + ' s';
  const failing = [...new Set(runs.flatMap((r) => r.failing))].join(', ') || '—';
  console.log(`| ${name} | ${m('performance')} | ${m('accessibility')} | ${m('bestPractices')} | ${s(m('fcp'))} | ${s(m('lcp'))} | ${m('cls').toFixed(3)} | ${Math.round(m('tbt'))} ms | ${s(m('si'))} | ${Math.round(m('bytes') / 1024)} | ${failing} |`);
}
