// How consumer-group changes are logged, in the forms Redis propagates them
// (streamPropagateXCLAIM, streamPropagateGroupID): replayed, they set the same state, with
// delivery times as absolute instants.

import type { ConsumerGroup, Nack } from '../../engine/stream/consumer-group.js';
import { formatId, type StreamId } from '../../engine/stream/stream-id.js';

/**
 * XCLAIM key group consumer 0 id TIME t RETRYCOUNT n FORCE JUSTID LASTID id: the entry is
 * pending for `consumer` as `nack` says. Without a nack: the entry left the PEL (it was
 * deleted from the stream), which the same XCLAIM replays, as the entry is gone then too.
 */
export function claimLog(key: string, g: ConsumerGroup, consumer: string, id: StreamId, nack: Nack | undefined): string[] {
  const time = nack === undefined ? [] : ['TIME', String(nack.deliveryTime), 'RETRYCOUNT', String(nack.deliveryCount)];
  return ['XCLAIM', key, g.name, consumer, '0', formatId(id), ...time, 'FORCE', 'JUSTID', 'LASTID', formatId(g.lastId)];
}

/** XGROUP SETID key group id ENTRIESREAD n: the group's position and read counter. */
export function groupIdLog(key: string, g: ConsumerGroup): string[] {
  return ['XGROUP', 'SETID', key, g.name, formatId(g.lastId), 'ENTRIESREAD', String(g.entriesRead)];
}

/** XGROUP CREATECONSUMER key group consumer. */
export function consumerLog(key: string, g: ConsumerGroup, consumer: string): string[] {
  return ['XGROUP', 'CREATECONSUMER', key, g.name, consumer];
}
