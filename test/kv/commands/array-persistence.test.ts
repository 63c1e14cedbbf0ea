// Arrays (AR*) survive a restart exactly: the log replays them, and a snapshot and DUMP/RESTORE
// carry their values at any index, the append cursor and the ring size.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestLarder } from '../../support/larder.js';
import { dumpOf, restartableServers, restoreAt, snapshotRoundTrip } from '../../support/restarts.js';

const KEYS = ['plain', 'ring', 'far'];

async function writeArrays(t: TestLarder): Promise<void> {
  for (const argv of [
    ['arinsert', 'plain', 'a', 'b\n:c', 'ключ'],
    ['arset', 'plain', '100', ''],
    ['ardel', 'plain', '0'],
    ['arseek', 'plain', '50'],
    ['arring', 'ring', '3', '1', '2', '3', '4'],
    ['arset', 'far', '18446744073709551614', 'last'],
    ['arseek', 'far', '18446744073709551614'],
    ['arinsert', 'far', 'end'],
    ['pexpireat', 'far', '4102444800000'],
    ['arinsert', 'gone', 'x'],
    ['ardel', 'gone', '0'],
  ]) {
    const { status, body } = await t.command(argv);
    assert.equal(status, 200, `${argv.join(' ')}: ${JSON.stringify(body)}`);
  }
}

async function readArrays(t: TestLarder): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    out[key] = {
      held: (await t.command(['arscan', key, '0', '18446744073709551614'])).body.result,
      next: (await t.command(['arnext', key])).body.result,
      expiry: (await t.command(['pexpiretime', key])).body.result,
    };
  }
  out.gone = (await t.command(['exists', 'gone'])).body.result;
  return out;
}

describe('arrays across a restart', () => {
  const { start, stop } = restartableServers();

  it('replays the log to the same arrays', async () => {
    const first = await start();
    await writeArrays(first);
    const before = await readArrays(first);
    assert.deepEqual((before as Record<string, { held: unknown }>).ring.held, [[0, '4'], [1, '2'], [2, '3']]);
    await stop(first);
    const second = await start({}, first.dataDir);
    try {
      assert.deepEqual(await readArrays(second), before);
      // The ring kept its size: the same size appends at the cursor (a lost size would lay it again from 0).
      assert.equal((await second.command(['arring', 'ring', '3', '5'])).body.result, 1);
    } finally {
      await stop(second);
    }
  });

  it('a snapshot holds the arrays', async () => {
    await snapshotRoundTrip(writeArrays, readArrays, (argv) => argv[0].startsWith('ar'));
  });

  it('DUMP and RESTORE round-trip an array', async () => {
    const t = await start();
    try {
      await writeArrays(t);
      for (const key of KEYS) {
        assert.deepEqual(await restoreAt(t, `${key}:copy`, await dumpOf(t, key)), { result: 'OK' });
        for (const read of [['arscan', '0', '18446744073709551614'], ['arnext'], ['arinfo']]) {
          const [name, ...rest] = read;
          assert.deepEqual((await t.command([name, `${key}:copy`, ...rest])).body, (await t.command([name, key, ...rest])).body, `${name} ${key}`);
        }
      }
    } finally {
      await stop(t);
    }
  });
});
