// The key-value page in headless Chromium against a real Larder: data made in the console is
// read back with @upstash/redis and the other way round, bad input shows the server's own
// error next to the field, and the read-only console cannot write.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { join } from 'node:path';
import { noChromium, openConsole, SCREENSHOTS, suiteChromium, suiteConsole } from '../support/chromium.js';
import { suiteLarder } from '../support/larder.js';
import { sdkClient } from '../support/sdk.js';

describe('console: key-value', { skip: noChromium }, () => {
  const t = suiteLarder();
  const { page } = suiteConsole(t, 'adminToken');

  const keyList = () => page.getByRole('list', { name: 'Keys' });
  const fieldError = () => page.locator('.field-error');

  it('shows an empty database without breaking', async () => {
    await keyList().getByText('No keys match.').waitFor();
    await page.getByText('Choose a key').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'kv-empty.png') });
  });

  it('creates keys that the SDK reads', async () => {
    const redis = sdkClient(t);
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.locator('[name=new-key]').fill('greeting');
    await form.locator('[name=new-value]').fill('hello from the console');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'greeting' }).waitFor();
    assert.equal(await redis.get('greeting'), 'hello from the console');

    // An existing key is never overwritten from here.
    await page.getByRole('button', { name: 'New key' }).click();
    await form.locator('[name=new-key]').fill('greeting');
    await form.locator('[name=new-value]').fill('overwritten');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.locator('.field-error').getByText('greeting exists already').waitFor();
    assert.equal(await redis.get('greeting'), 'hello from the console');
    await form.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'New key' }).click();
    await form.locator('[name=new-type]').selectOption('hash');
    await form.locator('[name=new-key]').fill('user:1');
    await form.locator('[name=new-field]').fill('name');
    await form.locator('[name=new-value]').fill('Ada');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'user:1' }).waitFor();
    await page.getByLabel('New field').fill('born');
    await page.getByLabel('New value').fill('1815');
    await page.getByRole('button', { name: 'Add' }).dblclick();
    await page.getByRole('cell', { name: '1815', exact: true }).waitFor();
    // Added once: the emptied fields leave Add waiting for input, so a late second click adds nothing.
    assert.ok(await page.getByRole('button', { name: 'Add' }).isDisabled());
    assert.deepEqual(await redis.hgetall('user:1'), { name: 'Ada', born: 1815 });
  });

  it('shows what the SDK wrote, by type, with filters', async () => {
    const redis = sdkClient(t);
    await redis.zadd('scores', { score: 3, member: 'ada' }, { score: 5, member: 'grace' });
    await redis.rpush('queue', 'a', 'b');
    await redis.sadd('tags', 'x');
    await redis.json.set('doc', '$', { name: 'larder', n: 1 });
    await redis.xadd('events', '*', { kind: 'click' });
    await redis.set('session:9', 'token', { ex: 600 });

    await page.getByLabel('Pattern').fill('*');
    await page.getByLabel('Type').selectOption('zset');
    await page.getByRole('button', { name: 'Scan' }).click();
    await keyList().getByRole('button', { name: 'scores' }).waitFor();
    assert.equal(await keyList().getByRole('button').count(), 1);
    await keyList().getByRole('button', { name: 'scores' }).click();
    await page.getByRole('cell', { name: 'grace', exact: true }).waitFor();
    await page.getByRole('cell', { name: '5', exact: true }).waitFor();

    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Pattern').fill('session:*');
    await page.getByRole('button', { name: 'Scan' }).click();
    await keyList().getByRole('button', { name: 'session:9' }).click();
    await page.getByText(/TTL: expires in \d+ s/).waitFor();
    assert.equal(await page.getByLabel('Value').inputValue(), 'token');

    for (const [key, text] of [['queue', 'b'], ['tags', 'x'], ['events', 'kind=click']]) {
      await page.getByLabel('Key name').fill(key);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.getByRole('cell', { name: text, exact: true }).waitFor();
    }
    await page.getByLabel('Key name').fill('doc');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    assert.deepEqual(JSON.parse(await page.getByLabel('JSON document').inputValue()), { name: 'larder', n: 1 });

    // An array's held slots, editable; a vector index at a key, summarised.
    await redis.armset('slots', { 3: 'three', 4096: 'far' });
    const index = await redis.vector.createIndex({ name: 'embeddings', dimension: 2, metric: 'COSINE' });
    await index.add('a', [1, 0]);
    await page.getByLabel('Key name').fill('slots');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('cell', { name: '4096', exact: true }).waitFor();
    await page.getByLabel('New index').fill('7');
    await page.getByLabel('New value').fill('seven');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('cell', { name: 'seven', exact: true }).waitFor();
    assert.deepEqual(await redis.arscan('slots', 0, 5000), [['3', 'three'], ['7', 'seven'], ['4096', 'far']]);
    await page.getByLabel('Key name').fill('embeddings');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const summary = page.getByRole('table', { name: 'Vector index' });
    await summary.getByRole('cell', { name: 'COSINE', exact: true }).waitFor();
    assert.deepEqual(await summary.getByRole('cell').allInnerTexts(), ['2', 'COSINE', '1']);

    await page.getByLabel('Pattern').fill('*');
    await page.getByRole('button', { name: 'Scan' }).click();
    await keyList().getByRole('button', { name: 'user:1' }).click();
    await page.getByRole('cell', { name: 'Ada', exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'kv.png') });
  });

  it('edits values and TTLs, and shows the server error next to a bad one', async () => {
    const redis = sdkClient(t);
    await page.getByLabel('Key name').fill('doc');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const json = page.getByLabel('JSON document');
    await json.fill('{"name": "larder", "n": 2}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    assert.deepEqual(await redis.json.get('doc'), { name: 'larder', n: 2 });

    const malformed = await t.fails(['JSON.SET', 'doc', '$', '{"name": ']);
    await json.fill('{"name": ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('form.editor .field-error').getByText(malformed, { exact: true }).waitFor();
    assert.deepEqual(await redis.json.get('doc'), { name: 'larder', n: 2 });

    const badTtl = await t.fails(['EXPIRE', 'doc', 'soon']);
    await page.getByLabel('TTL in seconds').fill('soon');
    await page.getByRole('button', { name: 'Set TTL' }).click();
    await page.locator('form.ttl .field-error').getByText(badTtl, { exact: true }).waitFor();
    assert.equal(await redis.ttl('doc'), -1);

    await page.getByLabel('TTL in seconds').fill('120');
    await page.getByRole('button', { name: 'Set TTL' }).click();
    await page.getByText(/TTL: expires in 1[12]\d s/).waitFor();
    const ttl = await redis.ttl('doc');
    assert.ok(ttl > 100 && ttl <= 120, String(ttl));
    await page.getByRole('button', { name: 'Persist' }).click();
    await page.getByText('TTL: no expiry').waitFor();
    assert.equal(await redis.ttl('doc'), -1);

    const badScore = await t.fails(['ZADD', 'scores', 'high', 'linus']);
    await page.getByLabel('Key name').fill('scores');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByLabel('New member').fill('linus');
    await page.getByLabel('New score').fill('high');
    await page.getByRole('button', { name: 'Add' }).click();
    await fieldError().getByText(badScore, { exact: true }).waitFor();
    assert.equal(await redis.zscore('scores', 'linus'), null);
  });

  it('runs commands with history and completion', async () => {
    const redis = sdkClient(t);
    const line = page.getByLabel('Command', { exact: true });
    await line.fill('SET "cli key" "two words"');
    await line.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText('"OK"').waitFor();
    assert.equal(await redis.get('cli key'), 'two words');
    // The key browser scans again after a command, keeping its filter.
    await keyList().getByRole('button', { name: 'cli key' }).waitFor();

    await line.fill('hgeta');
    await line.press('Tab');
    assert.equal(await line.inputValue(), 'HGETALL ');
    await line.pressSequentially('user:1');
    await line.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText('"Ada"').waitFor();
    await line.press('ArrowUp');
    assert.equal(await line.inputValue(), 'HGETALL user:1');
    await line.press('ArrowUp');
    assert.equal(await line.inputValue(), 'SET "cli key" "two words"');

    const unknown = await t.fails(['NOSUCHCMD']);
    await line.fill('NOSUCHCMD');
    await line.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText(`(error) ${unknown}`).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'kv-command-line.png') });
  });

  it('shows commands live in the monitor', async () => {
    const redis = sdkClient(t);
    await page.getByRole('button', { name: 'Monitor', exact: true }).click();
    await page.getByRole('button', { name: 'Start monitor' }).click();
    await page.getByText('live').waitFor();
    // The stream may open a moment after the button shows it running: write until it is seen.
    const seen = page.getByRole('list', { name: 'Monitor output' }).getByText('"monitored"', { exact: false }).first();
    for (let i = 0; !(await seen.isVisible()); i++) {
      assert.ok(i < 50, 'the monitor never showed the command');
      await redis.set('monitored', i);
      await page.waitForTimeout(100);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'kv-monitor.png') });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Command line' }).click();
  });

  it('deletes a key', async () => {
    const redis = sdkClient(t);
    await page.getByLabel('Key name').fill('greeting');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Choose a key').waitFor();
    assert.equal(await redis.exists('greeting'), 0);
  });
});

describe('console: read-only key-value', { skip: noChromium }, () => {
  const t = suiteLarder();
  const { page } = suiteConsole(t, 'adminReadOnlyToken');
  before(() => t.ok(['SET', 'kept', 'original']));

  it('reads but cannot write', async () => {
    await page.getByText('read-only', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'New key' }).count(), 0);
    // A read-only token may not walk the keyspace: the browser says so, and opens keys by name.
    const scanError = (await t.command(['SCAN', '0', 'MATCH', '*', 'COUNT', '500'], { token: t.readOnlyToken })).body.error as string;
    assert.equal(typeof scanError, 'string');
    await page.locator('.browser .field-error').getByText(scanError, { exact: true }).waitFor();
    await page.getByLabel('Key name').fill('kept');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const value = page.getByLabel('Value');
    assert.equal(await value.inputValue(), 'original');
    assert.equal(await value.getAttribute('readonly'), '');
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    assert.equal(await page.getByLabel('TTL in seconds').count(), 0);

    const denied = (await t.command(['SET', 'kept', 'changed'], { token: t.readOnlyToken })).body.error as string;
    const line = page.getByLabel('Command', { exact: true });
    await line.fill('SET kept changed');
    await line.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText(`(error) ${denied}`).waitFor();
    assert.equal(await t.ok(['GET', 'kept']), 'original');
    await page.screenshot({ path: join(SCREENSHOTS, 'kv-read-only.png') });
  });
});

describe('console: a large keyspace', { skip: noChromium }, () => {
  const t = suiteLarder();
  const browser = suiteChromium();
  before(async () => {
    // 100,000 keys in ten MSETs of 10,000.
    for (let batch = 0; batch < 10; batch++) {
      const argv = ['MSET'];
      for (let i = 0; i < 10_000; i++) argv.push(`item:${batch * 10_000 + i}`, String(i));
      await t.ok(argv);
    }
  });

  it('loads keys a page at a time as the list scrolls', async () => {
    const page = await openConsole(browser, t.url, t.adminToken);
    const keys = page.getByRole('list', { name: 'Keys' }).getByRole('button');
    await keys.first().waitFor();
    const first = await keys.count();
    assert.ok(first >= 100 && first < 2000, `first page: ${first} keys`);
    await page.getByRole('list', { name: 'Keys' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    for (let i = 0; (await keys.count()) <= first; i++) {
      assert.ok(i < 100, 'scrolling to the end loaded no more keys');
      await page.waitForTimeout(50);
    }
    await page.getByLabel('Pattern').fill('item:4242?');
    await page.getByRole('button', { name: 'Scan' }).click();
    const found = page.getByRole('list', { name: 'Keys' }).getByRole('button', { name: /^item:4242\d$/ });
    for (let i = 0; (await found.count()) < 10; i++) {
      assert.ok(i < 200, `found ${await found.count()} of item:4242?`);
      await page.waitForTimeout(50);
    }
    await page.close();
  });
});
