// The client of a service's outgoing requests (the queue's deliveries): one interface, two
// implementations picked once at start by runtime, as the server's adapters are. Bun's fetch is
// fast, so Bun uses fetchClient below; on Node, undici's fetch delivers several times slower
// than node:http with keep-alive agents, so Node uses adapters/node-client.ts.
// Both: redirects are not followed, header names come back lower-cased, the answer's body is
// read only up to `maxBodyBytes` (the rest is dropped with its connection, so a huge or endless
// answer costs no more memory than that), and `signal` aborts the request at any point. A
// failure to connect, a broken connection or an abort rejects.

export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  /** Never connection-level headers: the client frames the body itself. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
  readonly signal: AbortSignal;
  readonly maxBodyBytes: number;
}

export interface IncomingAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export type HttpClient = (req: OutgoingRequest) => Promise<IncomingAnswer>;

export const fetchClient: HttpClient = async (r) => {
  const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal: r.signal, redirect: 'manual' });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { status: res.status, headers, body: await readCapped(res, r.maxBodyBytes) };
};

async function readCapped(res: Response, max: number): Promise<Buffer> {
  if (res.body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, max - size)));
      size += value.byteLength;
      if (size >= max) break;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}
