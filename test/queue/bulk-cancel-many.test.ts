// A bulk cancel of more messages than one SQL statement takes parameters (PostgreSQL's wire
// protocol numbers them in 16 bits; postgres.js sends 65,533 at most) cancels every one on either engine, and
// its ops and its CANCELLED events survive a restart. On PostgreSQL such a cancel once failed
// whole with a 503 (its ops went out as one INSERT), and so did the units committed with it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestLarder } from '../support/larder.js';
import { queueClient } from '../support/queue-receiver.js';

/** Past 65,533 ops, and past 32,766 events (two parameters each). */
const MESSAGES = 66_000;
const PER_BATCH = 1000;

describe('a bulk cancel of very many messages', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-queue-cancel-many-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it(`cancels ${MESSAGES} messages in one call, and they stay cancelled after a restart`, async () => {
    const first = await startTestLarder({}, dataDir);
    const q = first.queue();
    const ids: string[] = [];
    try {
      const client = queueClient(q);
      // Never delivered: nobody listens there, and they are due in an hour.
      const url = 'http://127.0.0.1:9/many';
      for (let i = 0; i < MESSAGES; i += PER_BATCH) {
        const batch = Array.from({ length: PER_BATCH }, (_, j) => ({ url, body: String(i + j), delay: 3600, label: 'many' }));
        for (const r of await client.batch(batch)) ids.push((r as { messageId: string }).messageId);
      }
      const res = await fetch(`${q.url}/v2/messages?label=many`, { method: 'DELETE', headers: { authorization: `Bearer ${q.token}` } });
      assert.deepEqual([res.status, await res.json()], [200, { cancelled: MESSAGES }]);
      // The store takes writes after it.
      assert.equal(typeof (await client.publish({ url, body: 'after', delay: 3600 })).messageId, 'string');
    } finally {
      await first.close(true);
    }

    const second = await startTestLarder({}, dataDir);
    try {
      const client = queueClient({ url: second.queue().url, token: q.token });
      for (const id of [ids[0], ids[MESSAGES - 1]]) await assert.rejects(client.messages.get(id), /not found/i);
      const logged = await client.logs({ filter: { messageId: ids[MESSAGES - 1], state: 'CANCELED' } });
      assert.equal(logged.logs.length, 1);
    } finally {
      await second.close(true);
    }
  });
});
