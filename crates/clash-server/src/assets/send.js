// Sending commands from the table page: one at a time, each with an id of its own (a retry
// after a lost answer reuses it, and the server answers it again instead of applying it twice),
// the weighty ones asked about first, and every refusal shown next to the control that sent it.
import { $, overLimit, messageOf } from './kit.js';
import { api, boot, keyParam, page, refuse } from './state.js';

/** @typedef {import('./kit.js').Update} Update */

function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The confirmation dialog: resolves true on "Yes".
 * @param {string} question
 * @param {string} [yes]
 * @returns {Promise<boolean>}
 */
export function ask(question, yes) {
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

// The control a command came from: the last one clicked (or pressed from the keyboard) on the
// board or the list of moves. A board that has asked its own question (the kit's
// "Really …? Yes / No") is not asked again.
/** @type {{ target: EventTarget | null, at: number }} */
let lastClick = { target: null, at: 0 };
document.addEventListener('click', (e) => { lastClick = { target: e.target, at: Date.now() }; }, true);
function recent() {
  const t = lastClick.target;
  return Date.now() - lastClick.at < 2000 && t instanceof Element ? t : null;
}

let inFlight = false;
let applyUpdate = (/** @type {Update} */ _u) => {};
let afterMine = (/** @type {string | null} */ _group, /** @type {Set<string>} */ _before) => {};

/**
 * What to do with the answer to a command, and after this page's own command went in.
 * @param {(u: Update) => void} apply
 * @param {(group: string | null, before: Set<string>) => void} after
 */
export function onAnswer(apply, after) {
  applyUpdate = apply;
  afterMine = after;
}

/**
 * Send one command as this page's seat. A refusal appears in `errorEl` (a board's error line),
 * or else next to the control that sent it. `revision` is the log length this page has seen:
 * the server refuses the command if this seat acted since (another tab). A second tap while one
 * command is on its way does nothing.
 * @type {import('./kit.js').Send}
 */
export async function send(command, errorEl, options) {
  const from = recent();
  const where = errorEl || (from && from.closest('#panel, #fallback') ? from : null);
  const control = from && from.closest('[data-control]');
  const group = control ? /** @type {HTMLElement} */ (control).dataset.control || null : null;
  const confirmed = !!(options && options.confirmed) || !!(from && from.closest('.kit-confirm'));
  if (inFlight) return false;
  if (errorEl) errorEl.textContent = '';
  const long = overLimit(from && from.closest('[data-control], form, .kit-ctl'));
  if (long) { refuse(errorEl || long.field, long.text); return false; }
  inFlight = true;
  document.body.classList.add('busy');
  // The board's control groups before the command: a group it brings is where the focus goes
  // if the control used is gone.
  const before = new Set([...document.querySelectorAll('#panel [data-control]')].map((g) => /** @type {HTMLElement} */ (g).dataset.control || ''));
  const sentAt = page.cursor;
  try {
    const id = commandId();
    let answer = await post(command, id, !confirmed);
    if (answer.confirm) {
      if (!(await ask(answer.confirm))) return false;
      answer = await post(command, id, false);
    }
    if (answer.error) { refuse(where, answer.error, answer.status); return false; }
    // Asked again after a yes (the table changed meanwhile): the person sends it once more.
    if (!answer.update) return false;
    // Where the log stood when the command went in (the live stream may have brought its lines
    // before this answer came back); the command's own first game line is the sender's own
    // move, no news to them: "since your last move" is what came after it.
    page.mineFrom = sentAt;
    page.mine = new Set(answer.update.events.filter((e) => e.index >= sentAt && !e.table && !e.reveals).slice(0, 1).map((e) => e.index));
    applyUpdate(answer.update);
    afterMine(group, before);
    // And once more after the board's own code has run on the answer (a fold it closes).
    requestAnimationFrame(() => afterMine(group, before));
    return true;
  } finally {
    inFlight = false;
    document.body.classList.remove('busy');
  }
}

/**
 * What a command's answer comes to: the update it made, a question to ask first, or a refusal.
 * @typedef {{ update: Update, confirm?: undefined, error?: undefined, status?: undefined } | { confirm: string, update?: undefined, error?: undefined, status?: undefined } | { error: import('./kit.js').ApiErrorBody, status?: number, update?: undefined, confirm?: undefined }} Answer
 */

/**
 * Send `command` (once, whatever the network does: `id` makes a repeat harmless).
 * @param {unknown} command
 * @param {string} id
 * @param {boolean} askFirst
 * @returns {Promise<Answer>}
 */
async function post(command, id, askFirst) {
  /** @type {import('./types/CommandRequest').CommandRequest<unknown>} */
  const request = { command: command, as: boot.as || undefined, id: id, revision: page.cursor, ask: askFirst };
  const body = JSON.stringify(request);
  for (let attempt = 1; ; attempt++) {
    let r;
    try {
      r = await fetch(api + '/commands?' + keyParam, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body });
    } catch (e) {
      if (attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
      return { error: { message: 'Could not reach the server: ' + messageOf(e) } };
    }
    if (r.status === 503 && attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
    const answer = await r.json().catch(() => ({}));
    if (r.ok) return { update: answer };
    const err = answer.error || {};
    if (err.code === 'confirm') return { confirm: err.message };
    return { error: err, status: r.status };
  }
}
