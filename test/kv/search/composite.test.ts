// SEARCH.AGGREGATE's $composite (Upstash's "$composite" page): every bucket of several sources'
// keys in a stable order, a page at a time with afterKey, through the SDK's index.aggregate (its
// types do not list $composite yet; it sends and parses it as any aggregation), and the errors
// over raw HTTP.

import assert from 'node:assert/strict';
import { before, describe } from 'node:test';
import { embeddedOnly, replies, TEST_KV_BACKEND } from '../../support/larder.js';
import { suiteSdk } from '../../support/sdk.js';

const only = embeddedOnly('SEARCH.* needs the embedded engine');

const CREATE = ['search.create', 'goods', 'ON', 'JSON', 'PREFIX', '1', 'g:', 'SCHEMA', 'name', 'TEXT', 'category', 'KEYWORD', 'FAST',
  'price', 'F64', 'FAST', 'active', 'BOOL', 'FAST', 'added', 'DATE', 'FAST'];

const GOODS: Record<string, unknown> = {
  'g:1': { name: 'red shoe', category: 'shoes', price: 10, active: true, added: '2024-01-01T10:00:00Z' },
  'g:2': { name: 'blue shoe', category: 'shoes', price: 20, active: false, added: '2024-01-01T20:00:00Z' },
  'g:3': { name: 'green hat', category: 'hats', price: 35, active: true, added: '2024-01-03T08:00:00Z' },
  'g:4': { name: 'red hat', category: 'hats', price: 65, active: true, added: '2024-01-04T00:00:00Z' },
  'g:5': { name: 'red sock', category: 'socks', price: 5, active: true, added: '2024-02-04T12:00:00Z' },
  'g:6': { name: 'plain bag', price: 100, active: false },
};

type Page = { buckets: { key: Record<string, unknown>; docCount: number; [sub: string]: unknown }[]; afterKey?: unknown };

describe('SEARCH.AGGREGATE $composite', () => {
  const { t, redis } = suiteSdk({ autoPipeline: false });
  const { fails } = replies(() => t);
  const composite = async (spec: Record<string, unknown>, aggs?: Record<string, unknown>): Promise<Page> => {
    const r = await redis.search.index({ name: 'goods' }).aggregate({ aggregations: { page: { $composite: spec, ...(aggs && { $aggs: aggs }) } } } as never);
    return (r as unknown as { page: Page }).page;
  };
  const keys = (p: Page) => p.buckets.map((b) => [b.key, b.docCount]);

  before(async () => {
    if (TEST_KV_BACKEND !== 'embedded') return;
    for (const [key, doc] of Object.entries(GOODS)) await redis.json.set(key, '$', doc as Record<string, unknown>);
    assert.equal((await t.command(CREATE)).status, 200);
  });

  only('pages through every category and price band in order, each page after the last one\'s afterKey', async () => {
    const sources = [{ category: { $terms: { field: 'category' } } }, { price: { $histogram: { field: 'price', interval: 50 } } }];
    const first = await composite({ size: 2, sources });
    // The bag has no category: without missingBucket it is in no bucket.
    assert.deepEqual(keys(first), [[{ category: 'hats', price: 0 }, 1], [{ category: 'hats', price: 50 }, 1]]);
    // The SDK hands the afterKey back as the reply's flat array; passed back as it is, it is the next page's start.
    assert.deepEqual(first.afterKey, ['category', 'str:hats', 'price', 'f64:50']);
    const second = await composite({ size: 2, sources, after: first.afterKey });
    assert.deepEqual(keys(second), [[{ category: 'shoes', price: 0 }, 2], [{ category: 'socks', price: 0 }, 1]]);
    assert.deepEqual(second.afterKey, ['category', 'str:socks', 'price', 'f64:0']);
    const done = await composite({ size: 2, sources, after: second.afterKey });
    assert.deepEqual(done, { buckets: [] });
    // The object form of Upstash's page (`after: {"category": "str:books", ...}`) is read the same.
    assert.deepEqual(keys(await composite({ sources, after: { category: 'str:hats', price: 'f64:0' } })), keys(first).slice(1).concat(keys(second)));
    // size defaults to 10.
    assert.equal((await composite({ sources })).buckets.length, 4);
  });

  only('order and missingBucket: documents without the field make a null key, placed as missingOrder says', async () => {
    const by = (source: Record<string, unknown>) => composite({ sources: [{ category: { $terms: { field: 'category', missingBucket: true, ...source } } }] });
    const asc = [[{ category: null }, 1], [{ category: 'hats' }, 2], [{ category: 'shoes' }, 2], [{ category: 'socks' }, 1]];
    assert.deepEqual(keys(await by({})), asc);
    assert.deepEqual(keys(await by({ order: 'desc' })), [...asc.slice(1)].reverse().concat([asc[0]]));
    assert.deepEqual(keys(await by({ order: 'desc', missingOrder: 'first' })), [asc[0], ...[...asc.slice(1)].reverse()]);
    assert.deepEqual(keys(await by({ missingOrder: 'last' })), [...asc.slice(1), asc[0]]);
    const page = await composite({ size: 1, sources: [{ category: { $terms: { field: 'category', missingBucket: true } } }] });
    assert.deepEqual(page.afterKey, ['category', null]);
    assert.deepEqual(keys(await composite({ size: 1, sources: [{ category: { $terms: { field: 'category', missingBucket: true } } }], after: page.afterKey })), [asc[1]]);
  });

  only('sub-aggregations per bucket; booleans and dates as sources', async () => {
    const withAvg = await composite({ sources: [{ category: { $terms: { field: 'category' } } }] }, { avgPrice: { $avg: { field: 'price' } } });
    assert.deepEqual(
      withAvg.buckets.map((b) => [b.key.category, b.avgPrice]),
      [['hats', { value: 50 }], ['shoes', { value: 15 }], ['socks', { value: 5 }]],
    );
    const active = await composite({ sources: [{ active: { $terms: { field: 'active' } } }] });
    assert.deepEqual(keys(active), [[{ active: 0 }, 2], [{ active: 1 }, 4]]);
    assert.deepEqual(active.afterKey, ['active', 'bool:true']);
    const day = Date.UTC(2024, 0, 1);
    const daily = await composite({ sources: [{ day: { $dateHistogram: { field: 'added', fixedInterval: '1d' } } }] });
    assert.deepEqual(keys(daily), [[{ day }, 2], [{ day: day + 2 * 86_400_000 }, 1], [{ day: day + 3 * 86_400_000 }, 1], [{ day: Date.UTC(2024, 1, 4) }, 1]]);
    const monthly = await composite({ sources: [{ month: { $dateHistogram: { field: 'added', calendarInterval: 'month' } } }, { active: { $terms: { field: 'active' } } }] });
    assert.deepEqual(keys(monthly), [[{ month: day, active: 0 }, 1], [{ month: day, active: 1 }, 3], [{ month: Date.UTC(2024, 1, 1), active: 1 }, 1]]);
    // 2024-01-01 is a Monday: the four January days fall in two ISO weeks.
    const weekly = await composite({ sources: [{ week: { $dateHistogram: { field: 'added', calendarInterval: 'week' } } }] });
    assert.deepEqual(keys(weekly), [[{ week: day }, 4], [{ week: Date.UTC(2024, 1, 4) - 6 * 86_400_000 }, 1]]);
  });

  only('refuses what it cannot page through, in words', async () => {
    const agg = (composite: unknown) => ['search.aggregate', 'goods', '{}', JSON.stringify({ page: { $composite: composite } })];
    const invalid = (why: string) => `ERR Invalid aggregation: ${why}`;
    const terms = { category: { $terms: { field: 'category' } } };
    await fails(agg({}), invalid('$composite sources must be a non-empty array of named sources'));
    await fails(agg({ sources: [] }), invalid('$composite sources must be a non-empty array of named sources'));
    await fails(agg({ sources: [{ a: terms.category, b: terms.category }] }), invalid('each $composite source must be an object with exactly one named entry'));
    await fails(agg({ sources: [{ a: { $range: { field: 'price' } } }] }), invalid('the $composite source a needs one of $terms, $histogram or $dateHistogram'));
    await fails(agg({ sources: [terms, terms] }), invalid('$composite names the source category twice'));
    await fails(agg({ sources: [{ a: { $terms: { field: 'name' } } }] }), 'ERR Aggregation $terms is not supported on TEXT field name');
    await fails(agg({ sources: [{ a: { $terms: { field: 'category', size: 3 } } }] }), invalid('$terms as a $composite source takes no option size'));
    await fails(agg({ sources: [{ a: { $terms: { field: 'category', order: 'up' } } }] }), invalid('$terms order must be "asc", "desc"'));
    await fails(agg({ sources: [{ a: { $histogram: { field: 'price' } } }] }), invalid('$histogram interval must be a positive number'));
    await fails(agg({ sources: [{ a: { $dateHistogram: { field: 'added', fixedInterval: '1d', calendarInterval: 'week' } } }] }), invalid('$dateHistogram takes fixedInterval or calendarInterval, not both'));
    await fails(agg({ sources: [{ a: { $dateHistogram: { field: 'added', calendarInterval: 'day' } } }] }), invalid('$dateHistogram calendarInterval must be "year", "month", "week"'));
    await fails(agg({ sources: [terms], size: 0 }), invalid('$composite size must be a positive integer'));
    const afterKey = invalid('$composite after must be the afterKey of the previous page, naming each source once');
    await fails(agg({ sources: [terms], after: {} }), afterKey);
    await fails(agg({ sources: [terms], after: { category: 'f64:1' } }), afterKey);
    await fails(agg({ sources: [terms], after: { other: 'str:hats' } }), afterKey);
    await fails(agg({ sources: [terms], after: 'str:hats' }), afterKey);
    await fails(['search.aggregate', 'goods', '{}', JSON.stringify({ c: { $terms: { field: 'category' }, $aggs: { page: { $composite: { sources: [terms] } } } } })],
      invalid('$composite cannot be a sub-aggregation'));
  });
});
