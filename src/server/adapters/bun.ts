// Bun.serve adapter: translates only. Loaded solely when running under Bun.

import type { Body, Handler, HttpRequest, HttpResponse, ListenAt, RunningServer } from '../http.js';

/** The slice of Bun's API this adapter uses (Bun's own types are not a dependency). */
interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
  /** Seconds a request's connection may idle; 0 never times out. */
  timeout(req: Request, seconds: number): void;
  requestIP(req: Request): { address: string } | null;
}
interface BunRuntime {
  serve(options: {
    hostname: string;
    port: number;
    reusePort?: boolean;
    maxRequestBodySize?: number;
    fetch(req: Request, server: BunServer): Response | Promise<Response>;
  }): BunServer;
}

class FetchRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;

  constructor(
    private readonly req: Request,
    private readonly server: BunServer,
  ) {
    this.method = req.method;
    // Skip "scheme://host" by scanning for the third '/'.
    const url = req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    this.path = start === -1 ? '/' : q === -1 ? url.slice(start) : url.slice(start, q);
    this.query = q === -1 ? '' : url.slice(q + 1);
  }

  /** Bun builds a request's Headers on first use; a key-value GET reads five of them. */
  private headers: Headers | undefined;

  header(name: string): string | undefined {
    return (this.headers ??= this.req.headers).get(name) ?? undefined;
  }

  headerNames(): string[] {
    return [...this.req.headers.keys()];
  }

  remoteAddress(): string {
    return this.server.requestIP(this.req)?.address ?? '';
  }

  async body(maxBytes: number): Promise<Uint8Array | null> {
    const declared = this.req.headers.get('content-length');
    // Bun reads exactly the declared length, so a declared body can be taken whole.
    if (declared !== null) return Number(declared) > maxBytes ? null : new Uint8Array(await this.req.arrayBuffer());
    // A chunked body is read only up to the limit, so an endless upload is not buffered.
    const reader = this.req.body?.getReader();
    if (reader === undefined) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(next.value);
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
  }
}

function toResponse(out: HttpResponse, req: Request, server: BunServer): Response {
  return new Response(toBody(out.body, req, server), { status: out.status, headers: webHeaders(out.headers) });
}

/** Web Headers of the shared (frozen) header sets, each built once: Bun builds a Response from a Headers object faster than from a plain one. */
const translated = new WeakMap<Record<string, string>, Headers>();

function webHeaders(headers: Record<string, string>): Record<string, string> | Headers {
  if (!Object.isFrozen(headers)) return headers;
  let web = translated.get(headers);
  if (web === undefined) translated.set(headers, (web = new Headers(headers)));
  return web;
}

/**
 * A streamed body is pulled one chunk at a time, when Bun wants the next. It ends when the
 * client goes away (the request's signal), is never cut for idling, and a body that throws
 * (a client too far behind) errors the stream, which cuts the connection.
 */
function toBody(body: Body, req: Request, server: BunServer): ConstructorParameters<typeof Response>[0] {
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) return body as string | Uint8Array<ArrayBuffer> | null;
  const iterator = body[Symbol.asyncIterator]();
  server.timeout(req, 0);
  req.signal.addEventListener('abort', () => void iterator.return?.(), { once: true });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

export async function listenBun(handle: Handler, at: ListenAt): Promise<RunningServer> {
  const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
  const server = bun.serve({
    hostname: at.host,
    port: at.port,
    reusePort: at.shared,
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(req, server) {
      const out = handle(new FetchRequest(req, server));
      return out instanceof Promise ? out.then((o) => toResponse(o, req, server)) : toResponse(out, req, server);
    },
  });
  return { port: server.port, close: async () => void (await server.stop(true)) };
}
