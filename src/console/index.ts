// The web console at /console: a static page (bundled by build.ts) plus two admin endpoints,
// both behind the admin tokens. The page does everything else through the services' own REST
// APIs with the tokens /console/api/info hands it, so a read-only console holds only
// read-only tokens and the services themselves refuse its writes.

import { jsonResponse, type HttpRequest, type HttpResponse } from '../server/http.js';
import type { RequestMetrics } from '../server/request-metrics.js';
import type { Service } from '../server/service.js';
import { adminRole, type AdminTokens, type Role } from './admin-auth.js';
import { notBuilt, notFound, onlyGet, unauthorized } from './errors.js';
import { loadBundle, type Bundle } from './static-files.js';
import type { ConsoleInfo, ConsoleMetrics } from './wire.js';

/** The credentials of every mounted service, as larder.ts holds them. */
export interface ServiceDirectory {
  readonly kv: readonly { db: string; token: string; readOnlyToken: string }[];
  readonly streams: readonly { cluster: string; username: string; password: string }[];
  readonly vector: readonly { index: string; token: string; readOnlyToken: string }[];
  readonly queue: { token: string; readOnlyToken: string } | null;
}

export interface ConsoleOptions {
  readonly tokens: AdminTokens;
  readonly services: ServiceDirectory;
  readonly metrics: RequestMetrics;
  /** Where the bundle is read from; dist/console/ when absent. */
  readonly bundle?: Bundle | null;
}

/** Paths of the page; the app routes by the URL hash, so these are all there is. */
const PAGE_FILES: Readonly<Record<string, string>> = { '': 'index.html', '/': 'index.html', '/app.js': 'app.js', '/app.css': 'app.css' };

export function consoleService(opts: ConsoleOptions): Service {
  const bundle = opts.bundle === undefined ? loadBundle() : opts.bundle;
  const api: Readonly<Record<string, (role: Role) => HttpResponse>> = {
    '/api/info': (role) => jsonResponse(200, JSON.stringify(infoFor(role, opts.services)), { 'cache-control': 'no-store' }),
    '/api/metrics': () => jsonResponse(200, JSON.stringify(metricsOf(opts.metrics)), { 'cache-control': 'no-store' }),
  };
  return {
    name: 'console',
    prefix: 'console',
    handle(req: HttpRequest, restAt: number): HttpResponse {
      if (req.method !== 'GET' && req.method !== 'HEAD') return onlyGet();
      const rest = req.path.slice(restAt);
      const endpoint = api[rest];
      if (endpoint !== undefined) {
        const role = adminRole(req, opts.tokens);
        return role === null ? unauthorized() : endpoint(role);
      }
      const name = PAGE_FILES[rest];
      if (name === undefined) return notFound(req.path);
      if (bundle === null) return notBuilt();
      return bundle.file(name) ?? notFound(req.path);
    },
    async close() {},
  };
}

function infoFor(role: Role, s: ServiceDirectory): ConsoleInfo {
  const readOnly = role === 'readOnly';
  return {
    readOnly,
    kv: s.kv.map((k) => ({ db: k.db, url: `/redis/${k.db}`, token: readOnly ? k.readOnlyToken : k.token })),
    streams: s.streams.map((c) => ({
      cluster: c.cluster,
      url: `/kafka/${c.cluster}`,
      username: readOnly ? null : c.username,
      password: readOnly ? null : c.password,
    })),
    vector: s.vector.map((v) => ({ index: v.index, url: `/vector/${v.index}`, token: readOnly ? v.readOnlyToken : v.token })),
    queue: s.queue === null ? null : { url: '/qstash', token: readOnly ? s.queue.readOnlyToken : s.queue.token },
  };
}

function metricsOf(metrics: RequestMetrics): ConsoleMetrics {
  return { at: Date.now(), services: metrics.figures() };
}
