// Upstash-Redact-Fields: `body`, `header` (every header) and `header[Name]`, comma-separated
// (the documented `headers` / `headers[Name]` are accepted too). The message keeps the real
// values, which are delivered, retried and re-sent by a DLQ retry; what the API shows of it
// (message get, the DLQ, the logs) carries `REDACTED:<hex sha256 of the value>` instead.
// Credential headers (Authorization, Cookie, queue.credentialHeaders) are shown as "[redacted]"
// on every message that does not ask for their hash, with no hash: a short password's hash is
// soon guessed.
// The events files hold events as shown, so they never hold a credential in clear.

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

/** Lower-case names of the headers whose values are credentials. */
export type CredentialHeaders = ReadonlySet<string>;

const CREDENTIAL_SHOWN = '[redacted]';

/** Authorization and Cookie, and the configured names. */
export const credentialHeaders = (configured: readonly string[]): CredentialHeaders =>
  new Set(['authorization', 'cookie', ...configured.map((n) => n.toLowerCase())]);

/** The forwarded headers as the API shows them. */
export function shownHeaders(m: QueueMessage, credentials: CredentialHeaders): Record<string, string> {
  const r = m.redact?.headers;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.headers)) {
    out[k] = r === true || r?.includes(k) ? redacted(v) : credentials.has(k) ? CREDENTIAL_SHOWN : v;
  }
  return out;
}

/** The body as the API shows it, base64. */
export function shownBody(m: QueueMessage, credentials: CredentialHeaders): string {
  if (m.redact?.body === true) return Buffer.from(redacted(Buffer.from(m.body, 'base64'))).toString('base64');
  return m.origin === undefined ? m.body : callbackBodyShown(m.body, credentials);
}

/** A callback's body (delivery/callbacks.ts) with the credentials of its sourceHeader hidden. */
function callbackBodyShown(body: string, credentials: CredentialHeaders): string {
  const payload = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { sourceHeader?: Record<string, string[]> };
  const source = payload.sourceHeader;
  if (source === undefined || !Object.keys(source).some((k) => credentials.has(k))) return body;
  for (const k of Object.keys(source)) if (credentials.has(k)) source[k] = [CREDENTIAL_SHOWN];
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
