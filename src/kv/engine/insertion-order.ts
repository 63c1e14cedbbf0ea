// Scan cursors of hashes and sorted sets are insertion ranks ("seq"):
// each keeps its items in an array sorted by seq, append-only with dead items compacted away,
// so an item present for a whole walk is visited exactly once. This finds where a walk resumes.

/** Index of the first item whose seq is at least `seq`, in `order` sorted by seq. */
export function seekSeq(order: readonly { readonly seq: number }[], seq: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
