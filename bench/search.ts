// The Redis Search workload (issue 23, "Speed"): one JSON index on Larder (Bun) grows through the
// sizes (10k, then 100k documents, by default), written over HTTP in /pipeline batches of JSON.SET
// while the index exists (every write indexed as it lands: documents/s). At each size, term,
// phrase, fuzzy, range and aggregate requests run one after another from one client (QPS, p50
// and p99 over HTTP), side by side with a full scan of the same documents evaluated in the
// bench's process: the floor any index must beat by far. Larder's index is its own (no search
// library underneath), so there is no library row. The index's memory is measured in the
// bench's process: the heap Larder's index (src/kv/search/) holds, after a full collection,
// once it has indexed the largest size's documents, per 100k documents.
// Operators the server refuses (Larder before $phrase and $fuzzy) give a row saying so.

import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { utf8Bytes } from '../src/kv/bytes.js';
import { JsonDoc } from '../src/kv/engine/json/json-doc.js';
import { parseJson } from '../src/kv/engine/json/json-parse.js';
import { readDocument } from '../src/kv/search/document.js';
import { InvertedIndex } from '../src/kv/search/inverted-index.js';
import { DEFAULT_LANGUAGE, type FieldDef, type IndexDef } from '../src/kv/search/schema.js';
import { closedLoop, postJson } from './http-load.js';
import { label } from './size-label.js';
import { quantile, Summary, type Figure } from './summary.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';
import { Xorshift } from './xorshift.js';

export interface SearchOptions {
  /** Ascending. */
  readonly sizes: readonly number[];
  /** Measured seconds of each query figure. */
  readonly seconds: number;
  readonly rounds: number;
}

const BATCH = 1000;
const VOCABULARY = 2000;
const CATEGORIES = 20;
const INDEX = 'bench';
const SCHEMA = ['title', 'TEXT', 'price', 'F64', 'FAST', 'category', 'KEYWORD', 'FAST', 'year', 'U64', 'FAST'];
const AGGREGATIONS = { byCategory: { $terms: { field: 'category' } }, price: { $stats: { field: 'price' } } };
const LARDER = 'Larder (bun), HTTP';
const SCAN = 'full scan, in-process';
const IN_PROCESS = "Larder's index (src/kv/search), in-process";

interface Doc {
  readonly title: string;
  readonly price: number;
  readonly category: string;
  readonly year: number;
}

/** One kind of request: how Larder is asked, and how the full scan answers it. */
interface QueryKind {
  readonly name: string;
  /** The argv of the i-th request of this kind. */
  argv(i: number): string[];
  /** The same request answered by reading every document. */
  scan(docs: readonly Doc[], i: number): unknown;
}

const fig = (name: string, unit: string): Figure => ({ name, unit });
const INDEXING = fig('JSON.SET with the index in place, batches of 1000', 'docs/s');
const MEMORY = fig('index memory per 100k documents (heap after a full collection)', 'MB');
const BUILD = fig('indexing the documents in-process (readDocument + put)', 'docs/s');

/** Words made of syllables, so that a typo of one is rarely another. */
function vocabulary(): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tus', 'va', 'dor', 'pel', 'qui', 'zen', 'ba', 'fo', 'gri', 'hal', 'jun', 'sto'];
  const words: string[] = [];
  for (let i = 0; words.length < VOCABULARY; i++) {
    const a = syllables[i % 16];
    const b = syllables[Math.floor(i / 16) % 16];
    const c = syllables[Math.floor(i / 256) % 16];
    words.push(a + b + c);
  }
  return words;
}

function documents(n: number, words: readonly string[]): Doc[] {
  const rng = new Xorshift(23);
  return Array.from({ length: n }, () => ({
    title: Array.from({ length: 3 + rng.below(6) }, () => words[rng.below(words.length)]).join(' '),
    price: rng.below(100_000) / 100,
    category: `c${rng.below(CATEGORIES)}`,
    year: 1950 + rng.below(75),
  }));
}

const tokens = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');

/** Whether `a` and `b` are at most one edit apart (the full scan's $fuzzy). */
function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

function queryKinds(words: readonly string[], sample: readonly Doc[]): QueryKind[] {
  const word = (i: number) => words[(i * 7919) % words.length];
  const pair = (i: number) => tokens(sample[i % sample.length].title).slice(0, 2);
  const typo = (i: number) => word(i).slice(0, 2) + 'x' + word(i).slice(3);
  const low = (i: number) => (i * 37) % 990;
  const top10 = (docs: readonly Doc[], holds: (d: Doc) => boolean) => {
    const out: Doc[] = [];
    for (const d of docs) if (holds(d)) out.push(d);
    return out.slice(0, 10);
  };
  const query = (filter: unknown) => ['SEARCH.QUERY', INDEX, JSON.stringify(filter), 'LIMIT', '10'];
  return [
    { name: 'term', argv: (i) => query({ title: word(i) }), scan: (docs, i) => top10(docs, (d) => tokens(d.title).includes(word(i))) },
    {
      name: 'phrase',
      argv: (i) => query({ title: { $phrase: pair(i).join(' ') } }),
      scan: (docs, i) => {
        const [a, b] = pair(i);
        return top10(docs, (d) => tokens(d.title).some((t, k, all) => t === a && all[k + 1] === b));
      },
    },
    { name: 'fuzzy', argv: (i) => query({ title: { $fuzzy: typo(i) } }), scan: (docs, i) => top10(docs, (d) => tokens(d.title).some((t) => oneEdit(t, typo(i)))) },
    {
      name: 'range',
      argv: (i) => query({ price: { $gte: low(i), $lt: low(i) + 10 } }),
      scan: (docs, i) => top10(docs, (d) => d.price >= low(i) && d.price < low(i) + 10),
    },
    {
      name: 'aggregate (terms + stats, every document)',
      argv: () => ['SEARCH.AGGREGATE', INDEX, '{}', JSON.stringify(AGGREGATIONS)],
      scan: (docs) => {
        const counts = new Map<string, number>();
        let sum = 0;
        let min = Infinity;
        let max = -Infinity;
        for (const d of docs) {
          counts.set(d.category, (counts.get(d.category) ?? 0) + 1);
          sum += d.price;
          min = Math.min(min, d.price);
          max = Math.max(max, d.price);
        }
        return { counts: [...counts].sort((a, b) => b[1] - a[1]).slice(0, 10), sum, min, max, avg: sum / docs.length };
      },
    },
  ];
}

export async function benchSearch(root: string, opts: SearchOptions): Promise<Summary[]> {
  const sizes = opts.sizes;
  const words = vocabulary();
  const docs = documents(sizes[sizes.length - 1], words);
  const kinds = queryKinds(words, docs.slice(0, 1000));
  const how = `one client, ${opts.seconds} s per figure, ${opts.rounds} round(s)`;
  const tables = sizes.map((n) => new Summary(`Redis Search at ${label(n)} JSON documents (title TEXT, price F64, category KEYWORD, year U64): ${how}`, SCAN));
  let server: LarderServer | undefined;
  try {
    process.stderr.write('search: starting Larder on bun\n');
    server = await startLarder(root, bunPath(root), 'bun');
    const ask = askOf(server);
    await ask(['SEARCH.CREATE', INDEX, 'ON', 'JSON', 'PREFIX', '1', 'doc:', 'SCHEMA', ...SCHEMA]);
    let from = 0;
    for (const [s, n] of sizes.entries()) {
      const table = tables[s];
      process.stderr.write(`search: ${label(n)}: writing documents over HTTP\n`);
      const started = performance.now();
      const errors = await writeDocs(server, docs, from, n);
      table.add(LARDER, INDEXING, (n - from) / ((performance.now() - started) / 1000), errors);
      from = n;
      for (let round = 1; round <= opts.rounds; round++) {
        for (const kind of kinds) {
          process.stderr.write(`search: ${label(n)}: ${kind.name}, round ${round}/${opts.rounds}\n`);
          await measureLarder(table, kind, ask, opts.seconds);
          measureScan(table, kind, docs.slice(0, n), opts.seconds);
        }
      }
    }
  } finally {
    await server?.stop();
  }
  measureMemory(tables[tables.length - 1], docs);
  tables[tables.length - 1].notes.push(
    'Larder runs on Bun in its own process; the HTTP client and the full scan run in the bench\'s Node process, one request at a time, so QPS is 1 / latency.',
    'The full scan tests every document against the condition and keeps the first 10 matches: no scoring, no sorting, no HTTP. Larder scores by BM25 and returns the 10 best with their content.',
  );
  return tables;
}

type Ask = (argv: string[]) => Promise<unknown>;

function askOf(server: LarderServer): Ask {
  return async (argv) => {
    const answer = (await postJson(server.base, server.headers, argv)) as { result?: unknown; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result;
  };
}

async function writeDocs(server: LarderServer, docs: readonly Doc[], from: number, to: number): Promise<number> {
  let errors = 0;
  for (let first = from; first < to; first += BATCH) {
    const batch = [];
    for (let i = first; i < Math.min(first + BATCH, to); i++) batch.push(['JSON.SET', `doc:${i}`, '$', JSON.stringify(docs[i])]);
    const answers = (await postJson(`${server.base}/pipeline`, server.headers, batch).catch(() => null)) as { result?: string }[] | null;
    errors += answers === null ? batch.length : answers.filter((a) => a.result !== 'OK').length;
  }
  return errors;
}

async function measureLarder(table: Summary, kind: QueryKind, ask: Ask, seconds: number): Promise<void> {
  const refused = await ask(kind.argv(0)).then(
    () => null,
    (e: Error) => /"error":"([^"]*)"/.exec(e.message)?.[1] ?? e.message,
  );
  if (refused !== null && /not supported|Unknown field operator/.test(refused)) {
    const note = `${kind.name}: not measured on Larder, which refuses the operator ("${refused}").`;
    if (!table.notes.includes(note)) table.notes.push(note); // once, not once per round
    return;
  }
  let i = 0;
  const r = await closedLoop(1, seconds, async () => {
    await ask(kind.argv(i++));
    return 1;
  });
  table.add(LARDER, fig(`${kind.name} query`, 'queries/s'), r.ok / r.seconds, r.errors);
  table.add(LARDER, fig(`${kind.name} p50`, 'ms'), quantile(r.latenciesMs, 0.5), r.errors);
  table.add(LARDER, fig(`${kind.name} p99`, 'ms'), quantile(r.latenciesMs, 0.99), r.errors);
  if (r.errors > 0) table.notes.push(`${kind.name}: ${r.firstError}`);
}

function measureScan(table: Summary, kind: QueryKind, docs: readonly Doc[], seconds: number): void {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < seconds * 1000; i++) {
    const t0 = performance.now();
    kind.scan(docs, i);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  table.add(SCAN, fig(`${kind.name} query`, 'queries/s'), latencies.length / ((performance.now() - start) / 1000));
  table.add(SCAN, fig(`${kind.name} p50`, 'ms'), quantile(latencies, 0.5));
  table.add(SCAN, fig(`${kind.name} p99`, 'ms'), quantile(latencies, 0.99));
}

/** The bench's own copy of the schema, as SEARCH.CREATE would declare it. */
function indexDef(): IndexDef {
  const fields: FieldDef[] = [];
  for (let i = 0; i < SCHEMA.length; i++) {
    const fast = SCHEMA[i + 2] === 'FAST';
    fields.push({ name: utf8Bytes(SCHEMA[i]), type: SCHEMA[i + 1] as FieldDef['type'], fast, noStem: false, noTokenize: false, from: null });
    i += fast ? 2 : 1;
  }
  return { name: INDEX, dataType: 'JSON', prefixes: ['doc:'], language: DEFAULT_LANGUAGE, fields };
}

/** Larder's index built in this process from the documents; the heap it holds after full collections. */
function measureMemory(table: Summary, docs: readonly Doc[]): void {
  process.stderr.write(`search: ${label(docs.length)}: index memory in-process\n`);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const values = docs.map((d) => {
    const parsed = parseJson(JSON.stringify(d));
    if (!parsed.ok) throw new Error('a bench document is not JSON');
    return new JsonDoc(parsed.value);
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const index = new InvertedIndex(indexDef());
  values.forEach((v, i) => index.put(`doc:${i}`, readDocument(index.def, v)));
  table.add(IN_PROCESS, BUILD, docs.length / ((performance.now() - started) / 1000));
  gc();
  const held = process.memoryUsage().heapUsed - before;
  table.add(IN_PROCESS, MEMORY, (held * 100_000) / docs.length / 2 ** 20);
  if (index.docs.size !== docs.length) throw new Error('the index lost documents');
}
