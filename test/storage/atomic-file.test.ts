// Atomic replace: a write that fails part-way (a full disk) leaves the old file as it was and no
// temp file behind.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { replaceFile } from '../../src/storage/atomic-file.js';

const root = mkdtempSync(join(tmpdir(), 'larder-atomic-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('replaceFile', () => {
  it('keeps the old file and removes its temp file when a write fails part-way', () => {
    const path = join(root, 'topics.json');
    writeFileSync(path, 'old');
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    assert.throws(
      () =>
        replaceFile(path, (write) => {
          write(Buffer.from('half of the new'));
          throw full;
        }),
      full,
    );
    assert.equal(readFileSync(path, 'utf8'), 'old');
    assert.equal(existsSync(`${path}.tmp`), false);
  });

  it('replaces the file when every write succeeds', () => {
    const path = join(root, 'acl.json');
    writeFileSync(path, 'old');
    replaceFile(path, (write) => write(Buffer.from('new')));
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.equal(existsSync(`${path}.tmp`), false);
  });
});
