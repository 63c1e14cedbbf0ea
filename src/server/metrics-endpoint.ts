// GET /metrics: the Prometheus text format, behind the admin token (Authorization: Bearer).

import { requestToken, sameSecret } from './credentials.js';
import { jsonResponse, type HttpRequest } from './http.js';
import type { RequestMetrics } from './request-metrics.js';
import type { Service } from './service.js';

const UNAUTHORIZED = '{"error":"Unauthorized: send the admin token (LARDER_ADMIN_TOKEN) as a bearer token","status":401}';

export function metricsService(metrics: RequestMetrics, adminToken: string): Service {
  const authorized = (req: HttpRequest) => sameSecret(requestToken(req), adminToken);
  return {
    name: 'metrics',
    prefix: 'metrics',
    async handle(req, restAt) {
      if (restAt !== req.path.length) return jsonResponse(404, JSON.stringify({ error: `no service at ${req.path}`, status: 404 }));
      if (!authorized(req)) return jsonResponse(401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
      if (req.method !== 'GET' && req.method !== 'HEAD') return jsonResponse(405, '{"error":"use GET","status":405}', { allow: 'GET, HEAD' });
      return { status: 200, headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' }, body: await metrics.exposition() };
    },
    async close() {},
  };
}
