// Several `larder start` processes serving one queue on PostgreSQL, as production runs them
// behind a load balancer: each its own data dir, all on one schema of the run's cluster
// (queue-backend.ts) with the same tokens and signing keys, so a client or a destination may
// talk to any of them. The processes run on TEST_RUNTIME. Only under `npm run test:postgres`
// (`postgresRunSkip`).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Client } from '@upstash/qstash';
import { startDeliveryLedger, type DeliveryLedger } from './delivery-ledger.js';
import { spawnLarder, type LarderProcess, type QueueCredentials, type Ready } from './larder-process.js';
import { standIn } from './larder.js';
import { queueClient } from './queue-receiver.js';
import { dropTestQueue, schemaOf } from './queue-backend.js';

export interface Fleet {
  /** The running processes, in start order; a killed one stays in place. */
  readonly members: readonly (LarderProcess & { readonly info: Ready })[];
  /** The queue credentials of member `i` (its URL; the tokens and keys every member shares). */
  queue(i: number): QueueCredentials;
  /** Stops every member still running, then drops the schema and the data dirs. */
  close(): Promise<void>;
}

const secret = () => randomBytes(18).toString('base64url');
/** A token shaped as the SDKs decode it: base64 of {"UserID", "Password"}. */
const token = (user: string) => Buffer.from(JSON.stringify({ UserID: user, Password: secret() })).toString('base64');

/** Starts `count` processes on one fresh schema with `config` (its queue part merged). */
export async function startFleet(count: number, config: Record<string, unknown> = {}): Promise<Fleet> {
  const root = mkdtempSync(join(tmpdir(), 'larder-fleet-'));
  const queue = {
    schema: schemaOf(root),
    token: token('fleet'),
    readOnlyToken: token('fleet-read'),
    currentSigningKey: `sig_${secret()}`,
    nextSigningKey: `sig_${secret()}`,
    ...(config.queue as object | undefined),
  };
  const members: (LarderProcess & { readonly info: Ready })[] = [];
  const close = async () => {
    await Promise.all(members.map((m) => m.stop('SIGTERM')));
    await dropTestQueue(root);
    rmSync(root, { recursive: true, force: true });
  };
  // All at once, as a deployment starts them: one applies the migrations while the others wait.
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => spawnLarder({ config: { ...config, queue }, dataDir: mkdtempSync(join(root, `member-${i}-`)) })),
  );
  for (const s of started) if (s.status === 'fulfilled') members.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return { members, queue: (i) => members[i].info.queue, close };
}

export interface FleetSuite {
  readonly fleet: Fleet;
  /** The destination, trusting the fleet's signing keys. */
  readonly ledger: DeliveryLedger;
  /** An SDK client of each member, in start order. */
  readonly clients: readonly Client[];
}

/** A fleet of `count` and a ledger holding each attempt `holdMs`, started before the suite and stopped after it. */
export function suiteFleet(count: number, holdMs: number, config: Record<string, unknown> = {}): FleetSuite {
  let current: FleetSuite | undefined;
  before(async () => {
    const fleet = await startFleet(count, config);
    const q = fleet.queue(0);
    const ledger = await startDeliveryLedger({ current: q.currentSigningKey, next: q.nextSigningKey }, holdMs).catch(async (err: unknown) => {
      await fleet.close();
      throw err;
    });
    current = { fleet, ledger, clients: fleet.members.map((_, i) => queueClient(fleet.queue(i))) };
  });
  after(async () => {
    await current?.fleet.close();
    await current?.ledger.close();
  });
  return { fleet: standIn(() => current?.fleet), ledger: standIn(() => current?.ledger), clients: standIn(() => current?.clients) };
}
