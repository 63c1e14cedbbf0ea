// The Upstash Vector REST surface under /vector/<index>/<endpoint>[/<namespace>]. Any method is
// accepted: the SDKs always POST, the service's docs also show GET and DELETE.
//
// Order of checks, each answered in the error envelope: index (404), token (401), endpoint
// (404), read-only token on a writing endpoint (403), body size (413), JSON (400), then the
// endpoint's own checks. A throw goes on to the server's one boundary (app.ts), which logs a bug
// and answers it 500, and a disk that refused a write 503, in this service's envelope.

import { matchToken, requestToken } from '../../server/credentials.js';
import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { readJsonBody, type BodyErrors, type BodyLimits } from '../../server/json-body.js';
import { pathSegments, percentDecodeText } from '../../server/url.js';
import { bodyTooLarge, NOT_JSON, READ_ONLY_TOKEN, UNAUTHORIZED, unknownEndpoint, unknownIndex, VectorError } from '../errors.js';
import type { Embedder } from '../embedding/embedder.js';
import type { VectorIndex } from '../engine/vector-index.js';
import { ADMIN_SEGMENT, adminRequest, isAdmin, type IndexAdmin } from './admin.js';
import type { Endpoint } from './endpoint.js';
import { fail, ok } from './envelope.js';
import { QUERY_ENDPOINTS, type QueryRequest } from './query.js';
import { READ_ENDPOINTS } from './read.js';
import type { ResumableQueries } from './resumable.js';
import { WRITE_ENDPOINTS } from './write.js';

export interface MountedIndex {
  readonly index: VectorIndex;
  readonly token: string;
  readonly readOnlyToken: string;
  readonly resumable: ResumableQueries<QueryRequest>;
  readonly embedder: Embedder | null;
}

const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map(Object.entries({ ...WRITE_ENDPOINTS, ...READ_ENDPOINTS, ...QUERY_ENDPOINTS }));

export function vectorRoutes(indexes: ReadonlyMap<string, MountedIndex>, admin: IndexAdmin, limits: BodyLimits) {
  const bodyErrors: BodyErrors = { tooLarge: bodyTooLarge(limits.maxBodyBytes), notJson: NOT_JSON };
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const segments = pathSegments(req.path, restAt);
    if (segments[0] === ADMIN_SEGMENT) {
      if (!isAdmin(admin, req)) return fail(UNAUTHORIZED);
      return withBody(req, limits, bodyErrors, (body) => adminRequest(admin, segments[1], body));
    }
    const mounted = segments.length > 0 ? indexes.get(segments[0]) : undefined;
    if (mounted === undefined) return fail(unknownIndex(segments[0] ?? ''));
    const role = matchToken(requestToken(req), [['full', mounted.token], ['readOnly', mounted.readOnlyToken]] as const);
    if (role === null) return fail(UNAUTHORIZED);
    const readOnly = role === 'readOnly';
    const name = segments[1] ?? '';
    const endpoint = ENDPOINTS.get(name);
    if (endpoint === undefined || segments.length > 3) return fail(unknownEndpoint(segments.slice(1).join('/')));
    if (readOnly && endpoint.write) return fail(READ_ONLY_TOKEN);
    const ns = segments.length === 3 ? percentDecodeText(segments[2]) : '';
    return withBody(req, limits, bodyErrors, async (body) => {
      const ctx = { index: mounted.index, ns, body, query: req.query, resumable: mounted.resumable, embedder: mounted.embedder, maxNestingDepth: limits.maxNestingDepth };
      const out = await endpoint.run(ctx);
      return out instanceof VectorError ? fail(out) : ok(out);
    });
  };
}

/** Reads and parses the JSON body (undefined when empty), then answers with `then`. */
async function withBody(req: HttpRequest, limits: BodyLimits, errors: BodyErrors, then: (body: unknown) => HttpResponse | Promise<HttpResponse>): Promise<HttpResponse> {
  const body = await readJsonBody(req, limits, errors);
  return body instanceof VectorError ? fail(body) : then(body);
}
