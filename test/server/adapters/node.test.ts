// What the Node adapter answers a request its HTTP parser refuses before any handler sees it,
// over a raw TCP socket: an over-long request line or header section gets 431, other parse
// errors 400, each with a JSON body in the {"error","status"} envelope, then the connection
// closes. Bun's server has no such hook (it answers these itself), so this runs on Node.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { suiteLarder, TEST_RUNTIME } from '../../support/larder.js';

/** Everything the server writes on one connection until it closes it, as text. */
function exchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

function parse(raw: string): { statusLine: string; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  assert.ok(end !== -1, `no header section in ${JSON.stringify(raw)}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: raw.slice(end + 4) };
}

describe('requests the Node parser refuses', { skip: TEST_RUNTIME === 'bun' && "Bun's server has no clientError hook" }, () => {
  const t = suiteLarder();

  const refused = async (request: string, status: number, reason: string, error: string) => {
    const res = parse(await exchange(t.url, request));
    assert.equal(res.statusLine, `HTTP/1.1 ${status} ${reason}`);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['access-control-allow-origin'], '*', 'a browser may read it, as every other answer');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)));
    assert.deepEqual(JSON.parse(res.body), { error, status });
  };

  it('answers an over-long header with 431 and a JSON body, then closes', async () => {
    const long = 'a'.repeat(64 * 1024);
    await refused(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ${long}\r\n\r\n`, 431, 'Request Header Fields Too Large', 'request header fields too large');
    await refused(`GET /healthz?${long} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'Request Header Fields Too Large', 'request header fields too large');
  });

  it('answers a malformed request with 400 and a JSON body, then closes', async () => {
    await refused('GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', 400, 'Bad Request', 'malformed HTTP request');
    await refused('NOT HTTP AT ALL\r\n\r\n', 400, 'Bad Request', 'malformed HTTP request');
  });

  it('still serves the next connection', async () => {
    const res = await fetch(`${t.url}/healthz`);
    assert.equal(res.status, 200);
  });
});
