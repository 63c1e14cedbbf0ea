// The order the queue's listings and bulk actions page through: records by time, then id (a
// message by creation, a dead letter by failure). Kept beside the store's maps, so a page after
// a cursor is found by one search and read in order, where sorting every record for each page
// made a paged walk over N records cost N² (a DLQ retried 100 at a time, as the SDK shows).
// Not safe for concurrent use; the store's owner, the JS thread, is the only user.

import { OrderTree } from '../../collections/order-tree.js';

/** Where a record sits in a listing: its time, then its id. */
export interface ListingPosition {
  readonly time: number;
  readonly id: string;
}

export class ListingOrder {
  private tree = new OrderTree();

  add(time: number, id: string): void {
    this.tree.insert(time, id);
  }

  remove(time: number, id: string): void {
    this.tree.delete(time, id);
  }

  clear(): void {
    this.tree = new OrderTree();
  }

  /** The ids after `after` (all when undefined), in order. The order must not change while they are read. */
  *after(after: ListingPosition | undefined): Generator<string> {
    const at = after === undefined ? this.tree.first() : this.tree.firstAfter((t, id) => t < after.time || (t === after.time && id <= after.id));
    for (let c = at; c !== null; c = c.next()) yield c.member;
  }
}
