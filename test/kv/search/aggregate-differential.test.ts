// Seeded random documents (JSON, hash and string keys), random filters and random aggregations:
// SEARCH.AGGREGATE's raw reply must equal what a brute-force evaluator, written here
// independently of src/kv/search/, computes by reading every document as the test wrote it.
// Writes (overwrites and deletions) interleave with the aggregations. A failure prints the seed:
// SEARCH_AGG_SEED=<seed> replays it.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, suiteLarder } from '../../support/larder.js';
import { Rng } from '../differential/prng.js';
import { createIndexes, DATA_TYPES, writeRound, type Written } from './random-documents.js';

const SEED = Number(process.env.SEARCH_AGG_SEED ?? 4127);
const ROUNDS = 3;
const TAGS = ['a', 'b', 'c', 'd', 'e'];
const CATS = ['/x', '/x/y', '/x/y/z', '/x/w', '/v', '/v/u/t'];
const DAY = 86_400_000;
const EPOCH = Date.parse('2024-03-01T00:00:00Z');
const SCHEMA = ['n', 'I64', 'FAST', 'f', 'F64', 'FAST', 'ok', 'BOOL', 'FAST', 'tag', 'KEYWORD', 'FAST', 'd', 'DATE', 'FAST', 'cat', 'FACET'];

interface Doc {
  n?: number;
  f?: number;
  ok?: boolean;
  tag?: string;
  d?: string;
  cat?: string;
}
type Json = Record<string, unknown>;
type Raw = null | number | string | Raw[];

function randomDoc(rng: Rng): Doc {
  const doc: Doc = {};
  if (rng.chance(0.85)) doc.n = rng.int(-10, 10);
  if (rng.chance(0.8)) doc.f = rng.int(-40, 40) / 4; // quarters: every sum is exact in binary
  if (rng.chance(0.8)) doc.ok = rng.chance(0.5);
  if (rng.chance(0.8)) doc.tag = rng.pick(TAGS);
  if (rng.chance(0.8)) doc.d = new Date(EPOCH + rng.int(0, 5 * 24) * 3_600_000).toISOString();
  if (rng.chance(0.8)) doc.cat = rng.pick(CATS);
  return doc;
}

// ---- random requests and their brute-force answers ----

interface Case {
  filter: Json;
  holds: (d: Doc) => boolean;
  aggs: Json;
  expect: (docs: Doc[]) => Raw[];
}

function randomFilter(rng: Rng): Pick<Case, 'filter' | 'holds'> {
  switch (rng.int(0, 3)) {
    case 0:
      return { filter: {}, holds: () => true };
    case 1: {
      const lo = rng.int(-10, 5);
      return { filter: { n: { $gte: lo } }, holds: (d) => d.n !== undefined && d.n >= lo };
    }
    case 2: {
      const tag = rng.pick(TAGS);
      // $mustNot alone matches nothing (the reference), so it stands beside a clause every numbered document holds.
      return { filter: { n: { $gte: -1000 }, $mustNot: { tag } }, holds: (d) => d.n !== undefined && d.tag !== tag };
    }
    default: {
      const tags = rng.some(TAGS, 2);
      return { filter: { tag: { $in: tags } }, holds: (d) => d.tag !== undefined && tags.includes(d.tag) };
    }
  }
}

/** A number as the reply gives it: integers as integers, other numbers as their shortest text. */
const num = (x: number | null): Raw => (x === null ? null : Number.isSafeInteger(x) ? x : String(x));
const value = (d: Doc, field: keyof Doc): number | undefined => {
  const v = d[field];
  if (v === undefined) return undefined;
  if (field === 'd') return Date.parse(v as string);
  return typeof v === 'boolean' ? (v ? 1 : 0) : (v as number);
};

function randomMetric(rng: Rng): { agg: Json; expect: (docs: Doc[]) => Raw } {
  const field = rng.pick(['n', 'f', 'd'] as const);
  const op = rng.pick(['avg', 'sum', 'min', 'max', 'count', 'cardinality', 'stats', 'percentiles'] as const);
  const missing = op !== 'count' && op !== 'cardinality' && rng.chance(0.3) ? rng.int(-3, 3) : undefined;
  const percents = [rng.int(0, 100), 50, 99];
  const agg = { [`$${op}`]: { field, ...(missing !== undefined && { missing }), ...(op === 'percentiles' && { percents }) } };
  const expect = (docs: Doc[]): Raw => {
    const present = docs.map((d) => value(d, field)).filter((x): x is number => x !== undefined);
    if (op === 'count') return ['value', present.length];
    if (op === 'cardinality') return ['value', new Set(present).size];
    const xs = docs.map((d) => value(d, field) ?? missing).filter((x): x is number => x !== undefined);
    let sum = 0;
    for (const x of xs) sum += x;
    const min = xs.length === 0 ? null : Math.min(...xs);
    const max = xs.length === 0 ? null : Math.max(...xs);
    const avg = xs.length === 0 ? null : sum / xs.length;
    if (op === 'stats') return ['count', xs.length, 'min', num(min), 'max', num(max), 'sum', num(sum), 'avg', num(avg)];
    if (op === 'percentiles') {
      const sorted = [...xs].sort((a, b) => a - b);
      const at = (p: number) => {
        if (sorted.length === 0) return null;
        const rank = (p / 100) * (sorted.length - 1);
        const below = sorted[Math.floor(rank)];
        return below + (sorted[Math.ceil(rank)] - below) * (rank - Math.floor(rank));
      };
      return ['values', percents.flatMap((p) => [p.toFixed(1), num(at(p))])];
    }
    return ['value', num({ avg, sum, min, max }[op])];
  };
  return { agg, expect };
}

/** Docs grouped by `keyOf` (a doc may fall in several groups), in first-seen order. */
function groupBy<K>(docs: Doc[], keysOf: (d: Doc) => K[]): Map<K, Doc[]> {
  const groups = new Map<K, Doc[]>();
  for (const d of docs) for (const k of new Set(keysOf(d))) groups.set(k, [...(groups.get(k) ?? []), d]);
  return groups;
}

function randomBucket(rng: Rng): { agg: Json; expect: (docs: Doc[]) => Raw } {
  const sub = rng.chance(0.5) ? randomMetric(rng) : null;
  const subRaw = (docs: Doc[]): Raw[] => (sub === null ? [] : ['m', sub.expect(docs)]);
  const withSub = (agg: Json): Json => (sub === null ? agg : { ...agg, $aggs: { m: sub.agg } });
  switch (rng.int(0, 4)) {
    case 0: {
      const field = rng.pick(['tag', 'n', 'ok'] as const);
      const size = rng.int(1, 6);
      const byKey = rng.chance(0.3);
      const minDocCount = rng.int(1, 2);
      const agg = withSub({ $terms: { field, size, minDocCount, ...(byKey && { order: { key: 'asc' } }) } });
      return {
        agg,
        expect: (docs) => {
          const keyOf = (d: Doc) => (field === 'ok' ? value(d, 'ok') : d[field]) as string | number | undefined;
          const groups = [...groupBy(docs, (d) => (keyOf(d) === undefined ? [] : [keyOf(d)!]))].filter(([, g]) => g.length >= minDocCount);
          const cmpKey = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
          groups.sort((a, b) => (byKey ? cmpKey(a[0], b[0]) : b[1].length - a[1].length || cmpKey(a[0], b[0])));
          const other = groups.slice(size).reduce((n, [, g]) => n + g.length, 0);
          const buckets = groups.slice(0, size).map(([k, g]): Raw[] => [
            'key', k, ...(field === 'ok' ? ['keyAsString', k === 1 ? 'true' : 'false'] : []), 'docCount', g.length, ...subRaw(g),
          ]);
          return ['buckets', buckets, 'sumOtherDocCount', other];
        },
      };
    }
    case 1: {
      const cuts = rng.some([-8, -4, -1, 0, 2, 5, 9], 2).sort((a, b) => a - b);
      const ranges = [{ to: cuts[0] }, { from: cuts[0], to: cuts[1] }, { from: cuts[1] }];
      return {
        agg: withSub({ $range: { field: 'f', ranges } }),
        expect: (docs) => [
          'buckets',
          ranges.map((r: { from?: number; to?: number }): Raw[] => {
            const inside = docs.filter((d) => d.f !== undefined && (r.from === undefined || d.f >= r.from) && (r.to === undefined || d.f < r.to));
            const key = `${r.from ?? '*'}-${r.to ?? '*'}`;
            return ['key', key, ...(r.from !== undefined ? ['from', r.from] : []), ...(r.to !== undefined ? ['to', r.to] : []), 'docCount', inside.length, ...subRaw(inside)];
          }),
        ],
      };
    }
    case 2: {
      const interval = rng.int(1, 4);
      const minDocCount = rng.int(0, 1);
      return {
        agg: withSub({ $histogram: { field: 'n', interval, minDocCount } }),
        expect: (docs) => {
          const groups = groupBy(docs, (d) => (d.n === undefined ? [] : [Math.floor(d.n / interval) * interval]));
          const keys = [...groups.keys()].sort((a, b) => a - b);
          if (minDocCount === 0 && keys.length > 0) for (let k = keys[0]; k <= keys[keys.length - 1]; k += interval) if (!groups.has(k)) groups.set(k, []);
          const all = [...groups].filter(([, g]) => g.length >= minDocCount).sort((a, b) => a[0] - b[0]);
          return ['buckets', all.map(([k, g]): Raw[] => ['key', k, 'docCount', g.length, ...subRaw(g)])];
        },
      };
    }
    case 3:
      return {
        agg: withSub({ $dateHistogram: { field: 'd', fixedInterval: '1d', minDocCount: 1 } }),
        expect: (docs) => {
          const groups = [...groupBy(docs, (d) => (d.d === undefined ? [] : [Math.floor(Date.parse(d.d) / DAY) * DAY]))].sort((a, b) => a[0] - b[0]);
          return ['buckets', groups.map(([k, g]): Raw[] => ['key', k, 'keyAsString', new Date(k).toISOString().replace('.000Z', 'Z'), 'docCount', g.length, ...subRaw(g)])];
        },
      };
    default: {
      const depth = rng.int(1, 2);
      const root = rng.pick(['/', '/x']);
      return { agg: { $facet: { field: 'cat', path: root, depth } }, expect: (docs) => facetNode(docs, root, depth) };
    }
  }
}

/** A facet level: children under `path`, by count (then path), 10 at most. */
function facetNode(docs: Doc[], path: string, depth: number): Raw[] {
  const children = (parent: string, within: Doc[], left: number): { nodes: Raw[]; other: number } => {
    const prefix = parent === '/' ? '/' : `${parent}/`;
    const groups = [...groupBy(within, (d) => {
      if (d.cat === undefined || !d.cat.startsWith(prefix) || d.cat === prefix) return [];
      return [prefix + d.cat.slice(prefix.length).split('/')[0]];
    })].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    const nodes = groups.slice(0, 10).map(([p, g]): Raw => {
      if (left <= 1) return ['path', p, 'docCount', g.length, 'sumOtherDocCount', 0];
      const below = children(p, g, left - 1);
      return ['path', p, 'docCount', g.length, 'sumOtherDocCount', below.other, 'children', below.nodes];
    });
    return { nodes, other: groups.slice(10).reduce((n, [, g]) => n + g.length, 0) };
  };
  const top = children(path, docs, depth);
  return ['path', path, 'sumOtherDocCount', top.other, 'children', top.nodes];
}

function randomCase(rng: Rng): Case {
  const { filter, holds } = randomFilter(rng);
  const parts = Array.from({ length: rng.int(1, 3) }, (_, i) => ({ alias: `a${i}`, ...(rng.chance(0.4) ? randomMetric(rng) : randomBucket(rng)) }));
  return {
    filter,
    holds,
    aggs: Object.fromEntries(parts.map((p) => [p.alias, p.agg])),
    expect: (docs) => parts.flatMap((p) => [p.alias, p.expect(docs)]),
  };
}

describe('search aggregation differential: the engine against a brute-force scan', () => {
  const t = suiteLarder();

  embeddedOnly('SEARCH.* needs the embedded engine')(`random documents, filters and aggregations agree (seed ${SEED})`, async () => {
    const rng = new Rng(SEED);
    const docs: Written<Doc> = new Map();
    await createIndexes(t, 'agg', SCHEMA);
    for (let round = 0; round < ROUNDS; round++) {
      await writeRound(t, rng, docs, 30, 40, randomDoc);
      for (let q = 0; q < 25; q++) {
        const { type } = rng.pick(DATA_TYPES);
        const c = randomCase(rng);
        const argv = ['search.aggregate', `agg-${type}`, JSON.stringify(c.filter), JSON.stringify(c.aggs)];
        const label = `seed ${SEED} (SEARCH_AGG_SEED=${SEED} replays it), round ${round}, ${type}, ${argv.slice(2).join(' ')}`;
        const selected = [...docs.values()].filter((d) => d.type === type && c.holds(d.doc)).map((d) => d.doc);
        assert.deepEqual(await t.ok(argv), c.expect(selected), label);
      }
    }
  });
});
