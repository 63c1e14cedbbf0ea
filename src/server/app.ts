// The runtime-neutral request handler: routes by the first path segment to a mounted
// service, and owns what every service shares: HEAD as GET without a body, request logging,
// CORS, the request figures of /metrics (request-metrics.ts), and the one error boundary
// that turns a thrown bug into a 500 and a disk that refused a write into a 503, each in the
// service's own envelope. The rest of what services share sits beside it in server/:
// credentials.ts (bearer, basic and query credentials, the one constant-time compare),
// json-body.ts (the one body reader: size limit, empty body, nesting limit), url.ts (path and
// query scanning, percent-decoding to UTF-8 text). server/ imports no service and no engine.

import { diskFailureOf } from '../storage/errors.js';
import { errorResponse, jsonResponse, setHeader, type Handler, type HttpRequest, type HttpResponse } from './http.js';
import type { Logger } from './log.js';
import type { RequestMetrics, ServiceRecorder } from './request-metrics.js';
import type { Service } from './service.js';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
};

/** Where requests that match no service are counted. */
const UNMOUNTED = 'none';

interface Mounted {
  readonly service: Service | undefined;
  readonly recorder: ServiceRecorder;
}

export function createApp(services: readonly Service[], log: Logger, metrics: RequestMetrics): Handler {
  const byPrefix = new Map<string, Mounted>(services.map((s) => [s.prefix, { service: s, recorder: metrics.recorder(s.name) }]));
  const unmounted: Mounted = { service: undefined, recorder: metrics.recorder(UNMOUNTED) };
  const debug = log.isLevelEnabled('debug');

  function route(req: HttpRequest, at: Mounted, slash: number): HttpResponse | Promise<HttpResponse> {
    if (req.method === 'OPTIONS') return { status: 204, headers: { ...CORS_HEADERS }, body: null };
    if (at.service === undefined) return notFound(req.path);
    return at.service.handle(req, slash === -1 ? req.path.length : slash);
  }

  function finish(req: HttpRequest, at: Mounted, res: HttpResponse, started: number): HttpResponse {
    if (res.headers['access-control-allow-origin'] === undefined) setHeader(res, 'access-control-allow-origin', '*');
    if (req.method === 'HEAD') withoutBody(res);
    const ms = performance.now() - started;
    at.recorder.record(req.method, res.status, ms / 1000);
    if (debug) log.debug({ method: req.method, path: req.path, status: res.status, ms }, 'request');
    return res;
  }

  /** A thrown bug answers 500; a disk that refused a write, 503 (it heals by itself). */
  function crash(req: HttpRequest, at: Mounted, err: unknown): HttpResponse {
    const disk = diskFailureOf(err);
    // A full disk refuses every write until it has room: one line each, without a stack.
    if (disk === null) log.error({ err, method: req.method, path: req.path }, 'request failed');
    else log.warn({ method: req.method, path: req.path, reason: disk, error: (err as Error).message }, 'write refused: the data directory cannot be written');
    const status = disk === null ? 500 : 503;
    const text = disk === null ? 'internal server error' : `the data directory cannot be written (${disk}); writes resume once it can`;
    return at.service?.fail?.(status, text) ?? jsonResponse(status, JSON.stringify({ error: `ERR ${text}` }));
  }

  return function handle(req: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const started = performance.now();
    const path = req.path;
    const slash = path.indexOf('/', 1);
    const at = byPrefix.get(slash === -1 ? path.slice(1) : path.slice(1, slash)) ?? unmounted;
    let out: HttpResponse | Promise<HttpResponse>;
    try {
      out = route(req, at, slash);
    } catch (err) {
      return finish(req, at, crash(req, at, err), started);
    }
    if (out instanceof Promise) {
      return out.then(
        (res) => finish(req, at, res, started),
        (err) => finish(req, at, crash(req, at, err), started),
      );
    }
    return finish(req, at, out, started);
  };
}

/** HEAD is GET without the body: the headers, content-length included, stay as GET's. */
function withoutBody(res: HttpResponse): void {
  const body = res.body;
  if (typeof body === 'string') setHeader(res, 'content-length', String(Buffer.byteLength(body)));
  else if (body instanceof Uint8Array) setHeader(res, 'content-length', String(body.byteLength));
  res.body = null;
}

function notFound(path: string): HttpResponse {
  return errorResponse(404, `no service at ${path}`);
}
