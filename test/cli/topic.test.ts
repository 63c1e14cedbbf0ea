// `larder topic create` against a running server, and the stream env lines `larder start`
// prints, used as they are by the official client.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Kafka } from '@upstash/kafka';
import { spawnLarder } from '../support/larder-process.js';

const root = mkdtempSync(join(tmpdir(), 'larder-cli-topic-'));
after(() => rmSync(root, { recursive: true, force: true }));
const LAUNCHER = fileURLToPath(new URL('../../../bin/larder.js', import.meta.url));

function larder(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [LAUNCHER, ...args], (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number((err as NodeJS.ErrnoException & { code?: number }).code ?? 1), stdout, stderr });
    });
  });
}

describe('larder topic create', () => {
  it('creates a topic on the running server, whose env lines the SDK takes as they are', async () => {
    const dataDir = join(root, 'create');
    const p = await spawnLarder({ dataDir, flags: ['--topic', 'first:2'] });
    try {
      const env: Record<string, string> = {};
      for (const m of p.stdout().map((l) => /^(UPSTASH_KAFKA_REST_[A-Z]+)=(.*)$/.exec(l))) if (m !== null) env[m[1]] = m[2];
      assert.equal(env.UPSTASH_KAFKA_REST_URL, `${p.info.url}/kafka/default`);
      const kafka = new Kafka({ url: env.UPSTASH_KAFKA_REST_URL, username: env.UPSTASH_KAFKA_REST_USERNAME, password: env.UPSTASH_KAFKA_REST_PASSWORD });
      assert.deepEqual(await kafka.admin().topics(), { first: 2 });

      const made = await larder(['topic', 'create', 'made', '--partitions', '3', '--url', p.info.url, '--data-dir', dataDir]);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /created topic 'made' with 3 partition\(s\)/);
      assert.deepEqual(await kafka.admin().topics(), { first: 2, made: 3 });

      const twice = await larder(['topic', 'create', 'made', '--url', p.info.url, '--data-dir', dataDir]);
      assert.equal(twice.code, 2);
      assert.match(twice.stderr, /topic not created: topic 'made' already exists/);
      const bad = await larder(['topic', 'create', 'x', '--partitions', 'many', '--url', p.info.url, '--data-dir', dataDir]);
      assert.match(bad.stderr, /--partitions needs an integer/);
    } finally {
      await p.stop();
    }
  });
});
