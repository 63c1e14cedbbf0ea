// Random commands of the HyperLogLog family (Redis hyperloglog.c). Every reply is compared, and
// the harness's final GET of each key compares the HLL bytes themselves: sparse opcodes, the
// switch to dense, and the cached estimate PFCOUNT writes into the header (which must survive
// a restart, as PFCOUNT logs itself when it caches).
//
// Elements come from a small set, so registers collide, and now and then by the hundred from a
// large one, so HLLs grow dense. SET stores hand-made HLL strings: valid, stale, corrupt, and
// ones that only look like HLLs. Corrupt ones are chosen, or placed, so that a PFADD fails
// before it changes anything or not at all: where a PFADD fails half way, Redis keeps what it
// added before the failure and Larder keeps nothing (see engine/hll/hll.ts).

import { KEYS, randomValue } from './alphabet.js';
import type { CommandGen, Step } from './harness.js';
import type { Rng } from './prng.js';

const key = (rng: Rng) => rng.pick(KEYS);
const step = (...argv: string[]): Step => ({ argv });

const ELEMENTS = ['a', 'b', 'c', 'foo', 'bar', '', '0', '1', 'hello world', '\x00', '\xff\xfe', 'é', 'x'.repeat(17)];

const isUtf8 = (bytes: string) => Buffer.from(Buffer.from(bytes, 'latin1').toString('utf8'), 'utf8').toString('latin1') === bytes;
// Keys a long command can use: Larder receives other bytes in the URL, which has a length limit.
const TEXT_KEYS = KEYS.filter(isUtf8);

// PFADD key [element ...]
function pfadd(rng: Rng): Step {
  if (rng.chance(0.2)) {
    // A batch from a large space: enough of these turn a sparse HLL dense.
    const base = rng.int(0, 1_000_000);
    const batch = Array.from({ length: rng.int(200, 1500) }, (_, i) => `e${base + i * rng.int(1, 3)}`);
    return step('PFADD', rng.pick(TEXT_KEYS), ...batch);
  }
  return step('PFADD', key(rng), ...rng.some(ELEMENTS, rng.int(0, 4)));
}

const header = (encoding: string, card: string) => 'HYLL' + encoding + '\0\0\0' + card;
const CARD_0 = '\0'.repeat(8);
const CARD_5 = '\x05' + '\0'.repeat(7);
const STALE = '\0'.repeat(7) + '\x80';
const XZERO_ALL = '\x7f\xff';

/** HLL-shaped strings, as SET stores them. */
const CRAFTED = [
  header('\x01', CARD_0) + XZERO_ALL, //           a new HLL, estimate cached
  header('\x01', STALE) + XZERO_ALL, //            a new HLL, estimate stale
  header('\x01', STALE) + '\x7f\xfb\x8f', //       16380 zeros then VAL 4 x4: valid
  header('\x01', STALE) + '\x00\x7f\xfe', //       ZERO 1 + XZERO 16383: valid
  header('\x01', CARD_5), //                        no registers at all, cached 5: read, never written
  header('\x01', STALE), //                         no registers at all: corrupt
  header('\x02', STALE) + XZERO_ALL, //            unknown encoding: not an HLL
  header('\x00', STALE) + XZERO_ALL, //            dense, wrong length: not an HLL
  'HYLL\x01\0\0\0', //                              too short: not an HLL
  'hyll' + '\x01' + '\0'.repeat(11) + XZERO_ALL, // wrong magic
];

/**
 * Corrupt, yet PFADD writes to it until it turns dense, and fails half way then. It goes to
 * the one key that is not UTF-8, which large batches never use (see TEXT_KEYS), so it never
 * grows that far.
 */
const WRITABLE_CORRUPT = header('\x01', STALE) + XZERO_ALL + '\x00'; // a register too many
const BINARY_KEY = KEYS.find((k) => !isUtf8(k))!;

// SET key value: an HLL-shaped string most of the time.
function set(rng: Rng): Step {
  const r = rng.next();
  if (r < 0.1) return step('SET', BINARY_KEY, WRITABLE_CORRUPT);
  return step('SET', key(rng), r < 0.7 ? rng.pick(CRAFTED) : randomValue(rng));
}

export const HLL_GENS: readonly CommandGen[] = [
  { name: 'pfadd', weight: 12, make: pfadd },
  { name: 'pfcount', weight: 8, make: (rng) => step('PFCOUNT', ...rng.some(KEYS, rng.chance(0.6) ? 1 : rng.int(2, 4))) },
  { name: 'pfmerge', weight: 5, make: (rng) => step('PFMERGE', key(rng), ...rng.some(KEYS, rng.int(0, 3))) },
  { name: 'set', weight: 2, make: set },
  { name: 'get', weight: 2, make: (rng) => step('GET', key(rng)) },
];
