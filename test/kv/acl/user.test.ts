// Whether an ACL user may run a command: command rules, categories, subcommands, first
// arguments, read/write key patterns and selectors, with the errors admission answers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRules } from '../../../src/kv/acl/rules.js';
import { AclUser } from '../../../src/kv/acl/user.js';
import { resolve } from '../../../src/kv/commands/admit.js';
import { keysOf, type Command } from '../../../src/kv/commands/spec.js';
import { COMMANDS, lookupCommand } from '../../../src/kv/commands/table.js';
import { isError } from '../../../src/kv/errors.js';

const NOPERM_KEY = 'NOPERM this user has no permissions to access one of the keys used as arguments';
const noPerm = (name: string) => `NOPERM this user has no permissions to run the '${name}' command or its subcommand`;

function userWith(...rules: string[]): AclUser {
  const user = new AclUser('u', COMMANDS);
  assert.equal(applyRules(user, ['on', ...rules]), null);
  return user;
}

function commandFor(argv: string[]): Command {
  const cmd = resolve(lookupCommand(argv[0]), argv);
  assert.ok(!isError(cmd), argv.join(' '));
  return cmd;
}

/** The error admission would answer, or 'ok'. */
function run(user: AclUser, ...argv: string[]): string {
  const cmd = commandFor(argv);
  return user.check(cmd, argv, keysOf(cmd, argv))?.text ?? 'ok';
}

/** What DRYRUN reports: the refused command or key, or 'ok'. */
function denied(user: AclUser, ...argv: string[]): string {
  const cmd = commandFor(argv);
  return user.deny(cmd, argv, keysOf(cmd, argv))?.object ?? 'ok';
}

describe('ACL user checks', () => {
  it('allows commands by category and name, and keys by pattern', () => {
    const u = userWith('~app:*', '+@read', '+@string', '-del');
    assert.equal(run(u, 'get', 'app:1'), 'ok');
    assert.equal(run(u, 'set', 'app:1', 'v'), 'ok');
    assert.equal(run(u, 'get', 'other'), NOPERM_KEY);
    assert.equal(run(u, 'del', 'app:1'), noPerm('del'));
    assert.equal(run(u, 'flushall'), noPerm('flushall'));
    assert.equal(run(u, 'ping'), noPerm('ping'));
  });

  it('checks every key of a command', () => {
    const u = userWith('~app:*', '+del');
    assert.equal(run(u, 'del', 'app:1', 'app:2'), 'ok');
    assert.equal(run(u, 'del', 'app:1', 'x'), NOPERM_KEY);
  });

  it('reads %R~ and %W~ patterns by whether the command writes', () => {
    const u = userWith('%R~r:*', '%W~w:*', '+get', '+set');
    assert.equal(run(u, 'get', 'r:1'), 'ok');
    assert.equal(run(u, 'set', 'r:1', 'v'), NOPERM_KEY);
    assert.equal(run(u, 'set', 'w:1', 'v'), 'ok');
    assert.equal(run(u, 'get', 'w:1'), NOPERM_KEY);
  });

  it('refuses everything to a user that is off', () => {
    const u = userWith('+@all', '~*', 'off');
    assert.equal(run(u, 'get', 'k'), 'WRONGPASS invalid username-password pair or user is disabled.');
  });

  it('allows everything to +@all ~*, minus what is taken away', () => {
    const u = userWith('~*', '+@all', '-@dangerous');
    assert.equal(run(u, 'get', 'anything'), 'ok');
    assert.equal(run(u, 'flushall'), noPerm('flushall'));
    assert.equal(run(u, 'acl', 'setuser', 'x'), noPerm('acl|setuser'));
    assert.equal(run(u, 'acl', 'whoami'), 'ok');
  });

  it('treats ACL subcommands one by one', () => {
    const whoami = userWith('+acl|whoami');
    assert.equal(run(whoami, 'acl', 'whoami'), 'ok');
    assert.equal(run(whoami, 'acl', 'setuser', 'x'), noPerm('acl|setuser'));

    const allButSetuser = userWith('+acl', '-acl|setuser');
    assert.equal(run(allButSetuser, 'acl', 'list'), 'ok');
    assert.equal(run(allButSetuser, 'acl', 'setuser', 'x'), noPerm('acl|setuser'));

    const admin = userWith('+@admin');
    assert.equal(run(admin, 'acl', 'setuser', 'x'), 'ok');
    assert.equal(run(admin, 'acl', 'whoami'), noPerm('acl|whoami'));
  });

  it('allows a whole container through a category it is in, as Redis does', () => {
    // The ACL container is @slow, and +@slow on a container allows all its subcommands.
    const u = userWith('+@slow');
    assert.equal(run(u, 'acl', 'setuser', 'x'), 'ok');
  });

  it('allows a command with a given first argument only', () => {
    const u = userWith('+flushdb|async');
    assert.equal(run(u, 'flushdb', 'ASYNC'), 'ok');
    assert.equal(run(u, 'flushdb', 'sync'), noPerm('flushdb'));
    assert.equal(run(u, 'flushdb'), noPerm('flushdb'));
    assert.equal(run(userWith('+flushdb|async', '-flushdb'), 'flushdb', 'async'), noPerm('flushdb'));
  });

  it('allows a command when any selector does', () => {
    const u = userWith('+get', '~k*', '(+set ~w*)');
    assert.equal(run(u, 'get', 'k1'), 'ok');
    assert.equal(run(u, 'set', 'w1', 'v'), 'ok');
    assert.equal(run(u, 'set', 'k1', 'v'), NOPERM_KEY);
    assert.equal(run(u, 'get', 'w1'), NOPERM_KEY);
    assert.equal(run(u, 'del', 'k1'), noPerm('del'));
  });

  it('reports the refusal Redis picks among selectors: a key over a command, the later key', () => {
    const u = userWith('+get', '~k*', '(+set ~w*)', '(+del ~a*)');
    assert.equal(denied(u, 'set', 'k', 'v'), 'k');
    assert.equal(denied(u, 'del', 'a1', 'k1', 'zz'), 'k1');
    assert.equal(denied(u, 'del', 'k1', 'a1'), 'k1');
    assert.equal(denied(u, 'flushall'), 'flushall');
    assert.equal(denied(u, 'del', 'a1'), 'ok');
  });
});
