// Seeded random documents (JSON, hash and string keys) and random filters: SEARCH.COUNT, the keys
// SEARCH.QUERY matches, and its ORDERBY order must equal what a brute-force evaluator, written
// here independently of src/kv/search/, finds by reading every document. The text operators
// (smart matching, $eq phrases, $phrase with slop or prefix, $fuzzy, $prefix, $regex) are
// decided here from the reference's definitions, with the stemmer library as the only shared
// part (the reference's analysis is that library's). Writes (overwrites and
// deletions) interleave with the queries, so the sync path is compared too. A failure prints the
// seed: SEARCH_SEED=<seed> replays it.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, suiteLarder } from '../../support/larder.js';
import { stemmer } from '@orama/stemmers/english';
import { Rng } from '../differential/prng.js';
import { createIndexes, DATA_TYPES, writeRound, type Written } from './random-documents.js';

const SEED = Number(process.env.SEARCH_SEED ?? 2311);
const ROUNDS = 3;
const WORDS = ['red', 'Blue', 'green', 'lamp', 'lamps', 'desk', 'chair', 'chairs', 'oak', 'Steel', 'soft', 'été', 'running', 'runs', 'reds',
  'tabletop', 'headphones', 'wireless', 'bluetooth'];
/** Query words: the documents' words, and typos and beginnings of them (with typos too). */
const QUERY_WORDS = [...WORDS, 'rde', 'gren', 'lampz', 'chiar', 'stee', 'sof', 'ete', 'run', 'de', 'ch', 'tabel', 'haedph', 'hedpho', 'wirl', 'blutoo', 'tablteo'];
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

function randomDoc(rng: Rng): Doc {
  const doc: Doc = {};
  if (rng.chance(0.9)) doc.title = rng.some(WORDS, rng.int(1, 4)).join(rng.pick([' ', ', ', '-']));
  if (rng.chance(0.9)) doc.n = rng.int(-5, 5);
  if (rng.chance(0.8)) doc.f = rng.int(-20, 20) / 4;
  if (rng.chance(0.8)) doc.ok = rng.chance(0.5);
  if (rng.chance(0.8)) doc.tag = rng.pick(TAGS);
  if (doc.title !== undefined) TITLES.push(doc.title); // every document made is written
  return doc;
}

function randomCondition(rng: Rng): Filter {
  const c = rawCondition(rng);
  // $boost never changes which documents match, only their order.
  if (rng.chance(0.1)) c.$boost = rng.pick([2, 0.5, -1]);
  return c;
}

function rawCondition(rng: Rng): Filter {
  switch (rng.int(0, 8)) {
    case 0:
      return { title: someWords(rng) };
    case 1:
      return { n: rng.chance(0.5) ? rng.int(-5, 5) : { $in: rng.some([-5, -1, 0, 2, 5], 2) } };
    case 2: {
      const range: Record<string, number | string> = {};
      const field = rng.pick(['f', 'n', 'tag']);
      const bound = () => (field === 'tag' ? rng.pick(TAGS) : rng.int(-20, 20) / 4);
      range[rng.pick(['$gt', '$gte'])] = bound();
      if (rng.chance(0.5)) range[rng.pick(['$lt', '$lte'])] = bound();
      return { [field]: range };
    }
    case 3:
      return { ok: rng.chance(0.5) };
    case 4:
      return { tag: rng.chance(0.5) ? rng.pick(TAGS) : { $in: rng.some(TAGS, 2) } };
    case 5:
      return { title: { $in: rng.some(WORDS, 2) } };
    case 6:
      return { title: textOperator(rng) };
    case 7:
      // $ne excludes from the object it stands in; alone it leaves nothing to exclude from.
      return rng.chance(0.5) ? { n: rng.chance(0.5) ? { $ne: rng.int(-5, 5) } : { $gte: -2, $ne: rng.int(-5, 5) } } : { tag: { $ne: rng.pick(TAGS) }, ok: true };
    default:
      return { title: { $eq: someWords(rng) } };
  }
}

/** Titles written so far: phrases are mostly cut from them, so that they do occur. */
const TITLES: string[] = [];

/** A few words in a row from a title written, sometimes with one left out (for slop); or random words. */
function someWords(rng: Rng): string {
  if (TITLES.length === 0 || rng.chance(0.3)) return rng.some(QUERY_WORDS, rng.int(1, 2)).join(' ');
  const title = words(rng.pick(TITLES));
  const start = rng.int(0, title.length - 1);
  const run = title.slice(start, start + rng.int(1, 3));
  if (run.length === 3 && rng.chance(0.5)) run.splice(1, 1);
  return run.join(' ');
}

function textOperator(rng: Rng): Filter {
  const words = someWords(rng);
  switch (rng.int(0, 4)) {
    case 0:
      return { $phrase: rng.chance(0.5) ? words : rng.chance(0.5) ? { value: words, slop: rng.int(0, 2) } : { value: words, prefix: true } };
    case 1:
      return { $fuzzy: { value: words, distance: rng.int(0, 2), transpositionCostOne: rng.chance(0.5), prefix: rng.chance(0.3) } };
    case 2:
      return { $prefix: rng.pick(QUERY_WORDS).slice(0, rng.int(1, 3)) };
    case 3:
      return { $regex: rng.pick(['(red|blue).*', 'l.*', '.*s', 'chair', 'run', 'st[a-z]+']) };
    default:
      return { $smart: `"${words}"` };
  }
}

function randomFilter(rng: Rng, depth = 0): Filter {
  const pickClauses = () => Array.from({ length: rng.int(1, 2) }, () => (depth < 1 && rng.chance(0.3) ? randomFilter(rng, depth + 1) : randomCondition(rng)));
  const filter: Filter = {};
  if (rng.chance(0.5)) Object.assign(filter, randomCondition(rng));
  if (rng.chance(0.3)) filter.$must = pickClauses();
  if (rng.chance(0.3)) filter.$should = pickClauses();
  if (rng.chance(0.3)) filter.$mustNot = pickClauses();
  if (rng.chance(0.1)) filter.$or = pickClauses();
  if (rng.chance(0.1)) filter.$and = pickClauses();
  return filter;
}

// The brute-force evaluator: every document read as the test wrote it.
const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w !== '');
const terms = (text: string) => words(text).map(stemmer);

function holds(doc: Doc, filter: Filter): boolean {
  const list = (v: unknown) => (v === undefined ? [] : (v as Filter[]));
  const must: Filter[] = [];
  const mustNot = [...list(filter.$mustNot)];
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$')) continue;
    const ops = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
    if (ops?.$ne === undefined) {
      must.push({ [k]: v });
      continue;
    }
    const { $ne, $boost, ...rest } = ops;
    mustNot.push({ [k]: { $eq: $ne } });
    if (Object.keys(rest).length > 0) must.push({ [k]: rest });
  }
  must.push(...list(filter.$must), ...list(filter.$and));
  // $or is a required clause of its own: one of its filters holds (so a $should beside it is optional).
  if (filter.$or !== undefined) must.push({ $should: filter.$or });
  const should = list(filter.$should);
  if (!must.every((c) => clause(doc, c))) return false;
  if (must.length === 0 && should.length > 0 && !should.some((c) => clause(doc, c))) return false;
  // The reference: $mustNot alone "returns no results because there is no base set to filter".
  if (must.length === 0 && should.length === 0 && mustNot.length > 0) return false;
  return !mustNot.some((c) => clause(doc, c));
}

function clause(doc: Doc, c: Filter): boolean {
  const entries = Object.entries(c).filter(([k]) => k !== '$boost');
  // A nested filter (several keys, or boolean operators, or none: every document) reads as a whole.
  if (entries.length !== 1 || entries[0][0].startsWith('$')) return holds(doc, Object.fromEntries(entries));
  const [field, cond] = entries[0];
  if (typeof cond === 'object' && cond !== null && '$ne' in cond) return holds(doc, c);
  const value = doc[field as keyof Doc];
  if (value === undefined) return false;
  if (field === 'title') return titleHolds(String(value), cond);
  const equal = (want: unknown) => value === want;
  if (typeof cond !== 'object' || cond === null) return equal(cond);
  const ops = cond as Record<string, unknown>;
  if (ops.$in !== undefined) return (ops.$in as unknown[]).some(equal);
  if (ops.$eq !== undefined) return equal(ops.$eq);
  const x = value as number;
  return (
    (ops.$gt === undefined || x > (ops.$gt as number)) &&
    (ops.$gte === undefined || x >= (ops.$gte as number)) &&
    (ops.$lt === undefined || x < (ops.$lt as number)) &&
    (ops.$lte === undefined || x <= (ops.$lte as number))
  );
}

/** The reference's text operators, over the title's stemmed terms. */
function titleHolds(title: string, cond: unknown): boolean {
  const have = terms(title);
  if (typeof cond === 'string') return smart(have, cond);
  const ops = cond as Record<string, any>;
  if (ops.$in !== undefined) return (ops.$in as string[]).some((v) => equalsText(have, v));
  if (ops.$eq !== undefined) return equalsText(have, ops.$eq);
  if (ops.$smart !== undefined) return smart(have, ops.$smart);
  if (ops.$phrase !== undefined) {
    const p = typeof ops.$phrase === 'string' ? { value: ops.$phrase } : ops.$phrase;
    if (p.prefix) {
      const ws = words(p.value);
      return inOrder(have, [...ws.slice(0, -1).map((w) => (t: string) => t === stemmer(w)), (t: string) => startsWithForm(t, ws[ws.length - 1])], 0);
    }
    return inOrder(have, terms(p.value).map((want) => (t: string) => t === want), p.slop ?? 0);
  }
  if (ops.$fuzzy !== undefined) {
    const f = ops.$fuzzy;
    return words(f.value).every((w) => have.some((t) => fuzzy(w, t, f.distance, f.transpositionCostOne, f.prefix)));
  }
  if (ops.$prefix !== undefined) return words(ops.$prefix).every((w) => have.some((t) => startsWithForm(t, w)));
  const re = new RegExp(`^(?:${ops.$regex})$`, 'u');
  return have.some((t) => re.test(t));
}

/** One word: the term; several: the exact phrase. */
function equalsText(have: string[], text: string): boolean {
  const want = terms(text);
  if (want.length === 0) return false;
  return inOrder(have, want.map((w) => (t: string) => t === w), 0);
}

/** Smart matching: "quoted" is the exact phrase; otherwise any word exactly or 1 edit away, or the last word as a fuzzy prefix. */
function smart(have: string[], text: string): boolean {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return equalsText(have, text.slice(1, -1));
  const ws = words(text);
  if (ws.length === 0) return false;
  const last = ws[ws.length - 1];
  return have.some((t) => ws.some((w) => t === stemmer(w) || fuzzy(w, t, 1, true, false)) || fuzzy(last, t, 1, true, true));
}

/** Whether `have` holds a match for each predicate, in order, with at most `slop` other terms between them in all. */
function inOrder(have: string[], want: ((t: string) => boolean)[], slop: number): boolean {
  if (want.length === 0) return false;
  const tryFrom = (i: number, at: number, gaps: number): boolean => {
    if (i === want.length) return true;
    for (let p = at; p < have.length && p - at <= slop - gaps; p++) if (want[i](have[p]) && tryFrom(i + 1, p + 1, gaps + p - at)) return true;
    return false;
  };
  for (let start = 0; start < have.length; start++) if (want[0](have[start]) && tryFrom(1, start + 1, 0)) return true;
  return false;
}

/** The word (as typed or stemmed) begins the term. */
const startsWithForm = (term: string, word: string) => term.startsWith(word) || term.startsWith(stemmer(word));

/** Within `distance` edits of the term (or, with `prefix`, of one of its beginnings), as typed or stemmed. */
function fuzzy(word: string, term: string, distance: number, swaps: boolean, prefix: boolean): boolean {
  const targets = prefix ? [...term].map((_, i) => [...term].slice(0, i + 1).join('')).concat(['']) : [term];
  return [word, stemmer(word)].some((w) => targets.some((x) => osa([...w], [...x], swaps) <= distance));
}

/** Optimal string alignment distance, the full table. */
function osa(a: string[], b: string[], swaps: boolean): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('search differential: the index against a brute-force scan', () => {
  const t = suiteLarder();

  embeddedOnly('SEARCH.* needs the embedded engine')(`random documents and filters agree (seed ${SEED})`, async () => {
    const rng = new Rng(SEED);
    const docs: Written<Doc> = new Map();
    await createIndexes(t, 'idx', SCHEMA);
    for (let round = 0; round < ROUNDS; round++) {
      await writeRound(t, rng, docs, 25, 30, randomDoc);
      for (let q = 0; q < 80; q++) {
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
