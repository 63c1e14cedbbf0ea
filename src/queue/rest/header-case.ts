// Header names as the service shows them in a schedule: canonical form, each word capitalised
// (`content-type` -> `Content-Type`), as Go's net/http writes them; the SDK's schedule tests
// expect exactly these names. Larder keeps names in lower case and cases them only to answer.

export function canonicalHeaderName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** A header map with canonical names, each value a list as the API shows it. */
export function canonicalHeaders(h: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [canonicalHeaderName(k.toLowerCase()), [v]]));
}
