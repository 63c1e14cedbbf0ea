// A binary min-heap of items by expiry, each item knowing its own position (`heapAt`), so an
// item whose expiry changes or that goes away is moved or removed in O(log n) without a
// search. A hash keeps its fields with a TTL here: the earliest expiry is at the top.

export interface HeapItem {
  /** The expiry the heap orders by; changed only through `update`. */
  exp: number;
  /** Position in the heap; -1 when not in it. */
  heapAt: number;
}

export class ExpiryHeap<T extends HeapItem> {
  private readonly items: T[] = [];

  /** The item expiring first. */
  peek(): T | undefined {
    return this.items[0];
  }

  add(item: T): void {
    item.heapAt = this.items.length;
    this.items.push(item);
    this.up(item.heapAt);
  }

  /** Restores the order after `item.exp` changed. */
  update(item: T): void {
    this.up(item.heapAt);
    this.down(item.heapAt);
  }

  remove(item: T): void {
    const at = item.heapAt;
    const last = this.items.pop()!;
    item.heapAt = -1;
    if (last === item) return;
    this.items[at] = last;
    last.heapAt = at;
    this.update(last);
  }

  private up(at: number): void {
    const items = this.items;
    const item = items[at];
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent].exp <= item.exp) break;
      items[at] = items[parent];
      items[at].heapAt = at;
      at = parent;
    }
    items[at] = item;
    item.heapAt = at;
  }

  private down(at: number): void {
    const items = this.items;
    const item = items[at];
    const n = items.length;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && items[child + 1].exp < items[child].exp) child++;
      if (items[child].exp >= item.exp) break;
      items[at] = items[child];
      items[at].heapAt = at;
      at = child;
    }
    items[at] = item;
    item.heapAt = at;
  }
}
