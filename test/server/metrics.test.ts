// /metrics and /healthz: a known number of requests to each service, then a scrape parsed by
// a strict text-format parser, whose request counters must have grown by exactly those.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestLarder, suiteLarder, type TestLarder } from '../support/larder.js';
import { parsePrometheusText, sampleValue, type Family } from '../support/prometheus-text.js';

const DURATION = 'larder_http_request_duration_seconds';

async function scrape(t: TestLarder): Promise<Map<string, Family>> {
  const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.adminToken}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await res.text());
}

/** How much each sample of `after` grew since `before` (absent in `before`: 0). */
function growth(before: Map<string, Family>, after: Map<string, Family>) {
  return (name: string, labels: Record<string, string> = {}) => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
}

describe('/metrics', () => {
  const t = suiteLarder({ streams: { clusters: { default: { topics: { events: { partitions: 1 } } } } } });

  it('counts every request by service, method and status class, errors, latency and kv commands', async () => {
    const before = await scrape(t);

    // kv: 5 POST answered 2xx (one a pipeline of 3), 2 GET 2xx, 3 POST 4xx, 1 OPTIONS 2xx.
    for (const argv of [['set', 'n', '1'], ['incr', 'n'], ['get', 'n'], ['set', 's', 'text']]) await t.ok(argv);
    for (let i = 0; i < 2; i++) assert.equal((await t.request('/get/n')).status, 200);
    await t.fails(['get']); // refused before it runs: not a command run
    await t.fails(['incr', 's']); // runs, then fails
    const pipeline = await t.request('/pipeline', { method: 'POST', body: JSON.stringify([['incr', 'n'], ['get', 'n'], ['del', 's']]) });
    assert.equal(pipeline.status, 200);
    await pipeline.arrayBuffer();
    assert.equal((await t.command(['get', 'n'], { token: 'not-the-token' })).status, 401);
    assert.equal((await t.request('', { method: 'OPTIONS' })).status, 204);

    // streams: 3 GET 2xx, 1 POST 2xx, 1 GET 4xx.
    const c = t.cluster();
    const basic = { authorization: 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64') };
    for (const path of ['/produce/events/a', '/produce/events/b', '/topics']) {
      const res = await fetch(c.url + path, { headers: basic });
      assert.equal(res.status, 200, path);
      await res.arrayBuffer();
    }
    const fetched = await fetch(c.url + '/fetch', { method: 'POST', headers: basic, body: JSON.stringify({ topic: 'events', partition: 0, offset: 0, timeout: 0 }) });
    assert.equal(fetched.status, 200);
    await fetched.arrayBuffer();
    const refused = await fetch(c.url + '/topics', { headers: { authorization: 'Basic ' + Buffer.from('who:ever').toString('base64') } });
    assert.equal(refused.status, 401);
    await refused.arrayBuffer();

    // vector: 3 POST 2xx, 1 GET 2xx, 2 POST 4xx (a wrong dimension, a wrong token).
    const v = t.vectorIndex();
    const vector = async (path: string, body: unknown, token = v.token) => {
      const res = await fetch(v.url + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    };
    assert.equal(await vector('/upsert', { id: 'a', vector: [1, 0, 0] }), 200);
    assert.equal(await vector('/upsert', { id: 'b', vector: [0, 1, 0] }), 200);
    assert.equal(await vector('/query', { vector: [1, 0, 0], topK: 1 }), 200);
    assert.equal(await vector('/info', undefined), 200);
    assert.equal(await vector('/upsert', { id: 'c', vector: [1, 0] }), 422);
    assert.equal(await vector('/info', {}, 'wrong-token'), 401);

    // No service: 1 GET 4xx.
    assert.equal((await fetch(`${t.url}/nowhere`)).status, 404);

    const after = await scrape(t);
    const grew = growth(before, after);
    const requests = (service: string, method: string, code: string) => grew('larder_http_requests_total', { service, method, code });
    const expected: [string, string, string, number][] = [
      ['kv', 'POST', '2xx', 5], ['kv', 'GET', '2xx', 2], ['kv', 'POST', '4xx', 3], ['kv', 'OPTIONS', '2xx', 1],
      ['streams', 'GET', '2xx', 3], ['streams', 'POST', '2xx', 1], ['streams', 'GET', '4xx', 1],
      ['vector', 'POST', '2xx', 3], ['vector', 'GET', '2xx', 1], ['vector', 'POST', '4xx', 2],
      ['none', 'GET', '4xx', 1],
    ];
    for (const [service, method, code, n] of expected) assert.equal(requests(service, method, code), n, `${service} ${method} ${code}`);
    // Nothing else was counted for these services.
    const total = (family: Map<string, Family>, service: string) =>
      family.get('larder_http_requests_total')!.samples.filter((s) => s.labels.service === service).reduce((sum, s) => sum + s.value, 0);
    const sent: Record<string, number> = { kv: 11, streams: 5, vector: 6, none: 1 };
    for (const [service, n] of Object.entries(sent)) {
      assert.equal(total(after, service) - total(before, service), n, service);
      assert.equal(grew(`${DURATION}_count`, { service }), n, `${service} latency count`);
      assert.equal(grew(`${DURATION}_bucket`, { service, le: '+Inf' }), n);
    }
    assert.deepEqual(
      ['kv', 'streams', 'vector', 'none'].map((service) => grew('larder_http_request_errors_total', { service })),
      [3, 1, 2, 1],
    );
    // set, incr, get, set, get, get, the failing incr, then incr, get, del in the pipeline.
    assert.equal(grew('larder_kv_commands_total', { database: 'default' }), 10);

    const duration = after.get(DURATION)!;
    assert.equal(duration.type, 'histogram');
    const kvBuckets = duration.samples.filter((s) => s.name === `${DURATION}_bucket` && s.labels.service === 'kv');
    assert.deepEqual(
      kvBuckets.map((s) => s.labels.le),
      ['0.0001', '0.00025', '0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
    );
    for (let i = 1; i < kvBuckets.length; i++) assert.ok(kvBuckets[i].value >= kvBuckets[i - 1].value, 'buckets are cumulative');
    assert.ok(sampleValue(after, `${DURATION}_sum`, { service: 'kv' })! > 0);
    assert.equal(after.get('larder_http_requests_total')!.type, 'counter');
    assert.equal(after.get('process_cpu_seconds_total')?.type, 'counter', 'process metrics are there');
  });

  it('counts the scrapes themselves under service "metrics"', async () => {
    const before = await scrape(t);
    const after = await scrape(t);
    assert.equal(growth(before, after)('larder_http_requests_total', { service: 'metrics', method: 'GET', code: '2xx' }), 1);
  });

  it('refuses a scrape without the admin token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${t.adminToken}`, `Bearer ${t.token}`]) {
      const res = await fetch(`${t.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      assert.equal(res.status, 401, String(authorization));
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.deepEqual(await res.json(), { error: 'Unauthorized: send the admin token (LARDER_ADMIN_TOKEN) as a bearer token', status: 401 });
    }
    const lower = await fetch(`${t.url}/metrics`, { headers: { authorization: `bearer ${t.adminToken}` } });
    assert.equal(lower.status, 200);
    await lower.arrayBuffer();
    const post = await fetch(`${t.url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${t.adminToken}` } });
    assert.equal(post.status, 405);
    await post.arrayBuffer();
  });

  it('answers /healthz to anyone', async () => {
    const res = await fetch(`${t.url}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { status: 'ok' });
    const head = await fetch(`${t.url}/healthz`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '15');
    assert.equal((await fetch(`${t.url}/healthz/more`)).status, 404);
  });
});

describe('/metrics switched off', () => {
  it('is not served with metrics: false; /healthz still is', async () => {
    const t = await startTestLarder({ metrics: false });
    try {
      const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.adminToken}` } });
      assert.equal(res.status, 404);
      await res.arrayBuffer();
      assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('the test parser of the text format', () => {
  it('refuses what Prometheus would refuse, and histograms that do not add up', () => {
    const bad = [
      'a 1', // no final line feed
      'a{b="1} 1\n',
      'a{b="1"} one\n',
      '1a 1\n',
      '# TYPE a counter\na -1\n',
      'a 1\nb 1\na 2\n',
      'a 1\na 2\n',
      'a 1\n# TYPE a counter\n',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n',
    ];
    for (const text of bad) assert.throws(() => parsePrometheusText(text), Error, JSON.stringify(text));
    const good = parsePrometheusText('# HELP a x\\ny\n# TYPE a gauge\na{b="q\\"\\\\",c="2"} +Inf 123\n\nc Nan\n');
    assert.equal(good.get('a')!.help, 'x\ny');
    assert.equal(sampleValue(good, 'a', { b: 'q"\\', c: '2' }), Infinity);
    assert.ok(Number.isNaN(sampleValue(good, 'c')));
  });
});
