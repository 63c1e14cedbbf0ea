// A point-in-time walk of a keyspace, for a snapshot written while commands go on (Dragonfly's
// way: copy on write, per key). It yields the encoding of every entry that was live when it
// began, each as it was then:
// - it walks the insertion order as it stood at the start (the keyspace replaces that array when
//   it compacts or clears it, never changes its start), so entries inserted since are not in it;
// - the keyspace calls `keep(e)` before a command reads or changes a live entry, and before it
//   deletes or expires one: an entry of the walk not yet reached is encoded there and then, and
//   the walk skips it later. An entry is changed only through those calls (lookup, peek and the
//   keyspace's own deletions), so what the walk encodes is what the entry held at the start;
// - an entry dead when the walk reaches it, and not kept, was dead at the start.
// Not safe for concurrent use; the keyspace's JS thread owns it.

import type { Entry } from './keyspace.js';

export class KeyspaceSnapshot implements IterableIterator<Buffer> {
  /** Index in `order` of the next entry the walk reaches. */
  private at = 0;
  private readonly end: number;
  /** Entries encoded ahead of the walk. */
  private readonly kept = new Set<Entry>();
  /** Their encodings, not yet handed out. */
  private readonly ready: Buffer[] = [];
  private over = false;

  constructor(
    private readonly order: readonly Entry[],
    /** When the walk began: entries expired by then are not live. */
    private readonly startedAt: number,
    private readonly encode: (e: Entry) => Buffer,
    /** Called once the walk is over, whole or dropped. */
    private readonly ended: () => void,
  ) {
    this.end = order.length;
  }

  /** Encodes `e` now if the walk has it still ahead; called before `e` is read, changed or deleted. */
  keep(e: Entry): void {
    if (this.at >= this.end || e.seq < this.order[this.at].seq || e.seq > this.order[this.end - 1].seq || this.kept.has(e)) return;
    this.kept.add(e);
    if (this.liveAtStart(e)) this.ready.push(this.encode(e));
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Buffer> {
    while (!this.over) {
      const kept = this.ready.pop();
      if (kept !== undefined) return { done: false, value: kept };
      if (this.at === this.end) break;
      const e = this.order[this.at++];
      if (this.kept.delete(e) || e.dead || !this.liveAtStart(e)) continue;
      return { done: false, value: this.encode(e) };
    }
    return this.return();
  }

  /** Ends the walk, whole or dropped (also when it never began): the keyspace stops calling `keep`. */
  return(): IteratorResult<Buffer> {
    if (!this.over) {
      this.over = true;
      this.ended();
    }
    return { done: true, value: undefined };
  }

  private liveAtStart(e: Entry): boolean {
    return e.exp === 0 || e.exp > this.startedAt;
  }
}
