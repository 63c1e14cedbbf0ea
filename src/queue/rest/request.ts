// What every queue endpoint reads from a request: the engine, the path after /v2/<group>, the
// query and the body. The only query and body parsing of the queue service.

import type { HttpRequest } from '../../server/http.js';
import { readBody, readJsonBody } from '../../server/json-body.js';
import { pathSegments, percentDecodeText, queryPairs, utf8Text } from '../../server/url.js';
import type { DestinationPolicy } from '../delivery/destination-policy.js';
import type { QueueEngine } from '../engine.js';
import type { Schedules } from '../schedules/schedules.js';
import type { UrlGroups } from '../url-groups.js';
import type { Workflows } from '../workflow/workflows.js';
import { BODY_TOO_LARGE, NOT_JSON, type QueueError } from '../errors.js';
import type { CredentialHeaders } from '../store/redaction.js';
import type { HeaderSource } from '../options/publish-options.js';

export interface QueueContext {
  readonly engine: QueueEngine;
  readonly urlGroups: UrlGroups;
  readonly schedules: Schedules;
  readonly maxBodyBytes: number;
  readonly maxNestingDepth: number;
  readonly maxMessageBytes: number;
  /** queue.maxForwardedHeaders. */
  readonly maxForwardedHeaders: number;
  /** Headers shown as "[redacted]" (store/redaction.ts). */
  readonly credentials: CredentialHeaders;
  readonly defaultRetries: number;
  readonly maxRetries: number;
  /** queue.maxDelayMs: the longest delay, not-before distance and flow-control period. */
  readonly maxDelayMs: number;
  readonly now: () => number;
  readonly destinations: DestinationPolicy;
  /** Workflow runs (issue 10). */
  readonly workflows: Workflows;
}

export interface Call {
  readonly req: HttpRequest;
  readonly ctx: QueueContext;
  /** The raw (still percent-encoded) path after /v2/<group>/, '' when none. */
  readonly rest: string;
}

/** Every value of a query parameter, decoded as UTF-8. */
export function queryAll(call: Call, name: string): string[] {
  return queryPairs(call.req.query)
    .filter(([k]) => k === name)
    .map(([, v]) => utf8Text(v ?? ''));
}

export const query = (call: Call, name: string): string | undefined => queryAll(call, name)[0];

const BODY_ERRORS = { tooLarge: BODY_TOO_LARGE, notJson: NOT_JSON };

export const bodyBytes = (call: Call): Promise<Buffer | QueueError> => readBody(call.req, call.ctx.maxBodyBytes, BODY_TOO_LARGE);

/** The parsed JSON body; undefined when there is none. */
export const jsonBody = (call: Call): Promise<unknown | QueueError> => readJsonBody(call.req, call.ctx, BODY_ERRORS);

export function requestHeaders(req: HttpRequest): HeaderSource {
  return { get: (n) => req.header(n), names: () => req.headerNames() };
}

/** A plain object's string values by lower-case name (a batch entry's headers). */
export function objectHeaders(h: Record<string, unknown>): HeaderSource {
  const map = new Map<string, string>();
  for (const [k, v] of Object.entries(h)) if (typeof v === 'string') map.set(k.toLowerCase(), v);
  return { get: (n) => map.get(n), names: () => [...map.keys()] };
}

/** Whether a query parameter is a publish setting (`?upstash-retries=3`) rather than the destination's own. */
export const isSettingParam = (name: string) => name.startsWith('upstash-') || name.startsWith('service-');

/**
 * Settings given as lower-case query parameters, seen as headers of the same name; a header
 * sent too wins. A repeated parameter is joined with ', ', as a repeated header is.
 */
export function withQuerySettings(h: HeaderSource, query: string): HeaderSource {
  const q = new Map<string, string>();
  for (const [k, v] of queryPairs(query)) {
    if (!isSettingParam(k)) continue;
    const value = utf8Text(v ?? '');
    q.set(k, q.has(k) ? `${q.get(k)}, ${value}` : value);
  }
  if (q.size === 0) return h;
  return { get: (n) => h.get(n) ?? q.get(n), names: () => [...new Set([...h.names(), ...q.keys()])] };
}

/** The publisher's address: as a proxy in front reports it, else the connection's (IPv4 unmapped). */
export function callerIp(req: HttpRequest): string {
  return req.header('x-forwarded-for')?.split(',')[0].trim() ?? req.header('x-real-ip') ?? req.remoteAddress().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

/** The first path segment after /v2/<group>/ (a message or dead letter id), decoded; '' when none. */
export const firstPathName = (call: Call) => percentDecodeText(call.rest.split('/')[0] ?? '');

/** The path segments after /v2/<group>/, each decoded as UTF-8. */
export function pathNames(call: Call): string[] {
  return pathSegments(call.rest).map((s) => percentDecodeText(s));
}
