// rediss:// with the tls settings, and a user and password in the URL, against a redis-server
// serving TLS with a self-signed certificate made for the test.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findRedisServer, startRedisServer, type RedisServer } from '../differential/redis-server.js';
import { freePort } from '../../support/free-port.js';
import { startTestLarder, type TestLarder } from '../../support/larder.js';

const REDIS = findRedisServer();

function opensslWorks(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('remote backend over TLS', { skip: (REDIS === undefined || !opensslWorks()) && 'needs redis-server and openssl' }, () => {
  let dir: string;
  let redis: RedisServer;
  let tlsPort: number;
  let t: TestLarder;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'larder-tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    tlsPort = await freePort();
    redis = await startRedisServer(REDIS!, {
      args: ['--tls-port', String(tlsPort), '--tls-cert-file', cert, '--tls-key-file', key, '--tls-ca-cert-file', cert,
        '--tls-auth-clients', 'no', '--user', 'app', 'on', '>s3cret', '~*', '+@all'],
    });
    t = await startTestLarder({
      kv: {
        databases: {
          default: {},
          trusted: { url: `rediss://app:s3cret@127.0.0.1:${tlsPort}`, tls: { caFile: cert } },
          untrusted: { url: `rediss://app:s3cret@127.0.0.1:${tlsPort}` },
          wrongpass: { url: `rediss://app:nope@127.0.0.1:${tlsPort}`, tls: { caFile: cert } },
        },
      },
    });
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects with the CA given and the URL’s user', async () => {
    const db = t.database('trusted');
    assert.equal(await db.ok(['set', 'k', 'over tls']), 'OK');
    assert.equal(await db.ok(['acl', 'whoami']), 'default'); // Larder's caller, not the Redis user
    assert.equal(await redis.client.call(['GET', 'k']), '$8\r\nover tls\r\n');
  });

  it('answers 503 when the certificate is not trusted or the password is wrong', async () => {
    for (const name of ['untrusted', 'wrongpass']) {
      const res = await t.database(name).command(['get', 'k']);
      assert.equal(res.status, 503, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error, /^ERR the Redis backend at 127\.0\.0\.1:\d+ is unavailable/);
    }
  });
});
