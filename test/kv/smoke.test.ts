import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../support/larder.js';

describe('kv smoke', () => {
  const t = suiteLarder();

  it('sets and gets through the path and JSON forms', async () => {
    const set = await t.request('/set/greeting/hello');
    assert.deepEqual(await set.json(), { result: 'OK' });
    assert.deepEqual(await t.command(['get', 'greeting']), { status: 200, body: { result: 'hello' } });
  });
});
