// Scripting as the official @upstash/redis SDK calls it, with auto-pipelining off and on:
// eval/evalsha and their read-only forms, script*, createScript, and the functions API.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { embeddedOnly, notOnCluster } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient, suiteSdk } from '../../support/sdk.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const LIB = [
  '#!lua name=sdklib',
  "redis.register_function('sdk_set', function(keys, args) return redis.call('set', keys[1], args[1]) end)",
  "redis.register_function{function_name='sdk_get', callback=function(keys) return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads a key'}",
].join('\n');

for (const mode of PIPELINE_MODES) {
  describe(`scripting through the SDK (${mode.name})`, () => {
    const { t, redis } = suiteSdk(mode);

    notOnCluster('a script may touch only the keys it declares (numkeys)')('eval and evalsha', async () => {
      assert.equal(await redis.eval("return redis.call('set', KEYS[1], ARGV[1])", ['k'], ['v']), 'OK');
      assert.equal(await redis.eval("return redis.call('get', KEYS[1])", ['k'], []), 'v');
      assert.deepEqual(await redis.eval('return {KEYS[1], ARGV[1], ARGV[2]}', ['a'], ['b', 'c']), ['a', 'b', 'c']);
      assert.equal(await redis.eval('return 7.9', [], []), 7);
      assert.equal(await redis.eval('return nil', [], []), null);
      const script = "return redis.call('incr', KEYS[1])";
      const sha = await redis.scriptLoad(script);
      assert.equal(sha, sha1(script));
      assert.equal(await redis.evalsha(sha, ['counter'], []), 1);
      assert.equal(await redis.evalsha(sha, ['counter'], []), 2);
      await assert.rejects(redis.evalsha('ffffffffffffffffffffffffffffffffffffffff', [], []), /NOSCRIPT No matching script/);
      await assert.rejects(redis.eval("return redis.call('incr', 'k')", [], []), /ERR value is not an integer or out of range script: /);
    });

    it('evalRo and evalshaRo read, and refuse writes', async () => {
      await redis.set('ro', 'value');
      assert.equal(await redis.evalRo("return redis.call('get', KEYS[1])", ['ro'], []), 'value');
      const sha = await redis.scriptLoad("return redis.call('get', KEYS[1])");
      assert.equal(await redis.evalshaRo(sha, ['ro'], []), 'value');
      await assert.rejects(redis.evalRo("return redis.call('set', 'ro', 'x')", [], []), /Write commands are not allowed from read-only scripts/);
      // The read-only token may run them too.
      const ro = sdkClient(t, { autoPipeline: mode.autoPipeline, readOnly: true });
      assert.equal(await ro.evalRo("return redis.call('get', KEYS[1])", ['ro'], []), 'value');
      await assert.rejects(ro.eval("return redis.call('set', 'ro', 'x')", [], []), /Write commands are not allowed from read-only scripts/);
      assert.equal(await redis.get('ro'), 'value');
    });

    it('the read-only token can neither poison what later scripts run nor change scripts and functions', async () => {
      const ro = sdkClient(t, { autoPipeline: mode.autoPipeline, readOnly: true });
      await assert.rejects(ro.eval("rawset(redis, 'call', function() return 'poisoned' end)", [], []), /ERR Attempt to modify a readonly table script: /);
      await assert.rejects(ro.eval("tonumber = function() return 0 end", [], []), /ERR user_script:1: Attempt to modify a readonly table script: /);
      await assert.rejects(ro.eval("getmetatable('').__index = {}", [], []), /ERR user_script:1: Attempt to modify a readonly table script: /);
      assert.deepEqual(await redis.eval("return {redis.call('ping'), tonumber('7'), ('a'):upper()}", [], []), ['PONG', 7, 'A']);
      const a = await redis.scriptLoad('return 1');
      await assert.rejects(ro.scriptFlush(), /NOPERM .*'script\|flush'/);
      await assert.rejects(ro.scriptLoad('return 3'), /NOPERM .*'script\|load'/);
      await assert.rejects(ro.functions.load({ code: LIB }), /NOPERM .*'function\|load'/);
      await assert.rejects(ro.functions.flush(), /NOPERM .*'function\|flush'/);
      assert.deepEqual(await redis.scriptExists(a), [1]);
    });

    it('scriptExists and scriptFlush', async () => {
      const a = await redis.scriptLoad('return 1');
      const b = sha1('return 2');
      assert.deepEqual(await redis.scriptExists(a, b), [1, 0]);
      assert.equal(await redis.scriptFlush({ sync: true }), 'OK');
      assert.deepEqual(await redis.scriptExists(a), [0]);
      assert.equal(await redis.scriptFlush(), 'OK');
    });

    notOnCluster('EVAL caches a script on the one node that ran it; SCRIPT EXISTS holds where every node holds')('createScript falls back to EVAL once, then runs by sha', async () => {
      const body = `return redis.call('incrby', KEYS[1], ARGV[1]) -- ${mode.name}`;
      await redis.scriptFlush();
      const script = redis.createScript<number>(body);
      assert.equal(await script.exec(['cs'], ['5']), 5);
      assert.deepEqual(await redis.scriptExists(sha1(body)), [1]);
      assert.equal(await script.evalsha(['cs'], ['1']), 6);
      assert.equal(await script.eval(['cs'], ['1']), 7);
      // GET answers "7", which the SDK deserializes as JSON.
      const reader = redis.createScript<number, true>("return redis.call('get', KEYS[1])", { readonly: true });
      assert.equal(await reader.exec(['cs'], []), 7);
      assert.equal(await reader.evalRo(['cs'], []), 7);
      assert.equal(await reader.evalshaRo(['cs'], []), 7);
    });

    it('functions: load, list, call, callRo, stats, delete, flush', async () => {
      await redis.functions.flush();
      assert.equal(await redis.functions.load({ code: LIB }), 'sdklib');
      assert.equal(await redis.functions.load({ code: LIB, replace: true }), 'sdklib');
      await assert.rejects(redis.functions.load({ code: LIB }), /ERR Library 'sdklib' already exists/);
      assert.equal(await redis.functions.call('sdk_set', ['fk'], ['fv']), 'OK');
      assert.equal(await redis.functions.call('sdk_get', ['fk']), 'fv');
      assert.equal(await redis.functions.callRo('sdk_get', ['fk']), 'fv');
      const functions = [
        { name: 'sdk_set', description: undefined, flags: [] },
        { name: 'sdk_get', description: 'reads a key', flags: ['no-writes'] },
      ];
      // A library's functions come in the server's own (hash table) order.
      const byName = (libs: { functions: { name: string }[] }[]) => libs.map((l) => ({ ...l, functions: [...l.functions].sort((a, b) => (a.name < b.name ? 1 : -1)) }));
      assert.deepEqual(byName(await redis.functions.list()), [{ libraryName: 'sdklib', engine: 'LUA', functions, libraryCode: undefined }]);
      assert.deepEqual(byName(await redis.functions.list({ libraryName: 'sdk*', withCode: true })), [
        { libraryName: 'sdklib', engine: 'LUA', functions, libraryCode: LIB },
      ]);
      assert.deepEqual(await redis.functions.stats(), { engines: { LUA: { librariesCount: 1, functionsCount: 2 } } });
      assert.equal(await redis.functions.delete('sdklib'), 'OK');
      await assert.rejects(redis.functions.call('sdk_get', ['fk']), /ERR Function not found/);
      assert.equal(await redis.functions.flush(), 'OK');
      assert.deepEqual(await redis.functions.list(), []);
    });

    embeddedOnly('Redis 7.0 refuses FCALL_RO of a function without no-writes')('functions: callRo of a function without no-writes fails on its write (Upstash)', async () => {
      await redis.functions.load({ code: LIB, replace: true });
      await assert.rejects(redis.functions.callRo('sdk_set', ['fk'], ['x']), /Write commands are not allowed from read-only scripts/);
      await redis.functions.flush();
    });
  });
}
