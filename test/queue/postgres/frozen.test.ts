// Two Larder processes on one PostgreSQL queue; one is frozen (SIGSTOP) at a moment it holds the
// write lock, inside a change. The other's writes wait only until PostgreSQL ends the frozen
// session (queue.stalledWriterTimeoutMs), not until the frozen process resumes. Once it resumes,
// the requests of the change it was in answer 503 (not kept), it serves again, and every publish
// either process acknowledged is there.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres, { type Sql } from 'postgres';
import type { Client } from '@upstash/qstash';
import { LOCK } from '../../../src/queue/store/postgres/migrations.js';
import { tcpPortsOf } from '../../support/delivery-ledger.js';
import { eventually } from '../../support/eventually.js';
import { suiteFleet } from '../../support/queue-fleet.js';
import { postgresRunSkip, sharedPostgresUrl } from '../../support/queue-backend.js';

const STALL_MS = 1500;
/** Far beyond STALL_MS: a bound on the wait, so a failure does not hang the run. */
const GIVE_UP_MS = 30_000;
const A_DAY_S = 86_400;
const CONCURRENT = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Publishes to `client` from CONCURRENT loops until `stop` is called; the ids answered and the statuses refused. */
function publishLoad(client: Client, url: string) {
  const acknowledged: string[] = [];
  const refused: number[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        acknowledged.push((await client.publish({ url, body: 'load', delay: A_DAY_S })).messageId);
      } catch (e) {
        refused.push((e as { status?: number }).status ?? 0);
      }
    }
  };
  const loops = Array.from({ length: CONCURRENT }, loop);
  return {
    acknowledged,
    refused,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('queue on PostgreSQL: a process frozen inside a change', { skip: postgresRunSkip }, () => {
  const { fleet, ledger, clients } = suiteFleet(2, 5, { queue: { stalledWriterTimeoutMs: STALL_MS } });
  let sql: Sql;
  before(() => {
    sql = postgres(sharedPostgresUrl(), { max: 1, onnotice: () => undefined });
  });
  after(() => sql?.end());

  /** The client ports of the sessions holding a queue's write lock now. */
  const writeLockHolders = async () =>
    (
      await sql`select a.client_port from pg_locks l join pg_stat_activity a on a.pid = l.pid
                where l.locktype = 'advisory' and l.granted and l.classid = ${LOCK.writes}`
    ).map((r) => r.client_port as number);

  it('holds up the other process only until PostgreSQL ends the frozen session', async () => {
    const frozen = fleet.members[1];
    const load = publishLoad(clients[1], `${ledger.url}/load`);
    let other: string;
    try {
      for (let tries = 0; ; tries++) {
        assert.ok(tries < 500, 'process 1 was caught holding the write lock');
        frozen.kill('SIGSTOP');
        const ports = tcpPortsOf(frozen.child.pid!);
        if ((await writeLockHolders()).some((p) => ports.has(p))) break;
        frozen.kill('SIGCONT');
        await sleep(tries % 7);
      }
      const published = clients[0].publish({ url: `${ledger.url}/other`, body: 'meanwhile', delay: A_DAY_S });
      const gaveUp = sleep(GIVE_UP_MS).then(() => {
        throw new Error(`process 0 still waited for the frozen process's lock after ${GIVE_UP_MS} ms`);
      });
      other = (await Promise.race([published, gaveUp])).messageId;
    } finally {
      frozen.kill('SIGCONT');
    }
    const before = load.acknowledged.length;
    await eventually(async () => load.acknowledged.length > before + 50, 'process 1 serving again');
    await load.stop();
    assert.deepEqual([...new Set(load.refused)].filter((s) => s !== 503), [], 'refusals other than 503');
    assert.ok(load.refused.length > 0, 'the change the frozen process was in was refused');
    assert.equal((await clients[1].messages.get(other)).messageId, other);
    for (const id of load.acknowledged) assert.equal((await clients[0].messages.get(id)).messageId, id);
  });
});
