// GET /healthz, open to all. Every service is mounted, its data loaded, before the server
// listens, so there is no "starting" state to report. The states:
//   200 {"status":"ok"}
//   503 {"status":"read-only","reason":"..."}  a data directory cannot be written (a full disk,
//       a quota, an I/O error): reads are served, writes are refused until it can be again.
// Each check tries the writes a failure held back again and writes a probe file to the data
// directory, so the state is the disk's now, and a freed disk heals without a write to wait for.

import { probeWrite } from '../storage/write-probe.js';
import { errorResponse, jsonResponse, routeMethod, useGet } from './http.js';
import type { Service } from './service.js';

const OK = '{"status":"ok"}';
const NO_STORE = { 'cache-control': 'no-store' };

/** Whether Larder can write its data now; read by /healthz and the larder_storage_writable gauge. */
export class StorageHealth {
  constructor(
    private readonly services: readonly Service[],
    private readonly dataDir: string,
  ) {}

  /** Why writes fail now, one line per failing directory or service; empty when none do. */
  problems(): string[] {
    const out: string[] = [];
    const probe = probeWrite(this.dataDir);
    if (probe !== null) out.push(`${this.dataDir}: ${probe}`);
    for (const s of this.services) {
      const failure = s.writeFailure?.() ?? null;
      if (failure !== null) out.push(failure);
    }
    return out;
  }
}

export function healthService(health: StorageHealth): Service {
  return {
    name: 'healthz',
    prefix: 'healthz',
    handle(req, restAt) {
      if (restAt !== req.path.length) return errorResponse(404, `no service at ${req.path}`);
      if (routeMethod(req.method) !== 'GET') return useGet();
      const problems = health.problems();
      if (problems.length === 0) return jsonResponse(200, OK, NO_STORE);
      return jsonResponse(503, JSON.stringify({ status: 'read-only', reason: `writes are refused: ${problems.join('; ')}` }), NO_STORE);
    },
    async close() {},
  };
}
