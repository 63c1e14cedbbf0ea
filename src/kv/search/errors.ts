// Every failure of Redis Search (SEARCH.*). Texts the Upstash reference states are used as
// stated (marked "reference"); the others are Larder's own, in the same form, and listed in
// docs/search.md until the service's exact texts are known.

import { utf8Bytes } from '../bytes.js';
import { ReplyError } from '../errors.js';

/** An error whose text is text (from the parsed JSON of a query or aggregation), sent as its UTF-8 bytes. */
const queryError = (text: string) => new ReplyError(utf8Bytes(text));

/** reference: troubleshooting, "Index Errors". */
export const indexExists = (name: string) => new ReplyError(`ERR Index ${name} already exists`);
/** reference: troubleshooting, "Query Errors". */
export const LIMIT_RANGE = new ReplyError('ERR limit should be a positive number less than 1000');
/** reference: troubleshooting ($not is the example it gives). */
export const unknownOperator = (op: string) => queryError(`ERR Unknown field operator: ${op}`);

export const EXISTS_DIFFERENT = (name: string) =>
  new ReplyError(`ERR Index ${name} already exists with a different configuration`);
export const NAME_IS_KEY = (name: string) => new ReplyError(`ERR ${name} is already used by a non-index key`);
export const unknownDataType = (type: string) => new ReplyError(`ERR Unknown data type: ${type}; use JSON, HASH, STRING or STREAM`);
export const unknownLanguage = (language: string) => new ReplyError(`ERR Unsupported language: ${language}`);
export const unknownFieldType = (type: string) =>
  new ReplyError(`ERR Unknown field type: ${type}; use TEXT, U64, I64, F64, BOOL, DATE, KEYWORD or FACET`);
export const optionNotFor = (option: string, type: string) => new ReplyError(`ERR ${option} is not valid for a ${type} field`);
export const duplicateField = (field: string) => new ReplyError(`ERR Field ${field} is declared twice`);
export const MISSING_ON = new ReplyError('ERR ON <JSON|HASH|STRING> or ON STREAM <key> is required');
export const PREFIX_WITH_STREAM = new ReplyError('ERR PREFIX is not supported for stream indexes');
export const streamIndexed = (key: string, index: string) =>
  new ReplyError(`ERR Stream ${key} is already indexed by ${index}; drop that index first`);
export const MISSING_PREFIX = new ReplyError('ERR PREFIX <count> <prefix>... is required');
export const MISSING_SCHEMA = new ReplyError('ERR SCHEMA with at least one field is required');
export const BAD_PREFIX_COUNT = new ReplyError('ERR PREFIX count must be a positive integer');
export const OFFSET_RANGE = new ReplyError('ERR offset should be a non-negative number');
export const QUERY_OFFSET_RANGE = new ReplyError('ERR offset should be a number from 0 to 10000');
/** Worded after the reference's rule (SEARCH.QUERY: "SCOREFUNC cannot be combined with ORDERBY"); the service's text is not stated. */
export const SCOREFUNC_WITH_ORDERBY = new ReplyError('ERR SCOREFUNC cannot be combined with ORDERBY');
/** Worded after the reference's rule (SEARCH.QUERY: "Inside MULTI or EVAL, the command requires NOCONTENT"). */
export const NOCONTENT_REQUIRED = new ReplyError('ERR SEARCH.QUERY inside MULTI or EVAL requires NOCONTENT');
export const SCOREFUNC_NEEDS_FIELD = new ReplyError('ERR SCOREFUNC needs FIELDVALUE <field> before its options');
export const notScoreField = (field: string) => new ReplyError(`ERR Field ${field} is not a FAST U64, I64 or F64 field: SCOREFUNC needs one`);
export const NOCONTENT_WITH_SELECT = new ReplyError('ERR NOCONTENT cannot be combined with SELECT or HIGHLIGHT');
// The query's and aggregation's: their arguments are text, field names too (utf8Text of a schema's).
export const invalidFilter = (why: string) => queryError(`ERR Invalid query: ${why}`);
export const unknownField = (field: string) => queryError(`ERR Unknown field: ${field}`);
export const operatorNotFor = (op: string, field: string, type: string) =>
  queryError(`ERR Operator ${op} is not supported on ${type} field ${field}`);
export const notFast = (field: string) => new ReplyError(`ERR Field ${field} is not FAST: ORDERBY needs a FAST field`);
// SEARCH.AGGREGATE (search/aggregate-request.ts).
export const invalidAggregation = (why: string) => queryError(`ERR Invalid aggregation: ${why}`);
export const unknownAggregation = (op: string) => queryError(`ERR Unknown aggregation operator: ${op}`);
export const aggregationNotFor = (op: string, field: string, type: string) =>
  queryError(`ERR Aggregation ${op} is not supported on ${type} field ${field}`);
export const aggregationNeedsFast = (field: string, op: string) => queryError(`ERR Field ${field} is not FAST: ${op} needs a FAST field`);
export const tooManyBuckets = (max: number) => new ReplyError(`ERR Aggregation would create more than ${max} buckets`);
/** Parts of the language Larder does not implement yet (docs/search.md lists them). */
export const notYet = (what: string) => new ReplyError(`ERR ${what} is not supported by Larder's search yet`);
