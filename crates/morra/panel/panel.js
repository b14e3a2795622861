// Morra's board: both players' scores against the target, each hand of the last round drawn as
// fingers with its call, and — while your hand is still to choose — the fingers to show and
// the calls they allow, sent face down with one tap. The other player's hand is never on this
// page before the reveal: the view does not carry it. Every text goes in as text nodes.
import { redrawPanel } from '../kit.js';
import * as kit from '../kit.js';

/** @typedef {import('../types/morra/View').View} View the seat's view of the game */
/** @typedef {import('../types/morra/Hand').Hand} Hand a hand: fingers shown and total called */
/** @typedef {import('../types/morra/Command').Command} Command what the board sends */

/**
 * A command as the rules take it: tsc checks every command this board builds against the
 * game's own type (generated from the Rust one).
 * @param {Command} c
 * @returns {Command}
 */
const command = (c) => c;

const { memo, h, group, button, register, odds, toggle } = kit.make('mo');
const { percent } = kit;

const WORD = ['no fingers', 'one finger', 'two fingers', 'three fingers'];

/** A hand drawn as raised fingers (hidden when `hand` is null), with its call under it.
 * @param {Hand | null} hand
 * @param {string} caption
 */
function handPicture(hand, caption) {
  const pic = kit.svg('svg', { viewBox: '0 0 60 60', width: 60, height: 60, class: 'mo-hand-pic', 'aria-hidden': 'true' });
  if (hand) {
    pic.append(kit.svg('rect', { x: 12, y: 32, width: 36, height: 22, rx: 8, class: 'mo-palm' }));
    for (let i = 0; i < 3; i++) {
      const up = i < hand.fingers;
      pic.append(kit.svg('rect', { x: 14 + i * 11, y: up ? 6 : 26, width: 9, height: up ? 30 : 10, rx: 4, class: up ? 'mo-finger up' : 'mo-finger' }));
    }
  } else {
    pic.append(kit.svg('rect', { x: 8, y: 8, width: 44, height: 44, rx: 8, class: 'mo-face-down' }));
    pic.append(kit.svg('text', { x: 30, y: 37, 'text-anchor': 'middle', class: 'mo-q' }, '?'));
  }
  const box = h('figure', 'mo-hand' + (hand ? '' : ' hidden'), pic, h('figcaption', null, caption));
  // The caption names the hand; the drawing says nothing more to a screen reader.
  pic.setAttribute('aria-hidden', 'true');
  return box;
}

/** @param {View} v */
function scoreboard(v) {
  const rows = v.players.map((p) => {
    const bar = h('span', 'mo-bar');
    const fill = h('span', 'mo-fill');
    fill.style.width = Math.min(100, (100 * p.score) / Math.max(1, v.target)) + '%';
    bar.append(fill);
    const state = v.outcome ? '' : p.chosen ? (p.you ? 'your hand is in' : 'has chosen') : (p.you ? 'your hand to choose' : 'choosing');
    const row = h('div', 'mo-player' + (p.you ? ' me' : ''),
      h('span', 'mo-name', p.name + (p.you ? ' (you)' : '')),
      h('b', 'mo-score', String(p.score)), bar, h('small', 'mo-state', state));
    return row;
  });
  return h('div', 'mo-scores', ...rows);
}

/** @param {View} v */
function lastRound(v) {
  if (!v.last) return null;
  const r = v.last;
  const hands = r.hands.map((hand, i) => handPicture(hand, v.players[i].name + ': ' + WORD[hand.fingers] + ', calls ' + hand.call));
  return h('section', 'mo-last', h('h3', null, 'Round ' + r.round + ': the total was ' + r.total),
    h('div', 'mo-hands', ...hands), h('p', 'mo-result', r.text));
}

/** The controls for choosing a hand: fingers, then the calls they allow.
 * @param {import('../kit.js').Update} update
 * @param {import('../kit.js').Send} send
 */
function chooser(update, send) {
  // A new round starts with no fingers picked.
  const round = /** @type {View} */ (update.view).round;
  if (memo.values.round !== round) { memo.values.round = round; memo.values.fingers = 0; }
  const picked = Number(memo.values.fingers) || 0;
  const g = group('show', 'Your hand for this round', 'Choose the fingers to show, then call the total of both hands. It stays face down until both hands are in.');
  const fingers = h('div', 'mo-fingers');
  for (const n of [1, 2, 3]) {
    const t = toggle(handPicture({ fingers: n, call: 0 }, WORD[n]), picked === n, (on) => {
      memo.values.fingers = on ? n : 0;
      redrawPanel('morra');
    }, 'mo-pick');
    t.dataset.fingers = String(n);
    fingers.append(t);
  }
  g.body.append(fingers);
  if (picked) {
    /** @type {{ hands?: Array<{ hand: Hand, scores: import('../kit.js').Chance, concedes: import('../kit.js').Chance, edge: import('../kit.js').Chance }> } | null} the odds of each call, while odds are in play */
    const o = odds(update);
    const calls = h('div', 'mo-calls');
    for (let call = picked + 1; call <= picked + 3; call++) {
      const b = button(g, 'Show ' + picked + ', call ' + call, send, () => command({ type: 'show', fingers: picked, call }), call === picked + 2);
      b.dataset.call = String(call);
      const cell = h('div', 'mo-call', b);
      const mine = o && o.hands ? o.hands.find((x) => x.hand.fingers === picked && x.hand.call === call) : null;
      if (mine) {
        const edge = mine.edge.decimal;
        cell.append(h('small', 'kit-odds', 'scores ', percent(mine.scores), ', concedes ', percent(mine.concedes),
          ', ' + (edge > 0 ? 'gains ' : edge < 0 ? 'loses ' : 'breaks even, ') + (edge ? Math.abs(edge).toFixed(2) + ' points a round' : 'on average')));
      }
      calls.append(cell);
    }
    g.g.append(calls);
  }
  return g.g;
}

register('morra', function (update, send) {
  const v = /** @type {View} */ (update.view);
  if (!v || !Array.isArray(v.players)) return null;
  const me = v.players.find((p) => p.you);
  const hint = v.outcome
    ? v.outcome
    : !me ? 'Round ' + v.round + ': the players choose their hands.'
      : me.chosen ? 'Your hand is in: waiting for ' + v.players.filter((p) => !p.you).map((p) => p.name).join('') + '.'
        : 'Round ' + v.round + ': choose your hand.';
  const line = h('p', 'mo-hint' + (me && !me.chosen && !v.outcome ? ' mine' : ''), hint);
  line.setAttribute('aria-live', 'polite');
  const root = h('div', 'mo', line);
  root.append(h('p', 'mo-target', 'First to ' + v.target + ' points, at most ' + v.round_limit + ' rounds.'));
  root.append(scoreboard(v));
  if (me && me.hand) root.append(h('div', 'mo-mine', handPicture(me.hand, 'Your hand: ' + WORD[me.hand.fingers] + ', calls ' + me.hand.call)));
  if (me && !me.chosen && !v.outcome && update.legal.length) root.append(chooser(update, send));
  const last = lastRound(v);
  if (last) root.append(last);
  return root;
});
