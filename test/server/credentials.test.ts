// Credentials: parsed in one module and compared in constant time everywhere (checked over the
// sources), and every service checks them before it reads a body (checked over HTTP: a wrong
// token with a body over maxBodyBytes is refused 401, never 413, on every service).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { basicCredentials, bearerToken, matchToken, sameSecret } from '../../src/server/credentials.js';
import { suiteLarder } from '../support/larder.js';

const SRC = join(fileURLToPath(import.meta.url), '../../../../src');
const CREDENTIALS = join('server', 'credentials.ts');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [{ path: relative(SRC, join(dir, d.name)), text: readFileSync(join(dir, d.name), 'utf8') }] : [],
  );
}

/** `===` / `!==` with a token or password on either side, other than a test for a missing one. */
const SECRET_COMPARE = /(?:\b\w*(?:token|Token|password|Password)\s*[!=]==(?!\s*(?:undefined|null|'|"|\d))|[!=]==\s*[\w.?]*(?:token|Token|password|Password)\b)/;

describe('credentials', () => {
  it('parses bearer and basic credentials in any case, trimming blanks', () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('bEaReR  abc '), 'abc');
    assert.equal(bearerToken('Basic abc'), undefined);
    assert.equal(bearerToken('Bearer'), undefined);
    assert.equal(bearerToken(undefined), undefined);
    const basic = `Basic ${Buffer.from('user:pa:ss').toString('base64')}`;
    assert.deepEqual(basicCredentials(basic), { username: 'user', password: 'pa:ss' });
    assert.deepEqual(basicCredentials(basic.toUpperCase().slice(0, 6) + basic.slice(6)), { username: 'user', password: 'pa:ss' });
    assert.equal(basicCredentials(`Basic ${Buffer.from('nocolon').toString('base64')}`), undefined);
    assert.equal(basicCredentials('Bearer abc'), undefined);
  });

  it('compares secrets whole, and says which one matched', () => {
    assert.equal(sameSecret('abc', 'abc'), true);
    assert.equal(sameSecret('abd', 'abc'), false);
    assert.equal(sameSecret('ab', 'abc'), false);
    assert.equal(sameSecret(undefined, ''), false);
    assert.equal(matchToken('r', [['full', 'f'], ['readOnly', 'r']] as const), 'readOnly');
    assert.equal(matchToken('x', [['full', 'f'], ['readOnly', 'r']] as const), null);
  });

  it('is the only module that compares a secret (in constant time)', () => {
    const files = sources(SRC);
    assert.ok(files.some((f) => f.path === CREDENTIALS));
    const offenders = files.flatMap((f) =>
      f.text.split('\n').flatMap((line, i) => {
        const where = `${f.path}:${i + 1}: ${line.trim()}`;
        if (f.path !== CREDENTIALS && /timingSafeEqual/.test(line)) return [where];
        return SECRET_COMPARE.test(line) ? [where] : [];
      }),
    );
    assert.deepEqual(offenders, []);
  });
});

describe('credentials: checked before the body is read', () => {
  const MAX = 1024;
  const ADMIN = 'vector-admin-token-for-the-test';
  const t = suiteLarder({ maxBodyBytes: MAX, vector: { adminToken: ADMIN } });
  const big = 'x'.repeat(MAX * 4);
  const post = (url: string, authorization: string) => fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: big });

  it('answers a wrong token 401 before reading an oversized body, on every service', async () => {
    const wrongBasic = `Basic ${Buffer.from('nobody:wrong').toString('base64')}`;
    const urls = [
      `${t.url}/vector/_admin/create-index`,
      `${t.vectorIndex().url}/upsert`,
      `${t.queue().url}/v2/publish/https://example.com`,
      `${t.kvUrl}/pipeline`,
    ];
    for (const url of urls) {
      const res = await post(url, 'Bearer wrong');
      assert.equal(res.status, 401, `${url}: ${await res.text()}`);
    }
    const streams = await post(`${t.cluster().url}/produce`, wrongBasic);
    assert.equal(streams.status, 401, await streams.text());
  });

  it('reads the body once the token is right (so the refusal above was the token, not the route)', async () => {
    const res = await post(`${t.url}/vector/_admin/create-index`, `Bearer ${ADMIN}`);
    assert.equal(res.status, 413, await res.text());
  });
});
