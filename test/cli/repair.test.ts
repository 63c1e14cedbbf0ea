// A flipped byte in the middle of each kind of log, as an unlucky operator meets it: the start
// stops with one line naming the file, the byte and the bytes after it, and leaves the file as it
// was; `larder repair` moves the damaged part to a quarantine file beside it and says what it kept;
// the next start has every record before the damage, and none after it (they are in quarantine).

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { Redis } from '@upstash/redis';
import { Index } from '@upstash/vector';
import { FRAME_HEADER, readFrames } from '../../src/storage/frames.js';
import { launchLarder, runLarderCli, spawnLarder, type LaunchOptions } from '../support/larder-process.js';
import { queueClient } from '../support/queue-receiver.js';

const RECORDS = 20;
const DAMAGED = 10;
const name = (prefix: string, i: number) => `${prefix}-${String(i).padStart(2, '0')}`;

const root = mkdtempSync(join(tmpdir(), 'larder-repair-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDataDir = () => join(root, `data-${dirs++}`);

interface Fault {
  file: string;
  /** Where the damaged frame starts. */
  offset: number;
  /** Frames before it. */
  before: number;
  /** The file as the damage left it. */
  damaged: Buffer;
}

/** Flips one byte of `marker` in `file`; the frame holding it is the damaged one. */
function damage(file: string, marker: string): Fault {
  const data = readFileSync(file);
  const at = data.indexOf(marker);
  assert.ok(at > 0, `${marker} is in ${file}`);
  let offset = 0;
  let before = 0;
  for (const f of readFrames(data).frames) {
    if (offset + FRAME_HEADER + f.length > at) break;
    offset += FRAME_HEADER + f.length;
    before++;
  }
  assert.ok(offset + FRAME_HEADER + 1 < data.length - FRAME_HEADER, 'records follow the damaged one');
  data[at] ^= 0x01;
  writeFileSync(file, data);
  return { file, offset, before, damaged: data };
}

/** The start stops with one line naming the file, the byte and the bytes after it, and leaves the file as it was. */
async function refusedStart(opts: LaunchOptions, fault: Fault, why: string): Promise<void> {
  const p = launchLarder(opts);
  if (await p.ready.then(() => true, () => false)) {
    await p.stop();
    assert.fail(`the start went on over the damage\n${p.stderr()}`);
  }
  assert.equal((await p.exited).code, 1);
  assert.deepEqual(p.stdout(), [], 'it never listened, so /healthz never answered');
  const lines = p.stderr().split('\n').filter((l) => l.startsWith('larder: '));
  assert.equal(lines.length, 1, p.stderr());
  const following = fault.damaged.length - fault.offset;
  assert.equal(
    lines[0],
    `larder: ${fault.file} is damaged at byte ${fault.offset} (checksum${why}); ${following} bytes follow from there and nothing was cut. ` +
      '`larder repair` (same --config/--data-dir, Larder stopped) moves them to a quarantine file beside it and keeps every record before them',
  );
  assert.doesNotMatch(p.stderr(), /\n\s+at /, 'no stack trace');
  assert.deepEqual(readFileSync(fault.file), fault.damaged, 'the file is left as it was');
}

async function repair(dataDir: string): Promise<string[]> {
  const run = await runLarderCli(['repair', '--data-dir', dataDir]);
  assert.equal(run.code, 0, run.stderr);
  return run.stdout.trimEnd().split('\n');
}

/** `larder repair` sets aside the damaged frame and everything after it, keeping the frames before. */
async function repairs(dataDir: string, fault: Fault, kept = fault.before): Promise<void> {
  const quarantine = `${fault.file}.quarantine-${fault.offset}`;
  const setAside = fault.damaged.length - fault.offset;
  assert.deepEqual(await repair(dataDir), [
    `${fault.file}: kept ${kept} record(s) before byte ${fault.offset}; set aside ${setAside} byte(s) (damage) in ${quarantine}`,
    `repaired 1 file(s) in ${dataDir}; nothing was deleted`,
  ]);
  assert.deepEqual(readFileSync(quarantine), fault.damaged.subarray(fault.offset), 'the quarantine holds the bytes set aside');
  assert.deepEqual(await repair(dataDir), [`nothing to repair in ${dataDir}`]);
}

describe('larder repair', () => {
  it('key-value log: keeps every write before the damage', async () => {
    const dataDir = newDataDir();
    const redis = (p: { info: { databases: ReadonlyMap<string, { url: string; token: string }> } }) => {
      const db = p.info.databases.get('default')!;
      return new Redis({ url: db.url, token: db.token, enableTelemetry: false, retry: false });
    };
    const first = await spawnLarder({ dataDir });
    for (let i = 0; i < RECORDS; i++) await redis(first).set(name('key', i), `value ${i}`);
    assert.equal((await first.stop()).code, 0);
    const log = join(dataDir, 'kv', 'default', 'log-00000000000000000000.aof');
    const fault = damage(log, name('key', DAMAGED));
    assert.equal(fault.before, DAMAGED);

    await refusedStart({ dataDir }, fault, ', with valid records after it');
    await repairs(dataDir, fault);
    assert.deepEqual(readFileSync(log), fault.damaged.subarray(0, fault.offset));

    const again = await spawnLarder({ dataDir });
    try {
      for (let i = 0; i < RECORDS; i++) assert.equal(await redis(again).get(name('key', i)), i < DAMAGED ? `value ${i}` : null, name('key', i));
      await redis(again).set('after', 'repair');
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });

  it('key-value snapshot: keeps the entries before the damage and the log after the snapshot', async () => {
    const dataDir = newDataDir();
    const config = { kv: { compactAfterBytes: 400 } };
    const first = await spawnLarder({ dataDir, config });
    const db = first.info.databases.get('default')!;
    const written = new Redis({ url: db.url, token: db.token, enableTelemetry: false, retry: false });
    for (let i = 0; i < RECORDS; i++) await written.set(name('key', i), `value ${i}`);
    const dir = join(dataDir, 'kv', 'default');
    assert.equal((await first.stop()).code, 0); // finishes a compaction under way
    const snapshot = join(dir, readdirSync(dir).filter((f) => /^snapshot-\d{20}\.bin$/.test(f)).sort().pop()!);
    // Entries: [u32 key length][key]...; the first frame is the header.
    const keys = readFrames(readFileSync(snapshot)).frames.slice(1).map((f) => f.toString('latin1', 4, 4 + f.readUInt32LE(0)));
    assert.ok(keys.length > 4, `${keys.length} keys in the snapshot`);
    const hit = Math.floor(keys.length / 2);
    const fault = damage(snapshot, keys[hit]);

    await refusedStart({ dataDir, config }, fault, '; a snapshot is written whole, so it is never torn');
    await repairs(dataDir, fault, hit);

    const again = await spawnLarder({ dataDir, config });
    try {
      const c = again.info.databases.get('default')!;
      const redis = new Redis({ url: c.url, token: c.token, enableTelemetry: false, retry: false });
      for (let i = 0; i < RECORDS; i++) {
        const k = name('key', i);
        const inSnapshot = keys.indexOf(k);
        assert.equal(await redis.get(k), inSnapshot >= hit ? null : `value ${i}`, `${k} (snapshot entry ${inSnapshot})`);
      }
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });

  it('stream partition log: keeps the messages before the damage, and offsets go on from there', async () => {
    const dataDir = newDataDir();
    const opts = { dataDir, flags: ['--topic', 'events:1'] };
    const first = await spawnLarder(opts);
    const producer = new Kafka(first.info.clusters.get('default')!).producer();
    for (let i = 0; i < RECORDS; i++) await producer.produce('events', name('message', i));
    assert.equal((await first.stop()).code, 0);
    const fault = damage(join(dataDir, 'streams', 'default', 'events', '0', '00000000000000000000.log'), name('message', DAMAGED));
    assert.equal(fault.before, DAMAGED);

    await refusedStart(opts, fault, ', with valid records after it');
    await repairs(dataDir, fault);

    const again = await spawnLarder(opts);
    try {
      const kafka = new Kafka(again.info.clusters.get('default')!);
      const got = await kafka.consumer().fetch({ topic: 'events', partition: 0, offset: 0, timeout: 0 });
      assert.deepEqual(got.map((m) => [m.offset, m.value]), Array.from({ length: DAMAGED }, (_, i) => [i, name('message', i)]));
      assert.equal((await kafka.producer().produce('events', 'after repair')).offset, DAMAGED);
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });

  it('consumer-offsets log: keeps the commits before the damage; a torn tail is cut and reported', async () => {
    const dataDir = newDataDir();
    const opts = { dataDir, flags: ['--topic', 'events:1'] };
    const committed = async (kafka: Kafka, group: string) =>
      (await kafka.consumer().committed({ consumerGroupId: group, instanceId: 'i', topicPartitions: [{ topic: 'events', partition: 0 }] }))[0].offset;
    const first = await spawnLarder(opts);
    const kafka = new Kafka(first.info.clusters.get('default')!);
    for (let i = 0; i < RECORDS; i++) {
      // A group's instance exists once it consumed.
      await kafka.consumer().consume({ consumerGroupId: name('group', i), instanceId: 'i', topics: ['events'], timeout: 0 });
      await kafka.consumer().commit({ consumerGroupId: name('group', i), instanceId: 'i', offset: { topic: 'events', partition: 0, offset: i + 1 } });
    }
    assert.equal((await first.stop()).code, 0);
    const log = join(dataDir, 'streams', 'default', 'consumer-offsets.log');

    // A torn tail first: cut at start, with a warning naming the file and the bytes cut.
    truncateSync(log, statSync(log).size - 3);
    const torn = await spawnLarder(opts);
    assert.equal(await committed(new Kafka(torn.info.clusters.get('default')!), name('group', RECORDS - 2)), RECORDS - 1);
    assert.equal((await torn.stop()).code, 0);
    const warnings = torn.stderr().split('\n').filter((l) => l.includes('consumer-offsets.log: cut a torn tail'));
    assert.equal(warnings.length, 1, torn.stderr());
    assert.equal(JSON.parse(warnings[0]).level, 40);
    assert.ok(JSON.parse(warnings[0]).cutBytes > 3);

    const fault = damage(log, name('group', DAMAGED));
    assert.equal(fault.before, DAMAGED);
    await refusedStart(opts, fault, ', with valid records after it');
    await repairs(dataDir, fault);

    const again = await spawnLarder(opts);
    try {
      const k = new Kafka(again.info.clusters.get('default')!);
      for (let i = 0; i < RECORDS - 1; i++) assert.equal(await committed(k, name('group', i)), i < DAMAGED ? i + 1 : -1, name('group', i));
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });

  it('vector log: keeps the upserts before the damage', async () => {
    const dataDir = newDataDir();
    const opts = { dataDir, config: { vector: { indexes: { default: { dimension: 3 } } } } };
    const index = (p: { info: { indexes: ReadonlyMap<string, { url: string; token: string }> } }) => {
      const c = p.info.indexes.get('default')!;
      return new Index({ url: c.url, token: c.token, retry: false, enableTelemetry: false });
    };
    const first = await spawnLarder(opts);
    for (let i = 0; i < RECORDS; i++) await index(first).upsert({ id: name('vector', i), vector: [1, i, 2] });
    assert.equal((await first.stop()).code, 0);
    const fault = damage(join(dataDir, 'vector', 'default', 'log-00000000000000000000.aof'), name('vector', DAMAGED));

    await refusedStart(opts, fault, ', with valid records after it');
    await repairs(dataDir, fault);

    const again = await spawnLarder(opts);
    try {
      const ids = Array.from({ length: RECORDS }, (_, i) => name('vector', i));
      const got = await index(again).fetch(ids);
      assert.deepEqual(
        got.map((v) => v?.id ?? null),
        ids.map((id, i) => (i < DAMAGED ? id : null)),
      );
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });

  it('queue log: keeps the messages published before the damage', async () => {
    const dataDir = newDataDir();
    const opts = { dataDir };
    const first = await spawnLarder(opts);
    const ids: string[] = [];
    for (let i = 0; i < RECORDS; i++) {
      // Delayed an hour: they wait in the store for the whole test.
      ids.push((await queueClient(first.info.queue).publish({ url: `http://127.0.0.1:9/${name('destination', i)}`, body: 'x', delay: 3600 })).messageId);
    }
    assert.equal((await first.stop()).code, 0);
    const fault = damage(join(dataDir, 'queue', 'log-00000000000000000000.aof'), name('destination', DAMAGED));

    await refusedStart(opts, fault, ', with valid records after it');
    await repairs(dataDir, fault);

    const again = await spawnLarder(opts);
    try {
      const client = queueClient(again.info.queue);
      for (let i = 0; i < RECORDS; i++) {
        if (i < DAMAGED) assert.equal((await client.messages.get(ids[i])).url, `http://127.0.0.1:9/${name('destination', i)}`);
        else await assert.rejects(client.messages.get(ids[i]), /not found/);
      }
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  });
});
