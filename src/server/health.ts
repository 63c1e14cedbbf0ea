// GET /healthz, open to all: 200 once the server answers at all. Every service is mounted,
// its data loaded, before the server listens, so there is no "starting" state to report.

import { jsonResponse } from './http.js';
import type { Service } from './service.js';

const OK = '{"status":"ok"}';

export function healthService(): Service {
  return {
    name: 'healthz',
    prefix: 'healthz',
    handle(req, restAt) {
      if (restAt !== req.path.length) return jsonResponse(404, JSON.stringify({ error: `no service at ${req.path}`, status: 404 }));
      if (req.method !== 'GET' && req.method !== 'HEAD') return jsonResponse(405, '{"error":"use GET","status":405}', { allow: 'GET, HEAD' });
      return jsonResponse(200, OK, { 'cache-control': 'no-store' });
    },
    async close() {},
  };
}
