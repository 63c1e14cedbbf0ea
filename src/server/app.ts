// The runtime-neutral request handler: routes by the first path segment to a mounted
// service, and owns what every service shares: HEAD as GET without a body, request logging,
// CORS, and the one error boundary that turns a thrown bug into a 500.

import type { Handler, HttpRequest, HttpResponse } from './http.js';
import type { Logger } from './log.js';
import type { Service } from './service.js';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
};

export function createApp(services: readonly Service[], log: Logger): Handler {
  const byPrefix = new Map(services.map((s) => [s.prefix, s]));
  const debug = log.isLevelEnabled('debug');

  function route(req: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const path = req.path;
    const slash = path.indexOf('/', 1);
    const prefix = slash === -1 ? path.slice(1) : path.slice(1, slash);
    const service = byPrefix.get(prefix);
    if (req.method === 'OPTIONS') return { status: 204, headers: { ...CORS_HEADERS }, body: null };
    if (service === undefined) return notFound(path);
    return service.handle(req, slash === -1 ? path.length : slash);
  }

  function finish(req: HttpRequest, res: HttpResponse, started: number): HttpResponse {
    res.headers['access-control-allow-origin'] ??= '*';
    if (req.method === 'HEAD') withoutBody(res);
    if (debug) log.debug({ method: req.method, path: req.path, status: res.status, ms: Date.now() - started }, 'request');
    return res;
  }

  function crash(req: HttpRequest, err: unknown): HttpResponse {
    log.error({ err, method: req.method, path: req.path }, 'request failed');
    return { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"ERR internal server error"}' };
  }

  return function handle(req: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const started = debug ? Date.now() : 0;
    let out: HttpResponse | Promise<HttpResponse>;
    try {
      out = route(req);
    } catch (err) {
      return finish(req, crash(req, err), started);
    }
    if (out instanceof Promise) {
      return out.then(
        (res) => finish(req, res, started),
        (err) => finish(req, crash(req, err), started),
      );
    }
    return finish(req, out, started);
  };
}

/** HEAD is GET without the body: the headers, content-length included, stay as GET's. */
function withoutBody(res: HttpResponse): void {
  const body = res.body;
  if (typeof body === 'string') res.headers['content-length'] = String(Buffer.byteLength(body));
  else if (body instanceof Uint8Array) res.headers['content-length'] = String(body.byteLength);
  res.body = null;
}

function notFound(path: string): HttpResponse {
  return {
    status: 404,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: `no service at ${path}`, status: 404 }),
  };
}
