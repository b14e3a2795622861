// Table page: live view of one table for one link, and the controls to play it.
// Data arrives as "update" messages (the server's Update type) over Server-Sent Events.
(function () {
  'use strict';
  const boot = JSON.parse(document.getElementById('boot').textContent);
  const $ = (id) => document.getElementById(id);
  const api = '/api/tables/' + encodeURIComponent(boot.table);
  const keyParam = 'key=' + encodeURIComponent(boot.key);
  const asParam = boot.as ? '&as=' + encodeURIComponent(boot.as) : '';
  const seen = new Set();
  let cursor = 0;
  let latest = boot.update;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c != null) e.append(c);
    return e;
  }

  // A fresh id for each command this page sends: a retry after a lost answer reuses it, and
  // the server answers it again instead of applying it twice.
  function commandId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  // Send one command as this page's seat; errors appear in `errorEl`, next to the control used.
  // `revision` is the log length this page has seen: the server refuses the command if this seat
  // acted since (a double click, or another tab), instead of applying it a second time.
  async function send(command, errorEl) {
    const target = errorEl || $('legal-error');
    if (target) target.textContent = '';
    const body = JSON.stringify({ command: command, as: boot.as || undefined, id: commandId(), revision: cursor });
    for (let attempt = 1; ; attempt++) {
      let r;
      try {
        r = await fetch(api + '/commands?' + keyParam, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body,
        });
      } catch (e) {
        if (attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
        if (target) target.textContent = 'Could not reach the server: ' + e.message;
        return false;
      }
      if (r.status === 503 && attempt < 4) { await new Promise((ok) => setTimeout(ok, 500 * attempt)); continue; }
      const answer = await r.json().catch(() => ({}));
      if (!r.ok) {
        const err = answer.error || {};
        const msg = err.message || ('the server answered ' + r.status);
        if (target) target.textContent = (err.rule && !msg.includes(err.rule) ? err.rule + ': ' : '') + msg;
        return false;
      }
      apply(answer);
      return true;
    }
  }
  window.clash = { send: send, boot: boot, latest: () => latest, el: el };

  function renderLegal(update) {
    const box = $('legal');
    if (!box) return;
    box.replaceChildren();
    const hint = $('legal-hint');
    if (update.legal.length === 0) {
      hint.textContent = 'Nothing to do right now — waiting for the others. This page updates by itself.';
    } else {
      hint.textContent = 'Tap a move to make it. Secret choices are hidden from the others until revealed.';
    }
    for (const item of update.legal) {
      box.append(el('button', { type: 'button', class: 'legal', title: JSON.stringify(item.command),
        onclick: () => send(item.command, $('legal-error')) }, item.label));
    }
  }

  function renderLog(update) {
    const log = $('log');
    for (const ev of update.events) {
      if (seen.has(ev.index)) continue;
      seen.add(ev.index);
      const li = el('li', { 'data-index': String(ev.index), class: 'fresh' + (ev.table ? ' table-event' : '') }, ev.text);
      log.append(li);
      setTimeout(() => li.classList.remove('fresh'), 2500);
    }
    if (update.events.length) log.scrollTop = log.scrollHeight;
  }

  // Fair dice: the sealed secret, the log's head hash, the seeds, and (once the table ends) the
  // secret itself. A seat's page adds its own seed before it first acts, unless one is in.
  let seedSent = false;
  function renderFairness(update) {
    const f = update.fairness;
    if (!f || !$('commitment')) return;
    $('commitment').textContent = f.commitment;
    $('head').textContent = update.head;
    const seeds = Object.entries(f.seeds).map(([who, seed]) => (f.names[who] || who) + ': ' + seed);
    $('seeds').textContent = seeds.length ? seeds.join(' · ') : 'none yet';
    if (f.secret) $('secret').textContent = f.secret;
    if (f.chance === 'legacy') $('secret').textContent = 'this table was made before verifiable dice: its rolls cannot be checked';
    const box = $('seed-box');
    const mine = f.contributor;
    box.hidden = !mine || update.closed;
    if (!mine || update.closed) return;
    const input = $('my-seed');
    if (document.activeElement !== input) input.value = f.seeds[mine] || '';
    if (!f.seeds[mine] && !seedSent) {
      seedSent = true;
      addSeed(randomSeed());
    }
  }

  function randomSeed() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  async function addSeed(seed) {
    $('fair-error').textContent = '';
    const r = await fetch(api + '/seed?' + keyParam, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seed: seed }),
    }).catch((e) => ({ ok: false, json: async () => ({ error: { message: e.message } }) }));
    if (!r.ok) {
      const err = (await r.json().catch(() => ({}))).error || {};
      $('fair-error').textContent = err.message || ('the server answered ' + r.status);
    }
  }

  function apply(update) {
    if (update.event_count < cursor && update.events.length === 0) return; // stale reply
    latest = update;
    if (update.event_count > cursor) {
      // The table moved on: an old refusal no longer describes it.
      for (const id of ['legal-error', 'json-error']) { const e = $(id); if (e) e.textContent = ''; }
    }
    cursor = Math.max(cursor, update.event_count);
    $('render').textContent = update.render;
    $('view-json').textContent = JSON.stringify(update.view, null, 2);
    renderLog(update);
    renderLegal(update);
    renderFairness(update);
    const panel = window.ClashPanels && window.ClashPanels[update.ruleset];
    if (panel) {
      try { panel($('panel'), update, send); } catch (e) { console.error(e); }
    }
    document.body.dataset.events = String(cursor);
    document.body.dataset.gameEvents = String(document.querySelectorAll('#log li:not(.table-event)').length);
  }

  function connect() {
    const status = $('status');
    const es = new EventSource(api + '/stream?' + keyParam + asParam + '&after=' + cursor);
    es.addEventListener('open', () => { status.textContent = 'live'; status.className = 'status live'; });
    es.addEventListener('update', (m) => apply(JSON.parse(m.data)));
    es.addEventListener('access', (m) => {
      // What this link may see changed (a seat taken over or given back): start again with the
      // rights it has now.
      es.close();
      const info = JSON.parse(m.data || '{}');
      status.textContent = info.message || 'what this page may show has changed';
      status.className = 'status down';
      setTimeout(() => { location.href = location.pathname; }, 1500);
    });
    es.addEventListener('revoked', () => {
      es.close();
      status.textContent = 'this link was revoked — ask the GM for a new one';
      status.className = 'status down';
    });
    es.addEventListener('error', () => { status.textContent = 'reconnecting…'; status.className = 'status down'; });
  }

  // The GM's seat list: who holds each seat, their links, and buttons to manage them.
  function renderSeats(summary) {
    const box = $('seats');
    if (!box) return;
    box.replaceChildren();
    const abs = (path) => location.origin + path;
    const row = (name, holder, link, buttons) => {
      const r = el('div', { class: 'seat-row', 'data-seat': name }, el('span', { class: 'name' }, name), el('span', { class: 'holder' }, holder));
      if (link) {
        const input = el('input', { readonly: 'readonly', value: abs(link), 'aria-label': 'link for ' + name, onfocus: (e) => e.target.select() });
        r.append(input, el('button', { type: 'button', class: 'small', onclick: () => copy(input) }, 'Copy'));
      }
      for (const b of buttons) r.append(b);
      return r;
    };
    for (const s of summary.seats) {
      const buttons = [];
      const manage = (label, method, body, path) => el('button', { type: 'button', class: 'small',
        onclick: () => manageSeat(s.seat, method, body, path) }, label);
      if (s.holder === 'owner') {
        box.append(row(s.seat, 'you (the GM)', null, []));
        continue;
      }
      if (s.holder === 'open') {
        buttons.push(manage('Create invite link', 'POST', { npc: false }), manage('Play as NPC', 'POST', { npc: true }));
      } else if (s.holder === 'invited' || s.holder === 'player') {
        buttons.push(manage('New link', 'POST', { npc: false }), manage('Play as NPC', 'POST', { npc: true }), manage('Revoke', 'DELETE'));
      } else {
        buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Play ' + s.seat + ' here'));
        if (s.suspended) buttons.push(manage('Give back to its player', 'POST', null, '/hand-back'));
        buttons.push(manage('Invite a player instead', 'POST', { npc: false }));
      }
      const holder = { open: 'no one yet', invited: 'invite not used yet', player: 'a player (their link is theirs alone)', npc: 'NPC (you)' }[s.holder] || s.holder;
      box.append(row(s.seat, holder, s.holder === 'invited' ? s.link : null, buttons));
    }
    if (summary.links) {
      box.append(row('watch', 'spectators', summary.links.spectator, []));
      box.append(row('GM', 'your own link — bookmark it', summary.links.owner, []));
    }
  }

  function copy(input) {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
  }

  async function manageSeat(seat, method, body, path) {
    $('seats-error').textContent = '';
    const r = await fetch(api + '/seats/' + seat + (path || '/link') + '?' + keyParam, {
      method: method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
    });
    if (!r.ok) {
      const err = (await r.json().catch(() => ({}))).error || {};
      $('seats-error').textContent = err.message || ('the server answered ' + r.status);
      return;
    }
    const info = await fetch(api + '?' + keyParam).then((x) => x.json());
    renderSeats(info);
  }

  const closeButton = $('close-table');
  if (closeButton) {
    closeButton.addEventListener('click', async () => {
      if (!confirm('End the table? No more moves can be made, and the secret behind the dice is revealed to everyone.')) return;
      const r = await fetch(api + '/close?' + keyParam, { method: 'POST' });
      if (!r.ok) {
        const err = (await r.json().catch(() => ({}))).error || {};
        $('fair-error').textContent = err.message || ('the server answered ' + r.status);
      }
    });
  }
  const seedButton = $('seed-send');
  if (seedButton) seedButton.addEventListener('click', () => addSeed($('my-seed').value.trim()));

  const jsonSend = $('json-send');
  if (jsonSend) {
    jsonSend.addEventListener('click', async () => {
      const text = $('json-command').value;
      let command;
      try { command = JSON.parse(text); } catch (e) { $('json-error').textContent = 'Not valid JSON: ' + e.message; return; }
      if (await send(command, $('json-error'))) $('json-command').value = '';
    });
  }

  renderSeats(boot.summary);
  apply(boot.update);
  connect();
})();
