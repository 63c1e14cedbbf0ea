// The append log on a full disk (a small tmpfs): a refused flush acknowledges nothing, leaves
// the file at its last whole frame, keeps what it could not write, and writes it, in order,
// once there is room again; discardPending() forgets it instead.

import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppendLog, type FsyncPolicy } from '../../src/storage/append-log.js';
import { LogFailedError } from '../../src/storage/errors.js';
import { mountSmallDisk } from '../support/small-disk.js';

const disk = mountSmallDisk(1024 * 1024);
const skip = typeof disk === 'string' ? disk : false;
after(() => {
  if (typeof disk !== 'string') disk.remove();
});

let files = 0;
const newPath = () => (typeof disk === 'string' ? '' : join(disk.dir, `log-${files++}.aof`));
/** Larger than a page, so a full tmpfs refuses it whatever room the file's last page has. */
const big = (i: number) => Buffer.alloc(16 * 1024, 0x61 + i);
const small = (i: number) => Buffer.from(`payload ${i}`);

function refused(e: unknown): boolean {
  assert.ok(e instanceof LogFailedError, String(e));
  assert.equal(e.reason, 'No space left on device');
  return true;
}

describe('append log on a full disk', { skip }, () => {
  if (typeof disk === 'string') return;

  for (const policy of ['always', 'everysec'] as FsyncPolicy[]) {
    it(`keeps a refused flush's frames and writes them, in order, once there is room (${policy})`, () => {
      const path = newPath();
      const { log } = AppendLog.open(path, policy);
      log.append(small(0));
      log.flush();
      const whole = statSync(path).size;
      disk.fill();
      try {
        log.append(big(1));
        assert.throws(() => log.flush(), refused);
        assert.equal(statSync(path).size, whole, 'the file is cut back to its whole frames');
        assert.ok(refused(log.failure));
        log.append(big(2));
        assert.throws(() => log.flush(), refused);
        assert.ok(refused(log.retry()));
      } finally {
        disk.free();
      }
      log.append(small(3));
      log.flush();
      assert.equal(log.failure, null);
      log.close();
      assert.deepEqual(AppendLog.open(path, policy).recovered.frames, [small(0), big(1), big(2), small(3)]);
    });
  }

  it('retry() writes what was held back once there is room, with no new write', () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'always');
    disk.fill();
    try {
      log.append(big(0));
      assert.throws(() => log.flush(), refused);
      assert.ok(refused(log.retry()));
    } finally {
      disk.free();
    }
    assert.equal(log.retry(), null);
    assert.equal(statSync(path).size, log.size);
    log.close();
    assert.deepEqual(AppendLog.open(path, 'always').recovered.frames, [big(0)]);
  });

  it('discardPending() forgets a refused flush, for an owner that never applied it', () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'everysec');
    log.append(small(0));
    log.flush();
    disk.fill();
    try {
      log.append(big(1));
      assert.throws(() => log.flush(), refused);
      log.discardPending();
      // Nothing left to write: still failing while a probe of the directory is refused.
      assert.ok(refused(log.retry()));
    } finally {
      disk.free();
    }
    assert.equal(log.retry(), null);
    log.append(small(2));
    log.flush();
    assert.equal(log.size, statSync(path).size);
    log.close();
    assert.deepEqual(AppendLog.open(path, 'everysec').recovered.frames, [small(0), small(2)]);
  });

  it('sync() rejects while the disk is full and resolves once it has room', async () => {
    const path = newPath();
    const { log } = AppendLog.open(path, 'everysec');
    disk.fill();
    try {
      log.append(big(0));
      await assert.rejects(log.sync(), refused);
    } finally {
      disk.free();
    }
    log.append(small(1));
    await log.sync();
    log.close();
    assert.deepEqual(AppendLog.open(path, 'everysec').recovered.frames, [big(0), small(1)]);
  });
});
