// Integer fields of a bitmap, as BITFIELD reads and writes them (Redis bitops.c
// getUnsignedBitfield/setUnsignedBitfield): `bits` wide (1..64), most significant bit first,
// starting at any bit offset. The caller guarantees the bytes exist. Fields up to 52 bits wide
// are exact as numbers; wider ones (i64, u63, ...) need the bigint forms.

/** The field's bits as an unsigned number (bits <= 52). */
export function readNumber(p: Uint8Array, offset: number, bits: number): number {
  let value = 0;
  for (let end = offset + bits; offset < end; offset++) {
    value = value * 2 + ((p[offset >>> 3] >> (7 - (offset & 7))) & 1);
  }
  return value;
}

/** Stores the low `bits` bits of the non-negative `value` (bits <= 52). */
export function writeNumber(p: Uint8Array, offset: number, bits: number, value: number): void {
  for (let at = offset + bits - 1; at >= offset; at--) {
    const bit = value % 2;
    value = (value - bit) / 2;
    const mask = 1 << (7 - (at & 7));
    p[at >>> 3] = bit === 1 ? p[at >>> 3] | mask : p[at >>> 3] & ~mask;
  }
}

/** The field's bits as an unsigned bigint. */
export function readBig(p: Uint8Array, offset: number, bits: number): bigint {
  const hi = Math.max(bits - 32, 0);
  return (BigInt(readNumber(p, offset, hi)) << BigInt(bits - hi)) | BigInt(readNumber(p, offset + hi, bits - hi));
}

/** Stores the low `bits` bits of `value`, taken as two's complement. */
export function writeBig(p: Uint8Array, offset: number, bits: number, value: bigint): void {
  const hi = Math.max(bits - 32, 0);
  const low = bits - hi;
  writeNumber(p, offset, hi, Number(BigInt.asUintN(hi, value >> BigInt(low))));
  writeNumber(p, offset + hi, low, Number(BigInt.asUintN(low, value)));
}
