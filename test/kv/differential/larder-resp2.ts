// Sends one command to Larder with `Upstash-Response-Format: resp2` and returns the raw reply
// bytes, to compare byte for byte with redis-server's.
//
// Arguments are byte strings. The JSON array form carries only valid UTF-8 (that is what the
// SDK sends), so other arguments go in the path form, every byte percent-encoded. Path
// segments cannot be empty, so from the first empty argument on the rest travel as query pairs
// (`?name=value` appends both, empty ones included); an odd tail starts one argument earlier.
//
// The requests go through node:http on kept-alive connections rather than fetch: a run sends
// over 100,000 commands one after another, and fetch took twice as long per command
// (what the server answers does not depend on the client; the SDK's own tests use fetch).

import { Agent, request } from 'node:http';
import type { KvClient } from '../../support/larder.js';

export interface LarderReply {
  readonly status: number;
  readonly raw: string;
}

const RESP2 = { 'upstash-response-format': 'resp2' };

function isUtf8(bytes: string): boolean {
  return Buffer.from(Buffer.from(bytes, 'latin1').toString('utf8'), 'utf8').toString('latin1') === bytes;
}

function percentEncode(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += '%' + bytes.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

function pathForm(argv: readonly string[]): string {
  let split = argv.indexOf('');
  if (split === -1) split = argv.length;
  else if ((argv.length - split) % 2 === 1) split -= 1;
  if (split === 0) throw new Error(`no request form carries ${JSON.stringify(argv)}`);
  const path = argv.slice(0, split).map((a) => '/' + percentEncode(a)).join('');
  const pairs: string[] = [];
  for (let i = split; i < argv.length; i += 2) pairs.push(`${percentEncode(argv[i])}=${percentEncode(argv[i + 1])}`);
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

/** Idle connections do not hold the process open (the agent unrefs them); those a stopped server closed are dropped. */
const agent = new Agent({ keepAlive: true });

export function larderCall(t: KvClient, argv: readonly string[]): Promise<LarderReply> {
  const utf8 = argv.every(isUtf8);
  const body = utf8 ? Buffer.from(JSON.stringify(argv.map((a) => Buffer.from(a, 'latin1').toString('utf8')))) : null;
  const url = new URL(t.kvUrl);
  // The path as it is: a URL parser would take a percent-encoded '.' argument for a dot segment.
  const path = url.pathname + (utf8 ? '' : pathForm(argv));
  const headers: Record<string, string> = { ...RESP2, authorization: `Bearer ${t.token}` };
  if (body !== null) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: body === null ? 'GET' : 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
