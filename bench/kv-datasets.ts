// The data sets of the "memory per key" rows (issue 20), as the commands that load them: the
// same commands go to redis-server and to Larder's engine, so both hold exactly the same data.

export interface Dataset {
  readonly id: string;
  /** What the row says it holds. */
  readonly label: string;
  /** What the per-item figure divides by: keys, or members of the one sorted set. */
  readonly items: number;
  readonly itemName: string;
  /** The commands that load it, a batch of items each. */
  commands(): Generator<string[]>;
}

const BATCH = 1000;
/** 100 bytes, different for each key (as values arriving in requests are different strings). */
const value = (i: number) => `${'v'.repeat(90)}${String(i).padStart(10, '0')}`;

/** `n` keys `string:<i>` of 100-byte values, by MSET of BATCH keys. */
export function strings(n: number): Dataset {
  return {
    id: 'strings',
    label: `${n.toLocaleString('en-US')} string keys, 100-byte values`,
    items: n,
    itemName: 'key',
    *commands() {
      for (let i = 0; i < n; i += BATCH) {
        const argv = ['MSET'];
        for (let k = i; k < Math.min(n, i + BATCH); k++) argv.push(`string:${k}`, value(k));
        yield argv;
      }
    },
  };
}

/** `n` hashes `hash:<i>` of 5 fields with 10-byte values (Redis keeps them as listpacks). */
export function smallHashes(n: number): Dataset {
  return {
    id: 'hashes',
    label: `${n.toLocaleString('en-US')} small hashes (5 fields, 10-byte values)`,
    items: n,
    itemName: 'key',
    *commands() {
      for (let i = 0; i < n; i++) {
        const argv = ['HSET', `hash:${i}`];
        for (let f = 0; f < 5; f++) argv.push(`field${f}`, `value${String(i % 10_000).padStart(5, '0')}`);
        yield argv;
      }
    },
  };
}

/** One sorted set of `n` members `member:<i>` with distinct scores, by ZADD of BATCH members. */
export function sortedSet(n: number): Dataset {
  return {
    id: 'zset',
    label: `one sorted set of ${n.toLocaleString('en-US')} members`,
    items: n,
    itemName: 'member',
    *commands() {
      for (let i = 0; i < n; i += BATCH) {
        const argv = ['ZADD', 'zset'];
        for (let k = i; k < Math.min(n, i + BATCH); k++) argv.push(String(k * 1.5), `member:${k}`);
        yield argv;
      }
    },
  };
}

export function datasets(scale: number): Dataset[] {
  return [strings(1_000_000 * scale), smallHashes(100_000 * scale), sortedSet(1_000_000 * scale)];
}
