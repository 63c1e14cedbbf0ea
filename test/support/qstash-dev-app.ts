// An app in @upstash/qstash's dev mode, run as its own process by test/queue/dev-mode.test.ts
// with QSTASH_DEV=true and QSTASH_DEV_PORT in its environment and no QSTASH_* credentials:
// `new Client()` and `new Receiver()` with no settings, exactly as such an app is written. It
// serves a receiver that verifies every request, publishes one JSON message to it, waits for
// the delivery and prints one JSON line: the publish answer and what was delivered.

import { createServer } from 'node:http';
import { Client, Receiver } from '@upstash/qstash';

// `node --test dist/test/` also runs every file under test/ as a test; only dev-mode.test.ts's
// child, with QSTASH_DEV=true, is the app.
if (process.env.QSTASH_DEV !== 'true') process.exit(0);

const receiver = new Receiver();
const delivered: { messageId: string | undefined; body: string; verified: boolean; error?: string }[] = [];
let done: () => void = () => undefined;
const arrived = new Promise<void>((resolve) => (done = resolve));

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = String(req.headers['upstash-signature'] ?? '');
    receiver.verify({ signature, body, url: `${base}${req.url ?? '/'}` }).then(
      () => delivered.push({ messageId: req.headers['upstash-message-id'] as string | undefined, body, verified: true }),
      (e: Error) => delivered.push({ messageId: req.headers['upstash-message-id'] as string | undefined, body, verified: false, error: e.message }),
    ).finally(() => {
      res.writeHead(200).end('ok');
      done();
    });
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const client = new Client();
const published = await client.publishJSON({ url: `${base}/dev`, body: { hello: 'dev mode' } });
const timeout = setTimeout(() => done(), 10_000);
await arrived;
clearTimeout(timeout);
console.log(JSON.stringify({ published, delivered }));
server.close();
server.closeAllConnections();
