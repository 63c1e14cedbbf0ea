// SSCAN and OBJECT ENCODING of sets over HTTP. The encodings follow Redis 7.0 (intset while
// every member is a canonical int64 and there are at most 512 of them, else hashtable), checked
// against redis-server 7.0 with the same commands.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replies, suiteLarder } from '../../support/larder.js';

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i));

describe('set encodings and SSCAN over HTTP', () => {
  const t = suiteLarder();

  const result = (argv: (string | number)[]) => t.ok(argv);
  const { reply, fails } = replies(() => t);
  const encoding = (key: string, expected: string) => reply(['object', 'encoding', key], expected);

  /** Walks an SSCAN to cursor 0; every member it returned, and how many calls it took. */
  async function walk(key: string, opts: string[] = [], between?: (call: number) => Promise<void>) {
    const seen: string[] = [];
    let cursor = '0';
    let calls = 0;
    do {
      const [next, found] = await result(['sscan', key, cursor, ...opts]);
      seen.push(...found);
      cursor = next;
      calls++;
      if (between !== undefined) await between(calls);
    } while (cursor !== '0' && calls < 1000);
    return { seen, calls };
  }

  it('an intset holds up to 512 canonical integers', async () => {
    await reply(['sadd', 'e:i', ...range(1, 512)], 512);
    await encoding('e:i', 'intset');
    await reply(['sadd', 'e:i', '513'], 1);
    await encoding('e:i', 'hashtable');
    await reply(['srem', 'e:i', '513', '512'], 2);
    await encoding('e:i', 'hashtable');
    await reply(['sadd', 'e:min', '-9223372036854775808', '9223372036854775807'], 2);
    await encoding('e:min', 'intset');
    for (const [key, member] of [['e:nc', '007'], ['e:mz', '-0'], ['e:big', '9223372036854775808'], ['e:plus', '+1'], ['e:a', 'a']]) {
      await reply(['sadd', key, member], 1);
      await encoding(key, 'hashtable');
    }
    // A non-integer converts an intset for good.
    await reply(['sadd', 'e:mix', '1', '2'], 2);
    await encoding('e:mix', 'intset');
    await reply(['sadd', 'e:mix', 'x'], 1);
    await reply(['srem', 'e:mix', 'x'], 1);
    await encoding('e:mix', 'hashtable');
  });

  it('results are built as Redis builds them: STORE forms and SMOVE', async () => {
    await reply(['sadd', 'b:h', '1', '2', '3', 'x'], 4);
    await reply(['srem', 'b:h', 'x'], 1);
    await encoding('b:h', 'hashtable');
    await reply(['sinterstore', 'b:1', 'b:h', 'b:h'], 3);
    await encoding('b:1', 'intset');
    await reply(['sdiffstore', 'b:2', 'b:h', 'b:none'], 3);
    await encoding('b:2', 'intset');
    await reply(['sadd', 'b:x', 'y'], 1);
    await reply(['sunionstore', 'b:3', 'b:h', 'b:x'], 4);
    await encoding('b:3', 'hashtable');
    await reply(['sadd', 'b:s', '5', 'b'], 2);
    await reply(['smove', 'b:s', 'b:n1', '5'], 1);
    await encoding('b:n1', 'intset');
    await reply(['smove', 'b:s', 'b:n2', 'b'], 1);
    await encoding('b:n2', 'hashtable');
  });

  it('COPY keeps the encoding; RESTORE chooses it from the members, as Redis loads an RDB', async () => {
    await reply(['sadd', 'c:h', '1', '2', 'x'], 3);
    await reply(['srem', 'c:h', 'x'], 1);
    await reply(['copy', 'c:h', 'c:copy'], 1);
    await encoding('c:copy', 'hashtable');
    // The payload is binary: read as base64, sent back percent-encoded in the path form.
    const dumped = await t.command(['dump', 'c:h'], { headers: { 'upstash-encoding': 'base64' } });
    const payload = [...Buffer.from(dumped.body.result, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const restored = await t.request(`/restore/c:restored/0/${payload}`);
    assert.deepEqual(await restored.json(), { result: 'OK' });
    await encoding('c:restored', 'intset');
    await reply(['smembers', 'c:restored'], ['1', '2']);
  });

  it('SPOP that takes most of a set rebuilds it, as an intset when it can', async () => {
    await reply(['sadd', 'p:h', ...range(1, 6), 'a'], 7);
    await reply(['srem', 'p:h', 'a'], 1);
    await encoding('p:h', 'hashtable');
    assert.equal((await result(['spop', 'p:h', '5'])).length, 5);
    await encoding('p:h', 'intset');
    // Taking few keeps the set as it is.
    await reply(['sadd', 'p:q', ...range(1, 10), 'a'], 11);
    await reply(['srem', 'p:q', 'a'], 1);
    assert.equal((await result(['spop', 'p:q', '1'])).length, 1);
    await encoding('p:q', 'hashtable');
    await reply(['sadd', 'p:r', 'a', 'b', 'c', 'd', 'e', 'f'], 6);
    assert.equal((await result(['spop', 'p:r', '5'])).length, 5);
    await encoding('p:r', 'hashtable');
  });

  it('SSCAN answers an intset whole, whatever the cursor and COUNT', async () => {
    await reply(['sadd', 'i:s', '3', '1', '2'], 3);
    await reply(['sscan', 'i:s', '0'], ['0', ['1', '2', '3']]);
    await reply(['sscan', 'i:s', '999', 'count', '1'], ['0', ['1', '2', '3']]);
    await reply(['sscan', 'i:s', '', 'count', '1', 'match', '[12]'], ['0', ['1', '2']]);
    await reply(['sscan', 'i:none', '0'], ['0', []]);
  });

  it('SSCAN walks a hashtable set by COUNT, with MATCH', async () => {
    const letters = [...'abcdefghijklmnopqrstuvwxyz'];
    await reply(['sadd', 'h:s', ...letters], 26);
    const byFive = await walk('h:s', ['count', '5']);
    assert.deepEqual(byFive.seen.sort(), letters);
    assert.ok(byFive.calls >= 5, `${byFive.calls} calls`);
    const all = await walk('h:s', ['COUNT', '1000']);
    assert.equal(all.calls, 1);
    assert.deepEqual(all.seen.sort(), letters);
    const matched = await walk('h:s', ['match', '[a-c]', 'count', '2']);
    assert.deepEqual(matched.seen.sort(), ['a', 'b', 'c']);
    assert.deepEqual((await walk('h:s', ['match', '*', 'match', 'z*'])).seen, ['z']);
  });

  it('an SSCAN cursor stays valid while the set changes', async () => {
    const first = range(0, 40).map((n) => `m${n}`);
    await reply(['sadd', 'v:s', ...first], 40);
    const kept = first.filter((_, i) => i % 3 !== 0);
    const removed = first.filter((_, i) => i % 3 === 0);
    const { seen } = await walk('v:s', ['count', '4'], async (call) => {
      // Removals, both behind and ahead of the cursor, force the set to compact its slots.
      if (call === 2) await reply(['srem', 'v:s', ...removed], removed.length);
      if (call === 3) await reply(['sadd', 'v:s', ...range(0, 30).map((n) => `new${n}`)], 30);
    });
    for (const m of kept) assert.equal(seen.filter((s) => s === m).length, 1, `${m} returned once`);
    assert.ok(seen.every((m) => first.includes(m) || m.startsWith('new')));
  });

  it('an SSCAN cursor does not skip members of a set that replaced the one it came from', async () => {
    const names = range(0, 30).map((n) => `r${n}`);
    await reply(['sadd', 'v:old', ...names], 30);
    await reply(['sadd', 'v:other', ...[...names].reverse()], 30);
    const { seen } = await walk('v:old', ['count', '5'], async (call) => {
      if (call === 1) await reply(['sunionstore', 'v:old', 'v:other'], 30);
    });
    assert.deepEqual([...new Set(seen)].sort(), [...names].sort());
  });

  it('SSCAN errors, read after the key as Redis reads them', async () => {
    await reply(['sadd', 'x:s', 'a'], 1);
    for (const cursor of ['x', '-', ' 0', '18446744073709551616', '1.5']) await fails(['sscan', 'x:s', cursor], 'ERR invalid cursor');
    await fails(['sscan', 'x:none', 'x'], 'ERR invalid cursor');
    await fails(['sscan', 'x:s', '0', 'count', '0'], 'ERR syntax error');
    await fails(['sscan', 'x:s', '0', 'count', '-1'], 'ERR syntax error');
    await fails(['sscan', 'x:s', '0', 'count', 'x'], 'ERR value is not an integer or out of range');
    await fails(['sscan', 'x:s', '0', 'type', 'set'], 'ERR syntax error');
    await fails(['sscan', 'x:s', '0', 'match'], 'ERR syntax error');
    await fails(['sscan', 'x:s', '0', 'foo', 'bar'], 'ERR syntax error');
    await reply(['sscan', 'x:none', '0', 'count', '0'], ['0', []]);
  });
});
