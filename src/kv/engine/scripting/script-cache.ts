// Scripts by SHA1 (Redis eval.c): EVAL caches what it runs, SCRIPT LOAD caches and persists.
// A script may start with a shebang, "#!lua [flags=f1,f2]" (Redis 7.0); its only flag that
// matters here is no-writes, which makes the script read-only. Upstash's allow-key-locking is
// accepted too (Redis 7.0 refuses it).

import { createHash } from 'node:crypto';
import { ReplyError } from '../../errors.js';

export interface CachedScript {
  readonly sha: string;
  readonly body: string;
  /** The compiled function in the VM's registry. */
  readonly ref: number;
  readonly noWrites: boolean;
  /** Loaded by SCRIPT LOAD (logged and snapshotted), not only run by EVAL. */
  persisted: boolean;
}

export const sha1hex = (body: string) => createHash('sha1').update(body, 'latin1').digest('hex');

// allow-key-locking is Upstash's, not Redis 7.0's: @upstash/ratelimit's scripts declare it. Every
// script here runs alone, so it changes nothing.
const SCRIPT_FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys', 'allow-key-locking']);

/**
 * A script's shebang: its flags, and the code to compile (the shebang line commented out, so
 * line numbers stay), or why it is refused.
 */
export function readShebang(body: string): { code: string; noWrites: boolean } | ReplyError {
  if (!body.startsWith('#!')) return { code: body, noWrites: false };
  const end = body.indexOf('\n');
  const line = end < 0 ? body : body.slice(0, end);
  const [engine, ...options] = line.split(' ').filter((w) => w !== '');
  if (engine !== '#!lua') return new ReplyError(`ERR Unexpected engine in script shebang: ${engine}`);
  let noWrites = false;
  for (const option of options) {
    if (!option.startsWith('flags=')) return new ReplyError(`ERR Unknown lua shebang option: ${option}`);
    for (const flag of option.slice(6).split(',')) {
      if (flag === '') continue;
      if (!SCRIPT_FLAGS.has(flag)) return new ReplyError(`ERR Unexpected flag in script shebang: ${flag}`);
      if (flag === 'no-writes') noWrites = true;
    }
  }
  return { code: `--${body.slice(2)}`, noWrites };
}

export class ScriptCache {
  private readonly scripts = new Map<string, CachedScript>();

  get(sha: string): CachedScript | undefined {
    return this.scripts.get(sha.toLowerCase());
  }

  add(script: CachedScript): void {
    this.scripts.set(script.sha, script);
  }

  /** Empties the cache; returns what it held, for the VM to release. */
  clear(): CachedScript[] {
    const all = [...this.scripts.values()];
    this.scripts.clear();
    return all;
  }

  /** The bodies SCRIPT LOAD put here, for a snapshot. */
  persistedBodies(): string[] {
    return [...this.scripts.values()].filter((s) => s.persisted).map((s) => s.body);
  }
}
