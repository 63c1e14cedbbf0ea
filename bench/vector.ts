// The vector workload: Larder's vector index over HTTP (on Bun, the default COSINE index) against
// its ANN graph (src/vector/engine/ann.ts: usearch with Larder's parameters, M 16,
// efConstruction 128, ef 100) called directly in this process: the ceiling without HTTP, JSON,
// metadata and storage. Per system: upsert throughput (batches of 1000; once, as a graph is
// built once), then per round query QPS and recall@10 against the exact answers, unfiltered and
// with a metadata filter that keeps 1% of the vectors (Larder answers so selective a filter by
// an exact scan; the graph alone over-fetches and filters, as it does for filters of 5% and more).

import { performance } from 'node:perf_hooks';
import { HnswAnn } from '../src/vector/engine/ann.js';
import { closedLoop, postJson } from './http-load.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';
import { BUCKETS, dataset, FILTER, FILTER_BUCKET, K, recall, type Dataset } from './vector-data.js';
import { Summary, type Figure } from './summary.js';

export interface VectorOptions {
  readonly vectors: number;
  readonly queries: number;
  /** Measured seconds of each query figure. */
  readonly seconds: number;
  readonly rounds: number;
}

const DIM = 128;
const BATCH = 1000;
export const CLIENTS = 4; // concurrent HTTP queries
const LARDER = 'Larder (bun), HTTP';
const DIRECT = 'ANN graph (usearch), in-process';

const fig = (name: string, unit: string): Figure => ({ name, unit });
const F = {
  upsert: fig('upsert, batches of 1000', 'vectors/s'),
  query: fig('query topK 10', 'queries/s'),
  recall: fig('query recall@10', 'recall'),
  filtered: fig('filtered query (1%)', 'queries/s'),
  filteredRecall: fig('filtered query recall@10', 'recall'),
};

interface Index {
  readonly url: string;
  readonly headers: Record<string, string>;
}

export async function benchVector(root: string, opts: VectorOptions): Promise<Summary> {
  const title = `Vector: ${opts.vectors.toLocaleString('en-US')} vectors of ${DIM} dimensions (clustered, COSINE), ${opts.queries} distinct queries, ${opts.seconds} s per query figure, ${opts.rounds} round(s)`;
  const summary = new Summary(title, DIRECT);
  process.stderr.write(`vector: generating ${opts.vectors} vectors and the exact answers\n`);
  const data = dataset(opts.vectors, DIM, opts.queries);
  let server: LarderServer | undefined;
  try {
    process.stderr.write('vector: starting Larder on bun\n');
    server = await startLarder(root, bunPath(root), 'bun');
    const index = { url: server.env.UPSTASH_VECTOR_REST_URL, headers: { authorization: `Bearer ${server.env.UPSTASH_VECTOR_REST_TOKEN}` } };
    // The graph is built in this process before the HTTP load: built in between, it would block
    // the event loop for longer than Bun keeps an idle connection open, and the client would
    // reuse a socket the server had closed.
    process.stderr.write('vector: building the ANN graph in process\n');
    const direct = buildDirect(summary, data);
    process.stderr.write('vector: upserting over HTTP\n');
    await upsertLarder(summary, index, data);
    for (let round = 1; round <= opts.rounds; round++) {
      process.stderr.write(`vector: round ${round}/${opts.rounds}\n`);
      await queryLarder(summary, index, data, opts.seconds, false);
      await queryDirect(summary, direct, data, opts.seconds, false);
      await queryLarder(summary, index, data, opts.seconds, true);
      await queryDirect(summary, direct, data, opts.seconds, true);
    }
  } finally {
    await server?.stop();
  }
  summary.notes.push(`HTTP queries come from ${CLIENTS} concurrent clients in the bench's Node process; the ANN graph runs on one thread of it.`);
  return summary;
}

async function upsertLarder(summary: Summary, index: Index, data: Dataset): Promise<void> {
  const start = performance.now();
  let errors = 0;
  for (let from = 0; from < data.vectors.length; from += BATCH) {
    const batch = data.vectors.slice(from, from + BATCH).map((vector, j) => ({ id: String(from + j), vector, metadata: { bucket: (from + j) % BUCKETS } }));
    const answer = (await postJson(`${index.url}/upsert`, index.headers, batch).catch(() => null)) as { result?: string } | null;
    if (answer?.result !== 'Success') errors++;
  }
  summary.add(LARDER, F.upsert, data.vectors.length / ((performance.now() - start) / 1000), errors);
}

function buildDirect(summary: Summary, data: Dataset): HnswAnn {
  const start = performance.now();
  const index = new HnswAnn('COSINE', data.dim);
  // By batches, as an upsert request's vectors go in.
  for (let first = 0; first < data.vectors.length; first += BATCH) {
    const batch = data.vectors.slice(first, first + BATCH);
    index.addMany(batch.map((_, j) => first + j), batch.map((v) => Float32Array.from(v)));
  }
  summary.add(DIRECT, F.upsert, data.vectors.length / ((performance.now() - start) / 1000));
  return index;
}

async function queryLarder(summary: Summary, index: Index, data: Dataset, seconds: number, filtered: boolean): Promise<void> {
  const recalls: number[] = [];
  let next = 0;
  const r = await closedLoop(CLIENTS, seconds, async () => {
    const q = next++ % data.queries.length;
    const body = { vector: data.queries[q], topK: K, ...(filtered ? { filter: FILTER } : {}) };
    const answer = (await postJson(`${index.url}/query`, index.headers, body)) as { result?: { id: string }[] };
    if (!Array.isArray(answer.result)) throw new Error(`query answered ${JSON.stringify(answer).slice(0, 120)}`);
    const ids = answer.result.map((m) => Number(m.id));
    if (filtered && ids.some((id) => id % BUCKETS !== FILTER_BUCKET)) throw new Error('a filtered query answered a vector the filter excludes');
    recalls.push(recall(ids, (filtered ? data.filteredTruth : data.truth)[q]));
    return 1;
  });
  summary.add(LARDER, filtered ? F.filtered : F.query, r.units / r.seconds, r.errors);
  summary.add(LARDER, filtered ? F.filteredRecall : F.recall, mean(recalls), r.errors);
  if (r.errors > 0) summary.notes.push(`${LARDER}: ${r.firstError}`);
}

async function queryDirect(summary: Summary, index: HnswAnn, data: Dataset, seconds: number, filtered: boolean): Promise<void> {
  const recalls: number[] = [];
  const queries = data.queries.map((q) => Float32Array.from(q));
  const keep = (label: number) => label % BUCKETS === FILTER_BUCKET;
  const start = performance.now();
  const end = start + seconds * 1000;
  let done = 0;
  while (performance.now() < end) {
    const q = done % data.queries.length;
    // The graph's own order, without the exact scoring Larder adds: its first K candidates.
    const found = (filtered ? index.search(queries[q], K, keep) : index.search(queries[q], K)).slice(0, K);
    recalls.push(recall(found, (filtered ? data.filteredTruth : data.truth)[q]));
    done++;
  }
  summary.add(DIRECT, filtered ? F.filtered : F.query, done / ((performance.now() - start) / 1000));
  summary.add(DIRECT, filtered ? F.filteredRecall : F.recall, mean(recalls));
  // Lets the HTTP client see what its sockets received while the loop above held the thread.
  await new Promise((resolve) => setImmediate(resolve));
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}
