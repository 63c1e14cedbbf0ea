// Replies as the REST API's JSON: integers as JSON numbers (bigints printed exactly), bulk
// strings as JSON strings, decoded as UTF-8 (U+FFFD for invalid bytes) or, with base64
// encoding, base64 of their bytes. The status "OK" stays "OK" in both, as the SDK expects.
// Error texts are byte strings too (they may quote arguments) and are never base64.

import { base64, utf8Text } from '../bytes.js';
import { ReplyError } from '../errors.js';
import { NULL_ARRAY, OK, Status, type Reply } from '../reply.js';

export type Encoding = 'text' | 'base64';

// The commonest answers, the same in both encodings.
const OK_ENVELOPE = '{"result":"OK"}';
const NULL_ENVELOPE = '{"result":null}';

export function jsonValue(r: Reply, enc: Encoding): string {
  switch (typeof r) {
    case 'string':
      if (enc === 'base64') return `"${base64(r)}"`;
      return isPlainText(r) ? `"${r}"` : JSON.stringify(utf8Text(r));
    case 'number':
      return Number.isFinite(r) ? String(r) : 'null';
    case 'bigint':
      return r.toString();
    case 'object':
      if (r === null || r === NULL_ARRAY) return 'null';
      if (r instanceof Status) return JSON.stringify(enc === 'base64' && r.text !== 'OK' ? base64(r.text) : r.text);
      if (r instanceof ReplyError) return JSON.stringify(utf8Text(r.text));
      return jsonArray(r, enc);
  }
}

/**
 * Printable ASCII with nothing to escape: the JSON string is the text in quotes. A regular
 * expression, not a loop over charCodeAt: a reply is a string of any representation (flat,
 * sliced, concatenated), and V8's optimized loop then looks the method up per character.
 */
const PLAIN_TEXT = /^[ !#-[\]-~]*$/;
const isPlainText = (s: string): boolean => PLAIN_TEXT.test(s);

function jsonArray(items: readonly Reply[], enc: Encoding): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + jsonValue(items[i], enc);
  return out + ']';
}

/** `{"result":...}` or `{"error":"..."}`. */
export function jsonEnvelope(r: Reply, enc: Encoding): string {
  if (r === OK) return OK_ENVELOPE;
  if (r === null || r === NULL_ARRAY) return NULL_ENVELOPE;
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
