// Which vectors hold a given scalar in a top-level metadata field, so a selective filter
// (`bucket = 7`, `city IN ('a', 'b')`) visits only the vectors it can match instead of all of
// them. A field is indexed from the first filter that asks for it on, and kept up to date by
// every write after; fields never filtered on cost nothing. The index only bounds the answer:
// the compiled filter still decides each candidate, so it never changes what a filter matches.
// Not safe for concurrent use; the index's JS thread owns it.

import type { Filter, Literal, Path } from '../filter/ast.js';
import type { Metadata } from '../filter/evaluate.js';

type Postings = Map<Literal, Set<number>>;

const EMPTY: ReadonlySet<number> = new Set();

function isScalar(v: unknown): v is Literal {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function fieldsOf(metadata: Metadata): Record<string, unknown> | null {
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata : null;
}

export class MetadataIndex {
  private readonly fields = new Map<string, Postings>();

  add(label: number, metadata: Metadata): void {
    const m = fieldsOf(metadata);
    if (m !== null) for (const [field, postings] of this.fields) post(postings, label, m[field]);
  }

  remove(label: number, metadata: Metadata): void {
    const m = fieldsOf(metadata);
    if (m === null) return;
    for (const [field, postings] of this.fields) {
      const v = m[field];
      if (!isScalar(v)) continue;
      const labels = postings.get(v);
      if (labels === undefined) continue;
      labels.delete(label);
      if (labels.size === 0) postings.delete(v);
    }
  }

  clear(): void {
    this.fields.clear();
  }

  /**
   * A superset of the labels whose metadata `f` can match, or null when the filter gives no
   * bound (a range, a negation, a nested path...). `all` lists every record, to index a field
   * the first time a filter asks for it.
   */
  bound(f: Filter, all: () => Iterable<{ label: number; metadata: Metadata }>): ReadonlySet<number> | null {
    switch (f.kind) {
      case 'and': {
        const left = this.bound(f.left, all);
        const right = this.bound(f.right, all);
        if (left === null || right === null) return left ?? right;
        return left.size <= right.size ? left : right;
      }
      case 'or': {
        const left = this.bound(f.left, all);
        const right = left === null ? null : this.bound(f.right, all);
        return left === null || right === null ? null : union([left, right]);
      }
      case 'compare': {
        const postings = f.op === '=' ? this.postings(f.path, all) : null;
        return postings === null ? null : (postings.get(f.value) ?? EMPTY);
      }
      case 'in': {
        const postings = f.negated ? null : this.postings(f.path, all);
        return postings === null ? null : union(f.values.map((v) => postings.get(v) ?? EMPTY));
      }
      default:
        return null;
    }
  }

  /** The postings of a one-field path, indexing the field on first use; null for other paths. */
  private postings(path: Path, all: () => Iterable<{ label: number; metadata: Metadata }>): Postings | null {
    const field = path[0];
    if (path.length !== 1 || typeof field !== 'string') return null;
    let postings = this.fields.get(field);
    if (postings !== undefined) return postings;
    this.fields.set(field, (postings = new Map()));
    for (const r of all()) post(postings, r.label, fieldsOf(r.metadata)?.[field]);
    return postings;
  }
}

/** Files `label` under the field's value `v`, when a scalar (the only values `=` and IN match). */
function post(postings: Postings, label: number, v: unknown): void {
  if (!isScalar(v)) return;
  let labels = postings.get(v);
  if (labels === undefined) postings.set(v, (labels = new Set()));
  labels.add(label);
}

function union(sets: readonly ReadonlySet<number>[]): ReadonlySet<number> {
  if (sets.length === 1) return sets[0];
  const out = new Set<number>();
  for (const s of sets) for (const label of s) out.add(label);
  return out;
}
