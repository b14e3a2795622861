// The workbench page: pick a game and a table, change rule numbers in up to a few variants
// (each number shown with the rule it comes from), run them beside the rules as written, and
// read what the bots found: findings, figures with their intervals (flagged where a variant's
// separates), exact tables and plots. A study's link carries what it asked for, so whoever
// opens it gets the same study.
import { $, el, h, pageData, errorOf } from './kit.js';
import { ruleLinker } from './rule-links.js';

/** @typedef {import('./types/BenchGames').BenchGames} BenchGames */
/** @typedef {import('./types/BenchGame').BenchGame} BenchGame */
/** @typedef {import('./types/BenchParam').BenchParam} BenchParam */
/** @typedef {import('./types/StudyRequest').StudyRequest} StudyRequest */
/** @typedef {import('./types/StudyStatus').StudyStatus} StudyStatus */
/** @typedef {import('./types/StudyReport').StudyReport} StudyReport */

/** @type {BenchGames} */
const bench = pageData('bench', { games: [], limits: { variants: 3, games: 1000, strong: 30, mixed: 30, exact: 3 } });
const ruleLinks = pageData('rule-links', {});
const form = $('bench-form');
let unlink = () => {};

/**
 * A labelled field: the label, a hint under it, and the control.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [hint]
 */
function field(id, label, control, hint) {
  control.id = id;
  return h('div', 'bench-field', el('label', { for: id }, label), control, hint ? h('p', 'hint', hint) : null);
}

/** @param {number | string} value @param {number} min @param {number} max */
function numberInput(value, min, max) {
  return el('input', { type: 'number', inputmode: 'numeric', min: String(min), max: String(max), value: String(value) });
}

/** @param {string[][]} options each a value and its text @param {string} value */
function select(options, value) {
  const s = el('select');
  for (const [v, text] of options) s.append(el('option', { value: v }, text));
  s.value = value;
  return s;
}

let uid = 0;
/** One variant's block: its name and one control per rule number, set to the rules' value. */
/**
 * @param {BenchGame} game
 * @param {string} name
 * @param {Record<string, string> | null} changes
 * @param {() => void} remove
 */
function variantBlock(game, name, changes, remove) {
  const n = ++uid;
  const nameInput = el('input', { type: 'text', maxlength: '60', value: name });
  /** @type {Map<string, { control: HTMLInputElement | HTMLSelectElement, param: BenchGame['params'][number] }>} */
  const controls = new Map();
  const grid = h('div', 'bench-params');
  for (const p of game.params) {
    const id = 'v' + n + '-' + p.key;
    const control = p.choices.length ? select(p.choices.map((c) => [c, c]), p.default) : numberInput(p.default, p.min, p.max);
    control.dataset.key = p.key;
    controls.set(p.key, { control, param: p });
    const label = p.name + ' (' + p.rule + ')';
    grid.append(field(id, label, control, p.help + ' As written: ' + p.default + '; ' + p.bounds + '.'));
  }
  for (const [k, v] of Object.entries(changes || {})) {
    const c = controls.get(k);
    if (c) c.control.value = v;
  }
  const drop = el('button', { type: 'button', class: 'small', onclick: remove }, 'Remove this variant');
  const box = el('fieldset', { class: 'bench-variant' },
    el('legend', null, 'Variant'),
    field('v' + n + '-name', 'Its name', nameInput), grid, drop);
  return {
    box,
    get: () => {
      /** @type {string[]} */
      const typed = [];
      for (const [key, { control, param }] of controls) {
        if (String(control.value).trim() !== String(param.default)) typed.push(key + '=' + String(control.value).trim());
      }
      return { name: nameInput.value.trim(), changes: typed.join(',') };
    },
  };
}

/**
 * `wipe_out=4, reserve=2` as an object.
 * @param {string | null | undefined} text
 */
function parseChanges(text) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const part of String(text || '').split(/[,\s]+/)) {
    const [k, v] = part.split('=');
    if (k && v !== undefined) out[k.trim()] = v.trim();
  }
  return out;
}

/** @typedef {ReturnType<typeof variantBlock>} VariantBlock */
const state = { game: /** @type {BenchGame | null} */ (null), variants: /** @type {VariantBlock[]} */ ([]) };

/**
 * A study asked for by a link (its form filled in from it), or null for the game's defaults.
 * @typedef {{ table: string | null, variants: Array<{ name: string, changes: string }>, games: number, strong: number, mixed: number, seed: number, exact: number }} Asked
 */

/**
 * @param {BenchGame} game
 * @param {Asked | null} asked
 */
function drawForm(game, asked) {
  state.game = game;
  state.variants = [];
  const gameSel = select(bench.games.map((g) => [g.id, g.name]), game.id);
  gameSel.addEventListener('change', () => drawForm(bench.games.find((g) => g.id === gameSel.value) || game, null));
  const words = (/** @type {string} */ key) => key.charAt(0).toUpperCase() + key.slice(1).replace(/-/g, ' ');
  const tableSel = select(game.tables.map((t) => [t.key, words(t.key)]), (asked && asked.table) || game.tables[0].key);
  const about = h('p', 'hint');
  const showAbout = () => { about.textContent = (game.tables.find((t) => t.key === tableSel.value) || game.tables[0]).about; };
  tableSel.addEventListener('change', showAbout);
  showAbout();
  const list = h('div', 'bench-variants');
  const add = el('button', { type: 'button', class: 'small' }, 'Add a variant');
  /** @param {string} name @param {Record<string, string> | null} changes */
  const addVariant = (name, changes) => {
    if (state.variants.length >= bench.limits.variants) return;
    const v = variantBlock(game, name, changes, () => {
      state.variants = state.variants.filter((x) => x !== v);
      v.box.remove();
      add.disabled = false;
    });
    state.variants.push(v);
    list.append(v.box);
    add.disabled = state.variants.length >= bench.limits.variants;
  };
  add.addEventListener('click', () => addVariant('variant ' + (state.variants.length + 1), {}));
  const tries = h('p', 'bench-tries', 'Try: ');
  for (const s of game.suggested) {
    tries.append(el('button', { type: 'button', class: 'small', title: s.why, onclick: () => addVariant(s.name, parseChanges(s.changes)) }, s.name), ' ');
  }
  const games = numberInput((asked && asked.games) || 300, 10, bench.limits.games);
  const strong = numberInput(asked ? asked.strong : 10, 0, bench.limits.strong);
  const mixed = numberInput(asked ? asked.mixed : 10, 0, bench.limits.mixed);
  const seed = numberInput((asked && asked.seed) || 1, 0, 1000000);
  const exact = game.exact ? select([['0', 'none'], ['2', '2 × 2 builds'], ['3', '3 × 3 builds']], String((asked && asked.exact) || 0)) : null;
  const run = el('button', { type: 'submit', class: 'primary' }, 'Play them side by side');
  const top = el('p', { class: 'error', role: 'alert' });
  form.replaceChildren(...[
    field('bench-game', 'Game', gameSel),
    field('bench-table', 'Table the bots play', tableSel), about,
    h('h3', null, 'Variants, beside the rules as written'), tries, list, add,
    h('h3', null, 'How many games'),
    h('div', 'bench-counts',
      field('bench-games', 'With casual bots', games),
      field('bench-strong', 'With strong bots', strong),
      field('bench-mixed', 'One strong bot among casual ones', mixed),
      field('bench-seed', 'Seed', seed, 'The same seed gives the same games.')),
    exact ? field('bench-exact', 'Exact balance table', exact, 'Solved exactly, a few seconds a cell.') : null,
    top, run].filter(Boolean));
  for (const v of (asked && asked.variants) || []) addVariant(v.name, parseChanges(v.changes));
  if (!asked) addVariant(game.suggested[0] ? game.suggested[0].name : 'variant 1', game.suggested[0] ? parseChanges(game.suggested[0].changes) : {});
  unlink();
  unlink = ruleLinker(ruleLinks[game.id] || null, null).watch(form);
  form.onsubmit = (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {StudyRequest} */
    const body = {
      game: game.id, table: tableSel.value, variants: state.variants.map((v) => v.get()),
      games: Number(games.value), strong: Number(strong.value), mixed: Number(mixed.value), seed: Number(seed.value),
      exact: exact ? Number(exact.value) : 0,
    };
    study(body, top, run);
  };
}

/**
 * @param {StudyRequest} body
 * @param {HTMLElement} top where a refusal shows
 * @param {HTMLButtonElement} run
 */
async function study(body, top, run) {
  top.textContent = '';
  run.disabled = true;
  try {
    const r = await fetch('/api/workbench/studies', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!r.ok) { top.textContent = (await errorOf(r)).message || 'The study could not start.'; return; }
    /** @type {StudyStatus} */
    let s = await r.json();
    history.replaceState(null, '', s.link);
    $('bench-progress').hidden = false;
    while (s.state === 'queued' || s.state === 'running') {
      showProgress(s);
      await new Promise((res) => setTimeout(res, 500));
      const again = await fetch('/api/workbench/studies/' + encodeURIComponent(s.id));
      if (!again.ok) { top.textContent = (await errorOf(again)).message || 'The study was lost.'; return; }
      s = await again.json();
    }
    showProgress(s);
    if (s.state === 'failed' || !s.report) { top.textContent = s.error || 'The study failed.'; return; }
    showReport(s, s.report);
  } catch (e) {
    top.textContent = 'The server could not be reached: ' + (e instanceof Error ? e.message : String(e));
  } finally {
    run.disabled = false;
  }
}

function showProgress(/** @type {StudyStatus} */ s) {
  const bar = $('bench-bar');
  bar.max = Math.max(1, s.total);
  bar.value = s.done;
  $('bench-count').textContent = s.state === 'queued' ? 'Waiting for the studies before it…'
    : s.state === 'running' ? s.done + ' of ' + s.total + ' games played' : 'Done: ' + s.total + ' games played.';
}

function showReport(/** @type {StudyStatus} */ s, /** @type {StudyReport} */ rep) {
  const game = state.game;
  const share = el('a', { href: s.link, id: 'bench-share' }, 'Link to this study');
  const copy = el('button', { type: 'button', class: 'small', onclick: async () => {
    try { await navigator.clipboard.writeText(new URL(s.link, location.href).href); copy.textContent = 'Copied'; } catch (e) { copy.textContent = 'Copy it from the link'; }
  } }, 'Copy the link');
  const variants = h('ul', 'bench-variant-list');
  for (const v of rep.variants) {
    const li = el('li', null, el('b', null, v.name), v.changes.length ? ': ' + v.changes.join('; ') : ' (the rules as written)');
    if (v.changes.length && game) {
      const q = new URLSearchParams({ game: game.id, variant: v.name, changes: v.typed });
      li.append(' ', el('a', { href: '/?' + q.toString() + '#ready-made' }, 'Open a table with it'));
    }
    variants.append(li);
  }
  const findings = h('ul', 'bench-findings');
  for (const f of rep.findings) findings.append(el('li', null, el('b', null, f.about + ': '), f.text));
  /** @type {HTMLElement[]} */
  const parts = [
    h('p', 'hint', rep.summary), h('p', null, share, ' ', copy),
    h('h3', null, 'Variants'), variants,
    h('h3', null, 'Findings'), findings,
  ];
  for (const run of rep.runs) parts.push(h('h3', null, 'With ' + run.bots), figures(rep, run));
  for (const t of rep.exact) parts.push(h('h3', null, t.title + ' — ' + t.variant), exactTable(t), h('p', 'hint', t.note));
  if (rep.plots.length) parts.push(h('h3', null, 'Plots'));
  for (const p of rep.plots) parts.push(el('figure', { class: 'bench-plot' }, el('img', { src: p.url, alt: p.title })));
  $('bench-report').replaceChildren(...parts);
  $('bench-results').hidden = false;
  if (game) ruleLinker(ruleLinks[game.id] || null, null).link($('bench-report'));
}

/**
 * @param {StudyReport} rep
 * @param {StudyReport['runs'][number]} run
 */
function figures(rep, run) {
  const head = el('tr', null, el('th', { scope: 'col' }, 'Figure (95% interval, games)'), ...rep.variants.map((v) => el('th', { scope: 'col' }, v.name)));
  const rows = run.rows.map((row) => el('tr', null, el('th', { scope: 'row' }, row.label),
    ...row.cells.map((c) => el('td', c.flagged ? { class: 'flagged' } : null, c.text, c.flagged ? h('span', 'flag', ' differs') : null))));
  return h('div', 'bench-scroll', el('table', { class: 'bench-table' }, el('thead', null, head), el('tbody', null, ...rows)));
}

/** @param {StudyReport['exact'][number]} t */
function exactTable(t) {
  const head = el('tr', null, el('th', { scope: 'col' }, t.rows_are + ' against ' + t.cols_are), ...t.cols.map((c) => el('th', { scope: 'col' }, c)));
  const rows = t.rows.map((r) => el('tr', null, el('th', { scope: 'row' }, r.label), ...r.cells.map((c) => el('td', null, c))));
  return h('div', 'bench-scroll', el('table', { class: 'bench-table' }, el('thead', null, head), el('tbody', null, ...rows)));
}

// A link to a study (or a suggestion from elsewhere) fills the form and runs it.
function start() {
  if (!form) return;
  if (!bench.games.length) { form.replaceChildren(h('p', 'error', 'No game on this server has a workbench.')); return; }
  const q = new URLSearchParams(location.search);
  const game = bench.games.find((g) => g.id === q.get('game'));
  if (!game) { drawForm(bench.games[0], null); return; }
  const variants = q.getAll('v').map((v) => {
    const i = v.indexOf('=');
    return i < 0 ? { name: v, changes: '' } : { name: v.slice(0, i), changes: v.slice(i + 1) };
  });
  /** @param {string} k @param {number} d */
  const num = (k, d) => (q.has(k) ? Number(q.get(k)) : d);
  const asked = { table: q.get('table'), variants, games: num('games', 300), strong: num('strong', 10), mixed: num('mixed', 10), seed: num('seed', 1), exact: num('exact', 0) };
  drawForm(game, asked);
  form.requestSubmit();
}
start();
