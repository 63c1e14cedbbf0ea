// Lists survive a restart with the same elements and expiry instants, whether they come back
// from the log alone or from a snapshot plus the log, and DUMP/RESTORE round-trips them.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { loggedCommands, RESTART_WAYS, restartWith } from '../../support/restarts.js';

const BIG = Array.from({ length: 2000 }, (_, i) => `item-${i}`);

/** Writes that leave lists of every shape, some with expiries, some deleted by emptying. */
const WRITES: (string | number)[][] = [
  ['rpush', 'plain', 'a', 'b', 'c'],
  ['lpush', 'plain', 'z'],
  ['rpush', 'binary', '', '\u00e9', 'x\u0000y'],
  ['rpush', 'big', ...BIG],
  ['lpop', 'big', 10],
  ['rpop', 'big'],
  ['linsert', 'big', 'after', 'item-500', 'inserted'],
  ['lrem', 'big', 0, 'item-700'],
  ['lset', 'big', 5, 'set'],
  ['rpush', 'trimmed', 1, 2, 3, 4, 5],
  ['ltrim', 'trimmed', 1, -2],
  ['rpush', 'ttl', 'a'],
  ['pexpireat', 'ttl', 99_999_999_999_000],
  ['rpush', 'ttl2', 'a', 'b'],
  ['expire', 'ttl2', 100_000],
  ['rpush', 'ttl2', 'c'],
  ['rpush', 'emptied', 'a'],
  ['lpop', 'emptied'],
  ['rpush', 'src', 'a', 'b', 'c'],
  ['lmove', 'src', 'moved', 'left', 'right'],
  ['rpoplpush', 'src', 'moved'],
  ['lmove', 'src', 'src', 'left', 'left'],
  ['rpush', 'mp', 'a', 'b', 'c', 'd'],
  ['lmpop', 2, 'nothing', 'mp', 'right', 'count', 3],
  ['lmpop', 1, 'nothing', 'left'],
  ['rpushx', 'nothing', 'a'],
];
const KEYS = ['plain', 'binary', 'big', 'trimmed', 'ttl', 'ttl2', 'emptied', 'src', 'moved', 'mp', 'nothing'];

async function state(t: TestLarder): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const range = await t.command(['lrange', key, 0, -1], { headers: { 'upstash-encoding': 'base64' } });
    const at = await t.command(['pexpiretime', key]);
    out[key] = [range.body.result, at.body.result];
  }
  return out;
}

describe('lists across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const way of RESTART_WAYS) {
    it(`restores every list and expiry, ${way.how}`, async () => {
      const { server: second } = await restartWith(way, WRITES, state);
      try {
        const plain = (await second.command(['lrange', 'plain', 0, -1])).body.result;
        assert.deepEqual(plain, ['z', 'a', 'b', 'c']);
        assert.deepEqual((await second.command(['lrange', 'mp', 0, -1])).body.result, ['a']);
        assert.deepEqual((await second.command(['lrange', 'moved', 0, -1])).body.result, ['c', 'a']);
        assert.deepEqual((await second.command(['lrange', 'src', 0, -1])).body.result, ['b']);
        assert.equal((await second.command(['llen', 'big'])).body.result, 2000 - 11 + 1 - 1);
        assert.equal((await second.command(['pexpiretime', 'ttl'])).body.result, 99_999_999_999_000);
        assert.equal((await second.command(['exists', 'emptied', 'nothing'])).body.result, 0);
        assert.equal((await second.command(['type', 'big'])).body.result, 'list');
      } finally {
        await second.close();
      }
    });
  }

  it('logs LMPOP as the pop it amounted to, and writes that changed nothing not at all', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    for (const argv of WRITES) await t.command(argv);
    await t.close(true);
    const logged = loggedCommands(t.dataDir);
    assert.deepEqual(
      logged.filter((argv) => argv[1] === 'mp' || argv[1] === '2' || argv[1] === 'nothing'),
      [
        ['rpush', 'mp', 'a', 'b', 'c', 'd'],
        ['rpop', 'mp', '3'],
      ],
    );
  });

  it('DUMP and RESTORE round-trip a list, its TTL given anew', async () => {
    const t = await startTestLarder();
    dirs.push(t.dataDir);
    try {
      await t.command(['rpush', 'd:l', '', '\u00e9', ...BIG.slice(0, 100)]);
      const dumped = await t.command(['dump', 'd:l'], { headers: { 'upstash-encoding': 'base64' } });
      const path = [...Buffer.from(dumped.body.result, 'base64')].map((b) => '%' + b.toString(16).padStart(2, '0')).join('');
      assert.equal((await t.request(`/restore/d:copy/100000/${path}`)).status, 200);
      const ttl = (await t.command(['pttl', 'd:copy'])).body.result;
      assert.ok(ttl > 99_000 && ttl <= 100_000, String(ttl));
      assert.deepEqual(
        (await t.command(['lrange', 'd:copy', 0, -1])).body.result,
        (await t.command(['lrange', 'd:l', 0, -1])).body.result,
      );
      // Any changed byte fails the checksum.
      const bad = path.slice(0, 6) + (path.slice(6, 8) === '41' ? '42' : '41') + path.slice(8);
      assert.deepEqual(await (await t.request(`/restore/d:bad/0/${bad}`)).json(), {
        error: 'ERR DUMP payload version or checksum are wrong',
      });
    } finally {
      await t.close();
    }
  });
});
