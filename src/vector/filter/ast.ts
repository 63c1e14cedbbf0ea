// The metadata filter language's syntax tree, shared by the parser and the evaluator.

/** A step into metadata: a field name, an array index from the start, or `#-n` from the end. */
export type Step = string | number | { readonly fromEnd: number };
export type Path = readonly Step[];
export type Literal = string | number | boolean;
export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Filter =
  | { readonly kind: 'and' | 'or'; readonly left: Filter; readonly right: Filter }
  | { readonly kind: 'compare'; readonly path: Path; readonly op: Comparison; readonly value: Literal }
  | { readonly kind: 'glob'; readonly path: Path; readonly pattern: string; readonly negated: boolean }
  | { readonly kind: 'in'; readonly path: Path; readonly values: readonly Literal[]; readonly negated: boolean }
  | { readonly kind: 'contains'; readonly path: Path; readonly value: Literal; readonly negated: boolean }
  | { readonly kind: 'has'; readonly path: Path; readonly negated: boolean };
