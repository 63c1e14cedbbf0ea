// A JSON document workflow through every `redis.json.*` method of the official @upstash/redis
// SDK, with auto-pipelining off and on, asserting the typed results the SDK returns (it
// parses JSON.GET's text and the other JSON-text replies into values).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PIPELINE_MODES, suiteSdk } from '../../support/sdk.js';

type Product = {
  name: string;
  connection: { wireless: boolean; type: string };
  price: number;
  stock: number;
  colors: string[];
};

const PRODUCT: Product = {
  name: 'Noise-cancelling Bluetooth headphones',
  connection: { wireless: true, type: 'Bluetooth' },
  price: 99.98,
  stock: 25,
  colors: ['black', 'silver'],
};

for (const mode of PIPELINE_MODES) {
  describe(`JSON commands through the SDK (${mode.name})`, () => {
    const { redis } = suiteSdk(mode);

    it('set, get, type, strlen, strappend, numincrby, nummultby, toggle', async () => {
      assert.equal(await redis.json.set('item', '$', PRODUCT), 'OK');
      assert.equal(await redis.json.set('item', '$', { other: 1 }, { nx: true }), null);
      assert.equal(await redis.json.set('item', '$.sku', '"A-1"', { xx: true }), null);
      assert.equal(await redis.json.set('item', '$.sku', '"A-1"', { nx: true }), 'OK');
      assert.deepEqual(await redis.json.get<Product & { sku: string }>('item'), { ...PRODUCT, sku: 'A-1' });
      assert.deepEqual(await redis.json.get('item', '$.connection.type'), ['Bluetooth']);
      assert.deepEqual(await redis.json.get('item', '$.price', '$.stock'), { '$.price': [99.98], '$.stock': [25] });
      assert.equal(await redis.json.get('item', { indent: '  ', newline: '\n', space: ' ' }, '.stock'), 25);
      assert.equal(await redis.json.get('missing'), null);
      assert.deepEqual(await redis.json.type('item', '$.price'), ['number']);
      // Deeper values first, as Upstash orders recursive descent.
      assert.deepEqual(await redis.json.type('item', '$..*'), [
        'boolean', 'string', 'string', 'string', 'string', 'object', 'number', 'integer', 'array', 'string',
      ]);
      assert.deepEqual(await redis.json.strlen('item', '$.sku'), [3]);
      assert.deepEqual(await redis.json.strappend('item', '$.sku', '"-b"'), [5]);
      assert.deepEqual(await redis.json.numincrby('item', '$.stock', 5), [30]);
      assert.deepEqual(await redis.json.numincrby('item', '$.price', 0.02), [100]);
      assert.deepEqual(await redis.json.nummultby('item', '$.stock', 2), [60]);
      assert.deepEqual(await redis.json.numincrby('item', '$.name', 1), [null]);
      assert.deepEqual(await redis.json.toggle('item', '$.connection.wireless'), [0]);
      assert.deepEqual(await redis.json.toggle('item', '$..wireless'), [1]);
      assert.deepEqual(await redis.json.get('item', '$.sku', '$.price', '$.connection'), {
        '$.sku': ['A-1-b'],
        '$.price': [100.0],
        '$.connection': [{ wireless: true, type: 'Bluetooth' }],
      });
      await assert.rejects(redis.json.set('fresh', '$.a', 1), /ERR new objects must be created at the root/);
    });

    it('arrappend, arrinsert, arrindex, arrlen, arrpop, arrtrim', async () => {
      await redis.json.set('colors', '$', PRODUCT);
      assert.deepEqual(await redis.json.arrappend('colors', '$.colors', '"blue"'), [3]);
      assert.deepEqual(await redis.json.arrinsert('colors', '$.colors', 2, '"yellow"', '"gold"'), [5]);
      assert.deepEqual(await redis.json.get('colors', '$.colors'), [['black', 'silver', 'yellow', 'gold', 'blue']]);
      assert.deepEqual(await redis.json.arrindex('colors', '$..colors', '"silver"'), [1]);
      assert.deepEqual(await redis.json.arrindex('colors', '$.colors', '"silver"', 2), [-1]);
      assert.deepEqual(await redis.json.arrindex('colors', '$.colors', '"blue"', 0, 4), [-1]);
      assert.deepEqual(await redis.json.arrlen('colors', '$.colors'), [5]);
      assert.deepEqual(await redis.json.arrlen('colors', '$.*'), [null, null, null, null, 5]);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), ['blue']);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors', 0), ['black']);
      assert.deepEqual(await redis.json.arrtrim('colors', '$.colors', 1, 1), [1]);
      assert.deepEqual(await redis.json.get('colors', '$.colors'), [['yellow']]);
      assert.deepEqual(await redis.json.arrappend('colors', '$.colors', 1, { n: 2 }, [3]), [4]);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), [[3]]);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), [{ n: 2 }]);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), [1]);
      // The SDK's defaults (start 0, stop 0) keep the first element.
      assert.deepEqual(await redis.json.arrtrim('colors', '$.colors'), [1]);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), ['yellow']);
      assert.deepEqual(await redis.json.arrpop('colors', '$.colors'), [null]);
    });

    it('objkeys, objlen, merge, mset, mget, resp', async () => {
      await redis.json.set('profile', '$', { name: 'ada', address: { city: 'London', zip: 'N1' }, langs: ['en'] });
      assert.deepEqual(await redis.json.objkeys('profile', '$'), [['name', 'address', 'langs']]);
      assert.deepEqual(await redis.json.objkeys('profile', '$.*'), [null, ['city', 'zip'], null]);
      assert.deepEqual(await redis.json.objlen('profile', '$.address'), [2]);
      assert.equal(await redis.json.merge('profile', '$', { address: { zip: null, street: 'Upper St' }, age: 36 }), 'OK');
      assert.equal(await redis.json.merge('profile', '$.langs', ['en', 'fr']), 'OK');
      assert.deepEqual(await redis.json.get('profile', '$'), [
        { name: 'ada', address: { city: 'London', street: 'Upper St' }, langs: ['en', 'fr'], age: 36 },
      ]);
      assert.equal(
        await redis.json.mset(
          { key: 'p1', path: '$', value: { a: 1, nested: { a: 3 } } },
          { key: 'p2', path: '$', value: { a: 4, nested: { a: 6 } } },
        ),
        'OK',
      );
      assert.deepEqual(await redis.json.mget(['p1', 'p2', 'nope'], '$..a'), [[3, 1], [6, 4], null]);
      assert.deepEqual(await redis.json.resp('profile', '$.address'), [['{', 'city', 'London', 'street', 'Upper St']]);
      const whole = await redis.json.resp('profile');
      assert.equal(whole[0], '{');
      assert.equal(whole.length, 9);
    });

    it('clear, del, forget', async () => {
      await redis.json.set('tmp', '$', { obj: { a: 1 }, arr: [1, 2], n: 7, s: 'x', keep: true });
      assert.equal(await redis.json.clear('tmp', '$.*'), 3);
      assert.deepEqual(await redis.json.get('tmp'), { obj: {}, arr: [], n: 0, s: 'x', keep: true });
      assert.equal(await redis.json.del('tmp', '$.s'), 1);
      assert.equal(await redis.json.forget('tmp', '$.obj'), 1);
      assert.equal(await redis.json.del('tmp', '$.nothing'), 0);
      assert.deepEqual(await redis.json.get('tmp', '$'), [{ arr: [], n: 0, keep: true }]);
      assert.equal(await redis.json.clear('tmp'), 1);
      assert.deepEqual(await redis.json.get('tmp'), {});
      assert.equal(await redis.json.del('tmp'), 1);
      assert.equal(await redis.exists('tmp'), 0);
    });

    it('json methods in a pipeline and a transaction', async () => {
      const p = redis.pipeline();
      p.json.set('pl', '$', { count: 1, list: [] });
      p.json.numincrby('pl', '$.count', 2);
      p.json.arrappend('pl', '$.list', '"a"');
      p.json.get('pl');
      assert.deepEqual(await p.exec(), ['OK', [3], [1], { count: 3, list: ['a'] }]);
      const tx = redis.multi();
      tx.json.set('tx', '$', { ok: false });
      tx.json.toggle('tx', '$.ok');
      tx.json.get('tx', '$.ok');
      assert.deepEqual(await tx.exec(), ['OK', [1], [true]]);
    });
  });
}
