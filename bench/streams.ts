// The streams workload: Larder's stream topics (the Upstash Kafka REST API at /kafka/<cluster>)
// on Bun and on Node, with Bun as the reference. Per round and system: produce of 100-byte
// messages in batches of 1, 100 and 1000 (messages/s and request latency, from 8 concurrent
// producers; a produce is answered once on disk, and concurrent produces share one fdatasync),
// fetch throughput (4 readers walking the produced messages, up to 1000 per fetch), and
// produce-to-consume latency: one message every 10 ms, read by a consumer long-polling /fetch.

import { performance } from 'node:perf_hooks';
import { closedLoop, postJson, type LoopResult } from './http-load.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';
import { quantile, Summary, type Figure } from './summary.js';

export interface StreamsOptions {
  /** Measured seconds of each figure. */
  readonly seconds: number;
  readonly warmup: number;
  readonly rounds: number;
}

interface Cluster {
  readonly system: string;
  readonly server: LarderServer;
  readonly url: string;
  readonly headers: Record<string, string>;
}

interface Metadata {
  readonly offset?: number;
  readonly error?: string;
}

const REFERENCE = 'Larder (bun)';
const BATCHES = [1, 100, 1000];
const PRODUCERS = 8;
const READERS = 4;
const VALUE = 'm'.repeat(100);
const E2E_INTERVAL_MS = 10;
const TOPIC = 'bench';
const E2E_TOPIC = 'bench-e2e';

const fig = (name: string, unit: string): Figure => ({ name, unit });

export async function benchStreams(root: string, opts: StreamsOptions): Promise<Summary> {
  const title = `Streams: ${opts.seconds} s per figure, ${opts.rounds} round(s), ${PRODUCERS} producers, ${READERS} fetchers`;
  const summary = new Summary(title, REFERENCE);
  const clusters: Cluster[] = [];
  try {
    for (const [runtime, path] of [['bun', bunPath(root)], ['node', process.execPath]]) {
      process.stderr.write(`streams: starting Larder on ${runtime}\n`);
      const server = await startLarder(root, path, runtime);
      const env = server.env;
      const auth = Buffer.from(`${env.UPSTASH_KAFKA_REST_USERNAME}:${env.UPSTASH_KAFKA_REST_PASSWORD}`).toString('base64');
      const cluster = { system: `Larder (${runtime})`, server, url: env.UPSTASH_KAFKA_REST_URL, headers: { authorization: `Basic ${auth}` } };
      clusters.push(cluster);
      for (const topic of [TOPIC, E2E_TOPIC]) await postJson(`${cluster.url}/create-topic/${topic}`, cluster.headers, { partitions: 1 });
    }
    for (let round = 1; round <= opts.rounds; round++) {
      for (const c of clusters) {
        process.stderr.write(`streams: round ${round}/${opts.rounds}: ${c.system}\n`);
        if (round === 1 && opts.warmup > 0) await closedLoop(PRODUCERS, opts.warmup, () => produce(c, 100));
        for (const batch of BATCHES) {
          const r = await closedLoop(PRODUCERS, opts.seconds, () => produce(c, batch));
          record(summary, c.system, `produce, batch of ${batch}`, r);
        }
        const end = await endOffset(c, TOPIC);
        readAt.clear();
        const r = await closedLoop(READERS, opts.seconds, (reader) => fetchFrom(c, reader, end));
        summary.add(c.system, fig('fetch', 'msg/s'), r.units / r.seconds, r.errors);
        if (r.errors > 0) summary.notes.push(`${c.system}, fetch: ${r.firstError}`);
        await endToEnd(summary, c, opts.seconds);
      }
    }
  } finally {
    for (const c of clusters) await c.server.stop();
  }
  summary.notes.push('The load runs in the bench\'s own Node process (fetch), on the same two cores as the server.');
  return summary;
}

function record(summary: Summary, system: string, name: string, r: LoopResult): void {
  summary.add(system, fig(name, 'msg/s'), r.units / r.seconds, r.errors);
  summary.add(system, fig(`${name} p50`, 'ms'), quantile(r.latenciesMs, 0.5), r.errors);
  summary.add(system, fig(`${name} p99`, 'ms'), quantile(r.latenciesMs, 0.99), r.errors);
  if (r.errors > 0) summary.notes.push(`${system}, ${name}: ${r.firstError}`);
}

/** One produce request of `batch` messages; checks one Metadata came back per message. */
async function produce(c: Cluster, batch: number): Promise<number> {
  const body = batch === 1 ? { value: VALUE } : Array.from({ length: batch }, () => ({ value: VALUE }));
  const answer = (await postJson(`${c.url}/produce/${TOPIC}`, c.headers, body)) as Metadata[];
  if (!Array.isArray(answer) || answer.length !== batch || answer.some((m) => typeof m.offset !== 'number')) {
    throw new Error(`produce of ${batch} answered ${JSON.stringify(answer).slice(0, 120)}`);
  }
  return batch;
}

const readAt = new Map<number, number>();

/** Reader `reader` fetches from where it stopped, each reader starting at its share of the topic. */
async function fetchFrom(c: Cluster, reader: number, end: number): Promise<number> {
  const at = readAt.get(reader) ?? Math.floor((reader * end) / READERS);
  const answer = (await postJson(`${c.url}/fetch`, c.headers, { topic: TOPIC, partition: 0, offset: at, timeout: 0 })) as Metadata[];
  if (!Array.isArray(answer) || answer.length === 0 || answer[0].offset !== at) throw new Error(`fetch at ${at} answered ${JSON.stringify(answer).slice(0, 120)}`);
  const next = at + answer.length;
  readAt.set(reader, next >= end ? 0 : next);
  return answer.length;
}

/** A message every E2E_INTERVAL_MS, each carrying its send time, read by a long-polling fetch. */
async function endToEnd(summary: Summary, c: Cluster, seconds: number): Promise<void> {
  let next = await endOffset(c, E2E_TOPIC);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const stopAt = performance.now() + seconds * 1000;
  const producer = (async () => {
    while (performance.now() < stopAt) {
      await postJson(`${c.url}/produce/${E2E_TOPIC}`, c.headers, { value: String(performance.now()) }).then(
        () => sent++,
        () => errors++,
      );
      await new Promise((resolve) => setTimeout(resolve, E2E_INTERVAL_MS));
    }
  })();
  const consumer = (async () => {
    // Until every message sent has arrived, or a second after the producer stopped.
    while (performance.now() < stopAt + 1000 && (performance.now() < stopAt || latencies.length < sent)) {
      try {
        const answer = (await postJson(`${c.url}/fetch`, c.headers, { topic: E2E_TOPIC, partition: 0, offset: next, timeout: 1000 })) as { value: string }[];
        const now = performance.now();
        for (const m of answer) latencies.push(now - Number(m.value));
        next += answer.length;
      } catch {
        errors++;
      }
    }
  })();
  await Promise.all([producer, consumer]);
  latencies.sort((a, b) => a - b);
  const lost = Math.max(0, sent - latencies.length);
  summary.add(c.system, fig('produce-to-consume p50', 'ms'), quantile(latencies, 0.5), errors + lost);
  summary.add(c.system, fig('produce-to-consume p99', 'ms'), quantile(latencies, 0.99), errors + lost);
}

async function endOffset(c: Cluster, topic: string): Promise<number> {
  const answer = (await postJson(`${c.url}/offsets/latest`, c.headers, { topic, partition: 0 })) as { offset: number }[] | { offset: number };
  return (Array.isArray(answer) ? answer[0] : answer).offset;
}
