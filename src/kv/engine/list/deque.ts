// A double-ended queue on a growable ring buffer: O(1) amortized push and pop at both ends and
// O(1) access by index, the operations Redis's quicklist makes cheap. Inserting or removing in
// the middle moves the shorter side, O(n) as in Redis.
//
// Invariants: the capacity is a power of two (`mask` + 1), at least MIN_CAPACITY; the items
// sit at slots head, head+1, ... (mod capacity); every other slot is undefined, so a removed
// item is not kept alive. The buffer halves when it falls to a quarter full, so a list that
// shrinks gives its memory back and a push/pop pair at the boundary never resizes twice.
// Not safe for concurrent use (nothing in the engine needs it).

const MIN_CAPACITY = 8;

export class Deque<T> {
  private buf: (T | undefined)[];
  private mask: number;
  private head = 0;
  private len = 0;

  constructor(items: readonly T[] = []) {
    let cap = MIN_CAPACITY;
    while (cap < items.length) cap *= 2;
    this.buf = new Array<T | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    for (let i = 0; i < items.length; i++) this.buf[i] = items[i];
    this.len = items.length;
  }

  get length(): number {
    return this.len;
  }

  /** The item at `i`, 0 <= i < length. */
  at(i: number): T {
    return this.buf[(this.head + i) & this.mask] as T;
  }

  /** Replaces the item at `i`, 0 <= i < length. */
  set(i: number, item: T): void {
    this.buf[(this.head + i) & this.mask] = item;
  }

  pushFront(item: T): void {
    if (this.len > this.mask) this.resize((this.mask + 1) * 2);
    this.head = (this.head - 1) & this.mask;
    this.buf[this.head] = item;
    this.len++;
  }

  pushBack(item: T): void {
    if (this.len > this.mask) this.resize((this.mask + 1) * 2);
    this.buf[(this.head + this.len) & this.mask] = item;
    this.len++;
  }

  popFront(): T | undefined {
    if (this.len === 0) return undefined;
    const item = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.len--;
    this.shrinkIfSparse();
    return item;
  }

  popBack(): T | undefined {
    if (this.len === 0) return undefined;
    const at = (this.head + this.len - 1) & this.mask;
    const item = this.buf[at];
    this.buf[at] = undefined;
    this.len--;
    this.shrinkIfSparse();
    return item;
  }

  /** Inserts `item` before position `i` (0 <= i <= length), moving the shorter side. */
  insert(i: number, item: T): void {
    if (this.len > this.mask) this.resize((this.mask + 1) * 2);
    const { buf, mask } = this;
    if (i < this.len - i) {
      this.head = (this.head - 1) & mask;
      for (let k = 0; k < i; k++) buf[(this.head + k) & mask] = buf[(this.head + k + 1) & mask];
    } else {
      for (let k = this.len; k > i; k--) buf[(this.head + k) & mask] = buf[(this.head + k - 1) & mask];
    }
    buf[(this.head + i) & mask] = item;
    this.len++;
  }

  /** Items `from` to `to` exclusive (0 <= from <= to <= length), as a new array. */
  slice(from: number, to: number): T[] {
    const out = new Array<T>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.buf[(this.head + i) & this.mask] as T;
    return out;
  }

  toArray(): T[] {
    return this.slice(0, this.len);
  }

  /** Keeps only positions `from` to `to` exclusive (0 <= from <= to <= length). */
  keep(from: number, to: number): void {
    const { buf, mask } = this;
    for (let i = 0; i < from; i++) buf[(this.head + i) & mask] = undefined;
    for (let i = to; i < this.len; i++) buf[(this.head + i) & mask] = undefined;
    this.head = (this.head + from) & mask;
    this.len = to - from;
    this.shrinkIfSparse();
  }

  /**
   * Removes up to `limit` items equal (===) to `item`, the first ones met walking from the
   * front, or from the back when `fromBack`; returns how many. One pass, the others keep
   * their order.
   */
  remove(item: T, limit: number, fromBack: boolean): number {
    const { buf, mask, head, len } = this;
    let removed = 0;
    if (!fromBack) {
      let w = 0;
      for (let r = 0; r < len; r++) {
        const x = buf[(head + r) & mask];
        if (x === item && removed < limit) removed++;
        else buf[(head + w++) & mask] = x;
      }
      for (let i = w; i < len; i++) buf[(head + i) & mask] = undefined;
    } else {
      let w = len - 1;
      for (let r = len - 1; r >= 0; r--) {
        const x = buf[(head + r) & mask];
        if (x === item && removed < limit) removed++;
        else buf[(head + w--) & mask] = x;
      }
      for (let i = 0; i <= w; i++) buf[(head + i) & mask] = undefined;
      this.head = (head + removed) & mask;
    }
    this.len = len - removed;
    this.shrinkIfSparse();
    return removed;
  }

  private shrinkIfSparse(): void {
    let cap = this.mask + 1;
    if (cap <= MIN_CAPACITY || this.len >= cap >>> 2) return;
    while (cap > MIN_CAPACITY && this.len < cap >>> 2) cap >>>= 1;
    this.resize(cap);
  }

  private resize(cap: number): void {
    const next = new Array<T | undefined>(cap).fill(undefined);
    for (let i = 0; i < this.len; i++) next[i] = this.buf[(this.head + i) & this.mask];
    this.buf = next;
    this.mask = cap - 1;
    this.head = 0;
  }
}
