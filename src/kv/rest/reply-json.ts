// Replies as the REST API's JSON: integers as JSON numbers (bigints printed exactly), bulk
// strings as JSON strings, decoded as UTF-8 (U+FFFD for invalid bytes) or, with base64
// encoding, base64 of their bytes. The status "OK" stays "OK" in both, as the SDK expects.
// Error texts are byte strings too (they may quote arguments) and are never base64.

import { base64, utf8Text } from '../bytes.js';
import { ReplyError } from '../errors.js';
import { NIL_ARRAY, OK, Status, type Reply } from '../reply.js';

export type Encoding = 'text' | 'base64';

// The commonest answers, the same in both encodings.
const OK_ENVELOPE = '{"result":"OK"}';
const NULL_ENVELOPE = '{"result":null}';

export function jsonValue(r: Reply, enc: Encoding): string {
  switch (typeof r) {
    case 'string':
      return JSON.stringify(enc === 'base64' ? base64(r) : utf8Text(r));
    case 'number':
      return Number.isFinite(r) ? String(r) : 'null';
    case 'bigint':
      return r.toString();
    case 'object':
      if (r === null || r === NIL_ARRAY) return 'null';
      if (r instanceof Status) return JSON.stringify(enc === 'base64' && r.text !== 'OK' ? base64(r.text) : r.text);
      if (r instanceof ReplyError) return JSON.stringify(utf8Text(r.text));
      return jsonArray(r, enc);
  }
}

function jsonArray(items: readonly Reply[], enc: Encoding): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + jsonValue(items[i], enc);
  return out + ']';
}

/** `{"result":...}` or `{"error":"..."}`. */
export function jsonEnvelope(r: Reply, enc: Encoding): string {
  if (r === OK) return OK_ENVELOPE;
  if (r === null) return NULL_ENVELOPE;
  return r instanceof ReplyError ? errorEnvelope(r) : `{"result":${jsonValue(r, enc)}}`;
}

export function errorEnvelope(e: ReplyError): string {
  return `{"error":${JSON.stringify(utf8Text(e.text))}}`;
}

export function jsonEnvelopes(replies: readonly Reply[], enc: Encoding): string {
  let out = '[';
  for (let i = 0; i < replies.length; i++) out += (i === 0 ? '' : ',') + jsonEnvelope(replies[i], enc);
  return out + ']';
}
