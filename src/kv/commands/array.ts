// Arrays (Upstash's AR* commands, which @upstash/redis 1.39 sends): sparse string values at
// unsigned 64-bit indexes with an append cursor, the value in engine/array/. Texts Upstash
// documents are its own; where it leaves one unworded, Larder words it. An emptied array is
// deleted, its cursor with it. Embedded only: Redis 7.0 has no such type. Writes publish the
// keyspace events of Redis 8.8's native arrays (src/t_array.c), in its class `a`.

import { RE2JS, RE2JSException } from 're2js';
import { globMatch } from '../../text/glob.js';
import { ARRAY_KIND, ArrayValue, MAX_INDEX } from '../engine/array/array-value.js';
import { KeyEvent } from '../engine/pubsub/keyspace-events.js';
import {
  ARRAY_BAD_COUNT,
  ARRAY_BAD_LIMIT,
  ARRAY_BAD_REGEX,
  ARRAY_BAD_SIZE,
  ARRAY_INSERT_OVERFLOW,
  ARRAY_INVALID_INDEX,
  ARRAY_RANGE_TOO_LARGE,
  ARRAY_REVERSED_RANGE,
  ARRAY_TOO_MANY_PREDICATES,
  isError,
  NO_SUCH_KEY,
  SYNTAX,
  wrongArity,
  type ReplyError,
} from '../errors.js';
import type { Reply } from '../reply.js';
import { formatFloat, parseExactInteger, parseFloatText, parseInteger } from './args.js';
import { family, ONE_KEY, type Args, type Ctx, type Flag } from './spec.js';
import { readTyped, removedFrom, writeTyped } from './typed.js';

const MAX_RANGE = 1_000_000n;
const MAX_PREDICATES = 250;
const MAX_REGEX_BYTES = 2048;
const SLICE_SIZE = 4096n;
const INT64_MAX = 2n ** 63n - 1n;

function readArray(ctx: Ctx, key: string): ArrayValue | undefined | ReplyError {
  return readTyped<ArrayValue>(ctx.ks, key, ARRAY_KIND);
}

function writeArray(ctx: Ctx, key: string): ArrayValue | ReplyError {
  return writeTyped(ctx.ks, key, ARRAY_KIND, () => new ArrayValue());
}

/** An index: a decimal from 0 to MAX_INDEX. */
function parseIndex(s: string): bigint | ReplyError {
  if (!/^\d{1,20}$/.test(s)) return ARRAY_INVALID_INDEX;
  const index = BigInt(s);
  return index <= MAX_INDEX ? index : ARRAY_INVALID_INDEX;
}

/** The indexes argv holds from `from` on. */
function parseIndexes(argv: Args, from: number): bigint[] | ReplyError {
  const indexes: bigint[] = [];
  for (let i = from; i < argv.length; i++) {
    const index = parseIndex(argv[i]);
    if (isError(index)) return index;
    indexes.push(index);
  }
  return indexes;
}

/** A positive count (LIMIT, ring size, ARLASTITEMS's count). */
function parsePositive(s: string, error: ReplyError): number | ReplyError {
  const n = parseInteger(s);
  return n === undefined || n < 1 ? error : n;
}

/** An index or length as a reply: an integer while it fits int64, past it digits (RESP2's bulk string). */
function indexReply(n: bigint): Reply {
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(n);
  return n <= INT64_MAX ? n : n.toString();
}

// ARSET key index value [value ...]: the values at index, index + 1, ...; the slots newly taken.
function arsetCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseIndex(argv[2]);
  if (isError(start)) return start;
  if (start + BigInt(argv.length - 4) > MAX_INDEX) return ARRAY_INVALID_INDEX;
  const array = writeArray(ctx, argv[1]);
  if (isError(array)) return array;
  let added = 0;
  for (let i = 3; i < argv.length; i++) if (array.set(start + BigInt(i - 3), argv[i])) added++;
  ctx.events.notify(KeyEvent.array, 'arset', argv[1]);
  return added;
}

// ARMSET key index value [index value ...]: the last value for an index wins; the slots newly taken.
function armsetCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length % 2 !== 0) return wrongArity('armset');
  const indexes: bigint[] = [];
  for (let i = 2; i < argv.length; i += 2) {
    const index = parseIndex(argv[i]);
    if (isError(index)) return index;
    indexes.push(index);
  }
  const array = writeArray(ctx, argv[1]);
  if (isError(array)) return array;
  let added = 0;
  indexes.forEach((index, i) => {
    if (array.set(index, argv[3 + 2 * i])) added++;
  });
  ctx.events.notify(KeyEvent.array, 'armset', argv[1]);
  return added;
}

// ARGET key index: the value, or null for an empty slot or a missing key.
function argetCommand(ctx: Ctx, argv: Args): Reply {
  const index = parseIndex(argv[2]);
  if (isError(index)) return index;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  return array?.get(index) ?? null;
}

// ARMGET key index [index ...]: a value or null per index, in the order asked.
function armgetCommand(ctx: Ctx, argv: Args): Reply {
  const indexes = parseIndexes(argv, 2);
  if (isError(indexes)) return indexes;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  return indexes.map((index) => array?.get(index) ?? null);
}

// ARGETRANGE key start end: every slot from start to end inclusive (downwards when start > end), null where empty.
function argetrangeCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseIndex(argv[2]);
  if (isError(start)) return start;
  const end = parseIndex(argv[3]);
  if (isError(end)) return end;
  const [low, high] = start <= end ? [start, end] : [end, start];
  if (high - low + 1n > MAX_RANGE) return ARRAY_RANGE_TOO_LARGE;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  const out: (string | null)[] = new Array(Number(high - low + 1n)).fill(null);
  array?.scan(low, high, (index, value) => {
    out[Number(index - low)] = value;
    return true;
  });
  return start <= end ? out : out.reverse();
}

/** An inclusive ascending range at argv[at], argv[at + 1]; `-` and `+` are the ends where `ends` allows them. */
function ascendingRange(argv: Args, at: number, ends = false): [bigint, bigint] | ReplyError {
  const bound = (s: string) => (ends && s === '-' ? 0n : ends && s === '+' ? MAX_INDEX : parseIndex(s));
  const start = bound(argv[at]);
  if (isError(start)) return start;
  const end = bound(argv[at + 1]);
  if (isError(end)) return end;
  return start <= end ? [start, end] : ARRAY_REVERSED_RANGE;
}

// ARSCAN key start end [LIMIT n]: [index, value] for each held slot in the range, ascending.
function arscanCommand(ctx: Ctx, argv: Args): Reply {
  const range = ascendingRange(argv, 2);
  if (isError(range)) return range;
  let limit = Infinity;
  if (argv.length === 6 && argv[4].toUpperCase() === 'LIMIT') {
    const n = parsePositive(argv[5], ARRAY_BAD_LIMIT);
    if (isError(n)) return n;
    limit = n;
  } else if (argv.length !== 4) return SYNTAX;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  const out: Reply[] = [];
  array?.scan(range[0], range[1], (index, value) => {
    out.push([indexReply(index), value]);
    return out.length < limit;
  });
  return out;
}

type Predicate = (value: string) => boolean;

/** ASCII lower case, as Redis folds bytes. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

function predicate(kind: string, operand: string, nocase: boolean): Predicate | ReplyError {
  const fold = nocase ? asciiLower : (s: string) => s;
  const wanted = fold(operand);
  switch (kind) {
    case 'EXACT':
      return (v) => fold(v) === wanted;
    case 'MATCH':
      return (v) => fold(v).includes(wanted);
    case 'GLOB':
      return (v) => globMatch(operand, v, nocase);
    case 'RE': {
      if (operand.length > MAX_REGEX_BYTES) return ARRAY_BAD_REGEX;
      try {
        const re = RE2JS.compile(operand, nocase ? RE2JS.CASE_INSENSITIVE : 0);
        return (v) => re.matcher(v).find();
      } catch (e) {
        if (e instanceof RE2JSException) return ARRAY_BAD_REGEX;
        throw e;
      }
    }
    default:
      return SYNTAX;
  }
}

// ARGREP key start end <EXACT|MATCH|GLOB|RE operand>... [AND|OR] [NOCASE] [WITHVALUES] [LIMIT n]
function argrepCommand(ctx: Ctx, argv: Args): Reply {
  const range = ascendingRange(argv, 2, true);
  if (isError(range)) return range;
  const given: [string, string][] = [];
  let all = false;
  let nocase = false;
  let withValues = false;
  let limit = Infinity;
  for (let i = 4; i < argv.length; i++) {
    const word = argv[i].toUpperCase();
    if (['EXACT', 'MATCH', 'GLOB', 'RE'].includes(word) && i + 1 < argv.length) given.push([word, argv[++i]]);
    else if (word === 'AND' || word === 'OR') all = word === 'AND';
    else if (word === 'NOCASE') nocase = true;
    else if (word === 'WITHVALUES') withValues = true;
    else if (word === 'LIMIT' && i + 1 < argv.length) {
      const n = parsePositive(argv[++i], ARRAY_BAD_LIMIT);
      if (isError(n)) return n;
      limit = n;
    } else return SYNTAX;
  }
  if (given.length === 0) return SYNTAX;
  if (given.length > MAX_PREDICATES) return ARRAY_TOO_MANY_PREDICATES;
  const tests: Predicate[] = [];
  for (const [kind, operand] of given) {
    const test = predicate(kind, operand, nocase);
    if (isError(test)) return test;
    tests.push(test);
  }
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  const out: Reply[] = [];
  array?.scan(range[0], range[1], (index, value) => {
    if (all ? tests.every((t) => t(value)) : tests.some((t) => t(value))) out.push(withValues ? [indexReply(index), value] : indexReply(index));
    return out.length < limit;
  });
  return out;
}

// ARDEL key index [index ...]: the slots emptied.
function ardelCommand(ctx: Ctx, argv: Args): Reply {
  const indexes = parseIndexes(argv, 2);
  if (isError(indexes)) return indexes;
  const array = readArray(ctx, argv[1]);
  if (array === undefined || isError(array)) return array ?? 0;
  const removed = indexes.filter((index) => array.delete(index)).length;
  // Redis publishes only when a slot was emptied (an array that exists is never empty).
  if (removed > 0) removedFrom(ctx, KeyEvent.array, 'ardel', argv[1], array.count);
  return removed;
}

// ARDELRANGE key start end [start end ...]: the slots emptied in every range (either way round).
function ardelrangeCommand(ctx: Ctx, argv: Args): Reply {
  if (argv.length % 2 !== 0) return wrongArity('ardelrange');
  const ranges: [bigint, bigint][] = [];
  for (let i = 2; i < argv.length; i += 2) {
    const start = parseIndex(argv[i]);
    if (isError(start)) return start;
    const end = parseIndex(argv[i + 1]);
    if (isError(end)) return end;
    ranges.push(start <= end ? [start, end] : [end, start]);
  }
  const array = readArray(ctx, argv[1]);
  if (array === undefined || isError(array)) return array ?? 0;
  let removed = 0;
  for (const [low, high] of ranges) {
    const held: bigint[] = [];
    array.scan(low, high, (index) => held.push(index) > 0);
    for (const index of held) array.delete(index);
    removed += held.length;
  }
  if (removed > 0) removedFrom(ctx, KeyEvent.array, 'ardelrange', argv[1], array.count);
  return removed;
}

// ARCOUNT key: the slots holding a value.
function arcountCommand(ctx: Ctx, argv: Args): Reply {
  const array = readArray(ctx, argv[1]);
  return isError(array) ? array : (array?.count ?? 0);
}

// ARLEN key: the highest held index plus one.
function arlenCommand(ctx: Ctx, argv: Args): Reply {
  const array = readArray(ctx, argv[1]);
  return isError(array) ? array : indexReply(array?.length ?? 0n);
}

// ARINSERT key value [value ...]: appends at the cursor; the index of the last value.
function arinsertCommand(ctx: Ctx, argv: Args): Reply {
  const array = writeArray(ctx, argv[1]);
  if (isError(array)) return array;
  // A new array starts at 0, so only one that exists can overflow: nothing is made for nothing.
  if (array.next + BigInt(argv.length - 3) > MAX_INDEX) return ARRAY_INSERT_OVERFLOW;
  for (let i = 2; i < argv.length; i++) array.set(array.next++, argv[i]);
  ctx.events.notify(KeyEvent.array, 'arinsert', argv[1]);
  return indexReply(array.next - 1n);
}

// ARRING key size value [value ...]: appends within indexes 0..size-1, wrapping; the index of the last value.
function arringCommand(ctx: Ctx, argv: Args): Reply {
  const size = parseIndex(argv[2]);
  if (isError(size) || size === 0n) return ARRAY_BAD_SIZE;
  const array = writeArray(ctx, argv[1]);
  if (isError(array)) return array;
  if (array.ringSize !== size && array.count > 0) {
    // Another size: the most recent values that fit are laid again from index 0, oldest first.
    const recent: string[] = [];
    for (const [, value] of array.backFrom(array.next === 0n ? MAX_INDEX : array.next - 1n)) {
      if (BigInt(recent.push(value)) === size) break;
    }
    array.clear();
    recent.reverse().forEach((value, i) => array.set(BigInt(i), value));
    array.next = BigInt(recent.length);
  }
  array.ringSize = size;
  let last = 0n;
  for (let i = 3; i < argv.length; i++) {
    if (array.next >= size) array.next = 0n;
    last = array.next++;
    array.set(last, argv[i]);
  }
  ctx.events.notify(KeyEvent.array, 'arring', argv[1]);
  return indexReply(last);
}

// ARLASTITEMS key count [REV]: walking back from the last append (wrapping past 0 to the end),
// up to count slots (at most ARCOUNT), null where empty; oldest first, or newest with REV.
function arlastitemsCommand(ctx: Ctx, argv: Args): Reply {
  const count = parsePositive(argv[2], ARRAY_BAD_COUNT);
  if (isError(count)) return count;
  let newestFirst = false;
  if (argv.length === 4 && argv[3].toUpperCase() === 'REV') newestFirst = true;
  else if (argv.length !== 3) return SYNTAX;
  const array = readArray(ctx, argv[1]);
  if (array === undefined || isError(array)) return array ?? [];
  const length = array.length;
  const wanted = Math.min(count, array.count);
  const out: (string | null)[] = [];
  let index = array.next === 0n || array.next > length ? length - 1n : array.next - 1n;
  for (let steps = 0n; out.length < wanted && steps < length; steps++) {
    out.push(array.get(index) ?? null);
    index = index === 0n ? length - 1n : index - 1n;
  }
  return newestFirst ? out : out.reverse();
}

// ARNEXT key: where the next append writes; null once the last index is taken.
function arnextCommand(ctx: Ctx, argv: Args): Reply {
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  const next = array?.next ?? 0n;
  return next > MAX_INDEX ? null : indexReply(next);
}

// ARSEEK key index: the next append writes at index; 0 (and nothing made) for a missing key.
function arseekCommand(ctx: Ctx, argv: Args): Reply {
  const index = parseIndex(argv[2]);
  if (isError(index)) return index;
  const array = readArray(ctx, argv[1]);
  if (array === undefined || isError(array)) return array ?? 0;
  array.next = index;
  ctx.events.notify(KeyEvent.array, 'arseek', argv[1]);
  return 1;
}

/** A value as a 64-bit integer for AND, OR and XOR: integers exactly, other numbers truncated. */
function asInt64(value: string): bigint | undefined {
  const exact = parseExactInteger(value);
  if (exact !== undefined) return BigInt(exact);
  const x = parseFloatText(value);
  return x === undefined || !Number.isFinite(x) ? undefined : BigInt.asIntN(64, BigInt(Math.trunc(x)));
}

const FOLDS: Record<string, (a: bigint, b: bigint) => bigint> = { AND: (a, b) => a & b, OR: (a, b) => a | b, XOR: (a, b) => a ^ b };
const NUMERIC: Record<string, (a: number, b: number) => number> = { SUM: (a, b) => a + b, MIN: (a, b) => Math.min(a, b), MAX: (a, b) => Math.max(a, b) };

// AROP key start end <SUM|MIN|MAX|AND|OR|XOR|USED|MATCH value>: the values of the range (either
// way round) aggregated; the numeric ones skip what is no number and answer null for none.
function aropCommand(ctx: Ctx, argv: Args): Reply {
  const start = parseIndex(argv[2]);
  if (isError(start)) return start;
  const end = parseIndex(argv[3]);
  if (isError(end)) return end;
  const op = argv[4].toUpperCase();
  if (argv.length !== (op === 'MATCH' ? 6 : 5) || !(op in FOLDS || op in NUMERIC || op === 'USED' || op === 'MATCH')) return SYNTAX;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  const values: string[] = [];
  array?.scan(start <= end ? start : end, start <= end ? end : start, (_, value) => values.push(value) > 0);
  if (op === 'USED') return values.length;
  if (op === 'MATCH') return values.filter((v) => v === argv[5]).length;
  if (op in NUMERIC) {
    const numbers = values.map(parseFloatText).filter((x): x is number => x !== undefined && Number.isFinite(x));
    return numbers.length === 0 ? null : formatFloat(numbers.reduce(NUMERIC[op]));
  }
  const ints = values.map(asInt64).filter((x): x is bigint => x !== undefined);
  if (ints.length === 0) return null;
  const folded = BigInt.asIntN(64, ints.reduce(FOLDS[op]));
  return Number.isSafeInteger(Number(folded)) ? Number(folded) : folded;
}

// ARINFO key [FULL]: the layout as Upstash's slices of 4096 indexes would hold it.
function arinfoCommand(ctx: Ctx, argv: Args): Reply {
  const full = argv.length === 3 && argv[2].toUpperCase() === 'FULL';
  if (argv.length > 3 || (argv.length === 3 && !full)) return SYNTAX;
  const array = readArray(ctx, argv[1]);
  if (isError(array)) return array;
  if (array === undefined) return NO_SUCH_KEY;
  const slices = array.sliceCounts(SLICE_SIZE);
  const info: Reply[] = [
    'len', indexReply(array.length), 'count', array.count, 'slice-size', Number(SLICE_SIZE), 'slices', slices.size,
    'directory-size', slices.size, 'super-dir-entries', 0, 'next-insert-index', array.next > MAX_INDEX ? null : indexReply(array.next),
  ];
  if (!full) return info;
  // A slice at least a quarter full is kept dense (an array of its slots), else sparse.
  const sizes = [...slices.values()];
  const dense = sizes.filter((n) => BigInt(n) * 4n >= SLICE_SIZE);
  const sparse = sizes.filter((n) => BigInt(n) * 4n < SLICE_SIZE);
  const average = (ns: number[]) => (ns.length === 0 ? 0 : ns.reduce((a, b) => a + b, 0) / ns.length);
  info.push(
    'dense-slices', dense.length, 'sparse-slices', sparse.length,
    'avg-dense-size', formatFloat(average(dense)), 'avg-dense-fill', formatFloat(average(dense) / Number(SLICE_SIZE)),
    'avg-sparse-size', formatFloat(average(sparse)),
  );
  return info;
}

const WRITE: readonly Flag[] = ['write', 'embedded'];
const READ: readonly Flag[] = ['readonly', 'embedded'];
const READ_FAST: readonly Flag[] = [...READ, 'fast'];

export default family('array', null, [
  { name: 'arset', arity: -4, flags: WRITE, keys: ONE_KEY, run: arsetCommand },
  { name: 'armset', arity: -4, flags: WRITE, keys: ONE_KEY, run: armsetCommand },
  { name: 'arget', arity: 3, flags: READ_FAST, keys: ONE_KEY, run: argetCommand },
  { name: 'armget', arity: -3, flags: READ, keys: ONE_KEY, run: armgetCommand },
  { name: 'argetrange', arity: 4, flags: READ, keys: ONE_KEY, run: argetrangeCommand },
  { name: 'arscan', arity: -4, flags: READ, keys: ONE_KEY, run: arscanCommand },
  { name: 'argrep', arity: -6, flags: READ, keys: ONE_KEY, run: argrepCommand },
  { name: 'ardel', arity: -3, flags: WRITE, keys: ONE_KEY, run: ardelCommand },
  { name: 'ardelrange', arity: -4, flags: WRITE, keys: ONE_KEY, run: ardelrangeCommand },
  { name: 'arcount', arity: 2, flags: READ_FAST, keys: ONE_KEY, run: arcountCommand },
  { name: 'arlen', arity: 2, flags: READ_FAST, keys: ONE_KEY, run: arlenCommand },
  { name: 'arinsert', arity: -3, flags: WRITE, keys: ONE_KEY, run: arinsertCommand },
  { name: 'arring', arity: -4, flags: WRITE, keys: ONE_KEY, run: arringCommand },
  { name: 'arlastitems', arity: -3, flags: READ, keys: ONE_KEY, run: arlastitemsCommand },
  { name: 'arnext', arity: 2, flags: READ_FAST, keys: ONE_KEY, run: arnextCommand },
  { name: 'arseek', arity: 3, flags: WRITE, keys: ONE_KEY, run: arseekCommand },
  { name: 'arop', arity: -5, flags: READ, keys: ONE_KEY, run: aropCommand },
  { name: 'arinfo', arity: -2, flags: READ, keys: ONE_KEY, run: arinfoCommand },
]);
