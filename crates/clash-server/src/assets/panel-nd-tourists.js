// N-Dimensional Tourists panel: bid lines, Loss lines, Reserves, Control, and the controls for
// the moves the engine offers this seat. Every text goes in as text nodes, never parsed as markup.
(function () {
  'use strict';

  // Typed input values and error messages survive the redraw that every live update causes.
  const { memo, h, select, text, checkbox, group, button, register } = window.ClashPanelKit.make('ndt');

  function cardChip(name, reversed, extra) {
    const arrow = reversed ? '↓' : '↑';
    const c = h('span', 'ndt-card' + (reversed ? ' reversed' : '') + (extra ? ' ' + extra : ''), name + ' ' + arrow);
    c.title = name + (reversed ? ' (reversed)' : ' (upright)');
    return c;
  }

  function statusText(p) {
    if (p.status === 'wiped_out') return 'wiped out in round ' + p.round;
    if (p.status === 'conceded') return 'conceded';
    return 'in play';
  }

  const gravityWords = { trivial: 'trivial', fairly_easy: 'fairly easy', hard: 'hard', very_hard: 'very hard', permanent: 'permanent' };

  function partyCard(v, p, i, mineSeat) {
    const r = v.round || {};
    const turn = r.turn === i && v.phase === 'bidding' && r.window == null;
    const classes = 'ndt-party' + (turn ? ' turn' : '') + (p.status !== 'in_play' ? ' out' : '') + (p.seat === mineSeat ? ' mine' : '');
    const head = h('div', 'ndt-party-head',
      h('strong', null, p.name),
      h('span', 'pill', p.seat),
      v.dominant === i ? h('span', 'pill ndt-dominant', 'Dominant') : null,
      turn ? h('span', 'pill ready', 'to act') : null,
      r.window === i ? h('span', 'pill waiting', 'card awaiting reactions') : null,
      v.victor === i ? h('span', 'pill ready', 'victor') : null,
      h('span', 'pill', statusText(p)));
    const goal = h('p', 'hint', 'Goal: ' + (p.goal || '—') + ' · Total ' + p.total);

    const line = h('div', 'ndt-line');
    p.bid_line.forEach((b, k) => {
      const marks = [];
      if (b.turned) marks.push('turned');
      if (b.cover) marks.push('cover');
      if (b.narrative) marks.push('narrative');
      const last = r.window === i && k === p.bid_line.length - 1;
      const chip = cardChip(b.card, b.reversed, (b.cover ? 'cover' : '') + (b.narrative ? ' narrative' : '') + (last ? ' last' : ''));
      const who = p.characters[b.drawer];
      chip.title += (who ? ' · drawn for ' + who.name : '') + (marks.length ? ' · ' + marks.join(', ') : '');
      if (marks.length) chip.append(h('small', null, ' ' + marks.join(', ')));
      line.append(chip);
    });
    if (!p.bid_line.length) line.append(h('span', 'hint', 'no cards yet'));

    const temp = h('div', 'ndt-line');
    for (const t of p.temporary) {
      const who = p.characters[t.character];
      const c = h('span', 'ndt-card loss', t.card);
      if (who) c.title = who.name;
      temp.append(c);
    }
    if (!p.temporary.length) temp.append(h('span', 'hint', 'none'));

    const lasting = h('div', 'ndt-line');
    for (const l of p.lasting) {
      const who = p.characters[l.character];
      const box = h('span', 'ndt-lasting', h('small', null, (gravityWords[l.gravity] || l.gravity) + (who ? ' · ' + who.name : '')));
      for (const c of l.cards) {
        const chip = h('span', 'ndt-card loss' + (c.face_up ? '' : ' facedown'), c.card);
        chip.title = c.face_up ? 'face up: can be used to reject' : 'face down: spent';
        box.append(chip);
      }
      lasting.append(box);
    }
    if (!p.lasting.length) lasting.append(h('span', 'hint', 'none'));

    const chars = h('ul', 'ndt-chars');
    for (const c of p.characters) {
      const li = h('li', null, h('b', null, c.name),
        ' · Reserve ' + c.reserve_count + (c.tally ? ' · covered ' + c.tally + '×' : '') + (c.conceded ? ' · conceded' : ''));
      if (Array.isArray(c.reserve)) {
        const res = h('span', 'ndt-line inline');
        for (const rc of c.reserve) res.append(cardChip(rc.card, rc.reversed, 'reserve'));
        if (!c.reserve.length) res.append(h('span', 'hint', 'empty'));
        li.append(' ', res);
      }
      chars.append(li);
    }

    return h('section', classes,
      head, goal,
      h('div', 'ndt-label', 'Bid line' + (p.reversed ? ' · ' + p.reversed + ' reversed' : '')), line,
      h('div', 'ndt-label', 'Temporary Losses'), temp,
      h('div', 'ndt-label', 'Lasting Losses'), lasting,
      chars);
  }

  function summary(v) {
    const r = v.round || {};
    const name = (i) => (i != null && v.parties[i] ? v.parties[i].name : null);
    const phaseWords = { preparing: 'Preparing: the GM starts the Conflict', bidding: 'Bidding', aftermath: 'End of round: concede, reframe or go on', ended: 'The Conflict is over' };
    const bits = [
      h('span', 'pill', 'Round ' + r.number + (r.kind === 'balance_breaker' ? ' · Balance-breaker' : r.kind === 'unbalanced' ? ' · Unbalanced' : '')),
      h('span', 'pill', phaseWords[v.phase] || v.phase),
      v.dominant != null ? h('span', 'pill ndt-dominant', 'Dominant: ' + name(v.dominant) + ' · Control ' + v.control + ' · tokens ' + v.tokens)
        : h('span', 'pill', 'Balanced'),
      h('span', 'pill', 'Deck ' + v.deck_count),
      v.large_gap ? h('span', 'pill waiting', 'large gap (ND-8)') : null,
    ];
    const line = h('p', 'ndt-turn');
    if (v.phase === 'bidding' && r.rejection != null) line.textContent = name(r.rejection) + ' rejected ' + name(r.window) + '’s card: ' + name(r.window) + ' chooses the face-up Loss card to spend (D-14).';
    else if (v.phase === 'bidding' && r.window != null) line.textContent = (v.waiting || name(r.window) + ' just placed a card') + '. Reactions come one party at a time: reject, then turn, then cover (D-4).';
    else if (v.phase === 'bidding' && r.turn != null) line.textContent = 'Turn: ' + name(r.turn) + (r.passes ? ' · ' + r.passes + ' pass(es) in a row' : '');
    else if (v.phase === 'ended') line.textContent = v.victor != null ? name(v.victor) + ' wins the Conflict.' : 'Ended' + (v.ended ? ' (' + String(v.ended).replace(/_/g, ' ') + ')' : '') + '.';
    if (r.result) {
      const names = (xs) => xs.map(name).join(', ') || 'nobody';
      line.append(h('span', 'hint ndt-result', ' Round won by ' + names(r.result.winners) + '; lost by ' + names(r.result.losers) + '; narration: ' + names(r.result.narration) + '.'));
    }
    const discard = v.discard && v.discard.length ? h('p', 'hint', 'Discarded this round: ' + v.discard.join(', ')) : null;
    return h('div', 'ndt-summary', h('div', 'ndt-pills', ...bits), line, discard);
  }

  // The controls: one group per kind of move the engine lists as legal for this seat.
  function controls(update, send) {
    const v = update.view;
    const legal = update.legal.map((l) => l.command);
    const of = (type) => legal.filter((c) => c.type === type);
    const box = h('div', 'ndt-controls');
    const partyByName = (n) => v.parties.find((p) => p.name === n);
    const charOptions = (p) => p.characters.filter((c) => !c.conceded).map((c) => [c.name, c.name]);

    if (of('start').length) {
      const g = group('start', 'Start the Conflict', 'Draws the NPC Reserves and opens round 1.');
      g.body.append(button(g, 'Start', send, () => ({ type: 'start' }), true));
      box.append(g.g);
    }

    for (const c of of('bid')) {
      const p = partyByName(c.party);
      if (!p) continue;
      const key = 'bid:' + p.name;
      const g = group(key, p.name + ': your turn', 'Bid draws a card onto your bid line; pass waits (not final).');
      let who = null;
      if (p.characters.length > 1) who = select(key + ':who', charOptions(p), null, 'character who draws');
      if (who) g.body.append(who);
      g.body.append(button(g, 'Bid (draw a card)', send, () => ({ type: 'bid', party: p.name, character: who ? who.value : undefined }), true));
      if (of('pass').some((x) => x.party === p.name)) g.body.append(button(g, 'Pass', send, () => ({ type: 'pass', party: p.name })));
      box.append(g.g);
    }

    const spends = of('spend_loss');
    if (spends.length) {
      const g = group('spend', 'Your card was rejected: spend a face-up Loss card',
        'A Temporary card is discarded (that Loss is gone); a Lasting one turns face down and its Loss remains (ND-19).');
      for (const c of spends) g.body.append(button(g, c.card, send, () => ({ type: 'spend_loss', party: c.party, card: c.card })));
      box.append(g.g);
    }

    const windowOpen = v.phase === 'bidding' && v.round && v.round.window != null && v.round.rejection == null;
    if (windowOpen && (of('reject').length || of('turn').length || of('cover').length || of('let_it_stand').length)) {
      const drawer = v.parties[v.round.window];
      const last = drawer && drawer.bid_line[drawer.bid_line.length - 1];
      const asked = v.reaction ? v.reaction.name + ': your turn to ' + v.reaction.step + ' or let it stand' : null;
      const g = group('window', 'React to ' + (drawer ? drawer.name : 'the') + '’s ' + (last ? last.card + (last.reversed ? ' ↓' : ' ↑') : 'card'),
        (asked ? asked + '. ' : '') + 'Each party able to react is asked in turn: reject, then turn, then cover (D-4).');
      for (const c of of('reject')) {
        g.body.append(button(g, (c.party ? c.party + ': ' : '') + 'Reject using one of their Losses', send, () => ({ type: 'reject', party: c.party })));
      }
      if (of('turn').length) g.body.append(button(g, 'Turn it with a Control token (' + v.tokens + ' left)', send, () => ({ type: 'turn' })));
      for (const c of of('let_it_stand')) g.body.append(button(g, 'Let it stand (pass)', send, () => ({ type: 'let_it_stand', party: c.party })));
      box.append(g.g);
      box.append(...coverGroups(of('cover'), v, drawer, send));
    }

    if (v.phase === 'bidding' && update.seat) {
      // Tactics are narration only (ND-11): the engine does not list them, so offer them to the
      // parties this seat speaks for.
      for (const p of v.parties.filter((x) => x.seat === update.seat && x.status === 'in_play')) {
        const key = 'tactics:' + p.name;
        const g = group(key, p.name + ': declare tactics', null);
        const t = text(key + ':text', 'What do you try this round?');
        g.body.append(t, button(g, 'Declare', send, () => ({ type: 'declare_tactics', party: p.name, text: t.value })));
        box.append(g.g);
      }
    }

    // ND-21: a party that took a Loss this round may mark it with other reversed cards of its
    // bid line. The engine's suggestion (the cards marking it now) tells how many to keep.
    for (const c of of('keep_loss_cards')) {
      const p = partyByName(c.party);
      if (!p) continue;
      const key = 'keep:' + p.name;
      const need = (c.cards || []).length;
      const g = group(key, p.name + ': which cards mark your Loss?', 'Keep exactly ' + need + ' card(s): the Loss’s own or reversed cards of your bid line (ND-21).');
      const options = [...new Set((c.cards || []).concat(p.bid_line.filter((x) => x.reversed).map((x) => x.card)))];
      const boxes = options.map((card) => {
        const cb = checkbox(key + ':' + card, card, (c.cards || []).includes(card));
        g.body.append(cb.label);
        return [card, cb.box];
      });
      g.body.append(button(g, 'Mark the Loss with these', send, () => ({ type: 'keep_loss_cards', party: p.name,
        cards: boxes.filter(([, x]) => x.checked).map(([card]) => card) })));
      box.append(g.g);
    }

    for (const c of of('concede')) {
      const p = partyByName(c.party);
      if (!p) continue;
      const key = 'concede:' + p.name;
      const g = group(key, p.name + ': concede?', 'Concede the whole party, or one character (ND-24, ND-31).');
      const opts = [['', 'the whole party']].concat(charOptions(p));
      const who = opts.length > 2 ? select(key + ':who', opts, '', 'who concedes') : null;
      if (who) g.body.append(who);
      g.body.append(button(g, 'Concede', send, () => ({ type: 'concede', party: p.name, character: who && who.value ? who.value : undefined })));
      box.append(g.g);
    }

    if (of('reframe').length || of('next_round').length) {
      const g = group('round-end', 'End of round (GM)', null);
      if (of('reframe').length) {
        const ok = checkbox('reframe:confirmed', 'goals and means really changed (ND-25)', true);
        g.body.append(ok.label, button(g, 'Accept a Reframe', send, () => ({ type: 'reframe', confirmed: ok.box.checked })));
      }
      if (of('next_round').length) g.body.append(button(g, 'Next round', send, () => ({ type: 'next_round' }), true));
      box.append(g.g);
    }

    if (!box.childNodes.length && update.seat) {
      box.append(h('p', 'hint', v.phase === 'ended' ? 'The Conflict is over.' : 'Nothing for you to do right now — waiting for the others.'));
    }
    return box;
  }

  // One cover group per (party, character) the engine lets cover now: pick the Reserve card,
  // the trait the narration rests on (pre-filled with the one the engine suggests), and whether
  // the table accepts the narration.
  function coverGroups(covers, v, drawer, send) {
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
      const g = group(key, (c.character || c.party) + ': cover with a Reserve card',
        'Narrate how a trait justifies it (ND-20); the table decides whether the narration is accepted.');
      const cardSel = select(key + ':card', cards.map((name) => {
        const rc = reserve.find((r) => r.card === name);
        return [name, name + (rc ? (rc.reversed ? ' ↓' : ' ↑') : '')];
      }), null, 'Reserve card');
      const cite = c.cite || {};
      const kind0 = Object.keys(cite)[0] || 'aspect';
      const kindSel = select(key + ':kind', [['aspect', 'Aspect'], ['weakness', 'Weakness'], ['loss', 'Loss card']], kind0, 'kind of trait');
      const losses = [];
      for (const party of [p, drawer]) {
        if (!party) continue;
        for (const t of party.temporary) losses.push(t.card);
        for (const l of party.lasting) for (const x of l.cards) losses.push(x.card);
      }
      const name = text(key + ':name', 'Aspect, Weakness or Loss card named in the narration', cite[kind0] || '');
      const listId = 'ndt-losses-' + out.length;
      const dl = document.createElement('datalist');
      dl.id = listId;
      for (const l of losses) { const o = document.createElement('option'); o.value = l; dl.append(o); }
      name.setAttribute('list', listId);
      const acc = checkbox(key + ':accepted', 'the table accepts the narration', true);
      g.body.append(cardSel, kindSel, name, dl, acc.label,
        button(g, 'Cover', send, () => {
          if (!name.value.trim()) throw new Error('Name the trait your narration rests on.');
          const citation = {};
          citation[kindSel.value] = name.value.trim();
          return { type: 'cover', party: c.party, character: c.character || undefined, card: cardSel.value, cite: citation, accepted: acc.box.checked };
        }, true));
      out.push(g.g);
    }
    return out;
  }

  register('nd-tourists', function (update, send) {
    const v = update.view;
    if (!v || !Array.isArray(v.parties)) return null;

    const parties = h('div', 'ndt-parties');
    v.parties.forEach((p, i) => parties.append(partyCard(v, p, i, update.seat)));
    const root = h('div', 'ndt', summary(v), parties);
    if (update.seat) root.append(h('h3', null, 'Your moves'), controls(update, send));
    return root;
  });
})();
