// The Upstash Redis REST surface under /redis/<db>: auth, the command forms, pipeline and
// multi-exec, encodings and response formats. It runs commands through KvBackend only.
//
// Hot path: a path-form GET is answered synchronously, with no body read, no JSON parse and no
// closure; everything per-database is looked up in one Map.

import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { pathSegments, queryParam } from '../../server/url.js';
import type { KvBackend } from '../backend.js';
import type { Args, Caller } from '../commands/spec.js';
import { ReplyError } from '../errors.js';
import type { Reply } from '../reply.js';
import type { Limits } from './limits.js';
import { errorEnvelope, jsonEnvelope, jsonEnvelopes, type Encoding } from './reply-json.js';
import { resp2 } from './reply-resp2.js';
import { FormError, jsonBatch, jsonCommand, pathCommand } from './request-forms.js';

export interface KvDatabase {
  readonly backend: KvBackend;
  readonly limits: Limits;
}

type Format = 'json' | 'resp2';
interface Options {
  readonly encoding: Encoding;
  readonly format: Format;
}

const JSON_TYPE = 'application/json';
const RESP_TYPE = 'application/octet-stream';
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT';

const fail = (status: number, text: string): HttpResponse => ({
  status,
  headers: { 'content-type': JSON_TYPE },
  body: errorEnvelope(text),
});
const UNAUTHORIZED = () => fail(401, 'Unauthorized');

export function kvRoutes(databases: ReadonlyMap<string, KvDatabase>, maxBodyBytes: number) {
  return function handle(req: HttpRequest, rest: string): HttpResponse | Promise<HttpResponse> {
    const method = req.method;
    const isRead = method === 'GET' || method === 'HEAD';
    if (!isRead && method !== 'POST' && method !== 'PUT') {
      const res = fail(405, `ERR method ${method} is not allowed; use ${ALLOWED_METHODS}`);
      res.headers.allow = ALLOWED_METHODS;
      return res;
    }
    const segments = pathSegments(rest);
    const db = segments.length > 0 ? databases.get(segments[0]) : undefined;
    if (db === undefined) return fail(404, `ERR database '${segments[0] ?? ''}' not found`);
    const caller = authenticate(req, db.backend);
    if (caller === undefined) return UNAUTHORIZED();
    const opts = readOptions(req);
    if (typeof opts === 'string') return fail(400, opts);

    if (segments.length === 1) {
      if (isRead) return fail(400, 'ERR send a command in the path, or POST it as a JSON array');
      return withBody(req, maxBodyBytes, (body) => {
        const argv = jsonCommand(body);
        return argv instanceof FormError ? fail(400, argv.text) : single(db, argv, caller, opts);
      });
    }
    const batch = segments.length === 2 && !isRead ? batchKind(segments[1]) : undefined;
    if (batch !== undefined) {
      if (batch === 'multi-exec' && opts.format === 'resp2') {
        return fail(400, 'ERR resp2 response format is not supported with multi-exec');
      }
      return withBody(req, maxBodyBytes, (body) => {
        const commands = jsonBatch(body);
        if (commands instanceof FormError) return fail(400, commands.text);
        return batch === 'pipeline' ? pipeline(db, commands, caller, opts) : transaction(db, commands, caller, opts);
      });
    }
    if (isRead) return single(db, pathCommand(segments, 1, req.query, null), caller, opts);
    return withBody(req, maxBodyBytes, (body) => single(db, pathCommand(segments, 1, req.query, body), caller, opts));
  };
}

function batchKind(segment: string): 'pipeline' | 'multi-exec' | undefined {
  return segment === 'pipeline' || segment === 'multi-exec' ? segment : undefined;
}

function authenticate(req: HttpRequest, backend: KvBackend): Caller | undefined {
  const auth = req.header('authorization');
  let token: string | undefined;
  if (auth !== undefined) {
    const space = auth.indexOf(' ');
    if (space !== -1 && auth.slice(0, space).toLowerCase() === 'bearer') token = auth.slice(space + 1).trim();
  }
  token ??= queryParam(req.query, '_token');
  return token === undefined ? undefined : backend.acl.callerFor(token);
}

const DEFAULT_OPTIONS: Options = { encoding: 'text', format: 'json' };
const BASE64_OPTIONS: Options = { encoding: 'base64', format: 'json' };
const RESP2_OPTIONS: Options = { encoding: 'text', format: 'resp2' };

/** The encoding and format headers, in their Upstash-* and Service-* spellings; a string is an error. */
function readOptions(req: HttpRequest): Options | string {
  const enc = req.header('upstash-encoding') ?? req.header('service-encoding');
  const fmt = req.header('upstash-response-format') ?? req.header('service-response-format');
  if (enc === undefined && fmt === undefined) return DEFAULT_OPTIONS;
  if (enc !== undefined && enc.toLowerCase() !== 'base64') return `ERR unsupported encoding '${enc}'; the only encoding is base64`;
  const format = fmt === undefined ? 'json' : fmt.toLowerCase();
  if (format !== 'json' && format !== 'resp2') return `ERR unsupported response format '${fmt}'; use json or resp2`;
  if (format === 'resp2') return enc === undefined ? RESP2_OPTIONS : 'ERR resp2 response format cannot be combined with base64 encoding';
  return enc === undefined ? DEFAULT_OPTIONS : BASE64_OPTIONS;
}

function withBody(
  req: HttpRequest,
  maxBodyBytes: number,
  then: (body: Uint8Array) => HttpResponse | Promise<HttpResponse>,
): Promise<HttpResponse> {
  return req.body(maxBodyBytes).then((body) =>
    body === null ? fail(413, `ERR request body exceeds the limit of ${maxBodyBytes} bytes`) : then(body),
  );
}

function single(db: KvDatabase, argv: Args, caller: Caller, opts: Options): HttpResponse | Promise<HttpResponse> {
  const refusal = db.limits.admit(argv);
  if (refusal !== null) return answer(db, refusal, opts);
  const reply = db.backend.execute(argv, caller);
  return reply instanceof Promise ? reply.then((r) => answer(db, r, opts)) : answer(db, reply, opts);
}

function answer(db: KvDatabase, reply: Reply, opts: Options): HttpResponse {
  const status = reply instanceof ReplyError ? 400 : 200;
  if (opts.format === 'resp2') {
    return { status, headers: respHeaders(db, RESP_TYPE), body: Buffer.from(resp2(reply), 'latin1') };
  }
  return { status, headers: respHeaders(db, JSON_TYPE), body: jsonEnvelope(reply, opts.encoding) };
}

async function pipeline(db: KvDatabase, commands: Args[], caller: Caller, opts: Options): Promise<HttpResponse> {
  // Commands refused by the limits keep their position; the rest run as one pipeline.
  const refusals = commands.map((argv) => db.limits.admit(argv));
  const runnable = commands.filter((_, i) => refusals[i] === null);
  const ran = await db.backend.pipeline(runnable, caller);
  let next = 0;
  const replies: Reply[] = refusals.map((r) => r ?? ran[next++]);
  if (opts.format === 'resp2') {
    return { status: 200, headers: respHeaders(db, RESP_TYPE), body: Buffer.from(replies.map(resp2).join(''), 'latin1') };
  }
  return { status: 200, headers: respHeaders(db, JSON_TYPE), body: jsonEnvelopes(replies, opts.encoding) };
}

async function transaction(db: KvDatabase, commands: Args[], caller: Caller, opts: Options): Promise<HttpResponse> {
  for (const argv of commands) {
    const refusal: ReplyError | null = db.limits.admit(argv);
    if (refusal !== null) return answer(db, refusal, opts);
  }
  const result = await db.backend.transaction(commands, caller);
  if (!Array.isArray(result)) return answer(db, result, opts);
  return { status: 200, headers: respHeaders(db, JSON_TYPE), body: jsonEnvelopes(result, opts.encoding) };
}

function respHeaders(db: KvDatabase, contentType: string): Record<string, string> {
  return { 'content-type': contentType, 'upstash-sync-token': db.backend.syncToken() };
}
