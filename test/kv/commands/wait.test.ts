// WAIT and WAITAOF on the embedded engine, which has no replicas: WAIT answers 0 at once, and
// WAITAOF's local count says whether the database's log is on the disk, waiting for an fdatasync
// when asked to. The remote backend refuses both (test/kv/redis/standalone.test.ts): on the
// shared connection they would hold every request behind them.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe } from 'node:test';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

const only = embeddedOnly('WAIT and WAITAOF need the embedded engine (a remote backend refuses them)');

describe('WAIT and WAITAOF', () => {
  const t = suiteLarder();
  const { reply, fails } = replies(() => t);
  const transaction = async (commands: string[][]) => {
    const res = await t.request('/multi-exec', { method: 'POST', body: JSON.stringify(commands) });
    assert.equal(res.status, 200);
    return res.json();
  };

  only('WAITAOF 1 waits until the writes so far are on the disk; in a transaction it says what holds', async () => {
    // The log is fdatasynced once a second: within a transaction the write is not on the disk yet.
    assert.deepEqual(await transaction([['set', 'k', 'v'], ['waitaof', '1', '0', '0']]), [{ result: 'OK' }, { result: [0, 0] }]);
    await reply(['waitaof', '1', '0', '0'], [1, 0]);
    // Nothing written since: the fdatasync it waited for covers everything.
    assert.deepEqual(await transaction([['waitaof', '1', '0', '0']]), [{ result: [1, 0] }]);
    await reply(['waitaof', '0', '0', '0'], [1, 0]);
    assert.deepEqual(await transaction([['incr', 'n'], ['waitaof', '0', '0', '0']]), [{ result: 1 }, { result: [0, 0] }]);
    // No replica ever acknowledges: the count is 0 at once, not at the timeout.
    const started = Date.now();
    await reply(['waitaof', '1', '2', '0'], [1, 0]);
    await reply(['wait', '1', '0'], 0);
    await reply(['wait', '0', '0'], 0);
    assert.ok(Date.now() - started < 5000, 'no wait for replicas that do not exist');
  });

  only('a script cannot wait: WAIT is refused there, WAITAOF answers what holds', async () => {
    const script = "return redis.call('wait', 0, 0)";
    const sha = createHash('sha1').update(script).digest('hex');
    await fails(['eval', script, '0'], `ERR This Redis command is not allowed from script script: ${sha}, on @user_script:1.`);
    await reply(['eval', "redis.call('set', 'in-script', 1) return redis.call('waitaof', 1, 0, 0)", '0'], [0, 0]);
    await reply(['waitaof', '1', '0', '100'], [1, 0]);
  });

  only('arguments are checked as Redis checks them', async () => {
    await fails(['wait', 'x', '0'], 'ERR value is not an integer or out of range');
    await fails(['wait', '0', 'x'], 'ERR timeout is not an integer or out of range');
    await fails(['wait', '0', '-1'], 'ERR timeout is negative');
    await fails(['waitaof', 'x', '0', '0'], 'ERR value is not an integer or out of range');
    await fails(['waitaof', '2', '0', '0'], 'ERR value is out of range, value must between 0 and 1');
    await fails(['waitaof', '-1', '0', '0'], 'ERR value is out of range, value must between 0 and 1');
    await fails(['waitaof', '0', '-1', '0'], 'ERR value is out of range, must be positive');
    await fails(['waitaof', '0', '0', '-5'], 'ERR timeout is negative');
    await fails(['waitaof', '0', '0'], "ERR wrong number of arguments for 'waitaof' command");
  });
});
