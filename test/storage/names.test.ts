// Names that become file or folder names in the data directory (storage/names.ts): a name that
// breaks its kind's rule is refused with 400 and the rule, in the service's own envelope, and
// nothing is created; configured names are refused at start with one line stating the rule.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kafka } from '@upstash/kafka';
import { launchLarder, runLarderCli } from '../support/larder-process.js';
import { startTestLarder, type TestLarder } from '../support/larder.js';

const TOPIC_RULE = "topic names are 1 to 249 letters, digits, ., _ and -, not '.' or '..', and not starting with 'topics.json' or 'consumer-offsets.log'";
const INDEX_RULE = 'index names are 1 to 64 letters, digits, _ and -, starting with a letter or digit';

/** A POST whose path goes out byte for byte (fetch would resolve `..` segments before sending). */
function rawPost(url: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (s: string) => (text += s));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('names that become file names', () => {
  let t: TestLarder;
  let kafka: Kafka;
  let basic: string;
  before(async () => {
    t = await startTestLarder({ streams: { clusters: { default: { autoCreateTopics: true } } } });
    const c = t.cluster();
    kafka = new Kafka({ url: c.url, username: c.username, password: c.password });
    basic = 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64');
  });
  after(() => t.close());

  /** Every entry under the cluster's folder, and under streams/ beside it. */
  const streamFiles = () => [...readdirSync(join(t.dataDir, 'streams')), ...readdirSync(join(t.dataDir, 'streams', 'default'))].sort();

  it('refuses a produce that would auto-create a topic named ., .. or anything off the rule', async () => {
    const before = streamFiles();
    // The cluster's folder keeps topics.json (replaced through topics.json.tmp) and consumer-offsets.log beside the topics' folders.
    for (const topic of ['.', '..', 'a/b', 'a b', '', 'x'.repeat(250), 'topics.json', 'topics.json.tmp', 'consumer-offsets.log']) {
      const res = await fetch(`${t.cluster().url}/produce`, {
        method: 'POST',
        headers: { authorization: basic },
        body: JSON.stringify({ topic, value: 'v' }),
      });
      const body = await res.json();
      if (topic === '') {
        assert.equal(res.status, 400, 'an empty topic is no topic');
        continue;
      }
      assert.deepEqual(body, { error: `invalid topic name '${topic}': ${TOPIC_RULE}`, status: 400 }, topic);
      assert.equal(res.status, 400);
    }
    assert.deepEqual(streamFiles(), before, 'no folder was made');
    assert.deepEqual(await kafka.admin().topics(), {});
  });

  it('refuses create-topic with a bad name through a path the client sends as it is', async () => {
    // A path segment that is exactly `%2E%2E` is resolved by the runtime's URL parser before it is a
    // name; the produce test above sends `.` and `..` themselves.
    for (const name of ['..%2Fescape', '%2E%2E%2Fescape', 'a%2F..%2F..%2Fescape']) {
      const out = await rawPost(t.cluster().url, `/kafka/default/create-topic/${name}`, { authorization: basic }, '{}');
      assert.equal(out.status, 400, name);
      assert.equal(out.body.error, `invalid topic name '${decodeURIComponent(name)}': ${TOPIC_RULE}`);
    }
    assert.equal(existsSync(join(t.dataDir, 'escape')), false);
  });

  it('still takes the longest and oddest names the rule allows', async () => {
    const long = 'a.b_c-'.repeat(41) + 'xyz';
    assert.equal(long.length, 249);
    for (const topic of [long, '...', '.x', '_-', 'topics', 'topics.jso', 'consumer-offsets']) {
      const p = kafka.producer();
      assert.equal((await p.produce(topic, 'v')).topic, topic);
    }
  });

  it('refuses a vector index named off the rule at the admin endpoint', async () => {
    const adminToken = JSON.parse(readFileSync(join(t.dataDir, 'secrets.json'), 'utf8'))['vector.adminToken'];
    for (const name of ['..', '_hidden', 'a.b', 'x'.repeat(65)]) {
      const res = await fetch(`${t.url}/vector/_admin/create-index`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ name, dimension: 2 }),
      });
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { error: `invalid index name '${name}': ${INDEX_RULE}`, status: 400 });
    }
    assert.deepEqual(readdirSync(join(t.dataDir, 'vector')).sort(), ['default']);
  });
});

describe('configured names', () => {
  const root = mkdtempSync(join(tmpdir(), 'larder-names-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Starts `larder start` with `config` and flags; its exit code and what it printed. */
  async function refused(config: Record<string, unknown>, flags: string[] = []) {
    const p = launchLarder({ dataDir: join(root, String(Math.random()).slice(2)), config, flags });
    // A Larder that starts after all is stopped, so the test fails rather than waits.
    p.ready.then(() => p.stop(), () => undefined);
    const exit = await p.exited;
    return { code: exit.code, stderr: p.stderr() };
  }

  it('stops the start with one line stating the rule, for each kind of name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ streams: { clusters: { default: { topics: { '..': {} } } } } }, `  streams.clusters.default.topics: invalid topic name '..': ${TOPIC_RULE}\n`],
      [{ streams: { clusters: { '.': {} } } }, "  streams.clusters: invalid cluster name '.': cluster names are 1 to 64 letters, digits, _ and -\n"],
      [{ kv: { databases: { 'a.b': {} } } }, "  kv.databases: invalid database name 'a.b': database names are 1 to 64 letters, digits, _ and -\n"],
      [{ vector: { indexes: { _x: {} } } }, `  vector.indexes: invalid index name '_x': ${INDEX_RULE}\n`],
    ];
    for (const [config, line] of cases) {
      const out = await refused(config);
      assert.equal(out.code, 2);
      assert.equal(out.stderr, `larder: invalid configuration:\n${line}`);
    }
  });

  it('stops the start when a --topic or --vector-index flag names off the rule', async () => {
    const topic = await refused({}, ['--topic', '..:2']);
    assert.equal(topic.code, 2);
    assert.equal(topic.stderr, `larder: --topic ..:2: invalid topic name '..': ${TOPIC_RULE}\n`);
    const index = await refused({}, ['--vector-index', '_x:DENSE:2']);
    assert.equal(index.code, 2);
    assert.equal(index.stderr, `larder: --vector-index _x:DENSE:2: invalid index name '_x': ${INDEX_RULE}\n`);
  });

  it('stops the start with one line when topics.json, written before the rule, holds a bad name', async () => {
    const dataDir = join(root, 'old-topics');
    const topicsFile = join(dataDir, 'streams', 'default', 'topics.json');
    mkdirSync(join(dataDir, 'streams', 'default'), { recursive: true });
    writeFileSync(topicsFile, JSON.stringify({ ok: { partitions: 1 }, '.': { partitions: 1 } }));
    const p = launchLarder({ dataDir, config: {} });
    p.ready.then(() => p.stop(), () => undefined);
    const exit = await p.exited;
    assert.notEqual(exit.code, 0);
    assert.equal(p.stderr(), `larder: ${topicsFile}: invalid topic name '.': ${TOPIC_RULE}; remove that entry (and move its data away) to start\n`);
  });

  it('refuses `larder topic create ..` before it asks any server', async () => {
    // No server listens on port 1: an answer at all would mean the name went out.
    const out = await runLarderCli(['topic', 'create', '..', '--url', 'http://127.0.0.1:1', '--data-dir', root]);
    assert.deepEqual({ code: out.code, stderr: out.stderr }, { code: 2, stderr: `larder: invalid topic name '..': ${TOPIC_RULE}\n` });
  });
});
