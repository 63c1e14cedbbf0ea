// Redis Cluster's hash slot of a key: CRC16 (XMODEM) of the key, or of its hash tag, mod 16384.
// The hash tag is what lies between the first '{' and the first '}' after it, when that is not
// empty ("{user1}.name" and "{user1}.mail" share a slot). Keys are byte strings (bytes.ts).

const SLOTS = 16384;

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    t[i] = crc;
  }
  return t;
})();

export function crc16(bytes: string, from = 0, to = bytes.length): number {
  let crc = 0;
  for (let i = from; i < to; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes.charCodeAt(i)) & 0xff];
  return crc;
}

export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key, open + 1, close) % SLOTS;
  }
  return crc16(key) % SLOTS;
}

/** The one slot all `keys` hash to; undefined when there are none, -1 when they differ. */
export function commonSlot(keys: readonly string[]): number | undefined {
  let slot: number | undefined;
  for (const key of keys) {
    const s = keySlot(key);
    if (slot === undefined) slot = s;
    else if (s !== slot) return -1;
  }
  return slot;
}
