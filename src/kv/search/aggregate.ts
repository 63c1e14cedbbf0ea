// Computes SEARCH.AGGREGATE's aggregations (aggregate-request.ts) over the documents a filter
// selected (their ordinals), reading each field's values from its column (column.ts), in the reply's shape the SDK's deserializeAggregateResponse reads: alternating
// names and values, buckets under "buckets", metrics under "value". Numbers stay numbers here;
// the command writes the ones that are not integers as RESP2 floats (bulk strings).
//
// Figures are exact: Upstash's engine counts terms per segment and estimates percentiles with
// a sketch, Larder holds every value in memory and counts and sorts them all (docs/search.md).

import type { Column } from './column.js';
import type { FieldValue } from './document.js';
import {
  encodeKeyPart,
  MAX_BUCKETS,
  type Aggregation,
  type Calendar,
  type Composite,
  type CompositeKeyPart,
  type CompositeSource,
  type Facet,
  type Histogram,
  type Metric,
  type Named,
  type Range,
  type Terms,
} from './aggregate-request.js';
import * as E from './errors.js';
import type { ReplyError } from '../errors.js';

export type AggReply = null | number | string | readonly AggReply[];

/** Documents, by their ordinals in the index. */
type Docs = readonly number[];

/** What one request reads, and what it may still spend. */
interface Run {
  /** The column of a FAST or FACET field. */
  readonly column: (field: string) => Column;
  /**
   * The buckets the request may still make, sub-aggregations' included (Tantivy counts them so
   * too): nested bucket operators multiply, and each bucket's sub-aggregations read its documents.
   */
  bucketsLeft: number;
}

/** [alias, result, alias, result...] for `aggs` over `docs`, or the first limit one broke. */
export function aggregate(aggs: readonly Named[], docs: Docs, column: Run['column']): AggReply[] | ReplyError {
  return aggregateIn({ column, bucketsLeft: MAX_BUCKETS }, aggs, docs);
}

function aggregateIn(run: Run, aggs: readonly Named[], docs: Docs): AggReply[] | ReplyError {
  const out: AggReply[] = [];
  for (const { alias, agg } of aggs) {
    const r = one(run, agg, docs);
    if (!Array.isArray(r)) return r as ReplyError;
    out.push(alias, r);
  }
  return out;
}

function one(run: Run, agg: Aggregation, docs: Docs): readonly AggReply[] | ReplyError {
  switch (agg.kind) {
    case 'metric':
      return metric(run, agg, docs);
    case 'terms':
      return terms(run, agg, docs);
    case 'range':
      return range(run, agg, docs);
    case 'histogram':
      return histogram(run, agg, docs);
    case 'facet':
      return facet(run, agg, docs);
    case 'composite':
      return composite(run, agg, docs);
  }
}

/** A bucket: its own fields, its document count, then each sub-aggregation over its documents. */
function bucket(run: Run, head: AggReply[], docs: Docs, aggs: readonly Named[]): AggReply[] | ReplyError {
  if (--run.bucketsLeft < 0) return E.tooManyBuckets(MAX_BUCKETS);
  const sub = aggregateIn(run, aggs, docs);
  if (!Array.isArray(sub)) return sub;
  return [...head, 'docCount', docs.length, ...sub];
}

/** Makes the buckets in order, stopping at the first that breaks the budget. */
function buckets<T>(specs: readonly T[], make: (spec: T) => AggReply[] | ReplyError, tail: AggReply[] = []): readonly AggReply[] | ReplyError {
  const made: AggReply[] = [];
  for (const spec of specs) {
    const b = make(spec);
    if (!Array.isArray(b)) return b;
    made.push(b);
  }
  return ['buckets', made, ...tail];
}

// ---- metrics ----

/** The numbers a metric reads: every value of the field, or `missing` for a document without it. */
function numbers(run: Run, m: Metric, docs: Docs): number[] {
  const column = run.column(m.field.name);
  const out: number[] = [];
  for (const doc of docs) {
    const values = column.at(doc);
    if (values === undefined) {
      if (m.missing !== undefined) out.push(m.missing);
    } else for (const v of values) out.push(Number(v));
  }
  return out;
}

function metric(run: Run, m: Metric, docs: Docs): readonly AggReply[] {
  if (m.op === 'count' || m.op === 'cardinality') {
    const column = run.column(m.field.name);
    const values = docs.flatMap((d) => column.at(d) ?? []);
    return ['value', m.op === 'count' ? values.length : new Set(values).size];
  }
  const xs = numbers(run, m, docs);
  const s = summary(xs);
  switch (m.op) {
    case 'avg':
    case 'min':
    case 'max':
      return ['value', s[m.op]];
    case 'sum':
      return ['value', s.sum];
    case 'stats':
      return ['count', s.count, 'min', s.min, 'max', s.max, 'sum', s.sum, 'avg', s.avg];
    case 'extendedStats':
      return extendedStats(xs, s, m.sigma);
    case 'percentiles':
      return percentiles(xs, m);
  }
}

interface Summary {
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
  avg: number | null;
}

function summary(xs: readonly number[]): Summary {
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const n = xs.length;
  return { count: n, sum, min: n === 0 ? null : min, max: n === 0 ? null : max, avg: n === 0 ? null : sum / n };
}

function extendedStats(xs: readonly number[], s: Summary, sigma: number): readonly AggReply[] {
  const n = s.count;
  const sumOfSquares = xs.reduce((acc, x) => acc + x * x, 0);
  const squaredDeviations = s.avg === null ? 0 : xs.reduce((acc, x) => acc + (x - s.avg!) ** 2, 0);
  const population = n === 0 ? null : squaredDeviations / n;
  const sampling = n < 2 ? null : squaredDeviations / (n - 1);
  const sd = (v: number | null) => (v === null ? null : Math.sqrt(v));
  const bound = (v: number | null, sign: 1 | -1) => (v === null || s.avg === null ? null : s.avg + sign * sigma * Math.sqrt(v));
  return [
    'count', n, 'min', s.min, 'max', s.max, 'avg', s.avg, 'sum', s.sum, 'sumOfSquares', sumOfSquares,
    'variance', population, 'variancePopulation', population, 'varianceSampling', sampling,
    'stdDeviation', sd(population), 'stdDeviationPopulation', sd(population), 'stdDeviationSampling', sd(sampling),
    'stdDeviationBounds', [
      'upper', bound(population, 1), 'lower', bound(population, -1),
      'upperSampling', bound(sampling, 1), 'lowerSampling', bound(sampling, -1),
      'upperPopulation', bound(population, 1), 'lowerPopulation', bound(population, -1),
    ],
  ];
}

/** Exact percentiles, interpolated linearly between the two closest ranks. */
function percentiles(xs: number[], m: Metric): readonly AggReply[] {
  const sorted = xs.sort((a, b) => a - b);
  const at = (p: number): number | null => {
    if (sorted.length === 0) return null;
    const rank = (p / 100) * (sorted.length - 1);
    const lo = Math.floor(rank);
    const hi = Math.ceil(rank);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  };
  if (m.keyed) return ['values', m.percents.flatMap((p) => [Number.isInteger(p) ? p.toFixed(1) : String(p), at(p)])];
  return ['values', m.percents.map((p) => ['key', p, 'value', at(p)])];
}

// ---- buckets ----

/** A bucket key as the reply gives it: dates and booleans add their text (keyAsString). */
function keyFields(field: Terms['field'], key: FieldValue): AggReply[] {
  if (typeof key === 'boolean') return ['key', key ? 1 : 0, 'keyAsString', String(key)];
  if (field.type === 'DATE' && typeof key === 'number') return ['key', key, 'keyAsString', dateText(key)];
  return ['key', key];
}

/** RFC 3339 in UTC, without milliseconds when there are none (2024-01-01T00:00:00Z). */
function dateText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso;
}

function terms(run: Run, t: Terms, docs: Docs): readonly AggReply[] | ReplyError {
  const column = run.column(t.field.name);
  const groups = new Map<FieldValue, number[]>();
  const add = (v: FieldValue, doc: number) => {
    if ((t.include !== null && !t.include(v)) || (t.exclude !== null && t.exclude(v))) return;
    let group = groups.get(v);
    if (group === undefined) groups.set(v, (group = []));
    group.push(doc);
  };
  for (const doc of docs) {
    const values = column.at(doc) ?? (t.missing === undefined ? [] : [t.missing]);
    // Most fields hold one value: only arrays need the Set that counts a document once per value.
    if (values.length === 1) add(values[0], doc);
    else for (const v of new Set(values)) add(v, doc);
  }
  const kept = [...groups].filter(([, g]) => g.length >= t.minDocCount);
  const sorted = sortTerms(run, t, kept);
  const shown = sorted.slice(0, t.size);
  const other = sorted.slice(t.size).reduce((n, [, g]) => n + g.length, 0);
  const tail = ['sumOtherDocCount', other, ...(t.showError ? ['docCountErrorUpperBound', 0] : [])];
  return buckets(shown, ([key, g]) => bucket(run, keyFields(t.field, key), g, t.aggs), tail);
}

/** Buckets in the order asked for; ties by key, ascending. */
function sortTerms(run: Run, t: Terms, groups: [FieldValue, number[]][]): [FieldValue, number[]][] {
  const sign = t.order.direction === 'asc' ? 1 : -1;
  const byKey = (a: FieldValue, b: FieldValue) => (a < b ? -1 : a > b ? 1 : 0);
  if (t.order.by === 'key') return groups.sort((a, b) => sign * byKey(a[0], b[0]));
  const sub = t.aggs.find((a) => a.alias === t.order.by)?.agg as Metric | undefined;
  const figure = new Map(groups.map(([k, g]) => [k, sub === undefined ? g.length : singleValue(run, sub, g)]));
  return groups.sort((a, b) => {
    const x = figure.get(a[0]) ?? null;
    const y = figure.get(b[0]) ?? null;
    // Buckets whose metric has no value (no documents with the field) come last either way.
    if (x === null || y === null) return x === y ? byKey(a[0], b[0]) : x === null ? 1 : -1;
    return sign * (x - y) || byKey(a[0], b[0]);
  });
}

function singleValue(run: Run, m: Metric, docs: Docs): number | null {
  return metric(run, m, docs)[1] as number | null;
}

function range(run: Run, r: Range, docs: Docs): readonly AggReply[] | ReplyError {
  const column = run.column(r.field.name);
  return buckets(r.ranges, (spec) => {
    const inside = docs.filter((d) =>
      (column.at(d) ?? []).some((v) => (spec.from === undefined || Number(v) >= spec.from) && (spec.to === undefined || Number(v) < spec.to)),
    );
    const head: AggReply[] = ['key', spec.key];
    if (spec.from !== undefined) head.push('from', spec.from);
    if (spec.to !== undefined) head.push('to', spec.to);
    return bucket(run, head, inside, r.aggs);
  });
}

function histogram(run: Run, h: Histogram, docs: Docs): readonly AggReply[] | ReplyError {
  const column = run.column(h.field.name);
  const slot = (v: number) => Math.floor((v - h.offset) / h.interval);
  const groups = new Map<number, number[]>();
  for (const doc of docs) {
    const slots = new Set<number>();
    for (const v of column.at(doc) ?? []) {
      const x = Number(v);
      if (h.hardBounds === null || (x >= h.hardBounds.min && x <= h.hardBounds.max)) slots.add(slot(x));
    }
    for (const s of slots) {
      let group = groups.get(s);
      if (group === undefined) groups.set(s, (group = []));
      group.push(doc);
    }
  }
  let slots = [...groups.keys()].sort((a, b) => a - b);
  if (h.minDocCount === 0) {
    // Every bucket from the lowest to the highest, empty ones too, widened by extendedBounds
    // and clipped by hardBounds.
    let lo = slots.length > 0 ? slots[0] : Infinity;
    let hi = slots.length > 0 ? slots[slots.length - 1] : -Infinity;
    if (h.extendedBounds !== null) {
      lo = Math.min(lo, slot(h.extendedBounds.min));
      hi = Math.max(hi, slot(h.extendedBounds.max));
    }
    if (h.hardBounds !== null) {
      lo = Math.max(lo, slot(h.hardBounds.min));
      hi = Math.min(hi, slot(h.hardBounds.max));
    }
    // Not `> MAX_BUCKETS`: an infinite slot (a hash's F64 text 1e400, or bounds past the
    // doubles an interval reaches) makes the count NaN, and listing the slots never ended.
    const count = hi - lo + 1;
    if (!(count <= MAX_BUCKETS)) return E.tooManyBuckets(MAX_BUCKETS);
    // Counted, not `s++ until hi`: past 2^53 adding 1 changes nothing (slot -1e308, from an
    // offset of 1e308), so that loop never ended and the array it filled crashed the process.
    slots = [];
    for (let k = 0; k < count; k++) if (k === 0 || lo + k !== slots[slots.length - 1]) slots.push(lo + k);
  } else {
    slots = slots.filter((s) => groups.get(s)!.length >= h.minDocCount);
    if (slots.length > MAX_BUCKETS) return E.tooManyBuckets(MAX_BUCKETS);
  }
  return buckets(slots, (s) => bucket(run, keyFields(h.field, s * h.interval + h.offset), groups.get(s) ?? [], h.aggs));
}

/** The most distinct keys a $composite gathers before it pages: the arrays of several fields multiply. */
const MAX_COMBINATIONS = 1_000_000;

/**
 * $composite: a bucket per combination of the sources' keys that some document has (a document
 * with several values in a field counts in each of its combinations), sorted source by source,
 * and the `size` of them that follow `after`; afterKey names the last, for the next page.
 */
function composite(run: Run, c: Composite, docs: Docs): readonly AggReply[] | ReplyError {
  const columns = c.sources.map((s) => run.column(s.field.name));
  const groups = new Map<string, { key: CompositeKeyPart[]; docs: number[] }>();
  for (const doc of docs) {
    let keys: CompositeKeyPart[][] = [[]];
    for (let i = 0; i < c.sources.length && keys.length > 0; i++) {
      const parts = sourceParts(c.sources[i], columns[i].at(doc));
      keys = keys.flatMap((prefix) => parts.map((part) => [...prefix, part]));
      if (keys.length > MAX_COMBINATIONS) return E.tooManyBuckets(MAX_COMBINATIONS);
    }
    for (const key of keys) {
      const id = JSON.stringify(key);
      let group = groups.get(id);
      if (group === undefined) groups.set(id, (group = { key, docs: [] }));
      group.docs.push(doc);
    }
    // Arrays multiply: bound what is held before the page is chosen.
    if (groups.size > MAX_COMBINATIONS) return E.tooManyBuckets(MAX_COMBINATIONS);
  }
  const after = c.after;
  const sorted = [...groups.values()]
    .filter((g) => after === null || compareKeys(c.sources, g.key, after) > 0)
    .sort((a, b) => compareKeys(c.sources, a.key, b.key));
  const page = sorted.slice(0, c.size);
  const last = page.at(-1)?.key;
  const tail = last === undefined ? [] : ['afterKey', c.sources.flatMap((s, i) => [s.name, encodeKeyPart(s, last[i])])];
  const shown = (part: CompositeKeyPart) => (typeof part === 'boolean' ? (part ? 1 : 0) : part);
  return buckets(page, (g) => bucket(run, ['key', c.sources.flatMap((s, i) => [s.name, shown(g.key[i])])], g.docs, c.aggs), tail);
}

/** A document's keys for one source: each value's bucket, once; [null] or none when it has no value. */
function sourceParts(s: CompositeSource, values: readonly FieldValue[] | undefined): CompositeKeyPart[] {
  if (values === undefined || values.length === 0) return s.missingBucket ? [null] : [];
  const parts = values.map((v): CompositeKeyPart => {
    if (s.calendar !== null) return calendarStart(Number(v), s.calendar);
    return s.interval > 0 ? Math.floor(Number(v) / s.interval) * s.interval : v;
  });
  return parts.length === 1 ? parts : [...new Set(parts)];
}

/** The start of the UTC year, month or ISO week (from Monday) that `ms` falls in. */
function calendarStart(ms: number, unit: Calendar): number {
  const d = new Date(ms);
  if (unit === 'year') return Date.UTC(d.getUTCFullYear(), 0, 1);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday);
}

/** Keys in the sources' order: each by its direction, a missing value first or last as it says. */
function compareKeys(sources: readonly CompositeSource[], a: readonly CompositeKeyPart[], b: readonly CompositeKeyPart[]): number {
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i];
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null || y === null) {
      const missingFirst = s.missingOrder === 'first' || (s.missingOrder === 'default' && s.direction === 'asc');
      return (x === null) === missingFirst ? -1 : 1;
    }
    const order = x < y ? -1 : 1;
    return s.direction === 'asc' ? order : -order;
  }
  return 0;
}

/** A FACET tree under `f.path`, `f.depth` levels deep: each child counts the documents under it. */
function facet(run: Run, f: Facet, docs: Docs): readonly AggReply[] {
  const column = run.column(f.field.name);
  const paths = docs.map((d) => (column.at(d) ?? []).map(String));
  const { children, other } = facetLevel(f, f.path, paths, f.depth);
  return ['path', f.path, 'sumOtherDocCount', other, 'children', children];
}

function facetLevel(f: Facet, parent: string, paths: readonly string[][], depth: number): { children: AggReply[]; other: number } {
  const under = parent === '/' ? '/' : parent + '/';
  const groups = new Map<string, string[][]>();
  for (const docPaths of paths) {
    const seen = new Set<string>();
    for (const p of docPaths) {
      if (!p.startsWith(under) || p.length === under.length) continue;
      const next = p.indexOf('/', under.length);
      seen.add(next < 0 ? p : p.slice(0, next));
    }
    for (const child of seen) {
      let group = groups.get(child);
      if (group === undefined) groups.set(child, (group = []));
      group.push(docPaths);
    }
  }
  const sign = f.order.direction === 'asc' ? 1 : -1;
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const kept = [...groups].filter(([, g]) => g.length >= f.minDocCount);
  kept.sort((a, b) => (f.order.by === 'path' ? sign * byPath(a[0], b[0]) : sign * (a[1].length - b[1].length) || byPath(a[0], b[0])));
  const children = kept.slice(0, f.size).map(([path, g]): AggReply => {
    if (depth <= 1) return ['path', path, 'docCount', g.length, 'sumOtherDocCount', 0];
    const below = facetLevel(f, path, g, depth - 1);
    return ['path', path, 'docCount', g.length, 'sumOtherDocCount', below.other, 'children', below.children];
  });
  const other = kept.slice(f.size).reduce((n, [, g]) => n + g.length, 0);
  return { children, other };
}
