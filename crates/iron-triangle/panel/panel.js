// Iron Triangle's board: every move drawn as a card (its action's colour, its element, its base
// and multiplier), the duel of the current turn with face-down and revealed stances and moves,
// the chain and disadvantage piles as cards, problems and countdowns as cards, and controls built
// from the commands the engine lists for this seat: stance and move pickers made of cards, a loss
// split with steppers, renaming any move. Every text goes in as text nodes, never parsed as markup.
import * as kit from '../kit.js';
import { table, redrawPanel, ClashForms, K } from '../kit.js';

/** @typedef {import('../types/iron-triangle/TableView').TableView} View the seat's view of the game */
/** @typedef {import('../types/iron-triangle/Command').Command} Command what the board sends */
/** @typedef {import('../types/iron-triangle/CharacterView').CharacterView} CharacterView */
/** @typedef {import('../types/iron-triangle/ConflictView').ConflictView} ConflictView */
/** @typedef {import('../types/iron-triangle/FighterView').FighterView} FighterView */
/** @typedef {import('../types/iron-triangle/SplitView').SplitView} SplitView */
/** @typedef {import('../types/iron-triangle/ParticipantView').ParticipantView} ParticipantView */
/** @typedef {import('../types/iron-triangle/TurnReport').TurnReport} TurnReport */
/** @typedef {import('../types/iron-triangle/LossBreakdown').LossBreakdown} LossBreakdown */
/** @typedef {import('../types/iron-triangle/HandedIn').HandedIn} HandedIn */
/** @typedef {import('../types/iron-triangle/Decider').Decider} Decider */
/** @typedef {import('../types/iron-triangle/Combo').Combo} Combo */
/** @typedef {import('../types/iron-triangle/KnownMove').KnownMove} KnownMove */
/** @typedef {import('../types/iron-triangle/KnownSpecial').KnownSpecial} KnownSpecial */
/** @typedef {import('../types/iron-triangle/Improvement').Improvement} Improvement */
/** @typedef {import('../types/iron-triangle/Action').Action} Action */
/** @typedef {import('../types/iron-triangle/Stance').Stance} Stance */
/** @typedef {import('../types/iron-triangle/Move').Move} Move */
/** @typedef {import('../types/iron-triangle/ProblemOption').ProblemOption} ProblemOption */
/** @typedef {import('../types/iron-triangle/TraitKind').TraitKind} TraitKind */
/** @typedef {import('../types/iron-triangle/PerAction').PerAction<number>} Energies energy by action */
/** @typedef {import('../types/Seat').Seat} Seat */
/** @typedef {import('../kit.js').Update<View, Command>} Update */
/** @typedef {import('../kit.js').Send} Send */
/** @typedef {import('../kit.js').Chance} Chance */
/** @typedef {import('../types/Legal').Legal<Command>} Item a legal command, with its label */
/**
 * The legal commands of one type.
 * @template {Command['type']} T
 * @typedef {import('../types/Legal').Legal<Extract<Command, { type: T }>>} ItemOf
 */
/** @typedef {Map<string, Item[]>} ByType the legal commands by their type */
/**
 * A command read field by field by name (the generic controls fill in whichever fields a
 * command has, so a field's type is whatever that command's is: any).
 * @typedef {Record<string, any>} Fields
 */
/** @typedef {{ label: string, command: Fields }} FieldItem */
/** @typedef {{ fighter?: string, win?: Chance, lose?: Chance, stances?: Array<{ stance: Stance, probability: Chance }>, moves?: Array<{ move: string, probability: Chance }> }} Odds the equilibrium odds the server sends this board */
/** @typedef {NonNullable<ReturnType<typeof parse>>} Parsed a move's code read as its action and element */

/**
 * A command as the rules take it: tsc checks every command this board builds against the
 * game's own type (generated from the Rust one).
 * @param {Command} c
 * @returns {Command}
 */
const command = (c) => c;

// Typed input values and error messages survive the redraw that every live update causes.
const { memo, h, select, input, checkbox, group, button, register, confirmButton, stepper, toggle, odds } = kit.make('it');
/** @type {Action[]} */
const TYPES = ['defend', 'grapple', 'attack'];

// ----- the move chart (IT-3 to IT-6) -----

/** @type {Record<string, { word: string, type: Action, beats: string, base: number }>} */
const ACTIONS = {
  D: { word: 'Defend', type: 'defend', beats: 'A', base: 2 },
  G: { word: 'Grapple', type: 'grapple', beats: 'D', base: 4 },
  A: { word: 'Attack', type: 'attack', beats: 'G', base: 3 },
};
/** @type {Record<string, { word: string, glyph: string, beats: string[] }>} */
const ELEMENTS = {
  L: { word: 'Low', glyph: '⬇', beats: ['H', 'S'] },
  M: { word: 'Mid', glyph: '➡', beats: ['L', 'J'] },
  H: { word: 'High', glyph: '⬆', beats: ['M', 'J'] },
  J: { word: 'Jump', glyph: '⤴', beats: ['L', 'S'] },
  S: { word: 'Spin', glyph: '⟳', beats: ['M', 'H'] },
};
/** @type {Record<string, number>} */
const MULT = { 'G-J': 3, 'G-S': 4, 'A-J': 3, 'A-S': 3 };
const ACTION_OF = { defend: 'D', grapple: 'G', attack: 'A' };

/** @param {unknown} code a move's code ("A-H") */
function parse(code) {
  const m = /^([DGA])-([LMHJS])$/.exec(String(code));
  if (!m) return null;
  const a = ACTIONS[m[1]], e = ELEMENTS[m[2]];
  const mult = MULT[/** @type {string} */ (code)] || (m[1] === 'D' ? 1 : 2);
  return { code: String(code), a: m[1], e: m[2], action: a, element: e, base: a.base, mult: mult };
}

/**
 * A move's name in words ("Attack High"), or null for a code that is not a move.
 * @param {unknown} code
 */
function moveWords(code) {
  const p = parse(code);
  return p ? p.action.word + ' ' + p.element.word : null;
}

/** @param {Parsed} mv */
function beatsText(mv) {
  const loses = Object.entries(ACTIONS).find(([, x]) => x.beats === mv.a);
  const eLoses = Object.entries(ELEMENTS).filter(([, x]) => x.beats.includes(mv.e)).map(([k]) => ELEMENTS[k].word);
  return mv.action.word + ' beats ' + ACTIONS[mv.action.beats].word + ' and loses to ' + (loses ? loses[1].word : '—') + '; ' +
    mv.element.word + ' beats ' + mv.element.beats.map((k) => ELEMENTS[k].word).join(' and ') + ' and loses to ' + eLoses.join(' and ') +
    '. Base ' + mv.base + ', stance ×' + mv.mult + ' when it wins.';
}

// Append only what is there: parts of the table that do not apply come back as null.
/**
 * @template {Element} E
 * @param {E} el
 * @param {...(Node | string | null | undefined | false)} xs
 * @returns {E}
 */
function put(el, ...xs) {
  for (const x of xs) if (x != null && x !== false) el.append(x);
  return el;
}

// ----- words -----

// Engine words as the board shows them: without the rule numbers in brackets (the log names the
// rule, as a link that opens it).
/** @param {unknown} text */
const plain = (text) => String(text || '').replace(/\s*\((?:(?:IT|TF|ND|WA|D)-[\d.]+(?:,\s*)?)+\)/g, '');

// The turn's odds as chances: "win 56% · lose 39%" (a tie is what is left).
/** @param {Odds} o */
function winLose(o) {
  if (!o.win || !o.lose) return null;
  return h('p', 'it-winlose', 'This turn: win ', kit.percent(o.win), ' · lose ', kit.percent(o.lose));
}

/** @param {unknown} s */
const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
/** @param {unknown} s */
const words = (s) => cap(String(s).replace(/_/g, ' '));

// A compact text for any serialized engine value (specials, outcomes, options).
/**
 * @param {any} x an engine value of any shape, read generically (hence any)
 * @returns {string}
 */
function fmt(x) {
  if (x == null) return '—';
  if (typeof x !== 'object') return String(x).replace(/_/g, ' ');
  if (Array.isArray(x)) return x.map(fmt).join(', ');
  if ('state' in x) return x.state === 'waiting' ? 'waiting' : x.state === 'ready' ? 'ready' : fmt(x.value);
  if ('special' in x && Object.keys(x).length <= 3) return words(x.special) + (x.action ? ' (' + x.action + ')' : '');
  if ('action' in x && 'amount' in x) return x.amount ? cap(x.action) + ' ' + x.amount : 'no stance';
  const keys = Object.keys(x);
  if (keys.length === 1 && typeof x[keys[0]] !== 'object') return words(keys[0]) + ': ' + fmt(x[keys[0]]);
  return keys.filter((k) => x[k] != null && x[k] !== false).map((k) => (x[k] === true ? words(k) : words(k) + ' ' + fmt(x[k]))).join(' · ');
}

/** @type {Record<number, string>} */
const OPTIONS = { 1: 'Good idea', 2: 'Background point', 3: 'Complication', 4: 'Interesting failure' };
/** @param {ProblemOption} option @param {TraitKind | null} [trait] */
function optionText(option, trait) {
  return option + ' · ' + (OPTIONS[option] || '?') + (trait ? ' (' + trait + ')' : '');
}

// The seats waited on, by their characters' names in one list: "Ada, Bo and Cy" (when Bo's
// player also plays Cy), never "Ada and Bo and Cy".
/** @param {View} v @param {Seat[]} seats */
function waitingFor(v, seats) {
  // While the conflict forms, only the characters still to answer.
  const pending = new Set(((v.conflict && v.conflict.fighters) || []).filter((f) => f.status === 'pending').map((f) => f.name));
  const all = [...new Set(seats)].flatMap((seat) => {
    const names = seat === 'gm' ? [] : v.characters.filter((c) => c.controller === seat && c.pc).map((c) => c.name);
    const asked = names.filter((n) => pending.has(n));
    return asked.length ? asked : names.length ? names : [seatWho(v, seat)];
  });
  return kit.andList([...new Set(all)]);
}

// Who a seat is, by its characters' names ("Ada", "the GM").
/** @param {View} v @param {Seat} seat */
function seatWho(v, seat) {
  if (seat === 'gm') return 'the GM';
  const names = v.characters.filter((c) => c.controller === seat && c.pc).map((c) => c.name);
  return names.length ? kit.andList(names) : kit.seatName(null, seat);
}
/** @param {View} v @param {Decider | null | undefined} d */
function deciderText(v, d) {
  if (!d) return '—';
  return (d.character ? d.character : 'the GM') + (d.option ? ' with option ' + optionText(d.option, d.trait) : '') + (d.by_veto ? ' by veto' : '');
}

// A move by the name its character gave it: from the sheet, or for a hidden sheet from the
// moves it has shown face up (the names the log uses).
/** @param {View} v @param {string} character @param {string | null} mv */
function moveName(v, character, mv) {
  const c = v.characters.find((x) => x.name === character);
  const known = c && (c.moves || []).concat(c.shown || []).find((m) => m.move === mv);
  return known ? known.name : (moveWords(mv) || String(mv));
}

// A move as the log names it: "Philly Shell (Defend Mid)", or "Defend Mid" when unnamed.
/** @param {View} v @param {string} character @param {Move} mv */
function moveCalled(v, character, mv) {
  const m = parse(mv);
  if (!m) return String(mv);
  const plain = m.action.word + ' ' + m.element.word;
  const name = moveName(v, character, mv);
  return name === plain ? plain : name + ' (' + plain + ')';
}

/** @param {unknown} m a move choice (a surrender was once an object) */
const isSurrender = (m) => m === 'surrender' || (m && typeof m === 'object' && /** @type {{ surrender?: unknown }} */ (m).surrender !== undefined);
/** @param {unknown} choice @returns {string | null} */
function moveCode(choice) {
  if (typeof choice === 'string') return choice;
  if (choice && /** @type {{ move?: string }} */ (choice).move) return /** @type {{ move: string }} */ (choice).move;
  return null;
}

// ----- cards -----

// A move drawn as a card: its action's colour band, the element's sign, the name people gave
// it, and the code, base and multiplier. Hover, focus or a long press tells what it beats.
/**
 * @param {View} v
 * @param {string} character
 * @param {string | null} code
 * @param {{ small?: boolean, name?: string, cls?: string, badges?: string[], noTip?: boolean }} [opts]
 */
function moveCard(v, character, code, opts) {
  const o = opts || {};
  const mv = parse(code);
  if (!mv) {
    const c = h('span', 'it-card it-surrender' + (o.small ? ' small' : ''), h('span', 'it-card-name', 'Surrender'));
    return c;
  }
  const name = o.name || moveName(v, character, code);
  const card = h('span', 'it-card it-' + mv.action.type + (o.small ? ' small' : '') + (o.cls ? ' ' + o.cls : ''),
    h('span', 'it-band', mv.action.word),
    h('span', 'it-glyph', mv.element.glyph),
    h('span', 'it-card-name', name),
    h('span', 'it-card-code', mv.action.word + ' ' + mv.element.word),
    o.small ? null : h('span', 'it-card-stats', 'base ' + mv.base + ' · ×' + mv.mult));
  for (const b of o.badges || []) card.append(h('span', 'it-badge', b));
  // (A move: `parse` read it.)
  card.dataset.move = /** @type {string} */ (code);
  if (!o.noTip) kit.tip(card, name + ' (' + mv.action.word + ' ' + mv.element.word + '): ' + beatsText(mv));
  return card;
}

// A card lying face down: the choice is made but hidden.
/** @param {string} text @param {boolean} [small] */
function backCard(text, small) {
  return h('span', 'it-card it-back' + (small ? ' small' : ''), h('span', 'it-card-name', text));
}

/** @param {Stance | null | undefined} stance @param {boolean} [small] */
function stanceCard(stance, small) {
  if (!stance || !stance.amount) return h('span', 'it-card it-stance none' + (small ? ' small' : ''), h('span', 'it-card-name', 'No stance'));
  return h('span', 'it-card it-stance it-' + stance.action + (small ? ' small' : ''), h('span', 'it-band', 'Stance'), h('span', 'it-stance-n', String(stance.amount)), h('span', 'it-card-name', cap(stance.action)));
}

// ----- character sheets -----

/** @param {string} type @param {number} current @param {number} max */
function bar(type, current, max) {
  const pct = max ? Math.round((100 * current) / max) : 0;
  const fill = h('span', 'it-fill it-' + type);
  fill.style.width = pct + '%';
  const track = h('span', 'it-track', fill);
  track.setAttribute('role', 'meter');
  track.setAttribute('aria-valuenow', String(current));
  track.setAttribute('aria-valuemin', '0');
  track.setAttribute('aria-valuemax', String(max));
  track.setAttribute('aria-label', type + ' energy');
  const row = h('div', 'it-bar', h('span', 'it-bar-label', cap(type)), track, h('b', null, current + ' of ' + max));
  row.dataset.type = type;
  return row;
}

/**
 * @param {string} label
 * @param {{ text: string, marked?: boolean, achieved?: boolean } | null | undefined} t
 * @param {string} markWord
 */
function traitLine(label, t, markWord) {
  if (!t || !t.text) return null;
  const done = t.marked || t.achieved;
  return h('li', null, h('b', null, label + ': '), t.text, done ? h('span', 'pill ready', ' ' + markWord) : null);
}

/** @param {View} v @param {string} name @param {Move[] | null | undefined} pile @param {string} title */
function pileView(v, name, pile, title) {
  if (!pile || !pile.length) return null;
  const row = h('div', 'it-pile');
  pile.forEach((m, i) => row.append(moveCard(v, name, m, { small: true, cls: i === pile.length - 1 ? 'top' : '' })));
  return h('div', null, h('div', 'it-label', title), row);
}

/** @param {View} v @param {CharacterView} c @param {Seat | null} mineSeat */
function sheet(v, c, mineSeat) {
  const fighter = v.conflict && v.conflict.fighters.find((f) => f.name === c.name);
  const head = h('div', 'it-head',
    h('strong', null, c.name),
    h('span', 'pill', c.pc ? (c.controller === mineSeat ? 'PC · yours' : 'PC') : 'NPC · the GM'),
    h('span', 'pill', 'Level ' + c.level),
    // Vetoes and background points are the players' (IT-11, IT-10): an NPC has neither.
    c.pc ? (c.veto ? h('span', 'pill ready', 'veto available') : h('span', 'pill', 'veto used')) : null,
    c.dead ? h('span', 'pill waiting', 'dead') : null,
    fighter ? h('span', 'pill', fighter.status === 'in' ? 'fighting' : words(fighter.status)) : null);
  const card = h('section', 'it-char' + (c.controller === mineSeat ? ' mine' : '') + (c.dead ? ' dead' : ''), head);
  card.dataset.character = c.name;
  const e = c.energy || {};
  for (const t of TYPES) {
    const row = bar(t, (e.current || {})[t] || 0, (e.max || {})[t] || 0);
    if (c.marks && c.marks.zero && c.marks.zero[t]) row.append(h('small', 'hint', 'hit 0'));
    card.append(row);
  }
  if (c.sheet_hidden) {
    card.append(h('p', 'hint', 'Moves, combos and specials hidden until the GM reveals them.'));
    if ((c.shown || []).length) {
      const seen = h('div', 'it-hand');
      for (const m of c.shown || []) seen.append(moveCard(v, c.name, m.move, { name: m.name, small: true }));
      card.append(h('div', 'it-label', 'Moves seen so far'), seen);
    }
  } else {
    card.append(h('div', 'it-label', 'Moves'));
    const ms = h('div', 'it-hand');
    for (const m of c.moves || []) ms.append(moveCard(v, c.name, m.move, { name: m.name, small: true }));
    if (!(c.moves || []).length) ms.append(h('span', 'hint', 'none'));
    card.append(ms);
    if ((c.combos || []).length) {
      card.append(h('div', 'it-label', 'Combos'));
      for (const k of /** @type {Combo[]} */ (c.combos)) {
        const row = h('div', 'it-combo', moveCard(v, c.name, k.from, { small: true }), h('span', 'it-arrow', '→'));
        k.followups.forEach((f, i) => { if (i) row.append(h('span', 'it-or', 'or')); row.append(moveCard(v, c.name, f, { small: true })); });
        card.append(row);
      }
    }
    if ((c.specials || []).length) {
      card.append(h('div', 'it-label', 'Specials'));
      const row = h('div', 'it-hand');
      for (const s of /** @type {KnownSpecial[]} */ (c.specials)) row.append(h('span', 'it-card it-special small' + (s.spent ? ' spent' : ''), h('span', 'it-band', s.spent ? 'spent' : 'special'), h('span', 'it-card-name', fmt(s))));
      card.append(row);
    }
  }
  if (fighter) put(card, pileView(v, c.name, fighter.pile, 'Disadvantage pile (the top card’s action and element are disadvantaged)'));
  const traits = h('ul', 'it-list',
    traitLine('Belief', c.belief, 'marked'), traitLine('Flaw', c.flaw, 'marked'), traitLine('Goal', c.goal, 'achieved'));
  if (c.marks && c.marks.q1) traits.append(h('li', null, 'Level-up question 1: marked'));
  if (traits.childNodes.length) card.append(h('div', 'it-label', 'Traits'), traits);
  if ((c.backgrounds || []).length || (c.pc && c.unassigned_points)) {
    card.append(h('div', 'it-label', 'Backgrounds'));
    const parts = (c.backgrounds || []).map((b) => b.name + ' ' + b.current + ' of ' + b.max + ' points');
    if (c.pc && c.unassigned_points) parts.push(c.unassigned_points === 1 ? '1 point not yet given to a background' : c.unassigned_points + ' points not yet given to a background');
    card.append(h('p', null, parts.join(' · ')));
  }
  return card;
}

// ----- campaign: countdowns and the problem, as cards -----

/** @param {View} v */
function countdowns(v) {
  const cds = (v.campaign && v.campaign.countdowns) || [];
  if (!cds.length) return null;
  const box = h('div', 'it-cards');
  for (const c of cds) {
    const boxes = h('span', 'it-boxes');
    for (let i = 0; i < c.boxes; i++) {
      const b = h('span', 'it-box' + (i < c.marked ? ' marked' : ''));
      boxes.append(b);
    }
    boxes.setAttribute('role', 'img');
    boxes.setAttribute('aria-label', c.marked + ' of ' + c.boxes + ' boxes marked');
    const card = h('section', 'it-bigcard it-countdown' + (c.marked >= c.boxes ? ' full' : ''), h('span', 'it-band', 'Countdown'),
      h('h3', null, c.name), boxes, h('p', 'hint', c.marked + ' of ' + c.boxes + ' marked' + (c.consequences ? ' — ' + c.consequences : '')));
    card.dataset.countdown = c.name;
    box.append(card);
  }
  return box;
}

/** @param {View} v */
function problem(v) {
  const p = v.campaign && v.campaign.problem;
  if (!p) return null;
  const box = h('section', 'it-bigcard it-problem', h('span', 'it-band', 'Problem' + (p.revealed ? ' · picks revealed' : ' · secret picks')), h('h3', null, p.description));
  const ul = h('ul', 'it-list');
  for (const k of p.choosers) {
    let pick = 'ready';
    if (k.pick) pick = k.pick.kind === 'pass' ? 'not interested' : optionText(k.pick.option, k.pick.trait);
    ul.append(h('li', null, k.character + ': ', h('span', 'pill ' + (p.revealed ? '' : 'ready'), (p.revealed ? '' : (k.pick ? 'your secret pick: ' : '')) + pick)));
  }
  for (const s of p.waiting_for) ul.append(h('li', null, seatWho(v, s) + ': ', h('span', 'pill waiting', 'choosing…')));
  box.append(ul);
  const st = p.stage || {};
  let stage = 'Everyone interested picks an option in secret.';
  if (st.stage === 'decider_tied') stage = 'Tied: the GM picks who decides among ' + (st.candidates || []).join(', ');
  else if (st.stage === 'narrating') stage = deciderText(v, st.decider) + ' tells what happens';
  else if (st.stage === 'narrated') stage = deciderText(v, st.decider) + ' told: “' + st.text + '”';
  box.append(h('p', 'it-turn', stage));
  if (p.vetoed) box.append(h('p', 'hint', 'Vetoed: ' + deciderText(v, p.vetoed)));
  if ((p.vetoes || []).length) box.append(h('p', 'hint', 'Vetoes: ' + fmt(p.vetoes)));
  if ((p.rejected || []).length) box.append(h('p', 'hint', 'Narration rejected by ' + p.rejected.join(', ')));
  if (p.like_closed) box.append(h('p', 'hint', 'For you, GM: a closed problem had the same description. Whether this is a retry is yours to judge.'));
  return box;
}

// ----- the conflict: the duel on the table -----

/** @param {View} v @param {ParticipantView} p @param {'stance' | 'move'} which */
function slot(v, p, which) {
  const ch = p[which];
  const state = ch && ch.state;
  if (state === 'waiting') return h('span', 'it-card it-empty small', h('span', 'it-card-name', 'choosing…'));
  if (state === 'ready') return backCard('ready', true);
  // (Chosen or revealed: it has a value.)
  const val = ch ? /** @type {{ value?: Stance | string }} */ (ch).value : null;
  let card;
  if (which === 'stance') card = stanceCard(/** @type {Stance | null | undefined} */ (val), true);
  else if (isSurrender(val)) card = moveCard(v, p.name, 'surrender', { small: true });
  else card = moveCard(v, p.name, moveCode(val), { small: true });
  if (state === 'chosen') card.append(h('span', 'it-badge', 'yours, hidden'));
  return card;
}

/** @param {View} v */
function duel(v) {
  const c = v.conflict;
  const t = c && c.turn;
  if (!t) return null;
  /** @param {ParticipantView} p */
  const side = (p) => {
    // (Drawn only for a turn: there is a conflict.)
    const f = /** @type {Partial<FighterView>} */ (/** @type {ConflictView} */ (c).fighters.find((x) => x.name === p.name) || {});
    const e = /** @type {Partial<Energies>} */ (f.energy || {});
    const col = h('div', 'it-fighter' + (p.name === t.active ? ' active' : ''),
      h('div', 'it-fighter-name', h('b', null, p.name), p.name === t.active ? h('span', 'pill', 'active') : h('span', 'pill', 'picked'),
        p.forbidden ? h('span', 'pill waiting', 'no ' + p.forbidden) : null, p.swapped ? h('span', 'pill', 'swapped') : null),
      h('div', 'it-energy-mini', ...TYPES.map((x) => h('span', 'it-chip it-' + x, cap(x)[0] + ' ' + (e[x] != null ? e[x] : '?')))),
      h('div', 'it-slots', slot(v, p, 'stance'), slot(v, p, 'move')));
    col.dataset.participant = p.name;
    return col;
  };
  const parts = t.participants;
  const box = h('div', 'it-duel');
  if (parts[0]) box.append(side(parts[0]));
  box.append(h('div', 'it-vs', 'vs'));
  if (parts[1]) box.append(side(parts[1]));
  else box.append(h('div', 'it-fighter', h('p', 'hint', t.active + ' is picking an opponent…')));
  return box;
}

/** @param {View} v */
function chainView(v) {
  const c = v.conflict;
  if (!c || !c.chain) return null;
  const row = h('div', 'it-pile');
  c.chain.cards.forEach(([n, m], i) => { if (i) row.append(h('span', 'it-arrow', '→')); row.append(moveCard(v, n, m, { small: true })); });
  return h('div', 'it-chain', h('div', 'it-label', 'Chain against ' + c.chain.against + ' — a move that combos from the last card and wins adds +1 per card'), row);
}

/** @param {View} v */
function lastTurn(v) {
  const lt = v.conflict && v.conflict.last_turn;
  if (!lt) return null;
  const box = h('section', 'it-last', h('div', 'it-label', 'Turn ' + lt.number + ' revealed'));
  const row = h('div', 'it-duel small');
  lt.moves.forEach(([n, m], i) => {
    if (i) row.append(h('div', 'it-vs', 'vs'));
    const stance = (lt.stances.find(([x]) => x === n) || [])[1];
    row.append(h('div', 'it-fighter', h('b', null, n), h('div', 'it-slots', stanceCard(stance, true), isSurrender(m) ? moveCard(v, n, 'surrender', { small: true }) : moveCard(v, n, moveCode(m), { small: true }))));
  });
  box.append(row);
  const o = lt.outcome || {};
  let result = 'Outcome: ' + fmt(o);
  if (o.result === 'win') result = kit.poss(o.winner) + ' ' + moveCalled(v, o.winner, o.winning_move) + ' beats ' + kit.poss(o.loser) + ' ' + moveCalled(v, o.loser, o.losing_move) + ' (' + (o.by === 'action' ? 'action' : o.by === 'element' ? 'element' : words(o.by)) + (o.combo ? ', a combo' : '') + ').';
  else if (o.result === 'tie') result = 'A tie: each side pays the base of the other’s move.';
  box.append(h('p', 'it-turn', result));
  for (const b of lt.breakdown || []) box.append(h('p', 'it-sum', breakdownText(v, lt, b)));
  for (const [n, l] of lt.lost || []) box.append(h('p', 'hint', n + ' lost ' + TYPES.filter((k) => l[k]).map((k) => l[k] + ' ' + cap(k)).join(', ') + '.'));
  for (const [n, g] of lt.gained || []) box.append(h('p', 'hint', n + ' regained ' + TYPES.filter((k) => g[k]).map((k) => g[k] + ' ' + cap(k)).join(', ') + '.'));
  return box;
}

// "Ada loses 1 (her own matched Attack stance) + 3 (Shin Kick's base) = 4".
/** @param {View} v @param {TurnReport} lt @param {LossBreakdown} b */
function breakdownText(v, lt, b) {
  const o = lt.outcome || {};
  const own = (lt.stances.find(([x]) => x === b.character) || [])[1];
  const other = lt.stances.find(([x]) => x !== b.character);
  const winMove = o.result === 'win' ? moveName(v, o.winner, o.winning_move) : 'the other move';
  const terms = [
    [b.from_stance, 'from ' + (other ? kit.poss(other[0]) + ' matched ' + cap((other[1] || {}).action || '') + ' stance × the move’s multiplier' : 'the winner’s stance')],
    [b.own_stance, 'own matched ' + (own && own.action ? cap(own.action) + ' ' : '') + 'stance, paid from ' + (own && own.action ? cap(own.action) : 'that energy')],
    [b.base, kit.poss(winMove) + ' base'],
    [b.combo, 'combo: +1 per card in the chain'],
    [b.disadvantage, 'disadvantaged: +1 per card in the pile'],
  ].filter(([n]) => n).map(([n, why]) => n + ' (' + why + ')');
  return b.character + ' loses ' + (terms.join(' + ') || '0') + ' = ' + b.total + (b.waxed ? ' (Wax On)' : '') + '.';
}

/** @param {View} v */
function conflict(v) {
  const c = v.conflict;
  if (!c) return null;
  const t = c.turn;
  const box = h('section', 'it-conflict', h('h3', null, 'Conflict' + (c.lethal ? ' · lethal' : '') + (c.minor ? ' · minor' : '')),
    h('p', null, h('b', null, 'Stakes: '), c.stakes));
  const phase = typeof c.phase === 'string' ? c.phase : (c.phase && c.phase.phase) || '';
  /** @type {Record<string, string>} */
  const phaseWords = { forming: 'Forming: join or sit out', pick_active: 'Picking who acts next', turn: 'Fighting', mercy: 'Mercy: kill or spare', ended: 'Ended' };
  /** @type {Record<string, string>} */
  const stepWords = { opponent: 'picking an opponent', stances: 'secret stances', moves: 'secret moves', settling: 'paying the loss', specials: 'specials' };
  const pills = h('div', 'it-pills', h('span', 'pill', phaseWords[phase] || words(phase)));
  if (t) {
    pills.append(h('span', 'pill', 'Turn ' + t.number), h('span', 'pill', stepWords[t.step] || words(t.step)));
    if (t.window) pills.append(h('span', 'pill it-adv', 'specials may be played now'));
  }
  put(box, pills, duel(v), chainView(v));
  if (t && t.specials.length) {
    const ul = h('ul', 'it-list');
    for (const s of t.specials) ul.append(h('li', s.cancelled ? 'gone' : null, s.by + ': ' + (s.special ? fmt(s.special) : 'a face-down special') + (s.target ? ' → ' + s.target : '') + (s.cancelled ? ' (cancelled)' : '')));
    box.append(h('div', 'it-label', 'Specials this turn'), ul);
  }
  if (c.waiting_for && c.waiting_for.length) box.append(h('p', 'hint', 'Waiting for ' + waitingFor(v, c.waiting_for) + '.'));
  if (c.split) box.append(h('p', 'hint', c.split.character + ' must ' + (c.split.gain ? 'share a regain of ' : 'share a loss of ') + c.split.amount + ' (' + seatWho(v, c.split.splitter) + ' decides).'));
  put(box, lastTurn(v));
  if (c.scouted && c.scouted.length) box.append(h('p', 'hint', 'Scouted: ' + fmt(c.scouted)));
  if (c.outcome) box.append(h('p', 'it-turn', 'Over: ' + (c.outcome.winner ? 'the ' + (c.outcome.winner === 'gm' ? 'GM’s' : 'players’') + ' side wins' : 'settled by the GM') + ' — ' + plain(c.outcome.reason) + (c.outcome.dead && c.outcome.dead.length ? ' · dead: ' + c.outcome.dead.join(', ') : '')));
  if (c.outcome && c.outcome.narration) box.append(h('p', 'hint', 'What happened: ' + c.outcome.narration));
  return box;
}

// ----- controls -----


// Fields the player writes in themselves; every other field is taken from the legal command.
/** @type {Record<string, string[]>} */
const FREE = {
  start_conflict: ['stakes', 'lethal', 'minor'], settle_conflict: ['outcome'], narrate_conflict: ['text'], open_problem: ['description'],
  narrate_outcome: ['text'], reject_narration: ['reason'], create_countdown: ['name', 'boxes'],
  narrate_countdown: ['consequences'], rewrite_traits: ['goal', 'belief', 'flaw'], change_background: ['new_name'],
  rename_move: ['name'],
};

/** @type {Record<string, string>} */
const TITLES = {
  join_conflict: 'Join the conflict', sit_out: 'Sit out (shares the result)', refuse_lethal: 'Refuse a lethal conflict',
  pick_active: 'Who acts next?', pick_opponent: 'Pick an opponent', end_chain: 'End the chain now', play_special: 'Play a special',
  pass_window: 'Play no special now', drunken_swap: 'Drunken Monkey swap', kill_surrendered: 'The opponent surrendered',
  spare_surrendered: 'The opponent surrendered', start_conflict: 'Start a conflict', settle_conflict: 'Settle the conflict',
  narrate_conflict: 'Narrate the outcome (winners; the GM settles disputes)',
  reveal_npc: 'Reveal an NPC’s sheet', rename_move: 'Rename a move', create_countdown: 'New countdown', mark_countdown: 'Mark a countdown box',
  narrate_countdown: 'Narrate a full countdown', erase_countdown: 'Erase a countdown', open_problem: 'Open a problem',
  pass_problem: 'Not interested in this problem', pick_decider: 'Pick who decides', narrate_outcome: 'Narrate the outcome',
  reject_narration: 'Reject the narration', veto: 'Veto (once per character)', pick_veto: 'Pick the veto that stands',
  close_problem: 'Close the problem', rest: 'Rest', recover_npc: 'Recover an NPC', mark_goal: 'Goal achieved?',
  end_session: 'End the session', start_session: 'Start the next session', level_up: 'Level up', rewrite_traits: 'Rewrite traits',
  change_background: 'Change a background', create_character: 'Create a character', create_replacement: 'Create a replacement',
  keep_character: 'Keep a character', send_back_character: 'Send a character back',
};

// What a command does, where its name alone does not say it.
/** @type {Record<string, string>} */
const HINTS = {
  end_chain: 'Its cards go back to their owners’ hands, so they can be played again; your move this turn cannot combo from it.',
  pass_window: 'Let this moment of the turn go by without a special; you may still play one at a later moment.',
  sit_out: 'You share your side’s result without fighting.',
};

// Commands that move the table on; the rest (renames, goal marks, reveals) stay plain buttons.
const PRIMARY = new Set(['join_conflict', 'pick_opponent', 'start_conflict', 'open_problem', 'narrate_outcome', 'narrate_conflict', 'close_problem', 'pass_window', 'start_session', 'narrate_countdown']);

// Commands that cannot be taken back ask first.
/** @type {Record<string, string>} */
const WEIGHTY = {
  kill_surrendered: 'Kill the surrendered character? This cannot be undone.', end_session: 'End the session for everyone?',
  erase_countdown: 'Erase this countdown?', settle_conflict: 'Settle the conflict without fighting?', veto: 'Spend this character’s veto?', mark_goal: 'Mark the goal as achieved? It counts toward levelling up.',
  refuse_lethal: 'Refuse the lethal conflict? It becomes a lesser one.',
};

// One group for a command type: a button per legal variant (a select when there are many),
// named by what differs between the variants, with inputs for the free-text fields pre-filled
// from the engine's suggestion.
/**
 * @param {View} v
 * @param {string} type
 * @param {FieldItem[]} all
 * @param {Send} send
 */
function genericGroup(v, type, all, send) {
  const key = 'g:' + type;
  const g = group(key, TITLES[type] || words(type), HINTS[type] || null);
  const free = FREE[type] || [];
  // Variants that differ only in free fields are one control.
  const seen = new Set();
  const items = all.filter((it) => {
    const k = JSON.stringify(Object.entries(it.command).filter(([f]) => !free.includes(f)).sort());
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const template = items[0].command;
  /** @type {Record<string, () => unknown>} */
  const inputs = {};
  for (const f of free) {
    const val = template[f];
    const k = key + ':' + f;
    if (typeof val === 'boolean') { const cb = checkbox(k, words(f), val); inputs[f] = () => cb.box.checked; g.body.append(cb.label); }
    else if (typeof val === 'number') { const i = input(k, 'number', words(f), val, { min: '1', inputmode: 'numeric' }); inputs[f] = () => Number(i.value); g.body.append(i); }
    else { const i = input(k, 'text', words(f), val == null ? '' : val); inputs[f] = () => i.value; g.body.append(i); }
  }
  /** @type {Array<[string, HTMLLabelElement]> | null} */
  let npcs = null;
  if (type === 'start_conflict') {
    // The engine suggests one NPC; the GM may bring any living NPC.
    npcs = v.characters.filter((c) => !c.pc && !c.dead).map((c) => [c.name, checkbox(key + ':npc:' + c.name, c.name, (template.npcs || []).includes(c.name)).label]);
    for (const [, l] of npcs) g.body.append(l);
  }
  /** @param {Fields} cmd */
  const fill = (cmd) => {
    const out = Object.assign({}, cmd);
    for (const [f, get] of Object.entries(inputs)) {
      const x = get();
      if (x === '' && cmd[f] == null) continue;
      out[f] = x;
    }
    if (npcs) {
      out.npcs = npcs.filter(([, l]) => /** @type {HTMLInputElement} */ (l.querySelector('input')).checked).map(([n]) => n);
      if (!out.npcs.length) throw new Error('Bring at least one NPC.');
    }
    return out;
  };
  const differing = Object.keys(template).filter((f) => f !== 'type' && !free.includes(f) && items.some((it) => JSON.stringify(it.command[f]) !== JSON.stringify(template[f])));
  /** @param {FieldItem} it */
  const labelOf = (it) => {
    if (type === 'kill_surrendered') return 'Kill';
    if (type === 'spare_surrendered') return 'Spare';
    if (items.length === 1) {
      const f = ['character', 'opponent', 'name'].find((x) => typeof it.command[x] === 'string' && !free.includes(x));
      return (TITLES[type] || words(type)) + (f ? ' · ' + it.command[f] : '');
    }
    return differing.map((f) => fmt(it.command[f])).join(' · ') || it.label;
  };
  if (items.length > 6) {
    const sel = select(key + ':which', items.map((it, i) => [String(i), labelOf(it)]), '0', TITLES[type] || words(type));
    g.body.append(sel, button(g, 'Send', send, () => fill(items[Number(sel.value)].command), true));
  } else {
    for (const it of items) {
      const ask = WEIGHTY[type];
      g.body.append(ask ? confirmButton(g, labelOf(it), ask, send, () => fill(it.command)) : button(g, labelOf(it), send, () => fill(it.command), items.length === 1 && PRIMARY.has(type)));
    }
  }
  return g.g;
}

// Secret stance: tap an energy type (or no stance), set the amount with − and +.
/**
 * @param {View} v
 * @param {string} character
 * @param {ItemOf<'take_stance'>[]} items
 * @param {Send} send
 */
function stanceGroup(v, character, items, send) {
  const key = 'stance:' + character;
  const g = group(key, character + ': your secret stance', 'The others see only “ready” until both stances are in. A stance counts only if your move uses the same action.');
  /** @type {Record<string, number>} */
  const byAction = {};
  for (const it of items) {
    const a = it.command.action || '';
    byAction[a] = Math.max(byAction[a] || 0, it.command.amount || 0);
  }
  const acts = TYPES.filter((a) => a in byAction);
  // No stance until the player taps one: a stance spends energy if its action is played.
  if (!(memo.values[key + ':type'] in byAction)) memo.values[key + ':type'] = '' in byAction ? '' : acts[0] || '';
  const chosen = memo.values[key + ':type'];
  const redraw = () => redrawPanel('iron-triangle');
  const tiles = h('div', 'it-hand');
  for (const a of acts) {
    const t = toggle(h('span', 'it-stance-pick', stanceCard({ action: a, amount: byAction[a] }, true), h('small', null, 'up to ' + byAction[a])), chosen === a, () => { memo.values[key + ':type'] = a; redraw(); }, 'it-pick');

    t.dataset.stance = a;
    tiles.append(t);
  }
  if ('' in byAction) {
    const t = toggle(stanceCard(null, true), chosen === '', () => { memo.values[key + ':type'] = ''; redraw(); }, 'it-pick');
    t.setAttribute('aria-label', 'No stance');
    t.dataset.stance = 'none';
    tiles.append(t);
  }
  g.body.append(tiles);
  let amount = null;
  if (chosen) {
    amount = stepper(key + ':amount:' + chosen, cap(chosen), 1, byAction[chosen], 1);
    g.body.append(amount);
  }
  const o = /** @type {Odds | null} */ (odds(table.latest()));
  if (o && o.fighter === character && o.stances) {
    const ul = h('ul', null);
    for (const x of o.stances) ul.append(h('li', null, (x.stance.amount ? cap(x.stance.action) + ' ' + x.stance.amount : 'No stance') + ': ', kit.percent(x.probability)));
    g.g.append(h('div', 'kit-odds', h('h4', null, 'Equilibrium stance mix'), ul, winLose(o),
      h('p', 'hint', 'If both sides play their best mix of stances and then of moves. A sheet you cannot see counts as knowing every move.')));
  }
  g.body.append(button(g, chosen ? 'Take the stance in secret' : 'Take no stance', send, () => {
    if (!chosen) return { type: 'take_stance', character: character, amount: 0 }; // no action: no stance
    const n = amount ? amount.get() : 0;
    const found = items.find((it) => it.command.action === chosen && it.command.amount === n);
    if (!found) throw new Error('That stance is not offered: ' + cap(chosen) + ' goes up to ' + byAction[chosen] + '.');
    return found.command;
  }, true));
  return g.g;
}

// Secret move: tap one of your move cards (badges say disadvantaged or combo), then play it.
/**
 * @param {View} v
 * @param {string} character
 * @param {ItemOf<'play_move'>[]} items
 * @param {Send} send
 */
function moveGroup(v, character, items, send) {
  const key = 'move:' + character;
  const g = group(key, character + ': your secret move', 'Tap a card, then play it. Hover or long-press a card to see what it beats.');
  const listed = ((v.conflict && v.conflict.your_moves) || []).filter((m) => m.character === character);
  const c = v.characters.find((x) => x.name === character);
  /** @param {string} mv */
  const legalMove = (mv) => items.find((it) => !isSurrender(it.command.move) && moveCode(it.command.move) === mv);
  const redraw = () => redrawPanel('iron-triangle');
  const hand = h('div', 'it-hand');
  /** @type {Array<{ move: string, name: string, available: boolean, disadvantaged?: boolean, combos?: boolean }>} */
  const options = listed.length ? listed : ((c && c.moves) || []).map((m) => ({ move: m.move, name: m.name, available: true }));
  /** @type {{ it: ItemOf<'play_move'>, m: { name: string } } | null} */
  let picked = null;
  for (const m of options) {
    const it = legalMove(m.move);
    const badges = [];
    if (m.disadvantaged) badges.push('disadvantaged');
    if (m.combos) badges.push('combo!');
    if (!it) {
      const card = moveCard(v, character, m.move, { name: m.name, cls: 'unavailable', badges: ['face up: not now'] });
      hand.append(card);
      continue;
    }
    const on = memo.values[key] === m.move;
    if (on) picked = { it, m };
    const card = moveCard(v, character, m.move, { name: m.name, badges, noTip: true });
    const t = toggle(card, on, () => { memo.values[key] = m.move; redraw(); }, 'it-pick');
    const mv = parse(m.move);
    if (mv) kit.tip(t, m.name + ': ' + beatsText(mv));
    t.dataset.move = m.move;
    // Named by the card itself (its name, action and element as drawn), so what a screen
    // reader says is what the player sees.
    hand.append(t);
  }
  g.body.append(hand);
  const o = /** @type {Odds | null} */ (odds(table.latest()));
  if (o && o.fighter === character && o.moves) {
    const ul = h('ul', null);
    for (const x of o.moves.filter((m) => m.probability.decimal > 0)) ul.append(h('li', null, (x.move === 'surrender' ? 'Surrender' : moveName(v, character, x.move)) + ': ', kit.percent(x.probability)));
    g.g.append(h('div', 'kit-odds', h('h4', null, 'Equilibrium move mix'), ul, winLose(o),
      h('p', 'hint', 'If both sides play their best mix of moves.')));
  }
  if (picked) g.body.append(button(g, 'Play ' + picked.m.name + ' in secret', send, () => picked.it.command, true));
  else g.body.append(h('p', 'hint', 'No card chosen yet.'));
  const sur = items.find((it) => isSurrender(it.command.move));
  if (sur) {
    const b = confirmButton(g, 'Surrender', 'Leave the fight? You lose nothing this turn and share your side’s result.', send, () => sur.command);
    b.dataset.move = 'surrender';
    g.body.append(b);
  }
  return g.g;
}

// Share a pending loss (or regain) over the three energies with steppers. The part owed by the
// loser's own matched stance is fixed and already taken from that energy: only the rest is
// shared here, and the total must match what the turn summary says.
/**
 * @param {View} v
 * @param {'split_loss' | 'split_gain'} type
 * @param {string} character
 * @param {ItemOf<'split_loss' | 'split_gain'>[]} items
 * @param {Send} send
 */
function splitGroup(v, type, character, items, send) {
  const key = type + ':' + character;
  const s = /** @type {Partial<SplitView>} */ ((v.conflict && v.conflict.split) || {});
  const room = /** @type {Partial<Energies>} */ (s.room || {});
  const amount = s.amount != null ? s.amount : TYPES.reduce((a, t) => a + ((items[0].command.split || {})[t] || 0), 0);
  const roomTotal = TYPES.reduce((a, t) => a + (room[t] != null ? room[t] : amount), 0);
  const need = Math.min(amount, roomTotal);
  const gain = type === 'split_gain';
  const lt = v.conflict && v.conflict.last_turn;
  const b = lt && (lt.breakdown || []).find((x) => x.character === character);
  const own = lt && (lt.stances.find(([x]) => x === character) || [])[1];
  let why;
  if (gain) why = character + ' regains ' + amount + ': share it among the energies, up to each maximum.';
  else if (b) {
    const fixed = b.total - amount;
    why = character + ' loses ' + b.total + (fixed > 0 ? ': ' + fixed + ' is fixed (' + kit.poss(character) + ' own matched ' + (own && own.action ? cap(own.action) : '') + ' stance, already taken from ' + (own && own.action ? cap(own.action) : 'that energy') + '), the other ' + amount + ' you share as you like.' : ': share all ' + amount + ' as you like.');
  } else why = character + ' must share ' + amount + ' among the energies.';
  if (need < amount) why += ' Only ' + need + ' can be taken: the rest is more than ' + character + ' has left.';
  const g = group(key, character + ': ' + (gain ? 'share the regained energy' : 'share the loss'), why);
  g.body.className = 'kit-row it-split';
  const first = gain ? (items[0].command.split || {}) : safeSplit(need, room);
  /** @type {Record<string, ReturnType<typeof stepper>>} */
  const steppers = {};
  const total = h('p', 'it-total');
  total.setAttribute('aria-live', 'polite');
  const ch = v.characters.find((x) => x.name === character);
  const now = /** @type {Partial<Energies>} */ ((ch && ch.energy && ch.energy.current) || {});
  const preview = h('p', 'it-preview');
  preview.setAttribute('aria-live', 'polite');
  const go = button(g, gain ? 'Regain these' : 'Pay these', send, () => {
    /** @type {Record<string, number>} */
    const split = {};
    for (const t of TYPES) split[t] = steppers[t].get();
    const sum = TYPES.reduce((a, t) => a + split[t], 0);
    if (sum !== need) throw new Error('The parts must add up to ' + need + ' (now ' + sum + ').');
    return { type: type, character: character, split: split };
  }, true);
  // What the loser's own matched stance already takes from each type (the fixed part): the
  // energy each type has now, less what it has left to share.
  const fixed = Object.fromEntries(TYPES.map((t) => [t, !gain && room[t] != null ? Math.max(0, (now[t] || 0) - room[t]) : 0]));
  const update = () => {
    const sum = TYPES.reduce((a, t) => a + (steppers[t] ? steppers[t].get() : 0), 0);
    preview.replaceChildren(...splitPreview(now, fixed, steppers, gain));
    total.textContent = 'Shared ' + sum + ' of ' + need + (sum === need ? ' ✓' : sum < need ? ' — ' + (need - sum) + ' more to place' : ' — ' + (sum - need) + ' too many');
    total.className = 'it-total' + (sum === need ? ' ok' : '');
    go.disabled = sum !== need;
  };
  for (const t of TYPES) {
    const max = room[t] != null ? room[t] : need;
    steppers[t] = stepper(key + ':' + t, cap(t) + (gain ? ' (up to ' + max + ')' : ' (has ' + max + ')'), 0, max, first[t] || 0, update);
    steppers[t].classList.add('it-' + t);
    g.body.append(steppers[t]);
  }
  g.body.append(total, preview, go);
  update();
  return g.g;
}

// A loss shared so that no type reaches 0 while another can still take it: one point at a
// time from the type with the most left. A type at 0 takes a zero mark and allows no stance.
/** @param {number} need @param {Partial<Energies>} room @returns {Record<string, number>} */
function safeSplit(need, room) {
  const left = Object.fromEntries(TYPES.map((t) => [t, room[t] != null ? room[t] : need]));
  const out = Object.fromEntries(TYPES.map((t) => [t, 0]));
  for (let i = 0; i < need; i++) {
    const t = TYPES.filter((x) => left[x] > 0).sort((a, b) => left[b] - left[a])[0];
    if (!t) break;
    out[t]++;
    left[t]--;
  }
  return out;
}

// What the split does, type by type, with the fixed part already counted: "Attack 5 → 2 (1 for
// the stance)", and a warning for every type that reaches 0 (a zero mark), the fixed part's too.
/**
 * @param {Partial<Energies>} now
 * @param {Record<string, number>} fixed
 * @param {Record<string, { get(): number }>} steppers
 * @param {boolean} gain
 */
function splitPreview(now, fixed, steppers, gain) {
  /** @type {Array<Node | string>} */
  const parts = [h('b', null, 'After: ')];
  /** @type {string[]} */
  const zero = [];
  TYPES.forEach((t, i) => {
    const x = steppers[t] ? steppers[t].get() : 0;
    const was = now[t] || 0;
    const paid = fixed[t] || 0;
    const after = gain ? was + x : Math.max(0, was - paid - x);
    if (!gain && was > 0 && after === 0) zero.push(cap(t));
    parts.push((i ? ' · ' : '') + cap(t) + ' ' + was + (after !== was ? ' → ' + after : '') + (paid ? ' (' + paid + ' for the stance)' : ''));
  });
  if (zero.length) {
    parts.push(h('span', 'it-warn', ' ⚠ ' + kit.andList(zero) + ' would reach 0: a zero mark, and no stance in ' +
      (zero.length === 1 ? 'that type' : 'those types') + ' until it recovers.'));
  }
  return parts;
}

// Rename any move of a character this seat controls; an empty name is refused here and by
// the rules (IT-7).
/** @param {View} v @param {Update} update @param {Send} send */
function renameGroup(v, update, send) {
  const mine = v.characters.filter((c) => c.controller === update.seat && !c.sheet_hidden && (c.moves || []).length);
  if (!mine.length) return null;
  const key = 'rename';
  const g = group(key, 'Rename a move', 'Give any of your moves a name of your own.');
  const opts = [];
  for (const c of mine) for (const m of /** @type {KnownMove[]} */ (c.moves)) opts.push([c.name + '|' + m.move, (mine.length > 1 ? c.name + ': ' : '') + m.name + ' (' + moveWords(m.move) + ')']);
  const which = select(key + ':which', opts, opts[0][0], 'move to rename');
  const name = input(key + ':name', 'text', 'New name', '', { maxlength: '60' });
  g.body.append(which, name, button(g, 'Rename', send, () => {
    const [character, move] = which.value.split('|');
    const text = name.value.trim();
    if (!text) throw new Error('Write the new name first: a move cannot go without a name (IT-7).');
    memo.values[key + ':name'] = '';
    return command({ type: 'rename_move', character: character, move: move, name: text });
  }));
  return g.g;
}

// Rest (IT-31): a full or short rest, or a breather where each PC gets back one energy type
// of its own choosing.
/** @param {View} v @param {ItemOf<'rest'>[]} items @param {Send} send */
function restGroup(v, items, send) {
  const g = group('rest', 'Rest', 'A breather gives each PC back one energy type; short and full rests give back more.');
  /** @type {Record<string, string>} */
  const kinds = { full_rest: 'Full rest', short_rest: 'Short rest' };
  for (const it of items.filter((x) => kinds[x.command.kind])) g.body.append(button(g, kinds[it.command.kind], send, () => it.command));
  const breather = items.find((x) => x.command.kind === 'breather');
  if (breather) {
    /** @type {Record<string, HTMLSelectElement>} */
    const picks = {};
    const row = h('div', 'kit-row');
    for (const name of Object.keys(breather.command.picks || {})) {
      picks[name] = select('rest:' + name, TYPES.map((t) => [t, name + ' gets back ' + cap(t)]), breather.command.picks[name], name + ': energy to get back');
      row.append(picks[name]);
    }
    g.body.append(row, button(g, 'Take a breather', send, () => {
      /** @type {Record<string, any>} */
      const out = {};
      for (const [n, sel] of Object.entries(picks)) out[n] = sel.value;
      return command({ type: 'rest', kind: 'breather', picks: out });
    }));
  }
  return g.g;
}

// Problem option: option 1–4 with the trait it rests on, as the engine offers them.
/** @param {ItemOf<'choose_option'>[]} items @param {Send} send */
function optionGroup(items, send) {
  const key = 'choose_option';
  const g = group(key, 'Your secret option', 'Hidden from the others until everyone has picked.');
  /** @param {{ option: ProblemOption, trait: TraitKind | null }} c */
  const label = (c) => 'Option ' + optionText(c.option, c.trait);
  const sel = select(key + ':which', items.map((it, i) => [String(i), label(it.command)]), '0', 'option');
  g.body.append(sel, button(g, 'Choose', send, () => items[Number(sel.value)].command, true));
  return g.g;
}


// Commands of the campaign around the conflicts: drawn in their own section, never folded away.
const CAMPAIGN = new Set(['rest', 'create_countdown', 'mark_countdown', 'narrate_countdown', 'erase_countdown', 'open_problem',
  'end_session', 'start_session', 'level_up', 'mark_goal', 'rewrite_traits', 'change_background', 'create_character',
  'create_replacement', 'keep_character', 'send_back_character', 'reveal_npc', 'recover_npc', 'rename_move']);

/** @param {Update} update @returns {ByType} */
function byTypeOf(update) {
  /** @type {ByType} */
  const byType = new Map();
  for (const it of update.legal) {
    const t = it.command.type;
    if (!byType.has(t)) byType.set(t, []);
    /** @type {Item[]} */ (byType.get(t)).push(it);
  }
  return byType;
}

/**
 * @template {{ command: { character: string } }} I
 * @param {I[]} items
 * @returns {Map<string, I[]>}
 */
function perCharacter(items) {
  /** @type {Map<string, I[]>} */
  const m = new Map();
  for (const it of items) {
    const c = it.command.character;
    if (!m.has(c)) m.set(c, []);
    /** @type {I[]} */ (m.get(c)).push(it);
  }
  return m;
}

// What this seat does now in the conflict or the problem at hand.
/** @param {Update} update @param {Send} send */
function controls(update, send) {
  const v = update.view;
  const box = h('div', 'it-controls');
  const byType = byTypeOf(update);
  const order = ['join_conflict', 'sit_out', 'refuse_lethal', 'pick_active', 'pick_opponent', 'end_chain', 'take_stance', 'play_move',
    'play_special', 'pass_window', 'drunken_swap', 'split_loss', 'split_gain', 'kill_surrendered', 'spare_surrendered',
    'narrate_conflict', 'choose_option', 'pass_problem', 'pick_decider', 'narrate_outcome', 'reject_narration', 'veto', 'pick_veto', 'close_problem',
    'start_conflict', 'settle_conflict'];
  const types = [...byType.keys()].filter((t) => !CAMPAIGN.has(t)).sort((a, b) => {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  for (const type of types) {
    const items = /** @type {Item[]} */ (byType.get(type));
    if (type === 'take_stance') for (const [ch, its] of perCharacter(/** @type {ItemOf<'take_stance'>[]} */ (items))) box.append(stanceGroup(v, ch, its, send));
    else if (type === 'play_move') for (const [ch, its] of perCharacter(/** @type {ItemOf<'play_move'>[]} */ (items))) box.append(moveGroup(v, ch, its, send));
    else if (type === 'split_loss' || type === 'split_gain') for (const [ch, its] of perCharacter(/** @type {ItemOf<'split_loss' | 'split_gain'>[]} */ (items))) box.append(splitGroup(v, type, ch, its, send));
    else if (type === 'choose_option') box.append(optionGroup(/** @type {ItemOf<'choose_option'>[]} */ (items), send));
    else if (type === 'pass_window' && items.length > 1) box.append(passAllGroup(/** @type {ItemOf<'pass_window'>[]} */ (items), send), genericGroup(v, type, items, send));
    else box.append(genericGroup(v, type, items, send));
  }
  if (!box.childNodes.length && update.seat) {
    const c = v.conflict;
    const running = c && !c.outcome;
    box.append(h('p', 'hint', running ? 'Nothing for you to do in the conflict right now — waiting for ' +
      ((c.waiting_for && c.waiting_for.length) ? waitingFor(v, c.waiting_for) : 'the others') + '.'
      : 'No conflict is under way. What the campaign offers now is below.'));
  }
  return box;
}

// ----- the campaign: rests, countdowns, problems, sessions and level-ups, characters -----

/** @param {string} title @param {string | null} hint @param {...(Node | null | undefined)} children */
function part(title, hint, ...children) {
  const kids = children.filter(Boolean);
  if (!kids.length) return null;
  const p = h('section', 'it-part', h('h3', null, title), hint ? h('p', 'hint', hint) : null, ...kids);
  p.dataset.part = title;
  return p;
}

// Countdowns as cards; the GM's buttons on each (IT-13, IT-14), and a new one.
/** @param {View} v @param {ByType} byType @param {Send} send */
function countdownPart(v, byType, send) {
  const cards = countdowns(v) || h('div', 'it-cards');
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (cards.querySelectorAll('[data-countdown]'))) {
    const name = card.dataset.countdown || '';
    /** @param {string} type */
    const pick = (type) => (byType.get(type) || []).find((it) => /** @type {{ name?: string }} */ (it.command).name === name);
    const g = group('cd:' + name, null, null);
    const mark = pick('mark_countdown');
    if (mark) g.body.append(button(g, 'Mark a box', send, () => mark.command));
    const narrate = pick('narrate_countdown');
    if (narrate) {
      const text = input('cd:' + name + ':what', 'text', 'What comes to pass (never a PC’s death)', '', { maxlength: '2000' });
      g.body.append(text, button(g, 'Narrate', send, () => {
        if (!text.value.trim()) throw new Error('Say what comes to pass (IT-14).');
        return command({ type: 'narrate_countdown', name: name, consequences: text.value.trim() });
      }, true));
    }
    const erase = pick('erase_countdown');
    if (erase) g.body.append(confirmButton(g, 'Erase (threat stopped)', 'Erase ' + name + '? The threat is stopped.', send, () => erase.command));
    if (g.body.childNodes.length) card.append(g.g);
  }
  let add = null;
  if (byType.has('create_countdown')) {
    const g = group('cd:new', 'New countdown', 'A threat the players can see coming: 4 to 8 boxes.');
    const name = input('cd:new:name', 'text', 'What is coming', '', { maxlength: '60' });
    const boxes = stepper('cd:new:boxes', 'Boxes', 4, 8, 6);
    g.body.append(name, boxes, button(g, 'Create the countdown', send, () => {
      if (!name.value.trim()) throw new Error('Name the countdown.');
      const cmd = command({ type: 'create_countdown', name: name.value.trim(), boxes: boxes.get() });
      memo.values['cd:new:name'] = '';
      return cmd;
    }, true));
    add = g.g;
  }
  return part('Countdowns', null, cards.childNodes.length ? cards : null, add);
}

/** @param {ByType} byType @param {Send} send */
function problemPart(byType, send) {
  if (!byType.has('open_problem')) return null;
  const g = group('problem:new', 'Open a problem', 'The players pick options in secret; the highest decides. Whether a problem is just being tried again is yours to judge.');
  const text = input('problem:new:text', 'text', 'What stands in the way', '', { maxlength: '2000' });
  g.body.append(text, button(g, 'Open the problem', send, () => {
    if (!text.value.trim()) throw new Error('Describe the problem.');
    const cmd = command({ type: 'open_problem', description: text.value.trim() });
    memo.values['problem:new:text'] = '';
    return cmd;
  }, true));
  return part('Problems', null, g.g);
}

/** @type {Record<string, string>} */
const KINDS = { learn_move: 'Learn a move', combo_edits: 'Edit combos (up to two)', energy: '+1 maximum energy in a type that hit 0', learn_special: 'Learn a special' };
/** @type {Record<string, string>} */
const REFILLS = { background_points: 'Refill background points', veto: 'Get the veto back', '': 'No refill' };

// One character's level-up (IT-60 … IT-63): an improvement of the kinds the rules allow now,
// and what to refill.
/**
 * @param {View} v
 * @param {string} character
 * @param {ItemOf<'level_up'>[]} items
 * @param {Send} send
 */
function levelUpGroup(v, character, items, send) {
  const key = 'lvl:' + character;
  const g = group(key, character + ': level up', 'One improvement, and a refill.');
  const kinds = [...new Set(items.map((it) => it.command.improvement.kind))];
  const kind = select(key + ':kind', kinds.map((k) => [k, KINDS[k] || words(k)]), kinds[0], 'Improvement');
  const redraw = () => redrawPanel('iron-triangle');
  kind.addEventListener('change', redraw);
  g.body.append(kind);
  /**
   * The improvements of one kind on offer.
   * @template {Improvement['kind']} K
   * @param {K} k
   * @returns {Extract<Improvement, { kind: K }>[]}
   */
  const of = (k) => /** @type {Extract<Improvement, { kind: K }>[]} */ (items.filter((it) => it.command.improvement.kind === k).map((it) => it.command.improvement));
  const chosen = kind.value;
  /** @type {() => object} the improvement, as the form reads it */
  let build;
  if (chosen === 'learn_move') {
    const moves = [...new Set(of('learn_move').map((i) => i.move))];
    const mv = select(key + ':move', moves.map((m) => [m, moveWords(m) || m]), moves[0], 'Move to learn');
    const name = input(key + ':name', 'text', 'Name it', '', { maxlength: '60' });
    g.body.append(mv, name);
    build = () => {
      if (!name.value.trim()) throw new Error('Name the new move.');
      return { kind: 'learn_move', move: mv.value, name: name.value.trim() };
    };
  } else if (chosen === 'energy') {
    const acts = [...new Set(of('energy').map((i) => i.action))];
    const a = select(key + ':action', acts.map((x) => [x, cap(x)]), acts[0], 'Energy type');
    g.body.append(a);
    build = () => ({ kind: 'energy', action: a.value });
  } else if (chosen === 'learn_special') {
    const specials = of('learn_special').map((i) => i.special);
    const sp = select(key + ':special', specials.map((x, i) => [String(i), fmt(x)]), '0', 'Special');
    g.body.append(sp);
    build = () => ({ kind: 'learn_special', special: specials[Number(sp.value)] });
  } else {
    const c = /** @type {Partial<CharacterView>} */ (v.characters.find((x) => x.name === character) || {});
    const known = (c.moves || []).map((m) => [m.move, m.name]);
    const none = [['', '—']];
    const edits = [0, 1].map((i) => {
      const from = select(key + ':from' + i, none.concat(known), i ? '' : (known[0] || [''])[0], 'Combo from');
      const to = select(key + ':to' + i, none.concat(known), '', 'Followup');
      const replaces = select(key + ':rep' + i, none.concat(known), '', 'Replacing (optional)');
      g.body.append(h('div', 'kit-row', h('span', null, (i ? 'And from' : 'From')), from, h('span', null, 'to'), to, h('span', null, 'replacing'), replaces));
      return () => (from.value && to.value ? Object.assign({ from: from.value, followup: to.value }, replaces.value ? { replaces: replaces.value } : {}) : null);
    });
    build = () => {
      const list = edits.map((e) => e()).filter(Boolean);
      if (!list.length) throw new Error('Choose at least one combo edit: a move it starts from and a followup.');
      return { kind: 'combo_edits', edits: list };
    };
  }
  const refills = [...new Set(items.map((it) => it.command.refill || ''))];
  const refill = select(key + ':refill', refills.map((r) => [r, REFILLS[r] || words(r)]), refills[0], 'Refill');
  g.body.append(refill, button(g, 'Level up', send, () => {
    /** @type {{ type: 'level_up', character: string, improvement: object, refill?: string }} */
    const cmd = { type: 'level_up', character: character, improvement: build() };
    if (refill.value) cmd.refill = refill.value;
    return cmd;
  }, true));
  return g.g;
}

// Rewrite a belief, flaw or goal at a session's end (IT-64): only what changed is sent.
/** @param {View} v @param {string} character @param {Send} send */
function rewriteGroup(v, character, send) {
  const key = 'rewrite:' + character;
  const c = /** @type {Partial<CharacterView>} */ (v.characters.find((x) => x.name === character) || {});
  const g = group(key, character + ': rewrite traits', 'A mark stays with the rewritten trait.');
  /** @type {Record<string, HTMLInputElement>} */
  const fields = {};
  for (const t of /** @type {const} */ (['belief', 'flaw', 'goal'])) {
    fields[t] = input(key + ':' + t, 'text', cap(t), /** @type {{ text?: string }} */ (c[t] || {}).text || '', { maxlength: '2000' });
    g.body.append(fields[t]);
  }
  g.body.append(button(g, 'Rewrite', send, () => {
    /** @type {Record<string, string>} */
    const cmd = { type: 'rewrite_traits', character: character };
    for (const t of /** @type {const} */ (['belief', 'flaw', 'goal'])) if (fields[t].value.trim() !== (/** @type {{ text?: string }} */ (c[t] || {}).text || '')) cmd[t] = fields[t].value.trim();
    if (Object.keys(cmd).length === 2) throw new Error('Change a belief, a flaw or the goal first.');
    return cmd;
  }));
  return g.g;
}

/** @param {View} v @param {ByType} byType @param {Send} send */
function sessionPart(v, byType, send) {
  const parts = [];
  for (const type of ['end_session', 'start_session']) if (byType.has(type)) parts.push(genericGroup(v, type, /** @type {Item[]} */ (byType.get(type)), send));
  for (const [ch, its] of perCharacter(/** @type {ItemOf<'level_up'>[]} */ (byType.get('level_up') || []))) parts.push(levelUpGroup(v, ch, its, send));
  if (byType.has('mark_goal')) parts.push(genericGroup(v, 'mark_goal', /** @type {Item[]} */ (byType.get('mark_goal')), send));
  for (const ch of perCharacter(/** @type {ItemOf<'rewrite_traits'>[]} */ (byType.get('rewrite_traits') || [])).keys()) parts.push(rewriteGroup(v, ch, send));
  if (byType.has('change_background')) parts.push(genericGroup(v, 'change_background', /** @type {Item[]} */ (byType.get('change_background')), send));
  const cp = v.campaign || {};
  return part('Session ' + (cp.session || 1) + (cp.session_ending ? ' — ending: level-ups and rewrites' : ''),
    cp.session_ending ? 'A PC with three yes marks levels up before the next session.' : null, ...parts);
}

// Make a character with the same form as session zero: a player's own PC, a replacement for a
// dead one (IT-66), or the GM's NPC (established sheets allowed).
/** @param {View} v @param {Update} update @param {ByType} byType @param {Send} send */
function characterPart(v, update, byType, send) {
  
  const forms = ClashForms.get('iron-triangle');
  const parts = [];
  const gm = update.seat === 'gm';
  // The GM may make an NPC at any time (IT-1); a player while it has no living PC.
  if (K && forms && (gm || byType.has('create_character'))) {
    const g = group('create', gm ? 'Make an NPC' : 'Make your character', gm
      ? 'With the same form your players use; an NPC may be established (a level, more moves, combos, specials). Your library of NPCs is kept in this browser.'
      : 'Ten energy, three background points, a belief, a flaw and a goal, and your three starting moves named. You hand it in; the GM keeps it or sends it back.');
    const b = h('button', 'kit-go it-go', gm ? 'Make an NPC…' : 'Make your character…');
    b.type = 'button';
    b.dataset.action = 'create-character';
    b.addEventListener('click', () => K.sheetDialog({
      key: 'it-create-' + update.seat, ruleset: 'iron-triangle', maker: gm ? 'gm' : 'player',
      title: gm ? 'Make an NPC' : 'Make your character', submitLabel: gm ? 'Create the NPC' : 'Hand in my character',
      intro: 'Every field is checked against the rules as you fill it in.',
      submit: (sheet, extra, err) => table.send(command({ type: 'create_character', sheet: Object.assign({}, sheet, { controller: update.seat }) }), err),
    }).open());
    g.body.append(b);
    parts.push(g.g);
  }
  const reps = /** @type {ItemOf<'create_replacement'>[]} */ (byType.get('create_replacement') || []);
  if (K && forms && reps.length) {
    const g = group('replace', 'Make a replacement', 'A new PC who carries on your dead character’s tradition, starting at up to their level.');
    const b = h('button', 'kit-go it-go', 'Make a replacement…');
    b.type = 'button';
    b.dataset.action = 'create-replacement';
    b.addEventListener('click', () => K.sheetDialog({
      key: 'it-replace-' + update.seat, ruleset: 'iron-triangle', maker: 'player',
      title: 'Make a replacement', submitLabel: 'Hand in the replacement',
      intro: 'Your new character starts at level 0 and then takes its level-ups from the dead character’s moves and combos.',
      extra: (box) => {
        const dead = [...new Set(reps.map((it) => it.command.replaces))];
        const who = K.select(dead.map((d) => [d, 'Replacing ' + d]), dead[0], 'Replacing');
        const max = Math.max(...reps.map((it) => it.command.level));
        const level = K.stepper('Starting level', 0, max, max);
        box.append(K.field('replaces', 'Whose tradition', who), K.field('level', null, level));
        return () => ({ replaces: who.value, level: level.get() });
      },
      submit: (sheet, extra, err) => table.send(Object.assign({ type: 'create_replacement', sheet: Object.assign({}, sheet, { controller: update.seat }) }, extra), err),
    }).open());
    g.body.append(b);
    parts.push(g.g);
  }
  for (const type of ['reveal_npc', 'recover_npc']) if (byType.has(type)) parts.push(genericGroup(v, type, /** @type {Item[]} */ (byType.get(type)), send));
  if (byType.has('rename_move')) parts.push(renameGroup(v, update, send));
  return part('Characters', null, ...parts);
}

// A player's character made during play, handed in: the GM keeps it or sends it back with a
// comment, as in session zero; its player sees it waiting.
/**
 * @param {HandedIn} it
 * @param {Update} update
 * @param {ReturnType<typeof ClashForms.get>} forms
 * @param {ByType} byType
 * @param {Send} send
 */
function handedInGroup(it, update, forms, byType, send) {
  const who = kit.seatName(update, it.seat);
  const name = it.sheet.name;
  const key = 'handed:' + it.seat;
  const g = group(key, name + ', handed in by ' + who, update.seat === 'gm'
    ? 'Read the sheet: keep it and ' + name + ' joins the table, or send it back saying what to change.'
    : (update.seat === it.seat ? 'With the GM, who keeps it or sends it back.' : 'Waiting for the GM.'));
  g.g.dataset.seat = it.seat;
  // (A thrown error, a missing card among them, leaves the card out.)
  if (forms) { try { g.body.append(/** @type {NonNullable<typeof forms.card>} */ (forms.card)(it.sheet, 'player')); } catch (e) { /* shown as the log's line */ } }
  const keep = /** @type {ItemOf<'keep_character'>[]} */ (byType.get('keep_character') || []).find((x) => x.command.seat === it.seat);
  if (keep) g.body.append(button(g, 'Keep ' + name, send, () => keep.command));
  if (/** @type {ItemOf<'send_back_character'>[]} */ (byType.get('send_back_character') || []).some((x) => x.command.seat === it.seat)) {
    const comment = input(key + ':comment', 'text', 'What to change', '', { maxlength: '500' });
    g.body.append(comment, button(g, 'Send back', send, () => {
      const text = comment.value.trim();
      if (!text) throw new Error('Say what to change first: the player reads it with the sheet.');
      memo.values[key + ':comment'] = '';
      return command({ type: 'send_back_character', seat: it.seat, comment: text });
    }));
  }
  return g.g;
}

/** @param {Update} update @param {Send} send */
function campaign(update, send) {
  const v = update.view;
  const byType = update.seat ? byTypeOf(update) : new Map();
  const c = v.conflict;
  const running = c && !c.outcome;
  const rest = byType.has('rest') ? part('Rest', 'The conflict is over: the party may rest once.', restGroup(v, /** @type {ItemOf<'rest'>[]} */ (byType.get('rest')), send)) : null;
  const forms = ClashForms.get('iron-triangle');
  const handed = ((v.campaign && v.campaign.handed_in) || []).map((it) => handedInGroup(it, update, forms, byType, send));
  const review = part('Characters handed in', null, ...handed);
  const sections = [review, rest, countdownPart(v, byType, send), problemPart(byType, send), sessionPart(v, byType, send), characterPart(v, update, byType, send)].filter(Boolean);
  if (!sections.length) return null;
  const box = h('section', 'it-campaign', h('h3', null, running ? 'The campaign' : 'Between conflicts'), ...sections);
  box.id = 'it-campaign';
  return box;
}

// A GM asked at W5 for several idle NPCs (asked so that asking reveals no Yojimbo) closes the
// window for all of them with one click: the passes are sent one after another.
/** @param {ItemOf<'pass_window'>[]} items @param {Send} send */
function passAllGroup(items, send) {
  const g = group('pass-all', 'No special from any of them now', null);
  const names = items.map((it) => it.command.character).join(', ');
  /** @param {Command[]} commands @param {HTMLElement | null} [err] */
  const sendAll = async (commands, err) => {
    for (const c of commands) if (!(await send(c, err))) return false;
    return true;
  };
  // (`sendAll` is given what the build returns: the list.)
  g.body.append(button(g, 'All pass (' + names + ')', /** @type {Send} */ (sendAll), () => items.map((it) => it.command), true));
  return g.g;
}

/** @param {View} v */
function summary(v) {
  const cp = v.campaign || {};
  const bits = [h('span', 'pill', 'Session ' + cp.session + (cp.session_ending ? ' · ending' : ''))];
  if (cp.rests && cp.rests.due) bits.push(h('span', 'pill it-adv', 'The party may rest' + (cp.rests.breather_used ? ' · breather taken' : '') + (cp.rests.short_rest_used ? ' · short rest taken' : '')));
  for (const r of cp.replacements || []) bits.push(h('span', 'pill', r.character + ' replaces ' + r.replaces + ': ' + r.levels_left + ' level-ups left'));
  return h('div', 'it-pills', ...bits);
}

// The steps of a turn whose choices the board keeps while the player makes up their mind.
/** @type {Record<string, string>} */
const STEPS = { take_stance: 'stance', play_move: 'move', split_loss: 'split_loss', split_gain: 'split_gain' };

// A step no longer asked for forgets what was chosen in it, so the next turn starts clean: the
// stance picker at "No stance", no move card chosen, a split at its suggestion.
/** @param {Update} update */
function forgetDone(update) {
  const asked = update.legal.map((l) => l.command).filter((c) => STEPS[c.type]).map((c) => STEPS[c.type] + ':' + /** @type {{ character?: string }} */ (c).character);
  for (const k of Object.keys(memo.values)) {
    if (!/^(stance|move|split_loss|split_gain):/.test(k)) continue;
    if (!asked.some((a) => k === a || k.startsWith(a + ':'))) delete memo.values[k];
  }
}

register('iron-triangle', function (update, send) {
  const v = /** @type {View} */ (update.view);
  if (!v || !Array.isArray(v.characters)) return null;
  forgetDone(update);
  // The start form begins afresh for every conflict: nothing ticked last time carries over.
  if (v.conflict) for (const k of Object.keys(memo.values)) if (k.startsWith('g:start_conflict')) delete memo.values[k];

  const sheets = h('div', 'it-chars');
  for (const c of v.characters) sheets.append(sheet(v, c, update.seat));
  // Phone first: what this seat can do comes first, then the duel, then the rest of the table.
  const root = h('div', 'it', summary(v));
  if (update.seat) root.append(controls(update, send));
  put(root, conflict(v), problem(v), campaign(update, send), h('h3', null, 'Characters'), sheets);
  return root;
});
