// The web console at /console: a static page (bundled by build.ts) plus read-only admin
// endpoints, all behind the admin tokens. The page does every write through the services' own
// REST APIs with the tokens /console/api/info hands it, so a read-only console holds only
// read-only tokens and the services themselves refuse its writes. It imports a service only
// through its index.ts, and reads engines only through the admin views those export.

import type { PendingMessage } from '../queue/index.js';
import { jsonResponse, type HttpRequest, type HttpResponse } from '../server/http.js';
import type { RequestMetrics } from '../server/request-metrics.js';
import type { Service } from '../server/service.js';
import { percentDecode, queryParam } from '../server/url.js';
import type { ClusterAdminView } from '../streams/index.js';
import { adminRole, type AdminTokens, type Role } from './admin-auth.js';
import { badCount, notBuilt, notFound, onlyGet, unauthorized, unknownCluster } from './errors.js';
import { PENDING_PAGE, pendingView } from './pending-view.js';
import { loadBundle, type Bundle } from './static-files.js';
import { streamView } from './stream-view.js';
import type { ConsoleInfo, ConsoleMetrics } from './wire.js';

/** The credentials of every mounted service, as larder.ts holds them. */
export interface ServiceDirectory {
  readonly kv: readonly { db: string; token: string; readOnlyToken: string }[];
  readonly streams: readonly { cluster: string; username: string; password: string }[];
  readonly vector: readonly { index: string; token: string; readOnlyToken: string }[];
  readonly queue: { token: string; readOnlyToken: string } | null;
}

/**
 * What the admin views read where the services' REST APIs say too little: each through the
 * admin view its service's index.ts exports, which carries no credentials.
 */
export interface AdminViews {
  readonly cluster: (name: string) => ClusterAdminView | undefined;
  /** null when the queue is not served. */
  readonly pending: (() => Iterable<PendingMessage>) | null;
}

export interface ConsoleOptions {
  readonly tokens: AdminTokens;
  readonly services: ServiceDirectory;
  readonly metrics: RequestMetrics;
  readonly views: AdminViews;
  /** Where the bundle is read from; dist/console/ when absent. */
  readonly bundle?: Bundle | null;
}

/** Paths of the page; the app routes by the URL hash, so these are all there is. */
const PAGE_FILES: Readonly<Record<string, string>> = { '': 'index.html', '/': 'index.html', '/app.js': 'app.js', '/app.css': 'app.css' };

export function consoleService(opts: ConsoleOptions): Service {
  const bundle = opts.bundle === undefined ? loadBundle() : opts.bundle;
  // By the path's first two segments after /console; the rest of the path goes to the endpoint.
  const api: Readonly<Record<string, (role: Role, req: HttpRequest, rest: string) => HttpResponse>> = {
    '/api/info': (role) => answer(infoFor(role, opts.services)),
    '/api/metrics': () => answer(metricsOf(opts.metrics)),
    '/api/streams': (_role, _req, rest) => {
      const name = percentDecode(rest.slice(1));
      const cluster = opts.views.cluster(name);
      return cluster === undefined ? unknownCluster(name) : answer(streamView(cluster));
    },
    '/api/queue': (_role, req, rest) => {
      if (rest !== '/messages' || opts.views.pending === null) return notFound(req.path);
      const cursor = Number(queryParam(req.query, 'cursor') ?? 0);
      const count = Number(queryParam(req.query, 'count') ?? PENDING_PAGE);
      if (!Number.isSafeInteger(cursor) || cursor < 0 || !Number.isSafeInteger(count) || count < 1) return badCount();
      return answer(pendingView(opts.views.pending(), cursor, count));
    },
  };
  return {
    name: 'console',
    prefix: 'console',
    handle(req: HttpRequest, restAt: number): HttpResponse {
      if (req.method !== 'GET' && req.method !== 'HEAD') return onlyGet();
      const rest = req.path.slice(restAt);
      const split = rest.indexOf('/', rest.indexOf('/', 1) + 1);
      const head = split === -1 ? rest : rest.slice(0, split);
      const endpoint = api[head];
      if (endpoint !== undefined) {
        const role = adminRole(req, opts.tokens);
        return role === null ? unauthorized() : endpoint(role, req, split === -1 ? '' : rest.slice(split));
      }
      const name = PAGE_FILES[rest];
      if (name === undefined) return notFound(req.path);
      if (bundle === null) return notBuilt();
      return bundle.file(name) ?? notFound(req.path);
    },
    async close() {},
  };
}

const answer = (body: unknown) => jsonResponse(200, JSON.stringify(body), { 'cache-control': 'no-store' });

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
