import type { HttpRequest, HttpResponse } from './http.js';

/** A service mounted under `/<prefix>`; `restAt` is where the path goes on after the prefix. */
export interface Service {
  /** What /metrics calls it (`service` label): kv, streams, vector, queue. */
  readonly name: string;
  readonly prefix: string;
  handle(req: HttpRequest, restAt: number): HttpResponse | Promise<HttpResponse>;
  /** Flushes data and releases files. */
  close(): Promise<void>;
  /** Counts the service keeps anyway (e.g. commands run), read only when /metrics is scraped. */
  readonly counters?: readonly ServiceCounter[];
  /**
   * Tries again the writes a failing disk held back, and says why this service still cannot
   * write ("kv database 'default': No space left on device"), or null. /healthz and /metrics ask.
   */
  writeFailure?(): string | null;
  /** A failure the error boundary (app.ts) answers, in this service's envelope; else Redis's `{error}`. */
  fail?(status: number, text: string): HttpResponse;
}

/** Exposed as `larder_<service>_<name>_total{<label>="..."}`. */
export interface ServiceCounter {
  readonly name: string;
  readonly help: string;
  /** The one label that tells the series apart, e.g. `database`. */
  readonly label: string;
  /** [label value, count] pairs; counts never go down. */
  read(): Iterable<readonly [string, number]>;
}
