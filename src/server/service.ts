import type { HttpRequest, HttpResponse } from './http.js';

/** A service mounted under `/<prefix>`; it gets the path after the prefix. */
export interface Service {
  readonly prefix: string;
  handle(req: HttpRequest, rest: string): HttpResponse | Promise<HttpResponse>;
  /** Flushes data and releases files. */
  close(): Promise<void>;
}
