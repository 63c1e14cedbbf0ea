// The one place settings are declared: names, types, defaults and limits. Loading (file,
// env, flags) is in load.ts; nothing else reads the environment.

import { z } from 'zod';

const MiB = 1024 * 1024;

const token = z.string().min(8, 'tokens must be at least 8 characters');

const aclUser = z
  .object({
    name: z.string().min(1),
    /** ACL SETUSER rules, e.g. "on >secret ~app:* +@read". */
    rules: z.string().default('on'),
  })
  .strict();

const kvDatabase = z
  .object({
    /** Full-access token; generated and kept in the data dir when not given. */
    token: token.optional(),
    /** Read-only token; generated likewise. */
    readOnlyToken: token.optional(),
    /** Largest single command in bytes (arguments summed); no limit when absent. */
    maxRequestSize: z.number().int().positive().optional(),
    /** Commands a UTC day; no limit when absent. */
    dailyRequestLimit: z.number().int().positive().optional(),
    /** How long one script or function (EVAL, FCALL) may run before it is stopped with an error. */
    scriptTimeoutMs: z.number().int().positive().default(5000),
    /** ACL users created at start (and kept in step with this list). */
    users: z.array(aclUser).default([]),
  })
  .strict();

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

/** A leading letter or digit keeps `_admin` free for the admin endpoints. */
export const vectorIndexName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'index names use letters, digits, _ and -, and start with a letter or digit');

export const topicName = z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'topic names use letters, digits, ., _ and - (at most 249)');

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
    topics: z.record(topicName, streamTopic).default({}),
  })
  .strict();

export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(7700),
    dataDir: z.string().min(1).default('./.larder'),
    /** Which HTTP runtime serves: node (node:http) or bun (Bun.serve, when run under Bun). */
    runtime: z.enum(['auto', 'node', 'bun']).default('auto'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Largest request body the server reads, for every service. */
    maxBodyBytes: z.number().int().positive().default(64 * MiB),
    /** Bearer token of /metrics; generated and kept in the data dir when not given. */
    adminToken: token.optional(),
    /** Serve /metrics (behind adminToken). When absent: only while `host` is a loopback address. */
    metrics: z.boolean().optional(),
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
        /** The longest XREAD/XREADGROUP BLOCK waits, in ms (BLOCK 0 waits this long), so a request always ends. */
        maxBlockMs: z.number().int().positive().default(30_000),
        databases: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'database names use letters, digits, _ and -'), kvDatabase)
          .default({ default: kvDatabase.parse({}) }),
      })
      .strict()
      .prefault({}),
    streams: z
      .object({
        /** Stream clusters, each served at /kafka/<name>. */
        clusters: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'cluster names use letters, digits, _ and -'), streamCluster)
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
        indexes: z.record(vectorIndexName, vectorIndex).default({ default: vectorIndex.parse({}) }),
        /** Bearer token of the admin endpoints (/vector/_admin/...); generated and kept in the data dir when not given. */
        adminToken: token.optional(),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type KvDatabaseConfig = z.infer<typeof kvDatabase>;
export type KvConfig = Config['kv'];
export type StreamClusterConfig = z.infer<typeof streamCluster>;
export type StreamTopicConfig = z.infer<typeof streamTopic>;
export type VectorIndexConfig = z.infer<typeof vectorIndex>;
