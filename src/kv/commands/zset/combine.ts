// ZUNION, ZINTER, ZDIFF, their STORE forms and ZINTERCARD: one generic, as Redis's
// zunionInterDiffGenericCommand. Inputs may be sorted sets or plain sets, whose members all
// count with score 1.
//
// Float sums depend on the order of addition, so the order is Redis's: for union and
// intersection the inputs are sorted by size, smallest first (stably, as glibc's merge-sort
// qsort), a member's aggregate starts from the first input holding it and adds the others in
// that order. A weighted score that is NaN (0 * inf) counts as 0, and so does a SUM of inf and
// -inf.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { SetValue } from '../../engine/set/set-value.js';
import { ZSet } from '../../engine/zset/zset-value.js';
import { atLeastOneKey, LIMIT_NEGATIVE, NOT_INTEGER, SYNTAX, WEIGHT_NOT_FLOAT, WRONGTYPE } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseFloatText, parseInteger } from '../args.js';
import { replyDouble } from '../reply-double.js';
import type { Args, Ctx } from '../spec.js';
import { storeResult } from '../store-result.js';

type Op = 'union' | 'inter' | 'diff';
type Aggregate = 'sum' | 'min' | 'max';

interface Source {
  /** null for a missing key: an empty input. */
  readonly value: ZSet | SetValue | null;
  weight: number;
}

interface Form {
  readonly op: Op;
  /** Where numkeys is: 1, or 2 after the destination of a STORE form. */
  readonly numkeysAt: number;
  readonly store: boolean;
  readonly cardinality: boolean;
}

// ZUNION numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]
export function zunionCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'union', numkeysAt: 1, store: false, cardinality: false });
}

// ZINTER numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]
export function zinterCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'inter', numkeysAt: 1, store: false, cardinality: false });
}

// ZDIFF numkeys key [key ...] [WITHSCORES]
export function zdiffCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'diff', numkeysAt: 1, store: false, cardinality: false });
}

// ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX]
export function zunionstoreCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'union', numkeysAt: 2, store: true, cardinality: false });
}

// ZINTERSTORE destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX]
export function zinterstoreCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'inter', numkeysAt: 2, store: true, cardinality: false });
}

// ZDIFFSTORE destination numkeys key [key ...]
export function zdiffstoreCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'diff', numkeysAt: 2, store: true, cardinality: false });
}

// ZINTERCARD numkeys key [key ...] [LIMIT limit]
export function zintercardCommand(ctx: Ctx, argv: Args): Reply {
  return combine(ctx, argv, { op: 'inter', numkeysAt: 1, store: false, cardinality: true });
}

function combine(ctx: Ctx, argv: Args, form: Form): Reply {
  const setnum = parseInteger(argv[form.numkeysAt]);
  if (setnum === undefined) return NOT_INTEGER;
  if (setnum < 1) return atLeastOneKey(argv[0].toLowerCase());
  if (setnum > argv.length - form.numkeysAt - 1) return SYNTAX;
  // Inputs are looked up (and type-checked) before the options are read, as in Redis.
  const sources: Source[] = [];
  let j = form.numkeysAt + 1;
  for (; sources.length < setnum; j++) {
    const v = ctx.ks.get(argv[j]);
    if (v !== undefined && (typeof v === 'string' || (v.kind.type !== 'zset' && v.kind.type !== 'set'))) return WRONGTYPE;
    sources.push({ value: (v as ZSet | SetValue | undefined) ?? null, weight: 1 });
  }

  let aggregate: Aggregate = 'sum';
  let withScores = false;
  let limit = 0; // ZINTERCARD: stop counting there; 0 for no limit
  const options = form.op !== 'diff' && !form.cardinality;
  while (j < argv.length) {
    const opt = argv[j].toLowerCase();
    const remaining = argv.length - j;
    if (options && remaining >= setnum + 1 && opt === 'weights') {
      j++;
      for (const src of sources) {
        const w = parseFloatText(argv[j++]);
        if (w === undefined) return WEIGHT_NOT_FLOAT;
        src.weight = w;
      }
    } else if (options && remaining >= 2 && opt === 'aggregate') {
      const a = argv[j + 1].toLowerCase();
      if (a !== 'sum' && a !== 'min' && a !== 'max') return SYNTAX;
      aggregate = a;
      j += 2;
    } else if (!form.store && !form.cardinality && opt === 'withscores') {
      withScores = true;
      j++;
    } else if (form.cardinality && remaining >= 2 && opt === 'limit') {
      const n = parseInteger(argv[j + 1]);
      if (n === undefined || n < 0) return LIMIT_NEGATIVE;
      limit = n;
      j += 2;
    } else {
      return SYNTAX;
    }
  }

  if (form.op !== 'diff') sources.sort((a, b) => sizeOf(a.value) - sizeOf(b.value));
  if (form.cardinality) return intersect(sources, aggregate, limit, null);
  const result = new Map<string, number>();
  if (form.op === 'union') union(sources, aggregate, result);
  else if (form.op === 'inter') intersect(sources, aggregate, 0, result);
  else diff(sources, result);

  if (form.store) return storeResult(ctx, argv[1], ZSet.of(result), result.size, KeyEvent.zset, `z${form.op}store`);
  // Redis replies from the skip list it built, never a listpack, so a -0 stays -0 here.
  const z = new ZSet(false);
  for (const [member, score] of result) z.add(member, score);
  const out: string[] = [];
  for (let x = z.first(); x !== null; x = x.next()) {
    out.push(x.member);
    if (withScores) out.push(replyDouble(x.score));
  }
  return out;
}

function sizeOf(v: ZSet | SetValue | null): number {
  return v === null ? 0 : v.size;
}

/** A member's score in an input, undefined when it is not there. */
function scoreIn(v: ZSet | SetValue | null, member: string): number | undefined {
  if (v === null) return undefined;
  if (v instanceof ZSet) return v.score(member);
  return v.has(member) ? 1 : undefined;
}

/**
 * Every member of an input with its score, sorted sets from the highest as Redis walks them,
 * until `visit` returns false.
 */
function forEach(v: ZSet | SetValue | null, visit: (member: string, score: number) => boolean): void {
  if (v === null) return;
  if (v instanceof ZSet) {
    for (let x = v.last(); x !== null; x = x.prev()) if (!visit(x.member, x.score)) return;
  } else {
    for (const member of v.members()) if (!visit(member, 1)) return;
  }
}

function aggregateInto(target: number, value: number, how: Aggregate): number {
  switch (how) {
    case 'sum': {
      const sum = target + value;
      return Number.isNaN(sum) ? 0 : sum;
    }
    // Comparisons with NaN are false, so a NaN value keeps the target, as in C.
    case 'min':
      return value < target ? value : target;
    case 'max':
      return value > target ? value : target;
  }
}

function union(sources: Source[], how: Aggregate, out: Map<string, number>): void {
  for (const src of sources) {
    forEach(src.value, (member, score) => {
      let weighted = src.weight * score;
      if (Number.isNaN(weighted)) weighted = 0;
      const current = out.get(member);
      out.set(member, current === undefined ? weighted : aggregateInto(current, weighted, how));
      return true;
    });
  }
}

/**
 * The members of the smallest input present in all the others. Into `out` with aggregated
 * scores, or, when `out` is null, only counted (up to `limit` when it is not 0).
 */
function intersect(sources: Source[], how: Aggregate, limit: number, out: Map<string, number> | null): number {
  let count = 0;
  const [smallest, ...others] = sources;
  forEach(smallest.value, (member, score) => {
    let total = smallest.weight * score;
    if (Number.isNaN(total)) total = 0;
    for (const src of others) {
      const s = scoreIn(src.value, member);
      if (s === undefined) return true;
      total = aggregateInto(total, s * src.weight, how);
    }
    count++;
    out?.set(member, total);
    return limit === 0 || count < limit;
  });
  return count;
}

/** The members of the first input found in none of the others, with their scores. */
function diff(sources: Source[], out: Map<string, number>): void {
  const [first, ...others] = sources;
  forEach(first.value, (member, score) => {
    for (const src of others) if (scoreIn(src.value, member) !== undefined) return true;
    out.set(member, score);
    return true;
  });
}
