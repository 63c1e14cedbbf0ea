// The TracingChannel that ioredis asks whether anyone traces its commands: with
// completeTracingChannel() it answers false while nobody subscribes (Bun had no answer, so
// ioredis traced every command) and true while a tracer does, on both runtimes.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EXECUTABLE = { node: process.execPath, bun: join(ROOT, 'node_modules', '.bin', 'bun') };
const MODULE = join(ROOT, 'dist', 'src', 'kv', 'redis', 'tracing-channel.js');

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
