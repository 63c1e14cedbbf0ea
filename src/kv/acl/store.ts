// The ACL users and REST tokens of one database, kept in <dataDir>/kv/<db>/acl.json:
//   {"version":1,
//    "users":[{"name":"app","rules":["on","#<sha256>","~app:*","resetchannels","-@all","+@read"],"config":true}],
//    "tokens":[{"token":"...","user":"app","hash":"<sha256 of the password it was made with>"}]}
// A user is stored as the rules that rebuild it (ACL LIST's words, as Redis's ACL file does), so
// categories are re-read from the command table on load. The whole file is replaced atomically on
// every change; it holds live tokens, so only its owner may read it.
//
// `--workers N` processes share one file: each change is made under acl.json.lock (created
// exclusively, holding the owner's pid) on the state as the file has it, and every process
// re-reads the file when its stamp (inode, time, size) is not the one it last read or wrote.

import { closeSync, fstatSync, openSync, readFileSync, rmSync, statSync, writeSync, type BigIntStats } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectory, writeFileAtomic } from '../../storage/atomic-file.js';
import { CorruptDataError } from '../../storage/errors.js';
import { parseStoredJson } from '../../storage/json-file.js';

const VERSION = 1;
const DAMAGED_REMEDY =
  "restore it from a backup (removed, the users and tokens made at run time are gone; the config's come back)";
/** How long a change waits for another process's change before it gives up. */
const LOCK_WAIT_MS = 5_000;
const LOCK_POLL_MS = 2;
/** What the lock's waits sleep on: nothing ever notifies it, so each wait lasts its timeout. */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

export interface StoredUser {
  readonly name: string;
  readonly rules: readonly string[];
  /** Declared in the config file: re-applied from it on every start. */
  readonly config?: true;
}

export interface StoredToken {
  readonly token: string;
  readonly user: string;
  readonly hash: string;
}

export interface AclState {
  readonly users: readonly StoredUser[];
  readonly tokens: readonly StoredToken[];
}

/** The saved state and the stamp of the file it was read from. */
export interface SavedAcl {
  readonly state: AclState;
  readonly stamp: string;
}

export class AclStore {
  /**
   * @param shared other processes change the file too (`--workers`): changes take the lock and
   * readers check the file's stamp.
   */
  constructor(
    readonly path: string,
    readonly shared = false,
  ) {}

  /** The saved state, or null before the first save. */
  load(): SavedAcl | null {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    try {
      // The stamp of the very file read: one replaced meanwhile is read again next time.
      const stamp = stampOf(fstatSync(fd, { bigint: true }));
      const state = parseStoredJson(this.path, readFileSync(fd, 'utf8'), DAMAGED_REMEDY) as AclState & { version: number };
      if (state.version !== VERSION) throw new CorruptDataError(`${this.path}: unknown version ${state.version}`);
      return { state: { users: state.users, tokens: state.tokens }, stamp };
    } finally {
      closeSync(fd);
    }
  }

  /** The file's stamp now, or null when there is none. */
  stamp(): string | null {
    const stats = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? null : stampOf(stats);
  }

  /** Saves `state`; the stamp of the file written. */
  save(state: AclState): string {
    makeDirectory(dirname(this.path));
    writeFileAtomic(this.path, JSON.stringify({ version: VERSION, ...state }, null, 2) + '\n');
    return this.stamp()!;
  }

  /** Runs `change` while no other process changes the file (at once when none shares it). */
  exclusive<T>(change: () => T): T {
    if (!this.shared) return change();
    const lock = `${this.path}.lock`;
    makeDirectory(dirname(this.path));
    for (const deadline = Date.now() + LOCK_WAIT_MS; !tryLock(lock); ) {
      if (Date.now() > deadline) throw new Error(`${lock}: held by another process for over ${LOCK_WAIT_MS} ms`);
      Atomics.wait(SLEEPER, 0, 0, LOCK_POLL_MS);
    }
    try {
      return change();
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

function stampOf(stats: BigIntStats): string {
  return `${stats.ino}:${stats.mtimeNs}:${stats.size}`;
}

/** Takes the lock file, or clears one whose process is gone; whether the lock is now ours. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx', 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const holder = holderOf(lock);
  // A holder killed while changing the file leaves its lock behind.
  if (holder !== null && !alive(holder)) rmSync(lock, { force: true });
  return false;
}

/** The pid in a lock file; null when it is gone, or just created and not yet written. */
function holderOf(lock: string): number | null {
  try {
    const text = readFileSync(lock, 'utf8');
    return text === '' ? null : Number(text);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
