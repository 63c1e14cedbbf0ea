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

export type Role = 'full' | 'readOnly';

/** What a request is checked against: tokens with their roles, or one user and password (full rights). */
export type Secrets = { readonly kind: 'bearer'; readonly tokens: readonly (readonly [Role, string])[] } | ({ readonly kind: 'basic' } & BasicCredentials);

/** The secrets of a resource served by bearer token: a full token, and maybe a read-only one. */
export const bearerSecrets = (full: string, readOnly?: string): Secrets => ({
  kind: 'bearer',
  tokens: readOnly === undefined ? [['full', full]] : [['full', full], ['readOnly', readOnly]],
});

/** 'none': the router reads no body (a handler whose body depends on its path reads it itself); 'bytes': the raw body (a Buffer); 'json': parsed, undefined when empty. */
export type BodyKind = 'none' | 'bytes' | 'json';

export interface Endpoint<Call> {
  readonly auth: Auth;
  /** The methods answered (HEAD as GET); any method when absent. */
  readonly methods?: readonly string[];
  /** Whether a read-only token may call it. */
  readonly readOnly: boolean;
  /** The refusal of a read-only token when this endpoint has its own text (the queue's signing keys). */
  readonly readOnlyRefusal?: ServiceError;
  readonly body: BodyKind;
  /** `body` as `body` (the kind) says: undefined, a Buffer, or the parsed JSON. */
  run(call: Call, body: unknown): HttpResponse | Promise<HttpResponse>;
}

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
  if (endpoint.body === 'none') return endpoint.run(call, undefined);
  return withBody(req, endpoint, call, refuse);
}

async function withBody<Call>(req: HttpRequest, endpoint: Endpoint<Call>, call: Call, refuse: Refusals): Promise<HttpResponse> {
  const body = endpoint.body === 'bytes' ? await readBody(req, refuse.limits.maxBodyBytes, refuse.body.tooLarge) : await readJsonBody(req, refuse.limits, refuse.body);
  // JSON.parse builds no class instances, so a ServiceError here is a refusal, never a body.
  return isServiceError(body) ? refuse.fail(body) : endpoint.run(call, body);
}

/** The caller's role, or null when the credential is missing or wrong. */
export function authenticate(req: HttpRequest, auth: Auth, secrets: Secrets): Role | null {
  if (auth.kind === 'bearer') return secrets.kind === 'bearer' ? matchToken(requestToken(req, auth.query), secrets.tokens) : null;
  if (secrets.kind !== 'basic') return null;
  const sent = requestCredentials(req, auth.query);
  // Both compared whatever the first gives, so the time says nothing about the user name.
  const user = sameSecret(sent?.username, secrets.username);
  const pass = sameSecret(sent?.password, secrets.password);
  return user && pass ? 'full' : null;
}
