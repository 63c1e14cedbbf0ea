// The outgoing HTTP clients (server/http-client.ts on fetch, server/adapters/node-client.ts on
// node:http) against a real local server: both keep the same contract, whichever runtime's
// client the queue picks.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { nodeClient } from '../../src/server/adapters/node-client.js';
import { fetchClient, type HttpClient, type OutgoingRequest } from '../../src/server/http-client.js';

const CLIENTS: [string, HttpClient][] = [
  ['fetch', fetchClient],
  ['node:http', nodeClient],
];

describe('outgoing HTTP clients', () => {
  let server: Server;
  let base = '';
  const seen: { method: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (req.url === '/moved') res.writeHead(302, { Location: '/echo' }).end();
        else if (req.url === '/big') res.writeHead(200).end('x'.repeat(100_000));
        else if (req.url === '/never') res.writeHead(200).write('partial');
        else res.writeHead(201, { 'X-Mixed-Case': 'Yes', 'Set-Cookie': ['a=1', 'b=2'] }).end(`got ${Buffer.concat(chunks).length}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const call = (client: HttpClient, r: Partial<OutgoingRequest>) =>
    client({ url: `${base}/echo`, method: 'POST', headers: {}, body: undefined, signal: new AbortController().signal, maxBodyBytes: 1 << 20, ...r });

  for (const [name, client] of CLIENTS) {
    describe(name, () => {
      it('sends the body with its length and answers status, lower-cased headers and body', async () => {
        const out = await call(client, { headers: { 'x-forwarded-thing': 'v' }, body: Buffer.from('hello') });
        assert.equal(out.status, 201);
        assert.equal(out.body.toString(), 'got 5');
        assert.equal(out.headers['x-mixed-case'], 'Yes');
        assert.ok(Object.keys(out.headers).every((k) => k === k.toLowerCase()));
        const req = seen.at(-1)!;
        assert.equal(req.headers['content-length'], '5');
        assert.equal(req.headers['x-forwarded-thing'], 'v');
        assert.equal(req.body, 'hello');
      });

      it('sends a GET without a body', async () => {
        const out = await call(client, { method: 'GET' });
        assert.equal(out.body.toString(), 'got 0');
        assert.equal(seen.at(-1)!.method, 'GET');
        assert.equal(seen.at(-1)!.headers['transfer-encoding'], undefined);
      });

      it('does not follow a redirect', async () => {
        const before = seen.length;
        const out = await call(client, { url: `${base}/moved` });
        assert.equal(out.status, 302);
        assert.equal(out.headers.location, '/echo');
        assert.equal(seen.length, before + 1);
      });

      it('reads the answer only up to maxBodyBytes', async () => {
        const out = await call(client, { url: `${base}/big`, maxBodyBytes: 1000 });
        assert.equal(out.status, 200);
        assert.equal(out.body.length, 1000);
        // The connection given up on is not reused wrongly: the next request is answered whole.
        assert.equal((await call(client, { body: Buffer.from('ab') })).body.toString(), 'got 2');
      });

      it('rejects when aborted, before or while the answer comes', async () => {
        const stop = new AbortController();
        stop.abort();
        await assert.rejects(call(client, { signal: stop.signal }));
        const late = new AbortController();
        setTimeout(() => late.abort(), 100);
        await assert.rejects(call(client, { url: `${base}/never`, signal: late.signal }));
      });

      it('rejects when nothing listens', async () => {
        await assert.rejects(call(client, { url: 'http://127.0.0.1:1/' }), /ECONNREFUSED|fetch failed/);
      });
    });
  }
});
