// The form kit: what every game's forms share. Labelled fields with a place for their problem,
// steppers, lists of rows to add and remove, live checks against the game's own rules on the
// server (each problem shown next to its field, naming its rule), sheets as files, and the
// GM's NPC library (kept in this browser's local storage). Every text goes in as text nodes.
//
// A game's forms register with `ClashForms.register(id, spec)` (both exported here, with the
// kit itself as `K`):
//   spec.table(box, ctx)  draws the game's table choices into `box`; returns { get(), players(n) }
//   spec.summary(options) a readable node for the table's choices (or null)
//   spec.sheet(box, ctx)  draws a sheet form for ctx.maker ('player' | 'gm') starting from
//                         ctx.sheet (or a blank one); returns { get(), set(sheet) }
//   spec.card(sheet, maker) a readable card of a sheet
//   spec.words            { sheet: 'character sheet', npc: 'NPC', players: 2 }
import { h } from '../kit.js';

const registry = {};
export const ClashForms = {
  register(id, spec) { registry[id] = spec; document.dispatchEvent(new CustomEvent('clash-forms', { detail: id })); },
  get(id) { return registry[id] || null; },
  all() { return Object.assign({}, registry); },
};

let uid = 0;
const nextId = (stem) => 'fk-' + stem + '-' + (++uid);

// A labelled field: `path` is where the game's checks report its problems. A control that
// carries its own label (a stepper) goes without one.
function field(path, label, control, hint) {
  const id = control.id || nextId('f');
  if (!control.id && /^(INPUT|SELECT|TEXTAREA)$/.test(control.tagName)) control.id = id;
  const lab = label == null ? null : h('label', 'fk-label', label);
  if (lab && control.id) lab.htmlFor = control.id;
  const err = h('p', 'error fk-error');
  err.setAttribute('role', 'alert');
  const box = h('div', 'fk-field', lab, control, hint ? h('p', 'hint', hint) : null, err);
  box.dataset.field = path;
  return box;
}

// A group of fields under one heading, whose problems show under the heading.
function fieldset(path, legend, hint, ...children) {
  const err = h('p', 'error fk-error');
  err.setAttribute('role', 'alert');
  const box = h('fieldset', 'fk-set', h('legend', null, legend), hint ? h('p', 'hint', hint) : null, err, ...children);
  box.dataset.field = path;
  return box;
}

function text(value, attrs) {
  const e = document.createElement('input');
  e.type = 'text';
  e.value = value == null ? '' : String(value);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function area(value, attrs) {
  const e = document.createElement('textarea');
  e.value = value == null ? '' : String(value);
  e.rows = 2;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  e.className = 'fk-area';
  return e;
}

function select(options, value, label) {
  const e = document.createElement('select');
  if (label) e.setAttribute('aria-label', label);
  for (const [v, t] of options) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = t;
    e.append(o);
  }
  e.value = value == null ? (options[0] ? options[0][0] : '') : String(value);
  if (e.selectedIndex < 0 && e.options.length) e.selectedIndex = 0;
  return e;
}

function checkbox(label, checked) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = !!checked;
  const l = h('label', 'fk-check', box, ' ' + label);
  l.box = box;
  return l;
}

// A number with − and + (big enough for a thumb). Changes fire 'input' on the stepper, so a
// form's live check sees them like typing.
function stepper(label, min, max, value) {
  let v = Math.max(min, Math.min(max, Number(value) || 0));
  const out = h('output', 'fk-step-value', String(v));
  out.setAttribute('aria-live', 'polite');
  const minus = h('button', 'fk-step', '−');
  const plus = h('button', 'fk-step', '+');
  minus.type = plus.type = 'button';
  minus.setAttribute('aria-label', 'less ' + label);
  plus.setAttribute('aria-label', 'more ' + label);
  const box = h('span', 'fk-stepper', h('span', 'fk-step-label', label), minus, out, plus);
  box.dataset.stepper = label;
  const set = (n, quiet) => {
    v = Math.max(min, Math.min(max, n));
    out.textContent = String(v);
    minus.disabled = v <= min;
    plus.disabled = v >= max;
    if (!quiet) box.dispatchEvent(new Event('input', { bubbles: true }));
  };
  minus.addEventListener('click', () => set(v - 1));
  plus.addEventListener('click', () => set(v + 1));
  set(v, true);
  box.get = () => v;
  box.set = set;
  return box;
}

// Rows the user adds and removes: `make(item)` returns { node, get }.
function rows(items, make, opts) {
  const o = opts || {};
  const list = h('div', 'fk-rows');
  const made = [];
  const add = h('button', 'small fk-add', o.add || 'Add');
  add.type = 'button';
  const sync = () => {
    made.forEach((m, i) => { m.node.dataset.field = (o.path ? o.path + '.' : '') + i; });
    add.disabled = o.max != null && made.length >= o.max;
  };
  const push = (item) => {
    const m = make(item);
    const remove = h('button', 'small fk-remove', o.removeLabel || 'Remove');
    remove.type = 'button';
    remove.addEventListener('click', () => {
      made.splice(made.indexOf(m), 1);
      m.node.remove();
      sync();
      list.dispatchEvent(new Event('input', { bubbles: true }));
    });
    m.node.classList.add('fk-row');
    m.node.append(remove);
    made.push(m);
    list.append(m.node);
    sync();
  };
  (items || []).forEach(push);
  add.addEventListener('click', () => {
    push(o.blank ? o.blank() : {});
    list.dispatchEvent(new Event('input', { bubbles: true }));
    const first = made[made.length - 1].node.querySelector('input, select, textarea');
    if (first) first.focus();
  });
  const box = h('div', 'fk-rows-box', list, add);
  box.get = () => made.map((m) => m.get());
  box.set = (next) => { made.splice(0).forEach((m) => m.node.remove()); (next || []).forEach(push); };
  return box;
}

// ----- checks on the server, shown at their fields -----

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

function problemText(p) {
  return (p.rule ? p.rule + ': ' : '') + p.message;
}

// Put each problem next to the field it names (or the closest enclosing one), and the rest in
// `top`. With `shown(path)`, only problems whose field passes are put up (a form does not
// greet a person with notes on fields they have not reached yet). Returns how many there are.
function showProblems(root, problems, top, shown) {
  for (const e of root.querySelectorAll('.fk-error')) { e.textContent = ''; e.removeAttribute('data-linked'); }
  for (const f of root.querySelectorAll('.fk-bad')) f.classList.remove('fk-bad');
  if (top) top.textContent = '';
  const rest = [];
  for (const p of problems || []) {
    let path = p.field || '';
    let target = null;
    while (true) {
      target = path ? root.querySelector('[data-field="' + CSS.escape(path) + '"]') : null;
      if (target || !path.includes('.')) break;
      path = path.slice(0, path.lastIndexOf('.'));
    }
    if (shown && !shown(target ? target.dataset.field : '')) continue;
    const slot = target && target.querySelector(':scope > .fk-error');
    if (slot) {
      slot.textContent = (slot.textContent ? slot.textContent + ' ' : '') + problemText(p);
      target.classList.add('fk-bad');
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
function live(root, ruleset, get, payload, done) {
  let timer = null;
  let asked = 0;
  const been = new Set();
  let everything = false;
  const touched = (path) => everything || been.has(path);
  const note = (e) => {
    for (let el = e.target; el && el !== root; el = el.parentElement) {
      if (el.dataset && el.dataset.field != null) been.add(el.dataset.field);
    }
  };
  root.addEventListener('focusout', (e) => { note(e); soon(); });
  root.addEventListener('input', note, true);
  root.addEventListener('change', note, true);
  const run = async () => {
    const n = ++asked;
    let value;
    try { value = get(); } catch (e) { done([{ field: '', rule: null, message: e.message }]); return; }
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

function slug(s) {
  return String(s || 'sheet').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'sheet';
}

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

// A sheet in the file format other tables import: which game, whose, and the sheet itself.
function sheetFile(ruleset, maker, sheet) {
  return { clash: 'sheet', ruleset: ruleset, maker: maker, name: sheet && sheet.name, sheet: sheet };
}

function downloadSheet(ruleset, maker, sheet) {
  download(slug(sheet && sheet.name) + '.' + ruleset + '.json', sheetFile(ruleset, maker, sheet));
}

// Ask for a file and read it as JSON.
function readFile() {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.className = 'fk-file';
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

// The sheet in a file, if the file is one of this game's sheets.
function sheetOf(data, ruleset) {
  if (data && data.clash === 'sheet') {
    if (data.ruleset !== ruleset) throw new Error('That sheet is for another game.');
    return data.sheet;
  }
  if (data && data.clash) throw new Error('That file is not a character sheet.');
  return data;
}

// ----- the GM's NPC library, per browser -----

const libKey = (ruleset) => 'clash.npcs.' + ruleset;
const library = {
  list(ruleset) {
    try { return JSON.parse(localStorage.getItem(libKey(ruleset)) || '[]'); } catch (e) { return []; }
  },
  save(ruleset, sheet) {
    const list = library.list(ruleset).filter((s) => s.name !== sheet.name);
    list.push(sheet);
    list.sort((a, b) => String(a.name).localeCompare(String(b.name)));
    try { localStorage.setItem(libKey(ruleset), JSON.stringify(list.slice(-100))); return true; } catch (e) { return false; }
  },
  remove(ruleset, name) {
    const list = library.list(ruleset).filter((s) => s.name !== name);
    try { localStorage.setItem(libKey(ruleset), JSON.stringify(list)); } catch (e) { /* private mode */ }
  },
};

const capital = (t) => String(t).charAt(0).toUpperCase() + String(t).slice(1);

// A game's sheet form for `maker` with its live check: notes appear next to the fields the
// person has been at (all of them once `check.all()` runs), and `summary` says how far the
// sheet is from following the rules.
function editor(ruleset, spec, maker, sheet, onChange) {
  const box = h('div', 's0-form');
  const top = h('p', 'error fk-error');
  top.setAttribute('role', 'alert');
  const form = spec.sheet(box, { maker: maker, sheet: sheet, kit: K });
  box.prepend(top);
  const summary = h('p', 'fk-summary');
  summary.setAttribute('aria-live', 'polite');
  const ed = { box, form, summary, problems: null, ok: false };
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
    summary.className = 'fk-summary ' + (ed.ok ? 'ok' : shown ? 'bad' : '');
    if (onChange) onChange(ed);
  });
  summary.addEventListener('click', () => ed.check.all());
  // Start over from `sheet` (or a blank one), with no notes until the person is at a field.
  ed.load = (next) => { form.set(next); ed.check.reset(); ed.check.now(); };
  // Not ready: show every note and go to the first. True when the sheet follows the rules.
  ed.ready = async () => {
    if (ed.ok) return true;
    await ed.check.all();
    const bad = box.querySelector('.fk-bad');
    if (bad) { bad.scrollIntoView({ block: 'center' }); const f = bad.querySelector('input, textarea, select, button'); if (f) f.focus(); }
    return ed.ok;
  };
  return ed;
}

// "Import a file…" into an editor: a sheet file of this game, or a bare sheet.
function importButton(ed, ruleset, err) {
  const b = button('Import a file…', async () => {
    err.textContent = '';
    try {
      const data = await readFile();
      ed.form.set(sheetOf(data, ruleset));
      ed.box.dispatchEvent(new Event('input', { bubbles: true }));
    } catch (e) { err.textContent = e.message; }
  });
  b.dataset.action = 'import';
  return b;
}

// A sheet form in a dialog over the page (kept across the page's live redraws, so nothing
// typed is lost): `submit(sheet, extra, errorElement)` sends it and resolves true on success.
// `extra(box)` may add controls of its own above the sheet and returns their reader.
const dialogs = {};
function sheetDialog(o) {
  if (dialogs[o.key]) return dialogs[o.key];
  const spec = ClashForms.get(o.ruleset);
  const dialog = h('dialog', 'fk-dialog');
  dialog.setAttribute('aria-label', o.title);
  dialog.dataset.dialog = o.key;
  const err = h('p', 'error');
  err.setAttribute('role', 'alert');
  const extraBox = h('div', 'fk-extra');
  const readExtra = o.extra ? o.extra(extraBox) : () => ({});
  const ed = editor(o.ruleset, spec, o.maker, null, (e) => go.setAttribute('aria-disabled', String(!e.ok)));
  const go = h('button', 'fk-go', o.submitLabel);
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
    button('Download as a file', () => { try { downloadSheet(o.ruleset, o.maker, ed.form.get()); } catch (e) { err.textContent = e.message; } }),
    importButton(ed, o.ruleset, err)];
  const parts = [h('div', 'sheet-bar', h('h2', null, o.title), close), h('div', 'fk-dialog-body',
    o.intro ? h('p', 'hint', o.intro) : null, extraBox, ed.box, ed.summary, h('div', 'fk-actions', ...tools), err)];
  if (o.maker === 'gm') {
    const lib = h('ul', 's0-lib');
    const drawLib = () => {
      const list = library.list(o.ruleset);
      lib.replaceChildren(...list.map((sh) => h('li', null, h('div', 's0-lib-row', h('b', null, sh.name || 'unnamed'),
        button('Use', () => { ed.load(sh); }), button('Remove', () => { library.remove(o.ruleset, sh.name); drawLib(); })))));
      if (!list.length) lib.append(h('li', 'hint', 'Empty: “Save to my library” keeps a sheet here for your next tables.'));
    };
    tools.splice(1, 0, button('Save to my library', () => { try { library.save(o.ruleset, ed.form.get()); drawLib(); } catch (e) { err.textContent = e.message; } }));
    parts[1].append(h('details', 's0-library', h('summary', null, 'Your library (kept in this browser)'), lib));
    parts[1].querySelector('.fk-actions').replaceChildren(...tools);
    drawLib();
  }
  dialog.append(...parts);
  document.body.append(dialog);
  const d = {
    dialog, editor: ed,
    open(sheet) { if (sheet !== undefined) ed.load(sheet); err.textContent = ''; dialog.showModal(); },
  };
  dialogs[o.key] = d;
  return d;
}

function button(label, onClick, cls) {
  const b = h('button', cls || 'small', label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

export const K = {
  h, field, fieldset, text, area, select, checkbox, stepper, rows, button, editor, importButton, sheetDialog, capital,
  check, live, showProblems, problemText, download, downloadSheet, sheetFile, readFile, sheetOf, library, slug,
};
