// The collection types as data for collection-editor.tsx: which command reads a page of
// entries, how its reply becomes rows, and which commands add and remove an entry.

import type { Argv } from './api';

export interface CollectionKind {
  /** Column headings of the rows. */
  readonly columns: readonly string[];
  /** Reads the first entries (at most LIMIT). */
  readonly load: (key: string) => Argv;
  readonly rows: (reply: unknown) => string[][];
  /** Names of the add form's fields, in the order `add` takes them. */
  readonly fields: readonly string[];
  readonly add: (key: string, values: readonly string[]) => Argv;
  readonly remove: (key: string, row: readonly string[]) => Argv;
}

/** Entries shown per key; the first ones only, for a start. */
export const LIMIT = 500;

/** An array's highest index (2^64 - 2). */
const LAST_ARRAY_INDEX = '18446744073709551614';

function pairs(flat: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/** By the name TYPE answers. */
export const COLLECTIONS: Readonly<Record<string, CollectionKind>> = {
  hash: {
    columns: ['field', 'value'],
    load: (key) => ['HSCAN', key, '0', 'COUNT', String(LIMIT)],
    rows: (r) => pairs((r as [string, string[]])[1]),
    fields: ['field', 'value'],
    add: (key, [field, value]) => ['HSET', key, field, value],
    remove: (key, [field]) => ['HDEL', key, field],
  },
  list: {
    columns: ['index', 'value'],
    load: (key) => ['LRANGE', key, '0', String(LIMIT - 1)],
    rows: (r) => (r as string[]).map((v, i) => [String(i), v]),
    fields: ['value'],
    add: (key, [value]) => ['RPUSH', key, value],
    remove: (key, [, value]) => ['LREM', key, '1', value],
  },
  set: {
    columns: ['member'],
    load: (key) => ['SSCAN', key, '0', 'COUNT', String(LIMIT)],
    rows: (r) => (r as [string, string[]])[1].map((m) => [m]),
    fields: ['member'],
    add: (key, [member]) => ['SADD', key, member],
    remove: (key, [member]) => ['SREM', key, member],
  },
  zset: {
    columns: ['member', 'score'],
    load: (key) => ['ZRANGE', key, '0', String(LIMIT - 1), 'WITHSCORES'],
    rows: (r) => pairs(r as string[]),
    fields: ['member', 'score'],
    add: (key, [member, score]) => ['ZADD', key, score, member],
    remove: (key, [member]) => ['ZREM', key, member],
  },
  stream: {
    columns: ['id', 'fields'],
    load: (key) => ['XRANGE', key, '-', '+', 'COUNT', String(LIMIT)],
    rows: (r) =>
      (r as [string, string[]][]).map(([id, flat]) => [
        id,
        pairs(flat)
          .map(([f, v]) => `${f}=${v}`)
          .join(', '),
      ]),
    fields: ['field', 'value'],
    add: (key, [field, value]) => ['XADD', key, '*', field, value],
    remove: (key, [id]) => ['XDEL', key, id],
  },
  array: {
    columns: ['index', 'value'],
    load: (key) => ['ARSCAN', key, '0', LAST_ARRAY_INDEX, 'LIMIT', String(LIMIT)],
    rows: (r) => (r as [unknown, string][]).map(([index, value]) => [String(index), value]),
    fields: ['index', 'value'],
    add: (key, [index, value]) => ['ARSET', key, index, value],
    remove: (key, [index]) => ['ARDEL', key, index],
  },
};
