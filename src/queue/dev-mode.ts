// QStash dev mode (queue.dev, `larder start --qstash-dev`). With QSTASH_DEV=true, @upstash/qstash
// ignores QSTASH_URL, QSTASH_TOKEN and the signing keys and uses its published dev credentials
// against http://127.0.0.1:<QSTASH_DEV_PORT or 8080>, with no path prefix. Before it starts (or
// downloads) its own dev server, it probes GET /v2/keys with the dev token and takes any server
// that answers the dev keys as its own. So in dev mode the queue uses these credentials, keeps
// its keys fixed, and also answers at the root of the port.

import type { Service } from '../server/service.js';

/** The SDK's DEV_CREDENTIALS (src/dev-server/constants.ts of @upstash/qstash). */
export const DEV_CREDENTIALS = {
  token: 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=',
  currentSigningKey: 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r',
  nextSigningKey: 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs',
} as const;

/** The queue again under `/v2`, as the SDK's dev mode calls it; it owns nothing, so closing it is a no-op. */
export function rootAlias(queue: Service): Service {
  return {
    name: queue.name,
    prefix: 'v2',
    handle: (req) => queue.handle(req, 0),
    ...(queue.fail !== undefined && { fail: queue.fail }),
    async close() {},
  };
}
