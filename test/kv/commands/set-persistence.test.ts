// Sets survive a restart with their members, encodings and expiry instants, from the log
// (SPOP logged as the SREM of what it took, or DEL) and from a snapshot; DUMP/RESTORE
// round-trips every shape of set.

import assert from 'node:assert/strict';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../../support/larder.js';
import { compactionsSettled, loggedCommands } from '../../support/restarts.js';

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i));
const BINARY = ['', '\u0000', 'a\u0000b', '\u00e9', '\ud83d\ude00'];

/** Writes sets of every shape: intsets, hashtables, big, binary, with TTLs, made by each writer. */
async function writeShapes(t: TestLarder): Promise<void> {
  for (const argv of [
    ['sadd', 'ints', '3', '1', '2', '-9223372036854775808'],
    ['sadd', 'words', 'b', 'a', 'c'],
    ['sadd', 'big', ...range(0, 600)],
    ['sadd', 'edge', ...range(0, 512)],
    ['sadd', 'bin', ...BINARY],
    ['sadd', 'ht-ints', '1', '2', 'x'],
    ['srem', 'ht-ints', 'x'],
    ['sadd', 'ttl', 'a', '1'],
    ['pexpireat', 'ttl', '99999999999000'],
    ['sadd', 'src', 'a', 'b', 'c', '1', '2'],
    ['sinterstore', 'inter', 'src', 'words'],
    ['sunionstore', 'union', 'src', 'ints'],
    ['sdiffstore', 'diff', 'src', 'words'],
    ['smove', 'src', 'moved', '1'],
    ['sadd', 'popped', ...range(0, 20)],
    ['spop', 'popped'],
    ['spop', 'popped', '3'],
    ['spop', 'popped', '0'],
    ['sadd', 'emptied', 'a', 'b'],
    ['spop', 'emptied', '5'],
    ['sadd', 'removed', 'a'],
    ['srem', 'removed', 'a'],
  ]) {
    assert.equal((await t.command(argv)).status, 200, argv.join(' ').slice(0, 80));
  }
}

const KEYS = ['ints', 'words', 'big', 'edge', 'bin', 'ht-ints', 'ttl', 'src', 'inter', 'union', 'diff', 'moved', 'popped', 'emptied', 'removed'];

interface KeyState {
  members: string[] | null;
  encoding: string | null;
  expireAt: number;
}

async function stateOf(t: TestLarder, key: string): Promise<KeyState> {
  const members = (await t.command(['smembers', key])).body.result as string[];
  return {
    members: members.length === 0 ? null : [...members].sort(),
    encoding: (await t.command(['object', 'encoding', key])).body.result,
    expireAt: (await t.command(['pexpiretime', key])).body.result,
  };
}

/**
 * Leaves the whole keyspace in the snapshot: compactions run in the background, so the last
 * writes may sit in the log after it. A filler larger than the snapshot makes the log outgrow it,
 * which starts one more compaction, taken once the others have ended.
 */
async function compactEverything(t: TestLarder): Promise<void> {
  const dir = join(t.dataDir, 'kv', 'default');
  await compactionsSettled(dir);
  const snapshot = readdirSync(dir).filter((f) => /^snapshot-\d{20}\.bin$/.test(f)).sort().pop();
  const bytes = snapshot === undefined ? 0 : statSync(join(dir, snapshot)).size;
  assert.equal((await t.command(['set', 'filler', 'x'.repeat(bytes + 1)])).status, 200);
  await compactionsSettled(dir);
}

describe('sets across a restart', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function restart(config: Record<string, unknown>): Promise<{ before: Map<string, KeyState>; first: TestLarder; second: TestLarder }> {
    const first = await startTestLarder(config);
    dirs.push(first.dataDir);
    await writeShapes(first);
    const before = new Map<string, KeyState>();
    for (const key of KEYS) before.set(key, await stateOf(first, key));
    if (config.kv !== undefined) await compactEverything(first);
    await first.close(true);
    return { before, first, second: await startTestLarder(config, first.dataDir) };
  }

  it('replays the log to the same members, encodings and expiry instants', async () => {
    const { before, first, second } = await restart({});
    try {
      for (const key of KEYS) assert.deepEqual(await stateOf(second, key), before.get(key), key);
      assert.equal(before.get('ttl')!.expireAt, 99_999_999_999_000);
      assert.deepEqual(before.get('edge')!.encoding, 'intset');
      assert.deepEqual(before.get('big')!.encoding, 'hashtable');
      assert.deepEqual(before.get('ht-ints')!.encoding, 'hashtable');
      assert.deepEqual(before.get('bin')!.members, [...BINARY].sort());
      assert.equal(before.get('popped')!.members!.length, 16);
      assert.equal(before.get('emptied')!.members, null);
    } finally {
      await second.close();
    }
    // SPOP is logged as what it did: the SREM of the members it took, or DEL when it took all.
    const logged = loggedCommands(first.dataDir);
    assert.ok(!logged.some((argv) => argv[0].toLowerCase() === 'spop'), 'no SPOP is logged');
    const popped = logged.filter((argv) => argv[1] === 'popped').slice(1);
    assert.deepEqual(popped.map((argv) => [argv[0], argv.length - 2]), [['srem', 1], ['srem', 3]]);
    assert.deepEqual(logged.filter((argv) => argv[1] === 'emptied').slice(1), [['del', 'emptied']]);
  });

  it('loads a snapshot to the same members and expiry instants, choosing encodings as RDB loading does', async () => {
    const { before, first, second } = await restart({ kv: { compactAfterBytes: 1 } });
    try {
      const dir = join(first.dataDir, 'kv', 'default');
      assert.ok(readdirSync(dir).some((name) => name.startsWith('snapshot-')), 'a snapshot was written');
      for (const key of KEYS) {
        const { members, encoding, expireAt } = await stateOf(second, key);
        const was = before.get(key)!;
        assert.deepEqual({ members, expireAt }, { members: was.members, expireAt: was.expireAt }, key);
        // A hashtable of few integers loads as an intset, as Redis loads it from an RDB file.
        assert.equal(encoding, key === 'ht-ints' ? 'intset' : was.encoding, key);
      }
    } finally {
      await second.close();
    }
  });

  it('DUMP and RESTORE round-trip every shape', async () => {
    const t = await startTestLarder();
    try {
      await writeShapes(t);
      for (const key of KEYS) {
        const dumped = (await t.command(['dump', key], { headers: { 'upstash-encoding': 'base64' } })).body.result;
        if (dumped === null) continue;
        const payload = [...Buffer.from(dumped, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
        const res = await t.request(`/restore/copy-${key}/0/${payload}`);
        assert.deepEqual(await res.json(), { result: 'OK' }, key);
        const copy = await stateOf(t, `copy-${key}`);
        const original = await stateOf(t, key);
        assert.deepEqual(copy.members, original.members, key);
        assert.equal(copy.encoding, key === 'ht-ints' ? 'intset' : original.encoding, key);
      }
      // A damaged payload is refused, never half-loaded.
      const dumped = Buffer.from((await t.command(['dump', 'words'], { headers: { 'upstash-encoding': 'base64' } })).body.result, 'base64');
      dumped[3] ^= 0xff;
      const bad = [...dumped].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      assert.deepEqual(await (await t.request(`/restore/bad/0/${bad}`)).json(), { error: 'ERR DUMP payload version or checksum are wrong' });
    } finally {
      await t.close();
    }
  });
});
