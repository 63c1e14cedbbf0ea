// HyperLogLogs, bitmaps and long strings edited in place survive a restart byte for byte, TTLs
// included. All are strings, written by deterministic commands logged as sent; the one subtle
// write is PFCOUNT caching its estimate in the header, which Larder logs as Redis propagates
// it, so the cached bytes come back too.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { loggedCommands, RESTART_WAYS, restartWith } from '../../support/restarts.js';

const elements = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `el:${from + i}`);

async function bytes(t: TestLarder, key: string): Promise<string | null> {
  return (await t.command(['get', key], { headers: { 'upstash-encoding': 'base64' } })).body.result;
}

async function run(t: TestLarder, argvs: (string | number)[][]): Promise<void> {
  for (const argv of argvs) assert.equal((await t.command(argv)).status, 200, JSON.stringify(argv).slice(0, 100));
}

describe('hyperloglogs and bitmaps across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const KEYS = ['hll:sparse', 'hll:dense', 'hll:merged', 'hll:cached', 'hll:ttl', 'bits:set', 'bits:field', 'bits:fail', 'bits:op'];

  it('restores every shape with its cached estimate and TTL, and logs PFCOUNT only when it caches', async () => {
    const first = await startTestLarder();
    dirs.push(first.dataDir);
    await run(first, [
      ['pfadd', 'hll:sparse', 'a', 'b', 'c'],
      ['pfadd', 'hll:dense', ...elements(0, 5000)],
      ['pfmerge', 'hll:merged', 'hll:sparse', 'hll:dense'],
      ['pfadd', 'hll:cached', ...elements(0, 300)],
      ['pfcount', 'hll:cached'], // caches: logged
      ['pfcount', 'hll:cached'], // already cached: not logged
      ['pfcount', 'hll:sparse', 'hll:dense'], // a union caches nothing: not logged
      ['pfcount', 'hll:none'],
      ['pfadd', 'hll:ttl', 'x'],
      ['pexpire', 'hll:ttl', 1000000],
      ['setbit', 'bits:set', 100, 1],
      ['setbit', 'bits:set', 3, 1],
      ['bitfield', 'bits:field', 'set', 'i64', '#1', '-9223372036854775808', 'incrby', 'u5', 3, 40],
      ['bitfield', 'bits:fail', 'overflow', 'fail', 'incrby', 'u8', 16, 300],
      ['set', 'bits:op', 'old', 'ex', 1000],
      ['bitop', 'xor', 'bits:op', 'bits:set', 'bits:field'],
      ['pexpire', 'bits:op', 2000000],
    ]);
    const before = new Map<string, unknown>();
    for (const key of KEYS) before.set(key, [await bytes(first, key), (await first.command(['pexpiretime', key])).body.result]);
    await first.close(true);

    const logged = loggedCommands(first.dataDir).filter((argv) => argv[0].toLowerCase() === 'pfcount');
    assert.deepEqual(logged, [['pfcount', 'hll:cached']]);

    const second = await startTestLarder({}, first.dataDir);
    try {
      for (const key of KEYS) {
        assert.deepEqual([await bytes(second, key), (await second.command(['pexpiretime', key])).body.result], before.get(key), key);
      }
      // The cached estimate came back: its top bit is clear.
      const cached = Buffer.from((await bytes(second, 'hll:cached'))!, 'base64');
      assert.equal(cached[15] & 0x80, 0);
    } finally {
      await second.close();
    }
  });

  it('DUMP and RESTORE carry HLLs and bitmaps unchanged', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    try {
      await run(t, [
        ['pfadd', 'hll', ...elements(0, 2500)],
        ['setbit', 'bits', 77, 1],
      ]);
      for (const key of ['hll', 'bits']) {
        const dump = (await t.command(['dump', key], { headers: { 'upstash-encoding': 'base64' } })).body.result;
        const payload = Buffer.from(dump, 'base64');
        const res = await t.request(`/restore/${key}:copy/0`, { method: 'POST', body: payload });
        assert.deepEqual(await res.json(), { result: 'OK' });
        assert.equal(await bytes(t, `${key}:copy`), await bytes(t, key));
      }
      assert.deepEqual((await t.command(['pfcount', 'hll:copy', 'hll'])).body, (await t.command(['pfcount', 'hll'])).body);
      assert.deepEqual((await t.command(['getbit', 'bits:copy', 77])).body, { result: 1 });
    } finally {
      await t.close();
    }
  });

  // Past 1 KiB a string is edited in place; with a compaction after every write, each write
  // lands while the last one's snapshot is being written.
  const LONG_WRITES: (string | number)[][] = [
    ['setbit', 'long:bits', 20_000, 1],
    ['set', 'long:set', 'x'.repeat(3000), 'ex', 1000],
    ['setbit', 'long:set', 5, 1],
    ['setrange', 'long:set', 2990, 'end of it'],
    ['append', 'long:set', 'appended'],
    ['bitfield', 'long:bits', 'set', 'u16', 800, 65535, 'incrby', 'i8', '#300', -3],
    ['setrange', 'long:bits', 2600, 'text'],
    ['copy', 'long:set', 'long:copy'],
    ['append', 'long:set', '!'],
    ['dump', 'long:set'],
  ];
  for (const way of RESTART_WAYS) {
    it(`restores long strings edited in place byte for byte, TTLs included, ${way.how}`, async () => {
      const state = async (t: TestLarder) =>
        Promise.all(['long:bits', 'long:set', 'long:copy'].map(async (key) => [await bytes(t, key), (await t.command(['pexpiretime', key])).body.result]));
      const { server, before } = await restartWith(way, LONG_WRITES, state);
      await server.close();
      assert.equal(Buffer.from(before[1][0] as string, 'base64').toString('latin1').slice(2985), 'xxxxxend of itxappended!');
      assert.equal(Buffer.from(before[0][0] as string, 'base64').length, 2604);
    });
  }
});
