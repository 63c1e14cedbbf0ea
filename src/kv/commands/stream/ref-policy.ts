// The KEEPREF | DELREF | ACKED argument (Redis 8.2) that XDELEX, XACKDEL, XADD and XTRIM share;
// what each policy does is the engine's (StreamValue's RefPolicy).

import type { RefPolicy } from '../../engine/stream/stream-value.js';

/** Whether a lower-cased argument names a policy. */
export function isRefPolicy(word: string): word is RefPolicy {
  return word === 'keepref' || word === 'delref' || word === 'acked';
}
