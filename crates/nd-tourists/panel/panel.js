// N-Dimensional Tourists' board: every card drawn as a card (its suit or Triumph, its figure, and
// which way up it lies), your Reserve as a hand, bid lines and Loss lines, Control, and controls
// where you bid, cover, reject, spend and keep Losses by choosing cards. Hovering, focusing or
// long-pressing a card tells what it beats. Every text goes in as text nodes, never as markup.
import { redrawPanel } from '../kit.js';
import * as kit from '../kit.js';

/** @typedef {import('../types/nd-tourists/View').View} View the seat's view of the game */
/** @typedef {import('../types/nd-tourists/Command').Command} Command what the board sends */
/** @typedef {import('../types/nd-tourists/Asking').Asking} Asking which chances to react a party is asked about */
/** @typedef {import('../types/nd-tourists/PartyView').PartyView} PartyView a party as this seat sees it */
/** @typedef {import('../types/nd-tourists/Citation').Citation} Citation */
/** @typedef {Extract<Command, { type: 'cover' }>} Cover a cover the rules offer */
/** @typedef {{ rejections?: boolean, this_round?: boolean, asking?: Asking }} PassChange */
/** @typedef {import('../types/Seat').Seat} Seat */
/** @typedef {import('../kit.js').Update<View, Command>} Update */
/** @typedef {import('../kit.js').Send} Send */

/**
 * A command as the rules take it: tsc checks every command this board builds against the
 * game's own type (generated from the Rust one).
 * @param {Command} c
 * @returns {Command}
 */
const command = (c) => c;

// Typed input values and error messages survive the redraw that every live update causes.
const { memo, h, select, text, group, button, register, toggle, confirmButton, odds } = kit.make('ndt');

// ----- the deck (ND-1 to ND-3) -----

// Each suit beats the next two round the wheel.
const WHEEL = ['Rock', 'Blades', 'Serpent', 'Paper', 'Unknown'];
/** @type {Record<string, string>} */
const SUIT_SIGN = { Rock: '⬢', Blades: '⚔', Serpent: '∿', Paper: '▤', Unknown: '?' };
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX', 'XXI'];

/**
 * @typedef {{ kind: 'excuse', name: string } | { kind: 'triumph', rank: number, name: string } | { kind: 'suit', suit: string, figure: string, name: string } | { kind: 'other', name: string }} ParsedCard
 */
/**
 * A card's name read as what it is.
 * @param {string} name
 * @returns {ParsedCard}
 */
function parseCard(name) {
  const n = String(name).trim();
  if (n === 'Excuse') return { kind: 'excuse', name: n };
  const t = ROMAN.indexOf(n);
  if (t >= 0) return { kind: 'triumph', rank: t + 1, name: n };
  const words = n.split(/\s+/);
  const suit = WHEEL.find((x) => words.includes(x));
  if (suit) return { kind: 'suit', suit: suit, figure: words.filter((w) => w !== suit && w !== 'Blank').join(' ') || 'blank', name: n };
  return { kind: 'other', name: n };
}

/** @param {string} name */
function beatsText(name) {
  const c = parseCard(name);
  if (c.kind === 'excuse') return 'The Excuse: a stalemate against every card. It cannot be rejected, turned or covered.';
  if (c.kind === 'triumph') {
    return 'Triumph ' + c.name + ': beats every suit card' + (c.rank > 1 ? ' and Triumphs I–' + ROMAN[c.rank - 2] : '') +
      (c.rank < 21 ? '; loses to Triumphs ' + ROMAN[c.rank] + '–XXI.' : '; nothing beats it.');
  }
  if (c.kind === 'suit') {
    const i = WHEEL.indexOf(c.suit);
    const beats = [WHEEL[(i + 1) % 5], WHEEL[(i + 2) % 5]];
    const loses = [WHEEL[(i + 3) % 5], WHEEL[(i + 4) % 5]];
    return c.suit + ': beats ' + beats.join(' and ') + '; loses to ' + loses.join(' and ') + ' and to every Triumph; a stalemate with ' + c.suit + ' and the Excuse.';
  }
  return c.name;
}

// A card drawn as a card: suit sign and colour (or a Triumph's numeral), the figure, and its
// way up — a reversed card is drawn upside down and says so.
/**
 * @param {string} name
 * @param {boolean} reversed
 * @param {string} [extra] more classes
 */
function cardFace(name, reversed, extra) {
  const c = parseCard(name);
  const cls = 'ndt-card ' + (c.kind === 'suit' ? 'suit-' + c.suit.toLowerCase() : c.kind) + (reversed ? ' reversed' : '') + (extra ? ' ' + extra : '');
  let face;
  if (c.kind === 'triumph') face = h('span', 'ndt-face', h('span', 'ndt-corner', 'Triumph'), h('span', 'ndt-big', c.name), h('span', 'ndt-fig', 'Triumph'));
  else if (c.kind === 'suit') face = h('span', 'ndt-face', h('span', 'ndt-corner', SUIT_SIGN[c.suit] + ' ' + c.suit), h('span', 'ndt-big', SUIT_SIGN[c.suit]), h('span', 'ndt-fig', c.figure));
  else face = h('span', 'ndt-face', h('span', 'ndt-corner', ''), h('span', 'ndt-big', c.kind === 'excuse' ? '✦' : '·'), h('span', 'ndt-fig', c.name));
  const card = h('span', cls, face, h('span', 'ndt-way', reversed ? '↓ reversed' : '↑ upright'));
  card.dataset.card = c.name;
  // One named picture for a screen reader ("Blades Seeker, reversed"), not its loose glyphs.
  card.setAttribute('role', 'img');
  card.setAttribute('aria-label', cardWords(name, reversed));
  return card;
}

// A card in words: "Blades Seeker, upright", "Triumph XVI, reversed", "the Excuse".
/** @param {string} name @param {boolean} reversed */
function cardWords(name, reversed) {
  const c = parseCard(name);
  const what = c.kind === 'triumph' ? 'Triumph ' + c.name : c.kind === 'excuse' ? 'the Excuse' : c.name;
  return what + (reversed ? ', reversed' : ', upright');
}

// Cards in a row as a list a screen reader counts ("TMDF’s bid line, 3 items"): each item a card
// (or a Lasting Loss's cards), with its marks.
/** @param {string} label @param {Node[]} items */
function cardList(label, items) {
  const list = h('span', 'ndt-cards', ...items);
  list.setAttribute('role', 'list');
  list.setAttribute('aria-label', label);
  return list;
}

/** @param {string} name @param {boolean} reversed @param {string} [extra] */
function cardChipTip(name, reversed, extra) {
  const card = cardFace(name, reversed, extra);
  card.tabIndex = 0;
  kit.tip(card, name + (reversed ? ' (reversed)' : ' (upright)') + ' — ' + beatsText(name));
  return card;
}

/** @param {string} name @param {boolean} reversed @param {string} [extra] */
function cardChip(name, reversed, extra) {
  return cardChipTip(name, reversed, extra);
}

// A card of a list with its marks ("cover", "turned", who drew it) written under it, never over
// its name.
/** @param {Node} card @param {string | null} marks */
function slot(card, marks) {
  const item = h('span', 'ndt-slot', card, marks ? h('small', 'ndt-marks', marks) : null);
  item.setAttribute('role', 'listitem');
  return item;
}

const poss = kit.poss;

/** @param {PartyView} p */
function statusText(p) {
  if (p.status === 'wiped_out') return 'wiped out in round ' + p.round;
  if (p.status === 'conceded') return 'conceded';
  return 'in play';
}

/** @type {Record<string, string>} */
const gravityWords = { trivial: 'trivial', fairly_easy: 'fairly easy', hard: 'hard', very_hard: 'very hard', permanent: 'permanent' };

/**
 * @param {View} v
 * @param {PartyView} p
 * @param {number} i the party's place
 * @param {Seat | null} mineSeat
 */
function partyCard(v, p, i, mineSeat) {
  const r = v.round || {};
  const turn = r.turn === i && v.phase === 'bidding' && r.window == null;
  // Not the page's own `turn` class (the sticky banner's): `to-act`.
  const classes = 'ndt-party' + (turn ? ' to-act' : '') + (p.status !== 'in_play' ? ' out' : '') + (p.seat === mineSeat ? ' mine' : '');
  const head = h('div', 'ndt-party-head',
    h('strong', null, p.name),
    p.seat === mineSeat ? h('span', 'pill ready', 'yours') : p.seat === 'gm' ? h('span', 'pill', 'the GM’s') : null,
    v.dominant === i ? h('span', 'pill ndt-dominant', 'Dominant') : null,
    turn ? h('span', 'pill ready', 'to act') : null,
    r.window === i ? h('span', 'pill waiting', 'card awaiting reactions') : null,
    v.victor === i ? h('span', 'pill ready', 'victor') : null,
    h('span', 'pill', statusText(p)));
  const goal = h('p', 'hint', 'Goal: ' + (p.goal || '—') + ' · Total ' + p.total);

  const line = h('div', 'ndt-line');
  const bids = p.bid_line.map((b, k) => {
    const marks = [];
    if (b.turned) marks.push('turned');
    if (b.cover) marks.push('cover');
    if (b.narrative) marks.push('narrative');
    const last = r.window === i && k === p.bid_line.length - 1;
    const chip = cardChip(b.card, b.reversed, (b.cover ? 'cover' : '') + (b.narrative ? ' narrative' : '') + (last ? ' last' : ''));
    return slot(chip, marks.join(', ') || null);
  });
  line.append(bids.length ? cardList(poss(p.name) + ' bid line', bids) : h('span', 'hint', 'no cards yet'));

  // A Loss is marked with reversed cards, and they keep that way up on the Loss line.
  const temp = h('div', 'ndt-line', h('span', 'ndt-label inline', 'Temporary'), cardList(poss(p.name) + ' Temporary Losses', p.temporary.map((t) => {
    const who = p.characters[t.character];
    return slot(cardChipTip(t.card, true, 'loss small'), who && p.characters.length > 1 ? who.name : null);
  })));

  const lasting = h('div', 'ndt-line', h('span', 'ndt-label inline', 'Lasting'), cardList(poss(p.name) + ' Lasting Losses', p.lasting.map((l) => {
    const who = p.characters[l.character];
    const gravity = (gravityWords[l.gravity] || l.gravity) + (who ? ' · ' + who.name : '');
    const box = h('span', 'ndt-lasting', h('small', null, gravity));
    box.setAttribute('role', 'listitem');
    for (const c of l.cards) {
      let chip = cardChipTip(c.card, true, 'loss small');
      if (!c.face_up) {
        // Spent: turned face down, its Loss remains but the card cannot be used again.
        chip = h('span', 'ndt-card facedown small', h('span', 'ndt-face', h('span', 'ndt-big', '✕'), h('span', 'ndt-fig', c.card)), h('span', 'ndt-way', 'spent'));
        chip.setAttribute('role', 'img');
        chip.setAttribute('aria-label', c.card + ', spent (face down)');
      }
      box.append(chip);
    }
    return box;
  })));
  // Losses take room only when there are some: most parties have none most of the evening.
  const losses = p.temporary.length || p.lasting.length
    ? [h('div', 'ndt-label', 'Losses'), p.temporary.length ? temp : null, p.lasting.length ? lasting : null]
    : [h('p', 'hint ndt-none', 'No Losses yet.')];

  // The Reserve's cards themselves are in your hand above; here only how many each holds.
  const chars = h('ul', 'ndt-chars');
  for (const c of p.characters) {
    chars.append(h('li', null, h('b', null, c.name),
      ' · Reserve ' + c.reserve_count + (c.tally ? ' · covered ' + c.tally + '×' : '') + (c.conceded ? ' · conceded' : '')));
  }

  return h('section', classes,
    head, goal,
    h('div', 'ndt-label', 'Bid line' + (p.reversed ? ' · ' + p.reversed + ' reversed' : '')), line,
    ...losses,
    chars);
}

/** @param {View} v */
function summary(v) {
  const r = v.round || {};
  /** @param {number | null | undefined} i */
  const name = (i) => (i != null && v.parties[i] ? v.parties[i].name : null);
  /** @type {Record<string, string>} */
  const phaseWords = { preparing: 'Preparing: the GM starts the Conflict', bidding: 'Bidding', aftermath: 'End of round: concede, reframe or go on', ended: 'The Conflict is over' };
  const bits = [
    h('span', 'pill', 'Round ' + r.number + (r.kind === 'balance_breaker' ? ' · Balance-breaker' : r.kind === 'unbalanced' ? ' · Unbalanced' : '')),
    h('span', 'pill', phaseWords[v.phase] || v.phase),
    v.dominant != null ? h('span', 'pill ndt-dominant', 'Dominant: ' + name(v.dominant) + ' · Control ' + v.control + ' · tokens ' + v.tokens)
      : h('span', 'pill', 'Balanced'),
    h('span', 'pill', 'Deck ' + v.deck_count),
    v.large_gap ? h('span', 'pill waiting', 'large gap between the sides') : null,
  ];
  const line = h('p', 'ndt-turn');
  // (A rejection is of the card just placed: `window` names its party.)
  if (v.phase === 'bidding' && r.rejection != null) line.textContent = name(r.rejection) + ' rejected ' + poss(/** @type {string} */ (name(r.window))) + ' card: ' + name(r.window) + ' chooses the face-up Loss card to spend.';
  else if (v.phase === 'bidding' && r.window != null) line.textContent = (v.waiting || name(r.window) + ' just placed a card') + '.';
  else if (v.phase === 'bidding' && r.turn != null) line.textContent = 'Turn: ' + name(r.turn) + (r.passes ? ' · ' + r.passes + (r.passes === 1 ? ' pass' : ' passes') + ' in a row' : '');
  else if (v.phase === 'ended') line.textContent = v.victor != null ? name(v.victor) + ' wins the Conflict.' : 'Ended' + (v.ended ? ' (' + String(v.ended).replace(/_/g, ' ') + ')' : '') + '.';
  if (r.result) {
    /** @param {number[]} xs */
    const names = (xs) => xs.map(name).join(', ') || 'nobody';
    line.append(h('span', 'hint ndt-result', ' Round won by ' + names(r.result.winners) + '; lost by ' + names(r.result.losers) + '; narration: ' + names(r.result.narration) + '.'));
  }
  const discard = v.discard && v.discard.length ? h('p', 'hint', 'Discarded this round: ' + v.discard.join(', ')) : null;
  return h('div', 'ndt-summary', h('div', 'ndt-pills', ...bits), line, discard);
}

const redraw = () => redrawPanel('nd-tourists');

// Your Reserve as a hand of cards, one hand per character this seat plays.
/** @param {View} v @param {Seat} seat */
function hands(v, seat) {
  const out = [];
  for (const p of v.parties.filter((x) => x.seat === seat)) {
    for (const c of p.characters) {
      if (!Array.isArray(c.reserve)) continue;
      const hand = h('div', 'ndt-hand');
      if (c.reserve.length) hand.append(cardList(poss(c.name) + ' Reserve', c.reserve.map((rc) => slot(cardChip(rc.card, rc.reversed, 'in-hand'), null))));
      else hand.append(h('span', 'hint', 'No cards held back.'));
      out.push(h('div', 'ndt-handbox', h('div', 'ndt-label', 'Your hand · ' + poss(c.name) + ' Reserve'), hand));
    }
  }
  return out;
}

// The controls: one group per kind of move the engine lists as legal for this seat.
/** @param {Update} update @param {Send} send */
function controls(update, send) {
  const v = update.view;
  const legal = update.legal.map((l) => l.command);
  /**
   * The legal commands of one type.
   * @template {Command['type']} T
   * @param {T} type
   * @returns {Extract<Command, { type: T }>[]}
   */
  const of = (type) => /** @type {Extract<Command, { type: T }>[]} */ (legal.filter((c) => c.type === type));
  const box = h('div', 'ndt-controls');
  /** @param {string | null} n */
  const partyByName = (n) => v.parties.find((p) => p.name === n);
  /** @param {PartyView} p */
  const charOptions = (p) => p.characters.filter((c) => !c.conceded).map((c) => [c.name, c.name]);

  if (of('start').length) {
    const g = group('start', 'Start the Conflict', 'Draws the non-player parties’ Reserves and opens round 1.');
    g.body.append(button(g, 'Start', send, () => (command({ type: 'start' })), true));
    box.append(g.g);
  }

  for (const c of of('bid')) {
    const p = partyByName(c.party);
    if (!p) continue;
    const key = 'bid:' + p.name;
    const g = group(key, p.name + ': your turn to bid', 'Draw a card from the deck onto your bid line, or pass (not final).');
    let who = null;
    if (p.characters.length > 1) who = select(key + ':who', charOptions(p), null, 'character who draws');
    if (who) g.body.append(who);
    const deck = h('span', 'ndt-card back', h('span', 'ndt-face', h('span', 'ndt-big', '✧'), h('span', 'ndt-fig', v.deck_count + ' left')), h('span', 'ndt-way', 'the deck'));
    const b = button(g, '', send, () => (command({ type: 'bid', party: p.name, character: who ? who.value : null })), true);
    b.replaceChildren(deck, h('span', null, 'Bid: draw a card'));
    b.classList.add('ndt-draw');
    g.body.append(b);
    if (of('pass').some((x) => x.party === p.name)) g.body.append(button(g, 'Pass', send, () => (command({ type: 'pass', party: p.name }))));
    const o = odds(update);
    if (o && o.party === p.name && o.beats && o.beats.length) {
      const ul = h('ul', null);
      for (const b of o.beats) ul.append(h('li', null, b.card + ' (' + b.party + '): ', kit.percent(b.chance)));
      g.g.append(h('div', 'kit-odds', h('h4', null, 'Chance your next draw beats'), ul,
        h('p', 'hint', 'From the cards you have seen; the others’ Reserves count as unknown.')));
    }
    box.append(g.g);
  }

  const spends = of('spend_loss');
  if (spends.length) {
    const g = group('spend', 'Your card was rejected: tap the face-up Loss card to spend',
      'A Temporary card is discarded (that Loss is gone); a Lasting one turns face down and its Loss remains.');
    for (const c of spends) {
      const b = button(g, '', send, () => (command({ type: 'spend_loss', party: c.party, card: c.card })));
      b.className = 'kit-tile ndt-pick';
      // A Loss card lies reversed on the Loss line, and is drawn so here too.
      b.replaceChildren(cardFace(c.card, true, 'loss'), h('small', null, 'spend this'));
      b.dataset.card = c.card;
      g.body.append(b);
    }
    box.append(g.g);
  }

  const windowOpen = v.phase === 'bidding' && v.round && v.round.window != null && v.round.rejection == null;
  if (windowOpen && (of('reject').length || of('turn').length || of('cover').length || of('let_it_stand').length)) {
    // (`windowOpen` says the window is open.)
    const drawer = v.parties[/** @type {number} */ (v.round.window)];
    const last = drawer && drawer.bid_line[drawer.bid_line.length - 1];
    const asked = v.reaction ? v.reaction.name + ': your turn to ' + v.reaction.step + ' or let it stand. ' : '';
    const g = group('window', (drawer ? drawer.name : 'A party') + ' just placed this card', asked + 'The parties asked react in turn: reject, then turn, then cover.');
    g.body.className = 'kit-row ndt-window';
    if (last) g.body.append(cardChip(last.card, last.reversed, 'last'));
    const acts = h('div', 'ndt-acts');
    const faceUp = drawer ? drawer.temporary.map((t) => t.card).concat(...drawer.lasting.map((l) => l.cards.filter((x) => x.face_up).map((x) => x.card))) : [];
    for (const c of of('reject')) {
      acts.append(button(g, (c.party && v.parties.filter((x) => x.seat === update.seat).length > 1 ? c.party + ': ' : '') + 'Reject it (' + drawer.name + ' shows ' + faceUp.length + ' face-up Loss card' + (faceUp.length === 1 ? '' : 's') + ')', send, () => (command({ type: 'reject', party: c.party }))));
    }
    if (of('turn').length) acts.append(button(g, 'Turn it over with a Control token (' + v.tokens + ' left)', send, () => (command({ type: 'turn' }))));
    const quiet = !of('cover').length && !of('reject').length && !of('turn').length;
    for (const c of of('let_it_stand')) acts.append(button(g, 'Let it stand' + (v.parties.filter((x) => x.seat === update.seat).length > 1 ? ' (' + c.party + ')' : ''), send, () => (command({ type: 'let_it_stand', party: c.party })), quiet));
    // The party asked now may stop being asked for the rest of the round in the same tap.
    const askedParty = v.reaction && v.parties[v.reaction.party];
    if (askedParty && askedParty.seat === update.seat && !(askedParty.auto_pass && askedParty.auto_pass.round === v.round.number)) {
      acts.append(button(g, 'Let it stand, and every card this round', send, () => autoPass(askedParty, v, { this_round: true })));
    }
    g.body.append(acts);
    box.append(g.g);
    box.append(...coverGroups(of('cover'), v, drawer, send));
  }

  // ND-21: a party that took a Loss this round may mark it with other reversed cards of its
  // bid line. The engine's suggestion (the cards marking it now) tells how many to keep.
  for (const c of of('keep_loss_cards')) {
    const p = partyByName(c.party);
    if (!p) continue;
    const key = 'keep:' + p.name;
    const need = (c.cards || []).length;
    const g = group(key, p.name + ': which cards mark your Loss?', 'Tap exactly ' + need + ' card' + (need === 1 ? '' : 's') + ': the Loss’s own, or reversed cards of your bid line.');
    const options = [...new Set((c.cards || []).concat(p.bid_line.filter((x) => x.reversed).map((x) => x.card)))];
    if (!Array.isArray(memo.values[key])) memo.values[key] = (c.cards || []).slice();
    const picked = /** @type {string[]} */ (memo.values[key]).filter((x) => options.includes(x));
    const row = h('div', 'ndt-hand');
    for (const card of options) {
      const on = picked.includes(card);
      const bl = p.bid_line.find((x) => x.card === card);
      const t = toggle(cardFace(card, bl ? bl.reversed : false), on, () => {
        memo.values[key] = on ? picked.filter((x) => x !== card) : picked.concat([card]);
        redraw();
      }, 'ndt-pick');
      t.dataset.card = card;
      row.append(t);
    }
    g.body.append(row);
    const same = picked.length === need && picked.every((x) => (c.cards || []).includes(x));
    const b = button(g, same ? 'Keep these (no change)' : 'Mark the Loss with these ' + picked.length, send, () => {
      if (picked.length !== need) throw new Error('Tap exactly ' + need + ' card' + (need === 1 ? '' : 's') + ' (now ' + picked.length + ').');
      return command({ type: 'keep_loss_cards', party: p.name, cards: picked.slice() });
    });
    b.disabled = picked.length !== need || same;
    g.body.append(b);
    box.append(g.g);
  }

  for (const c of of('concede')) {
    const p = partyByName(c.party);
    if (!p) continue;
    const key = 'concede:' + p.name;
    const g = group(key, p.name + ': concede?', 'Concede the whole party, or one character.');
    const opts = [['', 'the whole party']].concat(charOptions(p));
    const who = opts.length > 2 ? select(key + ':who', opts, '', 'who concedes') : null;
    if (who) g.body.append(who);
    g.body.append(confirmButton(g, 'Concede', 'Leave the Conflict? This cannot be undone.', send, () => (command({ type: 'concede', party: p.name, character: who && who.value ? who.value : null }))));
    box.append(g.g);
  }

  if (of('reframe').length || of('next_round').length) {
    const g = group('round-end', 'End of round', null);
    if (of('next_round').length) g.body.append(button(g, 'Next round', send, () => (command({ type: 'next_round' })), true));
    if (of('reframe').length) g.body.append(confirmButton(g, 'Accept a Reframe', 'Have the goals and means really changed?', send, () => (command({ type: 'reframe', confirmed: true }))));
    box.append(g.g);
  }

  if (v.phase === 'bidding' && update.seat) box.append(...standingChoices(v, update.seat, send));

  if (v.phase === 'bidding' && update.seat) {
    // Tactics are narration only: the engine does not list them, so offer them to the
    // parties this seat speaks for.
    for (const p of v.parties.filter((x) => x.seat === update.seat && x.status === 'in_play')) {
      const key = 'tactics:' + p.name;
      const g = group(key, null, null);
      const t = text(key + ':text', 'What do you try this round?');
      g.body.append(t, button(g, 'Declare', send, () => (command({ type: 'declare_tactics', party: p.name, text: t.value }))));
      // Folded away (open once typed in): tactics are narration, the cards do not need them.
      const fold = h('details', 'ndt-fold', h('summary', null, p.name + ': declare tactics'), g.g);
      if (memo.values[key + ':text']) fold.open = true;
      box.append(fold);
    }
  }

  if (!box.childNodes.length && update.seat) {
    box.append(h('p', 'hint', v.phase === 'ended' ? 'The Conflict is over.' : 'Nothing for you to do right now — waiting for the others.'));
  }
  return box;
}

// A party's standing choice of the chances to react that pass by themselves, changed in one
// respect (`change`) and kept in the others.
/**
 * @param {{ name: string, auto_pass?: { rejections?: boolean, round?: number | null, asking?: Asking } }} p
 * @param {View} v
 * @param {{ rejections?: boolean, this_round?: boolean, asking?: Asking }} change
 */
function autoPass(p, v, change) {
  const now = p.auto_pass || {};
  const thisRound = now.round === v.round.number;
  return command({
    type: 'auto_pass', party: p.name,
    rejections: change.rejections !== undefined ? change.rejections : !!now.rejections,
    this_round: change.this_round !== undefined ? change.this_round : thisRound,
    asking: change.asking || now.asking || 'every',
  });
}

// For each party this seat speaks for: which chances to react it is asked about (issue 38).
// By default only to save its own reversed cards; every other chance passes by itself, so the
// table does not wait on a party that would only let the card stand. Who is asked follows from
// what everyone sees, so nobody learns what a party could have done.
/** @param {View} v @param {Seat} seat @param {Send} send */
function standingChoices(v, seat, send) {
  const out = [];
  for (const p of v.parties.filter((x) => x.seat === seat && x.status === 'in_play')) {
    const key = 'auto:' + p.name;
    const now = p.auto_pass || {};
    const thisRound = now.round === v.round.number;
    const every = (now.asking || 'every') === 'every';
    const hint = every
      ? 'You are asked at every chance to reject, turn or cover any card. A choice you can change at any time.'
      : 'You are asked only when a card of yours is reversed and you could save it (cover it, or turn it as the Dominant); every other chance passes by itself. A choice you can change at any time.';
    const g = group(key, p.name + ': when to ask you to react', hint);
    g.g.classList.add('ndt-auto');
    /** @param {string} label @param {boolean} on @param {PassChange} change */
    const flip = (label, on, change) => {
      const t = toggle(h('span', null, (on ? '☑ ' : '☐ ') + label), on, async () => {
        const ok = await send(autoPass(p, v, change), g.err);
        if (!ok) memo.errors[key] = g.err.textContent;
      }, 'ndt-flip');
      return t;
    };
    g.body.append(
      flip('No reactions this round', thisRound, { this_round: !thisRound }),
      flip('Ask me at every chance (to reject, turn or cover any card)', every, { asking: /** @type {Asking} */ (every ? 'own_cards' : 'every') }));
    if (every) g.body.append(flip('… but never to reject', !!now.rejections, { rejections: !now.rejections }));
    out.push(g.g);
  }
  return out;
}

// The traits a cover's narration may rest on (ND-20, ND-30), each as [citation, words]: covering
// its own card, the covering character's own Aspects, Weaknesses and Loss cards; covering another
// party's card, that party's (how one of them hinders it). All of them are public.
/**
 * @param {PartyView | undefined} coverer
 * @param {string | null} character
 * @param {PartyView} drawer
 */
function citable(coverer, character, drawer) {
  const own = coverer === drawer;
  const mine = (/** @type {number} */ k) => !own || (drawer.characters[k] && drawer.characters[k].name === character);
  const whose = own ? '' : poss(drawer.name) + ' ';
  /** @type {Array<[import('../types/nd-tourists/Citation').Citation, string]>} */
  const out = [];
  drawer.characters.forEach((c, k) => {
    if (!mine(k)) return;
    for (const a of c.aspects || []) out.push([{ aspect: a }, whose + 'Aspect “' + a + '”']);
    for (const w of c.weaknesses || []) out.push([{ weakness: w }, whose + 'Weakness “' + w + '”']);
  });
  for (const t of drawer.temporary) if (mine(t.character)) out.push([{ loss: t.card }, whose + 'Loss card ' + t.card]);
  for (const l of drawer.lasting) if (mine(l.character)) for (const x of l.cards) out.push([{ loss: x.card }, whose + 'Loss card ' + x.card]);
  const seen = new Set();
  return out.filter(([, words]) => !seen.has(words) && seen.add(words));
}

// One cover group per (party, character) the engine lets cover now: tap the Reserve card in
// your hand, and choose the trait your narration rests on among those the rules allow (the
// engine's suggestion first chosen). A cover the table does not accept is simply not made.
/**
 * @param {Cover[]} covers
 * @param {View} v
 * @param {PartyView | undefined} drawer the party whose card it is
 * @param {Send} send
 */
function coverGroups(covers, v, drawer, send) {
  /** @type {Map<string, Cover>} */
  const seen = new Map();
  for (const c of covers) {
    const k = c.party + '\u0000' + (c.character || '');
    if (!seen.has(k)) seen.set(k, c);
  }
  const out = [];
  for (const c of seen.values()) {
    const p = v.parties.find((x) => x.name === c.party);
    const ch = p && p.characters.find((x) => x.name === c.character);
    const cards = covers.filter((x) => x.party === c.party && x.character === c.character).map((x) => x.card);
    const reserve = (ch && ch.reserve) || [];
    const key = 'cover:' + c.party + ':' + (c.character || '');
    const against = drawer && p !== drawer ? 'how one of ' + poss(drawer.name) + ' traits hinders it' : 'how one of your own traits helps it';
    const g = group(key, (c.character || c.party) + ': cover it with a card from your hand',
      'Tap the card to lay over it, and tell the table ' + against + '. If the table does not accept your narration, let the card stand instead.');
    g.body.className = 'kit-row ndt-cover';
    if (!cards.includes(memo.values[key + ':card'])) memo.values[key + ':card'] = null;
    const chosen = memo.values[key + ':card'];
    const hand = h('div', 'ndt-hand');
    for (const name of cards) {
      const rc = reserve.find((r) => r.card === name);
      const t = toggle(cardFace(name, rc ? rc.reversed : false), chosen === name, () => { memo.values[key + ':card'] = name; redraw(); }, 'ndt-pick');
      kit.tip(t, name + ' — ' + beatsText(name));
      t.dataset.card = name;
      hand.append(t);
    }
    const traits = drawer ? citable(p, c.character, drawer) : [];
    const suggested = JSON.stringify(c.cite || null);
    const first = Math.max(0, traits.findIndex(([cite]) => JSON.stringify(cite) === suggested));
    const trait = select(key + ':trait', traits.map(([, words], i) => [String(i), words]), String(first), 'The trait your narration rests on');
    const b = button(g, chosen ? 'Cover with ' + chosen : 'Cover', send, () => {
      if (!chosen) throw new Error('Tap the card in your hand to cover with.');
      const picked = traits[Number(trait.value)];
      if (!picked) throw new Error('Choose the trait your narration rests on.');
      const citation = /** @type {import('../types/nd-tourists/Citation').Citation} */ (picked[0]);
      // Without a character the field is left out, which the rules read as none.
      return command({ type: 'cover', party: c.party, character: /** @type {string | null} */ (c.character || undefined), card: chosen, cite: citation, accepted: true });
    }, true);
    b.disabled = !chosen;
    g.body.append(hand, h('div', 'kit-row ndt-cite', h('span', null, 'It rests on'), trait), b);
    out.push(g.g);
  }
  return out;
}

register('nd-tourists', function (update, send) {
  const v = /** @type {View} */ (update.view);
  if (!v || !Array.isArray(v.parties)) return null;

  const parties = h('div', 'ndt-parties');
  v.parties.forEach((p, i) => parties.append(partyCard(v, p, i, update.seat)));
  // Phone first: the state line, your controls and your hand, then every party's lines.
  const root = h('div', 'ndt', summary(v));
  if (update.seat) root.append(controls(update, send), ...hands(v, update.seat));
  root.append(parties);
  return root;
});
