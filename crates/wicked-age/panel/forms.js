// In A Wicked Age's forms: the chapter, and a character's sheet. A PC's six forms are dealt
// d12, d10, d8, d6, d6 and d4, one each (WA-2), with at least two Best Interests (WA-5); an
// NPC's three forms get the pairs d12+d8, d10+d6 and d6+d4 (WA-6). Particular Strengths name a
// PC form, an NPC form and one significance (WA-9). The engine checks every field; this script
// only draws.
import { ClashForms, K } from '../kit.js';

const h = K.h;

/** @typedef {import('../kit.js').Maker} Maker */
/**
 * A significance as the form makes it (the engine's `Significance`, read from the lists).
 * @typedef {{ type: string, second_form?: string, pc_form?: string, npc_form?: string }} SignificanceSheet
 */
/**
 * A Particular Strength as the form makes it (the engine's `Strength` before its die is set).
 * @typedef {{ name: string, description?: string, pc_form: string, npc_form: string, significance: SignificanceSheet[] }} StrengthSheet
 */
/**
 * A character's sheet as the form makes it (the engine's `Character` before it has a seat): a
 * PC's forms one die each, an NPC's two.
 * @typedef {{ name: string, kind: 'pc' | 'npc', description?: string, forms: Record<string, number | number[]>, strengths?: StrengthSheet[], best_interests?: string[] }} Sheet
 */

const PC = [['covertly', 'Covertly'], ['directly', 'Directly'], ['for_myself', 'For Myself'], ['for_others', 'For Others'], ['with_love', 'With Love'], ['with_violence', 'With Violence']];
const NPC = [['action', 'Action'], ['maneuvering', 'Maneuvering'], ['self_protection', 'Self-protection']];
const DEALT = [12, 10, 8, 6, 6, 4];
const PAIRS = [['12+8', 'd12 + d8'], ['10+6', 'd10 + d6'], ['6+4', 'd6 + d4']];
const SIGNIFICANCE = [['potent', 'Potent: its die is a d10'], ['broad', 'Broad: a second PC form'], ['consequential', 'Consequential: losing to it costs a form'],
  ['unique', 'Unique: on no other sheet'], ['far_reaching', 'Far-reaching: beyond the usual reach']];
/** @param {string[][]} list @param {string} id */
const label = (list, id) => (list.find(([k]) => k === id) || [id, id])[1];

/**
 * @param {Maker} maker
 * @returns {Sheet}
 */
function blank(maker) {
  if (maker === 'gm') return { name: '', kind: 'npc', forms: { action: [12, 8], maneuvering: [10, 6], self_protection: [6, 4] }, strengths: [], best_interests: [] };
  return { name: '', kind: 'pc', forms: {}, strengths: [], best_interests: ['', ''] };
}

/** @param {Partial<StrengthSheet> | null} st */
function strengthRow(st) {
  /** @type {Partial<StrengthSheet>} */
  const s = st || {};
  /** @type {SignificanceSheet} */
  const sig = (s.significance || [])[0] || { type: 'potent' };
  const name = K.text(s.name, { maxlength: '80', placeholder: 'The strength (Hidden Blade…)', 'aria-label': 'Strength' });
  const desc = K.text(s.description, { maxlength: '1000', placeholder: 'What it is (optional)', 'aria-label': 'Strength description' });
  const pc = K.select(PC, s.pc_form || 'directly', 'Its PC form');
  const npc = K.select(NPC, s.npc_form || 'action', 'Its NPC form');
  const kind = K.select(SIGNIFICANCE, sig.type, 'Significance');
  const second = K.select(PC, sig.second_form || 'with_love', 'Second PC form');
  const costPc = K.select(PC, sig.pc_form || 'with_violence', 'Form it costs a PC');
  const costNpc = K.select(NPC, sig.npc_form || 'action', 'Form it costs an NPC');
  /** @param {string} text @param {HTMLElement} control @param {string} [cls] */
  const labelled = (text, control, cls) => h('label', 'wa-form-pick' + (cls ? ' ' + cls : ''), h('span', null, text), control);
  const extra = h('div', 'wa-form-extra');
  const showExtra = () => {
    extra.replaceChildren();
    if (kind.value === 'broad') extra.append(labelled('Second PC form', second));
    if (kind.value === 'consequential') extra.append(labelled('Losing costs a PC', costPc), labelled('Losing costs an NPC', costNpc));
  };
  kind.addEventListener('change', showExtra);
  showExtra();
  const node = h('div', 'wa-form-strength', name, desc, labelled('Its PC form', pc), labelled('Its NPC form', npc),
    labelled('Significance', kind, 'wide'), extra, h('p', 'error kit-error'));
  return {
    node,
    get: () => {
      /** @type {SignificanceSheet} */
      const significance = { type: kind.value };
      if (kind.value === 'broad') significance.second_form = second.value;
      if (kind.value === 'consequential') { significance.pc_form = costPc.value; significance.npc_form = costNpc.value; }
      /** @type {StrengthSheet} */
      const out = { name: name.value.trim(), pc_form: pc.value, npc_form: npc.value, significance: [significance] };
      if (desc.value.trim()) out.description = desc.value.trim();
      return out;
    },
  };
}

/**
 * @param {HTMLElement} box
 * @param {{ maker: Maker, sheet: Sheet | null }} ctx
 * @returns {import('../kit.js').SheetForm}
 */
function sheetForm(box, ctx) {
  const maker = ctx.maker;
  const body = h('div', 'wa-form');
  box.append(body);
  /** @type {() => Sheet} */
  let read = () => blank(maker);

  /** @param {Sheet | null} sheet */
  function render(sheet) {
    const s = Object.assign(blank(maker), sheet || {});
    const gm = maker === 'gm';
    const name = K.text(s.name, { maxlength: '80', autocomplete: 'off', placeholder: gm ? 'The NPC’s name' : 'Your character’s name' });
    name.dataset.input = 'name';
    const desc = K.area(s.description || '', { maxlength: '1000', 'aria-label': 'description' });
    desc.dataset.input = 'description';
    /** @type {HTMLElement[]} */
    const parts = [K.field('name', 'Name', name), K.field('description', 'Who they are (optional)', desc)];

    /** @type {() => Record<string, number | number[]>} */
    let readForms;
    if (!gm) {
      /** @type {Record<string, HTMLSelectElement>} */
      const dice = {};
      const left = h('p', 'kit-tally');
      left.setAttribute('aria-live', 'polite');
      const count = () => {
        const pool = DEALT.slice();
        for (const [f] of PC) { const i = pool.indexOf(Number(dice[f].value)); if (i >= 0) pool.splice(i, 1); }
        left.textContent = pool.length ? 'Still to deal: ' + pool.map((d) => 'd' + d).join(', ') : 'Every die is dealt ✓';
        left.className = 'kit-tally ' + (pool.length ? 'off' : 'ok');
      };
      const grid = h('div', 'wa-form-dice');
      for (const [f, words] of PC) {
        const options = [['', '—']].concat([12, 10, 8, 6, 4].map((d) => [String(d), 'd' + d]));
        dice[f] = K.select(options, (s.forms || {})[f] ? String(s.forms[f]) : '', words);
        dice[f].dataset.form = f;
        dice[f].addEventListener('change', count);
        grid.append(h('label', 'wa-form-die', h('span', null, words), dice[f]));
      }
      count();
      parts.push(K.fieldset('forms', 'Forms', 'Deal d12, d10, d8, d6, d6 and d4, one to each form. Each roll uses two forms that suit what your character does.', grid, left));
      readForms = () => {
        /** @type {Record<string, number>} */
        const out = {};
        // A form not dealt yet goes as 0: the rules then say which dice are still to deal.
        for (const [f] of PC) out[f] = Number(dice[f].value || 0);
        return out;
      };
    } else {
      /** @type {Record<string, HTMLSelectElement>} */
      const pairs = {};
      const grid = h('div', 'wa-form-dice');
      for (const [f, words] of NPC) {
        const now = (s.forms || {})[f];
        pairs[f] = K.select(PAIRS, Array.isArray(now) ? now.join('+') : '12+8', words);
        pairs[f].dataset.form = f;
        grid.append(h('label', 'wa-form-die', h('span', null, words), pairs[f]));
      }
      parts.push(K.fieldset('forms', 'Forms', 'Give the pairs d12 + d8, d10 + d6 and d6 + d4, one to each form. An NPC rolls one form, both its dice.', grid));
      readForms = () => {
        /** @type {Record<string, number[]>} */
        const out = {};
        for (const [f] of NPC) out[f] = pairs[f].value.split('+').map(Number);
        return out;
      };
    }

    const interests = K.rows((s.best_interests || []).map((t) => ({ text: t })), (b) => {
      const t = K.text(b.text, { maxlength: '1000', placeholder: 'What your character wants', 'aria-label': 'Best Interest' });
      return { node: h('div', null, t), get: () => t.value.trim() };
    }, { path: 'best_interests', add: 'Add a Best Interest', max: 8, blank: () => ({ text: '' }) });
    parts.push(K.fieldset('best_interests', gm ? 'Best Interests (optional)' : 'Best Interests',
      gm ? null : 'At least two: what your character wants, in a few words each. They may contradict anything.', interests));

    const strengths = K.rows(s.strengths || [], strengthRow, { path: 'strengths', add: 'Add a Particular Strength', max: 8, blank: () => ({}) });
    parts.push(K.fieldset('strengths', 'Particular Strengths', 'Something your character is or has that helps in concrete actions: it adds its die when a roll uses its form. A new strength has one significance.', strengths));

    body.replaceChildren(...parts);
    read = () => {
      /** @type {Sheet} */
      const out = { name: name.value.trim(), kind: gm ? 'npc' : 'pc', forms: readForms() };
      if (desc.value.trim()) out.description = desc.value.trim();
      const bi = interests.get();
      if (bi.length || !gm) out.best_interests = bi;
      const st = strengths.get();
      if (st.length) out.strengths = st;
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
  /** @type {Record<string, number | number[]>} a PC's die or an NPC's pair, by form */
  const f = s.forms || {};
  /** @param {string} k */
  const pair = (k) => { const d = f[k]; return Array.isArray(d) ? d : []; };
  const dl = h('dl', null);
  /** @param {string} k @param {string | null | undefined} v */
  const row = (k, v) => { if (v) dl.append(h('dt', null, k), h('dd', null, v)); };
  row('Who', s.description);
  if (s.kind === 'npc') row('Forms', NPC.map(([k, w]) => w + ' ' + pair(k).map((d) => 'd' + d).join('+')).join(' · '));
  else row('Forms', PC.map(([k, w]) => w + ' d' + (f[k] || '?')).join(' · '));
  row('Strengths', (s.strengths || []).map((st) => st.name + ' (' + label(PC, st.pc_form) + ', ' + ((st.significance || [])[0] || {}).type.replace(/_/g, '-') + ')').join(' · '));
  row('Best Interests', (s.best_interests || []).join(' · '));
  const c = h('section', 's0-card', h('h4', null, s.name || 'Unnamed'), dl);
  c.dataset.sheet = s.name || '';
  return c;
}

/**
 * @param {HTMLElement} box
 * @returns {import('../kit.js').TableForm}
 */
function tableForm(box) {
  const chapter = K.stepper('Chapter', 1, 999, 1);
  box.append(K.fieldset('options', 'The story', 'A new story starts at chapter 1. Each player makes a PC from their invite link; you make the NPCs and start play when the cast is ready.',
    K.field('options.chapter', null, chapter)));
  return { get: () => ({ chapter: chapter.get() }) };
}

/** @param {{ chapter?: number } | null} options */
function summary(options) {
  return h('div', 's0-card', h('dl', null, h('dt', null, 'Chapter'), h('dd', null, String((options || {}).chapter || 1))));
}

ClashForms.register('wicked-age', {
  words: { sheet: 'character', npc: 'NPC', players: 2 },
  blank: blank,
  table: tableForm,
  summary: summary,
  sheet: sheetForm,
  card: card,
});
