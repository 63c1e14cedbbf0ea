// The per-family workload of issue 4 as commands: how to build a sorted set and a list of n
// items, and the operations measured on them. The engine in-process and Larder over HTTP run
// the very same commands (bench/families.ts).
//
// For each size n, the sorted set `bench:z:<n>` holds members m:0 .. m:<n-1>, member m:i with
// score i, and the list `bench:l:<n>` holds n elements. Every operation leaves the size as it
// found it, give or take commands in flight: pairs push one end and pop the other, ZREM is
// followed by ZADD of the same member, and the members "ZADD new member" inserts are removed
// by `undo`, outside the measured time.

import type { Xorshift } from './xorshift.js';

export type Command = string[];

const zsetKey = (n: number) => `bench:z:${n}`;
const listKey = (n: number) => `bench:l:${n}`;

const BUILD_BATCH = 1000; //   members or elements per ZADD or RPUSH while building
const WINDOW = 10; //          elements a range operation returns

export interface Op {
  /** The row label. */
  readonly name: string;
  /** The next unit of work on a structure of `n` items: one command, or a pair. */
  next(rng: Xorshift, n: number): Command[];
  /** Commands, run unmeasured, that take out what `done` (a run of `next`) added. */
  undo?(done: readonly Command[]): Command[];
}

/** ZADD and RPUSH commands building the sorted set and the list of `n` items. */
export function* build(n: number): Generator<Command> {
  for (let start = 0; start < n; start += BUILD_BATCH) {
    const end = Math.min(n, start + BUILD_BATCH);
    const zadd = ['ZADD', zsetKey(n)];
    const rpush = ['RPUSH', listKey(n)];
    for (let i = start; i < end; i++) {
      zadd.push(String(i), `m:${i}`);
      rpush.push(`e:${i}`);
    }
    yield zadd;
    yield rpush;
  }
}

const member = (rng: Xorshift, n: number) => `m:${rng.below(n)}`;
const offset = (rng: Xorshift, n: number) => rng.below(n - WINDOW + 1);

let fresh = 0; // numbers the members "ZADD new member" inserts, unique within the process

export const OPS: readonly Op[] = [
  {
    name: 'ZADD new member',
    // Between two existing scores, so the member lands at a random place in the order.
    next: (rng, n) => [['ZADD', zsetKey(n), `${rng.below(n)}.5`, `n:${fresh++}`]],
    undo: (done) => removeMembers(done),
  },
  { name: 'ZSCORE', next: (rng, n) => [['ZSCORE', zsetKey(n), member(rng, n)]] },
  { name: 'ZRANK', next: (rng, n) => [['ZRANK', zsetKey(n), member(rng, n)]] },
  {
    name: `ZRANGE ${WINDOW} at a random rank`,
    next: (rng, n) => {
      const at = offset(rng, n);
      return [['ZRANGE', zsetKey(n), String(at), String(at + WINDOW - 1)]];
    },
  },
  {
    name: `ZRANGEBYSCORE LIMIT 0 ${WINDOW}`,
    next: (rng, n) => [['ZRANGEBYSCORE', zsetKey(n), String(rng.below(n)), '+inf', 'LIMIT', '0', String(WINDOW)]],
  },
  {
    name: 'ZREM + ZADD (pair)',
    next: (rng, n) => {
      const i = rng.below(n);
      return [
        ['ZREM', zsetKey(n), `m:${i}`],
        ['ZADD', zsetKey(n), String(i), `m:${i}`],
      ];
    },
  },
  {
    name: 'LPUSH + RPOP (pair)',
    next: (_, n) => [
      ['LPUSH', listKey(n), 'pushed'],
      ['RPOP', listKey(n)],
    ],
  },
  {
    name: 'RPUSH + LPOP (pair)',
    next: (_, n) => [
      ['RPUSH', listKey(n), 'pushed'],
      ['LPOP', listKey(n)],
    ],
  },
  { name: 'LINDEX middle', next: (_, n) => [['LINDEX', listKey(n), String(n >> 1)]] },
  {
    name: `LRANGE ${WINDOW} at a random offset`,
    next: (rng, n) => {
      const at = offset(rng, n);
      return [['LRANGE', listKey(n), String(at), String(at + WINDOW - 1)]];
    },
  },
  { name: 'LSET middle', next: (_, n) => [['LSET', listKey(n), String(n >> 1), 'set']] },
];

/** ZREMs of the members the ZADDs in `done` inserted, which may be on several keys. */
function removeMembers(done: readonly Command[]): Command[] {
  const byKey = new Map<string, string[]>();
  for (const [, key, , member] of done) {
    const members = byKey.get(key) ?? [];
    if (members.length === 0) byKey.set(key, members);
    members.push(member);
  }
  const out: Command[] = [];
  for (const [key, members] of byKey) {
    for (let i = 0; i < members.length; i += BUILD_BATCH) out.push(['ZREM', key, ...members.slice(i, i + BUILD_BATCH)]);
  }
  return out;
}
