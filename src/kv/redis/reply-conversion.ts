// Replies of the remote server as Larder's Reply values: bulk strings as byte strings (latin1,
// see bytes.ts), simple strings as Status, integers exactly (bigint beyond 2^53), errors as
// ReplyError with the server's text.
//
// ioredis decodes simple and bulk strings alike into Buffers, which would lose the Status /
// bulk distinction that base64 encoding and the resp2 format show ("OK" stays "OK").
// `installReplyShapes` puts Larder's decoder (resp2-decoder.ts) in place of ioredis' once, so
// that simple strings arrive as JS strings and bulk strings stay Buffers. It also
// drops ioredis' reply transformers, which reshape replies by command name (HGETALL into an
// object): Larder answers the server's reply as it is. Both change ioredis for the whole
// process, which only Larder uses. Integers
// arrive as JS strings too (ioredis' `stringNumbers`), so they keep every digit; a simple
// string is told from an integer by its form. Redis has no simple-string reply that is all
// digits, except what a script makes with redis.status_reply: that one reads as an integer.

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

const INTEGER = /^-?\d+$/;

/** One decoded reply (ioredis shapes: Buffer, string, number, null, Error, arrays) as a Reply. */
export function toReply(value: unknown): Reply {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (typeof value === 'string') return INTEGER.test(value) ? integer(value) : new Status(value);
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map(toReply);
  if (value instanceof Error) return new ReplyError(utf8Bytes(value.message));
  throw new Error(`unexpected reply from the Redis client: ${String(value)}`);
}

function integer(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
