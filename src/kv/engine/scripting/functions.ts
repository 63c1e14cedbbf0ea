// Function libraries (Redis functions.c, function_lua.c): FUNCTION LOAD runs a library's code
// once, in the VM, to collect what it registers; FCALL then calls a registered callback.
// A library's code starts with "#!lua name=<library>". Libraries are kept in load order, and
// so are their functions (Redis lists them in its hash tables' order).

import { ReplyError } from '../../errors.js';
import type { Registrar } from './redis-api.js';
import type { LuaVm } from './vm.js';

export interface LuaFunction {
  readonly name: string;
  readonly library: string;
  readonly ref: number;
  readonly flags: readonly string[];
  readonly description: string | null;
}

export interface Library {
  readonly name: string;
  readonly code: string;
  readonly functions: readonly LuaFunction[];
}

const NAME = /^[A-Za-z0-9_]+$/;
const BAD_NAME = 'Library names can only contain letters, numbers, or underscores(_) and must be at least one character long';
const DUMP_MAGIC = 'LARDERFN1';

/** The library name in the code's first line, or why there is none. */
function libraryName(code: string): string | ReplyError {
  if (!code.startsWith('#!')) return new ReplyError('ERR Missing library metadata');
  const end = code.indexOf('\n');
  const [engine, ...parts] = (end < 0 ? code : code.slice(0, end)).slice(2).split(' ').filter((w) => w !== '');
  let name: string | null = null;
  for (const part of parts) {
    if (!part.startsWith('name=')) return new ReplyError(`ERR Invalid metadata value given: ${part}`);
    name = part.slice(5);
  }
  if (name === null) return new ReplyError('ERR Library name was not given');
  if (engine?.toLowerCase() !== 'lua') return new ReplyError(`ERR Engine '${engine ?? ''}' not found`);
  if (!NAME.test(name)) return new ReplyError(`ERR ${BAD_NAME}`);
  return name;
}

export class FunctionRegistry {
  private readonly libraries = new Map<string, Library>();
  private readonly functions = new Map<string, LuaFunction>();

  constructor(
    /** The database's VM, made at its first use (scripting.ts). */
    private readonly vm: () => LuaVm,
    private readonly timeLimitMs: number,
  ) {}

  get(name: string): LuaFunction | undefined {
    return this.functions.get(name);
  }

  all(): Library[] {
    return [...this.libraries.values()];
  }

  get functionCount(): number {
    return this.functions.size;
  }

  // FUNCTION LOAD [REPLACE] code: the library's name, or why it was refused.
  load(code: string, replace: boolean): string | ReplyError {
    const name = libraryName(code);
    if (name instanceof ReplyError) return name;
    if (!replace && this.libraries.has(name)) return new ReplyError(`ERR Library '${name}' already exists`);
    const lib = this.build(name, code);
    if (lib instanceof ReplyError) return lib;
    const clash = lib.functions.find((f) => this.functions.has(f.name) && this.functions.get(f.name)!.library !== name);
    if (clash !== undefined) {
      this.release(lib);
      return new ReplyError(`ERR Function ${clash.name} already exists`);
    }
    this.remove(name);
    this.add(lib);
    return name;
  }

  /** FUNCTION DELETE: whether the library existed. */
  delete(name: string): boolean {
    return this.remove(name);
  }

  flush(): void {
    for (const name of [...this.libraries.keys()]) this.remove(name);
  }

  /** FUNCTION DUMP's payload: Larder's own format, not Redis's RDB encoding. */
  dump(): string {
    let out = DUMP_MAGIC;
    for (const lib of this.libraries.values()) {
      const len = Buffer.alloc(4);
      len.writeUInt32LE(lib.code.length);
      out += len.toString('latin1') + lib.code;
    }
    return out;
  }

  /** The library codes a dump holds, or null when it is not one. */
  static undump(payload: string): string[] | null {
    if (!payload.startsWith(DUMP_MAGIC)) return null;
    const codes: string[] = [];
    const b = Buffer.from(payload, 'latin1');
    for (let at = DUMP_MAGIC.length; at < b.length; ) {
      if (at + 4 > b.length) return null;
      const len = b.readUInt32LE(at);
      if (at + 4 + len > b.length) return null;
      codes.push(b.toString('latin1', at + 4, at + 4 + len));
      at += 4 + len;
    }
    return codes;
  }

  // FUNCTION RESTORE payload [FLUSH | APPEND | REPLACE]: all libraries or none.
  restore(codes: readonly string[], policy: 'flush' | 'append' | 'replace'): ReplyError | null {
    const built: Library[] = [];
    const fail = (e: ReplyError) => {
      for (const lib of built) this.release(lib);
      return e;
    };
    for (const code of codes) {
      const name = libraryName(code);
      if (name instanceof ReplyError) return fail(name);
      const lib = this.build(name, code);
      if (lib instanceof ReplyError) return fail(lib);
      built.push(lib);
    }
    const current = [...this.libraries.values()];
    const replaced = current.filter((l) => policy === 'flush' || (policy === 'replace' && built.some((b) => b.name === l.name)));
    const kept = current.filter((l) => !replaced.includes(l));
    const libraryOwner = new Set<string>();
    const functionOwner = new Set<string>();
    for (const lib of [...kept, ...built]) {
      // Redis 7.0's RESTORE names the library without quotes, unlike LOAD.
      if (libraryOwner.has(lib.name)) return fail(new ReplyError(`ERR Library ${lib.name} already exists`));
      libraryOwner.add(lib.name);
      for (const f of lib.functions) {
        if (functionOwner.has(f.name)) return fail(new ReplyError(`ERR Function ${f.name} already exists`));
        functionOwner.add(f.name);
      }
    }
    for (const lib of replaced) this.remove(lib.name);
    for (const lib of built) this.add(lib);
    return null;
  }

  /** Compiles a library and runs its code to collect its functions. */
  private build(name: string, code: string): Library | ReplyError {
    // The metadata line is commented out rather than cut, so line numbers stay.
    const ref = this.vm().compile(`--${code.slice(2)}`, 'user_function');
    // Sent as it is, line ends included, as Redis 7.0 sends it (EVAL's puts spaces in their place).
    if (typeof ref === 'string') return new ReplyError(`ERR Error compiling function: ${ref}`);
    const functions: LuaFunction[] = [];
    const registrar: Registrar = {
      register: (fname, ref, flags, description) => {
        if (!NAME.test(fname)) return BAD_NAME;
        if (functions.some((f) => f.name === fname)) return 'Function already exists in the library';
        functions.push({ name: fname, library: name, ref, flags, description });
        return null;
      },
    };
    const ran = this.vm().runLibrary(ref, registrar, this.timeLimitMs);
    this.vm().release(ref);
    const lib = { name, code, functions };
    if (!ran.ok || functions.length === 0) {
      this.release(lib);
      return new ReplyError(ran.ok ? 'ERR No functions registered' : `ERR Error registering functions: ${ran.failure.err}`);
    }
    return lib;
  }

  private add(lib: Library): void {
    this.libraries.set(lib.name, lib);
    for (const f of lib.functions) this.functions.set(f.name, f);
  }

  private remove(name: string): boolean {
    const lib = this.libraries.get(name);
    if (lib === undefined) return false;
    this.libraries.delete(name);
    for (const f of lib.functions) this.functions.delete(f.name);
    this.release(lib);
    return true;
  }

  private release(lib: Library): void {
    for (const f of lib.functions) this.vm().release(f.ref);
  }
}
