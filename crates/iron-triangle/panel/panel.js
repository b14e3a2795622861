// Iron Triangle panel: character sheets, countdowns, the open problem, the conflict turn, and
// controls built only from the commands the engine lists as legal for this seat. Every text goes
// in as text nodes, never parsed as markup.
(function () {
  'use strict';

  // Typed input values and error messages survive the redraw that every live update causes.
  const { memo, h, select, input, checkbox, group, button, register } = window.ClashPanelKit.make('ndt');
  const TYPES = ['defend', 'grapple', 'attack'];
  const TYPE_COLOURS = { defend: '#2f5fd0', grapple: '#2e8b57', attack: '#d33b3b' };

  // ----- words -----

  const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
  const words = (s) => cap(String(s).replace(/_/g, ' '));

  // A compact text for any serialized engine value (moves, stances, specials, outcomes).
  function fmt(x) {
    if (x == null) return '—';
    if (typeof x !== 'object') return String(x).replace(/_/g, ' ');
    if (Array.isArray(x)) return x.map(fmt).join(', ');
    if ('state' in x) return x.state === 'waiting' ? 'waiting' : x.state === 'ready' ? 'ready' : x.state + (x.value != null ? ': ' + fmt(x.value) : '');
    if ('special' in x && Object.keys(x).length <= 3) return words(x.special) + (x.action ? ' (' + x.action + ')' : '');
    if ('action' in x && 'amount' in x) return x.amount ? x.amount + ' ' + x.action : 'no stance';
    const keys = Object.keys(x);
    if (keys.length === 1 && typeof x[keys[0]] !== 'object') return words(keys[0]) + ': ' + fmt(x[keys[0]]);
    return keys.filter((k) => x[k] != null && x[k] !== false).map((k) => (x[k] === true ? words(k) : words(k) + ' ' + fmt(x[k]))).join(' · ');
  }

  const OPTIONS = { 1: 'Good idea', 2: 'Background point', 3: 'Complication', 4: 'Interesting failure' };
  function optionText(option, trait) {
    return option + ' · ' + (OPTIONS[option] || '?') + (trait ? ' (' + trait + ')' : '');
  }
  function deciderText(d) {
    if (!d) return '—';
    return (d.character ? d.character + ' (' + d.seat + ')' : 'the GM') + (d.option ? ' with option ' + optionText(d.option, d.trait) : '') + (d.by_veto ? ' by veto' : '');
  }

  function moveName(v, character, mv) {
    const c = v.characters.find((x) => x.name === character);
    const known = c && c.moves && c.moves.find((m) => m.move === mv);
    return known ? known.name + ' (' + mv + ')' : String(mv);
  }

  function moveText(v, character, choice) {
    if (choice === 'surrender' || (choice && choice.surrender !== undefined)) return 'surrender';
    if (typeof choice === 'string') return moveName(v, character, choice);
    if (choice && choice.move) return moveName(v, character, choice.move);
    return fmt(choice);
  }

  // ----- character sheets -----

  function bar(type, current, max) {
    const pct = max ? Math.round((100 * current) / max) : 0;
    const fill = h('div');
    fill.style.width = pct + '%';
    fill.style.height = '100%';
    fill.style.background = TYPE_COLOURS[type];
    fill.style.borderRadius = '4px';
    const track = h('div', null, fill);
    track.style.flex = '1 1 auto';
    track.style.height = '.9rem';
    track.style.background = '#e6e8eb';
    track.style.borderRadius = '4px';
    track.setAttribute('role', 'meter');
    track.setAttribute('aria-valuenow', String(current));
    track.setAttribute('aria-valuemax', String(max));
    track.setAttribute('aria-label', type + ' energy');
    const label = h('span', null, cap(type));
    label.style.width = '4.2rem';
    const num = h('b', null, current + '/' + max);
    num.style.minWidth = '2.6rem';
    num.style.textAlign = 'right';
    const row = h('div', 'it-bar', label, track, num);
    row.style.display = 'flex';
    row.style.alignItems = 'center';
    row.style.gap = '.4rem';
    row.style.margin = '.15rem 0';
    row.dataset.type = type;
    return row;
  }

  function traitLine(label, t, markWord) {
    if (!t || !t.text) return null;
    const done = t.marked || t.achieved;
    return h('li', null, h('b', null, label + ': '), t.text, done ? h('span', 'pill ready', ' ' + markWord) : null);
  }

  function sheet(v, c, mineSeat) {
    const fighter = v.conflict && v.conflict.fighters.find((f) => f.name === c.name);
    const head = h('div', 'wa-head',
      h('strong', null, c.name),
      h('span', 'pill', c.pc ? 'PC · ' + c.controller : 'NPC'),
      h('span', 'pill', 'Level ' + c.level),
      c.veto ? h('span', 'pill ready', 'veto available') : h('span', 'pill', 'veto used'),
      c.dead ? h('span', 'pill waiting', 'dead') : null,
      fighter ? h('span', 'pill', words(fighter.status)) : null);
    const card = h('section', 'wa-char' + (c.controller === mineSeat ? ' mine' : '') + (c.dead ? ' dead' : ''), head);
    card.dataset.character = c.name;
    const e = c.energy || {};
    for (const t of TYPES) {
      const row = bar(t, (e.current || {})[t] || 0, (e.max || {})[t] || 0);
      if (c.marks && c.marks.zero && c.marks.zero[t]) row.append(h('small', 'hint', 'hit 0'));
      card.append(row);
    }
    if (c.sheet_hidden) {
      card.append(h('p', 'hint', 'Moves, combos and specials hidden until the GM reveals them.'));
    } else {
      card.append(h('div', 'wa-label', 'Moves'));
      const ms = h('div', 'ndt-line');
      for (const m of c.moves || []) {
        const chip = h('span', 'ndt-card', m.name + ' ', h('small', null, m.move));
        ms.append(chip);
      }
      if (!(c.moves || []).length) ms.append(h('span', 'hint', 'none'));
      card.append(ms);
      if ((c.combos || []).length) {
        card.append(h('div', 'wa-label', 'Combos'));
        const ul = h('ul', 'wa-strengths');
        for (const k of c.combos) ul.append(h('li', null, moveName(v, c.name, k.from) + ' → ' + k.followups.map((f) => moveName(v, c.name, f)).join(' / ')));
        card.append(ul);
      }
      if ((c.specials || []).length) {
        card.append(h('div', 'wa-label', 'Specials'));
        const ul = h('ul', 'wa-strengths');
        for (const s of c.specials) ul.append(h('li', s.spent ? 'gone' : null, fmt(s) + (s.spent ? ' (spent)' : '')));
        card.append(ul);
      }
    }
    const traits = h('ul', 'wa-strengths',
      traitLine('Belief', c.belief, 'marked'), traitLine('Flaw', c.flaw, 'marked'), traitLine('Goal', c.goal, 'achieved'));
    if (c.marks && c.marks.q1) traits.append(h('li', null, 'Level-up question 1: marked'));
    if (traits.childNodes.length) card.append(h('div', 'wa-label', 'Traits'), traits);
    if ((c.backgrounds || []).length || c.unassigned_points) {
      card.append(h('div', 'wa-label', 'Backgrounds'));
      const parts = (c.backgrounds || []).map((b) => b.name + ' ' + b.current + '/' + b.max);
      if (c.unassigned_points) parts.push(c.unassigned_points + ' unassigned point(s)');
      card.append(h('p', null, parts.join(' · ')));
    }
    if (fighter && fighter.pile && fighter.pile.length) {
      card.append(h('div', 'wa-label', 'Played pile'), h('p', null, fighter.pile.map((m) => moveName(v, c.name, m)).join(', ')));
    }
    return card;
  }

  // ----- campaign: countdowns and the problem -----

  function countdowns(v) {
    const cds = (v.campaign && v.campaign.countdowns) || [];
    if (!cds.length) return null;
    const box = h('div', 'wa-conflict', h('h4', null, 'Countdowns'));
    for (const c of cds) {
      const boxes = h('span', 'wa-dice');
      for (let i = 0; i < c.boxes; i++) {
        const b = h('span', 'wa-die', i < c.marked ? '■' : '□');
        b.setAttribute('aria-label', i < c.marked ? 'marked' : 'empty');
        if (i < c.marked) { b.style.background = '#4b5563'; b.style.color = '#fff'; }
        boxes.append(b);
      }
      box.append(h('p', null, h('b', null, c.name + ' '), boxes, ' ' + c.marked + '/' + c.boxes,
        c.consequences ? h('span', 'hint', ' — ' + c.consequences) : null));
    }
    return box;
  }

  function problem(v) {
    const p = v.campaign && v.campaign.problem;
    if (!p) return null;
    const box = h('div', 'wa-conflict', h('h4', null, 'Problem #' + p.number + (p.revealed ? ' · revealed' : ' · secret picks')), h('p', null, p.description));
    const ul = h('ul', 'wa-strengths');
    for (const k of p.choosers) {
      let pick = 'ready';
      if (k.pick) pick = k.pick.kind === 'pass' ? 'pass' : optionText(k.pick.option, k.pick.trait);
      ul.append(h('li', null, k.character + ' (' + k.seat + '): ', h('span', 'pill ' + (p.revealed ? '' : 'ready'), (p.revealed ? '' : (k.pick ? 'your secret pick: ' : '')) + pick)));
    }
    for (const s of p.waiting_for) ul.append(h('li', null, s + ': ', h('span', 'pill waiting', 'choosing…')));
    box.append(ul);
    const st = p.stage || {};
    let stage = 'Choosing';
    if (st.stage === 'decider_tied') stage = 'Tied: the GM picks the decider among ' + (st.candidates || []).join(', ');
    else if (st.stage === 'narrating') stage = deciderText(st.decider) + ' narrates the outcome';
    else if (st.stage === 'narrated') stage = deciderText(st.decider) + ' narrated: ' + st.text;
    box.append(h('p', 'ndt-turn', stage));
    if (p.vetoed) box.append(h('p', 'hint', 'Vetoed: ' + deciderText(p.vetoed)));
    if ((p.vetoes || []).length) box.append(h('p', 'hint', 'Vetoes: ' + fmt(p.vetoes)));
    if ((p.rejected || []).length) box.append(h('p', 'hint', 'Narration rejected by ' + p.rejected.join(', ')));
    return box;
  }

  // ----- the conflict -----

  function conflict(v) {
    const c = v.conflict;
    if (!c) return null;
    const t = c.turn;
    const box = h('div', 'wa-conflict it-conflict', h('h4', null, 'Conflict' + (c.lethal ? ' · lethal' : '') + (c.minor ? ' · minor' : '')),
      h('p', null, h('b', null, 'Stakes: '), c.stakes));
    const phase = typeof c.phase === 'string' ? c.phase : (c.phase && c.phase.phase) || '';
    const phaseWords = { forming: 'Forming: join or sit out', pick_active: 'Picking who acts next', turn: 'Turn', mercy: 'Mercy: kill or spare', ended: 'Ended' };
    const pills = h('div', 'ndt-pills', h('span', 'pill', phaseWords[phase] || words(phase)));
    if (t) {
      pills.append(h('span', 'pill', 'Turn ' + t.number), h('span', 'pill', 'Step: ' + words(t.step)));
      if (t.window) pills.append(h('span', 'pill wa-adv', 'Special window ' + t.window));
    }
    if (c.chain) pills.append(h('span', 'pill wa-adv', 'Chain vs ' + c.chain.against + ': ' + c.chain.cards.map(([n, m]) => moveName(v, n, m)).join(' → ')));
    box.append(pills);
    if (t) {
      box.append(h('p', 'ndt-turn', t.active + '’s turn' + (t.opponent ? ' against ' + t.opponent : ' — picking an opponent')));
      const table = h('table', 'wa-forms');
      table.append(h('tr', null, h('th', null, ''), h('th', null, 'Stance'), h('th', null, 'Move')));
      for (const p of t.participants) {
        const cell = (ch, isMove) => {
          const state = ch && ch.state;
          const text = state === 'waiting' ? 'waiting…' : state === 'ready' ? 'ready ✓' : state === 'chosen' ? 'yours: ' + (isMove ? moveText(v, p.name, ch.value) : fmt(ch.value)) : (isMove ? moveText(v, p.name, ch.value) : fmt(ch.value));
          return h('td', null, h('span', 'pill ' + (state === 'waiting' ? 'waiting' : 'ready'), text));
        };
        const tr = h('tr', null, h('th', null, p.name + (p.forbidden ? ' (no ' + p.forbidden + ')' : '') + (p.swapped ? ' (swapped)' : '')), cell(p.stance, false), cell(p.move, true));
        tr.dataset.participant = p.name;
        table.append(tr);
      }
      box.append(table);
      if (t.specials.length) {
        const ul = h('ul', 'wa-strengths');
        for (const s of t.specials) ul.append(h('li', s.cancelled ? 'gone' : null, s.by + ' at ' + s.window + ': ' + (s.special ? fmt(s.special) : 'a face-down special') + (s.target ? ' → ' + s.target : '') + (s.cancelled ? ' (cancelled)' : '')));
        box.append(h('div', 'wa-label', 'Specials this turn'), ul);
      }
    }
    if (c.waiting_for && c.waiting_for.length) box.append(h('p', 'hint', 'Waiting for: ' + c.waiting_for.join(', ')));
    if (c.split) box.append(h('p', 'hint', c.split.character + ' must ' + (c.split.gain ? 'share a gain of ' : 'split a loss of ') + c.split.amount + ' (' + c.split.splitter + ' decides)'));
    const lt = c.last_turn;
    if (lt) {
      const ul = h('ul', 'wa-exchanges');
      ul.append(h('li', null, 'Stances: ' + lt.stances.map(([n, s]) => n + ' ' + fmt(s)).join(' · ')));
      ul.append(h('li', null, 'Moves: ' + lt.moves.map(([n, m]) => n + ' ' + moveText(v, n, m)).join(' · ')));
      const o = lt.outcome || {};
      ul.append(h('li', null, o.result === 'win' ? o.winner + ' wins with ' + moveName(v, o.winner, o.winning_move) + ' over ' + moveName(v, o.loser, o.losing_move) + ' (' + words(o.by) + (o.combo ? ', combo' : '') + ')'
        : o.result === 'tie' ? 'Tie: ' + (o.moves || []).join(' vs ') : 'Outcome: ' + fmt(o)));
      for (const b of lt.breakdown || []) {
        const terms = [['base', b.base], ['opponent’s stance', b.from_stance], ['own stance', b.own_stance], ['combo', b.combo], ['disadvantage', b.disadvantage]]
          .filter(([, n]) => n).map(([k, n]) => n + ' ' + k);
        ul.append(h('li', null, b.character + ' loses ' + (terms.join(' + ') || '0') + ' = ' + b.total + (b.waxed ? ' (Wax On)' : '')));
      }
      for (const [n, l] of lt.lost || []) ul.append(h('li', null, n + ' lost ' + TYPES.map((k) => l[k] + ' ' + k).join(', ')));
      for (const [n, g] of lt.gained || []) ul.append(h('li', null, n + ' gained ' + TYPES.map((k) => g[k] + ' ' + k).join(', ')));
      box.append(h('div', 'wa-label', 'Last turn (' + lt.number + ')'), ul);
    }
    if (c.scouted && c.scouted.length) box.append(h('p', 'hint', 'Scouted: ' + fmt(c.scouted)));
    if (c.outcome) box.append(h('p', 'ndt-turn', 'Over: ' + (c.outcome.winner ? 'the ' + fmt(c.outcome.winner) + ' side wins' : 'settled by the GM') + ' — ' + c.outcome.reason + (c.outcome.dead && c.outcome.dead.length ? ' · dead: ' + c.outcome.dead.join(', ') : '')));
    if (c.outcome && c.outcome.narration) box.append(h('p', 'hint', 'What happened: ' + c.outcome.narration));
    return box;
  }

  // ----- controls -----

  // Fields the player writes in themselves; every other field is taken from the legal command.
  const FREE = {
    start_conflict: ['stakes', 'lethal', 'minor'], settle_conflict: ['outcome'], narrate_conflict: ['text'], open_problem: ['description'],
    narrate_outcome: ['text'], reject_narration: ['reason'], create_countdown: ['name', 'boxes'],
    narrate_countdown: ['consequences'], rewrite_traits: ['goal', 'belief', 'flaw'], change_background: ['new_name'],
    rename_move: ['name'],
  };

  const TITLES = {
    join_conflict: 'Join the conflict', sit_out: 'Sit out (shares the result)', refuse_lethal: 'Refuse a lethal conflict',
    pick_active: 'Who acts next?', pick_opponent: 'Pick an opponent', end_chain: 'End the chain', play_special: 'Play a special',
    pass_window: 'Done with this special window', drunken_swap: 'Drunken Monkey swap', kill_surrendered: 'The opponent surrendered',
    spare_surrendered: 'The opponent surrendered', start_conflict: 'Start a conflict', settle_conflict: 'Settle the conflict',
    narrate_conflict: 'Narrate the outcome (winners; the GM settles disputes)',
    reveal_npc: 'Reveal an NPC’s sheet', rename_move: 'Rename a move', create_countdown: 'New countdown', mark_countdown: 'Mark a countdown box',
    narrate_countdown: 'Narrate a full countdown', erase_countdown: 'Erase a countdown', open_problem: 'Open a problem',
    pass_problem: 'Not interested in this problem', pick_decider: 'Pick who decides', narrate_outcome: 'Narrate the outcome',
    reject_narration: 'Reject the narration', veto: 'Veto (once per character)', pick_veto: 'Pick the veto that stands',
    close_problem: 'Close the problem', rest: 'Rest', recover_npc: 'Recover an NPC', mark_goal: 'Goal achieved?',
    end_session: 'End the session', start_session: 'Start the next session', level_up: 'Level up', rewrite_traits: 'Rewrite traits',
    change_background: 'Change a background', create_character: 'Create a character', create_replacement: 'Create a replacement',
  };

  // Commands that move the table on; the rest (renames, goal marks, reveals) stay plain buttons.
  const PRIMARY = new Set(['join_conflict', 'pick_opponent', 'start_conflict', 'open_problem', 'narrate_outcome', 'narrate_conflict', 'close_problem', 'pass_window', 'start_session', 'narrate_countdown']);

  // One group for a command type: a button per legal variant (a select when there are many),
  // named by what differs between the variants, with inputs for the free-text fields pre-filled
  // from the engine's suggestion.
  function genericGroup(v, type, all, send) {
    const key = 'g:' + type;
    const g = group(key, TITLES[type] || words(type), null);
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
    const inputs = {};
    for (const f of free) {
      const val = template[f];
      const k = key + ':' + f;
      if (typeof val === 'boolean') { const cb = checkbox(k, words(f), val); inputs[f] = () => cb.box.checked; g.body.append(cb.label); }
      else if (typeof val === 'number') { const i = input(k, 'number', words(f), val, { min: '1', inputmode: 'numeric' }); inputs[f] = () => Number(i.value); g.body.append(i); }
      else { const i = input(k, 'text', words(f), val == null ? '' : val); inputs[f] = () => i.value; g.body.append(i); }
    }
    let npcs = null;
    if (type === 'start_conflict') {
      // The engine suggests one NPC; the GM may bring any living NPC.
      npcs = v.characters.filter((c) => !c.pc && !c.dead).map((c) => [c.name, checkbox(key + ':npc:' + c.name, c.name, (template.npcs || []).includes(c.name)).label]);
      for (const [, l] of npcs) g.body.append(l);
    }
    const fill = (cmd) => {
      const out = Object.assign({}, cmd);
      for (const [f, get] of Object.entries(inputs)) {
        const x = get();
        if (x === '' && cmd[f] == null) continue;
        out[f] = x;
      }
      if (npcs) {
        out.npcs = npcs.filter(([, l]) => l.querySelector('input').checked).map(([n]) => n);
        if (!out.npcs.length) throw new Error('Bring at least one NPC.');
      }
      return out;
    };
    const differing = Object.keys(template).filter((f) => f !== 'type' && !free.includes(f) && items.some((it) => JSON.stringify(it.command[f]) !== JSON.stringify(template[f])));
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
      for (const it of items) g.body.append(button(g, labelOf(it), send, () => fill(it.command), items.length === 1 && PRIMARY.has(type)));
    }
    return g.g;
  }

  // Secret stance: type (or none) and an amount bounded by the legal list (current energy).
  function stanceGroup(character, items, send) {
    const key = 'stance:' + character;
    const g = group(key, character + ': secret stance', 'Hidden until both are ready.');
    const byAction = {};
    for (const it of items) {
      const a = it.command.action || '';
      byAction[a] = Math.max(byAction[a] || 0, it.command.amount || 0);
    }
    const acts = Object.keys(byAction).filter((a) => a);
    const typeSel = select(key + ':type', acts.map((a) => [a, cap(a) + ' (up to ' + byAction[a] + ')']).concat('' in byAction ? [['', 'No stance']] : []), acts[0], 'stance type');
    const amount = input(key + ':amount', 'number', 'amount', 1, { min: '1', inputmode: 'numeric' });
    const limit = () => {
      const max = byAction[typeSel.value] || 0;
      amount.max = String(max);
      amount.disabled = !typeSel.value;
    };
    typeSel.addEventListener('change', limit);
    limit();
    g.body.append(typeSel, amount, button(g, 'Take stance', send, () => {
      const action = typeSel.value;
      if (!action) return { type: 'take_stance', character: character, amount: 0 };
      const n = Number(amount.value);
      if (!Number.isInteger(n) || n < 1 || n > byAction[action]) throw new Error('Amount must be 1 to ' + byAction[action] + ' ' + action + ' energy.');
      const found = items.find((it) => it.command.action === action && it.command.amount === n);
      if (!found) throw new Error('That stance is not offered.');
      return found.command;
    }, true));
    return g.g;
  }

  // Secret move: one button per move of the viewer's own that is available now.
  function moveGroup(v, character, items, send) {
    const key = 'move:' + character;
    const g = group(key, character + ': secret move', 'Only your available moves are shown.');
    const options = ((v.conflict && v.conflict.your_moves) || []).filter((m) => m.character === character && m.available);
    const isSurrender = (c) => c.move === 'surrender' || (c.move && c.move.surrender !== undefined);
    const legalMove = (mv) => items.find((it) => !isSurrender(it.command) && JSON.stringify(it.command.move) === JSON.stringify(mv))
      || items.find((it) => it.command.move && it.command.move.move === mv);
    for (const m of options) {
      const it = legalMove(m.move);
      if (!it) continue;
      const b = button(g, m.name + ' (' + m.move + ')' + (m.disadvantaged ? ' · disadvantaged' : '') + (m.combos ? ' · combo!' : ''), send, () => it.command, !m.disadvantaged);
      b.dataset.move = String(m.move);
      g.body.append(b);
    }
    if (!g.body.childNodes.length) {
      // Fallback: the view did not list them; offer what the engine allows.
      for (const it of items.filter((i) => !isSurrender(i.command))) g.body.append(button(g, it.label || fmt(it.command.move), send, () => it.command));
    }
    const sur = items.find((it) => isSurrender(it.command));
    if (sur) {
      const b = button(g, 'Surrender', send, () => sur.command);
      b.dataset.move = 'surrender';
      g.body.append(b);
    }
    return g.g;
  }

  // Split a pending loss or gain over the types within each type's room.
  function splitGroup(v, type, character, items, send) {
    const key = type + ':' + character;
    const s = (v.conflict && v.conflict.split) || {};
    const room = s.room || {};
    const amount = s.amount;
    const g = group(key, character + ': ' + (type === 'split_gain' ? 'share the regained energy' : 'split the loss'),
      amount != null ? 'Total ' + amount + '; room: ' + TYPES.map((t) => t + ' ' + (room[t] != null ? room[t] : '?')).join(', ') : null);
    const first = items[0].command.split || {};
    const fields = {};
    for (const t of TYPES) {
      const extra = { min: '0', inputmode: 'numeric' };
      if (room[t] != null) extra.max = String(room[t]);
      const i = input(key + ':' + t, 'number', cap(t), first[t] || 0, extra);
      fields[t] = i;
      g.body.append(h('label', 'ndt-check', cap(t) + ' ', i));
    }
    g.body.append(button(g, 'Split', send, () => {
      const split = {};
      for (const t of TYPES) split[t] = Number(fields[t].value) || 0;
      if (amount != null && TYPES.reduce((a, t) => a + split[t], 0) !== amount) throw new Error('The parts must add up to ' + amount + '.');
      return { type: type, character: character, split: split };
    }, true));
    return g.g;
  }

  // Problem option: option 1–4 with the trait it rests on, as the engine offers them.
  function optionGroup(items, send) {
    const key = 'choose_option';
    const g = group(key, 'Your secret option', 'Hidden from the others until everyone has picked.');
    const label = (c) => 'Option ' + optionText(c.option, c.trait);
    const sel = select(key + ':which', items.map((it, i) => [String(i), label(it.command)]), '0', 'option');
    g.body.append(sel, button(g, 'Choose', send, () => items[Number(sel.value)].command, true));
    return g.g;
  }

  function controls(update, send) {
    const v = update.view;
    const box = h('div', 'ndt-controls');
    const byType = new Map();
    for (const it of update.legal) {
      const t = it.command.type;
      if (!byType.has(t)) byType.set(t, []);
      byType.get(t).push(it);
    }
    const perCharacter = (items) => {
      const m = new Map();
      for (const it of items) {
        const c = it.command.character;
        if (!m.has(c)) m.set(c, []);
        m.get(c).push(it);
      }
      return m;
    };
    const order = ['join_conflict', 'sit_out', 'refuse_lethal', 'pick_active', 'pick_opponent', 'end_chain', 'take_stance', 'play_move',
      'play_special', 'pass_window', 'drunken_swap', 'split_loss', 'split_gain', 'kill_surrendered', 'spare_surrendered',
      'narrate_conflict', 'choose_option', 'pass_problem', 'pick_decider', 'narrate_outcome', 'reject_narration', 'veto', 'pick_veto', 'close_problem',
      'rest', 'recover_npc', 'level_up', 'mark_goal'];
    const types = [...byType.keys()].sort((a, b) => {
      const ia = order.indexOf(a), ib = order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
    for (const type of types) {
      const items = byType.get(type);
      if (type === 'take_stance') for (const [ch, its] of perCharacter(items)) box.append(stanceGroup(ch, its, send));
      else if (type === 'play_move') for (const [ch, its] of perCharacter(items)) box.append(moveGroup(v, ch, its, send));
      else if (type === 'split_loss' || type === 'split_gain') for (const [ch, its] of perCharacter(items)) box.append(splitGroup(v, type, ch, its, send));
      else if (type === 'choose_option') box.append(optionGroup(items, send));
      else if (type === 'pass_window' && items.length > 1) box.append(passAllGroup(items, send), genericGroup(v, type, items, send));
      else box.append(genericGroup(v, type, items, send));
    }
    if (!box.childNodes.length && update.seat) {
      const c = v.conflict;
      box.append(h('p', 'hint', c && c.outcome ? 'The conflict is over.' : 'Nothing for you to do right now — waiting for the others.'));
    }
    return box;
  }

  // A GM asked at W5 for several idle NPCs (asked so that asking reveals no Yojimbo) closes the
  // window for all of them with one click: the passes are sent one after another.
  function passAllGroup(items, send) {
    const g = group('pass-all', 'Done with this special window for everyone', null);
    const names = items.map((it) => it.command.character).join(', ');
    const sendAll = async (commands, err) => {
      for (const c of commands) if (!(await send(c, err))) return false;
      return true;
    };
    g.body.append(button(g, 'All pass (' + names + ')', sendAll, () => items.map((it) => it.command), true));
    return g.g;
  }

  function summary(v) {
    const cp = v.campaign || {};
    const bits = [h('span', 'pill', 'Session ' + cp.session + (cp.session_ending ? ' · ending' : ''))];
    if (cp.rests && cp.rests.due) bits.push(h('span', 'pill wa-adv', 'Rest due' + (cp.rests.breather_used ? ' · breather used' : '') + (cp.rests.short_rest_used ? ' · short rest used' : '')));
    for (const r of cp.replacements || []) bits.push(h('span', 'pill', r.character + ' replaces ' + r.replaces + ': ' + r.levels_left + ' level-ups left'));
    return h('div', 'ndt-pills', ...bits);
  }

  register('iron-triangle', function (update, send) {
    const v = update.view;
    if (!v || !Array.isArray(v.characters)) return null;

    const sheets = h('div', 'wa-chars');
    for (const c of v.characters) sheets.append(sheet(v, c, update.seat));
    // Controls sit right under the conflict and problem, above the sheets: on a phone they are
    // reachable without scrolling past every character.
    const root = h('div', 'wa it', summary(v), conflict(v), problem(v), countdowns(v));
    if (update.seat) root.append(h('h3', null, 'Your moves'), controls(update, send));
    root.append(h('h3', null, 'Characters'), sheets);
    return root;
  });
})();
