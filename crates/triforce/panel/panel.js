// Triforce's board: the triangle of 15 stacks with every pyramid drawn at its size and in its
// player's colour, a legend naming the players, and the whole turn played on the board — tap
// your home to place, tap one of your top pieces and then a ringed destination to move, tap a
// crowded stack to fight there, tap a piece of the stack to swap it for a sword or a shield —
// with the dice of every combat and who lost what. Every text goes in as text nodes.
import { panelFor } from '../kit.js';
import * as kit from '../kit.js';

/** @typedef {import('../types/triforce/View').View} View the seat's view of the game */
/** @typedef {import('../types/triforce/Command').Command} Command what the board sends */
/** @typedef {import('../types/triforce/PositionView').PositionView} Position a stack on the board */
/** @typedef {import('../types/triforce/Battle').Battle} Battle */
/** @typedef {import('../types/triforce/ExchangeOptions').ExchangeOptions} ExchangeOptions */
/** @typedef {import('../types/triforce/Size').Size} Size */
/** @typedef {import('../types/triforce/SizeCounts').SizeCounts} SizeCounts */
/** @typedef {import('../kit.js').Update<View, Command>} Update */
/** @typedef {import('../kit.js').Send} Send */
/** @typedef {{ kind: string, say: string, run: () => unknown }} TapAction what a tap on a stack does */
/** @typedef {ReturnType<typeof context>} Context what the seat may do now */
/** @typedef {{ seat: string, gear: string, loses: import('../kit.js').Chance }} FighterOdds */
/** @typedef {{ swap?: { take?: FighterOdds[], decline?: FighterOdds[] }, fights?: Array<{ at: number, fighters: FighterOdds[] }> }} Odds the odds the server sends this board */

/**
 * A command as the rules take it: tsc checks every command this board builds against the
 * game's own type (generated from the Rust one).
 * @param {Command} c
 * @returns {Command}
 */
const command = (c) => c;

const { memo, h, group, button, register, odds } = kit.make('tf', {
  /** @type {Array<Battle & { index: number }>} the battles this page has seen, as their events */
  battles: [],
  /** @type {Set<number>} */
  seenBattle: new Set(),
  /** @type {number | null} the origin picked for a move */
  chosen: null,
  homeOpen: false, // the placement chooser opened by tapping home
  /** @type {number | null} a stack opened to see every piece in it */
  expanded: null,
  /** @type {string | null} why the last tap on the board did nothing */
  refused: null,
  /** @type {number | null} the stack the keyboard is on (the board's one Tab stop) */
  cursor: null,
});
const { svg, die, seatName, percent } = kit;

// A pyramid seen from the side: a triangle whose height and width grow with its size.
/** @type {Record<string, number[]>} */
const PYRAMID = { S: [18, 16], M: [24, 22], L: [30, 28] };
/**
 * @param {string} size
 * @param {number} x
 * @param {number} baseY
 * @param {string} fill
 * @param {string} [stroke]
 * @param {number} [scale]
 */
function pyramidShape(size, x, baseY, fill, stroke, scale) {
  const k = scale || 1;
  const [w, hgt] = (PYRAMID[size] || PYRAMID.M).map((n) => n * k);
  return svg('polygon', {
    points: [x - w / 2, baseY, x + w / 2, baseY, x, baseY - hgt].map((n) => n.toFixed(1)).join(' '),
    fill: fill, stroke: stroke || '#222', 'stroke-width': 1.2, 'stroke-linejoin': 'round',
  });
}

// Each colour also has a letter drawn on every piece, for players who cannot tell the colours.
const COLOURS = [
  ['#d33b3b', 'Red', 'R'], ['#2e8b57', 'Green', 'G'], ['#2f5fd0', 'Blue', 'B'],
  ['#d59a00', 'Yellow', 'Y'], ['#8e44ad', 'Purple', 'P'], ['#139a9a', 'Teal', 'T'],
];
/** @type {Record<string, string>} */
const SIZE_WORD = { S: 'small', M: 'medium', L: 'large' };
const SWORD = '#1f1f1f';
const SHIELD = '#d9f2fb';


/** @param {string | null | undefined} seat */
const seatIndex = (seat) => Number(String(seat).replace(/^p/, '')) - 1;
/** @param {string | null | undefined} seat */
const colourOf = (seat) => (COLOURS[seatIndex(seat)] || ['#777', 'Grey', '?']);

// A sword (blade, guard and grip) or a shield (a heater shield), drawn with lines rather than a
// font's glyph, so it shows the same in every browser. (x, y) is its centre; k its scale.
/** @param {string} kind @param {number} x @param {number} y @param {number} [k] */
function gearMark(kind, x, y, k) {
  const s = k || 1;
  const g = svg('g', { class: 'tf-mark ' + kind, transform: 'translate(' + x + ' ' + y + ') scale(' + s + ')' });
  if (kind === 'sword') {
    g.append(svg('path', { d: 'M0,-6 L0,4 M-3.5,2 L3.5,2 M0,4 L0,6.5', class: 'tf-sword-lines' }));
  } else {
    g.append(svg('path', { d: 'M-4,-5 L4,-5 L4,0 Q4,4 0,6 Q-4,4 -4,0 Z', class: 'tf-shield-shape' }));
  }
  return g;
}

// A pyramid's parts: "p2-M" is Player 2's medium, "K-S" a small sword, "C-L" a large shield.
/**
 * @param {string} code
 * @returns {{ kind: 'sword' | 'shield' | 'white', seat?: undefined, size: string, fill: string } | { kind: 'piece', seat: string, size: string, fill: string }}
 */
function piece(code) {
  const [who, size] = String(code).split('-');
  if (who === 'K') return { kind: 'sword', size, fill: SWORD };
  if (who === 'C') return { kind: 'shield', size, fill: SHIELD };
  if (who === 'W') return { kind: 'white', size, fill: '#ffffff' };
  return { kind: 'piece', seat: who, size, fill: colourOf(who)[0] };
}

/** @param {Update} update @param {string} code */
function pieceWords(update, code) {
  const p = piece(code);
  if (p.kind === 'sword') return 'a ' + SIZE_WORD[p.size] + ' sword';
  if (p.kind === 'shield') return 'a ' + SIZE_WORD[p.size] + ' shield';
  // Seat names already say the colour ("Red", "Ada (Red)").
  return kit.poss(seatName(update, p.seat)) + ' ' + SIZE_WORD[p.size] + ' pyramid';
}

// Battles arrive as events: keep every one this page has seen (the first update holds the
// whole log), so the combat log reads back over the game.
/** @param {Update} update */
function noteBattles(update) {
  for (const ev of update.events || []) {
    if (memo.seenBattle.has(ev.index) || !ev.event || /** @type {{ type?: string }} */ (ev.event).type !== 'battle') continue;
    memo.seenBattle.add(ev.index);
    memo.battles.push(Object.assign({ index: ev.index }, /** @type {Battle} */ (ev.event)));
  }
  memo.battles.sort((a, b) => a.index - b.index);
}

// ----- the board -----

/** @param {{ row: number, col: number }} p */
const at = (p) => [230 + (p.col - 1) * 88 - (p.row - 1) * 44, 62 + (p.row - 1) * 92];

// A stack drawn bottom to top: the white at the base, then every pyramid above it, each one
// raised a little so the band of every piece stays visible.
/** @param {SVGGElement} g @param {Position} p @param {number} x @param {number} y */
function drawStack(g, p, x, y) {
  const base = y + 32;
  g.append(pyramidShape(p.white, x, base, '#ffffff', '#8a94a3', 1.2));
  const n = p.stack.length;
  const step = n ? Math.min(13, 52 / n) : 0;
  p.stack.forEach((code, i) => {
    const pc = piece(code);
    const y0 = base - 2 - (i + 1) * step;
    const shape = pyramidShape(pc.size, x, y0, pc.fill, pc.kind === 'shield' ? '#3c8fb0' : '#1b1b1b', 1.25);
    if (pc.kind === 'shield') shape.setAttribute('fill-opacity', '0.85');
    g.append(shape);
    // The band of each piece that shows under the next one carries its second cue.
    const band = Math.max(6, Math.min(10, step));
    if (pc.kind === 'piece') g.append(svg('text', { x: x, y: y0 - 1.5, 'text-anchor': 'middle', class: 'tf-letter', 'font-size': band }, colourOf(pc.seat)[2]));
    else g.append(gearMark(pc.kind, x, y0 - band / 2, band / 13));
  });
}

// One piece drawn alone at a bigger size, with its letter or its sword or shield mark.
/** @param {string} code @param {number} [width] */
function pieceIcon(code, width) {
  const pc = piece(code);
  const w = width || 40;
  const pic = svg('svg', { viewBox: '0 0 48 46', width: w, height: Math.round(w * 46 / 48), 'aria-hidden': 'true' });
  pic.append(pyramidShape(pc.size, 24, 44, pc.fill, pc.kind === 'shield' ? '#3c8fb0' : '#1b1b1b', 1.4));
  if (pc.kind === 'piece') pic.append(svg('text', { x: 24, y: 40, 'text-anchor': 'middle', class: 'tf-letter', 'font-size': 13 }, colourOf(pc.seat)[2]));
  else if (pc.kind !== 'white') pic.append(gearMark(pc.kind, 24, 33, 1));
  return pic;
}

/** @param {Update} update @param {Position} p @param {View} v */
function stackLabel(update, p, v) {
  const home = p.home_of ? ', home of ' + seatName(update, p.home_of) : '';
  const pieces = p.stack.length ? p.stack.map((c) => pieceWords(update, c)).join(', then ') : 'nothing on it';
  const owner = p.bottom_player ? '; held by ' + seatName(update, p.bottom_player) : '';
  return 'Stack ' + p.n + ' (' + SIZE_WORD[p.white] + ' white' + home + '): from the bottom, ' + pieces + owner + (p.contested ? '; crowded: a fight is due' : '');
}

// The stack an arrow key leads to from `p`: along its row, or to the row above or below.
/** @param {View} v @param {Position} p @param {string} key */
function stepFrom(v, p, key) {
  /** @param {number} row @param {number} col */
  const at = (row, col) => v.positions.find((q) => q.row === row && q.col === col);
  switch (key) {
    case 'ArrowLeft': return at(p.row, p.col - 1);
    case 'ArrowRight': return at(p.row, p.col + 1);
    case 'ArrowUp': return at(p.row - 1, Math.min(p.col, p.row - 1));
    case 'ArrowDown': return at(p.row + 1, p.col);
    case 'Home': return v.positions[0];
    case 'End': return v.positions[v.positions.length - 1];
    default: return null;
  }
}

// The board is one Tab stop: the stack the keyboard is on takes the focus (your home at first),
// and the arrow keys move it from stack to stack.
/** @param {SVGSVGElement} board @param {number} n */
function moveCursor(board, n) {
  memo.cursor = n;
  for (const g of /** @type {NodeListOf<SVGGElement>} */ (board.querySelectorAll('g.tf-pos'))) g.setAttribute('tabindex', g.dataset.pos === String(n) ? '0' : '-1');
  const g = /** @type {SVGGElement | null} */ (board.querySelector('g.tf-pos[data-pos="' + n + '"]'));
  if (g) g.focus();
}

/** @param {Update} update @param {Context} ctx */
function board(update, ctx) {
  const v = update.view;
  const el = svg('svg', { viewBox: '0 0 460 472', class: 'tf-board', role: 'group',
    'aria-label': 'The board: 15 stacks in a triangle. One Tab stop: the arrow keys move from stack to stack.' });
  if (!v.positions.some((p) => p.n === memo.cursor)) memo.cursor = ctx.home || 1;
  for (const p of v.positions) {
    const [x, y] = at(p);
    for (const n of p.neighbours) {
      const q = v.positions[n - 1];
      if (q && q.n > p.n) {
        const [x2, y2] = at(q);
        el.append(svg('line', { x1: x, y1: y, x2: x2, y2: y2, class: 'tf-link' }));
      }
    }
  }
  for (const p of v.positions) {
    const [x, y] = at(p);
    const cls = ['tf-pos'];
    const action = ctx.actionAt(p.n);
    if (action) cls.push('tap', action.kind);
    if (memo.chosen === p.n) cls.push('chosen');
    if (p.contested) cls.push('contested');
    if (ctx.fightAt === p.n) cls.push('fighting');
    const g = svg('g', { class: cls.join(' '), 'data-pos': p.n });
    const ring = svg('circle', { class: 'ring', cx: x, cy: y, r: 40 });
    if (p.home_of) {
      ring.setAttribute('stroke', colourOf(p.home_of)[0]);
      ring.classList.add('home');
    }
    g.append(ring);
    g.append(svg('text', { x: x - 44, y: y - 30, class: 'tf-num' }, p.n));
    if (p.home_of) g.append(svg('text', { x: x + 40, y: y - 28, 'text-anchor': 'end', class: 'tf-home', fill: colourOf(p.home_of)[0] }, '⌂'));
    drawStack(g, p, x, y);
    if (p.stack.length > 1) g.append(svg('text', { x: x + 42, y: y + 38, 'text-anchor': 'end', class: 'tf-count' }, p.stack.length));
    // Named by its title (a stack's whole story), not aria-label: its visible text is only
    // the stack's number and marks, which no spoken label could repeat.
    const label = stackLabel(update, p, v) + (action ? '. ' + action.say : '. Tap to see every piece in it');
    g.append(svg('title', {}, label));
    // Every stack answers a tap: its action, else why not, else it opens to show each piece.
    g.setAttribute('tabindex', p.n === memo.cursor ? '0' : '-1');
    g.setAttribute('role', 'button');
    const go = () => { memo.cursor = p.n; return action ? action.run() : ctx.otherTap(p.n); };
    g.addEventListener('click', go);
    g.addEventListener('focus', () => { memo.cursor = p.n; });
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); return; }
      const next = stepFrom(v, p, e.key);
      if (next) { e.preventDefault(); moveCursor(el, next.n); }
    });
    if (memo.expanded === p.n) cls.push('expanded');
    g.setAttribute('class', cls.join(' '));
    el.append(g);
  }
  return el;
}

// ----- the legend: who is which colour, stashes, stacks held -----

/** @param {Update} update */
function legend(update) {
  const v = update.view;
  const box = h('div', 'tf-legend');
  // Your own row first: your colour, home and stash before the others'.
  const seats = v.seats.filter((s) => s.seat === update.seat).concat(v.seats.filter((s) => s.seat !== update.seat));
  for (const s of seats) {
    const [colour] = colourOf(s.seat);
    const swatch = svg('svg', { viewBox: '0 0 30 26', width: 30, height: 26, 'aria-hidden': 'true' });
    swatch.append(pyramidShape('L', 15, 25, colour));
    swatch.append(svg('text', { x: 15, y: 22, 'text-anchor': 'middle', class: 'tf-letter', 'font-size': 10 }, colourOf(s.seat)[2]));
    // The stash: a pyramid of each size drawn at its size with its count; a screen reader
    // hears the sizes in words ("stash: 4 small, 5 medium, 5 large"), not "×4 ×5 ×5".
    const stash = h('span', 'tf-stash', h('span', 'sr-only', 'stash: ' + /** @type {Size[]} */ (['S', 'M', 'L']).map((z) => s.stash[z] + ' ' + SIZE_WORD[z]).join(', ')));
    for (const size of /** @type {Size[]} */ (['S', 'M', 'L'])) {
      const pic = svg('svg', { viewBox: '0 0 22 22', width: 18, height: 18, 'aria-hidden': 'true' });
      pic.append(pyramidShape(size, 11, 21, colour));
      const count = h('span', null, '×' + s.stash[size]);
      count.setAttribute('aria-hidden', 'true');
      const each = h('span', 'tf-stash-size', pic, count);
      each.title = s.stash[size] + ' ' + SIZE_WORD[size];
      stash.append(each);
    }
    const row = h('div', 'tf-player' + (v.awaiting === s.seat ? ' turn' : '') + (update.seat === s.seat ? ' me' : ''),
      swatch,
      h('span', 'tf-name', h('b', null, seatName(update, s.seat)), h('small', null, (update.seat === s.seat ? 'you · ' : '') + 'home ' + s.home)),
      stash,
      h('span', 'tf-held', h('b', null, String(s.territory)), ' of ' + v.territory_target + ' stacks held'),
      s.pinned ? h('span', 'pill waiting', 'pinned') : null,
      v.awaiting === s.seat ? h('span', 'pill ready', v.phase.type === 'actions' ? 'to play' : 'to choose') : null);
    row.dataset.seat = s.seat;
    box.append(row);
  }
  /** @param {SizeCounts} counts @param {string} word */
  const supply = (counts, word) => /** @type {Size[]} */ (['S', 'M', 'L']).map((z) => counts[z] + ' ' + SIZE_WORD[z]).join(', ') + ' ' + word;
  box.append(h('p', 'hint tf-supply', 'Left in the supply: ' + supply(v.swords, 'swords') + ' · ' + supply(v.shields, 'shields') + '. You win holding the bottom of ' + v.territory_target + ' stacks.'));
  return box;
}

// ----- combat: the exchange window and the dice -----

/** @param {Update} update @param {Send} send */
function exchangeControls(update, send) {
  const v = update.view;
  // (Drawn only while an exchange is offered.)
  const ex = /** @type {ExchangeOptions} */ (v.legal.exchange);
  const p = v.positions[ex.at - 1];
  const sword = ex.kind === 'sword';
  const g = group('exchange', (sword ? 'Take a sword' : 'Take a shield') + ' at stack ' + ex.at + '?',
    sword ? 'As top player you may give up one of your pieces (not your highest) for a black sword of its size: in the fight you roll your d12 plus the black d12, and a tie does not beat you. Tap the piece to give up.'
      : 'As bottom player you may give up one of your pieces (not your lowest) for a clear shield of its size: in the fight you roll the d20 alone, but a tie for lowest beats you. Tap the piece to give up.');
  g.body.className = 'kit-row tf-exchange';
  // The stack, bottom to top, large: the pieces that may be given up are buttons.
  p.stack.forEach((code, i) => {
    const level = i + 1;
    const pc = piece(code);
    const pic = pieceIcon(code, 48);
    const words = pieceWords(update, code);
    if (ex.levels.includes(level)) {
      const b = button(g, '', send, () => ({ type: sword ? 'take_sword' : 'take_shield', level: level }));
      b.className = 'kit-tile tf-give';
      // The visible words start its name; the rest is read out, not shown.
      pic.setAttribute('aria-hidden', 'true');
      b.replaceChildren(pic, h('small', null, 'give up'), h('span', 'sr-only', ' ' + words + ' (' + ordinal(level) + ' from the bottom) for a ' + (sword ? 'sword' : 'shield') + ' of its size'));
      b.dataset.level = String(level);
      g.body.append(b);
    } else {
      const t = h('span', 'tf-keep', pic, h('small', null, i === 0 ? 'bottom' : i === p.stack.length - 1 ? 'top' : ''));
      t.setAttribute('role', 'img');
      t.setAttribute('aria-label', words);
      g.body.append(t);
    }
  });
  g.body.append(button(g, sword ? 'No sword' : 'No shield', send, () => (command({ type: 'decline' }))));
  const o = /** @type {Odds | null} */ (odds(update));
  if (o && o.swap) {
    /** @param {FighterOdds[] | undefined} list */
    const mine = (list) => (list || []).find((f) => f.seat === update.seat);
    const take = mine(o.swap.take), keep = mine(o.swap.decline);
    if (take && keep) {
      g.g.append(h('div', 'kit-odds', h('h4', null, 'Odds'), h('p', null, 'With the ' + (sword ? 'sword' : 'shield') + ' you lose this fight ', percent(take.loses),
        ' of the time; without it ', percent(keep.loses), '.' + (sword ? ' (If the bottom player then takes a shield, these change.)' : ''))));
    }
  }
  return g.g;
}

/** @param {number} n */
const ordinal = (n) => ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'][n - 1] || n + 'th';
/** @param {number} n */
const actionsLeft = (n) => (n === 1 ? 'one action' : n + ' actions') + ' left';

/** @type {Record<string, string>} */
const GEAR_WORD = { sword: 'with the sword', shield: 'with the shield', none: '' };

/** @param {Update} update @param {Battle} b @param {boolean} open */
function battleView(update, b, open) {
  const lowest = Math.min(...b.rolls.map((r) => r.total));
  const rows = h('div', 'tf-rolls');
  for (const r of b.rolls) {
    const lost = b.losses.some((l) => l.seat === r.seat);
    const dice = h('span', 'tf-dice');
    if (r.gear === 'shield') dice.append(die(20, r.shield, 'clear', 'tf-clear'));
    else {
      dice.append(die(12, r.own, 'own'));
      if (r.gear === 'sword') dice.append(die(12, r.sword, 'black', 'tf-black'));
    }
    const [colour] = colourOf(r.seat);
    const dot = h('i', 'tf-dot');
    dot.style.background = colour;
    const who = h('span', 'tf-roller', dot, seatName(update, r.seat) + (r.gear !== 'none' ? ' ' + GEAR_WORD[r.gear] : ''));
    rows.append(h('div', 'tf-roll' + (lost ? ' lost' : ''), who, dice, h('b', 'tf-total', '= ' + r.total), lost ? h('span', 'pill waiting', 'lowest: loses') : r.total === lowest ? h('span', 'pill', 'tied lowest, survives') : null));
  }
  const losses = b.losses.map((l) => {
    const pc = piece(l.returned);
    if (pc.kind === 'sword') return seatName(update, l.seat) + ' loses the sword (back to the supply).';
    if (pc.kind === 'shield') return seatName(update, l.seat) + ' loses the shield (back to the supply).';
    return seatName(update, l.seat) + ' takes back a ' + SIZE_WORD[pc.size] + ' pyramid to the stash.';
  });
  const box = h('details', 'tf-battle', h('summary', null, 'Fight at stack ' + b.at + ': ' + (losses.join(' ') || 'nobody loses')), rows);
  if (open) box.open = true;
  return box;
}

/** @param {Update} update */
function combatLog(update) {
  if (!memo.battles.length) return null;
  const recent = memo.battles.slice(-6).reverse();
  const box = h('section', 'tf-log', h('h3', null, 'Fights'));
  recent.forEach((b, i) => box.append(battleView(update, b, i === 0)));
  const older = memo.battles.length - recent.length;
  if (older > 0) box.append(h('p', 'hint', older === 1 ? 'One earlier fight is in the log.' : older + ' earlier fights are in the log.'));
  return box;
}

// ----- what the seat may do now, and the hint that goes with it -----

/** @param {Update} update @param {Send} send */
function context(update, send) {
  const v = update.view;
  const mine = !!update.seat && v.awaiting === update.seat;
  const legal = mine ? v.legal : { placements: [], moves: [], resolve: [], can_end_turn: false, exchange: null };
  /** @type {Map<number, number[]>} */
  const origins = new Map(legal.moves.map((m) => [m.from, m.to]));
  if (memo.chosen !== null && !origins.has(memo.chosen)) memo.chosen = null;
  const me = v.seats.find((s) => s.seat === update.seat);
  const home = me ? me.home : null;
  if (!legal.placements.length) memo.homeOpen = false;
  // (The origin picked is one of `origins`: it is forgotten above otherwise.)
  const targets = memo.chosen !== null ? /** @type {number[]} */ (origins.get(memo.chosen)) : [];
  const redraw = () => {
    const draw = panelFor('triforce');
    const element = document.getElementById('panel');
    if (draw && element) draw(element, update, send);
  };
  const fightAt = legal.exchange ? legal.exchange.at : (v.phase && /** @type {{ at?: number }} */ (v.phase).at) || null;
  /** @param {number} n @returns {TapAction | null} */
  const actionAt = (n) => {
    if (memo.chosen !== null && targets.includes(n)) {
      const from = memo.chosen;
      return { kind: 'legal', say: 'Tap to move there', run: () => { memo.chosen = null; send(command({ type: 'move', from: from, to: n })); } };
    }
    if (memo.chosen !== null && n === memo.chosen) return { kind: 'origin', say: 'Tap to put it back', run: () => { memo.chosen = null; redraw(); } };
    if (legal.resolve.includes(n)) {
      return { kind: 'fight', say: 'Tap to fight here next', run: () => send(command({ type: 'resolve', at: n })) };
    }
    const isOrigin = origins.has(n);
    // Tapping your home places on it: at once when one size fits and nothing else is meant,
    // else it opens the choice of size (and of moving the home's top piece instead).
    if (n === home && legal.placements.length > 0) {
      return {
        kind: 'place', say: 'Tap to place a pyramid on your home',
        run: () => {
          memo.chosen = null;
          memo.refused = null;
          if (legal.placements.length === 1 && !isOrigin) { send(command({ type: 'place', size: legal.placements[0] })); return; }
          memo.homeOpen = !memo.homeOpen;
          redraw();
        },
      };
    }
    if (isOrigin) {
      return { kind: 'origin', say: 'Tap to pick up your top piece', run: () => { memo.chosen = n; memo.homeOpen = false; memo.refused = null; memo.expanded = null; redraw(); } };
    }
    return null;
  };
  // A tap anywhere else: say why a picked-up piece cannot go there, or open the stack.
  /** @param {number} n */
  const otherTap = (n) => {
    if (memo.chosen !== null) {
      const top = v.positions[memo.chosen - 1].stack.slice(-1)[0];
      memo.refused = whyNot(update, piece(top).size, v.positions[n - 1]);
    } else {
      memo.refused = null;
      memo.expanded = memo.expanded === n ? null : n;
    }
    redraw();
  };
  return { v, mine, legal, origins, home, targets, actionAt, otherTap, fightAt, redraw };
}

/** @param {Update} update @param {Context} ctx */
function hint(update, ctx) {
  const v = update.view;
  if (v.outcome || (v.phase && v.phase.type === 'over')) {
    const w = (v.outcome && v.outcome.winners) || [];
    return 'Game over: ' + (w.length ? kit.andList(w.map((s) => seatName(update, s))) + (w.length > 1 ? ' share a draw.' : ' wins.') : 'nobody wins.');
  }
  const waiting = seatName(update, v.awaiting);
  const phase = v.phase ? v.phase.type : 'actions';
  if (!ctx.mine) {
    if (phase === 'choose_stack') return 'Fights are due: ' + waiting + ' picks the crowded stack that fights next.';
    if (phase === 'sword') return waiting + ' may take a sword at stack ' + /** @type {{ at: number }} */ (v.phase).at + ' before the dice.';
    if (phase === 'shield') return waiting + ' may take a shield at stack ' + /** @type {{ at: number }} */ (v.phase).at + ' before the dice.';
    return 'Waiting for ' + waiting + ' (turn ' + v.turn + ', ' + actionsLeft(v.actions_left) + ').';
  }
  if (phase === 'choose_stack') return 'Your turn to pick a fight: tap a crowded stack (red) to fight there next.';
  if (phase === 'sword') return 'Before the dice at stack ' + /** @type {{ at: number }} */ (v.phase).at + ': take a sword, or not.';
  if (phase === 'shield') return 'Before the dice at stack ' + /** @type {{ at: number }} */ (v.phase).at + ': take a shield, or not.';
  if (memo.chosen !== null) return 'Your ' + SIZE_WORD[piece(v.positions[memo.chosen - 1].stack.slice(-1)[0]).size] + ' piece on ' + memo.chosen + ' is picked up: tap a ringed stack to move it there, or tap it again to put it back.';
  if (memo.homeOpen) return 'Place a pyramid on your home (' + ctx.home + '): pick its size just above the board.';
  const can = [];
  if (ctx.legal.placements.length) can.push('tap your home (' + ctx.home + ') to place a pyramid');
  if (ctx.origins.size) can.push('tap one of your top pieces (dashed ring) to move it');
  return 'Your turn, ' + actionsLeft(v.actions_left) + ': ' + (can.join(', or ') || 'no action possible') + (ctx.legal.can_end_turn ? ' — or end your turn.' : '.');
}

// TF-13 in words for a stack: which sizes go on it now, and why.
/** @param {Position} p */
function sizeRule(p) {
  const top = p.stack.slice(-1)[0];
  if (!top) return 'stack ' + p.n + ' shows its ' + SIZE_WORD[p.white] + ' white, and a white takes only a pyramid of its own size (' + SIZE_WORD[p.white] + ')';
  const others = ['S', 'M', 'L'].filter((z) => z !== piece(top).size).map((z) => SIZE_WORD[z]);
  return 'stack ' + p.n + ' is topped by a ' + SIZE_WORD[piece(top).size] + ' ' + (piece(top).kind === 'piece' ? 'pyramid' : piece(top).kind) +
    ', and a coloured pyramid, sword or shield takes only another size (' + others.join(' or ') + ')';
}

// Why a picked-up piece of `size` cannot go to stack `p`: the size rule, or the way there.
/** @param {Update} update @param {string} size @param {Position} p */
function whyNot(update, size, p) {
  const top = p.stack.slice(-1)[0];
  const fits = top ? piece(top).size !== size : p.white === size;
  if (!fits) return 'Your ' + SIZE_WORD[size] + ' piece cannot go to ' + p.n + ': ' + sizeRule(p) + '.';
  return 'Your ' + SIZE_WORD[size] + ' piece cannot get to ' + p.n + ': it travels only across neighbouring stacks that each take a ' + SIZE_WORD[size] + ' pyramid, and none of the ways there does.';
}

// Just above the board: the size to place on your home, why a tap did nothing, or the
// opened stack with every piece in it, bottom first.
/** @param {Update} update @param {Send} send @param {Context} ctx */
function tapBar(update, send, ctx) {
  const v = update.view;
  const bar = h('div', 'tf-tapbar');
  bar.setAttribute('aria-live', 'polite');
  if (memo.homeOpen && ctx.legal.placements.length) {
    const g = group('home', 'Place on your home (' + ctx.home + ')', 'A pyramid goes on a white of its own size, or on a coloured pyramid, sword or shield of another size; each size at most once a turn.');
    for (const size of ctx.legal.placements) {
      const b = button(g, '', send, () => { memo.homeOpen = false; return command({ type: 'place', size: size }); }, true);
      b.replaceChildren(pieceIcon(update.seat + '-' + size, 34), ' ' + SIZE_WORD[size]);
      b.classList.add('tf-place');
      b.dataset.size = size;
      g.body.append(b);
    }
    // (Placing is offered only to a seat, which has a home.)
    if (ctx.origins.has(/** @type {number} */ (ctx.home))) {
      const move = h('button', null, 'Move the top piece instead');
      move.type = 'button';
      move.addEventListener('click', () => { memo.homeOpen = false; memo.chosen = ctx.home; ctx.redraw(); });
      g.body.append(move);
    }
    bar.append(g.g);
  }
  if (memo.refused) bar.append(h('p', 'tf-refused', memo.refused));
  const p = memo.expanded && v.positions[memo.expanded - 1];
  if (p) {
    const row = h('div', 'tf-open-stack');
    row.append(h('span', 'tf-piece', pieceIcon('W-' + p.white, 40), h('small', null, SIZE_WORD[p.white] + ' white')));
    for (const code of p.stack) row.append(h('span', 'tf-piece', pieceIcon(code, 40), h('small', null, pieceWords(update, code))));
    const close = h('button', null, 'Close');
    close.type = 'button';
    close.addEventListener('click', () => { memo.expanded = null; ctx.redraw(); });
    const mineHome = p.n === ctx.home && ctx.mine && !ctx.legal.placements.length;
    bar.append(h('div', 'tf-stack-box', h('h3', null, 'Stack ' + p.n + ', from the bottom'), row,
      h('p', 'hint', (mineHome ? 'You cannot place here now: ' : 'Now ') + sizeRule(p) + '.'), close));
  }
  return bar;
}

/** @param {Update} update @param {Send} send @param {Context} ctx */
function controls(update, send, ctx) {
  const box = h('div', 'tf-controls');
  const legal = ctx.legal;
  // While a tap on home has opened the size choice beside the board, it stands in for these.
  if (legal.placements.length && !memo.homeOpen) {
    const g = group('place', 'Place on your home (' + ctx.home + ')', 'Or tap your home on the board. Each size at most once a turn.');
    for (const size of legal.placements) {
      const pic = svg('svg', { viewBox: '0 0 36 32', width: 36, height: 32, 'aria-hidden': 'true' });
      pic.append(pyramidShape(size, 18, 31, colourOf(update.seat)[0]));
      const b = button(g, '', send, () => { memo.homeOpen = false; return command({ type: 'place', size: size }); }, true);
      b.replaceChildren(pic, ' Place ' + SIZE_WORD[size]);
      b.classList.add('tf-place');
      b.dataset.size = size;
      g.body.append(b);
    }
    box.append(g.g);
  }
  if (legal.exchange) box.append(exchangeControls(update, send));
  if (legal.resolve.length) {
    const g = group('resolve', 'Which fight first?', 'Every crowded stack fights until it is no longer crowded; you choose the order.');
    for (const n of legal.resolve) g.body.append(button(g, 'Fight at stack ' + n, send, () => (command({ type: 'resolve', at: n })), legal.resolve.length === 1));
    const o = /** @type {Odds | null} */ (odds(update));
    if (o && o.fights && o.fights.length) {
      const ul = h('ul', null);
      for (const f of o.fights) {
        const li = h('li', null, 'Stack ' + f.at + ': ');
        f.fighters.forEach((x, i) => li.append(i ? ', ' : '', seatName(update, x.seat) + (x.gear !== 'none' ? ' (' + x.gear + ')' : '') + ' loses ', percent(x.loses)));
        ul.append(li);
      }
      g.g.append(h('div', 'kit-odds', h('h4', null, 'Odds of losing each fight as it stands'), ul));
    }
    box.append(g.g);
  }
  if (legal.can_end_turn) {
    const g = group('end', null, null);
    g.body.append(button(g, 'End turn', send, () => (command({ type: 'end_turn' })), !ctx.origins.size && !legal.placements.length));
    box.append(g.g);
  }
  return box;
}

register('triforce', function (update, send) {
  const v = /** @type {View} */ (update.view);
  if (!v || !Array.isArray(v.positions)) return null;
  noteBattles(update);
  const ctx = context(update, send);
  const hintLine = h('p', 'tf-hint' + (ctx.mine ? ' mine' : ''), hint(update, ctx));
  hintLine.setAttribute('aria-live', 'polite');
  const root = h('div', 'tf');
  // Phone first: what you can do comes before the picture of the board.
  root.append(hintLine, controls(update, send, ctx), tapBar(update, send, ctx));
  root.append(h('div', 'tf-board-wrap', board(update, ctx)));
  root.append(legend(update));
  const log = combatLog(update);
  if (log) root.append(log);
  return root;
});
