// Every failure the console's server side reports, in the {error, status} envelope.

import { jsonResponse, type HttpResponse } from '../server/http.js';

export function fail(status: number, error: string, headers?: Record<string, string>): HttpResponse {
  return jsonResponse(status, JSON.stringify({ error, status }), headers);
}

export const unauthorized = () =>
  fail(401, 'Unauthorized: send the admin token (LARDER_ADMIN_TOKEN) or the read-only admin token (LARDER_ADMIN_READ_ONLY_TOKEN) as a bearer token', {
    'www-authenticate': 'Bearer',
  });
export const notFound = (path: string) => fail(404, `no console page at ${path}`);
export const unknownCluster = (name: string) => fail(404, `no stream cluster named '${name}'`);
export const badCount = () => fail(400, 'cursor must be an integer >= 0 and count an integer >= 1');
export const onlyGet = () => fail(405, 'use GET', { allow: 'GET, HEAD' });
export const notBuilt = () => fail(503, 'the console is not built: run `npm run build`, which bundles it into dist/console/');
