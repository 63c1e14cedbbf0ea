// Three Larder processes on one PostgreSQL queue, messages published to all three: parallelism
// 1 on a flow-control key, and a queue of parallelism 1, hold across the processes (a
// destination counting its open requests never sees two), and a pause taken on one process
// holds every process's deliveries.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@upstash/qstash';
import { eventually } from '../../support/eventually.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { suiteFleet } from '../../support/queue-fleet.js';

const MESSAGES = 24;
const HOLD_MS = 40;

describe('queue on PostgreSQL: parallelism across three processes', { skip: postgresRunSkip }, () => {
  const { ledger, clients } = suiteFleet(3, HOLD_MS, { queue: { retryDelayScale: 0.001 } });

  const answered = (path: string) => ledger.at(path).filter((a) => a.answered).length;

  it('runs one delivery of a parallelism-1 flow-control key at a time', async () => {
    const flowControl = { key: 'fleet-one', parallelism: 1 };
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, i) => clients[i % 3].publish({ url: `${ledger.url}/fc`, body: `m${i}`, flowControl } as Parameters<Client['publish']>[0])),
    );
    await eventually(async () => answered('/fc') === MESSAGES, `${MESSAGES} deliveries`, 3000);
    assert.equal(ledger.mostAtOnce('/fc'), 1);
  });

  it('runs a parallelism-1 queue one message at a time, in publish order', async () => {
    await clients[0].queue({ queueName: 'fleet-queue' }).upsert({ parallelism: 1 });
    for (let i = 0; i < MESSAGES; i++) await clients[i % 3].queue({ queueName: 'fleet-queue' }).enqueue({ url: `${ledger.url}/q`, body: `m${i}` });
    await eventually(async () => answered('/q') === MESSAGES, `${MESSAGES} deliveries`, 3000);
    assert.equal(ledger.mostAtOnce('/q'), 1);
    assert.deepEqual(
      ledger.at('/q').map((a) => a.body),
      Array.from({ length: MESSAGES }, (_, i) => `m${i}`),
    );
  });

  it('holds every process once a key is paused on one, and resumes them all', async () => {
    // Delayed, so the key exists (a pause needs one) before anything is due.
    const flowControl = { key: 'fleet-paused', parallelism: 2 };
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => clients[i % 3].publish({ url: `${ledger.url}/paused`, body: `m${i}`, delay: 2, flowControl } as Parameters<Client['publish']>[0])),
    );
    await clients[0].flowControl.pause('fleet-paused');
    await new Promise((r) => setTimeout(r, 2500));
    // Another message, published once the paused ones are due, arrives: they had their chance.
    await clients[2].publish({ url: `${ledger.url}/free`, body: 'free' });
    await eventually(async () => answered('/free') === 1, 'the free message', 3000);
    assert.equal(ledger.at('/paused').length, 0);
    await clients[1].flowControl.resume('fleet-paused');
    await eventually(async () => answered('/paused') === 6, 'the six paused messages', 3000);
  });
});
