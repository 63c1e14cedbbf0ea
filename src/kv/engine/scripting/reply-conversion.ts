// Redis's conversion rules between command replies and Lua values (script_lua.c), both ways.
//
// Reply -> Lua: integer -> number, bulk -> string, nil (and the null array) -> false,
// array -> table, status -> {ok=text}, error -> {err=text}.
// Lua -> reply: number -> integer (truncated), string -> bulk, true -> 1, false and nil -> nil,
// {err=...} -> error, {ok=...} -> status, any other table -> an array up to its first nil.
// An error or a status stays on one line, as Redis writes it (line ends made spaces).

import type { LuaState } from 'fengari';
import { ReplyError } from '../../errors.js';
import { Status, type Reply } from '../../reply.js';
import { errorLine, LINE_ENDS } from './error-line.js';
import { formatG } from './format-g.js';
import { pushBytes, toBytes } from './lua-bytes.js';
import fengari from './lua.js';

const { lua } = fengari;

export function pushReply(L: LuaState, reply: Reply): void {
  if (!lua.lua_checkstack(L, 3)) throw new Error('reply nested too deeply for the Lua stack');
  if (reply === null) lua.lua_pushboolean(L, false);
  else if (typeof reply === 'number') lua.lua_pushnumber(L, reply);
  else if (typeof reply === 'bigint') lua.lua_pushnumber(L, Number(reply));
  else if (typeof reply === 'string') pushBytes(L, reply);
  else if (reply instanceof Status) pushSingleField(L, 'ok', reply.text);
  else if (reply instanceof ReplyError) pushSingleField(L, 'err', reply.text);
  else if (reply.length === 0 && Object.isFrozen(reply)) lua.lua_pushboolean(L, false); // NULL_ARRAY
  else {
    lua.lua_createtable(L, reply.length, 0);
    for (let i = 0; i < reply.length; i++) {
      pushReply(L, reply[i]);
      lua.lua_rawseti(L, -2, i + 1);
    }
  }
}

/** A table with one string field: {ok=text} or {err=text}. */
export function pushSingleField(L: LuaState, field: 'ok' | 'err', text: string): void {
  lua.lua_createtable(L, 0, 1);
  pushBytes(L, text);
  lua.lua_setfield(L, -2, field);
}

/** Tables nested deeper than this (a table holding itself) end in Redis's error instead. */
const MAX_DEPTH = 1000;
const STACK_LIMIT = new ReplyError('ERR reached lua stack limit');

/** The Lua value at idx as a reply. */
export function toReply(L: LuaState, idx: number, depth = 0): Reply {
  switch (lua.lua_type(L, idx)) {
    case lua.LUA_TSTRING:
      return toBytes(L, idx);
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, idx) ? 1 : null;
    case lua.LUA_TNUMBER:
      return toInteger(lua.lua_tonumber(L, idx));
    case lua.LUA_TTABLE:
      if (depth >= MAX_DEPTH || !lua.lua_checkstack(L, 3)) return STACK_LIMIT;
      return tableToReply(L, lua.lua_absindex(L, idx), depth);
    default:
      return null;
  }
}

const INT64_MIN = -(2n ** 63n);

/** C's (long long) cast of a double, as Redis converts a Lua number, on x86: out of range is INT64_MIN. */
function toInteger(n: number): number | bigint {
  const t = Math.trunc(n);
  if (Number.isSafeInteger(t)) return t;
  if (!Number.isFinite(t) || t >= 2 ** 63 || t < -(2 ** 63)) return INT64_MIN;
  return BigInt(t);
}

function tableToReply(L: LuaState, t: number, depth: number): Reply {
  const err = stringField(L, t, 'err');
  if (err !== null) return new ReplyError(errorLine(err));
  const ok = stringField(L, t, 'ok');
  if (ok !== null) return new Status(ok.replace(LINE_ENDS, ' '));
  const out: Reply[] = [];
  for (let i = 1; ; i++) {
    if (lua.lua_rawgeti(L, t, i) === lua.LUA_TNIL) break;
    out.push(toReply(L, -1, depth + 1));
    lua.lua_pop(L, 1);
  }
  lua.lua_pop(L, 1);
  return out;
}


/** t[name] when it is a string, else null. */
export function stringField(L: LuaState, t: number, name: string): string | null {
  lua.lua_pushstring(L, name);
  const type = lua.lua_rawget(L, t);
  const value = type === lua.LUA_TSTRING ? toBytes(L, -1) : null;
  lua.lua_pop(L, 1);
  return value;
}

/**
 * A redis.call argument as bytes: strings as they are, numbers as C's "%.17g" (Redis 7.0
 * formats them so: 3.5 -> "3.5", 0.1 -> "0.10000000000000001"); null for any other type.
 */
export function argToBytes(L: LuaState, idx: number): string | null {
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TSTRING) return toBytes(L, idx);
  if (type !== lua.LUA_TNUMBER) return null;
  return formatG(lua.lua_tonumber(L, idx), 17);
}
