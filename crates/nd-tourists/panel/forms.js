// N-Dimensional Tourists' forms: the deck's blanks, and a party's sheet — its name and goal
// (ND-5), and its characters, each with the Attribute it brings to this Conflict, Aspects and
// Weaknesses (ND-6) and a Reserve size (S4: 3). The GM's parties may name how many Reserve
// cards they draw (ND-10). The engine checks every field; this script only draws.
import { ClashForms, K } from '../kit.js';

const h = K.h;

/** @typedef {import('../kit.js').Maker} Maker */
/** @typedef {import('../types/nd-tourists/Trait').Trait} Trait */
/** @typedef {import('../types/nd-tourists/Attribute').Attribute} Attribute */
/**
 * A character as the form makes it (the engine's `CharacterSetup` without its dealt cards).
 * @typedef {{ name: string, attribute: Attribute, aspects: Trait[], weaknesses: Trait[], reserve_size?: number | null }} CharacterSheet
 */
/**
 * A party's sheet as the form makes it (the engine's `PartySetup` without its seat).
 * @typedef {{ name: string, goal: string, characters: CharacterSheet[], reserve_draws?: number | null }} Sheet
 */
/**
 * The table's choices.
 * @typedef {{ blanks: boolean, reactions?: string, names?: Record<string, string> }} Options
 */

/** @param {unknown} text */
const lines = (text) => String(text || '').split('\n').map((t) => t.trim()).filter(Boolean);
/** @param {Trait | null | undefined} t */
const traitName = (t) => (typeof t === 'string' ? t : t && t.name) || '';

/**
 * @param {Maker} maker
 * @returns {Sheet}
 */
function blank(maker) {
  return {
    name: '', goal: '',
    characters: [{ name: '', attribute: { name: '', value: maker === 'gm' ? 6 : 3 }, aspects: [], weaknesses: [] }],
  };
}

/** @param {Maker} maker */
function characterRow(maker) {
  return (/** @type {Partial<CharacterSheet> | null} */ c) => {
    /** @type {Partial<CharacterSheet>} */
    const ch = c || {};
    /** @type {Partial<Attribute>} */
    const att = ch.attribute || {};
    const name = K.text(ch.name, { maxlength: '80', placeholder: 'Character (or the whole crew)', 'aria-label': 'Character name' });
    name.dataset.input = 'character';
    const attName = K.text(att.name, { maxlength: '80', placeholder: 'Attribute (Paper, Blades…)', 'aria-label': 'Attribute' });
    const value = K.stepper('Value', -10, 20, att.value == null ? 3 : att.value);
    const aspects = K.area((ch.aspects || []).map(traitName).join('\n'), { 'aria-label': 'Aspects, one per line', placeholder: 'Aspects, one per line' });
    const weaknesses = K.area((ch.weaknesses || []).map(traitName).join('\n'), { 'aria-label': 'Weaknesses, one per line', placeholder: 'Weaknesses, one per line' });
    const reserve = maker === 'gm' ? null : K.stepper('Reserve', 0, 10, ch.reserve_size == null ? 3 : ch.reserve_size);
    const node = h('div', 'nd-form-char', name, attName, value, aspects, weaknesses, reserve, h('p', 'error kit-error'));
    return {
      node,
      get: () => {
        /** @type {CharacterSheet} */
        const out = { name: name.value.trim(), attribute: { name: attName.value.trim(), value: value.get() }, aspects: lines(aspects.value), weaknesses: lines(weaknesses.value) };
        if (reserve && reserve.get() !== 3) out.reserve_size = reserve.get();
        return out;
      },
    };
  };
}

/**
 * @param {HTMLElement} box
 * @param {{ maker: Maker, sheet: Sheet | null }} ctx
 * @returns {import('../kit.js').SheetForm}
 */
function sheetForm(box, ctx) {
  const maker = ctx.maker;
  const body = h('div', 'nd-form');
  box.append(body);
  /** @type {() => Sheet} */
  let read = () => blank(maker);
  /** @param {Sheet | null} sheet */
  function render(sheet) {
    const s = Object.assign(blank(maker), sheet || {});
    const gm = maker === 'gm';
    const name = K.text(s.name, { maxlength: '80', autocomplete: 'off', placeholder: gm ? 'The party (Levinulon…)' : 'Your party (TMDF…)' });
    name.dataset.input = 'name';
    const goal = K.text(s.goal, { maxlength: '1000', placeholder: 'What the party wants from this Conflict' });
    goal.dataset.input = 'goal';
    const chars = K.rows(s.characters, characterRow(maker), { path: 'characters', add: 'Add a character', max: 16, blank: () => blank(maker).characters[0] });
    const parts = [K.field('name', 'Party', name), K.field('goal', 'Goal', goal, 'Allies with one goal form one party.'),
      K.fieldset('characters', 'Characters', 'Each brings the Attribute it uses in this Conflict; every relevant Aspect adds 1 to the party’s total and every Weakness takes 1 away.' +
        (gm ? '' : ' Each sheet’s Reserve is drawn from the deck as the Conflict starts (3 unless you say otherwise).'), chars)];
    let draws = null;
    if (gm) {
      const usual = K.checkbox('Draw the usual Reserve: one card per opposing player sheet', s.reserve_draws == null);
      const count = K.stepper('Reserve cards', 0, 20, s.reserve_draws || 1);
      const sync = () => { count.hidden = usual.box.checked; };
      usual.box.addEventListener('change', sync);
      sync();
      draws = () => (usual.box.checked ? null : count.get());
      parts.push(K.fieldset('reserve_draws', 'Reserve', null, usual, count));
    }
    body.replaceChildren(...parts);
    read = () => {
      /** @type {Sheet} */
      const out = { name: name.value.trim(), goal: goal.value.trim(), characters: chars.get() };
      if (draws && draws() != null) out.reserve_draws = draws();
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
  const dl = h('dl', null);
  /** @param {string} k @param {string | null | undefined} v */
  const row = (k, v) => { if (v) dl.append(h('dt', null, k), h('dd', null, v)); };
  row('Goal', s.goal);
  for (const c of s.characters || []) {
    const a = c.attribute || {};
    const bits = [a.name + ' ' + a.value];
    if ((c.aspects || []).length) bits.push('Aspects: ' + c.aspects.map(traitName).join(', '));
    if ((c.weaknesses || []).length) bits.push('Weaknesses: ' + c.weaknesses.map(traitName).join(', '));
    row(c.name || 'A character', bits.join(' · '));
  }
  if (s.reserve_draws != null) row('Reserve', s.reserve_draws + ' cards');
  const c = h('section', 's0-card', h('h4', null, s.name || 'Unnamed party'), dl);
  c.dataset.sheet = s.name || '';
  return c;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth'];

// The players' parties by name (ND-5), so the table reads "Waiting for TMDF and US" before any
// sheet is in; each player's sheet starts with the name given here.
/**
 * @param {HTMLElement} box
 * @param {{ players: number }} ctx
 * @returns {import('../kit.js').TableForm}
 */
function tableForm(box, ctx) {
  let players = ctx.players || 2;
  const names = ORDINALS.map((o) => K.text('', { maxlength: '80', autocomplete: 'off', placeholder: 'Party name (TMDF, US…)', 'aria-label': 'Party of the ' + o + ' player' }));
  const rows = h('div', 'nd-form-names');
  const draw = () => rows.replaceChildren(...names.slice(0, players).map((t, i) =>
    h('div', 'kit-field', h('span', 'nd-form-seat', 'The ' + ORDINALS[i] + ' player’s party'), t)));
  draw();
  const blanks = K.checkbox('Put the 10 suit blanks in the deck', false);
  const every = K.checkbox('Ask every party at every chance to react (reject, turn or cover any card)', false);
  box.append(
    K.fieldset('options.names', 'The players’ parties', 'Each player makes their party from their invite link, starting from the name you give here; you make the non-player parties. Players’ parties sit in seat order, then yours.', rows),
    K.fieldset('options', 'The deck', null, K.field('options.blanks', null, blanks)),
    K.fieldset('options.reactions', 'Reactions', 'Unticked, each party is asked to react only when it could save a reversed card of its own; any party can change this for itself during play.', every));
  return {
    /** @param {number} n */
    players(n) { players = n; draw(); },
    get() {
      /** @type {Options} */
      const out = { blanks: blanks.box.checked };
      if (every.box.checked) out.reactions = 'every';
      /** @type {Record<string, string>} */
      const given = {};
      names.slice(0, players).forEach((t, i) => { if (t.value.trim()) given['p' + (i + 1)] = t.value.trim(); });
      if (Object.keys(given).length) out.names = given;
      return out;
    },
  };
}

/** @param {Partial<Options> | null} options */
function summary(options) {
  /** @type {Partial<Options>} */
  const o = options || {};
  const dl = h('dl', null, h('dt', null, 'Deck'), h('dd', null, o.blanks ? 'with the blanks' : 'without the blanks'));
  const named = Object.entries(o.names || {});
  if (named.length) dl.append(h('dt', null, 'Parties'), h('dd', null, named.map(([, n]) => n).join(', ')));
  dl.append(h('dt', null, 'Reactions'), h('dd', null, o.reactions === 'every' ? 'every party asked at every chance' : 'asked only to save one’s own cards'));
  return h('div', 's0-card', dl);
}

ClashForms.register('nd-tourists', {
  words: { sheet: 'party', sheets: 'parties', npc: 'party', npcs: 'parties', anNpc: 'a party', players: 2 },
  blank: blank,
  table: tableForm,
  summary: summary,
  sheet: sheetForm,
  card: card,
});
