// The test vectors of docs/verification.md, rebuilt with the page's verifier (verify.js): each
// block must appear in the spec exactly, as crates/server-tests/tests/it/verification_doc.rs
// requires of the server's own code. The example record verifies in both verifiers, and the
// page's ChaCha20 agrees with OpenSSL's (RFC 8439 with a zero nonce).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createCipheriv } from 'node:crypto';
import { ClashVerify, clashVerify, jsVerify, verdictOf } from '../records.mjs';

const ROOT = new URL('../../', import.meta.url);
const SPEC = readFileSync(new URL('docs/verification.md', ROOT), 'utf8');
const EXAMPLE = readFileSync(new URL('docs/verification-example.json', ROOT), 'utf8');
const CANONICAL_INPUT = String.raw`{"b":[1.0,1e2,-0,0.5,1e21,1.5e-7,1e-5,1e15,1e16,123.456,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,3E-10,2.5e+3],"a":"é\u00e9\u0001\t/\\\"","B":null,"é":true,"z":{"y":[],"x":{}}}`;

const d = ClashVerify.derive;
const h = d.hashing(globalThis.crypto.subtle);
const record = ClashVerify.parse(EXAMPLE);
const secret = d.unhex(record.secret);
const key = Uint8Array.from({ length: 32 }, (_, i) => i);
const x16 = (x) => x.toString(16).padStart(16, '0');

function assertInSpec(name, block) {
  assert.ok(SPEC.includes(block), 'docs/verification.md should hold the ' + name + ' block exactly as:\n' + block);
}

function kind(entry) {
  if (entry.kind === 'command') return 'command ' + entry.n + ' by ' + entry.seat;
  const type = (entry.event && entry.event.type) || '?';
  return (entry.kind === 'event' ? 'event ' : entry.kind + ' ') + type;
}

// Every number a pick among `n` draws, and its result.
function below(stream, n) {
  const used = [];
  const r = stream.below(BigInt(n), used);
  return { x: used.map(x16).join(' (rejected) '), r };
}

test('the chain block: salts, digests and hashes of every entry', async () => {
  const lines = ['table       ' + record.table, 'secret      ' + d.hex(secret), 'commitment  ' + d.hex(await h.sha256(secret))];
  let head = new Uint8Array(32);
  for (const item of record.entries) {
    const pos = Number(item.pos);
    const digest = await d.digest(h, secret, record.table, pos, item.entry);
    head = await d.chain(h, head, digest);
    lines.push('entry ' + pos + ': ' + kind(item.entry), '  json    ' + ClashVerify.canonical(item.entry),
      '  salt    ' + d.hex(await d.salt(h, secret, record.table, pos)), '  digest  ' + d.hex(digest), '  hash    ' + d.hex(head));
  }
  lines.push('head        ' + d.hex(head));
  assertInSpec('chain', lines.join('\n'));
});

test('the chance block: every command seed and draw', async () => {
  const seeds = new Map();
  const lines = [];
  for (const item of record.entries) {
    const e = item.entry;
    if (e.kind === 'table' && e.event.type === 'seed_added') seeds.set(e.event.by, e.event.seed);
    if (e.kind !== 'command') continue;
    const inForce = [...seeds.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const message = d.concat('clash-chance-v1\0', record.table, '\0', d.be64(BigInt(e.n.text)),
      ...inForce.flatMap(([who, seed]) => [who, '\0', seed, '\0']));
    const seed = await d.commandSeed(h, secret, record.table, BigInt(e.n.text), inForce);
    assert.deepEqual(await h.hmac(secret, message), seed);
    lines.push('command ' + e.n + ' (entry ' + item.pos + ', ' + e.seat + '), seeds in force: ' + inForce.map(([w, s]) => w + '=' + s).join(' '),
      '  message ' + d.hex(message), '  seed    ' + d.hex(seed));
    const stream = new d.ChaCha20(seed);
    e.draws.forEach((draw, i) => {
      if (draw.kind === 'roll') {
        const { x, r } = below(stream, draw.sides.text);
        lines.push('  draw ' + (i + 1) + ': roll d' + draw.sides + ': x = ' + x + '; 1 + x mod ' + draw.sides + ' = ' + (r + 1n));
      } else {
        const { x, r } = below(stream, draw.count.text);
        lines.push('  draw ' + (i + 1) + ': pick among ' + draw.count + ': x = ' + x + '; x mod ' + draw.count + ' = ' + r + ' ' + JSON.stringify(draw.label));
      }
    });
  }
  assertInSpec('chance', lines.join('\n'));
});

test('the ChaCha20 and rejection block, and ChaCha20 agrees with OpenSSL', () => {
  const stream = new d.ChaCha20(key);
  const xs = Array.from({ length: 8 }, () => x16(stream.nextU64()));
  const lines = ['key     ' + d.hex(key), 'x0..x3  ' + xs.slice(0, 4).join(' '), 'x4..x7  ' + xs.slice(4).join(' ')];
  // One pick after another, from the start of the stream; the large ones reject a number.
  const picks = new d.ChaCha20(key);
  for (const n of [6n, (1n << 63n) | 1n, (3n << 62n) | 1n, (1n << 63n) | 1n]) {
    const { x, r } = below(picks, n);
    lines.push('pick among ' + n + ': x = ' + x + '; x mod ' + n + ' = ' + r);
  }
  assertInSpec('stream', lines.join('\n'));

  // OpenSSL's ChaCha20 takes a 16-byte IV: the 32-bit block counter, then a 96-bit nonce.
  for (const k of [key, secret]) {
    const keystream = createCipheriv('chacha20', k, Buffer.alloc(16)).update(Buffer.alloc(8 * 40));
    const ours = new d.ChaCha20(k);
    for (let i = 0; i < 40; i++) assert.equal(ours.nextU64(), keystream.readBigUInt64LE(8 * i), 'number ' + i);
  }
});

test('the canonical JSON block', () => {
  assertInSpec('canonical JSON', 'input   ' + CANONICAL_INPUT + '\noutput  ' + ClashVerify.canonical(ClashVerify.parse(CANONICAL_INPUT)));
});

test('the example record verifies in both verifiers', async () => {
  const js = await jsVerify(EXAMPLE);
  assert.equal(js.verdict, 'verified', JSON.stringify(js));
  const rust = clashVerify(EXAMPLE);
  assert.equal(rust.code, 0, rust.out);
});

// The records that are not the whole game (docs/verification-vectors/): each verifier gives
// each the verdict verdicts.json says, for the reason it says.
test('the vectors of records that are not the whole game get the same verdict from both verifiers', async () => {
  const dir = new URL('docs/verification-vectors/', ROOT);
  const verdicts = JSON.parse(readFileSync(new URL('verdicts.json', dir), 'utf8'));
  assert.equal(verdicts.length, 3);
  for (const v of verdicts) {
    const text = readFileSync(new URL(v.file, dir), 'utf8');
    assert.ok(SPEC.includes('[' + v.file + '](verification-vectors/' + v.file + ')'), v.file);
    const js = await jsVerify(text);
    const rust = clashVerify(text);
    assert.equal(js.verdict, v.verdict, v.file + ': ' + JSON.stringify(js));
    assert.equal(verdictOf(rust.code), v.verdict, v.file + ': ' + rust.out);
    if (v.because) {
      assert.ok(js.unchecked.join(' ').toLowerCase().includes(v.because), v.file + ': ' + js.unchecked);
      assert.ok(rust.out.toLowerCase().includes(v.because), v.file + ': ' + rust.out);
    }
    if (v.entry !== undefined) {
      assert.equal(js.failures[0].pos, v.entry, v.file + ': ' + js.failures[0].text);
      assert.match(rust.out, new RegExp('FAILED: entry ' + v.entry + ' '), v.file);
    }
  }
});

