// The upstash-sync-token header: on every 2xx, new after every write, the same after reads.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../../support/larder.js';

describe('kv rest: upstash-sync-token', () => {
  const t = suiteLarder();

  async function tokenAfter(path: string, init: RequestInit = {}): Promise<string> {
    const res = await t.request(path, init);
    assert.ok(res.ok, `${path}: ${res.status}`);
    await res.arrayBuffer();
    const token = res.headers.get('upstash-sync-token');
    assert.ok(token, `${path} answered without a sync token`);
    return token;
  }

  const post = (body: string): RequestInit => ({ method: 'POST', body });

  it('is sent on every successful answer, whatever the form or format', async () => {
    await tokenAfter('/get/k');
    await tokenAfter('/get/k', { method: 'HEAD' });
    await tokenAfter('', post('["ping"]'));
    await tokenAfter('/echo', post('x'));
    await tokenAfter('/pipeline', post('[["get","k"]]'));
    await tokenAfter('/multi-exec', post('[["get","k"]]'));
    await tokenAfter('/get/k', { headers: { 'upstash-response-format': 'resp2' } });
    await tokenAfter('/get/k', { headers: { 'upstash-encoding': 'base64' } });
  });

  it('changes after every write', async () => {
    const seen = new Set([await tokenAfter('/get/k')]);
    const writes: [string, RequestInit?][] = [
      ['/set/k/1'],
      ['/set/k/1'],
      ['', post('["set","k","2"]')],
      ['/set/k', post('3')],
      ['/pipeline', post('[["get","k"],["set","k","4"]]')],
      ['/multi-exec', post('[["set","k","5"],["get","k"]]')],
      ['/del/k'],
      ['/flushdb'],
    ];
    for (const [path, init] of writes) {
      const token = await tokenAfter(path, init);
      assert.ok(!seen.has(token), `${path} ${init?.body ?? ''} did not change the token`);
      seen.add(token);
    }
  });

  it('stays the same after reads and refused commands', async () => {
    const before = await tokenAfter('/set/r/1');
    for (const [path, init] of [
      ['/get/r'],
      ['/get/r', { method: 'HEAD' }],
      ['/dbsize'],
      ['/ping'],
      ['/echo/x'],
      ['/pipeline', post('[["get","r"],["ping"]]')],
      ['/multi-exec', post('[["get","r"]]')],
    ] as [string, RequestInit?][]) {
      assert.equal(await tokenAfter(path, init), before, path);
    }
    await t.request('/set/r', { method: 'GET' });
    await t.request('/set/r/2', { token: t.readOnlyToken });
    assert.equal(await tokenAfter('/get/r'), before, 'a refused write is no write');
  });
});
