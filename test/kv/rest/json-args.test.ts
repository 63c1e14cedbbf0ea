import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplyError } from '../../../src/kv/errors.js';
import { parseBatch, parseCommand } from '../../../src/kv/rest/json-args.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const command = (s: string) => parseCommand(bytes(s));
const errorText = (r: unknown) => (r instanceof ReplyError ? r.text : `not an error: ${JSON.stringify(r)}`);

describe('kv rest: JSON command bodies', () => {
  it('reads strings and numbers', () => {
    assert.deepEqual(command(' [ "set" , "k",42 ,-7, 1.5 ] \n'), ['set', 'k', '42', '-7', '1.5']);
  });

  it('keeps integer digits exactly, beyond 2^53 too', () => {
    assert.deepEqual(command('["incrby","k",9223372036854775807,-9223372036854775808]'), [
      'incrby',
      'k',
      '9223372036854775807',
      '-9223372036854775808',
    ]);
  });

  it('reads booleans as the strings "true" and "false", as Upstash stores them', () => {
    assert.deepEqual(command('["set",true, false]'), ['set', 'true', 'false']);
    assert.deepEqual(parseBatch(bytes('[["set","k",false],["echo",true]]')), [['set', 'k', 'false'], ['echo', 'true']]);
    for (const [body, at] of [['["set",tru]', 7], ['["set",truex]', 11], ['["set",f]', 7]] as const) {
      assert.equal(errorText(command(body)), `ERR failed to parse the request body as JSON at byte ${at}`, body);
    }
  });

  it('writes other numbers as JavaScript does', () => {
    assert.deepEqual(command('["x",1.50,1e3,2E-2,-0,0]'), ['x', '1.5', '1000', '0.02', '0', '0']);
  });

  it('turns strings into their UTF-8 bytes, escapes included', () => {
    const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
    assert.deepEqual(command('["été", "\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r", "\\ud83d\\ude00", "😀"]'), [
      utf8('été'),
      utf8('é\n\t"\\/\b\f\r'),
      utf8('😀'),
      utf8('😀'),
    ]);
  });

  it('reads strings dense with escapes as JSON.parse does, to the UTF-8 bytes', () => {
    // Characters an SDK's JSON value is made of, escaped or not: quotes every few bytes.
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0001', '\u001f', 'é', '€', '😀', '\ud83d', '{', ':'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 500; n++) {
      const s = Array.from({ length: next() % 60 }, () => alphabet[next() % alphabet.length]).join('');
      const body = JSON.stringify(['set', s, `${s}|${s}`]);
      assert.deepEqual(command(body), ['set', Buffer.from(s, 'utf8').toString('latin1'), Buffer.from(`${s}|${s}`, 'utf8').toString('latin1')], body);
    }
  });

  it('turns a lone surrogate escape into U+FFFD', () => {
    assert.deepEqual(command('["\\ud83d", "\\ude00x"]'), ['\xef\xbf\xbd', '\xef\xbf\xbdx']);
  });

  it('keeps bytes that are not UTF-8 as they are', () => {
    const body = Buffer.concat([bytes('["set","k","'), Buffer.from([0xff, 0x80, 0x00 + 0x41]), bytes('"]')]);
    assert.deepEqual(parseCommand(body), ['set', 'k', '\xff\x80A']);
  });

  it('reads a body that is a view into a larger buffer', () => {
    const whole = bytes('xx["ping"]yy');
    assert.deepEqual(parseCommand(new Uint8Array(whole.buffer, whole.byteOffset + 2, 8)), ['ping']);
  });

  it('refuses what is not a non-empty array of strings and numbers', () => {
    const notACommand = 'ERR a command must be a non-empty JSON array of strings and numbers';
    for (const body of ['[]', '{"a":1}', '"set"', '42', 'null', 'true', '  [ ] ']) {
      assert.equal(errorText(command(body)), notACommand, body);
    }
    assert.equal(errorText(command('["set",null]')), 'ERR command arguments must be strings or numbers, got null');
    assert.equal(errorText(command('["set",{"a":1}]')), 'ERR command arguments must be strings or numbers, got an object');
    assert.equal(errorText(command('["set",["a"]]')), 'ERR command arguments must be strings or numbers, got an array');
  });

  it('reports malformed JSON with the byte where it broke', () => {
    const cases: [string, number][] = [
      ['', 0],
      ['[', 1],
      ['["set"', 6],
      ['["set",]', 7],
      ['["set" "k"]', 7],
      ['["a\nb"]', 3],
      ['["\\x"]', 2],
      ['["\\u12g4"]', 2],
      ['["a\\"b\nc"]', 6],
      ['["a\\"', 5],
      ['["a\\', 3],
      ['["a\\"\\q"]', 5],
      ['[01]', 2],
      ['[1.]', 3],
      ['[1e]', 3],
      ['[-]', 2],
      ['["a"] x', 6],
      ['["a"]]', 5],
      ['hello', 0],
    ];
    for (const [body, at] of cases) {
      assert.equal(errorText(command(body)), `ERR failed to parse the request body as JSON at byte ${at}`, JSON.stringify(body));
    }
  });
});

describe('kv rest: JSON batch bodies', () => {
  it('reads an array of commands', () => {
    assert.deepEqual(parseBatch(bytes('[["set","a",1],\n ["get","a"]]')), [['set', 'a', '1'], ['get', 'a']]);
  });

  it('refuses an empty batch, a bare command and empty commands', () => {
    const notABatch = 'ERR a pipeline or transaction body must be a non-empty JSON array of commands';
    assert.equal(errorText(parseBatch(bytes('[]'))), notABatch);
    assert.equal(errorText(parseBatch(bytes('{"cmd":["get"]}'))), notABatch);
    const notACommand = 'ERR a command must be a non-empty JSON array of strings and numbers';
    assert.equal(errorText(parseBatch(bytes('["get","a"]'))), notACommand);
    assert.equal(errorText(parseBatch(bytes('[["get","a"],[]]'))), notACommand);
    assert.equal(errorText(parseBatch(bytes('[["get","a"],null]'))), notACommand);
    assert.equal(errorText(parseBatch(bytes('[[["get"]]]'))), 'ERR command arguments must be strings or numbers, got an array');
    assert.equal(errorText(parseBatch(bytes('[["get","a"]'))), 'ERR failed to parse the request body as JSON at byte 12');
  });
});
