// Users and tokens of one database: REST tokens and their revocation, atomic SETUSER,
// persistence in acl.json and users declared in the config.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AclRegistry } from '../../../src/kv/acl/registry.js';
import { AclStore } from '../../../src/kv/acl/store.js';
import { hashPassword } from '../../../src/kv/acl/user.js';
import { resolve } from '../../../src/kv/commands/admit.js';
import type { Caller, Command } from '../../../src/kv/commands/spec.js';
import { COMMANDS, lookupCommand } from '../../../src/kv/commands/table.js';
import { isError } from '../../../src/kv/errors.js';

const STANDARD = 'standard-token';
const READ_ONLY = 'read-only-token';
const WRONGPASS = 'WRONGPASS invalid username-password pair or user is disabled.';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function storeIn(dir?: string): AclStore {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'larder-acl-'));
  if (dir === undefined) dirs.push(d);
  return new AclStore(join(d, 'kv', 'default', 'acl.json'));
}

function registry(store: AclStore | null = null, users: { name: string; rules: string }[] = []): AclRegistry {
  const r = new AclRegistry(STANDARD, READ_ONLY, COMMANDS, store);
  r.load(users);
  return r;
}

function ok(value: unknown): asserts value is string | null {
  assert.ok(!isError(value), isError(value) ? value.text : '');
}

function get(): Command {
  const cmd = resolve(lookupCommand('get'), ['get', 'k']);
  assert.ok(!isError(cmd));
  return cmd;
}

/** 'ok', the refusal, or 'revoked' when the token no longer authenticates. */
function runGet(r: AclRegistry, token: string, key = 'k'): string {
  const caller: Caller | undefined = r.callerFor(token);
  if (caller === undefined) return 'revoked';
  return caller.acl?.check(get(), ['get', key], [key])?.text ?? 'ok';
}

describe('ACL registry', () => {
  it('knows the database tokens and the default user', () => {
    const r = registry();
    assert.deepEqual(r.callerFor(STANDARD), { user: 'default', readOnly: false, acl: null });
    assert.deepEqual(r.callerFor(READ_ONLY), { user: 'default', readOnly: true, acl: null });
    assert.equal(r.callerFor('nope'), undefined);
    assert.deepEqual(r.list().map((u) => u.describe().join(' ')), ['on nopass ~* &* +@all']);
  });

  it('gives one REST token per user and password, running as that user', () => {
    const r = registry();
    assert.equal(r.setUser('app', ['on', '>one', '>two', '~k*', '+get']), null);
    const token = r.restToken('app', 'one');
    ok(token);
    assert.equal(r.restToken('app', 'one'), token);
    const other = r.restToken('app', 'two');
    ok(other);
    assert.notEqual(other, token);
    assert.equal(r.callerFor(token!)?.user, 'app');
    assert.equal(runGet(r, token!), 'ok');
    assert.equal(runGet(r, token!, 'x'), 'NOPERM this user has no permissions to access one of the keys used as arguments');
  });

  it('refuses a token for a missing user, a wrong password or a user that is off', () => {
    const r = registry();
    r.setUser('app', ['>pw']);
    for (const [name, pw] of [['nobody', 'pw'], ['app', 'pw'], ['app', 'wrong']]) {
      const token = r.restToken(name, pw);
      assert.ok(isError(token));
      assert.equal(token.text, `ERR Wrong password or user "${name}" does not exist`);
    }
  });

  it('accepts any password for a nopass user', () => {
    const r = registry();
    ok(r.restToken('default', 'whatever'));
  });

  it('refuses commands while the user is off, and takes them again when it is on', () => {
    const r = registry();
    r.setUser('app', ['on', '>pw', '~*', '+get']);
    const token = r.restToken('app', 'pw') as string;
    r.setUser('app', ['off']);
    assert.equal(runGet(r, token), WRONGPASS);
    r.setUser('app', ['on']);
    assert.equal(runGet(r, token), 'ok');
  });

  it('revokes tokens when their password goes, and when their user goes', () => {
    const r = registry();
    r.setUser('app', ['on', '>one', '>two', '~*', '+get']);
    const one = r.restToken('app', 'one') as string;
    const two = r.restToken('app', 'two') as string;
    r.setUser('app', ['<one']);
    assert.equal(runGet(r, one), 'revoked');
    assert.equal(runGet(r, two), 'ok');
    r.setUser('app', ['>one']);
    assert.equal(runGet(r, one), 'revoked', 'a revoked token stays revoked');

    const held = r.callerFor(two)!;
    assert.equal(r.deleteUsers(['app', 'app', 'nobody']), 1);
    assert.equal(runGet(r, two), 'revoked');
    // A request that authenticated before the delete is refused from then on.
    assert.equal(held.acl!.check(get(), ['get', 'k'], ['k'])?.text, WRONGPASS);
  });

  it('never deletes the default user', () => {
    const r = registry();
    r.setUser('app', []);
    const refused = r.deleteUsers(['app', 'default']);
    assert.ok(isError(refused));
    assert.equal(refused.text, "ERR The 'default' user cannot be removed");
    assert.ok(r.user('app'), 'nothing is deleted');
  });

  it('applies all of a SETUSER or none of it', () => {
    const r = registry();
    r.setUser('app', ['on', '~a']);
    const error = r.setUser('app', ['off', '~b', '+nosuch']);
    assert.equal(error?.text, "ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL");
    assert.equal(r.user('app')?.describe().join(' '), 'on ~a resetchannels -@all');
    assert.equal(r.setUser('new', ['+nosuch'])?.text, error?.text);
    assert.equal(r.user('new'), undefined);
  });

  it('refuses user names with spaces', () => {
    assert.equal(registry().setUser('a b', [])?.text, "ERR Usernames can't contain spaces or null characters");
  });

  it('lists users by name', () => {
    const r = registry();
    for (const name of ['zed', 'Alice', 'bob']) r.setUser(name, []);
    assert.deepEqual(r.list().map((u) => u.name), ['Alice', 'bob', 'default', 'zed']);
  });

  it('keeps users and tokens in acl.json across restarts, readable by its owner only', () => {
    const store = storeIn();
    const first = registry(store);
    first.setUser('app', ['on', '>pw', '%R~r:*', '&ch', '+@read', '-@dangerous', '(~w:* +set)']);
    first.setUser('default', ['>admin-pw']);
    const token = first.restToken('app', 'pw') as string;
    assert.equal(statSync(store.path).mode & 0o777, 0o600);

    const second = registry(store);
    assert.deepEqual(
      second.list().map((u) => u.describe()),
      first.list().map((u) => u.describe()),
    );
    assert.equal(second.callerFor(token)?.user, 'app');
    assert.equal(second.restToken('app', 'pw'), token);
    second.deleteUsers(['app']);
    assert.equal(registry(store).callerFor(token), undefined);
  });

  it('creates the users the config declares, and keeps them in step with it', () => {
    const store = storeIn();
    const configured = [{ name: 'cfg', rules: 'on >pw ~c:* +get' }];
    const first = registry(store, configured);
    assert.equal(first.user('cfg')?.describe().join(' '), `on #${hashPassword('pw')} ~c:* resetchannels -@all +get`);
    const token = first.restToken('cfg', 'pw') as string;
    first.setUser('cfg', ['+set']);
    first.setUser('runtime', ['on']);

    // The config wins over changes made at run time; its tokens survive while the password holds.
    const second = registry(store, configured);
    assert.equal(second.user('cfg')?.describe().join(' '), `on #${hashPassword('pw')} ~c:* resetchannels -@all +get`);
    assert.equal(second.callerFor(token)?.user, 'cfg');
    assert.ok(second.user('runtime'));

    // A user the config no longer declares is gone, with its tokens.
    const third = registry(store, []);
    assert.equal(third.user('cfg'), undefined);
    assert.equal(third.callerFor(token), undefined);
    assert.ok(third.user('runtime'));
    assert.ok(!readFileSync(store.path, 'utf8').includes('"cfg"'));
  });

  it('refuses to start on invalid config rules, naming the user', () => {
    assert.throws(
      () => registry(null, [{ name: 'bad', rules: 'on +nosuch' }]),
      /config user 'bad': ERR Error in ACL SETUSER modifier '\+nosuch': Unknown command or category name in ACL/,
    );
  });
});
