import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppendLog, type FsyncPolicy } from '../../src/storage/append-log.js';
import { DamagedFileError } from '../../src/storage/errors.js';
import { FRAME_HEADER, frame } from '../../src/storage/frames.js';
import { eventually } from '../support/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'larder-append-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `log-${files++}.aof`);
const payload = (i: number) => Buffer.from(`payload ${i}`);

function fill(path: string, policy: FsyncPolicy, n: number): void {
  const { log } = AppendLog.open(path, policy);
  for (let i = 0; i < n; i++) {
    log.append(payload(i));
    log.flush();
  }
  log.close();
}

describe('append log', () => {
  for (const policy of ['always', 'everysec'] as const) {
    it(`creates, appends and reopens (${policy})`, () => {
      const path = newPath();
      const { log, recovered } = AppendLog.open(path, policy);
      assert.ok(existsSync(path));
      assert.deepEqual(recovered, { frames: [], cutBytes: 0, validBytes: 0 });
      log.append(payload(0));
      log.append(payload(1));
      assert.equal(log.size, 2 * frame(payload(0)).length);
      log.flush();
      assert.equal(statSync(path).size, log.size);
      log.close();
      const again = AppendLog.open(path, policy);
      assert.deepEqual(again.recovered.frames, [payload(0), payload(1)]);
      assert.equal(again.log.size, statSync(path).size);
      again.log.close();
    });
  }

  it('writes appended frames on close without a flush', () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'everysec');
    log.append(payload(7));
    log.close();
    log.close();
    assert.deepEqual(AppendLog.open(path, 'everysec').recovered.frames, [payload(7)]);
  });

  it('cuts a torn tail on open and appends after the last whole frame', () => {
    const path = newPath();
    fill(path, 'always', 3);
    const whole = statSync(path).size;
    truncateSync(path, whole - 2);
    const { log, recovered } = AppendLog.open(path, 'always');
    assert.equal(recovered.frames.length, 2);
    assert.equal(recovered.cutBytes, frame(payload(2)).length - 2);
    assert.equal(recovered.stop, 'torn');
    assert.equal(statSync(path).size, recovered.validBytes);
    log.append(payload(9));
    log.close();
    assert.deepEqual(AppendLog.open(path, 'always').recovered.frames, [payload(0), payload(1), payload(9)]);
  });

  it('cuts appended garbage and reports its size', () => {
    const path = newPath();
    fill(path, 'always', 2);
    appendFileSync(path, Buffer.from('garbage!'));
    const first = AppendLog.open(path, 'always');
    first.log.close();
    assert.equal(first.recovered.cutBytes, 8);
    const second = AppendLog.open(path, 'always');
    second.log.close();
    assert.equal(second.recovered.cutBytes, 0);
    assert.deepEqual(second.recovered.frames, [payload(0), payload(1)]);
  });

  it('refuses a damaged record with records after it, naming the byte and leaving the file as it was', () => {
    const path = newPath();
    fill(path, 'always', 5);
    const bytes = readFileSync(path);
    const damagedAt = 2 * frame(payload(0)).length;
    bytes[damagedAt + FRAME_HEADER + 2] ^= 0x01;
    writeFileSync(path, bytes);
    assert.throws(
      () => AppendLog.open(path, 'always'),
      (e: unknown) =>
        e instanceof DamagedFileError &&
        e.offset === damagedAt &&
        e.following === bytes.length - damagedAt &&
        e.message.startsWith(`${path} is damaged at byte ${damagedAt} (checksum, with valid records after it); ${bytes.length - damagedAt} bytes follow`),
    );
    assert.deepEqual(readFileSync(path), bytes);
  });

  it('survives a close right after a background sync started', async () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'everysec');
    log.append(payload(1));
    log.flush();
    // Let the once-a-second timer start its fdatasync, then close while it may be in flight.
    await new Promise((r) => setTimeout(r, 1005));
    log.append(payload(2));
    log.close();
    const next = AppendLog.open(path, 'everysec');
    assert.deepEqual(next.recovered.frames, [payload(1), payload(2)]);
    next.log.close();
    assert.equal(readFileSync(path).length, 2 * frame(payload(1)).length);
  });

  it('closes in the background: the frames are written at once, the descriptor goes after its fdatasync', async () => {
    const path = newPath();
    /** Whether this process holds a descriptor of `path`. */
    const held = () =>
      readdirSync('/proc/self/fd').some((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // closed while we looked
        }
      });
    const { log } = AppendLog.open(path, 'everysec');
    log.append(payload(1));
    log.flush();
    log.append(payload(2));
    assert.ok(held());
    log.closeInBackground();
    log.closeInBackground();
    assert.equal(readFileSync(path).length, 2 * frame(payload(1)).length);
    await eventually(async () => !held(), 'the descriptor closed');
  });

  it('sync() writes and resolves concurrent callers with shared fdatasyncs', async () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'everysec');
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      log.append(payload(i));
      waits.push(log.sync());
    }
    await Promise.all(waits);
    const { log: again, recovered } = AppendLog.open(path, 'everysec');
    assert.equal(recovered.frames.length, 20);
    again.close();
    log.close();
  });
});
