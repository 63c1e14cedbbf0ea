// An endpoint declared as data: the credential it takes, the methods it answers, whether a
// read-only token may call it and the body it reads. serveEndpoint() is the one admission
// of the stream, vector and queue services (the key-value hot path keeps its own), always in
// this order: credential (401), method (405, HEAD as GET), read-only token on a writing
// endpoint (403), body (413, 400), then the handler. No body byte is read before the
// credential passes.

import { isServiceError, type ServiceError } from '../errors/service-error.js';
import { matchToken, requestCredentials, requestToken, sameSecret, type BasicCredentials } from './credentials.js';
import { routeMethod, type HttpRequest, type HttpResponse } from './http.js';
import { readBody, readJsonBody, type BodyErrors, type BodyLimits } from './json-body.js';

/** How a caller proves who it is: a bearer token, else `?<query>=<token>`; or Basic, else `?<user>=&<password>=`. */
export type Auth =
  | { readonly kind: 'bearer'; readonly query?: string }
  | { readonly kind: 'basic'; readonly query?: readonly [user: string, password: string] };

type Role = 'full' | 'readOnly';

/** What a request is checked against: tokens with their roles, or one user and password (full rights). */
export type Secrets = { readonly kind: 'bearer'; readonly tokens: readonly (readonly [Role, string])[] } | ({ readonly kind: 'basic' } & BasicCredentials);

/** The secrets of a resource served by bearer token: a full token, and maybe a read-only one. */
export const bearerSecrets = (full: string, readOnly?: string): Secrets => ({
  kind: 'bearer',
  tokens: readOnly === undefined ? [['full', full]] : [['full', full], ['readOnly', readOnly]],
});

type Answer = HttpResponse | Promise<HttpResponse>;

/**
 * What the handler is given besides the call, by body kind. 'none': no body is read here (a
 * handler whose body depends on its path or query reads it itself, after those checks);
 * 'bytes': the raw body; 'json': the body parsed, undefined when empty or blank.
 */
export type Handler<Call> =
  | { readonly body: 'none'; run(call: Call): Answer }
  | { readonly body: 'bytes'; run(call: Call, body: Buffer): Answer }
  | { readonly body: 'json'; run(call: Call, body: unknown): Answer };

export type Endpoint<Call> = Handler<Call> & {
  readonly auth: Auth;
  /** The methods answered (HEAD as GET); any method when absent. */
  readonly methods?: readonly string[];
  /** Whether a read-only token may call it. */
  readonly readOnly: boolean;
  /** The refusal of a read-only token when this endpoint has its own text (the queue's signing keys). */
  readonly readOnlyRefusal?: ServiceError;
};

/** A service's answers to a refused request, in its own texts and envelope. */
export interface Refusals {
  readonly unauthorized: ServiceError;
  readonly readOnly: ServiceError;
  /** 405; `name` is how the service names the endpoint in the text. */
  methodNotAllowed(method: string, name: string): ServiceError;
  readonly body: BodyErrors;
  readonly limits: BodyLimits;
  fail(e: ServiceError): HttpResponse;
}

/** Admits the request to `endpoint` against `secrets`, reads its body, and runs it on `call`. */
export function serveEndpoint<Call>(req: HttpRequest, name: string, endpoint: Endpoint<Call>, secrets: Secrets, call: Call, refuse: Refusals): HttpResponse | Promise<HttpResponse> {
  const role = authenticate(req, endpoint.auth, secrets);
  if (role === null) return refuse.fail(refuse.unauthorized);
  if (endpoint.methods !== undefined && !endpoint.methods.includes(routeMethod(req.method))) return refuse.fail(refuse.methodNotAllowed(req.method, name));
  if (role === 'readOnly' && !endpoint.readOnly) return refuse.fail(endpoint.readOnlyRefusal ?? refuse.readOnly);
  return endpoint.body === 'none' ? endpoint.run(call) : withBody(req, endpoint, call, refuse);
}

async function withBody<Call>(req: HttpRequest, handler: Exclude<Handler<Call>, { body: 'none' }>, call: Call, refuse: Refusals): Promise<HttpResponse> {
  if (handler.body === 'bytes') {
    const bytes = await readBody(req, refuse.limits.maxBodyBytes, refuse.body.tooLarge);
    return isServiceError(bytes) ? refuse.fail(bytes) : handler.run(call, bytes);
  }
  const value = await readJsonBody(req, refuse.limits, refuse.body);
  // JSON.parse builds no class instances, so a ServiceError here is a refusal, never a body.
  return isServiceError(value) ? refuse.fail(value) : handler.run(call, value);
}

/** The caller's role, or null when the credential is missing or wrong. */
function authenticate(req: HttpRequest, auth: Auth, secrets: Secrets): Role | null {
  if (auth.kind === 'bearer') return secrets.kind === 'bearer' ? matchToken(requestToken(req, auth.query), secrets.tokens) : null;
  if (secrets.kind !== 'basic') return null;
  const sent = requestCredentials(req, auth.query);
  // Both compared whatever the first gives, so the time says nothing about the user name.
  const user = sameSecret(sent?.username, secrets.username);
  const pass = sameSecret(sent?.password, secrets.password);
  return user && pass ? 'full' : null;
}
