// The 100-byte value every KV row reads and writes: URL-safe, so it can sit in a path as is.
export const VALUE = 'v'.repeat(100);
