// Every failure the vector service reports: an HTTP status and the text of the `error` field
// of the envelope `{error, status}` (rest/envelope.ts builds it). Returned as values, never
// thrown. Texts the SDKs or the issue quote are kept verbatim; the others are Larder's.

import { ServiceError as VectorError } from '../errors/service-error.js';

export { VectorError };
export const NOT_JSON = new VectorError(400, 'the body is not valid JSON');
export const UNAUTHORIZED = new VectorError(401, 'Unauthorized: Invalid auth token');
export const READ_ONLY_TOKEN = new VectorError(403, 'Unauthorized: Read-only token is not allowed to write');
export const NO_EMBEDDING_MODEL = new VectorError(
  422,
  'Embedding data for this index is not allowed. The index must be created with an embedding model to use it.',
);
/** Quoted by the SDK's fetch test. */
export const FETCH_IDS_OR_PREFIX = new VectorError(400, 'Only one of ids or prefix must be provided.');
/** The service's text for a delete with more than one of ids, prefix and filter, or none. */
export const DELETE_ONE_CRITERION = new VectorError(400, 'Only and only one of the ids, prefix, or filter must be provided.');
export const DEFAULT_NAMESPACE_DELETE = new VectorError(400, 'The default namespace cannot be deleted.');
export const DEFAULT_NAMESPACE_RENAME = new VectorError(400, 'The default namespace cannot be renamed.');
export const NO_VECTOR = new VectorError(400, 'Either vector or sparseVector should be provided.');
export const DENSE_ONLY = new VectorError(422, 'This index is dense; sparse vectors are not allowed.');
export const SPARSE_ONLY = new VectorError(422, 'This index is sparse; dense vectors are not allowed.');
export const HYBRID_NEEDS_BOTH = new VectorError(422, 'This index is hybrid; both vector and sparseVector are required.');

export const invalidDimension = (got: number, expected: number) =>
  new VectorError(422, `Invalid vector dimension: ${got}, expected: ${expected}`);
export const badRequest = (what: string) => new VectorError(400, what);
export const unknownIndex = (name: string) => new VectorError(404, `Index '${name}' does not exist`);
export const unknownEndpoint = (name: string) => new VectorError(404, `Unknown endpoint: ${name}`);
export const indexExists = (name: string) => new VectorError(400, `Index '${name}' already exists`);
export const namespaceNotFound = (ns: string) => new VectorError(404, `Namespace '${ns}' does not exist`);
export const namespaceExists = (ns: string) => new VectorError(400, `Namespace '${ns}' already exists`);
export const resumableQueryNotFound = (uuid: string) => new VectorError(404, `Resumable query '${uuid}' does not exist or has expired`);
export const bodyTooLarge = (max: number) => new VectorError(413, `Request body is larger than ${max} bytes`);
