// Session zero on a table's page: the players make their characters through the game's own
// form (checked as they type, each problem next to its field naming its rule) and hand them
// in; the GM reads them, sends one back with a comment, readies NPCs with the same form (and
// keeps a library of them in this browser), and starts play. Drawn from the table's view while
// it is in session zero (`view.session_zero`); once play starts, the game's own board takes
// over. Forms are built once and kept across live updates, so nothing typed is lost.
import { table, registerPanel, SESSION_ZERO, $, ClashForms, K, messageOf, andList } from '../kit.js';

const h = K.h;

/** @typedef {import('../kit.js').FormSpec} FormSpec */
/** @typedef {import('../kit.js').Send} Send */
/** @typedef {import('../kit.js').Maker} Maker */
/** @typedef {import('../kit.js').Editor} Editor */
/** @typedef {'missing' | 'handed_in' | 'sent_back'} SheetStatus */
/**
 * A player's seat in session zero (sheets are each game's own JSON).
 * @typedef {{ seat: string, name: string, place: string, status: SheetStatus, sheet: any, comment: string | null }} SeatSheet
 */
/**
 * What a table in session zero shows (`view.session_zero`, as the stage builds it; the GM's
 * view adds its NPCs and whether play can start).
 * @typedef {object} StageView
 * @property {SeatSheet[]} players
 * @property {any} options the table's choices, in the game's own shape
 * @property {string | null} you
 * @property {boolean} ready
 * @property {Array<{ name: string, sheet: any }>} [npcs]
 * @property {boolean} [can_add]
 * @property {string[] | null} [without]
 * @property {{ rule: string | null, message: string } | null} [blocked]
 * @property {unknown} [setup]
 */
/** @typedef {import('../kit.js').Update<{ session_zero: StageView }>} StageUpdate */
/** @typedef {{ root: HTMLElement, refresh: (u: StageUpdate) => void }} Built */

/** @type {(Built & { key: string, latest?: StageUpdate }) | null} */
let ui = null;

/** @type {Record<string, string>} */
const STATUS = { missing: 'no sheet yet', handed_in: 'handed in', sent_back: 'sent back' };
/** @param {string} status */
const pill = (status) => h('span', 'pill ' + (status === 'handed_in' ? 'ready' : 'waiting'), STATUS[status] || status);

const capital = K.capital;

/** @param {FormSpec | null} spec */
function words(spec) {
  return Object.assign({ sheet: 'character', sheets: 'characters', npc: 'NPC', npcs: 'NPCs', anNpc: 'an NPC' }, (spec && spec.words) || {});
}

/**
 * @param {FormSpec} spec
 * @param {any} sheet
 * @param {Maker} maker
 */
function card(spec, sheet, maker) {
  try { return spec.card ? spec.card(sheet, maker) : h('p', 'hint', 'This sheet cannot be shown.'); } catch (e) { return h('p', 'hint', 'This sheet cannot be shown.'); }
}

/**
 * @param {string} ruleset
 * @param {FormSpec} spec
 * @param {Maker} maker
 * @param {any} sheet
 * @param {(ed: Editor) => void} onChange
 */
const sheetEditor = (ruleset, spec, maker, sheet, onChange) => K.editor(ruleset, spec, maker, sheet, onChange);

/** @param {Editor} editor @param {string} ruleset @param {HTMLElement} err */
const importInto = (editor, ruleset, err) => K.importButton(editor, ruleset, err);

// ----- a player's page: their own sheet -----

/**
 * @param {StageUpdate} update
 * @param {FormSpec} spec
 * @param {Send} send
 * @returns {Built}
 */
function buildPlayer(update, spec, send) {
  const v = update.view.session_zero;
  const ruleset = update.ruleset;
  const w = words(spec);
  /** @type {Partial<SeatSheet>} */
  const me = v.players.find((p) => p.seat === update.seat) || {};
  const draftKey = 'clash.draft.' + update.table + '.' + update.seat;
  let start = me.sheet;
  if (!start) { try { start = JSON.parse(localStorage.getItem(draftKey) || 'null'); } catch (e) { start = null; } }
  // A name the GM gave this seat on the table's form (a party's name) starts the sheet.
  if (!start && me.name && me.name !== me.place && spec.blank) start = Object.assign(spec.blank('player'), { name: me.name });
  const status = h('div', 's0-status');
  status.setAttribute('role', 'status');
  const err = h('p', 'error');
  err.setAttribute('role', 'alert');
  const handIn = h('button', 'kit-go', 'Hand in my ' + w.sheet);
  handIn.type = 'button';
  handIn.dataset.action = 'hand-in';
  const editor = sheetEditor(ruleset, spec, 'player', start, (ed) => { handIn.setAttribute('aria-disabled', String(!ed.ok)); });
  editor.box.addEventListener('input', () => {
    try { localStorage.setItem(draftKey, JSON.stringify(editor.form.get())); } catch (e) { /* private mode */ }
  });
  handIn.addEventListener('click', async () => {
    err.textContent = '';
    if (!(await editor.ready())) return;
    let sheet;
    try { sheet = editor.form.get(); } catch (e) { err.textContent = messageOf(e); return; }
    handIn.disabled = true;
    const ok = await send({ type: 'hand_in_sheet', sheet: sheet }, err);
    handIn.disabled = false;
    if (ok) status.scrollIntoView({ block: 'nearest' });
  });
  const download = K.button('Download as a file', () => {
    try { K.downloadSheet(ruleset, 'player', editor.form.get()); } catch (e) { err.textContent = messageOf(e); }
  });
  download.dataset.action = 'download';
  const people = h('ul', 's0-people');
  const root = h('div', 's0 s0-player',
    h('h3', null, 'Session zero: make your ' + w.sheet),
    h('p', 'hint', 'Fill in your sheet. Each field says what the rules ask; a note appears next to anything that breaks a rule, naming it. Hand the sheet in when it is ready: you can change it and hand it in again until the GM starts play.'),
    status, editor.box, editor.summary,
    h('div', 'kit-actions', handIn, download, importInto(editor, ruleset, err)), err,
    h('h3', null, 'Around the table'), people);
  return { root, refresh: (u) => refreshPlayer(u, spec, status, people) };
}

/**
 * @param {StageUpdate} update
 * @param {FormSpec} spec
 * @param {HTMLElement} status
 * @param {HTMLElement} people
 */
function refreshPlayer(update, spec, status, people) {
  const v = update.view.session_zero;
  /** @type {Partial<SeatSheet>} */
  const me = v.players.find((p) => p.seat === update.seat) || {};
  const w = words(spec);
  status.className = 's0-status ' + (me.status ? { missing: 'todo', handed_in: 'done', sent_back: 'back' }[me.status] : '');
  if (me.status === 'handed_in') {
    status.replaceChildren(h('p', null, h('b', null, 'Handed in: ' + me.name + '. ')),
      h('p', null, v.ready ? 'Every sheet is in: the GM starts play when ready.' : 'Waiting for the others and for the GM.'));
  } else if (me.status === 'sent_back') {
    status.replaceChildren(h('p', null, h('b', null, 'The GM sent your sheet back.')),
      ...(me.comment ? [h('p', 's0-comment', '“' + me.comment + '”')] : []),
      h('p', null, 'Change what the GM asks and hand it in again.'));
  } else {
    status.replaceChildren(h('p', null, h('b', null, 'Your ' + w.sheet + ' is not handed in yet.')));
  }
  people.replaceChildren(...v.players.filter((p) => p.seat !== update.seat).map((p) => {
    const li = h('li', 's0-person', h('div', 's0-person-head', h('b', null, capital(p.name)), p.name !== p.place ? h('span', 'hint', p.place) : null, pill(p.status)));
    if (p.sheet) li.append(h('details', null, h('summary', null, 'Read ' + p.name + '’s sheet'), card(spec, p.sheet, 'player')));
    return li;
  }));
  if (!people.childNodes.length) people.append(h('li', 'hint', 'Nobody else: it is you and the GM.'));
}

// ----- the GM's page: the sheets, the NPCs, the start -----

/**
 * @param {StageUpdate} update
 * @param {FormSpec} spec
 * @param {Send} send
 * @returns {Built}
 */
function buildGm(update, spec, send) {
  const ruleset = update.ruleset;
  const w = words(spec);
  const startErr = h('p', 'error');
  startErr.setAttribute('role', 'alert');
  const start = h('button', 'kit-go', 'Start play');
  start.type = 'button';
  start.dataset.action = 'start-play';
  const why = h('p', 'hint');
  const setupLink = K.button('Download the whole setup', () => {
    const v = ui && ui.latest && ui.latest.view.session_zero;
    if (v && v.setup) K.download(K.slug(update.title) + '.setup.json', { clash: 'setup', ruleset: ruleset, title: update.title, setup: v.setup });
  });
  setupLink.dataset.action = 'download-setup';
  // A seat still owing its sheet is left out if the GM starts anyway: the server asks first,
  // naming it (issue 38).
  start.addEventListener('click', async () => {
    start.disabled = true;
    await send({ type: 'start_play', leave_out: true }, startErr);
    start.disabled = false;
  });
  const seatErr = h('p', 'error');
  seatErr.setAttribute('role', 'alert');
  const addSeat = K.button('Add a seat', () => send({ type: 'add_seat' }, seatErr));
  addSeat.dataset.action = 'add-seat';
  const people = h('ul', 's0-people');
  const npcs = h('ul', 's0-people');
  const libList = h('ul', 's0-lib');
  const npcErr = h('p', 'error');
  npcErr.setAttribute('role', 'alert');
  const ready = h('button', 'kit-go', 'Ready this ' + w.npc);
  ready.type = 'button';
  ready.dataset.action = 'ready-npc';
  const editor = sheetEditor(ruleset, spec, 'gm', null, (ed) => { ready.setAttribute('aria-disabled', String(!ed.ok)); });
  ready.addEventListener('click', async () => {
    npcErr.textContent = '';
    if (!(await editor.ready())) return;
    let sheet;
    try { sheet = editor.form.get(); } catch (e) { npcErr.textContent = messageOf(e); return; }
    if (await send({ type: 'ready_npc', sheet: sheet }, npcErr)) {
      // Readied: the NPC is listed above; the form folds away, blank for the next one.
      editor.load(null);
      npcForm.open = false;
    }
  });
  const npcForm = h('details', 's0-new-npc', h('summary', null, 'Make ' + w.anNpc + ' with the same form'),
    h('p', 'hint', 'Only you see your ' + w.npcs + '. One with the name of one you readied before replaces it.'),
    editor.box, editor.summary,
    h('div', 'kit-actions', ready,
      K.button('Save to my library', () => {
        try { const s = editor.form.get(); K.library.save(ruleset, s); drawLibrary(); } catch (e) { npcErr.textContent = messageOf(e); }
      }),
      K.button('Download as a file', () => { try { K.downloadSheet(ruleset, 'gm', editor.form.get()); } catch (e) { npcErr.textContent = messageOf(e); } }),
      importInto(editor, ruleset, npcErr)),
    npcErr);
  npcForm.dataset.part = 'npc-form';
  /** @param {any} sheet */
  function edit(sheet) {
    editor.load(sheet);
    npcForm.open = true;
    npcForm.scrollIntoView({ block: 'start' });
  }
  function drawLibrary() {
    const list = K.library.list(ruleset);
    libList.replaceChildren(...list.map((s) => h('li', null, h('div', 's0-lib-row', h('b', null, s.name || 'unnamed'),
      K.button('Use', () => edit(s)),
      K.button('Remove', () => { K.library.remove(ruleset, s.name); drawLibrary(); })))));
    if (!list.length) libList.append(h('li', 'hint', 'Empty. “Save to my library” keeps a sheet here for your next tables.'));
  }
  drawLibrary();
  /** @type {Map<string, HTMLElement>} */
  const sendBacks = new Map();
  const root = h('div', 's0 s0-gm',
    h('h3', null, 'Session zero'),
    h('p', 'hint', 'Your players make their ' + w.sheets + ' from their invite links (see “Seats and invite links”). Read each sheet as it comes in; send one back with a comment if it needs another look. Add a seat for another player, or remove one nobody will take. Make your ' + w.npcs + ' with the same form. When every sheet is in, start play.'),
    h('div', 's0-start', h('div', 'kit-actions', start, setupLink), why, startErr),
    h('h3', null, 'The players’ sheets'), people,
    h('div', 'kit-actions', addSeat, h('span', 'hint', 'A new seat gets its invite under “Seats and invite links”.')), seatErr,
    h('h3', null, 'Your ' + w.npcs), npcs, npcForm,
    h('details', 's0-library', h('summary', null, 'Your library (kept in this browser)'), libList));
  const choices = spec.summary ? spec.summary(update.view.session_zero.options) : null;
  if (choices) root.append(h('h3', null, 'The table’s choices'), choices);
  return {
    root,
    refresh: (u) => {
      const v = u.view.session_zero;
      const without = v.without && v.without.length ? v.without : null;
      start.disabled = !!v.blocked && !without;
      start.textContent = without ? 'Start play without ' + andList(without) : 'Start play';
      addSeat.disabled = v.can_add === false;
      setupLink.hidden = !v.setup;
      why.textContent = without ? 'Still waiting for ' + andList(without) + ': you may wait, or start without them (their seats are left out).'
        : v.blocked ? (v.blocked.rule && v.blocked.rule !== 'Session zero' ? v.blocked.rule + ': ' : '') + capital(v.blocked.message) + '.' : 'Every sheet is in and they fit together: play can start.';
      people.replaceChildren(...v.players.map((p) => gmPerson(u, spec, p, send, sendBacks, v.players.length > 1)));
      npcs.replaceChildren(...(v.npcs || []).map((n) => gmNpc(ruleset, spec, n, send, edit, drawLibrary)));
      if (!(v.npcs || []).length) npcs.append(h('li', 'hint', 'No ' + w.npcs + ' yet.'));
      if (!(v.npcs || []).length && !npcForm.dataset.touched) { npcForm.open = true; npcForm.dataset.touched = '1'; }
    },
  };
}


/**
 * @param {StageUpdate} update
 * @param {FormSpec} spec
 * @param {SeatSheet} p
 * @param {Send} send
 * @param {Map<string, HTMLElement>} sendBacks
 * @param {boolean} removable
 */
function gmPerson(update, spec, p, send, sendBacks, removable) {
  const li = h('li', 's0-person', h('div', 's0-person-head', h('b', null, capital(p.name)), p.name !== p.place ? h('span', 'hint', p.place) : null, pill(p.status)));
  li.dataset.seat = p.seat;
  if (p.comment) li.append(h('p', 'hint', 'Your comment: “' + p.comment + '”'));
  if (removable) {
    // Asked first (the server's question names the seat); its links stop working.
    const err = h('p', 'error');
    err.setAttribute('role', 'alert');
    const remove = K.button('Remove this seat', () => send({ type: 'remove_seat', seat: p.seat }, err));
    remove.dataset.action = 'remove-seat';
    remove.setAttribute('aria-label', 'Remove this seat (' + p.name + ')');
    li.append(h('div', 's0-npc-actions', remove), err);
  }
  if (!p.sheet) return li;
  li.append(card(spec, p.sheet, 'player'));
  const row = h('div', 's0-npc-actions', K.button('Download', () => K.downloadSheet(update.ruleset, 'player', p.sheet)));
  if (p.status === 'handed_in') {
    // The comment being written survives the redraws live updates cause.
    let box = sendBacks.get(p.seat);
    if (!box) {
      const text = K.area('', { placeholder: 'What should change?', 'aria-label': 'Comment for ' + p.name, maxlength: '500' });
      const err = h('p', 'error');
      err.setAttribute('role', 'alert');
      const go = K.button('Send back', async () => {
        const comment = text.value.trim();
        if (!comment) { err.textContent = 'Say what should change.'; return; }
        if (await send({ type: 'send_back', seat: p.seat, comment: comment }, err)) { text.value = ''; sendBacks.delete(p.seat); }
      });
      go.dataset.action = 'send-back';
      box = h('details', 's0-sendback-box', h('summary', null, 'Send back with a comment'), h('div', 's0-sendback', text, go), err);
      sendBacks.set(p.seat, box);
    }
    li.append(row, box);
  } else {
    li.append(row);
  }
  return li;
}

/**
 * @param {string} ruleset
 * @param {FormSpec} spec
 * @param {{ name: string, sheet: any }} n
 * @param {Send} send
 * @param {(sheet: any) => void} edit
 * @param {() => void} drawLibrary
 */
function gmNpc(ruleset, spec, n, send, edit, drawLibrary) {
  const err = h('p', 'error');
  err.setAttribute('role', 'alert');
  const li = h('li', 's0-person', card(spec, n.sheet, 'gm'),
    h('div', 's0-npc-actions',
      K.button('Edit', () => edit(n.sheet)),
      K.button('Set aside', () => send({ type: 'drop_npc', name: n.name }, err)),
      K.button('Save to my library', () => { K.library.save(ruleset, n.sheet); drawLibrary(); }),
      K.button('Download', () => K.downloadSheet(ruleset, 'gm', n.sheet))), err);
  li.dataset.npc = n.name;
  return li;
}

// ----- someone watching -----

/**
 * @param {StageUpdate} update
 * @param {FormSpec} spec
 * @returns {Built}
 */
function buildWatcher(update, spec) {
  const people = h('ul', 's0-people');
  const root = h('div', 's0', h('h3', null, 'Session zero'),
    h('p', 'hint', 'The players are making their characters; play starts when the GM says so.'), people);
  return {
    root,
    refresh: (u) => {
      people.replaceChildren(...u.view.session_zero.players.map((p) => h('li', 's0-person',
        h('div', 's0-person-head', h('b', null, capital(p.name)), pill(p.status)), p.sheet ? card(spec, p.sheet, 'player') : null)));
    },
  };
}

/** @type {import('../kit.js').Panel} */
function draw(container, any, send) {
  const update = /** @type {StageUpdate} */ (any);
  const spec = ClashForms.get(update.ruleset);
  if (!spec) { container.replaceChildren(h('p', 'hint', 'Loading the forms…')); return; }
  const mode = update.seat === 'gm' ? 'gm' : update.seat ? 'player' : 'watch';
  const key = mode + ':' + update.seat;
  if (!ui || ui.key !== key) {
    const built = mode === 'gm' ? buildGm(update, spec, send) : mode === 'player' ? buildPlayer(update, spec, send) : buildWatcher(update, spec);
    ui = Object.assign(built, { key: key });
  }
  ui.latest = update;
  if (container.firstChild !== ui.root || container.childNodes.length !== 1) container.replaceChildren(ui.root);
  ui.refresh(update);
}

registerPanel(SESSION_ZERO, draw);

// A game's forms that load after the first update: draw it again with them if the table is staged.
document.addEventListener('clash-forms', () => {
  const u = table.latest();
  if (u && u.view && u.view.session_zero && $('panel')) {
    try { draw($('panel'), u, table.send); } catch (e) { console.error(e); }
  }
});
