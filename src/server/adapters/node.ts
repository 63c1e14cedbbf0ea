// node:http adapter: translates only. Headers are read straight from Node's object, the
// body is collected only when a handler asks, and a response is written with one
// writeHead + end. A request Node's parser refuses is answered here too (clientError), as no
// handler sees it.

import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorResponse, setHeader, type Handler, type HttpRequest, type HttpResponse, type ListenAt, type RunningServer } from '../http.js';

class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;

  constructor(private readonly req: IncomingMessage) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q === -1 ? url : url.slice(0, q);
    this.query = q === -1 ? '' : url.slice(q + 1);
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  headerNames(): string[] {
    return Object.keys(this.req.headers);
  }

  remoteAddress(): string {
    return this.req.socket.remoteAddress ?? '';
  }

  /**
   * Over the limit it answers null at once, without buffering; Node discards the rest of the
   * upload once the response is sent, so the connection stays usable. When the body breaks off
   * (the client hung up, or sent broken chunks) no answer can reach the client any more: the
   * promise is left unsettled and is collected with the request.
   */
  body(maxBytes: number): Promise<Uint8Array | null> {
    const req = this.req;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(null);
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        if (size > maxBytes) return;
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
        else {
          chunks.length = 0;
          resolve(null);
        }
      });
      req.on('end', () => resolve(size > maxBytes ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      req.on('error', ignore);
    });
  }
}

const ignore = () => {};

function send(res: ServerResponse, out: HttpResponse): void {
  const body = out.body;
  if (body !== null && typeof body === 'object' && Symbol.asyncIterator in body) {
    res.writeHead(out.status, out.headers);
    res.flushHeaders();
    stream(res, body).catch((err: unknown) => crash(res, err));
    return;
  }
  if (body === null) {
    if (out.headers['content-length'] === undefined) setHeader(out, 'content-length', '0');
    res.writeHead(out.status, out.headers);
  } else res.writeHead(out.status, withLength(out.headers, String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)));
  res.end(body ?? undefined);
}

/** Each shared (frozen) header set's copy with a content-length, made once. */
const sized = new WeakMap<Record<string, string>, Record<string, string>>();

/**
 * `headers` with `content-length: length`. A shared set's copy is reused, its length rewritten
 * each time: writeHead turns the headers into the response's header text at once and keeps
 * nothing of them. (Copying a frozen set per response took V8's slow clone path.)
 */
function withLength(headers: Record<string, string>, length: string): Record<string, string> {
  if (!Object.isFrozen(headers)) {
    headers['content-length'] = length;
    return headers;
  }
  let copy = sized.get(headers);
  if (copy === undefined) sized.set(headers, (copy = { ...headers }));
  copy['content-length'] = length;
  return copy;
}

/**
 * Writes each chunk as soon as the body yields it. While the socket is full, at most one more
 * chunk is taken and held until it drains, so a slow client's backlog stays in the body (which
 * bounds it) rather than in Node's buffers. A body that throws (a client too far behind) cuts
 * the connection; a client that hangs up ends the body at once.
 */
async function stream(res: ServerResponse, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  res.on('close', () => void iterator.return?.());
  try {
    let next = iterator.next();
    for (let chunk = await next; !chunk.done; chunk = await next) {
      const flushed = res.write(chunk.value);
      next = iterator.next();
      if (!flushed) await Promise.race([drained(res), next.then(() => drained(res))]);
    }
  } catch {
    res.destroy();
    return;
  }
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  if (!res.writableNeedDrain || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Last resort when a response cannot be written (say, a header value Node refuses); the
 * handler's own boundary has already turned thrown bugs into 500s. The process must live on.
 */
function crash(res: ServerResponse, err: unknown): void {
  process.emitWarning(`larder: could not answer a request: ${err instanceof Error ? err.message : String(err)}`);
  if (res.headersSent) res.destroy();
  else {
    res.writeHead(500, { 'content-type': 'application/json', 'content-length': String(CRASH_BODY.length) });
    res.end(CRASH_BODY);
  }
}

const CRASH_BODY = '{"error":"ERR internal server error"}';

/**
 * The answer to a request Node's parser refused (Node's own has an empty body): 431 for a
 * request line and headers over http.maxHeaderSize, 408 when they came too slowly (as Node
 * answers), 400 for anything else it could not parse; the connection closes after it. Nothing
 * is written to a socket that is gone, or in the middle of a response to an earlier request
 * on it (a pipelined request): that one is cut.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const current = (socket as { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) return void socket.destroy();
  const out = err.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? REQUEST_TIMEOUT : MALFORMED;
  socket.end(out);
}

/** `out` as the raw bytes of a response that closes its connection. */
function rawResponse(out: HttpResponse & { body: string }): string {
  const head = [`HTTP/1.1 ${out.status} ${STATUS_CODES[out.status]}`];
  for (const [name, value] of Object.entries(out.headers)) head.push(`${name}: ${value}`);
  head.push(`content-length: ${Buffer.byteLength(out.body)}`, 'connection: close');
  return `${head.join('\r\n')}\r\n\r\n${out.body}`;
}

/** As app.ts answers every request, so a browser's page may read why. */
const ANY_ORIGIN = { 'access-control-allow-origin': '*' };
const HEADERS_TOO_LARGE = rawResponse(errorResponse(431, 'request header fields too large', ANY_ORIGIN));
const REQUEST_TIMEOUT = rawResponse(errorResponse(408, 'request timeout: the request line and headers came too slowly', ANY_ORIGIN));
const MALFORMED = rawResponse(errorResponse(400, 'malformed HTTP request', ANY_ORIGIN));

function answer(res: ServerResponse, out: HttpResponse): void {
  try {
    send(res, out);
  } catch (err) {
    crash(res, err);
  }
}

export function listenNode(handle: Handler, at: ListenAt): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const out = handle(new NodeRequest(req)); // a path GET never awaits
    if (out instanceof Promise) out.then((o) => answer(res, o), (err) => crash(res, err));
    else answer(res, out);
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
