// `--name value` and `--name=value` flags of the CLI commands. Names outside `allowed` are
// errors (with the command's usage); names in `repeatable` collect every value in order; names
// in `switches` take no value (`--name` is "true", `--name=false` turns it off).

import { ConfigError } from '../config/load.js';

export interface Flags {
  flags: Record<string, string>;
  lists: Record<string, string[]>;
}

export function parseFlags(
  args: readonly string[],
  allowed: ReadonlySet<string>,
  usage: string,
  repeatable: ReadonlySet<string> = new Set(),
  switches: ReadonlySet<string> = new Set(),
): Flags {
  const flags: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (m === null || !(allowed.has(m[1]) || repeatable.has(m[1]) || switches.has(m[1]))) throw new ConfigError(`unknown argument '${args[i]}'\n${usage}`);
    if (switches.has(m[1])) {
      flags[m[1]] = m[2] ?? 'true';
      continue;
    }
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new ConfigError(`--${m[1]} needs a value`);
    if (repeatable.has(m[1])) (lists[m[1]] ??= []).push(value);
    else flags[m[1]] = value;
  }
  return { flags, lists };
}
