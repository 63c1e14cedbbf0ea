// HIGHLIGHT: the words of a returned field that the query matched, wrapped in tags. A word is
// marked when its term is one a positive clause of the filter asked for in that field: an
// exact term, a phrase's term, or a term a fuzzy, prefix or regex clause accepts ($mustNot
// clauses mark nothing). A KEYWORD value is marked whole when the filter asked for it. The
// reference: highlighting "only works for operators that resolve to terms".

import { Analyzer } from './analysis.js';
import type { Filter } from './filter.js';
import type { FieldDef, IndexDef } from './schema.js';

/** The reference's default tags. */
export const DEFAULT_TAGS = { open: '<em>', close: '</em>' } as const;

export interface HighlightRequest {
  readonly fields: readonly FieldDef[];
  readonly open: string;
  readonly close: string;
}

/** Rewrites one value of a highlighted field for display. */
export type Marker = (field: FieldDef, text: string) => string;

export function marker(req: HighlightRequest, filter: Filter, def: IndexDef): Marker {
  const wanted = new Map<FieldDef, ((term: string) => boolean)[]>();
  collect(filter, wanted);
  const analyzers = new Map(req.fields.filter((f) => f.type === 'TEXT').map((f) => [f, new Analyzer(f, def.language)]));
  return (field, text) => {
    const accepts = wanted.get(field);
    if (accepts === undefined) return text;
    const analyzer = analyzers.get(field);
    if (analyzer === undefined) return accepts.some((a) => a(text)) ? req.open + text + req.close : text;
    let out = '';
    let at = 0;
    for (const t of analyzer.tokens(text)) {
      if (!accepts.some((a) => a(t.term))) continue;
      out += text.slice(at, t.start) + req.open + text.slice(t.start, t.end) + req.close;
      at = t.end;
    }
    return out + text.slice(at);
  };
}

/** What each field's positive clauses accept, by term (TEXT) or whole value (KEYWORD). */
function collect(f: Filter, into: Map<FieldDef, ((term: string) => boolean)[]>): void {
  const add = (field: FieldDef, accepts: (term: string) => boolean) => {
    const list = into.get(field);
    if (list === undefined) into.set(field, [accepts]);
    else list.push(accepts);
  };
  switch (f.kind) {
    case 'bool':
      for (const g of [...f.must, ...f.should]) collect(g, into);
      return;
    case 'term':
      return add(f.field, (t) => t === f.term);
    case 'expand':
      return add(f.field, f.pattern.matches);
    case 'phrase':
      for (const slot of f.slots) add(f.field, typeof slot === 'string' ? (t) => t === slot : slot.matches);
      return;
    case 'equals':
      if (f.field.type === 'KEYWORD') add(f.field, (v) => f.values.includes(v));
      return;
    case 'range':
      return;
  }
}
