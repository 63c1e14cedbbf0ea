// A binary min-heap of (due time, message id): the delivery schedule. Entries may go stale (a
// message cancelled or rescheduled); the scheduler checks each one it pops against the store.

export interface Due {
  at: number;
  id: string;
}

export class DueHeap {
  private readonly items: Due[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Due | undefined {
    return this.items[0];
  }

  push(d: Due): void {
    const a = this.items;
    a.push(d);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent].at <= a[i].at) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }

  pop(): Due | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < a.length && a[l].at < a[min].at) min = l;
      if (r < a.length && a[r].at < a[min].at) min = r;
      if (min === i) break;
      [a[min], a[i]] = [a[i], a[min]];
      i = min;
    }
    return top;
  }
}
