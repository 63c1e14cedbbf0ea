// The current and next signing keys. Deliveries are signed with the current key; receivers
// accept either, so a rotation (next becomes current, a new next is made) never rejects a
// delivery signed a moment before. Kept in the SecretStore, so they survive restarts.

import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../../config/secrets.js';
import { KEYS_FIXED, type QueueError } from '../errors.js';

export interface SigningKeys {
  current: string;
  next: string;
}

const CURRENT = 'queue.currentSigningKey';
const NEXT = 'queue.nextSigningKey';

/** A key shaped like the service's: `sig_` and 28 url-safe characters. */
export const newSigningKey = () => `sig_${randomBytes(21).toString('base64url')}`;

export class KeyRing {
  private keys: SigningKeys;

  /**
   * Configured keys win over stored ones; rotation then changes only the stored pair. `fixed`
   * keys refuse rotation (dev mode: the SDK's receivers only know the dev pair).
   */
  constructor(
    private readonly secrets: SecretStore,
    configured: Partial<SigningKeys>,
    private readonly fixed = false,
  ) {
    this.keys = {
      current: configured.current ?? secrets.get(CURRENT, newSigningKey),
      next: configured.next ?? secrets.get(NEXT, newSigningKey),
    };
  }

  get(): SigningKeys {
    return { ...this.keys };
  }

  rotate(): SigningKeys | QueueError {
    if (this.fixed) return KEYS_FIXED;
    this.keys = { current: this.keys.next, next: newSigningKey() };
    this.secrets.set(CURRENT, this.keys.current);
    this.secrets.set(NEXT, this.keys.next);
    return this.get();
  }
}
