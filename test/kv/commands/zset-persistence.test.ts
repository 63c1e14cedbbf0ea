// Sorted sets survive a restart: replayed from the log, and loaded from a snapshot (the value
// codec), with their scores to the bit, their encodings and their TTLs. DUMP and RESTORE carry
// them too. Writes that change nothing are not logged; ZMPOP is logged as the ZPOPMIN or
// ZPOPMAX it amounted to, as Redis propagates it.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { crc32 } from '../../../src/storage/crc32.js';
import { pathBytes, startTestLarder, type TestLarder } from '../../support/larder.js';
import { loggedCommands, RESTART_WAYS, restartWith } from '../../support/restarts.js';

const u32 = (n: number) => String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
const f64 = (n: number) => Buffer.from(new Float64Array([n]).buffer).toString('latin1');

/** A DUMP payload around a sorted-set body, with a valid version and checksum. */
function zsetPayload(body: string): string {
  const versioned = '\u0004' + body + '\u0001\u0000';
  return versioned + u32(crc32(Buffer.from(versioned, 'latin1')));
}

const EXPIRES_AT = 4102444800000;
const LONG = 'l'.repeat(70);
const BIG = Array.from({ length: 300 }, (_, i) => [String(i % 7 === 0 ? -i : i / 3), `m${i}`]).flat();

/** Writes giving sorted sets of every shape: small and large, odd scores, binary members, TTLs. */
const WRITES: (string | number)[][] = [
  ['zadd', 'small', '1', 'a', '0.1', 'b', 'inf', 'c', '-inf', 'd', '1e-300', 'e', '-0', 'f'],
  ['zadd', 'big', ...BIG],
  ['zadd', 'long', '1', LONG, '-0', 'negzero', '2.98023223876953125e-08', 'tie'],
  ['zadd', 'bin', '1', 'ab\u0000cd', '2', '\u00e9', '3', ''],
  ['zadd', 'ttl', '1', 'a'],
  ['pexpireat', 'ttl', EXPIRES_AT],
  ['zadd', 'gone', '1', 'a'],
  ['pexpireat', 'gone', '1'],
  ['zincrby', 'small', '2.5', 'a'],
  ['zrem', 'big', 'm1', 'm2'],
  ['zremrangebyrank', 'big', '0', '9'],
  ['zunionstore', 'union', '2', 'small', 'bin', 'weights', '2', '3'],
  ['zrangestore', 'slice', 'big', '10', '200'],
  ['zadd', 'popme', '1', 'a', '2', 'b', '3', 'c'],
  ['zmpop', '1', 'popme', 'max', 'count', '2'],
];

const KEYS = ['small', 'big', 'long', 'bin', 'ttl', 'gone', 'union', 'slice', 'popme'];

async function state(t: TestLarder): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const key of KEYS) {
    out.push(key, (await t.command(['zrange', key, 0, -1, 'withscores'])).body.result);
    out.push((await t.command(['object', 'encoding', key])).body.result);
  }
  return out;
}

describe('sorted sets across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const way of RESTART_WAYS) {
    it(`come back the same, ${way.how}`, async () => {
      const { server } = await restartWith(way, WRITES, state);
      try {
        assert.equal(await server.ok(['pexpiretime', 'ttl']), EXPIRES_AT);
        assert.equal(await server.ok(['exists', 'gone']), 0);
        assert.equal(await server.ok(['zscore', 'long', 'negzero']), '-0');
        assert.equal(await server.ok(['zscore', 'long', 'tie']), '2.9802322387695312e-08');
        assert.equal(await server.ok(['object', 'encoding', 'big']), 'skiplist');
        assert.equal(await server.ok(['object', 'encoding', 'small']), 'listpack');
      } finally {
        await server.close();
      }
    });
  }

  it('logs only writes that change something, and ZMPOP as ZPOPMIN/ZPOPMAX', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    for (const argv of [
      ['zadd', 'z', '1', 'a'],
      ['zadd', 'z', '1', 'a'], //            same score: nothing changes
      ['zadd', 'z', 'nx', '5', 'a'], //      held back
      ['zadd', 'none', 'xx', '1', 'a'], //   no key, XX
      ['zincrby', 'z', '0', 'a'], //         a zero increment
      ['zrem', 'z', 'missing'],
      ['zremrangebyscore', 'z', '5', '10'],
      ['zpopmin', 'none'],
      ['zmpop', '1', 'none', 'min'],
      ['zrangestore', 'dst', 'none', '0', '-1'],
      ['zunionstore', 'dst', '1', 'none'],
      ['zadd', 'z', '2', 'b', '3', 'c'],
      ['zmpop', '2', 'none', 'z', 'max', 'count', '5'],
    ]) {
      assert.equal((await t.command(argv)).status, 200, argv.join(' '));
    }
    await t.close(true);
    assert.deepEqual(loggedCommands(t.dataDir), [
      ['zadd', 'z', '1', 'a'],
      ['zadd', 'z', '2', 'b', '3', 'c'],
      ['zpopmax', 'z', '3'],
    ]);
  });

  it('DUMP and RESTORE carry a sorted set, bit for bit', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    try {
      await t.command(['zadd', 'src', '0.1', 'a', '-inf', 'b', '1e308', 'c', '1', LONG, '-0', 'z']);
      const dump = (await t.command(['dump', 'src'], { headers: { 'upstash-encoding': 'base64' } })).body.result;
      const payload = Buffer.from(dump, 'base64').toString('latin1');
      // The payload travels as bytes: the path form carries them percent-encoded.
      const res = await t.request(`/restore/dst/0/${pathBytes(payload)}`);
      assert.deepEqual(await res.json(), { result: 'OK' });
      const read = async (key: string) => (await t.command(['zrange', key, 0, -1, 'withscores'])).body.result;
      assert.deepEqual(await read('dst'), await read('src'));
      assert.equal((await t.command(['zscore', 'dst', 'z'])).body.result, '-0');
      assert.equal((await t.command(['object', 'encoding', 'dst'])).body.result, 'skiplist');
      const bad = payload.slice(0, 8) + String.fromCharCode(payload.charCodeAt(8) ^ 0xff) + payload.slice(9);
      const refused = await t.request(`/restore/bad/0/${pathBytes(bad)}`);
      assert.deepEqual(await refused.json(), { error: 'ERR DUMP payload version or checksum are wrong' });
      // A valid checksum around a malformed body is refused the same way, never a crash.
      assert.deepEqual(await (await t.request(`/restore/ok/0/${pathBytes(zsetPayload(u32(1) + u32(1) + 'a' + f64(2)))}`)).json(), { result: 'OK' });
      for (const body of [
        '',
        u32(2) + u32(1) + 'a' + f64(1), //                         fewer entries than counted
        u32(1) + u32(5) + 'a' + f64(1), //                         a member longer than the rest
        u32(1) + u32(1) + 'a' + f64(Number.NaN), //                a NaN score
        u32(2) + u32(1) + 'a' + f64(1) + u32(1) + 'a' + f64(2), // a member twice
        u32(1) + u32(1) + 'a' + f64(1) + 'x', //                   bytes after the last entry
        u32(0xffffffff), //                                        an absurd count
        u32(0), //                                                 no members: no key holds that
      ]) {
        const r = await t.request(`/restore/bad/0/${pathBytes(zsetPayload(body))}`);
        assert.deepEqual(await r.json(), { error: 'ERR DUMP payload version or checksum are wrong' }, JSON.stringify(body));
      }
    } finally {
      await t.close();
    }
  });
});
