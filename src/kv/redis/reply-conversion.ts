// Replies of the remote server as Larder's Reply values. `installReplyShapes` puts Larder's
// decoder (resp2-decoder.ts) in place of ioredis' once, so that replies arrive in Reply shapes
// already (bulk strings as byte strings, simple strings as Status, integers exactly, arrays as
// arrays). It also drops ioredis' reply transformers, which reshape replies by command name
// (HGETALL into an object): Larder answers the server's reply as it is. Both change ioredis for
// the whole process, which only Larder uses.

import { createRequire } from 'node:module';
import { utf8Bytes } from '../bytes.js';
import { ReplyError } from '../errors.js';
import { Status, type Reply } from '../reply.js';
import { Resp2Decoder } from './resp2-decoder.js';

let installed = false;

/** Makes every ioredis connection opened after this keep replies as the server sent them. */
export function installReplyShapes(): void {
  if (installed) return;
  installed = true;
  const require = createRequire(import.meta.url);
  const commandModule = require('ioredis/built/Command.js') as { default: { _transformer: { reply: Record<string, unknown> } } };
  const transformers = commandModule.default._transformer.reply;
  for (const name of Object.keys(transformers)) delete transformers[name];
  const decoderModule = require('ioredis/built/resp/decoder.js') as { Decoder: unknown };
  decoderModule.Decoder = Resp2Decoder;
}

/** One decoded reply (the decoder's shapes, or an error ioredis raised) as a Reply. */
export function toReply(value: unknown): Reply {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || value instanceof Status) return value;
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(toReply);
  if (value instanceof Error) return new ReplyError(utf8Bytes(value.message));
  throw new Error(`unexpected reply from the Redis client: ${String(value)}`);
}
