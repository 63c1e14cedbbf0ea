// Vectors overwritten and deleted again and again keep their exact values: a namespace packs
// its vectors in chunks and moves the live ones out of a chunk that churn has half emptied
// (src/vector/engine/vector-slab.ts), and its ids in one array of code units, moved when removed
// ids leave it half empty (id-table.ts): ids of every shape (astral characters, a lone surrogate,
// ids longer than one String.fromCharCode call) must come back exactly and in order. Checked
// against a plain map of what was written, through the SDK: ranges (whole and by prefix),
// queries (graph and exact scan), and again after a restart, with compactions running in the
// background all along.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Rng } from '../kv/differential/prng.js';
import { startTestLarder } from '../support/larder.js';
import { vectorClient } from '../support/vector-sdk.js';

const DIM = 8;

/** The shortest decimal that reads back as the same float32, as the service prints. */
function shortest(x: number): number {
  const f = Math.fround(x);
  for (let p = 1; p < 9; p++) if (Math.fround(Number(f.toPrecision(p))) === f) return Number(f.toPrecision(p));
  return Number(f.toPrecision(9));
}

describe('vector churn', () => {
  it('keeps every vector exact through overwrites, deletes, compactions and a restart', async () => {
    const seed = Number(process.env.LARDER_TEST_SEED ?? Date.now() % 1e6);
    const rng = new Rng(seed); // seeded, so a failure reproduces
    const config = { vector: { compactAfterBytes: 64 * 1024, indexes: { default: { dimension: DIM } } } };
    const first = await startTestLarder(config);
    const written = new Map<string, number[]>();
    const vector = () => Array.from({ length: DIM }, () => shortest(rng.next() * 2 - 1));
    const shapes = [(n: string) => `n${n}`, (n: string) => `é🙂${n}`, (n: string) => `\ud800${n}`, (n: string) => `${'L'.repeat(4100)}${n}`];
    const newId = (round: number, i: number) => shapes[i % shapes.length](`${round}-${i}`);
    const check = async (ix: ReturnType<typeof vectorClient>, when: string) => {
      const got = await ix.range({ cursor: 0, limit: 5000, includeVectors: true });
      const ids = got.vectors.map((v) => String(v.id));
      assert.deepEqual(ids, [...written.keys()].sort(), `${when}: the ids in order, seed ${seed}`);
      const stored = new Map(got.vectors.map((v) => [v.id, v.vector]));
      const prefixed = await ix.range({ cursor: 0, limit: 5000, prefix: 'é🙂' });
      assert.deepEqual(prefixed.vectors.map((v) => String(v.id)), ids.filter((id) => id.startsWith('é🙂')), `${when}: a range by prefix, seed ${seed}`);
      for (const [id, v] of written) assert.deepEqual(stored.get(id), v, `${when}: vector ${id}, seed ${seed}`);
      const q = vector();
      const [hit] = await ix.query({ vector: q, topK: 1, includeVectors: true });
      const best = written.get(String(hit.id))!;
      assert.deepEqual(hit.vector, best, `${when}: the query's best, seed ${seed}`);
      // COSINE scores are (1 + cosine) / 2: the score must come from the vector stored for that id.
      const norm = (v: number[]) => Math.hypot(...v);
      const cosine = q.reduce((s, x, i) => s + x * best[i], 0) / (norm(q) * norm(best));
      assert.ok(Math.abs(hit.score - (1 + cosine) / 2) < 1e-5, `${when}: score ${hit.score} for cosine ${cosine}, seed ${seed}`);
    };
    try {
      const ix = vectorClient(first);
      for (let round = 0; round < 12; round++) {
        // New ids, overwrites of live ones, and deletes, so chunks empty out unevenly.
        const batch = new Map<string, number[]>();
        for (let i = 0; i < 150; i++) batch.set(newId(round, i), vector());
        const live = [...written.keys()];
        for (const id of live) if (rng.next() < 0.3) batch.set(id, vector());
        await ix.upsert([...batch].map(([id, v]) => ({ id, vector: v })));
        for (const [id, v] of batch) written.set(id, v);
        const gone = live.filter(() => rng.next() < 0.35);
        if (gone.length > 0) assert.equal((await ix.delete(gone)).deleted, gone.length);
        for (const id of gone) written.delete(id);
        await check(ix, `round ${round}`);
      }
      await first.close(true);
      const second = await startTestLarder(config, first.dataDir);
      try {
        await check(vectorClient(second), 'after a restart');
      } finally {
        await second.close(true);
      }
    } finally {
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
