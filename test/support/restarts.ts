// What the persistence tests of every family share: the two ways a database comes back (its
// log replayed, or a snapshot loaded and the log after it), a round trip through one of them,
// and the commands a database logged.

import assert from 'node:assert/strict';
import { after } from 'node:test';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCommands } from '../../src/kv/engine/command-codec.js';
import { readFrames } from '../../src/storage/frames.js';
import { eventually } from './eventually.js';
import { startTestLarder, type TestLarder } from './larder.js';

export interface RestartWay {
  readonly how: string;
  readonly config: Record<string, unknown>;
  /** Whether the data dir holds a snapshot after the writes. */
  readonly snapshot: boolean;
}

export const RESTART_WAYS: readonly RestartWay[] = [
  { how: 'replayed from the log', config: {}, snapshot: false },
  // Compacting after every byte puts every write but the last into a snapshot.
  { how: 'loaded from a snapshot', config: { kv: { compactAfterBytes: 1 } }, snapshot: true },
];

export interface Restarted<S> {
  /** The restarted server; closing it removes the data dir. */
  readonly server: TestLarder;
  readonly before: S;
}

/**
 * Runs `writes` (each must succeed) on a fresh server, reads `state`, restarts it on the same
 * data dir the given way, and checks that `state` reads the same there.
 */
export async function restartWith<S>(
  way: RestartWay,
  writes: readonly (readonly (string | number)[])[],
  state: (t: TestLarder) => Promise<S>,
): Promise<Restarted<S>> {
  const first = await startTestLarder(way.config);
  for (const argv of writes) assert.equal((await first.command([...argv])).status, 200, argv.join(' ').slice(0, 80));
  const before = await state(first);
  await first.close(true);
  const files = readdirSync(join(first.dataDir, 'kv', 'default'));
  assert.equal(files.some((name) => name.startsWith('snapshot-')), way.snapshot, files.join(' '));
  const server = await startTestLarder(way.config, first.dataDir);
  const restarted: TestLarder = {
    ...server,
    async close(keepData = false) {
      await server.close(true);
      if (!keepData) rmSync(first.dataDir, { recursive: true, force: true });
    },
  };
  try {
    assert.deepEqual(await state(restarted), before);
  } catch (e) {
    await restarted.close();
    throw e;
  }
  return { server: restarted, before };
}

/**
 * Writes with `write`, pads the log until the commands `pick` selects are in a snapshot,
 * restarts, and checks that `read` reads the same from the snapshot.
 */
export async function snapshotRoundTrip<S>(
  write: (t: TestLarder) => Promise<void>,
  read: (t: TestLarder) => Promise<S>,
  pick: (argv: string[]) => boolean,
): Promise<void> {
  const config = { kv: { compactAfterBytes: 4096 } };
  const first = await startTestLarder(config);
  let before: S;
  try {
    await write(first);
    before = await read(first);
    await pushIntoSnapshot(first, pick);
  } finally {
    await first.close(true);
  }
  const second = await startTestLarder(config, first.dataDir);
  try {
    assert.deepEqual(await read(second), before);
  } finally {
    await second.close();
    rmSync(first.dataDir, { recursive: true, force: true });
  }
}

/**
 * Pads the log until a compaction has moved every logged command that `pick` selects into a
 * snapshot (the server must compact after a few kilobytes).
 */
async function pushIntoSnapshot(t: TestLarder, pick: (argv: string[]) => boolean): Promise<void> {
  for (let i = 0; loggedCommands(t.dataDir).some(pick); i++) {
    assert.ok(i < 1000, 'the log was never compacted');
    await t.ok(['set', `pad:${i}`, 'x'.repeat(512)]);
  }
}

/** DUMP's payload of `key`, as bytes. */
export async function dumpOf(t: TestLarder, key: string): Promise<Buffer> {
  return Buffer.from((await t.command(['dump', key], { headers: { 'upstash-encoding': 'base64' } })).body.result, 'base64');
}

/** RESTORE of `payload` at `key` with no TTL, sent in the path (percent-encoded, so any bytes pass); its JSON answer. */
export async function restoreAt(t: TestLarder, key: string, payload: Buffer): Promise<unknown> {
  const encoded = [...payload].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return (await t.request(`/restore/${key}/0/${encoded}`)).json();
}

/** Every command in a database's append-only logs, oldest first. */
export function loggedCommands(dataDir: string, db = 'default'): string[][] {
  const dir = join(dataDir, 'kv', db);
  for (;;) {
    const logs = readdirSync(dir).filter((name) => name.endsWith('.aof')).sort();
    try {
      return logs.flatMap((name) => readFrames(readFileSync(join(dir, name))).frames.flatMap((f) => decodeCommands(f).map((argv) => [...argv])));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // a compaction ending deleted a log listed: list again
    }
  }
}

/**
 * Servers that a suite starts and restarts on the same data dirs: `stop` keeps the data; after
 * the suite, whatever a failing test left running is closed and every data dir removed.
 */
export function restartableServers() {
  const dirs: string[] = [];
  const open: TestLarder[] = [];
  after(async () => {
    await Promise.all(open.map((t) => t.close(true)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** A server on `dataDir`, or on a new one when absent. */
    async start(config: Record<string, unknown> = {}, dataDir?: string): Promise<TestLarder> {
      const t = await startTestLarder(config, dataDir);
      if (dataDir === undefined) dirs.push(t.dataDir);
      open.push(t);
      return t;
    },
    async stop(t: TestLarder): Promise<void> {
      open.splice(open.indexOf(t), 1);
      await t.close(true);
    },
  };
}

/**
 * Waits until no snapshot is being written in `dir`: a compaction runs in the background, so a
 * test that needs the snapshot a compaction started waits for it before writing more.
 */
export async function compactionsSettled(dir: string): Promise<void> {
  await eventually(async () => !readdirSync(dir).some((f) => f.endsWith('.tmp')), `no snapshot being written in ${dir}`);
}

/**
 * Asserts that `dir` holds one generation: a snapshot and its log, no temp file, no older log.
 * What a clean stop leaves when a compaction was running (it compacts again at once; a stop that
 * comes just after the compaction ended finds the log after it holding the writes made meanwhile).
 */
export function assertCompactedWhole(dir: string): void {
  const files = readdirSync(dir).filter((f) => /^(snapshot|log)-|\.tmp$/.test(f)).sort();
  const snapshot = files.find((f) => f.startsWith('snapshot-') && f.endsWith('.bin'));
  assert.ok(snapshot !== undefined, `a snapshot in ${files.join(' ')}`);
  assert.deepEqual(files, [snapshot.replace('snapshot-', 'log-').replace('.bin', '.aof'), snapshot]);
}
