// The GM's tools on the table page: take back a command, the seats and their links (invites,
// taking a seat over, bots, the shared links), and the table itself (rename, archive, delete,
// end). A refusal shows beside the button that caused it; once the table has ended, the tools
// that no longer apply are locked.
import { $, el, keepFocus, copyText } from './kit.js';
import { api, boot, keyParam, owner, page, refuse, request } from './state.js';
import { ask } from './send.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {{ RenameRequest: import('./types/RenameRequest').RenameRequest, ArchiveRequest: import('./types/ArchiveRequest').ArchiveRequest, LinkRequest: import('./types/LinkRequest').LinkRequest, BotRequest: import('./types/BotRequest').BotRequest, UndoRequest: import('./types/UndoRequest').UndoRequest }} Requests */

let forget = () => {};

/**
 * @param {Update} update
 * @param {string | null} closed
 */
export function renderGm(update, closed) {
  if (!owner) return;
  const offer = update.room.undo;
  $('undo-card').hidden = update.closed;
  const b = $('undo');
  b.disabled = !!closed || !offer || offer.n == null;
  b.textContent = offer && offer.n != null ? offer.text : 'Take back';
  b.title = offer ? offer.text : '';
  $('undo-card').querySelector('.hint').textContent = closed || (offer && offer.n == null ? offer.text
    : 'Takes back the last command, as long as nothing was rolled, drawn or revealed since. Everyone\'s log says so; nothing is erased.');
  const rename = $('rename-title');
  if (document.activeElement !== rename) rename.value = update.title;
  $('archive').textContent = update.room.archived ? 'Bring back into play' : 'Archive';
  $('close-table').disabled = update.closed;
  for (const c of $('seats').querySelectorAll('[data-seat-tool]')) c.disabled = update.closed;
}

/**
 * A GM request from one of the tools; a refusal shows next to `from`.
 * @param {string} path
 * @param {string} method
 * @param {unknown} body
 * @param {Element} from
 */
async function gmCall(path, method, body, from) {
  const r = await request(path, method, body);
  if (!r.ok) refuse(from, r.error, r.status);
  return r.ok;
}

/** @param {() => void} forgetTable what to do when the GM deletes the table */
export function startGm(forgetTable) {
  forget = forgetTable;
  if (!owner) return;
  $('invite-hint').addEventListener('click', (/** @type {Event} */ e) => {
    e.preventDefault();
    $('seats-card').open = true;
    $('seats-card').scrollIntoView();
    const first = $('seats').querySelector('button, input');
    if (first) first.focus();
  });
  $('undo').addEventListener('click', async () => {
    const offer = page.latest.room.undo;
    if (!offer || offer.n == null) return;
    if (!(await ask(offer.text + '? Everyone\'s log will say so.', 'Take it back'))) return;
    await gmCall('/undo', 'POST', /** @type {Requests['UndoRequest']} */ ({ n: offer.n }), $('undo'));
  });
  $('rename').addEventListener('submit', async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    await gmCall('/rename', 'POST', /** @type {Requests['RenameRequest']} */ ({ title: $('rename-title').value }), $('rename'));
  });
  $('archive').addEventListener('click', async () => {
    await gmCall('/archive', 'POST', /** @type {Requests['ArchiveRequest']} */ ({ archived: !page.latest.room.archived }), $('archive'));
  });
  $('delete').addEventListener('click', async () => {
    if (!(await ask('Delete “' + page.latest.title + '” for good? Every link to it stops working and its log is gone. This cannot be undone.', 'Delete it'))) return;
    if (await gmCall('', 'DELETE', null, $('delete'))) { forget(); location.href = '/'; }
  });
  $('close-table').addEventListener('click', async () => {
    if (!(await ask('End the table? No more moves can be made, and the secret behind the dice is revealed to everyone.', 'End the table'))) return;
    await gmCall('/close', 'POST', null, $('close-table'));
  });
  renderSeats(/** @type {Summary} */ (/** @type {unknown} */ (boot.summary)));
}

/**
 * The table's summary as the API gives it to the GM (`GET /api/tables/{id}`: its `Summary`):
 * every seat's holder (with its invite link while unused) and the GM's and watch links.
 * @typedef {{ event_count: number, seats: Array<import('./types/SeatInfo').SeatInfo & { link?: string }>, links?: { owner: string | null, spectator: string | null } }} Summary
 */

// The GM's seat list: who holds each seat, their links, and buttons to manage them.
// Answers can come back out of order: never draw an older list over a newer one.
let seatsDrawn = -1;
/** @param {Summary} summary */
function renderSeats(summary) {
  const box = $('seats');
  if (!box || summary.event_count < seatsDrawn) return;
  seatsDrawn = summary.event_count;
  /** @type {Record<string, string>} */
  const names = {};
  for (const p of page.latest.room.people) names[p.seat] = p.name;
  let unclaimed = false;
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const s of summary.seats) {
    if (s.holder === 'open' || s.holder === 'invited') unclaimed = true;
    rows.push(seatRow(s, names[s.seat] || 'a seat'));
  }
  if (summary.links) {
    /** @param {'owner' | 'spectator'} which @param {string} label */
    const replace = (which, label) => el('button', { type: 'button', class: 'small', onclick: (/** @type {Event} */ e) => replaceLink(which, /** @type {Element} */ (e.currentTarget)) }, label);
    rows.push(row('watch', 'Spectators', 'anyone with this link watches', summary.links.spectator, [replace('spectator', 'New watch link')]));
    rows.push(row('gm-link', 'You', 'your own link, as ' + page.latest.room.host + ' — bookmark it', summary.links.owner, [replace('owner', 'New link for you')]));
  }
  // The control in use keeps the focus (or its row's first control takes it, if it went).
  const at = /** @type {HTMLElement | null} */ (document.activeElement && document.activeElement.closest('#seats .seat-row'));
  keepFocus(box, () => box.replaceChildren(...rows), () => {
    const same = at && box.querySelector('.seat-row[data-seat="' + CSS.escape(at.dataset.seat || '') + '"]');
    const next = /** @type {HTMLElement | null} */ ((same || box).querySelector('button:not([disabled]), input'));
    if (next) next.focus({ preventScroll: true });
  });
  // While players still have to be invited, the GM needs these links first: the banner points
  // at them (on a phone they sit below the board).
  if (unclaimed) $('seats-card').open = true;
  $('invite-hint').hidden = !unclaimed || page.latest.closed;
  for (const c of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll('[data-seat-tool]'))) c.disabled = page.latest.closed;
}

/**
 * @param {string} seat
 * @param {string} name
 * @param {string} holder who holds it, in words
 * @param {string | null | undefined} link
 * @param {HTMLElement[]} buttons
 */
function row(seat, name, holder, link, buttons) {
  const r = el('div', { class: 'seat-row', 'data-seat': seat }, el('span', { class: 'name' }, name), el('span', { class: 'holder' }, holder));
  if (link) {
    const input = el('input', { readonly: 'readonly', value: location.origin + link, 'aria-label': 'link for ' + name, onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
    r.append(input, el('button', { type: 'button', class: 'small', onclick: (/** @type {Event} */ e) => copyText(input, /** @type {HTMLElement} */ (e.currentTarget)) }, 'Copy'));
  }
  for (const b of buttons) r.append(b);
  return r;
}

/**
 * @param {Summary['seats'][number]} s
 * @param {string} name
 */
function seatRow(s, name) {
  /** @param {string} label @param {string} method @param {unknown} [body] @param {string} [path] */
  const manage = (label, method, body, path) => el('button', { type: 'button', class: 'small', 'data-seat-tool': '',
    onclick: (/** @type {Event} */ e) => manageSeat(s.seat, method, body, path, /** @type {Element} */ (e.currentTarget)) }, label);
  const link = (/** @type {boolean} */ npc) => /** @type {Requests['LinkRequest']} */ ({ npc: npc });
  if (s.holder === 'owner') return row(s.seat, name, 'you', null, [botSeater(s.seat, 'your NPCs', 'Let a bot play your NPCs')]);
  /** @type {HTMLElement[]} */
  const buttons = [];
  if (s.holder === 'bot') {
    // What the bot leaves to people (words, table business) the GM does from the seat's page.
    if (s.under !== 'owner') buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Act for ' + name + ' here'));
    buttons.push(manage('Take the seat back', 'DELETE', null, '/bot'));
    const other = s.bot === 'strong' ? 'casual' : 'strong';
    buttons.push(manage('Make it ' + other, 'POST', /** @type {Requests['BotRequest']} */ ({ strength: other }), '/bot'));
  } else if (s.holder === 'open') {
    buttons.push(manage('Create invite link', 'POST', link(false)), manage('Play as NPC', 'POST', link(true)), botSeater(s.seat, name));
  } else if (s.holder === 'invited' || s.holder === 'player') {
    buttons.push(manage('New link', 'POST', link(false)), manage('Play as NPC', 'POST', link(true)), manage('Revoke', 'DELETE'));
  } else {
    buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Play ' + name + ' here'));
    if (s.suspended) buttons.push(manage('Give back to its player', 'POST', null, '/hand-back'));
    buttons.push(manage('Invite a player instead', 'POST', link(false)), botSeater(s.seat, name));
  }
  const botHolder = s.under === 'owner' ? 'you, with a ' + s.bot + ' bot playing your NPCs in conflicts'
    : 'a ' + s.bot + ' bot' + (s.under === 'npc' ? ' (your NPC when you take it back)' : '');
  /** @type {Record<string, string>} */
  const holderWords = { open: 'no one yet', invited: 'invite not used yet', player: 'a player (their link is theirs alone)', npc: 'you, as an NPC' };
  const holder = s.holder === 'bot' ? botHolder : holderWords[s.holder] || 'someone';
  return row(s.seat, name, holder, s.holder === 'invited' ? s.link : null, buttons);
}

// A bot for an NPC seat or an empty seat: pick how well it plays, then seat it.
/**
 * @param {string} seat
 * @param {string} name
 * @param {string} [label]
 */
function botSeater(seat, name, label) {
  const pick = el('select', { 'aria-label': 'how well the bot for ' + name + ' plays', 'data-seat-tool': '' },
    el('option', { value: 'casual' }, 'casual'), el('option', { value: 'strong' }, 'strong'));
  const go = el('button', { type: 'button', class: 'small', 'data-seat-tool': '',
    onclick: (/** @type {Event} */ e) => manageSeat(seat, 'POST', /** @type {Requests['BotRequest']} */ ({ strength: pick.value }), '/bot', /** @type {Element} */ (e.currentTarget)) }, label || 'Seat a bot');
  return el('span', { class: 'bot-seater' }, pick, go);
}

// A new watch link or GM link: the old one stops working at once. With a new GM link this
// page moves to it (bookmark it again).
/** @param {'owner' | 'spectator'} which @param {Element} from */
async function replaceLink(which, from) {
  const question = which === 'owner'
    ? 'Make a new link for you? This page moves to it and your old link stops working: bookmark the new one.'
    : 'Make a new watch link? Spectators using the old one are cut off until you send them the new one.';
  if (!(await ask(question, which === 'owner' ? 'New link for you' : 'New watch link'))) return;
  const r = await request('/links/' + which, 'POST');
  if (!r.ok) { refuse(from, r.error, r.status); return; }
  if (which === 'owner') { location.replace(r.body.path); return; }
  await reloadSeats();
}

/**
 * @param {string} seat
 * @param {string} method
 * @param {unknown} body
 * @param {string | undefined} path
 * @param {Element} from
 */
async function manageSeat(seat, method, body, path, from) {
  if (await gmCall('/seats/' + seat + (path || '/link'), method, body, from)) await reloadSeats();
}

async function reloadSeats() {
  const info = await fetch(api + '?' + keyParam).then((x) => x.json()).catch(() => null);
  if (info && info.seats) renderSeats(info);
}

// Seats change hands (an invite used, a seat taken over) or are named (a character handed in):
// the GM's list follows.
let seatsSeen = '';
/** @param {Update} update */
export async function refreshSeats(update) {
  const now = JSON.stringify([update.seats, update.room.people.map((p) => p.name), update.closed]);
  if (!owner || now === seatsSeen) return;
  const first = seatsSeen === '';
  seatsSeen = now;
  if (!first) await reloadSeats();
}
