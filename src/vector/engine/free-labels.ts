// The labels of a namespace that no record holds, below its next new label. A new record takes
// the smallest of them, so churn does not grow the columns kept per label (namespace.ts,
// vector-slab.ts). Smallest first, not last freed, because a restart must hand out the labels
// the first run did: it knows which labels are free, not the order they were freed in.
// A binary min-heap in one array.
// Not safe for concurrent use; the index's JS thread owns it.

export class FreeLabels {
  private readonly heap: number[] = [];

  add(label: number): void {
    const heap = this.heap;
    let at = heap.push(label) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent] <= label) break;
      heap[at] = heap[parent];
      at = parent;
    }
    heap[at] = label;
  }

  /** Removes and returns the smallest free label; undefined when there is none. */
  takeSmallest(): number | undefined {
    const heap = this.heap;
    const smallest = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return smallest;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && heap[child + 1] < heap[child]) child++;
      if (heap[child] >= last) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = last;
    return smallest;
  }

  clear(): void {
    this.heap.length = 0;
  }
}
