// Lobby: the tables this browser created or joined (kept in localStorage by the table pages),
// each with whose move it is; and the chosen preset's setup JSON, to read or edit before
// creating a table.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
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

  const savedKey = 'clash.tables';
  function saved() {
    try { return JSON.parse(localStorage.getItem(savedKey) || '[]'); } catch (e) { return []; }
  }
  function forget(entry) {
    const list = saved().filter((t) => !(t.table === entry.table && t.path === entry.path));
    try { localStorage.setItem(savedKey, JSON.stringify(list)); } catch (e) { /* private mode */ }
    showMine();
  }

  // How the table stands now, for this link: its name, whose move, archived or gone.
  async function look(entry) {
    try {
      const r = await fetch('/api/tables/' + encodeURIComponent(entry.table) + '/view?key=' + encodeURIComponent(entry.key));
      if (r.status === 404) return { gone: 'deleted by the GM' };
      if (!r.ok) return { gone: 'this link no longer works' };
      const u = await r.json();
      return { title: u.title, turn: u.room.turn, archived: u.room.archived, closed: u.closed };
    } catch (e) {
      return { gone: 'the server could not be reached' };
    }
  }

  function row(entry, now) {
    const li = el('li', { class: 'mine-row' + (now.turn && (now.turn.yours || (now.turn.npc || []).length) ? ' yours' : '') });
    const title = now.title || entry.title;
    li.append(now.gone ? el('span', { class: 'name' }, title) : el('a', { href: entry.path, class: 'name' }, title));
    li.append(el('span', { class: 'hint' }, ' · ' + entry.game + ' · you are ' + entry.me + (entry.role === 'GM' ? ' (GM)' : '')));
    const state = now.gone || (now.archived ? 'archived' : now.turn ? now.turn.text : '');
    li.append(el('span', { class: 'state' }, state));
    li.append(el('button', { type: 'button', class: 'small', 'aria-label': 'Forget ' + title, onclick: () => forget(entry) }, 'Forget'));
    return li;
  }

  async function showMine() {
    const list = saved();
    $('mine').hidden = list.length === 0;
    const looks = await Promise.all(list.map(look));
    const open = [];
    const archived = [];
    list.forEach((entry, i) => (looks[i].archived ? archived : open).push(row(entry, looks[i])));
    $('mine-list').replaceChildren(...open);
    $('archived-list').replaceChildren(...archived);
    $('archived').hidden = archived.length === 0;
    $('archived').querySelector('summary').textContent = 'Archived tables (' + archived.length + ')';
  }
  if ($('mine')) showMine();

  const presets = JSON.parse($('presets').textContent);
  const select = $('preset');
  const setup = $('setup');
  const blurb = $('blurb');
  if (!select || !setup) return;
  let shown = setup.value.trim();
  function fill() {
    const p = presets[select.value];
    blurb.textContent = p ? p.blurb : 'Write the setup for this game in the Setup box.';
    // Replace the text only if the user has not edited it.
    if (p && (setup.value.trim() === '' || setup.value.trim() === shown)) {
      setup.value = JSON.stringify(p.setup, null, 2);
      shown = setup.value.trim();
    }
  }
  select.addEventListener('change', fill);
  fill();
})();
