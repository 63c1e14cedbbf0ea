// URL groups at /v2/topics, as the SDK's client.urlGroups calls them: add and remove
// endpoints (POST / DELETE /v2/topics/{name}/endpoints with {endpoints: [{url, name?}]}),
// list, get and delete.

import type { HttpResponse } from '../../server/http.js';
import { percentDecodeText } from '../../server/url.js';
import { invalidDestination, invalidEndpoints, isError, notFound } from '../errors.js';
import type { Endpoint, UrlGroup } from '../store/url-group.js';
import { done, fail, ok } from './envelope.js';
import { isHttpUrl } from '../options/publish-options.js';
import { jsonBody, type Call } from './request.js';

/** `{name}` or `{name}/endpoints`, the name decoded; null for any other path. */
function target(call: Call): { name: string; endpoints: boolean } | null {
  const parts = call.rest.split('/');
  if (parts[0] === '' || parts.length > 2 || (parts.length === 2 && parts[1] !== 'endpoints')) return null;
  return { name: percentDecodeText(parts[0]), endpoints: parts.length === 2 };
}

// GET /v2/topics
export function listUrlGroups(call: Call): HttpResponse {
  return ok(call.ctx.urlGroups.list().map(urlGroupJson));
}

// GET /v2/topics/{name}
export function getUrlGroup(call: Call): HttpResponse {
  const t = target(call);
  if (t === null || t.endpoints) return fail(notFound(call.req.path));
  const g = call.ctx.urlGroups.get(t.name);
  return isError(g) ? fail(g) : ok(urlGroupJson(g));
}

// POST /v2/topics/{name}/endpoints {endpoints: [{url, name?}]}
export async function addEndpoints(call: Call): Promise<HttpResponse> {
  const t = target(call);
  if (t === null || !t.endpoints) return fail(notFound(call.req.path));
  const list = await endpointsOf(call);
  if (isError(list)) return fail(list);
  for (const e of list) {
    if (e.url === undefined) return fail(invalidEndpoints('each endpoint needs a url'));
    if (!isHttpUrl(e.url)) return fail(invalidDestination(e.url));
  }
  const err = call.ctx.urlGroups.addEndpoints(t.name, list as Endpoint[]);
  return err === null ? done() : fail(err);
}

// DELETE /v2/topics/{name}/endpoints {endpoints: [{url?, name?}]} | DELETE /v2/topics/{name}
export async function deleteUrlGroupOrEndpoints(call: Call): Promise<HttpResponse> {
  const t = target(call);
  if (t === null) return fail(notFound(call.req.path));
  if (!t.endpoints) {
    const err = call.ctx.urlGroups.delete(t.name);
    return err === null ? done() : fail(err);
  }
  const list = await endpointsOf(call);
  if (isError(list)) return fail(list);
  if (list.some((e) => e.url === undefined && e.name === undefined)) return fail(invalidEndpoints('each endpoint needs a url or a name'));
  const err = call.ctx.urlGroups.removeEndpoints(t.name, list);
  return err === null ? done() : fail(err);
}

/** The body's `endpoints`: a non-empty array of {url?, name?} with string values. */
async function endpointsOf(call: Call): Promise<Partial<Endpoint>[] | ReturnType<typeof invalidEndpoints>> {
  const body = await jsonBody(call);
  if (isError(body)) return body;
  const list = (body as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(list) || list.length === 0) return invalidEndpoints('the body needs {"endpoints": [{"url": ..., "name": ...}]}');
  const out: Partial<Endpoint>[] = [];
  for (const e of list) {
    if (typeof e !== 'object' || e === null) return invalidEndpoints('each endpoint is an object');
    const { url, name } = e as Record<string, unknown>;
    if ((url !== undefined && typeof url !== 'string') || (name !== undefined && typeof name !== 'string')) return invalidEndpoints('url and name are strings');
    const one: Partial<Endpoint> = {};
    if (url !== undefined && url !== '') one.url = url as string;
    if (name !== undefined && name !== '') one.name = name as string;
    out.push(one);
  }
  return out;
}

function urlGroupJson(g: UrlGroup): Record<string, unknown> {
  return { name: g.name, createdAt: g.createdAt, updatedAt: g.updatedAt, endpoints: g.endpoints.map((e) => ({ ...e })) };
}
