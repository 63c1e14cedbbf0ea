// Bitmap commands (Redis bitops.c): bits and integer fields of string values. The family's
// declarations; handlers live in bitmap/.

import { bitfieldCommand, bitfieldRoCommand } from './bitmap/bitfield.js';
import { bitopCommand } from './bitmap/bitop.js';
import { bitcountCommand, bitposCommand, getbitCommand, setbitCommand } from './bitmap/bits.js';
import { family, ONE_KEY } from './spec.js';

export default family('bitmap', 'bitmap', [
  { name: 'setbit', arity: 4, flags: ['write'], keys: ONE_KEY, run: setbitCommand },
  { name: 'getbit', arity: 3, flags: ['readonly', 'fast'], keys: ONE_KEY, run: getbitCommand },
  { name: 'bitcount', arity: -2, flags: ['readonly'], keys: ONE_KEY, run: bitcountCommand },
  { name: 'bitpos', arity: -3, flags: ['readonly'], keys: ONE_KEY, run: bitposCommand },
  // BITOP op destkey key [key ...]: the destination and every source.
  { name: 'bitop', arity: -4, flags: ['write', 'readLookups'], keys: { first: 2, last: -1, step: 1 }, run: bitopCommand },
  { name: 'bitfield', arity: -2, flags: ['write'], keys: ONE_KEY, run: bitfieldCommand },
  { name: 'bitfield_ro', arity: -2, flags: ['readonly', 'fast'], keys: ONE_KEY, run: bitfieldRoCommand },
]);
