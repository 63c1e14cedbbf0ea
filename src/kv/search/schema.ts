// An index definition as SEARCH.CREATE declares it: which keys (data type and prefixes) and
// which fields, each with its type and options. Immutable once parsed; `createArgv` gives the
// command that re-creates it, which is what snapshots store.

import { ArgReader } from '../commands/args.js';
import type { Args } from '../commands/spec.js';
import type { ReplyError } from '../errors.js';
import type { Reply } from '../reply.js';
import * as E from './errors.js';

export type DataType = 'JSON' | 'HASH' | 'STRING';
export type FieldType = 'TEXT' | 'U64' | 'I64' | 'F64' | 'BOOL' | 'DATE' | 'KEYWORD' | 'FACET';

const DATA_TYPES: readonly DataType[] = ['JSON', 'HASH', 'STRING'];
const FIELD_TYPES: readonly FieldType[] = ['TEXT', 'U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD', 'FACET'];
/** The types FAST applies to (the reference's schema table: every type but TEXT and FACET). */
const FAST_TYPES: ReadonlySet<FieldType> = new Set(['U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD']);
export const DEFAULT_LANGUAGE = 'english';

export interface FieldDef {
  /** The name queries use; dots name nested JSON objects (`author.name`). */
  readonly name: string;
  readonly type: FieldType;
  readonly fast: boolean;
  readonly noStem: boolean;
  readonly noTokenize: boolean;
  /** The document's own field when it differs from `name` (FROM). */
  readonly from: string | null;
}

export interface IndexDef {
  readonly name: string;
  readonly dataType: DataType;
  readonly prefixes: readonly string[];
  readonly language: string;
  readonly fields: readonly FieldDef[];
}

export interface CreateRequest {
  readonly def: IndexDef;
  readonly existsOk: boolean;
  readonly skipInitialScan: boolean;
}

// SEARCH.CREATE name [SKIPINITIALSCAN] [EXISTSOK] ON JSON|HASH|STRING PREFIX n p... [LANGUAGE l] SCHEMA field type [opts]...
// The SDK sends SKIPINITIALSCAN and EXISTSOK before ON, the reference after: any order is read.
export function parseCreate(argv: Args): CreateRequest | ReplyError {
  const r = new ArgReader(argv, 2);
  let dataType: DataType | null = null;
  let prefixes: string[] = [];
  let language = DEFAULT_LANGUAGE;
  let existsOk = false;
  let skipInitialScan = false;
  for (let w = r.word('on', 'prefix', 'language', 'existsok', 'skipinitialscan'); w !== undefined; w = r.word('on', 'prefix', 'language', 'existsok', 'skipinitialscan')) {
    if (w === 'on') dataType = readDataType(r);
    else if (w === 'prefix') prefixes = readPrefixes(r);
    else if (w === 'language') language = r.next().toLowerCase();
    else if (w === 'existsok') existsOk = true;
    else skipInitialScan = true;
  }
  if (r.error !== null) return r.error;
  if (dataType === null) return E.MISSING_ON;
  if (prefixes.length === 0) return E.MISSING_PREFIX;
  if (r.word('schema') === undefined || r.done) return E.MISSING_SCHEMA;
  const fields = readFields(r);
  if (fields instanceof Array) return { def: { name: argv[1], dataType, prefixes, language, fields }, existsOk, skipInitialScan };
  return fields;
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

/** The options of a field as DESCRIBE lists them after its type, and as SEARCH.CREATE takes them. */
function fieldOptions(f: FieldDef): string[] {
  const out: string[] = [];
  if (f.fast) out.push('FAST');
  if (f.noTokenize) out.push('NOTOKENIZE');
  if (f.noStem) out.push('NOSTEM');
  if (f.from !== null) out.push('FROM', f.from);
  return out;
}

/** The SEARCH.CREATE that declares `def` again (SKIPINITIALSCAN: the caller rebuilds). */
export function createArgv(def: IndexDef): string[] {
  const argv = ['SEARCH.CREATE', def.name, 'SKIPINITIALSCAN', 'ON', def.dataType, 'PREFIX', String(def.prefixes.length), ...def.prefixes];
  argv.push('LANGUAGE', def.language, 'SCHEMA');
  for (const f of def.fields) argv.push(f.name, f.type, ...fieldOptions(f));
  return argv;
}

/** SEARCH.DESCRIBE's reply: alternating names and values, as the SDK's deserializeDescribeResponse reads it. */
export function describeReply(def: IndexDef): Reply {
  return [
    'name', def.name,
    'type', def.dataType,
    'prefixes', [...def.prefixes],
    'language', def.language,
    'schema', def.fields.map((f) => [f.name, f.type, ...fieldOptions(f)]),
  ];
}

/** Whether two definitions declare the same index (EXISTSOK answers 0 only then). */
export function sameDefinition(a: IndexDef, b: IndexDef): boolean {
  return JSON.stringify(createArgv(a)) === JSON.stringify(createArgv(b));
}
