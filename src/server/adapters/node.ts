// node:http adapter: translates only. Headers are read straight from Node's object, the
// body is collected only when a handler asks, and a response is written with one
// writeHead + end.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handler, HttpRequest, HttpResponse, ListenAt, RunningServer } from '../http.js';

class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;

  constructor(private readonly req: IncomingMessage) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q === -1 ? url : url.slice(0, q);
    this.query = q === -1 ? '' : url.slice(q + 1);
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  body(maxBytes: number): Promise<Uint8Array | null> {
    const req = this.req;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) over = true;
        else chunks.push(chunk);
      });
      req.on('end', () => resolve(over ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      req.on('error', reject);
    });
  }
}

function send(res: ServerResponse, out: HttpResponse): void {
  const body = out.body;
  if (body !== null && typeof body === 'object' && Symbol.asyncIterator in body) {
    res.writeHead(out.status, out.headers);
    void stream(res, body);
    return;
  }
  const headers = out.headers;
  if (body === null) headers['content-length'] ??= '0';
  else headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(out.status, headers);
  res.end(body ?? undefined);
}

async function stream(res: ServerResponse, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  res.on('close', () => void iterator.return?.());
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) res.write(next.value);
  res.end();
}

export function listenNode(handle: Handler, at: ListenAt): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const out = handle(new NodeRequest(req));
    if (out instanceof Promise) out.then((o) => send(res, o));
    else send(res, out);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
