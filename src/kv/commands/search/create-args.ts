// SEARCH.CREATE's arguments, read into the index definition search/schema.ts declares. Here,
// with the other argument readers, so search/ needs nothing from commands/.

import type { ReplyError } from '../../errors.js';
import { LANGUAGES } from '../../search/analysis.js';
import * as E from '../../search/errors.js';
import { DATA_TYPES, DEFAULT_LANGUAGE, FAST_TYPES, FIELD_TYPES, type CreateRequest, type DataType, type FieldDef } from '../../search/schema.js';
import { ArgReader } from '../args.js';
import type { Args } from '../spec.js';

// SEARCH.CREATE name [SKIPINITIALSCAN] [EXISTSOK] ON JSON|HASH|STRING PREFIX n p... [LANGUAGE l] SCHEMA field type [opts]...
// SEARCH.CREATE name [SKIPINITIALSCAN] [EXISTSOK] ON STREAM key [LANGUAGE l] SCHEMA field type [opts]...
// The SDK sends SKIPINITIALSCAN and EXISTSOK before ON, the reference after: any order is read.
export function parseCreate(argv: Args): CreateRequest | ReplyError {
  const r = new ArgReader(argv, 2);
  let dataType: DataType | null = null;
  let prefixes: string[] = [];
  let stream: string | null = null;
  let language = DEFAULT_LANGUAGE;
  let existsOk = false;
  let skipInitialScan = false;
  for (let w = r.word('on', 'prefix', 'language', 'existsok', 'skipinitialscan'); w !== undefined; w = r.word('on', 'prefix', 'language', 'existsok', 'skipinitialscan')) {
    if (w === 'on') {
      dataType = readDataType(r);
      if (dataType === 'STREAM') stream = r.next();
    } else if (w === 'prefix') prefixes = readPrefixes(r);
    else if (w === 'language') language = readLanguage(r);
    else if (w === 'existsok') existsOk = true;
    else skipInitialScan = true;
  }
  if (r.error !== null) return r.error;
  if (dataType === null) return E.MISSING_ON;
  if (stream !== null) {
    if (prefixes.length > 0) return E.PREFIX_WITH_STREAM;
    prefixes = [stream];
  }
  if (prefixes.length === 0) return E.MISSING_PREFIX;
  if (r.word('schema') === undefined || r.done) return E.MISSING_SCHEMA;
  const fields = readFields(r);
  if (fields instanceof Array) return { def: { name: argv[1], dataType, prefixes, language, fields }, existsOk, skipInitialScan };
  return fields;
}

/** A language the reference lists (analysis.ts has a stemmer for each). */
function readLanguage(r: ArgReader): string {
  const language = r.next().toLowerCase();
  if (!LANGUAGES.includes(language)) r.fail(E.unknownLanguage(language));
  return language;
}

function readDataType(r: ArgReader): DataType | null {
  const word = r.next().toUpperCase();
  const type = DATA_TYPES.find((t) => t === word);
  if (type === undefined) r.fail(E.unknownDataType(word));
  return type ?? null;
}

function readPrefixes(r: ArgReader): string[] {
  const n = r.int(E.BAD_PREFIX_COUNT);
  if (n <= 0 || n > r.remaining) {
    r.fail(E.BAD_PREFIX_COUNT);
    return [];
  }
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.next());
  return out;
}

function readFields(r: ArgReader): FieldDef[] | ReplyError {
  const fields: FieldDef[] = [];
  while (!r.done && r.error === null) {
    const name = r.next();
    const word = r.next().toUpperCase();
    const type = FIELD_TYPES.find((t) => t === word);
    if (type === undefined) return r.error ?? E.unknownFieldType(word);
    if (fields.some((f) => f.name === name)) return E.duplicateField(name);
    let fast = false;
    let noStem = false;
    let noTokenize = false;
    let from: string | null = null;
    for (let o = r.word('fast', 'nostem', 'notokenize', 'from'); o !== undefined; o = r.word('fast', 'nostem', 'notokenize', 'from')) {
      if (o === 'fast') fast = true;
      else if (o === 'nostem') noStem = true;
      else if (o === 'notokenize') noTokenize = true;
      else from = r.next();
    }
    if (fast && !FAST_TYPES.has(type)) return E.optionNotFor('FAST', type);
    if ((noStem || noTokenize) && type !== 'TEXT') return E.optionNotFor(noStem ? 'NOSTEM' : 'NOTOKENIZE', type);
    fields.push({ name, type, fast, noStem, noTokenize, from });
  }
  return r.error ?? fields;
}
