import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { embeddedOnly, notOnCluster, startTestLarder, type TestLarder } from '../../support/larder.js';

// Expected replies and error texts are Redis 7.0's, checked against redis-server, except
// where a comment names an Upstash or Larder difference.

describe('generic commands', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder();
  });
  after(() => t.close());
  beforeEach(async () => {
    await ok(['flushall']);
  });

  const ok = (argv: (string | number)[]) => t.ok(argv);
  const fails = (argv: (string | number)[]) => t.fails(argv);

  /** Runs commands in one pipeline, so relative times are read within the same moment. */
  async function pipeline(commands: (string | number)[][]): Promise<any[]> {
    const res = await t.request('/pipeline', { method: 'POST', body: JSON.stringify(commands) });
    assert.equal(res.status, 200);
    return ((await res.json()) as { result?: unknown; error?: string }[]).map((r) => r.error ?? r.result);
  }

  async function setKeys(...keys: string[]): Promise<void> {
    for (const k of keys) await ok(['set', k, `value of ${k}`]);
  }

  describe('DEL, UNLINK, EXISTS, TOUCH, TYPE', () => {
    it('DEL and UNLINK count each deleted key once', async () => {
      await setKeys('{t}a', '{t}b', '{t}c');
      assert.equal(await ok(['del', '{t}a', '{t}a', '{t}missing']), 1);
      assert.equal(await ok(['unlink', '{t}b', '{t}c', '{t}b']), 2);
      assert.equal(await ok(['del', '{t}a']), 0);
      assert.equal(await ok(['dbsize']), 0);
      assert.equal(await fails(['del']), "ERR wrong number of arguments for 'del' command");
      assert.equal(await fails(['unlink']), "ERR wrong number of arguments for 'unlink' command");
    });

    it('EXISTS counts a key named twice twice', async () => {
      await setKeys('{t}a', '{t}b');
      assert.equal(await ok(['exists', '{t}a', '{t}a', '{t}b', '{t}missing']), 3);
      assert.equal(await ok(['exists', '{t}missing']), 0);
      assert.equal(await fails(['exists']), "ERR wrong number of arguments for 'exists' command");
    });

    it('TOUCH counts the keys that exist', async () => {
      await setKeys('{t}a', '{t}b');
      assert.equal(await ok(['touch', '{t}a', '{t}b', '{t}missing', '{t}a']), 3);
      assert.equal(await fails(['touch']), "ERR wrong number of arguments for 'touch' command");
    });

    it('TYPE names the type, or none', async () => {
      await setKeys('s');
      assert.equal(await ok(['type', 's']), 'string');
      assert.equal(await ok(['type', 'missing']), 'none');
      assert.equal(await fails(['type', 'a', 'b']), "ERR wrong number of arguments for 'type' command");
    });
  });

  describe('EXPIRE family', () => {
    it('sets expiries in seconds and milliseconds, relative and absolute', async () => {
      await setKeys('a', 'b', 'c', 'd');
      const [, ttl] = await pipeline([
        ['expire', 'a', 100],
        ['ttl', 'a'],
      ]);
      assert.equal(ttl, 100);
      assert.equal(await ok(['pexpire', 'b', 100000]), 1);
      const pttl = await ok(['pttl', 'b']);
      assert.ok(pttl > 90000 && pttl <= 100000, String(pttl));
      const at = Math.floor(Date.now() / 1000) + 1000;
      assert.equal(await ok(['expireat', 'c', at]), 1);
      assert.equal(await ok(['expiretime', 'c']), at);
      assert.equal(await ok(['pexpiretime', 'c']), at * 1000);
      assert.equal(await ok(['pexpireat', 'd', at * 1000 + 123]), 1);
      assert.equal(await ok(['pexpiretime', 'd']), at * 1000 + 123);
      assert.equal(await ok(['expiretime', 'd']), at);
    });

    it('answers 0 for a missing key', async () => {
      for (const name of ['expire', 'pexpire', 'expireat', 'pexpireat']) assert.equal(await ok([name, 'missing', 100]), 0);
    });

    it('deletes the key when the time has already passed', async () => {
      await setKeys('{t}a', '{t}b', '{t}c', '{t}d');
      assert.equal(await ok(['expire', '{t}a', -1]), 1);
      assert.equal(await ok(['pexpire', '{t}b', 0]), 1);
      assert.equal(await ok(['expireat', '{t}c', 1]), 1);
      assert.equal(await ok(['pexpireat', '{t}d', 1000]), 1);
      assert.equal(await ok(['exists', '{t}a', '{t}b', '{t}c', '{t}d']), 0);
    });

    it('applies NX, XX, GT and LT as Redis does, no expiry counting as infinite', async () => {
      await setKeys('k');
      assert.equal(await ok(['expire', 'k', 100, 'xx']), 0);
      assert.equal(await ok(['expire', 'k', 100, 'gt']), 0);
      assert.equal(await ok(['ttl', 'k']), -1);
      assert.equal(await ok(['expire', 'k', 100, 'nx']), 1);
      assert.equal(await ok(['expire', 'k', 200, 'nx']), 0);
      assert.equal(await ok(['expire', 'k', 50, 'gt']), 0);
      assert.equal(await ok(['expire', 'k', 200, 'GT']), 1);
      assert.equal(await ok(['expire', 'k', 300, 'lt']), 0);
      assert.equal(await ok(['expire', 'k', 150, 'LT']), 1);
      assert.equal(await ok(['expire', 'k', 120, 'xx', 'lt']), 1);
      const [, ttl] = await pipeline([
        ['persist', 'k'],
        ['ttl', 'k'],
      ]);
      assert.equal(ttl, -1);
      assert.equal(await ok(['expire', 'k', 100, 'lt']), 1);
      assert.equal(await ok(['pexpire', 'k', 5000, 'gt']), 0);
    });

    it('refuses conflicting or unknown options before reading the time', async () => {
      await setKeys('k');
      const nx = 'ERR NX and XX, GT or LT options at the same time are not compatible';
      assert.equal(await fails(['expire', 'k', 10, 'nx', 'xx']), nx);
      assert.equal(await fails(['expire', 'k', 10, 'nx', 'gt']), nx);
      assert.equal(await fails(['pexpire', 'k', 10, 'lt', 'nx']), nx);
      assert.equal(await fails(['expire', 'k', 10, 'gt', 'lt']), 'ERR GT and LT options at the same time are not compatible');
      assert.equal(await fails(['expire', 'k', 'abc', 'foo']), 'ERR Unsupported option foo');
      assert.equal(await fails(['expire', 'k', 'abc']), 'ERR value is not an integer or out of range');
      assert.equal(await fails(['expire', 'k', '1.5']), 'ERR value is not an integer or out of range');
      assert.equal(await fails(['expire', 'k']), "ERR wrong number of arguments for 'expire' command");
    });

    it('refuses times that overflow, naming the command', async () => {
      await setKeys('k');
      assert.equal(await fails(['expire', 'k', '9223372036854775807']), "ERR invalid expire time in 'expire' command");
      assert.equal(await fails(['expire', 'k', '-9223372036854776']), "ERR invalid expire time in 'expire' command");
      assert.equal(await fails(['pexpire', 'k', '9223372036854775807']), "ERR invalid expire time in 'pexpire' command");
      assert.equal(await fails(['expireat', 'k', '9223372036854775807']), "ERR invalid expire time in 'expireat' command");
      assert.equal(await fails(['expire', 'missing', '9223372036854775']), "ERR invalid expire time in 'expire' command");
      assert.equal(await ok(['ttl', 'k']), -1);
      assert.equal(await ok(['expire', 'k', '-9223372036854775']), 1);
      assert.equal(await ok(['exists', 'k']), 0);
    });
  });

  describe('TTL family and PERSIST', () => {
    it('answers -2 for a missing key and -1 for a key without expiry', async () => {
      await setKeys('k');
      for (const name of ['ttl', 'pttl', 'expiretime', 'pexpiretime']) {
        assert.equal(await ok([name, 'missing']), -2);
        assert.equal(await ok([name, 'k']), -1);
      }
      assert.equal(await fails(['ttl']), "ERR wrong number of arguments for 'ttl' command");
      assert.equal(await fails(['pexpiretime', 'a', 'b']), "ERR wrong number of arguments for 'pexpiretime' command");
    });

    it('rounds TTL to the nearest second', async () => {
      await setKeys('up', 'down');
      const [, up, , down] = await pipeline([
        ['pexpire', 'up', 10700],
        ['ttl', 'up'],
        ['pexpire', 'down', 10300],
        ['ttl', 'down'],
      ]);
      assert.equal(up, 11);
      assert.equal(down, 10);
    });

    it('PERSIST removes an expiry once', async () => {
      await setKeys('k', 'plain');
      await ok(['expire', 'k', 100]);
      assert.equal(await ok(['persist', 'k']), 1);
      assert.equal(await ok(['persist', 'k']), 0);
      assert.equal(await ok(['ttl', 'k']), -1);
      assert.equal(await ok(['persist', 'plain']), 0);
      assert.equal(await ok(['persist', 'missing']), 0);
    });
  });

  describe('RENAME, RENAMENX, COPY', () => {
    it('RENAME moves the value and its expiry, replacing the destination', async () => {
      await setKeys('{t}src', '{t}dst');
      await ok(['pexpireat', '{t}src', 4102444800000]);
      assert.equal(await ok(['rename', '{t}src', '{t}dst']), 'OK');
      assert.equal(await ok(['get', '{t}dst']), 'value of {t}src');
      assert.equal(await ok(['pexpiretime', '{t}dst']), 4102444800000);
      assert.equal(await ok(['exists', '{t}src']), 0);
      await setKeys('{t}plain');
      assert.equal(await ok(['rename', '{t}plain', '{t}dst']), 'OK');
      assert.equal(await ok(['ttl', '{t}dst']), -1);
    });

    it('RENAME to itself is OK for an existing key, ERR no such key otherwise', async () => {
      await setKeys('{t}k');
      assert.equal(await ok(['rename', '{t}k', '{t}k']), 'OK');
      assert.equal(await ok(['get', '{t}k']), 'value of {t}k');
      assert.equal(await fails(['rename', '{t}missing', '{t}missing']), 'ERR no such key');
      assert.equal(await fails(['rename', '{t}missing', '{t}k']), 'ERR no such key');
      assert.equal(await fails(['rename', '{t}k']), "ERR wrong number of arguments for 'rename' command");
    });

    it('RENAMENX renames only onto a free name', async () => {
      await setKeys('{t}a', '{t}b');
      await ok(['expire', '{t}a', 100]);
      assert.equal(await ok(['renamenx', '{t}a', '{t}b']), 0);
      assert.equal(await ok(['renamenx', '{t}a', '{t}a']), 0);
      assert.equal(await ok(['renamenx', '{t}a', '{t}c']), 1);
      assert.ok((await ok(['ttl', '{t}c'])) > 90);
      assert.equal(await ok(['get', '{t}b']), 'value of {t}b');
      assert.equal(await fails(['renamenx', '{t}missing', '{t}d']), 'ERR no such key');
    });

    it('COPY copies value and expiry, and replaces only with REPLACE', async () => {
      await setKeys('{t}src', '{t}taken');
      await ok(['pexpireat', '{t}src', 4102444800000]);
      assert.equal(await ok(['copy', '{t}src', '{t}dst']), 1);
      assert.equal(await ok(['get', '{t}dst']), 'value of {t}src');
      assert.equal(await ok(['pexpiretime', '{t}dst']), 4102444800000);
      assert.equal(await ok(['copy', '{t}src', '{t}taken']), 0);
      assert.equal(await ok(['get', '{t}taken']), 'value of {t}taken');
      assert.equal(await ok(['copy', '{t}src', '{t}taken', 'REPLACE']), 1);
      assert.equal(await ok(['get', '{t}taken']), 'value of {t}src');
      assert.equal(await ok(['copy', '{t}missing', '{t}x']), 0);
      assert.equal(await ok(['copy', '{t}src', '{t}viadb', 'db', 0]), 1);
      assert.equal(await ok(['get', '{t}src']), 'value of {t}src');
    });

    embeddedOnly('Upstash behaviour, Redis differs: COPY onto itself')('COPY onto itself answers 0, as Upstash does (Redis errors)', async () => {
      await setKeys('k');
      assert.equal(await ok(['copy', 'k', 'k']), 0);
      assert.equal(await ok(['copy', 'k', 'k', 'replace']), 0);
    });

    embeddedOnly('Upstash behaviour, Redis differs: COPY DB')('COPY refuses other databases and bad options', async () => {
      await setKeys('k');
      assert.equal(await fails(['copy', 'k', 'x', 'db', 1]), 'ERR DB index is out of range');
      assert.equal(await fails(['copy', 'k', 'x', 'db', 'one']), 'ERR value is not an integer or out of range');
      assert.equal(await fails(['copy', 'k', 'x', 'db']), 'ERR syntax error');
      assert.equal(await fails(['copy', 'k', 'x', 'foo']), 'ERR syntax error');
      assert.equal(await fails(['copy', 'k']), "ERR wrong number of arguments for 'copy' command");
    });
  });

  describe('KEYS, SCAN, RANDOMKEY', () => {
    it('KEYS matches glob patterns; a lone star takes even the empty key', async () => {
      await setKeys('hello', 'hallo', 'hxllo', 'world', '');
      assert.deepEqual((await ok(['keys', 'h[ae]llo'])).sort(), ['hallo', 'hello']);
      assert.deepEqual((await ok(['keys', 'h?llo'])).sort(), ['hallo', 'hello', 'hxllo']);
      assert.deepEqual((await ok(['keys', '*'])).sort(), ['', 'hallo', 'hello', 'hxllo', 'world']);
      assert.deepEqual((await ok(['keys', '**'])).sort(), ['hallo', 'hello', 'hxllo', 'world']);
      assert.deepEqual(await ok(['keys', 'nothing*']), []);
      assert.equal(await fails(['keys']), "ERR wrong number of arguments for 'keys' command");
    });

    embeddedOnly('Redis takes COUNT as a hint')('SCAN walks every key exactly once, with string cursors', async () => {
      const keys = Array.from({ length: 25 }, (_, i) => `key:${i}`);
      await setKeys(...keys);
      const seen: string[] = [];
      let cursor = '0';
      let rounds = 0;
      do {
        const [next, batch] = await ok(['scan', cursor, 'count', 4]);
        assert.equal(typeof next, 'string');
        assert.ok(batch.length <= 4);
        seen.push(...batch);
        cursor = next;
        rounds++;
      } while (cursor !== '0' && rounds < 100);
      assert.equal(cursor, '0');
      assert.deepEqual(seen.sort(), keys.sort());
    });

    it('SCAN walks every key, on every master of a Cluster, alone and in a pipeline', async () => {
      const keys = Array.from({ length: 60 }, (_, i) => `walk:${i}`);
      await setKeys(...keys, 'other');
      const inPipeline = async (argv: (string | number)[]) => {
        const res = await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['ping'], argv]) });
        assert.equal(res.status, 200);
        return ((await res.json()) as { result: [string, string[]] }[])[1].result;
      };
      for (const scan of [ok, inPipeline]) {
        // Redis may answer a key twice when its table grows during the walk: a set, not a list.
        const seen = new Set<string>();
        let cursor = '0';
        let rounds = 0;
        do {
          const [next, batch] = await scan(['scan', cursor, 'match', 'walk:*', 'count', 10]);
          for (const key of batch) seen.add(key);
          cursor = next;
          rounds++;
        } while (cursor !== '0' && rounds < 200);
        assert.equal(cursor, '0');
        assert.deepEqual([...seen].sort(), keys.sort());
      }
    });

    embeddedOnly('SCAN order and WITHTYPE (Upstash)')('SCAN filters by MATCH and TYPE, and WITHTYPE pairs keys with types', async () => {
      await setKeys('user:1', 'user:2', 'order:1');
      assert.deepEqual(await ok(['scan', 0, 'match', 'user:*', 'count', 100]), ['0', ['user:1', 'user:2']]);
      assert.deepEqual(await ok(['scan', 0, 'type', 'STRING', 'count', 100]), ['0', ['user:1', 'user:2', 'order:1']]);
      assert.deepEqual(await ok(['scan', 0, 'type', 'hash', 'count', 100]), ['0', []]);
      assert.deepEqual(await ok(['scan', 0, 'type', 'nonsense']), ['0', []]);
      assert.deepEqual(await ok(['scan', 0, 'match', 'order:*', 'withtype']), ['0', ['order:1', 'string']]);
      assert.deepEqual(await ok(['scan', '', 'match', 'order:*']), ['0', ['order:1']]);
    });

    it('SCAN refuses bad cursors and options', async () => {
      assert.equal(await fails(['scan', 'abc']), 'ERR invalid cursor');
      assert.equal(await fails(['scan', ' 0']), 'ERR invalid cursor');
      assert.equal(await fails(['scan', '18446744073709551616']), 'ERR invalid cursor');
      assert.deepEqual(await ok(['scan', '18446744073709551615']), ['0', []]);
      assert.deepEqual(await ok(['scan', '-1']), ['0', []]);
      assert.equal(await fails(['scan', 0, 'count', 0]), 'ERR syntax error');
      assert.equal(await fails(['scan', 0, 'count', 'x']), 'ERR value is not an integer or out of range');
      assert.equal(await fails(['scan', 0, 'match']), 'ERR syntax error');
      assert.equal(await fails(['scan', 0, 'foo', 'bar']), 'ERR syntax error');
      assert.equal(await fails(['scan']), "ERR wrong number of arguments for 'scan' command");
    });

    it('RANDOMKEY answers a key, or null when there is none', async () => {
      assert.equal(await ok(['randomkey']), null);
      await setKeys('a', 'b');
      assert.ok(['a', 'b'].includes(await ok(['randomkey'])));
    });

    it('RANDOMKEY finds the one key left among many deleted', async () => {
      const keys = Array.from({ length: 2000 }, (_, i) => `{r}k:${i}`);
      await ok(['mset', ...keys.flatMap((k) => [k, 'v'])]);
      await ok(['del', ...keys.slice(0, 1000), ...keys.slice(1001)]);
      for (let i = 0; i < 5; i++) assert.equal(await ok(['randomkey']), '{r}k:1000');
      await ok(['del', '{r}k:1000']);
      assert.equal(await ok(['randomkey']), null);
    });

    embeddedOnly('Redis may answer a key twice')('SCAN answers each key present throughout exactly once while others come and go', async () => {
      const stay = Array.from({ length: 40 }, (_, i) => `stay:${i}`);
      const go = Array.from({ length: 40 }, (_, i) => `go:${i}`);
      await pipeline(stay.flatMap((k, i) => [['set', k, 'v'], ['set', go[i], 'v']]));
      const seen: string[] = [];
      let cursor = '0';
      let round = 0;
      do {
        const [next, batch] = await ok(['scan', cursor, 'match', 'stay:*', 'count', 6]);
        seen.push(...batch);
        cursor = next;
        // Deleted keys leave room that new keys take, behind the walk and ahead of it.
        await pipeline([['del', go[(2 * round) % 40], go[(2 * round + 1) % 40]], ['set', `new:${round}:a`, 'v'], ['set', `new:${round}:b`, 'v']]);
        round++;
      } while (cursor !== '0' && round < 100);
      assert.equal(cursor, '0');
      assert.deepEqual(seen.sort(), stay.sort());
    });

    it('refuses the keyspace walks to read-only tokens, not the key reads', async () => {
      await setKeys('k');
      const ro = { token: t.readOnlyToken };
      for (const argv of [['keys', '*'], ['scan', '0'], ['randomkey'], ['expire', 'k', '10']]) {
        const { status, body } = await t.command(argv, ro);
        assert.equal(status, 400);
        assert.equal(body.error, `NOPERM this user has no permissions to run the '${argv[0]}' command or its subcommand`);
      }
      assert.deepEqual(await t.command(['exists', 'k'], ro), { status: 200, body: { result: 1 } });
      assert.deepEqual(await t.command(['ttl', 'k'], ro), { status: 200, body: { result: -1 } });
    });
  });

  describe('DUMP and RESTORE', () => {
    async function dump(key: string): Promise<string | null> {
      const res = await t.request(`/dump/${key}`, { headers: { 'upstash-encoding': 'base64' } });
      const { result } = (await res.json()) as { result: string | null };
      if (result === null) return null;
      return [...Buffer.from(result, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    }

    async function restore(path: string): Promise<{ status: number; body: any }> {
      const res = await t.request(`/restore/${path}`);
      return { status: res.status, body: await res.json() };
    }

    it('round-trips a binary value', async () => {
      const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 37]);
      const res = await t.request('/set/bin', { method: 'POST', body: bytes });
      assert.deepEqual(await res.json(), { result: 'OK' });
      const payload = await dump('bin');
      assert.ok(payload !== null);
      assert.deepEqual(await restore(`copy/0/${payload}`), { status: 200, body: { result: 'OK' } });
      const got = await t.request('/get/copy', { headers: { 'upstash-encoding': 'base64' } });
      assert.deepEqual(Buffer.from(((await got.json()) as { result: string }).result, 'base64'), bytes);
      assert.equal(await ok(['ttl', 'copy']), -1);
      assert.equal(await dump('missing'), null);
    });

    it('refuses to overwrite without REPLACE, and sets relative or absolute TTLs', async () => {
      await setKeys('k');
      const payload = await dump('k');
      assert.deepEqual(await restore(`k/0/${payload}`), {
        status: 400,
        body: { error: 'BUSYKEY Target key name already exists.' },
      });
      assert.deepEqual((await restore(`k/5000/${payload}/REPLACE`)).body, { result: 'OK' });
      const pttl = await ok(['pttl', 'k']);
      assert.ok(pttl > 0 && pttl <= 5000, String(pttl));
      assert.deepEqual((await restore(`abs/4102444800000/${payload}/ABSTTL`)).body, { result: 'OK' });
      assert.equal(await ok(['pexpiretime', 'abs']), 4102444800000);
    });

    it('creates nothing when an absolute TTL has passed, deleting a replaced key', async () => {
      await setKeys('k');
      const payload = await dump('k');
      assert.deepEqual((await restore(`gone/1000/${payload}/absttl`)).body, { result: 'OK' });
      assert.equal(await ok(['exists', 'gone']), 0);
      assert.deepEqual((await restore(`k/1000/${payload}/replace/absttl`)).body, { result: 'OK' });
      assert.equal(await ok(['exists', 'k']), 0);
    });

    it('sets the idle time', async () => {
      await setKeys('k');
      const payload = await dump('k');
      assert.deepEqual((await restore(`idle/0/${payload}/IDLETIME/1000`)).body, { result: 'OK' });
      const idle = await ok(['object', 'idletime', 'idle']);
      assert.ok(idle >= 1000 && idle < 1100, String(idle));
      assert.deepEqual((await restore(`freq/0/${payload}/FREQ/5`)).body, { result: 'OK' });
    });

    it('refuses bad options, TTLs and payloads with Redis texts', async () => {
      await setKeys('k');
      const payload = await dump('k');
      const error = async (path: string) => (await restore(path)).body.error;
      assert.equal(await error(`x/-1/${payload}`), 'ERR Invalid TTL value, must be >= 0');
      assert.equal(await error(`x/ten/${payload}`), 'ERR value is not an integer or out of range');
      assert.equal(await error(`x/0/${payload}/IDLETIME/-1`), 'ERR Invalid IDLETIME value, must be >= 0');
      assert.equal(await error(`x/0/${payload}/FREQ/256`), 'ERR Invalid FREQ value, must be >= 0 and <= 255');
      assert.equal(await error(`x/0/${payload}/IDLETIME/1/FREQ/3`), 'ERR syntax error');
      assert.equal(await error(`x/0/${payload}/IDLETIME`), 'ERR syntax error');
      assert.equal(await error(`x/0/${payload}/FOO`), 'ERR syntax error');
      assert.equal(await error('x/0/garbage'), 'ERR DUMP payload version or checksum are wrong');
      assert.equal(await error(`x/0/${payload}%00`), 'ERR DUMP payload version or checksum are wrong');
      assert.equal(await error('k/0/garbage'), 'BUSYKEY Target key name already exists.');
      assert.equal(await fails(['restore', 'x', '0']), "ERR wrong number of arguments for 'restore' command");
    });
  });

  describe('OBJECT', () => {
    it('reports the encodings Redis would use for strings', async () => {
      await ok(['set', 'int', '12345']);
      await ok(['set', 'negative', '-5']);
      await ok(['set', 'padded', '007']);
      await ok(['set', 'big', '12345678901234567890']);
      await ok(['set', 'short', 'x'.repeat(44)]);
      await ok(['set', 'long', 'x'.repeat(45)]);
      assert.equal(await ok(['object', 'encoding', 'int']), 'int');
      assert.equal(await ok(['object', 'encoding', 'negative']), 'int');
      assert.equal(await ok(['object', 'encoding', 'padded']), 'embstr');
      assert.equal(await ok(['object', 'encoding', 'big']), 'embstr');
      assert.equal(await ok(['object', 'ENCODING', 'short']), 'embstr');
      assert.equal(await ok(['object', 'encoding', 'long']), 'raw');
      assert.equal(await ok(['object', 'encoding', 'missing']), null);
    });

    it('reports refcounts, idle times and the LFU refusal', async () => {
      await ok(['set', 'shared', '42']);
      await ok(['set', 'own', '10000']);
      assert.equal(await ok(['object', 'refcount', 'shared']), 2147483647);
      assert.equal(await ok(['object', 'refcount', 'own']), 1);
      const idle = await ok(['object', 'idletime', 'own']);
      assert.ok(idle >= 0 && idle < 5, String(idle));
      assert.equal(
        await fails(['object', 'freq', 'own']),
        'ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
      );
      assert.equal(await ok(['object', 'refcount', 'missing']), null);
    });

    it('answers HELP and refuses unknown subcommands and wrong arities', async () => {
      const help = await ok(['object', 'help']);
      assert.equal(help[0], 'OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:');
      assert.equal(help.length, 15);
      assert.equal(await fails(['object', 'foo', 'k']), "ERR unknown subcommand 'foo'. Try OBJECT HELP.");
      assert.equal(await fails(['object', 'encoding']), "ERR wrong number of arguments for 'object|encoding' command");
      assert.equal(await fails(['object', 'refcount', 'a', 'b']), "ERR wrong number of arguments for 'object|refcount' command");
      assert.equal(await fails(['object', 'help', 'x']), "ERR wrong number of arguments for 'object|help' command");
      assert.equal(await fails(['object']), "ERR wrong number of arguments for 'object' command");
    });
  });

  it('refuses MOVE and MIGRATE by name', async () => {
    for (const name of ['move', 'migrate']) {
      assert.equal(
        await fails([name, 'k', '1']),
        `ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`,
      );
    }
  });
});

describe('expiry across a restart', () => {
  embeddedOnly('restarts Larder on the same data dir')('restores every expiry exactly, and keeps expired keys gone', async () => {
    let t = await startTestLarder();
    const dir = t.dataDir;
    try {
      const run = async (argv: (string | number)[]) => (await t.command(argv)).body.result;
      for (const k of ['relative', 'absolute', 'short', 'past', 'persisted', 'renamed', 'copied', 'restored']) {
        await run(['set', k, `value of ${k}`]);
      }
      await run(['expire', 'relative', 1000]);
      await run(['pexpireat', 'absolute', 4102444800000]);
      await run(['pexpire', 'short', 300]);
      await run(['expire', 'past', -10]);
      await run(['expire', 'persisted', 1000]);
      await run(['persist', 'persisted']);
      await run(['pexpire', 'renamed', 500000]);
      await run(['rename', 'renamed', 'renamed2']);
      await run(['pexpire', 'copied', 600000]);
      await run(['copy', 'copied', 'copied2']);
      const payload = (await (await t.request('/dump/restored', { headers: { 'upstash-encoding': 'base64' } })).json()) as {
        result: string;
      };
      const encoded = [...Buffer.from(payload.result, 'base64')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      await t.request(`/restore/restored2/700000/${encoded}`);
      const watched = ['relative', 'absolute', 'renamed2', 'copied', 'copied2', 'restored2'];
      const before: number[] = [];
      for (const k of watched) before.push(await run(['pexpiretime', k]));
      assert.ok(before.every((at) => at > 0));

      await t.close(true);
      // Let 'short' pass its time while the server is down.
      await sleep(400);
      t = await startTestLarder({}, dir);

      for (const [i, k] of watched.entries()) assert.equal(await run(['pexpiretime', k]), before[i], k);
      assert.equal(await run(['ttl', 'persisted']), -1);
      assert.equal(await run(['exists', 'short', 'past', 'renamed']), 0);
      assert.equal(await run(['get', 'restored2']), 'value of restored');
      assert.equal(await run(['dbsize']), 8);
    } finally {
      await t.close(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('active expiry', () => {
  notOnCluster('INFO stats answers the counters of one node')('deletes expired keys that nobody reads', async () => {
    const t = await startTestLarder();
    try {
      for (let i = 0; i < 30; i++) {
        await t.command(['set', `short:${i}`, 'v']);
        await t.command(['pexpire', `short:${i}`, 50]);
      }
      await t.command(['set', 'stays', 'v']);
      let size = -1;
      for (let tries = 0; tries < 200 && size !== 1; tries++) {
        await sleep(50);
        size = (await t.command(['dbsize'])).body.result;
      }
      assert.equal(size, 1);
      const info = (await t.command(['info', 'stats'])).body.result as string;
      assert.match(info, /expired_keys:30\r\n/);
    } finally {
      await t.close();
    }
  });

  // A cycle took 20 keys at a time, 16 times at most, ten times a second: 3,200 keys a second,
  // so 100k keys nobody read stayed (in DBSIZE, in memory) for half a minute.
  embeddedOnly('the embedded engine runs active expiry')('keeps up with 100k keys expiring at once, as Redis does by time, not by count', async () => {
    const t = await startTestLarder();
    try {
      const N = 100_000;
      for (let i = 0; i < N; i += 2000) {
        const sets = Array.from({ length: 2000 }, (_, j) => ['set', `many:${i + j}`, 'v', 'px', '2000']);
        assert.equal((await t.request('/pipeline', { method: 'POST', body: JSON.stringify(sets) })).status, 200);
      }
      await t.command(['set', 'stays', 'v']);
      await sleep(2000);
      let size = -1;
      for (let tries = 0; tries < 100 && size !== 1; tries++) {
        await sleep(50);
        size = (await t.command(['dbsize'])).body.result as number;
      }
      assert.equal(size, 1);
    } finally {
      await t.close();
    }
  });
});
