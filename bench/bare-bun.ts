// The Bun.serve baseline: a fixed `{"result":<the 100-byte value>}` and nothing else. Run under Bun
// (node_modules/.bin/bun). Listens on a free loopback port and prints `listening <port>`.

import { VALUE } from './kv-value.js';

/** The slice of Bun's API used here (Bun's own types are not a dependency). */
interface BunRuntime {
  serve(options: { hostname: string; port: number; fetch(req: Request): Response }): { readonly port: number };
}

const BODY = JSON.stringify({ result: VALUE });
const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
const server = bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: () => new Response(BODY, { headers: { 'content-type': 'application/json' } }),
});
console.log(`listening ${server.port}`);
