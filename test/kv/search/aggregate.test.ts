// SEARCH.AGGREGATE against a real Larder: every aggregation kind of the reference through the
// SDK's index.aggregate (what it sends and how it parses the reply), sub-aggregations, the
// filter, hash and string indexes, and the errors over raw HTTP (Larder's texts,
// src/kv/search/errors.ts).

import assert from 'node:assert/strict';
import { before, describe } from 'node:test';
import { embeddedOnly, replies, TEST_KV_BACKEND } from '../../support/larder.js';
import { suiteSdk } from '../../support/sdk.js';

// The SDK's schema builder cannot mark KEYWORD, BOOL or DATE fields FAST, which aggregations need.
const CREATE = ['search.create', 'products', 'ON', 'JSON', 'PREFIX', '1', 'p:', 'SCHEMA', 'name', 'TEXT', 'category', 'KEYWORD', 'FAST',
  'price', 'F64', 'FAST', 'stock', 'U64', 'FAST', 'active', 'BOOL', 'FAST', 'added', 'DATE', 'FAST', 'path', 'FACET'];

const PRODUCTS: Record<string, unknown> = {
  'p:1': { name: 'red shoe', category: 'shoes', price: 10, stock: 1, active: true, added: '2024-01-01T10:00:00Z', path: '/shop/shoes/running' },
  'p:2': { name: 'blue shoe', category: 'shoes', price: 20, stock: 5, active: false, added: '2024-01-01T20:00:00Z', path: '/shop/shoes/hiking' },
  'p:3': { name: 'green hat', category: 'hats', price: 35, stock: 0, active: true, added: '2024-01-03T08:00:00Z', path: '/shop/hats' },
  'p:4': { name: 'red hat', category: 'hats', price: 65, stock: 2, active: true, added: '2024-01-04T00:00:00Z', path: '/shop/hats' },
  'p:5': { name: 'red sock', category: 'socks', price: 5, active: true, added: '2024-01-04T12:00:00Z', path: '/shop/shoes/running' },
  'p:6': { name: 'plain bag', price: 100, stock: 9, active: false, path: '/outlet/bags' },
};

describe('SEARCH.AGGREGATE', () => {
  const { t, redis } = suiteSdk({ autoPipeline: false });
  const { reply, fails } = replies(() => t);
  const index = () => redis.search.index({ name: 'products' });

  before(async () => {
    if (TEST_KV_BACKEND !== 'embedded') return;
    for (const [key, doc] of Object.entries(PRODUCTS)) await redis.json.set(key, '$', doc as Record<string, unknown>);
    assert.equal((await t.command(CREATE)).status, 200);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('metrics: $avg $sum $min $max $count $cardinality, with missing', async () => {
    const r = await index().aggregate({
      aggregations: {
        avg: { $avg: { field: 'price' } },
        sum: { $sum: { field: 'price' } },
        min: { $min: { field: 'price' } },
        max: { $max: { field: 'price' } },
        count: { $count: { field: 'stock' } },
        kinds: { $cardinality: { field: 'category' } },
        avgStock: { $avg: { field: 'stock', missing: 3 } },
      },
    });
    assert.deepEqual(r, {
      avg: { value: 235 / 6 },
      sum: { value: 235 },
      min: { value: 5 },
      max: { value: 100 },
      count: { value: 5 },
      kinds: { value: 3 },
      avgStock: { value: 20 / 6 },
    });
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('$stats, $extendedStats and $percentiles (keyed and not)', async () => {
    const r = await index().aggregate({
      filter: { category: { $in: ['shoes', 'hats'] } },
      aggregations: {
        stats: { $stats: { field: 'price' } },
        ext: { $extendedStats: { field: 'price', sigma: 1 } },
        pct: { $percentiles: { field: 'price', percents: [50, 100] } },
        list: { $percentiles: { field: 'price', percents: [25], keyed: false } },
      },
    });
    // Prices 10 20 35 65: mean 32.5, population variance 437.5, sample variance 583.33...
    const mean = 32.5;
    const varPop = (22.5 ** 2 + 12.5 ** 2 + 2.5 ** 2 + 32.5 ** 2) / 4;
    const varSample = (varPop * 4) / 3;
    assert.deepEqual(r.stats, { count: 4, min: 10, max: 65, sum: 130, avg: mean });
    assert.deepEqual(r.ext, {
      count: 4, min: 10, max: 65, avg: mean, sum: 130, sumOfSquares: 100 + 400 + 1225 + 4225,
      variance: varPop, variancePopulation: varPop, varianceSampling: varSample,
      stdDeviation: Math.sqrt(varPop), stdDeviationPopulation: Math.sqrt(varPop), stdDeviationSampling: Math.sqrt(varSample),
      stdDeviationBounds: {
        upper: mean + Math.sqrt(varPop), lower: mean - Math.sqrt(varPop),
        upperSampling: mean + Math.sqrt(varSample), lowerSampling: mean - Math.sqrt(varSample),
        upperPopulation: mean + Math.sqrt(varPop), lowerPopulation: mean - Math.sqrt(varPop),
      },
    });
    // Linear interpolation between the closest ranks: the median of 10 20 35 65 is 27.5.
    assert.deepEqual(r.pct, { values: { '50.0': 27.5, '100.0': 65 } });
    assert.deepEqual(r.list, { values: [{ key: 25, value: 17.5 }] });
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('$terms: counts, size, order, minDocCount, missing, sub-aggregations', async () => {
    const r = await index().aggregate({
      aggregations: {
        picked: { $terms: { field: 'category', include: ['hats', 'socks', 'ties'], exclude: ['socks'] } },
        // A string is a regular expression (RE2's syntax) that must match the whole key.
        matched: { $terms: { field: 'category', include: '(s|h)[a-z]+', exclude: 'so.*' } },
        partial: { $terms: { field: 'category', include: 'h' } },
        hostile: { $terms: { field: 'category', include: '(s+)+x' } },
        top: { $terms: { field: 'category', size: 2 }, $aggs: { avg: { $avg: { field: 'price' } } } },
        byKey: { $terms: { field: 'category', order: { key: 'asc' }, missing: 'none' } },
        active: { $terms: { field: 'active' } },
      }
    });
    assert.deepEqual(r.top, {
      buckets: [
        { key: 'hats', docCount: 2, avg: { value: 50 } },
        { key: 'shoes', docCount: 2, avg: { value: 15 } },
      ],
      sumOtherDocCount: 1,
    });
    assert.deepEqual(r.picked, { buckets: [{ key: 'hats', docCount: 2 }], sumOtherDocCount: 0 });
    assert.deepEqual(r.matched, { buckets: [{ key: 'hats', docCount: 2 }, { key: 'shoes', docCount: 2 }], sumOtherDocCount: 0 });
    assert.deepEqual(r.partial, { buckets: [], sumOtherDocCount: 0 });
    assert.deepEqual(r.hostile, { buckets: [], sumOtherDocCount: 0 });
    assert.deepEqual(r.byKey.buckets.map((b: { key: string; docCount: number }) => [b.key, b.docCount]),
      [['hats', 2], ['none', 1], ['shoes', 2], ['socks', 1]]);
    // keyAsString is the text "true"/"false", which the SDK's automatic deserialization turns into booleans.
    assert.deepEqual(r.active.buckets, [{ key: 1, keyAsString: true, docCount: 4 }, { key: 0, keyAsString: false, docCount: 2 }]);
    const bySub = await index().aggregate({
      aggregations: { cheap: { $terms: { field: 'category', order: { avg: 'asc' } }, $aggs: { avg: { $avg: { field: 'price' } } } } },
    });
    assert.deepEqual(bySub.cheap.buckets.map((b: { key: string }) => b.key), ['socks', 'shoes', 'hats']);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('$range and $histogram, with sub-aggregations', async () => {
    const r = await index().aggregate({
      aggregations: {
        tiers: { $range: { field: 'price', ranges: [{ to: 30 }, { from: 30, to: 60 }, { from: 60 }] }, $aggs: { n: { $count: { field: 'price' } } } },
        hist: { $histogram: { field: 'price', interval: 25 } },
        stock: { $histogram: { field: 'stock', interval: 4, minDocCount: 1 } },
      },
    });
    assert.deepEqual(r.tiers, {
      buckets: [
        { key: '*-30', to: 30, docCount: 3, n: { value: 3 } },
        { key: '30-60', from: 30, to: 60, docCount: 1, n: { value: 1 } },
        { key: '60-*', from: 60, docCount: 2, n: { value: 2 } },
      ],
    });
    // Empty buckets between the lowest and the highest value are kept (minDocCount 0).
    assert.deepEqual(r.hist, {
      buckets: [{ key: 0, docCount: 3 }, { key: 25, docCount: 1 }, { key: 50, docCount: 1 }, { key: 75, docCount: 0 }, { key: 100, docCount: 1 }],
    });
    assert.deepEqual(r.stock, { buckets: [{ key: 0, docCount: 3 }, { key: 4, docCount: 1 }, { key: 8, docCount: 1 }] });
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('$dateHistogram and date ranges answer milliseconds with RFC 3339 text', async () => {
    const day = 86_400_000;
    const jan1 = Date.parse('2024-01-01T00:00:00Z');
    const r = await index().aggregate({
      aggregations: {
        days: { $dateHistogram: { field: 'added', fixedInterval: '1d' } },
        first: { $min: { field: 'added' } },
      }
    });
    assert.deepEqual(r.days.buckets, [
      { key: jan1, keyAsString: '2024-01-01T00:00:00Z', docCount: 2 },
      { key: jan1 + day, keyAsString: '2024-01-02T00:00:00Z', docCount: 0 },
      { key: jan1 + 2 * day, keyAsString: '2024-01-03T00:00:00Z', docCount: 1 },
      { key: jan1 + 3 * day, keyAsString: '2024-01-04T00:00:00Z', docCount: 2 },
    ]);
    assert.deepEqual(r.first, { value: jan1 + 10 * 3_600_000 });
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('$facet: a tree of FACET paths, with depth, size and order', async () => {
    const r = await index().aggregate({
      aggregations: {
        shop: { $facet: { field: 'path', path: '/shop', depth: 2 } },
        top: { $facet: { field: 'path', path: '/', size: 1 } },
      },
    });
    assert.deepEqual(r.shop, {
      path: '/shop',
      sumOtherDocCount: 0,
      children: [
        { path: '/shop/shoes', docCount: 3, sumOtherDocCount: 0, children: [
          { path: '/shop/shoes/running', docCount: 2, sumOtherDocCount: 0 },
          { path: '/shop/shoes/hiking', docCount: 1, sumOtherDocCount: 0 },
        ] },
        { path: '/shop/hats', docCount: 2, sumOtherDocCount: 0, children: [] },
      ],
    });
    assert.deepEqual(r.top, { path: '/', sumOtherDocCount: 1, children: [{ path: '/shop', docCount: 5, sumOtherDocCount: 0 }] });
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('a hash\'s F64 text past the doubles (1e400) is infinite: its histogram bucket is too many to list', async () => {
    await reply(['search.create', 'inf', 'ON', 'HASH', 'PREFIX', '1', 'inf:', 'SCHEMA', 'n', 'F64', 'FAST'], 1);
    await reply(['hset', 'inf:1', 'n', '1e400'], 1);
    const hist = (extra = '') => ['search.aggregate', 'inf', '{}', `{"h":{"$histogram":{"field":"n","interval":1${extra}}}}`];
    // Its bucket number is Infinity: the count of buckets from it to itself was NaN, and listing them never ended.
    await fails(hist(), 'ERR Aggregation would create more than 65000 buckets');
    await reply(hist(',"minDocCount":1'), ['h', ['buckets', [['key', 'Infinity', 'docCount', 1]]]]);
    await reply(['hset', 'inf:2', 'n', '5'], 1);
    await fails(hist(), 'ERR Aggregation would create more than 65000 buckets');
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('the filter selects the documents; writes show at once; hash and string indexes', async () => {
    const cheap = await index().aggregate({ filter: { price: { $lt: 30 }, name: 'red' }, aggregations: { n: { $sum: { field: 'price' } } } });
    assert.deepEqual(cheap, { n: { value: 15 } });
    await redis.json.set('p:7', '$', { name: 'red cap', category: 'hats', price: 1 });
    assert.deepEqual(await index().aggregate({ filter: { name: 'red' }, aggregations: { n: { $min: { field: 'price' } } } }), { n: { value: 1 } });
    await redis.del('p:7');

    await redis.hset('h:1', { city: 'Rome', visits: '4' });
    await redis.hset('h:2', { city: 'Oslo', visits: '6' });
    await redis.hset('h:3', { city: 'Rome', visits: 'many' });
    await reply(['search.create', 'visits', 'ON', 'HASH', 'PREFIX', '1', 'h:', 'SCHEMA', 'city', 'KEYWORD', 'FAST', 'visits', 'U64', 'FAST'], 1);
    await reply(['search.aggregate', 'visits', '{}', '{"c":{"$terms":{"field":"city"},"$aggs":{"v":{"$sum":{"field":"visits"}}}}}'],
      ['c', ['buckets', [['key', 'Rome', 'docCount', 2, 'v', ['value', 4]], ['key', 'Oslo', 'docCount', 1, 'v', ['value', 6]]], 'sumOtherDocCount', 0]]);
    await redis.set('s:1', JSON.stringify({ score: 1.5 }));
    await redis.set('s:2', JSON.stringify({ score: 2 }));
    await redis.set('s:3', 'not json');
    await reply(['search.create', 'scores', 'ON', 'STRING', 'PREFIX', '1', 's:', 'SCHEMA', 'score', 'F64', 'FAST'], 1);
    await reply(['search.aggregate', 'scores', '{}', '{"a":{"$avg":{"field":"score"}},"s":{"$stats":{"field":"score"}}}'],
      ['a', ['value', '1.75'], 's', ['count', 2, 'min', '1.5', 'max', 2, 'sum', '3.5', 'avg', '1.75']]);
    // An alias names the index; a missing index answers null, as SEARCH.QUERY does.
    await reply(['search.aliasadd', 'points', 'scores'], 1);
    await reply(['search.aggregate', 'points', '{}', '{"m":{"$max":{"field":"score"}}}'], ['m', ['value', 2]]);
    await reply(['search.aggregate', 'nothing', '{}', '{"m":{"$max":{"field":"score"}}}'], null);
    // Metrics over no documents: a count of 0, no value otherwise.
    await reply(['search.aggregate', 'scores', '{"score":{"$gt":10}}', '{"s":{"$stats":{"field":"score"}},"n":{"$sum":{"field":"score"}}}'],
      ['s', ['count', 0, 'min', null, 'max', null, 'sum', 0, 'avg', null], 'n', ['value', 0]]);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('{} and filters read the columns as every write leaves them: deleted, rewritten and new documents', async () => {
    for (const [key, n, tag] of [['c:1', '1', 'a'], ['c:2', '2', 'b'], ['c:3', '3', 'a'], ['c:4', '4', 'b']]) await redis.hset(key, { n, tag });
    await reply(['search.create', 'columns', 'ON', 'HASH', 'PREFIX', '1', 'c:', 'SCHEMA', 'n', 'U64', 'FAST', 'tag', 'KEYWORD', 'FAST'], 1);
    await redis.del('c:2');
    await redis.hset('c:3', { n: '30' });
    await redis.hset('c:5', { n: '5', tag: 'b' }); // a new document after a deleted one
    await redis.hdel('c:4', 'n');
    const aggs = '{"n":{"$sum":{"field":"n"}},"c":{"$count":{"field":"n"}},"t":{"$terms":{"field":"tag"},"$aggs":{"m":{"$max":{"field":"n"}}}}}';
    await reply(['search.aggregate', 'columns', '{}', aggs], ['n', ['value', 36], 'c', ['value', 3],
      't', ['buckets', [['key', 'a', 'docCount', 2, 'm', ['value', 30]], ['key', 'b', 'docCount', 2, 'm', ['value', 5]]], 'sumOtherDocCount', 0]]);
    await reply(['search.aggregate', 'columns', '{"tag":"b"}', '{"n":{"$sum":{"field":"n"}}}'], ['n', ['value', 5]]);
    await reply(['search.count', 'columns', '{}'], 4);
    await redis.unlink('c:1', 'c:3');
    await redis.hset('c:6', { n: '6', tag: 'a' });
    await reply(['search.aggregate', 'columns', '{}', '{"n":{"$sum":{"field":"n"}},"t":{"$terms":{"field":"tag"}}}'],
      ['n', ['value', 11], 't', ['buckets', [['key', 'b', 'docCount', 2], ['key', 'a', 'docCount', 1]], 'sumOtherDocCount', 0]]);
    await reply(['search.count', 'columns', '{}'], 3);
  });

  embeddedOnly('SEARCH.* needs the embedded engine')('malformed aggregations are refused with a clear error', async () => {
    const agg = (aggs: string, filter = '{}') => ['search.aggregate', 'products', filter, aggs];
    await fails(agg('{"a":'), 'ERR Invalid aggregation: not valid JSON');
    await fails(agg('[]'), 'ERR Invalid aggregation: the aggregations must be a JSON object of named aggregations');
    await fails(agg('{}'), 'ERR Invalid aggregation: the aggregations must be a JSON object of named aggregations');
    await fails(agg('{"a":{"$median":{"field":"price"}}}'), 'ERR Unknown aggregation operator: $median');
    await fails(agg('{"a":{"$avg":{"field":"price"},"$sum":{"field":"price"}}}'), 'ERR Invalid aggregation: a needs exactly one operator');
    await fails(agg('{"a":{"$avg":{"field":"nope"}}}'), 'ERR Unknown field: nope');
    await fails(agg('{"a":{"$avg":{}}}'), 'ERR Invalid aggregation: $avg needs a field');
    await fails(agg('{"a":{"$avg":{"field":"name"}}}'), 'ERR Aggregation $avg is not supported on TEXT field name');
    await fails(agg('{"a":{"$terms":{"field":"path"}}}'), 'ERR Aggregation $terms is not supported on FACET field path');
    await fails(agg('{"a":{"$facet":{"field":"category","path":"/"}}}'), 'ERR Aggregation $facet is not supported on KEYWORD field category');
    await fails(agg('{"a":{"$facet":{"field":"path","path":"shop"}}}'), 'ERR Invalid aggregation: $facet path must start with /');
    await fails(agg('{"a":{"$avg":{"field":"price"},"$aggs":{"b":{"$sum":{"field":"price"}}}}}'), 'ERR Invalid aggregation: $avg takes no $aggs');
    await fails(agg('{"a":{"$terms":{"field":"category"},"$aggs":{"b":{"$facet":{"field":"path","path":"/"}}}}}'),
      'ERR Invalid aggregation: $facet cannot be a sub-aggregation');
    await fails(agg('{"a":{"$histogram":{"field":"price","interval":0}}}'), 'ERR Invalid aggregation: $histogram interval must be a positive number');
    await fails(agg('{"a":{"$histogram":{"field":"price","interval":0.00001}}}'), 'ERR Aggregation would create more than 65000 buckets');
    // Bounds whose bucket number is past the doubles (Infinity): counting the buckets from it
    // gave NaN, and listing them never ended (the thread spun, holding more memory each turn).
    await fails(agg('{"a":{"$histogram":{"field":"price","interval":1e-10,"extendedBounds":{"min":1e308,"max":1e308}}}}', '{"price":{"$lt":0}}'),
      'ERR Aggregation would create more than 65000 buckets');
    // An offset that puts every bucket number past 2^53, where adding 1 changes nothing: listing
    // the buckets from the lowest to the highest by adding 1 never ended, and crashed the process.
    await reply(agg('{"a":{"$histogram":{"field":"price","interval":1,"offset":1e308}}}'), ['a', ['buckets', [['key', 0, 'docCount', 6]]]]);
    // The limit counts nested buckets too: 1000 ranges under each of 100 histogram buckets.
    const ranges = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ from: i })));
    await fails(agg(`{"a":{"$histogram":{"field":"price","interval":1,"minDocCount":0},"$aggs":{"r":{"$range":{"field":"price","ranges":${ranges}}}}}}`),
      'ERR Aggregation would create more than 65000 buckets');
    await fails(agg(`{"a":{"$range":{"field":"price","ranges":[${'{"to":1},'.repeat(1000)}{"to":2}]}}}`), 'ERR Invalid aggregation: $range ranges may hold at most 1000 ranges');
    await fails(agg('{"a":{"$terms":{"field":"category","include":"("}}}'), 'ERR Invalid aggregation: $terms include "(" is not a valid regular expression');
    await fails(agg('{"a":{"$terms":{"field":"category","exclude":{"a":1}}}}'), 'ERR Invalid aggregation: $terms exclude must be a regular expression or an array of values');
    await fails(agg('{"a":{"$dateHistogram":{"field":"added","fixedInterval":"1 fortnight"}}}'),
      'ERR Invalid aggregation: $dateHistogram fixedInterval must be a number and a unit (ms, s, m, h or d), e.g. 1d');
    await fails(agg('{"a":{"$range":{"field":"price","ranges":[]}}}'), 'ERR Invalid aggregation: $range ranges must be a non-empty array of {from, to}');
    await fails(agg('{"a":{"$percentiles":{"field":"price","percents":[101]}}}'), 'ERR Invalid aggregation: $percentiles percents must be numbers from 0 to 100');
    await fails(agg('{"a":{"$terms":{"field":"category","size":0}}}'), 'ERR Invalid aggregation: $terms size must be a positive integer');
    await fails(agg('{"a":{"$terms":{"field":"category","order":{"zzz":"asc"}}}}'), 'ERR Invalid aggregation: $terms cannot order by zzz');
    await fails(agg('{"a":{"$avg":{"field":"price"}}}', '{"nope":1}'), 'ERR Unknown field: nope');
    await fails(agg('{"a":{"$avg":{"field":"price","sigma":2}}}'), 'ERR Invalid aggregation: $avg takes no option sigma');
    await fails(agg('{"a":{"$range":{"field":"price","ranges":[{"to":1}],"keyed":true}}}'), "ERR keyed on $range is not supported by Larder's search yet");
    await reply(['search.create', 'slow', 'ON', 'JSON', 'PREFIX', '1', 'slow:', 'SCHEMA', 'n', 'F64'], 1);
    await fails(['search.aggregate', 'slow', '{}', '{"a":{"$avg":{"field":"n"}}}'], 'ERR Field n is not FAST: $avg needs a FAST field');
    await fails(['search.aggregate', 'products', '{}'], "ERR wrong number of arguments for 'search.aggregate' command");
  });
});
