// Endpoints declared as data and admitted by one function (server/endpoint.ts): the stream,
// vector and queue REST surfaces parse no credential themselves (checked over the sources),
// and each answers in the one order, credential, method, read-only token, body (checked over
// HTTP: a read-only token on a writing endpoint is refused 403 before an oversized body is read).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { suiteLarder } from '../support/larder.js';

const SRC = join(fileURLToPath(import.meta.url), '../../../../src');
/** The workflow webhook, called by third parties: the user id in its URL stands for the token. */
const OWN_CREDENTIALS = new Set(['queue/rest/workflow-events.ts']);

describe('endpoints as data', () => {
  it('the stream, vector and queue routes parse no credential: serveEndpoint does', () => {
    const offenders = ['streams', 'vector', 'queue'].flatMap((service) =>
      readdirSync(join(SRC, service, 'rest'))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${service}/rest/${name}`)
        .filter((path) => !OWN_CREDENTIALS.has(path) && readFileSync(join(SRC, path), 'utf8').includes('server/credentials.js')),
    );
    assert.deepEqual(offenders, []);
  });

  describe('a read-only token on a writing endpoint is refused before the body is read', () => {
    const MAX = 1024;
    const t = suiteLarder({ maxBodyBytes: MAX });
    const big = 'x'.repeat(MAX * 4);
    const post = (url: string, token: string) => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: big });

    it('vector upsert and queue batch answer 403, not 413', async () => {
      const index = t.vectorIndex();
      const queue = t.queue();
      for (const [url, token] of [[`${index.url}/upsert`, index.readOnlyToken], [`${queue.url}/v2/batch`, queue.readOnlyToken]]) {
        const res = await post(url, token);
        assert.equal(res.status, 403, `${url}: ${await res.text()}`);
      }
    });

    it('and the full token reaches the body (so the 403 above was the token, not the route)', async () => {
      const index = t.vectorIndex();
      const queue = t.queue();
      for (const [url, token] of [[`${index.url}/upsert`, index.token], [`${queue.url}/v2/batch`, queue.token]]) {
        const res = await post(url, token);
        assert.equal(res.status, 413, `${url}: ${await res.text()}`);
      }
    });
  });
});
