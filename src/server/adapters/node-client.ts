// The outgoing HTTP client on Node (see ../http-client.ts for the contract): node:http and
// node:https with keep-alive agents, which deliver several times faster than undici's fetch
// (the queue bench's deliveries/s). Idle sockets are kept per origin and reused; one that is
// given up on (a body over the cap, an abort) is destroyed rather than returned to the pool.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HttpClient, IncomingAnswer } from '../http-client.js';

// LIFO reuses the most recently freed socket, so a burst leaves few sockets warm afterwards.
const HTTP_AGENT = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });

export const nodeClient: HttpClient = (r) =>
  new Promise<IncomingAnswer>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(r.url);
    } catch (e) {
      return reject(e);
    }
    const https = url.protocol === 'https:';
    if (!https && url.protocol !== 'http:') return reject(new Error(`unsupported protocol ${url.protocol}`));
    const headers = r.body === undefined ? r.headers : { ...r.headers, 'content-length': String(r.body.byteLength) };
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      reject(e);
    };
    const onAnswer = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: headersOf(res), body: Buffer.concat(chunks) });
      };
      res.on('data', (c: Buffer) => {
        if (settled) return;
        chunks.push(size + c.length <= r.maxBodyBytes ? c : c.subarray(0, r.maxBodyBytes - size));
        size += c.length;
        if (size >= r.maxBodyBytes) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed before the answer ended')));
    };
    try {
      const req = (https ? httpsRequest : httpRequest)(url, { method: r.method, headers, agent: https ? HTTPS_AGENT : HTTP_AGENT, signal: r.signal }, onAnswer);
      req.on('error', fail);
      req.end(r.body);
    } catch (e) {
      // Invalid header names or values throw at once.
      fail(e);
    }
  });

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
