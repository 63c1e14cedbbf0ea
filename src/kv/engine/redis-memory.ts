// Redis 7.0's MEMORY USAGE estimate (object.c: memoryCommand, objectComputeSize) for a 64-bit
// build with jemalloc, the allocator redis-server ships with. Larder stores values its own
// way, so this answers what a redis-server holding the same value would report: the
// allocations Redis would make, each rounded up to jemalloc's size class, with aggregates
// estimated as Redis estimates them (the average of the first `samples` elements times their
// count). Each container kind computes its own part (ContainerKind.memoryUsage) from the
// helpers here; strings are computed here.

import { parseInt64 } from './int64.js';
import type { Value } from './value.js';

/** sizeof(robj). */
export const ROBJ = 16;
/** sizeof(dictEntry): key, value and next pointers. */
export const DICT_ENTRY = 24;
/** sizeof(dict) in Redis 7.0. */
export const DICT = 56;
export const POINTER = 8;
/** Redis's OBJ_COMPUTE_SIZE_DEF_SAMPLES. */
export const DEFAULT_SAMPLES = 5;
/** Strings up to this many bytes are "embstr": one allocation with their robj (OBJ_ENCODING_EMBSTR_SIZE_LIMIT). */
const EMBSTR_MAX = 44;

/**
 * jemalloc's size class for `n` bytes: 8, then steps of 16 up to 128, then four classes per
 * doubling (160, 192, 224, 256, 320, ...), which holds for the large classes too.
 */
export function jemallocSize(n: number): number {
  if (n <= 8) return 8;
  if (n <= 128) return Math.ceil(n / 16) * 16;
  const step = 2 ** (Math.floor(Math.log2(n - 1)) - 2);
  return Math.ceil(n / step) * step;
}

/** An sds string of `len` bytes as sdsnewlen allocates it: the smallest header that fits, the bytes, a NUL. */
export function sdsSize(len: number): number {
  return jemallocSize(sdsType(len).header + len + 1);
}

/**
 * The bytes an sds made for `len` bytes can hold: Redis 7.0 records its allocation's usable
 * size, up to what its header type can count, and grows it only past that.
 */
export function sdsRoom(len: number): number {
  const { header, max } = sdsType(len);
  return Math.min(jemallocSize(header + len + 1) - header - 1, max);
}

/** Redis's sds header types (sdshdr5, 8, 16, 32, 64): their size and the longest length each counts. */
const SDS_TYPES = [
  { header: 1, max: 31 },
  { header: 3, max: 255 },
  { header: 5, max: 65535 },
  { header: 9, max: 2 ** 32 - 1 },
  { header: 17, max: Infinity },
] as const;

/** The smallest sds header type that counts `len` bytes. */
function sdsType(len: number): (typeof SDS_TYPES)[number] {
  return SDS_TYPES.find((t) => len <= t.max)!;
}

/** A dict's own size and bucket array, holding `count` entries (a power of two, at least 4, buckets). */
export function dictSize(count: number): number {
  return DICT + POINTER * Math.max(4, 2 ** Math.ceil(Math.log2(count)));
}

/**
 * Redis's sampled estimate of an aggregate: the size of the first `samples` items (every item
 * when `samples` is 0) averaged and multiplied by `count`. A fraction is kept for the caller
 * to truncate once, as Redis adds the double to a size_t.
 */
export function sampled<T>(items: Iterable<T>, count: number, samples: number, size: (item: T) => number): number {
  let total = 0;
  let seen = 0;
  for (const item of items) {
    if (samples !== 0 && seen === samples) break;
    total += size(item);
    seen++;
  }
  return seen === 0 ? 0 : (total / seen) * count;
}

/**
 * `sampled` for a dict, whose first items in Redis are in hash order, as good as random:
 * the samples are spread evenly over `items` rather than taken from its start, where the
 * oldest (often the shortest) members sit.
 */
export function spreadSampled<T>(items: readonly T[], samples: number, size: (item: T) => number): number {
  if (samples === 0 || samples >= items.length) return sampled(items, items.length, 0, size);
  const picked = Array.from({ length: samples }, (_, i) => items[Math.floor((i * items.length) / samples)]);
  return sampled(picked, items.length, 0, size);
}

/** MEMORY USAGE for key `key` holding `value`: the value, the key's sds and its dict entry. */
export function memoryUsage(key: string, value: Value, samples: number): number {
  const own = typeof value === 'string' ? stringUsage(value) : value.kind.memoryUsage(value, samples);
  return Math.floor(own) + sdsSize(key.length) + DICT_ENTRY;
}

/**
 * How Redis encodes a string a SET stored: an int64 in canonical form as an integer, a short
 * one as embstr, the rest raw. (A string Redis grew in place, by APPEND or SETRANGE, is raw
 * even when short; Larder cannot tell.)
 */
export function stringEncoding(s: string): 'int' | 'embstr' | 'raw' {
  if (s.length <= 20 && parseInt64(s) !== undefined) return 'int';
  return s.length <= EMBSTR_MAX ? 'embstr' : 'raw';
}

/** A string: an integer fits in its robj, an embstr shares the robj's allocation (with an sdshdr8). */
function stringUsage(s: string): number {
  switch (stringEncoding(s)) {
    case 'int':
      return ROBJ;
    case 'embstr':
      return jemallocSize(ROBJ + 3 + s.length + 1);
    default:
      return ROBJ + sdsSize(s.length);
  }
}
