// Finding a stream, and the reply shapes its entries take.

import type { StreamEntry } from '../../engine/stream/entry-store.js';
import { formatId } from '../../engine/stream/stream-id.js';
import { STREAM_KIND, StreamValue } from '../../engine/stream/stream-value.js';
import type { Keyspace } from '../../engine/keyspace.js';
import type { ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { readTyped } from '../typed.js';

/** The stream at `key`: undefined when absent, WRONGTYPE for another type. */
export function readStream(ks: Keyspace, key: string): StreamValue | undefined | ReplyError {
  return readTyped<StreamValue>(ks, key, STREAM_KIND);
}

/** [id, [field, value, ...]] */
export function entryReply(e: StreamEntry): Reply {
  return [formatId(e.id), e.fields];
}
