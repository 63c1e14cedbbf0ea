// A database's scripting state: the Lua VM, the script cache, the function libraries and the
// time limit. Commands reach it through ctx.scripting; the database gives it the host that
// runs a script's redis.call through admission as the script's caller, and answers
// redis.acl_check_cmd for that caller.
//
// Effects, not scripts, are what the database logs: each command a script runs is logged as it
// would be on its own (with its own rewrite), and the whole run lands in the frame of the
// command that ran it, so a restart replays all of a script or none of it. A script stopped
// by the time limit keeps what it wrote before it stopped, as a Redis script killed after a
// write does (Redis then refuses SCRIPT KILL; Larder stops it anyway).

import { createRequire } from 'node:module';
import { ReplyError } from '../../errors.js';
import type { Reply } from '../../reply.js';
import { errorLine } from './error-line.js';
import { FunctionRegistry, type LuaFunction } from './functions.js';
import { readShebang, ScriptCache, sha1hex, type CachedScript } from './script-cache.js';
import type { LuaFailure, LuaVm } from './vm.js';

const require = createRequire(import.meta.url);
/**
 * The Lua VM's modules (fengari and the libraries over it), loaded at the first script a
 * database compiles: they were about 65 ms of a 420 ms start on Bun, and most databases never
 * run one. require() loads ES modules synchronously (Node 20.19 and later, Bun), as commands run.
 */
let vmModule: typeof import('./vm.js') | undefined;

/** What runs a script's commands, as its caller. */
export interface ScriptCaller {
  /** Runs one command for a script: (argv, whether the script may not write). */
  run(argv: string[], readOnly: boolean): Reply;
  /** Whether the caller may run argv; null for no such command. */
  permits(argv: string[]): boolean | null;
}

/** How long and how much memory one script or function run may take (config scriptTimeoutMs, scriptMemoryBytes). */
export interface ScriptLimits {
  readonly timeMs: number;
  readonly memoryBytes: number;
}

/** What a snapshot keeps: SCRIPT LOAD's scripts and every library's code. */
export interface ScriptingSnapshot {
  readonly scripts: readonly string[];
  readonly libraries: readonly string[];
}

export class Scripting {
  private made: LuaVm | undefined;
  readonly scripts = new ScriptCache();
  readonly functions: FunctionRegistry;
  /** Whether the script running now is read-only. */
  private readOnly = false;

  readonly timeLimitMs: number;

  constructor(
    private readonly caller: ScriptCaller,
    private readonly limits: ScriptLimits,
  ) {
    this.timeLimitMs = limits.timeMs;
    this.functions = new FunctionRegistry(() => this.vm, limits.timeMs);
  }

  /** The database's Lua VM, made at its first use. */
  private get vm(): LuaVm {
    if (this.made === undefined) {
      const { LuaVm } = (vmModule ??= require('./vm.js') as typeof import('./vm.js'));
      const host = { call: (argv: string[]) => this.caller.run(argv, this.readOnly), permits: (argv: string[]) => this.caller.permits(argv) };
      this.made = new LuaVm(host, this.limits.memoryBytes);
    }
    return this.made;
  }

  /** Compiles and caches a script body (EVAL, SCRIPT LOAD): the cached script, or why it cannot be. */
  cache(body: string): CachedScript | ReplyError {
    const sha = sha1hex(body);
    const cached = this.scripts.get(sha);
    if (cached !== undefined) return cached;
    const shebang = readShebang(body);
    if (shebang instanceof ReplyError) return shebang;
    const ref = this.vm.compile(shebang.code, 'user_script');
    if (typeof ref === 'string') return new ReplyError(errorLine(`ERR Error compiling script (new function): ${ref}`));
    const script: CachedScript = { sha, body, ref, noWrites: shebang.noWrites, persisted: false };
    this.scripts.add(script);
    return script;
  }

  runScript(script: CachedScript, keys: readonly string[], args: readonly string[], readOnly: boolean): Reply {
    this.readOnly = readOnly || script.noWrites;
    const ran = this.vm.runScript(script.ref, keys, args, this.timeLimitMs);
    return ran.ok ? ran.reply : failure(ran.failure, script.sha);
  }

  runFunction(fn: LuaFunction, keys: readonly string[], args: readonly string[], readOnly: boolean): Reply {
    this.readOnly = readOnly || fn.flags.includes('no-writes');
    const ran = this.vm.runFunction(fn.ref, keys, args, this.timeLimitMs);
    return ran.ok ? ran.reply : failure(ran.failure, fn.name);
  }

  flushScripts(): void {
    for (const s of this.scripts.clear()) this.made?.release(s.ref);
  }

  snapshot(): ScriptingSnapshot {
    return { scripts: this.scripts.persistedBodies(), libraries: this.functions.all().map((l) => l.code) };
  }

  /** Loads a snapshot's scripts and libraries; returns how many failed to load. */
  restore(snapshot: ScriptingSnapshot): number {
    let failed = 0;
    for (const body of snapshot.scripts) {
      const script = this.cache(body);
      if (script instanceof ReplyError) failed++;
      else script.persisted = true;
    }
    if (this.functions.restore(snapshot.libraries, 'append') !== null) failed += snapshot.libraries.length;
    return failed;
  }
}

/** Redis's reply for a script that raised an error: the error, then where. */
function failure(f: LuaFailure, name: string): ReplyError {
  const where = f.source !== null && f.line !== null ? `, on ${f.source}:${f.line}.` : '';
  return new ReplyError(errorLine(`${f.err} script: ${name}${where}`));
}
