// The one place settings are declared: names, types, defaults and limits. Loading (file,
// env, flags) is in load.ts; nothing else reads the environment.

import { z } from 'zod';
import { parseRemoteUrl } from '../kv/redis/remote-url.js';

const MiB = 1024 * 1024;

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
    /** ACL users created at start (and kept in step with this list). */
    users: z.array(aclUser).default([]),
  })
  .strict()
  .superRefine((db, ctx) => {
    if (db.engine === 'redis' && db.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'engine redis needs a url' });
    if (db.engine === 'embedded' && db.url !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is for engine redis' });
  })
  .transform((db) => ({ ...db, engine: db.engine ?? (db.url === undefined ? 'embedded' : 'redis') }));

export const configSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(7700),
    dataDir: z.string().min(1).default('./.larder'),
    /**
     * Processes serving the one port (node:cluster, Node runtime only). More than one needs every
     * key-value database on engine redis: an embedded database lives in one process.
     */
    workers: z.number().int().min(1).max(256).default(1),
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
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type KvDatabaseConfig = z.infer<typeof kvDatabase>;
export type KvConfig = Config['kv'];
