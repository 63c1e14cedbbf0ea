// The rule for every name that becomes a file or folder name in the data directory:
//   kv database      <dataDir>/kv/<database>/
//   stream cluster   <dataDir>/streams/<cluster>/
//   stream topic     <dataDir>/streams/<cluster>/<topic>/
//   vector index     <dataDir>/vector/<index>/
// Config load, the CLI flags and every endpoint that creates one check it here, so a name can
// never point outside its folder (`.`, `..`, `/`) or collide with a file the service keeps.
// Topics follow Kafka; the other names also appear in URL paths, so they keep to characters
// that need no percent-encoding, and to a length every file system takes.

export type NameKind = 'database' | 'cluster' | 'topic' | 'index';

interface NameRule {
  readonly pattern: RegExp;
  /** The rule in words, as the error states it. */
  readonly text: string;
}

const RULES: Readonly<Record<NameKind, NameRule>> = {
  database: { pattern: /^[A-Za-z0-9_-]{1,64}$/, text: 'database names are 1 to 64 letters, digits, _ and -' },
  cluster: { pattern: /^[A-Za-z0-9_-]{1,64}$/, text: 'cluster names are 1 to 64 letters, digits, _ and -' },
  // Kafka's rule (kafka/common/internals/Topic.java). `.` and `..` match it and Kafka refuses them
  // too. A topic's folder sits beside the cluster's own files (streams/log/log-backend.ts), so
  // their names, and those of their temp files, are not topics either.
  topic: {
    pattern: /^(?!\.{1,2}$)(?!topics\.json|consumer-offsets\.log)[A-Za-z0-9._-]{1,249}$/,
    text: "topic names are 1 to 249 letters, digits, ., _ and -, not '.' or '..', and not starting with 'topics.json' or 'consumer-offsets.log'",
  },
  // A leading letter or digit keeps `_admin` free for the vector admin endpoints.
  index: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    text: 'index names are 1 to 64 letters, digits, _ and -, starting with a letter or digit',
  },
};

/** The rule `kind` names follow, in words. */
export const nameRule = (kind: NameKind): string => RULES[kind].text;

/** null when `name` is a valid `kind` name; else the error text, naming the name and stating the rule. */
export function badName(kind: NameKind, name: unknown): string | null {
  if (typeof name === 'string' && RULES[kind].pattern.test(name)) return null;
  const shown = typeof name === 'string' ? `'${name}'` : String(name);
  return `invalid ${kind} name ${shown}: ${RULES[kind].text}`;
}
