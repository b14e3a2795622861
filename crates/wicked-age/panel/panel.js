// In A Wicked Age's board: every die drawn as a die of its size (bonus dice labelled Owe,
// Advantage or the strength's name), the conflict as three clear steps (initiative, challenge,
// answer) with the bands that decide an answer, forms chosen by tapping them on the character's
// sheet, consequences and the Owe List. Every text goes in as text nodes, never parsed as markup.
import { redrawPanel } from '../kit.js';
import * as kit from '../kit.js';

/** @typedef {import('../types/wicked-age/View').View} View the seat's view of the game */
/** @typedef {import('../types/wicked-age/Command').Command} Command what the board sends */
/** @typedef {import('../types/wicked-age/Character').Character} Character */
/** @typedef {import('../types/wicked-age/Conflict').Conflict} Conflict */
/** @typedef {import('../types/wicked-age/Roll').Roll} Roll */
/** @typedef {import('../types/wicked-age/RollValue').RollValue} RollValue */
/** @typedef {import('../types/wicked-age/Significance').Significance} Significance */
/** @typedef {import('../types/wicked-age/Knockout').Knockout} Knockout */
/** @typedef {import('../types/wicked-age/Alternative').Alternative} Alternative */
/** @typedef {import('../types/wicked-age/Cost').Cost} Cost */
/** @typedef {import('../types/SeenEntry').SeenEntry} SeenEntry */
/** @typedef {import('../types/Seat').Seat} Seat */
/** @typedef {import('../kit.js').Send} Send */
// The rules send a die as its number of sides (0 for none: `Die` is serialized as a number),
// while the generated `Die` type names the enum's variants; the board reads the numbers, so the
// parts of the view that hold dice are typed here with numbers.
/** @typedef {import('../types/wicked-age/Strength').Strength} Strength */
/** @typedef {Omit<Character, 'forms' | 'strengths'> & { forms: Record<string, number | number[]>, strengths: Strength[] }} Sheet a character, its forms' dice read by form name (an NPC's form has two) */
/** @typedef {Omit<View, 'characters'> & { characters: Sheet[] }} ShownView the view, its characters' forms read by name */
/** @typedef {import('../kit.js').Update<ShownView, Command>} Update */
/** @typedef {{ forms: string[], strength?: string | null, bands: Array<{ outcome: string, text: string, probability: import('../kit.js').Chance }> }} AnswerOption the odds of one answer */
/** @typedef {{ answerer: string, options: AnswerOption[] }} AnswerOdds */

/**
 * A command as the rules take it: tsc checks every command this board builds against the
 * game's own type (generated from the Rust one).
 * @param {Command} c
 * @returns {Command}
 */
const command = (c) => c;

// Typed values, errors and the dice lost so far survive the redraw of every live update.
const { memo, h, select, text, checkbox, group, button, register, toggle, confirmButton, odds } = kit.make('wa', {
  /** @type {Record<string, Record<string, Array<number>>>} by character and form, the sizes of the dice lost */
  lost: {},
  /** @type {Set<number>} */
  seenLoss: new Set(),
});

const PC_FORMS = [['covertly', 'Covertly'], ['directly', 'Directly'], ['for_myself', 'For Myself'],
  ['for_others', 'For Others'], ['with_love', 'With Love'], ['with_violence', 'With Violence']];
const NPC_FORMS = [['action', 'Action'], ['maneuvering', 'Maneuvering'], ['self_protection', 'Self-protection']];
/** @type {Record<string, string>} */
const FORM_LABEL = Object.fromEntries(PC_FORMS.concat(NPC_FORMS));
const DEFAULTS = {
  exhausted: { pc: ['directly', 'with_violence'], npc: ['action'] },
  injured: { pc: ['covertly', 'for_others'], npc: ['maneuvering'] },
  shamed: { pc: ['with_love', 'for_myself'], npc: ['self_protection'] },
};
/** @type {Record<string, string>} */
const OUTCOME = {
  challenger_knocked_out: 'the challenger is knocked out',
  answerer_takes_advantage: 'the answerer takes the Advantage die',
  challenger_takes_advantage: 'the challenger takes the Advantage die',
  answerer_knocked_out: 'the answerer is knocked out',
};

/** @param {number} n */
const dieName = (n) => (n ? 'd' + n : '—');

// Dice lost during this page's life (FormLost events), so they can be shown struck through.
/** @param {SeenEntry[] | undefined} events */
function noteLosses(events) {
  for (const ev of events || []) {
    if (memo.seenLoss.has(ev.index)) continue;
    memo.seenLoss.add(ev.index);
    // A game event: only a FormLost one is read, and its fields only once its type says so.
    const e = /** @type {{ type: string, character: string, form: unknown, from: number } | null} */ (ev.event);
    if (!e || e.type !== 'form_lost') continue;
    const byForm = (memo.lost[e.character] = memo.lost[e.character] || {});
    const key = typeof e.form === 'string' ? e.form : JSON.stringify(e.form);
    (byForm[key] = byForm[key] || []).push(e.from);
  }
}

/**
 * @param {string} character
 * @param {string} form
 * @param {number | number[]} current
 */
function diceCell(character, form, current) {
  const cell = h('span', 'wa-dice');
  const lost = (memo.lost[character] || {})[form] || [];
  for (const from of lost) {
    const dice = Array.isArray(from) ? from : [from];
    for (const d of dice) if (d) cell.append(kit.die(d, null, 'lost', 'lost'));
  }
  const now = Array.isArray(current) ? current : [current];
  for (const d of now) cell.append(d ? kit.die(d, null, null) : h('span', 'wa-zero', '0'));
  return cell;
}

/** @param {Significance} s */
function significance(s) {
  switch (s.type) {
    case 'broad': return 'broad (+' + (FORM_LABEL[s.second_form] || s.second_form) + ')';
    case 'consequential': return 'consequential (' + (FORM_LABEL[s.pc_form] || s.pc_form) + ' / ' + (FORM_LABEL[s.npc_form] || s.npc_form) + ')';
    case 'far_reaching': return 'far-reaching';
    default: return s.type;
  }
}

/** @param {ShownView} v @param {Sheet} c @param {boolean | null} mine */
function characterCard(v, c, mine) {
  const conflict = v.conflict;
  const part = conflict && conflict.participants.find((p) => p.name === c.name);
  const head = h('div', 'wa-head',
    h('strong', null, c.name),
    h('span', 'pill', c.kind === 'npc' ? 'NPC · the GM' : 'PC'),
    mine ? h('span', 'pill ready', 'yours') : null,
    c.status !== 'active' ? h('span', 'pill waiting', c.status.replace(/_/g, ' ')) : null,
    conflict && conflict.advantage === c.name ? h('span', 'pill wa-adv', 'Advantage d6') : null,
    part ? h('span', 'pill ' + (part.in_conflict ? 'ready' : 'waiting'), part.in_conflict ? 'in the conflict' : 'knocked out') : null,
    part && part.owe_die ? h('span', 'pill', 'Owe d6') : null);
  const forms = h('table', 'wa-forms');
  const list = c.kind === 'npc' ? NPC_FORMS : PC_FORMS;
  for (const [key, label] of list) {
    const cur = c.forms ? c.forms[key] : null;
    if (cur == null) continue;
    forms.append(h('tr', null, h('th', null, label), h('td', null, diceCell(c.name, key, cur))));
  }
  const strengths = h('ul', 'wa-strengths');
  for (const s of c.strengths || []) {
    const li = h('li', s.die ? null : 'gone', h('b', null, s.name), ' ',
      h('span', 'wa-die' + (s.die ? '' : ' lost'), dieName(s.die)),
      ' · ' + (FORM_LABEL[s.pc_form] || s.pc_form) + ' / ' + (FORM_LABEL[s.npc_form] || s.npc_form),
      (s.significance || []).length ? ' · ' + s.significance.map(significance).join(', ') : '');
    if (s.description) li.title = s.description;
    strengths.append(li);
  }
  const card = h('section', 'wa-char' + (mine ? ' mine' : '') + (c.status === 'dead' ? ' dead' : ''), head,
    c.description ? h('p', 'hint', c.description) : null, forms);
  if ((c.strengths || []).length) card.append(h('div', 'wa-label', 'Particular Strengths'), strengths);
  if ((c.best_interests || []).length) card.append(h('p', 'hint', 'Best interests: ' + c.best_interests.join(' · ')));
  return card;
}

// A roll: each die drawn at its size with its face; bonus dice say what they are.
/** @param {Roll} roll */
function rollView(roll) {
  const box = h('span', 'wa-roll');
  for (const d of roll.dice || []) {
    const form = d.kind === 'pc_form' || d.kind === 'npc_form';
    // (The last: a kind of die this board does not know yet.)
    const label = form ? (FORM_LABEL[d.form] || d.form) : d.kind === 'advantage' ? 'Advantage' : d.kind === 'owe' ? 'Owe' : d.kind === 'strength' ? d.name : /** @type {{ kind: string }} */ (d).kind;
    const cls = form ? null : 'bonus ' + (d.kind === 'owe' ? 'owe' : d.kind === 'advantage' ? 'advantage' : 'strength');
    box.append(kit.die(d.sides, d.face, label, cls));
  }
  if (roll.value) {
    const v = h('span', 'wa-value', h('b', null, String(roll.value.p)), h('small', null, roll.value.t ? ' total · tie-break ' + roll.value.t : ' total'));
    kit.tip(v, 'Total = the higher form die plus every bonus die; tie-break = the lower form die. The bigger total wins; the tie-break only splits equal totals.');
    box.append(v);
  }
  return box;
}

// A roll's value in words: "19, tie-break 5" (the lower form die splits equal totals).
/** @param {RollValue} x */
const valueText = (x) => x.p + (x.t ? ', tie-break ' + x.t : '');

// What an answer does against a challenge of total `p`, tie-break `t`, as coloured bands.
/** @param {Conflict} c @param {RollValue} challenge */
function bands(c, challenge) {
  const p = challenge.p, t = challenge.t;
  const rows = c.round >= 3
    ? [['wa-b-out-c', 'a total of ' + p + ' or more' + (t ? ' (at exactly ' + p + ', a tie-break of ' + t + ' or more)' : ''), 'the challenger is knocked out'],
      ['wa-b-out-a', 'anything lower', 'the answerer is knocked out']]
    : [['wa-b-out-c', 'a total of ' + (2 * p) + ' or more', 'doubles: the challenger is knocked out'],
      ['wa-b-adv-a', 'a total of ' + p + ' or more' + (t ? ' (at exactly ' + p + ', a tie-break of ' + t + ' or more)' : ''), 'at least as good: the answerer takes the Advantage die'],
      ['wa-b-adv-c', 'a total of ' + (Math.floor(p / 2) + 1) + ' or more', 'more than half: the challenger takes the Advantage die'],
      ['wa-b-out-a', 'a total of ' + Math.floor(p / 2) + ' or less', 'half or less: the answerer is knocked out']];
  const box = h('div', 'wa-bands');
  for (const [cls, when, what] of rows) box.append(h('div', 'wa-band ' + cls, h('b', null, when), h('span', null, what)));
  return h('div', null, h('div', 'wa-label', 'What the answer does (round ' + c.round + ')'), box);
}

// Initiative → challenge → answer, with the current step lit.
/** @param {Conflict} c */
function steps(c) {
  const now = c.stage === 'initiative' ? 0 : c.pending ? 2 : c.stage === 'turns' ? 1 : 3;
  const names = ['Initiative', 'Challenge', 'Answer'];
  const row = h('ol', 'wa-steps');
  /** @param {string | null} cls @param {string} n */
  const step = (cls, n) => {
    const li = h('li', cls, n);
    // A screen reader hears which step the conflict is at, not only the eye (the lit step).
    if (cls === 'now') li.setAttribute('aria-current', 'step');
    return li;
  };
  names.forEach((n, i) => row.append(step(i === now ? 'now' : i < now ? 'done' : null, n)));
  if (c.stage === 'over') row.append(step('now', 'Consequences'));
  row.setAttribute('aria-label', 'Steps of the conflict');
  return row;
}

/** @param {ShownView} v */
function conflictView(v) {
  const c = v.conflict;
  const box = h('section', 'wa-conflict');
  if (!c) {
    box.append(h('p', 'hint', 'No conflict right now.' + (v.last_conflict ? ' The last one was: ' + v.last_conflict.action : '')));
    return box;
  }
  const stage = /** @type {Record<string, string>} */ ({ initiative: 'rolling initiative', turns: 'challenges and answers', over: 'over: consequences to settle' })[c.stage] || c.stage;
  box.append(h('h3', null, 'Conflict: ' + (c.action || '—')),
    h('div', 'wa-pills', h('span', 'pill', 'Round ' + c.round + ' of 3'), h('span', 'pill', stage),
      h('span', 'pill wa-adv', 'Advantage die: ' + (c.advantage || 'nobody'))), steps(c));
  if (c.round >= 3 && c.stage !== 'over') box.append(h('p', 'hint', 'Round 3: no middle ground — every answer knocks someone out.'));

  const order = h('ol', 'wa-order');
  const names = c.order && c.order.length ? c.order : c.participants.map((p) => p.name);
  const next = nextChallenger(c);
  for (const n of names) {
    const p = c.participants.find((x) => x.name === n);
    if (!p) continue;
    const li = h('li', (p.in_conflict ? '' : 'out') + (n === next ? ' next' : ''), h('b', null, n));
    if (!p.in_conflict) li.append(' · knocked out');
    else if (p.turn_used) li.append(' · turn used');
    else if (n === next) li.append(' · to challenge');
    if (p.initiative) li.append(' ', rollView(p.initiative.rerolls.length ? p.initiative.rerolls[p.initiative.rerolls.length - 1] : p.initiative.roll));
    else if (c.stage === 'initiative' && p.in_conflict) li.append(h('span', 'hint', ' · to roll initiative'));
    order.append(li);
  }
  box.append(h('div', 'wa-label', c.order && c.order.length ? 'Initiative order' : 'Participants'), order);

  if (c.standing) box.append(h('div', 'wa-label', 'Standing challenge (first in order)'), rollView(c.standing));
  if (c.pending) {
    box.append(h('div', 'wa-label', c.pending.challenger + ' challenges ' + c.pending.target + ' — ' + c.pending.target + ' must answer'), rollView(c.pending.roll),
      bands(c, c.pending.roll.value));
  } else if (c.standing && c.stage === 'turns') {
    box.append(bands(c, c.standing.value));
  }
  if (c.proposal) {
    box.append(h('p', 'wa-proposal', 'Proposed ending: “' + c.proposal.terms + '” · agreed: ' + (c.proposal.agreed.join(', ') || 'nobody yet')));
  }
  const recent = (c.exchanges || []).slice(-4);
  if (recent.length) {
    const ul = h('ul', 'wa-exchanges');
    for (const x of recent) {
      ul.append(h('li', null, 'Round ' + x.round + ': ' + x.challenger + ' challenged with ' + valueText(x.challenge) + '; ' + x.answerer +
        ' answered with ' + valueText(x.answer) + ' — ' + (OUTCOME[x.outcome] || x.outcome)));
    }
    box.append(h('div', 'wa-label', 'Last exchanges'), ul);
  }
  if ((c.knockouts || []).length) {
    const ul = h('ul', 'wa-exchanges');
    for (const k of c.knockouts) {
      const s = k.settlement || {};
      let state = s.state === 'settled' ? 'settled' : s.alternative ? 'alternative offered: “' + s.alternative.terms + '”' : s.refused ? 'alternative refused: a default is due' : 'consequence to choose';
      ul.append(h('li', null, k.winner + ' knocked out ' + k.loser + ' (round ' + k.round + (k.cause === 'concession' ? ', conceded' : '') + ') · ' + state));
    }
    box.append(h('div', 'wa-label', 'Knockouts'), ul);
  }
  if (c.ended) box.append(h('p', 'hint', 'Ended: ' + (c.ended.kind === 'agreement' ? 'by agreement — ' + c.ended.terms : String(c.ended.kind).replace(/_/g, ' '))));
  return box;
}

/** @param {Conflict} c */
function nextChallenger(c) {
  if (c.stage !== 'turns' || c.pending) return null;
  for (const n of c.order || []) {
    const p = c.participants.find((x) => x.name === n);
    if (p && p.in_conflict && !p.turn_used) return n;
  }
  return null;
}

// A player by their characters' names; the GM as "the GM".
/** @param {ShownView} v @param {Seat | undefined} seat */
function playerName(v, seat) {
  if (seat === 'gm') return 'the GM';
  const names = v.characters.filter((c) => c.controller === seat && c.kind !== 'npc').map((c) => c.name);
  return names.length ? kit.poss(kit.andList(names)) + ' player' : kit.seatName(null, seat);
}

/** @param {ShownView} v */
function oweView(v) {
  const box = h('section', 'wa-owe', h('div', 'wa-label', 'Owe List (oldest first)'));
  const ol = h('ol', null);
  for (const e of v.owe_list || []) ol.append(h('li', null, e.character + ' (' + playerName(v, e.player) + ')'));
  if (!(v.owe_list || []).length) box.append(h('p', 'hint', 'empty'));
  else box.append(ol);
  const bits = ['Chapter ' + v.chapter];
  if (v.oracle) bits.push('Oracle: ' + (v.oracle.oracle ? v.oracle.oracle + (v.oracle.story_element ? ' — ' + v.oracle.story_element : '') : 'to be chosen by ' + playerName(v, (v.oracle.entry || {}).player)));
  if ((v.returning || []).length) bits.push('Returning: ' + v.returning.map((r) => r.character || JSON.stringify(r)).join(', '));
  box.append(h('p', 'hint', bits.join(' · ')));
  return box;
}

// The forms of `ch`'s sheet as tiles to tap: two forms for a PC, one for an NPC, and a
// strength when the table agrees it applies. Returns the block and the choice it makes.
/**
 * @param {string} key
 * @param {Sheet} ch
 * @param {Send} send
 */
function formPicker(key, ch, send) {
  const npc = ch.kind === 'npc';
  const list = npc ? NPC_FORMS : PC_FORMS;
  const want = npc ? 1 : 2;
  let picked = /** @type {string[]} */ (memo.values[key + ':forms'] || []).filter((f) => {
    const d = ch.forms[f];
    return Array.isArray(d) ? d.some((x) => x > 0) : d > 0;
  });
  const redraw = () => redrawPanel('wicked-age');
  const tiles = h('div', 'wa-formtiles');
  for (const [f, label] of list) {
    const dice = Array.isArray(ch.forms[f]) ? ch.forms[f].filter((x) => x > 0) : (ch.forms[f] ? [ch.forms[f]] : []);
    const on = picked.includes(f);
    const content = h('span', 'wa-formtile', h('b', null, label), h('span', 'wa-dice', ...(dice.length ? dice.map((d) => kit.die(d, null, null)) : [h('span', 'wa-zero', '0')])));
    const t = toggle(content, on, () => {
      memo.values[key + ':full'] = null;
      if (want === 1) memo.values[key + ':forms'] = [f]; // one form: a tap chooses it, never unchooses
      else if (on) memo.values[key + ':forms'] = picked.filter((x) => x !== f);
      else if (picked.length < want) memo.values[key + ':forms'] = picked.concat([f]);
      else memo.values[key + ':full'] = f; // a third form is not taken silently in place of one
      redraw();
    }, 'wa-pick');
    t.dataset.form = f;
    // Named by what it shows (the form, then each die's own name), so the name a screen reader
    // reads matches the text on the tile; the sizes are kept for scripts in data-dice.
    t.dataset.dice = dice.join(' ');
    if (!dice.length) t.disabled = true;
    tiles.append(t);
  }
  const live = (ch.strengths || []).filter((st) => st.die);
  // A strength adds its die only with a linked form (WA-10): dropping that form drops it too.
  /** @param {Strength} st */
  const linked = (st) => picked.includes(npc ? st.npc_form : st.pc_form);
  if (memo.values[key + ':strength'] && !live.some((st) => st.name === memo.values[key + ':strength'] && linked(st))) memo.values[key + ':strength'] = '';
  const strength = memo.values[key + ':strength'] || '';
  const extra = h('div', 'wa-formtiles');
  for (const st of live) {
    const on = strength === st.name;
    const t = toggle(h('span', 'wa-formtile', h('b', null, st.name), kit.die(st.die, null, 'strength', 'bonus strength')), on, () => {
      memo.values[key + ':strength'] = on ? '' : st.name;
      redraw();
    }, 'wa-pick');
    t.dataset.strength = st.name;
    if (!linked(st)) {
      t.disabled = true;
      t.append(h('small', 'wa-needs', 'with ' + (FORM_LABEL[npc ? st.npc_form : st.pc_form] || '')));
    }
    kit.tip(t, 'Add ' + kit.poss(st.name) + ' d' + st.die + ' when the table agrees it is part of what ' + ch.name + ' does, and a linked form is rolled (' +
      (FORM_LABEL[st.pc_form] || st.pc_form) + ' for a PC, ' + (FORM_LABEL[st.npc_form] || st.npc_form) + ' for an NPC).');
    extra.append(t);
  }
  const block = h('div', 'wa-picker', h('div', 'wa-label', 'Tap ' + (npc ? 'one form' : 'two forms') + ' on ' + kit.poss(ch.name) + ' sheet' + (live.length ? ', and a strength if it applies' : '')), tiles);
  if (live.length) block.append(extra);
  const ready = picked.length === want;
  const full = memo.values[key + ':full'];
  if (full && ready && !picked.includes(full)) {
    const refused = h('p', 'wa-full', 'Two forms are chosen already: tap ' + picked.map((f) => FORM_LABEL[f]).join(' or ') +
      ' to put it back, then ' + FORM_LABEL[full] + '.');
    refused.setAttribute('role', 'alert');
    block.append(refused);
  }
  block.append(h('p', 'hint', ready ? 'Rolling: ' + picked.map((f) => FORM_LABEL[f]).join(' + ') + (strength ? ' + ' + strength : '') + '.' : 'Pick ' + (want - picked.length) + ' more.'));
  const choice = () => {
    if (picked.length !== want) throw new Error(npc ? 'Tap one form to roll.' : 'Tap two different forms to roll.');
    /** @type {{ form?: string, forms?: string[], strength?: string }} */
    const out = npc ? { form: picked[0] } : { forms: picked.slice() };
    if (strength) out.strength = strength;
    return out;
  };
  return { block, choice, ready };
}

// The chance of each band for the forms (and strength) tapped, when odds are on.
/**
 * @param {Update} update
 * @param {Sheet} ch
 * @param {string} key
 */
function answerOdds(update, ch, key) {
  const o = /** @type {AnswerOdds | null} */ (odds(update));
  if (!o || o.answerer !== ch.name) return null;
  const forms = (memo.values[key + ':forms'] || []).slice().sort().join(',');
  const strength = memo.values[key + ':strength'] || null;
  /** @param {AnswerOption} x */
  const same = (x) => x.forms.slice().sort().join(',') === forms && (x.strength || null) === strength;
  const pick = o.options.find(same);
  const box = h('div', 'kit-odds', h('h4', null, 'Odds of this answer'));
  if (!pick) {
    // Nothing chosen yet: the choice least likely to knock this character out.
    /** @param {AnswerOption} x */
    const safe = (x) => 1 - x.bands.filter((b) => b.outcome === 'answerer_knocked_out').reduce((a, b) => a + b.probability.decimal, 0);
    const best = o.options.slice().sort((a, b) => safe(b) - safe(a))[0];
    if (best) box.append(h('p', null, 'Tap forms to see the odds of your answer. Least risky: ' + best.forms.map((f) => FORM_LABEL[f]).join(' + ') +
      (best.strength ? ' + ' + best.strength : '') + ', knocked out ', kit.percent({ decimal: 1 - safe(best) }), '.'));
    return box;
  }
  const ul = h('ul', null);
  for (const band of pick.bands) ul.append(h('li', null, kit.percent(band.probability), ' ' + band.text));
  box.append(ul);
  return box;
}

/**
 * @param {Update} update
 * @param {Send} send
 * @param {Sheet} ch
 * @param {Command[]} legal
 */
function characterControls(update, send, ch, legal) {
  const v = update.view;
  const c = v.conflict;
  /**
   * The character's legal commands of one type.
   * @template {Command['type']} T
   * @param {T} type
   * @returns {Extract<Command, { type: T }>[]}
   */
  const mineOf = (type) => /** @type {Extract<Command, { type: T }>[]} */ (legal.filter((/** @type {Record<string, unknown>} */ x) => x.type === type && (x.character === ch.name || x.pc === ch.name)));
  const out = [];
  const base = 'c:' + ch.name;

  if (mineOf('cash_in_owe').length) {
    const g = group(base + ':owe', ch.name + ': cash in an Owe List entry', 'Crosses off the oldest matching entry for an Owe d6 on every roll until this conflict ends.');
    const entries = [...new Set(mineOf('cash_in_owe').map((x) => x.entry))];
    const sel = select(base + ':owe:entry', entries.map((e) => [e, 'the entry for ' + e]), null, 'Owe List entry');
    g.body.append(sel, button(g, 'Cash in Owe d6', send, () => (command({ type: 'cash_in_owe', pc: ch.name, entry: sel.value }))));
    out.push(g.g);
  }
  if (mineOf('roll_initiative').length) {
    const g = group(base + ':init', 'Step 1 · ' + ch.name + ': roll initiative', 'The best roll acts first and keeps it as its challenge.');
    g.body.className = 'wa-stack';
    const pick = formPicker(base + ':roll', ch, send);
    const b = button(g, 'Roll initiative', send, () => Object.assign(command({ type: 'roll_initiative', character: ch.name }), pick.choice()), true);
    b.disabled = !pick.ready;
    g.body.append(pick.block, b);
    out.push(g.g);
  }
  const challenges = mineOf('challenge');
  if (challenges.length) {
    const standing = challenges.some((x) => !x.forms && !x.form) && c && c.standing && c.order && c.order[0] === ch.name;
    const g = group(base + ':challenge', 'Step 2 · ' + ch.name + ': challenge someone', standing ? 'Your initiative roll stands as your challenge: pick whom.' : 'Pick whom, then the forms for a fresh roll.');
    g.body.className = 'wa-stack';
    // (`standing` says there is a standing roll.)
    if (standing) g.body.append(rollView(/** @type {Roll} */ (c.standing)));
    const targets = [...new Set(challenges.map((x) => x.target))];
    const tkey = base + ':target';
    if (!targets.includes(memo.values[tkey])) memo.values[tkey] = targets.length === 1 ? targets[0] : null;
    const redraw = () => redrawPanel('wicked-age');
    const row = h('div', 'wa-formtiles');
    for (const n of targets) {
      const t = toggle(h('span', 'wa-formtile', h('b', null, n)), memo.values[tkey] === n, () => { memo.values[tkey] = n; redraw(); }, 'wa-pick');
      t.dataset.target = n;
      row.append(t);
    }
    g.body.append(h('div', 'wa-label', 'Whom?'), row);
    const pick = standing ? null : formPicker(base + ':roll', ch, send);
    if (pick) g.body.append(pick.block);
    const b = button(g, memo.values[tkey] ? 'Challenge ' + memo.values[tkey] : 'Challenge', send, () => {
      if (!memo.values[tkey]) throw new Error('Tap whom to challenge.');
      return Object.assign(command({ type: 'challenge', character: ch.name, target: memo.values[tkey] }), pick ? pick.choice() : {});
    }, true);
    b.disabled = !memo.values[tkey] || (!!pick && !pick.ready);
    g.body.append(b);
    out.push(g.g);
  }
  if (mineOf('answer').length) {
    const p = c && c.pending;
    const g = group(base + ':answer', 'Step 3 · ' + ch.name + ': answer ' + (p ? kit.poss(p.challenger) + ' challenge' : 'the challenge'), 'You must answer with a fresh roll.');
    g.body.className = 'wa-stack';
    if (p && c) g.body.append(rollView(p.roll), bands(c, p.roll.value));
    const pick = formPicker(base + ':roll', ch, send);
    const b = button(g, 'Answer', send, () => Object.assign(command({ type: 'answer', character: ch.name }), pick.choice()), true);
    b.disabled = !pick.ready;
    // The odds show only while odds are in play (answerOdds is null otherwise).
    g.body.append(...[pick.block, answerOdds(update, ch, base + ':roll'), b].filter((n) => n != null));
    out.push(g.g);
  }
  const concede = mineOf('concede'), propose = mineOf('propose_end'), agree = mineOf('agree_end');
  if (concede.length || propose.length || agree.length) {
    const g = group(base + ':negotiate', ch.name + ': negotiate (start of round ' + (c ? c.round : '?') + ')', 'Concede to an opponent, or propose an ending everyone must agree to.');
    g.body.className = 'wa-stack';
    if (concede.length) {
      const to = select(base + ':concede:to', [...new Set(concede.map((x) => x.to))].map((n) => [n, 'concede to ' + n]), null, 'opponent');
      g.body.append(h('div', 'wa-row', to, confirmButton(g, 'Concede', 'Concede and be knocked out?', send, () => (command({ type: 'concede', character: ch.name, to: to.value })))));
    }
    if (propose.length) {
      const terms = text(base + ':terms', 'Proposed ending, in words');
      g.body.append(h('div', 'wa-row', terms, button(g, 'Propose ending', send, () => {
        if (!terms.value.trim()) throw new Error('Write the terms of the ending you propose.');
        return command({ type: 'propose_end', character: ch.name, terms: terms.value.trim() });
      })));
    }
    if (agree.length && c && c.proposal) g.body.append(h('div', 'wa-row', button(g, 'Agree to “' + c.proposal.terms + '”', send, () => (command({ type: 'agree_end', character: ch.name })), true)));
    out.push(g.g);
  }
  return out;
}

// Consequences for one knocked-out loser: the winner's defaults and alternative, the loser's answer.
/**
 * @param {ShownView} v
 * @param {Send} send
 * @param {Knockout} k
 * @param {Command[]} legal
 */
function consequenceControls(v, send, k, legal) {
  const loser = v.characters.find((x) => x.name === k.loser);
  /** @param {Command['type']} type */
  const of = (type) => legal.filter((/** @type {Record<string, unknown>} */ x) => x.type === type && x.loser === k.loser);
  if (!loser || !(of('choose_consequence').length || of('propose_alternative').length || of('accept_alternative').length || of('refuse_alternative').length)) return null;
  const key = 'k:' + k.winner + '>' + k.loser;
  const g = group(key, 'Consequences for ' + k.loser + ' (knocked out by ' + k.winner + ')', null);
  g.body.className = 'wa-stack';
  // (Open: a settled knockout has neither.)
  const s = /** @type {{ alternative?: Alternative | null, refused?: boolean }} */ (k.settlement || {});
  if (s.alternative && (of('accept_alternative').length || of('refuse_alternative').length)) {
    const costs = (s.alternative.costs || []).map(costText).join(', ') || 'narrative only';
    g.body.append(h('p', 'wa-proposal', 'Offered: “' + s.alternative.terms + '” — costs: ' + costs));
    const row = h('div', 'wa-row');
    if (of('accept_alternative').length) row.append(button(g, 'Accept', send, () => (command({ type: 'accept_alternative', loser: k.loser })), true));
    if (of('refuse_alternative').length) row.append(button(g, 'Refuse', send, () => (command({ type: 'refuse_alternative', loser: k.loser }))));
    g.body.append(row);
  } else if (of('refuse_alternative').length && !s.refused) {
    // The loser may refuse alternatives before any is offered: only a default may follow.
    g.body.append(h('p', 'hint', 'No alternative offered yet. You may always refuse one.'),
      h('div', 'wa-row', button(g, 'Refuse any alternative: a default consequence', send, () => (command({ type: 'refuse_alternative', loser: k.loser })))));
  }
  // The extra loss of a consequential strength (WA-30) is only there to waive when the winner
  // added one to a roll in this conflict.
  const winner = v.conflict && v.conflict.participants.find((p) => p.name === k.winner);
  const used = [...new Set(((winner && winner.consequential_used) || []).map((u) => u.strength))];
  const waiveLabel = 'waive the extra loss from ' + kit.andList(used) + ' (consequential)';
  if (of('choose_consequence').length) {
    const waive = used.length ? checkbox(key + ':waive', waiveLabel, false) : null;
    const row = h('div', 'wa-row');
    for (const name of /** @type {const} */ (['exhausted', 'injured', 'shamed'])) {
      const forms = DEFAULTS[name][loser.kind === 'npc' ? 'npc' : 'pc'].map((f) => FORM_LABEL[f]).join(' & ');
      row.append(button(g, name[0].toUpperCase() + name.slice(1) + ' (' + forms + ' −1)', send,
        () => (command({ type: 'choose_consequence', loser: k.loser, consequence: name, waive_consequential: !!waive && waive.box.checked }))));
    }
    g.body.append(h('div', 'wa-label', 'Default consequence'), row);
    if (waive) g.body.append(waive.label);
  }
  if (of('propose_alternative').length) {
    const terms = text(key + ':alt', 'Agreed alternative, in words');
    const costBox = h('div', 'wa-costs');
    const costs = /** @type {Array<[any, string]>} */ ([]);
    const list = loser.kind === 'npc' ? NPC_FORMS : PC_FORMS;
    for (const [f, l] of list) costs.push([{ type: 'step_down', form: f }, 'step down ' + l]);
    for (const st of loser.strengths || []) {
      if (!st.die) continue;
      costs.push([{ type: 'step_down_strength', strength: st.name }, 'step down ' + st.name]);
      costs.push([{ type: 'remove_strength', strength: st.name }, 'remove ' + st.name]);
    }
    costs.push([{ type: 'death' }, 'death']);
    const boxes = costs.map(([cost, label], i) => {
      const cb = checkbox(key + ':cost:' + i, label, false);
      costBox.append(cb.label);
      return [cost, cb.box];
    });
    const waive = used.length ? checkbox(key + ':altwaive', waiveLabel, false) : null;
    g.body.append(h('div', 'wa-label', 'Or offer an alternative (the loser may refuse)'), h('div', 'wa-row', terms),
      h('details', null, h('summary', null, 'Costs of the alternative (none = narrative only)'), costBox), waive ? waive.label : '',
      h('div', 'wa-row', button(g, 'Offer alternative', send, () => {
        if (!terms.value.trim()) throw new Error('Write what happens to ' + k.loser + '.');
        return command({ type: 'propose_alternative', loser: k.loser, terms: terms.value.trim(),
          costs: boxes.filter(([, b]) => b.checked).map(([c]) => c), waive_consequential: !!waive && waive.box.checked });
      })));
  }
  return g.g;
}

/** @param {Cost} c */
function costText(c) {
  if (c.type === 'step_down') return 'step down ' + (FORM_LABEL[c.form] || c.form);
  if (c.type === 'step_down_strength') return 'step down ' + c.strength;
  if (c.type === 'remove_strength') return 'remove ' + c.strength;
  return c.type;
}

/**
 * @param {Update} update
 * @param {Send} send
 * @param {Command[]} legal
 */
function tableControls(update, send, legal) {
  const v = update.view;
  /**
   * @template {Command['type']} T
   * @param {T} type
   * @returns {Extract<Command, { type: T }>[]}
   */
  const of = (type) => /** @type {Extract<Command, { type: T }>[]} */ (legal.filter((x) => x.type === type));
  const out = [];
  if (of('start_conflict').length) {
    // A fresh form for every conflict: ticks are forgotten once a conflict starts.
    const g = group('start', 'Start a conflict', 'Tap who takes part, and say what action is being interfered with.');
    const redraw = () => redrawPanel('wicked-age');
    const chosen = /** @type {string[]} */ (memo.values['start:who'] || []);
    const row = h('div', 'wa-formtiles');
    for (const ch of v.characters.filter((x) => x.status === 'active')) {
      const on = chosen.includes(ch.name);
      const t = toggle(h('span', 'wa-formtile', h('b', null, ch.name), h('small', null, ch.kind === 'npc' ? 'NPC' : 'PC')), on, () => {
        memo.values['start:who'] = on ? chosen.filter((n) => n !== ch.name) : chosen.concat([ch.name]);
        redraw();
      }, 'wa-pick');
      t.dataset.participant = ch.name;
      row.append(t);
    }
    const action = text('start:action', 'The action being interfered with');
    g.body.className = 'wa-stack';
    g.body.append(row, h('div', 'wa-row', action), h('div', 'wa-row', button(g, chosen.length ? 'Start the conflict: ' + chosen.join(', ') : 'Start the conflict', send, () => {
      if (chosen.length < 2) throw new Error('Tap at least two characters who take part.');
      if (!action.value.trim()) throw new Error('Say what action is being interfered with.');
      return command({ type: 'start_conflict', participants: chosen.slice(), action: action.value.trim() });
    }, true)));
    out.push(g.g);
  }
  if (of('end_chapter').length || of('choose_oracle').length || of('bring_back').length) {
    const g = group('chapter', 'Between conflicts', null);
    if (of('end_chapter').length) g.body.append(button(g, 'End the chapter', send, () => (command({ type: 'end_chapter' }))));
    if (of('choose_oracle').length) {
      const o = text('oracle:name', 'Oracle'), s = text('oracle:element', 'Story element');
      g.body.append(o, s, button(g, 'Choose Oracle', send, () => (command({ type: 'choose_oracle', oracle: o.value.trim(), story_element: s.value.trim() }))));
    }
    for (const n of [...new Set(of('bring_back').map((x) => x.character))]) {
      g.body.append(button(g, 'Bring back ' + n + ' (cross off an entry)', send, () => (command({ type: 'bring_back', character: n }))));
    }
    out.push(g.g);
  }
  return out;
}

/** @param {Update} update @param {Send} send */
function controls(update, send) {
  const v = update.view;
  const legal = update.legal.map((l) => l.command);
  const box = h('div', 'wa-controls');
  box.append(...tableControls(update, send, legal));
  const c = v.conflict;
  if (c) {
    for (const k of c.knockouts || []) {
      const g = consequenceControls(v, send, k, legal);
      if (g) box.append(g);
    }
  }
  // One block per character this seat speaks for (the GM's NPCs included).
  for (const ch of v.characters) {
    const groups = characterControls(update, send, ch, legal);
    if (groups.length) box.append(h('div', 'wa-who', h('div', 'wa-label', ch.kind === 'npc' ? 'NPC ' + ch.name : ch.name), ...groups));
  }
  if (!box.childNodes.length) box.append(h('p', 'hint', 'Nothing for you to do right now — waiting for the others.'));
  return box;
}

register('wicked-age', function (update, send) {
  const v = /** @type {ShownView} */ (update.view);
  if (!v || !Array.isArray(v.characters)) return null;
  noteLosses(update.events);
  // The start form begins empty for every conflict (no ticks left over from the last one).
  if (v.conflict) { delete memo.values['start:who']; delete memo.values['start:action']; }

  const chars = h('div', 'wa-chars');
  for (const c of v.characters) chars.append(characterCard(v, c, update.seat && c.controller === update.seat));
  // Phone first: this seat's controls come first, then the conflict and the sheets.
  const root = h('div', 'wa');
  if (update.seat) root.append(controls(update, send));
  root.append(conflictView(v), oweView(v), h('h3', null, 'Characters'), chars);
  return root;
});
