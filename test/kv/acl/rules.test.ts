// ACL SETUSER's rule grammar: what each rule does to a user, as ACL LIST describes it, and the
// exact error texts. Expected texts are redis-server 7.0's, except that command rules are listed
// as given (Redis 7.2's form) rather than 7.0's best-fit approximation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRules, splitRules } from '../../../src/kv/acl/rules.js';
import { AclUser, hashPassword } from '../../../src/kv/acl/user.js';
import { COMMANDS } from '../../../src/kv/commands/table.js';

const HASH_A = 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb';
const HASH_B = '3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d';

function describeAfter(...rules: string[]): string {
  const user = new AclUser('x', COMMANDS);
  const error = applyRules(user, rules);
  assert.equal(error, null, `${rules.join(' ')}: ${error?.text}`);
  return user.describe().join(' ');
}

function errorOf(...rules: string[]): string | undefined {
  return applyRules(new AclUser('x', COMMANDS), rules)?.text;
}

describe('ACL rules', () => {
  it('starts a new user off, with nothing allowed', () => {
    assert.equal(describeAfter(), 'off resetchannels -@all');
  });

  it('describes a user as ACL LIST does', () => {
    assert.equal(
      describeAfter('on', '>pw', '~app:*', '%R~r:*', '%W~w:*', '&ch*', '+@read', '+@string', '+acl|whoami'),
      'on #30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4 ~app:* %R~r:* %W~w:* resetchannels &ch* -@all +@read +@string +acl|whoami',
    );
  });

  it('reads keywords in any case', () => {
    assert.equal(describeAfter('ON', 'OFF', 'AllKeys', '+GET'), 'off ~* resetchannels -@all +get');
  });

  it('keeps key patterns with their permissions, merged by pattern', () => {
    const cases: [string[], string][] = [
      [['%R~*'], '%R~*'],
      [['allkeys'], '~*'],
      [['~a', '~a'], '~a'],
      [['%RW~a'], '~a'],
      [['%WR~a'], '~a'],
      [['%R~a', '%W~a'], '~a'],
      [['%r~a'], '%R~a'],
      [['%R~a', '~*'], '~*'],
      [['~a', '%R~*'], '~a %R~*'],
      [['~a', 'resetkeys', '~b'], '~b'],
      [['%R'], '%R~'],
    ];
    for (const [rules, keys] of cases) assert.equal(describeAfter(...rules), `off ${keys} resetchannels -@all`, rules.join(' '));
  });

  it('keeps channel patterns', () => {
    assert.equal(describeAfter('allchannels'), 'off &* -@all');
    assert.equal(describeAfter('&*'), 'off &* -@all');
    assert.equal(describeAfter('&a', '&a'), 'off resetchannels &a -@all');
    assert.equal(describeAfter('&a', '&*'), 'off &* -@all');
    assert.equal(describeAfter('allchannels', 'resetchannels', '&b'), 'off resetchannels &b -@all');
  });

  it('keeps password hashes, and nopass', () => {
    assert.equal(hashPassword('a'), HASH_A);
    assert.equal(describeAfter('on', 'nopass'), 'on nopass resetchannels -@all');
    assert.equal(describeAfter('>a', 'nopass'), 'off nopass resetchannels -@all');
    assert.equal(describeAfter('nopass', '>a'), `off #${HASH_A} resetchannels -@all`);
    assert.equal(describeAfter('>a', '>a', '>b'), `off #${HASH_A} #${HASH_B} resetchannels -@all`);
    assert.equal(describeAfter('>a', 'resetpass'), 'off resetchannels -@all');
    assert.equal(describeAfter(`#${HASH_A}`), `off #${HASH_A} resetchannels -@all`);
    assert.equal(describeAfter('>a', `!${HASH_A}`), 'off resetchannels -@all');
    assert.equal(describeAfter('>a', '<a'), 'off resetchannels -@all');
  });

  it('keeps the sanitize-payload flags', () => {
    assert.equal(describeAfter('skip-sanitize-payload'), 'off skip-sanitize-payload resetchannels -@all');
    assert.equal(describeAfter('reset'), 'off sanitize-payload resetchannels -@all');
    assert.equal(describeAfter('on', 'nopass', '~*', '&*', '+@all', '(~a)', 'reset'), 'off sanitize-payload resetchannels -@all');
  });

  it('lists command rules in order, a later rule replacing an earlier one on the same name', () => {
    const cases: [string[], string][] = [
      [['+@all', '-get'], '+@all -get'],
      [['+@read', '-get'], '-@all +@read -get'],
      [['+@read', '-@read'], '-@all -@read'],
      [['+get', '+set', '-get'], '-@all +set -get'],
      [['+get', '+get'], '-@all +get'],
      [['allcommands', '-acl'], '+@all -acl'],
      [['+acl', '-acl|setuser'], '-@all +acl -acl|setuser'],
      [['+acl|setuser', '+acl'], '-@all +acl'],
      [['+acl|SETUSER'], '-@all +acl|setuser'],
      [['+flushdb|async', '+flushdb|sync'], '-@all +flushdb|async +flushdb|sync'],
      [['+flushdb|async', '+flushdb'], '-@all +flushdb'],
      [['+@read', '+@all'], '+@all'],
      [['+@all', 'nocommands', '+get'], '-@all +get'],
    ];
    for (const [rules, commands] of cases) {
      assert.equal(describeAfter(...rules), `off resetchannels ${commands}`, rules.join(' '));
    }
  });

  it('adds and clears selectors, joining one split across arguments', () => {
    assert.equal(
      describeAfter('(~a +get)', '(+set ~b)'),
      'off resetchannels -@all (~a resetchannels -@all +get) (~b resetchannels -@all +set)',
    );
    assert.equal(describeAfter('(~a', '+get)'), 'off resetchannels -@all (~a resetchannels -@all +get)');
    assert.equal(describeAfter('()'), 'off resetchannels -@all (resetchannels -@all)');
    assert.equal(describeAfter('(~a)', '(~a)'), 'off resetchannels -@all (~a resetchannels -@all) (~a resetchannels -@all)');
    assert.equal(describeAfter('(~a +get)', 'clearselectors'), 'off resetchannels -@all');
  });

  it('answers Redis texts for invalid rules', () => {
    const modifier = (op: string, reason: string) => `ERR Error in ACL SETUSER modifier '${op}': ${reason}`;
    const syntax = 'Syntax error';
    const unknown = 'Unknown command or category name in ACL';
    const badHash = 'The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters';
    const noPassword = 'The password you are trying to remove from the user does not exist';
    const cases: [string[], string][] = [
      [['foo'], modifier('foo', syntax)],
      [['+@foo'], modifier('+@foo', unknown)],
      [['+nosuch'], modifier('+nosuch', unknown)],
      [['+'], modifier('+', unknown)],
      [['-@'], modifier('-@', unknown)],
      [['#abc'], modifier('#abc', badHash)],
      [[`#${HASH_A.toUpperCase()}`], modifier(`#${HASH_A.toUpperCase()}`, badHash)],
      [['!abc'], modifier('!abc', badHash)],
      [['<nope'], modifier('<nope', noPassword)],
      [[`!${HASH_A}`], modifier(`!${HASH_A}`, noPassword)],
      [['%X~a'], modifier('%X~a', syntax)],
      [['%~a'], modifier('%~a', syntax)],
      [['%RR~a'], modifier('%RR~a', syntax)],
      [['~a b'], modifier('~a b', syntax)],
      [['&a b'], modifier('&a b', syntax)],
      [['-get|x'], modifier('-get|x', unknown)],
      [['+acl|nope'], modifier('+acl|nope', unknown)],
      [['+get|'], modifier('+get|', syntax)],
      [['+acl|whoami|x'], modifier('+acl|whoami|x', 'Allowing first-arg of a subcommand is not supported')],
      [
        ['~*', '~a'],
        modifier(
          '~a',
          "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns",
        ),
      ],
      [
        ['allchannels', '&b'],
        modifier(
          '&b',
          "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels",
        ),
      ],
      [['(foo)'], modifier('(foo)', syntax)],
      [['(on)'], modifier('(on)', syntax)],
      [['(~a', '+nope)'], modifier('(~a +nope)', unknown)],
      [['('], "ERR Unmatched parenthesis in acl selector starting at '('."],
      [['on', '(~a', '+get'], "ERR Unmatched parenthesis in acl selector starting at '(~a'."],
    ];
    for (const [rules, text] of cases) assert.equal(errorOf(...rules), text, rules.join(' '));
  });

  it('rebuilds the same user from its description', () => {
    const rules = ['on', '>pw', '%R~r:*', '~app:*', '&ch', '+@all', '-@dangerous', '+flushdb|async', '(%W~w:* +set)', 'skip-sanitize-payload'];
    const first = describeAfter(...rules);
    assert.equal(describeAfter(...first.split(/ (?![^(]*\))/)), first);
  });

  it('splits a config line into rules', () => {
    assert.deepEqual(splitRules('  on >secret\t~app:*  +@read '), ['on', '>secret', '~app:*', '+@read']);
    assert.deepEqual(splitRules(''), []);
  });
});
