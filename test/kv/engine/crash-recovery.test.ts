// Kill -9 during a write load under `fsync: always`, restart on the same data dir, and check
// that every acknowledged write is there with its latest acknowledged value. Each key is
// written by one worker only, so its writes are ordered; the one write in flight when the
// server died may or may not have landed, so a key holds its last acknowledged value or that
// in-flight one. Bounded: a fixed number of workers and requests, two crash rounds.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnLarder } from '../../support/larder-process.js';
import { kvClient, type KvClient } from '../../support/larder.js';

const WORKERS = 8;
const KEYS_PER_WORKER = 40;
const MAX_REQUESTS_PER_WORKER = 1000;
const ROUNDS = 2;

interface KeyState {
  /** The last value the server acknowledged, null if never written. */
  acked: string | null;
  /** A value sent without an answer yet. */
  inFlight: string | null;
}

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function connect(dataDir: string) {
  const p = await spawnLarder({ config: { kv: { fsync: 'always' } }, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('kv crash recovery', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-crash-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every acknowledged write across kill -9 under fsync always', async (t) => {
    const seed = Date.now() % 1_000_000;
    t.diagnostic(`seed ${seed}`);
    const rand = random(seed);
    const keys = new Map<string, KeyState>();
    for (let w = 0; w < WORKERS; w++) {
      for (let j = 0; j < KEYS_PER_WORKER; j++) keys.set(`k${w}:${j}`, { acked: null, inFlight: null });
    }

    for (let round = 0; round < ROUNDS; round++) {
      const { p, client } = await connect(dataDir);
      const killAfter = 150 + Math.floor(rand() * 300);
      let acks = 0;
      let failed = 0;
      let killed = false;
      const worker = async (w: number) => {
        for (let n = 0; n < MAX_REQUESTS_PER_WORKER; n++) {
          // One in four requests is a pipeline of three writes to distinct keys.
          const count = rand() < 0.25 ? 3 : 1;
          const first = Math.floor(rand() * KEYS_PER_WORKER);
          const writes = Array.from({ length: count }, (_, i) => {
            const key = `k${w}:${(first + i) % KEYS_PER_WORKER}`;
            return [key, `r${round}w${w}n${n}i${i}`] as const;
          });
          for (const [key, value] of writes) keys.get(key)!.inFlight = value;
          try {
            await send(client, writes);
          } catch {
            failed++;
            return;
          }
          for (const [key, value] of writes) keys.set(key, { acked: value, inFlight: null });
          acks += count;
          if (acks >= killAfter && !killed) {
            killed = true;
            p.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      const exit = await p.exited;
      assert.equal(exit.signal, 'SIGKILL', 'the server was killed, not stopped');
      assert.ok(failed > 0, 'the load was still running when the server died');
      t.diagnostic(`round ${round}: killed after ${acks} acknowledged writes`);

      const restarted = await connect(dataDir);
      for (const [key, state] of keys) {
        const { status, body } = await restarted.client.command(['get', key]);
        assert.equal(status, 200);
        const allowed = [state.acked, state.inFlight].filter((v) => v !== null);
        if (state.inFlight === null) assert.equal(body.result, state.acked, `${key} after round ${round}`);
        else assert.ok([state.acked, state.inFlight].includes(body.result), `${key}: ${body.result} not in ${allowed.join(', ')}`);
        // What the restarted server holds is now the truth the next round starts from.
        keys.set(key, { acked: body.result, inFlight: null });
      }
      const stopped = await restarted.p.stop('SIGTERM');
      assert.equal(stopped.code, 0);
    }
  });
});

/** Sends one SET, or a pipeline of them; resolves only when every write is acknowledged. */
async function send(client: KvClient, writes: readonly (readonly [string, string])[]): Promise<void> {
  if (writes.length === 1) {
    const { status, body } = await client.command(['set', ...writes[0]]);
    if (status !== 200 || body.result !== 'OK') throw new Error(`SET answered ${status} ${JSON.stringify(body)}`);
    return;
  }
  const res = await client.request('/pipeline', { method: 'POST', body: JSON.stringify(writes.map((w) => ['set', ...w])) });
  const body = (await res.json()) as { result?: unknown }[];
  if (res.status !== 200 || !body.every((r) => r.result === 'OK')) throw new Error(`pipeline answered ${res.status}`);
}
