// The in-process side of the vector scale workload (Larder's ANN graph, src/vector/engine/ann.ts), on a worker thread of the bench process:
// growing the graph by hundreds of thousands of points takes minutes, and on the main thread it
// would stall the HTTP client's event loop for longer than Bun keeps an idle connection open
// (the client would then reuse a socket the server had closed). The worker reads the vectors
// from the shared buffer and answers one message per request: grow the graph to a size, or run
// queries for a time. Larder's parameters: M 16, efConstruction 128, a search breadth of 100 growing past 50k points; points go in by batches
// of 1000 on every core, as an upsert request's do.

import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { HnswAnn } from '../src/vector/engine/ann.js';
import { K, recall } from './vector-data.js';
import { BATCH } from './vector-scale-data.js';

export interface WorkerInput {
  readonly dim: number;
  readonly vectors: Float32Array;
  readonly queries: readonly number[][];
}

export type WorkerRequest = { readonly op: 'grow'; readonly to: number } | { readonly op: 'query'; readonly seconds: number; readonly truth: readonly number[][] };
/** The seconds growing took. */
export interface GrowAnswer {
  readonly seconds: number;
}
/** Queries done in `seconds`, and their mean recall@10. */
export interface QueryAnswer {
  readonly seconds: number;
  readonly done: number;
  readonly recall: number;
}

const { dim, vectors, queries } = workerData as WorkerInput;
const index = new HnswAnn('COSINE', dim);
const points = queries.map((q) => Float32Array.from(q));

parentPort!.on('message', (req: WorkerRequest) => {
  const start = performance.now();
  if (req.op === 'grow') {
    for (let first = index.size; first < req.to; first += BATCH) {
      const labels = Array.from({ length: Math.min(BATCH, req.to - first) }, (_, j) => first + j);
      index.addMany(labels, labels.map((i) => vectors.subarray(i * dim, (i + 1) * dim)));
    }
    parentPort!.postMessage({ seconds: (performance.now() - start) / 1000 } satisfies GrowAnswer);
    return;
  }
  const end = start + req.seconds * 1000;
  let done = 0;
  let sum = 0;
  while (performance.now() < end) {
    const q = done % queries.length;
    sum += recall(index.search(points[q], K).slice(0, K), req.truth[q]);
    done++;
  }
  parentPort!.postMessage({ seconds: (performance.now() - start) / 1000, done, recall: sum / done } satisfies QueryAnswer);
});
