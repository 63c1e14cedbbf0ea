// Consumer groups (Redis's streamCG, streamConsumer, streamNACK). A pending entry (NACK) is
// shared by the group's PEL and its owner's PEL: both must always hold the same NACKs.

import { IdIndex } from './id-index.js';
import type { StreamId } from './stream-id.js';

/** Redis's SCG_INVALID_ENTRIES_READ: the group's read counter is unknown. */
export const INVALID_ENTRIES_READ = -1n;

/** A delivered entry not yet acknowledged. */
export interface Nack {
  consumer: Consumer;
  /** Last delivery, ms since the epoch. */
  deliveryTime: number;
  deliveryCount: number;
}

export class Consumer {
  readonly pel = new IdIndex<Nack>();
  constructor(
    readonly name: string,
    /** When it last read or claimed, ms since the epoch. */
    public seenTime: number,
  ) {}
}

export class ConsumerGroup {
  readonly pel = new IdIndex<Nack>();
  readonly consumers = new Map<string, Consumer>();
  constructor(
    readonly name: string,
    public lastId: StreamId,
    /** Entries delivered so far, a 64-bit counter as in Redis. */
    public entriesRead: bigint,
  ) {}

  /** The consumer, created (seen now) when it does not exist. */
  consumer(name: string, now: number): Consumer {
    let c = this.consumers.get(name);
    if (c === undefined) {
      c = new Consumer(name, now);
      this.consumers.set(name, c);
    }
    return c;
  }

  /** Removes a pending entry from the group's and its owner's PEL. */
  ack(id: StreamId): boolean {
    const nack = this.pel.get(id);
    if (nack === undefined) return false;
    this.pel.delete(id);
    nack.consumer.pel.delete(id);
    return true;
  }

  /** Deletes a consumer and its pending entries; returns how many it had. */
  deleteConsumer(name: string): number {
    const c = this.consumers.get(name);
    if (c === undefined) return 0;
    const pending = c.pel.size;
    for (const [id] of c.pel.range(0n, (1n << 128n) - 1n)) this.pel.delete(id);
    this.consumers.delete(name);
    return pending;
  }
}

/** Names in Redis's radix-tree order (bytes, shorter first on a common prefix). */
export function byName<T extends { name: string }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
