// Random scripting commands (Redis eval.c, functions.c): a fixed set of scripts run by EVAL,
// EVALSHA and their read-only forms with random keys and arguments, exercising the reply
// conversions both ways, redis.call errors (with their script and line), pcall, KEYS/ARGV,
// writes, read-only refusals, cjson, cmsgpack and bit; SCRIPT LOAD/EXISTS/FLUSH; and function
// libraries: FUNCTION LOAD (REPLACE), FCALL, FCALL_RO, DELETE, LIST, STATS, FLUSH.
//
// Not generated: tables encoded by cjson/cmsgpack as objects or maps (their key order
// follows each VM's hash tables), libraries of several functions in FUNCTION LIST (Redis
// lists them in its dict's order), FCALL_RO of a function without no-writes (an exclusion:
// Larder runs it as Upstash does), the time limit, and FUNCTION DUMP (payloads differ).

import { createHash } from 'node:crypto';
import { INTEGERS, KEYS, randomValue } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const step = (...argv: string[]): Step => ({ argv });
const sha1 = (body: string) => createHash('sha1').update(body, 'latin1').digest('hex');

/** Arguments for scripts that turn them into numbers: Lua 5.1 and 5.3 read other text differently (inf, nan, int64 limits). */
const NUMBERS = ['0', '1', '-1', '42', '3.5', '-0.25', '1e3', '007', '0x10', ' 1', 'abc', '', '2147483647', '-2147483648'];
/** Arguments for scripts that print numbers: NUMBERS and texts whose "%.14g" rounds, ties, or turns exponential. */
const PRINTED = [...NUMBERS, '0.1', '1e15', '1e14', '123456789012345', '12345678901234.5', '12345678901235.5', '99999999999999.5', '1e-5', '0.0001', '9007199254740993', '1e300', '-2.5e-310', '3.14159265358979'];
const JSON_TEXTS = ['[1,2]', '{"a":1}', '"s"', 'null', '12', '2.5', 'true', '[1,[2,[3]]]', '"\xe9"', '"\\u00e9\\ud83d\\ude00"', '[]', '{}', '-0x1p3', '+1', '007', '"a\\u0000b"'];
/** What a JSON text is mutated with: its structure, escapes, numbers' characters, a NUL and a high byte. */
const JSON_CHARS = '[]{}:,"\\u0123456789abcdefxp+-.eEtrunlINaD ' + '\x00\xff';

/** Texts for error and status replies: codes, spaces, a leading '-', line ends inside and at the ends. */
const REPLY_TEXTS = ['MY error', 'x', '', '-', '- x', '-ERR a b', 'x y', 'x\ny', 'xy\n', 'A \nb\r\n', '\nA b', 'a\r\nb c', 'ERR'];

/** "<format>|<value>|...": a struct format of random options (counts, endianness, alignment, bad ones) and values for it, now and then one short. */
function structArgs(rng: Rng): string {
  let format = '';
  const values: string[] = [];
  for (let n = rng.int(1, 5); n > 0; n--) {
    if (rng.chance(0.15)) {
      format += rng.pick(['<', '>', '!', '!2', '!4', '!3', ' ', '=', 'q']);
      continue;
    }
    const option = rng.pick([...'bBhHlLTiIfdxsc']);
    format += option + ('iIc'.includes(option) && rng.chance(0.6) ? String(rng.int(0, 10)) : '');
    if (option === 'x') continue;
    const numbers = ['0', '1', '-1', '255', '256', '-129', '65535', '1e10', '-2.5', '3.75', '2147483648', '-9007199254740993', '1e30', '0.1'];
    values.push(rng.pick('sc'.includes(option) ? ['ab', 'hello', 'x', 'abcdefghijkl', '7'] : numbers));
  }
  if (rng.chance(0.1)) values.pop();
  return [format, ...values].join('|');
}

/** A JSON text for cjson.decode, half of them damaged in one to three places. */
function jsonText(rng: Rng): string {
  let text = rng.pick(JSON_TEXTS);
  if (rng.chance(0.5)) return text;
  for (let n = rng.int(1, 3); n > 0; n--) {
    const at = rng.int(0, text.length);
    const char = JSON_CHARS[rng.int(0, JSON_CHARS.length - 1)];
    const r = rng.next();
    text = r < 0.4 ? text.slice(0, at) + char + text.slice(at) : r < 0.7 ? text.slice(0, at) + char + text.slice(at + 1) : text.slice(0, at) + text.slice(at + 1);
  }
  return text;
}

/** "<format>|<value>" for string.format: flags, a width and a precision of up to two digits, a conversion 5.1 has, and a number or text. */
function formatted(rng: Rng): string {
  let flags = '';
  for (let n = rng.int(0, 2); n > 0; n--) flags += rng.pick(['-', '+', ' ', '#', '0']);
  const width = rng.chance(0.5) ? '' : String(rng.int(0, 24));
  const precision = rng.chance(0.5) ? '' : '.' + (rng.chance(0.2) ? '' : String(rng.int(0, 19)));
  const value = rng.chance(0.8) ? rng.pick(PRINTED) : rng.pick(['abc', 'a"b\\c\nd\re\x00f', 'x'.repeat(120), '-0', '1e999']);
  return `<%${flags}${width}${precision}${rng.pick([...'cdiouxXeEfgGqs'])}>|${value}`;
}

// Pieces of Lua source where 5.1's lexer and grammar and 5.3's differ or are easy to get wrong:
// numerals, escapes, long brackets, comments, 5.3's operators and `goto`, control characters,
// line ends (a call's '(' on a new line), ';' and 'break'.
const SOURCE_PIECES = [
  '1', '08', '.5', '5.', '1e+2', '1e', '0x1F', '0x10p1', '0x1p-2', '0x', '0xg', '1..2', '1_0', '9e999',
  "'a\\.b'", "'\\x41'", "'\\u{41}'", "'\\z'", "'\\065\\0661'", "'\\256'", "'\\q'", '"\\""', "'a", "'a\\\nb'",
  '[[', ']]', '[=[', ']=]', '[=', '[==[x]==]', '--', '--[[', '--[==[', '\n', '\r\n', '\r',
  '//', '<<', '>>', '&', '|', '~', '~=', '::', ':', '..', '...', '+', '-', '*', '/', '%', '^', '#', '==', '<=', '<', '=', ',',
  '(', ')', '{', '}', '[', ']', ';', 'goto', 'break', 'local', 'return', 'nil', 'true', 'not', 'and', 'x', 'x.y', '_G',
  '\x01', '\x7f', '@', '$', '!', '`', '\\', '"', "'",
];

/** Random source for EVAL, which both must read alike: the value, or the compile error's text. */
function randomSource(rng: Rng): string {
  let source = rng.chance(0.5) ? 'return ' : '';
  for (let n = rng.int(1, 6); n > 0; n--) source += rng.pick(SOURCE_PIECES) + (rng.chance(0.5) ? ' ' : '');
  return source;
}

/** Scripts: body, how many keys and arguments it reads, and where its arguments come from. */
const SCRIPTS: readonly (readonly [string, number, number, Pool?])[] = [
  ["return redis.call('set', KEYS[1], ARGV[1])", 1, 1],
  ["return redis.call('get', KEYS[1])", 1, 0],
  ["return redis.call('incr', KEYS[1])", 1, 0],
  ["return redis.pcall('incrby', KEYS[1], ARGV[1])", 1, 1],
  ["return redis.call('incrby', KEYS[1], ARGV[1])", 1, 1],
  ["return {1, 2.5, -3.7, 'x', false, true, nil, 3}", 0, 0],
  ["return {ok='FINE'}", 0, 0],
  ["return redis.error_reply('MY error')", 0, 0],
  ["return {err='ERR custom'}", 0, 0],
  ['return redis.error_reply(ARGV[1])', 0, 1, REPLY_TEXTS],
  ['return redis.status_reply(ARGV[1])', 0, 1, REPLY_TEXTS],
  ['return {err=ARGV[1]}', 0, 1, REPLY_TEXTS],
  ["error(ARGV[1] or 'none')", 0, 1, REPLY_TEXTS],
  ['local e = redis.error_reply(ARGV[1] or 7) return e.err', 0, 1, REPLY_TEXTS],
  ['local v = redis.call(\'get\', KEYS[1])\nif v then return {v, #v} end\nreturn v', 1, 0],
  ["return redis.call('del', unpack(KEYS))", 2, 0],
  ['return {KEYS, ARGV, #KEYS, #ARGV}', 2, 2],
  ["return redis.call('rpush', KEYS[1], unpack(ARGV))", 1, 2],
  ["return redis.call('lrange', KEYS[1], 0, -1)", 1, 0],
  ["return redis.call('hset', KEYS[1], ARGV[1], ARGV[2])", 1, 2],
  ["return redis.call('hgetall', KEYS[1])", 1, 0],
  ["return redis.call('exists', KEYS[1], KEYS[2])", 2, 0],
  ["local r = redis.pcall('rpush', KEYS[1], 'x')\nif type(r) == 'table' and r.err then return 'E:' .. r.err end\nreturn r", 1, 0],
  ["redis.call('set', KEYS[1], ARGV[1])\nreturn redis.call('append', KEYS[1], ARGV[2])", 1, 2],
  ["return redis.call('type', KEYS[1])", 1, 0],
  ["local t = redis.call('type', KEYS[1])\nreturn t.ok", 1, 0],
  ["return redis.call('set', KEYS[1], tonumber(ARGV[1]) or 0)", 1, 1, NUMBERS],
  ['return tonumber(ARGV[1])', 0, 1, NUMBERS],
  ['return tostring((tonumber(ARGV[1]) or 0) / 4)', 0, 1, PRINTED],
  ["local f, v = (ARGV[1] or ''):match('^(.-)|(.*)$')\nreturn string.format(f, tonumber(v) or v)", 0, 1, formatted],
  ["local a = ARGV[1] or ''\nlocal n = tonumber(a) or #a\nreturn {tostring(n * 1000000 + 2147483647), n * 3, #a * 1000000000}", 0, 1, PRINTED],
  ["return 'n:' .. ((tonumber(ARGV[1]) or 0) * 1.5) .. string.format(' %s', tonumber(ARGV[1]) or 0.5)", 0, 1, PRINTED],
  ['return cjson.encode({(tonumber(ARGV[1]) or 0) / 3, tonumber(ARGV[1])})', 0, 1, PRINTED],
  ["return redis.call('incrbyfloat', KEYS[1], ARGV[1])", 1, 1],
  ["return redis.call('expire', KEYS[1], 1000)", 1, 0],
  ["return redis.call('getrange', KEYS[1], 0, 2)", 1, 0],
  ["return redis.call('strlen', KEYS[1]) + 1", 1, 0],
  ["return cjson.encode({ARGV[1], 12, 0.5, true})", 0, 1],
  ['return cjson.decode(ARGV[1])', 0, 1, jsonText],
  [
    "local parts = {}\nfor p in string.gmatch(ARGV[1] or '', '[^|]+') do parts[#parts + 1] = p end\nlocal format = table.remove(parts, 1) or ''\nlocal ok, packed = pcall(struct.pack, format, unpack(parts))\nif not ok then return 'E:' .. packed end\nlocal r = {pcall(struct.unpack, format, packed)}\nr[#r + 1] = packed\nr[#r + 1] = select(2, pcall(struct.size, format))\nreturn r",
    0, 1, structArgs,
  ],
  ["local ok, v = pcall(cjson.decode, ARGV[1] or '')\nif type(v) == 'table' then v = #v elseif v == cjson.null then v = 'null' else v = tostring(v) end\nreturn {tostring(ok), v}", 0, 1, jsonText],
  ["return cmsgpack.pack(ARGV[1], 1, -1, 300, 70000, -40000, 0.5, {1, 'a'})", 0, 1],
  ["return {cmsgpack.unpack(cmsgpack.pack(ARGV[1], {1, 2, {3}}, 255))}", 0, 1],
  ["return {bit.band(tonumber(ARGV[1]) or 0, 255), bit.bxor(7, 3), bit.tohex(65535, 4), bit.lshift(1, 4)}", 0, 1, NUMBERS],
  ["error('boom')", 0, 0],
  ["error({err='ERR raised'})", 0, 0],
  ['x = 1', 0, 0],
  ['return undefined_global', 0, 0],
  ["return redis.call('nosuch')", 0, 0],
  ["return redis.call('get')", 0, 0],
  ["return redis.call('eval', 'return 1', 0)", 0, 0],
  ['return redis.sha1hex(ARGV[1])', 0, 1],
  ['#!lua flags=no-writes\nreturn redis.call(\'get\', KEYS[1])', 1, 0],
  ['#!lua flags=no-writes\nreturn redis.call(\'set\', KEYS[1], \'x\')', 1, 0],
  ['return 1 +', 0, 0],
];

// Every script may run under EVAL_RO: legacy ones run read-only, and the shebang ones are no-writes.
const pickScript = (rng: Rng) => rng.pick(SCRIPTS);

/** Where a script's arguments come from: a list to pick from, or a maker. */
type Pool = readonly string[] | ((rng: Rng) => string);

function callArgs(rng: Rng, keys: number, args: number, pool?: Pool): string[] {
  // Now and then one key or argument fewer or more than the script reads.
  const k = Math.max(0, keys + (rng.chance(0.1) ? rng.int(-1, 1) : 0));
  const a = Math.max(0, args + (rng.chance(0.1) ? rng.int(-1, 1) : 0));
  const arg = () => (typeof pool === 'function' ? pool(rng) : pool !== undefined ? rng.pick(pool) : rng.chance(0.3) ? rng.pick(INTEGERS) : randomValue(rng));
  return [String(k), ...Array.from({ length: k }, () => rng.pick(KEYS)), ...Array.from({ length: a }, arg)];
}

// EVAL script numkeys [key ...] [arg ...]
function evalStep(rng: Rng, name: 'EVAL' | 'EVAL_RO'): Step {
  const [body, keys, args, pool] = pickScript(rng);
  return step(name, body, ...callArgs(rng, keys, args, pool));
}

// EVALSHA sha1 numkeys [key ...] [arg ...]: scripts are known to both sides once EVAL or SCRIPT LOAD saw them.
function evalshaStep(rng: Rng, name: 'EVALSHA' | 'EVALSHA_RO'): Step {
  const [body, keys, args, pool] = pickScript(rng);
  return step(name, rng.chance(0.5) ? sha1(body) : sha1(body).toUpperCase(), ...callArgs(rng, keys, args, pool));
}

/** Libraries of one function each, so FUNCTION LIST has one order; `name` of the library, then code. */
const LIBRARIES: readonly (readonly [string, string])[] = [
  ['lib_set', "#!lua name=lib_set\nredis.register_function('fset', function(keys, args) return redis.call('set', keys[1], args[1]) end)"],
  ['lib_get', "#!lua name=lib_get\nredis.register_function{function_name='fget', callback=function(keys) return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads'}"],
  ['lib_incr', "#!lua name=lib_incr\nredis.register_function('fincr', function(keys, args) return redis.call('incrby', keys[1], args[1] or 1) end)"],
  ['lib_err', "#!lua name=lib_err\nredis.register_function('ferr', function(keys, args) error('fails') end)"],
  ['lib_conv', "#!lua name=lib_conv\nredis.register_function{function_name='fconv', callback=function(keys, args) return {#keys, #args, args[1], false, 1.9} end, flags={'no-writes'}}"],
];
/** Functions FCALL_RO may call: those with the no-writes flag (see the fcall_ro exclusion). */
export const WRITING_FUNCTIONS: ReadonlySet<string> = new Set(['fset', 'fincr', 'ferr']);
const FUNCTIONS = ['fset', 'fget', 'fincr', 'ferr', 'fconv', 'nosuch'];

// FUNCTION LOAD [REPLACE] code
function functionLoad(rng: Rng): Step {
  const [, code] = rng.pick(LIBRARIES);
  if (rng.chance(0.1)) return step('FUNCTION', 'LOAD', code.replace(/name=\w+/, 'name=bad-name'));
  return rng.chance(0.7) ? step('FUNCTION', 'LOAD', 'REPLACE', code) : step('FUNCTION', 'LOAD', code);
}

// FCALL function numkeys [key ...] [arg ...]
function fcall(rng: Rng, name: 'FCALL' | 'FCALL_RO'): Step {
  const fns = name === 'FCALL' ? FUNCTIONS : FUNCTIONS.filter((f) => !WRITING_FUNCTIONS.has(f));
  return step(name, rng.pick(fns), ...callArgs(rng, rng.int(0, 1), rng.int(0, 2), NUMBERS));
}

export const SCRIPTING_GENS: readonly CommandGen[] = [
  { name: 'eval', weight: 20, make: (rng) => evalStep(rng, 'EVAL') },
  { name: 'eval_ro', weight: 6, make: (rng) => evalStep(rng, 'EVAL_RO') },
  { name: 'eval_source', weight: 6, make: (rng) => step('EVAL', randomSource(rng), '0') },
  { name: 'evalsha', weight: 10, make: (rng) => evalshaStep(rng, 'EVALSHA') },
  { name: 'evalsha_ro', weight: 3, make: (rng) => evalshaStep(rng, 'EVALSHA_RO') },
  {
    name: 'script',
    weight: 4,
    make: (rng) => {
      const r = rng.next();
      if (r < 0.4) return step('SCRIPT', 'LOAD', pickScript(rng)[0]);
      if (r < 0.9) return step('SCRIPT', 'EXISTS', ...rng.some(SCRIPTS, rng.int(1, 4)).map(([body]) => sha1(body)));
      return step('SCRIPT', 'FLUSH', ...(rng.chance(0.5) ? [rng.pick(['SYNC', 'ASYNC', 'bogus'])] : []));
    },
  },
  { name: 'function', weight: 4, make: functionLoad },
  { name: 'fcall', weight: 10, make: (rng) => fcall(rng, 'FCALL') },
  { name: 'fcall_ro', weight: 4, make: (rng) => fcall(rng, 'FCALL_RO') },
  {
    name: 'function',
    weight: 2,
    make: (rng) => {
      const r = rng.next();
      if (r < 0.3) return step('FUNCTION', 'DELETE', rng.pick([...LIBRARIES.map(([name]) => name), 'nolib']));
      if (r < 0.6) return step('FUNCTION', 'LIST', 'LIBRARYNAME', rng.pick(LIBRARIES)[0], ...(rng.chance(0.5) ? ['WITHCODE'] : []));
      if (r < 0.9) return step('FUNCTION', 'STATS');
      return step('FUNCTION', 'FLUSH');
    },
  },
  { name: 'set', weight: 3, make: (rng) => step('SET', rng.pick(KEYS), randomValue(rng)) },
  { name: 'get', weight: 2, make: (rng) => step('GET', rng.pick(KEYS)) },
];
