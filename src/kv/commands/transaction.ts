// Transactions run through the /multi-exec endpoint. The commands that open, watch or close a
// transaction on a connection have no meaning over REST and are refused by name.

import { family, NO_KEYS, refused } from './spec.js';

export default family(
  'transaction',
  'transaction',
  ['multi', 'exec', 'discard', 'watch', 'unwatch'].map((name) => ({
    name,
    arity: -1,
    flags: ['unsupported', 'noscript'],
    keys: NO_KEYS,
    run: refused,
  })),
);
