// SORT's work (Redis sort.c sortCommandGeneric): parse every option, load the elements (only the
// LIMIT range when nothing is sorted), weigh them (the element or its BY key, as a double or as
// bytes), sort, then answer or STORE the elements or their GET lookups.
//
// Redis sorts with glibc's qsort, a stable merge sort, so elements that compare equal keep
// their load order; Array.prototype.sort is stable too. Members of a set that is not an intset
// load in an order Redis leaves unspecified (its hash table's), so ties between them are broken
// by their bytes here, which keeps SORT ... STORE deterministic on replay (it is logged as
// sent, as Redis propagates it; BY and GET read keys the replay has rebuilt by then).

import { strtod } from '../../../text/strtod.js';
import type { Keyspace } from '../../engine/keyspace.js';
import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import { LIST, ListValue } from '../../engine/list/list-value.js';
import { SET_KIND, type SetValue } from '../../engine/set/set-value.js';
import { ZSET_KIND, type ZSet } from '../../engine/zset/zset-value.js';
import { SORT_BY_DENIED, SORT_GET_DENIED, SORT_SCORE_NOT_DOUBLE, SYNTAX, WRONGTYPE, isError, type ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { ArgReader } from '../args.js';
import { unchanged, type Args, type Caller, type Ctx } from '../spec.js';
import { storeResult } from '../store-result.js';
import { hasStar, lookupByPattern } from './pattern.js';

interface SortOptions {
  desc: boolean;
  alpha: boolean;
  offset: number;
  count: number;
  by: string | null;
  /** BY a pattern without '*': keep the stored order. */
  dontSort: boolean;
  gets: string[];
  store: string | null;
}

interface Item {
  readonly element: string;
  score: number;
  /** The BY value compared in ALPHA mode; null when its key is missing. */
  weight: string | null;
}

// SORT key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern ...]] [ASC | DESC] [ALPHA] [STORE destination]
export function sortCommand(ctx: Ctx, argv: Args): Reply {
  return sortGeneric(ctx, argv, false);
}

// SORT_RO key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern ...]] [ASC | DESC] [ALPHA]
export function sortRoCommand(ctx: Ctx, argv: Args): Reply {
  return sortGeneric(ctx, argv, true);
}

function sortGeneric(ctx: Ctx, argv: Args, readOnly: boolean): Reply {
  const o = readOptions(argv, readOnly, ctx.caller.acl?.readsAnyKey() ?? true);
  if (isError(o)) return o;
  const v = ctx.ks.get(argv[1]);
  if (v !== undefined && (typeof v === 'string' || (v.kind !== LIST && v.kind !== SET_KIND && v.kind !== ZSET_KIND))) {
    return WRONGTYPE;
  }
  // An unsorted set would come out in its internal order: a stored result must not depend on it.
  if (o.dontSort && v?.kind === SET_KIND && o.store !== null) {
    o.dontSort = false;
    o.alpha = true;
    o.by = null;
  }
  const len = v === undefined ? 0 : v.kind === LIST ? (v as ListValue).length : v.kind === SET_KIND ? (v as SetValue).size : (v as ZSet).size;
  let start = o.offset < 0 ? 0 : o.offset;
  let end = o.count < 0 ? len - 1 : start + o.count - 1;
  if (start >= len) {
    start = len - 1;
    end = len - 2;
  }
  if (end >= len) end = len - 1;

  let items: Item[];
  if (v !== undefined && v.kind !== SET_KIND && o.dontSort) {
    // Stored order already: load just the range, from the end for DESC.
    items = v.kind === LIST ? listRange(v as ListValue, start, end, o.desc) : zsetRange(v as ZSet, start, end, o.desc);
    end -= start;
    start = 0;
  } else {
    items = loadAll(v as ListValue | SetValue | ZSet | undefined);
  }
  if (!o.dontSort) {
    if (!weigh(ctx.ks, items, o)) return SORT_SCORE_NOT_DOUBLE;
    items.sort(comparator(o, v?.kind === SET_KIND && !(v as SetValue).intset));
  }
  return output(ctx, items, start, end, o, readOnly);
}

/** SORT as a remote server is sent it: refused BY and GET patterns when the caller may not read every key (the server answers syntax errors). */
export function sortRemoteArgs(argv: Args, caller: Caller): Args | ReplyError {
  if (caller.acl === null || caller.acl.readsAnyKey()) return argv;
  const o = readOptions(argv, argv[0].toLowerCase() === 'sort_ro', false);
  return o === SORT_BY_DENIED || o === SORT_GET_DENIED ? o : argv;
}

function readOptions(argv: Args, readOnly: boolean, readsAnyKey: boolean): SortOptions | ReplyError {
  const o: SortOptions = { desc: false, alpha: false, offset: 0, count: -1, by: null, dontSort: false, gets: [], store: null };
  const r = new ArgReader(argv, 2);
  while (!r.done) {
    const word = r.next().toLowerCase();
    const left = r.remaining;
    if (word === 'asc') o.desc = false;
    else if (word === 'desc') o.desc = true;
    else if (word === 'alpha') o.alpha = true;
    else if (word === 'limit' && left >= 2) {
      o.offset = r.int();
      o.count = r.int();
      if (r.error !== null) return r.error;
    } else if (word === 'store' && left >= 1 && !readOnly) o.store = r.next();
    else if (word === 'by' && left >= 1) {
      o.by = r.next();
      // A later BY with a '*' does not undo an earlier one without.
      if (!hasStar(o.by)) o.dontSort = true;
      else if (!readsAnyKey) return SORT_BY_DENIED;
    } else if (word === 'get' && left >= 1) {
      if (!readsAnyKey) return SORT_GET_DENIED;
      o.gets.push(r.next());
    }
    else return SYNTAX;
  }
  return o;
}

function item(element: string): Item {
  return { element, score: 0, weight: null };
}

function listRange(list: ListValue, start: number, end: number, desc: boolean): Item[] {
  const out: Item[] = [];
  const len = list.length;
  for (let i = start; i <= end; i++) out.push(item(list.at(desc ? len - 1 - i : i)));
  return out;
}

function zsetRange(z: ZSet, start: number, end: number, desc: boolean): Item[] {
  const out: Item[] = [];
  if (end < start) return out;
  let node = z.byRank(desc ? z.size - 1 - start : start);
  for (let i = start; i <= end && node !== null; i++) {
    out.push(item(node.member));
    node = desc ? node.prev() : node.next();
  }
  return out;
}

function loadAll(v: ListValue | SetValue | ZSet | undefined): Item[] {
  const out: Item[] = [];
  if (v === undefined) return out;
  if (v.kind === LIST) {
    const list = v as ListValue;
    for (let i = 0; i < list.length; i++) out.push(item(list.at(i)));
  } else if (v.kind === SET_KIND) {
    for (const m of (v as SetValue).members()) out.push(item(m));
  } else {
    for (let node = (v as ZSet).first(); node !== null; node = node.next()) out.push(item(node.member));
  }
  return out;
}

/** Fills each item's score (or ALPHA weight); false when a numeric weight is not a double. */
function weigh(ks: Keyspace, items: Item[], o: SortOptions): boolean {
  if (o.alpha && o.by === null) return true; // the elements compare themselves
  let ok = true;
  for (const it of items) {
    const w = o.by === null ? it.element : lookupByPattern(ks, o.by, it.element);
    if (w === null) continue; // a missing BY key weighs 0 (numeric) or sorts first (ALPHA)
    if (o.alpha) {
      it.weight = w;
      continue;
    }
    // C strtod over a C string: it may stop at a NUL, and ERANGE (overflow, underflow) fails.
    const r = strtod(w);
    const tiny = r.value !== 0 && Math.abs(r.value) < MIN_NORMAL;
    if ((r.end !== w.length && w.charCodeAt(r.end) !== 0) || r.erange || tiny || Number.isNaN(r.value)) ok = false;
    it.score = r.value;
  }
  return ok;
}

/** The smallest normal double: glibc's strtod reports ERANGE below it. */
const MIN_NORMAL = 2.2250738585072014e-308;

/** Byte order; `collate` stops at a NUL as strcoll does (C locale) for a reply. */
function bytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function collate(a: string, b: string): number {
  const na = a.indexOf('\0');
  const nb = b.indexOf('\0');
  return bytes(na < 0 ? a : a.slice(0, na), nb < 0 ? b : b.slice(0, nb));
}

function comparator(o: SortOptions, unordered: boolean): (a: Item, b: Item) => number {
  const text = o.store !== null ? bytes : collate;
  const sign = o.desc ? -1 : 1;
  let cmp: (a: Item, b: Item) => number;
  if (!o.alpha) cmp = (a, b) => (a.score > b.score ? 1 : a.score < b.score ? -1 : bytes(a.element, b.element));
  else if (o.by === null) cmp = (a, b) => text(a.element, b.element);
  else {
    cmp = (a, b) => {
      if (a.weight === null || b.weight === null) return a.weight === b.weight ? 0 : a.weight === null ? -1 : 1;
      return text(a.weight, b.weight);
    };
  }
  if (!unordered) return (a, b) => sign * cmp(a, b);
  return (a, b) => sign * (cmp(a, b) || bytes(a.element, b.element));
}

function output(ctx: Ctx, items: Item[], start: number, end: number, o: SortOptions, readOnly: boolean): Reply {
  const out: (string | null)[] = [];
  for (let j = start; j <= end; j++) {
    const e = items[j].element;
    if (o.gets.length === 0) out.push(e);
    for (const p of o.gets) out.push(lookupByPattern(ctx.ks, p, e));
  }
  // SORT without STORE writes nothing, so nothing is logged.
  if (o.store === null) return readOnly ? out : unchanged(ctx, out);
  // A list, published in the list class, as Redis does.
  return storeResult(ctx, o.store, new ListValue(out.map((x) => x ?? '')), out.length, KeyEvent.list, 'sortstore');
}
