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

  // Send one command as this page's seat; errors appear in `errorEl`, next to the control used.
  async function send(command, errorEl) {
    const target = errorEl || $('legal-error');
    if (target) target.textContent = '';
    try {
      const r = await fetch(api + '/commands?' + keyParam, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ command: command, as: boot.as || undefined }),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) {
        const err = body.error || {};
        const msg = err.message || ('the server answered ' + r.status);
        if (target) target.textContent = (err.rule && !msg.includes(err.rule) ? err.rule + ': ' : '') + msg;
        return false;
      }
      apply(body);
      return true;
    } catch (e) {
      if (target) target.textContent = 'Could not reach the server: ' + e.message;
      return false;
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
      const li = el('li', { value: String(ev.index + 1), 'data-index': String(ev.index), class: 'fresh' }, ev.text);
      log.append(li);
      setTimeout(() => li.classList.remove('fresh'), 2500);
    }
    if (update.events.length) log.scrollTop = log.scrollHeight;
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
    const panel = window.ClashPanels && window.ClashPanels[update.ruleset];
    if (panel) {
      try { panel($('panel'), update, send); } catch (e) { console.error(e); }
    }
    document.body.dataset.events = String(cursor);
  }

  function connect() {
    const status = $('status');
    const es = new EventSource(api + '/stream?' + keyParam + asParam + '&after=' + cursor);
    es.addEventListener('open', () => { status.textContent = 'live'; status.className = 'status live'; });
    es.addEventListener('update', (m) => apply(JSON.parse(m.data)));
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
      const manage = (label, method, body) => el('button', { type: 'button', class: 'small', onclick: () => manageSeat(s.seat, method, body) }, label);
      if (s.holder === 'owner') {
        box.append(row(s.seat, 'you (the GM)', null, []));
        continue;
      }
      if (s.holder === 'open') {
        buttons.push(manage('Create invite link', 'POST', { npc: false }), manage('Play as NPC', 'POST', { npc: true }));
      } else if (s.holder === 'player') {
        buttons.push(manage('New link', 'POST', { npc: false }), manage('Play as NPC', 'POST', { npc: true }), manage('Revoke', 'DELETE'));
      } else {
        buttons.push(el('a', { href: location.pathname + '?as=' + s.seat }, 'Play ' + s.seat + ' here'),
          manage('Invite a player instead', 'POST', { npc: false }));
      }
      const holder = { open: 'no one yet', player: 'invited player', npc: 'NPC (you)' }[s.holder] || s.holder;
      box.append(row(s.seat, holder, s.holder === 'player' ? s.link : null, buttons));
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

  async function manageSeat(seat, method, body) {
    $('seats-error').textContent = '';
    const r = await fetch(api + '/seats/' + seat + '/link?' + keyParam, {
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
