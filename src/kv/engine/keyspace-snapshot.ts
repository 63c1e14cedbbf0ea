// A point-in-time walk of a keyspace, for a snapshot written while commands go on (Dragonfly's
// way: copy on write, per key). It yields the encoding of every key that was live when it
// began, each as it was then:
// - it walks the slots that existed at the start; a slot added since holds a key added since;
// - the keyspace calls `keep(s)` before a command reads or changes what slot s holds, before a
//   key leaves it and before a new key takes it: a slot the walk has still ahead is encoded there
//   and then (or found empty), and the walk skips it later. A slot changes only after those calls
//   (lookup, peek, insert and the keyspace's own deletions), so what the walk encodes is what
//   the slot held at the start;
// - `encodeAtStart` reads the keyspace's structures as they stood at the start: clearing the
//   keyspace replaces them, it never empties them.
// Not safe for concurrent use; the keyspace's JS thread owns it.

import type { Slot } from './keyspace.js';

export class KeyspaceSnapshot implements IterableIterator<Buffer> {
  /** The next slot the walk reaches. */
  private at = 0;
  /** Slots dealt with ahead of the walk. */
  private readonly kept = new Set<Slot>();
  /** Their encodings, not yet handed out. */
  private readonly ready: Buffer[] = [];
  private over = false;

  constructor(
    /** How many slots there were at the start. */
    private readonly end: number,
    /**
     * The encoding of the key slot `s` holds, if it holds one live at the start; null if not.
     * It may be a view of a buffer the next encoding reuses: the walk hands it out as it comes,
     * and its taker copies it before asking for the next.
     */
    private readonly encodeAtStart: (s: Slot) => Buffer | null,
    /** Called once the walk is over, whole or dropped. */
    private readonly ended: () => void,
  ) {}

  /** Encodes slot `s` now if the walk has it still ahead; called before what it holds is read or changed. */
  keep(s: Slot): void {
    if (s < this.at || s >= this.end || this.kept.has(s)) return;
    this.kept.add(s);
    const encoded = this.encodeAtStart(s);
    if (encoded !== null) this.ready.push(Buffer.from(encoded)); // handed out later, after other encodings
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Buffer> {
    while (!this.over) {
      const kept = this.ready.pop();
      if (kept !== undefined) return { done: false, value: kept };
      if (this.at === this.end) break;
      const s = this.at++;
      if (this.kept.delete(s)) continue;
      const encoded = this.encodeAtStart(s);
      if (encoded !== null) return { done: false, value: encoded };
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
}
