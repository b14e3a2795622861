// Playing across a week, on the table page: the times under the banner (how long the game has
// waited on each seat, what is left of its clock), a key's own "Notify me" card (its webhooks
// and email addresses with their delivery failures, its handle in the group's channel), and the
// GM's card (the group's channel, reminders and the clock, the delivery log). Everything a
// person typed is shown as text.
import { $, el } from './kit.js';
import { boot, owner, page, refuse, request } from './state.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {import('./types/NotifySettings').NotifySettings} NotifySettings */
/** @typedef {import('./types/TargetView').TargetView} TargetView */
/** @typedef {import('./types/ClockView').ClockView} ClockView */
/** @typedef {import('./types/DeliveryLog').DeliveryLog} DeliveryLog */
/** @typedef {import('./types/NewTarget').NewTarget} NewTarget */
/** @typedef {import('./types/HandleBody').HandleBody} HandleBody */
/** @typedef {import('./types/ClockRule').ClockRule} ClockRule */

// ---- Times in words ---------------------------------------------------------------------

/**
 * A length of time in words: "less than a minute", "5 minutes", "3 hours 20 minutes", "2 days".
 * @param {number} ms
 */
export function inWords(ms) {
  const min = Math.floor(Math.max(0, ms) / 60000);
  const n = (/** @type {number} */ k, /** @type {string} */ unit) => k + ' ' + unit + (k === 1 ? '' : 's');
  if (min < 1) return 'less than a minute';
  if (min < 60) return n(min, 'minute');
  const hours = Math.floor(min / 60);
  if (hours < 48) return n(hours, 'hour') + (hours < 10 && min % 60 ? ' ' + n(min % 60, 'minute') : '');
  const days = Math.floor(hours / 24);
  return n(days, 'day') + (days < 7 && hours % 24 ? ' ' + n(hours % 24, 'hour') : '');
}

/** @type {ClockView | null} */
let clock = null;
let skew = 0; // the server's clock minus this browser's
let clockAt = -1;
let clockTimer = null;

async function loadClock() {
  const r = await request('/clock', 'GET');
  if (!r.ok) return;
  clock = r.body;
  skew = clock.now - Date.now();
  showTimes();
  fillClockForm();
}

function showTimes() {
  const line = $('times');
  if (!line || !clock) return;
  const now = Date.now() + skew;
  const parts = [];
  for (const s of clock.seats) {
    if (!s.waiting) continue;
    const you = page.latest.seat === s.seat;
    const who = you ? 'you' : s.name;
    if (s.waiting_since != null && now - s.waiting_since >= 60000) {
      parts.push('The game has waited on ' + who + ' for ' + inWords(now - s.waiting_since));
    }
    if (s.runs_out_at != null) {
      const left = s.runs_out_at - now;
      const whose = you ? 'your' : s.name + '’s';
      parts.push(left > 0 ? inWords(left) + ' left on ' + whose + ' clock' : (you ? 'Your' : s.name + '’s') + ' clock has run out');
    }
  }
  line.textContent = parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join(' · ');
  line.hidden = parts.length === 0 || page.latest.closed;
}

/**
 * Each update may change who the game waits on: read the clock again (once the log moved).
 * @param {Update} update
 */
export function renderTimes(update) {
  if (update.event_count === clockAt) return;
  clockAt = update.event_count;
  clearTimeout(clockTimer);
  clockTimer = setTimeout(loadClock, 200);
}
setInterval(showTimes, 30000);

// ---- A key's own targets ----------------------------------------------------------------

const formats = { discord: 'Discord webhook', slack: 'Slack webhook', json: 'Signed JSON webhook', email: 'Email', handle: 'Handle' };
const placeholders = { discord: 'https://discord.com/api/webhooks/…', slack: 'https://hooks.slack.com/services/…', json: 'https://example.org/clash-hook', email: 'you@example.org' };

/** @param {number} at */
const ago = (at) => inWords(Date.now() + skew - at) + ' ago';

/**
 * How delivering to a target goes, in words.
 * @param {TargetView} t
 */
function deliveryState(t) {
  if (t.failures > 0) {
    const tries = t.failures === 1 ? 'the last try' : t.failures + ' tries in a row';
    return el('span', { class: 'error' }, 'Not delivered (' + tries + (t.last_error_at ? ', ' + ago(t.last_error_at) : '') + '): ' + (t.last_error || 'no answer'));
  }
  if (t.last_ok_at) return el('span', { class: 'hint' }, 'Last delivered ' + ago(t.last_ok_at));
  return el('span', { class: 'hint' }, 'Nothing sent yet');
}

/** @param {TargetView} t */
function targetRow(t) {
  const li = el('li', { class: 'notify-row', 'data-target': t.id },
    el('b', null, formats[t.format] || 'Webhook'), ' ',
    el('span', { class: 'address' }, t.address), ' ',
    deliveryState(t), ' ',
    el('button', { type: 'button', class: 'small', onclick: (e) => removeTarget(t.id, e.currentTarget) }, 'Remove'));
  if (t.secret) {
    const input = el('input', { readonly: 'readonly', value: t.secret, 'aria-label': 'Signing key of this webhook', class: 'secret', onfocus: (e) => e.target.select() });
    li.append(el('details', { class: 'signing' }, el('summary', null, 'Signing key'),
      el('p', { class: 'hint' }, 'Each message carries X-Clash-Signature, the HMAC-SHA256 of the timestamp, a dot and the body, keyed with this.'), input));
  }
  return li;
}

/** @type {NotifySettings | null} */
let settings = null;

async function loadSettings() {
  const r = await request('/notify', 'GET');
  if (!r.ok) return;
  settings = r.body;
  const list = $('notify-targets');
  list.replaceChildren(...settings.targets.map(targetRow));
  if (!settings.targets.length) list.append(el('li', { class: 'hint' }, 'Nowhere yet.'));
  const email = $('notify-kind').querySelector('option[value=email]');
  email.hidden = !settings.email;
  email.disabled = !settings.email;
  const full = settings.targets.length >= settings.per_key;
  $('notify-save').disabled = full;
  $('notify-save').title = full ? 'At most ' + settings.per_key + ': remove one first' : '';
  const handle = $('notify-handle-text');
  if (document.activeElement !== handle) handle.value = settings.handle || '';
  if (owner) showChannel(settings.channel || null);
}

/**
 * @param {string} id
 * @param {Element} from
 */
async function removeTarget(id, from) {
  const r = await request('/notify/targets/' + encodeURIComponent(id), 'DELETE');
  if (!r.ok) { refuse(from, r.error, r.status); return; }
  await loadSettings();
}

function startTargets() {
  const kind = $('notify-kind');
  kind.addEventListener('change', () => { $('notify-address').placeholder = placeholders[kind.value] || ''; });
  $('notify-add').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    $('notify-error').textContent = '';
    const address = $('notify-address').value.trim();
    if (!address) { refuse($('notify-error'), kind.value === 'email' ? 'Write the email address first.' : 'Paste the webhook’s address first.'); return; }
    /** @type {NewTarget} */
    const body = kind.value === 'email' ? { kind: 'email', format: null, address: address } : { kind: 'webhook', format: kind.value, address: address };
    const r = await request('/notify/targets', 'POST', body);
    if (!r.ok) { refuse($('notify-error'), r.error, r.status); return; }
    $('notify-address').value = '';
    await loadSettings();
  });
  $('notify-handle').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    const text = $('notify-handle-text').value.trim();
    /** @type {HandleBody} */
    const body = { handle: text || null };
    const r = await request('/notify/handle', 'PUT', body);
    if (!r.ok) { refuse($('notify-handle'), r.error, r.status); return; }
    await loadSettings();
  });
}

// ---- The GM's card ----------------------------------------------------------------------

/** @param {TargetView | null} channel */
function showChannel(channel) {
  const now = $('channel-now');
  $('channel-remove').hidden = !channel;
  if (!channel) { now.textContent = 'No channel yet.'; return; }
  now.replaceChildren('Now: ', el('b', null, formats[channel.format] || 'Webhook'), ' ', el('span', { class: 'address' }, channel.address), ' ', deliveryState(channel));
}

function fillClockForm() {
  if (!owner || !clock) return;
  const form = $('clock-form');
  if (form.contains(document.activeElement)) return;
  const rule = clock.rule;
  $('remind-hours').value = rule.remind_after ? String(round(rule.remind_after / 3600)) : '';
  $('clock-mode').value = rule.clock ? rule.clock.mode : '';
  if (rule.clock) $('clock-hours').value = String(round(rule.clock.seconds / 3600));
  $('on-expiry').value = rule.on_expiry || 'remind';
}

/** @param {number} x */
const round = (x) => Math.round(x * 100) / 100;

/** @param {string} kind */
const kindWords = (kind) => ({ your_move: 'your move', reveal: 'a reveal', ended: 'the end', mention: 'a mention',
  whisper: 'a whisper', reminder: 'a reminder', clock: 'the clock', npc_move: 'an NPC’s move' })[kind] || kind.replace(/_/g, ' ');

/**
 * "webhook (discord) 1a2b3c…" as "a Discord webhook": the kind and format, without the id.
 * @param {string} target
 */
function targetWords(target) {
  const m = target.match(/^(\w+)(?: \((\w+)\))?/);
  if (!m) return '';
  const format = m[2] && m[2] !== 'email' ? formats[m[2]] || m[2] : '';
  if (m[1] === 'channel') return 'the group’s channel' + (format ? ' (' + format.replace(/ webhook$/, '') + ')' : '');
  if (m[1] === 'email') return 'email';
  return format || 'webhook';
}

/**
 * The server's note on a delivery, in plain words ("after 1 attempt(s)" reads "after 1 attempt").
 * @param {string} detail
 */
function detailWords(detail) {
  return detail.replace(/\b(\d+) (\w+)\(s\)/g, (_, n, w) => n + ' ' + w + (n === '1' ? '' : 's'));
}

async function loadDeliveries() {
  const r = await request('/notify/log', 'GET');
  if (!r.ok) { refuse($('deliveries-load'), r.error, r.status); return; }
  /** @type {DeliveryLog} */
  const log = r.body;
  const list = $('deliveries');
  list.replaceChildren(...log.deliveries.map((d) => el('li', { class: d.outcome === 'sent' ? 'sent' : 'failed' },
    el('b', null, d.outcome === 'sent' ? 'Sent' : 'Failed'), ' to ' + d.to + ', ' + ago(d.at) + ': ' + d.kinds.map(kindWords).join(', '),
    el('span', { class: 'hint' }, ' · ' + targetWords(d.target) + (d.detail ? ' · ' + detailWords(d.detail) : '')))));
  if (!log.deliveries.length) list.append(el('li', { class: 'hint' }, 'Nothing sent yet.'));
  $('deliveries-load').textContent = 'Show them again';
}

function startGmCard() {
  $('channel-form').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    const address = $('channel-address').value.trim();
    if (!address) { refuse($('channel-error'), 'Paste the channel’s webhook address first.'); return; }
    /** @type {NewTarget} */
    const body = { kind: 'channel', format: $('channel-kind').value, address: address };
    const r = await request('/notify/targets', 'POST', body);
    if (!r.ok) { refuse($('channel-error'), r.error, r.status); return; }
    $('channel-address').value = '';
    $('channel-error').textContent = '';
    await loadSettings();
  });
  $('channel-remove').addEventListener('click', async (/** @type {Event} */ e) => {
    if (settings && settings.channel) await removeTarget(settings.channel.id, /** @type {Element} */ (e.currentTarget));
  });
  $('clock-form').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    const hours = (/** @type {string} */ id) => Math.round(Number($(id).value) * 3600);
    const mode = $('clock-mode').value;
    /** @type {ClockRule} */
    const rule = {
      remind_after: $('remind-hours').value.trim() && hours('remind-hours') > 0 ? hours('remind-hours') : null,
      clock: mode === 'budget' || mode === 'deadline' ? { mode: mode, seconds: hours('clock-hours') } : null,
      on_expiry: $('on-expiry').value,
    };
    const r = await request('/clock', 'POST', rule);
    if (!r.ok) { refuse($('clock-error'), r.error, r.status); return; }
    $('clock-error').textContent = '';
    clockAt = -1;
    await loadClock();
  });
  $('deliveries-load').addEventListener('click', loadDeliveries);
}

/** Set up the cards this page has (none for a spectator). */
export function startNotify() {
  if ($('notify-card')) {
    startTargets();
    // Read when the card is first opened, and again each time (failures may be new).
    $('notify-card').addEventListener('toggle', () => { if ($('notify-card').open) loadSettings(); });
    if (boot.role !== 'spectator') loadSettings();
  }
  if (owner && $('week-card')) {
    startGmCard();
    $('week-card').addEventListener('toggle', () => { if ($('week-card').open) { loadSettings(); loadDeliveries(); } });
  }
}
