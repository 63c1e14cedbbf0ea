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
    /** ACL users created at start (and kept in step with this list). */
    users: z.array(aclUser).default([]),
  })
  .strict();

const vectorIndex = z
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
    kv: z
      .object({
        /** always: fsync before answering a write; everysec: fsync once a second. */
        fsync: z.enum(['always', 'everysec']).default('everysec'),
        /** The log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
        compactAfterBytes: z.number().int().positive().default(64 * MiB),
        databases: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'database names use letters, digits, _ and -'), kvDatabase)
          .default({ default: kvDatabase.parse({}) }),
      })
      .strict()
      .prefault({}),
    vector: z
      .object({
        /** As kv.fsync, for the vector indexes' logs. */
        fsync: z.enum(['always', 'everysec']).default('everysec'),
        /** An index's log is compacted into a snapshot once it is this large (and larger than the last snapshot). */
        compactAfterBytes: z.number().int().positive().default(64 * MiB),
        indexes: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'index names use letters, digits, _ and -'), vectorIndex)
          .default({ default: vectorIndex.parse({}) }),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type KvDatabaseConfig = z.infer<typeof kvDatabase>;
export type KvConfig = Config['kv'];
export type VectorIndexConfig = z.infer<typeof vectorIndex>;
