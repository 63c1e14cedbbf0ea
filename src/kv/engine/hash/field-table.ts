// A hash's fields as objects, once it is too large, or has a field with an expiry (Redis 7.4's
// field TTLs), for the packed form hash-value.ts keeps small hashes in: fields in insertion
// order, each with an optional expiry. Not safe for concurrent use, and needs none.
//
// Invariants:
// - `byName` maps each live field's name to its Field, in insertion order: the order HGETALL
//   answers in, as Redis's listpack does for small hashes (an overwrite keeps the place, a
//   field deleted and set again goes last).
// - `order` holds the same fields sorted by `seq`, plus dead ones awaiting compaction; HSCAN
//   cursors are seqs and HRANDFIELD picks by index, both in O(1) or O(log n).
// - `expiries` holds exactly the live fields with an expiry (exp > 0), earliest on top.
//   Fields past their expiry are deleted by the keyspace (`expireDue`) before any command
//   sees the hash, so the commands never meet one.
// - `listpack` is whether Redis would still hold this hash as a listpack (at most 128 fields,
//   none of whose names or values is longer than 64 bytes). Once false it stays false, as
//   Redis never converts back. OBJECT ENCODING and HSCAN's paging follow it.

import { ExpiryHeap } from './expiry-heap.js';
import type { FieldRow } from './hash-codec.js';
import { seekSeq } from '../insertion-order.js';

/** Redis's hash-max-listpack-entries and hash-max-listpack-value defaults. */
export const LISTPACK_MAX_ENTRIES = 128;
export const LISTPACK_MAX_VALUE = 64;

export interface Field extends FieldRow {
  value: string;
  exp: number;
  readonly seq: number;
  heapAt: number;
  dead: boolean;
}

export class FieldTable {
  private readonly byName = new Map<string, Field>();
  private order: Field[] = [];
  private deadInOrder = 0;
  private nextSeq = 1;
  private readonly expiries = new ExpiryHeap<Field>();
  private listpack = true;
  /** Whether a field ever had an expiry: Redis's listpack then becomes "listpackex" for good. */
  private everVolatile = false;

  get size(): number {
    return this.byName.size;
  }

  get memberExpiry(): number {
    return this.expiries.peek()?.exp ?? 0;
  }

  /** Whether Redis would hold this hash as a listpack, small enough to answer whole. */
  get compact(): boolean {
    return this.listpack;
  }

  get encoding(): string {
    if (!this.listpack) return 'hashtable';
    return this.everVolatile ? 'listpackex' : 'listpack';
  }

  get(name: string): Field | undefined {
    return this.byName.get(name);
  }

  /**
   * Sets a field; returns whether it is new. An existing field's expiry is dropped, as HSET
   * drops it, unless `keepTtl` (HINCRBY, HSETEX KEEPTTL).
   */
  set(name: string, value: string, keepTtl = false): boolean {
    this.fit(name);
    this.fit(value);
    const f = this.byName.get(name);
    if (f !== undefined) {
      f.value = value;
      if (!keepTtl && f.exp !== 0) this.setExpiry(f, 0);
      return false;
    }
    const field: Field = { name, value, exp: 0, seq: this.nextSeq++, heapAt: -1, dead: false };
    this.byName.set(name, field);
    this.order.push(field);
    if (this.byName.size > LISTPACK_MAX_ENTRIES) this.listpack = false;
    return true;
  }

  delete(name: string): boolean {
    const f = this.byName.get(name);
    if (f === undefined) return false;
    this.byName.delete(name);
    if (f.exp !== 0) this.expiries.remove(f);
    f.dead = true;
    if (++this.deadInOrder > 16 && this.deadInOrder * 2 > this.order.length) {
      this.order = this.order.filter((x) => !x.dead);
      this.deadInOrder = 0;
    }
    return true;
  }

  /** Gives live field `f` an absolute expiry in ms, or none with 0. */
  setExpiry(f: Field, exp: number): void {
    if (f.exp === exp) return;
    const had = f.exp !== 0;
    f.exp = exp;
    if (exp === 0) this.expiries.remove(f);
    else if (had) this.expiries.update(f);
    else {
      this.expiries.add(f);
      this.everVolatile = true;
    }
  }

  /** Redis's hashTypeTryConversion: an argument too long for a listpack converts the hash. */
  private fit(arg: string): void {
    if (arg.length > LISTPACK_MAX_VALUE) this.listpack = false;
  }

  /** The live fields in order. */
  fields(): IterableIterator<Field> {
    return this.byName.values();
  }

  /** A uniformly chosen live field; the hash must not be empty. */
  random(): Field {
    for (;;) {
      const f = this.order[Math.floor(Math.random() * this.order.length)];
      if (!f.dead) return f;
    }
  }

  /**
   * Visits the live fields from cursor `from` on, stopping after `count` of them; returns the
   * cursor to go on from, 0 when the walk is complete. A field present for the whole walk is
   * visited exactly once.
   */
  scan(from: number, count: number, visit: (f: Field) => void): number {
    const order = this.order;
    let i = seekSeq(order, from);
    for (let seen = 0; i < order.length && seen < count; i++) {
      if (order[i].dead) continue;
      visit(order[i]);
      seen++;
    }
    return i < order.length ? order[i].seq : 0;
  }

  /** Deletes the fields whose expiry is at or before `now`; returns their names. */
  expireDue(now: number): string[] {
    const gone: string[] = [];
    for (let f = this.expiries.peek(); f !== undefined && f.exp <= now; f = this.expiries.peek()) {
      gone.push(f.name);
      this.delete(f.name);
    }
    return gone;
  }

  clone(): FieldTable {
    const copy = FieldTable.of(this.byName.values());
    copy.listpack = this.listpack;
    copy.everVolatile = this.everVolatile;
    return copy;
  }

  /** A hash of `rows`, encoded as Redis would load it: a listpack when it fits in one. */
  static of(rows: Iterable<FieldRow>): FieldTable {
    const h = new FieldTable();
    for (const r of rows) {
      h.set(r.name, r.value);
      if (r.exp !== 0) h.setExpiry(h.get(r.name)!, r.exp);
    }
    return h;
  }
}
