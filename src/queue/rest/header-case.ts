// Header names as the service shows them in a schedule: canonical form, each word capitalised
// (`content-type` -> `Content-Type`), as Go's net/http writes them; the SDK's schedule tests
// expect exactly these names. Larder keeps names in lower case and cases them only to answer.

export function canonicalHeaderName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** The same header map under canonical names. */
export function canonicalHeaders<V>(h: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [canonicalHeaderName(k.toLowerCase()), v]));
}
