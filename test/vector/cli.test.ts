// `larder start` and the vector service: --vector-index declares indexes, and the printed env
// lines configure @upstash/vector as they are.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Index } from '@upstash/vector';
import { launchLarder, runLarderCli, spawnLarder } from '../support/larder-process.js';

const root = mkdtempSync(join(tmpdir(), 'larder-vector-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

function envOf(lines: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m !== null) env[m[1]] = m[2];
  }
  return env;
}

describe('larder start: vector indexes', () => {
  it('prints UPSTASH_VECTOR_REST_* for the zero-config default index, which Index.fromEnv reads', async () => {
    const p = await spawnLarder({ dataDir: join(root, 'default') });
    const env = envOf(p.stdout());
    assert.match(env.UPSTASH_VECTOR_REST_URL, /^http:\/\/127\.0\.0\.1:\d+\/vector\/default$/);
    const ix = Index.fromEnv({ UPSTASH_VECTOR_REST_URL: env.UPSTASH_VECTOR_REST_URL, UPSTASH_VECTOR_REST_TOKEN: env.UPSTASH_VECTOR_REST_TOKEN }, { enableTelemetry: false });
    assert.equal(await ix.upsert({ id: 'a', vector: [1, 2, 3, 4, 5] }), 'Success');
    const info = await ix.info();
    assert.deepEqual([info.dimension, info.similarityFunction], [5, 'COSINE']);
    const ro = new Index({ url: env.UPSTASH_VECTOR_REST_URL, token: env.UPSTASH_VECTOR_REST_READONLY_TOKEN, enableTelemetry: false });
    await assert.rejects(ro.upsert({ id: 'b', vector: [1, 2, 3, 4, 5] }), /Read-only/);
    assert.equal((await p.stop()).code, 0);
  });

  it('declares indexes with --vector-index, each but default under <NAME>_, tokens kept across restarts', async () => {
    const dataDir = join(root, 'flags');
    const flags = ['--vector-index', 'default:DENSE', '--vector-index', 'my-docs:dense:3:euclidean'];
    const first = await spawnLarder({ dataDir, flags });
    const env = envOf(first.stdout());
    assert.match(env.MY_DOCS_UPSTASH_VECTOR_REST_URL, /\/vector\/my-docs$/);
    assert.ok(env.UPSTASH_VECTOR_REST_URL.endsWith('/vector/default'));
    const docs = new Index({ url: env.MY_DOCS_UPSTASH_VECTOR_REST_URL, token: env.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
    await assert.rejects(docs.upsert({ id: 'a', vector: [1, 2] }), /Invalid vector dimension: 2, expected: 3/);
    await docs.upsert({ id: 'a', vector: [1, 2, 3] });
    assert.equal((await docs.info()).similarityFunction, 'EUCLIDEAN');
    assert.equal((await first.stop()).code, 0);

    const second = await spawnLarder({ dataDir, flags });
    const again = envOf(second.stdout());
    assert.equal(again.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN, env.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN);
    const docs2 = new Index({ url: again.MY_DOCS_UPSTASH_VECTOR_REST_URL, token: again.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
    assert.deepEqual(await docs2.fetch(['a'], { includeVectors: true }), [{ id: 'a', vector: [1, 2, 3] }]);
    assert.equal((await second.stop()).code, 0);
  });

  it('refuses a malformed --vector-index with one line and exit code 2', async () => {
    const p = launchLarder({ dataDir: join(root, 'bad'), flags: ['--vector-index', 'docs'] });
    p.ready.catch(() => {});
    const exit = await p.exited;
    assert.equal(exit.code, 2);
    assert.match(p.stderr(), /--vector-index docs: expected NAME:TYPE\[:DIMENSION\[:SIMILARITY\]\]/);
    const q = launchLarder({ dataDir: join(root, 'bad2'), flags: ['--vector-index', 'docs:FLAT'] });
    q.ready.catch(() => {});
    assert.equal((await q.exited).code, 2);
    assert.match(q.stderr(), /--vector-index docs:FLAT: type: /);
  });

  it('creates an index on the running server with `larder vector-index create`, kept across restarts', async () => {
    const dataDir = join(root, 'created');
    const first = await spawnLarder({ dataDir });
    const created = await runLarderCli(['vector-index', 'create', 'my-docs:DENSE:3:DOT_PRODUCT', '--data-dir', dataDir, '--url', first.info.url]);
    assert.equal(created.code, 0, created.stderr);
    const env = envOf(created.stdout.split('\n'));
    assert.equal(env.MY_DOCS_UPSTASH_VECTOR_REST_URL, `${first.info.url}/vector/my-docs`);
    const docs = new Index({ url: env.MY_DOCS_UPSTASH_VECTOR_REST_URL, token: env.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
    await docs.upsert({ id: 'a', vector: [0.5, 0, 0] });
    assert.deepEqual(await docs.query({ vector: [1, 0, 0], topK: 1 }), [{ id: 'a', score: 0.75 }]);

    const again = await runLarderCli(['vector-index', 'create', 'my-docs:DENSE', '--data-dir', dataDir, '--url', first.info.url]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /vector index not created: Index 'my-docs' already exists/);
    const adminToken = (JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>)['vector.adminToken'];
    const list = await fetch(`${first.info.url}/vector/_admin/list-indexes`, { headers: { authorization: `Bearer ${adminToken}` } });
    assert.deepEqual(await list.json(), { result: ['default', 'my-docs'] });
    const refused = await fetch(`${first.info.url}/vector/_admin/create-index`, { method: 'POST', body: '{"name":"x"}', headers: { authorization: `Bearer ${env.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN}` } });
    assert.equal(refused.status, 401);
    const bad = await fetch(`${first.info.url}/vector/_admin/create-index`, { method: 'POST', body: '{"name":"x","dimension":-1}', headers: { authorization: `Bearer ${adminToken}` } });
    assert.deepEqual(await bad.json(), { error: 'invalid index settings: dimension: Too small: expected number to be >0', status: 400 });
    assert.equal((await first.stop()).code, 0);

    const second = await spawnLarder({ dataDir });
    const docs2 = new Index({ url: `${second.info.url}/vector/my-docs`, token: env.MY_DOCS_UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
    assert.deepEqual(await docs2.fetch(['a'], { includeVectors: true }), [{ id: 'a', vector: [0.5, 0, 0] }]);
    assert.equal((await docs2.info()).similarityFunction, 'DOT_PRODUCT');
    assert.equal((await second.stop()).code, 0);
    assert.ok(second.stdout().includes(`MY_DOCS_UPSTASH_VECTOR_REST_URL=${second.info.url}/vector/my-docs`), second.stdout().join('\n'));
  });

  it('names the data directory it looked in when that holds no admin token, and creates nothing there', async () => {
    const dataDir = join(root, 'no-server');
    const missing = await runLarderCli(['vector-index', 'create', 'docs:DENSE:3', '--data-dir', dataDir, '--url', 'http://127.0.0.1:9']);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, new RegExp(`no vector admin token in ${join(dataDir, 'secrets.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(missing.stderr, /--data-dir DIR or --config FILE/);
    assert.equal(existsSync(dataDir), false);
  });
});
