// `larder start --qstash-dev`: an app written for @upstash/qstash's dev mode (QSTASH_DEV=true,
// `new Client()`, `new Receiver()`, no credentials) publishes through Larder and verifies the
// delivery, with Larder on a free port named by QSTASH_DEV_PORT (never the SDK's 8080 here).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../support/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/load.js';
import { DEV_CREDENTIALS } from '../../src/queue/dev-mode.js';
import { spawnLarder } from '../support/larder-process.js';

const APP = fileURLToPath(new URL('../support/qstash-dev-app.js', import.meta.url));

/** Runs the dev-mode app against `port`; its one JSON line. */
function runApp(port: number): Promise<{ published: { messageId: string }; delivered: { messageId?: string; body: string; verified: boolean; error?: string }[] }> {
  const env: Record<string, string | undefined> = { ...process.env, QSTASH_DEV: 'true', QSTASH_DEV_PORT: String(port) };
  for (const name of Object.keys(env)) if (/QSTASH_(URL|TOKEN|CURRENT_SIGNING_KEY|NEXT_SIGNING_KEY|REGION)$/.test(name) || name === 'NODE_ENV') delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [APP], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || line === undefined) reject(new Error(`the dev-mode app exited ${code}\n${out}\n${err}`));
      else resolve(JSON.parse(line));
    });
  });
}

describe('queue dev mode: settings', () => {
  it('moves the default port to the one the SDK probes; --port, LARDER_PORT and QSTASH_DEV_PORT name another', () => {
    assert.equal(loadConfig({}, {}).port, 7700);
    assert.equal(loadConfig({}, { QSTASH_DEV_PORT: '9000' }).port, 7700);
    const dev = loadConfig({ 'qstash-dev': 'true' }, {});
    assert.equal(dev.queue.dev, true);
    assert.equal(dev.port, 8080);
    assert.equal(loadConfig({}, { LARDER_QSTASH_DEV: 'true' }).port, 8080);
    assert.equal(loadConfig({ 'qstash-dev': 'true' }, { QSTASH_DEV_PORT: '9000' }).port, 9000);
    assert.equal(loadConfig({ 'qstash-dev': 'true', port: '9001' }, { QSTASH_DEV_PORT: '9000' }).port, 9001);
    assert.equal(loadConfig({ 'qstash-dev': 'true' }, { LARDER_PORT: '9002', QSTASH_DEV_PORT: '9000' }).port, 9002);
    assert.equal(loadConfig({ 'qstash-dev': 'false' }, {}).queue.dev, false);
  });
});

describe('queue dev mode: larder start --qstash-dev', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-qstash-dev-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers the SDK at the root of QSTASH_DEV_PORT with the dev credentials, and a QSTASH_DEV=true app publishes and verifies', async () => {
    const port = await freePort();
    const p = await spawnLarder({ dataDir, flags: ['--qstash-dev'], env: { QSTASH_DEV_PORT: String(port) } });
    try {
      assert.equal(p.info.url, `http://127.0.0.1:${port}`);
      assert.equal(p.info.queue.token, DEV_CREDENTIALS.token);
      assert.equal(p.info.queue.currentSigningKey, DEV_CREDENTIALS.currentSigningKey);
      assert.ok(p.stdout().some((l) => l.includes(`QSTASH_DEV=true and QSTASH_DEV_PORT=${port}`)), p.stdout().join('\n'));
      const auth = { authorization: `Bearer ${DEV_CREDENTIALS.token}` };
      // The SDK's probe (isDevServerRunning): GET /v2/keys answers the dev keys, at the root and under /qstash.
      for (const path of ['/v2/keys', '/qstash/v2/keys']) {
        const res = await fetch(`${p.info.url}${path}`, { headers: auth });
        assert.equal(res.status, 200, path);
        assert.deepEqual(await res.json(), { current: DEV_CREDENTIALS.currentSigningKey, next: DEV_CREDENTIALS.nextSigningKey });
      }
      // Rotating would leave the SDK's receivers with keys they do not know.
      const rotate = await fetch(`${p.info.url}/v2/keys/rotate`, { method: 'POST', headers: auth });
      assert.equal(rotate.status, 400);
      assert.match(((await rotate.json()) as { error: string }).error, /fixed in dev mode/);
      assert.equal((await fetch(`${p.info.url}/v2/keys`)).status, 401);
      // Other services stay under their prefixes.
      const kv = p.info.databases.get('default')!;
      const set = await fetch(`${kv.url}/set/k/v`, { headers: { authorization: `Bearer ${kv.token}` } });
      assert.deepEqual(await set.json(), { result: 'OK' });

      const { published, delivered } = await runApp(port);
      assert.match(published.messageId, /^msg_/);
      assert.equal(delivered.length, 1, JSON.stringify(delivered));
      assert.equal(delivered[0].messageId, published.messageId);
      assert.deepEqual(JSON.parse(delivered[0].body), { hello: 'dev mode' });
      assert.ok(delivered[0].verified, delivered[0].error);
    } finally {
      assert.equal((await p.stop()).code, 0);
    }
  });
});
