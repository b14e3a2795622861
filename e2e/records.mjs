// Records of real tables for the verification tests: tables played through the JSON API of the
// server that run.sh started, both verifiers (`clash verify` and the page's verify.js, here in
// Node with WebCrypto) run on a record, and forged copies made with the revealed secret.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BASE } from './lib.mjs';

/** The page's verifier: the ES module the server serves, imported as it is. */
import { ClashVerify } from '../crates/clash-server/src/assets/verify.js';

export { ClashVerify };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One API call; retried while the server says to slow down (429). */
export async function api(method, url, body) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(BASE + url, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    if (r.status === 429 && attempt < 60) { await sleep(2000); continue; }
    if (!r.ok) throw new Error(method + ' ' + url + ': ' + r.status + ' ' + text);
    return { text, json: text ? JSON.parse(text) : null };
  }
}

/**
 * A table of `ruleset` (its first preset): p1's player joins, adds a seed and whispers to the
 * GM; the GM adds a seed and takes every player seat over, then plays up to `commands` legal
 * commands, each by the next seat that has one. The record is taken after `early` commands
 * (by the GM) and at the end, once the GM has closed the table (by the GM and by a spectator,
 * who is not given the whisper).
 */
export async function playedTable(ruleset, commands, early = 2) {
  const created = (await api('POST', '/api/tables', { ruleset, title: 'Two verifiers' })).json;
  const { table: id, owner_key: owner, spectator_key: spectator } = created;
  const seats = created.seats.map((s) => s.seat);
  const invite = (await api('POST', `/api/tables/${id}/seats/p1/link?key=${owner}`)).json.invite;
  const p1 = (await api('POST', `/api/tables/${id}/claim?key=${invite}`)).json.key;
  await api('POST', `/api/tables/${id}/seed?key=${p1}`, { seed: 'players-seed-1' });
  await api('POST', `/api/tables/${id}/chat?key=${p1}`, { text: 'Between us: I bluff.', to_gm: true });
  await api('POST', `/api/tables/${id}/seed?key=${owner}`, { seed: 'gm-seed-1' });
  for (const seat of seats) {
    if (seat !== 'gm') await api('POST', `/api/tables/${id}/seats/${seat}/link?key=${owner}`, { npc: true });
  }
  const record = async (key) => (await api('GET', `/api/tables/${id}/export?key=${key}`)).text;
  let played = await play(id, owner, seats, early);
  const before = await record(owner);
  played += await play(id, owner, seats, commands - played);
  await api('POST', `/api/tables/${id}/close?key=${owner}`).catch(() => null); // over already
  return { id, links: created.links, played, before, gm: await record(owner), watcher: await record(spectator) };
}

/** Play up to `count` legal commands, each by the first seat that has one, seats in turn. */
export async function play(id, owner, seats, count) {
  let played = 0;
  let turn = 0;
  while (played < count) {
    let acted = false;
    for (let k = 0; k < seats.length && !acted; k++) {
      const seat = seats[(turn + k) % seats.length];
      const view = (await api('GET', `/api/tables/${id}/view?key=${owner}&as=${seat}`)).json;
      if (view.closed) return played;
      const legal = view.legal || [];
      if (!legal.length) continue;
      const { command } = legal[played % legal.length];
      await api('POST', `/api/tables/${id}/commands?key=${owner}`, { command, as: seat });
      played++;
      turn++;
      acted = true;
    }
    if (!acted) return played;
  }
  return played;
}

const dir = mkdtempSync(path.join(tmpdir(), 'clash-verify-'));
let files = 0;

/** `clash verify` on a record's text: its exit code and what it printed. */
export function clashVerify(text, ...args) {
  const file = path.join(dir, 'record-' + files++ + '.json');
  writeFileSync(file, text);
  try {
    return { code: 0, out: execFileSync(process.env.CLASH_BIN, ['verify', ...args, file], { encoding: 'utf8' }) };
  } catch (e) {
    return { code: e.status, out: String(e.stdout) + String(e.stderr) };
  }
}

/** The page's verifier on a record's text (WebCrypto, or the plain SHA-256 with `subtle: null`). */
export function jsVerify(text, options) {
  return ClashVerify.verify(text, Object.assign({ subtle: globalThis.crypto.subtle }, options));
}

/** The verdict `clash verify` gives by its exit code, in the page verifier's words. */
export function verdictOf(code) {
  return { 0: 'verified', 1: 'failed', 3: 'partly' }[code] || 'exit ' + code;
}

/** A record's text as a value whose numbers stay as written, and back. */
export const read = (text) => ClashVerify.parse(text);
export const write = (record) => ClashVerify.canonical(record);

/**
 * Recompute every digest and hash of a revealed record from its content and secret, as a forger
 * who knows the secret would after changing an entry: the chain then holds, and only the
 * derivation of the rolls and draws (or the rules) can tell.
 */
export async function rechain(record) {
  const d = ClashVerify.derive;
  const h = d.hashing(globalThis.crypto.subtle);
  const secret = d.unhex(record.secret);
  let head = new Uint8Array(32);
  for (const item of record.entries) {
    const digest = item.entry !== undefined
      ? await d.digest(h, secret, record.table, Number(item.pos), item.entry)
      : d.unhex(item.digest);
    head = await d.chain(h, head, digest);
    item.hash = d.hex(head);
  }
  record.head = d.hex(head);
  return record;
}

/**
 * The record forged whole, as a host could for a table without chance: `secret` (hex) in place
 * of the table's, its commitment and the reveal changed to match, and every hash rebuilt.
 */
export async function reforge(record, secret) {
  const d = ClashVerify.derive;
  const sealed = d.hex(await d.hashing(globalThis.crypto.subtle).sha256(d.unhex(secret)));
  record.secret = secret;
  record.commitment = sealed;
  record.entries[0].entry.event.commitment = sealed;
  record.entries[record.entries.length - 1].entry.event.secret = secret;
  return rechain(record);
}

/** The heads a key reads now: `{pos, hash}` of the log's last entry. */
export async function headNow(id, key) {
  const events = (await api('GET', `/api/tables/${id}/events?key=${key}&after=0`)).json;
  return { pos: events.event_count - 1, hash: events.head };
}
