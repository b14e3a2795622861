// Table page: the frame around a game's board for one link. Updates (the server's Update type)
// arrive over Server-Sent Events; the game's own panel draws the board and sends commands
// through the kit's `table.send`, and this script and the parts it imports do the rest: whose
// move it is and what just happened (turn.js), sending commands (send.js), the log and the
// table talk (talk.js), the GM's tools (gm.js), locking a closed table (lock.js), rule IDs as
// links to the rules (rule-links.js), Fair dice, moving a seat to another device, and
// remembering the table for the lobby.
import { $, el, table, panelFor, SESSION_ZERO, watchLengths, keepFocus, nameFolds, copyText, messageOf } from './kit.js';
import { api, asParam, boot, keyParam, owner, page, clearRefusals, refuse, request } from './state.js';
import { ask, send, onAnswer } from './send.js';
import { renderTurn, noteLines, afterMine, refocus, bannerChanged } from './turn.js';
import { renderLog, renderTalk } from './talk.js';
import { renderGm, refreshSeats, startGm } from './gm.js';
import { lock, relock } from './lock.js';
import { ruleLinker } from './rule-links.js';
import { renderTimes, startNotify } from './notify.js';

/** @typedef {import('./kit.js').Update} Update */

// The boards reach the page through the kit's `table`. A board that registers draws the
// newest update itself (the kit's `registerPanel`).
Object.assign(table, { send, boot, latest: () => page.latest, ask, boardAdded: () => { drawn = boardInput(page.latest); renderFallback(page.latest); }, focusLost: refocus });
onAnswer((u) => apply(u), afterMine);

// ---- Rules ------------------------------------------------------------------------------

/** @type {Promise<void> | null} */
let rulesLoaded = null;
/** @param {string} [anchor] */
async function openRules(anchor) {
  const sheet = $('rules-sheet');
  if (!boot.rules) return;
  if (!sheet.open) sheet.showModal();
  if (!rulesLoaded) {
    rulesLoaded = fetch(boot.rules.url + '/part').then((r) => r.text()).then((html) => {
      // The rules are rendered by the server from the game's own Markdown (raw HTML escaped).
      $('rules-body').innerHTML = html;
      for (const a of $('rules-body').querySelectorAll('a[href^="#"]')) {
        a.addEventListener('click', (/** @type {Event} */ e) => {
          const target = $('rules-body').querySelector('[id="' + CSS.escape((a.getAttribute('href') || '').slice(1)) + '"]');
          if (target) { e.preventDefault(); target.scrollIntoView(); }
        });
      }
    }).catch(() => { $('rules-body').textContent = 'The rules could not be loaded.'; });
  }
  await rulesLoaded;
  const target = anchor && $('rules-body').querySelector('[id="' + CSS.escape(anchor) + '"]');
  if (!target) { $('rules-body').scrollTop = 0; return; }
  // A rule's anchor opens the paragraph (or list item, or table row) that cites it.
  const shown = target.classList.contains('rule-anchor') ? target.closest('p, li, tr') || target : target;
  shown.scrollIntoView();
  shown.classList.add('flash');
  setTimeout(() => shown.classList.remove('flash'), 2500);
}
if (boot.rules) {
  $('rules-open').addEventListener('click', () => openRules());
  $('rules-close').addEventListener('click', () => $('rules-sheet').close());
} else {
  $('rules-open').hidden = true;
}
// Rule IDs anywhere on the table (labels, prompts, refusals, the log) become links to the rule.
ruleLinker(boot.rules, openRules).watch($('main'));
// Text fields count their text against their limit instead of cutting it.
watchLengths($('main'));
// Folds are named by their summaries.
nameFolds($('main'));

// ---- Fair dice --------------------------------------------------------------------------

// A seat's page adds its own seed before it first acts, unless one is in.
let seedSent = false;
/** @param {Update} update */
function renderFairness(update) {
  const f = update.fairness;
  if (!f || !$('commitment')) return;
  $('commitment').textContent = f.commitment;
  $('head').textContent = update.head;
  const seeds = Object.entries(f.seeds).map(([who, seed]) => (f.names[who] || (who === 'gm' ? update.room.host : 'a player')) + ': ' + seed);
  $('seeds').textContent = seeds.length ? seeds.join(' · ') : 'none yet';
  if (f.secret) $('secret').textContent = f.secret;
  if (f.chance === 'legacy') $('secret').textContent = 'this table was made before verifiable dice: its rolls cannot be checked';
  const mine = f.contributor;
  const off = !mine || update.closed || update.room.archived;
  $('seed-box').hidden = off;
  if (off) return;
  const input = $('my-seed');
  if (document.activeElement !== input) input.value = f.seeds[mine] || '';
  if (!f.seeds[mine] && !seedSent) {
    seedSent = true;
    addSeed(randomSeed(), $('seed-send'));
  }
}

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} seed @param {Element | null} from */
async function addSeed(seed, from) {
  const r = await request('/seed', 'POST', /** @type {import('./types/SeedRequest').SeedRequest} */ ({ seed: seed }));
  if (!r.ok) refuse(from, r.error, r.status);
}
$('seed-send').addEventListener('click', () => addSeed($('my-seed').value.trim(), $('seed-send')));

// ---- Moving this seat to another device --------------------------------------------------

/** @param {Update} update */
function renderMove(update) {
  const card = $('move-card');
  if (card) card.hidden = update.room.role !== 'player';
}
if ($('move-make')) {
  $('move-make').addEventListener('click', async () => {
    const r = await request('/move-link', 'POST');
    if (!r.ok) { refuse($('move-make'), r.error, r.status); return; }
    $('move-link').value = location.origin + r.body.link;
    $('move-link-box').hidden = false;
    $('move-link').focus();
  });
  $('move-copy').addEventListener('click', () => copyText($('move-link'), $('move-copy')));
}

// ---- The board, or the plain list of moves for a game without one -----------------------

/** @param {Update} update */
function renderFallback(update) {
  const hasPanel = !!panelFor(update.ruleset);
  const box = $('fallback');
  box.hidden = hasPanel || !update.seat || !!(update.view && update.view.session_zero);
  if (box.hidden) return;
  const list = $('legal');
  keepFocus(list, () => {
    list.replaceChildren();
    $('legal-hint').textContent = table.closed || (update.legal.length ? 'Tap a move to make it.' : 'Nothing to do right now.');
    for (const item of update.legal) {
      const b = el('button', { type: 'button', class: 'legal', onclick: () => send(item.command, null) }, item.label);
      b.disabled = !!table.closed;
      list.append(b);
    }
  });
}

/** @param {Update} update */
function renderAdvanced(update) {
  const list = $('json-legal');
  if (!list) return;
  $('view-json').textContent = JSON.stringify(update.view, null, 2);
  list.replaceChildren(...update.legal.map((item) => {
    const text = JSON.stringify(item.command);
    return el('li', {}, el('button', { type: 'button', class: 'link', onclick: () => { $('json-command').value = text; $('json-command').focus(); } }, text));
  }));
}

if (owner) {
  $('json-send').addEventListener('click', async () => {
    let command;
    try { command = JSON.parse($('json-command').value); } catch (e) { refuse($('json-error'), 'Not valid JSON: ' + messageOf(e)); return; }
    if (await send(command, $('json-error'))) $('json-command').value = '';
  });
}

// ---- Remembering the table for the lobby ------------------------------------------------

const savedKey = 'clash.tables';
/**
 * A table this browser keeps for the lobby's list.
 * @typedef {{ table: string, path: string, key: string, title: string, game: string, me: string, role: string, at: number }} Kept
 */
/** @returns {Kept[]} */
function saved() {
  try { return JSON.parse(localStorage.getItem(savedKey) || '[]'); } catch (e) { return []; }
}
/** @param {Update} update */
function remember(update) {
  const list = saved().filter((t) => !(t.table === boot.table && t.path === location.pathname));
  list.unshift({ table: boot.table, path: location.pathname, key: boot.key, title: update.title, game: boot.game,
    me: update.room.me, role: update.room.role === 'gm' ? 'GM' : update.room.role === 'spectator' ? 'spectator' : 'player',
    at: Date.now() });
  try { localStorage.setItem(savedKey, JSON.stringify(list.slice(0, 50))); } catch (e) { /* private mode */ }
}
function forget() {
  const list = saved().filter((t) => t.table !== boot.table);
  try { localStorage.setItem(savedKey, JSON.stringify(list)); } catch (e) { /* private mode */ }
}

// ---- Updates ----------------------------------------------------------------------------

/** @type {string | null} the title and name the lobby's list last kept */
let remembered = null;
/** @param {Update} update */
function apply(update) {
  // An update older than one already drawn: the answer to this page's own command, overtaken by
  // the live stream (which may bring the next player's move first, on a slow connection).
  // Drawing it would take the board back to a table that no longer exists, waiting on someone
  // who has already moved, until the next change; only the banner's recent lines are drawn
  // again, now that this page's own move is known.
  if (update.event_count < page.cursor) { noteLines([], false); return; }
  const first = update === boot.update;
  page.latest = update;
  // The table moved on: an old refusal no longer describes it.
  if (update.event_count > page.cursor) clearRefusals();
  page.cursor = Math.max(page.cursor, update.event_count);
  const closed = lock(update);
  $('render').textContent = update.render;
  $('title').textContent = update.title;
  $('who').textContent = update.room.me;
  renderTurn(update, closed);
  renderLog(update, first);
  noteLines(update.events, first);
  renderTalk(update);
  renderFairness(update);
  renderFallback(update);
  renderAdvanced(update);
  renderGm(update, closed);
  renderMove(update);
  refreshSeats(update);
  renderTimes(update);
  // A table in session zero shows the players' sheets (session-zero.js); then the game's board.
  drawBoard(update);
  relock();
  // A name handed in (a character, a party) is the name the lobby shows too.
  const known = update.title + '\n' + update.room.me;
  if (remembered !== known) { remembered = known; remember(update); }
  // The Fair dice card's own check (fair-check.js) follows the log's head.
  if (unchecked) unchecked.push(update);
  document.dispatchEvent(new CustomEvent('clash:update', { detail: update }));
  document.body.dataset.events = String(page.cursor);
  document.body.dataset.gameEvents = String(document.querySelectorAll('#log li:not(.table-event)').length);
}

/** What the board last drew from (`boardInput`), or null before it first drew. */
let drawn = /** @type {string | null} */ (null);

/**
 * The board (session zero's sheets while the table is in it), drawn again only when what it
 * draws from changed.
 * @param {Update} update
 */
function drawBoard(update) {
  const staged = !!(update.view && update.view.session_zero);
  const panel = panelFor(staged ? SESSION_ZERO : update.ruleset);
  const input = boardInput(update);
  if (!panel || input === drawn) return;
  drawn = input;
  try { panel($('panel'), update, send); } catch (e) { console.error(e); }
}

// A game's forms register after its board (their tag comes after the board's), and change what
// the board offers (a character made during play): it is drawn again with them. (Session
// zero's sheets redraw themselves: session-zero.js.)
document.addEventListener('clash-forms', (e) => {
  const update = page.latest;
  if (!update || (update.view && update.view.session_zero)) return;
  if (/** @type {CustomEvent} */ (e).detail !== update.ruleset) return;
  drawn = null;
  drawBoard(update);
  relock();
});

/**
 * What a board draws from, as text: the update without its new log lines and without who is
 * here now. The live stream's first message repeats the table as the page has it (the people
 * here then include this page), and drawing the same board again costs a phone's time and
 * paints it all anew, so the board is drawn again only when this changes. Keys in order: the
 * page's first update and the stream's list them differently.
 * @param {Update | null} update
 */
function boardInput(update) {
  if (!update) return null;
  const people = update.room.people.map((p) => Object.assign({}, p, { here: null }));
  const same = Object.assign({}, update, { events: null, room: Object.assign({}, update.room, { gm_here: null, people: people }) });
  return JSON.stringify(same, (_, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

// Apply a JSON Patch (RFC 6902) to `doc`: the add, replace and remove operations the server
// sends to carry only what changed since its last message.
/**
 * @param {any} doc the last update, as JSON (any shape: a patch may reach into a game's view)
 * @param {Array<{ op: string, path: string, value?: unknown }>} ops
 * @returns {any}
 */
function patched(doc, ops) {
  let root = doc;
  for (const op of ops) {
    if (op.path === '') { root = op.value; continue; }
    const parts = op.path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop() || '';
    let parent = root;
    for (const p of parts) parent = parent[p];
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, op.value);
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (op.op === 'remove') delete parent[last];
    else parent[last] = op.value;
  }
  return root;
}

/** @param {HTMLElement} status @param {boolean} deleted */
function gone(status, deleted) {
  const host = page.latest.room.host;
  const Host = host.charAt(0).toUpperCase() + host.slice(1);
  status.textContent = deleted ? host + ' deleted this table' : 'this link was revoked — ask ' + host + ' for a new one';
  status.className = 'status down';
  $('turn-text').textContent = deleted ? Host + ' deleted this table.' : 'This link no longer works. Ask ' + host + ' for a new one.';
  bannerChanged(false);
  if (deleted) forget();
}

/** The open live stream; null while the page is away (kept by the back/forward cache) or
 * once the link stopped working. */
let stream = /** @type {EventSource | null} */ (null);
/** Why the stream ended for good (revoked, deleted, rights changed): it is not opened again. */
let ended = false;

function connect() {
  const status = $('status');
  // The stream's own copy of the update: each patch applies to the one before it.
  /** @type {Update | null} */
  let streamed = null;
  const es = new EventSource(api + '/stream?' + keyParam + asParam + '&after=' + page.cursor + '&changes=patch');
  stream = es;
  es.addEventListener('open', () => { status.textContent = 'live'; status.className = 'status live'; });
  es.addEventListener('update', (m) => { const u = /** @type {Update} */ (JSON.parse(m.data)); streamed = u; apply(u); });
  es.addEventListener('patch', (m) => {
    const change = JSON.parse(m.data);
    if (!streamed || streamed.event_count !== change.base) {
      // Out of step (a message was missed): start the stream again from what this page has.
      es.close();
      connect();
      return;
    }
    const next = patched(structuredClone(streamed), change.patch);
    next.events = change.events;
    streamed = next;
    apply(next);
  });
  es.addEventListener('access', (m) => {
    // What this link may see changed (a seat taken over or given back, or moved to another
    // device): start again with the rights it has now.
    es.close();
    ended = true;
    const info = JSON.parse(m.data || '{}');
    status.textContent = info.message || 'what this page may show has changed';
    status.className = 'status down';
    $('turn-text').textContent = info.message || 'What this page may show has changed.';
    bannerChanged(false);
    setTimeout(() => { location.href = location.pathname; }, 1500);
  });
  es.addEventListener('revoked', () => { es.close(); ended = true; gone(status, false); });
  es.addEventListener('deleted', () => { es.close(); ended = true; gone(status, true); });
  es.addEventListener('error', () => { status.textContent = 'reconnecting…'; status.className = 'status down'; });
}

// Folded sections: open on a wide screen (marked data-open-wide, and drawn open, so nothing
// moves there), closed on a phone, where the board and the player's own controls come first
// (they fold out of sight, below the board).
if (!window.matchMedia('(min-width: 801px)').matches) {
  for (const d of document.querySelectorAll('details[data-open-wide]')) /** @type {HTMLDetailsElement} */ (d).open = false;
}

// Just claimed from an invite (the claim's redirect says so): the invite page is gone from the
// history, so the seat's page keeps a copy of itself there. Back then stays on it rather than
// leaving a fresh tab's blank page, and with it the only copy of this seat's link.
if (location.hash === '#claimed') {
  history.replaceState(null, '', location.pathname + location.search);
  history.pushState(null, '', location.pathname + location.search);
}

// The browser's back/forward cache keeps a page only without an open stream: it is closed when
// the page is left, and opened again from where the page stands when Back or Forward brings it
// back (what happened meanwhile then arrives as the stream's first update).
window.addEventListener('pagehide', () => {
  if (stream) stream.close();
  stream = null;
});
window.addEventListener('pageshow', (e) => {
  if (!e.persisted || stream || ended) return;
  $('status').textContent = 'reconnecting…';
  $('status').className = 'status down';
  connect();
});

// The Fair dice card's check (fair-check.js and its verifier) downloads and checks the whole
// record: it is fetched once the page has loaded, after the board, and is handed the updates
// drawn before it came.
/** @type {Update[] | null} the updates drawn before the check came, while it is on its way */
let unchecked = null;
const check = $('fair-check');
if (check && check.dataset.script) {
  const script = check.dataset.script;
  unchecked = [];
  window.addEventListener('load', () => {
    import(script).then(() => {
      const missed = unchecked || [];
      unchecked = null;
      for (const u of missed) document.dispatchEvent(new CustomEvent('clash:update', { detail: u }));
    }).catch((e) => { unchecked = null; check.textContent = 'The check could not be loaded: ' + messageOf(e); });
  }, { once: true });
}

startGm(forget);
startNotify();
apply(boot.update);
connect();
