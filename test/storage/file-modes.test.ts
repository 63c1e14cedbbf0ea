// Everything Larder creates in its data directory is for its own user alone (storage/atomic-file.ts):
// files 0600 and directories 0700, whatever the umask. One start exercises every service and
// every kind of file: logs, snapshots, temp files of atomic replaces, graphs, tokens, ACLs,
// topic lists, consumer offsets and the queue's rotated events.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { eventually } from '../support/eventually.js';
import { startTestLarder } from '../support/larder.js';
import { queueClient, startQueueReceiver } from '../support/queue-receiver.js';
import { vectorClient } from '../support/vector-sdk.js';

/** Every path under `dir` with its permission bits, as `0600 kv/default/acl.json`. */
function modes(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = join(rel, name);
      const st = statSync(join(dir, path));
      out.push(`${(st.mode & 0o777).toString(8).padStart(4, '0')} ${path}${st.isDirectory() ? '/' : ''}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk('');
  return out.sort();
}

describe('file modes in the data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'larder-modes-'));
  // The data dir itself is made by Larder, below a folder of the test's.
  const dataDir = join(root, 'data');
  let umask: number;
  before(() => {
    // A umask that takes nothing away: every mode below is Larder's own choice.
    umask = process.umask(0);
  });
  after(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('are 0600 for files and 0700 for folders after a start that writes to every service', async () => {
    const tiny = { compactAfterBytes: 1 };
    const t = await startTestLarder(
      {
        kv: { ...tiny },
        vector: { ...tiny, indexes: { default: { dimension: 2 } } },
        queue: { ...tiny, maxLogEvents: 2, retryDelayScale: 0.001 },
        streams: { clusters: { default: { autoCreateTopics: true } } },
      },
      dataDir,
    );
    const rx = await startQueueReceiver({ current: t.queue().currentSigningKey, next: t.queue().nextSigningKey });
    try {
      for (let i = 0; i < 5; i++) await t.ok(['SET', `k${i}`, 'v'.repeat(100)]);
      await t.ok(['ACL', 'SETUSER', 'reader', 'on', '>secret-password', '~*', '+@read']);

      const c = t.cluster();
      const kafka = new Kafka({ url: c.url, username: c.username, password: c.password });
      await kafka.producer().produce('events', 'one');
      const consumer = kafka.consumer();
      const group = { consumerGroupId: 'g', instanceId: 'i', topics: ['events'], autoCommit: false, autoOffsetReset: 'earliest' as const, timeout: 1000 };
      await eventually(async () => (await consumer.consume(group)).length === 1, 'the message consumed');
      await consumer.commit({ consumerGroupId: 'g', instanceId: 'i' });

      const index = vectorClient(t);
      for (let i = 0; i < 3; i++) await index.upsert({ id: `v${i}`, vector: [i, 1] });

      const client = queueClient(t.queue());
      for (let i = 0; i < 3; i++) await client.publish({ url: `${rx.url}/ok`, body: `m${i}` });
      await eventually(async () => rx.at('/ok').length === 3, 'the deliveries');
    } finally {
      await rx.close();
      await t.close(true);
    }

    const found = modes(dataDir);
    const wrong = found.filter((line) => !(line.endsWith('/') ? line.startsWith('0700 ') : line.startsWith('0600 ')));
    assert.deepEqual(wrong, [], found.join('\n'));
    assert.equal((statSync(dataDir).mode & 0o777).toString(8), '700');
    // Each kind of file was made, so each was checked.
    for (const kind of [
      / secrets\.json$/,
      / kv\/default\/acl\.json$/,
      / kv\/default\/snapshot-\d+\.bin$/,
      / kv\/default\/log-\d+\.aof$/,
      / streams\/default\/topics\.json$/,
      / streams\/default\/consumer-offsets\.log$/,
      / streams\/default\/events\/0\/\d+\.log$/,
      / vector\/default\/snapshot-\d+\.bin$/,
      / vector\/default\/graph-\d+-\d+\.hnsw$/,
      / vector\/default\/graphs\.json$/,
      / queue\/snapshot-\d+\.bin$/,
      / queue\/events\.prev\.log$/,
    ]) {
      assert.ok(found.some((line) => kind.test(line)), `${kind} in\n${found.join('\n')}`);
    }
  });
});
