// The partition log on its own: dense offsets across segments, a torn tail cut at reopen, damage
// in an earlier segment refused and repaired,
// the time index with producer timestamps out of order, retention by time and by size.

import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DamagedFileError } from '../../../src/storage/errors.js';
import { repairDataDir } from '../../../src/storage/repair.js';
import { murmur2 } from '../../../src/streams/log/murmur2.js';
import { PartitionLog, type PartitionSettings } from '../../../src/streams/log/partition-log.js';

const root = mkdtempSync(join(tmpdir(), 'larder-partition-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const SETTINGS: PartitionSettings = { retentionMs: -1, retentionBytes: -1, segmentBytes: 1024 };
const cuts: number[] = [];
const open = (dir: string, settings = SETTINGS) => PartitionLog.open(dir, settings, (_, cut) => cuts.push(cut));
const msg = (i: number, timestamp = 1000 + i) => ({ timestamp, key: i % 2 ? `k${i}` : null, value: `value ${i} `.repeat(5), headers: [{ key: 'i', value: String(i) }] });

describe('partition log', () => {
  it('keeps dense offsets across segments and reopens them', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir);
    const { first, durable } = log.append(Array.from({ length: 100 }, (_, i) => msg(i)));
    assert.equal(first, 0);
    assert.deepEqual(log.read(0, 10), [], 'invisible until durable');
    await durable;
    assert.ok(readdirSync(dir).length > 3, 'rolled into several segments');
    log.close();
    const again = open(dir);
    assert.deepEqual(again.range, { start: 0, end: 100 });
    const all = again.read(0, 1000);
    assert.deepEqual(all.map((r) => r.offset), Array.from({ length: 100 }, (_, i) => i));
    assert.deepEqual(all[7], { offset: 7, ...msg(7) });
    again.close();
  });

  it('reads records larger than one read chunk', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir, { ...SETTINGS, segmentBytes: 1 << 20 });
    const big = { timestamp: 1, key: null, value: 'x'.repeat(600_000), headers: [] };
    await log.append([msg(0), big, msg(2)]).durable;
    assert.deepEqual(log.read(0, 10).map((r) => r.value.length), [msg(0).value.length, 600_000, msg(2).value.length]);
    assert.deepEqual(log.read(2, 10).map((r) => r.offset), [2]);
    log.close();
  });

  it('cuts a torn tail at reopen and goes on from there', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir, { ...SETTINGS, segmentBytes: 1 << 20 });
    await log.append([msg(0), msg(1)]).durable;
    log.close();
    appendFileSync(join(dir, readdirSync(dir)[0]), Buffer.from([40, 0, 0, 0, 1, 2, 3]));
    const again = open(dir);
    assert.equal(cuts.at(-1), 7);
    assert.deepEqual(again.range, { start: 0, end: 2 });
    assert.equal(again.append([msg(2)]).first, 2);
    again.close();
  });

  it('refuses a damaged record in an earlier segment; repair keeps the records before it and sets the later segments aside', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir);
    await log.append(Array.from({ length: 100 }, (_, i) => msg(i))).durable;
    log.close();
    const segments = readdirSync(dir).sort();
    assert.ok(segments.length > 3);
    const first = join(dir, segments[0]);
    const bytes = readFileSync(first);
    const at = bytes.indexOf('value 3 ');
    bytes[at] ^= 0x01;
    writeFileSync(first, bytes);
    assert.throws(() => open(dir), (e: unknown) => e instanceof DamagedFileError && e.path === first && /in a segment a later one follows/.test(e.message));
    assert.deepEqual(readFileSync(first), bytes, 'left as it was');

    const repaired = repairDataDir(dir, {});
    assert.deepEqual(
      repaired.map((r) => [r.file, r.keptRecords, r.what]),
      segments.map((s, i) => [join(dir, s), i === 0 ? 3 : 0, i === 0 ? 'damage' : 'follows a damaged segment']),
    );
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.log')), [segments[0]]);
    const again = open(dir);
    assert.deepEqual(again.range, { start: 0, end: 3 });
    assert.deepEqual(again.read(0, 10).map((r) => r.offset), [0, 1, 2]);
    assert.equal(again.append([msg(3)]).first, 3);
    again.close();
  });

  it('finds the first offset at or after a timestamp, timestamps out of order', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir, { ...SETTINGS, segmentBytes: 1 << 20 });
    // 0..299 with timestamps 1000, 1010, ...; offset 150 carries an early one.
    const records = Array.from({ length: 300 }, (_, i) => msg(i, i === 150 ? 5 : 1000 + 10 * i));
    await log.append(records).durable;
    assert.equal(log.offsetForTime(0), 0);
    assert.equal(log.offsetForTime(1000), 0);
    assert.equal(log.offsetForTime(1001), 1);
    assert.equal(log.offsetForTime(2500), 150 + 1);
    assert.equal(log.offsetForTime(1000 + 10 * 299), 299);
    assert.equal(log.offsetForTime(1_000_000), 300);
    log.close();
  });

  it('deletes old segments by time and by size, never the active one', async () => {
    const dir = join(root, String(dirs++));
    const log = open(dir, { ...SETTINGS, retentionMs: 10_000 });
    await log.append(Array.from({ length: 60 }, (_, i) => msg(i, 1000))).durable;
    await log.append(Array.from({ length: 20 }, (_, i) => msg(i, 50_000))).durable;
    log.enforceRetention(20_000);
    const { start, end } = log.range;
    assert.ok(start > 0 && start <= 60, `start ${start}`);
    assert.equal(end, 80);
    assert.equal(log.read(0, 1)[0].offset, start);
    log.settings = { ...SETTINGS, retentionBytes: 1 };
    log.enforceRetention(20_000);
    assert.equal(readdirSync(dir).length, 1);
    log.close();
    const again = open(dir);
    assert.equal(again.range.end, 80);
    assert.equal(again.read(0, 1000).at(-1)!.offset, 79);
    // Once everything expired, the active segment is rolled and deleted too; offsets go on.
    again.settings = { ...SETTINGS, retentionMs: 10_000 };
    again.enforceRetention(1_000_000);
    assert.deepEqual(again.range, { start: 80, end: 80 });
    again.close();
    const empty = open(dir);
    assert.deepEqual(empty.range, { start: 80, end: 80 });
    assert.equal(empty.append([msg(80)]).first, 80);
    empty.close();
  });

  it('hashes keys with Kafka murmur2', () => {
    // org.apache.kafka.common.utils.UtilsTest#testMurmur2
    const cases: [string, number][] = [
      ['21', -973932308], ['foobar', -790332482], ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829], ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971], ['abc', 479470107],
    ];
    for (const [s, h] of cases) assert.equal(murmur2(Buffer.from(s)), h, s);
  });
});
