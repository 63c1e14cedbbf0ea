// The command table: every family's declarations, compiled once at startup into flag bits and
// full ACL category sets. The single source of truth for what a command is.

import acl from './acl.js';
import array from './array.js';
import bitmap from './bitmap.js';
import connection from './connection.js';
import generic from './generic.js';
import geo from './geo.js';
import hash from './hash.js';
import json from './json.js';
import list from './list.js';
import pubsub from './pubsub.js';
import hyperloglog from './hll.js';
import server from './server.js';
import set from './set.js';
import string from './string.js';
import transaction from './transaction.js';
import scripting from './scripting.js';
import search from './search.js';
import sort from './sort.js';
import stream from './stream.js';
import vector from './vector.js';
import zset from './zset.js';
import {
  ADMIN,
  BLOCKING,
  CATEGORIES,
  CHANGES_SERVER,
  SPANS_NODES,
  NOT_FOR_READ_ONLY,
  GATEWAY,
  STREAM,
  EMBEDDED,
  FAST,
  NOSCRIPT,
  READONLY,
  READ_LOOKUPS,
  RUNS_SCRIPT,
  RESTORES_PAYLOAD,
  UNSUPPORTED,
  WIDE_READ,
  WRITE,
  type Command,
  type CommandList,
  type CommandSpec,
  type Family,
  type Flag,
} from './spec.js';

const FAMILIES: readonly Family[] = [
  generic, string, hash, list, set, zset, geo, sort, bitmap, hyperloglog, json, stream, server, connection, transaction,
  acl, pubsub, scripting, search, vector, array,
];

const BITS: Partial<Record<Flag, number>> = {
  write: WRITE,
  readonly: READONLY,
  fast: FAST,
  wideRead: WIDE_READ,
  unsupported: UNSUPPORTED,
  admin: ADMIN,
  noscript: NOSCRIPT,
  gateway: GATEWAY,
  stream: STREAM,
  changesServer: CHANGES_SERVER,
  embedded: EMBEDDED,
  spansNodes: SPANS_NODES,
  readLookups: READ_LOOKUPS,
  runsScript: RUNS_SCRIPT,
  restoresPayload: RESTORES_PAYLOAD,
};


function compile(fam: Family, spec: CommandSpec, name = spec.name): Command {
  let bits = 0;
  for (const f of spec.flags) bits |= BITS[f] ?? 0;
  // Read-only tokens read data: no writes, no keyspace walks, no administration, no other change.
  if (bits & (WRITE | WIDE_READ | ADMIN | CHANGES_SERVER)) bits |= NOT_FOR_READ_ONLY;
  // A read looks its keys up as reads, publishing keymiss for those it misses (Redis's lookupKeyRead).
  if (bits & READONLY) bits |= READ_LOOKUPS;
  const categories = new Set<string>(['all', ...(spec.acl ?? [])]);
  if (fam.category !== null) categories.add(fam.category);
  if (bits & WRITE) categories.add('write');
  // Blocking is declared as Redis declares it, an ACL category; the bit saves a lookup per command.
  if (categories.has('blocking')) bits |= BLOCKING;
  // Redis gives @read to read-only commands except scripting's (EVAL_RO, FCALL_RO).
  if (bits & READONLY && fam.category !== 'scripting') categories.add('read');
  categories.add(bits & FAST ? 'fast' : 'slow');
  if (spec.flags.includes('admin')) categories.add('admin').add('dangerous');
  if (spec.flags.includes('dangerous')) categories.add('dangerous');
  for (const c of categories) {
    if (c !== 'all' && !CATEGORIES.has(c)) throw new Error(`command '${name}' declares unknown ACL category '${c}'`);
  }
  const subcommands = spec.subcommands?.map((sub): [string, Command] => [sub.name, compile(fam, sub, `${name}|${sub.name}`)]);
  return { ...spec, name, bits, categories, subcommands: subcommands && new Map(subcommands) };
}

function build(families: readonly Family[]): ReadonlyMap<string, Command> {
  const table = new Map<string, Command>();
  for (const fam of families) {
    for (const spec of fam.commands) {
      if (table.has(spec.name)) throw new Error(`command '${spec.name}' declared twice (${fam.name})`);
      table.set(spec.name, compile(fam, spec));
    }
  }
  return table;
}

export const TABLE: ReadonlyMap<string, Command> = build(FAMILIES);

/** Looks a command up by the name as sent, in any case. */
export function lookupCommand(name: string): Command | undefined {
  return TABLE.get(name) ?? TABLE.get(name.toLowerCase());
}

/** The table as handed to COMMAND, ACL and the ACL rules (see CommandList). */
export const COMMANDS: CommandList = {
  byName: TABLE,
  every: [...TABLE.values()].flatMap((c) => [c, ...(c.subcommands?.values() ?? [])]),
  lookup: lookupCommand,
};
