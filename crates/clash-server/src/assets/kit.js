// The page kit: the one module every page script, every game's board and every game's forms
// build with. Elements are built from text nodes only (no markup is ever parsed from data), `$`
// finds an element by id, the error helpers turn a refusal into the line a page shows, and the
// table page and the boards meet through `table` and `registerPanel` instead of globals. Then
// the controls boards and forms share (one stepper, one check box), what a board builds with
// (`make`, dice, tips, odds in play) and what a form builds with (`ClashForms`, `K`). Its
// classes all start `kit-` (kit.css).
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

/** @typedef {Node | string | number | boolean | null | undefined} Child a child: null and false are left out */

/**
 * An element: `attrs` sets attributes, `class`, and `on…` listeners; children are nodes or
 * text (null and false are left out).
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[T]}
 */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = String(v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/**
 * `el` with only a class: `h('p', 'hint', 'text')`.
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {string | null} [cls]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[T]}
 */
export function h(tag, cls, ...children) {
  return el(tag, cls ? { class: cls } : null, ...children);
}

/**
 * What a caught error says (a thrown `Error`'s message).
 * @param {unknown} e
 * @returns {string}
 */
export function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
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

// ==== Controls every board and form shares ===================================================

/**
 * A check box inside its label (`.box` is the box): the kit's one check box.
 * @param {string} text
 * @param {boolean} checked
 * @param {string} [cls] more classes for the label
 */
function checkLabel(text, checked, cls) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = checked;
  return Object.assign(h('label', 'kit-check' + (cls ? ' ' + cls : ''), box, ' ' + text), { box });
}

/**
 * Fill a list with its options, each a value and the text a person reads.
 * @param {HTMLSelectElement} e
 * @param {ReadonlyArray<readonly string[]>} options
 */
function addOptions(e, options) {
  for (const [value, text] of options) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    e.append(o);
  }
}

/**
 * A number with − and + buttons big enough for a thumb, between `min` and `max`: the kit's one
 * stepper. `changed(value)` runs after each change a person makes (or `set(n)` without `quiet`).
 * @param {string} label
 * @param {number} min
 * @param {number} max
 * @param {number} value
 * @param {(value: number, box: HTMLElement) => void} changed
 */
function numberStepper(label, min, max, value, changed) {
  let v = Math.max(min, Math.min(max, value));
  const out = h('output', 'kit-step-value', String(v));
  out.setAttribute('aria-live', 'polite');
  const minus = h('button', 'kit-step', '−');
  const plus = h('button', 'kit-step', '+');
  minus.type = plus.type = 'button';
  minus.setAttribute('aria-label', 'less ' + label);
  plus.setAttribute('aria-label', 'more ' + label);
  const box = h('span', 'kit-stepper', h('span', 'kit-step-label', label), minus, out, plus);
  box.dataset.stepper = label;
  /** @param {number} n @param {boolean} [quiet] */
  const set = (n, quiet) => {
    v = Math.max(min, Math.min(max, n));
    out.textContent = String(v);
    minus.disabled = v <= min;
    plus.disabled = v >= max;
    if (!quiet) changed(v, box);
  };
  minus.addEventListener('click', () => set(v - 1));
  plus.addEventListener('click', () => set(v + 1));
  set(v, true);
  return Object.assign(box, { get: () => v, set, minus, plus });
}

// ==== Boards: control groups, steppers, tiles, dice, tips and odds in play =====================

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Field a control whose value a board remembers */
/** @typedef {{ g: HTMLDivElement, body: HTMLDivElement, err: HTMLParagraphElement, key: string }} Group a control group: its box, its row of controls, its refusal */
/** @typedef {{ decimal: number, fraction?: string }} Chance an exact probability as the server sends it */

/**
 * What a board keeps across redraws: the values of its controls (each board reads back what it
 * stored under a key, in its own shape: text, a number, a list), the refusal shown under each
 * control group, the last update drawn, and `M`, the board's own state.
 * @template {object} M
 * @typedef {{ values: Record<string, any>, errors: Record<string, string>, count?: number } & M} Memo
 */

/**
 * A kit for one board; `prefix` names its CSS classes (`ndt`, `wa`, …), `own` is the board's
 * own state kept across redraws (its `memo`, beside the controls' values).
 * @template {object} [M={}]
 * @param {string} prefix
 * @param {M} [own]
 */
export function make(prefix, own) {
  /** @type {Memo<M>} */
  const memo = Object.assign({ values: {}, errors: {} }, /** @type {M} */ (own || {}));

  /**
   * Give `e` the value remembered under `key` (or `initial`), and remember what the user types.
   * @template {Field} E
   * @param {E} e
   * @param {string} key
   * @param {string | number | boolean | null} [initial]
   * @returns {E}
   */
  function remember(e, key, initial) {
    e.dataset.key = key;
    const box = e instanceof HTMLInputElement && e.type === 'checkbox' ? e : null;
    if (key in memo.values) {
      if (box) box.checked = !!memo.values[key]; else e.value = String(memo.values[key]);
    } else if (initial != null) {
      if (box) box.checked = !!initial; else e.value = String(initial);
    }
    // A remembered choice that is no longer offered falls back to the first option.
    if (e instanceof HTMLSelectElement && e.selectedIndex < 0 && e.options.length) e.selectedIndex = 0;
    const save = () => { memo.values[key] = box ? box.checked : e.value; };
    e.addEventListener('input', save);
    e.addEventListener('change', save);
    return e;
  }

  /**
   * @param {string} key
   * @param {ReadonlyArray<readonly string[]>} options each a value and its text
   * @param {string | null} initial
   * @param {string} label
   */
  function select(key, options, initial, label) {
    const e = document.createElement('select');
    e.setAttribute('aria-label', label);
    addOptions(e, options);
    return remember(e, key, initial);
  }

  /**
   * @param {string} key
   * @param {string} type
   * @param {string} placeholder
   * @param {string | number | null} [initial]
   * @param {Record<string, string | number>} [attrs]
   */
  function input(key, type, placeholder, initial, attrs) {
    const e = document.createElement('input');
    e.type = type;
    e.placeholder = placeholder;
    e.setAttribute('aria-label', placeholder);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return remember(e, key, initial);
  }

  /**
   * @param {string} key
   * @param {string} placeholder
   * @param {string | null} [initial]
   */
  const text = (key, placeholder, initial) => input(key, 'text', placeholder, initial);

  /**
   * @param {string} key
   * @param {string} labelText
   * @param {boolean} [initial]
   */
  function checkbox(key, labelText, initial) {
    const label = checkLabel(labelText, false, prefix + '-check');
    remember(label.box, key, initial);
    return { box: label.box, label };
  }

  /**
   * A control group: a heading, a hint, a row of controls and the refusal of its last command.
   * @param {string} key
   * @param {string | null} [title]
   * @param {string | null} [hint]
   * @returns {Group}
   */
  function group(key, title, hint) {
    const err = h('p', 'error');
    err.setAttribute('role', 'alert');
    err.textContent = memo.errors[key] || '';
    const body = h('div', 'kit-row ' + prefix + '-row');
    const g = h('div', 'kit-ctl ' + prefix + '-ctl', title ? h('h3', null, title) : null, hint ? h('p', 'hint', hint) : null, body, err);
    g.dataset.control = key;
    return { g, body, err, key };
  }

  /**
   * A button that sends `build()`; a refusal stays under the group until the table moves on.
   * @param {Group} grp
   * @param {string} label
   * @param {Send} send
   * @param {() => unknown} build the command (a game's `Command`); what it throws is shown
   * @param {boolean} [primary]
   */
  function button(grp, label, send, build, primary) {
    const b = h('button', primary ? 'kit-go ' + prefix + '-go' : null, label);
    b.type = 'button';
    b.addEventListener('click', async () => {
      // While its command is on its way the button says it is busy: not `disabled`, which
      // would throw the keyboard's focus out of it.
      if (b.getAttribute('aria-disabled') === 'true') return;
      let command;
      try { command = build(); } catch (e) { grp.err.textContent = messageOf(e); return; }
      delete memo.errors[grp.key];
      b.setAttribute('aria-disabled', 'true');
      const ok = await send(command, grp.err);
      b.removeAttribute('aria-disabled');
      if (!ok) memo.errors[grp.key] = grp.err.textContent || '';
    });
    return b;
  }

  // ----- odds in play: fetched for this seat after each change, when the GM has them on -----

  /** @type {{ enabled: boolean | null, count: number, data: unknown, pending: boolean }} */
  const oddsState = { enabled: null, count: -1, data: null, pending: false };
  /** @param {Boot} boot */
  function oddsUrl(boot) {
    return '/api/tables/' + encodeURIComponent(boot.table) + '/odds?key=' + encodeURIComponent(boot.key) +
      (boot.as ? '&as=' + encodeURIComponent(boot.as) : '');
  }
  /**
   * @param {Update} update
   * @param {() => void} redraw
   */
  function fetchOdds(update, redraw) {
    const boot = table.boot;
    if (!boot || boot.role === 'spectator') return;
    if (oddsState.pending || oddsState.count === update.event_count) return;
    oddsState.pending = true;
    const asked = update.event_count;
    fetch(oddsUrl(boot)).then((r) => (r.ok ? r.json() : null)).then((/** @type {{ enabled?: boolean, event_count?: number, odds?: unknown } | null} */ body) => {
      oddsState.pending = false;
      if (!body) return;
      // The server answers for the table as it is now, which is at least what was asked.
      const count = Math.max(asked, body.event_count || asked);
      // Only what the board shows: the switch, and the odds while they are on (while they are
      // off, nothing drawn depends on the rest, and drawing the same board again is work).
      const changed = oddsState.enabled !== !!body.enabled || (!!body.enabled && (oddsState.count !== count ||
        JSON.stringify(oddsState.data) !== JSON.stringify(body.odds || null)));
      oddsState.enabled = !!body.enabled;
      oddsState.count = count;
      oddsState.data = body.odds || null;
      // Redraw to show them (which asks again if the table has moved on meanwhile).
      if (changed) redraw();
    }).catch(() => { oddsState.pending = false; });
  }
  // The page says whether odds were on as of its first update, so the first draw already
  // has the GM's switch, and while they are off nothing is asked for that update.
  function oddsFromBoot() {
    const boot = table.boot;
    if (oddsState.enabled !== null || !boot || typeof boot.odds !== 'boolean') return;
    oddsState.enabled = boot.odds;
    if (!boot.odds) oddsState.count = boot.update.event_count;
  }
  /**
   * The odds for this update (each game's own shape, which its board names), or null while
   * odds are off or not yet known.
   * @param {Update | null} update
   * @returns {any}
   */
  function odds(update) {
    return update && oddsState.enabled && oddsState.count === update.event_count ? oddsState.data : null;
  }
  /**
   * The GM's switch, shown on the GM's page only.
   * @param {() => void} redraw
   */
  function oddsSwitch(redraw) {
    const boot = table.boot;
    if (!boot || boot.role !== 'owner' || oddsState.enabled === null) return null;
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = oddsState.enabled;
    const err = h('span', 'error');
    box.addEventListener('change', async () => {
      box.disabled = true;
      const r = await fetch(oddsUrl(boot), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(/** @satisfies {import('./types/OddsRequest').OddsRequest} */ ({ enabled: box.checked })) }).catch(() => null);
      box.disabled = false;
      if (!r || !r.ok) { err.textContent = 'The switch could not be changed.'; box.checked = !box.checked; return; }
      oddsState.enabled = box.checked;
      oddsState.count = -1;
      redraw();
    });
    const label = h('label', 'kit-check kit-odds-switch', box, ' Odds in play: show each seat the exact odds of its choices, worked out only from what that seat can see');
    return h('div', 'kit-odds-bar', label, err);
  }

  // Install `draw(update, send)` (which returns the panel's new content, or null) as the panel
  // of ruleset `id`. Around every draw: refusals are forgotten once the table moves on, and the
  // control that had the focus keeps it (a text field its caret too), or the focus moves to what
  // the change brought (the kit's `keepFocus`).
  /**
   * @param {string} id
   * @param {(update: Update, send: Send) => Node | null} draw
   */
  function register(id, draw) {
    /** @type {Panel} */
    const panel = function (element, update, send) {
      // In session zero the table shows the players' sheets instead of a board.
      if (update.view && update.view.session_zero) return;
      if (update.event_count > (memo.count || 0)) memo.errors = {};
      memo.count = Math.max(memo.count || 0, update.event_count);
      oddsFromBoot();
      keepFocus(element, () => {
        hideTip(); // the element it points at is about to be replaced
        const root = draw(update, send);
        const again = () => {
          const latest = table.latest() || update;
          panel(element, latest, send);
        };
        const bar = oddsSwitch(again);
        element.replaceChildren(...[bar, root].filter((n) => n != null));
        fetchOdds(update, again);
      });
    };
    // A board registering after the page drew its first update draws that update at once.
    registerPanel(id, panel);
  }

  /**
   * A button that asks before it sends: the first tap turns it into "Really …? Yes / No".
   * @param {Group} grp
   * @param {string} label
   * @param {string} question
   * @param {Send} send
   * @param {() => unknown} build
   * @param {boolean} [primary]
   */
  function confirmButton(grp, label, question, send, build, primary) {
    const wrap = h('span', 'kit-confirm');
    const first = h('button', primary ? 'kit-go ' + prefix + '-go' : null, label);
    first.type = 'button';
    first.addEventListener('click', () => {
      const yes = button(grp, 'Yes, ' + label.charAt(0).toLowerCase() + label.slice(1), send, build, true);
      const no = h('button', null, 'No');
      no.type = 'button';
      no.addEventListener('click', () => { wrap.replaceChildren(first); first.focus(); });
      wrap.replaceChildren(h('span', 'kit-ask', question), yes, no);
      yes.focus();
    });
    wrap.append(first);
    return wrap;
  }

  /**
   * A number picked with − and + buttons (the kit's one stepper), remembered across redraws.
   * @param {string} key
   * @param {string} label
   * @param {number} min
   * @param {number} max
   * @param {number} initial
   * @param {(value: number) => void} [onChange]
   */
  function stepper(key, label, min, max, initial, onChange) {
    if (!(key in memo.values)) memo.values[key] = initial;
    const box = numberStepper(label, min, max, Number(memo.values[key]) || 0, (value) => {
      memo.values[key] = value;
      if (onChange) onChange(value);
    });
    box.minus.dataset.key = key + ':minus';
    box.plus.dataset.key = key + ':plus';
    return box;
  }

  /**
   * A tile (card, form, die…) that is tapped to choose it: a real button with aria-pressed.
   * @param {Child} content
   * @param {boolean} pressed
   * @param {(pressed: boolean) => void} onToggle
   * @param {string} [cls]
   */
  function toggle(content, pressed, onToggle, cls) {
    const b = h('button', 'kit-tile' + (cls ? ' ' + cls : '') + (pressed ? ' on' : ''), content);
    b.type = 'button';
    b.setAttribute('aria-pressed', pressed ? 'true' : 'false');
    b.addEventListener('click', () => onToggle(!(b.getAttribute('aria-pressed') === 'true')));
    return b;
  }

  return { memo, h, remember, select, input, text, checkbox, group, button, register, confirmButton, stepper, toggle, odds };
}

// ----- drawing helpers shared by every board (no state of their own) -----

const NS = 'http://www.w3.org/2000/svg';
/**
 * An SVG element with attributes and, if given, text.
 * @template {keyof SVGElementTagNameMap} T
 * @param {T} tag
 * @param {Record<string, string | number> | null} [attrs]
 * @param {string | number | null} [text]
 * @returns {SVGElementTagNameMap[T]}
 */
export function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text != null) e.textContent = String(text);
  return e;
}

/**
 * The outline of a die with `sides` faces, as a polygon in a 40×40 box.
 * @param {number} sides
 */
function dieOutline(sides) {
  /** @param {number} n @param {number} r @param {number} turn */
  const poly = (n, r, turn) => Array.from({ length: n }, (_, i) => {
    const a = turn + (i * 2 * Math.PI) / n;
    return (20 + r * Math.cos(a)).toFixed(1) + ',' + (20 + r * Math.sin(a)).toFixed(1);
  }).join(' ');
  switch (sides) {
    case 4: return poly(3, 20, -Math.PI / 2).replace(/,(\d+(\.\d+)?)/g, (_, /** @type {string} */ y) => ',' + (Number(y) + 4).toFixed(1));
    case 6: return '4,4 36,4 36,36 4,36';
    case 8: return '20,1 39,20 20,39 1,20';
    case 10: return '20,1 38,16 20,39 2,16';
    case 12: return poly(5, 19, -Math.PI / 2);
    default: return poly(6, 19, -Math.PI / 2);
  }
}

// A die drawn as its own shape (d4 a triangle, d6 a square, d8 a diamond, d10 a kite, d12 a
// pentagon, d20 a hexagon), bigger for more sides, showing `face` (or its size when unrolled),
// with an optional label under it ("Owe", a strength's name, "Advantage").
/**
 * @param {number} sides
 * @param {number | string | null} [face]
 * @param {string | null} [label]
 * @param {string | null} [cls]
 */
export function die(sides, face, label, cls) {
  const size = Math.round(30 + Math.min(20, sides) * 0.8);
  const pic = svg('svg', { viewBox: '0 0 40 40', width: size, height: size, 'aria-hidden': 'true', class: 'kit-die-pic' });
  pic.append(svg('polygon', { points: dieOutline(sides), class: 'kit-die-body' }));
  const shown = face == null ? 'd' + sides : String(face);
  pic.append(svg('text', { x: 20, y: sides === 4 ? 28 : 25, 'text-anchor': 'middle', class: face == null ? 'kit-die-size' : 'kit-die-face' }, shown));
  const box = document.createElement('span');
  box.className = 'kit-die' + (cls ? ' ' + cls : '');
  box.append(pic);
  const cap = document.createElement('small');
  cap.textContent = (face == null ? '' : 'd' + sides) + (label ? (face == null ? '' : ' ') + label : '');
  if (cap.textContent) box.append(cap);
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', (label ? label + ': ' : '') + 'd' + sides + (face == null ? '' : ' showing ' + face));
  return box;
}

// The name people know a seat by: the ruleset's own name for it, which every update carries
// with the people at the table, else "the GM" / "Player 2", never the seat's id.
/**
 * @param {Update | null} update
 * @param {string | null | undefined} seat
 */
export function seatName(update, seat) {
  if (!seat) return 'nobody';
  const people = (update && update.room && update.room.people) || [];
  const person = people.find((p) => p.seat === seat);
  if (person && person.name) return person.name;
  if (seat === 'gm') return (update && update.room && update.room.host) || 'the GM';
  const m = /^p(\d+)$/.exec(seat);
  return m ? 'Player ' + m[1] : String(seat);
}

// A name as an owner: "Ada’s", but "The Smugglers’" for a name ending in s.
/** @param {string} name */
export function poss(name) {
  const n = String(name);
  return /’s$|'s$/.test(n) ? n : n + (/s$/.test(n) ? '’' : '’s');
}

// Names as a person lists them: "Ada", "Ada and Bo", "Ada, Bo and Cy" (never "Ada and Bo and Cy").
/** @param {Array<string | number>} names */
export function andList(names) {
  const xs = names.map(String);
  return xs.length < 2 ? xs.join('') : xs.slice(0, -1).join(', ') + ' and ' + xs[xs.length - 1];
}

// A short explanation shown on hover, keyboard focus, or a long press (touch).
/** @type {HTMLDivElement | null} */
let tipBox = null;
/** @param {HTMLElement | SVGElement} el @param {string} text */
function showTip(el, text) {
  if (!tipBox) {
    tipBox = document.createElement('div');
    tipBox.className = 'kit-tip';
    // Only for the eye: a screen reader hears the same text as the element's own description.
    tipBox.setAttribute('aria-hidden', 'true');
    document.body.append(tipBox);
  }
  tipBox.textContent = text;
  const r = el.getBoundingClientRect();
  tipBox.style.display = 'block';
  const w = tipBox.offsetWidth;
  tipBox.style.left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + window.scrollX + r.width / 2 - w / 2)) + 'px';
  tipBox.style.top = (r.bottom + window.scrollY + 6) + 'px';
}
export function hideTip() { if (tipBox) tipBox.style.display = 'none'; }
/**
 * @template {HTMLElement | SVGElement} E
 * @param {E} el
 * @param {string} text
 * @returns {E}
 */
export function tip(el, text) {
  el.dataset.tip = text;
  el.setAttribute('aria-description', text);
  el.addEventListener('mouseenter', () => showTip(el, text));
  el.addEventListener('mouseleave', hideTip);
  // Keyboard focus shows it; the focus a redraw gives back after a tap does not.
  el.addEventListener('focus', () => { if (el.matches(':focus-visible')) showTip(el, text); });
  el.addEventListener('blur', hideTip);
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  el.addEventListener('touchstart', () => { timer = setTimeout(() => { timer = null; showTip(el, text); }, 450); }, { passive: true });
  const cancel = () => { if (timer) clearTimeout(timer); timer = null; };
  el.addEventListener('touchend', cancel);
  el.addEventListener('touchmove', cancel, { passive: true });
  el.addEventListener('contextmenu', (e) => { if (el.dataset.tip) { e.preventDefault(); showTip(el, text); } });
  return el;
}
document.addEventListener('scroll', hideTip, { passive: true });

// An exact probability ({fraction, decimal}) as a percentage a person reads, exact on hover.
/** @param {Chance | null | undefined} p */
export function percent(p) {
  const x = (p && typeof p.decimal === 'number' ? p.decimal : 0) * 100;
  const e = document.createElement('b');
  e.className = 'kit-pct';
  e.textContent = (x > 0 && x < 1 ? '<1' : x > 99 && x < 100 ? '>99' : x < 10 ? x.toFixed(1).replace(/\.0$/, '') : Math.round(x)) + '%';
  if (p && p.fraction) e.title = 'exactly ' + p.fraction;
  return e;
}

// ==== Forms: fields with their problems, rows, live checks, sheets as files ====================
//
// What every game's forms share: labelled fields with a place for their problem, lists of rows
// to add and remove, live checks against the game's own rules on the server (each problem shown
// next to its field, naming its rule), sheets as files, and the GM's NPC library (kept in this
// browser's local storage). A game's forms register with `ClashForms.register(id, spec)` (a
// `FormSpec`) and build with `K`.

/** @typedef {'player' | 'gm'} Maker who makes a sheet: a player their character, the GM an NPC */
/** @typedef {{ field: string, rule: string | null, message: string }} Problem a check's finding, at the field it names */
/** @typedef {{ get(): any, players?(n: number): void }} TableForm a game's table choices as drawn: `get()` reads them (the game's options) */
/** @typedef {{ get(): any, set(sheet: any): void }} SheetForm a sheet form as drawn: `get()` reads the sheet, `set` starts over from one */
/**
 * The words a game's forms use for its pieces and seats.
 * @typedef {{ sheet?: string, sheets?: string, npc?: string, npcs?: string, anNpc?: string, players?: number, host?: string, seat?: (i: number) => string }} Words
 */
/**
 * A game's forms. Their sheets and options are each game's own JSON (checked on the server
 * against the game's rules), so the kit passes them through as they are.
 * @typedef {object} FormSpec
 * @property {Words} [words]
 * @property {(box: HTMLElement, ctx: { kit: typeof K, players: number }) => TableForm} [table] draws the table choices into `box`
 * @property {(options: any) => Node | null} [summary] a readable node for the table's choices
 * @property {(box: HTMLElement, ctx: { maker: Maker, sheet: any, kit: typeof K }) => SheetForm} [sheet] draws a sheet form
 * @property {(sheet: any, maker: Maker) => Node} [card] a readable card of a sheet
 * @property {(maker: Maker) => any} [blank] a blank sheet
 */

/** @type {Record<string, FormSpec>} */
const registry = {};
export const ClashForms = {
  /** @param {string} id @param {FormSpec} spec */
  register(id, spec) { registry[id] = spec; document.dispatchEvent(new CustomEvent('clash-forms', { detail: id })); },
  /** @param {string} id */
  get(id) { return registry[id] || null; },
  all() { return Object.assign({}, registry); },
};

let uid = 0;
/** @param {string} stem */
const nextId = (stem) => 'kit-' + stem + '-' + (++uid);

// A labelled field: `path` is where the game's checks report its problems. A control that
// carries its own label (a stepper) goes without one.
/**
 * @param {string} path
 * @param {string | null | undefined} label
 * @param {HTMLElement} control
 * @param {string | null} [hint]
 */
function field(path, label, control, hint) {
  const id = control.id || nextId('f');
  if (!control.id && /^(INPUT|SELECT|TEXTAREA)$/.test(control.tagName)) control.id = id;
  const lab = label == null ? null : h('label', 'kit-label', label);
  if (lab && control.id) lab.htmlFor = control.id;
  const err = h('p', 'error kit-error');
  err.setAttribute('role', 'alert');
  const box = h('div', 'kit-field', lab, control, hint ? h('p', 'hint', hint) : null, err);
  box.dataset.field = path;
  return box;
}

// A group of fields under one heading, whose problems show under the heading.
/**
 * @param {string} path
 * @param {string} legend
 * @param {string | null | undefined} hint
 * @param {...Child} children
 */
function fieldset(path, legend, hint, ...children) {
  const err = h('p', 'error kit-error');
  err.setAttribute('role', 'alert');
  const box = h('fieldset', 'kit-set', h('legend', null, legend), hint ? h('p', 'hint', hint) : null, err, ...children);
  box.dataset.field = path;
  return box;
}

/**
 * @param {string | number | null} [value]
 * @param {Record<string, string | number>} [attrs]
 */
function text(value, attrs) {
  const e = document.createElement('input');
  e.type = 'text';
  e.value = value == null ? '' : String(value);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

/**
 * @param {string | null} [value]
 * @param {Record<string, string | number>} [attrs]
 */
function area(value, attrs) {
  const e = document.createElement('textarea');
  e.value = value == null ? '' : String(value);
  e.rows = 2;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  e.className = 'kit-area';
  return e;
}

/**
 * @param {ReadonlyArray<readonly string[]>} options each a value and its text
 * @param {string | number | null} [value]
 * @param {string | null} [label]
 */
function select(options, value, label) {
  const e = document.createElement('select');
  if (label) e.setAttribute('aria-label', label);
  addOptions(e, options);
  e.value = value == null ? (options[0] ? options[0][0] : '') : String(value);
  if (e.selectedIndex < 0 && e.options.length) e.selectedIndex = 0;
  return e;
}

/**
 * A check box with its label, as a form lays it out.
 * @param {string} label
 * @param {boolean} [checked]
 */
function checkbox(label, checked) {
  return checkLabel(label, !!checked, 'kit-in-form');
}

/**
 * A stepper as a form lays it out. Changes fire 'input' on it, so a form's live check sees
 * them like typing.
 * @param {string} label
 * @param {number} min
 * @param {number} max
 * @param {number | string | null} [value]
 */
function stepper(label, min, max, value) {
  const box = numberStepper(label, min, max, Number(value) || 0, (_, from) => from.dispatchEvent(new Event('input', { bubbles: true })));
  box.classList.add('kit-in-form');
  return box;
}

/**
 * Rows the user adds and removes: `make(item)` returns { node, get }.
 * @template T, R
 * @param {T[] | null | undefined} items
 * @param {(item: T) => { node: HTMLElement, get(): R }} make
 * @param {{ add?: string, removeLabel?: string, path?: string, max?: number | null, blank?: () => T }} [opts]
 */
function rows(items, make, opts) {
  const o = opts || {};
  const list = h('div', 'kit-list');
  /** @type {Array<{ node: HTMLElement, get(): R }>} */
  const made = [];
  const add = h('button', 'small kit-add', o.add || 'Add');
  add.type = 'button';
  const sync = () => {
    made.forEach((m, i) => { m.node.dataset.field = (o.path ? o.path + '.' : '') + i; });
    add.disabled = o.max != null && made.length >= o.max;
  };
  /** @param {T} item */
  const push = (item) => {
    const m = make(item);
    const remove = h('button', 'small kit-remove', o.removeLabel || 'Remove');
    remove.type = 'button';
    remove.addEventListener('click', () => {
      made.splice(made.indexOf(m), 1);
      m.node.remove();
      sync();
      list.dispatchEvent(new Event('input', { bubbles: true }));
    });
    m.node.classList.add('kit-list-row');
    m.node.append(remove);
    made.push(m);
    list.append(m.node);
    sync();
  };
  (items || []).forEach(push);
  add.addEventListener('click', () => {
    push(o.blank ? o.blank() : /** @type {T} */ ({}));
    list.dispatchEvent(new Event('input', { bubbles: true }));
    const first = /** @type {HTMLElement | null} */ (made[made.length - 1].node.querySelector('input, select, textarea'));
    if (first) first.focus();
  });
  const box = h('div', 'kit-list-box', list, add);
  return Object.assign(box, {
    get: () => made.map((m) => m.get()),
    /** @param {T[] | null | undefined} next */
    set: (next) => { made.splice(0).forEach((m) => m.node.remove()); (next || []).forEach(push); },
  });
}

// ----- checks on the server, shown at their fields -----

/**
 * The problems the game's rules find in `payload` (null when offline).
 * @param {string} ruleset
 * @param {unknown} payload
 * @returns {Promise<Problem[] | null>}
 */
async function check(ruleset, payload) {
  try {
    const r = await fetch('/api/rulesets/' + encodeURIComponent(ruleset) + '/check', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload),
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) return [{ field: '', rule: null, message: (body.error && body.error.message) || 'the check could not be made' }];
    return body.problems || [];
  } catch (e) {
    return null; // offline: say nothing rather than something wrong
  }
}

/** @param {Problem} p */
function problemText(p) {
  return (p.rule ? p.rule + ': ' : '') + p.message;
}

// Put each problem next to the field it names (or the closest enclosing one), and the rest in
// `top`. With `shown(path)`, only problems whose field passes are put up (a form does not
// greet a person with notes on fields they have not reached yet). Returns how many there are.
/**
 * @param {Element} root
 * @param {Problem[] | null} problems
 * @param {HTMLElement | null} top
 * @param {(path: string) => boolean} [shown]
 */
function showProblems(root, problems, top, shown) {
  for (const e of root.querySelectorAll('.kit-error')) { e.textContent = ''; e.removeAttribute('data-linked'); }
  for (const f of root.querySelectorAll('.kit-bad')) f.classList.remove('kit-bad');
  if (top) top.textContent = '';
  /** @type {string[]} */
  const rest = [];
  for (const p of problems || []) {
    let path = p.field || '';
    /** @type {HTMLElement | null} */
    let target = null;
    while (true) {
      target = path ? root.querySelector('[data-field="' + CSS.escape(path) + '"]') : null;
      if (target || !path.includes('.')) break;
      path = path.slice(0, path.lastIndexOf('.'));
    }
    if (shown && !shown(target ? target.dataset.field || '' : '')) continue;
    const slot = target && target.querySelector(':scope > .kit-error');
    if (target && slot) {
      slot.textContent = (slot.textContent ? slot.textContent + ' ' : '') + problemText(p);
      target.classList.add('kit-bad');
    } else {
      rest.push(problemText(p));
    }
  }
  if (top) top.textContent = rest.join(' ');
  return (problems || []).length;
}

// Check `get()` whenever the form changes (a little after the last keystroke); `payload`
// turns the value into the check's body; `done(problems, touched)` after each answer, where
// `touched(path)` says whether the person has been at that field yet (every field counts once
// `all()` is called, as when they try to hand the form in).
/**
 * @template V
 * @param {HTMLElement} root
 * @param {string} ruleset
 * @param {() => V} get
 * @param {(value: V) => unknown} payload
 * @param {(problems: Problem[], touched: (path: string) => boolean) => void} done
 */
function live(root, ruleset, get, payload, done) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let asked = 0;
  /** @type {Set<string>} */
  const been = new Set();
  let everything = false;
  /** @param {string} path */
  const touched = (path) => everything || been.has(path);
  /** @param {Event} e */
  const note = (e) => {
    for (let el = /** @type {HTMLElement | null} */ (e.target); el && el !== root; el = el.parentElement) {
      if (el.dataset && el.dataset.field != null) been.add(el.dataset.field);
    }
  };
  root.addEventListener('focusout', (e) => { note(e); soon(); });
  root.addEventListener('input', note, true);
  root.addEventListener('change', note, true);
  const run = async () => {
    const n = ++asked;
    let value;
    try { value = get(); } catch (e) { done([{ field: '', rule: null, message: messageOf(e) }], touched); return; }
    const problems = await check(ruleset, payload(value));
    if (n !== asked || problems == null) return;
    done(problems, touched);
  };
  const soon = () => { clearTimeout(timer); timer = setTimeout(run, 250); };
  root.addEventListener('input', soon);
  root.addEventListener('change', soon);
  run();
  return {
    now: run,
    all: () => { everything = true; return run(); },
    reset: () => { everything = false; been.clear(); },
  };
}

// ----- sheets as files -----

/** @param {unknown} s */
function slug(s) {
  return String(s || 'sheet').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'sheet';
}

/** @param {string} filename @param {unknown} data */
function download(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 2) + '\n'], { type: 'application/json' });
  const a = h('a', null);
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  // Out of sight and out of the tab order (a link with no text) for the moment it is there.
  a.hidden = true;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

/**
 * A sheet in the file format other tables import: which game, whose, and the sheet itself.
 * @param {string} ruleset
 * @param {Maker} maker
 * @param {any} sheet
 */
function sheetFile(ruleset, maker, sheet) {
  return { clash: 'sheet', ruleset: ruleset, maker: maker, name: sheet && sheet.name, sheet: sheet };
}

/** @param {string} ruleset @param {Maker} maker @param {any} sheet */
function downloadSheet(ruleset, maker, sheet) {
  download(slug(sheet && sheet.name) + '.' + ruleset + '.json', sheetFile(ruleset, maker, sheet));
}

/**
 * Ask for a file and read it as JSON.
 * @returns {Promise<unknown>}
 */
function readFile() {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.className = 'kit-file';
    input.addEventListener('change', () => {
      const f = input.files && input.files[0];
      input.remove();
      if (!f) { reject(new Error('No file chosen.')); return; }
      if (f.size > 64 * 1024) { reject(new Error('That file is too big to be a sheet.')); return; }
      f.text().then((t) => {
        try { resolve(JSON.parse(t)); } catch (e) { reject(new Error('That file is not a sheet (it is not JSON).')); }
      }, reject);
    });
    document.body.append(input);
    input.click();
  });
}

/**
 * The sheet in a file, if the file is one of this game's sheets.
 * @param {any} data a file's JSON
 * @param {string} ruleset
 * @returns {any}
 */
function sheetOf(data, ruleset) {
  if (data && data.clash === 'sheet') {
    if (data.ruleset !== ruleset) throw new Error('That sheet is for another game.');
    return data.sheet;
  }
  if (data && data.clash) throw new Error('That file is not a character sheet.');
  return data;
}

// ----- the GM's NPC library, per browser -----

/** @param {string} ruleset */
const libKey = (ruleset) => 'clash.npcs.' + ruleset;
/** A sheet as the library keeps it (a game's own sheet, by its name). @typedef {{ name?: string }} Kept */
const library = {
  /** @param {string} ruleset @returns {Kept[]} */
  list(ruleset) {
    try { return JSON.parse(localStorage.getItem(libKey(ruleset)) || '[]'); } catch (e) { return []; }
  },
  /** @param {string} ruleset @param {Kept} sheet */
  save(ruleset, sheet) {
    const list = library.list(ruleset).filter((s) => s.name !== sheet.name);
    list.push(sheet);
    list.sort((a, b) => String(a.name).localeCompare(String(b.name)));
    try { localStorage.setItem(libKey(ruleset), JSON.stringify(list.slice(-100))); return true; } catch (e) { return false; }
  },
  /** @param {string} ruleset @param {string | undefined} name */
  remove(ruleset, name) {
    const list = library.list(ruleset).filter((s) => s.name !== name);
    try { localStorage.setItem(libKey(ruleset), JSON.stringify(list)); } catch (e) { /* private mode */ }
  },
};

/** @param {unknown} t */
const capital = (t) => String(t).charAt(0).toUpperCase() + String(t).slice(1);

/**
 * A sheet form with its live check (`editor`).
 * @typedef {object} Editor
 * @property {HTMLDivElement} box
 * @property {SheetForm} form
 * @property {HTMLParagraphElement} summary
 * @property {Problem[] | null} problems
 * @property {boolean} ok
 * @property {{ now(): Promise<void>, all(): Promise<void>, reset(): void }} check
 * @property {(next: any) => void} load start over from `next` (or a blank sheet)
 * @property {() => Promise<boolean>} ready
 */

/**
 * A game's sheet form for `maker` with its live check: notes appear next to the fields the
 * person has been at (all of them once `check.all()` runs), and `summary` says how far the
 * sheet is from following the rules.
 * @param {string} ruleset
 * @param {FormSpec} spec
 * @param {Maker} maker
 * @param {any} sheet
 * @param {(ed: Editor) => void} [onChange]
 * @returns {Editor}
 */
function editor(ruleset, spec, maker, sheet, onChange) {
  if (!spec.sheet) throw new Error(ruleset + ' has no sheet form.');
  const box = h('div', 's0-form');
  const top = h('p', 'error kit-error');
  top.setAttribute('role', 'alert');
  const form = spec.sheet(box, { maker: maker, sheet: sheet, kit: K });
  box.prepend(top);
  const summary = h('p', 'kit-summary');
  summary.setAttribute('aria-live', 'polite');
  /** @type {Editor} */
  const ed = {
    box, form, summary, problems: null, ok: false,
    check: { now: async () => {}, all: async () => {}, reset: () => {} },
    // Start over from `sheet` (or a blank one), with no notes until the person is at a field.
    load: (next) => { form.set(next); ed.check.reset(); ed.check.now(); },
    // Not ready: show every note and go to the first. True when the sheet follows the rules.
    ready: async () => {
      if (ed.ok) return true;
      await ed.check.all();
      const bad = box.querySelector('.kit-bad');
      if (bad) {
        bad.scrollIntoView({ block: 'center' });
        const f = /** @type {HTMLElement | null} */ (bad.querySelector('input, textarea, select, button'));
        if (f) f.focus();
      }
      return ed.ok;
    },
  };
  ed.check = live(box, ruleset, () => form.get(), (x) => ({ sheet: x, maker: maker }), (problems, touched) => {
    ed.problems = problems;
    ed.ok = problems.length === 0;
    const shown = problems.filter((p) => touched(p.field) || touched(p.field.split('.')[0])).length;
    showProblems(box, problems, top, (path) => touched(path));
    const todo = problems.length - shown;
    const parts = [];
    if (shown) parts.push(shown === 1 ? '1 thing to fix (see the note next to it)' : shown + ' things to fix (see the notes next to them)');
    if (todo) parts.push((shown ? todo + ' more' : todo === 1 ? '1 thing' : todo + ' things') + ' still to fill in');
    summary.textContent = ed.ok ? '✓ This sheet follows the rules.' : capital(parts.join('; ')) + '.';
    summary.className = 'kit-summary ' + (ed.ok ? 'ok' : shown ? 'bad' : '');
    if (onChange) onChange(ed);
  });
  summary.addEventListener('click', () => ed.check.all());
  return ed;
}

// "Import a file…" into an editor: a sheet file of this game, or a bare sheet.
/**
 * @param {Editor} ed
 * @param {string} ruleset
 * @param {HTMLElement} err
 */
function importButton(ed, ruleset, err) {
  const b = button('Import a file…', async () => {
    err.textContent = '';
    try {
      const data = await readFile();
      ed.form.set(sheetOf(data, ruleset));
      ed.box.dispatchEvent(new Event('input', { bubbles: true }));
    } catch (e) { err.textContent = messageOf(e); }
  });
  b.dataset.action = 'import';
  return b;
}

/**
 * What `sheetDialog` is asked for.
 * @typedef {object} SheetDialogAsk
 * @property {string} key names the dialog: asked again, the same dialog comes back
 * @property {string} ruleset
 * @property {Maker} maker
 * @property {string} title
 * @property {string} submitLabel
 * @property {string} [intro]
 * @property {(box: HTMLElement) => () => unknown} [extra] adds controls of its own; returns their reader
 * @property {(sheet: any, extra: any, err: HTMLElement) => Promise<boolean>} submit sends it; true on success
 */
/** @typedef {{ dialog: HTMLDialogElement, editor: Editor, open(sheet?: any): void }} SheetDialog */

// A sheet form in a dialog over the page (kept across the page's live redraws, so nothing
// typed is lost): `submit(sheet, extra, errorElement)` sends it and resolves true on success.
// `extra(box)` may add controls of its own above the sheet and returns their reader.
/** @type {Record<string, SheetDialog>} */
const dialogs = {};
/**
 * @param {SheetDialogAsk} o
 * @returns {SheetDialog}
 */
function sheetDialog(o) {
  if (dialogs[o.key]) return dialogs[o.key];
  const spec = ClashForms.get(o.ruleset);
  if (!spec) throw new Error('No forms for ' + o.ruleset + '.');
  const dialog = h('dialog', 'kit-dialog');
  dialog.setAttribute('aria-label', o.title);
  dialog.dataset.dialog = o.key;
  const err = h('p', 'error');
  err.setAttribute('role', 'alert');
  const extraBox = h('div', 'kit-extra');
  const readExtra = o.extra ? o.extra(extraBox) : () => ({});
  const go = h('button', 'kit-go', o.submitLabel);
  const ed = editor(o.ruleset, spec, o.maker, null, (e) => go.setAttribute('aria-disabled', String(!e.ok)));
  go.type = 'button';
  go.dataset.action = 'submit-sheet';
  go.addEventListener('click', async () => {
    err.textContent = '';
    if (!(await ed.ready())) return;
    go.disabled = true;
    const ok = await o.submit(ed.form.get(), readExtra(), err);
    go.disabled = false;
    if (ok) { dialog.close(); ed.load(null); }
  });
  const close = button('Close', () => dialog.close());
  const tools = [go,
    button('Download as a file', () => { try { downloadSheet(o.ruleset, o.maker, ed.form.get()); } catch (e) { err.textContent = messageOf(e); } }),
    importButton(ed, o.ruleset, err)];
  const actions = h('div', 'kit-actions', ...tools);
  const body = h('div', 'kit-dialog-body',
    o.intro ? h('p', 'hint', o.intro) : null, extraBox, ed.box, ed.summary, actions, err);
  if (o.maker === 'gm') {
    const lib = h('ul', 's0-lib');
    const drawLib = () => {
      const list = library.list(o.ruleset);
      lib.replaceChildren(...list.map((sh) => h('li', null, h('div', 's0-lib-row', h('b', null, sh.name || 'unnamed'),
        button('Use', () => { ed.load(sh); }), button('Remove', () => { library.remove(o.ruleset, sh.name); drawLib(); })))));
      if (!list.length) lib.append(h('li', 'hint', 'Empty: “Save to my library” keeps a sheet here for your next tables.'));
    };
    tools.splice(1, 0, button('Save to my library', () => { try { library.save(o.ruleset, ed.form.get()); drawLib(); } catch (e) { err.textContent = messageOf(e); } }));
    body.append(h('details', 's0-library', h('summary', null, 'Your library (kept in this browser)'), lib));
    actions.replaceChildren(...tools);
    drawLib();
  }
  dialog.append(h('div', 'sheet-bar', h('h2', null, o.title), close), body);
  document.body.append(dialog);
  /** @type {SheetDialog} */
  const d = {
    dialog, editor: ed,
    open(sheet) { if (sheet !== undefined) ed.load(sheet); err.textContent = ''; dialog.showModal(); },
  };
  dialogs[o.key] = d;
  return d;
}

/**
 * A plain button (small unless `cls` says otherwise).
 * @param {string} label
 * @param {(e: MouseEvent) => void} onClick
 * @param {string} [cls]
 */
function button(label, onClick, cls) {
  const b = h('button', cls || 'small', label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** The form kit a game's forms build with. */
export const K = {
  h, field, fieldset, text, area, select, checkbox, stepper, rows, button, editor, importButton, sheetDialog, capital,
  check, live, showProblems, problemText, download, downloadSheet, sheetFile, readFile, sheetOf, library, slug,
};
