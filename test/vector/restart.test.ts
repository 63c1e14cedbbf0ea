// A vector index comes back after a restart without re-upserting: from its log replayed, or
// from a snapshot and the log after it; and a kill -9 during upserts loses no acknowledged
// vector.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Index } from '@upstash/vector';
import { Rng } from '../kv/differential/prng.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';
import { spawnLarder } from '../support/larder-process.js';
import { vectorClient } from '../support/vector-sdk.js';

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** The shortest decimal that reads back as the same float32, as the service prints. */
function shortest(f: number): number {
  for (let p = 1; p < 9; p++) if (Math.fround(Number(f.toPrecision(p))) === f) return Number(f.toPrecision(p));
  return Number(f.toPrecision(9));
}

const WAYS = [
  { how: 'replayed from the log', config: {}, snapshot: false },
  // Compacting after every byte puts the writes into a snapshot.
  { how: 'loaded from a snapshot', config: { vector: { compactAfterBytes: 1 } }, snapshot: true },
];

async function state(t: TestLarder) {
  const ix = vectorClient(t);
  const namespaces = (await ix.listNamespaces()).sort();
  const out: Record<string, unknown> = { info: await ix.info(), namespaces };
  for (const ns of namespaces) {
    out[`range:${ns}`] = await ix.namespace(ns).range({ cursor: 0, limit: 100, includeVectors: true, includeMetadata: true, includeData: true });
    out[`query:${ns}`] = await ix.namespace(ns).query({ vector: [0.5, 0.5, 0.1], topK: 3, filter: 'n >= 1' });
  }
  delete (out.info as { indexSize?: number }).indexSize;
  return out;
}

describe('vector restart', () => {
  for (const way of WAYS) {
    it(`restores every namespace, vector, metadata and the dimension, ${way.how}`, async () => {
      const first = await startTestLarder(way.config);
      const ix = vectorClient(first);
      const withData = { id: 'd', vector: [0.3, 0.3, 0.3], data: 'text', metadata: { n: 3 } } as { id: string; vector: number[] };
      await ix.upsert([{ id: 'a', vector: [0.1, 0.2, 0.3], metadata: { n: 1 } }, { id: 2, vector: [0.9, 0.1, 0.1], metadata: { n: 2 } }, withData]);
      await ix.upsert({ id: 'x', vector: [1, 1, 1], metadata: { n: 9 } }, { namespace: 'other' });
      await ix.upsert({ id: 'gone', vector: [1, 0, 0] }, { namespace: 'other' });
      await ix.delete('gone', { namespace: 'other' });
      await ix.update({ id: 'a', metadata: { extra: true }, metadataUpdateMode: 'PATCH' });
      await ix.upsert({ id: 'y', vector: [0, 1, 0] }, { namespace: 'dropped' });
      await ix.deleteNamespace('dropped');
      await ix.upsert({ id: 'z', vector: [0, 1, 0] }, { namespace: 'was' });
      await ix.namespace('was').reset();
      const before = await state(first);
      await first.close(true);
      const files = readdirSync(join(first.dataDir, 'vector', 'default'));
      assert.equal(files.some((f) => f.startsWith('snapshot-')), way.snapshot, files.join(' '));

      const second = await startTestLarder(way.config, first.dataDir);
      try {
        assert.deepEqual(await state(second), before);
        const again = vectorClient(second);
        // The dimension the first upsert fixed survives, and writes go on.
        await assert.rejects(again.upsert({ id: 'bad', vector: [1, 2] }), /Invalid vector dimension: 2, expected: 3/);
        await again.upsert({ id: 'new', vector: [0.2, 0.2, 0.2] });
        assert.deepEqual((await again.range({ cursor: 0, limit: 10 })).vectors.map((v) => v.id), ['2', 'a', 'd', 'new']);
      } finally {
        await second.close(true);
        rmSync(first.dataDir, { recursive: true, force: true });
      }
    });
  }

  it('compacts its log, so deleted and overwritten vectors leave the disk', async () => {
    const t = await startTestLarder({ vector: { compactAfterBytes: 256 * 1024, indexes: { default: { dimension: 64 } } } });
    try {
      const ix = vectorClient(t);
      const vec = (i: number, v: number) => Array.from({ length: 64 }, (_, j) => Math.sin(i * 64 + j + v));
      for (let b = 0; b < 6; b++) await ix.upsert(Array.from({ length: 500 }, (_, i) => ({ id: `v${b * 500 + i}`, vector: vec(b * 500 + i, 0) })));
      const big = dirBytes(join(t.dataDir, 'vector', 'default'));
      assert.deepEqual(await ix.delete({ filter: 'HAS NOT FIELD keep' }), { deleted: 3000 });
      // Overwriting a few vectors again and again grows the log until it outweighs the snapshot.
      for (let round = 1; round <= 40; round++) await ix.upsert(Array.from({ length: 100 }, (_, i) => ({ id: `k${i}`, vector: vec(i, round), metadata: { keep: true } })));
      const small = dirBytes(join(t.dataDir, 'vector', 'default'));
      assert.ok(small < big / 2, `${small} bytes after compaction, ${big} before`);
      assert.equal((await ix.info()).vectorCount, 100);
      assert.deepEqual((await ix.fetch(['k7'], { includeVectors: true }))[0]?.vector, vec(7, 40).map((x) => shortest(Math.fround(x))));
    } finally {
      await t.close();
    }
  });

  for (const way of WAYS) {
    it(`loads the graphs a clean stop saved instead of rebuilding them, ${way.how}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'larder-vector-graph-'));
      const dir = join(dataDir, 'vector', 'default');
      try {
        const config = { ...way.config, vector: { ...(way.config as { vector?: object }).vector, indexes: { default: { dimension: 8 } } } };
        const client = (p: { info: { indexes: ReadonlyMap<string, { url: string; token: string }> } }) => {
          const c = p.info.indexes.get('default')!;
          return new Index({ url: c.url, token: c.token, retry: false, enableTelemetry: false });
        };
        const answers = async (ix: Index) => [
          await ix.query({ vector: [1, 0, 0, 0, 0, 0, 0, 1], topK: 10 }),
          await ix.namespace('ns').query({ vector: [0, 1, 0, 0, 0, 0, 1, 0], topK: 10, filter: 'i > 100' }),
          await ix.range({ cursor: 0, limit: 1000 }),
        ];
        const first = await spawnLarder({ config, dataDir });
        const ix = client(first);
        // Random over all 8 dimensions: sin(i * 8 + j) lay on one circle of a plane, where the
        // graph's half-precision scores tie among dozens of neighbours and any ten of them do.
        const vec = (i: number) => {
          const rng = new Rng(i);
          return Array.from({ length: 8 }, () => rng.next() - 0.5);
        };
        for (const ns of ['', 'ns']) {
          for (let b = 0; b < 3; b++) await ix.namespace(ns).upsert(Array.from({ length: 300 }, (_, i) => ({ id: `v${b * 300 + i}`, vector: vec(b * 300 + i), metadata: { i: b * 300 + i } })));
          await ix.namespace(ns).delete({ filter: 'i < 50' });
          await ix.namespace(ns).upsert({ id: 'v60', vector: vec(9999), metadata: { i: 60 } });
        }
        const before = await answers(ix);
        assert.equal((await first.stop()).code, 0);
        const saved = readdirSync(dir);
        assert.equal(saved.filter((f) => /^graph-\d{20}-\d+\.hnsw$/.test(f)).length, 2, saved.join(' '));
        assert.ok(saved.includes('graphs.json'));

        const second = await spawnLarder({ config, dataDir });
        assert.deepEqual(await answers(client(second)), before, 'the saved graph answers as before');
        assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('graph')), [], 'the cache is consumed at start');
        assert.equal((await second.stop()).code, 0);
        assert.doesNotMatch(second.stderr(), /graph unreadable/);

        // A damaged graph is noticed and rebuilt from the stored vectors. The rebuilt graph is
        // another graph (the first was grown on every core, where each point lands by the
        // threads' timing), so its approximate answers may differ in a neighbour or two.
        const graph = readdirSync(dir).find((f) => f.endsWith('.hnsw'))!;
        writeFileSync(join(dir, graph), 'not a graph');
        const third = await spawnLarder({ config, dataDir });
        const rebuilt = async (p: typeof third) => {
          const [plain, filtered, range] = await answers(client(p));
          assert.deepEqual(range, before[2]);
          for (const [got, was] of [[plain, before[0]], [filtered, before[1]]] as const) {
            const ids = new Set((was as { id: string | number }[]).map((h) => h.id));
            assert.equal((got as unknown[]).length, (was as unknown[]).length);
            assert.ok((got as { id: string | number }[]).filter((h) => ids.has(h.id)).length >= 8, 'the rebuilt graph finds the same neighbours but for one or two');
          }
        };
        await rebuilt(third);
        assert.equal((await third.stop()).code, 0);
        assert.match(third.stderr(), /saved vector graph unreadable/);

        // A graph saved in another build's format (graphs.json says which) is rebuilt, not loaded:
        // damaged here, so loading it would be heard.
        const marker = join(dir, 'graphs.json');
        writeFileSync(marker, JSON.stringify({ ...JSON.parse(readFileSync(marker, 'utf8')), format: 2 }));
        writeFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.hnsw'))!), 'not a graph');
        const fourth = await spawnLarder({ config, dataDir });
        await rebuilt(fourth);
        assert.equal((await fourth.stop()).code, 0);
        assert.doesNotMatch(fourth.stderr(), /graph unreadable/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('keeps every acknowledged vector across a kill -9 during upserts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'larder-vector-kill-'));
    try {
      const config = { vector: { indexes: { default: { dimension: 4 } } } };
      const p = await spawnLarder({ config, dataDir });
      const c = p.info.indexes.get('default')!;
      const ix = new Index({ url: c.url, token: c.token, retry: false, enableTelemetry: false });
      const acked: string[] = [];
      let killed = false;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !killed; i++) {
          const batch = Array.from({ length: 20 }, (_, j) => ({ id: `w${w}-${i}-${j}`, vector: [w, i, j, 1] }));
          try {
            await ix.upsert(batch);
            acked.push(...batch.map((b) => b.id));
          } catch {
            return;
          }
        }
      });
      while (acked.length < 2000) await new Promise((r) => setTimeout(r, 5));
      killed = true;
      p.kill('SIGKILL');
      await Promise.all(writers);
      await p.exited;

      const q = await spawnLarder({ config, dataDir });
      try {
        const d = q.info.indexes.get('default')!;
        const again = new Index({ url: d.url, token: d.token, retry: false, enableTelemetry: false });
        const found = new Set<string>();
        for (let i = 0; i < acked.length; i += 1000) {
          for (const r of await again.fetch(acked.slice(i, i + 1000))) if (r !== null) found.add(String(r.id));
        }
        assert.equal(acked.filter((id) => !found.has(id)).length, 0, 'acknowledged vectors lost');
        const top = await again.query({ vector: [1, 2, 3, 1], topK: 1, includeVectors: true });
        assert.equal(top.length, 1);
        assert.equal(top[0].score, 1, JSON.stringify(top));
      } finally {
        await q.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
