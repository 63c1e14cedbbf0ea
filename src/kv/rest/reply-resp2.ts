// Replies as raw RESP2 bytes (`Upstash-Response-Format: resp2`), as a byte string.

import { ReplyError } from '../errors.js';
import { NIL_ARRAY, Status, type Reply } from '../reply.js';

export function resp2(r: Reply): string {
  switch (typeof r) {
    case 'string':
      return `$${r.length}\r\n${r}\r\n`;
    case 'number':
    case 'bigint':
      return `:${r}\r\n`;
    case 'object':
      if (r === null) return '$-1\r\n';
      if (r === NIL_ARRAY) return '*-1\r\n';
      if (r instanceof Status) return `+${oneLine(r.text)}\r\n`;
      if (r instanceof ReplyError) return `-${oneLine(r.text)}\r\n`;
      return resp2Array(r);
  }
}

function resp2Array(items: readonly Reply[]): string {
  let out = `*${items.length}\r\n`;
  for (const item of items) out += resp2(item);
  return out;
}

/** A simple string or error cannot hold CR or LF; like Redis, turn them into spaces. */
function oneLine(text: string): string {
  return text.indexOf('\r') === -1 && text.indexOf('\n') === -1 ? text : text.replace(/[\r\n]/g, ' ');
}
