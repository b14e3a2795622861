// A client generated from the API document plays a whole In A Wicked Age conflict: the GM
// creates a table, invites two players, each claims their seat, every seat plays its turn from
// the commands its view offers until the conflict is settled, the GM ends the table, and the
// record is exported with the revealed secret. The client is openapi-fetch over the types
// openapi-typescript wrote from /api/openapi.json (schema.d.ts), so this file type-checks
// against the document (tsconfig.json): a path, a parameter or a body the document does not
// have fails before anything runs. scripts/api-test.sh generates, checks and runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';

const baseUrl = process.env.CLASH_URL;
if (!baseUrl) throw new Error('CLASH_URL: the server to test (scripts/api-test.sh sets it)');

/** @type {import('openapi-fetch').Client<import('./schema.d.ts').paths>} */
const api = createClient({ baseUrl });

/** A link key as the `X-Clash-Key` header (one of the document's security schemes). */
const as = (/** @type {string} */ key) => ({ 'X-Clash-Key': key });

/** The data of a successful answer, or a failure naming the refusal. */
function ok(/** @type {{data?: any, error?: any, response: Response}} */ answer, /** @type {string} */ what) {
  assert.ok(answer.response.ok, `${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

test('a generated client plays a Wicked Age conflict to its end and exports the record', async () => {
  const created = ok(await api.POST('/api/tables', { body: { ruleset: 'wicked-age', title: 'Generated client' } }), 'create');
  const id = created.table;
  const gm = created.owner_key;
  /** @type {Record<string, string>} */
  const keys = { gm };
  for (const seat of ['p1', 'p2']) {
    const link = ok(await api.POST('/api/tables/{id}/seats/{seat}/link', {
      params: { path: { id, seat } }, headers: as(gm), body: { npc: false },
    }), `invite ${seat}`);
    assert.ok(link.invite, 'an invite key');
    const claimed = ok(await api.POST('/api/tables/{id}/claim', {
      params: { path: { id } }, headers: as(link.invite ?? ''),
    }), `claim ${seat}`);
    assert.equal(claimed.seat, seat);
    keys[seat] = claimed.key;
  }
  const info = ok(await api.GET('/api/tables/{id}', { params: { path: { id } }, headers: as(keys.p1) }), 'table');
  assert.equal(info.role, 'p1');

  // Whoever the game waits on plays the first command its view offers, until the GM is offered
  // to start a conflict again: the one started is settled.
  let started = false;
  let settled = false;
  for (let step = 0; step < 200 && !settled; step++) {
    let moved = false;
    for (const [seat, key] of Object.entries(keys)) {
      const view = ok(await api.GET('/api/tables/{id}/view', { params: { path: { id } }, headers: as(key) }), `view of ${seat}`);
      const legal = /** @type {{command: {type: string}}[]} */ (view.legal ?? []);
      if (!view.room?.turn?.yours || legal.length === 0) continue;
      const command = legal[0].command;
      if (command.type === 'start_conflict') {
        if (started) { settled = true; break; }
        started = true;
      }
      ok(await api.POST('/api/tables/{id}/commands', {
        params: { path: { id } }, headers: as(key), body: { command, id: `${seat}-${step}`, revision: view.event_count },
      }), `${seat}'s ${command.type}`);
      moved = true;
      break;
    }
    assert.ok(moved || settled, 'someone can always move until the conflict is settled');
  }
  assert.ok(settled, 'the conflict was settled');

  const log = ok(await api.GET('/api/tables/{id}/events', { params: { path: { id }, query: { after: 0 } }, headers: as(gm) }), 'log');
  const texts = log.events.map((/** @type {{text?: string}} */ e) => e.text ?? '');
  assert.ok(texts.includes('The conflict is closed'), texts.slice(-5).join(' / '));

  // A refusal is the documented error body, with its code.
  const late = await api.POST('/api/tables/{id}/claim', { params: { path: { id } }, headers: as(keys.p1) });
  assert.equal(late.response.status, 409);
  // (Only the connection's own 503 comes as text; every refusal of the operation is JSON.)
  assert.ok(late.error && typeof late.error === 'object', 'a JSON refusal');
  assert.equal(late.error.error.code, 'not_invite');

  ok(await api.POST('/api/tables/{id}/close', { params: { path: { id } }, headers: as(gm) }), 'close');
  const record = ok(await api.GET('/api/tables/{id}/export', { params: { path: { id } }, headers: as(gm) }), 'export');
  assert.equal(record.ruleset, 'wicked-age');
  assert.equal(record.table, id);
  assert.match(String(record.secret), /^[0-9a-f]{64}$/, 'the server secret, revealed at the end');
  const entries = /** @type {{entry: {kind: string, event: {type: string}}}[]} */ (record.entries);
  assert.ok(entries.length > 10, 'the whole log');
  assert.equal(entries.at(-1)?.entry.event.type, 'secret_revealed');
  assert.ok(entries.some((e) => e.entry.kind === 'command'), 'the commands played');
});
