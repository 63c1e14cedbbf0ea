// Input nested deeper than maxNestingDepth gets 400 with a clear text in every service, never a
// 500 or a stack overflow: JSON bodies, vector metadata and filters (server/json-body.ts,
// vector/filter/parser.ts). Deep input is far past what any recursion survives, so a service
// that walked it recursively would fail here.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nestsDeeperThan } from '../../src/server/json-body.js';
import { Rng } from '../kv/differential/prng.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';

const LIMIT = 16;
const HUGE = 200_000;
const TOO_DEEP = { error: `the JSON nests deeper than ${LIMIT} levels of arrays and objects (maxNestingDepth)`, status: 400 };

/** `levels` arrays around `leaf`, as JSON text. */
const arrays = (levels: number, leaf = '1') => '['.repeat(levels) + leaf + ']'.repeat(levels);
/** `levels` objects {"a": ...} around 1, as JSON text. */
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    assert.equal(nestsDeeperThan(arrays(3), 3), false);
    assert.equal(nestsDeeperThan(arrays(4), 3), true);
    assert.equal(nestsDeeperThan(`[{"a":[1]},{"b":{}}]`, 3), false);
    assert.equal(nestsDeeperThan(`[{"a":[[1]]}]`, 3), true);
    assert.equal(nestsDeeperThan(`["[[[[", "\\"[[[[{{{{"]`, 1), false);
    assert.equal(nestsDeeperThan(arrays(HUGE), HUGE), false);
  });

  it('agrees with a scan of every character on random text of brackets, quotes and backslashes', () => {
    const byCharacter = (text: string, max: number) => {
      let depth = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '"') {
          for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
        } else if (c === '[' || c === '{') {
          if (++depth > max) return true;
        } else if (c === ']' || c === '}') depth--;
      }
      return false;
    };
    const alphabet = ['[', ']', '{', '}', '"', '\\', '1', ',', ':', 'a'];
    const rng = new Rng(17);
    for (let i = 0; i < 20000; i++) {
      const text = rng.some(alphabet, rng.int(0, 29)).join('');
      const max = rng.int(0, 3);
      assert.equal(nestsDeeperThan(text, max), byCharacter(text, max), `${JSON.stringify(text)} past ${max}`);
    }
  });
});

describe(`input nested deeper than maxNestingDepth (${LIMIT})`, () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder({ maxNestingDepth: LIMIT, vector: { indexes: { default: { dimension: 2 } } } });
  });
  after(() => t.close());

  async function post(url: string, authorization: string, body: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.json() };
  }
  const vector = (path: string, body: string) => post(`${t.vectorIndex().url}/${path}`, `Bearer ${t.vectorIndex().token}`, body);

  it('vector: metadata up to the limit is stored; deeper gets 400, however deep', async () => {
    // The body is one object around the metadata.
    const ok = await vector('upsert', `{"id":"ok","vector":[1,2],"metadata":${objects(LIMIT - 1)}}`);
    assert.deepEqual(ok, { status: 200, body: { result: 'Success' } });
    for (const levels of [LIMIT, HUGE]) {
      assert.deepEqual(await vector('upsert', `{"id":"deep","vector":[1,2],"metadata":${objects(levels)}}`), { status: 400, body: TOO_DEEP });
      assert.deepEqual(await vector('update', `{"id":"ok","metadata":${objects(levels)}}`), { status: 400, body: TOO_DEEP });
    }
    assert.deepEqual(await vector('query', arrays(HUGE)), { status: 400, body: TOO_DEEP });
    const fetched = await vector('fetch', '{"ids":["ok","deep"],"includeMetadata":true}');
    assert.equal((fetched.body as { result: unknown[] }).result[1], null, 'nothing deep was stored');
  });

  it('vector: a filter with parentheses nested past the limit gets 400; a long flat chain works', async () => {
    const nested = (levels: number) => '('.repeat(levels) + 'a = 1' + ')'.repeat(levels);
    const query = (filter: string) => vector('query', JSON.stringify({ vector: [1, 2], topK: 5, filter }));
    assert.deepEqual(await query(nested(LIMIT)), { status: 200, body: { result: [] } });
    for (const levels of [LIMIT + 1, HUGE]) {
      assert.deepEqual(await query(nested(levels)), {
        status: 400,
        body: { error: `Invalid filter. At line 1:${LIMIT} expected at most ${LIMIT} nested parentheses`, status: 400 },
      });
    }
    assert.deepEqual(await vector('delete', JSON.stringify({ filter: nested(HUGE) })), {
      status: 400,
      body: { error: `Invalid filter. At line 1:${LIMIT} expected at most ${LIMIT} nested parentheses`, status: 400 },
    });
    // A chain of conditions is no nesting: 100,000 of them are answered (the last one matches).
    await vector('upsert', '{"id":"n","vector":[1,2],"metadata":{"n":99999}}');
    const chain = Array.from({ length: 100_000 }, (_, i) => `n = ${i}`).join(' OR ');
    const found = await query(chain);
    assert.equal(found.status, 200);
    assert.deepEqual((found.body as { result: { id: string }[] }).result.map((r) => r.id), ['n']);
  });

  it('streams: a body nested past the limit gets 400 in the streams envelope', async () => {
    const c = t.cluster();
    const basic = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
    for (const body of [arrays(HUGE), `{"topic":"t","value":"v","headers":${arrays(LIMIT)}}`]) {
      assert.deepEqual(await post(`${c.url}/produce`, basic, body), { status: 400, body: TOO_DEEP });
    }
  });

  it('queue: a JSON body nested past the limit gets 400 in the queue envelope', async () => {
    const q = t.queue();
    for (const body of [arrays(HUGE), `[{"destination":"http://127.0.0.1:1/x","headers":${objects(LIMIT)}}]`]) {
      assert.deepEqual(await post(`${q.url}/v2/batch`, `Bearer ${q.token}`, body), { status: 400, body: TOO_DEEP });
    }
    // A workflow's messages are JSON the queue reads: an invoke's step is kept with the run.
    const invoke = await fetch(`${q.url}/v2/publish/http://127.0.0.1:1/child`, {
      method: 'POST',
      headers: { authorization: `Bearer ${q.token}`, 'upstash-workflow-runid': 'wfr_child', 'upstash-workflow-init': 'true', 'upstash-workflow-invoke': 'true' },
      body: `{"body":"x","workflowRunId":"wfr_parent","workflowRunCreatedAt":1,"workflowUrl":"http://127.0.0.1:1/p","step":${objects(HUGE)}}`,
    });
    assert.deepEqual({ status: invoke.status, body: await invoke.json() }, { status: 400, body: TOO_DEEP });
    // Any other body is passed on unread, however it nests.
    const plain = await fetch(`${q.url}/v2/publish/http://127.0.0.1:1/plain`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, 'upstash-delay': '1h' }, body: arrays(HUGE) });
    assert.equal(plain.status, 200);
  });

  it('kv: a deep command body and a deep JSON.SET value get 400 with their Redis texts', async () => {
    const body = await t.command(['SET', 'k', 'v']);
    assert.equal(body.status, 200);
    const deep = await fetch(t.kvUrl, { method: 'POST', headers: { authorization: `Bearer ${t.token}` }, body: arrays(HUGE, '"GET"') });
    assert.equal(deep.status, 400);
    assert.deepEqual(await deep.json(), { error: 'ERR command arguments must be strings or numbers, got an array' });
    assert.equal(await t.fails(['JSON.SET', 'j', '$', arrays(HUGE)]), 'recursion limit exceeded at line 1 column 129');
  });
});

// One rule for every service reading a JSON body: an empty or blank body is no body (the
// endpoint then answers what it answers when the body is missing), never "not valid JSON".
describe('an empty or blank JSON body', () => {
  let t: TestLarder;
  before(async () => {
    t = await startTestLarder({ vector: { indexes: { default: { dimension: 2 } } } });
  });
  after(() => t.close());

  async function post(url: string, authorization: string, body: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.json() };
  }

  it('is no body in the vector, streams and queue services alike', async () => {
    const c = t.cluster();
    const basic = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
    const q = t.queue();
    const endpoints: [string, string][] = [
      [`${t.vectorIndex().url}/upsert`, `Bearer ${t.vectorIndex().token}`],
      [`${c.url}/produce`, basic],
      [`${q.url}/v2/queues`, `Bearer ${q.token}`],
      [`${q.url}/v2/batch`, `Bearer ${q.token}`],
    ];
    for (const [url, authorization] of endpoints) {
      const empty = await post(url, authorization, '');
      assert.equal(empty.status, 400, url);
      assert.doesNotMatch((empty.body as { error: string }).error, /not valid JSON/, url);
      assert.deepEqual(await post(url, authorization, ' \n\t '), empty, url);
    }
  });
});
