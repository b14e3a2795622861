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
 * A readable line for a refusal: the rule it breaks, then what the server said.
 * @param {ApiErrorBody} err
 * @param {number} [status]
 */
export function errorText(err, status) {
  const msg = err.message || ('the server answered ' + status);
  return (err.rule && !msg.includes(err.rule) ? err.rule + ': ' : '') + msg;
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
 * @type {{ boot: Boot | null, latest: () => Update | null, send: Send, ask: (question: string, yes?: string) => Promise<boolean>, boardAdded: () => void }}
 */
export const table = {
  boot: null,
  latest: () => null,
  send: async () => false,
  ask: async () => false,
  boardAdded: () => {},
};

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
 * @param {Panel} draw
 */
export function registerPanel(id, draw) {
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
