// Vector indexes (VECTOR.*) survive a restart exactly: the log replays them, a snapshot and
// DUMP/RESTORE carry their dimension, metric, ids (any bytes) and float32 components.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestLarder } from '../../support/larder.js';
import { dumpOf, restartableServers, restoreAt, snapshotRoundTrip } from '../../support/restarts.js';

/** Each index, with a query vector (VALUES count, elements) of its dimension. */
const QUERIES: Record<string, string[]> = { plain: ['3', '1', '0', '0'], binary: ['2', '1', '1'], emptied: ['1', '1'] };
const KEYS = Object.keys(QUERIES);

async function writeIndexes(t: TestLarder): Promise<void> {
  const blob = Buffer.from(Float32Array.from([0.5, -1.25, 3e-8]).buffer).toString('base64');
  for (const argv of [
    ['vector.create', 'plain', 'DIM', '3', 'METRIC', 'COSINE'],
    ['vector.add', 'plain', 'a', 'VALUES', '3', '0.1', '0.2', '0.3'],
    ['vector.add', 'plain', 'b', 'BASE64-FP32', blob],
    ['vector.add', 'plain', 'a', 'VALUES', '3', '1', '2', '3'],
    ['vector.add', 'plain', 'gone', 'VALUES', '3', '1', '1', '1'],
    ['vector.del', 'plain', 'gone'],
    ['vector.create', 'binary', 'DIM', '2', 'METRIC', 'DOT'],
    ['vector.add', 'binary', 'id:with:colons\n', 'VALUES', '2', '1e30', '-0'],
    ['vector.add', 'binary', 'ключ', 'VALUES', '2', '7', '8'],
    ['pexpireat', 'binary', '4102444800000'],
    ['vector.create', 'emptied', 'DIM', '1', 'METRIC', 'EUCLIDEAN'],
    ['vector.add', 'emptied', 'x', 'VALUES', '1', '5'],
    ['vector.del', 'emptied', 'x'],
    ['vector.create', 'dropped', 'DIM', '1', 'METRIC', 'EUCLIDEAN'],
    ['vector.drop', 'dropped'],
  ]) {
    const { status, body } = await t.command(argv);
    assert.equal(status, 200, `${argv.join(' ')}: ${JSON.stringify(body)}`);
  }
}

async function readIndexes(t: TestLarder): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    out[key] = {
      info: (await t.command(['vector.info', key])).body.result,
      count: (await t.command(['vector.count', key])).body.result,
      hits: (await t.command(['vector.query', key, 'TOPK', '10', 'VALUES', ...QUERIES[key]])).body.result,
      expiry: (await t.command(['pexpiretime', key])).body.result,
    };
  }
  out.a = (await t.command(['vector.get', 'plain', 'a'])).body.result;
  out.b = (await t.command(['vector.get', 'plain', 'b'])).body.result;
  out.dropped = (await t.command(['exists', 'dropped'])).body.result;
  return out;
}

describe('vector indexes across a restart', () => {
  const { start, stop } = restartableServers();

  it('replays the log to the same indexes', async () => {
    const first = await start();
    await writeIndexes(first);
    const before = await readIndexes(first);
    assert.deepEqual(((before as Record<string, string[]>).b).map(Number), [0.5, -1.25, Math.fround(3e-8)]);
    assert.equal(((before as Record<string, { hits: unknown[] }>).binary.hits).length, 2);
    await stop(first);
    const second = await start({}, first.dataDir);
    try {
      assert.deepEqual(await readIndexes(second), before);
    } finally {
      await stop(second);
    }
  });

  it('a snapshot holds the indexes', async () => {
    await snapshotRoundTrip(writeIndexes, readIndexes, (argv) => argv[0].startsWith('vector.'));
  });

  it('DUMP and RESTORE round-trip an index; a damaged payload is refused', async () => {
    const t = await start();
    try {
      await writeIndexes(t);
      for (const key of KEYS) {
        assert.deepEqual(await restoreAt(t, `${key}:copy`, await dumpOf(t, key)), { result: 'OK' });
        for (const read of [['vector.info'], ['vector.count']]) {
          assert.deepEqual((await t.command([...read, `${key}:copy`])).body, (await t.command([...read, key])).body, `${read} ${key}`);
        }
      }
      assert.deepEqual((await t.command(['vector.get', 'plain:copy', 'a'])).body, (await t.command(['vector.get', 'plain', 'a'])).body);
      assert.equal((await t.command(['type', 'plain:copy'])).body.result, 'vector');
      const damaged = await dumpOf(t, 'plain');
      damaged[4] ^= 0xff;
      assert.deepEqual(await restoreAt(t, 'bad', damaged), { error: 'ERR DUMP payload version or checksum are wrong' });
    } finally {
      await stop(t);
    }
  });
});
