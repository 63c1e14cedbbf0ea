// Sends one command to Larder with `Upstash-Response-Format: resp2` and returns the raw reply
// bytes, to compare byte for byte with redis-server's.
//
// Arguments are byte strings. The JSON array form carries only valid UTF-8 (that is what the
// SDK sends), so other arguments go in the path form, every byte percent-encoded. Path
// segments cannot be empty, so from the first empty argument on the rest travel as query pairs
// (`?name=value` appends both, empty ones included); an odd tail starts one argument earlier.

import type { TestLarder } from '../../support/larder.js';

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

export async function larderCall(t: TestLarder, argv: readonly string[]): Promise<LarderReply> {
  const res = argv.every(isUtf8)
    ? await t.request('', {
        method: 'POST',
        headers: RESP2,
        body: JSON.stringify(argv.map((a) => Buffer.from(a, 'latin1').toString('utf8'))),
      })
    : await t.request(pathForm(argv), { headers: RESP2 });
  return { status: res.status, raw: Buffer.from(await res.arrayBuffer()).toString('latin1') };
}
