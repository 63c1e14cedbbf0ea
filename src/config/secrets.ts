// Tokens not given in the config are generated once and kept in <dataDir>/secrets.json, so
// they survive restarts. The file is written atomically.

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { readJsonFile } from '../storage/json-file.js';

export type Secrets = Record<string, string>;

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Holds generated secrets by name; `get` creates and saves one on first use. */
export class SecretStore {
  /** The file the secrets are kept in, as an absolute path. */
  readonly path: string;
  private readonly secrets: Secrets;

  constructor(dataDir: string) {
    this.path = resolve(dataDir, 'secrets.json');
    this.secrets = (readJsonFile(this.path, 'restore it from a backup (removed, it is made again with new tokens, which every client must then be given)') as Secrets | undefined) ?? {};
  }

  /** A secret already kept, or undefined; never creates one (for clients of a running server). */
  find(name: string): string | undefined {
    return this.secrets[name];
  }

  /** `make` builds a new secret when the default (a random token) does not fit the format. */
  get(name: string, make: () => string = newToken): string {
    let value = this.secrets[name];
    if (value === undefined) {
      value = this.secrets[name] = make();
      this.save();
    }
    return value;
  }

  /** Replaces a secret (the queue's signing keys rotate). */
  set(name: string, value: string): void {
    this.secrets[name] = value;
    this.save();
  }

  private save(): void {
    writeFileAtomic(this.path, JSON.stringify(this.secrets, null, 2) + '\n');
  }
}
