// A second verifier of a table's record, written from docs/verification.md alone and sharing no
// code with the server's (`clash verify`): the two check each other. It runs in the table page
// (the Fair dice card) and in Node (the tests), and checks
//   * that every field of the record is the table's: its ruleset, title and chance those of the
//     table's creation, the reader it names the one it was made for,
//   * that the revealed secret is the one sealed when the table was made (its SHA-256),
//   * the hash chain: every entry's hash from the one before it and the entry's digest, which
//     is recomputed from the entry's content once the secret is out, up to the record's head,
//   * the heads this browser was shown during play, each at its place,
//   * that a revealed record is the whole game: it ends with the table's close and the reveal of
//     the secret it gives,
//   * every roll and draw: re-derived from the secret, the client seeds in force and the
//     command's number, and compared with what the record says the command drew.
// It does not replay the game's rules (whether each command was allowed, and gave exactly the
// logged events): only `clash verify` does that.
//
// Everything is exported as `ClashVerify` (imported by the page's fair-check.js and by the tests
// in Node).
// Hashing uses WebCrypto (`crypto.subtle`) where there is one; a page served over plain http
// to another machine has none, so a small SHA-256 written out below stands in.
const FORMAT = 'clash-table-export/1';
const CHANCE = 'clash-chance-v1';
const utf8 = new TextEncoder();

// Types. A record is untrusted JSON from elsewhere, read defensively field by field (every read
// checks what it finds), so a value parsed from it is left untyped: `Json` is any on purpose.
/** @typedef {any} Json a value parsed from a record */
/** @typedef {Uint8Array<ArrayBuffer>} Bytes bytes WebCrypto takes */
/** @typedef {(bytes: Bytes) => Promise<Bytes>} Sha */
/** @typedef {{ sha256: Sha, hmac: (key: Bytes, message: Bytes) => Promise<Bytes> }} Hashing */
/** @typedef {(seat: string | undefined) => string} Names a seat's name, for messages (a malformed record may name none) */
/** @typedef {{ pos: number, hash: string | undefined, digest: Bytes | null, entry: Json, seen: Json, withheld: boolean, hidden: boolean }} Item an entry as read */
/** @typedef {{ commands: number, rolls: number, picks: number, seeds: number }} Tally */
/** @typedef {{ text: string, pos?: number, head?: string, sealed?: string, commitment?: string, field?: string, seat?: string, n?: number | null, draw?: number }} Failure */
/** @typedef {{ hash: string, pos?: number, table?: string }} Seen a head noted earlier */
/**
 * What `verify` finds: the verdict ('verified', 'partly' or 'failed'), what held, what failed
 * and what could not be checked.
 * @typedef {{ verdict: string, lines: string[], failures: Failure[], unchecked: string[], entries?: number, head?: string, hashes?: string[], revealed?: boolean, chance?: Tally | false | null }} Report
 */

// ---- JSON that keeps numbers as written -------------------------------------------------
// A number is hashed in the server's form of it ("100.0", "18446744073709551615"), which a
// JavaScript number cannot always hold, so the parser keeps each number's text.

class Num {
  /** @param {string} text */
  constructor(text) { this.text = text; }
  valueOf() { return Number(this.text); }
  toString() { return this.text; }
}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * @param {string} text
 * @returns {Json}
 */
function parse(text) {
  let i = 0;
  /** @param {string} what @returns {never} */
  const fail = (what) => { throw new SyntaxError('the record is not JSON: ' + what + ' at character ' + i); };
  const space = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  /** @returns {Json} */
  function value() {
    space();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, v] of /** @type {[string, boolean | null][]} */ ([['true', true], ['false', false], ['null', null]])) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    return fail('unexpected ' + (c === undefined ? 'end' : JSON.stringify(c)));
  }
  function object() {
    const out = Object.create(null);
    i++; space();
    if (text[i] === '}') { i++; return out; }
    for (;;) {
      space();
      if (text[i] !== '"') fail('expected a key');
      const key = string();
      space();
      if (text[i++] !== ':') fail('expected ":"');
      out[key] = value();
      space();
      const c = text[i++];
      if (c === '}') return out;
      if (c !== ',') fail('expected "," or "}"');
    }
  }
  /** @returns {Json[]} */
  function array() {
    /** @type {Json[]} */
    const out = [];
    i++; space();
    if (text[i] === ']') { i++; return out; }
    for (;;) {
      out.push(value());
      space();
      const c = text[i++];
      if (c === ']') return out;
      if (c !== ',') fail('expected "," or "]"');
    }
  }
  function string() {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail('a bad string');
    i += m[0].length;
    const s = JSON.parse(m[0]);
    if (!s.isWellFormed()) fail('a lone surrogate');
    return s;
  }
  function number() {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || !Number.isFinite(Number(m[0]))) fail('a bad number');
    i += m[0].length;
    return new Num(m[0]);
  }
  const out = value();
  space();
  if (i !== text.length) fail('trailing text');
  return out;
}

// ---- Canonical JSON (docs/verification.md, "Canonical JSON") ---------------------------

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

// A number as the server writes it: integers that fit 64 bits as plain decimals, anything
// else as the shortest decimal that reads back as the same double, laid out as the spec says
// (the layout of serde_json's float formatting).
/** @param {string} text */
function canonicalNumber(text) {
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    const negativeZero = text.startsWith('-') && n === 0n;
    if (!negativeZero && n <= U64_MAX && n >= I64_MIN) return n.toString();
  }
  return shortestDouble(Number(text));
}

/** @param {number} x */
function shortestDouble(x) {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const k = digits.length;
  const point = Number(exp) + 1; // the decimal point sits after this many digits
  let body;
  if (k <= point && point <= 16) body = digits + '0'.repeat(point - k) + '.0';
  else if (0 < point && point <= 16) body = digits.slice(0, point) + '.' + digits.slice(point);
  else if (-5 < point && point <= 0) body = '0.' + '0'.repeat(-point) + digits;
  else body = (k === 1 ? digits : digits[0] + '.' + digits.slice(1)) + (point > 0 ? 'e+' : 'e') + (point - 1);
  return sign + body;
}

// Keys in the order of their UTF-8 bytes, which is the order of their code points.
/** @param {string} a @param {string} b */
function byCodePoints(a, b) {
  const x = Array.from(a, (c) => /** @type {number} */ (c.codePointAt(0)));
  const y = Array.from(b, (c) => /** @type {number} */ (c.codePointAt(0)));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * @param {Json} v
 * @returns {string}
 */
function canonical(v) {
  if (v === null || v === true || v === false) return String(v);
  if (v instanceof Num) return canonicalNumber(v.text);
  if (typeof v === 'number') return canonicalNumber(String(v));
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  const keys = Object.keys(v).sort(byCodePoints);
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
}

// ---- Bytes ------------------------------------------------------------------------------

/** @param {Bytes} bytes */
function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Bytes from hex of either case; null if it is not hex.
/**
 * @param {unknown} text
 * @returns {Bytes | null}
 */
function unhex(text) {
  if (typeof text !== 'string' || text.length % 2 || /[^0-9a-fA-F]/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

/** @param {...(string | Bytes)} parts */
function concat(...parts) {
  const list = parts.map((p) => (typeof p === 'string' ? utf8.encode(p) : p));
  const out = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of list) { out.set(p, at); at += p.length; }
  return out;
}

// `n` as 8 bytes, big-endian.
/** @param {number | bigint} n */
function be64(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

// ---- SHA-256 and HMAC-SHA256 ------------------------------------------------------------

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// SHA-256 (FIPS 180-4), for where WebCrypto is missing.
/** @param {Bytes} bytes */
function sha256Plain(bytes) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  new DataView(padded.buffer).setBigUint64(padded.length - 8, BigInt(bytes.length) * 8n);
  const w = new Uint32Array(64);
  /** @param {number} x @param {number} n */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  const view = new DataView(padded.buffer);
  for (let at = 0; at < padded.length; at += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(at + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => { h[i] += x; });
  }
  const out = new Uint8Array(32);
  h.forEach((x, i) => new DataView(out.buffer).setUint32(4 * i, x));
  return out;
}

// HMAC (RFC 2104) over a hash with 64-byte blocks.
/**
 * @param {Sha} sha
 * @param {Bytes} key
 * @param {Bytes} message
 */
async function hmacWith(sha, key, message) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? await sha(key) : key);
  /** @param {number} x */
  const pad = (x) => block.map((b) => b ^ x);
  return sha(concat(pad(0x5c), await sha(concat(pad(0x36), message))));
}

// The hash functions to use: WebCrypto's when given, else the plain ones above.
/**
 * @param {SubtleCrypto | null | undefined} subtle
 * @returns {Hashing}
 */
function hashing(subtle) {
  if (!subtle) {
    /** @type {Sha} */
    const sha = async (bytes) => sha256Plain(bytes);
    return { sha256: sha, hmac: (key, message) => hmacWith(sha, key, message) };
  }
  /** @type {Map<string, CryptoKey>} */
  const keys = new Map();
  return {
    sha256: async (bytes) => new Uint8Array(await subtle.digest('SHA-256', bytes)),
    async hmac(key, message) {
      if (key.length === 0) return hmacWith(this.sha256, key, message); // WebCrypto refuses empty keys
      const id = hex(key);
      if (!keys.has(id)) keys.set(id, await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
      return new Uint8Array(await subtle.sign('HMAC', /** @type {CryptoKey} */ (keys.get(id)), message));
    },
  };
}

// ---- The derivations --------------------------------------------------------------------

/**
 * @param {Hashing} h
 * @param {Bytes} secret
 * @param {string} table
 * @param {number} pos
 */
function salt(h, secret, table, pos) {
  return h.hmac(secret, concat('clash-entry-salt-v1\0', table, '\0', be64(pos)));
}

/**
 * @param {Hashing} h
 * @param {Bytes} secret
 * @param {string} table
 * @param {number} pos
 * @param {Json} entry
 */
async function digest(h, secret, table, pos, entry) {
  return h.sha256(concat('clash-entry-v1\0', await salt(h, secret, table, pos), canonical(entry)));
}

/**
 * @param {Hashing} h
 * @param {Bytes} previous
 * @param {Bytes} entryDigest
 */
function chain(h, previous, entryDigest) {
  return h.sha256(concat('clash-chain-v1\0', previous, entryDigest));
}

// `seeds`: [[who, seed], …] sorted by who.
/**
 * @param {Hashing} h
 * @param {Bytes} secret
 * @param {string} table
 * @param {bigint} n
 * @param {[string, string][]} seeds
 */
function commandSeed(h, secret, table, n, seeds) {
  const parts = ['clash-chance-v1\0', table, '\0', be64(n)];
  for (const [who, seed] of seeds) parts.push(who, '\0', seed, '\0');
  return h.hmac(secret, concat(...parts));
}

// ChaCha20 (20 rounds) keyed with the 32-byte command seed, block counter from 0, nonce 0:
// its 64-bit numbers are the keystream read 8 bytes at a time, little-endian.
class ChaCha20 {
  /** @param {Bytes} seed */
  constructor(seed) {
    const v = new DataView(seed.buffer, seed.byteOffset, 32);
    this.input = new Uint32Array(16);
    this.input.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    for (let i = 0; i < 8; i++) this.input[4 + i] = v.getUint32(4 * i, true);
    this.block = new Uint32Array(16);
    this.next = 16;
  }

  refill() {
    const x = Uint32Array.from(this.input);
    /** @param {number} v @param {number} n */
    const rotl = (v, n) => (v << n) | (v >>> (32 - n));
    /** @param {number} a @param {number} b @param {number} c @param {number} d */
    const quarter = (a, b, c, d) => {
      x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
      x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
      x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
      x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
    };
    for (let round = 0; round < 10; round++) {
      quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) this.block[i] = x[i] + this.input[i];
    // The 64-bit block counter, words 12 (low) and 13 (high).
    if (++this.input[12] === 0) this.input[13]++;
    this.next = 0;
  }

  nextU64() {
    if (this.next === 16) this.refill();
    const lo = BigInt(this.block[this.next]);
    const hi = BigInt(this.block[this.next + 1]);
    this.next += 2;
    return lo | (hi << 32n);
  }

  // Uniform in 0..n−1: the first x < 2^64 − (2^64 mod n), then x mod n. `used` collects the
  // numbers drawn, rejected ones included.
  /** @param {bigint} n @param {bigint[]} [used] */
  below(n, used) {
    const limit = (1n << 64n) - ((1n << 64n) % n);
    for (;;) {
      const x = this.nextU64();
      if (used) used.push(x);
      if (x < limit) return x % n;
    }
  }
}

// ---- Reading a record -------------------------------------------------------------------

/** @param {unknown} v */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Num);
/** @param {unknown} v */
const text = (v) => (typeof v === 'string' ? v : undefined);
// A non-negative integer as a BigInt, or null.
/** @param {unknown} v */
function whole(v) {
  const t = v instanceof Num ? v.text : typeof v === 'number' ? String(v) : null;
  return t !== null && /^\d+$/.test(t) ? BigInt(t) : null;
}

/** @param {Json} seen */
function isWhisper(seen) {
  return isObject(seen) && seen.kind === 'table' && isObject(seen.event) && seen.event.type === 'whispered';
}

// The entry in words, for a reader: "Ada's command no. 3", "a game event", "a seed".
/** @param {Json} entry @param {Names} names */
function describe(entry, names) {
  if (!isObject(entry)) return 'an entry';
  if (entry.kind === 'command') return names(text(entry.seat)) + '’s command no. ' + whole(entry.n);
  if (entry.kind === 'event') return 'a game event';
  const type = isObject(entry.event) ? entry.event.type : '';
  return (/** @type {Record<string, string>} */ ({
    created: 'the table’s creation', seed_added: 'a seed for the dice', said: 'table talk',
    whispered: 'a whisper to the GM', closed: 'the end of the table', game_over: 'the end of the game',
    secret_revealed: 'the reveal of the secret', undone: 'a command taken back',
  }))[type] || 'a table event';
}

/** @param {string} seat */
function defaultNames(seat) {
  return seat === 'gm' ? 'the GM' : 'seat ' + seat;
}

/** @param {Json} d a draw */
function drawText(d) {
  if (d.kind === 'roll') return 'a d' + d.sides + ' showing ' + d.face;
  const label = d.label ? ' (“' + d.label + '”)' : '';
  return 'option ' + (BigInt(d.index) + 1n) + ' of ' + d.count + label;
}

// ---- Verification -----------------------------------------------------------------------

class Check {
  /** @param {Names} names */
  constructor(names) {
    this.names = names;
    /** @type {string[]} */
    this.lines = [];
    /** @type {Failure[]} */
    this.failures = [];
    /** @type {string[]} */
    this.unchecked = [];
  }
  /** @param {string} line */
  ok(line) { this.lines.push(line); }
  /** @param {string} line @param {Omit<Failure, "text">} [where] @returns {false} */
  fail(line, where) { this.failures.push(Object.assign({ text: line }, where || {})); return false; }
  /** @param {string} line */
  skip(line) { this.unchecked.push(line); }
}

// Positions, hashes, digests and contents of the record's entries; null if malformed.
/** @param {Json} record @param {Check} check */
function readEntries(record, check) {
  if (!Array.isArray(record.entries)) return check.fail('The record has no list of entries.') && null;
  if (record.entries.length === 0) return check.fail('The record has no entries.') && null;
  /** @type {Item[]} */
  const items = [];
  for (const [i, e] of record.entries.entries()) {
    const pos = isObject(e) ? whole(e.pos) : null;
    if (pos !== BigInt(i)) {
      check.fail('Entry ' + i + ' is out of place: entries are missing or out of order.', { pos: i });
      return null;
    }
    items.push({
      pos: i,
      hash: text(e.hash),
      digest: unhex(text(e.digest)),
      entry: e.entry,
      seen: e.seen,
      withheld: e.withheld === true,
      hidden: e.hidden === true,
    });
  }
  return items;
}

// Every top-level field a record may have; any other is vouched for by nothing.
const FIELDS = ['format', 'table', 'ruleset', 'title', 'exported_as', 'chance', 'commitment', 'secret', 'head', 'entries'];
const CHANCES = [CHANCE, 'legacy'];

// Entry 0, the table's creation, and the record's own fields against it.
/** @param {Json} record @param {Item[]} items @param {Check} check */
function checkCreated(record, items, check) {
  for (const field of Object.keys(record)) {
    if (!FIELDS.includes(field)) check.skip('The record’s field “' + field + '”: no Clash record has it, and nothing here vouches for it.');
  }
  const first = items[0].entry !== undefined ? items[0].entry : items[0].seen;
  const e = isObject(first) && first.kind === 'table' && isObject(first.event) ? first.event : null;
  if (!e || e.type !== 'created' || typeof e.ruleset !== 'string' || typeof e.title !== 'string' || !('setup' in e)) {
    return check.fail('The first entry is not the table’s creation.', { pos: 0 });
  }
  if (!CHANCES.includes(e.chance)) return check.fail('The table’s creation names no known way of making chance.', { pos: 0 });
  if (e.commitment !== (text(record.commitment) || '')) return check.fail('The seal in the first entry differs from the record’s.', { pos: 0 });
  for (const field of ['ruleset', 'title', 'chance']) {
    if (record[field] !== e[field]) {
      return check.fail('The record’s ' + field + ' is not the one the table was created with.', { field });
    }
  }
  check.ok('The record’s game, title and dice are those the table was created with.');
  return true;
}

// The secret, if the record reveals one and it matches the commitment.
/** @param {Hashing} h @param {Json} record @param {Check} check */
async function checkSecret(h, record, check) {
  const commitment = text(record.commitment) || '';
  if (!('secret' in record)) return null;
  const secret = unhex(text(record.secret) || '');
  if (!secret) return check.fail('The revealed secret is not written in hex.') && null;
  const sealed = hex(await h.sha256(secret));
  if (sealed !== commitment) {
    return check.fail('The revealed secret is not the one sealed when the table was made.', { sealed, commitment }) && null;
  }
  check.ok('The revealed secret is the one sealed when the table was made.');
  return secret;
}

// The reader the record names must fit what it gives: a spectator no whisper, a player only
// their own, and once the secret is out the GM every entry.
/** @param {Json} record @param {Item[]} items @param {boolean} revealed @param {Check} check */
function checkReader(record, items, revealed, check) {
  const named = text(record.exported_as) || '';
  const seat = /^(gm|p[1-9][0-9]*)$/.test(named) ? named : named === 'spectator' ? null : undefined;
  if (seat === undefined) return check.fail('The record names no reader it was made for.');
  for (const item of items) {
    const e = item.entry;
    if (!isObject(e) || e.kind !== 'table' || !isObject(e.event) || e.event.type !== 'whispered') continue;
    const own = seat === 'gm' || (seat !== null && (e.event.by === seat || e.event.to === seat));
    if (!own) return check.fail('Entry ' + item.pos + ' is a whisper between others, given whole: this record was not made for the reader it names.', { pos: item.pos });
  }
  const withheld = items.find((i) => i.entry === undefined);
  if (seat === 'gm' && revealed && withheld) {
    return check.fail('Entry ' + withheld.pos + ' is withheld from a record made for the GM, who reads every entry.', { pos: withheld.pos });
  }
  check.ok('The record was made for ' + (seat === 'gm' ? 'the GM' : seat === null ? 'a spectator' : check.names(seat)) + ': it gives no talk that reader may not read.');
  return true;
}

// A revealed record is the whole game when it ends with the table's close, followed at once by
// the reveal of the secret it gives.
/** @param {Item[]} items @param {Bytes} secret @param {Check} check */
function checkEnd(items, secret, check) {
  /** @param {Item} item */
  const type = (item) => (isObject(item.entry) && item.entry.kind === 'table' && isObject(item.entry.event) ? item.entry.event.type : null);
  const close = items.findIndex((i) => type(i) === 'closed' || type(i) === 'game_over');
  if (close < 0) {
    check.skip('The end of the table: this record does not end with the table’s close and the reveal of its secret, so entries may be missing from its end.');
    return true;
  }
  const late = items.slice(close + 1).find((i) => isObject(i.entry) && (i.entry.kind === 'command' || i.entry.kind === 'event'));
  if (late) return check.fail('Entry ' + late.pos + ' (' + describe(late.entry, check.names) + ') comes after the table ended.', { pos: late.pos });
  const reveal = items[close + 1];
  if (!reveal) {
    check.skip('The end of the table: the record ends with the table’s close but not the reveal of its secret, which always follows it: it was cut short.');
    return true;
  }
  if (type(reveal) !== 'secret_revealed') {
    return check.fail('Entry ' + reveal.pos + ': the table’s close is not followed by the reveal of its secret.', { pos: reveal.pos });
  }
  const shown = unhex(text(reveal.entry.event.secret) || '');
  if (!shown || hex(shown) !== hex(secret)) {
    return check.fail('Entry ' + reveal.pos + ' (the reveal of the secret) reveals another secret than the record’s.', { pos: reveal.pos });
  }
  const after = items.length - reveal.pos - 1;
  if (after > 0) {
    check.skip('The end of the table: ' + after + ' entries follow the reveal of the secret (an older server logged talk there); they are chained, but this record does not end with the end of the game.');
    return true;
  }
  check.ok('The record is the whole game: it ends with the table’s close and the reveal of its secret.');
  return true;
}

// Follow the chain; returns the entries' hashes, or null at the first break.
/**
 * @param {Hashing} h
 * @param {Json} record
 * @param {Item[]} items
 * @param {Bytes | null | false} secret
 * @param {Check} check
 */
async function checkChain(h, record, items, secret, check) {
  const table = text(record.table) || '';
  let head = new Uint8Array(32);
  /** @type {string[]} */
  const hashes = [];
  let talk = 0; // private talk followed by its digest in a revealed record
  for (const item of items) {
    const given = item.digest && item.digest.length === 32 ? item.digest : null;
    let d;
    if (secret && item.entry !== undefined) d = await digest(h, secret, table, item.pos, item.entry);
    else if (secret && given && (item.hidden || (item.withheld && isWhisper(item.seen)))) { d = given; talk++; }
    else if (secret) return check.fail('Entry ' + item.pos + ' is hidden in a record that reveals the secret.', { pos: item.pos }) && null;
    else if (given) d = given;
    else return check.fail('Entry ' + item.pos + ' has no digest.', { pos: item.pos }) && null;
    head = await chain(h, head, d);
    hashes.push(hex(head));
    // Hashes are compared as bytes: a record may write them in either case.
    if (!/^[0-9a-fA-F]{64}$/.test(item.hash || '') || /** @type {string} */ (item.hash).toLowerCase() !== hashes[hashes.length - 1]) {
      const what = describe(item.entry !== undefined ? item.entry : item.seen, check.names);
      return check.fail('Entry ' + item.pos + ' (' + what + ') does not match its hash: it was changed after it was recorded.', { pos: item.pos }) && null;
    }
  }
  if (record.head !== hashes[hashes.length - 1]) {
    return check.fail('The record’s head is not the hash of its last entry.') && null;
  }
  const how = !secret ? 'up to the latest'
    : talk ? 'each against its content, but for ' + talk + ' private ' + (talk === 1 ? 'line' : 'lines')
      + ' of talk between the GM and a player, checked by digest'
      : 'each against its content';
  check.ok('The log’s chain is intact: ' + items.length + ' entries checked, ' + how + '.');
  return hashes;
}

// Heads noted earlier (`{hash, pos, table}`, pos and table optional) must still be in the
// record, each at its place.
/** @param {Json} record @param {string[]} hashes @param {Seen[] | undefined} seen @param {Check} check */
function checkSeen(record, hashes, seen, check) {
  let count = 0;
  for (const s of seen || []) {
    const hash = String(s.hash || s).toLowerCase();
    if (s.table !== undefined && s.table !== record.table) {
      return check.fail('The heads given were seen at another table.', { head: hash });
    }
    const pos = s.pos === undefined ? undefined : Number(s.pos);
    if (pos !== undefined && pos >= hashes.length) {
      return check.fail('The log’s history was rewritten. Entry ' + pos + ' was seen earlier, but the record ends before it: entries were cut from its end.', { head: hash, pos });
    }
    const at = pos === undefined ? hashes.indexOf(hash) : (hashes[pos] === hash ? pos : -1);
    if (at < 0) {
      const which = pos === undefined ? 'A head seen earlier is not in this record' : 'Entry ' + pos + ' is not the one seen earlier';
      return check.fail('The log’s history was rewritten. ' + which + '.', { head: hash, pos });
    }
    count++;
  }
  if (count) check.ok((count === 1 ? 'The head' : 'Every one of the ' + count + ' heads') + ' seen earlier is still in the log.');
  return true;
}

// Re-derive every recorded roll and draw from the secret.
/**
 * @param {Hashing} h
 * @param {Json} record
 * @param {Item[]} items
 * @param {Bytes} secret
 * @param {Check} check
 */
async function checkChance(h, record, items, secret, check) {
  const created = items[0].entry;
  const chance = isObject(created) && isObject(created.event) ? created.event.chance : undefined;
  if (chance === 'legacy') {
    check.skip('Rolls and draws: this table was made before verifiable dice, so its rolls cannot be checked.');
    return null;
  }
  if (chance !== CHANCE) return check.fail('The table’s creation names no known way of making chance.', { pos: 0 }) && null;
  const table = text(record.table) || '';
  /** @type {Map<string, string>} */
  const seeds = new Map();
  const tally = { commands: 0, rolls: 0, picks: 0, seeds: 0 };
  for (const item of items) {
    const e = item.entry;
    if (!isObject(e)) continue;
    if (e.kind === 'table' && isObject(e.event) && e.event.type === 'seed_added') {
      if (!/^(gm|p[1-9][0-9]*)$/.test(text(e.event.by) || '') || !/^[A-Za-z0-9._:-]{1,64}$/.test(text(e.event.seed) || '')) {
        return check.fail('Entry ' + item.pos + ' (' + describe(e, check.names) + ') holds a seed the server does not take.', { pos: item.pos }) && null;
      }
      seeds.set(e.event.by, e.event.seed);
      continue;
    }
    if (e.kind !== 'command') continue;
    // Commands are numbered in log order from 0: a gap is a command left out of the record.
    if (whole(e.n) !== BigInt(tally.commands)) {
      return check.fail('Entry ' + item.pos + ' (' + describe(e, check.names) + ') comes where command no. ' + tally.commands
        + ' should: a command is missing from the record.', { pos: item.pos }) && null;
    }
    const inForce = [...seeds.entries()].sort((a, b) => byCodePoints(a[0], b[0]));
    if (!(await checkCommand(h, { table, secret, seeds: inForce, pos: item.pos, entry: e }, tally, check))) return null;
  }
  tally.seeds = seeds.size;
  check.ok('Every roll and draw re-derived from the revealed secret: ' + tally.commands + ' commands, '
    + (tally.rolls + tally.picks) + ' draws (' + tally.rolls + ' dice, ' + tally.picks + ' picks), all match.');
  return tally;
}

/**
 * @param {Hashing} h
 * @param {{ table: string, secret: Bytes, seeds: [string, string][], pos: number, entry: Json }} c
 * @param {Tally} tally
 * @param {Check} check
 */
async function checkCommand(h, c, tally, check) {
  const n = whole(c.entry.n);
  const where = { pos: c.pos, seat: text(c.entry.seat), n: n === null ? null : Number(n) };
  const what = 'Entry ' + c.pos + ' (' + describe(c.entry, check.names) + ')';
  if (n === null || !Array.isArray(c.entry.draws || [])) return check.fail(what + ' is malformed.', where);
  const stream = new ChaCha20(await commandSeed(h, c.secret, c.table, n, c.seeds));
  for (const [i, d] of (c.entry.draws || []).entries()) {
    const roll = isObject(d) && d.kind === 'roll';
    const pick = isObject(d) && d.kind === 'pick';
    const k = roll ? whole(d.sides) : pick ? whole(d.count) : null;
    const got = roll ? whole(d.face) : pick ? whole(d.index) : null;
    // A die has 1 to 2^32 − 1 sides; a pick is among 1 to 2^64 − 1 options.
    const most = roll ? (1n << 32n) - 1n : (1n << 64n) - 1n;
    if (k === null || got === null || k === 0n || k > most) return check.fail(what + ', draw ' + (i + 1) + ': not a roll or a pick.', where);
    const derived = stream.below(k) + (roll ? 1n : 0n);
    if (derived !== got) {
      const says = drawText(d);
      const gives = roll ? String(derived) : 'option ' + (derived + 1n);
      return check.fail(what + ', draw ' + (i + 1) + ': the record says ' + says + '; the revealed secret gives ' + gives + '.', Object.assign({ draw: i + 1 }, where));
    }
    if (roll) tally.rolls++; else tally.picks++;
  }
  tally.commands++;
  return true;
}

// Check a record given as JSON text. Options: `subtle` (WebCrypto's, or null for the plain
// SHA-256 here), `seen` (heads noted earlier), `names` (a seat's name for messages).
/**
 * @param {string} recordText
 * @param {{ subtle?: SubtleCrypto | null, seen?: Seen[], names?(seat: string | undefined): string }} [options]
 * @returns {Promise<Report>}
 */
async function verify(recordText, options) {
  const opts = options || {};
  const check = new Check(opts.names || defaultNames);
  const h = hashing(opts.subtle === undefined ? globalThis.crypto && globalThis.crypto.subtle : opts.subtle);
  /** @param {{ entries?: number, head?: string, hashes?: string[], revealed?: boolean, chance?: Tally | false | null }} extra */
  const report = (extra) => Object.assign({
    verdict: check.failures.length ? 'failed' : check.unchecked.length ? 'partly' : 'verified',
    lines: check.lines, failures: check.failures, unchecked: check.unchecked,
  }, extra);
  let record;
  try { record = parse(recordText); } catch (e) { check.fail(e instanceof Error ? e.message : String(e)); return report({}); }
  if (!isObject(record) || record.format !== FORMAT) {
    check.fail('This is not a Clash table record (its "format" is not "' + FORMAT + '").');
    return report({});
  }
  const items = readEntries(record, check);
  if (!items) return report({});
  if (!checkCreated(record, items, check)) return report({ entries: items.length });
  const secret = await checkSecret(h, record, check);
  if (check.failures.length) return report({ entries: items.length });
  const hashes = await checkChain(h, record, items, secret, check);
  if (!hashes || !checkSeen(record, hashes, opts.seen, check)) return report({ entries: items.length });
  const base = { entries: items.length, head: hashes[hashes.length - 1], hashes, revealed: !!secret };
  if (!secret) {
    check.skip('Rolls and draws are checked once the table ends and its secret is revealed (this record was taken before the table ended).');
    checkReader(record, items, false, check);
    return report(base);
  }
  if (!checkEnd(items, secret, check)) return report(base);
  const chance = await checkChance(h, record, items, secret, check);
  if (check.failures.length === 0) checkReader(record, items, true, check);
  return report(Object.assign(base, { chance }));
}

// The building blocks, for the tests and the spec's test vectors.
const derive = {
  hashing, salt, digest, chain, commandSeed, ChaCha20, hex, unhex, concat, be64, sha256Plain,
};

export const ClashVerify = { FORMAT, verify, parse, canonical, Num, derive };
