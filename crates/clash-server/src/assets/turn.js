// Whose move it is, and what just happened: the banner at the top of the table page (always in
// sight, with the last lines since this page's own last command right under it, so the result of
// a tap shows above the next control on a phone), the tab's title, the alert (a sound, and a
// notification in the background), who is here, and one live region that tells a screen reader
// "your move", each roll and reveal, and the end of the table.
import { $, el } from './kit.js';
import { boot, owner, page } from './state.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {import('./types/SeenEntry').SeenEntry} SeenEntry */

const alertsKey = 'clash.alerts';
let alertsOn = localStorage.getItem(alertsKey) === 'on';
/** @type {boolean | null} whether the last update was this seat's turn (null before the first) */
let wasYours = null;

/** @param {boolean} closed */
function renderAlerts(closed) {
  const b = $('alerts');
  b.textContent = alertsOn ? 'Alerts on' : 'Alerts off';
  b.setAttribute('aria-pressed', String(alertsOn));
  b.disabled = closed;
  b.title = closed ? 'Nothing more happens at this table' : alertsOn
    ? 'A sound, and a notification when this tab is in the background, when it is your move'
    : 'Turn on a sound and a notification for your move';
}
$('alerts').addEventListener('click', async () => {
  alertsOn = !alertsOn;
  localStorage.setItem(alertsKey, alertsOn ? 'on' : 'off');
  if (alertsOn && window.Notification && Notification.permission === 'default') {
    try { await Notification.requestPermission(); } catch (e) { /* the sound still plays */ }
  }
  if (alertsOn) chime();
  renderAlerts(false);
});

/** @type {AudioContext | null} */
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

// ---- The live region: what happened, then what the banner says ---------------------------

/** The banner's line as the live region last said it, and the news of this update so far. */
const told = { banner: '', news: /** @type {string[]} */ ([]), timer: 0 };

/**
 * Tell a screen reader `text` (a roll, a reveal, the end of the table), followed by what the
 * banner says now: the region is never left saying something the banner no longer says.
 * @param {string} text
 */
export function announce(text) {
  told.news.push(text);
  if (!told.timer) told.timer = window.setTimeout(speak, 50);
}

// The region's text is replaced (emptied first), so each message is read anew.
function speak() {
  told.timer = 0;
  const banner = $('turn-text').textContent.trim();
  const parts = told.news.concat(banner && (told.news.length || banner !== told.banner) ? [banner] : []);
  told.news = [];
  if (!parts.length) return;
  told.banner = banner;
  const box = $('announcer');
  box.textContent = '';
  window.setTimeout(() => { box.textContent = parts.join(' '); }, 50);
}

/**
 * The banner changed (or the page just opened, `quiet`: its line is put in the region at once,
 * to be read with the page rather than announced).
 * @param {boolean} quiet
 */
export function bannerChanged(quiet) {
  const banner = $('turn-text').textContent.trim();
  if (quiet) { told.banner = banner; $('announcer').textContent = banner; return; }
  if (banner !== told.banner && !told.timer) told.timer = window.setTimeout(speak, 50);
}

/**
 * The banner, the title and the people, for `update`; `closed` is why nothing more may be done.
 * @param {Update} update
 * @param {string | null} closed
 */
export function renderTurn(update, closed) {
  const room = update.room;
  const turn = room.turn;
  const mine = !closed && (turn.yours || (turn.npc && turn.npc.length > 0));
  $('turn').className = 'turn' + (mine ? ' yours' : '') + (turn.over ? ' over' : '') + (closed ? ' closed' : '');
  const text = $('turn-text');
  text.replaceChildren(turn.text);
  if (mine && turn.npc && turn.npc.length && !turn.yours) {
    for (const n of turn.npc) {
      text.append(' ', el('a', { href: location.pathname + '?as=' + n.seat, class: 'npc-link' }, 'Play ' + n.name));
    }
  }
  bannerChanged(update === boot.update);
  document.body.dataset.yours = String(!!mine);
  document.title = (mine ? '● Your move — ' : turn.over ? 'Game over — ' : closed ? 'Ended — ' : '') + update.title + ' — Clash';
  if (wasYours === false && mine) yourMoveNow(update);
  wasYours = !!mine;
  renderAlerts(!!closed);
  renderPeople(update);
}

/** @param {Update} update */
function renderPeople(update) {
  const room = update.room;
  const turn = room.turn;
  const items = [];
  if (!room.people.some((p) => p.seat === 'gm')) items.push(person(room.host, room.gm_here, owner ? 'you' : null));
  for (const p of room.people) {
    const waiting = turn.waiting.some((w) => w.seat === p.seat);
    const note = p.seat === update.seat || (p.seat === 'gm' && owner) ? 'you'
      : p.holder === 'npc' ? 'played by ' + room.host : p.holder === 'bot' ? 'played by a bot' : p.holder === 'open' ? 'no player yet'
        : p.holder === 'invited' ? 'invited' : null;
    // A bot is always at the table; the GM's own seat is here when the GM is.
    const here = p.holder === 'npc' || p.seat === 'gm' ? room.gm_here : p.holder === 'bot' || p.here;
    items.push(person(p.name, here, note, waiting && !room.archived && !update.closed));
  }
  if (room.spectators) items.push(el('li', { class: 'person watchers' }, room.spectators === 1 ? '1 watching' : room.spectators + ' watching'));
  $('people').replaceChildren(...items);
}

/**
 * @param {string} name
 * @param {boolean} here
 * @param {string | null} note
 * @param {boolean} [waiting]
 */
function person(name, here, note, waiting) {
  const li = el('li', { class: 'person' + (here ? ' here' : ' away') + (waiting ? ' waiting' : '') },
    el('span', { class: 'dot', 'aria-hidden': 'true' }), name);
  if (note) li.append(el('span', { class: 'note' }, ' (' + note + ')'));
  li.append(el('span', { class: 'sr-only' }, here ? ', connected' : ', not connected'));
  if (waiting) li.append(el('span', { class: 'sr-only' }, ', to move'));
  li.title = name + (here ? ' has the table open' : ' is not connected') + (waiting ? ' — the game waits for them' : '');
  return li;
}

// ---- What just happened ------------------------------------------------------------------

/** The game's lines (and the table's weightier news) this page has seen, oldest first. */
/** @type {SeenEntry[]} */
const recent = [];
const NEWS = ['closed', 'game_over', 'archived', 'unarchived', 'undone', 'taken_over', 'handed_back'];

/**
 * Take the update's new log lines: the weighty ones go to "just now", and (once the page is
 * live) each roll and reveal and the end of the table are told to a screen reader.
 * @param {SeenEntry[]} lines
 * @param {boolean} first the page's start-up data (told to nobody: it is not news)
 */
export function noteLines(lines, first) {
  for (const ev of lines) {
    const news = !ev.table || NEWS.includes(ev.table.type);
    if (!news || recent.some((r) => r.index === ev.index)) continue;
    recent.push(ev);
    if (!first && (ev.reveals || (ev.table && ev.table.type !== 'undone'))) announce(ev.text);
  }
  recent.splice(0, Math.max(0, recent.length - 20));
  renderJust();
}

// The lines since this page's own last command (at most three, newest last; the command's own
// line is no news to whoever sent it), or else the latest line. On a small screen only the
// newest shows, in at most two lines, so the banner stays small; a button unfolds them all.
const small = window.matchMedia('(max-width: 800px), (max-height: 700px)');
function renderJust() {
  const since = recent.filter((r) => r.index >= page.mineFrom && !page.mine.has(r.index)).slice(-3);
  const lines = since.length ? since : recent.slice(-1);
  const box = $('just');
  box.hidden = lines.length === 0;
  const fresh = lines.map((r) => r.index).join(' ');
  if (box.dataset.lines !== fresh) box.classList.remove('unfolded');
  box.dataset.lines = fresh;
  $('just-label').textContent = since.length && page.mineFrom > 0 ? 'Since your last move:' : 'Last:';
  $('just-lines').replaceChildren(...lines.map((r) => el('li', { 'data-index': String(r.index) }, r.text)));
  const unfolded = box.classList.contains('unfolded');
  const cut = (/** @type {Element} */ e) => e.scrollHeight > e.clientHeight + 1;
  const clamped = !box.hidden && (cut(box.querySelector('.just-text')) || [...$('just-lines').children].some(cut));
  const more = $('just-more');
  more.hidden = !unfolded && !clamped && !(small.matches && lines.length > 1);
  more.setAttribute('aria-expanded', String(unfolded));
  more.textContent = unfolded ? 'Show less' : small.matches && lines.length > 1 ? (lines.length - 1) + ' more' : 'Show all';
}
$('just-more').addEventListener('click', () => {
  $('just').classList.toggle('unfolded');
  renderJust();
});
small.addEventListener('change', renderJust);

/** A control a keyboard can use. */
const USABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * The control that had the focus is gone: focus the next control of its group if the group is
 * still there, else the first control of a group the change brought, else the banner (which
 * says what happens now), so neither a phone nor a keyboard nor a screen reader loses its place.
 * A control is brought into view just under the banner.
 * @param {string | null} group the `data-control` of the group the focus was in
 * @param {Set<string>} before the control groups the board showed before the change
 */
export function refocus(group, before) {
  const usable = (/** @type {Element | null | undefined} */ g) => /** @type {HTMLElement[]} */ (g ? [...g.querySelectorAll(USABLE)] : [])
    .filter((c) => c.checkVisibility());
  const same = group ? document.querySelector('#panel [data-control="' + CSS.escape(group) + '"]') : null;
  const brought = [...document.querySelectorAll('#panel [data-control]')].filter((g) => !before.has(/** @type {HTMLElement} */ (g).dataset.control || ''));
  const next = usable(same).concat(...brought.map(usable), usable($('legal')))[0];
  if (next) {
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: 'nearest' });
    if (document.activeElement === next) return;
  }
  $('turn-text').focus({ preventScroll: true });
}

/**
 * After this page's own command: the result stays in sight under the banner, and if the focus
 * was lost on the way (the board redraws keep it where they can), `refocus` places it.
 * @param {string | null} group the `data-control` of the group the command came from
 * @param {Set<string>} before the control groups the board showed before the command
 */
export function afterMine(group, before) {
  renderJust();
  const now = document.activeElement;
  // (A control hidden by the change may still hold the focus until the page next lays out.)
  if (now && now !== document.body && now.isConnected && now.checkVisibility()) return;
  // The control is still there but folded away with its fold (a form that closes once sent):
  // the fold's own summary line takes the focus.
  const fold = lastFocused && lastFocused.isConnected ? lastFocused.closest('details:not([open])') : null;
  const summary = /** @type {HTMLElement | null} */ (fold && fold.querySelector(':scope > summary'));
  if (summary && summary.checkVisibility()) { summary.focus({ preventScroll: true }); return; }
  refocus(group, before);
}

/** The element that last had the focus. */
let lastFocused = /** @type {Element | null} */ (null);
document.addEventListener('focusin', (e) => { lastFocused = /** @type {Element} */ (e.target); });

// The banner's height, for what scrolls under it (focused controls keep clear of it); when it
// grows (a line came in), the field being typed in or the control in use is moved out from
// under it.
function measureBanner() {
  document.documentElement.style.setProperty('--banner', $('turn').offsetHeight + 'px');
  keepClear();
}

/** Scroll the focused control out from under the banner, if the banner covers it. */
export function keepClear() {
  const a = document.activeElement;
  if (!a || a === document.body || a.closest('#turn, dialog, header')) return;
  const banner = $('turn').getBoundingClientRect();
  const r = a.getBoundingClientRect();
  if (r.height && r.top < banner.bottom && r.bottom > banner.top) window.scrollBy(0, r.top - banner.bottom - 8);
}
new ResizeObserver(measureBanner).observe($('turn'));
document.addEventListener('focusin', () => requestAnimationFrame(keepClear));
