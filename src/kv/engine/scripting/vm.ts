// The Lua VM scripts and functions run in: one fengari state per database, sandboxed as Redis
// sandboxes its own (eval.c, function_lua.c, script_lua.c).
//
// - Globals: scripts see a read-only view of the globals table, and of every library table in
//   it (sandbox.ts). Reading a missing global raises "Script attempted to access nonexistent
//   global variable", changing anything "Attempt to modify a readonly table", as in Redis 7.0.
//   KEYS and ARGV are set for a script's run only, so a function never sees an earlier script's.
// - Libraries: base (without dofile, loadfile and print), table, string, math, coroutine, and
//   cjson, cmsgpack, bit and struct written in TypeScript; what Lua 5.1 has otherwise than 5.3
//   is 5.1's, and what 5.3 added is gone (lua51-library.ts).
// - Errors: every call runs under a message handler that turns the error into Redis's error
//   table {err=..., source=..., line=...}, from which the reply text is built.
// - Time and memory: a count hook checks the clock, and now and then the memory (script-memory.ts,
//   which also refuses a huge string before it is made). Past either limit the run raises an
//   error, and then raises again on every line, so a script catching it with pcall cannot keep
//   running.
//
// Lua 5.3 is not Redis's 5.1, but scripts are read, count and print as in 5.1 (lua.ts).
//
// Not safe for concurrent use: the database's JS thread owns it; a call runs to completion.

import type { LuaState } from 'fengari';
import type { Reply } from '../../reply.js';
import { openBit } from './bit.js';
import { openCjson } from './cjson.js';
import { openCmsgpack } from './cmsgpack.js';
import { pushBytes, toBytes } from './lua-bytes.js';
import fengari from './lua.js';
import { adaptLibraries } from './lua51-library.js';
import { missingGlobal, openRedisApi, type Registrar, type ScriptHost } from './redis-api.js';
import { stringField, toReply } from './reply-conversion.js';
import { pushView, sealLibraries } from './sandbox.js';
import { ScriptMemory } from './script-memory.js';
import { openStruct } from './struct.js';

const { lua, lauxlib, lualib } = fengari;

/** The libraries scripts get besides the base functions, each sealed (see sandbox.ts). */
const LIBRARIES = [
  ['table', lualib.luaopen_table],
  ['string', lualib.luaopen_string],
  ['math', lualib.luaopen_math],
  ['coroutine', lualib.luaopen_coroutine],
  ['cjson', openCjson],
  ['cmsgpack', openCmsgpack],
  ['bit', openBit],
  ['struct', openStruct],
] as const;

/** Instructions between two looks at the clock. */
const HOOK_EVERY = 10_000;
/** Looks at the clock between two samples of the heap (a sample costs tens of microseconds). */
const SAMPLE_EVERY = 10;

/** What a failed call left: Redis's error table, read out. */
export interface LuaFailure {
  readonly err: string;
  readonly source: string | null;
  readonly line: number | null;
}

export type CallResult = { ok: true; reply: Reply } | { ok: false; failure: LuaFailure };

export class LuaVm {
  private readonly L: LuaState;
  private readonly globalsRef: number;
  private readonly handlerRef: number;
  private deadline = Infinity;
  private timeLimitMs = 0;
  private hooks = 0;
  /** Why the run in progress is being stopped: past its time or memory limit. */
  private stopping: string | null = null;
  /** The run's failure when the memory bound refused an allocation (see `refuseAllocation`). */
  private refused: LuaFailure | null = null;
  private readonly memory: ScriptMemory;
  /** Set while a library's code runs for FUNCTION LOAD: `redis` is then the load-time API. */
  private registrar: Registrar | null = null;
  private readonly loadApiRef: number;

  constructor(host: ScriptHost, memoryLimitBytes: number) {
    const L = lauxlib.luaL_newstate();
    this.L = L;
    this.memory = new ScriptMemory(memoryLimitBytes, () => this.refuseAllocation());
    const outside: ScriptHost = { call: (argv) => this.memory.outside(() => host.call(argv)), permits: (argv) => host.permits(argv) };
    for (const [name, open] of [
      ['_G', lualib.luaopen_base],
      ...LIBRARIES,
    ] as const) {
      lauxlib.luaL_requiref(L, name, open, 1);
      lua.lua_pop(L, 1);
    }
    // 5.3 names the function an argument error comes from, when its call does not (pcall(f, ...)),
    // by where package.loaded holds it ("bad argument #1 to 'struct.pack'"); 5.1 says '?'. So it
    // holds nothing once the libraries are open.
    lua.lua_createtable(L, 0, 0);
    lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, '_LOADED');
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
    const g = lua.lua_gettop(L);
    openRedisApi(L, outside, () => this.registrar);
    lua.lua_setfield(L, g, 'redis');
    openRedisApi(L, outside, () => this.registrar, 'load');
    pushView(L, -1);
    this.loadApiRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_pop(L, 1);
    for (const name of ['dofile', 'loadfile', 'print']) {
      lua.lua_pushnil(L);
      lua.lua_setfield(L, g, name);
    }
    adaptLibraries(L, g);
    sealLibraries(L, g, [...LIBRARIES.map(([name]) => name), 'redis']);

    // The view scripts see as their globals.
    lua.lua_pushjsfunction(L, this.readGlobal);
    pushView(L, -1);
    lua.lua_remove(L, -2);
    lua.lua_pushvalue(L, -1);
    lua.lua_setfield(L, g, '_G');
    lua.lua_rawseti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
    this.globalsRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX); // pops the real globals table
    lua.lua_pushjsfunction(L, errorHandler);
    this.handlerRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, HOOK_EVERY);
    // A JS exception in a library function (JSON nested deeper than the JS stack) becomes a
    // Lua error, which the script may catch, rather than a failed request.
    lua.lua_atnativeerror(L, (L) => {
      const e = lua.lua_touserdata(L, -1);
      lua.lua_pushstring(L, e instanceof Error ? e.message : String(e));
      return 1;
    });
  }

  /** Compiles code into a function kept in the registry: its reference, or the compiler's message. */
  compile(code: string, chunkName: string): number | string {
    const L = this.L;
    const bytes = Buffer.from(code, 'latin1');
    if (lauxlib.luaL_loadbuffer(L, bytes, bytes.length, `@${chunkName}`) !== lua.LUA_OK) {
      const message = toBytes(L, -1) ?? '';
      lua.lua_pop(L, 1);
      return message;
    }
    return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  release(ref: number): void {
    lauxlib.luaL_unref(this.L, lua.LUA_REGISTRYINDEX, ref);
  }

  /** Runs a script body with KEYS and ARGV set as globals. */
  runScript(ref: number, keys: readonly string[], args: readonly string[], timeLimitMs: number): CallResult {
    const L = this.L;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
    pushArray(L, keys);
    lua.lua_setfield(L, -2, 'KEYS');
    pushArray(L, args);
    lua.lua_setfield(L, -2, 'ARGV');
    lua.lua_pop(L, 1);
    try {
      return this.call(ref, [], timeLimitMs);
    } finally {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
      lua.lua_pushnil(L);
      lua.lua_setfield(L, -2, 'KEYS');
      lua.lua_pushnil(L);
      lua.lua_setfield(L, -2, 'ARGV');
      lua.lua_pop(L, 1);
    }
  }

  /** Runs a registered function: callback(keys, args). */
  runFunction(ref: number, keys: readonly string[], args: readonly string[], timeLimitMs: number): CallResult {
    return this.call(ref, [keys, args], timeLimitMs);
  }

  /** Runs a library's code with `redis` as the load-time API, which registers through `registrar`. */
  runLibrary(ref: number, registrar: Registrar, timeLimitMs: number): CallResult {
    this.registrar = registrar;
    try {
      return this.call(ref, [], timeLimitMs);
    } finally {
      this.registrar = null;
    }
  }

  private call(ref: number, arrays: (readonly string[])[], timeLimitMs: number): CallResult {
    const L = this.L;
    const base = lua.lua_gettop(L);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.handlerRef);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
    for (const a of arrays) pushArray(L, a);
    this.timeLimitMs = timeLimitMs;
    this.deadline = performance.now() + timeLimitMs;
    try {
      const status = this.memory.meter(() => lua.lua_pcall(L, arrays.length, 1, base + 1));
      if (status === lua.LUA_OK) return { ok: true, reply: toReply(L, -1) };
      return { ok: false, failure: this.refused ?? readFailure(L, lua.lua_gettop(L)) };
    } finally {
      lua.lua_settop(L, base);
      this.deadline = Infinity;
      this.refused = null;
      if (this.stopping !== null) {
        this.stopping = null;
        lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, HOOK_EVERY);
      }
    }
  }

  private readonly hook = (L: LuaState): void => {
    if (this.stopping === null) {
      if (performance.now() > this.deadline) {
        this.stop(L, `Script killed: it ran longer than the time limit of ${this.timeLimitMs} ms (scriptTimeoutMs)`);
      } else if (++this.hooks % SAMPLE_EVERY === 0 && !this.memory.withinLimit()) {
        this.stop(L, this.memory.exceededText());
      } else {
        return;
      }
    }
    lua.lua_pushstring(L, this.stopping!);
    lua.lua_error(L);
  };

  /**
   * Called as the memory bound refuses an allocation, which it then throws as a JS exception.
   * Thrown from the middle of a VM instruction (s .. s), that exception reaches no message
   * handler (fengari has no stack room left to call one), so the failure is recorded here,
   * where the script is, and the run is stopped.
   */
  private refuseAllocation(): void {
    const text = this.memory.exceededText();
    this.refused ??= { err: `ERR ${text}`, ...luaPosition(this.L, 0) };
    this.stop(this.L, text);
  }

  /** Stops the run: from now on every line and instruction raises `reason`, so pcall cannot keep it going. */
  private stop(L: LuaState, reason: string): void {
    this.stopping = reason;
    lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT | lua.LUA_MASKLINE, 1);
  }

  /** __index of the globals proxy: (proxy, name). */
  private readonly readGlobal = (L: LuaState): number => {
    if (this.registrar !== null && toBytes(L, 2) === 'redis' && lua.lua_type(L, 2) === lua.LUA_TSTRING) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.loadApiRef);
      return 1;
    }
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
    lua.lua_pushvalue(L, 2);
    if (lua.lua_rawget(L, -2) !== lua.LUA_TNIL) return 1;
    return missingGlobal(L);
  };
}

function pushArray(L: LuaState, items: readonly string[]): void {
  lua.lua_createtable(L, items.length, 0);
  for (let i = 0; i < items.length; i++) {
    pushBytes(L, items[i]);
    lua.lua_rawseti(L, -2, i + 1);
  }
}

/**
 * Redis's error handler: a table error is kept, anything else becomes {err='ERR '..tostring(e)};
 * either gets the source and line of the Lua code that raised it (skipping a C function such
 * as error() or redis.call, and a read-only view's __newindex that such a function, as
 * table.insert, ran).
 */
function errorHandler(L: LuaState): number {
  if (lua.lua_type(L, 1) !== lua.LUA_TTABLE) {
    const text = toBytes(L, 1) ?? String(Buffer.from(lauxlib.luaL_tolstring(L, 1)).toString('latin1'));
    lua.lua_settop(L, 0);
    lua.lua_createtable(L, 0, 3);
    pushBytes(L, `ERR ${text}`);
    lua.lua_setfield(L, 1, 'err');
  }
  const { source, line } = luaPosition(L, 1);
  if (source !== null && line !== null) {
    pushBytes(L, source);
    lua.lua_setfield(L, 1, 'source');
    lua.lua_pushinteger(L, line);
    lua.lua_setfield(L, 1, 'line');
  }
  lua.lua_settop(L, 1);
  return 1;
}

/** Where the Lua code running at stack level `from` is, or the one that called the JS functions running there. */
function luaPosition(L: LuaState, from: number): Pick<LuaFailure, 'source' | 'line'> {
  const ar = new lua.lua_Debug();
  for (let level = from; level <= from + 2 && lua.lua_getstack(L, level, ar) !== 0; level++) {
    lua.lua_getinfo(L, 'Sl', ar);
    if (ar.what !== null && Buffer.from(ar.what).toString('latin1') === 'J') continue; // fengari's "C": a JS function
    return { source: ar.source === null ? '?' : Buffer.from(ar.source).toString('latin1'), line: ar.currentline };
  }
  return { source: null, line: null };
}

function readFailure(L: LuaState, idx: number): LuaFailure {
  if (lua.lua_type(L, idx) !== lua.LUA_TTABLE) return { err: `ERR ${toBytes(L, idx) ?? 'unknown error'}`, source: null, line: null };
  const source = stringField(L, idx, 'source');
  lua.lua_pushstring(L, 'line');
  lua.lua_rawget(L, idx);
  const line = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -1) : null;
  lua.lua_pop(L, 1);
  return { err: stringField(L, idx, 'err') ?? 'ERR unknown error', source, line };
}
