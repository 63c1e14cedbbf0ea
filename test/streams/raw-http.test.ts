// The forms the SDK does not send (GET produce, webhook, earliest/latest offsets, the path
// consume, the admin endpoint) and bad input, through raw HTTP: the SDK retries every error
// five times, so errors are checked here, each an `{error, status}` object.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteLarder } from '../support/larder.js';

const TOPICS = { t: { partitions: 2 }, hooks: { partitions: 1 } };

describe('stream topics over raw HTTP', () => {
  const t = suiteLarder({
    maxBodyBytes: 100_000,
    streams: { clusters: { default: { topics: TOPICS, maxMessageBytes: 1000 }, auto: { autoCreateTopics: true, defaultPartitions: 2, username: 'auto-user', password: 'auto-password' } } },
  });
  const auth = () => 'Basic ' + Buffer.from(`${t.cluster().username}:${t.cluster().password}`).toString('base64');
  async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; auth?: string | null } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    const a = init.auth === undefined ? auth() : init.auth;
    if (a !== null) headers.authorization = a;
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = await fetch(t.cluster().url + path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    return { status: res.status, body: (await res.json()) as any };
  }
  const fails = async (path: string, status: number, init: Parameters<typeof call>[1] = {}) => {
    const res = await call(path, init);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.status, status);
    assert.equal(typeof res.body.error, 'string');
    return res.body.error as string;
  };

  it('produces with GET /produce/$TOPIC/$MESSAGE?key=', async () => {
    const res = await call('/produce/t/hello%20world?key=user%3A1');
    assert.equal(res.status, 200);
    assert.equal(res.body.topic, 't');
    assert.equal(res.body.offset, 0);
    const got = await call('/fetch', { body: { topic: 't', partition: res.body.partition, offset: 0, timeout: 0 } });
    assert.deepEqual(got.body.map((m: any) => [m.key, m.value]), [['user:1', 'hello world']]);
  });

  it('produces one message or an array to POST /produce/$TOPIC', async () => {
    const one = await call('/produce/t', { body: { value: 'v1', partition: 1 } });
    assert.deepEqual(one.body.map((m: any) => [m.topic, m.partition]), [['t', 1]]);
    const many = await call('/produce/t', { body: [{ value: 'v2', partition: 1 }, { value: 'v3', partition: 1 }] });
    assert.deepEqual(many.body.map((m: any) => m.offset), [one.body[0].offset + 1, one.body[0].offset + 2]);
  });

  it('stores a webhook call as a message, its custom headers as message headers', async () => {
    const { username, password } = t.cluster();
    const res = await call(`/webhook?topic=hooks&user=${username}&pass=${password}`, {
      auth: null,
      body: 'payload body',
      headers: { 'x-event': 'push', 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const got = await call('/fetch', { body: { topic: 'hooks', partition: 0, offset: 0, timeout: 0 } });
    assert.equal(got.body[0].value, 'payload body');
    assert.deepEqual(got.body[0].headers, [{ key: 'x-event', value: 'push' }]);
    await fails(`/webhook?topic=hooks&user=${username}&pass=wrong`, 401, { auth: null, body: 'x' });
    assert.equal((await call('/webhook?topic=hooks', { body: 'basic' })).status, 200);
  });

  it('answers earliest and latest offsets, and consumes with the path form', async () => {
    const tp = { topic: 'hooks', partition: 0 };
    assert.deepEqual((await call('/offsets/earliest', { body: tp })).body, [{ ...tp, offset: 0 }]);
    assert.deepEqual((await call('/offsets/latest', { body: [tp] })).body, [{ ...tp, offset: 2 }]);
    const headers = { 'Stream-Auto-Offset-Reset': 'earliest', 'Stream-Enable-Auto-Commit': 'false' };
    const got = await call('/consume/pg/p1/hooks?timeout=1000', { headers });
    assert.deepEqual(got.body.map((m: any) => m.offset), [0, 1]);
    assert.deepEqual((await call('/commit/pg/p1', { method: 'POST' })).body, { result: 'Success', status: 200 });
    assert.deepEqual((await call('/committed/pg/p1', { body: tp })).body, [{ ...tp, offset: 2 }]);
    assert.deepEqual((await call('/delete-consumer/pg/p1', { method: 'DELETE' })).body, { result: 'Success', status: 200 });
  });

  it('creates a topic through the admin endpoint', async () => {
    const res = await call('/create-topic/made', { body: { partitions: 4 } });
    assert.deepEqual(res.body, { topic: 'made', partitions: 4 });
    assert.equal((await call('/topics')).body.made, 4);
    await fails('/create-topic/made', 409, { body: {} });
    await fails('/create-topic/bad%20name', 400, { body: {} });
    await fails('/create-topic/x', 400, { body: { partitions: 0 } });
  });

  it('creates unknown topics on produce only in a cluster with autoCreateTopics', async () => {
    const auto = t.cluster('auto');
    assert.equal(auto.url, `${t.url}/kafka/auto`);
    assert.equal(auto.username, 'auto-user');
    const authorization = 'Basic ' + Buffer.from('auto-user:auto-password').toString('base64');
    const res = await fetch(`${auto.url}/produce/fresh/hi`, { headers: { authorization } });
    assert.equal(res.status, 200);
    const topics = await (await fetch(`${auto.url}/topics`, { headers: { authorization } })).json();
    assert.deepEqual(topics, { fresh: 2 });
    // The default cluster's credentials do not open another cluster.
    assert.equal((await fetch(`${auto.url}/topics`, { headers: { authorization: auth() } })).status, 401);
    await fails('/produce/fresh/hi', 404);
  });

  it('refuses bad credentials with 401', async () => {
    await fails('/topics', 401, { auth: null });
    await fails('/topics', 401, { auth: 'Basic ' + Buffer.from('nobody:nothing').toString('base64') });
    await fails('/topics', 401, { auth: 'Bearer something' });
  });

  it('refuses Basic credentials in sloppy base64 with 401, as wrong ones', async () => {
    const encoded = auth().slice('Basic '.length);
    const refused = { status: 401, body: { error: 'Unauthorized: wrong or missing REST credentials', status: 401 } };
    // Characters outside the alphabet, padding too long or in the middle.
    for (const text of [`${encoded.slice(0, 4)}!${encoded.slice(4)}`, `${encoded.slice(0, 4)} ${encoded.slice(4)}`, `${encoded}====`, `${encoded}.`, `${encoded.slice(0, 4)}=${encoded.slice(4)}`]) {
      assert.deepEqual(await call('/topics', { auth: `Basic ${text}` }), refused, text);
    }
    assert.equal((await call('/topics', { auth: `basic  ${encoded} ` })).status, 200);
    // Padding missing, or non-zero bits in it: 'auto-user:auto-password' ends in one '='.
    const padded = Buffer.from('auto-user:auto-password').toString('base64');
    assert.match(padded, /[^=]=$/);
    const auto = (text: string) => fetch(`${t.cluster('auto').url}/topics`, { headers: { authorization: `Basic ${text}` } });
    assert.equal((await auto(padded)).status, 200);
    for (const text of [padded.slice(0, -1), `${padded.slice(0, -2)}${String.fromCharCode(padded.charCodeAt(padded.length - 2) + 1)}=`]) {
      const res = await auto(text);
      assert.deepEqual({ status: res.status, body: await res.json() }, refused, text);
    }
  });

  it('answers 404 to a known endpoint with extra path segments', async () => {
    for (const path of ['/consumers/g', '/topics/x', '/fetch/x', '/webhook/x?topic=hooks', '/produce/t/v/extra', '/offsets/latest/x', '/create-topic/x/y', '/consume/g/i/t/extra', '/commit/g/i/extra', '/committed/g/i/extra', '/delete-consumer/g/i/extra']) {
      const res = await call(path, { method: 'POST', body: path.startsWith('/fetch') ? { topic: 't', partition: 0, offset: 0 } : {} });
      assert.deepEqual(res, { status: 404, body: { error: `no endpoint at ${new URL(t.cluster().url + path).pathname}`, status: 404 } }, path);
    }
    // Before the credential, as for an unknown endpoint.
    assert.equal((await call('/topics/x', { auth: null })).status, 404);
  });

  it('reports unknown topics, partitions, offsets, endpoints and methods', async () => {
    assert.match(await fails('/produce/nope/x', 404), /topic 'nope' does not exist/);
    assert.match(await fails('/produce', 404, { body: { topic: 'nope', value: 'x' } }), /nope/);
    assert.match(await fails('/produce/t', 404, { body: { value: 'x', partition: 9 } }), /partition 9/);
    assert.match(await fails('/fetch', 404, { body: { topic: 't', partition: 5, offset: 0 } }), /partition 5/);
    assert.match(await fails('/fetch', 416, { body: { topic: 't', partition: 1, offset: 1000 } }), /out of range/);
    await fails('/offsets/latest', 404, { body: { topic: 'nope', partition: 0 } });
    await fails('/consume/g/i/nope', 404);
    await fails('/commit/g/missing', 404, { method: 'POST' });
    await fails('/delete-consumer/g/missing', 404, { method: 'POST' });
    await fails('/no-such-endpoint', 404);
    await fails('/topics', 405, { method: 'DELETE' });
    await fails('/delete-consumer/g/i', 405);
  });

  it('reports malformed bodies and oversize messages', async () => {
    assert.match(await fails('/produce/t', 400, { body: '{not json' }), /not valid JSON/);
    await fails('/produce/t', 400, { body: '' , method: 'POST'});
    await fails('/produce/t', 400, { body: [] });
    await fails('/produce/t', 400, { body: { value: 42 } });
    await fails('/produce/t', 400, { body: { value: 'x', partition: -1 } });
    await fails('/produce/t', 400, { body: { value: 'x', headers: 'nope' } });
    await fails('/produce', 400, { body: { value: 'no topic' } });
    await fails('/fetch', 400, { body: { topic: 't', partition: 0 } });
    await fails('/fetch', 400, { body: { topic: 't', partition: 0, offset: 0, timeout: 'soon' } });
    await fails('/consume/g/i', 400, { body: { timeout: 10 } });
    await fails('/consume/g/i/t', 400, { headers: { 'Kafka-Auto-Offset-Reset': 'sometimes' } });
    await fails('/offsets/yesterday', 400, { body: { topic: 't', partition: 0 } });
    await fails('/committed/g/i', 400, { body: [{ topic: 't' }] });
    assert.match(await fails('/produce/t', 413, { body: { value: 'x'.repeat(1001) } }), /larger than the limit of 1000/);
    assert.match(await fails('/produce/t', 413, { body: { value: 'x'.repeat(200_000) } }), /request body too large/);
    // The server lives on.
    assert.equal((await call('/topics')).status, 200);
  });

  it('errors when no offset is committed and Auto-Offset-Reset is none', async () => {
    assert.match(await fails('/consume/gn/i/t?timeout=0', 400, { headers: { 'Kafka-Auto-Offset-Reset': 'none' } }), /no committed offset/);
  });

  it('refuses more instances than partitions', async () => {
    const headers = { 'Kafka-Auto-Offset-Reset': 'earliest' };
    for (const id of ['a', 'b']) assert.equal((await call(`/consume/full/${id}/t?timeout=0`, { headers })).status, 200);
    assert.match(await fails('/consume/full/c/t?timeout=0', 409, { headers }), /one instance per partition/);
    // Consumer headers count only when they create the instance.
    assert.equal((await call('/consume/full/a/t?timeout=0', { headers: { 'Kafka-Auto-Offset-Reset': 'sometimes' } })).status, 200);
  });
});
