// Building blocks shared by the per-ruleset panels: elements built from text nodes only, inputs
// whose values survive the redraw every live update causes, and control groups that show the
// error of their last refused command right under their buttons.
import { h, table, registerPanel, keepFocus } from './kit.js';

/** @typedef {import('./kit.js').Update} Update */

// A kit for one panel; `prefix` names its CSS classes (`ndt`, `wa`, …).
function make(prefix) {
  const memo = { values: {}, errors: {} };

  // Give `e` the value remembered under `key` (or `initial`), and remember what the user types.
  function remember(e, key, initial) {
    e.dataset.key = key;
    const isBox = e.type === 'checkbox';
    if (key in memo.values) {
      if (isBox) e.checked = memo.values[key]; else e.value = memo.values[key];
    } else if (initial != null) {
      if (isBox) e.checked = !!initial; else e.value = initial;
    }
    // A remembered choice that is no longer offered falls back to the first option.
    if (e.tagName === 'SELECT' && e.selectedIndex < 0 && e.options.length) e.selectedIndex = 0;
    const save = () => { memo.values[key] = isBox ? e.checked : e.value; };
    e.addEventListener('input', save);
    e.addEventListener('change', save);
    return e;
  }

  function select(key, options, initial, label) {
    const e = document.createElement('select');
    e.setAttribute('aria-label', label);
    for (const [value, text] of options) {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      e.append(o);
    }
    return remember(e, key, initial);
  }

  function input(key, type, placeholder, initial, attrs) {
    const e = document.createElement('input');
    e.type = type;
    e.placeholder = placeholder;
    e.setAttribute('aria-label', placeholder);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return remember(e, key, initial);
  }

  const text = (key, placeholder, initial) => input(key, 'text', placeholder, initial);

  function checkbox(key, labelText, initial) {
    const e = document.createElement('input');
    e.type = 'checkbox';
    remember(e, key, initial);
    return { box: e, label: h('label', 'kit-check ' + prefix + '-check', e, ' ' + labelText) };
  }

  function group(key, title, hint) {
    const err = h('p', 'error');
    err.setAttribute('role', 'alert');
    err.textContent = memo.errors[key] || '';
    const body = h('div', 'kit-row ' + prefix + '-row');
    const g = h('div', 'kit-ctl ' + prefix + '-ctl', title ? h('h3', null, title) : null, hint ? h('p', 'hint', hint) : null, body, err);
    g.dataset.control = key;
    return { g, body, err, key };
  }

  // A button that sends `build()`; a refusal stays under the group until the table moves on.
  function button(grp, label, send, build, primary) {
    const b = h('button', primary ? 'kit-go ' + prefix + '-go' : null, label);
    b.type = 'button';
    b.addEventListener('click', async () => {
      // While its command is on its way the button says it is busy: not `disabled`, which
      // would throw the keyboard's focus out of it.
      if (b.getAttribute('aria-disabled') === 'true') return;
      let command;
      try { command = build(); } catch (e) { grp.err.textContent = e.message; return; }
      delete memo.errors[grp.key];
      b.setAttribute('aria-disabled', 'true');
      const ok = await send(command, grp.err);
      b.removeAttribute('aria-disabled');
      if (!ok) memo.errors[grp.key] = grp.err.textContent;
    });
    return b;
  }

  // ----- odds in play: fetched for this seat after each change, when the GM has them on -----

  const oddsState = { enabled: null, count: -1, data: null, pending: false };
  function oddsUrl() {
    const c = table;
    return '/api/tables/' + encodeURIComponent(c.boot.table) + '/odds?key=' + encodeURIComponent(c.boot.key) +
      (c.boot.as ? '&as=' + encodeURIComponent(c.boot.as) : '');
  }
  function fetchOdds(update, redraw) {
    const c = table;
    if (!c.boot || c.boot.role === 'spectator') return;
    if (oddsState.pending || oddsState.count === update.event_count) return;
    oddsState.pending = true;
    const asked = update.event_count;
    fetch(oddsUrl()).then((r) => (r.ok ? r.json() : null)).then((body) => {
      oddsState.pending = false;
      if (!body) return;
      // The server answers for the table as it is now, which is at least what was asked.
      const count = Math.max(asked, body.event_count || asked);
      const changed = oddsState.enabled !== !!body.enabled || oddsState.count !== count ||
        JSON.stringify(oddsState.data) !== JSON.stringify(body.odds || null);
      oddsState.enabled = !!body.enabled;
      oddsState.count = count;
      oddsState.data = body.odds || null;
      // Redraw to show them (which asks again if the table has moved on meanwhile).
      if (changed) redraw();
    }).catch(() => { oddsState.pending = false; });
  }
  // The odds for this update, or null while odds are off or not yet known.
  function odds(update) {
    return oddsState.enabled && oddsState.count === update.event_count ? oddsState.data : null;
  }
  // The GM's switch, shown on the GM's page only.
  function oddsSwitch(redraw) {
    const c = table;
    if (!c.boot || c.boot.role !== 'owner' || oddsState.enabled === null) return null;
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = oddsState.enabled;
    const err = h('span', 'error');
    box.addEventListener('change', async () => {
      box.disabled = true;
      const r = await fetch(oddsUrl(), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(/** @satisfies {import('./types/OddsSwitch').OddsSwitch} */ ({ enabled: box.checked })) }).catch(() => null);
      box.disabled = false;
      if (!r || !r.ok) { err.textContent = 'The switch could not be changed.'; box.checked = !box.checked; return; }
      oddsState.enabled = box.checked;
      oddsState.count = -1;
      redraw();
    });
    const label = h('label', 'kit-check kit-odds-switch', box, ' Odds in play: show each seat the exact odds of its choices, worked out only from what that seat can see');
    return h('div', 'kit-odds-bar', label, err);
  }

  // Install `draw(update, send)` (which returns the panel's new content, or null) as the panel
  // of ruleset `id`. Around every draw: refusals are forgotten once the table moves on, and the
  // control that had the focus keeps it (a text field its caret too), or the focus moves to what
  // the change brought (the kit's `keepFocus`).
  /**
   * @param {string} id
   * @param {(update: Update, send: import('./kit.js').Send) => Node | null} draw
   */
  function register(id, draw) {
    /** @type {import('./kit.js').Panel} */
    const panel = function (element, update, send) {
      // In session zero the table shows the players' sheets instead of a board.
      if (update.view && update.view.session_zero) return;
      if (update.event_count > (memo.count || 0)) memo.errors = {};
      memo.count = Math.max(memo.count || 0, update.event_count);
      keepFocus(element, () => {
        hideTip(); // the element it points at is about to be replaced
        const root = draw(update, send);
        const again = () => {
          const latest = table.latest() || update;
          panel(element, latest, send);
        };
        const bar = oddsSwitch(again);
        element.replaceChildren(...[bar, root].filter(Boolean));
        fetchOdds(update, again);
      });
    };
    // A board registering after the page drew its first update draws that update at once.
    registerPanel(id, panel);
  }

  // A button that asks before it sends: the first tap turns it into "Really …? Yes / No".
  function confirmButton(grp, label, question, send, build, primary) {
    const wrap = h('span', 'kit-confirm');
    const first = h('button', primary ? 'kit-go ' + prefix + '-go' : null, label);
    first.type = 'button';
    first.addEventListener('click', () => {
      const yes = button(grp, 'Yes, ' + label.charAt(0).toLowerCase() + label.slice(1), send, build, true);
      const no = h('button', null, 'No');
      no.type = 'button';
      no.addEventListener('click', () => { wrap.replaceChildren(first); first.focus(); });
      wrap.replaceChildren(h('span', 'kit-ask', question), yes, no);
      yes.focus();
    });
    wrap.append(first);
    return wrap;
  }

  // A number picked with − and + buttons (big enough for a thumb), remembered across redraws.
  function stepper(key, label, min, max, initial, onChange) {
    if (!(key in memo.values)) memo.values[key] = initial;
    let value = Math.max(min, Math.min(max, Number(memo.values[key]) || 0));
    const out = h('output', 'kit-step-value', String(value));
    out.setAttribute('aria-live', 'polite');
    const minus = h('button', 'kit-step', '−');
    const plus = h('button', 'kit-step', '+');
    minus.type = plus.type = 'button';
    minus.setAttribute('aria-label', 'less ' + label);
    plus.setAttribute('aria-label', 'more ' + label);
    minus.dataset.key = key + ':minus';
    plus.dataset.key = key + ':plus';
    const set = (v) => {
      value = Math.max(min, Math.min(max, v));
      memo.values[key] = value;
      out.textContent = String(value);
      minus.disabled = value <= min;
      plus.disabled = value >= max;
      if (onChange) onChange(value);
    };
    minus.addEventListener('click', () => set(value - 1));
    plus.addEventListener('click', () => set(value + 1));
    const box = h('div', 'kit-stepper', h('span', 'kit-step-label', label), minus, out, plus);
    box.dataset.stepper = label;
    box.get = () => value;
    box.set = set;
    minus.disabled = value <= min;
    plus.disabled = value >= max;
    return box;
  }

  // A tile (card, form, die…) that is tapped to choose it: a real button with aria-pressed.
  function toggle(content, pressed, onToggle, cls) {
    const b = h('button', 'kit-tile' + (cls ? ' ' + cls : '') + (pressed ? ' on' : ''), content);
    b.type = 'button';
    b.setAttribute('aria-pressed', pressed ? 'true' : 'false');
    b.addEventListener('click', () => onToggle(!(b.getAttribute('aria-pressed') === 'true')));
    return b;
  }

  return { memo, h, remember, select, input, text, checkbox, group, button, register, confirmButton, stepper, toggle, odds };
}

// ----- drawing helpers shared by every board (no state of their own) -----

const NS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text != null) e.textContent = String(text);
  return e;
}

// The outline of a die with `sides` faces, as a polygon in a 40×40 box.
function dieOutline(sides) {
  const poly = (n, r, turn) => Array.from({ length: n }, (_, i) => {
    const a = turn + (i * 2 * Math.PI) / n;
    return (20 + r * Math.cos(a)).toFixed(1) + ',' + (20 + r * Math.sin(a)).toFixed(1);
  }).join(' ');
  switch (sides) {
    case 4: return poly(3, 20, -Math.PI / 2).replace(/,(\d+(\.\d+)?)/g, (m, y) => ',' + (Number(y) + 4).toFixed(1));
    case 6: return '4,4 36,4 36,36 4,36';
    case 8: return '20,1 39,20 20,39 1,20';
    case 10: return '20,1 38,16 20,39 2,16';
    case 12: return poly(5, 19, -Math.PI / 2);
    default: return poly(6, 19, -Math.PI / 2);
  }
}

// A die drawn as its own shape (d4 a triangle, d6 a square, d8 a diamond, d10 a kite, d12 a
// pentagon, d20 a hexagon), bigger for more sides, showing `face` (or its size when unrolled),
// with an optional label under it ("Owe", a strength's name, "Advantage").
function die(sides, face, label, cls) {
  const size = Math.round(30 + Math.min(20, sides) * 0.8);
  const pic = svg('svg', { viewBox: '0 0 40 40', width: size, height: size, 'aria-hidden': 'true', class: 'kit-die-pic' });
  pic.append(svg('polygon', { points: dieOutline(sides), class: 'kit-die-body' }));
  const shown = face == null ? 'd' + sides : String(face);
  pic.append(svg('text', { x: 20, y: sides === 4 ? 28 : 25, 'text-anchor': 'middle', class: face == null ? 'kit-die-size' : 'kit-die-face' }, shown));
  const box = document.createElement('span');
  box.className = 'kit-die' + (cls ? ' ' + cls : '');
  box.append(pic);
  const cap = document.createElement('small');
  cap.textContent = (face == null ? '' : 'd' + sides) + (label ? (face == null ? '' : ' ') + label : '');
  if (cap.textContent) box.append(cap);
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', (label ? label + ': ' : '') + 'd' + sides + (face == null ? '' : ' showing ' + face));
  return box;
}

// The name people know a seat by: the ruleset's own name for it, which every update carries
// with the people at the table, else "the GM" / "Player 2", never the seat's id.
function seatName(update, seat) {
  if (!seat) return 'nobody';
  const people = (update && update.room && update.room.people) || [];
  const person = people.find((p) => p.seat === seat);
  if (person && person.name) return person.name;
  if (seat === 'gm') return (update && update.room && update.room.host) || 'the GM';
  const m = /^p(\d+)$/.exec(seat);
  return m ? 'Player ' + m[1] : String(seat);
}

// A name as an owner: "Ada’s", but "The Smugglers’" for a name ending in s.
function poss(name) {
  const n = String(name);
  return /’s$|'s$/.test(n) ? n : n + (/s$/.test(n) ? '’' : '’s');
}

// Names as a person lists them: "Ada", "Ada and Bo", "Ada, Bo and Cy" (never "Ada and Bo and Cy").
function andList(names) {
  const xs = names.map(String);
  return xs.length < 2 ? xs.join('') : xs.slice(0, -1).join(', ') + ' and ' + xs[xs.length - 1];
}

// A short explanation shown on hover, keyboard focus, or a long press (touch).
let tipBox = null;
function showTip(el, text) {
  if (!tipBox) {
    tipBox = document.createElement('div');
    tipBox.className = 'kit-tip';
    // Only for the eye: a screen reader hears the same text as the element's own description.
    tipBox.setAttribute('aria-hidden', 'true');
    document.body.append(tipBox);
  }
  tipBox.textContent = text;
  const r = el.getBoundingClientRect();
  tipBox.style.display = 'block';
  const w = tipBox.offsetWidth;
  tipBox.style.left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + window.scrollX + r.width / 2 - w / 2)) + 'px';
  tipBox.style.top = (r.bottom + window.scrollY + 6) + 'px';
}
function hideTip() { if (tipBox) tipBox.style.display = 'none'; }
function tip(el, text) {
  el.dataset.tip = text;
  el.setAttribute('aria-description', text);
  el.addEventListener('mouseenter', () => showTip(el, text));
  el.addEventListener('mouseleave', hideTip);
  // Keyboard focus shows it; the focus a redraw gives back after a tap does not.
  el.addEventListener('focus', () => { if (el.matches(':focus-visible')) showTip(el, text); });
  el.addEventListener('blur', hideTip);
  let timer = null;
  el.addEventListener('touchstart', () => { timer = setTimeout(() => { timer = null; showTip(el, text); }, 450); }, { passive: true });
  const cancel = () => { if (timer) clearTimeout(timer); timer = null; };
  el.addEventListener('touchend', cancel);
  el.addEventListener('touchmove', cancel, { passive: true });
  el.addEventListener('contextmenu', (e) => { if (el.dataset.tip) { e.preventDefault(); showTip(el, text); } });
  return el;
}
document.addEventListener('scroll', hideTip, { passive: true });

// An exact probability ({fraction, decimal}) as a percentage a person reads, exact on hover.
function percent(p) {
  const x = (p && typeof p.decimal === 'number' ? p.decimal : 0) * 100;
  const e = document.createElement('b');
  e.className = 'kit-pct';
  e.textContent = (x > 0 && x < 1 ? '<1' : x > 99 && x < 100 ? '>99' : x < 10 ? x.toFixed(1).replace(/\.0$/, '') : Math.round(x)) + '%';
  if (p && p.fraction) e.title = 'exactly ' + p.fraction;
  return e;
}

export { make, svg, die, seatName, tip, hideTip, percent, andList, poss };
