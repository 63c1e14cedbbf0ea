// SEARCH.QUERY's text analysis, operators and options as raw commands over HTTP against a real
// Larder: stemming per LANGUAGE with NOSTEM and NOTOKENIZE, smart matching, $eq as a phrase,
// $phrase, $fuzzy, $prefix, $contains, $regex, $boost, $and/$or, HIGHLIGHT, SCOREFUNC, and the
// argument rules (NOCONTENT inside MULTI/EVAL, SCOREFUNC vs ORDERBY). Texts the Upstash
// reference states are asserted as stated; the rest are Larder's (src/kv/search/errors.ts).

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { embeddedOnly, replies, suiteLarder } from '../../support/larder.js';

const LANGUAGES = ['arabic', 'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'greek', 'hungarian', 'italian',
  'norwegian', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish', 'tamil', 'turkish'];

const PHRASES: Record<string, string> = {
  'd:a': 'Wireless headphones',
  'd:b': 'wireless bluetooth headphones',
  'd:c': 'headphones, wireless',
  'd:d': 'wireless bluetooth overhead headphones',
  'd:e': 'wireless bluetooth noise-cancelling headphones',
  'd:f': 'wireless headset',
  'd:g': 'desk lamp',
};

describe('SEARCH.QUERY: analysis, operators and options', () => {
  const t = suiteLarder();
  const { reply, fails } = replies(() => t);
  const keysOf = async (argv: string[]) => ((await t.ok(argv)) as [string, string][]).map((r) => r[0]);
  const only = embeddedOnly('SEARCH.* needs the embedded engine');

  /** The "docs" index over PHRASES (hash documents, field `body`). */
  async function phraseIndex(name: string): Promise<(filter: unknown) => Promise<string[]>> {
    await t.ok(['search.create', name, 'ON', 'HASH', 'PREFIX', '1', 'd:', 'SCHEMA', 'body', 'TEXT', 'exact', 'TEXT', 'NOSTEM', 'FROM', 'body']);
    for (const [key, body] of Object.entries(PHRASES)) await t.ok(['hset', key, 'body', body]);
    return async (filter) => (await keysOf(['search.query', name, JSON.stringify(filter), 'NOCONTENT', 'LIMIT', '100'])).sort();
  }

  only('TEXT fields stem per LANGUAGE, except NOSTEM and NOTOKENIZE fields; queries are analysed the same way', async () => {
    for (const language of LANGUAGES) {
      await reply(['search.create', `l-${language}`, 'ON', 'HASH', 'PREFIX', '1', `${language}:`, 'LANGUAGE', language, 'SCHEMA', 'a', 'TEXT'], 1);
    }
    await fails(['search.create', 'l-klingon', 'ON', 'HASH', 'PREFIX', '1', 'k:', 'LANGUAGE', 'klingon', 'SCHEMA', 'a', 'TEXT'], 'ERR Unsupported language: klingon');
    await t.ok(['hset', 'english:1', 'a', 'The runner runs']);
    await t.ok(['hset', 'german:1', 'a', 'Alte Häuser']);
    await t.ok(['hset', 'russian:1', 'a', 'новые книги']);
    await t.ok(['hset', 'spanish:1', 'a', 'corriendo']);
    const eq = async (language: string, word: string) => keysOf(['search.query', `l-${language}`, JSON.stringify({ a: { $eq: word } }), 'NOCONTENT']);
    assert.deepEqual(await eq('english', 'running'), ['english:1']);
    assert.deepEqual(await eq('german', 'haus'), ['german:1']);
    assert.deepEqual(await eq('russian', 'книга'), ['russian:1']);
    assert.deepEqual(await eq('spanish', 'corre'), ['spanish:1']);
    // The same word in another language's index is not stemmed the same way.
    await t.ok(['hset', 'english:2', 'a', 'Alte Häuser']);
    assert.deepEqual(await eq('english', 'haus'), []);

    await t.ok(['search.create', 'opts', 'ON', 'JSON', 'PREFIX', '1', 'o:', 'SCHEMA', 'stemmed', 'TEXT', 'plain', 'TEXT', 'NOSTEM', 'whole', 'TEXT', 'NOTOKENIZE']);
    await t.ok(['json.set', 'o:1', '$', JSON.stringify({ stemmed: 'running shoes', plain: 'running shoes', whole: 'Running Shoes' })]);
    const opts = async (filter: unknown) => keysOf(['search.query', 'opts', JSON.stringify(filter), 'NOCONTENT']);
    assert.deepEqual(await opts({ stemmed: { $eq: 'run' } }), ['o:1']);
    assert.deepEqual(await opts({ plain: { $eq: 'run' } }), []);
    assert.deepEqual(await opts({ plain: { $eq: 'running' } }), ['o:1']);
    assert.deepEqual(await opts({ whole: { $eq: 'shoes' } }), []);
    assert.deepEqual(await opts({ whole: { $eq: 'running shoes' } }), ['o:1']);
  });

  only('$eq on TEXT: one word is a term, several are an exact phrase; $phrase with slop and prefix', async () => {
    const query = await phraseIndex('phrases');
    assert.deepEqual(await query({ body: { $eq: 'headphones' } }), ['d:a', 'd:b', 'd:c', 'd:d', 'd:e']);
    assert.deepEqual(await query({ body: { $eq: 'wireless headphones' } }), ['d:a']);
    assert.deepEqual(await query({ body: { $in: ['wireless headphones', 'desk lamp'] } }), ['d:a', 'd:g']);
    assert.deepEqual(await query({ body: { $phrase: 'wireless headphones' } }), ['d:a']);
    assert.deepEqual(await query({ body: { $phrase: 'headphones wireless' } }), ['d:c']);
    // The reference's example: slop 2 takes 0, 1 and 2 moves, not 3.
    assert.deepEqual(await query({ body: { $phrase: { value: 'wireless headphones', slop: 2 } } }), ['d:a', 'd:b', 'd:d']);
    assert.deepEqual(await query({ body: { $phrase: { value: 'wireless headphones', slop: 3 } } }), ['d:a', 'd:b', 'd:d', 'd:e']);
    assert.deepEqual(await query({ body: { $phrase: { value: 'wireless head', prefix: true } } }), ['d:a', 'd:f']);
    assert.deepEqual(await query({ body: { $phrase: { value: 'noise cancel', prefix: true } } }), ['d:e']);
    await fails(['search.query', 'phrases', '{"body":{"$phrase":{"value":"a b","slop":1,"prefix":true}}}'], 'ERR Invalid query: $phrase takes slop or prefix, not both');
    await fails(['search.query', 'phrases', '{"body":{"$phrase":{"value":"a b","slop":-1}}}'], 'ERR Invalid query: $phrase slop must be a non-negative integer');
    await fails(['search.query', 'phrases', '{"body":{"$phrase":{"text":"a b"}}}'], 'ERR Invalid query: $phrase takes text or an object with a text value');
  });

  only('$fuzzy with distance, transpositionCostOne and prefix; $prefix, $contains and $regex match terms', async () => {
    const query = await phraseIndex('terms');
    const headphones = ['d:a', 'd:b', 'd:c', 'd:d', 'd:e'];
    assert.deepEqual(await query({ body: { $fuzzy: 'headphons' } }), headphones);
    assert.deepEqual(await query({ body: { $fuzzy: 'haedphone' } }), headphones); // a swap is 1 edit by default
    assert.deepEqual(await query({ body: { $fuzzy: { value: 'haedphone', distance: 1, transpositionCostOne: false } } }), []);
    assert.deepEqual(await query({ body: { $fuzzy: { value: 'haedphone', distance: 2, transpositionCostOne: false } } }), headphones);
    assert.deepEqual(await query({ body: { $fuzzy: { value: 'haedpho', prefix: true } } }), headphones);
    assert.deepEqual(await query({ body: { $fuzzy: { value: 'haedpho' } } }), []);
    assert.deepEqual(await query({ body: { $fuzzy: 'wireles headsets' } }), ['d:f']); // every word must match
    await fails(['search.query', 'terms', '{"body":{"$fuzzy":{"value":"x","distance":3}}}'], 'ERR Invalid query: $fuzzy distance must be an integer from 0 to 2');
    await fails(['search.query', 'terms', '{"body":{"$fuzzy":{"value":"x","typo":1}}}'], 'ERR Invalid query: $fuzzy has no option typo');

    assert.deepEqual(await query({ body: { $prefix: 'head' } }), [...headphones, 'd:f']);
    assert.deepEqual(await query({ body: { $prefix: 'bluetooth over' } }), ['d:d']);
    assert.deepEqual(await query({ body: { $contains: 'noise cancel' } }), ['d:e']);
    assert.deepEqual(await query({ body: { $contains: 'nois cancel' } }), []);
    // $regex matches whole terms, which are stemmed unless the field is NOSTEM.
    assert.deepEqual(await query({ body: { $regex: 'head(phon|set)' } }), [...headphones, 'd:f']);
    assert.deepEqual(await query({ body: { $regex: 'headphones' } }), []);
    assert.deepEqual(await query({ exact: { $regex: 'headphones' } }), headphones);
    assert.deepEqual(await query({ body: { $regex: 'wire' } }), []);
    await fails(['search.query', 'terms', '{"body":{"$regex":"("}}'], 'ERR Invalid query: $regex "(" is not a valid regular expression');
    await fails(['search.query', 'terms', '{"body":{"$regex":"(?<=a)b"}}'], 'ERR Invalid query: $regex "(?<=a)b" is not a valid regular expression');
  });

  only('$regex runs in linear time: patterns that make a backtracking engine take exponential time answer, and rightly', async () => {
    const query = await phraseIndex('hostile');
    // 60 long terms of a's: a backtracking engine tries about 2^length ways to split each one.
    const long = Array.from({ length: 60 }, (_, i) => `d:long${String(i).padStart(2, '0')}`);
    for (const [i, key] of long.entries()) await t.ok(['hset', key, 'body', 'a'.repeat(40 + i)]);
    for (const pattern of ['(a+)+b', '(a|aa)*c', '(a*)*b', '(?:a|a)*b']) assert.deepEqual(await query({ exact: { $regex: pattern } }), [], pattern);
    assert.deepEqual(await query({ exact: { $regex: '(a+)+' } }), long);
    assert.deepEqual(await query({ exact: { $regex: '(a|aa)*' } }), long);
    assert.deepEqual(await query({ exact: { $regex: 'a{40,45}' } }), long.slice(0, 6));
  });

  only('fuzzy matching of a long word against long terms costs the words\' length, not their product', async () => {
    await t.ok(['search.create', 'long-words', 'ON', 'HASH', 'PREFIX', '1', 'w:', 'SCHEMA', 'body', 'TEXT', 'NOSTEM']);
    const long = 'a'.repeat(20_000);
    await t.ok(['hset', 'w:1', 'body', long]);
    await t.ok(['hset', 'w:2', 'body', `${long.slice(2)}bb`]);
    await t.ok(['hset', 'w:3', 'body', `${long}c`]);
    const keys = async (filter: unknown) => (await keysOf(['search.query', 'long-words', JSON.stringify(filter), 'NOCONTENT'])).sort();
    // The full edit-distance table of a 20,000-letter word against a 20,000-letter term is 400
    // million cells (1.6 GB): each query stalled the thread for seconds; smart matching tries three.
    const answers = (async () => {
      assert.deepEqual(await keys({ body: `${long}x` }), ['w:1', 'w:3']);
      assert.deepEqual(await keys({ body: { $fuzzy: { value: long, distance: 2 } } }), ['w:1', 'w:2', 'w:3']);
      assert.deepEqual(await keys({ body: { $fuzzy: `${long.slice(1)}ca` } }), ['w:1', 'w:3']); // w:3 by a swap
      assert.deepEqual(await keys({ body: { $fuzzy: { value: `${long.slice(1)}ca`, transpositionCostOne: false } } }), ['w:1']);
      assert.deepEqual(await keys({ body: { $fuzzy: { value: `${long.slice(3)}bbb`, prefix: true } } }), ['w:2']);
    })();
    const stalled = new Promise((_, reject) => setTimeout(() => reject(new Error('fuzzy matching of a long word stalled')), 10_000).unref());
    await Promise.race([answers, stalled]);
  });

  only('phrase matching reads each word\'s positions once, however many starts it tries', async () => {
    await t.ok(['search.create', 'long-phrases', 'ON', 'HASH', 'PREFIX', '1', 'lp:', 'SCHEMA', 'body', 'TEXT', 'NOSTEM']);
    await t.ok(['hset', 'lp:1', 'body', 'b a '.repeat(10_000)]);
    await t.ok(['hset', 'lp:2', 'body', `${'a '.repeat(3000)}b ${'a '.repeat(3000)}`]);
    const keys = async (filter: unknown) => (await keysOf(['search.query', 'long-phrases', JSON.stringify(filter), 'NOCONTENT'])).sort();
    // Each start searched every later word's positions from the first: 10,000 starts, 40 words
    // and 10,000 positions each took 3 s; the 300 words of a smart query, minutes.
    const answers = (async () => {
      assert.deepEqual(await keys({ body: { $phrase: `${'a '.repeat(40)}b b` } }), []);
      assert.deepEqual(await keys({ body: { $phrase: { value: `${'a '.repeat(40)}b b`, slop: 50 } } }), ['lp:1']);
      // lp:2 holds this phrase word for word; in lp:1 a b takes 38 more words between the a's.
      assert.deepEqual(await keys({ body: { $phrase: { value: `a b ${'a '.repeat(39)}`, slop: 38 } } }), ['lp:1', 'lp:2']);
      assert.deepEqual(await keys({ body: { $phrase: { value: `a b ${'a '.repeat(39)}`, slop: 37 } } }), ['lp:2']);
      assert.deepEqual(await keys({ body: `${'a '.repeat(300)}b b` }), ['lp:1', 'lp:2']);
    })();
    const stalled = new Promise((_, reject) => setTimeout(() => reject(new Error('phrase matching stalled')), 10_000).unref());
    await Promise.race([answers, stalled]);
  });

  only('smart matching: one word exactly, fuzzily and by fuzzy prefix; several words as phrase, terms and fuzzily; quotes force the phrase', async () => {
    await t.ok(['search.create', 'smart', 'ON', 'HASH', 'PREFIX', '1', 's:', 'SCHEMA', 'name', 'TEXT', 'n', 'U64']);
    for (const [key, name] of [['s:1', 'tabletop'], ['s:2', 'tabeltop'], ['s:3', 'tabeltopper'], ['s:4', 'table top'], ['s:5', 'desk']]) {
      await t.ok(['hset', key, 'name', name]);
    }
    const ranked = async (filter: unknown) => keysOf(['search.query', 'smart', JSON.stringify(filter), 'NOCONTENT']);
    // The reference's order: exact, then 1 edit away, then a fuzzy prefix.
    assert.deepEqual(await ranked({ name: 'tabletop' }), ['s:1', 's:2', 's:3']);
    assert.deepEqual(await ranked({ name: { $smart: 'tabletop' } }), ['s:1', 's:2', 's:3']);
    await t.ok(['search.create', 'smart-docs', 'ON', 'HASH', 'PREFIX', '1', 'd:', 'SCHEMA', 'body', 'TEXT']);
    for (const [key, body] of Object.entries(PHRASES)) await t.ok(['hset', key, 'body', body]);
    const docs = async (filter: unknown) => keysOf(['search.query', 'smart-docs', JSON.stringify(filter), 'NOCONTENT', 'LIMIT', '100']);
    // Several words: the exact phrase first, then the phrase with a few words between, then the others that hold any word.
    const several = await docs({ body: 'wireless headphones' });
    assert.deepEqual(several.slice(0, 3), ['d:a', 'd:b', 'd:d']);
    assert.deepEqual([...several].sort(), ['d:a', 'd:b', 'd:c', 'd:d', 'd:e', 'd:f']);
    assert.deepEqual((await docs({ body: 'wireles headphon' }))[0], 'd:a'); // typos, and the last word typed half
    assert.deepEqual(await docs({ body: '"wireless headphones"' }), ['d:a']);
    assert.deepEqual(await docs({ body: 'lamps' }), ['d:g']);
  });

  only('$boost scales a clause; $and and $or combine like $must and a required $should', async () => {
    await t.ok(['search.create', 'b', 'ON', 'JSON', 'PREFIX', '1', 'b:', 'SCHEMA', 'description', 'TEXT', 'inStock', 'BOOL', 'price', 'F64', 'FAST']);
    await t.ok(['json.set', 'b:1', '$', JSON.stringify({ description: 'premium sound', inStock: true, price: 10 })]);
    await t.ok(['json.set', 'b:2', '$', JSON.stringify({ description: 'quality sound', inStock: true, price: 20 })]);
    await t.ok(['json.set', 'b:3', '$', JSON.stringify({ description: 'budget sound', inStock: false, price: 30 })]);
    const ranked = async (filter: unknown) => keysOf(['search.query', 'b', JSON.stringify(filter), 'NOCONTENT']);
    const should = (premium: number, quality: number) => ({ $must: { inStock: true }, $should: [{ description: 'premium', $boost: premium }, { description: 'quality', $boost: quality }] });
    assert.deepEqual(await ranked(should(10, 1)), ['b:1', 'b:2']);
    assert.deepEqual(await ranked(should(1, 10)), ['b:2', 'b:1']);
    assert.deepEqual(await ranked(should(-2, 1)), ['b:2', 'b:1']); // a negative boost demotes, never excludes
    assert.deepEqual(await ranked({ $must: { inStock: true }, $should: { description: 'premium', price: { $gt: 15 }, $boost: 5 } }).then((k) => k.length), 2);
    assert.deepEqual(await ranked({ description: { $smart: 'quality', $boost: 3 }, inStock: true }), ['b:2']);
    assert.deepEqual((await ranked({ $or: [{ description: 'budget' }, { price: { $lt: 15 } }] })).sort(), ['b:1', 'b:3']);
    assert.deepEqual(await ranked({ inStock: true, $or: [{ description: 'budget' }, { price: { $lt: 15 } }] }), ['b:1']);
    assert.deepEqual((await ranked({ $and: [{ description: 'sound' }, { inStock: true }] })).sort(), ['b:1', 'b:2']);
    await fails(['search.query', 'b', '{"description":"x","$boost":"high"}'], 'ERR Invalid query: $boost takes a number');
    await fails(['search.query', 'b', '{"inStock":{"$fuzzy":"x"}}'], 'ERR Operator $fuzzy is not supported on BOOL field inStock');
  });

  only('HIGHLIGHT wraps the matched words of the named fields in tags, in the content returned', async () => {
    await t.ok(['search.create', 'hl', 'ON', 'JSON', 'PREFIX', '1', 'hl:', 'SCHEMA', 'title', 'TEXT', 'tags', 'KEYWORD', 'meta.note', 'TEXT', 'alias', 'TEXT', 'NOSTEM', 'FROM', 'meta.note']);
    const doc = { title: 'Wireless Headphones, wireless!', tags: ['audio', 'sale', 7], meta: { note: 'Headphones for running' }, n: 1 };
    await t.ok(['json.set', 'hl:1', '$', JSON.stringify(doc)]);
    const content = async (filter: unknown, ...opts: string[]) => {
      const [[, , c]] = (await t.ok(['search.query', 'hl', JSON.stringify(filter), ...opts])) as [string, string, [string, string][]][];
      return c;
    };
    const whole = async (filter: unknown, ...opts: string[]) => JSON.parse((await content(filter, ...opts))[0][1]);
    assert.deepEqual(await whole({ title: 'wireless' }, 'HIGHLIGHT', 'FIELDS', '1', 'title'),
      { ...doc, title: '<em>Wireless</em> Headphones, <em>wireless</em>!' });
    assert.deepEqual(await whole({ title: { $fuzzy: 'headphons' }, tags: 'sale' }, 'HIGHLIGHT', 'FIELDS', '2', 'title', 'tags', 'TAGS', '[', ']'),
      { ...doc, title: 'Wireless [Headphones], wireless!', tags: ['audio', '[sale]', 7] });
    // A field the filter did not ask about, or asked about only in $mustNot, is shown as stored.
    assert.deepEqual(await whole({ title: 'wireless', $mustNot: { 'meta.note': 'cable' } }, 'HIGHLIGHT', 'FIELDS', '1', 'meta.note'), doc);
    // An aliased field is highlighted by its alias, in its source's place; SELECT names source fields.
    assert.deepEqual(await content({ alias: 'running' }, 'HIGHLIGHT', 'FIELDS', '1', 'alias', 'SELECT', '1', 'meta.note'),
      [['meta.note', 'Headphones for <em>running</em>']]);
    // SELECT takes any document field, in the schema or not; those the document lacks are left out.
    assert.deepEqual(await content({ alias: 'running' }, 'SELECT', '3', 'n', 'nope', 'meta'), [['n', '1'], ['meta', '{"note":"Headphones for running"}']]);
    await t.ok(['search.create', 'hh', 'ON', 'HASH', 'PREFIX', '1', 'hh:', 'SCHEMA', 'body', 'TEXT']);
    await t.ok(['hset', 'hh:1', 'body', 'ein schönes Haus', 'other', 'x']);
    const [[, , hash]] = (await t.ok(['search.query', 'hh', '{"body":"schönes haus"}', 'HIGHLIGHT', 'FIELDS', '1', 'body', 'TAGS', '«', '»'])) as [string, string, [string, string][]][];
    assert.deepEqual(hash, [['body', 'ein «schönes» «Haus»'], ['other', 'x']]);
    await fails(['search.query', 'hl', '{}', 'NOCONTENT', 'HIGHLIGHT', 'FIELDS', '1', 'title'], 'ERR NOCONTENT cannot be combined with SELECT or HIGHLIGHT');
    await fails(['search.query', 'hl', '{}', 'HIGHLIGHT', 'FIELDS', '1', 'nope'], 'ERR Unknown field: nope');
    await fails(['search.query', 'hl', '{}', 'HIGHLIGHT', '1', 'title'], 'ERR syntax error');
  });

  only('names fields, operators and values outside ASCII in its errors as they were written', async () => {
    await t.ok(['search.create', 'σ', 'ON', 'HASH', 'PREFIX', '1', 'σ:', 'SCHEMA', 'ΣΊΣ', 'TEXT', 'año', 'U64', 'FAST', 'día', 'KEYWORD']);
    await t.ok(['hset', 'σ:1', 'ΣΊΣ', 'hello', 'año', '7', 'día', 'lunes']);
    await fails(['search.query', 'σ', '{"ΣΊΣX":"hello"}'], 'ERR Unknown field: ΣΊΣX');
    await fails(['search.query', 'σ', '{"ΣΊΣ":{"$regex":"(ΣΊ"}}'], 'ERR Invalid query: $regex "(ΣΊ" is not a valid regular expression');
    await fails(['search.query', 'σ', '{"ΣΊΣ":{"$ünknown":"x"}}'], 'ERR Unknown field operator: $ünknown');
    await fails(['search.query', 'σ', '{"año":{"$gt":"mañana"}}'], 'ERR Invalid query: "mañana" is not a valid U64 value for field año');
    await fails(['search.query', 'σ', '{"día":{"$fuzzy":"x"}}'], 'ERR Operator $fuzzy is not supported on KEYWORD field día');
    await fails(['search.query', 'σ', '{}', 'HIGHLIGHT', 'FIELDS', '1', 'ñope'], 'ERR Unknown field: ñope');
    await fails(['search.aggregate', 'σ', '{}', '{"n":{"$avg":{"field":"día"}}}'], 'ERR Aggregation $avg is not supported on KEYWORD field día');
    await fails(['search.aggregate', 'σ', '{}', '{"n":{"$avg":{"field":"ñ"}}}'], 'ERR Unknown field: ñ');
  });

  only('SCOREFUNC adjusts scores by FAST numeric fields: modifiers, factor, missing, combine and score modes', async () => {
    await t.ok(['search.create', 'sf', 'ON', 'HASH', 'PREFIX', '1', 'sf:', 'SCHEMA', 'name', 'TEXT', 'pop', 'F64', 'FAST', 'stars', 'U64', 'FAST', 'slow', 'F64', 'tag', 'KEYWORD']);
    await t.ok(['hset', 'sf:1', 'name', 'red', 'pop', '99', 'stars', '2']);
    await t.ok(['hset', 'sf:2', 'name', 'red', 'pop', '9', 'stars', '5']);
    await t.ok(['hset', 'sf:3', 'name', 'red', 'stars', '4']);
    const scored = async (...fn: string[]) => (await t.ok(['search.query', 'sf', '{}', 'NOCONTENT', 'SCOREFUNC', ...fn])) as [string, string][];
    // {} scores 0, so SUM (the default) shows the function's value alone.
    assert.deepEqual(await scored('FIELDVALUE', 'pop'), [['sf:1', '99'], ['sf:2', '9'], ['sf:3', '0']]);
    assert.deepEqual(await scored('FIELDVALUE', 'pop', 'MODIFIER', 'LOG1P', 'FACTOR', '2', 'MISSING', '9'), [['sf:1', '4'], ['sf:2', '2'], ['sf:3', '2']]);
    assert.deepEqual(await scored('FIELDVALUE', 'pop', 'MODIFIER', 'log', 'MISSING', '-1'), [['sf:1', String(Math.log10(99))], ['sf:2', String(Math.log10(9))], ['sf:3', '-1']]);
    assert.deepEqual(await scored('COMBINEMODE', 'MULTIPLY', 'FIELDVALUE', 'pop', 'MISSING', '1', 'FIELDVALUE', 'stars', 'MODIFIER', 'SQUARE'),
      [['sf:1', '396'], ['sf:2', '225'], ['sf:3', '16']]);
    assert.deepEqual(await scored('FIELDVALUE', 'stars', 'MODIFIER', 'RECIPROCAL', 'FIELDVALUE', 'stars', 'MODIFIER', 'SQRT'),
      [['sf:2', String(0.2 + Math.sqrt(5))], ['sf:3', String(0.25 + 2)], ['sf:1', String(0.5 + Math.sqrt(2))]]);
    // The query's own score: MULTIPLY and REPLACE.
    const base = Number(((await t.ok(['search.query', 'sf', '{"name":"red"}', 'NOCONTENT'])) as [string, string][])[0][1]);
    const red = async (...fn: string[]) => (await t.ok(['search.query', 'sf', '{"name":"red"}', 'NOCONTENT', 'SCOREFUNC', ...fn])) as [string, string][];
    assert.deepEqual((await red('SCOREMODE', 'MULTIPLY', 'FIELDVALUE', 'stars')).map((r) => [r[0], Number(r[1])]), [['sf:2', base * 5], ['sf:3', base * 4], ['sf:1', base * 2]]);
    assert.deepEqual(await red('SCOREMODE', 'REPLACE', 'FIELDVALUE', 'stars', 'FACTOR', '0.5'), [['sf:2', '2.5'], ['sf:3', '2'], ['sf:1', '1']]);
    await fails(['search.query', 'sf', '{}', 'ORDERBY', 'pop', 'SCOREFUNC', 'FIELDVALUE', 'pop'], 'ERR SCOREFUNC cannot be combined with ORDERBY');
    await fails(['search.query', 'sf', '{}', 'SCOREFUNC', 'FIELDVALUE', 'slow'], 'ERR Field slow is not a FAST U64, I64 or F64 field: SCOREFUNC needs one');
    await fails(['search.query', 'sf', '{}', 'SCOREFUNC', 'FIELDVALUE', 'name'], 'ERR Field name is not a FAST U64, I64 or F64 field: SCOREFUNC needs one');
    await fails(['search.query', 'sf', '{}', 'SCOREFUNC', 'MODIFIER', 'LOG'], 'ERR SCOREFUNC needs FIELDVALUE <field> before its options');
    await fails(['search.query', 'sf', '{}', 'SCOREFUNC', 'FIELDVALUE', 'pop', 'MODIFIER', 'CUBE'], 'ERR syntax error');
    await fails(['search.query', 'sf', '{}', 'SCOREFUNC', 'FIELDVALUE', 'pop', 'FACTOR', 'big'], 'ERR value is not a valid float');
    // ORDERBY without a direction sorts descending, as the reference says, and the score shown is the sort value.
    assert.deepEqual(await t.ok(['search.query', 'sf', '{"name":"red"}', 'NOCONTENT', 'ORDERBY', 'stars']), [['sf:2', '5'], ['sf:3', '4'], ['sf:1', '2']]);
    await fails(['search.query', 'sf', '{}', 'OFFSET', '10001'], 'ERR offset should be a number from 0 to 10000');
    assert.deepEqual(await t.ok(['search.query', 'sf', '{}', 'OFFSET', '10000']), []);
  });

  only('inside MULTI/EXEC and EVAL, SEARCH.QUERY requires NOCONTENT; a pipeline does not', async () => {
    await t.ok(['search.create', 'tx', 'ON', 'HASH', 'PREFIX', '1', 'tx:', 'SCHEMA', 'a', 'TEXT']);
    await t.ok(['hset', 'tx:1', 'a', 'hello']);
    const exec = async (path: string, cmds: string[][]) => (await t.request(path, { method: 'POST', body: JSON.stringify(cmds) })).json();
    assert.deepEqual(await exec('/multi-exec', [['search.query', 'tx', '{"a":"hello"}'], ['search.query', 'tx', '{"a":"hello"}', 'NOCONTENT'], ['search.count', 'tx', '{}']]), [
      { error: 'ERR SEARCH.QUERY inside MULTI or EVAL requires NOCONTENT' },
      { result: [['tx:1', ((await t.ok(['search.query', 'tx', '{"a":"hello"}', 'NOCONTENT'])) as string[][])[0][1]]] },
      { result: 1 },
    ]);
    const inScript = await t.command(['eval', "return redis.call('search.query', 'tx', '{}')", '0']);
    assert.equal(inScript.status, 400);
    assert.match(inScript.body.error, /^ERR SEARCH\.QUERY inside MULTI or EVAL requires NOCONTENT/);
    assert.deepEqual(await t.ok(['eval', "return #redis.call('search.query', 'tx', '{}', 'NOCONTENT')", '0']), 1);
    const [piped] = (await exec('/pipeline', [['search.query', 'tx', '{}']])) as { result: unknown[][] }[];
    assert.deepEqual(piped.result[0][2], [['a', 'hello']]);
  });
});
