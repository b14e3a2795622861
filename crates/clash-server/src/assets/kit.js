// The page kit: what every page script and every game's board share. Elements are built from
// text nodes only (no markup is ever parsed from data), `$` finds an element by id, the error
// helpers turn a refusal into the line a page shows, and the table page and the boards meet
// through `table` and `registerPanel` instead of globals.
//
// Types: the update the server sends is `Update` (generated from the Rust types, see
// types/README.md); tsc checks every module against them.

/**
 * What a page receives: `V` is the game's view, `C` its command (each game's own types).
 * @template [V=any]
 * @template [C=any]
 * @typedef {import('./types/Update').Update<V, C>} Update
 */
/**
 * @template [V=any]
 * @template [C=any]
 * @typedef {import('./types/Boot').Boot<V, C>} Boot
 */
/** @typedef {{ code?: string, message?: string, rule?: string | null }} ApiErrorBody */

/**
 * The element with this id (every page's script knows its own page's ids).
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * An element: `attrs` sets attributes, `class`, and `on…` listeners; children are nodes or
 * text (null and false are left out).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/**
 * `el` with only a class: `h('p', 'hint', 'text')`.
 * @param {string} tag
 * @param {string | null} [cls]
 * @param {...any} children
 * @returns {any}
 */
export function h(tag, cls, ...children) {
  return el(tag, cls ? { class: cls } : null, ...children);
}

/**
 * The start-up data a page carries in `<script type="application/json" id=…>`, or `fallback`.
 * @param {string} id
 * @param {any} [fallback]
 * @returns {any}
 */
export function pageData(id, fallback) {
  const e = $(id);
  return e ? JSON.parse(e.textContent) : fallback;
}

/**
 * The error an API answer carries (`{ error: { code, message, rule } }`), or `{}`.
 * @param {Response | { json(): Promise<any> }} r
 * @returns {Promise<ApiErrorBody>}
 */
export async function errorOf(r) {
  return (await r.json().catch(() => ({}))).error || {};
}

/**
 * A readable line for a refusal: what the server said, in a sentence, with the rule it breaks
 * after it in brackets (which the table page turns into a small link to that rule). A command
 * this seat's other tab already made is said so.
 * @param {ApiErrorBody & { code?: string }} err
 * @param {number} [status]
 */
export function errorText(err, status) {
  if (err.code === 'stale') return 'Already done in your other tab (or window): this page has caught up, so look at the table again before you act.';
  let msg = err.message || ('the server answered ' + status);
  let rule = err.rule || null;
  // "illegal under WA-12: reason" reads as "Reason (WA-12)".
  const m = msg.match(/^(?:illegal|not your call|invalid setup) under ([A-Za-z]+-[\w.]+): ([\s\S]*)$/);
  if (m) { rule = m[1]; msg = m[2]; }
  if (rule && msg.startsWith(rule + ': ')) msg = msg.slice(rule.length + 2);
  // Only a numbered rule is worth a link: a table's own limit says so in its words.
  if (rule && !/^[A-Z]+-\d+(\.\d+)?$/.test(rule)) rule = null;
  msg = msg.charAt(0).toUpperCase() + msg.slice(1);
  return rule && !msg.includes(rule) ? msg.replace(/[.\s]*$/, '') + ' (' + rule + ')' : msg;
}

// ---- Copying a link ---------------------------------------------------------------------------

/**
 * Copy the text of `input` (a link) and say so on `button` ("Copied ✓" for a moment, and to a
 * screen reader), or, where the browser will not copy, ask the person to copy it themselves.
 * @param {HTMLInputElement} input
 * @param {HTMLElement} button
 */
export async function copyText(input, button) {
  input.select();
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch (e) {
    try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
  }
  const label = button.dataset.label || button.textContent || 'Copy';
  button.dataset.label = label;
  button.textContent = ok ? 'Copied ✓' : 'Selected: copy it';
  let said = /** @type {HTMLElement | null} */ (button.nextElementSibling);
  if (!said || !said.classList.contains('copied')) {
    said = el('span', { class: 'copied sr-only', role: 'status' });
    button.after(said);
  }
  said.textContent = ok ? 'The link is copied.' : 'The link is selected: copy it with your keyboard or menu.';
  clearTimeout(Number(button.dataset.timer || 0));
  button.dataset.timer = String(setTimeout(() => { button.textContent = label; if (said) said.textContent = ''; }, 2500));
}

// ---- Folds named by their summary ------------------------------------------------------------

let folds = 0;
/**
 * Every fold (`details`) under `root`, now and later, is named by its summary line: a screen
 * reader hears "Log and table talk, group" instead of an unnamed group.
 * @param {HTMLElement} root
 */
export function nameFolds(root) {
  const take = (/** @type {Element} */ node) => {
    const found = node.matches && node.matches('details') ? [node] : [...node.querySelectorAll('details')];
    for (const d of found) {
      const summary = d.querySelector(':scope > summary');
      if (!summary || d.hasAttribute('aria-label') || d.hasAttribute('aria-labelledby')) continue;
      if (!summary.id) summary.id = 'fold-' + (++folds);
      d.setAttribute('aria-labelledby', summary.id);
    }
  };
  take(root);
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) take(n);
  }).observe(root, { childList: true, subtree: true });
}

// ---- Text with a limit: counted, flagged, refused; never cut --------------------------------

/**
 * Every field under `root` (now and later) that carries a `maxlength` gets a counter instead:
 * the browser would cut what is typed or pasted past the limit without a word, so the limit
 * moves to `data-limit`, the count shows as the text nears it, and the field is flagged once
 * it is over (a command from its control group is then refused with a message, by `overLimit`).
 * @param {HTMLElement} root
 */
export function watchLengths(root) {
  const take = (/** @type {Element} */ node) => {
    const fields = node.matches && node.matches('[maxlength]') ? [node] : [...node.querySelectorAll('[maxlength]')];
    for (const f of fields) counted(/** @type {HTMLInputElement} */ (f));
  };
  take(root);
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) take(n);
  }).observe(root, { childList: true, subtree: true });
}

/** @param {HTMLInputElement | HTMLTextAreaElement} field */
function counted(field) {
  const limit = Number(field.getAttribute('maxlength'));
  field.removeAttribute('maxlength');
  if (!(limit > 0)) return;
  field.dataset.limit = String(limit);
  const count = el('span', { class: 'count', 'aria-live': 'polite', hidden: '' });
  const show = () => {
    const n = [...field.value].length;
    count.hidden = n < limit * 0.9;
    count.textContent = n > limit ? n + ' / ' + limit + ': ' + (n - limit) + ' too many' : n + ' / ' + limit;
    count.classList.toggle('over', n > limit);
    if (n > limit) field.setAttribute('aria-invalid', 'true'); else field.removeAttribute('aria-invalid');
  };
  field.addEventListener('input', show);
  field.after(count);
  show();
}

/**
 * The first field under `scope` whose text is over its limit, with a refusal in words, or null.
 * @param {Element | null} scope
 * @returns {{ field: HTMLElement, text: string } | null}
 */
export function overLimit(scope) {
  if (!scope) return null;
  for (const f of /** @type {NodeListOf<HTMLInputElement>} */ (scope.querySelectorAll('[data-limit]'))) {
    const limit = Number(f.dataset.limit);
    const n = [...f.value].length;
    if (n > limit) {
      const what = f.getAttribute('aria-label') || f.placeholder || 'This text';
      return { field: f, text: what + ' is ' + n + ' characters long: the most is ' + limit + '. Shorten it by ' + (n - limit) + ' and send it again.' };
    }
  }
  return null;
}

/**
 * @callback Send
 * @param {unknown} command the game's command (its generated `Command` type)
 * @param {HTMLElement | null} [errorEl] where a refusal is shown
 * @param {{ confirmed?: boolean }} [options]
 * @returns {Promise<boolean>}
 */

/**
 * The table page this script runs on, filled in by app.js before any board draws: its start-up
 * data, the newest update, how to send a command or ask a question, and what to do once a board
 * is there (the plain list of moves makes way for it).
 *
 * `closed` is the one signal that the table takes no more commands: `null` while it does,
 * otherwise the reason in words ("The table has ended.", "The GM has archived this table.").
 * It is set before a board draws each update, so a board reads `table.closed` and draws no live
 * controls (or disabled ones) while it is not null. Boards need not rely on that alone: while
 * the table is closed the page disables every button, field and list inside `#panel` and
 * ignores taps and key presses on the board (a board's own `[data-stays-open]` part, such as a
 * view switch, is left alone), and `document` gets a `clash:closed` event (its `detail` the
 * reason, or null when an archived table comes back into play).
 * @type {{ boot: Boot | null, latest: () => Update | null, send: Send, ask: (question: string, yes?: string) => Promise<boolean>, boardAdded: () => void, closed: string | null, focusLost: (group: string | null, before: Set<string>) => void }}
 */
export const table = {
  boot: null,
  latest: () => null,
  send: async () => false,
  ask: async () => false,
  boardAdded: () => {},
  closed: null,
  // Where the focus goes when the control that held it is gone after a redraw (app.js).
  focusLost: () => {},
};

// ---- Keeping the focus through a redraw ------------------------------------------------------

// What names a control across redraws besides its text: the data attributes boards give it.
const NAMES = ['key', 'move', 'stance', 'form', 'card', 'pos', 'target', 'participant', 'strength', 'size', 'level', 'action', 'seat', 'character', 'countdown', 'filter'];

/**
 * The data names of `e`, as one string.
 * @param {Element} e
 */
function namesOf(e) {
  const data = /** @type {HTMLElement} */ (e).dataset;
  return data ? NAMES.filter((k) => data[k] != null).map((k) => k + '=' + data[k]).join('&') : '';
}

/**
 * The control group `e` is in, by its `data-control`.
 * @param {Element} e
 */
function groupOf(e) {
  const g = /** @type {HTMLElement | null} */ (e.closest('[data-control]'));
  return g ? g.dataset.control || null : null;
}

/** @typedef {{ group: string | null, tag: string, data: string, text: string, nth: number }} Sign */

/**
 * The controls under `root` that match `sign` (with the same text too, when `exact`).
 * @param {Element} root
 * @param {Sign} sign
 * @param {boolean} exact
 * @returns {Element[]}
 */
function alike(root, sign, exact) {
  return [...root.querySelectorAll(sign.tag)].filter((c) => groupOf(c) === sign.group && namesOf(c) === sign.data &&
    (!exact || (c.textContent || '').trim() === sign.text));
}

/**
 * Redraw what is under `root` with `draw` without losing the keyboard's place: the control that
 * had the focus gets it back in its new copy (found by its group, its data names, its text and
 * its place among the controls alike; a text field gets its caret back too), and if it is gone,
 * `lost` (by default `table.focusLost`) moves the focus to what the change brought, never to the
 * page's body.
 * @param {HTMLElement} root
 * @param {() => void} draw
 * @param {(group: string | null, before: Set<string>) => void} [lost]
 */
export function keepFocus(root, draw, lost) {
  const held = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!held || held === root || !root.contains(held)) { draw(); return; }
  const before = new Set([...root.querySelectorAll('[data-control]')].map((g) => /** @type {HTMLElement} */ (g).dataset.control || ''));
  /** @type {Sign} */
  const sign = { group: groupOf(held), tag: held.localName, data: namesOf(held), text: (held.textContent || '').trim(), nth: 0 };
  sign.nth = alike(root, sign, true).indexOf(held);
  const field = /** @type {HTMLInputElement} */ (held);
  const caret = typeof field.selectionStart === 'number' ? [field.selectionStart, field.selectionEnd] : null;
  draw();
  // Still on the same control, or placed by the drawing itself (a board's own redraw inside).
  const now = document.activeElement;
  if (now && now !== document.body) return;
  const same = alike(root, sign, true);
  const found = /** @type {HTMLInputElement | undefined} */ (same[sign.nth] || same[0] || alike(root, sign, false)[0]);
  if (found && !found.disabled && typeof found.focus === 'function') {
    found.focus({ preventScroll: true });
    if (caret && typeof found.setSelectionRange === 'function') { try { found.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ } }
    if (document.activeElement === found) return;
  }
  (lost || table.focusLost)(sign.group, before);
}

/**
 * @callback Panel draws the board for `update` into `element`
 * @param {HTMLElement} element
 * @param {Update} update
 * @param {Send} send
 * @returns {void}
 */

/** @type {Map<string, Panel>} */
const panels = new Map();

/** The key session zero's board registers under (no ruleset has a space in its id). */
export const SESSION_ZERO = 'session zero';

/**
 * Install the board of ruleset `id` (or `SESSION_ZERO`). A board that registers after the page
 * drew its first update draws that update at once.
 * @param {string} id
 * @param {Panel} board
 */
export function registerPanel(id, board) {
  // Every board, whatever kit it is drawn with, keeps the keyboard's place through its redraws.
  /** @type {Panel} */
  const draw = (element, update, send) => keepFocus(element, () => board(element, update, send));
  panels.set(id, draw);
  const first = table.latest();
  const element = $('panel');
  const staged = !!(first && first.view && first.view.session_zero);
  if (first && element && (staged ? id === SESSION_ZERO : first.ruleset === id)) {
    try { draw(element, first, table.send); } catch (e) { console.error(e); }
    table.boardAdded();
  }
}

/**
 * The board registered for `id`, if any.
 * @param {string} id
 * @returns {Panel | null}
 */
export function panelFor(id) {
  return panels.get(id) || null;
}

/**
 * Draw the newest update again with the board of `id` (after a local change such as a choice
 * the player has not sent yet).
 * @param {string} id
 */
export function redrawPanel(id) {
  const draw = panels.get(id);
  const latest = table.latest();
  if (draw && latest) draw($('panel'), latest, table.send);
}
