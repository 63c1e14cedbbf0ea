// Credentials as every service receives them: a bearer token (Authorization: Bearer <token>),
// a user and password (Authorization: Basic base64(user:password)), or a token in the query
// string (?_token=, ?qstash_token=, ?user=&pass=). This is the one place that parses them and
// the one place that compares a secret, always in constant time, so a caller cannot learn a
// token byte by byte from how long a refusal takes. (The key-value service looks a token up in
// a hash map of its grants instead: its callers are many and its tokens are random.)

import { timingSafeEqual } from 'node:crypto';
import type { HttpRequest } from './http.js';
import { queryText } from './url.js';

// The scheme in any case, its space, and at least one more character. Regular expressions, not
// loops over charCodeAt: V8 looks a string method up per call on headers of mixed representation.
const BEARER = /^bearer [^]/i;
const BASIC = /^basic [^]/i;
const BEARER_LENGTH = 'bearer '.length;
const BASIC_LENGTH = 'basic '.length;

export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** The token of an `Authorization: Bearer <token>` header (any case), or undefined. Slices once
 *  and trims only when the token has surrounding blanks: the key-value hot path calls this. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || !BEARER.test(header)) return undefined;
  const token = header.slice(BEARER_LENGTH);
  return token.charCodeAt(0) <= 0x20 || token.charCodeAt(token.length - 1) <= 0x20 ? token.trim() : token;
}

/**
 * The user and password of an `Authorization: Basic <base64(user:password)>` header, or
 * undefined. The base64 is strict (RFC 4648: its alphabet, padded, zero pad bits), where
 * Buffer.from skips what it cannot read: it must encode back to itself.
 */
export function basicCredentials(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || !BASIC.test(header)) return undefined;
  const encoded = header.slice(BASIC_LENGTH).trim();
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) return undefined;
  const decoded = bytes.toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The bearer token, else the query parameter `queryName` when the endpoint accepts one. */
export function requestToken(req: HttpRequest, queryName?: string): string | undefined {
  return bearerToken(req.header('authorization')) ?? (queryName === undefined ? undefined : queryText(req.query, queryName));
}

/** The Basic credentials, else the query parameters named `inQuery` (user, password) when the endpoint accepts them. */
export function requestCredentials(req: HttpRequest, inQuery?: readonly [user: string, password: string]): BasicCredentials | undefined {
  const basic = basicCredentials(req.header('authorization'));
  if (basic !== undefined || inQuery === undefined) return basic;
  const username = queryText(req.query, inQuery[0]);
  const password = queryText(req.query, inQuery[1]);
  return username === undefined || password === undefined ? undefined : { username, password };
}

/** Whether `given` equals the secret `expected`, in time that does not depend on where they differ. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Which of `secrets` the request's `token` is (each compared in constant time), or null. */
export function matchToken<R extends string>(token: string | undefined, secrets: readonly (readonly [R, string])[]): R | null {
  for (const [role, secret] of secrets) if (sameSecret(token, secret)) return role;
  return null;
}
