// A point-in-time walk of the workflow runs, for a snapshot written while the queue goes on
// serving (the key-value keyspace's walk does the same per key). It yields every run held when
// it began, in the store's order, encoded as it was then:
// - it walks a set of the runs held at the start (references, not copies); a run added since is
//   not in it, and one the store forgets since (the oldest ended ones) still is;
// - runs change in place (a step appended, a waiter added, the state at the end), so the store
//   calls `keep(run)` before it changes one: a run the walk has still ahead is encoded there
//   and then, and the walk hands that encoding out when it reaches the run.
// Not safe for concurrent use; the store's JS thread owns it.

import type { RunRecord } from './run.js';

export class RunWalk implements IterableIterator<Buffer> {
  /** The runs not yet handed out, in the store's order. */
  private readonly ahead: Set<RunRecord>;
  private readonly order: Iterator<RunRecord>;
  /** Encodings of runs that changed before the walk reached them. */
  private readonly kept = new Map<RunRecord, Buffer>();
  private over = false;

  constructor(
    runs: Iterable<RunRecord>,
    private readonly encode: (run: RunRecord) => Buffer,
    /** Called once the walk is over, whole or dropped. */
    private readonly ended: () => void,
  ) {
    this.ahead = new Set(runs);
    this.order = this.ahead.values();
  }

  /** Encodes `run` now if the walk has it still ahead; called before the run changes. */
  keep(run: RunRecord): void {
    if (this.ahead.has(run) && !this.kept.has(run)) this.kept.set(run, this.encode(run));
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Buffer> {
    const step = this.over ? undefined : this.order.next();
    if (step === undefined || step.done === true) return this.return();
    const run = step.value;
    this.ahead.delete(run); // a Set's iterator goes on past the entry it just gave
    const kept = this.kept.get(run);
    this.kept.delete(run);
    return { done: false, value: kept ?? this.encode(run) };
  }

  /** Ends the walk, whole or dropped (also when it never began): the store stops calling `keep`. */
  return(): IteratorResult<Buffer> {
    if (!this.over) {
      this.over = true;
      this.ahead.clear();
      this.kept.clear();
      this.ended();
    }
    return { done: true, value: undefined };
  }
}
