// fengari (Lua 5.3 in JavaScript), loaded to count and print numbers as Redis's Lua 5.1 does.
//
// - Every number is a double: 5.3 makes numerals, tonumber() and library results 32-bit
//   integers in fengari, whose arithmetic wraps (1795765696 * 1000, a time in ms, came out as
//   469366272). Strings are read as 5.1 reads them (luaO_str2d: C's strtod up to the first NUL,
//   then only spaces: "inf", "nan", hex floats, a hex integer whole, "-0" as -0) and the API
//   pushes floats where 5.3 pushes integers, so arithmetic runs in doubles as in 5.1. Only the
//   length operator (#) still makes an integer, which turns float as soon as it meets a numeral.
// - Numbers print with "%.14g" as glibc prints it (format-g.ts), without 5.3's ".0" on integral
//   floats: tostring(10/2) is "5", 2^53 "9.007199254741e+15", 1/0 "inf", in tostring,
//   concatenation and string.format's %s alike.
// - A type error names the value as 5.1 does, before its type: "attempt to index field 'x' (a
//   nil value)" where 5.3 says "attempt to index a nil value (field 'x')"; a constant, which
//   5.1 does not name, goes unnamed.
// - Scripts are read by Lua 5.1's lexer (lua51-lexer.ts): its tokens, escapes, numerals and
//   error texts; and parsed by 5.1's grammar where 5.3 widened it, which patches/ changes in
//   fengari's parser (its functions are internal): no ';' alone, a statement is a call or an
//   assignment, 'break' ends its block and needs a loop, a call's '(' stays on its line. The
//   patch also fills a constructor's list in ascending order (fengari's tables iterate in the
//   order keys were set, so pairs walked {'a', 'b', 'c'} from 3), makes % and # 5.1's
//   (a - floor(a/b)*b; no __len for tables) and string matching 5.1's (a '%' in a gsub
//   replacement, an empty match where the last ended, no %g, a start past the end, 5.1's
//   error texts).
//
// fengari's modules take these functions and settings from each other as they load, so they are
// set on its core modules before its API and libraries are required; every other module takes
// fengari from here (a dependency rule, .dependency-cruiser.cjs, keeps it so).

import { createRequire } from 'node:module';
import type Fengari from 'fengari';
import { onlySpacesFrom, strtod } from '../../../text/strtod.js';
import { formatG } from './format-g.js';
import { useLua51Lexer, type FengariLexer, type FengariParts } from './lua51-lexer.js';

/** The value slot fengari keeps numbers in (lobject.js's TValue). */
interface TValue {
  setfltvalue(n: number): void;
}

const require = createRequire(import.meta.url);
// fengari's core modules, in the order fengari loads them: defs.js and luaconf.js require each
// other; lobject.js reads luaconf's settings as it loads, so they are set before the API,
// which loads the rest in the order they need.
const defs = require('fengari/src/defs.js') as Pick<FengariParts, 'to_luastring'> & { thread_status: { LUA_ERRSYNTAX: number } };
const luaconf = require('fengari/src/luaconf.js') as { LUA_COMPAT_FLOATSTRING: boolean; lua_number2str(n: number): string };
luaconf.LUA_COMPAT_FLOATSTRING = true;
luaconf.lua_number2str = (n) => formatG(n, 14);
const lapi = require('fengari/src/lapi.js') as { lua_pushinteger: unknown; lua_pushnumber: unknown };
const lobject = require('fengari/src/lobject.js') as Pick<FengariParts, 'luaO_pushfstring'> & {
  luaO_str2num(s: Uint8Array, o: TValue): number;
  luaO_pushvfstring(L: unknown, fmt: Uint8Array, argp: unknown[]): Uint8Array;
};

// The API and the VM call luaO_str2num and luaO_pushvfstring through their module, so they are
// replaced in place; the libraries bind lua_pushinteger when they load, after this. A string
// that reads as a number answers its length + 1, as fengari's callers check it was read whole.
lobject.luaO_str2num = (s, o) => {
  const nul = s.indexOf(0);
  const text = Buffer.from(s.buffer, s.byteOffset, nul === -1 ? s.length : nul).toString('latin1');
  const read = strtod(text);
  if (read.end === 0 || !onlySpacesFrom(text, read.end)) return 0;
  o.setfltvalue(read.value);
  return s.length + 1;
};
lapi.lua_pushinteger = lapi.lua_pushnumber;

// An integer argument takes any number, truncated, as 5.1's does (string.sub(s, 1.5) is
// string.sub(s, 1)) where 5.3 refuses a fraction; past fengari's 32 bits it is clamped
// (string.sub(s, 1, 1e10) still reads to the end). The libraries bind these as they load.
const lauxlib = require('fengari/src/lauxlib.js') as {
  luaL_checknumber(L: unknown, arg: number): number;
  luaL_checkinteger(L: unknown, arg: number): number;
  luaL_optinteger(L: unknown, arg: number, def: number): number;
};
const isNoneOrNil = (L: unknown, arg: number) => (lapi as unknown as { lua_type(L: unknown, arg: number): number }).lua_type(L, arg) <= 0;
lauxlib.luaL_checkinteger = (L, arg) => int32(lauxlib.luaL_checknumber(L, arg));
lauxlib.luaL_optinteger = (L, arg, def) => (isNoneOrNil(L, arg) ? def : lauxlib.luaL_checkinteger(L, arg));

/** A number as a 32-bit integer: truncated, clamped, and a NaN the lowest (C's cast gives LLONG_MIN). */
function int32(n: number): number {
  if (Number.isNaN(n)) return -0x80000000;
  return Math.max(-0x80000000, Math.min(0x7fffffff, Math.trunc(n)));
}

// ldebug.js raises every type error with this format (cached, so the same array each time),
// the value's kind and name last, as " (field 'x')".
const TYPE_ERROR = defs.to_luastring('attempt to %s a %s value%s', true);
const NAMED_TYPE_ERROR = defs.to_luastring("attempt to %s %s '%s' (a %s value)");
const UNNAMED_TYPE_ERROR = defs.to_luastring('attempt to %s a %s value');
const pushvfstring = lobject.luaO_pushvfstring;
lobject.luaO_pushvfstring = (L, fmt, argp) => {
  if (fmt !== TYPE_ERROR) return pushvfstring(L, fmt, argp);
  const [op, type, named] = argp as Uint8Array[];
  const space = named.indexOf(0x20, 2);
  const kind = space === -1 ? '' : Buffer.from(named.subarray(2, space)).toString('latin1');
  if (kind === '' || kind === 'constant') return pushvfstring(L, UNNAMED_TYPE_ERROR, [op, type]);
  return pushvfstring(L, NAMED_TYPE_ERROR, [op, named.subarray(2, space), named.subarray(space + 2, -2), type]);
};

// Scripts are read by Lua 5.1's lexer; the parser calls the lexer through its module's exports.
useLua51Lexer(require('fengari/src/llex.js') as FengariLexer, {
  to_luastring: defs.to_luastring,
  luaO_pushfstring: lobject.luaO_pushfstring,
  luaG_addinfo: (require('fengari/src/ldebug.js') as Pick<FengariParts, 'luaG_addinfo'>).luaG_addinfo,
  luaD_throw: (require('fengari/src/ldo.js') as Pick<FengariParts, 'luaD_throw'>).luaD_throw,
  luaZ_resizebuffer: (require('fengari/src/lzio.js') as Pick<FengariParts, 'luaZ_resizebuffer'>).luaZ_resizebuffer,
  LUA_ERRSYNTAX: defs.thread_status.LUA_ERRSYNTAX,
});

const fengari = require('fengari') as typeof Fengari;
export default fengari;
