// Scripts and functions across restarts: SCRIPT LOAD'd scripts and function libraries come back
// (from the log, and from a snapshot), and a script's effects are logged as the commands it
// ran, each in its deterministic form, all in the frame of the EVAL, never the EVAL itself.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeCommands } from '../../../src/kv/engine/command-codec.js';
import { readFrames } from '../../../src/storage/frames.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';

/** The frames of the database's logs, each as its commands. */
function loggedFrames(dataDir: string): string[][][] {
  const dir = join(dataDir, 'kv', 'default');
  const logs = readdirSync(dir).filter((name) => name.endsWith('.aof')).sort();
  return logs.flatMap((name) => readFrames(readFileSync(join(dir, name))).frames.map((f) => decodeCommands(f).map((a) => [...a])));
}

const LIB = "#!lua name=counters\nredis.register_function('bump', function(keys, args) return redis.call('incrby', keys[1], args[1]) end)";
const GONE = "#!lua name=gone\nredis.register_function('gone', function() return 1 end)";
const LOADED = "return redis.call('get', KEYS[1])";
const EVALED = 'return 42';

async function result(t: TestLarder, argv: string[]): Promise<unknown> {
  const res = await t.command(argv);
  assert.equal(res.status, 200, `${argv.join(' ')}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}

for (const [label, config] of [
  ['replayed from the log', {}],
  ['loaded from a snapshot', { kv: { compactAfterBytes: 1 } }],
] as const) {
  describe(`scripting across a restart, ${label}`, () => {
    const dirs: string[] = [];
    after(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('keeps SCRIPT LOAD scripts, libraries and script effects', async () => {
      let t = await startTestLarder({ ...config, kv: { ...('kv' in config ? config.kv : {}), databases: { default: { scriptTimeoutMs: 200 } } } });
      dirs.push(t.dataDir);
      const loaded = (await result(t, ['SCRIPT', 'LOAD', LOADED])) as string;
      await result(t, ['SCRIPT', 'LOAD', LOADED]);
      await result(t, ['EVAL', EVALED, '0']);
      await result(t, ['FUNCTION', 'LOAD', LIB]);
      await result(t, ['FUNCTION', 'LOAD', GONE]);
      await result(t, ['FUNCTION', 'DELETE', 'gone']);
      // Effects: a relative expiry is logged absolute, a float increment as its result.
      await result(t, ['EVAL', "redis.call('set', KEYS[1], 'v', 'EX', 1000) return redis.call('incrbyfloat', KEYS[2], '0.1')", '2', 'ex', 'float']);
      await result(t, ['FCALL', 'bump', '1', 'n', '5']);
      await result(t, ['FCALL', 'bump', '1', 'n', '2']);
      // A script stopped by the time limit keeps what it wrote first.
      assert.equal((await t.command(['EVAL', "redis.call('set','partial','yes') while true do end", '0'])).status, 400);
      const expiry = await result(t, ['PEXPIRETIME', 'ex']);
      const dataDir = t.dataDir;
      await t.close(true);

      if (!('kv' in config)) {
        const frames = loggedFrames(dataDir);
        const commands = frames.flat();
        assert.ok(!commands.some((argv) => ['eval', 'fcall'].includes(argv[0].toLowerCase())), 'scripts are logged as their effects');
        assert.equal(commands.filter((argv) => argv[0] === 'SCRIPT' && argv[1] === 'LOAD').length, 1, 'a script loaded twice is logged once');
        const effects = frames.find((f) => f.some((argv) => argv[0].toLowerCase() === 'set' && argv[1] === 'ex'));
        assert.ok(effects !== undefined);
        assert.equal(effects.length, 2, 'one EVAL, one frame');
        assert.equal(effects[0][3].toUpperCase(), 'PXAT');
      }

      t = await startTestLarder({}, dataDir);
      assert.equal(await result(t, ['SET', 'k', 'v']), 'OK');
      assert.equal(await result(t, ['EVALSHA', loaded, '1', 'k']), 'v');
      assert.deepEqual(await result(t, ['SCRIPT', 'EXISTS', loaded]), [1]);
      assert.equal(await result(t, ['FCALL', 'bump', '1', 'n', '1']), 8);
      assert.deepEqual((await t.command(['FCALL', 'gone', '0'])).body, { error: 'ERR Function not found' });
      assert.equal(await result(t, ['GET', 'float']), '0.1');
      assert.equal(await result(t, ['GET', 'partial']), 'yes');
      assert.equal(await result(t, ['PEXPIRETIME', 'ex']), expiry);
      assert.deepEqual(await result(t, ['FUNCTION', 'LIST']), [
        ['library_name', 'counters', 'engine', 'LUA', 'functions', [['name', 'bump', 'description', null, 'flags', []]]],
      ]);

      // SCRIPT FLUSH and FUNCTION FLUSH are durable too.
      await result(t, ['SCRIPT', 'FLUSH']);
      await result(t, ['FUNCTION', 'FLUSH']);
      await t.close(true);
      t = await startTestLarder({}, dataDir);
      assert.deepEqual(await result(t, ['SCRIPT', 'EXISTS', loaded]), [0]);
      assert.deepEqual(await result(t, ['FUNCTION', 'LIST']), []);
      await t.close(true);
    });
  });
}
