// The runtime-neutral HTTP shapes. Plain objects rather than the Web Request/Response
// classes, which are costly to build on Node; adapters translate to and from them.

export interface HttpRequest {
  readonly method: string;
  /** Raw path, not yet percent-decoded, without the query. */
  readonly path: string;
  /** Text after '?', '' if none. */
  readonly query: string;
  header(lowerName: string): string | undefined;
  /** Every header name sent, lower case (the stream webhook turns headers into message headers). */
  headerNames(): string[];
  /** The connection's peer IP address, '' when the runtime does not say (the queue's callerIP). */
  remoteAddress(): string;
  /** Reads the whole body on demand; null when it is over `maxBytes`. */
  body(maxBytes: number): Promise<Uint8Array | null>;
}

/** An async iterable body is streamed (server-sent events). */
export type Body = string | Uint8Array | AsyncIterable<Uint8Array> | null;

export interface HttpResponse {
  status: number;
  /**
   * A frozen set is shared by many responses (kv's reply headers): never change it, set a
   * header through `setHeader`, which copies it first. The Bun adapter translates a frozen
   * set into Web Headers once and reuses them.
   */
  headers: Record<string, string>;
  body: Body;
}

/** Sets one header of `res`, copying a shared (frozen) set first. */
export function setHeader(res: HttpResponse, name: string, value: string): void {
  if (Object.isFrozen(res.headers)) res.headers = { ...res.headers };
  res.headers[name] = value;
}

export type Handler = (req: HttpRequest) => HttpResponse | Promise<HttpResponse>;

export interface ListenAt {
  host: string;
  port: number;
  /**
   * Other processes listen on this port too (`--workers`): Bun binds it with SO_REUSEPORT and
   * the kernel spreads the connections; on Node, node:cluster shares the primary's socket.
   */
  shared?: boolean;
}

/** A running server, whichever runtime serves it. */
export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The method an endpoint answers: HEAD is GET, whose body app.ts drops in one place. */
export const routeMethod = (method: string): string => (method === 'HEAD' ? 'GET' : method);

/** 405 from an endpoint that only reads (GET, and HEAD as GET), in the {"error","status"} envelope. */
export const useGet = (): HttpResponse => jsonResponse(405, '{"error":"use GET","status":405}', { allow: 'GET, HEAD' });

export function jsonResponse(status: number, body: string, headers?: Record<string, string>): HttpResponse & { body: string } {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** A refusal of no service's own (no service at the path, a request the runtime could not parse), in the {"error","status"} envelope. */
export function errorResponse(status: number, text: string, headers?: Record<string, string>): HttpResponse & { body: string } {
  return jsonResponse(status, JSON.stringify({ error: text, status }), headers);
}
