// String writes survive a restart with the same values and expiry instants, because every
// write whose replay could differ is logged in Redis's deterministic, absolute form.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { TABLE } from '../../../src/kv/commands/table.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { loggedCommands } from '../../support/restarts.js';

// Expiry instants are read with PEXPIRETIME, and GETEX is logged as PEXPIREAT/PERSIST, all of
// the generic family; until it is in the table, the parts that need them are skipped.
const generic = TABLE.has('pexpiretime') && TABLE.has('pexpireat') && TABLE.has('persist');
const genericIt = generic ? it : it.skip;

async function value(t: TestLarder, key: string): Promise<unknown> {
  return (await t.command(['get', key])).body.result;
}

async function expireTime(t: TestLarder, key: string): Promise<unknown> {
  return (await t.command(['pexpiretime', key])).body.result;
}

describe('string writes across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `write` on a fresh server, restarts it on the same data, and hands both over. */
  async function restarted(write: (t: TestLarder) => Promise<void>): Promise<{ first: TestLarder; second: TestLarder }> {
    const first = await startTestLarder();
    dirs.push(first.dataDir);
    await write(first);
    await first.close(true);
    const second = await startTestLarder({}, first.dataDir);
    return { first, second };
  }

  it('keeps values, and logs clock-dependent writes in absolute form', async () => {
    const { first, second } = await restarted(async (t) => {
      for (const argv of [
        ['set', 'ex', 'v', 'ex', '1000'],
        ['setex', 'setex', '1000', 'v'],
        ['psetex', 'psetex', '1000000', 'v'],
        ['set', 'past', 'v', 'pxat', '1'],
        ['incrbyfloat', 'float', '0.1'],
        ['incrbyfloat', 'float', '0.2'],
        ['set', 'gone', 'v'],
        ['getex', 'gone', 'pxat', '1'],
        ['set', 'del', 'v'],
        ['getdel', 'del'],
        ['getset', 'gs', 'old'],
        ['getset', 'gs', 'new'],
        ['set', 'get', 'a'],
        ['set', 'get', 'b', 'get'],
        ['incrby', 'int', '9007199254740993'],
        ['setrange', 'range', '2', 'xy'],
        ['append', 'range', '\u00e9'],
        ['set', 'nx', 'v', 'nx'],
        ['set', 'nx', 'w', 'nx', 'ex', '10'],
      ]) {
        assert.equal((await t.command(argv)).status, 200, argv.join(' '));
      }
    });
    try {
      assert.equal(await value(second, 'ex'), 'v');
      assert.equal(await value(second, 'setex'), 'v');
      assert.equal(await value(second, 'psetex'), 'v');
      assert.equal(await value(second, 'past'), null);
      assert.equal(await value(second, 'float'), '0.3');
      assert.equal(await value(second, 'gone'), null);
      assert.equal(await value(second, 'del'), null);
      assert.equal(await value(second, 'gs'), 'new');
      assert.equal(await value(second, 'get'), 'b');
      assert.equal(await value(second, 'int'), '9007199254740993');
      const range = (await second.command(['get', 'range'], { headers: { 'upstash-encoding': 'base64' } })).body.result;
      assert.equal(range, Buffer.from('\0\0xy\u00e9').toString('base64'));
      assert.equal(await value(second, 'nx'), 'v');
    } finally {
      await second.close();
    }

    const logged = loggedCommands(first.dataDir);
    const names = new Set(logged.map((argv) => argv[0].toLowerCase()));
    for (const relative of ['setex', 'psetex', 'incrbyfloat', 'getex', 'getdel', 'getset']) {
      assert.ok(!names.has(relative), `${relative} is logged as is`);
    }
    const find = (key: string) => logged.filter((argv) => argv[1] === key);
    assert.match(find('ex')[0].join(' '), /^set ex v pxat \d{13}$/);
    assert.match(find('setex')[0].join(' '), /^set setex v pxat \d{13}$/);
    assert.match(find('psetex')[0].join(' '), /^set psetex v pxat \d{13}$/);
    assert.deepEqual(find('float'), [
      ['set', 'float', '0.1', 'keepttl'],
      ['set', 'float', '0.3', 'keepttl'],
    ]);
    assert.deepEqual(find('gone').slice(1), [['del', 'gone']]);
    assert.deepEqual(find('del').slice(1), [['del', 'del']]);
    assert.deepEqual(find('gs'), [
      ['set', 'gs', 'old'],
      ['set', 'gs', 'new'],
    ]);
    assert.deepEqual(find('get'), [
      ['set', 'get', 'a'],
      ['set', 'get', 'b'],
    ]);
    // The NX that set nothing is not logged.
    assert.deepEqual(find('nx'), [['set', 'nx', 'v', 'nx']]);
  });

  genericIt('keeps expiry instants exactly', async () => {
    const before = new Map<string, unknown>();
    const keys = ['ex', 'px', 'exat', 'setex', 'psetex', 'float', 'getex', 'kept'];
    const { second } = await restarted(async (t) => {
      for (const argv of [
        ['set', 'ex', 'v', 'ex', '1000'],
        ['set', 'px', 'v', 'px', '1000000'],
        ['set', 'exat', 'v', 'exat', '99999999999'],
        ['setex', 'setex', '1000', 'v'],
        ['psetex', 'psetex', '1000000', 'v'],
        ['set', 'float', '1.5', 'ex', '1000'],
        ['incrbyfloat', 'float', '1'],
        ['set', 'getex', 'v'],
        ['getex', 'getex', 'ex', '1000'],
        ['set', 'persisted', 'v', 'ex', '1000'],
        ['getex', 'persisted', 'persist'],
        ['set', 'kept', 'v', 'ex', '1000'],
        ['set', 'kept', 'w', 'keepttl'],
      ]) {
        assert.equal((await t.command(argv)).status, 200, argv.join(' '));
      }
      for (const key of keys) before.set(key, await expireTime(t, key));
    });
    try {
      for (const key of keys) {
        assert.equal(typeof before.get(key), 'number');
        assert.equal(await expireTime(second, key), before.get(key), key);
      }
      assert.equal(await expireTime(second, 'exat'), 99_999_999_999_000);
      assert.equal(await value(second, 'float'), '2.5');
      assert.equal(await value(second, 'kept'), 'w');
      assert.equal(await expireTime(second, 'persisted'), -1);
    } finally {
      await second.close();
    }
  });
});
