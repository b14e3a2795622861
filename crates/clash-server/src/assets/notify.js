// Playing across a week, on the table page: the times under the banner (how long the game has
// waited on each seat, what is left of its clock), a key's own "Notify me" card (its webhooks
// and email addresses with their delivery state, kept live while the card is open, its handle
// in the group's channel), the GM's "Clock and reminders" under the banner (a sheet set in
// minutes, hours or days, or ready-made) and the GM's part of "This table" (the group's channel with its signing key, the
// delivery log). Everything a person typed is shown as text.
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
/** @type {ReturnType<typeof setTimeout> | undefined} */
let clockTimer;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timesTimer;

async function loadClock() {
  const r = await request('/clock', 'GET');
  if (!r.ok) return;
  /** @type {ClockView} */
  const got = r.body;
  clock = got;
  skew = got.now - Date.now();
  showTimes();
  fillClockForm();
}

function showTimes() {
  const line = $('times');
  if (!line || !clock) return;
  const now = Date.now() + skew;
  const parts = [];
  // The line says it again as time passes: at least every half minute, and as a clock runs out.
  let next = 30000;
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
      if (left > 0) next = Math.min(next, left + 50);
      parts.push(left > 0 ? inWords(left) + ' left on ' + whose + ' clock' : (you ? 'Your' : s.name + '’s') + ' clock has run out');
    }
  }
  line.textContent = parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join(' · ');
  line.hidden = parts.length === 0 || page.latest.closed;
  clearTimeout(timesTimer);
  if (parts.length) timesTimer = setTimeout(showTimes, next);
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

/** @type {Record<string, string>} */
const formats = { discord: 'Discord webhook', slack: 'Slack webhook', json: 'Signed JSON webhook', email: 'Email', handle: 'Handle' };
/** @type {Record<string, string>} */
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

/**
 * A signed-JSON webhook's signing key, shown to its owner only.
 * @param {string} secret
 * @param {string} whose
 */
function signing(secret, whose) {
  const input = el('input', { readonly: 'readonly', value: secret, 'aria-label': 'Signing key of ' + whose, class: 'secret', onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
  return el('details', { class: 'signing' }, el('summary', null, 'Signing key'),
    el('p', { class: 'hint' }, 'Each message carries X-Clash-Signature, the HMAC-SHA256 of the timestamp, a dot and the body, keyed with this.'), input);
}

/** @param {TargetView} t */
function targetRow(t) {
  const li = el('li', { class: 'notify-row', 'data-target': t.id },
    el('b', null, formats[t.format] || 'Webhook'), ' ',
    el('span', { class: 'address' }, t.address), ' ',
    deliveryState(t), ' ',
    el('button', { type: 'button', class: 'small', onclick: (/** @type {MouseEvent} */ e) => removeTarget(t.id, /** @type {Element} */ (e.currentTarget)) }, 'Remove'));
  if (t.secret) li.append(signing(t.secret, 'this webhook'));
  return li;
}

/**
 * Show `targets` in `list`: rows already there keep their place (and whatever has focus in
 * them); only their delivery state is brought up to date.
 * @param {Element} list
 * @param {TargetView[]} targets
 */
function showTargets(list, targets) {
  const rows = /** @type {HTMLElement[]} */ ([...list.querySelectorAll('li[data-target]')]);
  const same = targets.length > 0 && rows.length === targets.length && rows.every((r, i) => r.dataset.target === targets[i].id);
  if (!same) {
    list.replaceChildren(...targets.map(targetRow));
    if (!targets.length) list.append(el('li', { class: 'hint' }, 'Nowhere yet.'));
    return;
  }
  targets.forEach((t, i) => {
    const old = rows[i].querySelector(':scope > span.hint, :scope > span.error');
    if (old) old.replaceWith(deliveryState(t));
  });
}

/** @type {NotifySettings | null} */
let settings = null;

async function loadSettings() {
  const r = await request('/notify', 'GET');
  if (!r.ok) return;
  /** @type {NotifySettings} */
  const got = r.body;
  settings = got;
  showTargets($('notify-targets'), got.targets);
  const email = $('notify-kind').querySelector('option[value=email]');
  email.hidden = !got.email;
  email.disabled = !got.email;
  const full = got.targets.length >= got.per_key;
  $('notify-save').disabled = full;
  $('notify-save').title = full ? 'At most ' + got.per_key + ': remove one first' : '';
  const handle = $('notify-handle-text');
  if (document.activeElement !== handle) handle.value = got.handle || '';
  if (owner) showChannel(got.channel || null);
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
  const kept = now.querySelector('details.signing');
  now.replaceChildren('Now: ', el('b', null, formats[channel.format] || 'Webhook'), ' ', el('span', { class: 'address' }, channel.address), ' ', deliveryState(channel));
  // The open signing key stays open (and selected) while the state is brought up to date.
  if (channel.secret) now.append(kept && kept.querySelector('input')?.value === channel.secret ? kept : signing(channel.secret, 'the group’s channel'));
}

// ---- The GM's clock and reminders ------------------------------------------------------

/** @param {number} x */
const round = (x) => Math.round(x * 100) / 100;

/**
 * A number of seconds in the biggest unit it fills evenly (else minutes): [amount, unit].
 * @param {number} seconds
 * @returns {[number, number]}
 */
function inUnits(seconds) {
  for (const unit of [86400, 3600]) if (seconds % unit === 0) return [seconds / unit, unit];
  return [round(seconds / 60), 60];
}

/**
 * A length in words, for the card's summary: "12 hours", "90 seconds".
 * @param {number} seconds
 */
function lengthWords(seconds) {
  const [n, unit] = seconds % 60 ? [seconds, 'second'] : (() => { const [a, u] = inUnits(seconds); return [a, u === 86400 ? 'day' : u === 3600 ? 'hour' : 'minute']; })();
  return n + ' ' + unit + (n === 1 ? '' : 's');
}

/**
 * The settings in a few words: "Reminder after 12 hours · 2 days a move".
 * @param {ClockRule} rule
 */
function ruleWords(rule) {
  const parts = [];
  if (rule.remind_after) parts.push('Reminder after ' + lengthWords(rule.remind_after));
  if (rule.clock) parts.push(lengthWords(rule.clock.seconds) + (rule.clock.mode === 'deadline' ? ' a move' : ' for each player'));
  return parts.length ? parts.join(' · ') : 'Off';
}

/** Ready-made settings, one tap each. @type {Record<string, ClockRule>} */
const PRESETS = {
  evening: { remind_after: 300, clock: null, on_expiry: 'remind' },
  'evening-clock': { remind_after: 300, clock: { mode: 'deadline', seconds: 600 }, on_expiry: 'remind' },
  week: { remind_after: 43200, clock: { mode: 'deadline', seconds: 172800 }, on_expiry: 'remind' },
  off: { remind_after: null, clock: null, on_expiry: 'remind' },
};

function fillClockForm() {
  if (!owner || !clock || !$('clock-form')) return;
  const rule = clock.rule;
  $('clock-summary').textContent = ruleWords(rule);
  if ($('clock-form').contains(document.activeElement)) return;
  const [remind, remindUnit] = rule.remind_after ? inUnits(rule.remind_after) : [null, 3600];
  $('remind-amount').value = remind == null ? '' : String(remind);
  $('remind-unit').value = String(remindUnit);
  $('clock-mode').value = rule.clock ? rule.clock.mode : '';
  if (rule.clock) {
    const [amount, unit] = inUnits(rule.clock.seconds);
    $('clock-amount').value = String(amount);
    $('clock-unit').value = String(unit);
  }
  $('on-expiry').value = rule.on_expiry || 'remind';
  syncClockForm();
}

/** The clock's own fields show only with a clock. */
function syncClockForm() {
  const none = !$('clock-mode').value;
  for (const id of ['clock-amount', 'clock-unit', 'on-expiry']) $(id).disabled = none;
}

/**
 * Send the GM's settings; everyone's log tells them.
 * @param {ClockRule} rule
 * @param {Element} from
 */
async function saveClock(rule, from) {
  const r = await request('/clock', 'POST', rule);
  if (!r.ok) { refuse($('clock-error'), r.error, r.status); return; }
  $('clock-error').textContent = '';
  clockAt = -1;
  await loadClock();
  if (from instanceof HTMLElement) from.focus();
}

function startClockCard() {
  const sheet = /** @type {HTMLDialogElement | null} */ ($('clock-dialog'));
  if (!sheet) return;
  $('clock-open').addEventListener('click', () => { fillClockForm(); if (!sheet.open) sheet.showModal(); });
  $('clock-close').addEventListener('click', () => sheet.close());
  // Closed, the focus goes back to the button that opened it.
  sheet.addEventListener('close', () => $('clock-open').focus());
  $('clock-mode').addEventListener('change', syncClockForm);
  syncClockForm();
  for (const b of /** @type {HTMLElement[]} */ ([...sheet.querySelectorAll('[data-preset]')])) {
    b.addEventListener('click', () => saveClock(PRESETS[b.dataset.preset || 'off'], b));
  }
  $('clock-form').addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    const seconds = (/** @type {string} */ amount, /** @type {string} */ unit) => Math.round(Number($(amount).value) * Number($(unit).value));
    const mode = $('clock-mode').value;
    const remind = $('remind-amount').value.trim() ? seconds('remind-amount', 'remind-unit') : 0;
    /** @type {ClockRule} */
    const rule = {
      remind_after: remind > 0 ? remind : null,
      clock: mode === 'budget' || mode === 'deadline' ? { mode: mode, seconds: seconds('clock-amount', 'clock-unit') } : null,
      on_expiry: $('on-expiry').value,
    };
    await saveClock(rule, $('clock-save'));
  });
}

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
  $('deliveries-load').addEventListener('click', loadDeliveries);
}

/** How often an open card reads the delivery state again. */
const LIVE_MS = 3000;

/** Whether any of these cards is open, and the page in view. */
const looking = (/** @type {string[]} */ ids) => !document.hidden && ids.some((id) => { const c = $(id); return c && c.open; });

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
  if (owner) startClockCard();
  // Delivery goes on after the page's own request: while a card that shows it is open, its
  // state is read again every few seconds, so "Nothing sent yet" turns into "Last delivered"
  // (or a failure) without a reload.
  setInterval(() => {
    if (looking(['notify-card', 'week-card'])) loadSettings();
    if (owner && looking(['week-card']) && $('deliveries').childElementCount) loadDeliveries();
  }, LIVE_MS);
}
