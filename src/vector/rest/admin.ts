// The admin endpoints under /vector/_admin, behind the service's admin token:
//   POST /vector/_admin/create-index  {name, type?, dimension?, similarity?, embedding?, ...}
//        -> {name, token, readOnlyToken}; the index is served at once and kept across restarts
//   GET  /vector/_admin/list-indexes  -> index names
// `larder vector-index create` (cli/vector-index.ts) calls the first.

import type { HttpResponse } from '../../server/http.js';
import { vectorIndex, type VectorIndexConfig } from '../../config/schema.js';
import { badName } from '../../storage/names.js';
import { badRequest, unknownEndpoint, VectorError } from '../errors.js';
import { fail, ok } from './envelope.js';
import { isObject } from './request-body.js';

export const ADMIN_SEGMENT = '_admin';

export interface IndexAdmin {
  readonly token: string;
  names(): string[];
  create(name: string, settings: VectorIndexConfig): { token: string; readOnlyToken: string } | VectorError;
}

export function adminRequest(admin: IndexAdmin, endpoint: string | undefined, body: unknown): HttpResponse {
  if (endpoint === 'list-indexes') return ok(admin.names());
  if (endpoint !== 'create-index') return fail(unknownEndpoint(`${ADMIN_SEGMENT}/${endpoint ?? ''}`));
  if (!isObject(body)) return fail(badRequest('the body must be an object with the index name and settings'));
  const { name, ...rest } = body;
  const bad = badName('index', name);
  if (bad !== null) return fail(badRequest(bad));
  const settings = vectorIndex.safeParse(rest);
  if (!settings.success) {
    const issue = settings.error.issues[0];
    return fail(badRequest(`invalid index settings: ${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const created = admin.create(name as string, settings.data);
  return created instanceof VectorError ? fail(created) : ok({ name, token: created.token, readOnlyToken: created.readOnlyToken });
}
