// The one place settings are declared: names, types, defaults and limits. Loading (file,
// env, flags) is in load.ts; nothing else reads the environment.

import { z } from 'zod';
import { badName, type NameKind } from '../storage/names.js';
import { parseDestinationRule } from './destination-rule.js';
import { parseRemoteUrl } from './remote-url.js';

const MiB = 1024 * 1024;
const DAY_MS = 86_400_000;

const token = z.string().min(8, 'tokens must be at least 8 characters');

const aclUser = z
  .object({
    name: z.string().min(1),
    /** ACL SETUSER rules, e.g. "on >secret ~app:* +@read". */
    rules: z.string().default('on'),
  })
  .strict();

const remoteUrl = z.string().superRefine((url, ctx) => {
  try {
    parseRemoteUrl(url);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
  }
});

const remoteTls = z
  .object({
    /** PEM file of the CA to trust; the system's CAs when absent. */
    caFile: z.string().min(1).optional(),
    /** Client certificate and key (PEM files), for servers that ask for one. */
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
    /** false accepts any server certificate: test setups only. */
    rejectUnauthorized: z.boolean().default(true),
    /** The name checked against the certificate, when it is not the host. */
    servername: z.string().min(1).optional(),
  })
  .strict();

const kvDatabase = z
  .object({
    /**
     * Where the data lives: embedded (in Larder's data dir) or redis (a remote Redis or Valkey
     * at `url`; then Larder keeps only tokens and ACL users). Defaults to redis when `url` is set.
     */
    engine: z.enum(['embedded', 'redis']).optional(),
    /** engine redis: redis://, rediss:// (TLS), redis+cluster://HOST:PORT,HOST:PORT (Cluster seed nodes); user and password in the URL. */
    url: remoteUrl.optional(),
    /** engine redis with rediss://: certificates and checks. */
    tls: remoteTls.optional(),
    /** engine redis, standalone: connections kept for /multi-exec, one per transaction in flight. */
    transactionConnections: z.number().int().positive().default(4),
    /** Full-access token; generated and kept in the data dir when not given. */
    token: token.optional(),
    /** Read-only token; generated likewise. */
    readOnlyToken: token.optional(),
    /** Largest single command in bytes (arguments summed); no limit when absent. */
    maxRequestSize: z.number().int().positive().optional(),
    /** Commands a UTC day; no limit when absent. */
    dailyRequestLimit: z.number().int().positive().optional(),
    /**
     * The bytes of strings one request may answer, summed over its replies (64 MiB): past it a
     * reply is answered with an error, so that its JSON (up to 6 characters a byte) stays within
     * what a runtime's string holds and a 512 MB value cannot exhaust the server's memory.
     */
    maxReplyBytes: z.number().int().positive().default(64 * 1024 * 1024),
    /** How long one script or function (EVAL, FCALL) may run before it is stopped with an error. */
    scriptTimeoutMs: z.number().int().positive().default(5000),
    /**
     * How many bytes one script or function run may allocate (its strings as they are made, and
     * the heap's growth) before it is stopped with an error. 256 MiB.
     */
    scriptMemoryBytes: z.number().int().positive().default(256 * 1024 * 1024),
    /** ACL users created at start (and kept in step with this list). */
    users: z.array(aclUser).default([]),
  })
  .strict()
  .superRefine((db, ctx) => {
    if (db.engine === 'redis' && db.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'engine redis needs a url' });
    if (db.engine === 'embedded' && db.url !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is for engine redis' });
  })
  .transform((db) => ({ ...db, engine: db.engine ?? (db.url === undefined ? 'embedded' : 'redis') }));

export const vectorIndex = z
  .object({
    /** DENSE vectors, SPARSE vectors, or both (HYBRID). */
    type: z.enum(['DENSE', 'SPARSE', 'HYBRID']).default('DENSE'),
    /** Dense dimension; when absent the first upsert fixes it. */
    dimension: z.number().int().positive().max(65536).optional(),
    similarity: z.enum(['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT']).default('COSINE'),
    /** Full-access token; generated and kept in the data dir when not given. */
    token: token.optional(),
    /** Read-only token; generated likewise. */
    readOnlyToken: token.optional(),
    /** Dense embedding model for upsert-data and query-data: an OpenAI-compatible /v1/embeddings endpoint. */
    embedding: z
      .object({
        url: z.url(),
        model: z.string().min(1),
        /** Sent as a bearer token when given. */
        apiKey: z.string().optional(),
      })
      .strict()
      .optional(),
    /** Sparse embedding for upsert-data and query-data: the built-in BM25. */
    sparseEmbedding: z.enum(['BM25']).optional(),
  })
  .strict();

/** A name that becomes a file or folder name: storage/names.ts holds the rules. */
const fileName = (kind: NameKind) =>
  z.string().superRefine((name, ctx) => {
    const bad = badName(kind, name);
    if (bad !== null) ctx.addIssue({ code: 'custom', message: bad });
  });

export const streamTopic = z
  .object({
    partitions: z.number().int().min(1).max(1000).default(1),
    /** Messages older than this are deleted, a whole segment at a time; -1 keeps them for ever. */
    retentionMs: z.number().int().min(-1).default(7 * 24 * 3600 * 1000),
    /** A partition keeps at most about this many bytes (whole segments are deleted); -1 means no limit. */
    retentionBytes: z.number().int().min(-1).default(-1),
    /** A partition's active segment file is closed and a new one started at this size. */
    segmentBytes: z.number().int().min(1024).default(16 * MiB),
  })
  .strict();

const streamCluster = z
  .object({
    /** REST username (HTTP Basic); generated and kept in the data dir when not given. */
    username: z.string().min(1).optional(),
    /** REST password; generated likewise. */
    password: token.optional(),
    /** Produce to an unknown topic creates it (with `defaultPartitions`) instead of failing. */
    autoCreateTopics: z.boolean().default(false),
    defaultPartitions: z.number().int().min(1).max(1000).default(1),
    /** Largest message (key, value and headers) in bytes. */
    maxMessageBytes: z.number().int().positive().default(MiB),
    /** A consumer instance without a request for this long is closed, unless it asked for another (Kafka-Session-Timeout-Ms). */
    sessionTimeoutMs: z.number().int().positive().default(120_000),
    /** Topics created at start if absent (partitions only grow). */
    topics: z.record(fileName('topic'), streamTopic).default({}),
  })
  .strict();

const destinationRule = z.string().superRefine((text, ctx) => {
  const r = parseDestinationRule(text);
  if (typeof r === 'string') ctx.addIssue({ code: 'custom', message: r });
});

/** postgres:// or postgresql://, user and password in the URL; checked for form here, reached at start. */
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/[^\s]+$/i, 'a postgres:// or postgresql:// URL');

const queueSettings = z
  .object({
    /**
     * Where the queue's state lives: embedded (in Larder's data dir, one process) or postgres
     * (a PostgreSQL database at `url`, shared by every Larder process on it). Defaults to
     * postgres when `url` is set.
     */
    engine: z.enum(['embedded', 'postgres']).optional(),
    /** engine postgres: postgres://USER:PASSWORD@HOST:PORT/DATABASE */
    url: postgresUrl.optional(),
    /** engine postgres: connections kept open to PostgreSQL by this process. */
    poolSize: z.number().int().positive().default(10),
    /**
     * engine postgres: how long a process may hold a transaction open without a word to
     * PostgreSQL (frozen, stopped, stuck) before PostgreSQL ends its session, and with it the
     * write lock every other process waits for.
     */
    stalledWriterTimeoutMs: z.number().int().positive().default(15_000),
    /** engine postgres: the schema holding every table (created if absent), so several Larders may share one database apart. */
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case SQL identifier').default('larder'),
    /** Full-access token: base64 of {"UserID", "Password"} as the SDKs decode; generated and kept in the data dir when not given. */
    token: token.optional(),
    /** Read-only token (GET endpoints only); generated likewise. */
    readOnlyToken: token.optional(),
    /** Keys that sign deliveries (Upstash-Signature); generated likewise, and changed by POST /v2/keys/rotate. */
    currentSigningKey: token.optional(),
    nextSigningKey: token.optional(),
    /** As kv.fsync, for the queue's message log. */
    fsync: z.enum(['always', 'everysec']).default('everysec'),
    /** The message log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
    compactAfterBytes: z.number().int().positive().default(64 * MiB),
    /**
     * Largest message body in bytes (10 MiB: the hosted pay-as-you-go plan's limit); a callback's
     * copy of a response body is cut to this size. A larger publish is refused with 413.
     */
    maxMessageBytes: z.number().int().positive().default(10 * MiB),
    /**
     * Most headers a message may forward (Upstash-Forward-*, and a callback's own), as many as
     * node:http takes from one request. A batch entry's JSON is bounded by the body size alone, and
     * Bun's fetch builds a request's headers in time that grows with their count squared: 20,000
     * stalled the Bun server 20 s per delivery attempt. More is refused with 400.
     */
    maxForwardedHeaders: z.number().int().positive().default(2000),
    /** Retries when a publish names none (Upstash-Retries). */
    defaultRetries: z.number().int().min(0).default(3),
    /** Most retries a publish may ask for (5: the hosted pay-as-you-go plan's); more is refused with 412. */
    maxRetries: z.number().int().min(0).default(5),
    /** How long one delivery may take when a publish names no Upstash-Timeout; at most setTimeout's longest wait. */
    deliveryTimeoutMs: z.number().int().positive().max(2 ** 31 - 1).default(5 * 60_000),
    /**
     * The furthest ahead Upstash-Delay or Upstash-Not-Before may put a delivery (365 days: the
     * hosted pay-as-you-go plan's; free is 7 days), also the longest flow-control period and
     * workflow wait. Further is refused with 400. At most 1000 years, so a due time stays exact.
     */
    maxDelayMs: z.number().int().positive().max(1000 * 365 * DAY_MS).default(365 * DAY_MS),
    /** Deliveries in flight at once, over every destination; the rest wait their turn on disk and in the schedule. */
    maxConcurrentDeliveries: z.number().int().positive().default(64),
    /** Messages waiting (pending or retrying); a publish beyond this is refused with 429 rather than growing memory. */
    maxPendingMessages: z.number().int().positive().default(100_000),
    /** A deduplication id (or content hash) is remembered this long. */
    deduplicationWindowMs: z.number().int().positive().default(10 * 60_000),
    /**
     * Multiplies every retry delay (the back-off min(86400, e^(2.5·n)) s and Retry-After). 1 is the
     * service's timing; tests use e.g. 0.001 so retries take milliseconds.
     */
    retryDelayScale: z.number().positive().max(1).default(1),
    /**
     * QStash dev mode (--qstash-dev): the SDK's published dev token and signing keys, the queue API
     * also at the root (/v2/...), and the port the SDK probes by default (config/load.ts).
     */
    dev: z.boolean().default(false),
    /** Events /v2/logs keeps (in <dataDir>/queue/events*.log, so they survive restarts); the oldest go first. */
    maxLogEvents: z.number().int().positive().default(10_000),
    /** Destinations (and callback URLs) the queue may call: host names, `*.domain`, IPs or CIDRs; empty allows any. */
    allowDestinations: z.array(destinationRule).default([]),
    /** Destinations refused even when allowed; checked first. */
    denyDestinations: z.array(destinationRule).default([]),
    /** Refuses destinations that are or resolve to loopback, private or link-local addresses. */
    production: z.boolean().default(false),
    /**
     * Forwarded headers that carry credentials, besides Authorization and Cookie: delivered as
     * they are, shown as "[redacted]" in the logs (and their files), the DLQ and message views.
     */
    credentialHeaders: z.array(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name')).default([]),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.engine === 'postgres' && q.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'engine postgres needs a url' });
    if (q.engine === 'embedded' && q.url !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is for engine postgres' });
  })
  .transform((q) => ({ ...q, engine: q.engine ?? (q.url === undefined ? 'embedded' : 'postgres') }));

export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(7700),
    dataDir: z.string().min(1).default('./.larder'),
    /**
     * Processes serving the one port (node:cluster on Node, SO_REUSEPORT on Bun). More than one needs every
     * key-value database on engine redis: an embedded database lives in one process.
     */
    workers: z.number().int().min(1).max(256).default(1),
    /** Which HTTP runtime serves: node (node:http) or bun (Bun.serve, when run under Bun). */
    runtime: z.enum(['auto', 'node', 'bun']).default('auto'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Largest request body the server reads, for every service. */
    maxBodyBytes: z.number().int().positive().default(64 * MiB),
    /**
     * Deepest nesting of arrays and objects a JSON body may have (vector metadata included), and
     * of parentheses in a vector filter: deeper gets 400, where walking it could overflow the stack.
     */
    maxNestingDepth: z.number().int().min(8).max(1000).default(128),
    /** Bearer token of /metrics; generated and kept in the data dir when not given. */
    adminToken: token.optional(),
    /** Serve /metrics (behind adminToken). When absent: only while `host` is a loopback address. */
    metrics: z.boolean().optional(),
    /** Bearer token of the read-only web console (it is handed the services' read-only tokens); generated likewise. */
    adminReadOnlyToken: token.optional(),
    console: z
      .object({
        /** Serve the web console at /console (behind adminToken). When absent: only while `host` is a loopback address. */
        enabled: z.boolean().optional(),
      })
      .strict()
      .prefault({}),
    kv: z
      .object({
        /** always: fsync before answering a write; everysec: fsync once a second. */
        fsync: z.enum(['always', 'everysec']).default('everysec'),
        /** The log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
        compactAfterBytes: z.number().int().positive().default(64 * MiB),
        /**
         * How many bytes of events a subscriber or monitor stream may have waiting for its
         * connection; one that falls further behind is disconnected (as Redis's pub/sub
         * client-output-buffer-limit).
         */
        streamBufferBytes: z.number().int().positive().default(8 * MiB),
        /** The longest XREAD/XREADGROUP BLOCK or WAITAOF waits, in ms (BLOCK 0 waits this long), so a request always ends. */
        maxBlockMs: z.number().int().positive().default(30_000),
        databases: z.record(fileName('database'), kvDatabase)
          .default({ default: kvDatabase.parse({}) }),
      })
      .strict()
      .prefault({}),
    streams: z
      .object({
        /** Stream clusters, each served at /kafka/<name>. */
        clusters: z.record(fileName('cluster'), streamCluster)
          .default({ default: streamCluster.parse({}) }),
        /** How often retention runs over every partition. */
        retentionCheckMs: z.number().int().positive().default(60_000),
      })
      .strict()
      .prefault({}),
    vector: z
      .object({
        /** As kv.fsync, for the vector indexes' logs. */
        fsync: z.enum(['always', 'everysec']).default('everysec'),
        /** An index's log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
        compactAfterBytes: z.number().int().positive().default(64 * MiB),
        indexes: z.record(fileName('index'), vectorIndex).default({ default: vectorIndex.parse({}) }),
        /** Resumable queries an index keeps; one more forgets the one used longest ago (its next piece then answers 404). */
        maxResumableQueries: z.number().int().positive().default(10_000),
        /** Bearer token of the admin endpoints (/vector/_admin/...); generated and kept in the data dir when not given. */
        adminToken: token.optional(),
      })
      .strict()
      .prefault({}),
    queue: queueSettings.prefault({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type KvDatabaseConfig = z.infer<typeof kvDatabase>;
export type KvConfig = Config['kv'];
export type StreamClusterConfig = z.infer<typeof streamCluster>;
export type StreamTopicConfig = z.infer<typeof streamTopic>;
export type VectorIndexConfig = z.infer<typeof vectorIndex>;
export type QueueConfig = z.infer<typeof queueSettings>;
