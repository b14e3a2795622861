// The table page's own state, shared by its modules (app.js and the parts it imports): the
// start-up data, the API's address for this link, the newest update, and refusals shown next to
// the control that caused them until the table moves on.
import { $, el, errorOf, errorText, pageData, messageOf } from './kit.js';

/** @typedef {import('./kit.js').Update} Update */

/** @type {import('./kit.js').Boot} */
export const boot = pageData('boot');
export const api = '/api/tables/' + encodeURIComponent(boot.table);
export const keyParam = 'key=' + encodeURIComponent(boot.key);
export const asParam = boot.as ? '&as=' + encodeURIComponent(boot.as) : '';
export const owner = boot.role === 'owner';

/**
 * `latest`: the newest update; `cursor`: the log length this page has seen; `mineFrom`: where
 * the log stood when this page's last command went in (what happened since is "just now");
 * `mine`: the lines that command itself made (its own move, which is no news to its sender).
 * @type {{ latest: Update, cursor: number, mineFrom: number, mine: Set<number> }}
 */
export const page = { latest: boot.update, cursor: 0, mineFrom: 0, mine: new Set() };

/**
 * A request to this table's API as this link; a refusal comes back as `{ ok: false, error }`.
 * @param {string} path
 * @param {string} method
 * @param {unknown} [body]
 * @returns {Promise<{ ok: true, status: number, body: any, error?: undefined } | { ok: false, status: number, body?: undefined, error: import('./kit.js').ApiErrorBody }>}
 */
export async function request(path, method, body) {
  const init = { method: method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined };
  try {
    const r = await fetch(api + path + (path.includes('?') ? '&' : '?') + keyParam, init);
    if (!r.ok) return { ok: false, status: r.status, error: await errorOf(r) };
    return { ok: true, status: r.status, body: await r.json().catch(() => null) };
  } catch (e) {
    return { ok: false, status: 0, error: { message: 'Could not reach the server: ' + messageOf(e) } };
  }
}

/**
 * Show a refusal next to what caused it: in `where` itself when it is an error line, else in a
 * line of its own right after `where`'s row or control group. It goes when the table moves on.
 * @param {Element | null} where
 * @param {import('./kit.js').ApiErrorBody | string} err
 * @param {number} [status]
 */
export function refuse(where, err, status) {
  const text = typeof err === 'string' ? err : errorText(err, status);
  const target = where && where.isConnected ? where : $('legal-error');
  let line = target;
  if (!target.matches('.error')) {
    const row = target.closest('.seat-row, [data-control], .kit-row, form, li, p') || target;
    line = row.nextElementSibling && row.nextElementSibling.matches('.refusal.made') ? row.nextElementSibling
      : el('p', { class: 'error refusal made', role: 'alert' });
    if (line !== row.nextElementSibling) row.after(line);
  }
  line.classList.add('refusal');
  line.textContent = text;
  return line;
}

/** The table moved on: an old refusal no longer describes it. */
export function clearRefusals() {
  for (const e of document.querySelectorAll('.refusal')) {
    if (e.classList.contains('made')) e.remove();
    else e.textContent = '';
  }
}
