// What every endpoint declares: whether it writes (refused to read-only tokens) and its
// handler. routes.ts turns each into an endpoint server/endpoint.ts admits (bearer token,
// any method, a JSON body).

import type { Embedder } from '../embedding/embedder.js';
import type { VectorError } from '../errors.js';
import type { VectorIndex } from '../engine/vector-index.js';
import type { QueryRequest } from './query.js';
import type { ResumableQueries } from './resumable.js';

export interface Ctx {
  readonly index: VectorIndex;
  /** The namespace from the path's last segment; '' (the default) when absent. */
  readonly ns: string;
  /** The parsed JSON body; undefined when there was none. */
  readonly body: unknown;
  readonly query: string;
  readonly resumable: ResumableQueries<QueryRequest>;
  /** The index's embedding models, for the *-data endpoints; null when it has none. */
  readonly embedder: Embedder | null;
  /** The deepest nesting of parentheses a filter may have. */
  readonly maxNestingDepth: number;
}

export interface Endpoint {
  readonly write: boolean;
  /** The result, or a promise of it when the endpoint waits for an embedding model. */
  run(ctx: Ctx): unknown | VectorError | Promise<unknown | VectorError>;
}
