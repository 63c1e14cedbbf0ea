// `larder topic create` against a running server, and the stream env lines `larder start`
// prints, used as they are by the official client.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { runLarderCli, spawnLarder, type CliRun } from '../support/larder-process.js';

const root = mkdtempSync(join(tmpdir(), 'larder-cli-topic-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Runs the launcher in `cwd` (by default an empty folder, not the one Larder was started in). */
function larder(args: string[], cwd = mkdtempSync(join(root, 'elsewhere-'))): Promise<CliRun> {
  return runLarderCli(args, cwd);
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

      const config = join(root, 'larder.yaml');
      writeFileSync(config, `dataDir: ${JSON.stringify(dataDir)}\n`);
      const byConfig = await larder(['topic', 'create', 'viaconfig', '--url', p.info.url, '--config', config]);
      assert.equal(byConfig.code, 0, byConfig.stderr);
      assert.deepEqual(await kafka.admin().topics(), { first: 2, made: 3, viaconfig: 1 });
    } finally {
      await p.stop();
    }
  });

  it('names the data directory it looked in when that holds no credentials, and leaves it as it was', async () => {
    const cwd = mkdtempSync(join(root, 'no-server-'));
    const missing = await larder(['topic', 'create', 't'], cwd);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, new RegExp(`no credentials for stream cluster 'default' in ${escape(join(cwd, '.larder'))}`));
    assert.match(missing.stderr, /--data-dir DIR or --config FILE/);
    assert.doesNotMatch(missing.stderr, /\.tmp/);
    assert.deepEqual(readdirSync(cwd), []);
  });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
