// kill -9 during a produce load, then restart on the same data dir: every acknowledged
// message is at its offset, offsets are dense, and acknowledged commits are intact.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder, type ClusterCredentials } from '../support/larder-process.js';

const PARTITIONS = 4;

function client(c: ClusterCredentials) {
  const authorization = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
  return async (path: string, body?: unknown) => {
    const res = await fetch(c.url + path, { method: 'POST', headers: { authorization }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
}

describe('stream topics after kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-streams-crash-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every acknowledged message and commit', async () => {
    const first = await spawnLarder({ dataDir, flags: ['--topic', `load:${PARTITIONS}`] });
    const call = client(first.info.clusters.get('default')!);
    assert.equal((await call('/consume/crashers/c1', { topic: 'load', timeout: 0 })).status, 200);

    const acked = new Map<string, string>();
    let lastCommit: number | undefined;
    let stop = false;
    const producer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const batch = Array.from({ length: 5 }, (_, k) => ({ value: `w${w}-${i}-${k}` }));
        let res;
        try {
          res = await call('/produce/load', batch);
        } catch {
          return; // the server died mid-request: not acknowledged
        }
        res.body.forEach((m: any, k: number) => acked.set(`${m.partition}/${m.offset}`, batch[k].value));
      }
    };
    const committer = async () => {
      for (let offset = 1; !stop; offset++) {
        try {
          const res = await call('/commit/crashers/c1', { topic: 'load', partition: 0, offset });
          if (res.status === 200) lastCommit = offset;
        } catch {
          return;
        }
      }
    };
    const load = [0, 1, 2, 3, 4, 5].map(producer).concat(committer());
    while (acked.size < 500) await new Promise((r) => setTimeout(r, 20));
    first.kill('SIGKILL');
    const exit = await first.exited;
    stop = true;
    await Promise.all(load);
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(lastCommit !== undefined);

    const second = await spawnLarder({ dataDir });
    try {
      assert.deepEqual(second.info.clusters.get('default'), { ...first.info.clusters.get('default'), url: `${second.info.url}/kafka/default` }, 'generated credentials are kept');
      const again = client(second.info.clusters.get('default')!);
      const stored = new Map<string, string>();
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const end = (await again('/offsets/latest', { topic: 'load', partition })).body[0].offset;
        for (let offset = 0; offset < end; ) {
          const got = (await again('/fetch', { topic: 'load', partition, offset, timeout: 0 })).body;
          for (const m of got) {
            assert.equal(m.offset, offset++, 'offsets are dense');
            stored.set(`${partition}/${m.offset}`, m.value);
          }
        }
      }
      for (const [at, value] of acked) assert.equal(stored.get(at), value, `acknowledged message at ${at}`);
      const committed = (await again('/committed/crashers/c1', { topic: 'load', partition: 0 })).body[0].offset;
      assert.ok(committed >= lastCommit, `committed ${committed} after an acknowledged commit of ${lastCommit}`);
    } finally {
      await second.stop();
    }
  });
});
