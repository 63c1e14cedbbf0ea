import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestLarder, type TestLarder } from '../support/larder.js';

describe('kv smoke', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
  });
  after(() => t.close());

  it('sets and gets through the path and JSON forms', async () => {
    const set = await t.request('/set/greeting/hello');
    assert.deepEqual(await set.json(), { result: 'OK' });
    assert.deepEqual(await t.command(['get', 'greeting']), { status: 200, body: { result: 'hello' } });
  });
});
