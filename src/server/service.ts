import type { HttpRequest, HttpResponse } from './http.js';

/** A service mounted under `/<prefix>`; `restAt` is where the path goes on after the prefix. */
export interface Service {
  readonly prefix: string;
  handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse>;
  /** Flushes data and releases files. */
  close(): Promise<void>;
}
