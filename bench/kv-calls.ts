// Calls over many items (issue 20, at scale): one command, or one walk of pages, over N items and
// then over 2N, timed over HTTP on Larder (node) and Larder (bun). A call whose time doubles with
// N is linear in its items; one whose time quadruples is quadratic. The rows are the calls a probe
// found quadratic on Node (each pending entry, search value or queue page shifted or sorted all
// the others), and SETBITs on a large bitmap, whose time should not grow with it at all (each
// copied the whole string, a JS string being immutable, until strings were edited in place).

import { performance } from 'node:perf_hooks';
import { postJson } from './http-load.js';
import { label } from './size-label.js';
import { markdownTable } from './table.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';

export interface KvCallsOptions {
  /** N: each call is timed over N items, then over 2N. */
  readonly items: number;
}

const BATCH = 1000;
const SETBITS = 5000;
/** The bitmap's bytes per item: 800 KB and 1.6 MB at the default N, where copying shows. */
const BITMAP_BYTES_PER_ITEM = 16;

/** One call (or walk) to time: `prepare` builds its items on a fresh database, `run` is timed. */
interface Call {
  readonly name: string;
  /** How its time should grow from N to 2N: 2 (linear) or 1 (constant per call). */
  readonly expected: 1 | 2;
  prepare(s: LarderServer, n: number): Promise<() => Promise<void>>;
}

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `${from + i}-0`);

const CALLS: readonly Call[] = [
  {
    name: 'XACK of N pending entries',
    expected: 2,
    async prepare(s, n) {
      await streamWithGroup(s, n);
      await ok(s, ['XREADGROUP', 'GROUP', 'g', 'alice', 'COUNT', String(n), 'STREAMS', 's', '>']);
      return async () => expect(await ok(s, ['XACK', 's', 'g', ...ids(n)]), n);
    },
  },
  {
    name: 'XCLAIM FORCE of N ids, descending',
    expected: 2,
    async prepare(s, n) {
      await streamWithGroup(s, n);
      return async () => expect(((await ok(s, ['XCLAIM', 's', 'g', 'bob', '0', ...ids(n).reverse(), 'FORCE', 'JUSTID'])) as unknown[]).length, n);
    },
  },
  {
    name: 'JSON.DEL $..x over N objects',
    expected: 2,
    async prepare(s, n) {
      await ok(s, ['JSON.SET', 'doc', '$', JSON.stringify(Array.from({ length: n }, (_, i) => ({ x: i, y: i })))]);
      return async () => expect(await ok(s, ['JSON.DEL', 'doc', '$..x']), n);
    },
  },
  {
    name: 'SEARCH.CREATE over N hashes, each value distinct',
    expected: 2,
    async prepare(s, n) {
      await batches(s, n, (i) => {
        const v = (i * 7919) % n; // every value once, out of order
        return ['HSET', `doc:${i}`, 'price', String(v), 'tag', `kw${v}`, 'title', `w${v.toString(36)}q`];
      });
      return async () => {
        await ok(s, ['SEARCH.CREATE', 'docs', 'ON', 'HASH', 'PREFIX', '1', 'doc:', 'SCHEMA', 'price', 'F64', 'tag', 'KEYWORD', 'title', 'TEXT']);
        expect(await ok(s, ['SEARCH.COUNT', 'docs', '{"price":{"$gte":0}}']), n);
      };
    },
  },
  {
    name: 'cancel N waiting messages, 100 a page after the cursor',
    expected: 2,
    async prepare(s, n) {
      const queue = { url: `${s.env.QSTASH_URL}/v2`, headers: { authorization: `Bearer ${s.env.QSTASH_TOKEN}` } };
      for (let i = 0; i < n; i += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, n - i) }, () => ({ destination: 'http://127.0.0.1:9/never', headers: { 'Upstash-Delay': '3600s' }, body: 'x' }));
        await postJson(`${queue.url}/batch`, queue.headers, batch);
      }
      return async () => {
        let cancelled = 0;
        for (let cursor: string | undefined = ''; cursor !== undefined; ) {
          const res = await fetch(`${queue.url}/messages?count=100${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { method: 'DELETE', headers: queue.headers });
          const page = (await res.json()) as { cancelled: number; cursor?: string };
          cancelled += page.cancelled;
          cursor = page.cursor;
        }
        expect(cancelled, n);
      };
    },
  },
  {
    name: `${label(SETBITS)} SETBITs on a bitmap of ${BITMAP_BYTES_PER_ITEM}N bytes`,
    expected: 1,
    async prepare(s, n) {
      const bits = n * BITMAP_BYTES_PER_ITEM * 8;
      await ok(s, ['SETBIT', 'bits', String(bits - 1), '1']);
      return async () => {
        const cmds = Array.from({ length: SETBITS }, (_, i) => ['SETBIT', 'bits', String((i * 7919 * 8) % bits), '1']);
        for (let i = 0; i < cmds.length; i += BATCH) await postJson(`${s.base}/pipeline`, s.headers, cmds.slice(i, i + BATCH));
      };
    },
  },
];

async function ok(s: LarderServer, argv: string[]): Promise<unknown> {
  const reply = (await postJson(s.base, s.headers, argv)) as { result?: unknown; error?: string };
  if (reply.error !== undefined) throw new Error(`${argv[0]}: ${reply.error}`);
  return reply.result;
}

function expect(got: unknown, want: number): void {
  if (got !== want) throw new Error(`answered ${JSON.stringify(got)} where ${want} was due`);
}

async function batches(s: LarderServer, n: number, command: (i: number) => string[]): Promise<void> {
  for (let i = 0; i < n; i += BATCH) await postJson(`${s.base}/pipeline`, s.headers, Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => command(i + j)));
}

async function streamWithGroup(s: LarderServer, n: number): Promise<void> {
  await batches(s, n, (i) => ['XADD', 's', `${i + 1}-0`, 'f', 'v']);
  await ok(s, ['XGROUP', 'CREATE', 's', 'g', '0']);
}

/** Milliseconds of the call over `n` items, on a Larder started for it (so no call sees another's data or garbage). */
async function timeCall(root: string, runtime: string, name: string, call: Call, n: number): Promise<number> {
  const s = await startLarder(root, runtime, name);
  try {
    const run = await call.prepare(s, n);
    const started = performance.now();
    await run();
    return performance.now() - started;
  } finally {
    await s.stop();
  }
}

export async function benchKvCalls(root: string, opts: KvCallsOptions): Promise<{ clean: boolean; render(): string }> {
  const n = opts.items;
  const rows: string[][] = [['call', 'system', `ms at ${label(n)}`, `ms at ${label(2 * n)}`, 'ratio', 'expected']];
  let clean = true;
  for (const call of CALLS) {
    for (const [runtime, name] of [[process.execPath, 'node'], [bunPath(root), 'bun']] as const) {
      const system = `Larder (${name})`;
      try {
        const [at1, at2] = [await timeCall(root, runtime, name, call, n), await timeCall(root, runtime, name, call, 2 * n)];
        rows.push([call.name, system, at1.toFixed(0), at2.toFixed(0), `${(at2 / at1).toFixed(2)}x`, `${call.expected}x`]);
      } catch (e) {
        clean = false;
        rows.push([call.name, system, 'failed', (e as Error).message.slice(0, 80), '', `${call.expected}x`]);
      }
    }
  }
  const title = `Calls over many items: one call over N = ${label(n)} items, then over 2N, each on a fresh Larder; ratio = time at 2N / time at N`;
  return {
    clean,
    render: () =>
      `### ${title}\n\n${markdownTable(rows)}\n\nA ratio near 2 is linear in the items, near 4 quadratic; the SETBIT row's calls should not grow with the bitmap (1x).`,
  };
}
