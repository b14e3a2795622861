// The log and the table talk: each line as it arrives (talk in an isolate of its own, commands
// taken back struck through), a filter, a count of what came while the log was folded away,
// and the chat box — which counts its text against the limit instead of cutting it, and says in
// words why it is not there (a spectator's page, an archived table).
import { $, el, overLimit } from './kit.js';
import { request, refuse } from './state.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {import('./types/SeenEntry').SeenEntry} SeenEntry */

const seen = new Set();

/** @param {SeenEntry} ev */
function kindOf(ev) {
  if (ev.table && (ev.table.type === 'said' || ev.table.type === 'whispered')) return 'talk';
  if (ev.table) return 'table';
  return ev.reveals ? 'reveal' : 'game';
}

/**
 * @param {Update} update
 * @param {boolean} first
 */
export function renderLog(update, first) {
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
      if (ev.table && ev.table.type === 'whispered') li.classList.add('whisper');
    } else {
      li.textContent = ev.text;
    }
    if (ev.table && ev.table.type === 'undone') {
      for (let i = ev.table.at; i <= ev.table.at + ev.table.events; i++) {
        const gone = log.querySelector('li[data-index="' + i + '"]');
        if (gone) { gone.classList.add('undone'); gone.title = 'Taken back by ' + update.room.host; }
      }
    }
    log.append(li);
    countUnread(ev, first);
    added = true;
    setTimeout(() => li.classList.remove('fresh'), 2500);
  }
  if (added) log.scrollTop = log.scrollHeight;
}

// While the log is folded away (on a phone), its summary counts what arrived since.
let unread = { lines: 0, talk: 0 };
/**
 * @param {SeenEntry} ev
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

for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('button[data-filter]'))) {
  b.addEventListener('click', () => {
    $('log').dataset.filter = b.dataset.filter;
    for (const o of document.querySelectorAll('button[data-filter]')) o.setAttribute('aria-pressed', String(o === b));
    $('log').scrollTop = $('log').scrollHeight;
  });
}

/** @param {Update} update */
export function renderTalk(update) {
  const room = update.room;
  $('chat').hidden = !room.can_talk;
  const why = room.can_talk ? null : room.role === 'spectator' ? 'Spectators read the table talk.'
    : room.archived ? room.host.charAt(0).toUpperCase() + room.host.slice(1) + ' has archived this table: talk goes on when it is brought back into play.'
      : 'You can read the table talk.';
  $('chat-readonly').hidden = !why;
  $('chat-readonly').textContent = why || '';
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

$('chat').addEventListener('submit', async (/** @type {SubmitEvent} */ e) => {
  e.preventDefault();
  const input = $('chat-text');
  const text = input.value.trim();
  if (!text) return;
  $('chat-error').textContent = '';
  const long = overLimit($('chat'));
  if (long) { refuse($('chat-error'), long.text); return; }
  const line = /** @type {import('./types/ChatLine').ChatLine} */ ({ text: text, to_gm: $('whisper').checked, to: $('whisper-to').value || undefined });
  const r = await request('/chat', 'POST', line);
  if (!r.ok) { refuse($('chat-error'), r.error, r.status); return; }
  input.value = '';
  input.dispatchEvent(new Event('input'));
  $('whisper').checked = false;
});
