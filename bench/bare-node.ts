// The node:http baseline: a fixed `{"result":<the 100-byte value>}` and nothing else, so Larder's node row has
// a floor to be compared with. Listens on a free loopback port and prints `listening <port>`.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VALUE } from './kv-value.js';

const BODY = JSON.stringify({ result: VALUE });
const HEADERS = { 'content-type': 'application/json', 'content-length': String(BODY.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, HEADERS);
  res.end(BODY);
});
server.keepAliveTimeout = 65_000; // as Larder's node adapter
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
