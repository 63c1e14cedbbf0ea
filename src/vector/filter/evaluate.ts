// Evaluates a parsed filter against one vector's metadata. A condition on a field that is
// absent (or of another type than the value) is false, negated forms included: only
// HAS NOT FIELD matches a missing field.

import { globMatch } from '../../kv/glob.js';
import type { Filter, Literal, Path } from './ast.js';

export type Metadata = Record<string, unknown> | undefined;

function resolve(metadata: Metadata, path: Path): unknown {
  let at: unknown = metadata;
  for (const step of path) {
    if (typeof step === 'string') {
      if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
      at = (at as Record<string, unknown>)[step];
    } else {
      if (!Array.isArray(at)) return undefined;
      at = at[typeof step === 'number' ? step : at.length - step.fromEnd];
    }
    if (at === undefined) return undefined;
  }
  return at;
}

const same = (a: unknown, b: Literal) => typeof a === typeof b && a === b;

export function matches(f: Filter, metadata: Metadata): boolean {
  switch (f.kind) {
    case 'and':
      return matches(f.left, metadata) && matches(f.right, metadata);
    case 'or':
      return matches(f.left, metadata) || matches(f.right, metadata);
    case 'has':
      return (resolve(metadata, f.path) !== undefined) !== f.negated;
    case 'compare': {
      const v = resolve(metadata, f.path);
      if (v === undefined || v === null || typeof v !== typeof f.value) return false;
      switch (f.op) {
        case '=':
          return v === f.value;
        case '!=':
          return v !== f.value;
        case '<':
          return (v as number) < (f.value as number);
        case '<=':
          return (v as number) <= (f.value as number);
        case '>':
          return (v as number) > (f.value as number);
        case '>=':
          return (v as number) >= (f.value as number);
      }
      return false;
    }
    case 'glob': {
      const v = resolve(metadata, f.path);
      return typeof v === 'string' && globMatch(f.pattern, v) !== f.negated;
    }
    case 'in': {
      const v = resolve(metadata, f.path);
      if (v === undefined || v === null || typeof v === 'object') return false;
      return f.values.some((x) => same(v, x)) !== f.negated;
    }
    case 'contains': {
      const v = resolve(metadata, f.path);
      return Array.isArray(v) && v.some((x) => same(x, f.value)) !== f.negated;
    }
  }
}
