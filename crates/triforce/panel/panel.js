// Per-ruleset panels: drawn above the generic text picture when the ruleset is known.
// Each panel is a function (element, update, send) that redraws the element from the update.
window.ClashPanels = window.ClashPanels || {};

// Triforce: the 15-stack triangle as SVG. On your turn, click your home to place, click one of
// your pieces to see where it may go (green rings), then click a destination to move there.
(function () {
  const colours = { p1: '#d33b3b', p2: '#2e8b57', p3: '#2f5fd0', p4: '#c58a00', p5: '#8e44ad', p6: '#16a0a0' };
  const NS = 'http://www.w3.org/2000/svg';
  let chosen = null; // the origin picked for a move, kept across redraws of the same turn
  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  }
  function pieceColour(p) {
    if (p.startsWith('K')) return '#222';
    if (p.startsWith('C')) return '#cfd8dc';
    return colours[p.split('-')[0]] || '#777';
  }
  window.ClashPanels.triforce = function (element, update, send) {
    const v = update.view;
    if (!v || !v.positions) return;
    const mine = update.seat && v.awaiting === update.seat ? v.legal : null;
    const origins = new Map((mine ? mine.moves : []).map((m) => [m.from, m.to]));
    if (chosen !== null && !origins.has(chosen)) chosen = null;
    const targets = chosen !== null ? origins.get(chosen) : [];
    const home = (v.seats.find((s) => s.seat === update.seat) || {}).home;
    const board = svg('svg', { viewBox: '0 0 440 380', class: 'board', role: 'img', 'aria-label': 'Triforce board' });
    const at = (p) => [220 + (p.col - 1) * 80 - (p.row - 1) * 40, 40 + (p.row - 1) * 75];
    for (const p of v.positions) {
      const [x, y] = at(p);
      for (const n of p.neighbours) {
        const q = v.positions[n - 1];
        if (q && q.n > p.n) { const [x2, y2] = at(q); board.append(svg('line', { x1: x, y1: y, x2, y2, stroke: '#ccd', 'stroke-width': 2 })); }
      }
    }
    for (const p of v.positions) {
      const [x, y] = at(p);
      const cls = ['pos'];
      if (targets.includes(p.n)) cls.push('legal');
      if (chosen === p.n) cls.push('chosen');
      if (origins.has(p.n)) cls.push('origin');
      const g = svg('g', { class: cls.join(' '), 'data-pos': String(p.n) });
      g.append(svg('circle', { class: 'ring', cx: x, cy: y, r: 30, fill: p.contested ? '#fde2e2' : '#fff', stroke: p.home_of ? (colours[p.home_of] || '#999') : '#aab', 'stroke-width': p.home_of ? 3 : 1.5 }));
      g.append(svg('text', { x: x - 26, y: y - 18, 'font-size': 10, fill: '#667' }, p.n + ' ' + p.white));
      p.stack.forEach((piece, i) => {
        const py = y + 14 - i * 9;
        g.append(svg('rect', { x: x - 16, y: py - 6, width: 32, height: 8, rx: 2, fill: pieceColour(piece), stroke: '#333', 'stroke-width': 0.5 }));
      });
      if (p.stack.length) g.append(svg('text', { x: x + 18, y: y + 20, 'font-size': 10, fill: '#333' }, p.stack[p.stack.length - 1].split('-')[1] || ''));
      g.addEventListener('click', () => {
        if (!mine) return;
        if (chosen !== null && targets.includes(p.n)) { const from = chosen; chosen = null; send({ type: 'move', from, to: p.n }); return; }
        chosen = origins.has(p.n) && chosen !== p.n ? p.n : null;
        window.ClashPanels.triforce(element, update, send);
      });
      board.append(g);
    }
    const info = document.createElement('div');
    const hint = document.createElement('p');
    hint.className = 'hint';
    if (!mine) hint.textContent = v.outcome ? 'The game is over.' : 'Waiting for ' + (v.awaiting || 'nobody') + '.';
    else if (chosen !== null) hint.textContent = 'Piece on ' + chosen + ' chosen: click a green ring to move it, or the piece again to cancel.';
    else hint.textContent = 'Your turn: click one of your top pieces to see where it can go' + (mine.placements.length ? ', or place a pyramid at home (' + home + ').' : '.');
    info.append(hint);
    const row = document.createElement('div');
    row.className = 'buttons';
    for (const size of mine ? mine.placements : []) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Place ' + size + ' at home';
      b.addEventListener('click', () => send({ type: 'place', size }));
      row.append(b);
    }
    if (mine && mine.can_end_turn) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'End turn';
      b.addEventListener('click', () => send({ type: 'end_turn' }));
      row.append(b);
    }
    info.append(row);
    const stashes = document.createElement('p');
    stashes.className = 'hint';
    stashes.textContent = v.seats.map((s) => s.seat + ': stash S' + s.stash.S + ' M' + s.stash.M + ' L' + s.stash.L + ', bottom of ' + s.territory + '/' + v.territory_target).join(' · ');
    info.append(stashes);
    element.replaceChildren(board, info);
  };
})();
