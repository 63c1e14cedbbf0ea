// The bounds of a script run (issue 18): scriptMemoryBytes stops a script that allocates past
// it, one huge operation included (refused before it allocates, so scriptTimeoutMs holds too),
// for any token, in EVAL and FCALL, over HTTP and through the SDK; the next request is served
// as usual. Larder's own limits: a Redis server has neither, so these run on the embedded engine.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { embeddedOnly, replies, startTestLarder, type TestLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';

const LIMIT = 16 * 1024 * 1024;
const KILLED = `ERR Script killed: it used more than the memory limit of ${LIMIT} bytes (scriptMemoryBytes)`;
const sha1 = (body: string) => createHash('sha1').update(body, 'latin1').digest('hex');
const at = (body: string, line = 1) => ` script: ${sha1(body)}, on @user_script:${line}.`;
const WHY = 'scriptMemoryBytes is Larder\'s: Redis bounds no script\'s memory';

describe('scripting bounds', () => {
  let t: TestLarder;
  before(async () => {
    // A time limit far above what these scripts take: the memory limit is what must stop them.
    t = await startTestLarder({ kv: { databases: { default: { scriptTimeoutMs: 60_000, scriptMemoryBytes: LIMIT } } } });
  });
  after(() => t.close());

  const { reply, fails } = replies(() => t);
  const killed = (body: string, line = 1) => fails(['EVAL', body, '0'], `${KILLED}${at(body, line)}`);
  const MEGABYTE = "local mb = string.rep('x', 1024 * 1024)\n";

  embeddedOnly(WHY)('stops doubling a string 40 times, for the read-only token too', async () => {
    const body = "local s = 'x' for i = 1, 40 do s = s .. s end return #s";
    await killed(body);
    assert.deepEqual(await t.command(['EVAL', 'local s = \'x\' for i = 1, 30 do s = s .. s end return #s', '0'], { token: t.readOnlyToken }), {
      status: 400,
      body: { error: `${KILLED}${at("local s = 'x' for i = 1, 30 do s = s .. s end return #s")}` },
    });
    await reply(['PING'], 'PONG');
    await reply(['EVAL', "return #string.rep('x', 1000)", '0'], 1000);
  });

  embeddedOnly(WHY)('refuses each huge operation before it allocates', async () => {
    await killed("return #string.rep('x', 1024 * 1024 * 1024)");
    await killed(`${MEGABYTE}return #(mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb .. mb)`, 2);
    await killed(`${MEGABYTE}local t = {} for i = 1, 100 do t[i] = mb end return #table.concat(t)`, 2);
    await killed(`${MEGABYTE}local t = {} for i = 1, 100 do t[i] = mb end return #cjson.encode(t)`, 2);
    await killed(`${MEGABYTE}local t = {} for i = 1, 100 do t[i] = mb end return #cmsgpack.pack(t)`, 2);
    await killed(`${MEGABYTE}return #string.format(string.rep('%s', 100), ${Array(100).fill('mb').join(', ')})`, 2);
  });

  embeddedOnly(WHY)('repeats an empty string at once, however many times', async () => {
    // fengari would loop 2^31 times first, minutes past any time limit. 5.1 has no separator.
    await reply(['EVAL', "return {#string.rep('', 2147483647), #string.rep('', 2147483647, ''), string.rep('ab', 2, '-')}", '0'], [0, 0, 'abab']);
    await reply(['EVAL', 'return string.rep(5, 2)', '0'], '55');
  });

  embeddedOnly(WHY)('stops a script whose tables grow past the limit', async () => {
    await killed('local t = {} for i = 1, 100000000 do t[i] = {i} end return #t');
  });

  embeddedOnly(WHY)('stops a script that catches the error and goes on', async () => {
    await killed("pcall(function() local s = 'x' for i = 1, 40 do s = s .. s end end)\nlocal t = {} while true do t[#t + 1] = string.rep('y', 1024 * 1024) end", 1);
    // A coroutine runs on its own hook: it may go on a little, but not allocate.
    const inCoroutine = [
      'return coroutine.wrap(function()',
      "  pcall(function() local s = 'x' for i = 1, 40 do s = s .. s end end)",
      "  local s = 'x' for i = 1, 40 do s = s .. s end",
      '  return #s',
      'end)()',
    ].join('\n');
    await killed(inCoroutine, 1);
  });

  // Each `..` copies the string so far: 1,000 pieces of 1 KiB build 1 MiB and allocate about
  // 500 MiB on the way, 30 times the limit. What the script dropped is not its memory; Redis
  // runs this too.
  embeddedOnly(WHY)('lets a script build a string piece by piece, whatever it allocated on the way', async () => {
    const build = "local s = '' local piece = string.rep('x', 1024) for i = 1, 1000 do s = s .. piece end return #s";
    await reply(['EVAL', build, '0'], 1000 * 1024);
  });

  embeddedOnly(WHY)('counts each run from zero, functions too', async () => {
    for (let i = 0; i < 3; i++) await reply(['EVAL', "return #string.rep('x', 10 * 1024 * 1024)", '0'], 10 * 1024 * 1024);
    await reply(['FUNCTION', 'LOAD', "#!lua name=grow\nredis.register_function('grow', function() local s = 'x' for i = 1, 40 do s = s .. s end end)"], 'grow');
    await fails(['FCALL', 'grow', '0'], `${KILLED} script: grow, on @user_function:2.`);
    await reply(['FUNCTION', 'DELETE', 'grow'], 'OK');
  });

  embeddedOnly(WHY)('answers the SDK with the error and serves its next call', async () => {
    const redis = sdkClient(t);
    await assert.rejects(redis.eval("local s = 'x' for i = 1, 40 do s = s .. s end return #s", [], []), (e: Error) => e.message.startsWith(KILLED));
    assert.equal(await redis.eval("return redis.call('ping')", [], []), 'PONG');
  });
});
