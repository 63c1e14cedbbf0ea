// The serialized form of a sorted set, for DUMP/RESTORE and snapshots, as a byte string:
//   [u32 count] then per member, in order: [u32 length][member bytes][f64 score]
// all little endian. Scores are stored as their exact bits, so nothing is lost to printing.

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

function u32(n: number): string {
  return String.fromCharCode(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
}

function readU32(s: string, at: number): number {
  return (s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8) | (s.charCodeAt(at + 2) << 16) | (s.charCodeAt(at + 3) << 24)) >>> 0;
}

export function encodeEntries(size: number, entries: Iterable<{ readonly member: string; readonly score: number }>): string {
  const parts: string[] = [u32(size)];
  for (const { member, score } of entries) {
    f64[0] = score;
    const b = f64Bytes;
    // Eight arguments, not a spread: a spread allocates an array per member.
    parts.push(u32(member.length), member, String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]));
  }
  return parts.join('');
}

/** The (member, score) pairs of an encoding, or null when it is malformed or empty (never throws). */
export function decodeEntries(bytes: string): [string, number][] | null {
  if (bytes.length < 4) return null;
  const count = readU32(bytes, 0);
  // No key holds an empty set; and each entry takes at least 12 bytes, so a count the input
  // cannot hold is refused before anything is allocated.
  if (count === 0 || count > (bytes.length - 4) / 12) return null;
  const out: [string, number][] = [];
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) return null;
    const len = readU32(bytes, at);
    at += 4;
    if (at + len + 8 > bytes.length) return null;
    const member = bytes.slice(at, at + len);
    at += len;
    for (let b = 0; b < 8; b++) f64Bytes[b] = bytes.charCodeAt(at + b);
    at += 8;
    if (Number.isNaN(f64[0])) return null;
    out.push([member, f64[0]]);
  }
  return at === bytes.length ? out : null;
}
