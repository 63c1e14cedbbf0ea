// Seeded random documents (JSON, hash and string keys) and random filters: SEARCH.COUNT, the keys
// SEARCH.QUERY matches, and its ORDERBY order must equal what a brute-force evaluator, written
// here independently of src/kv/search/, finds by reading every document. Writes (overwrites and
// deletions) interleave with the queries, so the sync path is compared too. A failure prints the
// seed: SEARCH_SEED=<seed> replays it.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, suiteLarder, type TestLarder } from '../../support/larder.js';
import { Rng } from '../differential/prng.js';

const SEED = Number(process.env.SEARCH_SEED ?? 2311);
const ROUNDS = 2;
const WORDS = ['red', 'Blue', 'green', 'lamp', 'desk', 'chair', 'oak', 'Steel', 'soft', 'été'];
const TAGS = ['a', 'b', 'c', 'd'];
const SCHEMA = ['title', 'TEXT', 'n', 'I64', 'FAST', 'f', 'F64', 'ok', 'BOOL', 'tag', 'KEYWORD'];

interface Doc {
  title?: string;
  n?: number;
  f?: number;
  ok?: boolean;
  tag?: string;
}
type Filter = Record<string, unknown>;

const DATA_TYPES = [
  { type: 'JSON', prefix: 'j:' },
  { type: 'HASH', prefix: 'h:' },
  { type: 'STRING', prefix: 's:' },
] as const;

function randomDoc(rng: Rng): Doc {
  const doc: Doc = {};
  if (rng.chance(0.9)) doc.title = rng.some(WORDS, rng.int(1, 4)).join(rng.pick([' ', ', ', '-']));
  if (rng.chance(0.9)) doc.n = rng.int(-5, 5);
  if (rng.chance(0.8)) doc.f = rng.int(-20, 20) / 4;
  if (rng.chance(0.8)) doc.ok = rng.chance(0.5);
  if (rng.chance(0.8)) doc.tag = rng.pick(TAGS);
  return doc;
}

function writeArgv(type: string, key: string, doc: Doc): string[] {
  if (type === 'JSON') return ['json.set', key, '$', JSON.stringify(doc)];
  if (type === 'STRING') return ['set', key, JSON.stringify(doc)];
  return ['hset', key, ...Object.entries(doc).flatMap(([k, v]) => [k, String(v)])];
}

function randomCondition(rng: Rng): Filter {
  switch (rng.int(0, 5)) {
    case 0:
      return { title: rng.some(WORDS, rng.int(1, 2)).join(' ') };
    case 1:
      return { n: rng.chance(0.5) ? rng.int(-5, 5) : { $in: rng.some([-5, -1, 0, 2, 5], 2) } };
    case 2: {
      const range: Record<string, number> = {};
      range[rng.pick(['$gt', '$gte'])] = rng.int(-20, 20) / 4;
      if (rng.chance(0.5)) range[rng.pick(['$lt', '$lte'])] = rng.int(-20, 20) / 4;
      return { [rng.pick(['f', 'n'])]: range };
    }
    case 3:
      return { ok: rng.chance(0.5) };
    case 4:
      return { tag: rng.chance(0.5) ? rng.pick(TAGS) : { $in: rng.some(TAGS, 2) } };
    default:
      return { title: { $in: rng.some(WORDS, 2) } };
  }
}

function randomFilter(rng: Rng, depth = 0): Filter {
  const pickClauses = () => Array.from({ length: rng.int(1, 2) }, () => (depth < 1 && rng.chance(0.3) ? randomFilter(rng, depth + 1) : randomCondition(rng)));
  const filter: Filter = {};
  if (rng.chance(0.5)) Object.assign(filter, randomCondition(rng));
  if (rng.chance(0.3)) filter.$must = pickClauses();
  if (rng.chance(0.3)) filter.$should = pickClauses();
  if (rng.chance(0.3)) filter.$mustNot = pickClauses();
  return filter;
}

// The brute-force evaluator: every document read as the test wrote it.
const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');

function holds(doc: Doc, filter: Filter): boolean {
  const must: Filter[] = [];
  for (const [k, v] of Object.entries(filter)) if (!k.startsWith('$')) must.push({ [k]: v });
  const list = (v: unknown) => (v === undefined ? [] : (v as Filter[]));
  must.push(...list(filter.$must));
  const should = list(filter.$should);
  if (!must.every((c) => clause(doc, c))) return false;
  if (must.length === 0 && should.length > 0 && !should.some((c) => clause(doc, c))) return false;
  return !list(filter.$mustNot).some((c) => clause(doc, c));
}

function clause(doc: Doc, c: Filter): boolean {
  const entries = Object.entries(c);
  // A nested filter (several keys, or boolean operators, or none: every document) reads as a whole.
  if (entries.length !== 1 || entries[0][0].startsWith('$')) return holds(doc, c);
  const [field, cond] = entries[0];
  const value = doc[field as keyof Doc];
  if (value === undefined) return false;
  const equal = (want: unknown) => (field === 'title' ? words(String(want)).every((w) => words(String(value)).includes(w)) : value === want);
  if (typeof cond !== 'object' || cond === null) return equal(cond);
  const ops = cond as Record<string, unknown>;
  if (ops.$in !== undefined) return (ops.$in as unknown[]).some(equal);
  const x = value as number;
  return (
    (ops.$gt === undefined || x > (ops.$gt as number)) &&
    (ops.$gte === undefined || x >= (ops.$gte as number)) &&
    (ops.$lt === undefined || x < (ops.$lt as number)) &&
    (ops.$lte === undefined || x <= (ops.$lte as number))
  );
}

async function write(t: TestLarder, type: string, key: string, doc: Doc | null): Promise<void> {
  await t.ok(['del', key]);
  if (doc === null) return;
  const argv = writeArgv(type, key, doc);
  if (argv.length > 2) await t.ok(argv); // a hash without fields is no key at all
}

describe('search differential: the index against a brute-force scan', () => {
  const t = suiteLarder();

  embeddedOnly('SEARCH.* needs the embedded engine')(`random documents and filters agree (seed ${SEED})`, async () => {
    const rng = new Rng(SEED);
    const docs = new Map<string, { type: string; doc: Doc }>();
    for (const { type, prefix } of DATA_TYPES) {
      await t.ok(['search.create', `idx-${type}`, 'ON', type, 'PREFIX', '1', prefix, 'SCHEMA', ...SCHEMA]);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const { type, prefix } of DATA_TYPES) {
        for (let i = 0; i < 25; i++) {
          const key = `${prefix}${rng.int(0, 30)}`;
          const doc = rng.chance(0.15) ? null : randomDoc(rng);
          await write(t, type, key, doc);
          if (doc === null) docs.delete(key);
          else docs.set(key, { type, doc });
        }
      }
      for (let q = 0; q < 15; q++) {
        const { type } = rng.pick(DATA_TYPES);
        const filter = randomFilter(rng);
        const text = JSON.stringify(filter);
        const label = `seed ${SEED} (SEARCH_SEED=${SEED} replays it), round ${round}, ${type}, filter ${text}`;
        const expected = [...docs].filter(([, d]) => d.type === type && holds(d.doc, filter));
        const count = await t.ok(['search.count', `idx-${type}`, text]);
        assert.equal(count, expected.length, label);
        const got = (await t.ok(['search.query', `idx-${type}`, text, 'NOCONTENT', 'LIMIT', '1000'])) as [string, string][];
        assert.deepEqual(got.map((r) => r[0]).sort(), expected.map(([k]) => k).sort(), label);
        const ordered = (await t.ok(['search.query', `idx-${type}`, text, 'NOCONTENT', 'LIMIT', '1000', 'ORDERBY', 'n', 'ASC'])) as [string, string][];
        const nOf = (key: string) => docs.get(key)!.doc.n ?? Infinity; // documents without n come last
        const wantOrder = expected.map(([k]) => nOf(k)).sort((a, b) => a - b);
        assert.deepEqual(ordered.map((r) => nOf(r[0])), wantOrder, `${label}, ORDERBY n ASC`);
      }
    }
  });
});
