// repairDataDir on its own: what it does with a torn tail, a second repair of the same spot and a
// snapshot whose header is the damaged frame. test/cli/repair.test.ts runs it as users do, per
// kind of log.

import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppendLog } from '../../src/storage/append-log.js';
import { FRAME_HEADER, frame } from '../../src/storage/frames.js';
import { Generations } from '../../src/storage/generations.js';
import { repairDataDir } from '../../src/storage/repair.js';
import { createLogger } from '../../src/server/log.js';

const root = mkdtempSync(join(tmpdir(), 'larder-repair-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const payload = (i: number) => Buffer.from(`record ${i}`);
const FORMAT = { version: 1, countField: 'entries' };

function newLog(n: number): { dataDir: string; path: string } {
  const dataDir = join(root, String(dirs++));
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const path = join(dataDir, 'logs', 'log-00000000000000000000.aof');
  writeFileSync(path, Buffer.concat(Array.from({ length: n }, (_, i) => frame(payload(i)))));
  return { dataDir, path };
}

describe('repair', () => {
  it('sets a torn tail aside rather than cutting it, and says it was one', () => {
    const { dataDir, path } = newLog(3);
    const whole = readFileSync(path).length;
    appendFileSync(path, frame(payload(3)).subarray(0, 10));
    const [r, ...more] = repairDataDir(dataDir, {});
    assert.deepEqual(more, []);
    assert.deepEqual(r, { file: path, keptRecords: 3, offset: whole, setAsideBytes: 10, quarantine: `${path}.quarantine-${whole}`, what: 'torn tail' });
    assert.deepEqual(readFileSync(r.quarantine), frame(payload(3)).subarray(0, 10));
    assert.equal(readFileSync(path).length, whole);
  });

  it('never overwrites an earlier quarantine file', () => {
    const { dataDir, path } = newLog(4);
    const damageSecond = () => {
      const bytes = readFileSync(path);
      bytes[frame(payload(0)).length + FRAME_HEADER] ^= 0x01;
      writeFileSync(path, bytes);
    };
    damageSecond();
    const first = repairDataDir(dataDir, {});
    appendFileSync(path, Buffer.concat([payload(1), payload(2)].map(frame)));
    damageSecond();
    const second = repairDataDir(dataDir, {});
    const offset = frame(payload(0)).length;
    assert.deepEqual([...first, ...second].map((r) => [r.quarantine, r.what]), [
      [`${path}.quarantine-${offset}`, 'damage'],
      [`${path}.quarantine-${offset}-2`, 'damage'],
    ]);
    assert.ok(existsSync(first[0].quarantine));
  });

  it('turns a snapshot whose header is damaged into an empty one that loads, its log replayed after it', () => {
    const dataDir = join(root, String(dirs++));
    const dir = join(dataDir, 'things');
    const settings = { dir, fsync: 'always' as const, compactAfterBytes: 1 };
    const log = createLogger('silent');
    const first = new Generations(settings, FORMAT, 'things', log);
    assert.equal(first.openSnapshot(), null);
    first.openLog();
    first.compact({ entries: 2 }, [payload(0), payload(1)]);
    first.log.append(payload(2));
    first.log.close();
    const snapshot = join(dir, 'snapshot-00000000000000000001.bin');
    const bytes = readFileSync(snapshot);
    bytes[FRAME_HEADER + 1] ^= 0x01;
    writeFileSync(snapshot, bytes);
    assert.throws(() => new Generations(settings, FORMAT, 'things', log).openSnapshot(), /is damaged at byte 0/);

    assert.deepEqual(
      repairDataDir(dataDir, { things: FORMAT }).map((r) => [r.file, r.keptRecords, r.offset, r.setAsideBytes]),
      [[snapshot, 0, 0, bytes.length]],
    );
    assert.deepEqual(readFileSync(`${snapshot}.quarantine-0`), bytes);
    const again = new Generations(settings, FORMAT, 'things', log);
    assert.deepEqual(again.openSnapshot()?.entries, []);
    assert.deepEqual(again.openLog().frames, [payload(2)]);
    again.log.close();
  });
});

// AppendLog is what every service opens its logs with: after a repair it opens without a cut.
describe('a repaired log', () => {
  it('opens with nothing to cut', () => {
    const { dataDir, path } = newLog(5);
    const bytes = readFileSync(path);
    bytes[bytes.length - frame(payload(4)).length - 3] ^= 0x01;
    writeFileSync(path, bytes);
    assert.throws(() => AppendLog.open(path, 'always'), /is damaged at byte/);
    repairDataDir(dataDir, {});
    const { log, recovered } = AppendLog.open(path, 'always');
    log.close();
    assert.deepEqual(recovered, { frames: [payload(0), payload(1), payload(2)], cutBytes: 0, validBytes: 3 * frame(payload(0)).length });
  });
});
