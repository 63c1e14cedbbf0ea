// Keys, values and arguments travel through the engine as "byte strings": JS strings whose
// every char code is one byte (0-255), i.e. latin1. They are binary safe, cheap to hash as Map
// keys, and byte lengths and offsets are plain string lengths and indexes. Text enters and
// leaves through these conversions only.

const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * True when every char is 7-bit, so UTF-16 text, UTF-8 bytes and latin1 coincide. A regular
 * expression, not a charCodeAt loop: V8 reads each character of a loop over strings of several
 * representations through a generic lookup (a 10 MB JSON.SET spent 0.7 s here).
 */
export function isAscii(s: string): boolean {
  return !NOT_ASCII.test(s);
}

/** Text (UTF-16) to the byte string of its UTF-8 encoding. */
export function utf8Bytes(text: string): string {
  return isAscii(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

/** A byte string decoded as UTF-8; invalid sequences become U+FFFD. */
export function utf8Text(bytes: string): string {
  return isAscii(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString('utf8');
}

export function fromBuffer(buf: Uint8Array): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('latin1');
}

export function toBuffer(bytes: string): Buffer {
  return Buffer.from(bytes, 'latin1');
}

export function base64(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('base64');
}
