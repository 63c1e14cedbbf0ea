// @upstash/lock against a Larder over HTTP: acquire (SET NX PX), extend and release (scripts
// that check the holder's UUID first), and the status each holder sees.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Lock } from '@upstash/lock';
import type { Redis } from '@upstash/redis';
import type { TestLarder } from '../../support/larder.js';
import { PIPELINE_MODES, startSdk } from '../../support/sdk.js';

const NO_RETRY = { attempts: 1, delay: 1 };
/** @upstash/lock's types name the SDK's CommonJS declarations; the client is the same. */
type LockRedis = ConstructorParameters<typeof Lock>[0]['redis'];

for (const mode of PIPELINE_MODES) {
  describe(`@upstash/lock against Larder (${mode.name})`, () => {
    let t: TestLarder;
    let redis: Redis;
    let lockRedis: LockRedis;
    before(async () => {
      ({ t, redis } = await startSdk(mode));
      lockRedis = redis as unknown as LockRedis;
    });
    after(() => t.close());

    it('acquire, extend, release, and a second holder in between', async () => {
      const first = new Lock({ id: 'lock:a', redis: lockRedis, lease: 10_000, retry: NO_RETRY });
      const second = new Lock({ id: 'lock:a', redis: lockRedis, lease: 10_000, retry: NO_RETRY });
      assert.equal(await first.acquire(), true);
      assert.equal(await first.getStatus(), 'ACQUIRED');
      assert.equal(await second.acquire(), false);
      assert.equal(await second.getStatus(), 'FREE');

      const before = await redis.pttl('lock:a');
      assert.ok(before > 8_000 && before <= 10_000, `lease ${before}`);
      assert.equal(await first.extend(5_000), true);
      const extended = await redis.pttl('lock:a');
      assert.ok(extended > 13_000 && extended <= 15_000, `extended lease ${extended}`);
      // Only the holder may extend or release.
      assert.equal(await second.extend(5_000), false);
      assert.equal(await second.release(), false);
      assert.equal(await redis.exists('lock:a'), 1);

      assert.equal(await first.release(), true);
      assert.equal(await first.getStatus(), 'FREE');
      assert.equal(await redis.exists('lock:a'), 0);
      assert.equal(await first.release(), false);
      assert.equal(await first.extend(1_000), false);

      assert.equal(await second.acquire(), true);
      assert.equal(await second.getStatus(), 'ACQUIRED');
      assert.equal(await second.release(), true);
    });

    it('one of many concurrent callers gets the lock', async () => {
      const locks = Array.from({ length: 20 }, () => new Lock({ id: 'lock:race', redis: lockRedis, lease: 10_000, retry: NO_RETRY }));
      const got = await Promise.all(locks.map((l) => l.acquire()));
      assert.equal(got.filter(Boolean).length, 1);
      const holder = locks[got.indexOf(true)];
      const released = await Promise.all(locks.map((l) => l.release()));
      assert.deepEqual(released, got);
      assert.equal(await holder.getStatus(), 'FREE');
    });
  });
}
