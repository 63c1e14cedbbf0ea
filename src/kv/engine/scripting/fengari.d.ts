// The parts of fengari (Lua 5.3 in JavaScript) that Larder's scripting uses. fengari ships no
// types; these follow its src/lua.js, lauxlib.js and lualib.js, which mirror the C API.
// Lua strings are byte arrays (Uint8Array); a JS string passed in is taken as UTF-8.

declare module 'fengari' {
  export type LuaState = { readonly __luaState: unique symbol };
  export type LuaString = Uint8Array;
  export type JsFunction = (L: LuaState) => number;
  export type Hook = (L: LuaState, ar: LuaDebug) => void;

  export class LuaDebug {
    what: LuaString | null;
    source: LuaString | null;
    currentline: number;
  }

  export interface Lua {
    readonly LUA_OK: number;
    readonly LUA_MULTRET: number;
    readonly LUA_REGISTRYINDEX: number;
    readonly LUA_RIDX_GLOBALS: number;
    readonly LUA_TNONE: number;
    readonly LUA_TNIL: number;
    readonly LUA_TBOOLEAN: number;
    readonly LUA_TLIGHTUSERDATA: number;
    readonly LUA_TNUMBER: number;
    readonly LUA_TSTRING: number;
    readonly LUA_TTABLE: number;
    readonly LUA_TFUNCTION: number;
    readonly LUA_MASKCOUNT: number;
    readonly LUA_MASKLINE: number;
    lua_Debug: typeof LuaDebug;
    lua_atnativeerror(L: LuaState, f: JsFunction): void;
    lua_absindex(L: LuaState, idx: number): number;
    lua_checkstack(L: LuaState, n: number): boolean;
    lua_call(L: LuaState, nargs: number, nresults: number): void;
    lua_createtable(L: LuaState, narr: number, nrec: number): void;
    lua_error(L: LuaState): never;
    lua_getmetatable(L: LuaState, idx: number): boolean;
    lua_getinfo(L: LuaState, what: string, ar: LuaDebug): number;
    lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
    lua_gettop(L: LuaState): number;
    lua_insert(L: LuaState, idx: number): void;
    lua_isnoneornil(L: LuaState, idx: number): boolean;
    lua_isinteger(L: LuaState, idx: number): boolean;
    lua_isnumber(L: LuaState, idx: number): boolean;
    /** Pushes the running thread; whether it is the main one. */
    lua_pushthread(L: LuaState): boolean;
    lua_next(L: LuaState, idx: number): number;
    lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
    lua_pop(L: LuaState, n: number): void;
    lua_pushboolean(L: LuaState, b: boolean): void;
    lua_pushinteger(L: LuaState, n: number): void;
    lua_pushjsclosure(L: LuaState, f: JsFunction, n: number): void;
    lua_pushjsfunction(L: LuaState, f: JsFunction): void;
    lua_pushlightuserdata(L: LuaState, p: object | null): void;
    lua_pushnil(L: LuaState): void;
    lua_pushnumber(L: LuaState, n: number): void;
    lua_pushstring(L: LuaState, s: LuaString | string): LuaString;
    lua_pushvalue(L: LuaState, idx: number): void;
    lua_rawequal(L: LuaState, a: number, b: number): boolean;
    lua_rawget(L: LuaState, idx: number): number;
    lua_rawgeti(L: LuaState, idx: number, n: number): number;
    lua_rawlen(L: LuaState, idx: number): number;
    lua_rawset(L: LuaState, idx: number): void;
    lua_rawseti(L: LuaState, idx: number, n: number): void;
    lua_remove(L: LuaState, idx: number): void;
    lua_replace(L: LuaState, idx: number): void;
    lua_setfield(L: LuaState, idx: number, k: string): void;
    lua_getfield(L: LuaState, idx: number, k: string): number;
    lua_setmetatable(L: LuaState, idx: number): void;
    lua_sethook(L: LuaState, f: Hook | null, mask: number, count: number): void;
    lua_settop(L: LuaState, idx: number): void;
    lua_toboolean(L: LuaState, idx: number): boolean;
    lua_tolstring(L: LuaState, idx: number): LuaString | null;
    lua_tonumber(L: LuaState, idx: number): number;
    /** The table (or function, ...) object itself: fengari's identity for the value. */
    lua_topointer(L: LuaState, idx: number): object | null;
    lua_touserdata(L: LuaState, idx: number): unknown;
    lua_type(L: LuaState, idx: number): number;
    lua_upvalueindex(n: number): number;
  }

  export interface Lauxlib {
    luaL_newstate(): LuaState;
    luaL_loadbuffer(L: LuaState, s: LuaString, sz: number, name: string): number;
    luaL_ref(L: LuaState, t: number): number;
    luaL_unref(L: LuaState, t: number, ref: number): void;
    luaL_requiref(L: LuaState, name: string, f: JsFunction, glb: number): void;
    /** Sets each function of `l` in the table on top, under its name (with `nup` upvalues). */
    luaL_setfuncs(L: LuaState, l: Readonly<Record<string, JsFunction>>, nup: number): void;
    luaL_tolstring(L: LuaState, idx: number): LuaString;
    luaL_checklstring(L: LuaState, arg: number): LuaString;
    luaL_checkinteger(L: LuaState, arg: number): number;
    luaL_optinteger(L: LuaState, arg: number, def: number): number;
    luaL_checknumber(L: LuaState, arg: number): number;
    luaL_checktype(L: LuaState, arg: number, type: number): void;
    luaL_argerror(L: LuaState, arg: number, message: string): never;
    luaL_error(L: LuaState, fmt: string, ...args: unknown[]): never;
    luaL_typename(L: LuaState, idx: number): LuaString;
  }

  export interface Lualib {
    luaopen_base: JsFunction;
    luaopen_table: JsFunction;
    luaopen_string: JsFunction;
    luaopen_math: JsFunction;
    luaopen_coroutine: JsFunction;
  }

  const fengari: { lua: Lua; lauxlib: Lauxlib; lualib: Lualib };
  export default fengari;
}
