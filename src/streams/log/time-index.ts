// A sparse time index over one partition, in memory and rebuilt when the partition opens:
// every INDEX_EVERY records it notes the offset and the largest timestamp up to it. The
// running maximum only grows, so a binary search finds the stretch holding the first record
// with timestamp >= T even when producers send timestamps out of order; a short scan
// inside it finishes the lookup. Not safe for concurrent use.

const INDEX_EVERY = 64;

export class TimeIndex {
  private offsets: number[] = [];
  private maxTimes: number[] = [];
  private maxTime = -Infinity;
  private sinceLast = 0;

  add(offset: number, timestamp: number): void {
    if (timestamp > this.maxTime) this.maxTime = timestamp;
    if (++this.sinceLast < INDEX_EVERY) return;
    this.sinceLast = 0;
    this.offsets.push(offset);
    this.maxTimes.push(this.maxTime);
  }

  /** Forgets entries below `start` (retention deleted them). */
  dropBefore(start: number): void {
    let n = 0;
    while (n < this.offsets.length && this.offsets[n] < start) n++;
    if (n === 0) return;
    this.offsets.splice(0, n);
    this.maxTimes.splice(0, n);
  }

  /** The first offset from which a scan for timestamp >= `timestamp` must start. */
  scanFrom(timestamp: number, start: number): number {
    let lo = 0;
    let hi = this.maxTimes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.maxTimes[mid] >= timestamp) hi = mid;
      else lo = mid + 1;
    }
    return lo === 0 ? start : Math.max(start, this.offsets[lo - 1] + 1);
  }
}
