// Rule IDs in what a page shows — a label's "Who plays first (TF-11)", a prompt's "(D-4)", a
// refusal's "(WA-12)", a log line — become small superscript links that open that very rule (the
// rules carry an anchor for each rule they cite; the finder falls back to the rule's section).
// The brackets go: "Who plays first" with a small "TF-11" beside it. A button cannot hold a
// link, so its rule IDs leave its label and sit beside it; an option's are only dropped. A rule
// ID inside a sentence ("as TF-13 says") becomes a plain link where it stands.
import { el } from './kit.js';

/** @typedef {import('./types/RulesLinks').RulesLinks} RulesLinks */

const ONE = '(?:IT|TF|ND|WA)-\\d+(?:\\.\\d+)?|D-\\d+';
const FIND = new RegExp('\\s*\\(((?:' + ONE + ')(?:\\s*(?:,|;|and|or)\\s*(?:' + ONE + '))*)\\)|\\b(' + ONE + ')\\b', 'g');
const SKIP = 'a, .rule-ref, script, style, textarea, pre, code, [data-no-rule-links]';

/**
 * A linker for `rules`: `link(node)` links the rule IDs in `node`'s text, `watch(root)` does it
 * to everything `root` shows from now on. `open(anchor)` opens a rule (the table page's rules
 * sheet); without it a link opens the rules page in a new tab.
 * @param {RulesLinks | null} rules
 * @param {((anchor: string) => void) | null} open
 */
export function ruleLinker(rules, open) {
  const anchorOf = (/** @type {string} */ id) => (rules ? rules.finder[id] || rules.finder[id.replace(/\.\d+$/, '')] || null : null);
  // Only for an id `anchorOf` finds (so `rules` is there).
  const linkTo = (/** @type {string} */ id) => {
    const anchor = anchorOf(id) || '';
    const attrs = { href: (rules ? rules.url : '') + '#' + anchor, class: 'rule', 'data-anchor': anchor, 'aria-label': 'rule ' + id };
    if (open) return el('a', { ...attrs, onclick: (/** @type {Event} */ e) => { e.preventDefault(); open(anchor); } }, id);
    return el('a', { ...attrs, target: '_blank', rel: 'noopener' }, id);
  };
  const sup = (/** @type {string[]} */ ids) => el('sup', { class: 'rule-ref' }, ...ids.flatMap((id, i) => (i ? [', ', linkTo(id)] : [linkTo(id)])));

  /** @param {Text} node */
  function linkText(node) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) return;
    const text = node.data;
    const parts = [];
    const beside = [];
    let last = 0;
    for (const m of text.matchAll(FIND)) {
      const ids = ((m[1] || m[2]).match(new RegExp(ONE, 'g')) || []).filter(anchorOf);
      if (!ids.length) continue;
      parts.push(text.slice(last, m.index));
      last = m.index + m[0].length;
      if (!m[1]) parts.push(linkTo(ids[0]));
      else if (parent.closest('button, [role="button"], option')) beside.push(...ids);
      else parts.push(sup(ids));
    }
    if (last === 0) return;
    parts.push(text.slice(last));
    node.replaceWith(...parts.filter((p) => p !== ''));
    const button = parent.closest('button, [role="button"]');
    if (button && beside.length && button.nextElementSibling?.className !== 'rule-ref') button.after(sup(beside));
  }

  /** @param {Node | null} node */
  function link(node) {
    if (!rules || !node) return;
    if (node.nodeType === Node.TEXT_NODE) { linkText(/** @type {Text} */ (node)); return; }
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let t = walker.nextNode(); t; t = walker.nextNode()) if (/\d/.test(/** @type {Text} */ (t).data)) texts.push(t);
    for (const t of texts) linkText(/** @type {Text} */ (t));
  }

  /**
   * @param {HTMLElement | null} root
   * @returns {() => void} stops watching
   */
  function watch(root) {
    if (!rules || !root) return () => {};
    link(root);
    const observer = new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.type === 'characterData') link(c.target);
        for (const n of c.addedNodes) link(n);
      }
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }

  return { link, watch };
}
