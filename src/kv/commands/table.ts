// The command table: every family's declarations, compiled once at startup into flag bits and
// full ACL category sets. The single source of truth for what a command is.

import acl from './acl.js';
import connection from './connection.js';
import generic from './generic.js';
import server from './server.js';
import string from './string.js';
import transaction from './transaction.js';
import {
  FAST,
  READONLY,
  UNSUPPORTED,
  WIDE_READ,
  WRITE,
  type Command,
  type CommandSpec,
  type Family,
  type Flag,
} from './spec.js';

const FAMILIES: readonly Family[] = [generic, string, server, connection, transaction, acl];

const BITS: Partial<Record<Flag, number>> = {
  write: WRITE,
  readonly: READONLY,
  fast: FAST,
  wideRead: WIDE_READ,
  unsupported: UNSUPPORTED,
};

function compile(fam: Family, spec: CommandSpec): Command {
  let bits = 0;
  for (const f of spec.flags) bits |= BITS[f] ?? 0;
  const categories = new Set<string>(['all', ...(spec.acl ?? [])]);
  if (fam.category !== null) categories.add(fam.category);
  if (bits & WRITE) categories.add('write');
  if (bits & READONLY) categories.add('read');
  categories.add(bits & FAST ? 'fast' : 'slow');
  if (spec.flags.includes('admin')) categories.add('admin').add('dangerous');
  if (spec.flags.includes('dangerous')) categories.add('dangerous');
  return { ...spec, bits, categories };
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

/** Every ACL category some command belongs to. */
export const CATEGORIES: ReadonlySet<string> = new Set([...TABLE.values()].flatMap((c) => [...c.categories]));

/** Looks a command up by the name as sent, in any case. */
export function lookupCommand(name: string): Command | undefined {
  return TABLE.get(name) ?? TABLE.get(name.toLowerCase());
}
