// The Upstash Redis REST surface under /redis/<db>: auth, the command forms, pipeline and
// multi-exec, encodings and response formats. It runs commands through KvBackend only.
//
// Order of checks, each answered in the error envelope: method (405), database (404), token
// (401), encoding and format headers (400), body size (413), then the body's shape (400).
//
// Hot path: a path-form GET is answered synchronously, with no body read, no JSON parse and no
// closure; everything per-database is looked up in one Map.

import { requestToken } from '../../server/credentials.js';
import type { HttpRequest, HttpResponse } from '../../server/http.js';
import { pathSegments } from '../../server/url.js';
import type { KvBackend } from '../backend.js';
import { STREAM, type Args, type Caller } from '../commands/spec.js';
import { lookupCommand } from '../commands/table.js';
import {
  bodyTooLarge,
  methodNotAllowed,
  NO_COMMAND,
  ReplyError,
  RESP2_MULTI_EXEC,
  RESP2_WITH_BASE64,
  UNAUTHORIZED,
  UnavailableError,
  unknownDatabase,
  unsupportedEncoding,
  unsupportedFormat,
} from '../errors.js';
import type { Reply } from '../reply.js';
import { EventStream } from './event-stream.js';
import { parseBatch, parseCommand } from './json-args.js';
import type { Limits } from './limits.js';
import { errorEnvelope, jsonEnvelope, jsonEnvelopes, type Encoding } from './reply-json.js';
import { JSON_TYPE, ReplyHeaders, RESP_TYPE } from './reply-headers.js';
import { resp2 } from './reply-resp2.js';
import { pathCommand } from './request-forms.js';

export interface KvDatabase {
  readonly backend: KvBackend;
  readonly limits: Limits;
}

/** A database as the routes serve it: with its replies' shared headers. */
interface Served extends KvDatabase {
  readonly headers: ReplyHeaders;
}

type Format = 'json' | 'resp2';
interface Options {
  readonly encoding: Encoding;
  readonly format: Format;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT';
const PIPELINE = 'pipeline';
const MULTI_EXEC = 'multi-exec';

function fail(status: number, e: ReplyError): HttpResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: errorEnvelope(e) };
}

const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no', // tells proxies (nginx) to pass each event on at once
  'access-control-allow-origin': '*',
};

/**
 * `maxBodyBytes`: the largest request body read. `streamBufferBytes`: how far a streaming
 * client may fall behind before it is disconnected (see event-stream.ts).
 */
export function kvRoutes(databases: ReadonlyMap<string, KvDatabase>, maxBodyBytes: number, streamBufferBytes: number) {
  const served = new Map<string, Served>();
  for (const [name, db] of databases) served.set(name, { ...db, headers: new ReplyHeaders(db.backend) });
  return function handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse> {
    const method = req.method;
    const isRead = method === 'GET' || method === 'HEAD';
    if (!isRead && method !== 'POST' && method !== 'PUT') {
      const res = fail(405, methodNotAllowed(method));
      res.headers.allow = ALLOWED_METHODS;
      return res;
    }
    const segments = pathSegments(req.path, restAt);
    const db = segments.length > 0 ? served.get(segments[0]) : undefined;
    if (db === undefined) return fail(404, unknownDatabase(segments[0] ?? ''));
    const caller = authenticate(req, db.backend);
    if (caller === undefined) return fail(401, UNAUTHORIZED);
    const opts = readOptions(req);
    if (opts instanceof ReplyError) return fail(400, opts);
    if (segments.length > 1 && isStream(segments[1])) {
      // The SDK POSTs an empty JSON array; like a path GET, a stream reads no body.
      if (method === 'HEAD') return { status: 200, headers: { ...STREAM_HEADERS }, body: null };
      return openStream(db, pathCommand(segments, 1, req.query, null), caller, opts, streamBufferBytes);
    }
    if (!isRead) return withBody(req, segments, db, caller, opts, maxBodyBytes);
    if (segments.length === 1) return fail(400, NO_COMMAND);
    return single(db, pathCommand(segments, 1, req.query, null), caller, opts);
  };
}

/** POST and PUT: form 2 or 3, or a batch; all of them read the body. */
async function withBody(
  req: HttpRequest,
  segments: readonly string[],
  db: Served,
  caller: Caller,
  opts: Options,
  maxBodyBytes: number,
): Promise<HttpResponse> {
  const batch = segments.length === 2 && (segments[1] === PIPELINE || segments[1] === MULTI_EXEC) ? segments[1] : null;
  if (batch === MULTI_EXEC && opts.format === 'resp2') return fail(400, RESP2_MULTI_EXEC);
  const body = await req.body(maxBodyBytes);
  if (body === null) return fail(413, bodyTooLarge(maxBodyBytes));
  if (batch !== null) {
    const commands = parseBatch(body);
    if (commands instanceof ReplyError) return fail(400, commands);
    return batch === PIPELINE ? pipeline(db, commands, caller, opts) : transaction(db, commands, caller, opts);
  }
  if (segments.length > 1) return single(db, pathCommand(segments, 1, req.query, body), caller, opts);
  const argv = parseCommand(body);
  return argv instanceof ReplyError ? fail(400, argv) : single(db, argv, caller, opts);
}

/** The streaming endpoints (server-sent events) are those of the table's stream-only commands. */
function isStream(name: string): boolean {
  const cmd = lookupCommand(name);
  return cmd !== undefined && (cmd.bits & STREAM) !== 0;
}

/** /subscribe/<channel>..., /psubscribe/<pattern>..., /ssubscribe/<channel>..., /monitor: 200 and events until the client leaves. */
function openStream(db: Served, argv: Args, caller: Caller, opts: Options, bufferBytes: number): HttpResponse | Promise<HttpResponse> {
  const refusal = db.limits.admit(argv);
  if (refusal !== null) return answer(db, refusal, opts);
  const events = new EventStream(bufferBytes);
  const opened = db.backend.stream(argv, caller, events);
  return opened instanceof Promise ? opened.then((o) => streamOpened(db, events, o, opts)) : streamOpened(db, events, opened, opts);
}

function streamOpened(db: Served, events: EventStream, opened: (() => void) | ReplyError, opts: Options): HttpResponse {
  if (opened instanceof ReplyError) return answer(db, opened, opts);
  events.opened(opened);
  return { status: 200, headers: { ...STREAM_HEADERS }, body: events };
}

function authenticate(req: HttpRequest, backend: KvBackend): Caller | undefined {
  const token = requestToken(req, '_token');
  return token === undefined ? undefined : backend.acl.callerFor(token);
}

const DEFAULT_OPTIONS: Options = { encoding: 'text', format: 'json' };
const BASE64_OPTIONS: Options = { encoding: 'base64', format: 'json' };
const RESP2_OPTIONS: Options = { encoding: 'text', format: 'resp2' };

/** The encoding and response-format headers, in their Upstash-* and Service-* spellings. */
function readOptions(req: HttpRequest): Options | ReplyError {
  const enc = req.header('upstash-encoding') ?? req.header('service-encoding');
  const fmt = req.header('upstash-response-format') ?? req.header('service-response-format');
  if (enc === undefined && fmt === undefined) return DEFAULT_OPTIONS;
  if (enc !== undefined && enc.toLowerCase() !== 'base64') return unsupportedEncoding(enc);
  const format = fmt === undefined ? 'json' : fmt.toLowerCase();
  if (format === 'json') return enc === undefined ? DEFAULT_OPTIONS : BASE64_OPTIONS;
  if (format !== 'resp2') return unsupportedFormat(fmt!);
  return enc === undefined ? RESP2_OPTIONS : RESP2_WITH_BASE64;
}

function single(db: Served, argv: Args, caller: Caller, opts: Options): HttpResponse | Promise<HttpResponse> {
  const refusal = db.limits.admit(argv);
  if (refusal !== null) return answer(db, refusal, opts);
  const reply = db.backend.execute(argv, caller);
  return reply instanceof Promise ? reply.then((r) => answer(db, db.limits.bound(r), opts)) : answer(db, db.limits.bound(reply), opts);
}

/** One command's reply: 200, or the error's status (errorStatus). */
function answer(db: Served, reply: Reply, opts: Options): HttpResponse {
  const status = reply instanceof ReplyError ? errorStatus(reply) : 200;
  if (opts.format === 'resp2') {
    return { status, headers: db.headers.of(RESP_TYPE), body: Buffer.from(resp2(reply), 'latin1') };
  }
  return { status, headers: db.headers.of(JSON_TYPE), body: jsonEnvelope(reply, opts.encoding) };
}

async function pipeline(db: Served, commands: Args[], caller: Caller, opts: Options): Promise<HttpResponse> {
  // Commands refused by the limits keep their position; the rest run as one pipeline.
  const replies: Reply[] = new Array(commands.length);
  const runnable: Args[] = [];
  for (let i = 0; i < commands.length; i++) {
    const refusal = db.limits.admit(commands[i]);
    if (refusal === null) runnable.push(commands[i]);
    else replies[i] = refusal;
  }
  const ran = await db.backend.pipeline(runnable, caller);
  const down = ran.find(isUnavailable);
  if (down !== undefined) return answer(db, down, opts);
  for (let i = 0, next = 0; i < replies.length; i++) if (replies[i] === undefined) replies[i] = ran[next++];
  const bounded = db.limits.boundAll(replies);
  if (opts.format === 'resp2') {
    let out = '';
    for (const r of bounded) out += resp2(r);
    return { status: 200, headers: db.headers.of(RESP_TYPE), body: Buffer.from(out, 'latin1') };
  }
  return { status: 200, headers: db.headers.of(JSON_TYPE), body: jsonEnvelopes(bounded, opts.encoding) };
}

/** 200 with one reply per command, or 400 with one error when the transaction is discarded. */
async function transaction(db: Served, commands: Args[], caller: Caller, opts: Options): Promise<HttpResponse> {
  const refusal = db.limits.admitAll(commands);
  if (refusal !== null) return answer(db, refusal, opts);
  const result = await db.backend.transaction(commands, caller);
  if (!Array.isArray(result)) return answer(db, result, opts);
  const down = result.find(isUnavailable);
  if (down !== undefined) return answer(db, down, opts);
  return { status: 200, headers: db.headers.of(JSON_TYPE), body: jsonEnvelopes(db.limits.boundAll(result), opts.encoding) };
}

/**
 * A command's error is the client's (400), unless the backend could not be reached (503: a
 * remote Redis is away; the request may be retried). A batch with such an error answers 503
 * as a whole, since some of its commands may not have run.
 */
function errorStatus(e: ReplyError): number {
  return e instanceof UnavailableError ? 503 : 400;
}

function isUnavailable(r: Reply): r is UnavailableError {
  return r instanceof UnavailableError;
}
