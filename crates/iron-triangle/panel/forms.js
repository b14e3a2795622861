// Iron Triangle's forms: the campaign's table choices (session, countdowns) and a character
// sheet. A player's sheet follows character creation (IT-9 … IT-12): ten energy over the three
// types, three background points, a belief, a flaw and a goal, and the three starting moves
// named. The GM's NPC sheet may be established: a level, any moves, combos and specials. The
// engine checks every field (the page shows its notes next to them); this script only draws.
import { ClashForms, K } from '../kit.js';

const h = K.h;

/** @typedef {import('../kit.js').Maker} Maker */
/** @typedef {import('../types/iron-triangle/Special').Special} Special */
/** @typedef {'belief' | 'flaw' | 'goal'} TraitName */
/**
 * A character's sheet as the form makes it (the engine's `CharacterSheet` before it has a
 * seat; moves by their codes, "D-M").
 * @typedef {object} Sheet
 * @property {string} name
 * @property {boolean} [established]
 * @property {number} [level]
 * @property {Record<string, number>} energy
 * @property {Array<{ name: string, points: number }>} [backgrounds]
 * @property {string} [belief]
 * @property {string} [flaw]
 * @property {string} [goal]
 * @property {Array<{ move: string, name: string }>} moves
 * @property {Array<{ from: string, followups: string[] }>} [combos]
 * @property {Special[]} [specials]
 */
/**
 * The campaign's choices.
 * @typedef {{ session: number, countdowns: Array<{ name: string, boxes: number }> }} Options
 */
/** @type {Array<TraitName>} */
const TRAITS = ['belief', 'flaw', 'goal'];

const TYPES = [['defend', 'Defend'], ['grapple', 'Grapple'], ['attack', 'Attack']];
/** @type {Record<string, string>} */
const ELEMENT = { L: 'Low', M: 'Mid', H: 'High', J: 'Jump', S: 'Spin' };
/** @type {Record<string, string>} */
const ACTION = { D: 'Defend', G: 'Grapple', A: 'Attack' };
const MOVES = ['D-L', 'D-M', 'D-H', 'G-L', 'G-M', 'G-H', 'G-J', 'G-S', 'A-L', 'A-M', 'A-H', 'A-J', 'A-S'];
const STARTING = ['D-M', 'G-L', 'A-H'];
/** @param {string} m a move's code */
const moveWords = (m) => ACTION[m[0]] + ' ' + ELEMENT[m[2]];
/** @type {Array<[string, string, boolean?]>} each special's id, its name, and whether it takes an action type */
const SPECIALS = [
  ['scouter', 'Scouter'], ['to_blave', 'To Blave'], ['there_can_be_only_one', 'There Can Be Only One'], ['pressure_point', 'Pressure Point'],
  ['wax_on', 'Wax On', true], ['santa_carla', 'Santa Carla', true], ['dig_two_graves', 'Dig Two Graves', true], ['i_already_know', 'I Already Know', true],
  ['yojimbo', 'Yojimbo'], ['liquid_metal', 'Liquid Metal'], ['drunken_monkey', 'Drunken Monkey'], ['way_of_the_samurai', 'Way of the Samurai'],
];
/** @param {Special} s */
const specialWords = (s) => {
  const found = SPECIALS.find(([id]) => id === s.special);
  return (found ? found[1] : String(s.special)) + ('action' in s && s.action ? ' (' + s.action.charAt(0).toUpperCase() + s.action.slice(1) + ')' : '');
};

/**
 * @param {Maker} maker
 * @returns {Sheet}
 */
function blank(maker) {
  const moves = STARTING.map((m) => ({ move: m, name: '' }));
  if (maker === 'gm') return { name: '', established: true, level: 1, energy: { defend: 3, grapple: 3, attack: 3 }, moves: moves };
  return {
    name: '', energy: { defend: 3, grapple: 3, attack: 4 },
    backgrounds: [{ name: '', points: 2 }, { name: '', points: 1 }],
    belief: '', flaw: '', goal: '', moves: moves,
  };
}

// A tally under the steppers: "Spent 9 of 10 — 1 more to place".
/**
 * @param {number | null} total
 * @param {() => number} get
 * @param {string} what
 */
function tally(total, get, what) {
  const p = h('p', 'kit-tally');
  p.setAttribute('aria-live', 'polite');
  const update = () => {
    const n = get();
    p.textContent = total == null ? what + ': ' + n
      : n === total ? what + ': ' + n + ' of ' + total + ' ✓'
        : what + ': ' + n + ' of ' + total + (n < total ? ' — ' + (total - n) + ' more to place' : ' — ' + (n - total) + ' too many');
    p.className = 'kit-tally ' + (total == null || n === total ? 'ok' : 'off');
  };
  return { p, update };
}

/**
 * @param {HTMLElement} box
 * @param {{ maker: Maker, sheet: Sheet | null }} ctx
 * @returns {import('../kit.js').SheetForm}
 */
function sheetForm(box, ctx) {
  const maker = ctx.maker;
  const body = h('div', 'it-form');
  box.append(body);
  /** @type {() => Sheet} */
  let read = () => blank(maker);

  /** @param {Sheet | null} sheet */
  function render(sheet) {
    const s = Object.assign(blank(maker), sheet || {});
    const gm = maker === 'gm';
    const name = K.text(s.name, { maxlength: '60', autocomplete: 'off', placeholder: gm ? 'The NPC’s name' : 'Your character’s name' });
    name.dataset.input = 'name';

    // Energy (IT-9).
    /** @type {Record<string, ReturnType<typeof K.stepper>>} */
    const energy = {};
    const spent = tally(gm ? null : 10, () => TYPES.reduce((a, [t]) => a + energy[t].get(), 0), 'Energy spent');
    const energyRow = h('div', 'it-form-row');
    for (const [t, label] of TYPES) {
      energy[t] = K.stepper(label, 0, gm ? 30 : 10, (s.energy || {})[t]);
      energy[t].dataset.energy = t;
      energy[t].addEventListener('input', spent.update);
      energyRow.append(energy[t]);
    }
    spent.update();
    const energySet = K.fieldset('energy', 'Energy', gm ? 'The most of each type the NPC has (at least 1 each).'
      : 'Spread 10 points over the three types, at least 1 in each. A stance draws on the energy of its action; losses come out of it.', energyRow, spent.p);

    /** @type {HTMLElement[]} */
    const parts = [K.field('name', 'Name', name)];
    /** @type {ReturnType<typeof K.stepper> | null} */
    let level = null;
    if (gm) {
      level = K.stepper('Level', 0, 20, s.level || 0);
      parts.push(K.field('level', 'Level', level, 'An NPC may start at any level; specials need one.'));
    }
    parts.push(energySet);

    // Backgrounds (IT-10).
    /** @type {HTMLElement & { get(): Array<{ name: string, points: number }> } | null} */
    let backgrounds = null;
    if (!gm || (s.backgrounds || []).length) {
      const points = tally(gm ? null : 3, () => (backgrounds ? backgrounds.get() : []).reduce((a, b) => a + (b.points || 0), 0), 'Background points');
      backgrounds = K.rows(s.backgrounds || [], (b) => {
        const n = K.text(b.name, { maxlength: '60', placeholder: 'A background (Detective, Dock worker…)', 'aria-label': 'Background' });
        const p = K.stepper('Points', 0, 3, b.points == null ? 1 : b.points);
        p.addEventListener('input', () => points.update());
        const row = h('div', null, n, p, h('p', 'error kit-error'));
        return { node: row, get: () => ({ name: n.value.trim(), points: p.get() }) };
      }, { path: 'backgrounds', add: 'Add a background', max: 3, blank: () => ({ name: '', points: 1 }) });
      backgrounds.addEventListener('input', points.update);
      points.update();
      parts.push(K.fieldset('backgrounds', 'Backgrounds', 'Three points over backgrounds you name, each named once, at most 2 in one. You spend them to make problems go your way.', backgrounds, points.p));
    }

    // Belief, flaw and goal (IT-11).
    /** @type {Record<string, HTMLTextAreaElement>} */
    const traits = {};
    /** @type {Record<TraitName, string>} */
    const hints = {
      belief: 'Something your character holds true. Acting on it can earn a mark.',
      flaw: 'What gets your character into trouble.',
      goal: 'What your character is after. The GM may reject a trivial one.',
    };
    for (const t of TRAITS) {
      traits[t] = K.area(s[t] || '', { maxlength: '2000', 'aria-label': t });
      traits[t].dataset.input = t;
      parts.push(K.field(t, t.charAt(0).toUpperCase() + t.slice(1) + (gm ? ' (optional)' : ''), traits[t], gm ? null : hints[t]));
    }

    // Moves (IT-7, IT-8, IT-12).
    /** @type {Record<string, string>} */
    const named = {};
    for (const k of s.moves || []) named[k.move] = k.name;
    /** @type {Record<string, HTMLInputElement>} */
    const moveInputs = {};
    /** @type {Record<string, HTMLInputElement>} */
    const known = {};
    const movesBody = h('div', 'it-form-moves');
    const shown = gm ? MOVES : STARTING;
    for (const m of shown) {
      const input = K.text(named[m] || '', { maxlength: '60', placeholder: 'Name this move', 'aria-label': 'Name for ' + moveWords(m) });
      input.dataset.move = m;
      moveInputs[m] = input;
      const label = h('span', 'it-form-move it-' + (ACTION[m[0]] || '').toLowerCase(), moveWords(m), h('small', null, ' ' + m));
      if (gm) {
        const cb = K.checkbox('', m in named);
        known[m] = cb.box;
        cb.box.setAttribute('aria-label', 'Knows ' + moveWords(m));
        movesBody.append(h('div', 'it-form-move-row', cb, label, input));
      } else {
        movesBody.append(h('div', 'it-form-move-row', label, input));
      }
    }
    parts.push(K.fieldset('moves', gm ? 'Moves' : 'Your starting moves', gm
      ? 'Tick the moves the NPC knows and name them. Jump and Spin moves need all nine Low, Mid and High moves first.'
      : 'Everyone starts with Defend Mid, Grapple Low and Attack High. Give each a name of your own: you can rename them later.', movesBody));

    /** @type {HTMLElement & { get(): Array<{ from: string, followups: string[] }> } | null} */
    let combos = null;
    /** @type {HTMLElement & { get(): Special[] } | null} */
    let specials = null;
    if (gm) {
      const moveOptions = [['', '—']].concat(MOVES.map((m) => [m, moveWords(m)]));
      combos = K.rows(s.combos || [], (/** @type {{ from: string, followups: string[] }} */ c) => {
        const from = K.select(MOVES.map((m) => [m, moveWords(m)]), c.from, 'Combo from');
        const f1 = K.select(moveOptions, (c.followups || [])[0] || '', 'First followup');
        const f2 = K.select(moveOptions, (c.followups || [])[1] || '', 'Second followup (optional)');
        const row = h('div', null, h('span', null, 'From'), from, h('span', null, 'to'), f1, h('span', null, 'or'), f2, h('p', 'error kit-error'));
        return { node: row, get: () => ({ from: from.value, followups: [f1.value, f2.value].filter(Boolean) }) };
      }, { path: 'combos', add: 'Add a combo', max: 13, blank: () => ({ from: 'D-M', followups: [] }) });
      parts.push(K.fieldset('combos', 'Combos', 'A move that wins can be followed by one or two known moves.', combos));
      /** @type {string[][]} */
      const options = [];
      for (const [id, words, withAction] of SPECIALS) {
        if (withAction) for (const [t, tw] of TYPES) options.push([id + ':' + t, words + ' (' + tw + ')']);
        else options.push([id, words]);
      }
      specials = K.rows(s.specials || [], (sp) => {
        const sel = K.select(options, 'action' in sp && sp.action ? sp.special + ':' + sp.action : sp.special, 'Special');
        const row = h('div', null, sel, h('p', 'error kit-error'));
        return {
          node: row,
          get: () => {
            const [id, action] = sel.value.split(':');
            return /** @type {Special} */ (action ? { special: id, action: action } : { special: id });
          },
        };
      }, { path: 'specials', add: 'Add a special', max: 20, blank: () => /** @type {import('../types/iron-triangle/Special').Special} */ ({ special: 'scouter' }) });
      parts.push(K.fieldset('specials', 'Specials', 'Each has a level it needs, and Dig Two Graves needs its Wax On.', specials));
    }

    body.replaceChildren(...parts);
    read = () => {
      // Filled in below, in the order the sheet reads.
      const out = /** @type {Sheet} */ ({ name: name.value.trim() });
      if (gm && level) { out.established = true; out.level = level.get(); }
      out.energy = {};
      for (const [t] of TYPES) out.energy[t] = energy[t].get();
      if (backgrounds) {
        const list = backgrounds.get().filter((b) => b.name || b.points);
        if (list.length || !gm) out.backgrounds = list;
      }
      for (const t of TRAITS) if (traits[t].value.trim() || !gm) out[t] = traits[t].value.trim();
      out.moves = shown.filter((m) => !gm || known[m].checked).map((m) => ({ move: m, name: moveInputs[m].value.trim() }));
      if (combos) { const c = combos.get(); if (c.length) out.combos = c; }
      if (specials) { const sp = specials.get(); if (sp.length) out.specials = sp; }
      return out;
    };
  }

  render(ctx.sheet);
  return { get: () => read(), set: (/** @type {Sheet | null} */ sheet) => render(sheet) };
}

/** @param {Partial<Sheet> | null} sheet */
function card(sheet) {
  /** @type {Partial<Sheet>} */
  const s = sheet || {};
  const e = s.energy || {};
  const dl = h('dl', null);
  /** @param {string} k @param {string | null | undefined} v */
  const row = (k, v) => { if (v != null && v !== '') dl.append(h('dt', null, k), h('dd', null, v)); };
  if (s.established) row('Level', String(s.level || 0));
  row('Energy', TYPES.map(([t, w]) => w + ' ' + (e[t] || 0)).join(' · '));
  row('Backgrounds', (s.backgrounds || []).map((b) => b.name + ' ' + b.points).join(' · '));
  row('Belief', s.belief);
  row('Flaw', s.flaw);
  row('Goal', s.goal);
  row('Moves', (s.moves || []).map((m) => (m.name || '?') + ' (' + moveWords(m.move) + ')').join(' · '));
  row('Combos', (s.combos || []).map((c) => moveWords(c.from) + ' → ' + c.followups.map(moveWords).join(' or ')).join(' · '));
  row('Specials', (s.specials || []).map(specialWords).join(' · '));
  const c = h('section', 's0-card it-sheet-card', h('h4', null, s.name || 'Unnamed'), dl);
  c.dataset.sheet = s.name || '';
  return c;
}

// The campaign's choices: its session and any countdowns up front (IT-13).
/**
 * @param {HTMLElement} box
 * @returns {import('../kit.js').TableForm}
 */
function tableForm(box) {
  const session = K.stepper('Session', 1, 99, 1);
  const countdowns = K.rows(/** @type {Array<{ name?: string, boxes?: number }>} */ ([]), (c) => {
    const name = K.text(c.name || '', { maxlength: '60', placeholder: 'What is coming (The flood, The gang war…)', 'aria-label': 'Countdown' });
    const boxes = K.stepper('Boxes', 1, 12, c.boxes || 6);
    const row = h('div', null, name, boxes, h('p', 'error kit-error'));
    return { node: row, get: () => ({ name: name.value.trim(), boxes: boxes.get() }) };
  }, { path: 'options.countdowns', add: 'Add a countdown', max: 32, blank: () => ({ name: '', boxes: 6 }) });
  box.append(
    K.fieldset('options', 'The campaign', 'A new campaign starts at session 1; carry on an old one from its session. Players make their characters from their invite links before play starts.',
      K.field('options.session', null, session),
      K.fieldset('options.countdowns', 'Countdowns (optional)', 'Threats the players can see coming: 4 to 8 boxes, each with its own name. You mark them as the story goes.', countdowns)));
  return { get: () => ({ session: session.get(), countdowns: countdowns.get() }) };
}

/** @param {Partial<Options> | null} options */
function summary(options) {
  /** @type {Partial<Options>} */
  const o = options || {};
  const dl = h('dl', null, h('dt', null, 'Session'), h('dd', null, String(o.session || 1)));
  if ((o.countdowns || []).length) dl.append(h('dt', null, 'Countdowns'), h('dd', null, (o.countdowns || []).map((c) => c.name + ' (' + c.boxes + ' boxes)').join(' · ')));
  return h('div', 's0-card', dl);
}

ClashForms.register('iron-triangle', {
  words: { sheet: 'character', npc: 'NPC', players: 2 },
  blank: blank,
  table: tableForm,
  summary: summary,
  sheet: sheetForm,
  card: card,
});
