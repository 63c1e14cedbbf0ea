// Evaluates a parsed filter against vectors' metadata. A condition on a field that is absent
// (or of another type than the value) is false, negated forms included: only HAS NOT FIELD
// matches a missing field. Only the metadata's own fields are read (never `constructor` or
// `__proto__`, which every parsed JSON object inherits). A query compiles its filter once into a predicate (closures, paths
// resolved by one loop), rather than walking the tree for each of the vectors it checks.

import { globMatch } from '../../text/glob.js';
import type { Filter, Literal, Path } from './ast.js';

export type Metadata = Record<string, unknown> | undefined;
export type Predicate = (metadata: Metadata) => boolean;

function resolve(metadata: Metadata, path: Path): unknown {
  let at: unknown = metadata;
  for (const step of path) {
    if (typeof step === 'string') {
      if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, step)) return undefined;
      at = (at as Record<string, unknown>)[step];
    } else {
      if (!Array.isArray(at)) return undefined;
      at = at[typeof step === 'number' ? step : at.length - step.fromEnd];
    }
    if (at === undefined) return undefined;
  }
  return at;
}

/** The path's value in metadata; a one-field path (the usual case) skips the loop. */
function reader(path: Path): (metadata: Metadata) => unknown {
  const first = path[0];
  if (path.length === 1 && typeof first === 'string') {
    return (m) => (typeof m === 'object' && m !== null && !Array.isArray(m) && Object.hasOwn(m, first) ? m[first] : undefined);
  }
  return (m) => resolve(m, path);
}

const same = (a: unknown, b: Literal) => typeof a === typeof b && a === b;

/** Compiles a filter into a predicate over one vector's metadata. */
export function compileFilter(f: Filter): Predicate {
  switch (f.kind) {
    case 'and': {
      const left = compileFilter(f.left);
      const right = compileFilter(f.right);
      return (m) => left(m) && right(m);
    }
    case 'or': {
      const left = compileFilter(f.left);
      const right = compileFilter(f.right);
      return (m) => left(m) || right(m);
    }
    case 'has': {
      const read = reader(f.path);
      const negated = f.negated;
      return (m) => (read(m) !== undefined) !== negated;
    }
    case 'compare':
      return compileCompare(f.path, f.op, f.value);
    case 'glob': {
      const read = reader(f.path);
      const { pattern, negated } = f;
      return (m) => {
        const v = read(m);
        return typeof v === 'string' && globMatch(pattern, v) !== negated;
      };
    }
    case 'in': {
      const read = reader(f.path);
      const { values, negated } = f;
      return (m) => {
        const v = read(m);
        if (v === undefined || v === null || typeof v === 'object') return false;
        return values.some((x) => same(v, x)) !== negated;
      };
    }
    case 'contains': {
      const read = reader(f.path);
      const { value, negated } = f;
      return (m) => {
        const v = read(m);
        return Array.isArray(v) && v.some((x) => same(x, value)) !== negated;
      };
    }
  }
}

function compileCompare(path: Path, op: Extract<Filter, { kind: 'compare' }>['op'], value: Literal): Predicate {
  const read = reader(path);
  const type = typeof value;
  switch (op) {
    case '=':
      return (m) => read(m) === value;
    case '!=':
      return (m) => {
        const v = read(m);
        return typeof v === type && v !== value;
      };
    case '<':
      return (m) => {
        const v = read(m);
        return typeof v === type && (v as number) < (value as number);
      };
    case '<=':
      return (m) => {
        const v = read(m);
        return typeof v === type && (v as number) <= (value as number);
      };
    case '>':
      return (m) => {
        const v = read(m);
        return typeof v === type && (v as number) > (value as number);
      };
    case '>=':
      return (m) => {
        const v = read(m);
        return typeof v === type && (v as number) >= (value as number);
      };
  }
}

/** Whether one vector's metadata matches; a query checking many compiles the filter once instead. */
export function matches(f: Filter, metadata: Metadata): boolean {
  return compileFilter(f)(metadata);
}
