// Serves a Web fetch handler (Request -> Response, what @upstash/workflow's `serve()` gives) on
// node:http: the workflow tests' endpoints and the workflow bench's share this bridge.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Hands one node:http request to `handler` as a Request for `base` + its path, and writes the Response back. */
export async function bridgeToFetch(req: IncomingMessage, res: ServerResponse, base: string, handler: (r: Request) => Promise<Response>): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const out = await handler(new Request(`${base}${req.url}`, { method: req.method, headers, body }));
  res.writeHead(out.status, Object.fromEntries(out.headers));
  res.end(Buffer.from(await out.arrayBuffer()));
}
