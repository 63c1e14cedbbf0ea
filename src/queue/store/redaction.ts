// Upstash-Redact-Fields: `body`, `header` (every header) and `header[Name]`, comma-separated
// (the documented `headers` / `headers[Name]` are accepted too). The message keeps the real
// values, which are delivered, retried and re-sent by a DLQ retry; what the API shows of it
// (message get, the DLQ, the logs) carries `REDACTED:<hex sha256 of the value>` instead.

import { createHash } from 'node:crypto';
import { badRequest, type QueueError } from '../errors.js';
import type { QueueMessage, Redaction } from './message.js';

const FIELD = /^(?:(body)|(headers?)(?:\[([^\]]+)\])?)$/i;

export function parseRedactFields(text: string): Redaction | undefined | QueueError {
  const out: Redaction = {};
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const m = FIELD.exec(item);
    if (m === null) return badRequest(`invalid Upstash-Redact-Fields entry: '${item}' (body, header or header[Name])`);
    if (m[1] !== undefined) out.body = true;
    else if (m[3] === undefined) out.headers = true;
    else if (out.headers !== true) out.headers = [...(out.headers ?? []), m[3].trim().toLowerCase()];
  }
  return out.body === undefined && out.headers === undefined ? undefined : out;
}

const redacted = (value: string | Buffer) => `REDACTED:${createHash('sha256').update(value).digest('hex')}`;

/** The forwarded headers as the API shows them. */
export function shownHeaders(m: QueueMessage): Record<string, string> {
  const r = m.redact?.headers;
  if (r === undefined) return m.headers;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.headers)) out[k] = r === true || r.includes(k) ? redacted(v) : v;
  return out;
}

/** The body as the API shows it, base64. */
export function shownBody(m: QueueMessage): string {
  return m.redact?.body === true ? Buffer.from(redacted(Buffer.from(m.body, 'base64'))).toString('base64') : m.body;
}
