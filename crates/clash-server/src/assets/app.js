// Table page: the frame around a game's board for one link. Updates (the server's Update type)
// arrive over Server-Sent Events; the game's own panel draws the board and sends commands
// through the kit's `table.send`, and this script does the rest: whose move it is (banner, tab title,
// sound, notification), who is here, the log with its filter and the table talk, confirmations
// for weighty commands, the rules sheet, the GM's tools, and remembering the table for the lobby.
import { $, el, errorOf, errorText, pageData, table, panelFor, SESSION_ZERO } from './kit.js';

/** @typedef {import('./kit.js').Update} Update */
/**
 * The body a route takes, as generated from the Rust side (types/{Name}.ts).
 * @typedef {{
 *   CommandRequest: import('./types/CommandRequest').CommandRequest<unknown>,
 *   ChatLine: import('./types/ChatLine').ChatLine,
 *   SeedRequest: import('./types/SeedRequest').SeedRequest,
 *   UndoRequest: import('./types/UndoRequest').UndoRequest,
 *   RenameRequest: import('./types/RenameRequest').RenameRequest,
 *   ArchiveRequest: import('./types/ArchiveRequest').ArchiveRequest,
 *   LinkRequest: import('./types/LinkRequest').LinkRequest,
 *   BotRequest: import('./types/BotRequest').BotRequest,
 * }} Requests
 */
/**
 * @template {keyof Requests} K
 * @typedef {Requests[K]} Req
 */

/** @type {import('./kit.js').Boot} */
const boot = pageData('boot');
const api = '/api/tables/' + encodeURIComponent(boot.table);
const keyParam = 'key=' + encodeURIComponent(boot.key);
const asParam = boot.as ? '&as=' + encodeURIComponent(boot.as) : '';
const seen = new Set();
const owner = boot.role === 'owner';
let cursor = 0;
let latest = boot.update;
let inFlight = false;

// ---- Sending commands -------------------------------------------------------------------

// A fresh id for each command this page sends: a retry after a lost answer reuses it, and
// the server answers it again instead of applying it twice.
function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// The confirmation dialog: resolves true on "Yes".
function ask(question, yes) {
  const dialog = $('confirm');
  $('confirm-text').textContent = question;
  $('confirm-yes').textContent = yes || 'Yes, do it';
  return new Promise((done) => {
    dialog.addEventListener('close', () => done(dialog.returnValue === 'yes'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
    $('confirm-yes').focus();
  });
}

function showError(target, err, status) {
  if (!target) return;
  target.textContent = errorText(err, status);
  linkRules(target);
}

// Send one command as this page's seat; errors appear in `errorEl`, next to the control used.
// The server is asked to refuse weighty commands with their question first (`ask`); the page
// asks, and sends again only on yes. `revision` is the log length this page has seen: the
// server refuses the command if this seat acted since (a double click, or another tab). One
// command at a time: a second tap while one is on its way does nothing.
// A board that has asked its own question (the panel kit's "Really …? Yes / No", or a caller
// passing `{ confirmed: true }`) is not asked again.
let lastClick = { target: null, at: 0 };
document.addEventListener('click', (e) => { lastClick = { target: e.target, at: Date.now() }; }, true);
function askedAlready() {
  const t = lastClick.target;
  return Date.now() - lastClick.at < 2000 && t instanceof Element && !!t.closest('.kit-confirm');
}
async function send(command, errorEl, options) {
  const target = errorEl || $('legal-error');
  const confirmed = !!(options && options.confirmed) || askedAlready();
  if (inFlight) return false;
  if (target) target.textContent = '';
  inFlight = true;
  document.body.classList.add('busy');
  try {
    const id = commandId();
    let answer = await post(command, id, !confirmed);
    if (answer.confirm) {
      if (!(await ask(answer.confirm))) return false;
      answer = await post(command, id, false);
    }
    if (answer.error) { showError(target, answer.error, answer.status); return false; }
    apply(answer.update);
    return true;
  } finally {
    inFlight = false;
    document.body.classList.remove('busy');
  }
}

async function post(command, id, askFirst) {
  /** @type {Req<'CommandRequest'>} */
  const request = { command: command, as: boot.as || undefined, id: id, revision: cursor, ask: askFirst };
  const body = JSON.stringify(request);
  for (let attempt = 1; ; attempt++) {
    let r;
    try {
      r = await fetch(api + '/commands?' + keyParam, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body });
    } catch (e) {
      if (attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
      return { error: { message: 'Could not reach the server: ' + e.message } };
    }
    if (r.status === 503 && attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
    const answer = await r.json().catch(() => ({}));
    if (r.ok) return { update: answer };
    const err = answer.error || {};
    if (err.code === 'confirm') return { confirm: err.message };
    return { error: err, status: r.status };
  }
}
// The boards reach the page through the kit's `table`.
Object.assign(table, { send, boot, latest: () => latest, ask, boardAdded: () => renderFallback(latest) });

// ---- Rules ------------------------------------------------------------------------------

const ruleId = /\b((?:IT|TF|ND|WA)-\d+(?:\.\d+)?|D-\d+)\b/g;
// Turn rule IDs in `node`'s text into links that open the rules at their section.
function linkRules(node) {
  if (!boot.rules || !node || node.dataset.linked === node.textContent) return;
  const text = node.textContent;
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(ruleId)) {
    const base = m[1].replace(/\.\d+$/, '');
    const anchor = boot.rules.finder[base] || boot.rules.finder[m[1]];
    if (!anchor) continue;
    parts.push(text.slice(last, m.index));
    parts.push(el('a', { href: boot.rules.url + '#' + anchor, class: 'rule', 'data-anchor': anchor,
      onclick: (e) => { e.preventDefault(); openRules(anchor); } }, m[1]));
    last = m.index + m[0].length;
  }
  if (!parts.length) { node.dataset.linked = text; return; }
  parts.push(text.slice(last));
  node.replaceChildren(...parts);
  node.dataset.linked = node.textContent;
}

let rulesLoaded = null;
async function openRules(anchor) {
  const sheet = $('rules-sheet');
  if (!boot.rules) return;
  if (!sheet.open) sheet.showModal();
  if (!rulesLoaded) {
    rulesLoaded = fetch(boot.rules.url + '/part').then((r) => r.text()).then((html) => {
      // The rules are rendered by the server from the game's own Markdown (raw HTML escaped).
      $('rules-body').innerHTML = html;
      for (const a of $('rules-body').querySelectorAll('a[href^="#"]')) {
        a.addEventListener('click', (e) => {
          const target = $('rules-body').querySelector('[id="' + CSS.escape(a.getAttribute('href').slice(1)) + '"]');
          if (target) { e.preventDefault(); target.scrollIntoView(); }
        });
      }
    }).catch(() => { $('rules-body').textContent = 'The rules could not be loaded.'; });
  }
  await rulesLoaded;
  const target = anchor && $('rules-body').querySelector('[id="' + CSS.escape(anchor) + '"]');
  if (target) { target.scrollIntoView(); target.classList.add('flash'); setTimeout(() => target.classList.remove('flash'), 2000); }
  else $('rules-body').scrollTop = 0;
}
if (boot.rules) {
  $('rules-open').addEventListener('click', () => openRules(null));
  $('rules-close').addEventListener('click', () => $('rules-sheet').close());
} else {
  $('rules-open').hidden = true;
}
// Refusals the board shows get their rule IDs linked as they appear.
new MutationObserver(() => {
  for (const e of document.querySelectorAll('#panel .error, #panel [role="alert"]')) linkRules(e);
}).observe($('panel'), { childList: true, subtree: true, characterData: true });

// ---- Whose move, alerts, who is here ----------------------------------------------------

let wasYours = null;
const alertsKey = 'clash.alerts';
let alertsOn = localStorage.getItem(alertsKey) === 'on';
function renderAlerts() {
  const b = $('alerts');
  b.textContent = alertsOn ? 'Alerts on' : 'Alerts off';
  b.setAttribute('aria-pressed', String(alertsOn));
  b.title = alertsOn ? 'A sound, and a notification when this tab is in the background, when it is your move'
    : 'Turn on a sound and a notification for your move';
}
$('alerts').addEventListener('click', async () => {
  alertsOn = !alertsOn;
  localStorage.setItem(alertsKey, alertsOn ? 'on' : 'off');
  if (alertsOn && window.Notification && Notification.permission === 'default') {
    try { await Notification.requestPermission(); } catch (e) { /* the sound still plays */ }
  }
  if (alertsOn) chime();
  renderAlerts();
});
renderAlerts();

let audio = null;
function chime() {
  try {
    audio = audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    const t = audio.currentTime;
    for (const [i, f] of [[0, 660], [1, 880]]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t + i * 0.18);
      g.gain.exponentialRampToValueAtTime(0.2, t + i * 0.18 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.18 + 0.16);
      o.connect(g).connect(audio.destination);
      o.start(t + i * 0.18);
      o.stop(t + i * 0.18 + 0.17);
    }
  } catch (e) { /* no sound on this device */ }
}

/** @param {Update} update */
function yourMoveNow(update) {
  if (!alertsOn) return;
  chime();
  if (document.hidden && window.Notification && Notification.permission === 'granted') {
    try { new Notification('Your move — ' + update.title, { body: boot.game, tag: 'clash-' + boot.table }); } catch (e) { /* ignore */ }
  }
}

/** @param {Update} update */
function renderTurn(update) {
  const room = update.room;
  const turn = room.turn;
  const mine = turn.yours || (turn.npc && turn.npc.length > 0);
  const box = $('turn');
  box.className = 'turn' + (mine ? ' yours' : '') + (turn.over ? ' over' : '');
  const text = $('turn-text');
  text.replaceChildren(turn.text);
  if (turn.npc && turn.npc.length && !turn.yours) {
    for (const n of turn.npc) {
      text.append(' ', el('a', { href: location.pathname + '?as=' + n.seat, class: 'npc-link' }, 'Play ' + n.name));
    }
  }
  document.body.dataset.yours = String(!!mine);
  document.title = (mine ? '● Your move — ' : turn.over ? 'Game over — ' : '') + update.title + ' — Clash';
  if (wasYours === false && mine) yourMoveNow(update);
  wasYours = !!mine;
  const people = $('people');
  const items = [];
  const gmSeat = room.people.some((p) => p.seat === 'gm');
  if (!gmSeat) items.push(person('the GM', room.gm_here, owner ? 'you' : null));
  for (const p of room.people) {
    const waiting = turn.waiting.some((w) => w.seat === p.seat);
    const note = p.seat === update.seat || (p.seat === 'gm' && owner) ? 'you'
      : p.holder === 'npc' ? 'played by the GM' : p.holder === 'bot' ? 'played by a bot' : p.holder === 'open' ? 'no player yet'
        : p.holder === 'invited' ? 'invited' : null;
    // A bot is always at the table; the GM's own seat is here when the GM is.
    const here = p.holder === 'npc' || p.seat === 'gm' ? room.gm_here : p.holder === 'bot' || p.here;
    items.push(person(p.name, here, note, waiting));
  }
  if (room.spectators) items.push(el('li', { class: 'person watchers' }, room.spectators === 1 ? '1 watching' : room.spectators + ' watching'));
  people.replaceChildren(...items);
}

function person(name, here, note, waiting) {
  const li = el('li', { class: 'person' + (here ? ' here' : ' away') + (waiting ? ' waiting' : '') },
    el('span', { class: 'dot', 'aria-hidden': 'true' }), name);
  if (note) li.append(el('span', { class: 'note' }, ' (' + note + ')'));
  li.append(el('span', { class: 'sr-only' }, here ? ', connected' : ', not connected'));
  if (waiting) li.append(el('span', { class: 'sr-only' }, ', to move'));
  li.title = name + (here ? ' has the table open' : ' is not connected') + (waiting ? ' — the game waits for them' : '');
  return li;
}

// ---- Log and table talk -----------------------------------------------------------------

/** @param {import('./types/SeenEntry').SeenEntry} ev */
function kindOf(ev) {
  if (ev.table && (ev.table.type === 'said' || ev.table.type === 'whispered')) return 'talk';
  if (ev.table) return 'table';
  return ev.reveals ? 'reveal' : 'game';
}

/** @param {Update} update */
function renderLog(update) {
  const log = $('log');
  let added = false;
  for (const ev of update.events) {
    if (seen.has(ev.index)) continue;
    seen.add(ev.index);
    const kind = kindOf(ev);
    const li = el('li', { 'data-index': String(ev.index), 'data-kind': kind, class: 'fresh ' + kind + (ev.table ? ' table-event' : '') });
    if (kind === 'talk') {
      // What a person typed stays in an isolate of its own: a right-to-left line or a stray
      // direction mark cannot reorder the speaker's name or the lines around it.
      const colon = ev.text.indexOf(': ');
      li.append(el('b', {}, ev.text.slice(0, colon + 1)), ' ', el('bdi', {}, ev.text.slice(colon + 2)));
      if (ev.table.type === 'whispered') li.classList.add('whisper');
    } else {
      li.textContent = ev.text;
      linkRules(li);
    }
    if (ev.table && ev.table.type === 'undone') {
      for (let i = ev.table.at; i <= ev.table.at + ev.table.events; i++) {
        const gone = log.querySelector('li[data-index="' + i + '"]');
        if (gone) { gone.classList.add('undone'); gone.title = 'Taken back by the GM'; }
      }
    }
    log.append(li);
    countUnread(ev, update === boot.update);
    added = true;
    setTimeout(() => li.classList.remove('fresh'), 2500);
  }
  if (added) log.scrollTop = log.scrollHeight;
}

// While the log is folded away (on a phone), its summary counts what arrived since.
let unread = { lines: 0, talk: 0 };
/**
 * @param {import('./types/SeenEntry').SeenEntry} ev
 * @param {boolean} first
 */
function countUnread(ev, first) {
  if (first || $('log-card').open) return;
  unread.lines++;
  if (kindOf(ev) === 'talk') unread.talk++;
  const parts = [];
  if (unread.talk) parts.push(unread.talk + ' talk');
  parts.push(unread.lines + ' new');
  $('log-new').textContent = parts.join(' · ');
  $('log-new').hidden = false;
}
$('log-card').addEventListener('toggle', () => {
  if (!$('log-card').open) return;
  unread = { lines: 0, talk: 0 };
  $('log-new').hidden = true;
  $('log').scrollTop = $('log').scrollHeight;
});

for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-filter]'))) {
  b.addEventListener('click', () => {
    $('log').dataset.filter = b.dataset.filter;
    for (const o of document.querySelectorAll('[data-filter]')) o.setAttribute('aria-pressed', String(o === b));
    $('log').scrollTop = $('log').scrollHeight;
  });
}

/** @param {Update} update */
function renderTalk(update) {
  const room = update.room;
  $('chat').hidden = !room.can_talk;
  $('chat-readonly').hidden = room.can_talk || room.role !== 'spectator';
  $('whisper-box').hidden = !room.can_whisper;
  // The GM may whisper to one player: every seat a player holds, by the name the table knows.
  const to = $('whisper-to');
  const players = room.can_talk && room.role === 'gm'
    ? room.people.filter((p) => p.holder === 'player') : [];
  $('whisper-to-box').hidden = players.length === 0;
  const chosen = to.value;
  to.replaceChildren(el('option', { value: '' }, 'Everyone'),
    ...players.map((p) => el('option', { value: p.seat }, p.name + ' only')));
  if (players.some((p) => p.seat === chosen)) to.value = chosen;
}

$('chat').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $('chat-text');
  const text = input.value.trim();
  if (!text) return;
  $('chat-error').textContent = '';
  const r = await fetch(api + '/chat?' + keyParam, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(/** @satisfies {Req<'ChatLine'>} */ ({ text: text, to_gm: $('whisper').checked, to: $('whisper-to').value || undefined })),
  }).catch((err) => ({ ok: false, status: 0, json: async () => ({ error: { message: err.message } }) }));
  if (!r.ok) { showError($('chat-error'), await errorOf(r), r.status); return; }
  input.value = '';
  $('whisper').checked = false;
});

// ---- Fair dice --------------------------------------------------------------------------

// A seat's page adds its own seed before it first acts, unless one is in.
let seedSent = false;
/** @param {Update} update */
function renderFairness(update) {
  const f = update.fairness;
  if (!f || !$('commitment')) return;
  $('commitment').textContent = f.commitment;
  $('head').textContent = update.head;
  const seeds = Object.entries(f.seeds).map(([who, seed]) => (f.names[who] || (who === 'gm' ? 'the GM' : 'a player')) + ': ' + seed);
  $('seeds').textContent = seeds.length ? seeds.join(' · ') : 'none yet';
  if (f.secret) $('secret').textContent = f.secret;
  if (f.chance === 'legacy') $('secret').textContent = 'this table was made before verifiable dice: its rolls cannot be checked';
  const box = $('seed-box');
  const mine = f.contributor;
  const off = !mine || update.closed || update.room.archived;
  box.hidden = off;
  if (off) return;
  const input = $('my-seed');
  if (document.activeElement !== input) input.value = f.seeds[mine] || '';
  if (!f.seeds[mine] && !seedSent) {
    seedSent = true;
    addSeed(randomSeed());
  }
}

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function addSeed(seed) {
  $('fair-error').textContent = '';
  const r = await fetch(api + '/seed?' + keyParam, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(/** @satisfies {Req<'SeedRequest'>} */ ({ seed: seed })),
  }).catch((e) => ({ ok: false, status: 0, json: async () => ({ error: { message: e.message } }) }));
  if (!r.ok) showError($('fair-error'), await errorOf(r), r.status);
}
$('seed-send').addEventListener('click', () => addSeed($('my-seed').value.trim()));

// ---- The board, or the plain list of moves for a game without one -----------------------

/** @param {Update} update */
function renderFallback(update) {
  const hasPanel = !!panelFor(update.ruleset);
  const box = $('fallback');
  box.hidden = hasPanel || !update.seat || !!(update.view && update.view.session_zero);
  if (box.hidden) return;
  const list = $('legal');
  list.replaceChildren();
  $('legal-hint').textContent = update.legal.length ? 'Tap a move to make it.' : 'Nothing to do right now.';
  for (const item of update.legal) {
    list.append(el('button', { type: 'button', class: 'legal', onclick: () => send(item.command, $('legal-error')) }, item.label));
  }
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

// ---- The GM's tools ---------------------------------------------------------------------

/** @param {Update} update */
function renderGm(update) {
  if (!owner) return;
  const offer = update.room.undo;
  $('undo-card').hidden = update.closed;
  const b = $('undo');
  b.disabled = !offer || offer.n == null;
  b.textContent = offer && offer.n != null ? offer.text : 'Take back';
  b.title = offer ? offer.text : '';
  $('undo-card').querySelector('.hint').textContent = offer && offer.n == null ? offer.text
    : 'Takes back the last command, as long as nothing was rolled, drawn or revealed since. Everyone\'s log says so; nothing is erased.';
  const rename = $('rename-title');
  if (document.activeElement !== rename) rename.value = update.title;
  $('archive').textContent = update.room.archived ? 'Bring back into play' : 'Archive';
}

async function gmCall(path, method, body, errorId) {
  $(errorId).textContent = '';
  const r = await fetch(api + path + '?' + keyParam, {
    method: method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
  }).catch((e) => ({ ok: false, status: 0, json: async () => ({ error: { message: e.message } }) }));
  if (!r.ok) { showError($(errorId), await errorOf(r), r.status); return false; }
  return true;
}

if (owner) {
  $('invite-hint').addEventListener('click', (e) => {
    e.preventDefault();
    $('seats-card').open = true;
    $('seats-card').scrollIntoView();
    const first = $('seats').querySelector('button, input');
    if (first) first.focus();
  });
  $('undo').addEventListener('click', async () => {
    const offer = latest.room.undo;
    if (!offer || offer.n == null) return;
    if (!(await ask(offer.text + '? Everyone\'s log will say so.', 'Take it back'))) return;
    await gmCall('/undo', 'POST', /** @satisfies {Req<'UndoRequest'>} */ ({ n: offer.n }), 'undo-error');
  });
  $('rename').addEventListener('submit', async (e) => {
    e.preventDefault();
    await gmCall('/rename', 'POST', /** @satisfies {Req<'RenameRequest'>} */ ({ title: $('rename-title').value }), 'manage-error');
  });
  $('archive').addEventListener('click', async () => {
    await gmCall('/archive', 'POST', /** @satisfies {Req<'ArchiveRequest'>} */ ({ archived: !latest.room.archived }), 'manage-error');
  });
  $('delete').addEventListener('click', async () => {
    if (!(await ask('Delete “' + latest.title + '” for good? Every link to it stops working and its log is gone. This cannot be undone.', 'Delete it'))) return;
    if (await gmCall('', 'DELETE', null, 'manage-error')) {
      forget();
      location.href = '/';
    }
  });
  $('close-table').addEventListener('click', async () => {
    if (!(await ask('End the table? No more moves can be made, and the secret behind the dice is revealed to everyone.', 'End the table'))) return;
    await gmCall('/close', 'POST', null, 'manage-error');
  });
  const jsonSend = $('json-send');
  jsonSend.addEventListener('click', async () => {
    const text = $('json-command').value;
    let command;
    try { command = JSON.parse(text); } catch (e) { $('json-error').textContent = 'Not valid JSON: ' + e.message; return; }
    if (await send(command, $('json-error'))) $('json-command').value = '';
  });
}

// The GM's seat list: who holds each seat, their links, and buttons to manage them.
// Answers can come back out of order: never draw an older list over a newer one.
let seatsDrawn = -1;
function renderSeats(summary) {
  const box = $('seats');
  if (!box || summary.event_count < seatsDrawn) return;
  seatsDrawn = summary.event_count;
  box.replaceChildren();
  const names = {};
  for (const p of latest.room.people) names[p.seat] = p.name;
  const abs = (path) => location.origin + path;
  const row = (seat, name, holder, link, buttons) => {
    const r = el('div', { class: 'seat-row', 'data-seat': seat }, el('span', { class: 'name' }, name), el('span', { class: 'holder' }, holder));
    if (link) {
      const input = el('input', { readonly: 'readonly', value: abs(link), 'aria-label': 'link for ' + name, onfocus: (e) => e.target.select() });
      r.append(input, el('button', { type: 'button', class: 'small', onclick: () => copy(input) }, 'Copy'));
    }
    for (const b of buttons) r.append(b);
    return r;
  };
  let unclaimed = false;
  for (const s of summary.seats) {
    const name = names[s.seat] || s.seat;
    const buttons = [];
    const manage = (label, method, body, path) => el('button', { type: 'button', class: 'small',
      onclick: () => manageSeat(s.seat, method, body, path) }, label);
    if (s.holder === 'owner') {
      box.append(row(s.seat, name, 'you', null, [botSeater(s.seat, 'your NPCs', 'Let a bot play your NPCs')]));
      continue;
    }
    if (s.holder === 'open' || s.holder === 'invited') unclaimed = true;
    if (s.holder === 'bot') {
      // What the bot leaves to people (words, table business) the GM does from the seat's page.
      if (s.under !== 'owner') buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Act for ' + name + ' here'));
      buttons.push(manage('Take the seat back', 'DELETE', null, '/bot'));
      const other = s.bot === 'strong' ? 'casual' : 'strong';
      buttons.push(manage('Make it ' + other, 'POST', /** @satisfies {Req<'BotRequest'>} */ ({ strength: other }), '/bot'));
    } else if (s.holder === 'open') {
      buttons.push(manage('Create invite link', 'POST', /** @satisfies {Req<'LinkRequest'>} */ ({ npc: false })), manage('Play as NPC', 'POST', /** @satisfies {Req<'LinkRequest'>} */ ({ npc: true })), botSeater(s.seat, name));
    } else if (s.holder === 'invited' || s.holder === 'player') {
      buttons.push(manage('New link', 'POST', /** @satisfies {Req<'LinkRequest'>} */ ({ npc: false })), manage('Play as NPC', 'POST', /** @satisfies {Req<'LinkRequest'>} */ ({ npc: true })), manage('Revoke', 'DELETE'));
    } else {
      buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Play ' + name + ' here'));
      if (s.suspended) buttons.push(manage('Give back to its player', 'POST', null, '/hand-back'));
      buttons.push(manage('Invite a player instead', 'POST', /** @satisfies {Req<'LinkRequest'>} */ ({ npc: false })), botSeater(s.seat, name));
    }
    const botHolder = s.under === 'owner' ? 'you, with a ' + s.bot + ' bot playing your NPCs in conflicts'
      : 'a ' + s.bot + ' bot' + (s.under === 'npc' ? ' (your NPC when you take it back)' : '');
    const holder = s.holder === 'bot' ? botHolder : { open: 'no one yet', invited: 'invite not used yet', player: 'a player (their link is theirs alone)', npc: 'you, as an NPC' }[s.holder] || s.holder;
    box.append(row(s.seat, name, holder, s.holder === 'invited' ? s.link : null, buttons));
  }
  if (summary.links) {
    const replace = (which, label) => el('button', { type: 'button', class: 'small',
      onclick: () => replaceLink(which) }, label);
    box.append(row('watch', 'Spectators', 'anyone with this link watches', summary.links.spectator, [replace('spectator', 'New watch link')]));
    box.append(row('gm-link', 'You', 'your own GM link — bookmark it', summary.links.owner, [replace('owner', 'New GM link')]));
  }
  // While players still have to be invited, the GM needs these links first: the banner points
  // at them (on a phone they sit below the board).
  if (unclaimed) $('seats-card').open = true;
  $('invite-hint').hidden = !unclaimed;
}

// A bot for an NPC seat or an empty seat: pick how well it plays, then seat it.
function botSeater(seat, name, label) {
  const pick = el('select', { 'aria-label': 'how well the bot for ' + name + ' plays' },
    el('option', { value: 'casual' }, 'casual'), el('option', { value: 'strong' }, 'strong'));
  const go = el('button', { type: 'button', class: 'small',
    onclick: () => manageSeat(seat, 'POST', /** @satisfies {Req<'BotRequest'>} */ ({ strength: pick.value }), '/bot') }, label || 'Seat a bot');
  return el('span', { class: 'bot-seater' }, pick, go);
}

// A new watch link or GM link: the old one stops working at once. With a new GM link this
// page moves to it (bookmark it again).
async function replaceLink(which) {
  const question = which === 'owner'
    ? 'Make a new GM link? This page moves to it and the old GM link stops working: bookmark the new one.'
    : 'Make a new watch link? Spectators using the old one are cut off until you send them the new one.';
  if (!(await ask(question, which === 'owner' ? 'New GM link' : 'New watch link'))) return;
  $('seats-error').textContent = '';
  const r = await fetch(api + '/links/' + which + '?' + keyParam, { method: 'POST' })
    .catch((e) => ({ ok: false, status: 0, json: async () => ({ error: { message: e.message } }) }));
  if (!r.ok) { showError($('seats-error'), await errorOf(r), r.status); return; }
  const answer = await r.json();
  if (which === 'owner') { location.replace(answer.path); return; }
  const info = await fetch(api + '?' + keyParam).then((x) => x.json());
  renderSeats(info);
}

function copy(input) {
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand('copy'));
  else document.execCommand('copy');
}

async function manageSeat(seat, method, body, path) {
  if (!(await gmCall('/seats/' + seat + (path || '/link'), method, body, 'seats-error'))) return;
  const info = await fetch(api + '?' + keyParam).then((x) => x.json());
  renderSeats(info);
}

// Seats change hands (an invite used, a seat taken over): the GM's list follows.
let seatsSeen = JSON.stringify(boot.update.seats);
/** @param {Update} update */
async function refreshSeats(update) {
  const now = JSON.stringify(update.seats);
  if (!owner || now === seatsSeen) return;
  seatsSeen = now;
  const info = await fetch(api + '?' + keyParam).then((x) => x.json()).catch(() => null);
  if (info && info.seats) renderSeats(info);
}

// ---- Remembering the table for the lobby ------------------------------------------------

const savedKey = 'clash.tables';
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

let rememberedTitle = null;
/** @param {Update} update */
function apply(update) {
  if (update.event_count < cursor && update.events.length === 0) return; // stale reply
  latest = update;
  if (update.event_count > cursor) {
    // The table moved on: an old refusal no longer describes it.
    for (const id of ['legal-error', 'json-error']) { const e = $(id); if (e) e.textContent = ''; }
  }
  cursor = Math.max(cursor, update.event_count);
  $('render').textContent = update.render;
  $('title').textContent = update.title;
  $('who').textContent = update.room.me;
  renderTurn(update);
  renderLog(update);
  renderTalk(update);
  renderFairness(update);
  renderFallback(update);
  renderAdvanced(update);
  renderGm(update);
  refreshSeats(update);
  // A table in session zero shows the players' sheets (session-zero.js); then the game's board.
  const staged = !!(update.view && update.view.session_zero);
  const panel = panelFor(staged ? SESSION_ZERO : update.ruleset);
  if (panel) {
    try { panel($('panel'), update, send); } catch (e) { console.error(e); }
  }
  if (rememberedTitle !== update.title) { rememberedTitle = update.title; remember(update); }
  // The Fair dice card's own check (fair-check.js) follows the log's head.
  document.dispatchEvent(new CustomEvent('clash:update', { detail: update }));
  document.body.dataset.events = String(cursor);
  document.body.dataset.gameEvents = String(document.querySelectorAll('#log li:not(.table-event)').length);
}

// Apply a JSON Patch (RFC 6902) to `doc`: the add, replace and remove operations the server
// sends to carry only what changed since its last message.
function patched(doc, ops) {
  let root = doc;
  for (const op of ops) {
    if (op.path === '') { root = op.value; continue; }
    const parts = op.path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop();
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

function gone(status, deleted) {
  status.textContent = deleted ? 'the GM deleted this table' : 'this link was revoked — ask the GM for a new one';
  status.className = 'status down';
  $('turn-text').textContent = deleted ? 'The GM deleted this table.' : 'This link no longer works. Ask the GM for a new one.';
  if (deleted) forget();
}

function connect() {
  const status = $('status');
  // The stream's own copy of the update: each patch applies to the one before it.
  let streamed = null;
  const es = new EventSource(api + '/stream?' + keyParam + asParam + '&after=' + cursor + '&changes=patch');
  es.addEventListener('open', () => { status.textContent = 'live'; status.className = 'status live'; });
  es.addEventListener('update', (m) => { streamed = JSON.parse(m.data); apply(streamed); });
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
    // What this link may see changed (a seat taken over or given back): start again with the
    // rights it has now.
    es.close();
    const info = JSON.parse(m.data || '{}');
    status.textContent = info.message || 'what this page may show has changed';
    status.className = 'status down';
    setTimeout(() => { location.href = location.pathname; }, 1500);
  });
  es.addEventListener('revoked', () => { es.close(); gone(status, false); });
  es.addEventListener('deleted', () => { es.close(); gone(status, true); });
  es.addEventListener('error', () => { status.textContent = 'reconnecting…'; status.className = 'status down'; });
}

// Folded sections: open on a wide screen (marked data-open-wide), closed on a phone, where
// the board and the player's own controls come first.
if (window.matchMedia('(min-width: 801px)').matches) {
  for (const d of document.querySelectorAll('details[data-open-wide]')) /** @type {HTMLDetailsElement} */ (d).open = true;
}

renderSeats(boot.summary);
apply(boot.update);
connect();
