// The official SDK's redis.search against a real Larder: what an app calls (createIndex with
// the schema builder, index.query/count/describe/drop) works unchanged, in both client modes.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { s } from '@upstash/redis';
import { embeddedOnly } from '../../support/larder.js';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

const schema = s.object({
  name: s.string(),
  sku: s.string().noTokenize(),
  price: s.number(),
  stock: s.number('U64'),
  active: s.boolean(),
  brand: s.keyword(),
  maker: s.object({ country: s.keyword() }),
});

for (const mode of PIPELINE_MODES) {
  describe(`redis.search through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    embeddedOnly('SEARCH.* needs the embedded engine')('createIndex, describe, query, count and drop', async () => {
      await redis.json.set('item:1', '$', { name: 'Blue running shoes', sku: 'SKU-1', price: 80, stock: 3, active: true, brand: 'Fleet', maker: { country: 'IT' } });
      await redis.json.set('item:2', '$', { name: 'Red shoes', sku: 'SKU-2', price: 45.5, stock: 0, active: false, brand: 'Fleet', maker: { country: 'PT' } });
      const items = await redis.search.createIndex({ name: 'items', dataType: 'json', prefix: 'item:', schema });
      await redis.json.set('item:3', '$', { name: 'Blue socks', sku: 'SKU-3', price: 5, stock: 100, active: true, brand: 'Knit', maker: { country: 'IT' } });
      assert.equal(await items.waitIndexing(), 1);

      assert.deepEqual(await items.describe(), {
        name: 'items',
        dataType: 'json',
        prefixes: ['item:'],
        language: 'english',
        schema: {
          name: { type: 'TEXT' },
          sku: { type: 'TEXT', noTokenize: true },
          price: { type: 'F64', fast: true },
          stock: { type: 'U64', fast: true },
          active: { type: 'BOOL' },
          brand: { type: 'KEYWORD' },
          'maker.country': { type: 'KEYWORD' },
        },
      });

      const blue = await items.query({ filter: { name: 'blue' }, orderBy: { price: 'ASC' } });
      assert.deepEqual(blue.map((r) => r.key), ['item:3', 'item:1']);
      // Without SELECT, the whole document ("$"), which the SDK parses back.
      assert.deepEqual(blue[1].data, { name: 'Blue running shoes', sku: 'SKU-1', price: 80, stock: 3, active: true, brand: 'Fleet', maker: { country: 'IT' } });

      const keysOnly = await items.query({ filter: { 'maker.country': 'IT', price: { $gt: 10 } }, select: {} });
      assert.deepEqual(keysOnly, [{ key: 'item:1', score: keysOnly[0].score }]);

      // A plain value on a text field is smart matching, which takes SKU-1 as a typo of SKU-2: $eq is exact.
      const picked = await items.query({ filter: { sku: { $eq: 'SKU-2' } }, select: { price: true } });
      assert.deepEqual(picked.map((r) => [r.key, r.data]), [['item:2', { price: 45.5 }]]);

      assert.deepEqual(await items.count({ filter: { active: true } }), { count: 2 });
      assert.deepEqual(await items.count({ filter: { $should: [{ brand: 'Knit' }, { stock: { $lte: 0 } }] } }), { count: 2 });
      const page = await items.query({ filter: {}, orderBy: { price: 'DESC' }, limit: 1, offset: 1 });
      assert.deepEqual(page.map((r) => r.key), ['item:2']);

      // Aliases: queries through the alias reach the index; DROP takes only real names.
      assert.equal(await items.addAlias({ alias: 'shop' }), 1);
      assert.equal(await redis.search.alias.add({ indexName: 'items', alias: 'shop' }), 2);
      assert.equal(await redis.search.alias.add({ indexName: 'later', alias: 'soon' }), 1);
      assert.deepEqual(await redis.search.alias.list(), { shop: 'items', soon: 'later' });
      const viaAlias = redis.search.index({ name: 'shop', schema });
      assert.deepEqual(await viaAlias.count({ filter: { brand: 'Fleet' } }), { count: 2 });
      assert.equal((await viaAlias.describe())?.name, 'items');
      assert.equal(await viaAlias.drop(), 0);
      assert.equal(await redis.search.alias.delete({ alias: 'soon' }), 1);
      assert.equal(await redis.search.alias.delete({ alias: 'soon' }), 0);
      assert.deepEqual(await redis.search.alias.list(), { shop: 'items' });
      assert.equal(await redis.search.alias.delete({ alias: 'shop' }), 1);

      assert.equal(await items.drop(), 1);
      assert.equal(await items.waitIndexing(), 0);
      assert.equal(await items.describe(), null);
      assert.equal(await items.query({ filter: {} }), null);
    });

    embeddedOnly('SEARCH.* needs the embedded engine')('query operators, highlight and scoreFunc as the SDK sends them', async () => {
      const articles = await redis.search.createIndex({
        name: 'articles',
        dataType: 'hash',
        prefix: 'article:',
        language: 'english',
        schema: s.object({ title: s.string(), code: s.string().noStem(), views: s.number('U64'), stars: s.number('F64') }),
      });
      await redis.hset('article:1', { title: 'Running wireless headphones', code: 'alpha', views: 10, stars: 4 });
      await redis.hset('article:2', { title: 'Wireless bluetooth headphones for runners', code: 'beta', views: 1000, stars: 2 });
      await redis.hset('article:3', { title: 'Desk lamp', code: 'gamma', views: 5 });
      const keys = async (filter: Record<string, unknown>) => (await articles.query({ filter, select: {} })).map((r) => r.key).sort();

      assert.deepEqual(await keys({ title: { $eq: 'run' } }), ['article:1']); // stemmed: running, not runners
      assert.deepEqual(await keys({ title: { $fuzzy: 'headphons' } }), ['article:1', 'article:2']);
      assert.deepEqual(await keys({ title: { $fuzzy: { value: 'hedphones', distance: 1, transpositionCostOne: true, prefix: false } } }), ['article:1', 'article:2']);
      assert.deepEqual(await keys({ title: { $phrase: 'wireless headphones' } }), ['article:1']);
      assert.deepEqual(await keys({ title: { $phrase: { value: 'wireless headphones', slop: 1 } } }), ['article:1', 'article:2']);
      assert.deepEqual(await keys({ title: { $phrase: { value: 'wireless blue', prefix: true } } }), ['article:2']);
      assert.deepEqual(await keys({ code: { $regex: '(alpha|gamma)' } }), ['article:1', 'article:3']);
      const boosted = await articles.query({ filter: { $should: [{ code: { $eq: 'alpha' }, $boost: 1 }, { code: { $eq: 'beta' }, $boost: 9 }] }, select: {} });
      assert.deepEqual(boosted.map((r) => r.key), ['article:2', 'article:1']);

      const [hit] = await articles.query({ filter: { title: 'lamp' }, highlight: { fields: ['title'] } });
      assert.deepEqual(hit.data, { title: 'Desk <em>lamp</em>', code: 'gamma', views: 5 });
      const [tagged] = await articles.query({ filter: { title: 'lamp' }, highlight: { fields: ['title'], preTag: '**', postTag: '**' }, select: { title: true } });
      assert.deepEqual(tagged.data, { title: 'Desk **lamp**' });

      const byViews = await articles.query({ filter: { title: 'headphones' }, scoreFunc: { field: 'views', scoreMode: 'replace', modifier: 'log', factor: 2 }, select: {} });
      assert.deepEqual(byViews.map((r) => [r.key, r.score]), [['article:2', 6], ['article:1', 2]]);
      const plain = await articles.query({ filter: {}, scoreFunc: 'views', select: {} });
      assert.deepEqual(plain.map((r) => [r.key, r.score]), [['article:2', 1000], ['article:1', 10], ['article:3', 5]]);
      const combined = await articles.query({
        filter: {},
        scoreFunc: { fields: [{ field: 'views', modifier: 'sqrt' }, { field: 'stars', missing: 1 }], combineMode: 'multiply', scoreMode: 'sum' },
        select: {},
      });
      assert.deepEqual(combined.map((r) => [r.key, r.score]), [['article:2', Math.sqrt(1000) * 2], ['article:1', Math.sqrt(10) * 4], ['article:3', Math.sqrt(5)]]);
      await assert.rejects(articles.query({ filter: {}, select: {}, highlight: { fields: ['title'] } }), /NOCONTENT cannot be combined with SELECT or HIGHLIGHT/);
      assert.equal(await articles.drop(), 1);
    });
  });
}
