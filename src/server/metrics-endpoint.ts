// GET /metrics: the Prometheus text format, behind the admin token (Authorization: Bearer).

import { requestToken, sameSecret } from './credentials.js';
import { errorResponse, jsonResponse, routeMethod, useGet, type HttpRequest } from './http.js';
import type { RequestMetrics } from './request-metrics.js';
import type { Service } from './service.js';

const UNAUTHORIZED = '{"error":"Unauthorized: send the admin token (LARDER_ADMIN_TOKEN) as a bearer token","status":401}';

export function metricsService(metrics: RequestMetrics, adminToken: string): Service {
  const authorized = (req: HttpRequest) => sameSecret(requestToken(req), adminToken);
  return {
    name: 'metrics',
    prefix: 'metrics',
    async handle(req, restAt) {
      if (restAt !== req.path.length) return errorResponse(404, `no service at ${req.path}`);
      if (!authorized(req)) return jsonResponse(401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
      if (routeMethod(req.method) !== 'GET') return useGet();
      const { contentType, text } = await metrics.exposition();
      return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body: text };
    },
    async close() {},
  };
}
