// Byte strings (latin1 JS strings, see kv/bytes.ts) in and out of the Lua VM, whose strings are
// Uint8Arrays. A JS string handed to fengari would be taken as UTF-8, so every value crosses
// through these two functions.

import type { LuaState } from 'fengari';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

export function pushBytes(L: LuaState, bytes: string): void {
  // Made as a Uint8Array rather than a Buffer, so a script's memory bound counts it (script-memory.ts).
  const s = new Uint8Array(bytes.length);
  Buffer.from(s.buffer, s.byteOffset, s.length).write(bytes, 'latin1');
  lua.lua_pushstring(L, s);
}

/** The string (or number, converted as Lua does) at idx as bytes; null for other types. */
export function toBytes(L: LuaState, idx: number): string | null {
  const s = lua.lua_tolstring(L, idx);
  return s === null ? null : Buffer.from(s.buffer, s.byteOffset, s.length).toString('latin1');
}

/** Raises `text` as the script's error, after where the script is (luaL_error), taken as is: no format. */
export function raiseError(L: LuaState, text: string): never {
  return lauxlib.luaL_error(L, '%s', text);
}
