// A plain HTTP service on 127.0.0.1 and a free port that workflow steps call (`context.call`,
// failureUrl): it records every request, and `answer` responds to each (default 200 "ok"; an
// answer that never ends the response leaves the request hanging, for timeouts).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface Hit {
  method: string;
  path: string;
  body: string;
  headers: IncomingMessage['headers'];
}

export interface CallTarget {
  readonly url: string;
  readonly hits: Hit[];
  /** Requests to one path. */
  at(path: string): Hit[];
  close(): Promise<void>;
}

export async function startCallTarget(answer: (hit: Hit, res: ServerResponse) => void = (_hit, res) => res.end('ok')): Promise<CallTarget> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString(), headers: req.headers };
      hits.push(hit);
      answer(hit, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hits,
    at: (path) => hits.filter((h) => h.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
