// The `redis` table scripts call (Redis script_lua.c, function_lua.c): redis.call and pcall
// run commands through the database's admission, the rest are helpers. Error texts are
// Redis 7.0's. A library being loaded by FUNCTION LOAD sees the load-time table instead,
// which registers functions and cannot run commands.

import { createHash } from 'node:crypto';
import type { LuaState } from 'fengari';
import type { Reply } from '../../reply.js';
import { ReplyError } from '../../errors.js';
import { REDIS_VERSION, REDIS_VERSION_NUM } from '../../redis-version.js';
import { toBytes } from './lua-bytes.js';
import fengari from './lua.js';
import { argToBytes, pushReply, pushSingleField } from './reply-conversion.js';

const { lua, lauxlib } = fengari;

/** Where redis.call sends its commands. */
export interface ScriptHost {
  /** Runs one command as the script's caller would, with the script's restrictions. */
  call(argv: string[]): Reply;
  /** Whether the script's caller may run the command (redis.acl_check_cmd); null for no such command. */
  permits(argv: string[]): boolean | null;
}

/** What a library being loaded registers its functions with. */
export interface Registrar {
  /** Takes a function (a registry reference to it); returns why it cannot be registered, or null. */
  register(name: string, ref: number, flags: readonly string[], description: string | null): string | null;
}

const LOG_LEVELS = { LOG_DEBUG: 0, LOG_VERBOSE: 1, LOG_NOTICE: 2, LOG_WARNING: 3 } as const;
const REPL = { REPL_NONE: 0, REPL_AOF: 1, REPL_SLAVE: 2, REPL_REPLICA: 2, REPL_ALL: 3 } as const;

/** Raises a string error without a position; the message handler makes it {err='ERR '..text}. */
function raise(L: LuaState, text: string): never {
  lua.lua_pushstring(L, Buffer.from(text, 'latin1'));
  return lua.lua_error(L);
}

/** Pushes the `redis` table: the runtime API, or (`load`) the one a library sees while it loads. */
export function openRedisApi(L: LuaState, host: ScriptHost, registrar: () => Registrar | null, mode: 'run' | 'load' = 'run'): void {
  lua.lua_createtable(L, 0, 16);
  const fn = (name: string, f: (L: LuaState) => number) => {
    lua.lua_pushjsfunction(L, f);
    lua.lua_setfield(L, -2, name);
  };
  const constants = (table: Record<string, number>) => {
    for (const [name, n] of Object.entries(table)) {
      lua.lua_pushinteger(L, n);
      lua.lua_setfield(L, -2, name);
    }
  };
  fn('log', logFunction);
  constants(LOG_LEVELS);
  constants({ REDIS_VERSION_NUM });
  lua.lua_pushstring(L, REDIS_VERSION);
  lua.lua_setfield(L, -2, 'REDIS_VERSION');
  if (mode === 'load') {
    fn('register_function', (L) => registerFunction(L, registrar()));
    // Commands cannot run while a library loads: redis.call is "a nonexistent global" then.
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, missingGlobal);
    lua.lua_setfield(L, -2, '__index');
    lua.lua_setmetatable(L, -2);
    return;
  }
  fn('call', (L) => redisCall(L, host, true));
  fn('acl_check_cmd', (L) => aclCheckCommand(L, host));
  fn('pcall', (L) => redisCall(L, host, false));
  fn('error_reply', (L) => replyTable(L, 'err'));
  fn('status_reply', (L) => replyTable(L, 'ok'));
  fn('sha1hex', sha1hexFunction);
  fn('setresp', setrespFunction);
  fn('replicate_commands', (L) => {
    lua.lua_pushboolean(L, true);
    return 1;
  });
  fn('set_repl', () => 0);
  constants(REPL);
  // The script debugger's calls, which do nothing outside it (Larder has none).
  fn('breakpoint', (L) => {
    lua.lua_pushboolean(L, false);
    return 1;
  });
  fn('debug', () => 0);
}

// redis.call(command, arg, ...) raises a command's error; redis.pcall(...) returns it as {err=...}.
function redisCall(L: LuaState, host: ScriptHost, raiseErrors: boolean): number {
  const argv = commandArgs(L);
  const reply = argv instanceof ReplyError ? argv : host.call(argv);
  lua.lua_settop(L, 0);
  if (reply instanceof ReplyError) {
    pushSingleField(L, 'err', reply.text);
    if (raiseErrors) lua.lua_error(L);
    return 1;
  }
  pushReply(L, reply);
  return 1;
}

// redis.acl_check_cmd(command, arg, ...): whether the script's caller may run it, as Redis's ACL
// check answers (arity unchecked); raises for no arguments or no such command.
function aclCheckCommand(L: LuaState, host: ScriptHost): number {
  const argv = commandArgs(L);
  const permitted = argv instanceof ReplyError ? argv : host.permits(argv);
  lua.lua_settop(L, 0);
  if (typeof permitted === 'boolean') {
    lua.lua_pushboolean(L, permitted);
    return 1;
  }
  pushSingleField(L, 'err', permitted === null ? 'ERR Invalid command passed to redis.acl_check_cmd()' : permitted.text);
  return lua.lua_error(L);
}

/** The call's arguments as a command's argv (strings, and numbers as Redis formats them), or why they are none. */
function commandArgs(L: LuaState): string[] | ReplyError {
  const n = lua.lua_gettop(L);
  if (n === 0) return new ReplyError('ERR Please specify at least one argument for this redis lib call');
  const argv: string[] = [];
  for (let i = 1; i <= n; i++) {
    const arg = argToBytes(L, i);
    if (arg === null) return new ReplyError('ERR Lua redis lib command arguments must be strings or integers');
    argv.push(arg);
  }
  return argv;
}

// redis.error_reply(text) -> {err=...}, redis.status_reply(text) -> {ok=text}.
function replyTable(L: LuaState, field: 'ok' | 'err'): number {
  if (lua.lua_gettop(L) !== 1 || lua.lua_type(L, 1) !== lua.LUA_TSTRING) {
    pushSingleField(L, 'err', 'ERR wrong number or type of arguments');
    return 1;
  }
  const text = toBytes(L, 1)!;
  pushSingleField(L, field, field === 'err' ? errorReplyText(text) : text);
  return 1;
}

/**
 * An error_reply's text as Redis keeps it (luaPushErrorBuff): the first word is the code (a
 * leading '-' dropped), and a text without a space gets the code ERR (error_reply('x') is
 * "ERR x"); line ends are trimmed off the message's ends.
 */
function errorReplyText(text: string): string {
  const body = text.startsWith('-') ? text.slice(1) : text;
  const space = body.indexOf(' ');
  const [code, message] = space === -1 ? ['ERR', body] : [body.slice(0, space), body.slice(space + 1)];
  return `${code} ${message.replace(/^[\r\n]+|[\r\n]+$/g, '')}`;
}

// redis.sha1hex(text)
function sha1hexFunction(L: LuaState): number {
  if (lua.lua_gettop(L) !== 1) raise(L, 'wrong number of arguments');
  lua.lua_pushstring(L, createHash('sha1').update(toBytes(L, 1) ?? '', 'latin1').digest('hex'));
  return 1;
}

// redis.log(level, message, ...): checked as Redis checks it; Larder keeps no script log.
function logFunction(L: LuaState): number {
  if (lua.lua_gettop(L) < 2) raise(L, 'redis.log() requires two arguments or more.');
  const level = lua.lua_type(L, 1) === lua.LUA_TNUMBER ? lua.lua_tonumber(L, 1) : -1;
  if (!Number.isInteger(level) || level < 0 || level > 3) raise(L, 'Invalid debug level.');
  return 0;
}

// redis.setresp(2 | 3): replies reach scripts in RESP2's shapes only.
function setrespFunction(L: LuaState): number {
  if (lua.lua_gettop(L) !== 1) raise(L, 'redis.setresp() requires one argument.');
  const v = lua.lua_tonumber(L, 1);
  if (v !== 2 && v !== 3) raise(L, 'RESP version must be 2 or 3.');
  if (v === 3) raise(L, 'RESP3 is not supported by Larder scripts.');
  return 0;
}

const FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys']);

// redis.register_function(name, callback) or redis.register_function{function_name=..., callback=...,
// flags={...}, description=...}
function registerFunction(L: LuaState, registrar: Registrar | null): number {
  if (registrar === null) raise(L, 'redis.register_function can only be called on FUNCTION LOAD command');
  const n = lua.lua_gettop(L);
  let name: string | null = null;
  let callback = 0;
  const flags: string[] = [];
  let description: string | null = null;
  if (n === 2) {
    name = toBytes(L, 1);
    if (name === null) raise(L, 'function_name argument given to redis.register_function must be a string');
    if (lua.lua_type(L, 2) !== lua.LUA_TFUNCTION) raise(L, 'callback argument given to redis.register_function must be a function');
    callback = 2;
  } else if (n === 1) {
    if (lua.lua_type(L, 1) !== lua.LUA_TTABLE) {
      raise(L, 'calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).');
    }
    lua.lua_pushnil(L);
    while (lua.lua_next(L, 1) !== 0) {
      const key = lua.lua_type(L, -2) === lua.LUA_TSTRING ? toBytes(L, -2) : null;
      if (key === 'function_name') {
        name = lua.lua_type(L, -1) === lua.LUA_TSTRING ? toBytes(L, -1) : null;
        if (name === null) raise(L, 'function_name argument given to redis.register_function must be a string');
      } else if (key === 'callback') {
        if (lua.lua_type(L, -1) !== lua.LUA_TFUNCTION) raise(L, 'callback argument given to redis.register_function must be a function');
        lua.lua_pushvalue(L, -1);
        lua.lua_insert(L, 2); // kept below the key and value lua_next works on
        callback = 2;
      } else if (key === 'flags') {
        if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) raise(L, 'flags argument to redis.register_function must be a table representing function flags');
        for (let i = 1; lua.lua_rawgeti(L, -1, i) !== lua.LUA_TNIL; i++) {
          const flag = lua.lua_type(L, -1) === lua.LUA_TSTRING ? toBytes(L, -1) : null;
          if (flag === null || !FLAGS.has(flag)) raise(L, 'unknown flag given');
          flags.push(flag);
          lua.lua_pop(L, 1);
        }
        lua.lua_pop(L, 1);
      } else if (key === 'description') {
        description = lua.lua_type(L, -1) === lua.LUA_TSTRING ? toBytes(L, -1) : null;
        if (description === null) raise(L, 'description argument given to redis.register_function must be a string');
      } else {
        raise(L, 'unknown argument given to redis.register_function');
      }
      lua.lua_pop(L, 1);
    }
    if (name === null) raise(L, 'redis.register_function must get a function name argument');
    if (callback === 0) raise(L, 'redis.register_function must get a callback argument');
  } else {
    raise(L, 'wrong number of arguments to redis.register_function');
  }
  lua.lua_pushvalue(L, callback);
  const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  const refused = registrar.register(name, ref, flags, description);
  if (refused !== null) {
    lauxlib.luaL_unref(L, lua.LUA_REGISTRYINDEX, ref);
    raise(L, refused);
  }
  return 0;
}

/** Raises Redis's error for reading a global that does not exist: __index(table, name). */
export function missingGlobal(L: LuaState): never {
  const name = toBytes(L, 2) ?? Buffer.from(lauxlib.luaL_tolstring(L, 2)).toString('latin1');
  return lauxlib.luaL_error(L, "Script attempted to access nonexistent global variable '%s'", Buffer.from(name, 'latin1'));
}
