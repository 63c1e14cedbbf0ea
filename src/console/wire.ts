// What the console's admin endpoints answer: shared by the server (index.ts) and the page
// (app/), so both sides agree on one shape. Types only.

/** GET /console/api/info. URLs are paths on the console's own origin. */
export interface ConsoleInfo {
  /** The read-only admin token was sent: every token below is a read-only one. */
  readonly readOnly: boolean;
  readonly kv: readonly { readonly db: string; readonly url: string; readonly token: string }[];
  /** Stream clusters have no read-only credentials: a read-only console gets no password. */
  readonly streams: readonly { readonly cluster: string; readonly url: string; readonly username: string | null; readonly password: string | null }[];
  readonly vector: readonly { readonly index: string; readonly url: string; readonly token: string }[];
  readonly queue: { readonly url: string; readonly token: string } | null;
}

/** GET /console/api/metrics: each service's totals since start; the page turns them into rates. */
export interface ConsoleMetrics {
  /** Server clock, ms since the epoch. */
  readonly at: number;
  readonly services: readonly {
    readonly service: string;
    readonly requests: number;
    /** Answers with a status of 400 or more. */
    readonly errors: number;
    /** Latency bucket upper bounds in seconds; `buckets` has one more count, for +Inf. */
    readonly bounds: readonly number[];
    readonly buckets: readonly number[];
    readonly seconds: number;
  }[];
}

/** Every console error: `{error, status}`, as the stream, vector and queue services answer. */
export interface ConsoleError {
  readonly error: string;
  readonly status: number;
}
