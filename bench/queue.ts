// The queue workload: Larder's message queue (the QStash API at /qstash) on Bun and on Node,
// with Bun as the reference, and on Bun with the PostgreSQL engine (one throwaway cluster, as
// the tests start it) in 1 and 2 processes sharing one schema, publishers taking the processes
// in turn; delivering to a bare node:http receiver in the bench's process (queue-receiver.ts).
// Per round and system:
// - publish throughput, one message per request and batches of 100 (/v2/batch), from 8
//   concurrent publishers. The messages are delayed by an hour, so deliveries do not compete
//   with the publishes; each run's messages are then cancelled (and the count checked).
// - deliveries/s: a backlog (2,000 messages per measured second) published with one
//   Upstash-Not-Before, so all fall due at once; the rate is the backlog over the time from its
//   first delivery to its last.
// - publish-to-delivery latency: one message every 5 ms, each carrying its send time.
// - the last two again with every 10th message failing once (answered 500, then retried after
//   the back-off scaled by queue.retryDelayScale, about a millisecond here).
// - the CPU time each publish and delivery figure cost per message: the Larder processes', and
//   PostgreSQL's (the postmaster and its backends) with them.
// - the embedded rows again, each on a server of its own: single publishes' p99 with `pending`
//   messages held, without and during their compaction (queue-compaction.ts).
// Every message must arrive, signed; anything missing or unsigned counts as an error answer.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findPostgres, startPostgres, type PostgresCluster } from '../test/support/postgres.js';
import { cpuMicros, treeCpuMicros } from './cpu-time.js';
import { closedLoop, type LoopResult } from './http-load.js';
import { publishDuringCompaction } from './queue-compaction.js';
import { QueueReceiver } from './queue-receiver.js';
import { Missing } from './server-process.js';
import { quantile, Summary, type Figure } from './summary.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';

export interface QueueOptions {
  /** Measured seconds of each figure. */
  readonly seconds: number;
  readonly warmup: number;
  readonly rounds: number;
  /** Messages held while the store compacts, in the compaction rows. */
  readonly pending: number;
}

interface Target {
  readonly system: string;
  /** QSTASH_URL of each process; publisher i publishes to process i mod their number. */
  readonly urls: readonly string[];
  readonly headers: Record<string, string>;
  readonly keys: { current: string; next: string };
  /** CPU time (µs) of every process serving the queue so far, PostgreSQL's included; null where unreadable. */
  cpu(): number | null;
  stop(): Promise<void>;
}

const REFERENCE = 'Larder (bun)';
const PUBLISHERS = 8;
const BATCH = 100;
const BACKLOG_PER_SECOND = 2000;
const E2E_INTERVAL_MS = 5;
const FAIL_EVERY = 10;
/** A retry after the n-th failure waits e^(2.5n) s times this: about 1.2 ms for the first. */
const RETRY_DELAY_SCALE = 0.0001;
const DRAIN_MS = 60_000;
const BODY = 'q'.repeat(100);
/** Larder processes of the PostgreSQL rows. */
const POSTGRES_PROCESSES = [1, 2];

const fig = (name: string, unit: string): Figure => ({ name, unit });
/** The embedded rows' runtimes and their executables. */
const runtimes = (root: string): [string, string][] => [['bun', bunPath(root)], ['node', process.execPath]];

export async function benchQueue(root: string, opts: QueueOptions): Promise<Summary> {
  const title = `Queue: ${opts.seconds} s per figure, ${opts.rounds} round(s), ${PUBLISHERS} publishers, 100-byte bodies`;
  const summary = new Summary(title, REFERENCE);
  const configDir = mkdtempSync(join(tmpdir(), 'larder-bench-queue-'));
  // Room for every delayed message of a publish run (they are cancelled after it).
  const queue = { retryDelayScale: RETRY_DELAY_SCALE, maxPendingMessages: 10_000_000 };
  const targets: Target[] = [];
  let rx: QueueReceiver | null = null;
  let cluster: PostgresCluster | null = null;
  try {
    for (const [runtime, path] of runtimes(root)) {
      process.stderr.write(`queue: starting Larder on ${runtime}\n`);
      const server = await startLarder(root, path, runtime, ['--config', configFile(configDir, runtime, { queue })]);
      targets.push({ system: `Larder (${runtime})`, urls: [server.env.QSTASH_URL], ...access(server), cpu: () => cpuMicros([server.pid]), stop: () => server.stop() });
    }
    const unmeasured = (e: unknown) => (e instanceof Missing ? `skipped: ${e.message}` : `failed: ${(e as Error).message}`);
    cluster = await startCluster().catch((e: unknown) => {
      for (const n of POSTGRES_PROCESSES) summary.noteSystem(postgresSystem(n), unmeasured(e));
      return null;
    });
    const pg = cluster;
    if (pg !== null) {
      for (const n of POSTGRES_PROCESSES) {
        await postgresTarget(root, configDir, pg, n, queue).then(
          (t) => void targets.push(t),
          (e: unknown) => summary.noteSystem(postgresSystem(n), unmeasured(e)),
        );
      }
    }
    // One receiver for both: every Larder here signs with its own keys, so only one may verify.
    for (let round = 1; round <= opts.rounds; round++) {
      for (const t of targets) {
        process.stderr.write(`queue: round ${round}/${opts.rounds}: ${t.system}\n`);
        await rx?.close();
        rx = await QueueReceiver.start(t.keys);
        if (round === 1 && opts.warmup > 0) await publishRun(summary, t, rx, 1, opts.warmup, false);
        await publishRun(summary, t, rx, 1, opts.seconds, true);
        await publishRun(summary, t, rx, BATCH, opts.seconds, true);
        for (const failing of [false, true]) {
          const suffix = failing ? `, 1 in ${FAIL_EVERY} failing once` : '';
          await backlog(summary, t, rx, Math.max(BATCH, Math.round(BACKLOG_PER_SECOND * opts.seconds)), failing, `deliveries${suffix}`);
          await endToEnd(summary, t, rx, opts.seconds, failing, `publish-to-delivery${suffix}`);
          rx.clear();
        }
        if (rx.bad > 0) {
          summary.addErrors(t.system, fig('deliveries', 'msg/s'), rx.bad);
          summary.notes.push(`${t.system}: ${rx.bad} bad deliveries, e.g. ${rx.firstBad}`);
        }
      }
      for (const [runtime, path] of runtimes(root)) {
        const system = `Larder (${runtime})`;
        process.stderr.write(`queue: round ${round}/${opts.rounds}: ${system}, during a compaction\n`);
        await publishDuringCompaction(summary, root, system, runtime, path, { seconds: opts.seconds, pending: opts.pending, publishers: PUBLISHERS }).catch((e: unknown) => {
          summary.addErrors(system, fig(`publish p99, ${opts.pending.toLocaleString('en-US')} pending, compaction running`, 'ms'), 1);
          summary.notes.push(`${system}, during a compaction: ${(e as Error).message}`);
        });
      }
    }
  } finally {
    await rx?.close();
    for (const t of targets) await t.stop();
    await cluster?.stop();
    rmSync(configDir, { recursive: true, force: true });
  }
  summary.notes.push(
    'Publishes store each message (written to the OS, fdatasync every second) before they answer; their messages are delayed an hour so no delivery competes, then cancelled.',
    `Deliveries go to a bare node:http server in the bench's own Node process, at most 64 at once (queue.maxConcurrentDeliveries); each is signed (every 100th signature verified with @upstash/qstash's Receiver).`,
    `"failing once": every ${FAIL_EVERY}th message is answered 500 on its first attempt and retried after the back-off times ${RETRY_DELAY_SCALE} (about 1.2 ms).`,
    'The load runs in the bench\'s own Node process (fetch), on the same two cores as the server.',
    'PostgreSQL rows: Larder on Bun with queue.engine postgres, on a throwaway PostgreSQL cluster on the same machine started as the tests start it (fsync off); with 2 processes both serve one schema and the publishers take them in turn. The "CPU" figures (per message) count the Larder processes, and PostgreSQL\'s postmaster with all its backends.',
  );
  return summary;
}

/** Publishes delayed messages from PUBLISHERS loops for `seconds`, then cancels them, checking the count. */
async function publishRun(summary: Summary, t: Target, rx: QueueReceiver, batch: number, seconds: number, measure: boolean): Promise<void> {
  const destination = `${rx.url}/delayed`;
  const cpuBefore = t.cpu();
  const r = await closedLoop(PUBLISHERS, seconds, (loop) => publish(t, t.urls[loop % t.urls.length], destination, batch, { 'upstash-delay': '1h' }).then((ids) => ids.length));
  const cpu = perMessage(cpuBefore, t.cpu(), r.units);
  const res = await fetch(`${t.urls[0]}/v2/messages?url=${encodeURIComponent(destination)}`, { method: 'DELETE', headers: t.headers });
  const answer = await res.text();
  const cancelled = res.status === 200 ? (JSON.parse(answer) as { cancelled: number }).cancelled : 0;
  const name = batch === 1 ? 'publish, single' : `publish, batch of ${batch}`;
  const errors = r.errors + Math.abs(cancelled - r.units);
  if (cancelled !== r.units) summary.notes.push(`${t.system}, ${name}: published ${r.units} but cancelled ${cancelled} (${res.status} ${answer.slice(0, 200)})`);
  if (measure) record(summary, t.system, name, r, errors);
  if (measure && cpu !== null) summary.add(t.system, fig(`${name} CPU`, 'µs'), cpu, errors);
}

/** CPU microseconds per message between two readings; null where one is missing. */
const perMessage = (before: number | null, after: number | null, messages: number) => (before === null || after === null || messages === 0 ? null : (after - before) / messages);

function record(summary: Summary, system: string, name: string, r: LoopResult, errors: number): void {
  summary.add(system, fig(name, 'msg/s'), r.units / r.seconds, errors);
  summary.add(system, fig(`${name} p50`, 'ms'), quantile(r.latenciesMs, 0.5), errors);
  summary.add(system, fig(`${name} p99`, 'ms'), quantile(r.latenciesMs, 0.99), errors);
  if (r.errors > 0) summary.notes.push(`${system}, ${name}: ${r.firstError}`);
}

/** One publish of `bodies.length` messages (a batch when more than one); the message ids, checked. */
async function publish(t: Target, url: string, destination: string, batch: number, headers: Record<string, string>, bodies?: readonly string[]): Promise<string[]> {
  const all = bodies ?? Array.from({ length: batch }, () => BODY);
  const res =
    all.length === 1
      ? await fetch(`${url}/v2/publish/${destination}`, { method: 'POST', headers: { ...t.headers, ...headers }, body: all[0] })
      : await fetch(`${url}/v2/batch`, {
          method: 'POST',
          headers: { ...t.headers, 'content-type': 'application/json' },
          body: JSON.stringify(all.map((body) => ({ destination, headers, body }))),
        });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`publish answered ${res.status} ${text.slice(0, 120)}`);
  const answer = JSON.parse(text) as { messageId?: string } | { messageId?: string }[];
  const ids = (Array.isArray(answer) ? answer : [answer]).map((a) => a.messageId);
  if (ids.length !== all.length || ids.some((id) => typeof id !== 'string' || !id.startsWith('msg_'))) throw new Error(`publish answered ${text.slice(0, 120)}`);
  return ids as string[];
}

/** `count` messages due at one moment; deliveries/s from the first delivery to the last. */
async function backlog(summary: Summary, t: Target, rx: QueueReceiver, count: number, failing: boolean, name: string): Promise<void> {
  // Whole seconds (Upstash-Not-Before), leaving the publishes half a second plus 1 s per 2,000
  // messages; a note says when they took longer.
  const due = String(Math.ceil(Date.now() / 1000 + 0.5 + count / 2000));
  const destination = `${rx.url}/backlog`;
  const ids: string[] = [];
  let errors = 0;
  for (let i = 0; i < count; i += BATCH) {
    const bodies = Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => ((i + j) % FAIL_EVERY === 0 && failing ? 'f' : 'q') + BODY);
    try {
      ids.push(...(await publish(t, t.urls[(i / BATCH) % t.urls.length], destination, bodies.length, { 'upstash-not-before': due }, bodies)));
    } catch (e) {
      errors++;
      summary.notes.push(`${t.system}, ${name}: ${(e as Error).message}`);
    }
  }
  if (Date.now() >= Number(due) * 1000) summary.notes.push(`${t.system}, ${name}: the publishes ran past the due time`);
  // The publishes are done; from here the CPU goes to the deliveries.
  const cpuBefore = t.cpu();
  const missing = await rx.waitFor(ids, DRAIN_MS);
  const cpu = perMessage(cpuBefore, t.cpu(), ids.length - missing);
  const times = ids.flatMap((id) => rx.delivered.get(id) ?? []);
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  if (missing > 0) summary.notes.push(`${t.system}, ${name}: ${missing} of ${ids.length} messages never arrived`);
  summary.add(t.system, fig(name, 'msg/s'), span > 0 ? times.length / span : NaN, errors + missing);
  if (cpu !== null) summary.add(t.system, fig(`${name} CPU`, 'µs'), cpu, errors + missing);
}

/** A message every E2E_INTERVAL_MS carrying its send time; the latency until it is delivered. */
async function endToEnd(summary: Summary, t: Target, rx: QueueReceiver, seconds: number, failing: boolean, name: string): Promise<void> {
  const destination = `${rx.url}/e2e`;
  const latencies: number[] = [];
  rx.onDelivered = (body, at) => {
    if (body[1] === ':') latencies.push(at - Number(body.slice(2)));
  };
  const ids: string[] = [];
  const publishes: Promise<void>[] = [];
  let errors = 0;
  let firstError = '';
  const stopAt = performance.now() + seconds * 1000;
  for (let n = 0; performance.now() < stopAt; n++) {
    // `f` fails its first attempt (queue-receiver.ts).
    const body = `${failing && n % FAIL_EVERY === 0 ? 'f' : 'e'}:${performance.now()}`;
    publishes.push(
      publish(t, t.urls[n % t.urls.length], destination, 1, {}, [body]).then(
        (got) => void ids.push(...got),
        (e: Error) => {
          errors++;
          firstError ||= e.message;
        },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, E2E_INTERVAL_MS));
  }
  await Promise.all(publishes);
  if (errors > 0) summary.notes.push(`${t.system}, ${name}: ${firstError}`);
  const missing = await rx.waitFor(ids, DRAIN_MS);
  rx.onDelivered = null;
  latencies.sort((a, b) => a - b);
  if (missing > 0) summary.notes.push(`${t.system}, ${name}: ${missing} of ${ids.length} messages never arrived`);
  summary.add(t.system, fig(`${name} p50`, 'ms'), quantile(latencies, 0.5), errors + missing);
  summary.add(t.system, fig(`${name} p99`, 'ms'), quantile(latencies, 0.99), errors + missing);
}

const postgresSystem = (processes: number) => `Larder (bun), PostgreSQL, ${processes} process${processes === 1 ? '' : 'es'}`;

/** The config file of one row: the settings as a `larder start --config` file. */
function configFile(dir: string, name: string, config: object): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/** Bearer header and signing keys from the lines a Larder printed. */
function access(server: LarderServer): Pick<Target, 'headers' | 'keys'> {
  return {
    headers: { authorization: `Bearer ${server.env.QSTASH_TOKEN}` },
    keys: { current: server.env.QSTASH_CURRENT_SIGNING_KEY, next: server.env.QSTASH_NEXT_SIGNING_KEY },
  };
}

async function startCluster(): Promise<PostgresCluster> {
  if (findPostgres() === undefined) throw new Missing('PostgreSQL not installed (apt-get install postgresql)');
  process.stderr.write('queue: starting PostgreSQL\n');
  return startPostgres();
}

/** `processes` Larders on Bun serving one schema of `cluster`, with the same tokens and keys. */
async function postgresTarget(root: string, dir: string, cluster: PostgresCluster, processes: number, queue: object): Promise<Target> {
  const secret = () => randomBytes(18).toString('base64url');
  const token = Buffer.from(JSON.stringify({ UserID: 'bench', Password: secret() })).toString('base64');
  const keys = { current: `sig_${secret()}`, next: `sig_${secret()}` };
  const config = configFile(dir, `postgres-${processes}`, {
    queue: { ...queue, url: cluster.url(), schema: `bench_${processes}`, token, currentSigningKey: keys.current, nextSigningKey: keys.next },
  });
  const servers: LarderServer[] = [];
  const stop = async () => {
    for (const s of servers) await s.stop();
  };
  try {
    for (let i = 0; i < processes; i++) {
      process.stderr.write(`queue: starting Larder on bun, PostgreSQL, process ${i + 1} of ${processes}\n`);
      servers.push(await startLarder(root, bunPath(root), 'bun', ['--config', config]));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const postmaster = postmasterPid(cluster.port);
  return {
    system: postgresSystem(processes),
    urls: servers.map((s) => s.env.QSTASH_URL),
    headers: { authorization: `Bearer ${token}` },
    keys,
    cpu() {
      const larder = cpuMicros(servers.map((s) => s.pid));
      const pg = postmaster === null ? null : treeCpuMicros(postmaster);
      return larder === null || pg === null ? null : larder + pg;
    },
    stop,
  };
}

/** The PostgreSQL server listening on `port` (its backends rename themselves; it keeps its argv). */
function postmasterPid(port: number): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0');
    } catch {
      continue;
    }
    if (argv[0].endsWith('/postgres') && argv.some((a, i) => a === '-p' && argv[i + 1] === String(port))) return Number(name);
  }
  return null;
}
