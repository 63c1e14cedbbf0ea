// Vector indexes at a key (Upstash's VECTOR.* extension, which @upstash/redis reaches through
// redis.vector): create, add, get, delete, count, describe, query and drop. The index is an
// ordinary key (EXISTS, EXPIRE, DEL, TYPE 'vector' apply to it), its value engine/vector/.
// Embedded only: Redis has no such type, so a remote backend refuses them.

import { VECTOR_INDEX_KIND, VECTOR_METRICS, VectorIndexValue, type VectorMetric } from '../engine/vector/vector-index-value.js';
import {
  isError,
  SYNTAX,
  VECTOR_BAD_BLOB,
  VECTOR_BAD_DIM,
  VECTOR_BAD_ELEMENT,
  VECTOR_BAD_METRIC,
  VECTOR_BAD_TOPK,
  VECTOR_EMPTY_ID,
  vectorDimensionMismatch,
  vectorIndexExists,
  vectorIndexNotFound,
  vectorIndexOtherwise,
  type ReplyError,
} from '../errors.js';
import { NULL_ARRAY, type Reply } from '../reply.js';
import { parseFloatText, parseInteger } from './args.js';
import { replyDouble } from './reply-double.js';
import { family, ONE_KEY, type Args, type Ctx, type Flag } from './spec.js';
import { readTyped } from './typed.js';

const MAX_DIMENSION = 32_768;
const MAX_TOPK = 1000;
const PROFILES = new Set(['FAST', 'BALANCED', 'PRECISE']);

/** The index at `key`: undefined when absent, WRONGTYPE for another type. */
function indexAt(ctx: Ctx, key: string): VectorIndexValue | undefined | ReplyError {
  return readTyped<VectorIndexValue>(ctx.ks, key, VECTOR_INDEX_KIND);
}

/** The index at `key`: the error Upstash gives when absent, WRONGTYPE for another type. */
function existingIndex(ctx: Ctx, key: string): VectorIndexValue | ReplyError {
  return indexAt(ctx, key) ?? vectorIndexNotFound(key);
}

// VECTOR.CREATE index DIM n METRIC m [EXISTSOK]: 1 when created, 0 when EXISTSOK found the same.
function createCommand(ctx: Ctx, argv: Args): Reply {
  let dimension: number | undefined;
  let metric: VectorMetric | undefined;
  let existsOk = false;
  for (let i = 2; i < argv.length; i++) {
    const option = argv[i].toUpperCase();
    if (option === 'EXISTSOK') existsOk = true;
    else if (option === 'DIM' && i + 1 < argv.length) {
      dimension = parseInteger(argv[++i]);
      if (dimension === undefined || dimension < 1 || dimension > MAX_DIMENSION) return VECTOR_BAD_DIM;
    } else if (option === 'METRIC' && i + 1 < argv.length) {
      metric = VECTOR_METRICS.find((m) => m === argv[i + 1].toUpperCase());
      if (metric === undefined) return VECTOR_BAD_METRIC;
      i++;
    } else return SYNTAX;
  }
  if (dimension === undefined || metric === undefined) return SYNTAX;
  const found = indexAt(ctx, argv[1]);
  if (isError(found)) return found;
  if (found !== undefined) {
    if (!existsOk) return vectorIndexExists(argv[1]);
    return found.dimension === dimension && found.metric === metric ? 0 : vectorIndexOtherwise(argv[1]);
  }
  ctx.ks.insert(argv[1], new VectorIndexValue(dimension, metric), 0);
  return 1;
}

/** A vector given as VALUES n x1..xn, FP32 blob or BASE64-FP32 blob at argv[at]; `end` is where it stops. */
function vectorArg(argv: Args, at: number): { vector: Float32Array; end: number } | ReplyError {
  const form = argv[at]?.toUpperCase();
  if (form === 'VALUES') {
    const count = parseInteger(argv[at + 1] ?? '');
    if (count === undefined || count < 1 || at + 2 + count > argv.length) return SYNTAX;
    const vector = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const x = parseFloatText(argv[at + 2 + i]);
      if (x === undefined || !Number.isFinite(x)) return VECTOR_BAD_ELEMENT;
      vector[i] = x;
    }
    return { vector, end: at + 2 + count };
  }
  if ((form === 'FP32' || form === 'BASE64-FP32') && at + 1 < argv.length) {
    const bytes = Buffer.from(argv[at + 1], form === 'FP32' ? 'latin1' : 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) return VECTOR_BAD_BLOB;
    const vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
    if (!vector.every(Number.isFinite)) return VECTOR_BAD_ELEMENT;
    return { vector, end: at + 2 };
  }
  return SYNTAX;
}

function checkDimension(index: VectorIndexValue, vector: Float32Array): ReplyError | undefined {
  return vector.length === index.dimension ? undefined : vectorDimensionMismatch(index.dimension, vector.length);
}

// VECTOR.ADD index id <vector>: 1 when the id is new, 0 when its vector was replaced.
function addCommand(ctx: Ctx, argv: Args): Reply {
  if (argv[2].length === 0) return VECTOR_EMPTY_ID;
  const given = vectorArg(argv, 3);
  if (isError(given)) return given;
  if (given.end !== argv.length) return SYNTAX;
  const index = existingIndex(ctx, argv[1]);
  if (isError(index)) return index;
  const mismatch = checkDimension(index, given.vector);
  if (mismatch !== undefined) return mismatch;
  const added = !index.vectors.has(argv[2]);
  index.vectors.set(argv[2], given.vector);
  return added ? 1 : 0;
}

// VECTOR.GET index id: the components as doubles, null for an id not in the index.
function getCommand(ctx: Ctx, argv: Args): Reply {
  if (argv[2].length === 0) return VECTOR_EMPTY_ID;
  const index = existingIndex(ctx, argv[1]);
  if (isError(index)) return index;
  const vector = index.vectors.get(argv[2]);
  return vector === undefined ? NULL_ARRAY : Array.from(vector, replyDouble);
}

// VECTOR.DEL index id: 1 when the id was there. The emptied index stays.
function delCommand(ctx: Ctx, argv: Args): Reply {
  if (argv[2].length === 0) return VECTOR_EMPTY_ID;
  const index = existingIndex(ctx, argv[1]);
  if (isError(index)) return index;
  return index.vectors.delete(argv[2]) ? 1 : 0;
}

// VECTOR.COUNT index: 0 for a missing index too.
function countCommand(ctx: Ctx, argv: Args): Reply {
  const index = indexAt(ctx, argv[1]);
  return isError(index) ? index : (index?.vectors.size ?? 0);
}

// VECTOR.INFO index: dimension and metric, null for a missing index.
function infoCommand(ctx: Ctx, argv: Args): Reply {
  const index = indexAt(ctx, argv[1]);
  if (isError(index)) return index;
  return index === undefined ? NULL_ARRAY : ['dimension', index.dimension, 'metric', index.metric];
}

// VECTOR.QUERY index TOPK k <vector> [PROFILE p], clauses in any order: [id, score] pairs, best first.
function queryCommand(ctx: Ctx, argv: Args): Reply {
  let topK: number | undefined;
  let query: Float32Array | undefined;
  for (let i = 2; i < argv.length; ) {
    const option = argv[i].toUpperCase();
    if (option === 'TOPK' && i + 1 < argv.length) {
      topK = parseInteger(argv[i + 1]);
      if (topK === undefined || topK < 1 || topK > MAX_TOPK) return VECTOR_BAD_TOPK;
      i += 2;
    } else if (option === 'PROFILE' && i + 1 < argv.length) {
      // Every profile scans every vector: the most precise answer at any profile.
      if (!PROFILES.has(argv[i + 1].toUpperCase())) return SYNTAX;
      i += 2;
    } else {
      const given = vectorArg(argv, i);
      if (isError(given)) return given;
      query = given.vector;
      i = given.end;
    }
  }
  if (topK === undefined || query === undefined) return SYNTAX;
  const index = existingIndex(ctx, argv[1]);
  if (isError(index)) return index;
  const mismatch = checkDimension(index, query);
  if (mismatch !== undefined) return mismatch;
  return index.nearest(query, topK).map((hit) => [hit.id, replyDouble(hit.score)]);
}

// VECTOR.DROP index: 1 when an index was removed, 0 when the key held nothing.
function dropCommand(ctx: Ctx, argv: Args): Reply {
  const index = indexAt(ctx, argv[1]);
  if (isError(index)) return index;
  if (index === undefined) return 0;
  ctx.ks.delete(argv[1]);
  return 1;
}

const WRITE: readonly Flag[] = ['write', 'embedded'];
const READ: readonly Flag[] = ['readonly', 'embedded'];

export default family('vector', null, [
  { name: 'vector.create', arity: -6, flags: WRITE, keys: ONE_KEY, run: createCommand },
  { name: 'vector.add', arity: -5, flags: WRITE, keys: ONE_KEY, run: addCommand },
  { name: 'vector.get', arity: 3, flags: READ, keys: ONE_KEY, run: getCommand },
  { name: 'vector.del', arity: 3, flags: WRITE, keys: ONE_KEY, run: delCommand },
  { name: 'vector.count', arity: 2, flags: [...READ, 'fast'], keys: ONE_KEY, run: countCommand },
  { name: 'vector.info', arity: 2, flags: [...READ, 'fast'], keys: ONE_KEY, run: infoCommand },
  { name: 'vector.query', arity: -6, flags: READ, keys: ONE_KEY, run: queryCommand },
  { name: 'vector.drop', arity: 2, flags: WRITE, keys: ONE_KEY, run: dropCommand },
]);
