// The Upstash Vector REST surface under /vector/<index>/<endpoint>[/<namespace>]. Any method is
// accepted: the SDKs always POST, the service's docs also show GET and DELETE.
//
// Order of checks, each answered in the error envelope: index (404), token (401), endpoint
// (404), read-only token on a writing endpoint (403), body size (413), JSON (400), then the
// endpoint's own checks. A throw goes on to the server's one boundary (app.ts), which logs a bug
// and answers it 500, and a disk that refused a write 503, in this service's envelope.

import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { bearerSecrets, serveEndpoint, type Auth, type Endpoint as HttpEndpoint, type Refusals, type Secrets } from '../../server/endpoint.js';
import type { BodyLimits } from '../../server/json-body.js';
import { pathSegments, percentDecodeText } from '../../server/url.js';
import { bodyTooLarge, NOT_JSON, READ_ONLY_TOKEN, UNAUTHORIZED, unknownEndpoint, unknownIndex, VectorError } from '../errors.js';
import type { Embedder } from '../embedding/embedder.js';
import type { VectorIndex } from '../engine/vector-index.js';
import { ADMIN_SEGMENT, adminRequest, type IndexAdmin } from './admin.js';
import type { Ctx, Endpoint } from './endpoint.js';
import { fail, ok } from './envelope.js';
import { QUERY_ENDPOINTS, type QueryRequest } from './query.js';
import { READ_ENDPOINTS } from './read.js';
import type { ResumableQueries } from './resumable.js';
import { WRITE_ENDPOINTS } from './write.js';

export interface MountedIndex {
  readonly index: VectorIndex;
  /** The index's token and read-only token. */
  readonly secrets: Secrets;
  readonly resumable: ResumableQueries<QueryRequest>;
  readonly embedder: Embedder | null;
}

/** What an index endpoint sees before its body is read. */
type Call = Omit<Ctx, 'body'>;

const BEARER: Auth = { kind: 'bearer' };

/** An endpoint of vector's table as the server admits it: bearer token, any method, a JSON body. */
const admitted = (endpoint: Endpoint): HttpEndpoint<Call> => ({
  auth: BEARER,
  readOnly: !endpoint.write,
  body: 'json',
  run: async (call, body) => {
    const out = await endpoint.run({ ...call, body });
    return out instanceof VectorError ? fail(out) : ok(out);
  },
});

const ENDPOINTS: ReadonlyMap<string, HttpEndpoint<Call>> = new Map(
  Object.entries({ ...WRITE_ENDPOINTS, ...READ_ENDPOINTS, ...QUERY_ENDPOINTS }).map(([name, endpoint]) => [name, admitted(endpoint)]),
);

/** An unknown endpoint answers 404 only to a caller with the index's token (401 before it). */
const unknown = (name: string): HttpEndpoint<Call> => ({ auth: BEARER, readOnly: true, body: 'none', run: () => fail(unknownEndpoint(name)) });

export function vectorRoutes(indexes: ReadonlyMap<string, MountedIndex>, admin: IndexAdmin, limits: BodyLimits) {
  const refuse: Refusals = {
    unauthorized: UNAUTHORIZED,
    readOnly: READ_ONLY_TOKEN,
    // Never asked: vector endpoints take any method (the SDKs POST, the docs also show GET and DELETE).
    methodNotAllowed: (_method, name) => unknownEndpoint(name),
    body: { tooLarge: bodyTooLarge(limits.maxBodyBytes), notJson: NOT_JSON },
    limits,
    fail,
  };
  // The segment after `_admin` names the admin endpoint, chosen once the token and body pass.
  const adminEndpoint: HttpEndpoint<string | undefined> = { auth: BEARER, readOnly: true, body: 'json', run: (name, body) => adminRequest(admin, name, body) };
  const adminSecrets = bearerSecrets(admin.token);
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const segments = pathSegments(req.path, restAt);
    if (segments[0] === ADMIN_SEGMENT) return serveEndpoint(req, segments.join('/'), adminEndpoint, adminSecrets, segments[1], refuse);
    const mounted = segments.length > 0 ? indexes.get(segments[0]) : undefined;
    if (mounted === undefined) return fail(unknownIndex(segments[0] ?? ''));
    const name = segments.slice(1).join('/');
    const endpoint = (segments.length <= 3 ? ENDPOINTS.get(segments[1] ?? '') : undefined) ?? unknown(name);
    const ns = segments.length === 3 ? percentDecodeText(segments[2]) : '';
    const call: Call = { index: mounted.index, ns, query: req.query, resumable: mounted.resumable, embedder: mounted.embedder, maxNestingDepth: limits.maxNestingDepth };
    return serveEndpoint(req, name, endpoint, mounted.secrets, call, refuse);
  };
}
