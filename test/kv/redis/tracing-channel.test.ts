// The TracingChannel that ioredis asks whether anyone traces its commands: with
// completeTracingChannel() it answers false while nobody subscribes (Bun had no answer, so
// ioredis traced every command) and true while a tracer does, on both runtimes. And a tracer in
// Larder's process sees the remote backend's commands, although single commands are written by
// Larder itself while nobody traces (direct-send.ts).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EXECUTABLE = { node: process.execPath, bun: join(ROOT, 'node_modules', '.bin', 'bun') };
const MODULE = join(ROOT, 'dist', 'src', 'kv', 'redis', 'tracing-channel.js');
const REDIS = findRedisServer();

// Prints hasSubscribers before, while and after a tracer listens to ioredis's command channel.
const SCRIPT = `
  import diagnostics from 'node:diagnostics_channel';
  const { completeTracingChannel } = await import(${JSON.stringify(MODULE)});
  completeTracingChannel();
  const channel = diagnostics.tracingChannel('ioredis:command');
  const seen = [channel.hasSubscribers];
  const tracer = { asyncEnd() {} };
  channel.subscribe(tracer);
  seen.push(channel.hasSubscribers);
  channel.unsubscribe(tracer);
  seen.push(channel.hasSubscribers);
  console.log(JSON.stringify(seen));
`;

describe('completeTracingChannel', () => {
  for (const runtime of ['node', 'bun'] as const) {
    it(`tells ioredis on ${runtime} whether a tracer listens`, () => {
      const out = execFileSync(EXECUTABLE[runtime], ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8' });
      assert.deepEqual(JSON.parse(out), [false, true, false]);
    });
  }
});

// Starts Larder in this process on the Redis at argv[2], then GETs and SETs over HTTP before,
// while and after a tracer listens; prints the commands the tracer saw.
const TRACED = `
  import diagnostics from 'node:diagnostics_channel';
  import { mkdtempSync, rmSync } from 'node:fs';
  import { tmpdir } from 'node:os';
  import { join } from 'node:path';
  const dist = ${JSON.stringify(join(ROOT, 'dist', 'src'))};
  const { validate } = await import(join(dist, 'config', 'load.js'));
  const { startLarder } = await import(join(dist, 'larder.js'));
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-traced-'));
  const url = 'redis://127.0.0.1:' + process.argv.at(-1);
  const larder = await startLarder(validate({ host: '127.0.0.1', port: 0, logLevel: 'silent', dataDir, kv: { databases: { default: { url } } } }));
  const { token } = larder.kv.find((c) => c.db === 'default');
  const run = (path) => fetch(larder.url + '/redis/default' + path, { headers: { authorization: 'Bearer ' + token } }).then((r) => r.json());
  const seen = [];
  const tracer = { start: (c) => seen.push(c.command + ' ' + c.args.join(' ')) };
  const channel = diagnostics.tracingChannel('ioredis:command');
  await run('/set/k/before');
  channel.subscribe(tracer);
  const replies = [await run('/set/k/traced'), await run('/get/k')];
  channel.unsubscribe(tracer);
  await run('/get/k');
  await larder.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify({ replies, seen }));
`;

describe('a tracer in Larder\'s process', { skip: REDIS === undefined && 'redis-server is not installed' }, () => {
  let redis: RedisServer;
  before(async () => (redis = await startRedisServer(REDIS!)));
  after(() => redis?.stop());

  for (const runtime of ['node', 'bun'] as const) {
    it(`sees each command the remote backend sends while it listens, on ${runtime}`, () => {
      const out = execFileSync(EXECUTABLE[runtime], ['--input-type=module', '-e', TRACED, String(redis.port)], { encoding: 'utf8' });
      // ioredis shows a tracer SET's key, not its value.
      assert.deepEqual(JSON.parse(out), { replies: [{ result: 'OK' }, { result: 'traced' }], seen: ['set k ?', 'get k'] });
    });
  }
});
