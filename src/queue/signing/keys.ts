// The current and next signing keys. Deliveries are signed with the current key; receivers
// accept either, so a rotation (next becomes current, a new next is made) never rejects a
// delivery signed a moment before. Kept in the SecretStore (or, on engine postgres, in the
// shared op log, where a rotation by one process is seen by all), so they survive restarts;
// read from there each time, so a rotation elsewhere takes effect here too.

import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../../config/secrets.js';
import { KEYS_FIXED, type QueueError } from '../errors.js';

/** Where generated secrets are kept: the data dir's SecretStore, or the queue's shared store. */
export type Secrets = Pick<SecretStore, 'get' | 'set'>;

export interface SigningKeys {
  current: string;
  next: string;
}

const CURRENT = 'queue.currentSigningKey';
const NEXT = 'queue.nextSigningKey';

/** A key shaped like the service's: `sig_` and 28 url-safe characters. */
export const newSigningKey = () => `sig_${randomBytes(21).toString('base64url')}`;

export class KeyRing {
  /**
   * Configured keys win over stored ones; rotation then changes only the stored pair. `fixed`
   * keys refuse rotation (dev mode: the SDK's receivers only know the dev pair).
   */
  constructor(
    private readonly secrets: Secrets,
    private readonly configured: Partial<SigningKeys>,
    private readonly fixed = false,
  ) {
    this.get();
  }

  get(): SigningKeys {
    return {
      current: this.configured.current ?? this.secrets.get(CURRENT, newSigningKey),
      next: this.configured.next ?? this.secrets.get(NEXT, newSigningKey),
    };
  }

  rotate(): SigningKeys | QueueError {
    if (this.fixed) return KEYS_FIXED;
    const keys = { current: this.get().next, next: newSigningKey() };
    this.secrets.set(CURRENT, keys.current);
    this.secrets.set(NEXT, keys.next);
    return this.get();
  }
}
