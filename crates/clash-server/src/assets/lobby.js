// Lobby: the tables this browser created or joined (kept in localStorage by the table pages),
// each with whose move it is; a new table made by form (the game, its name, its seats and the
// game's own choices, checked as they are made); a table from a setup file; and the chosen
// preset's setup JSON, to read or edit before creating a table.
import { $, el, pageData, watchLengths, nameFolds, ClashForms, K, messageOf } from './kit.js';
import { ruleLinker } from './rule-links.js';

/**
 * A table this browser keeps (the table page writes it: app.js).
 * @typedef {{ table: string, path: string, key: string, title: string, game: string, me: string, role: string, at: number }} Kept
 */
/**
 * How a kept table stands now.
 * @typedef {{ gone?: string, title?: string, turn?: import('./types/Turn').Turn, archived?: boolean, closed?: boolean }} Now
 */
/** A game with forms, as the lobby's page data lists it. @typedef {{ id: string, name: string, blurb: string, sheets: boolean }} Game */

const savedKey = 'clash.tables';
/** @returns {Kept[]} */
function saved() {
  try { return JSON.parse(localStorage.getItem(savedKey) || '[]'); } catch (e) { return []; }
}
/** @param {Kept} entry */
function forget(entry) {
  const list = saved().filter((t) => !(t.table === entry.table && t.path === entry.path));
  try { localStorage.setItem(savedKey, JSON.stringify(list)); } catch (e) { /* private mode */ }
  showMine();
}

// How the table stands now, for this link: its name, whose move, archived or gone.
/**
 * @param {Kept} entry
 * @returns {Promise<Now>}
 */
async function look(entry) {
  try {
    const r = await fetch('/api/tables/' + encodeURIComponent(entry.table) + '/view?key=' + encodeURIComponent(entry.key));
    if (r.status === 404) return { gone: 'deleted by the GM' };
    if (!r.ok) return { gone: 'this link no longer works' };
    /** @type {import('./kit.js').Update} */
    const u = await r.json();
    return { title: u.title, turn: u.room.turn, archived: u.room.archived, closed: u.closed };
  } catch (e) {
    return { gone: 'the server could not be reached' };
  }
}

/** Whether the game waits on this link (for the GM: on a seat the GM plays). */
/** @param {Now} now */
function yours(now) {
  return !!(now.turn && (now.turn.yours || (now.turn.npc || []).length));
}

// The tables whose game waits on this browser's link, in one question to the server.
/** @param {Kept[]} list */
async function waitingOnMe(list) {
  /** @type {import('./types/MovesBody').MovesBody} */
  const body = { tables: list.slice(0, 50).map((t) => ({ id: t.table, key: t.key })) };
  try {
    const r = await fetch('/api/moves', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!r.ok) return new Set();
    /** @type {import('./types/Moves').Moves} */
    const answer = await r.json();
    return new Set(answer.tables.filter((t) => t.yours).map((t) => t.id));
  } catch (e) {
    return new Set();
  }
}

/** @param {Kept} entry @param {Now} now */
function row(entry, now) {
  const li = el('li', { class: 'mine-row' + (yours(now) ? ' yours' : '') });
  const title = now.title || entry.title;
  li.append(now.gone ? el('span', { class: 'name' }, title) : el('a', { href: entry.path, class: 'name' }, title));
  // "you are the GM", "you are Ada", "you are a spectator": the name says the role.
  li.append(el('span', { class: 'hint' }, ' · ' + entry.game + ' · you are ' + entry.me));
  const state = now.gone || (now.archived ? 'archived' : now.turn ? now.turn.text : '');
  li.append(el('span', { class: 'state' }, state));
  li.append(el('button', { type: 'button', class: 'small', 'aria-label': 'Forget ' + title, onclick: () => forget(entry) }, 'Forget'));
  return li;
}

async function showMine() {
  const list = saved();
  $('mine').hidden = list.length === 0;
  const [looks, waiting] = await Promise.all([Promise.all(list.map(look)), waitingOnMe(list)]);
  /** @type {HTMLElement[]} */
  const open = [];
  /** @type {HTMLElement[]} */
  const archived = [];
  // The tables where it is this visitor's move come first, in the order they were kept.
  const order = list.map((_, i) => i);
  const first = (/** @type {number} */ i) => (waiting.has(list[i].table) && yours(looks[i]) ? 0 : 1);
  order.sort((/** @type {number} */ a, /** @type {number} */ b) => first(a) - first(b) || a - b);
  for (const i of order) (looks[i].archived ? archived : open).push(row(list[i], looks[i]));
  $('mine-list').replaceChildren(...open);
  $('archived-list').replaceChildren(...archived);
  $('archived').hidden = archived.length === 0;
  $('archived').querySelector('summary').textContent = 'Archived tables (' + archived.length + ')';
}
if ($('mine')) showMine();

// ---- A table made by form: the game, its name, the seats, the game's own choices ----------

/** @type {Game[]} */
const games = pageData('games', []);
const ruleLinks = pageData('rule-links', {});
const byForm = $('by-form');
if (byForm && K && games.length) makeByForm();
// Text fields count their text against their limit instead of cutting it; folds are named.
watchLengths(document.body);
nameFolds(document.body);

function makeByForm() {
  const h = K.h;
  /** @type {{ id: string | null, spec: import('./kit.js').FormSpec | null, form: import('./kit.js').TableForm | null }} */
  const chosen = { id: null, spec: null, form: null };
  const picks = h('div', 'games');
  picks.setAttribute('role', 'group');
  picks.setAttribute('aria-label', 'Game');
  const blurb = h('p', 'hint');
  const title = K.text('', { maxlength: '120', placeholder: 'Friday night duel' });
  const count = K.stepper('Players', 1, 8, 2);
  const seats = h('div', 'seat-plans');
  const playersHint = h('p', 'hint');
  const playersSet = K.fieldset('players', 'Who sits at the table', null, playersHint, count, seats);
  const choices = h('div', 'game-choices');
  const top = h('p', 'error');
  top.setAttribute('role', 'alert');
  const create = h('button', 'primary', 'Create the table');
  create.type = 'button';
  create.id = 'create-by-form';
  /** @type {HTMLSelectElement[]} */
  const plans = [];
  /** @param {number} n */
  const place = (n) => 'the ' + ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'][n - 1] + ' player';
  function drawSeats() {
    const n = count.get();
    while (plans.length < n) {
      const sel = K.select([['player', 'A player joins with an invite link'], ['gm', 'You play this seat yourself']], 'player', 'Who plays ' + place(plans.length + 1));
      plans.push(sel);
    }
    plans.length = n;
    /** @type {import('./kit.js').Words} */
    const words = (chosen.spec && chosen.spec.words) || {};
    const name = (/** @type {number} */ i) => (words.seat ? words.seat(i) : place(i + 1).replace(/^t/, 'T'));
    seats.replaceChildren(...plans.map((sel, i) => h('div', 'seat-plan', h('b', null, name(i)), sel)));
    playersHint.textContent = (words.host || 'You are the GM.') + ' Each seat gets an invite link for its player; a seat you play yourself needs none.';
    if (chosen.form && chosen.form.players) chosen.form.players(n);
  }
  function table() {
    return { players: count.get(), options: chosen.form ? chosen.form.get() : {} };
  }
  let asked = 0;
  async function checkNow() {
    if (!chosen.id) return;
    const n = ++asked;
    let t;
    try { t = table(); } catch (e) { top.textContent = messageOf(e); return; }
    const problems = await K.check(chosen.id, { table: t });
    if (n !== asked || problems == null) return;
    K.showProblems(byForm, problems, top);
    create.disabled = problems.length > 0;
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const soon = () => { clearTimeout(timer); timer = setTimeout(checkNow, 250); };
  byForm.addEventListener('input', soon);
  byForm.addEventListener('change', soon);
  count.addEventListener('input', drawSeats);
  // Rule IDs in the game's choices link to the rule (opened in a tab of its own).
  let unlink = () => {};
  /** @param {Game} game */
  function pick(game) {
    chosen.id = game.id;
    unlink();
    unlink = ruleLinker(ruleLinks[game.id] || null, null).watch(choices);
    chosen.spec = ClashForms.get(game.id);
    for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (picks.children)) b.setAttribute('aria-pressed', String(b.dataset.game === game.id));
    blurb.textContent = game.blurb + (game.sheets ? ' Your players make their own characters before play starts.' : ' It starts as soon as the table is made.');
    const words = (chosen.spec && chosen.spec.words) || {};
    count.set(words.players || 2, true);
    choices.replaceChildren();
    chosen.form = chosen.spec && chosen.spec.table ? chosen.spec.table(choices, { kit: K, players: count.get() }) : null;
    drawSeats();
    checkNow();
  }
  for (const g of games) {
    const b = h('button', 'game-pick', h('b', null, g.name), h('small', null, g.sheets ? 'characters made by the players' : 'no characters to make'));
    b.type = 'button';
    b.dataset.game = g.id;
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => pick(g));
    picks.append(b);
  }
  create.addEventListener('click', async () => {
    top.textContent = '';
    let t;
    try { t = table(); } catch (e) { top.textContent = messageOf(e); return; }
    const gmPlays = plans.map((sel, i) => (sel.value === 'gm' ? 'p' + (i + 1) : null)).filter(Boolean);
    create.disabled = true;
    const r = await fetch('/api/tables/from-form', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ruleset: chosen.id, title: title.value, table: t, gm_plays: gmPlays }),
    }).catch((e) => ({ ok: false, json: async () => ({ error: { message: e.message } }) }));
    const body = await r.json().catch(() => ({}));
    create.disabled = false;
    if (r.ok) { location.href = body.links.owner; return; }
    if (body.problems) K.showProblems(byForm, body.problems, top);
    else top.textContent = (body.error && body.error.message) || 'The table could not be made.';
  });
  byForm.replaceChildren(
    h('label', null, 'Game'), picks, blurb,
    K.field('title', 'Table name (optional)', title),
    playersSet, choices, top, create);
  const again = () => { const game = chosen.id ? games.find((g) => g.id === chosen.id) : null; if (game) pick(game); };
  document.addEventListener('clash-forms', again);
  pick(games[0]);
}

// ---- One way to start a table at a time ---------------------------------------------------

// Opening a ready-made setup (or a setup file) folds the game's form away, and the other way
// too: the lobby never shows two "Table name" fields or two buttons that create a table.
const ways = /** @type {HTMLDetailsElement[]} */ (['ready-made', 'from-file'].map((id) => $(id)).filter(Boolean));
/** @param {HTMLDetailsElement | null} opened */
function oneWay(opened) {
  if (opened && opened.open) for (const d of ways) if (d !== opened) d.open = false;
  if (byForm) byForm.hidden = ways.some((d) => d.open);
}
for (const d of ways) d.addEventListener('toggle', () => oneWay(d));
oneWay(ways.find((d) => d.open) || null);

// ---- A table from a setup file ------------------------------------------------------------

const filePick = $('file-pick');
if (filePick && K) {
  filePick.addEventListener('click', async () => {
    const err = $('file-error');
    err.textContent = '';
    /** @type {{ clash?: string, ruleset?: string, setup?: unknown, title?: string } | null} a file's JSON: anything */
    let data;
    try { data = /** @type {any} */ (await K.readFile()); } catch (e) { err.textContent = messageOf(e); return; }
    if (data && data.clash === 'sheet') { err.textContent = 'That is a character sheet: import it into a sheet on a table (from your invite link, or as an NPC on your GM page).'; return; }
    if (!data || data.clash !== 'setup' || !data.ruleset || !data.setup) { err.textContent = 'That file is not a Clash setup.'; return; }
    const r = await fetch('/api/tables', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ruleset: data.ruleset, setup: data.setup, title: $('file-title').value || data.title || '' }),
    }).catch((e) => ({ ok: false, json: async () => ({ error: { message: e.message } }) }));
    const body = await r.json().catch(() => ({}));
    if (r.ok) { location.href = body.links.owner; return; }
    err.textContent = (body.error && body.error.message) || 'The table could not be made from that file.';
  });
}

// The ready-made setups: the chosen one's setup JSON, to read or edit before creating.
const presets = pageData('presets', {});
const select = $('preset');
const setup = $('setup');
const blurb = $('blurb');
if (select && setup) showPresets();

function showPresets() {
  let shown = setup.value.trim();
  function fill() {
    const p = presets[select.value];
    blurb.textContent = p ? p.blurb : 'Write the setup for this game in the Setup box.';
    // Replace the text only if the user has not edited it.
    if (p && (setup.value.trim() === '' || setup.value.trim() === shown)) {
      setup.value = JSON.stringify(p.setup, null, 2);
      shown = setup.value.trim();
    }
  }
  select.addEventListener('change', fill);
  fill();
}
