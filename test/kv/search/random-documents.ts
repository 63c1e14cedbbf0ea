// What the two seeded differential tests of Redis Search share: documents of every data type an
// index can be ON, written through the REST API (overwritten and deleted at random), with the
// test's own record of what each key holds, which its brute-force evaluator reads.

import type { TestLarder } from '../../support/larder.js';
import type { Rng } from '../differential/prng.js';

export const DATA_TYPES = [
  { type: 'JSON', prefix: 'j:' },
  { type: 'HASH', prefix: 'h:' },
  { type: 'STRING', prefix: 's:' },
] as const;

export type DataType = (typeof DATA_TYPES)[number]['type'];

/** What the test wrote: each live key's document and the data type of its index. */
export type Written<D> = Map<string, { readonly type: DataType; readonly doc: D }>;

/** Creates one index per data type, `<name>-<type>`, over its prefix. */
export async function createIndexes(t: TestLarder, name: string, schema: readonly string[]): Promise<void> {
  for (const { type, prefix } of DATA_TYPES) await t.ok(['search.create', `${name}-${type}`, 'ON', type, 'PREFIX', '1', prefix, 'SCHEMA', ...schema]);
}

/** Per data type, `writes` times: a random one of `keys` keys gets a new document (15%: is deleted). */
export async function writeRound<D extends object>(t: TestLarder, rng: Rng, written: Written<D>, writes: number, keys: number, randomDoc: (rng: Rng) => D): Promise<void> {
  for (const { type, prefix } of DATA_TYPES) {
    for (let i = 0; i < writes; i++) {
      const key = `${prefix}${rng.int(0, keys)}`;
      const doc = rng.chance(0.15) ? null : randomDoc(rng);
      await t.ok(['del', key]);
      if (doc === null) {
        written.delete(key);
        continue;
      }
      const argv = writeArgv(type, key, doc);
      if (argv.length > 2) await t.ok(argv); // a hash without fields is no key at all
      written.set(key, { type, doc });
    }
  }
}

function writeArgv(type: DataType, key: string, doc: object): string[] {
  if (type === 'JSON') return ['json.set', key, '$', JSON.stringify(doc)];
  if (type === 'STRING') return ['set', key, JSON.stringify(doc)];
  return ['hset', key, ...Object.entries(doc).flatMap(([k, v]) => [k, String(v)])];
}
