// Two Larder processes on one PostgreSQL queue, each writing a snapshot after every commit
// (queue.compactAfterBytes 1): a process that was stopped meanwhile finds the other's changes
// in a snapshot, the ops that made them already deleted. What it rebuilds from one (queues,
// flow-control keys, messages) it serves and delivers as if it had followed the ops.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { suiteFleet } from '../../support/queue-fleet.js';

describe('queue on PostgreSQL: following another process through its snapshots', { skip: postgresRunSkip }, () => {
  const { fleet, ledger, clients } = suiteFleet(2, 5, { queue: { compactAfterBytes: 1 } });

  it('shows, pauses and resumes on one process a queue and a key made on the other', async () => {
    // Process 1 is stopped (SIGSTOP) while process 0 makes them, so it wakes to a snapshot past them.
    fleet.members[1].kill('SIGSTOP');
    try {
      await clients[0].queue({ queueName: 'snap-q' }).upsert({ parallelism: 2 });
      await clients[0].publish({ url: `${ledger.url}/snap`, body: 'k', flowControl: { key: 'snap-key', parallelism: 3 } });
    } finally {
      fleet.members[1].kill('SIGCONT');
    }
    await eventually(async () => (await clients[1].queue({ queueName: 'snap-q' }).get()).parallelism === 2, 'the queue seen by process 1');
    await eventually(async () => (await clients[1].flowControl.get('snap-key')).parallelismMax === 3, 'the key seen by process 1');
    await clients[1].queue({ queueName: 'snap-q' }).pause();
    await eventually(async () => (await clients[0].queue({ queueName: 'snap-q' }).get()).paused === true, 'the pause seen by process 0');
    await clients[1].queue({ queueName: 'snap-q' }).resume();
    await clients[1].queue({ queueName: 'snap-q' }).enqueue({ url: `${ledger.url}/snap-q`, body: 'q' });
    await eventually(async () => ledger.at('/snap-q').some((a) => a.answered), 'the enqueued message delivered');
    await eventually(async () => ledger.at('/snap').some((a) => a.answered), 'the keyed message delivered');
    assert.equal((await clients[0].queue({ queueName: 'snap-q' }).get()).paused, false);
  });
});
