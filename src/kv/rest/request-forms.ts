// The three ways a command arrives, and the batch form, turned into argv byte strings.
//   1. path segments:              /set/key/value
//   2. path plus body value:       POST /set/key  (body = value; query pairs follow it)
//   3. JSON array body:            POST /  ["set", "key", "value"]
//   batch:                         POST /pipeline or /multi-exec  [["set","k","v"], ["get","k"]]

import { fromBuffer, utf8Bytes } from '../bytes.js';
import type { Args } from '../commands/spec.js';
import { percentDecode, queryPairs } from '../../server/url.js';

export class FormError {
  constructor(readonly text: string) {}
}

const TOKEN_PARAM = '_token';

/** Form 1, and form 2 when `body` is given. */
export function pathCommand(segments: readonly string[], from: number, query: string, body: Uint8Array | null): Args {
  const argv: string[] = [];
  for (let i = from; i < segments.length; i++) argv.push(percentDecode(segments[i]));
  if (body !== null && body.length > 0) argv.push(fromBuffer(body));
  if (query !== '') {
    for (const [name, value] of queryPairs(query)) if (name !== TOKEN_PARAM) argv.push(name, value);
  }
  return argv;
}

/** Form 3: a JSON array of strings and numbers. */
export function jsonCommand(body: Uint8Array): Args | FormError {
  const parsed = parseJson(body);
  return parsed instanceof FormError ? parsed : toArgv(parsed);
}

/** A pipeline or transaction body: a non-empty JSON array of command arrays. */
export function jsonBatch(body: Uint8Array): Args[] | FormError {
  const parsed = parseJson(body);
  if (parsed instanceof FormError) return parsed;
  if (!Array.isArray(parsed) || parsed.length === 0) {
    return new FormError('ERR a pipeline or transaction body must be a non-empty JSON array of commands');
  }
  const batch: Args[] = [];
  for (const item of parsed) {
    const argv = toArgv(item);
    if (argv instanceof FormError) return argv;
    batch.push(argv);
  }
  return batch;
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return new FormError('ERR failed to parse the request body as JSON');
  }
}

function toArgv(value: unknown): Args | FormError {
  if (!Array.isArray(value) || value.length === 0) {
    return new FormError('ERR a command must be a non-empty JSON array of strings and numbers');
  }
  const argv: string[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v === 'string') argv[i] = utf8Bytes(v);
    else if (typeof v === 'number' || typeof v === 'boolean') argv[i] = String(v);
    else return new FormError(`ERR command arguments must be strings or numbers, got ${v === null ? 'null' : typeof v}`);
  }
  return argv;
}
