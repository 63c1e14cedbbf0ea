// The headers of a database's replies: the content type, the sync token the SDK sends back for
// read-your-writes (`upstash-sync-token`), and CORS; the SDK and browsers need all three. One
// frozen set per content type is shared by every reply while the sync token stays the same, so
// reads reuse it and only the reply after a write makes the next one: the Bun adapter turns a
// shared set into its Web Headers once (http.ts), which a run of reads repays.
// Touched from the JS thread only.

import type { KvBackend } from '../backend.js';

export const JSON_TYPE = 'application/json';
export const RESP_TYPE = 'application/octet-stream';
type ContentType = typeof JSON_TYPE | typeof RESP_TYPE;

export class ReplyHeaders {
  /** The sync token the shared sets carry; each set is made when first asked for. */
  private carried: string | undefined;
  private json: Readonly<Record<string, string>> | undefined;
  private resp: Readonly<Record<string, string>> | undefined;

  constructor(private readonly backend: KvBackend) {}

  of(contentType: ContentType): Readonly<Record<string, string>> {
    const now = this.backend.syncToken();
    if (now !== this.carried) {
      this.carried = now;
      this.json = this.resp = undefined;
    }
    return contentType === JSON_TYPE ? (this.json ??= shared(JSON_TYPE, now)) : (this.resp ??= shared(RESP_TYPE, now));
  }
}

function shared(contentType: ContentType, syncToken: string): Readonly<Record<string, string>> {
  return Object.freeze({ 'content-type': contentType, 'upstash-sync-token': syncToken, 'access-control-allow-origin': '*' });
}
