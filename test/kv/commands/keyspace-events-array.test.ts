// Keyspace notifications of arrays (Upstash's AR* commands). Upstash modelled arrays on Redis
// 8.8's native type and no redis-server here has it, so this follows Redis's source: src/server.h
// names the array class NOTIFY_ARRAY, `a`, and puts it in NOTIFY_ALL, `A`.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../../support/larder.js';

const PARAM = 'notify-keyspace-events';

describe('keyspace events of array commands, through the SDK', () => {
  const t = suiteLarder();

  it('a names the array class, and A holds it, as Redis 8.8 has them', async () => {
    await t.ok(['config', 'set', PARAM, 'Ka']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'aK']);
    await t.ok(['config', 'set', PARAM, 'g$lshzxetdaKE']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'AKE']);
    await t.ok(['config', 'set', PARAM, 'g$lshzxetdKE']);
    assert.deepEqual(await t.ok(['config', 'get', PARAM]), [PARAM, 'g$lshzxetdKE']);
  });
});
