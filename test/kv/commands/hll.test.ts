// The HyperLogLog family over HTTP, against a real Larder. Every expected reply, error text and
// byte string was taken from redis-server 7.0 given the same commands: Larder keeps HLLs in
// Redis's own format, so the estimates and the bytes GET answers are Redis's.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { replies, suiteLarder } from '../../support/larder.js';

// WRONGTYPE needs a value of another type; the hash family declares one. Skipped until then.
const hashIt = TABLE.has('hset') ? it : it.skip;

const NOT_HLL = 'WRONGTYPE Key is not a valid HyperLogLog string value.';
const CORRUPT = 'INVALIDOBJ Corrupted HLL object detected';

const header = (encoding: string, card: string) => 'HYLL' + encoding + '\0\0\0' + card;
const STALE = '\0'.repeat(7) + '\x80';
/** el:<from> .. el:<to - 1> */
const elements = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `el:${from + i}`);
const sha256 = (bytes: string) => createHash('sha256').update(Buffer.from(bytes, 'latin1')).digest('hex');

describe('hyperloglog commands over HTTP', () => {
  const t = suiteLarder();

  const { reply, fails } = replies(() => t);

  it('PFADD builds a sparse HLL byte for byte as Redis does', async () => {
    await reply(['pfadd', 'empty'], 1);
    assert.equal(await t.getBytes('empty'), header('\x01', STALE) + '\x7f\xff');
    await reply(['pfadd', 'abc', 'a', 'b', 'c'], 1);
    const body = '\x60\xf3\x80\x50\xb1\x84\x4b\xfb\x80\x42\x5a';
    assert.equal(await t.getBytes('abc'), header('\x01', STALE) + body);
    await reply(['pfadd', 'abc', 'a'], 0);
    await reply(['pfadd', 'abc'], 0);
    // PFCOUNT caches the estimate in the header.
    await reply(['pfcount', 'abc'], 3);
    assert.equal(await t.getBytes('abc'), header('\x01', '\x03' + '\0'.repeat(7)) + body);
    await reply(['pfcount', 'abc'], 3);
    await reply(['pfadd', 'abc', 'd'], 1);
    assert.equal((await t.getBytes('abc'))!.charCodeAt(15), 0x80);
    await reply(['pfcount', 'abc'], 4);
  });

  it('estimates and encodes as Redis, sparse and dense', async () => {
    await reply(['pfadd', 'sparse', ...elements(0, 1000)], 1);
    assert.equal(sha256((await t.getBytes('sparse'))!), 'a18a0f485230f4b2868d77a230ac57813a1b8d9b2c0abe55c75c29d14869ba17');
    await reply(['pfcount', 'sparse'], 999);
    assert.equal(sha256((await t.getBytes('sparse'))!), 'b6b8b2bad8824cfb37a1914a55f60b102a44b0b8ee8026bbfda0905e3ce63eb7');
    // Past hll-sparse-max-bytes (3000) the HLL turns dense: 16 + 12288 bytes.
    await reply(['pfadd', 'dense', ...elements(0, 5000)], 1);
    const dense = (await t.getBytes('dense'))!;
    assert.equal(dense.length, 12304);
    assert.equal(sha256(dense), '2efe2730466cb7e17a0d3539360b8fa33637389df3a72002fbdb414c8a6b4492');
    await reply(['pfcount', 'dense'], 4959);
    assert.equal(sha256((await t.getBytes('dense'))!), '672a5d106ac2908a64ef8fb03c546ee8c29ea9212f933f101f3f47fcb9a46a2a');
  });

  it('PFCOUNT of several keys estimates their union; PFMERGE stores it', async () => {
    await reply(['pfadd', '{t}u:a', ...elements(0, 1000)], 1);
    await reply(['pfadd', '{t}u:b', ...elements(3000, 4000)], 1);
    await reply(['pfcount', '{t}u:a', '{t}u:b'], 2004);
    await reply(['pfcount', '{t}u:a', '{t}u:none'], 999);
    await reply(['pfcount', '{t}u:none', '{t}u:none2'], 0);
    await reply(['exists', '{t}u:none'], 0);
    // The merged HLL grows past the sparse limit as it is written, and turns dense.
    await reply(['pfmerge', '{t}u:merged', '{t}u:a', '{t}u:b'], 'OK');
    assert.equal(sha256((await t.getBytes('{t}u:merged'))!), '95a5f0d7f86262e0a4da9221650791e08c252b6a7bd49feb77ec58e4afc4d2f3');
    await reply(['pfcount', '{t}u:merged'], 2004);
    // A dense source makes the destination dense at once.
    await reply(['pfadd', '{t}u:dense', ...elements(0, 5000)], 1);
    await reply(['pfmerge', '{t}u:merged2', '{t}u:a', '{t}u:dense'], 'OK');
    assert.equal(sha256((await t.getBytes('{t}u:merged2'))!), '2efe2730466cb7e17a0d3539360b8fa33637389df3a72002fbdb414c8a6b4492');
    await reply(['pfcount', '{t}u:merged2'], 4959);
    // No sources: an empty HLL.
    await reply(['pfmerge', '{t}u:new'], 'OK');
    assert.equal(await t.getBytes('{t}u:new'), header('\x01', STALE) + '\x7f\xff');
  });

  it('PFADD and PFMERGE keep the key\'s TTL', async () => {
    await reply(['pfadd', '{t}ttl', 'a'], 1);
    await reply(['expire', '{t}ttl', 1000], 1);
    await reply(['pfmerge', '{t}ttl', '{t}abc'], 'OK');
    await reply(['ttl', '{t}ttl'], 1000);
    await reply(['pfadd', '{t}ttl', 'zzz'], 1);
    await reply(['ttl', '{t}ttl'], 1000);
  });

  it('takes an HLL made by Redis, and refuses strings that are not HLLs', async () => {
    const fromRedis = header('\x01', STALE) + '\x60\xf3\x80\x50\xb1\x84\x4b\xfb\x80\x42\x5a';
    await t.setBytes('{t}r', fromRedis);
    await reply(['pfcount', '{t}r'], 3);
    await reply(['pfadd', '{t}r', 'c'], 0);
    await reply(['set', '{t}str', 'hello'], 'OK');
    await fails(['pfadd', '{t}str', 'a'], NOT_HLL);
    await fails(['pfcount', '{t}str'], NOT_HLL);
    await fails(['pfcount', '{t}r', '{t}str'], NOT_HLL);
    await fails(['pfmerge', '{t}r', '{t}str'], NOT_HLL);
    await fails(['pfmerge', '{t}str', '{t}r'], NOT_HLL);
    await t.setBytes('enc', header('\x02', STALE) + '\x7f\xff');
    await fails(['pfcount', 'enc'], NOT_HLL);
    await t.setBytes('dshort', header('\x00', STALE) + '\x7f\xff');
    await fails(['pfadd', 'dshort', 'a'], NOT_HLL);
    await reply(['pfcount', 'none'], 0);
  });

  it('reports corrupt HLLs, but answers a cached estimate without reading the registers', async () => {
    await t.setBytes('{t}c5', header('\x01', '\x05' + '\0'.repeat(7)));
    await reply(['pfcount', '{t}c5'], 5);
    await fails(['pfcount', '{t}c5', '{t}abc'], CORRUPT);
    await fails(['pfadd', '{t}c5', 'a'], CORRUPT);
    await reply(['pfadd', '{t}c5'], 0);
    await fails(['pfmerge', '{t}x', '{t}c5'], CORRUPT);
    await reply(['exists', '{t}x'], 0);
    await t.setBytes('bad', header('\x01', STALE));
    await fails(['pfcount', 'bad'], CORRUPT);
    // One register too many: still writable, corrupt to read.
    await t.setBytes('over', header('\x01', STALE) + '\x7f\xff\x00');
    await reply(['pfadd', 'over', 'a'], 1);
    await fails(['pfcount', 'over'], CORRUPT);
  });

  it('arity errors', async () => {
    for (const name of ['pfadd', 'pfcount', 'pfmerge']) {
      await fails([name], `ERR wrong number of arguments for '${name}' command`);
    }
  });

  hashIt('answers the usual WRONGTYPE for values of other types', async () => {
    await reply(['hset', 'h:k', 'f', 'v'], 1);
    const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    await fails(['pfadd', 'h:k', 'a'], wrongType);
    await fails(['pfcount', 'h:k'], wrongType);
    await fails(['pfmerge', 'h:k'], wrongType);
  });

  it('the read-only token may count (and so cache) but not add or merge', async () => {
    const token = t.readOnlyToken;
    await reply(['pfadd', 'ro', 'a', 'b'], 1);
    assert.deepEqual(await t.command(['pfcount', 'ro'], { token }), { status: 200, body: { result: 2 } });
    assert.equal((await t.getBytes('ro'))!.charCodeAt(8), 2);
    for (const argv of [['pfadd', 'ro', 'x'], ['pfmerge', 'ro', 'ro']]) {
      const res = await t.command(argv, { token });
      assert.equal(res.status, 400, argv[0]);
      assert.match(res.body.error, /^NOPERM /);
    }
  });
});

describe('hyperloglog command table', () => {
  const categories = (name: string) => [...TABLE.get(name)!.categories].sort();

  it('declares Redis 7.0 categories', () => {
    assert.deepEqual(categories('pfadd'), ['all', 'fast', 'hyperloglog', 'write']);
    assert.deepEqual(categories('pfcount'), ['all', 'hyperloglog', 'read', 'slow']);
    assert.deepEqual(categories('pfmerge'), ['all', 'hyperloglog', 'slow', 'write']);
  });
});
