// lua-cjson's settings (lua_cjson.c json_cfg_*), each a function of the cjson table that answers
// the setting and, given a value, changes it first: cjson.encode_max_depth(5). A cjson table
// keeps its own (cjson.new makes a table with the defaults); as in Redis, what a script sets
// stays for the scripts after it, since they share the table.

import type { JsFunction, LuaState } from 'fengari';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

/** What encode_invalid_numbers may be: refuse NaN and Inf, write them as JavaScript does, or as null. */
const INVALID_NUMBERS = ['off', 'on', 'null'] as const;

export interface CjsonSettings {
  /** An excessively sparse array: encoded as an object (true) or refused. */
  encodeSparseConvert: boolean;
  /** Sparse when its largest index is over ratio times its items (0: never) and over `safe`. */
  encodeSparseRatio: number;
  encodeSparseSafe: number;
  encodeMaxDepth: number;
  decodeMaxDepth: number;
  /** Significant digits of an encoded number, 1 to 14. */
  encodeNumberPrecision: number;
  /** Whether encode keeps its buffer between calls: nothing Larder does differs by it. */
  encodeKeepBuffer: boolean;
  encodeInvalidNumbers: (typeof INVALID_NUMBERS)[number];
  /** Whether decode reads what JSON does not allow: hex, Inf, NaN, a leading '+' or zeros. */
  decodeInvalidNumbers: boolean;
}

/** lua-cjson's defaults, as Redis builds it. */
export function defaultSettings(): CjsonSettings {
  return {
    encodeSparseConvert: false,
    encodeSparseRatio: 2,
    encodeSparseSafe: 10,
    encodeMaxDepth: 1000,
    decodeMaxDepth: 1000,
    encodeNumberPrecision: 14,
    encodeKeepBuffer: true,
    encodeInvalidNumbers: 'off',
    decodeInvalidNumbers: true,
  };
}


/** The settings functions of a cjson table, by name, over `s`. */
export function settingsFunctions(s: CjsonSettings): Record<string, JsFunction> {
  return {
    encode_sparse_array: (L) => {
      takeArguments(L, 3);
      s.encodeSparseConvert = booleanOption(L, 1, s.encodeSparseConvert);
      s.encodeSparseRatio = integerOption(L, 2, s.encodeSparseRatio, 0);
      s.encodeSparseSafe = integerOption(L, 3, s.encodeSparseSafe, 0);
      return 3;
    },
    encode_max_depth: integerSetting(s, 'encodeMaxDepth'),
    decode_max_depth: integerSetting(s, 'decodeMaxDepth'),
    encode_number_precision: integerSetting(s, 'encodeNumberPrecision', 14),
    encode_keep_buffer: (L) => {
      takeArguments(L, 1);
      s.encodeKeepBuffer = booleanOption(L, 1, s.encodeKeepBuffer);
      return 1;
    },
    encode_invalid_numbers: (L) => {
      takeArguments(L, 1);
      if (lua.lua_type(L, 1) === lua.LUA_TBOOLEAN) s.encodeInvalidNumbers = lua.lua_toboolean(L, 1) ? 'on' : 'off';
      else if (!lua.lua_isnoneornil(L, 1)) s.encodeInvalidNumbers = INVALID_NUMBERS[checkOption(L, 1, INVALID_NUMBERS)];
      if (s.encodeInvalidNumbers === 'null') lua.lua_pushstring(L, 'null');
      else lua.lua_pushboolean(L, s.encodeInvalidNumbers === 'on');
      return 1;
    },
    decode_invalid_numbers: (L) => {
      takeArguments(L, 1);
      s.decodeInvalidNumbers = booleanOption(L, 1, s.decodeInvalidNumbers);
      return 1;
    },
  };
}

/** json_arg_init: at most `count` arguments, padded with nils to that many. */
function takeArguments(L: LuaState, count: number): void {
  if (lua.lua_gettop(L) > count) lauxlib.luaL_argerror(L, count + 1, 'found too many arguments');
  lua.lua_settop(L, count);
}

/** The function of an integer setting from 1 to `max`. */
function integerSetting(s: CjsonSettings, key: 'encodeMaxDepth' | 'decodeMaxDepth' | 'encodeNumberPrecision', max = 0x7fffffff): JsFunction {
  return (L) => {
    takeArguments(L, 1);
    s[key] = integerOption(L, 1, s[key], 1, max);
    return 1;
  };
}

/**
 * json_integer_option: the argument, checked to lie in [min, max] (the error names argument 1
 * whichever it is, as lua-cjson's does), or `current` for nil; pushes the result.
 */
function integerOption(L: LuaState, arg: number, current: number, min: number, max = 0x7fffffff): number {
  let value = current;
  if (!lua.lua_isnoneornil(L, arg)) {
    value = lauxlib.luaL_checkinteger(L, arg);
    if (value < min || value > max) lauxlib.luaL_argerror(L, 1, `expected integer between ${min} and ${max}`);
  }
  lua.lua_pushnumber(L, value);
  return value;
}

/** json_enum_option of a boolean: true or false, or "on" or "off"; nil keeps `current`. Pushes the result. */
function booleanOption(L: LuaState, arg: number, current: boolean): boolean {
  let value = current;
  if (lua.lua_type(L, arg) === lua.LUA_TBOOLEAN) value = lua.lua_toboolean(L, arg);
  else if (!lua.lua_isnoneornil(L, arg)) value = checkOption(L, arg, ['off', 'on']) === 1;
  lua.lua_pushboolean(L, value);
  return value;
}

/** luaL_checkoption with no default: the index of the argument among `options`, or its error. */
function checkOption(L: LuaState, arg: number, options: readonly string[]): number {
  const name = Buffer.from(lauxlib.luaL_checklstring(L, arg)).toString('latin1');
  const index = options.indexOf(name);
  if (index === -1) lauxlib.luaL_argerror(L, arg, `invalid option '${name}'`);
  return index;
}
