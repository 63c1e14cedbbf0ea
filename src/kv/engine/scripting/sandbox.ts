// The read-only world scripts and functions run in, as Redis 7.0's (script_lua.c
// luaSetTableProtectionRecursively): a script may change its own locals and tables, nothing
// else, so no script can change what a later one runs, whoever runs it.
//
// Redis patches Lua with a read-only flag on tables; fengari has none, so scripts see views
// instead: an empty table whose metatable reads through to the real table (__index), refuses
// every assignment (__newindex) and hides itself (__metatable). A view stays empty, so every
// assignment reaches __newindex; the functions that write around metamethods refuse views
// (rawset and setmetatable here, and table.insert, which sets raw as 5.1's does, by refuseView;
// table.remove removes nothing from an empty table). No script can reach a real table: the
// globals, every library, `redis`, and the string metatable (its __index is the `string` view,
// so ("x"):upper() still works) are all seen through views.
//
// load and loadstring take text only, as in Redis 7.0. Texts are Redis 7.0's: an assignment in
// Lua code names its position ("user_script:1: Attempt to modify a readonly table"), one
// refused inside rawset, setmetatable or table.insert does not.
//
// Not safe for concurrent use: like the VM, touched by the database's JS thread only.

import type { LuaState } from 'fengari';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

const READONLY = 'Attempt to modify a readonly table';

/** Every view, by fengari's table object. Objects of any state may sit here: each is one state's. */
const VIEWS = new WeakSet<object>();

/**
 * Pushes a read-only view of the value at idx: a table, or (for the globals) an __index
 * function that answers reads. getmetatable(view) gives a view of its metatable, a table as in
 * Redis; that one's own metatable is hidden behind `false`.
 */
export function pushView(L: LuaState, idx: number): void {
  const real = lua.lua_absindex(L, idx);
  pushViewOf(L, real);
  lua.lua_getmetatable(L, -1);
  pushViewOf(L, lua.lua_gettop(L));
  lua.lua_setfield(L, -2, '__metatable');
  lua.lua_pop(L, 1);
}

function pushViewOf(L: LuaState, real: number): void {
  lua.lua_createtable(L, 0, 0);
  lua.lua_createtable(L, 0, 4);
  lua.lua_pushvalue(L, real);
  lua.lua_setfield(L, -2, '__index');
  lua.lua_pushjsfunction(L, refuseAssignment);
  lua.lua_setfield(L, -2, '__newindex');
  lua.lua_pushjsfunction(L, pairsOfView);
  lua.lua_setfield(L, -2, '__pairs');
  lua.lua_pushboolean(L, false);
  lua.lua_setfield(L, -2, '__metatable');
  lua.lua_setmetatable(L, -2);
  VIEWS.add(lua.lua_topointer(L, -1)!);
}

/**
 * Seals the globals table at g: each named library becomes its view, the string metatable is
 * sealed, and rawset and setmetatable refuse views. Run once, after every library is complete.
 */
export function sealLibraries(L: LuaState, g: number, libraries: readonly string[]): void {
  for (const name of libraries) {
    lua.lua_pushstring(L, name);
    lua.lua_rawget(L, g);
    pushView(L, -1);
    lua.lua_setfield(L, g, name);
    lua.lua_pop(L, 1);
  }
  lua.lua_pushstring(L, '');
  lua.lua_getmetatable(L, -1);
  lua.lua_pushstring(L, 'string');
  lua.lua_rawget(L, g);
  lua.lua_setfield(L, -2, '__index');
  pushView(L, -1);
  lua.lua_setfield(L, -2, '__metatable');
  lua.lua_pop(L, 2);
  for (const name of ['rawset', 'setmetatable']) {
    lua.lua_pushstring(L, name);
    lua.lua_rawget(L, g);
    lua.lua_pushjsclosure(L, refuseViews, 1);
    lua.lua_setfield(L, g, name);
  }
  lua.lua_pushstring(L, 'load');
  lua.lua_rawget(L, g);
  lua.lua_pushjsclosure(L, loadText, 1);
  lua.lua_pushvalue(L, -1);
  lua.lua_setfield(L, g, 'load');
  lua.lua_setfield(L, g, 'loadstring');
}

/**
 * load and loadstring (upvalue 1: Lua's load) with the mode forced to text: a binary chunk
 * gives nil and a message, as Redis 7.0 refuses them too. Crafted bytecode is not checked by
 * the VM, so it could read what the sandbox hides.
 */
function loadText(L: LuaState): number {
  const n = Math.max(lua.lua_gettop(L), 3); // an env argument stays as given: present or not
  lua.lua_settop(L, n);
  lua.lua_pushstring(L, 't');
  lua.lua_replace(L, 3);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, n, lua.LUA_MULTRET);
  return lua.lua_gettop(L);
}

/** __newindex of a view. */
function refuseAssignment(L: LuaState): number {
  return lauxlib.luaL_error(L, READONLY);
}

/**
 * Calls the wrapped function (upvalue 1) unless its first argument is a view. Both take a table
 * first: checked here, so a bad one is reported as the script's call (from the wrapped function
 * it would be '?', with no line).
 */
function refuseViews(L: LuaState): number {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  refuseView(L, 1);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, lua.lua_gettop(L) - 1, lua.LUA_MULTRET);
  return lua.lua_gettop(L);
}

/** Raises Redis's error, with no position, when the table at idx is a view: for functions that write around metamethods. */
export function refuseView(L: LuaState, idx: number): void {
  const target = lua.lua_topointer(L, idx);
  if (target === null || !VIEWS.has(target)) return;
  lua.lua_pushstring(L, READONLY);
  lua.lua_error(L);
}

/** __pairs of a view: walks the real table without handing it out (the globals' view walks nothing). */
function pairsOfView(L: LuaState): number {
  lua.lua_pushjsfunction(L, nextInView);
  lua.lua_pushvalue(L, 1);
  lua.lua_pushnil(L);
  return 3;
}

/** next(view, key) on the view's real table. */
function nextInView(L: LuaState): number {
  lua.lua_settop(L, 2);
  lua.lua_getmetatable(L, 1);
  lua.lua_pushstring(L, '__index');
  lua.lua_rawget(L, 3);
  if (lua.lua_type(L, 4) !== lua.LUA_TTABLE) return 0;
  lua.lua_pushvalue(L, 2);
  return lua.lua_next(L, 4) !== 0 ? 2 : 0;
}
