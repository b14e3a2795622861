// The Fair dice card checks the table itself, with verify.js: whenever the log's head moves it
// downloads the table's record (as this link may see it) and follows the hash chain; once the
// table has ended it also re-derives every roll and draw from the revealed secret, and requires
// the record to be the whole game. It remembers the heads it has seen (in this browser, with
// their positions) and requires each to stay in the log at its place, so a history rewritten
// behind the players' backs shows here — even at a table without chance, whose whole chain a
// host could rebuild from a new secret; and it hands them over as a file for `clash verify
// --seen`. The result is shown in words, to every viewer.
import { $, pageData, table } from './kit.js';
import { ClashVerify } from './verify.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {import('./verify.js').Failure} Failure what a failed check says: where, and what the record and this browser disagree on */
/** @typedef {import('./verify.js').Report} Report verify.js's report */

const out = $('fair-check');
if (out) start();

// The check, on a table page whose Fair dice card is there.
function start() {
  /** @type {import('./kit.js').Boot} */
  const boot = table.boot || pageData('boot');
  const record = '/api/tables/' + encodeURIComponent(boot.table) + '/export?key=' + encodeURIComponent(boot.key);
  // A check at most this often while a table is busy: each one downloads the whole record.
  const PAUSE_MS = 2000;

  // ---- Heads seen, kept per table in this browser -----------------------------------------
  const headsKey = 'clash.heads.' + boot.table;
  /** @type {Map<number, string>} log length → head hash */
  const heads = new Map();
  try { for (const [n, h] of JSON.parse(localStorage.getItem(headsKey) || '[]')) heads.set(n, h); } catch (e) { /* none */ }
  /** @param {number} length @param {string} head */
  function note(length, head) {
    if (!length || !head || heads.get(length) === head) return;
    heads.set(length, head);
    const kept = [...heads.entries()].slice(-500);
    try { localStorage.setItem(headsKey, JSON.stringify(kept)); } catch (e) { /* private mode */ }
  }

  // The heads as `clash verify --seen` reads them: each the hash of the entry at `pos`.
  function witnessed() {
    return [...heads.entries()].map(([n, hash]) => ({ pos: n - 1, hash }));
  }

  /** @type {(seat: string) => string} */
  let names = (seat) => (seat === 'gm' ? 'the GM' : 'a player');
  /** @param {Update} update */
  function learnNames(update) {
    /** @type {Map<string, string>} */
    const people = new Map(((update.room && update.room.people) || []).map((p) => [p.seat, p.name]));
    const host = (update.room && update.room.host) || 'the GM';
    names = (seat) => (seat === 'gm' ? people.get(seat) || host : people.get(seat) || 'a player');
  }

  // ---- When to check ----------------------------------------------------------------------
  /** @type {string | null} the head of the latest update */
  let wanted = null;
  /** @type {string | null} the head last checked */
  let checked = null;
  let running = false;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let last = 0;
  /** @param {Update} update */
  function onUpdate(update) {
    learnNames(update);
    note(update.event_count, update.head);
    wanted = update.head;
    schedule();
  }
  function schedule() {
    if (running || timer || wanted === checked) return;
    timer = setTimeout(run, Math.max(0, last + PAUSE_MS - Date.now()));
  }
  let retried = false;
  async function run() {
    timer = null;
    running = true;
    const target = wanted;
    // Until the head moves again this head counts as checked, whatever happens (a table
    // deleted meanwhile answers 404 for good: no point asking every two seconds).
    checked = target;
    try {
      const r = await fetch(record, { cache: 'no-store' });
      if (r.ok) {
        const seen = witnessed();
        /** @type {Report} */
        const report = await ClashVerify.verify(await r.text(), { seen, names });
        const failure = report.failures[0];
        // (A failure at a head seen earlier comes from the chain's check: the report has its entries' count.)
        if (failure && failure.head && failure.pos != null && failure.pos >= /** @type {number} */ (report.entries) && !retried) {
          // A head noted after this record was taken (another server of the table answered
          // first): look again before calling it a rewrite.
          retried = true;
          checked = null;
        } else {
          retried = false;
          show(report);
        }
      }
    } catch (e) {
      console.error(e);
    }
    last = Date.now();
    running = false;
    schedule();
  }

  // ---- Showing the result -----------------------------------------------------------------
  /** @param {string} kind @param {string} text */
  function line(kind, text) {
    const p = document.createElement('p');
    p.className = 'check ' + kind;
    p.textContent = text;
    return p;
  }
  // A failure alone in the main text (what else held is in the details); else each check.
  /** @param {Report} report */
  function show(report) {
    const failure = report.failures[0];
    // After the end a record should be the whole game; one that is not says so first.
    const partly = !failure && report.revealed && report.verdict === 'partly';
    /** @type {HTMLElement[]} */
    const parts = failure
      ? [line('bad', 'Something is wrong with this table’s log. ' + failure.text),
        line('note', 'Download the record below and run clash verify on it for a full report.')]
      : report.lines.map((l) => line('ok', l)).concat(report.unchecked.map((l) => line('wait', l)));
    if (partly) parts.unshift(line('wait', 'Partly verified: what is listed held, but not everything could be checked (see below).'));
    if (report.chance) {
      parts.push(line('note', 'This page checks the dice, not the rules: that every move was allowed and did what the log says is checked by clash verify on the downloaded record.'));
    }
    parts.push(details(report, failure));
    out.replaceChildren(...parts);
    out.dataset.verdict = report.verdict;
    // The card may be folded: its heading tells the outcome in a few words.
    const summary = $('fair-summary');
    if (summary) {
      summary.textContent = failure ? '✗ something is wrong' : partly ? '◐ partly verified'
        : report.chance ? '✓ every roll checked' : '✓ log intact';
      summary.className = 'fair-summary ' + (failure ? 'bad' : partly ? 'wait' : 'ok');
    }
  }
  /** @param {Report} report @param {Failure | undefined} failure */
  function details(report, failure) {
    const d = document.createElement('details');
    const s = document.createElement('summary');
    s.textContent = 'What was checked';
    const p = (/** @type {string} */ text) => Object.assign(document.createElement('p'), { className: 'hint', textContent: text });
    d.append(s);
    if (failure) for (const l of report.lines) d.append(p('Held: ' + l));
    // The time in the reader's own format, written when the fold is first opened: a browser
    // loads what it needs to write times in that format at the first one, which is slow on a
    // phone, and the check runs as the page loads.
    const when = new Date();
    const seen = (heads.size === 1 ? 'One head' : heads.size + ' heads') + ' seen by this browser must stay in the log.';
    const checked = p('');
    d.append(checked);
    d.addEventListener('toggle', () => {
      if (d.open && !checked.textContent) {
        checked.textContent = (report.entries ? report.entries + ' entries' : 'The record') + ', checked in this browser at '
          + when.toLocaleTimeString() + '. ' + seen;
      }
    });
    if (report.head) d.append(p('Head of the record: ' + report.head));
    if (heads.size) d.append(headsFile());
    if (failure && failure.head) d.append(p('Head seen earlier: ' + failure.head));
    if (failure && failure.sealed) d.append(p('SHA-256 of the revealed secret: ' + failure.sealed + '; the seal: ' + failure.commitment));
    return d;
  }

  // The heads this browser saw, as a file: anyone can check the final record against them with
  // `clash verify --seen heads.json record.json`. Made afresh with each report.
  /** @type {string | null} */
  let headsUrl = null;
  function headsFile() {
    if (headsUrl) URL.revokeObjectURL(headsUrl);
    const file = { format: 'clash-seen-heads/1', table: boot.table, heads: witnessed() };
    headsUrl = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.id = 'seen-heads';
    a.href = headsUrl;
    a.download = 'clash-' + boot.table + '-heads.json';
    a.textContent = 'Download the heads this browser saw';
    const wrap = document.createElement('p');
    wrap.append(a, ' (for clash verify --seen)');
    return wrap;
  }

  // The table's script loads this once the page has loaded, and then hands it every update
  // it drew before (app.js), as it does each one after.
  document.addEventListener('clash:update', (e) => onUpdate(/** @type {CustomEvent} */ (e).detail));
  if (boot.update) onUpdate(boot.update);
}
