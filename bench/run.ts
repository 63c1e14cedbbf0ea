// `npm run bench`: runs the workloads named on the command line, all of them by default, prints
// each one's tables and writes them, with the machine's facts, into docs/benchmarks.md between
// that workload's markers (bench/doc-section.ts).
//   kv        GET, SET and /pipeline over HTTP against bare servers, webdis and redis-benchmark
//   families  sorted-set and list operations at 10k, 100k and 1M items (issue 4)
//   streams   produce in batches, fetch, produce-to-consume latency
//   vector    upsert, query QPS and recall@10, filtered query, against its ANN graph (usearch) called directly
//   queue     publish (single, batch of 100), deliveries/s, publish-to-delivery latency, 10% failing once,
//             CPU per message; embedded, and PostgreSQL with 1 and 2 processes; publish p99 during a
//             compaction of 59,100 pending messages (issue 20)
//   vector-scale  upsert rate, query QPS, recall@10 and memory at 10k, 100k and 1M vectors of 128 dimensions
//   workflow  @upstash/workflow steps/s with 8 runs at once, and the latency a step adds (issue 10)
//   search    Redis Search: JSON documents indexed/s, term/phrase/fuzzy/range/aggregate QPS and p99
//             at 10k and 100k documents against a full scan in-process, index memory (issue 23)
//   kv-scale  GET and SET p99 during a compaction of 2M keys, and memory per key against
//             redis-server for strings, small hashes and a sorted set (issue 20)
//   kv-calls  one call over N items and over 2N (XACK, XCLAIM, JSON.DEL, SEARCH.CREATE, a queue's
//             paged cancel, SETBITs on a bitmap): how its time grows (issue 20, at scale)
//
//   npm run bench -- [kv] [families] [streams] [vector] [queue] [vector-scale] [workflow] [search] [kv-scale] [kv-calls]
//                    [--warmup S] [--rounds N] [--threads N] [--connections N] [--doc PATH|none]
//                    [--duration S] [--only id,id]                                (kv)
//                    [--cell S] [--sizes N,N,N] [--modes engine,http] [--family-rounds N] (families)
//                    [--run-seconds S]             (streams, vector, queue, vector-scale, workflow)
//                    [--queue-pending N]                                          (queue)
//                    [--vectors N] [--queries N]                                  (vector)
//                    [--scale-sizes N,N,N] [--scale-queries N] [--scale-dim N] [--scale-direct-max N] (vector-scale)
//                    [--search-sizes N,N]                                         (search)
//                    [--compaction-keys N] [--memory-scale F]   (kv-scale; also --duration, --warmup, --rounds)
//                    [--calls-items N]                                            (kv-calls)
//
// Never part of `npm test`; test/bench/smoke.test.ts runs every workload for about a second.

import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeSection } from './doc-section.js';
import { benchFamilies, FAMILY_MODES } from './families.js';
import { benchKv } from './kv.js';
import { benchKvCalls } from './kv-calls.js';
import { benchKvScale } from './kv-scale.js';
import { factsText, loadText, machine } from './machine.js';
import { benchQueue } from './queue.js';
import { benchSearch } from './search.js';
import { benchStreams } from './streams.js';
import { benchVector } from './vector.js';
import { benchVectorScale } from './vector-scale.js';
import { benchWorkflow } from './workflow.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url)); // dist/bench
const ROOT = resolve(BENCH_DIR, '../..');
const WORKLOADS = ['kv', 'families', 'streams', 'vector', 'queue', 'vector-scale', 'workflow', 'search', 'kv-scale', 'kv-calls'];

// Defaults aim at a whole run under 15 minutes on two cores: about 12 to 13 at load average 2 to 5
// (18 at load 16 to 21; docs/benchmarks.md, "How long"). KV 2 s per run and 3 rounds; the
// families 1 s per cell, one round (three take about nine minutes); streams, vector, queue,
// vector-scale and workflow 2 s per measured figure, 3 rounds (3 s put the run at 15 to 16
// minutes); the vector issue's 100,000 vectors (--vectors 20000 when building two graphs of that
// size is too slow); vector-scale at 10k, 100k and 1M vectors of 128 dimensions (issue 20), its
// in-process graph only up to 100k (a second graph of 1M would take minutes more).
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '1' },
    threads: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    cell: { type: 'string', default: '1' },
    sizes: { type: 'string', default: '10000,100000,1000000' },
    modes: { type: 'string', default: FAMILY_MODES.join(',') },
    'family-rounds': { type: 'string', default: '1' },
    'run-seconds': { type: 'string', default: '2' },
    'queue-pending': { type: 'string', default: '59100' },
    vectors: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    'scale-sizes': { type: 'string', default: '10000,100000,1000000' },
    'scale-queries': { type: 'string', default: '100' },
    'scale-dim': { type: 'string', default: '128' },
    'scale-direct-max': { type: 'string', default: '100000' },
    'search-sizes': { type: 'string', default: '10000,100000' },
    doc: { type: 'string', default: 'docs/benchmarks.md' },
    'compaction-keys': { type: 'string', default: '2000000' },
    'memory-scale': { type: 'string', default: '1' },
    'calls-items': { type: 'string', default: '50000' },
  },
});

function positive(name: string, text: string, min: number, max = 600): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return n;
}

/** Seconds, fractions allowed (wrk's runs take whole seconds; the others need not). */
function seconds(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > 600) throw new Error(`--${name} must be a number of seconds from ${min} to 600, got '${text}'`);
  return n;
}

function oneOf(name: string, items: readonly string[], allowed: readonly string[]): readonly string[] {
  const unknown = items.find((item) => !allowed.includes(item));
  if (unknown !== undefined) throw new Error(`unknown ${name} '${unknown}'; one of: ${allowed.join(', ')}`);
  return items;
}

async function main(): Promise<void> {
  // `get` was the KV workload's name before it measured SET and pipelines too.
  const named = positionals.map((p) => (p === 'get' ? 'kv' : p));
  const workloads = oneOf('workload', named.length > 0 ? named : WORKLOADS, WORKLOADS);
  const threads = positive('threads', values.threads, 1);
  const connections = positive('connections', values.connections, 1);
  const warmup = positive('warmup', values.warmup, 0);
  const rounds = positive('rounds', values.rounds, 1);
  const runSeconds = seconds('run-seconds', values['run-seconds'], 0.1);
  const doc = values.doc === 'none' ? null : resolve(ROOT, values.doc);
  // The families' in-process mode loads nothing over HTTP, so only their http mode needs wrk.
  const needsWrk = workloads.includes('kv') || workloads.includes('kv-scale') || (workloads.includes('families') && values.modes.split(',').includes('http'));
  if (needsWrk && spawnSync('wrk', ['--version']).error !== undefined) {
    console.error('bench: wrk not installed (apt-get install wrk); nothing measured');
    process.exit(1);
  }
  const host = machine(ROOT);
  console.log(`date: ${host.date}\nmachine: ${host.cores} x ${host.cpu}\nnode ${host.node}, bun ${host.bun}`);
  console.log(`load average before: ${loadText()}`);
  if (loadavg()[0] > cpus().length / 2) console.log('warning: other work is using this machine; rates will move with it, CPU time per request much less');

  let clean = true;
  for (const workload of workloads) {
    const started = Date.now();
    const facts = machine(ROOT);
    const loadBefore = loadText();
    let text: string;
    if (workload === 'kv') {
      const load = { seconds: positive('duration', values.duration, 1), threads, connections };
      const summary = await benchKv(ROOT, BENCH_DIR, { load, warmup, rounds, only: values.only?.split(',') });
      clean &&= summary.clean;
      text = summary.render();
    } else if (workload === 'kv-scale') {
      const load = { seconds: positive('duration', values.duration, 1), threads, connections };
      const compactionKeys = positive('compaction-keys', values['compaction-keys'], 1000, 100_000_000);
      const memoryScale = Number(values['memory-scale']);
      if (!(memoryScale > 0 && memoryScale <= 10)) throw new Error(`--memory-scale must be a number above 0, at most 10, got '${values['memory-scale']}'`);
      const { compaction, memory } = await benchKvScale(ROOT, BENCH_DIR, { load, warmup, rounds, compactionKeys, memoryScale });
      clean &&= compaction.clean && memory.clean;
      text = `${compaction.render()}\n\n${memory.render()}`;
    } else if (workload === 'kv-calls') {
      const summary = await benchKvCalls(ROOT, { items: positive('calls-items', values['calls-items'], 100, 10_000_000) });
      clean &&= summary.clean;
      text = summary.render();
    } else if (workload === 'families') {
      const sizes = values.sizes.split(',').map((s) => positive('sizes', s, 10, 10_000_000));
      const modes = oneOf('mode', values.modes.split(','), FAMILY_MODES);
      // wrk takes whole seconds; in-process cells may be shorter.
      const cell = modes.includes('http') ? positive('cell', values.cell, 1) : seconds('cell', values.cell, 0.01);
      text = await benchFamilies(ROOT, { sizes, seconds: cell, warmup, threads, connections, modes, rounds: positive('family-rounds', values['family-rounds'], 1) });
    } else if (workload === 'streams') {
      const summary = await benchStreams(ROOT, { seconds: runSeconds, warmup, rounds });
      clean &&= summary.clean;
      text = summary.render();
    } else if (workload === 'queue') {
      const pending = positive('queue-pending', values['queue-pending'], 100, 10_000_000);
      const summary = await benchQueue(ROOT, { seconds: runSeconds, warmup, rounds, pending });
      clean &&= summary.clean;
      text = summary.render();
    } else if (workload === 'workflow') {
      const summary = await benchWorkflow(ROOT, { seconds: runSeconds, warmup, rounds });
      clean &&= summary.clean;
      text = summary.render();
    } else if (workload === 'search') {
      const sizes = values['search-sizes'].split(',').map((s) => positive('search-sizes', s, 100, 10_000_000));
      const tables = await benchSearch(ROOT, { sizes: [...new Set(sizes)].sort((a, b) => a - b), seconds: runSeconds, rounds });
      clean &&= tables.every((t) => t.clean);
      text = tables.map((t) => t.render()).join('\n\n');
    } else if (workload === 'vector-scale') {
      const sizes = values['scale-sizes'].split(',').map((s) => positive('scale-sizes', s, 100, 10_000_000));
      const queries = positive('scale-queries', values['scale-queries'], 1, 10_000);
      const dim = positive('scale-dim', values['scale-dim'], 2, 4096);
      const directMax = positive('scale-direct-max', values['scale-direct-max'], 0, 10_000_000);
      const summary = await benchVectorScale(ROOT, { sizes: [...new Set(sizes)].sort((a, b) => a - b), queries, dim, directMax, seconds: runSeconds, rounds });
      clean &&= summary.clean;
      text = summary.render();
    } else {
      const vectors = positive('vectors', values.vectors, 100, 10_000_000);
      const queries = positive('queries', values.queries, 1, 100_000);
      const summary = await benchVector(ROOT, { vectors, queries, seconds: runSeconds, rounds });
      clean &&= summary.clean;
      text = summary.render();
    }
    const args = process.argv.slice(2).join(' ');
    const command = args === '' ? 'npm run bench' : `npm run bench -- ${args}`;
    const section = `${factsText(facts, command, loadBefore, (Date.now() - started) / 1000)}\n\n${text}`;
    console.log(`\n${section}\n`);
    if (doc !== null) writeSection(doc, workload, section);
  }
  console.log(`load average after: ${loadText()}`);
  if (!clean) {
    console.error('bench: some rows got error answers or no figures (marked in the tables)');
    process.exitCode = 2;
  }
}

main().catch((e: unknown) => {
  console.error(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
