// The review page of an ended table: the replay (the game's own board, step by step as a seat
// saw it, with what was revealed later marked) and the review (each conflict's chart of every
// side's chance, its players' accuracy and luck, every decision and roll), which the server works
// out in the background while this page follows it. Every text goes in as text nodes.
import { $, el, h, pageData, table, panelFor, errorOf, errorText } from './kit.js';
import { ruleLinker } from './rule-links.js';

/** @typedef {import('./kit.js').Update} Update */
/** @typedef {import('./types/ReviewStatus').ReviewStatus} ReviewStatus */
/** @typedef {import('./types/ReplayFrame').ReplayFrame} Frame */
/** @typedef {import('./types/Review').Review} Review */
/** @typedef {import('./types/ConflictReview').ConflictReview} ConflictReview */
/** @typedef {import('./types/Moment').Moment} Moment */
/** @typedef {import('./types/PlayerReview').PlayerReview} PlayerReview */

/** @type {{ table: string, key: string, ruleset: string, game: string, viewer: string, back: string, update: Update, rules: import('./types/RulesLinks').RulesLinks | null }} */
const boot = pageData('boot');
const api = '/api/tables/' + encodeURIComponent(boot.table);
const keyParam = 'key=' + encodeURIComponent(boot.key);

/** @type {{ step: number, steps: number, viewer: string, frame: Frame | null, review: Review | null, wanted: number }} */
const at = { step: 0, steps: 0, viewer: boot.viewer, frame: null, review: null, wanted: 0 };
/** @type {Map<string, Promise<Frame | null>>} */
const frames = new Map();

// The boards draw a replayed step as they draw a live one, with nothing to send.
table.closed = 'This is a replay of an ended table: nothing is sent from it.';
table.send = async () => false;
/** @type {Update | null} */
let shown = null;
table.latest = () => shown;

// ---- Words ------------------------------------------------------------------------------

/** @param {number} p */
const percent = (p) => Math.round(Math.max(0, Math.min(1, p)) * 100) + '%';
/** @param {number} p a change of chance */
function points(p) {
  const n = Math.round(p * 100);
  if (Math.abs(p) < 1e-9) return 'no change';
  if (n === 0) return 'less than a point';
  return (n > 0 ? '+' : '−') + Math.abs(n) + (Math.abs(n) === 1 ? ' point' : ' points');
}
/** @param {number} x a sum of luck or a result (1 is a whole win) */
const signed = (x) => (x < -0.005 ? '−' + (-x).toFixed(2) : '+' + Math.max(0, x).toFixed(2));
/** @param {string} seat */
function nameOf(seat) {
  if (seat === 'spectator') return 'a spectator';
  const p = (boot.update.room.people || []).find((x) => x.seat === seat);
  return p ? p.name : seat === 'gm' ? 'the GM' : 'a player';
}
const GRADE = { best: 'best', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };

// ---- The replay ---------------------------------------------------------------------------

/** @param {number} step @param {string} viewer */
function frame(step, viewer) {
  const k = viewer + ':' + step;
  if (!frames.has(k)) {
    const url = api + '/replay?' + keyParam + '&step=' + step + '&as=' + encodeURIComponent(viewer);
    frames.set(k, fetch(url).then(async (r) => {
      if (r.ok) return /** @type {Promise<Frame>} */ (r.json());
      $('rv-error').textContent = errorText(await errorOf(r), r.status);
      frames.delete(k);
      return null;
    }).catch(() => { frames.delete(k); return null; }));
  }
  return frames.get(k);
}

/**
 * Show step `step` (clamped), and fetch its neighbours ahead of time.
 * @param {number} step
 */
async function go(step) {
  const target = Math.max(0, Math.min(step, at.steps || step));
  at.wanted = target;
  const f = await frame(target, at.viewer);
  if (!f || at.wanted !== target) return;
  at.frame = f;
  at.step = f.step;
  at.steps = f.steps;
  drawFrame(f);
  for (const n of [target + 1, target - 1]) if (n >= 0 && n <= f.steps) frame(n, at.viewer);
}

/** @param {Frame} f */
function drawFrame(f) {
  const slider = $('rv-slider');
  slider.max = String(f.steps);
  slider.value = String(f.step);
  slider.setAttribute('aria-valuetext', 'step ' + f.step + ' of ' + f.steps);
  $('rv-where').textContent = f.step === 0
    ? 'Step 0 of ' + f.steps + ': the table as it began'
    : 'Step ' + f.step + ' of ' + f.steps + ': ' + f.actor + '’s move';
  $('rv-first').disabled = $('rv-back').disabled = f.step === 0;
  $('rv-last').disabled = $('rv-forward').disabled = f.step === f.steps;
  const lines = f.lines.map((l) => el('li', { class: l.later ? 'later' : '' },
    l.later ? h('span', 'rv-tag', 'revealed later') : null, l.later ? ' ' : null, l.text));
  $('rv-lines').replaceChildren(...lines);
  $('rv-status').textContent = f.status;
  $('render').textContent = f.render;
  drawBoard(f);
  drawVerdict();
  markCharts();
}

/**
 * The game's board for the replayed step: the page's update with the step's view in it.
 * @param {Frame} f
 */
function drawBoard(f) {
  const draw = panelFor(boot.ruleset);
  const board = $('panel');
  if (!draw) { board.replaceChildren(h('pre', 'rv-text', f.render)); return; }
  const seat = at.viewer === 'spectator' ? null : at.viewer;
  shown = /** @type {Update} */ (Object.assign({}, boot.update, {
    view: f.view, render: f.render, legal: [], events: [], seat: seat,
    viewer: seat || 'spectator', closed: true,
  }));
  try { draw(board, shown, table.send); } catch (e) { board.replaceChildren(h('pre', 'rv-text', f.render)); }
  // Nothing on a replayed board does anything.
  for (const c of board.querySelectorAll('button, input, select, textarea')) c.disabled = true;
}

// Buttons, the slider and the arrow keys.
$('rv-first').addEventListener('click', () => go(0));
$('rv-back').addEventListener('click', () => go(at.step - 1));
$('rv-forward').addEventListener('click', () => go(at.step + 1));
$('rv-last').addEventListener('click', () => go(at.steps));
$('rv-slider').addEventListener('input', () => go(Number($('rv-slider').value)));
document.addEventListener('keydown', (e) => {
  const t = /** @type {HTMLElement} */ (e.target);
  if (t && (t.id === 'rv-slider' || ['SELECT', 'TEXTAREA'].includes(t.tagName) || (t.tagName === 'INPUT' && t.id !== 'rv-slider'))) return;
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: at.step - 1, ArrowRight: at.step + 1, Home: 0, End: at.steps };
  if (e.key in moves && !e.altKey && !e.ctrlKey && !e.metaKey) { e.preventDefault(); go(moves[e.key]); }
});

// Whose view: every seat at the table, or a spectator's.
function fillViewers() {
  const seats = (boot.update.room.people || []).map((p) => p.seat);
  if (!seats.includes('gm')) seats.push('gm');
  const options = [...seats.map((s) => [s, nameOf(s)]), ['spectator', 'a spectator (what everyone saw)']];
  const select = $('rv-as');
  select.replaceChildren(...options.map(([v, t]) => el('option', { value: v }, t)));
  if (!options.some(([v]) => v === at.viewer)) at.viewer = 'spectator';
  select.value = at.viewer;
  select.addEventListener('change', () => { at.viewer = select.value; go(at.step); });
}

// ---- The review ---------------------------------------------------------------------------

/** This step's verdict and luck, beside the board. */
function drawVerdict() {
  const box = $('rv-verdict');
  const r = at.review;
  if (!r || at.step === 0) { box.replaceChildren(); return; }
  /** @type {Node[]} */
  const out = [];
  for (const c of r.conflicts) {
    for (const m of c.moments) if (m.step + 1 === at.step) out.push(momentBody(c, m, true));
  }
  box.replaceChildren(...out);
}

/** @param {ConflictReview} c @param {Moment} m @param {boolean} [here] */
function momentBody(c, m, here) {
  const side = (/** @type {number} */ i) => (c.sides[i] ? c.sides[i].name : '');
  const parts = [h('p', 'rv-what', here ? null : h('b', null, 'Step ' + (m.step + 1) + ': '), m.text)];
  if (m.decision) {
    const v = m.decision;
    const line = h('p', 'rv-decision', h('span', 'rv-grade ' + v.grade, GRADE[v.grade]), ' ');
    line.append(v.loss > 0.0005
      ? side(v.side) + ' gave away ' + points(v.loss).replace('+', '') + ' of its chance (' + percent(v.best) + ' with the best choice, ' + percent(v.played) + ' with this one).'
      : 'As good as the best choice (' + percent(v.played) + ' for ' + side(v.side) + ').');
    parts.push(line);
    if (v.best_choice) parts.push(h('p', 'rv-best', 'Best: ' + v.best_choice));
    if (v.hindsight) {
      const hs = v.hindsight;
      parts.push(h('p', 'rv-hindsight', hs.loss > 0.0005
        ? 'Against what the others really chose, the best reply' + (hs.best_choice ? ' (' + hs.best_choice + ')' : '') + ' would have left ' + percent(hs.best) + ' instead of ' + percent(hs.played) + '.'
        : 'Against what the others really chose, it was the best reply.'));
    }
    parts.push(h('p', 'hint', 'Judged by ' + v.basis + '.'));
  }
  if (m.luck) {
    const l = m.luck;
    const each = c.sides.map((s, i) => s.name + ' ' + points(l.luck[i] || 0)).join(', ');
    parts.push(h('p', 'rv-luck', 'Luck: ' + each + ' (against ' + (l.sampled ? 'a sample of ' : 'all ') + l.results + ' possible results).'));
  }
  if (m.unevaluated) parts.push(h('p', 'hint', 'Not evaluated: ' + m.unevaluated + '.'));
  return h('div', 'rv-moment', ...parts);
}

/** @param {PlayerReview} p */
function playerLine(p) {
  const bits = [p.decisions + (p.decisions === 1 ? ' decision' : ' decisions')];
  if (p.accuracy != null) bits.push('accuracy ' + Math.round(p.accuracy));
  bits.push(p.inaccuracies + ' inaccuracies, ' + p.mistakes + ' mistakes, ' + p.blunders + ' blunders');
  if (p.rolls) bits.push('luck ' + signed(p.luck) + ' over ' + p.rolls + (p.rolls === 1 ? ' roll' : ' rolls'));
  if (p.result != null) {
    const plain = (/** @type {number} */ x) => signed(x).replace(/^\+/, '');
    bits.push('result ' + plain(p.result) + (p.adjusted != null ? ', ' + plain(p.adjusted) + ' with the luck taken out' : ''));
  }
  return el('li', null, h('b', null, p.name), ': ' + bits.join(' · '));
}

const COLOURS = ['#2457c5', '#b3261e', '#1b7f3b', '#8a4b0f', '#6a1b9a', '#00695c'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '4 4'];
const SVG = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * One conflict's chart: each side's chance over the steps, rolls marked along the bottom.
 * @param {ConflictReview} c
 * @param {number} index
 */
function chart(c, index) {
  const W = 320, H = 150, L = 30, T = 8, B = 18;
  const n = Math.max(1, c.points.length - 1);
  const x = (/** @type {number} */ i) => L + (i / n) * (W - L - 6);
  const y = (/** @type {number} */ p) => T + (1 - p) * (H - T - B);
  const words = c.sides.map((s, i) => {
    const first = c.points[0], last = c.points[c.points.length - 1];
    return first && last ? s.name + ' from ' + percent(first.chances[i]) + ' to ' + percent(last.chances[i]) : s.name;
  }).join('; ');
  const box = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'rv-chart', role: 'img', 'aria-label': 'Each side’s chance over the conflict: ' + words });
  for (const p of [0, 0.5, 1]) {
    box.append(svg('line', { x1: L, x2: W - 6, y1: y(p), y2: y(p), class: 'rv-grid' }));
    const t = svg('text', { x: L - 4, y: y(p) + 4, class: 'rv-axis', 'text-anchor': 'end' });
    t.textContent = percent(p);
    box.append(t);
  }
  c.points.forEach((p, i) => {
    if (p.roll) box.append(svg('path', { d: 'M' + x(i) + ' ' + (H - 12) + ' l4 5 l-4 5 l-4 -5 z', class: 'rv-roll' }));
  });
  c.sides.forEach((s, k) => {
    const pts = c.points.map((p, i) => x(i).toFixed(1) + ',' + y(p.chances[k] ?? 0).toFixed(1)).join(' ');
    box.append(svg('polyline', { points: pts, fill: 'none', stroke: COLOURS[k % 6], 'stroke-width': 2.2, 'stroke-dasharray': DASHES[k % 6], 'stroke-linejoin': 'round' }));
  });
  const marker = svg('line', { x1: 0, x2: 0, y1: T, y2: H - B, class: 'rv-now', 'data-chart': index });
  box.append(marker);
  box.addEventListener('click', (e) => {
    const r = box.getBoundingClientRect();
    const i = Math.round(((e.clientX - r.left) / r.width * W - L) / (W - L - 6) * n);
    const p = c.points[Math.max(0, Math.min(c.points.length - 1, i))];
    if (p) go(p.step);
  });
  const legend = h('ul', 'rv-legend', ...c.sides.map((s, k) => el('li', null,
    el('span', { class: 'rv-swatch s' + (k % 6) }), ' ' + s.name)),
  el('li', null, h('span', 'rv-diamond', '◆'), ' dice rolled or cards drawn'));
  return h('figure', 'rv-figure', box, legend);
}

/** Move each chart's marker to the step shown. */
function markCharts() {
  const r = at.review;
  if (!r) return;
  for (const m of document.querySelectorAll('line.rv-now')) {
    const c = r.conflicts[Number(m.getAttribute('data-chart'))];
    if (!c) continue;
    const n = Math.max(1, c.points.length - 1);
    let i = c.points.findIndex((p) => p.step >= at.step);
    const inside = at.step >= c.first_step && at.step <= c.last_step + 1;
    if (i < 0) i = c.points.length - 1;
    const xx = 30 + (i / n) * (320 - 36);
    m.setAttribute('x1', String(xx));
    m.setAttribute('x2', String(xx));
    m.setAttribute('visibility', inside ? 'visible' : 'hidden');
  }
}

/** @param {ConflictReview} c @param {number} i */
function conflictCard(c, i) {
  const jump = (/** @type {Moment} */ m) => {
    const b = el('button', { type: 'button', class: 'link rv-jump' }, 'Step ' + (m.step + 1));
    b.addEventListener('click', () => go(m.step + 1));
    return b;
  };
  const swings = c.swings.map((k) => c.moments[k]).filter(Boolean);
  const list = c.moments.map((m) => el('li', { class: m.decision ? 'rv-' + m.decision.grade : '' }, jump(m), momentBody(c, m)));
  return h('section', 'rv-conflict',
    h('h3', null, c.title),
    chart(c, i),
    ...c.summary.map((s) => h('p', 'rv-summary', s)),
    swings.length ? h('h4', null, 'Biggest swings') : null,
    swings.length ? h('ol', 'rv-swings', ...swings.map((m) => el('li', null, jump(m), ' ' + m.text))) : null,
    h('details', 'rv-all', h('summary', null, 'Every decision and roll (' + c.moments.length + ')'), h('ol', 'rv-moments', ...list)));
}

/** @param {ReviewStatus} s */
function drawReview(s) {
  const r = s.review;
  at.review = r;
  const p = r.progress;
  $('rv-progress').textContent = s.state === 'working'
    ? 'Reviewing: ' + p.evaluated + ' of ' + p.steps + ' commands looked at so far…'
    : s.state === 'done'
      ? 'Every one of the ' + p.steps + ' commands is looked at (' + s.seconds.toFixed(1) + ' s of work).'
      : 'Stopped after ' + p.evaluated + ' of ' + p.steps + ' commands: ' + (p.stopped || 'it was stopped') + '.';
  $('rv-players').replaceChildren(h('h3', null, 'Players'), h('ul', 'rv-players', ...r.players.map(playerLine)));
  $('rv-conflicts').replaceChildren(...r.conflicts.map(conflictCard));
  const notes = r.unevaluated.length ? [h('h4', null, 'What it could not evaluate'), h('ul', null, ...r.unevaluated.map((u) => el('li', null, u)))] : [];
  $('rv-measure').replaceChildren(...r.measure.map((m) => h('p', null, m)), ...notes,
    h('p', 'hint', 'A decision gives away the difference between its side’s chance after the best choice and after the one made: 5 points or more is an inaccuracy, 10 a mistake, 15 a blunder. Accuracy is lichess’s, from those losses. Luck is a side’s chance after a roll minus its average over every possible result.'));
  drawVerdict();
  markCharts();
}

async function followReview() {
  try {
    const r = await fetch(api + '/review?' + keyParam);
    if (!r.ok) {
      $('rv-progress').textContent = '';
      $('rv-error').textContent = errorText(await errorOf(r), r.status);
      return;
    }
    /** @type {ReviewStatus | null} */
    const s = await r.json();
    if (!s) { $('rv-progress').textContent = boot.game + ' has no review yet: its replay is here.'; return; }
    drawReview(s);
    if (s.state === 'working') setTimeout(followReview, 700);
  } catch (e) {
    $('rv-progress').textContent = 'The server could not be reached; trying again…';
    setTimeout(followReview, 2000);
  }
}

// Rule IDs in the narration and the boards become links to the rules, as on the table page.
ruleLinker(boot.rules, null).watch($('main'));
fillViewers();
go(0);
followReview();
