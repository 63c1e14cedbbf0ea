// A hash: fields in insertion order, each with an optional expiry (Redis 7.4's field TTLs).
// Not safe for concurrent use, and needs none.
//
// Two forms, as Redis has a listpack and a hashtable:
// - packed: while Redis would keep the hash as a plain listpack (at most 128 fields, no name or
//   value longer than 64 bytes, no field ever given an expiry), every field is one string,
//   [one char: name length][name][one char: value length][value] per field, in insertion
//   order. Lookups scan it, as Redis scans a listpack; it costs a few hundred bytes less per
//   hash than objects per field, which matters for the many small hashes a cache holds.
//   The string is kept flat (built by join, not +): a concatenation is a tree of string pieces
//   until something reads it, several times the bytes of the flat string.
//   `get`, `fields` and `random` hand out Field objects made on the spot, seq being the
//   field's place (1-based); changes go through `set`, `delete` and `setExpiry` by name.
//   Between commands the keyspace keeps just that string in the key's slot (HASH_KIND's
//   fold/unfold, value.ts), so a small hash costs no HashValue object.
// - a FieldTable (field-table.ts), for good, once the hash outgrows the packed form.

import { LISTPACK_OVERHEAD, stringSize } from '../listpack-size.js';
import { DICT_ENTRY, dictSize, jemallocSize, ROBJ, sdsSize, spreadSampled } from '../redis-memory.js';
import { registerKind, type Container, type ContainerKind } from '../value.js';
import { FieldTable, LISTPACK_MAX_ENTRIES, LISTPACK_MAX_VALUE, type Field } from './field-table.js';
import { decodeFields, encodeFields, type FieldRow } from './hash-codec.js';

export type { Field } from './field-table.js';

export class HashValue implements Container {
  /** The packed fields, or the FieldTable that holds them for good. One field: a hash object costs per hash. */
  private body: string | FieldTable = '';

  get kind(): ContainerKind {
    return HASH_KIND;
  }

  private get packed(): string | null {
    return typeof this.body === 'string' ? this.body : null;
  }

  private get table(): FieldTable | null {
    return typeof this.body === 'string' ? null : this.body;
  }

  get size(): number {
    if (this.table !== null) return this.table.size;
    let count = 0;
    this.walk(() => {
      count++;
      return false;
    });
    return count;
  }

  get memberExpiry(): number {
    return this.table === null ? 0 : this.table.memberExpiry;
  }

  /** Whether Redis would hold this hash as a listpack, small enough to answer whole. */
  get compact(): boolean {
    return this.table === null || this.table.compact;
  }

  get encoding(): string {
    return this.table === null ? 'listpack' : this.table.encoding;
  }

  get(name: string): Field | undefined {
    if (this.table !== null) return this.table.get(name);
    let found: Field | undefined;
    this.walk((at, valueAt, end, seq) => {
      if (!this.named(name, at, valueAt)) return false;
      found = packedField(name, this.packed!.slice(valueAt + 1, end), seq);
      return true;
    });
    return found;
  }

  /**
   * Sets a field; returns whether it is new. An existing field's expiry is dropped, as HSET
   * drops it, unless `keepTtl` (HINCRBY, HSETEX KEEPTTL).
   */
  set(name: string, value: string, keepTtl = false): boolean {
    const packed = this.packed;
    if (packed === null || name.length > LISTPACK_MAX_VALUE || value.length > LISTPACK_MAX_VALUE) return this.unpack().set(name, value, keepTtl);
    const at = this.find(name);
    if (at >= 0) {
      const valueAt = at + 1 + name.length;
      this.body = [packed.slice(0, valueAt), lengthChar(value), value, packed.slice(valueAt + 1 + packed.charCodeAt(valueAt))].join('');
      return false;
    }
    if (this.size === LISTPACK_MAX_ENTRIES) return this.unpack().set(name, value, keepTtl);
    this.body = [packed, lengthChar(name), name, lengthChar(value), value].join('');
    return true;
  }

  delete(name: string): boolean {
    const packed = this.packed;
    if (packed === null) return this.table!.delete(name);
    const at = this.find(name);
    if (at < 0) return false;
    const valueAt = at + 1 + name.length;
    this.body = [packed.slice(0, at), packed.slice(valueAt + 1 + packed.charCodeAt(valueAt))].join('');
    return true;
  }

  /** Gives live field `f` (by its name) an absolute expiry in ms, or none with 0. */
  setExpiry(f: Field, exp: number): void {
    if (this.table === null && exp === 0) return; // a packed field has none
    const table = this.unpack();
    table.setExpiry(table.get(f.name)!, exp);
  }

  /** The live fields in order. */
  fields(): IterableIterator<Field> {
    if (this.table !== null) return this.table.fields();
    const packed = this.packed!;
    const out: Field[] = [];
    this.walk((at, valueAt, end, seq) => {
      out.push(packedField(packed.slice(at + 1, valueAt), packed.slice(valueAt + 1, end), seq));
      return false;
    });
    return out.values();
  }

  /** A uniformly chosen live field; the hash must not be empty. */
  random(): Field {
    if (this.table !== null) return this.table.random();
    const pick = Math.floor(Math.random() * this.size);
    let i = 0;
    for (const f of this.fields()) if (i++ === pick) return f;
    throw new Error('random() of an empty hash');
  }

  /**
   * Visits the live fields from cursor `from` on, stopping after `count` of them; returns the
   * cursor to go on from, 0 when the walk is complete. A field present for the whole walk is
   * visited exactly once (HSCAN answers a packed hash whole, so its cursors never outlive a change).
   */
  scan(from: number, count: number, visit: (f: Field) => void): number {
    if (this.table !== null) return this.table.scan(from, count, visit);
    let seen = 0;
    for (const f of this.fields()) {
      if (f.seq < from) continue;
      if (seen === count) return f.seq;
      visit(f);
      seen++;
    }
    return 0;
  }

  /** Deletes the fields whose expiry is at or before `now`; returns their names. */
  expireDue(now: number): string[] {
    return this.table === null ? [] : this.table.expireDue(now);
  }

  /** The packed string, or null once the fields are in a FieldTable. */
  get folded(): string | null {
    return this.packed;
  }

  /** The hash whose packed string is `packed` (from `folded`). */
  static unfold(packed: string): HashValue {
    const h = new HashValue();
    h.body = packed;
    return h;
  }

  clone(): HashValue {
    const copy = new HashValue();
    copy.body = typeof this.body === 'string' ? this.body : this.body.clone();
    return copy;
  }

  /** A hash of `rows`, encoded as Redis would load it: a listpack when it fits in one. */
  static of(rows: Iterable<FieldRow>): HashValue {
    const h = new HashValue();
    for (const r of rows) {
      h.set(r.name, r.value);
      if (r.exp !== 0) h.setExpiry(h.get(r.name)!, r.exp);
    }
    return h;
  }

  /** Where `name`'s length char sits in the packed string, or -1. */
  private find(name: string): number {
    return this.walk((at, valueAt) => this.named(name, at, valueAt));
  }

  /** Whether the packed field at `at` (its value at `valueAt`) is named `name`. */
  private named(name: string, at: number, valueAt: number): boolean {
    return valueAt - at - 1 === name.length && this.packed!.startsWith(name, at + 1);
  }

  /**
   * Calls `visit` with each packed field's start, its value's start (the length char), its end
   * and its place, until it answers true; returns the start it stopped at, or -1.
   */
  private walk(visit: (at: number, valueAt: number, end: number, seq: number) => boolean): number {
    const packed = this.packed!;
    for (let at = 0, seq = 1; at < packed.length; seq++) {
      const valueAt = at + 1 + packed.charCodeAt(at);
      const end = valueAt + 1 + packed.charCodeAt(valueAt);
      if (visit(at, valueAt, end, seq)) return at;
      at = end;
    }
    return -1;
  }

  /** Moves the fields to a FieldTable, for good. */
  private unpack(): FieldTable {
    if (typeof this.body === 'string') this.body = FieldTable.of(this.fields());
    return this.body;
  }
}

const lengthChar = (s: string) => String.fromCharCode(s.length);

function packedField(name: string, value: string, seq: number): Field {
  return { name, value, exp: 0, seq, heapAt: -1, dead: false };
}

export const HASH_KIND: ContainerKind = registerKind({
  type: 'hash',
  tag: 1,
  clone: (v) => (v as HashValue).clone(),
  encode: (v) => encodeFields((v as HashValue).fields(), (v as HashValue).size),
  decode(bytes) {
    const rows = decodeFields(bytes);
    return rows === null || rows.length === 0 ? null : HashValue.of(rows);
  },
  encoding: (v) => (v as HashValue).encoding,
  memoryUsage: (v, samples) => hashMemory(v as HashValue, samples),
  expireMembers(v, key, now) {
    const h = v as HashValue;
    return { log: ['hdel', key, ...h.expireDue(now)], left: h.size };
  },
  fold: (v) => (v as HashValue).folded,
  unfold: (packed) => HashValue.unfold(packed),
});

/** Redis 7.0's size of a hash: one listpack of fields and values, or a dict of sds pairs. */
function hashMemory(h: HashValue, samples: number): number {
  if (h.compact) {
    let bytes = LISTPACK_OVERHEAD;
    for (const f of h.fields()) bytes += stringSize(f.name) + stringSize(f.value);
    return ROBJ + jemallocSize(bytes);
  }
  const pair = (f: Field) => sdsSize(f.name.length) + sdsSize(f.value.length) + DICT_ENTRY;
  return ROBJ + dictSize(h.size) + spreadSampled([...h.fields()], samples, pair);
}
