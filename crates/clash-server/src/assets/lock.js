// A table that takes no commands — ended (by the GM or by its game) or archived — locks every
// control that would send one: the plain list of moves, the GM's JSON box, and everything on the
// game's board (its buttons, fields and lists are disabled, taps and key presses on it are
// ignored). Boards are told through the kit's `table.closed` and a `clash:closed` event.
import { $, table } from './kit.js';

/** @typedef {import('./kit.js').Update} Update */

/**
 * Why `update`'s table takes no commands, in words, or null while it does.
 * @param {Update} update
 * @returns {string | null}
 */
export function closedReason(update) {
  if (update.room.turn.over) return 'The game is over: nothing more can be played.';
  if (update.closed) return 'The table has ended: nothing more can be played.';
  if (update.room.archived) return cap(update.room.host) + ' has archived this table: nothing can be played until it is brought back.';
  return null;
}

const CONTROLS = 'button, input, select, textarea';
const cap = (/** @type {string} */ s) => s.charAt(0).toUpperCase() + s.slice(1);
const panel = $('panel');

// Disable the board's controls (a board's own `[data-stays-open]` part excepted), marking each so
// that an archived table brought back gives exactly those back.
function lockPanel() {
  for (const c of /** @type {NodeListOf<HTMLButtonElement>} */ (panel.querySelectorAll(CONTROLS))) {
    if (c.disabled || c.closest('[data-stays-open]')) continue;
    c.disabled = true;
    c.dataset.lockedByTable = '';
  }
  for (const c of /** @type {NodeListOf<HTMLElement>} */ (panel.querySelectorAll('[tabindex="0"]'))) {
    if (c.closest('[data-stays-open]')) continue;
    c.setAttribute('aria-disabled', 'true');
  }
}

function unlockPanel() {
  for (const c of /** @type {NodeListOf<HTMLButtonElement>} */ (panel.querySelectorAll('[data-locked-by-table]'))) {
    c.disabled = false;
    delete c.dataset.lockedByTable;
  }
  for (const c of panel.querySelectorAll('[aria-disabled="true"]')) c.removeAttribute('aria-disabled');
}

// Taps and key presses on a closed table's board do nothing (a board drawn as a picture has
// no disabled state of its own); links, folds and the board's `[data-stays-open]` part still work.
for (const kind of ['click', 'keydown', 'pointerdown']) {
  panel.addEventListener(kind, (/** @type {Event} */ e) => {
    if (!table.closed) return;
    const t = /** @type {Element} */ (e.target);
    if (!(t instanceof Element) || t.closest('a, summary, [data-stays-open]')) return;
    if (e instanceof KeyboardEvent && ['Tab', 'Escape'].includes(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
  }, true);
}
new MutationObserver(() => { if (table.closed) lockPanel(); }).observe(panel, { childList: true, subtree: true });

/** After a board has drawn: lock what it drew, if the table is closed. */
export function relock() {
  if (table.closed) lockPanel();
}

/**
 * Lock or unlock for `update`, before the board draws it.
 * @param {Update} update
 * @returns {string | null} the reason the table is closed
 */
export function lock(update) {
  const reason = closedReason(update);
  const was = table.closed;
  table.closed = reason;
  document.body.classList.toggle('table-closed', !!reason);
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('#legal button, #json-send, #json-legal button'))) b.disabled = !!reason;
  const json = $('json-command');
  if (json) json.disabled = !!reason;
  if (reason) lockPanel(); else if (was) unlockPanel();
  if (reason !== was) document.dispatchEvent(new CustomEvent('clash:closed', { detail: reason }));
  return reason;
}
