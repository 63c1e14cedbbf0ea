// ACL over the REST API: users made with ACL SETUSER, their tokens from ACL RESTTOKEN used
// through HTTP and the official SDK, revocation, read-only tokens, persistence across a
// restart and users declared in the config.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ratelimit } from '@upstash/ratelimit';
import { lookupCommand } from '../../../src/kv/commands/table.js';
import { embeddedOnly, startTestLarder, suiteLarder, TEST_KV_BACKEND, type TestLarder } from '../../support/larder.js';
import { PIPELINE_MODES, sdkClient } from '../../support/sdk.js';

const NOPERM_KEY = 'NOPERM this user has no permissions to access one of the keys used as arguments';
const noPerm = (name: string) => `NOPERM this user has no permissions to run the '${name}' command or its subcommand`;
const WRONGPASS = 'WRONGPASS invalid username-password pair or user is disabled.';

/** Runs a command that must succeed; its result. */
async function result(t: TestLarder, argv: (string | number)[], token?: string): Promise<any> {
  const res = await t.command(argv, { token });
  assert.equal(res.status, 200, `${argv.join(' ')}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}

/** Creates a user and returns its REST token. */
async function userToken(t: TestLarder, name: string, password: string, rules: string[]): Promise<string> {
  assert.equal(await result(t, ['acl', 'setuser', name, 'on', `>${password}`, ...rules]), 'OK');
  const token = await result(t, ['acl', 'resttoken', name, password]);
  assert.equal(typeof token, 'string');
  assert.ok(token.length >= 16);
  return token;
}

describe('ACL over REST', () => {
  const t = suiteLarder();

  for (const mode of PIPELINE_MODES) {
    it(`runs an ACL user's token with that user's permissions through the SDK (${mode.name})`, async () => {
      const name = `app-${mode.name}`;
      const token = await userToken(t, name, 's3cret', ['~app:*', '+@read', '+@string', '-del']);
      const redis = sdkClient(t, { token, autoPipeline: mode.autoPipeline });
      assert.equal(await redis.set('app:1', 'hello'), 'OK');
      assert.equal(await redis.get('app:1'), 'hello');
      await assert.rejects(redis.get('other'), (e: Error) => e.message.includes(NOPERM_KEY));
      await assert.rejects(redis.set('other', 'x'), (e: Error) => e.message.includes(NOPERM_KEY));
      await assert.rejects(redis.del('app:1'), (e: Error) => e.message.includes(noPerm('del')));
      // The standard token is not held back by any user's rules.
      assert.equal(await sdkClient(t).del('app:1'), 1);
    });
  }

  it('answers refusals with 400 and the Redis text, in every request form', async () => {
    const token = await userToken(t, 'forms', 'pw', ['~f:*', '+get', '+set', '+acl|whoami']);
    assert.deepEqual(await t.command(['get', 'other'], { token }), { status: 400, body: { error: NOPERM_KEY } });
    assert.deepEqual(await t.command(['del', 'f:1'], { token }), { status: 400, body: { error: noPerm('del') } });
    const path = await t.request('/set/f:1/v', { token });
    assert.deepEqual([path.status, await path.json()], [200, { result: 'OK' }]);
    const refused = await t.request('/get/g:1', { token });
    assert.deepEqual([refused.status, await refused.json()], [400, { error: NOPERM_KEY }]);
    const pipeline = await t.request('/pipeline', {
      method: 'POST',
      body: JSON.stringify([['get', 'f:1'], ['get', 'g:1'], ['flushall']]),
      token,
    });
    assert.equal(pipeline.status, 200);
    assert.deepEqual(await pipeline.json(), [{ result: 'v' }, { error: NOPERM_KEY }, { error: noPerm('flushall') }]);
    assert.equal(await result(t, ['acl', 'whoami'], token), 'forms');
    assert.equal(await result(t, ['acl', 'whoami']), 'default');
  });

  it("refuses a token for a wrong password, a missing user or a user that is off, in the words of Upstash's REST API page", async () => {
    await userToken(t, 'locked', 'right', ['+@all', '~*']);
    assert.equal(await result(t, ['acl', 'setuser', 'sleeper', 'off', '>pw']), 'OK');
    for (const argv of [
      ['acl', 'resttoken', 'locked', 'wrong'],
      ['acl', 'resttoken', 'nobody', 'right'],
      ['acl', 'resttoken', 'sleeper', 'pw'],
    ]) {
      assert.deepEqual(await t.command(argv), { status: 400, body: { error: `ERR Wrong password or user "${argv[2]}" does not exist` } }, argv.join(' '));
    }
    assert.deepEqual(await t.command(['acl', 'resttoken', 'locked']), {
      status: 400,
      body: { error: "ERR wrong number of arguments for 'acl|resttoken' command" },
    });
  });

  it('gives the same token for the same user and password', async () => {
    const token = await userToken(t, 'twice', 'pw', ['+get']);
    assert.equal(await result(t, ['acl', 'resttoken', 'twice', 'pw']), token);
  });

  it('refuses commands while the user is off, and revokes its tokens when it is deleted', async () => {
    const token = await userToken(t, 'temp', 'pw', ['~*', '+get']);
    assert.equal((await t.command(['get', 'k'], { token })).status, 200);

    await result(t, ['acl', 'setuser', 'temp', 'off']);
    assert.deepEqual(await t.command(['get', 'k'], { token }), { status: 400, body: { error: WRONGPASS } });
    await result(t, ['acl', 'setuser', 'temp', 'on']);
    assert.equal((await t.command(['get', 'k'], { token })).status, 200);

    assert.equal(await result(t, ['acl', 'deluser', 'temp', 'nobody']), 1);
    assert.equal((await t.command(['get', 'k'], { token })).status, 401);
    await assert.rejects(sdkClient(t, { token }).get('k'), /Unauthorized/);
  });

  it('revokes a token when its password is removed', async () => {
    const token = await userToken(t, 'rotate', 'old', ['~*', '+get', '>new']);
    await result(t, ['acl', 'setuser', 'rotate', '<old']);
    assert.equal((await t.command(['get', 'k'], { token })).status, 401);
    const fresh = await result(t, ['acl', 'resttoken', 'rotate', 'new']);
    assert.equal((await t.command(['get', 'k'], { token: fresh })).status, 200);
  });

  it("ACL GENTOKEN (Upstash's): the token, set as the user's password, is its REST token until the password goes", async () => {
    const token = await result(t, ['acl', 'gentoken', 'gen']);
    assert.equal(typeof token, 'string');
    // Nothing is made: the token works once the user has it as a password.
    assert.equal((await t.command(['get', 'cache:1'], { token })).status, 401);
    await result(t, ['acl', 'setuser', 'gen', 'on', `>${token}`, '~cache:*', '+get', '+set']);
    const redis = sdkClient(t, { token });
    assert.equal(await redis.set('cache:1', 'v'), 'OK');
    assert.equal(await redis.get('cache:1'), 'v');
    await assert.rejects(redis.get('other'), (e: Error) => e.message.includes(NOPERM_KEY));
    // RESTTOKEN exchanges the token, or the password it wraps, for another.
    const password = 'kV7pQ2xL9mZ4wR8t';
    const wrapping = await result(t, ['acl', 'gentoken', 'gen', password]);
    await result(t, ['acl', 'setuser', 'gen', `>${wrapping}`]);
    for (const given of [wrapping, password]) {
      const exchanged = await result(t, ['acl', 'resttoken', 'gen', given]);
      assert.equal((await t.command(['get', 'cache:1'], { token: exchanged })).status, 200);
    }
    assert.equal((await t.command(['get', 'cache:1'], { token: wrapping })).status, 200);
    // Removing the password revokes the token; the other one stays.
    await result(t, ['acl', 'setuser', 'gen', `<${token}`]);
    assert.equal((await t.command(['get', 'cache:1'], { token })).status, 401);
    assert.equal((await t.command(['get', 'cache:1'], { token: wrapping })).status, 200);
    // A weak password is refused; a token made for a user who takes any password (nopass, as
    // the default user) authenticates nothing.
    const weak = await t.command(['acl', 'gentoken', 'gen', 'password123']);
    assert.equal(weak.status, 400);
    assert.match(weak.body.error, /^ERR ACL GENTOKEN password is too weak/);
    await result(t, ['acl', 'setuser', 'open', 'on', 'nopass', '~*', '+@all']);
    for (const name of ['default', 'open']) {
      const forged = await result(t, ['acl', 'gentoken', name, 'Zq8Lm3Vx7Rt2Wp9K']);
      assert.equal((await t.command(['get', 'k'], { token: forged })).status, 401);
    }
  });

  it('limits a user to the ACL subcommands it is given', async () => {
    const token = await userToken(t, 'whoami-only', 'pw', ['+acl|whoami']);
    assert.equal(await result(t, ['acl', 'whoami'], token), 'whoami-only');
    assert.deepEqual(await t.command(['acl', 'setuser', 'x'], { token }), { status: 400, body: { error: noPerm('acl|setuser') } });
    assert.deepEqual(await t.command(['acl', 'list'], { token }), { status: 400, body: { error: noPerm('acl|list') } });
  });

  it('lets the read-only token read, and refuses it writes and administration', async () => {
    const ro = t.readOnlyToken;
    await result(t, ['set', 'ro:1', 'v']);
    assert.equal(await result(t, ['get', 'ro:1'], ro), 'v');
    assert.equal(await sdkClient(t, { readOnly: true }).get('ro:1'), 'v');
    assert.equal(await result(t, ['acl', 'whoami'], ro), 'default');
    assert.deepEqual(await t.command(['acl', 'setuser', 'sneaky', 'on', 'nopass', '+@all', '~*'], { token: ro }), {
      status: 400,
      body: { error: noPerm('acl|setuser') },
    });
    assert.deepEqual(await t.command(['acl', 'list'], { token: ro }), { status: 400, body: { error: noPerm('acl|list') } });
    assert.deepEqual(await t.command(['acl', 'save'], { token: ro }), { status: 400, body: { error: noPerm('acl|save') } });
    assert.deepEqual(await t.command(['set', 'ro:1', 'x'], { token: ro }), { status: 400, body: { error: noPerm('set') } });
    assert.equal(await result(t, ['acl', 'getuser', 'sneaky']), null);
  });

  it('refuses KEYS and SCAN to the read-only token', { skip: lookupCommand('keys') === undefined && 'KEYS and SCAN come with the generic family' }, async () => {
    for (const argv of [['keys', '*'], ['scan', '0']]) {
      assert.deepEqual(await t.command(argv, { token: t.readOnlyToken }), { status: 400, body: { error: noPerm(argv[0]) } });
    }
  });

  it('answers ACL GETUSER, LIST and USERS in Redis 7 shapes', async () => {
    await result(t, ['acl', 'setuser', 'shape', 'on', '>pw', '~app:*', '%R~r:*', '&ch*', '+@read', '-get', '(~w:* +set)']);
    const hash = '30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4';
    assert.deepEqual(await result(t, ['acl', 'getuser', 'shape']), [
      'flags', ['on'],
      'passwords', [hash],
      'commands', '-@all +@read -get',
      'keys', '~app:* %R~r:*',
      'channels', '&ch*',
      'selectors', [['commands', '-@all +set', 'keys', '~w:*', 'channels', '']],
    ]);
    assert.equal(await result(t, ['acl', 'getuser', 'nobody']), null);
    const list: string[] = await result(t, ['acl', 'list']);
    assert.ok(list.includes('user default on nopass ~* &* +@all'), list.join('\n'));
    assert.ok(list.includes(`user shape on #${hash} ~app:* %R~r:* resetchannels &ch* -@all +@read -get (~w:* resetchannels -@all +set)`));
    const users: string[] = await result(t, ['acl', 'users']);
    assert.deepEqual(users, [...users].sort());
    assert.ok(users.includes('default') && users.includes('shape'));
  });

  it('answers the other ACL subcommands as Redis does', async () => {
    const cats: string[] = await result(t, ['acl', 'cat']);
    assert.equal(cats.length, 21);
    assert.deepEqual(cats.slice(0, 3), ['keyspace', 'read', 'write']);
    const read: string[] = await result(t, ['acl', 'cat', 'READ']);
    assert.ok(read.includes('get') && !read.includes('set'));
    assert.ok((await result(t, ['acl', 'cat', 'admin'])).includes('acl|setuser'));
    assert.match(await result(t, ['acl', 'genpass']), /^[0-9a-f]{64}$/);
    assert.match(await result(t, ['acl', 'genpass', 5]), /^[0-9a-f]{2}$/);
    assert.deepEqual(await result(t, ['acl', 'log']), []);
    assert.equal(await result(t, ['acl', 'log', 'reset']), 'OK');
    assert.equal((await result(t, ['acl', 'help']))[0], 'ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:');

    await result(t, ['acl', 'setuser', 'dry', '~app:*', '+get']);
    // Upstash's: no ACL file, every change is saved already; both answer OK and change nothing.
    assert.equal(await result(t, ['acl', 'save']), 'OK');
    assert.equal(await result(t, ['acl', 'load']), 'OK');
    assert.deepEqual(await t.command(['acl', 'save', 'x']), { status: 400, body: { error: "ERR wrong number of arguments for 'acl|save' command" } });
    assert.equal(await result(t, ['acl', 'dryrun', 'dry', 'get', 'app:1']), 'OK');
    assert.equal(await result(t, ['acl', 'dryrun', 'dry', 'get', 'x']), "This user has no permissions to access the 'x' key");
    assert.equal(await result(t, ['acl', 'dryrun', 'dry', 'set', 'app:1', 'v']), "This user has no permissions to run the 'set' command");

    const errors: [(string | number)[], string][] = [
      [['acl'], "ERR wrong number of arguments for 'acl' command"],
      [['acl', 'nope'], "ERR unknown subcommand 'nope'. Try ACL HELP."],
      [['acl', 'getuser'], "ERR wrong number of arguments for 'acl|getuser' command"],
      [['acl', 'whoami', 'extra'], "ERR wrong number of arguments for 'acl|whoami' command"],
      [['acl', 'setuser', 'bad', 'foo'], "ERR Error in ACL SETUSER modifier 'foo': Syntax error"],
      [['acl', 'setuser', 'bad', '+@foo'], "ERR Error in ACL SETUSER modifier '+@foo': Unknown command or category name in ACL"],
      [['acl', 'setuser', 'bad', '(~a', '+get'], "ERR Unmatched parenthesis in acl selector starting at '(~a'."],
      [['acl', 'setuser', 'a b'], "ERR Usernames can't contain spaces or null characters"],
      [['acl', 'deluser', 'dry', 'default'], "ERR The 'default' user cannot be removed"],
      [['acl', 'cat', 'nope'], "ERR Unknown category 'nope'"],
      [['acl', 'cat', 'read', 'x'], "ERR unknown subcommand or wrong number of arguments for 'cat'. Try ACL HELP."],
      [['acl', 'genpass', 0], 'ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096'],
      [['acl', 'genpass', 'x'], 'ERR value is not an integer or out of range'],
      [['acl', 'log', 'x'], 'ERR value is not an integer or out of range'],
      [['acl', 'dryrun', 'nobody', 'get', 'k'], "ERR User 'nobody' not found"],
      [['acl', 'dryrun', 'dry', 'nope'], "ERR Command 'nope' not found"],
      [['acl', 'dryrun', 'dry', 'get'], "ERR wrong number of arguments for 'get' command"],
    ];
    for (const [argv, error] of errors) assert.deepEqual(await t.command(argv), { status: 400, body: { error } }, argv.join(' '));
    assert.equal(await result(t, ['acl', 'getuser', 'bad']), null, 'a failed SETUSER creates nothing');
  });

  it("keeps a user's script within the user's keys, alone, in a pipeline, a transaction and @upstash/ratelimit", async () => {
    // Rules a Redis server does not know (Larder's JSON, Upstash's ACL RESTTOKEN) are left out of its Redis user.
    const token = await userToken(t, 'scripted', 'pw', ['~{s}:*', '&*', '+@all', '-json.set', '-acl|resttoken']);
    const redis = sdkClient(t, { token });
    // The script names a key of the user's, then writes one that is not.
    const sneaky = "return redis.call('SET', '{s}other', ARGV[1])";
    const refused = (e: Error) => e.message.startsWith("ERR The user executing the script can't access at least one of the keys");
    await assert.rejects(redis.eval(sneaky, ['{s}:1'], ['x']), refused);
    assert.equal(await sdkClient(t).get('{s}other'), null);
    assert.equal(await redis.eval("return redis.call('SET', KEYS[1], ARGV[1])", ['{s}:1'], ['v']), 'OK');
    const read = "return redis.call('GET', KEYS[1])";
    const pipeline = await redis.pipeline().set('{s}:2', 'a').eval(read, ['{s}:2'], []).set('{s}:2', 'b').eval(read, ['{s}:2'], []).exec();
    assert.deepEqual(pipeline, ['OK', 'a', 'OK', 'b']);
    assert.deepEqual(await redis.multi().set('{s}:3', 'c').eval(read, ['{s}:3'], []).exec(), ['OK', 'c']);
    const limiter = new Ratelimit({ redis, limiter: Ratelimit.fixedWindow(2, '60 s'), prefix: '{s}:rl', analytics: false });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await limiter.limit('client')).success);
    assert.deepEqual(seen, [true, true, false]);
    // A user allowed every key, channel and command runs scripts as the database's own tokens do.
    const all = await userToken(t, 'scripted-all', 'pw', ['~*', '&*', '+@all']);
    assert.equal(await sdkClient(t, { token: all }).eval(sneaky, ['{s}:1'], ['y']), 'OK');
    assert.equal(await sdkClient(t).get('{s}other'), 'y');
  });

  it("answers a script's redis.acl_check_cmd for the token that runs it", async () => {
    const token = await userToken(t, 'checker', 'pw', ['~c:*', '+get', '+eval']);
    const check = "return {redis.acl_check_cmd('get', 'c:1'), redis.acl_check_cmd('get', 'other'), redis.acl_check_cmd('set', 'c:1', 'v'), redis.acl_check_cmd('get')}";
    // Booleans come back as 1 and nil: Redis's conversion of true and false.
    assert.deepEqual(await result(t, ['eval', check, '0'], token), [1, null, null, 1]);
    assert.deepEqual(await result(t, ['eval', check, '0']), [1, 1, 1, 1]);
    // A remote server checks Larder's connection for a read-only token's EVAL_RO.
    if (TEST_KV_BACKEND === 'embedded') assert.deepEqual(await result(t, ['eval', "return redis.acl_check_cmd('set', 'k', 'v')", '0'], t.readOnlyToken), null);
    for (const [script, error] of [
      ["return redis.acl_check_cmd('nosuch')", 'ERR Invalid command passed to redis.acl_check_cmd()'],
      ["return redis.acl_check_cmd('config', 'nosuch')", 'ERR Invalid command passed to redis.acl_check_cmd()'],
      ['return redis.acl_check_cmd()', 'ERR Please specify at least one argument for this redis lib call'],
    ]) {
      const res = await t.command(['eval', script, '0'], { token });
      assert.equal(res.status, 400);
      assert.match(res.body.error, new RegExp(`^${error.replace(/[()]/g, '\\$&')} script: `));
    }
  });
});

describe('ACL across restarts and from the config', () => {
  embeddedOnly('restarts Larder on the same data dir')('keeps users and their tokens across a restart', async () => {
    const first = await startTestLarder();
    const dir = first.dataDir;
    try {
      const token = await userToken(first, 'durable', 'pw', ['~d:*', '+get', '+set']);
      await result(first, ['set', 'd:1', 'kept'], token);
      const list = await result(first, ['acl', 'list']);
      await first.close(true);

      const second = await startTestLarder({}, dir);
      try {
        assert.deepEqual(await result(second, ['acl', 'list']), list);
        assert.equal(await sdkClient(second, { token }).get('d:1'), 'kept');
        assert.deepEqual(await second.command(['get', 'x'], { token }), { status: 400, body: { error: NOPERM_KEY } });
        assert.equal(await result(second, ['acl', 'resttoken', 'durable', 'pw']), token);
        await result(second, ['acl', 'deluser', 'durable']);
      } finally {
        await second.close(true);
      }
      const third = await startTestLarder({}, dir);
      try {
        assert.equal((await third.command(['get', 'd:1'], { token })).status, 401, 'a deleted user stays deleted');
      } finally {
        await third.close(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the users the config declares', async () => {
    const t = await startTestLarder({
      kv: { databases: { default: { users: [{ name: 'cfg', rules: 'on >pw ~c:* +get +set' }] } } },
    });
    try {
      assert.ok((await result(t, ['acl', 'users'])).includes('cfg'));
      const token = await result(t, ['acl', 'resttoken', 'cfg', 'pw']);
      const redis = sdkClient(t, { token });
      assert.equal(await redis.set('c:1', 'v'), 'OK');
      assert.equal(await redis.get('c:1'), 'v');
      await assert.rejects(redis.get('d:1'), (e: Error) => e.message.includes(NOPERM_KEY));
      await assert.rejects(redis.del('c:1'), (e: Error) => e.message.includes(noPerm('del')));
    } finally {
      await t.close();
    }
  });

  it('refuses to start when a configured user has invalid rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'larder-test-'));
    try {
      await assert.rejects(
        startTestLarder({ kv: { databases: { default: { users: [{ name: 'bad', rules: 'on +nosuch' }] } } } }, dir),
        /config user 'bad': ERR Error in ACL SETUSER modifier '\+nosuch'/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
