// The backend URL forms and how the config checks a remote database's settings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, validate } from '../../src/config/load.js';
import { parseRemoteUrl } from '../../src/config/remote-url.js';

describe('remote backend URL', () => {
  it('reads standalone, TLS and Cluster forms, with percent-decoded credentials', () => {
    assert.deepEqual(parseRemoteUrl('redis://127.0.0.1:6380'), {
      cluster: false, tls: false, nodes: [{ host: '127.0.0.1', port: 6380 }], username: undefined, password: undefined, db: 0,
    });
    assert.deepEqual(parseRemoteUrl('rediss://app:p%40ss@cache.example:6390/2'), {
      cluster: false, tls: true, nodes: [{ host: 'cache.example', port: 6390 }], username: 'app', password: 'p@ss', db: 2,
    });
    assert.deepEqual(parseRemoteUrl('redis://:secret@[::1]').nodes, [{ host: '::1', port: 6379 }]);
    assert.equal(parseRemoteUrl('redis://:secret@h').password, 'secret');
    const c = parseRemoteUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001');
    assert.equal(c.cluster, true);
    assert.deepEqual(c.nodes, [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 7001 }]);
  });

  it('refuses what it cannot connect to, saying why', () => {
    assert.throws(() => parseRemoteUrl('http://h:1'), /is not a redis:\/\/, rediss:\/\//);
    assert.throws(() => parseRemoteUrl('redis://a:1,b:2'), /use redis\+cluster:\/\//);
    assert.throws(() => parseRemoteUrl('redis://h:70000'), /out of range/);
    assert.throws(() => parseRemoteUrl('redis+cluster://h:1/3'), /only database 0/);
  });

  it('sets engine redis from a url, and checks engine and url together', () => {
    const db = (c: Record<string, unknown>) => validate({ kv: { databases: { d: c } } }).kv.databases.d;
    assert.equal(db({}).engine, 'embedded');
    assert.equal(db({ url: 'redis://h:1' }).engine, 'redis');
    assert.throws(() => db({ engine: 'redis' }), (e: Error) => e instanceof ConfigError && /kv\.databases\.d\.url: engine redis needs a url/.test(e.message));
    assert.throws(() => db({ engine: 'embedded', url: 'redis://h:1' }), /url is for engine redis/);
    assert.throws(() => db({ url: 'mysql://h' }), /kv\.databases\.d\.url: 'mysql:\/\/h' is not a redis/);
    const flagged = loadConfig({ 'kv-backend': 'redis://127.0.0.1:6379' }, {});
    assert.equal(flagged.kv.databases.default.engine, 'redis');
    assert.equal(flagged.kv.databases.default.url, 'redis://127.0.0.1:6379');
  });
});
