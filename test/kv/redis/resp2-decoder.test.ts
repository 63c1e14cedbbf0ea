// The remote backend's RESP2 decoder bounds what it keeps of one reply (resp2-decoder.ts): a
// reply past twice the largest maxReplyBytes, and past 1 MiB, is answered with the REST layer's
// error as soon as its count passes that, and read through without being gathered. Fed bytes
// directly, as a socket hands them over: through HTTP a reply refused here and one refused by
// the REST layer read the same, so this shows when it is answered and that the stream stays
// in step.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OK } from '../../../src/kv/reply.js';
import { boundReplies, Resp2Decoder } from '../../../src/kv/redis/resp2-decoder.js';

const TOO_LARGE = 'ERR reply too large: its strings hold over 1000 bytes (maxReplyBytes); read it in parts, as GETRANGE, LRANGE or SCAN do';
/** What a bound of 1000 reads through past: the 1 MiB every connection's own replies fit in. */
const KEPT = 1 << 20;

/** Replies as they are heard, strings over 100 bytes by their first letter and length (a failed comparison stays short). */
function decoder() {
  const heard: unknown[] = [];
  const short = (r: unknown): unknown => (typeof r === 'string' && r.length > 100 ? `${r[0]}×${r.length}` : Array.isArray(r) ? r.map(short) : r);
  const d = new Resp2Decoder({ onReply: (r) => heard.push(short(r)), onErrorReply: (e) => heard.push(e.message) });
  return { heard, write: (text: string | Buffer) => d.write(Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1')) };
}

describe('RESP2 decoder: replies past the bound', () => {
  let release: () => void;
  before(() => (release = boundReplies(1000)));
  after(() => release());

  it('answers a long bulk string at its header and skips its bytes as they come', () => {
    const { heard, write } = decoder();
    write('$100000000\r\n');
    assert.deepEqual(heard, [TOO_LARGE], 'answered before its bytes arrive');
    const chunk = Buffer.alloc(1 << 20, 0x78);
    for (let i = 0; i < 95; i++) write(chunk);
    write(Buffer.alloc(100_000_000 - 95 * chunk.length, 0x78));
    write('\r\n+OK\r\n$3\r\nabc\r\n');
    assert.deepEqual(heard, [TOO_LARGE, OK, 'abc']);
  });

  it('answers an array that cannot fit at its header, and reads its items through', () => {
    const { heard, write } = decoder();
    const items = 3 * 350_000; // past KEPT by its separators alone
    write(`*${items}\r\n`);
    assert.deepEqual(heard, [TOO_LARGE]);
    write(':1\r\n$-1\r\n*2\r\n+x\r\n-ERR y\r\n'.repeat(items / 3 - 1));
    write(':1\r\n$-1\r\n*2\r\n+x\r\n');
    assert.deepEqual(heard, [TOO_LARGE], 'its last item is not whole yet');
    write('-ERR y\r\n$2\r\nab');
    write('\r\n*1\r\n$2\r\nok\r\n');
    assert.deepEqual(heard, [TOO_LARGE, 'ab', ['ok']]);
  });

  it('answers a nested reply once, when its strings together pass the bound', () => {
    const { heard, write } = decoder();
    const value = 'v'.repeat(400_000);
    const item = `$${value.length}\r\n${value}\r\n`;
    write(`*2\r\n*2\r\n${item}${item}*1\r\n${item}`);
    assert.deepEqual(heard, [TOO_LARGE]);
    write(`*2\r\n${item}$1\r\nw\r\n`);
    assert.deepEqual(heard, [TOO_LARGE, [`v×${value.length}`, 'w']]);
  });

  it('keeps a reply up to the bound, however its bytes are cut', () => {
    const { heard, write } = decoder();
    const half = (KEPT - 4) / 2; // brackets and two separators
    const reply = Buffer.from(`*2\r\n$${half}\r\n${'a'.repeat(half)}\r\n$${half}\r\n${'b'.repeat(half)}\r\n`, 'latin1');
    for (let i = 0; i < reply.length; i += 7) write(reply.subarray(i, i + 7));
    assert.deepEqual(heard, [[`a×${half}`, `b×${half}`]]);
    write(`$${KEPT + 1}\r\n${'c'.repeat(KEPT + 1)}\r\n`);
    assert.deepEqual(heard.slice(1), [TOO_LARGE]);
  });
});
