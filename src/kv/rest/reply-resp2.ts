// Replies as raw RESP2 bytes (`Upstash-Response-Format: resp2`), as a byte string.

import { ReplyError } from '../errors.js';
import { Status, type Reply } from '../reply.js';

export function resp2(r: Reply): string {
  switch (typeof r) {
    case 'string':
      return `$${r.length}\r\n${r}\r\n`;
    case 'number':
    case 'bigint':
      return `:${r}\r\n`;
    case 'object':
      if (r === null) return '$-1\r\n';
      if (r instanceof Status) return `+${r.text}\r\n`;
      if (r instanceof ReplyError) return `-${r.text}\r\n`;
      return resp2Array(r);
  }
}

function resp2Array(items: readonly Reply[]): string {
  let out = `*${items.length}\r\n`;
  for (const item of items) out += resp2(item);
  return out;
}
