// Commands that take or answer more items than a JavaScript call takes arguments (about 123k on
// Node, the lower of the two runtimes) work as in Redis instead of failing with "Maximum call
// stack size exceeded": a consumer group reading, claiming and acknowledging that many stream
// entries (each logged), JSON.ARRAPPEND and JSON.ARRINSERT of that many values, one BITFIELD of that many
// writes; and, where each item cost time in proportion to all the others (or a write to a
// string in proportion to the string), in time linear in them (a generous timeout bounds it). Run against Larder on Node, where the limits are lowest.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnLarder, type LarderProcess } from '../../support/larder-process.js';
import { kvClient, type KvClient } from '../../support/larder.js';

const N = 130_000;
const PER_PIPELINE = 1000;

describe('commands over more items than a call takes arguments (Larder on Node)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-many-items-'));
  let larder: LarderProcess;
  let client: KvClient;
  before(async () => {
    const p = await spawnLarder({ runtime: 'node', config: { logLevel: 'silent' }, dataDir });
    const db = p.info.databases.get('default')!;
    larder = p;
    client = kvClient(db.url, db.token, db.readOnlyToken);
  });
  after(async () => {
    larder.kill('SIGTERM');
    await larder.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`XREADGROUP and XAUTOCLAIM deliver ${N} entries in one call`, async () => {
    for (let i = 0; i < N; i += PER_PIPELINE) {
      const adds = Array.from({ length: PER_PIPELINE }, (_, j) => ['XADD', 's', `${i + j + 1}-0`, 'f', 'v']);
      assert.equal((await client.request('/pipeline', { method: 'POST', body: JSON.stringify(adds) })).status, 200);
    }
    await client.ok(['XGROUP', 'CREATE', 's', 'g', '0']);
    const read = (await client.ok(['XREADGROUP', 'GROUP', 'g', 'alice', 'COUNT', N, 'STREAMS', 's', '>'])) as [string, unknown[]][];
    assert.equal(read[0][1].length, N);
    const [next, claimed] = (await client.ok(['XAUTOCLAIM', 's', 'g', 'bob', 0, '0-0', 'COUNT', N, 'JUSTID'])) as [string, string[]];
    assert.deepEqual([next, claimed.length, claimed[N - 1]], ['0-0', N, `${N}-0`]);
  });

  // Removing each pending entry by splicing the list moved every later one: 34 s on Node.
  it(`XACK acknowledges the ${N} pending entries in one call, without time quadratic in them`, { timeout: 15_000 }, async () => {
    const ids = Array.from({ length: N }, (_, i) => `${i + 1}-0`);
    assert.deepEqual(await client.ok(['XPENDING', 's', 'g']), [N, '1-0', `${N}-0`, [['bob', String(N)]]]);
    assert.equal(await client.ok(['XACK', 's', 'g', ...ids.filter((_, i) => i % 2 === 1)]), N / 2);
    assert.deepEqual(await client.ok(['XPENDING', 's', 'g']), [N / 2, '1-0', `${N - 1}-0`, [['bob', String(N / 2)]]]);
    assert.equal(await client.ok(['XACK', 's', 'g', ...ids]), N / 2);
    assert.deepEqual(await client.ok(['XPENDING', 's', 'g']), [0, null, null, null]);
  });

  // Each id claimed went in front of those claimed before it, shifting them all.
  it(`XCLAIM FORCE takes ${N} ids given in descending order in one call, without time quadratic in them`, { timeout: 15_000 }, async () => {
    await client.ok(['XGROUP', 'CREATE', 's', 'g2', '$']);
    const ids = Array.from({ length: N }, (_, i) => `${N - i}-0`);
    const claimed = (await client.ok(['XCLAIM', 's', 'g2', 'carol', 0, ...ids, 'FORCE', 'JUSTID'])) as string[];
    assert.deepEqual([claimed.length, claimed[0], claimed[N - 1]], [N, `${N}-0`, '1-0']);
    assert.deepEqual(await client.ok(['XPENDING', 's', 'g2']), [N, '1-0', `${N}-0`, [['carol', String(N)]]]);
  });

  it(`JSON.ARRAPPEND and JSON.ARRINSERT add ${N} values in one call`, async () => {
    const values = Array.from({ length: N }, (_, i) => String(i));
    await client.ok(['JSON.SET', 'doc', '$', '{"a":["first"]}']);
    assert.deepEqual(await client.ok(['JSON.ARRAPPEND', 'doc', '$.a', ...values]), [N + 1]);
    assert.deepEqual(await client.ok(['JSON.ARRINSERT', 'doc', '$.a', 1, ...values]), [2 * N + 1]);
    assert.deepEqual(await client.ok(['JSON.GET', 'doc', '$.a[0]', '$.a[1]', `$.a[${N + 1}]`, `$.a[${2 * N}]`]), JSON.stringify({ '$.a[0]': ['first'], '$.a[1]': [0], [`$.a[${N + 1}]`]: [0], [`$.a[${2 * N}]`]: [N - 1] }));
  });

  // Each match was compared with every other one, to skip those inside another match.
  it(`JSON.DEL removes ${N} matches of one path in one call, without time quadratic in them`, { timeout: 15_000 }, async () => {
    const doc = { arr: Array.from({ length: N }, (_, i) => ({ x: i, keep: true })) };
    await client.ok(['JSON.SET', 'many', '$', JSON.stringify(doc)]);
    assert.equal(await client.ok(['JSON.DEL', 'many', '$..x']), N);
    assert.equal(await client.ok(['JSON.DEL', 'many', '$.arr[*]']), N);
    assert.equal(await client.ok(['JSON.GET', 'many']), '{"arr":[]}');
  });

  // Each new distinct value of a field shifted the sorted values after it.
  // 40 s: loading the 130k hashes alone took over 15 s on two cores busy with other suites;
  // quadratic indexing would take hours.
  it(`SEARCH.CREATE indexes ${N} documents that each bring a distinct number, keyword and word, without time quadratic in them`, { timeout: 40_000 }, async () => {
    const order = Array.from({ length: N }, (_, i) => (i * 7919) % N); // every number once, out of order
    for (let i = 0; i < N; i += PER_PIPELINE) {
      const docs = order.slice(i, i + PER_PIPELINE).map((n) => ['HSET', `doc:${n}`, 'price', String(n), 'tag', `kw${n}`, 'title', `hello w${n.toString(36)}q`]);
      assert.equal((await client.request('/pipeline', { method: 'POST', body: JSON.stringify(docs) })).status, 200);
    }
    await client.ok(['SEARCH.CREATE', 'docs', 'ON', 'HASH', 'PREFIX', '1', 'doc:', 'SCHEMA', 'price', 'F64', 'tag', 'KEYWORD', 'title', 'TEXT']);
    assert.equal(await client.ok(['SEARCH.COUNT', 'docs', JSON.stringify({ price: { $gte: 1000, $lt: 3000 } })]), 2000);
    assert.equal(await client.ok(['SEARCH.COUNT', 'docs', JSON.stringify({ tag: { $in: ['kw7', `kw${N - 1}`, 'kw-none'] } })]), 2);
    assert.equal(await client.ok(['SEARCH.COUNT', 'docs', JSON.stringify({ title: 'hello' })]), N);
  });

  it(`BITFIELD runs ${N} writes in one call`, async () => {
    const ops = Array.from({ length: N }, (_, i) => ['SET', 'u8', `#${i}`, String(i % 256)]).flat();
    const replies = (await client.ok(['BITFIELD', 'bits', ...ops])) as number[];
    assert.equal(replies.length, N);
    assert.equal(await client.ok(['STRLEN', 'bits']), N);
    assert.deepEqual(await client.ok(['BITFIELD', 'bits', 'GET', 'u8', `#${N - 1}`]), [(N - 1) % 256]);
  });

  // A JS string cannot change, so each of these writes copied the whole string: on Node about
  // 5 ms each on 8 MB, so 20k of them took minutes; Redis edits its string in place.
  it('SETBIT, SETRANGE, BITFIELD and APPEND on an 8 MB string take no time in proportion to it', { timeout: 15_000 }, async () => {
    const BYTES = 8 * 1024 * 1024;
    const WRITES = 20_000;
    await client.ok(['SETBIT', 'big', BYTES * 8 - 1, 1]);
    const write = (n: number): (string | number)[] => {
      const at = (n * 7919) % (BYTES - 8);
      if (n % 4 === 0) return ['SETBIT', 'big', at * 8 + (n % 8), 1];
      if (n % 4 === 1) return ['SETRANGE', 'big', at, 'ab'];
      if (n % 4 === 2) return ['BITFIELD', 'big', 'INCRBY', 'u8', at * 8, 1];
      return ['APPEND', 'big', 'z'];
    };
    for (let i = 0; i < WRITES; i += PER_PIPELINE) {
      const writes = Array.from({ length: PER_PIPELINE }, (_, j) => write(i + j));
      assert.equal((await client.request('/pipeline', { method: 'POST', body: JSON.stringify(writes) })).status, 200);
    }
    assert.equal(await client.ok(['STRLEN', 'big']), BYTES + WRITES / 4);
    assert.equal(await client.ok(['GETRANGE', 'big', BYTES - 1, BYTES + 2]), '\x01zzz');
    assert.equal(await client.ok(['GETRANGE', 'big', 7919, 7920]), 'ab');
  });
});
