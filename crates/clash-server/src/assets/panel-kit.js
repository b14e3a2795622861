// Building blocks shared by the per-ruleset panels: elements built from text nodes only, inputs
// whose values survive the redraw every live update causes, and control groups that show the
// error of their last refused command right under their buttons.
(function () {
  'use strict';

  // A kit for one panel; `prefix` names its CSS classes (`ndt`, `wa`, …).
  function make(prefix) {
    const memo = { values: {}, errors: {} };

    function h(tag, cls, ...children) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      for (const c of children) {
        if (c == null || c === false) continue;
        e.append(c instanceof Node ? c : String(c));
      }
      return e;
    }

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
      return { box: e, label: h('label', prefix + '-check', e, ' ' + labelText) };
    }

    function group(key, title, hint) {
      const err = h('p', 'error');
      err.setAttribute('role', 'alert');
      err.textContent = memo.errors[key] || '';
      const body = h('div', prefix + '-row');
      const g = h('div', prefix + '-ctl', title ? h('h4', null, title) : null, hint ? h('p', 'hint', hint) : null, body, err);
      g.dataset.control = key;
      return { g, body, err, key };
    }

    // A button that sends `build()`; a refusal stays under the group until the table moves on.
    function button(grp, label, send, build, primary) {
      const b = h('button', primary ? prefix + '-go' : null, label);
      b.type = 'button';
      b.addEventListener('click', async () => {
        let command;
        try { command = build(); } catch (e) { grp.err.textContent = e.message; return; }
        delete memo.errors[grp.key];
        b.disabled = true;
        const ok = await send(command, grp.err);
        b.disabled = false;
        if (!ok) memo.errors[grp.key] = grp.err.textContent;
      });
      return b;
    }

    // Install `draw(update, send)` (which returns the panel's new content, or null) as the panel
    // of ruleset `id`. Around every draw: refusals are forgotten once the table moves on, and the
    // field being typed in keeps its focus and caret.
    function register(id, draw) {
      const panel = function (element, update, send) {
        if (update.event_count > (memo.count || 0)) memo.errors = {};
        memo.count = Math.max(memo.count || 0, update.event_count);
        const active = document.activeElement;
        const focusKey = active && element.contains(active) && active.dataset ? active.dataset.key : null;
        const caret = focusKey && typeof active.selectionStart === 'number' ? [active.selectionStart, active.selectionEnd] : null;
        const root = draw(update, send);
        if (root) element.replaceChildren(root); else element.replaceChildren();
        const again = focusKey && element.querySelector('[data-key="' + CSS.escape(focusKey) + '"]');
        if (again) {
          again.focus();
          if (caret && typeof again.setSelectionRange === 'function') { try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ } }
        }
      };
      window.ClashPanels = window.ClashPanels || {};
      window.ClashPanels[id] = panel;
      // app.js draws its first update before the panels load: draw that one now (it carries the
      // whole log) instead of waiting for the next live update.
      const first = window.clash && window.clash.latest && window.clash.latest();
      const element = document.getElementById('panel');
      if (first && first.ruleset === id && element) {
        try { panel(element, first, window.clash.send); } catch (e) { console.error(e); }
      }
    }

    return { memo, h, remember, select, input, text, checkbox, group, button, register };
  }

  window.ClashPanelKit = { make };
})();
