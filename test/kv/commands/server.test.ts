import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { REMOTE_INFO_FIELDS } from '../../../src/kv/commands/introspection/info.js';
import { embeddedOnly, notOnCluster, suiteLarder } from '../../support/larder.js';
import { sdkClient } from '../../support/sdk.js';

// Replies and error texts are Redis 7.0's, checked against redis-server, unless a comment says
// what Larder answers instead.

describe('server and connection commands', () => {
  const t = suiteLarder();
  beforeEach(async () => {
    await ok(['flushall']);
  });

  const ok = (argv: (string | number)[]) => t.ok(argv);
  const fails = (argv: (string | number)[]) => t.fails(argv);

  it('PING and ECHO', async () => {
    assert.equal(await ok(['ping']), 'PONG');
    assert.equal(await ok(['PING', 'hello there']), 'hello there');
    assert.equal(await fails(['ping', 'a', 'b']), "ERR wrong number of arguments for 'ping' command");
    assert.equal(await ok(['echo', 'héllo']), 'héllo');
    assert.equal(await fails(['echo']), "ERR wrong number of arguments for 'echo' command");
    assert.equal(await fails(['echo', 'a', 'b']), "ERR wrong number of arguments for 'echo' command");
  });

  it("CLIENT SETINFO answers OK, checked as Redis 7.2 does (the SDK's clientSetinfo); other CLIENT subcommands are refused by name", async () => {
    const redis = sdkClient(t);
    assert.equal(await redis.clientSetinfo('LIB-NAME', 'redis-js(upstash_v1.39.0)'), 'OK');
    assert.equal(await redis.clientSetinfo('lib-ver', '1.39.0'), 'OK');
    assert.equal(await ok(['client', 'setinfo', 'lib-name', '']), 'OK');
    assert.equal(await fails(['client', 'setinfo', 'lib-name', 'a b']), 'ERR lib-name cannot contain spaces, newlines or special characters.');
    assert.equal(await fails(['client', 'setinfo', 'LIB-VER', '1\n2']), 'ERR LIB-VER cannot contain spaces, newlines or special characters.');
    assert.equal(await fails(['client', 'setinfo', 'name', 'x']), "ERR Unrecognized option 'name'");
    assert.equal(await fails(['client', 'setinfo', 'lib-name']), "ERR wrong number of arguments for 'client|setinfo' command");
    assert.equal(await fails(['client', 'list']), "ERR Command is not available: 'client|list'. See https://upstash.com/docs/redis/overall/rediscompatibility for details");
    assert.equal(await fails(['client', 'nope']), "ERR unknown subcommand 'nope'. Try CLIENT HELP.");
    // Not from a script (a remote Redis 7.0 runs scripts itself, and knows no SETINFO).
    assert.match(await fails(['eval', "return redis.call('client', 'setinfo', 'lib-name', 'x')", 0]), /^ERR (This Redis command is not allowed|Unknown Redis command called) from script script: /);
  });

  it('answers PING as a simple string in RESP2', async () => {
    const res = await t.request('/ping', { headers: { 'upstash-response-format': 'resp2' } });
    assert.equal(Buffer.from(await res.arrayBuffer()).toString('latin1'), '+PONG\r\n');
  });

  it('DBSIZE counts keys; FLUSHDB and FLUSHALL empty the database', async () => {
    assert.equal(await ok(['dbsize']), 0);
    await ok(['set', 'a', '1']);
    await ok(['set', 'b', '2']);
    assert.equal(await ok(['dbsize']), 2);
    assert.equal(await ok(['flushdb']), 'OK');
    assert.equal(await ok(['dbsize']), 0);
    for (const argv of [['flushdb', 'ASYNC'], ['flushdb', 'sync'], ['flushall', 'async'], ['FLUSHALL', 'SYNC']]) {
      await ok(['set', 'a', '1']);
      assert.equal(await ok(argv), 'OK');
      assert.equal(await ok(['dbsize']), 0);
    }
    assert.equal(await fails(['dbsize', 'x']), "ERR wrong number of arguments for 'dbsize' command");
    await ok(['set', 'a', '1']);
    assert.equal(await fails(['flushdb', 'later']), 'ERR syntax error');
    assert.equal(await fails(['flushall', 'async', 'sync']), 'ERR syntax error');
    assert.equal(await ok(['dbsize']), 1);
  });

  it('TIME answers seconds and microseconds as strings', async () => {
    const [seconds, micros] = await ok(['time']);
    assert.match(seconds, /^\d+$/);
    assert.match(micros, /^\d+$/);
    assert.ok(Math.abs(Number(seconds) - Date.now() / 1000) < 60);
    assert.ok(Number(micros) < 1_000_000);
    assert.equal(await fails(['time', 'x']), "ERR wrong number of arguments for 'time' command");
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: INFO')('INFO answers Redis-style sections', async () => {
    const all: string = await ok(['info']);
    for (const header of ['Server', 'Clients', 'Memory', 'Persistence', 'Stats', 'Replication', 'CPU', 'Keyspace']) {
      assert.ok(all.includes(`# ${header}\r\n`), header);
    }
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    assert.match(all, /\r\nredis_version:7\.\d+\.\d+\r\n/);
    assert.ok(all.includes(`\r\nlarder_version:${version}\r\n`));
    assert.match(all, /\r\nlarder_runtime:(node|bun)\r\n/);
    assert.match(all, /\r\nuptime_in_seconds:\d+\r\n/);
    assert.match(all, /\r\nused_memory:\d+\r\n/);
    assert.match(all, /\r\ntotal_commands_processed:\d+\r\n/);
    assert.ok(all.endsWith('# Keyspace\r\n'), 'an empty keyspace lists no database');
    // A remote server's INFO is cut to these same fields (standalone.test.ts has it on a server).
    const fields: Record<string, Set<string>> = {};
    let section = '';
    for (const line of all.split('\r\n')) {
      if (line.startsWith('# ')) fields[(section = line.slice(2))] = new Set();
      else if (line !== '' && !line.startsWith('larder_')) fields[section].add(line.slice(0, line.indexOf(':')));
    }
    assert.deepEqual(fields, REMOTE_INFO_FIELDS);
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: INFO keyspace avg_ttl')('INFO keyspace counts keys and expiries; sections are chosen in any case', async () => {
    await ok(['set', 'a', '1']);
    await ok(['set', 'b', '2']);
    await ok(['expire', 'b', 100]);
    assert.equal(await ok(['info', 'KEYSPACE']), '# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\n');
    const two: string = await ok(['info', 'keyspace', 'server']);
    assert.ok(two.startsWith('# Server\r\n'));
    assert.ok(two.endsWith('\r\n\r\n# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\n'));
    assert.equal(await ok(['info', 'nosuchsection']), '');
  });

  notOnCluster('INFO answers the counters of one node, and PING runs on every master')('INFO stats counts processed commands', async () => {
    const count = async () => Number(/total_commands_processed:(\d+)/.exec(await ok(['info', 'stats']))![1]);
    const first = await count();
    await ok(['ping']);
    assert.equal(await count(), first + 2);
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: COMMAND')('COMMAND COUNT, LIST and INFO read the table', async () => {
    const count: number = await ok(['command', 'count']);
    const names: string[] = await ok(['command', 'list']);
    assert.equal(names.length, count);
    for (const name of ['get', 'del', 'scan', 'ping', 'command']) assert.ok(names.includes(name), name);
    const keyspace: string[] = await ok(['command', 'list', 'filterby', 'aclcat', 'KEYSPACE']);
    assert.ok(keyspace.includes('copy') && keyspace.includes('dbsize') && !keyspace.includes('get'));
    assert.deepEqual((await ok(['command', 'list', 'filterby', 'pattern', 'PEXPIRE*'])).sort(), [
      'pexpire',
      'pexpireat',
      'pexpiretime',
    ]);
    assert.deepEqual(await ok(['command', 'list', 'filterby', 'module', 'json']), []);
    assert.deepEqual(await ok(['command', 'list', 'filterby', 'aclcat', 'nosuchcategory']), []);
    assert.deepEqual(await ok(['command', 'info', 'GET', 'nosuchcommand']), [
      ['get', 2, ['readonly', 'fast'], 1, 1, 1, ['@read', '@string', '@fast'], [], [], []],
      null,
    ]);
    assert.deepEqual((await ok(['command', 'info', 'del']))[0].slice(0, 7), [
      'del',
      -2,
      ['write'],
      1,
      -1,
      1,
      ['@keyspace', '@write', '@slow'],
    ]);
    assert.equal((await ok(['command'])).length, count);
  });

  it('COMMAND refuses unknown subcommands and bad filters', async () => {
    assert.equal(await fails(['command', 'foo']), "ERR unknown subcommand 'foo'. Try COMMAND HELP.");
    assert.equal(await fails(['command', 'count', 'x']), "ERR wrong number of arguments for 'command|count' command");
    assert.equal(await fails(['command', 'list', 'foo']), 'ERR syntax error');
    assert.equal(await fails(['command', 'list', 'filterby', 'foo', 'x']), 'ERR syntax error');
  });

  embeddedOnly('Redis answers its own COMMAND/INFO/CONFIG: CONFIG GET')('CONFIG GET answers matching settings as name/value pairs', async () => {
    assert.deepEqual(await ok(['config', 'get', 'maxmemory*']), ['maxmemory', '0', 'maxmemory-policy', 'noeviction']);
    assert.deepEqual(await ok(['config', 'get', 'DATABASES', 'databases']), ['databases', '1']);
    assert.deepEqual(await ok(['config', 'get', 'nosuchsetting']), []);
    assert.equal(await fails(['config', 'get']), "ERR wrong number of arguments for 'config|get' command");
    assert.equal(await fails(['config', 'foo']), "ERR unknown subcommand 'foo'. Try CONFIG HELP.");
    assert.equal(await fails(['config']), "ERR wrong number of arguments for 'config' command");
  });

  it('refuses process administration and connection state by name', async () => {
    for (const name of ['save', 'bgsave', 'shutdown', 'debug', 'replicaof', 'swapdb', 'select', 'auth', 'hello']) {
      assert.equal(
        await fails([name, 'x']),
        `ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`,
      );
    }
  });

  it('lets read-only tokens run the connection and server reads, not the flushes', async () => {
    const ro = { token: t.readOnlyToken };
    assert.deepEqual(await t.command(['ping'], ro), { status: 200, body: { result: 'PONG' } });
    assert.deepEqual(await t.command(['dbsize'], ro), { status: 200, body: { result: 0 } });
    assert.equal((await t.command(['time'], ro)).status, 200);
    const { status, body } = await t.command(['flushall'], ro);
    assert.equal(status, 400);
    assert.equal(body.error, "NOPERM this user has no permissions to run the 'flushall' command or its subcommand");
  });
});
