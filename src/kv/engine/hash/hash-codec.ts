// The serialized form of a hash (DUMP payloads and snapshots), as a byte string:
//   [u32 field count] then per field, in order:
//   [u32 name length][name][u32 value length][value][u8 1 if it has an expiry][u32 low, u32 high: expiry ms]
// Integers are little-endian; an expiry is absolute ms since the epoch, a double no greater
// than 2^63 (past 2^53 its low bits are zeros, so the two words hold it exactly), so a field's
// TTL means the same instant after a restart.

export interface FieldRow {
  readonly name: string;
  readonly value: string;
  /** Absolute expiry in ms; 0 = none. */
  readonly exp: number;
}

const TWO_32 = 2 ** 32;
/** The latest expiry a field can have: int64 ms, as EXPIREAT allows for a key, as a double. */
const MAX_EXPIRY = 2 ** 63;

export function encodeFields(rows: Iterable<FieldRow>, count: number): string {
  const parts: string[] = [u32(count)];
  for (const r of rows) {
    parts.push(u32(r.name.length), r.name, u32(r.value.length), r.value);
    parts.push(r.exp === 0 ? '\x00' : '\x01' + u32(r.exp % TWO_32) + u32(Math.floor(r.exp / TWO_32)));
  }
  return parts.join('');
}

/** The rows of an encoding, or null when the bytes are not one (truncated, trailing bytes, a name twice). */
export function decodeFields(bytes: string): FieldRow[] | null {
  let at = 0;
  const readU32 = (): number => {
    if (at + 4 > bytes.length) return -1;
    const n =
      (bytes.charCodeAt(at) | (bytes.charCodeAt(at + 1) << 8) | (bytes.charCodeAt(at + 2) << 16) | (bytes.charCodeAt(at + 3) << 24)) >>> 0;
    at += 4;
    return n;
  };
  const readBytes = (): string | null => {
    const len = readU32();
    if (len < 0 || at + len > bytes.length) return null;
    at += len;
    return bytes.slice(at - len, at);
  };
  const count = readU32();
  // Each field takes at least 9 bytes, so a count beyond that is malformed, not a reason to loop.
  if (count < 0 || count > (bytes.length - at) / 9) return null;
  const rows: FieldRow[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = readBytes();
    const value = readBytes();
    if (name === null || value === null || names.has(name) || at >= bytes.length) return null;
    names.add(name);
    let exp = 0;
    if (bytes.charCodeAt(at++) === 1) {
      const low = readU32();
      const high = readU32();
      if (low < 0 || high < 0) return null;
      exp = high * TWO_32 + low;
      if (exp === 0 || exp > MAX_EXPIRY) return null;
    } else if (bytes.charCodeAt(at - 1) !== 0) return null;
    rows.push({ name, value, exp });
  }
  return at === bytes.length ? rows : null;
}

function u32(n: number): string {
  return String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}
