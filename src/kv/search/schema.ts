// An index definition as SEARCH.CREATE declares it: which keys (data type and prefixes, or for
// a STREAM index the one stream key, its entries the documents) and which fields, each with its
// type and options. Immutable once parsed (commands/search/create-args.ts
// reads SEARCH.CREATE); `createArgv` gives the command that re-creates it, which is what snapshots store.

import type { Reply } from '../reply.js';

export type DataType = 'JSON' | 'HASH' | 'STRING' | 'STREAM';
export type FieldType = 'TEXT' | 'U64' | 'I64' | 'F64' | 'BOOL' | 'DATE' | 'KEYWORD' | 'FACET';

export const DATA_TYPES: readonly DataType[] = ['JSON', 'HASH', 'STRING', 'STREAM'];
export const FIELD_TYPES: readonly FieldType[] = ['TEXT', 'U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD', 'FACET'];
/** The types FAST applies to (the reference's schema table: every type but TEXT and FACET). */
export const FAST_TYPES: ReadonlySet<FieldType> = new Set(['U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD']);
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
  /** The key prefixes it covers; a STREAM index's one stream key (DESCRIBE lists it so, as the SDK reads it). */
  readonly prefixes: readonly string[];
  readonly language: string;
  readonly fields: readonly FieldDef[];
}

export interface CreateRequest {
  readonly def: IndexDef;
  readonly existsOk: boolean;
  readonly skipInitialScan: boolean;
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
  const argv = ['SEARCH.CREATE', def.name, 'SKIPINITIALSCAN', 'ON', def.dataType];
  if (def.dataType === 'STREAM') argv.push(def.prefixes[0]);
  else argv.push('PREFIX', String(def.prefixes.length), ...def.prefixes);
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
