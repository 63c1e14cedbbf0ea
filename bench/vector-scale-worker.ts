// The hnswlib-node side of the vector scale workload, on a worker thread of the bench process:
// growing the graph by hundreds of thousands of points takes minutes, and on the main thread it
// would stall the HTTP client's event loop for longer than Bun keeps an idle connection open
// (the client would then reuse a socket the server had closed). The worker reads the vectors
// from the shared buffer and answers one message per request: grow the graph to a size, or run
// queries for a time. Larder's parameters: M 16, efConstruction 200, ef 100.

import hnswlib from 'hnswlib-node';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { K, recall } from './vector-data.js';
import { vectorAt } from './vector-scale-data.js';

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
const index = new hnswlib.HierarchicalNSW('cosine', dim);
index.initIndex({ maxElements: vectors.length / dim, m: 16, efConstruction: 200, randomSeed: 100 });
index.setEf(100);

parentPort!.on('message', (req: WorkerRequest) => {
  const start = performance.now();
  if (req.op === 'grow') {
    for (let i = index.getCurrentCount(); i < req.to; i++) index.addPoint(vectorAt({ dim, vectors }, i), i);
    parentPort!.postMessage({ seconds: (performance.now() - start) / 1000 } satisfies GrowAnswer);
    return;
  }
  const end = start + req.seconds * 1000;
  let done = 0;
  let sum = 0;
  while (performance.now() < end) {
    const q = done % queries.length;
    sum += recall(index.searchKnn(queries[q] as number[], K).neighbors, req.truth[q]);
    done++;
  }
  parentPort!.postMessage({ seconds: (performance.now() - start) / 1000, done, recall: sum / done } satisfies QueryAnswer);
});
