// The ACL users and REST tokens of one database, kept in <dataDir>/kv/<db>/acl.json:
//   {"version":1,
//    "users":[{"name":"app","rules":["on","#<sha256>","~app:*","resetchannels","-@all","+@read"],"config":true}],
//    "tokens":[{"token":"...","user":"app","hash":"<sha256 of the password it was made with>"}]}
// A user is stored as the rules that rebuild it (ACL LIST's words, as Redis's ACL file does), so
// categories are re-read from the command table on load. The whole file is replaced atomically on
// every change; it holds live tokens, so only its owner may read it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectory, writeFileAtomic } from '../../storage/atomic-file.js';

const VERSION = 1;

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

export class AclStore {
  constructor(readonly path: string) {}

  /** The saved state, or null before the first save. */
  load(): AclState | null {
    if (!existsSync(this.path)) return null;
    const state = JSON.parse(readFileSync(this.path, 'utf8')) as AclState & { version: number };
    if (state.version !== VERSION) throw new Error(`${this.path}: unknown version ${state.version}`);
    return state;
  }

  save(state: AclState): void {
    makeDirectory(dirname(this.path));
    writeFileAtomic(this.path, JSON.stringify({ version: VERSION, ...state }, null, 2) + '\n');
  }
}
