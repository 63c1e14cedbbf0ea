// The work one JSON command may do. Each `..` in a path matches every value below each match
// so far: $..*..*..* on a 1 KB document 120 levels deep matches millions of values and printing
// them takes billions, which held the database's thread for minutes and its memory for
// gigabytes. A command may touch BASE values plus PER_VALUE for each value of the documents
// it reads: a value reached by a path's step, tested by a filter, compared by JSON.ARRINDEX,
// answered by JSON.OBJKEYS, printed in a read's reply, added by a write (a value placed at
// each of a path's matches is copied for each) or moved by one (an array's elements, when an
// insertion, pop or trim splices it) counts one. Past that the command stops with
// an error; every write finds its matches and counts its copies before it changes anything,
// so a stopped command has changed nothing.

import { jsonTooCostly, type ReplyError } from '../../errors.js';
import type { JsonValue } from './json-value.js';

const BASE = 1_000_000;
const PER_VALUE = 16;

/** Thrown where a command's work passes its bound; boundedWork answers its error. */
class JsonWorkExceeded {
  constructor(readonly limit: number) {}
}

/** What the running command may still touch: unbounded outside a JSON command (snapshots, DUMP, search). */
let left = Infinity;
let limit = BASE;
/** The documents the running command reads, counted only if BASE runs out. */
let documents: (() => readonly JsonValue[]) | null = null;

/** Runs one JSON command within its bound of work: its reply, or the error that stopped it. */
export function boundedWork<T>(documentsRead: () => readonly JsonValue[], run: () => T): T | ReplyError {
  left = limit = BASE;
  documents = documentsRead;
  try {
    return run();
  } catch (err) {
    if (err instanceof JsonWorkExceeded) return jsonTooCostly(err.limit, BASE, PER_VALUE);
    throw err;
  } finally {
    left = Infinity;
    documents = null;
  }
}

/** Counts `n` values touched by the running command. */
export function touch(n: number): void {
  left -= n;
  if (left < 0) grow();
}

/** Counts the values a write is about to add: `value` placed at `places` places, each a copy. */
export function touchPlacing(places: number, value: JsonValue): void {
  if (places > 0) touch(places * valuesIn(value));
}

/** The first time BASE runs out, the documents' size is added to it; the second time, the command stops. */
function grow(): void {
  if (documents !== null) {
    let values = 0;
    for (const doc of documents()) values += valuesIn(doc);
    documents = null;
    const grown = BASE + PER_VALUE * values;
    left += grown - limit;
    limit = grown;
    if (left >= 0) return;
  }
  throw new JsonWorkExceeded(limit);
}

function valuesIn(v: JsonValue): number {
  let n = 1;
  if (Array.isArray(v)) for (const x of v) n += valuesIn(x);
  else if (v instanceof Map) for (const x of v.values()) n += valuesIn(x);
  return n;
}
