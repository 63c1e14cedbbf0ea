// SEARCH.AGGREGATE's second argument, parsed into a tree checked against the index's schema.
// Parsing never throws: the first problem is the reply. The language (Upstash's reference,
// "Aggregations"):
//
//   aggregations := { alias: aggregation, ... }                         at least one
//   aggregation  := { $op: { field, ...options }, $aggs?: aggregations } $aggs on bucket operators only
//   metric $op   := $avg $sum $min $max $count $cardinality $stats $extendedStats $percentiles
//   bucket $op   := $terms $range $histogram $dateHistogram $facet     ($facet: no $aggs, never nested)
//                 | $composite { sources: [{ name: { $terms | $histogram | $dateHistogram: {...} } }, ...],
//                                size?, after? }                       (never nested)

import { utf8Bytes, utf8Text } from '../bytes.js';
import { ReplyError } from '../errors.js';
import type { FieldValue } from './document.js';
import * as E from './errors.js';
import type { FieldDef, FieldType, IndexDef } from './schema.js';
import { wholeMatch } from './term-match.js';

/** The most buckets one request may make, nested ones included (Tantivy's default limit, which Upstash builds on). */
export const MAX_BUCKETS = 65_000;
/** The most ranges one $range takes: each is a pass over the selected documents. */
const MAX_RANGES = 1000;
/** How deep $aggs may nest: deeper requests are refused before they cost anything. */
const MAX_DEPTH = 8;

export type MetricOp = 'avg' | 'sum' | 'min' | 'max' | 'count' | 'cardinality' | 'stats' | 'extendedStats' | 'percentiles';
export type SortDirection = 'asc' | 'desc';

export interface Named {
  readonly alias: string;
  readonly agg: Aggregation;
}

export interface Metric {
  readonly kind: 'metric';
  readonly op: MetricOp;
  readonly field: FieldDef;
  /** The value a document lacking the field counts with; none: such documents are left out. */
  readonly missing: number | undefined;
  readonly sigma: number;
  readonly percents: readonly number[];
  readonly keyed: boolean;
}

export interface Terms {
  readonly kind: 'terms';
  readonly field: FieldDef;
  readonly size: number;
  readonly minDocCount: number;
  /** By bucket size, by key, or by a single-value metric sub-aggregation's alias. */
  readonly order: { readonly by: 'count' | 'key' | string; readonly direction: SortDirection };
  readonly missing: FieldValue | undefined;
  readonly include: ((v: FieldValue) => boolean) | null;
  readonly exclude: ((v: FieldValue) => boolean) | null;
  readonly showError: boolean;
  readonly aggs: readonly Named[];
}

export interface Range {
  readonly kind: 'range';
  readonly field: FieldDef;
  readonly ranges: readonly { readonly key: string; readonly from?: number; readonly to?: number }[];
  readonly aggs: readonly Named[];
}

/** $histogram, and $dateHistogram with its interval in milliseconds. */
export interface Histogram {
  readonly kind: 'histogram';
  readonly field: FieldDef;
  readonly interval: number;
  readonly offset: number;
  readonly minDocCount: number;
  readonly hardBounds: Bounds | null;
  readonly extendedBounds: Bounds | null;
  readonly aggs: readonly Named[];
}

export interface Facet {
  readonly kind: 'facet';
  readonly field: FieldDef;
  readonly path: string;
  readonly depth: number;
  readonly size: number;
  readonly minDocCount: number;
  readonly order: { readonly by: 'count' | 'path'; readonly direction: SortDirection };
}

/** How a $composite source buckets a value: itself ($terms), by a fixed interval, or by calendar unit (UTC). */
export type Calendar = 'year' | 'month' | 'week';
export type MissingOrder = 'default' | 'first' | 'last';

export interface CompositeSource {
  readonly name: string;
  readonly field: FieldDef;
  /** 0: the value itself ($terms), else the width of a bucket (a $dateHistogram's in ms). */
  readonly interval: number;
  readonly calendar: Calendar | null;
  readonly direction: SortDirection;
  /** Documents without the field make a null key; otherwise they are left out. */
  readonly missingBucket: boolean;
  readonly missingOrder: MissingOrder;
}

/** A source's part of a bucket key: null for a document without the field (missingBucket). */
export type CompositeKeyPart = FieldValue | null;

/** Every bucket of several sources' keys, in a stable order, a page (`size`) past `after` at a time. */
export interface Composite {
  readonly kind: 'composite';
  readonly sources: readonly CompositeSource[];
  readonly size: number;
  /** The key the previous page ended with (its afterKey, decoded), or null for the first page. */
  readonly after: readonly CompositeKeyPart[] | null;
  readonly aggs: readonly Named[];
}

export type Aggregation = Metric | Terms | Range | Histogram | Facet | Composite;

export interface Bounds {
  readonly min: number;
  readonly max: number;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const NUMBERS: readonly FieldType[] = ['U64', 'I64', 'F64', 'DATE'];
const VALUES: readonly FieldType[] = [...NUMBERS, 'BOOL', 'KEYWORD'];
/** The field types each operator reads (the reference's compatibility tables). */
const TYPES: Record<string, readonly FieldType[]> = {
  avg: NUMBERS, sum: NUMBERS, min: NUMBERS, max: NUMBERS, stats: NUMBERS, extendedStats: NUMBERS, percentiles: NUMBERS,
  count: VALUES, cardinality: VALUES, terms: VALUES, range: NUMBERS, histogram: NUMBERS, dateHistogram: ['DATE'], facet: ['FACET'],
  composite: [], // its sources name the fields
};
const BUCKET_OPS = new Set(['terms', 'range', 'histogram', 'dateHistogram', 'facet', 'composite']);
/** Operators that only stand at the top of a request. */
const TOP_ONLY = new Set(['facet', 'composite']);
const HISTOGRAM_OPTIONS = ['field', 'minDocCount', 'hardBounds', 'extendedBounds', 'offset'];
const METRIC_OPTIONS = ['field', 'missing'];
/** The options each operator takes; any other is refused rather than ignored. */
const OPTIONS: Record<string, readonly string[]> = {
  avg: METRIC_OPTIONS, sum: METRIC_OPTIONS, min: METRIC_OPTIONS, max: METRIC_OPTIONS, stats: METRIC_OPTIONS,
  count: ['field'], cardinality: ['field'], extendedStats: [...METRIC_OPTIONS, 'sigma'], percentiles: [...METRIC_OPTIONS, 'percents', 'keyed'],
  // segmentSize tunes the accuracy of Upstash's per-segment counts; Larder's are exact, so it changes nothing.
  terms: ['field', 'size', 'segmentSize', 'showTermDocCountError', 'minDocCount', 'order', 'missing', 'include', 'exclude'],
  range: ['field', 'ranges'], histogram: [...HISTOGRAM_OPTIONS, 'interval'], dateHistogram: [...HISTOGRAM_OPTIONS, 'fixedInterval'],
  facet: ['field', 'path', 'depth', 'size', 'minDocCount', 'order'],
  composite: ['sources', 'size', 'after'],
};
const SOURCE_OPTIONS = ['field', 'order', 'missingBucket', 'missingOrder'];
/** The options of each $composite source. */
const SOURCES: Record<string, readonly string[]> = {
  $terms: SOURCE_OPTIONS,
  $histogram: [...SOURCE_OPTIONS, 'interval'],
  $dateHistogram: [...SOURCE_OPTIONS, 'fixedInterval', 'calendarInterval'],
};
const CALENDARS: readonly Calendar[] = ['year', 'month', 'week'];
const MISSING_ORDERS: readonly MissingOrder[] = ['default', 'first', 'last'];
/** Options of the reference that Larder does not implement yet (docs/search.md). */
const LATER_OPTIONS = new Set(['keyed']);
const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SINGLE_VALUE_METRICS = new Set<MetricOp>(['avg', 'sum', 'min', 'max', 'count', 'cardinality']);

export function parseAggregations(text: string, def: IndexDef): Named[] | ReplyError {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    return E.invalidAggregation('not valid JSON');
  }
  return new AggregationParser(def).named(json, 0);
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class AggregationParser {
  constructor(private readonly def: IndexDef) {}

  named(json: Json, depth: number): Named[] | ReplyError {
    if (!isObject(json) || Object.keys(json).length === 0) {
      return E.invalidAggregation('the aggregations must be a JSON object of named aggregations');
    }
    if (depth > MAX_DEPTH) return E.invalidAggregation(`$aggs may nest at most ${MAX_DEPTH} levels`);
    const out: Named[] = [];
    for (const [alias, body] of Object.entries(json)) {
      const agg = this.one(alias, body, depth);
      if (agg instanceof ReplyError) return agg;
      out.push({ alias, agg });
    }
    return out;
  }

  private one(alias: string, body: Json, depth: number): Aggregation | ReplyError {
    if (!isObject(body)) return E.invalidAggregation(`${alias} must be an object holding one operator`);
    const ops = Object.keys(body).filter((k) => k !== '$aggs');
    if (ops.length !== 1) return E.invalidAggregation(`${alias} needs exactly one operator`);
    const name = ops[0];
    const op = name.slice(1);
    if (!name.startsWith('$') || TYPES[op] === undefined) return E.unknownAggregation(name);
    if (TOP_ONLY.has(op) && depth > 0) return E.invalidAggregation(`${name} cannot be a sub-aggregation`);
    const hasAggs = body.$aggs !== undefined;
    if (hasAggs && (!BUCKET_OPS.has(op) || op === 'facet')) return E.invalidAggregation(`${name} takes no $aggs`);
    const args = body[name];
    if (!isObject(args)) return E.invalidAggregation(`${name} takes an object`);
    const unknown = Object.keys(args).find((k) => !OPTIONS[op].includes(k));
    if (unknown !== undefined) {
      return LATER_OPTIONS.has(unknown) ? E.notYet(`${unknown} on ${name}`) : E.invalidAggregation(`${name} takes no option ${unknown}`);
    }
    const field = op === 'composite' ? null : this.field(name, args);
    if (field instanceof ReplyError) return field;
    const aggs = hasAggs ? this.named(body.$aggs, depth + 1) : [];
    if (aggs instanceof ReplyError) return aggs;
    const read = new Options(name, args);
    const agg = field === null ? this.composite(args, read, aggs) : this.build(op, field, read, aggs);
    return agg instanceof ReplyError ? agg : (read.error ?? agg);
  }

  private composite(args: JsonObject, o: Options, aggs: Named[]): Composite | ReplyError {
    const list = args.sources;
    if (!Array.isArray(list) || list.length === 0) return E.invalidAggregation('$composite sources must be a non-empty array of named sources');
    const sources: CompositeSource[] = [];
    for (const entry of list) {
      const source = this.source(entry);
      if (source instanceof ReplyError) return source;
      if (sources.some((s) => s.name === source.name)) return E.invalidAggregation(`$composite names the source ${source.name} twice`);
      sources.push(source);
    }
    const after = args.after === undefined ? null : readAfter(args.after, sources);
    if (after instanceof ReplyError) return after;
    return { kind: 'composite', sources, size: o.count('size', 10, 1), after, aggs };
  }

  /** One entry of $composite's sources: { name: { $terms | $histogram | $dateHistogram: options } }. */
  private source(entry: Json): CompositeSource | ReplyError {
    const names = isObject(entry) ? Object.keys(entry) : [];
    if (names.length !== 1) return E.invalidAggregation('each $composite source must be an object with exactly one named entry');
    const name = names[0];
    const spec = (entry as JsonObject)[name];
    const ops = isObject(spec) ? Object.keys(spec) : [];
    const op = ops[0];
    if (ops.length !== 1 || SOURCES[op] === undefined) {
      return E.invalidAggregation(`the $composite source ${name} needs one of $terms, $histogram or $dateHistogram`);
    }
    const args = (spec as JsonObject)[op];
    if (!isObject(args)) return E.invalidAggregation(`${op} takes an object`);
    const unknown = Object.keys(args).find((k) => !SOURCES[op].includes(k));
    if (unknown !== undefined) return E.invalidAggregation(`${op} as a $composite source takes no option ${unknown}`);
    const field = this.field(op, args);
    if (field instanceof ReplyError) return field;
    const o = new Options(op, args);
    const bucketing = op === '$terms' ? { interval: 0, calendar: null } : op === '$histogram' ? { interval: o.positive('interval'), calendar: null } : o.dateInterval();
    const source: CompositeSource = {
      name,
      field,
      ...bucketing,
      direction: o.oneOf('order', ['asc', 'desc'] as const, 'asc'),
      missingBucket: o.flag('missingBucket', false),
      missingOrder: o.oneOf('missingOrder', MISSING_ORDERS, 'default'),
    };
    return o.error ?? source;
  }

  private field(name: string, args: JsonObject): FieldDef | ReplyError {
    if (typeof args.field !== 'string') return E.invalidAggregation(`${name} needs a field`);
    const bytes = utf8Bytes(args.field);
    const field = this.def.fields.find((f) => f.name === bytes);
    if (field === undefined) return E.unknownField(args.field);
    if (!TYPES[name.slice(1)].includes(field.type)) return E.aggregationNotFor(name, utf8Text(field.name), field.type);
    // FACET fields cannot be FAST; every other aggregation reads the field's column.
    if (field.type !== 'FACET' && !field.fast) return E.aggregationNeedsFast(utf8Text(field.name), name);
    return field;
  }

  private build(op: string, field: FieldDef, o: Options, aggs: Named[]): Aggregation {
    switch (op) {
      case 'terms':
        return this.terms(field, o, aggs);
      case 'range':
        return { kind: 'range', field, ranges: o.ranges(), aggs };
      case 'histogram':
      case 'dateHistogram': {
        const interval = op === 'histogram' ? o.positive('interval') : o.fixedInterval();
        const hardBounds = o.bounds('hardBounds');
        const extendedBounds = o.bounds('extendedBounds');
        return { kind: 'histogram', field, interval, offset: o.number('offset') ?? 0, minDocCount: o.count('minDocCount', 0), hardBounds, extendedBounds, aggs };
      }
      case 'facet': {
        const path = o.facetPath();
        const order = o.order(['count', 'path'], { by: 'count', direction: 'desc' }) as Facet['order'];
        return { kind: 'facet', field, path, depth: o.count('depth', 1, 1), size: o.count('size', 10, 1), minDocCount: o.count('minDocCount', 1), order };
      }
      default: {
        const percents = o.percents();
        return { kind: 'metric', op: op as MetricOp, field, missing: o.number('missing'), sigma: o.number('sigma') ?? 2, percents, keyed: o.flag('keyed', true) };
      }
    }
  }

  private terms(field: FieldDef, o: Options, aggs: Named[]): Terms {
    const metrics = aggs.filter((a) => a.agg.kind === 'metric' && SINGLE_VALUE_METRICS.has(a.agg.op)).map((a) => a.alias);
    const order = o.order(['count', '_count', 'key', '_key', ...metrics], { by: 'count', direction: 'desc' });
    const by = order.by.replace(/^_(count|key)$/, '$1');
    return {
      kind: 'terms',
      field,
      size: o.count('size', 10, 1),
      minDocCount: o.count('minDocCount', 1),
      order: { by, direction: order.direction },
      missing: o.scalar('missing'),
      include: o.matcher('include'),
      exclude: o.matcher('exclude'),
      showError: o.flag('showTermDocCountError', false),
      aggs,
    };
  }
}

/** One operator's options, read with the first problem kept (as ArgReader does for argv). */
class Options {
  error: ReplyError | null = null;
  constructor(
    private readonly op: string,
    private readonly args: JsonObject,
  ) {}

  private fail(why: string): void {
    this.error ??= E.invalidAggregation(`${this.op} ${why}`);
  }

  number(name: string): number | undefined {
    const v = this.args[name];
    if (v === undefined) return undefined;
    if (typeof v === 'number') return v;
    this.fail(`${name} must be a number`);
    return undefined;
  }

  positive(name: string): number {
    const v = this.args[name];
    if (typeof v === 'number' && v > 0) return v;
    this.fail(`${name} must be a positive number`);
    return 1;
  }

  /** A whole number of at least `min`, or `fallback` when absent. */
  count(name: string, fallback: number, min = 0): number {
    const v = this.args[name];
    if (v === undefined) return fallback;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min) return v;
    this.fail(`${name} must be ${min > 0 ? 'a positive' : 'a non-negative'} integer`);
    return fallback;
  }

  flag(name: string, fallback: boolean): boolean {
    const v = this.args[name];
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    this.fail(`${name} must be true or false`);
    return fallback;
  }

  scalar(name: string): FieldValue | undefined {
    const v = this.args[name];
    if (v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    this.fail(`${name} must be a string, a number or a boolean`);
    return undefined;
  }

  /** A one-key object { <by>: "asc" | "desc" }. */
  order(allowed: readonly string[], fallback: { by: string; direction: SortDirection }): { by: string; direction: SortDirection } {
    const v = this.args.order;
    if (v === undefined) return fallback;
    const entries = isObject(v) ? Object.entries(v) : [];
    const [by, direction] = entries[0] ?? [];
    if (entries.length !== 1 || (direction !== 'asc' && direction !== 'desc')) {
      this.fail('order must be one key with "asc" or "desc"');
      return fallback;
    }
    if (!allowed.includes(by!)) {
      this.fail(`cannot order by ${by}`);
      return fallback;
    }
    return { by: by!, direction };
  }

  /** include/exclude: a list of values, or a regular expression that must match a value's whole text. */
  matcher(name: string): ((v: FieldValue) => boolean) | null {
    const v = this.args[name];
    if (v === undefined) return null;
    if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) {
      const values = new Set(v.map(String));
      return (x) => values.has(String(x));
    }
    if (typeof v !== 'string') {
      this.fail(`${name} must be a regular expression or an array of values`);
      return null;
    }
    const matches = wholeMatch(v);
    if (matches === null) {
      this.fail(`${name} ${JSON.stringify(v)} is not a valid regular expression`);
      return null;
    }
    return (x) => matches(String(x));
  }

  ranges(): Range['ranges'] {
    const v = this.args.ranges;
    const bad = () => {
      this.fail('ranges must be a non-empty array of {from, to}');
      return [];
    };
    if (!Array.isArray(v) || v.length === 0) return bad();
    if (v.length > MAX_RANGES) {
      this.fail(`ranges may hold at most ${MAX_RANGES} ranges`);
      return [];
    }
    const out: { key: string; from?: number; to?: number }[] = [];
    for (const r of v) {
      if (!isObject(r)) return bad();
      const { from, to, key } = r;
      if ((from !== undefined && typeof from !== 'number') || (to !== undefined && typeof to !== 'number')) return bad();
      if (key !== undefined && typeof key !== 'string') return bad();
      out.push({ key: key ?? `${from ?? '*'}-${to ?? '*'}`, ...(from !== undefined && { from }), ...(to !== undefined && { to }) });
    }
    return out;
  }

  bounds(name: string): Bounds | null {
    const v = this.args[name];
    if (v === undefined) return null;
    if (isObject(v) && typeof v.min === 'number' && typeof v.max === 'number' && v.min <= v.max) return { min: v.min, max: v.max };
    this.fail(`${name} must be {min, max} with min <= max`);
    return null;
  }

  /** One of `allowed`, or `fallback` when absent. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.args[name];
    if (v === undefined) return fallback;
    if (allowed.includes(v as T)) return v as T;
    this.fail(`${name} must be ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    return fallback;
  }

  /** A $dateHistogram source's fixedInterval, or its calendarInterval (year, month or week). */
  dateInterval(): { interval: number; calendar: Calendar | null } {
    if (this.args.calendarInterval === undefined) return { interval: this.fixedInterval(), calendar: null };
    if (this.args.fixedInterval !== undefined) this.fail('takes fixedInterval or calendarInterval, not both');
    return { interval: 0, calendar: this.oneOf('calendarInterval', CALENDARS, 'year') };
  }

  /** $dateHistogram's fixedInterval ("30m", "1d") in milliseconds. */
  fixedInterval(): number {
    const m = typeof this.args.fixedInterval === 'string' ? /^(\d+)(ms|s|m|h|d)$/.exec(this.args.fixedInterval) : null;
    const ms = m === null ? 0 : Number(m[1]) * UNIT_MS[m[2]];
    if (ms > 0) return ms;
    this.fail('fixedInterval must be a number and a unit (ms, s, m, h or d), e.g. 1d');
    return 1;
  }

  facetPath(): string {
    const v = this.args.path;
    if (typeof v === 'string' && v.startsWith('/')) return v.length > 1 ? v.replace(/\/+$/, '') : v;
    this.fail('path must start with /');
    return '/';
  }

  percents(): number[] {
    const v = this.args.percents;
    if (v === undefined) return DEFAULT_PERCENTS;
    if (Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === 'number' && p >= 0 && p <= 100)) return v as number[];
    this.fail('percents must be numbers from 0 to 100');
    return DEFAULT_PERCENTS;
  }
}

/**
 * $composite's `after`: the afterKey of the previous page, an object of each source's encoded
 * key ("str:books", "f64:20", null), or the same as the flat [name, value, ...] array the SDK
 * hands back for it.
 */
function readAfter(json: Json, sources: readonly CompositeSource[]): CompositeKeyPart[] | ReplyError {
  const given = new Map<string, Json>();
  if (Array.isArray(json) && json.length % 2 === 0) {
    for (let i = 0; i < json.length; i += 2) given.set(String(json[i]), json[i + 1]);
  } else if (isObject(json)) {
    for (const [k, v] of Object.entries(json)) given.set(k, v);
  }
  const bad = E.invalidAggregation('$composite after must be the afterKey of the previous page, naming each source once');
  if (given.size !== sources.length) return bad;
  const out: CompositeKeyPart[] = [];
  for (const s of sources) {
    const part = decodeKeyPart(s, given.get(s.name));
    if (part === undefined) return bad;
    out.push(part);
  }
  return out;
}

/** A source's key as an afterKey holds it: its kind, a colon, its text (null: no value). */
export function encodeKeyPart(s: CompositeSource, part: CompositeKeyPart): string | null {
  return part === null ? null : `${keyTag(s)}:${String(part)}`;
}

function decodeKeyPart(s: CompositeSource, json: Json | undefined): CompositeKeyPart | undefined {
  if (json === null) return null;
  if (typeof json !== 'string') return undefined;
  const colon = json.indexOf(':');
  const tag = json.slice(0, colon);
  const text = json.slice(colon + 1);
  const wanted = keyTag(s);
  if (wanted === 'str' || wanted === 'bool') {
    if (tag !== wanted) return undefined;
    return wanted === 'str' ? text : text === 'true' ? true : text === 'false' ? false : undefined;
  }
  const n = Number(text);
  return (tag === 'f64' || tag === 'i64' || tag === 'u64') && text !== '' && Number.isFinite(n) ? n : undefined;
}

/** What a source's keys are: a histogram's bucket starts are f64, a $terms key has its field's type. */
function keyTag(s: CompositeSource): 'str' | 'bool' | 'f64' | 'i64' | 'u64' {
  if (s.interval > 0 || s.calendar !== null) return 'f64';
  switch (s.field.type) {
    case 'KEYWORD':
      return 'str';
    case 'BOOL':
      return 'bool';
    case 'F64':
      return 'f64';
    case 'U64':
      return 'u64';
    default:
      return 'i64'; // I64, and DATE in ms
  }
}
