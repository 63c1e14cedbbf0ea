// Hashes survive a restart with the same fields, values and field TTL instants: every write
// whose replay could differ is logged in Redis's deterministic form (HPEXPIREAT, HSETEX PXAT,
// HSETEX KEEPTTL for HINCRBYFLOAT, HDEL for expired fields), and snapshots encode field TTLs.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { TestLarder } from '../../support/larder.js';
import { dumpOf, loggedCommands, restartableServers, restoreAt, snapshotRoundTrip } from '../../support/restarts.js';

/** 2100-01-01 in ms: no test outlives it. */
const LATER_MS = 4102444800000;

/** Builds hashes of every shape; returns what each key should read back as. */
async function writeShapes(t: TestLarder): Promise<void> {
  const many: string[] = [];
  for (let i = 0; i < 200; i++) many.push(`f${i}`, `v${i}`);
  for (const argv of [
    ['hset', 'small', 'a', '1', 'b', '2', 'c', '3'],
    ['hdel', 'small', 'b'],
    ['hset', 'big', ...many],
    ['hset', 'long', 'f', 'x'.repeat(100)],
    ['hset', 'ttl', 'keep', 'v', 'ex', '1', 'at', '1', 'pat', 'v', 'gone', 'v', 'persisted', 'v'],
    ['hexpire', 'ttl', '100000', 'FIELDS', '2', 'ex', 'persisted'],
    ['hexpireat', 'ttl', String(LATER_MS / 1000), 'FIELDS', '1', 'at'],
    ['hpexpireat', 'ttl', String(LATER_MS + 123), 'LT', 'FIELDS', '2', 'pat', 'missing'],
    ['hpexpire', 'ttl', '0', 'FIELDS', '1', 'gone'],
    ['hpersist', 'ttl', 'FIELDS', '1', 'persisted'],
    ['hincrbyfloat', 'ttl', 'ex', '0.5'],
    ['hincrby', 'ttl', 'at', '7'],
    ['hsetex', 'sx', 'EX', '100000', 'FIELDS', '2', 'a', '1', 'b', '2'],
    ['hsetex', 'sx', 'FXX', 'KEEPTTL', 'FIELDS', '1', 'a', '10'],
    ['hset', 'gx', 'a', '1', 'b', '2', 'c', '3'],
    ['hgetex', 'gx', 'PX', '100000000', 'FIELDS', '2', 'a', 'b'],
    ['hgetex', 'gx', 'PERSIST', 'FIELDS', '1', 'b'],
    ['hgetdel', 'gx', 'FIELDS', '1', 'c'],
    ['hset', 'keyttl', 'a', '1'],
    ['pexpireat', 'keyttl', String(LATER_MS)],
    ['hset', 'far', 'a', '1', 'b', '2', 'c', '3'],
    ['hpexpireat', 'far', '9223372036854775807', 'FIELDS', '1', 'a'],
    ['hexpireat', 'far', String(LATER_MS), 'FIELDS', '1', 'b'],
    ['hpexpireat', 'far', '1152921504607895553', 'FIELDS', '1', 'c'],
    ['hset', 'bin', 'f\x00\xff', 'v\x00'],
    ['hset', 'doomed', 'x', '1'],
    ['hpexpire', 'doomed', '0', 'FIELDS', '1', 'x'],
  ]) {
    const { status, body } = await t.command(argv);
    assert.equal(status, 200, `${argv.join(' ')}: ${JSON.stringify(body)}`);
  }
}

/** What the shapes read as: contents, field expiry instants and encodings. */
async function readShapes(t: TestLarder): Promise<unknown> {
  const run = async (argv: string[]) => (await t.command(argv, { headers: { 'upstash-encoding': 'base64' } })).body.result;
  const out: Record<string, unknown> = {};
  for (const key of ['small', 'big', 'long', 'ttl', 'sx', 'gx', 'keyttl', 'far', 'bin', 'doomed']) {
    const all = (await run(['hgetall', key])) as string[];
    const fields = all.filter((_, i) => i % 2 === 0).map((f) => Buffer.from(f, 'base64').toString('utf8'));
    out[key] = {
      all,
      expiries: fields.length === 0 ? [] : await run(['hpexpiretime', key, 'FIELDS', String(fields.length), ...fields]),
      encoding: all.length === 0 ? null : await run(['object', 'encoding', key]),
      keyExpiry: await run(['pexpiretime', key]),
    };
  }
  return out;
}

describe('hashes across a restart', () => {
  const { start, stop } = restartableServers();

  it('keeps every shape and field TTL instant, logged in absolute form', async () => {
    const first = await start();
    await writeShapes(first);
    const before = await readShapes(first);
    await stop(first);
    const second = await start({}, first.dataDir);
    try {
      assert.deepEqual(await readShapes(second), before);
      const ttl = (await second.command(['hpexpiretime', 'ttl', 'FIELDS', '6', 'keep', 'ex', 'at', 'pat', 'gone', 'persisted'])).body.result;
      assert.equal(ttl[2], LATER_MS);
      assert.equal(ttl[3], LATER_MS + 123);
      assert.deepEqual([ttl[0], ttl[4], ttl[5]], [-1, -2, -1]);
      assert.equal((await second.command(['hget', 'ttl', 'ex'])).body.result, '1.5');
      assert.equal((await second.command(['hget', 'ttl', 'at'])).body.result, '8');
      assert.equal((await second.command(['object', 'encoding', 'big'])).body.result, 'hashtable');
      assert.equal((await second.command(['exists', 'doomed'])).body.result, 0);
    } finally {
      await stop(second);
    }

    const logged = loggedCommands(first.dataDir);
    const names = new Set(logged.map((argv) => argv[0]));
    for (const relative of ['hexpire', 'hexpireat', 'hpexpire', 'hincrbyfloat', 'hgetex', 'hgetdel']) {
      assert.ok(!names.has(relative), `${relative} is logged as is`);
    }
    const find = (key: string) => logged.filter((argv) => argv[1] === key);
    const ttlLog = find('ttl').map((argv) => argv.join(' '));
    assert.match(ttlLog[1], /^hpexpireat ttl \d{13} FIELDS 2 ex persisted$/);
    assert.equal(ttlLog[2], `hpexpireat ttl ${LATER_MS} FIELDS 1 at`);
    // Only the fields whose TTL changed are logged.
    assert.equal(ttlLog[3], `hpexpireat ttl ${LATER_MS + 123} FIELDS 1 pat`);
    assert.equal(ttlLog[4], 'hdel ttl gone');
    assert.equal(ttlLog[6], 'hsetex ttl KEEPTTL FIELDS 1 ex 1.5');
    const sx = find('sx').map((argv) => argv.join(' '));
    assert.match(sx[0], /^hsetex sx PXAT \d{13} FIELDS 2 a 1 b 2$/);
    assert.equal(sx[1], 'hsetex sx FXX KEEPTTL FIELDS 1 a 10');
    const gx = find('gx').map((argv) => argv.join(' '));
    assert.match(gx[1], /^hpexpireat gx \d{13} FIELDS 2 a b$/);
    assert.deepEqual(gx.slice(2), ['hpersist gx FIELDS 1 b', 'hdel gx c']);
    assert.deepEqual(find('doomed').slice(1), [['hdel', 'doomed', 'x']]);
  });

  it('fields that expire while the server is down are gone after it starts, and their deletion is logged', async () => {
    const first = await start();
    await first.command(['hset', 'down', 'stays', 'v', 'goes', 'v']);
    await first.command(['hset', 'down:all', 'goes', 'v']);
    await first.command(['hpexpire', 'down', '200', 'FIELDS', '1', 'goes']);
    await first.command(['hpexpire', 'down:all', '200', 'FIELDS', '1', 'goes']);
    await stop(first);
    await sleep(300);
    const second = await start({}, first.dataDir);
    try {
      assert.equal((await second.command(['dbsize'])).body.result, 1);
      assert.deepEqual((await second.command(['hgetall', 'down'])).body.result, ['stays', 'v']);
    } finally {
      await stop(second);
    }
    const logged = loggedCommands(first.dataDir).filter((argv) => argv[0] === 'hdel');
    assert.deepEqual(logged.sort(), [
      ['hdel', 'down', 'goes'],
      ['hdel', 'down:all', 'goes'],
    ]);
  });

  it('a snapshot encodes the field TTLs', async () => {
    await snapshotRoundTrip(writeShapes, readShapes, (argv) => argv[0].startsWith('h'));
  });

  it('DUMP and RESTORE keep fields, values and field TTLs', async () => {
    const t = await start();
    try {
      await writeShapes(t);
      for (const key of ['ttl', 'big', 'bin']) {
        assert.deepEqual(await restoreAt(t, `${key}:copy`, await dumpOf(t, key)), { result: 'OK' });
      }
      const shapes = (await readShapes(t)) as Record<string, { all: string[]; expiries: number[] }>;
      const run = async (argv: string[]) => (await t.command(argv, { headers: { 'upstash-encoding': 'base64' } })).body.result;
      for (const key of ['ttl', 'big', 'bin']) {
        assert.deepEqual(await run(['hgetall', `${key}:copy`]), shapes[key].all, key);
      }
      assert.deepEqual(
        await run(['hpexpiretime', 'ttl:copy', 'FIELDS', '4', 'keep', 'ex', 'at', 'pat']),
        await run(['hpexpiretime', 'ttl', 'FIELDS', '4', 'keep', 'ex', 'at', 'pat']),
      );
    } finally {
      await stop(t);
    }
  });
});
